import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The docs' scenes and the examples as a visual regression set: each
/// compiles, and its PNG agrees with its PDF (rendered by poppler) and its
/// SVG (rendered by librsvg) — three outputs, two independent rasterisers.
final class DocsScenesTests: XCTestCase {
    static var scenes: [URL] {
        ["docs/scenes", "examples", "examples/graphs", "examples/svg-logo"].flatMap { folder -> [URL] in
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

/// The SVG Easel writes from its render tree, shown by headless Chromium
/// (a browser: where SVG output is most often looked at), against the PNG
/// of the same tree: every docs scene and example, animations paused at 0.
/// Chromium anti-aliases with Skia, a third rasteriser; held to the same
/// block means and bound as librsvg above.
final class SVGInChromiumTests: XCTestCase {
    func testEveryDocsSceneSVGInChromiumLooksLikeThePNG() throws {
        let side = 1000
        let browser = try HeadlessChromium(width: side, height: side)
        let dir = ExternalTool.temporaryDirectory("svg-in-chromium")
        var compared = 0
        for url in DocsScenesTests.scenes {
            let name = url.deletingPathExtension().deletingPathExtension().lastPathComponent
            let compiled = try Easel.compile(fileAt: url).get()
            let png = try compiled.renderImage(scale: 1).overWhite()
            guard png.width <= side, png.height <= side else { continue }
            let file = dir.appendingPathComponent("\(name).svg")
            try Data(try compiled.render(format: .svg)).write(to: file)
            try browser.open(file.absoluteString)
            // Loaded, animations held at 0, and two frames drawn since.
            XCTAssertTrue(try browser.waitUntil("""
                (() => { if (document.readyState !== 'complete' || document.documentElement.localName !== 'svg') return false;
                  const s = document.documentElement;
                  if (s.pauseAnimations) { s.pauseAnimations(); s.setCurrentTime(0); }
                  requestAnimationFrame(() => requestAnimationFrame(() => { window.easelDrawn = true; }));
                  return true })()
                """), name)
            XCTAssertTrue(try browser.waitUntil("window.easelDrawn === true"), name)
            let shot = try RasterImage(png: try browser.screenshot()).cropped(width: png.width, height: png.height)
            assertSimilar(png.blockMeans(4), shot.blockMeans(4), tolerance: 16, maxFraction: 0.06, name: "\(name)-chromium")
            if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1",
               let d = compare(png.blockMeans(4), shot.blockMeans(4), tolerance: 16) {
                print("AGREE \(name) chromium \(String(format: "%.4f", d.fractionOver)) max \(d.maxDifference)")
            }
            compared += 1
        }
        XCTAssertGreaterThanOrEqual(compared, 30)
    }
}

/// Every scene written out in the README and docs/ (an ```xml block that
/// is a whole `<scene>`) compiles without errors, so a reader who copies
/// one gets a picture. docs/diagnostics.md is left out: its examples are
/// broken on purpose (its own test checks each reports its code).
final class DocsSceneBlocksTests: XCTestCase {
    static func sceneBlocks(in markdown: String) -> [(line: Int, text: String)] {
        var out: [(line: Int, text: String)] = []
        var block: [Substring]? = nil
        var start = 0
        for (i, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if block == nil, line.hasPrefix("```xml") {
                block = []
                start = i + 2
            } else if var lines = block {
                if line.hasPrefix("```") {
                    let text = lines.joined(separator: "\n")
                    let body = text.drop { $0 == " " || $0 == "\n" }
                    if (body.hasPrefix("<scene") || body.hasPrefix("<?xml")), text.contains("</scene>") { out.append((start, text)) }
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
            }
        }
        return out
    }

    func testEverySceneInTheDocsCompiles() throws {
        let root = ExternalTool.repositoryRoot
        let docs = root.appendingPathComponent("docs")
        let pages = [root.appendingPathComponent("README.md")]
            + ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
                .filter { $0.hasSuffix(".md") && $0 != "diagnostics.md" }.sorted().map { docs.appendingPathComponent($0) }
        var count = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for (line, scene) in Self.sceneBlocks(in: text) {
                // Files a scene names are looked for beside the docs' own
                // scenes, then beside the examples (their fonts).
                let results = ["docs/scenes", "examples"].map {
                    Easel.compile(source: scene, baseDirectory: root.appendingPathComponent($0))
                }
                if results.contains(where: { if case .success = $0 { return true } else { return false } }) {
                    count += 1
                } else if case .failure(let error) = results[0] {
                    XCTFail("\(page.lastPathComponent):\(line): \(error.diagnostics.filter { $0.severity == .error }.map(\.description))")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(count, 10)
    }
}
