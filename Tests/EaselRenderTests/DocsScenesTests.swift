import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The docs' scenes and the examples as a visual regression set: each
/// compiles, and its PNG agrees with its PDF (rendered by poppler) and its
/// SVG (rendered by librsvg) — three outputs, two independent rasterisers.
final class DocsScenesTests: XCTestCase {
    static var scenes: [URL] {
        ["docs/scenes", "examples"].flatMap { folder -> [URL] in
            let dir = ExternalTool.repositoryRoot.appendingPathComponent(folder)
            return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
                .filter { $0.hasSuffix(".scene.xml") }.sorted().map { dir.appendingPathComponent($0) }
        }
    }

    func testEveryDocsSceneAndExampleAgreesInPNGPDFAndSVG() throws {
        XCTAssertGreaterThanOrEqual(Self.scenes.count, 30)
        for url in Self.scenes {
            let name = url.deletingPathExtension().deletingPathExtension().lastPathComponent
            let compiled = try Easel.compile(fileAt: url).get()
            let png = try compiled.renderImage(scale: 1)
            let pdf = try ReferenceRenderers.poppler(try compiled.render(format: .pdf))
            let svg = try ReferenceRenderers.rsvg(String(decoding: try compiled.render(format: .svg), as: UTF8.self))
            // Compared as means of 4×4 blocks, at most 6% of which may
            // differ by more than 16/255: each rasteriser anti-aliases edges
            // (glyphs above all) its own way, which the means mostly average
            // out; a wrong fill, gradient, clip or placement covers more.
            // Poppler draws a rotated tiling pattern from a tile rasterised
            // at device resolution, moving its edges by up to a pixel (the
            // squares' centres are where the contract puts them in both, and
            // librsvg renders the same pattern from the SVG identical to the
            // PNG), so that scene's PDF is held to 20%.
            for (format, reference) in [("pdf", pdf), ("svg", svg)] {
                let bound = format == "pdf" && name == "patterns" ? 0.2 : 0.06
                assertSimilar(png.blockMeans(4), reference.blockMeans(4), tolerance: 16, maxFraction: bound,
                              name: "\(name)-\(format)")
                if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1",
                   let d = compare(png.blockMeans(4), reference.blockMeans(4), tolerance: 16) {
                    print("AGREE \(name) \(format) \(String(format: "%.4f", d.fractionOver)) max \(d.maxDifference)")
                }
            }
        }
    }
}
