import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Contract 1.3: every SVG Easel writes is well-formed XML, every PDF passes
/// `qpdf --check`. Checked by the tools themselves on every example, every
/// docs scene and every scene of the bad-input corpus and the fuzz findings
/// that renders (many bad inputs are bad only under a flag).
final class WellFormedOutputTests: XCTestCase {
    func testEverySVGIsWellFormedAndEveryPDFPassesQPDF() throws {
        let root = ExternalTool.repositoryRoot
        var scenes: [URL] = []
        for folder in ["examples", "docs/scenes", "Tests/Fixtures/bad", "fuzz/findings"] {
            let dir = root.appendingPathComponent(folder)
            let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: dir.path))
            while let item = walker.nextObject() as? String {
                // examples/rendered holds outputs, not scenes.
                if item.hasSuffix(".xml"), !item.hasPrefix("rendered/") { scenes.append(dir.appendingPathComponent(item)) }
            }
        }
        scenes.sort { $0.path < $1.path }
        let out = ExternalTool.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: out) }
        var svgs: [String] = [], pdfs: [String] = []
        for (i, scene) in scenes.enumerated() {
            guard case .success(let compiled) = Easel.compile(fileAt: scene) else { continue }
            let name = "\(i)-" + scene.deletingPathExtension().deletingPathExtension().lastPathComponent
            for format in [OutputFormat.svg, .pdf] {
                guard let bytes = try? compiled.render(format: format) else { continue }
                let file = out.appendingPathComponent("\(name).\(format.rawValue)").path
                try Data(bytes).write(to: URL(fileURLWithPath: file))
                if format == .svg { svgs.append(file) } else { pdfs.append(file) }
            }
        }
        XCTAssertGreaterThan(svgs.count, 60, "the examples and docs scenes alone render more")
        let lint = try ExternalTool.run("xmllint", ["--noout", "--nonet"] + svgs)
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stderr, "", "xmllint found problems")
        for pdf in pdfs {
            let check = try ExternalTool.run("qpdf", ["--check", pdf])
            XCTAssertEqual(check.status, 0, "\(pdf): \(check.stdout)\(check.stderr)")
        }
    }
}
