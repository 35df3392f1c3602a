import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The layout budget (`--max-layout`, `LayoutWork`): a scene whose layout
/// would run past it stops with an error at the element it was laying out;
/// every real scene stays far inside it. Work is counted, never timed.
final class LayoutBudgetTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    func testASceneOverTheBudgetStopsWithALocatedErrorAndWritesNothing() throws {
        let texts = (0..<400).map { "<text>Label number \($0) of a long list</text>" }.joined(separator: "\n")
        let scene = dir.appendingPathComponent("list.scene.xml")
        try Data("<scene width=\"400\" height=\"300\"><vstack>\n\(texts)\n</vstack></scene>".utf8).write(to: scene)
        let out = dir.appendingPathComponent("list.png")
        try Data("previous".utf8).write(to: out)
        let r = try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", out.path, "--max-layout", "5000"])
        XCTAssertEqual(r.status, 1)
        // Each text costs 5 + its 30–32 characters per call into the text
        // engine, so 5,000 units run out within the first 140 texts (lines
        // 2–141), while the stack measures its children.
        let pattern = #"list\.scene\.xml:([0-9]+):1: error: laying this scene out would cost more than 5000 layout units"#
        let match = try XCTUnwrap(r.stderr.firstMatch(of: try Regex(pattern)), r.stderr)
        let line = try XCTUnwrap(Int(match.output[1].substring ?? ""))
        XCTAssert((2...141).contains(line), "stopped at line \(line)")
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "previous")
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", out.path]).status, 0)
    }

    func testEveryDocsSceneAndExampleUsesLessThanAHundredthOfTheBudget() throws {
        let scenes = ["docs/scenes", "examples", "examples/localized"].flatMap { folder -> [URL] in
            let d = ExternalTool.repositoryRoot.appendingPathComponent(folder)
            return ((try? FileManager.default.contentsOfDirectory(atPath: d.path)) ?? [])
                .filter { $0.hasSuffix(".scene.xml") }.map { d.appendingPathComponent($0) }
        }
        XCTAssertGreaterThanOrEqual(scenes.count, 30)
        for url in scenes {
            let compiled = try Easel.compile(fileAt: url).get()
            XCTAssertLessThan(compiled.layout.work.charged, Limits().maxLayoutWork / 100, url.lastPathComponent)
            if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" {
                let w = compiled.layout.work
                print("LAYOUT \(url.lastPathComponent) charged \(w.charged) measurements \(w.measurements) text calls \(w.textCalls) characters \(w.textCharacters)")
            }
        }
    }
}
