import EaselLayout
import EaselModel
import EaselParse
import Foundation
import XCTest

/// Layout does work linear in the scene: counted (measurements and calls
/// into the text engine), never timed. Before the pass cached sizes by
/// node and proposal, a `<vstack>` nested 19 deep around one text cost
/// 2^19 measurements.
final class LayoutWorkTests: XCTestCase {
    func work(_ source: String, maxWork: Double = Limits().maxLayoutWork,
              file: StaticString = #filePath, line: UInt = #line) throws -> LayoutWork {
        var options = ParseOptions()
        options.limits.maxDepth = 1000
        let result = SceneParser.parse(source: source, baseDirectory: URL(fileURLWithPath: "/tmp"), options: options)
        let parsed = try XCTUnwrap(result.scene, result.diagnostics.map(\.description).joined(separator: "\n"), file: file, line: line)
        return LayoutEngine.resolveFrames(parsed, text: FixedAdvanceMeasurer(), options: LayoutOptions(maxWork: maxWork)).work
    }

    /// `kinds` nested `depth` deep, each level holding a text beside the
    /// next level, the innermost a text: 2·depth + 1 nodes.
    static func nested(_ kinds: [String], depth: Int) -> String {
        var inner = "<text>end</text>"
        for level in (0..<depth).reversed() {
            let kind = kinds[level % kinds.count]
            let attributes = kind == "view" ? " padding=\"1\"" : ""
            inner = "<\(kind)\(attributes)><text>level \(level)</text>\(inner)</\(kind)>"
        }
        return "<scene width=\"400\" height=\"300\">\(inner)</scene>"
    }

    func testNestingCostsAConstantPerNode() throws {
        let containers: [(String, [String])] = [
            ("vstack", ["vstack"]), ("hstack", ["hstack"]), ("zstack", ["zstack"]), ("view", ["view"]),
            ("group", ["group"]), ("mixed", ["vstack", "hstack", "zstack", "view", "group"]),
        ]
        for (name, kinds) in containers {
            for depth in [10, 50, 200] {
                let w = try work(Self.nested(kinds, depth: depth))
                let nodes = 2 * depth + 1
                // Each node is measured at a handful of proposals (unsized,
                // at its slot's cross size, in its final box) and each text
                // shaped once more to be drawn.
                XCTAssertLessThanOrEqual(w.measurements, 4 * nodes, "\(name) × \(depth): measurements")
                XCTAssertLessThanOrEqual(w.textCalls, 5 * (depth + 1), "\(name) × \(depth): text engine calls")
                XCTAssertNil(w.exhaustedAt)
            }
        }
    }

    func testAWideStackMeasuresEachChildAConstantNumberOfTimes() throws {
        let texts = (0..<2000).map { "<text>item \($0)</text>" }.joined()
        let w = try work("<scene width=\"400\" height=\"300\"><vstack>\(texts)</vstack></scene>")
        XCTAssertLessThanOrEqual(w.measurements, 3 * 2001)
        XCTAssertLessThanOrEqual(w.textCalls, 4 * 2000)
    }

    func testTheBudgetStopsThePassWhereItRanOut() throws {
        let texts = (0..<100).map { "<text>item \($0)</text>" }.joined(separator: "\n")
        let source = "<scene width=\"400\" height=\"300\"><vstack>\n\(texts)</vstack></scene>"
        let full = try work(source)
        XCTAssertNil(full.exhaustedAt)
        let stopped = try work(source, maxWork: full.charged / 2)
        let at = try XCTUnwrap(stopped.exhaustedAt)
        // A text about halfway down the stack (each on its own line from line 2).
        XCTAssert((30...70).contains(at.line), "stopped at \(at)")
        // Past that point nothing more is measured or shaped.
        XCTAssertLessThan(stopped.textCalls, full.textCalls)
        XCTAssertLessThanOrEqual(stopped.charged, full.charged / 2 + LayoutWork.textCall + 20)
        let error = try XCTUnwrap(stopped.exhaustedError(limit: full.charged / 2))
        XCTAssertEqual(error.location, at)
        XCTAssert(error.message.text.contains("--max-layout"), error.message.text)
    }

    /// Pango wraps a run with no space in it in time that grows with the
    /// square of its length, so a wrapped text pays that square before the
    /// engine is called: 16,000 such characters stop the pass with no call
    /// made, words of the same length cost a call each, and the same run
    /// unwrapped costs nothing extra.
    func testALongRunWithNoSpaceIsChargedItsSquareBeforeItIsWrapped() throws {
        func scene(_ text: String, width: String = " width=\"40\"") -> String {
            "<scene width=\"400\" height=\"300\"><text\(width)>\(text)</text></scene>"
        }
        let run = String(repeating: "x", count: 16_000)
        let stopped = try work(scene(run))
        XCTAssertNotNil(stopped.exhaustedAt)
        XCTAssertEqual(stopped.textCalls, 0)
        XCTAssertEqual(LayoutWork.wrapCost(of: run), 16_000.0 * 16_000 / 25)
        for text in [String(repeating: "xxx ", count: 4_000), String(repeating: "字", count: 16_000), String(repeating: "a-", count: 8_000),
                     "https://example.com/" + String(repeating: "ab/", count: 5_000), String(repeating: "\u{0F40}\u{0F0B}", count: 8_000)] {
            XCTAssertEqual(LayoutWork.wrapCost(of: text), 0)
            XCTAssertNil(try work(scene(text)).exhaustedAt)
        }
        // (A text that does not wrap may have 10,000 characters on a line.)
        XCTAssertNil(try work(scene(String(run.prefix(9_000)), width: "")).exhaustedAt)
        // Zero-width characters count: Pango scans the run at each of them.
        XCTAssertGreaterThan(LayoutWork.wrapCost(of: "abc" + String(repeating: "\u{200B}", count: 8_000)), Limits().maxLayoutWork)
    }

    /// A chain of clip paths, each shape clipped by the next clip path, used
    /// by many nodes: each clip is resolved once (it was resolved twice per
    /// link and again per node: 2^40 for a chain of 40).
    func testAClipChainIsResolvedOncePerLink() throws {
        let links = 40, users = 100
        let clips = (0..<links).map { i in
            let inner = i + 1 < links ? " clip-path=\"url(#c\(i + 1))\"" : ""
            return "<clipPath id=\"c\(i)\"><rect width=\"90%\" height=\"90%\"\(inner)/></clipPath>"
        }.joined()
        let rects = (0..<users).map { _ in "<rect width=\"50\" height=\"50\" clip-path=\"url(#c0)\"/>" }.joined()
        let w = try work("<scene width=\"400\" height=\"300\"><defs>\(clips)</defs>\(rects)</scene>")
        XCTAssertEqual(w.clipShapes, links)
        XCTAssertNil(w.exhaustedAt)
    }

    /// A gradient's stops are resolved once a pass and shared by every use
    /// (each of a million uses of a 1,024-stop gradient held its own copy).
    func testAGradientsStopsAreSharedByEveryUse() throws {
        let stops = (0..<100).map { "<stop color=\"#\(String(format: "%02x", $0))0000\"/>" }.joined()
        let rects = (0..<200).map { i in "<rect width=\"\(10 + i)\" height=\"10\" fill=\"url(#g)\"/>" }.joined()
        let result = SceneParser.parse(source: "<scene width=\"400\" height=\"300\"><defs><linearGradient id=\"g\">\(stops)</linearGradient></defs>\(rects)</scene>",
                                       baseDirectory: URL(fileURLWithPath: "/tmp"))
        let scene = try XCTUnwrap(result.scene)
        let tree = LayoutEngine.layOut(scene, text: FixedAdvanceMeasurer()).renderTree
        let storage = tree.paints.entries.compactMap { entry -> Int? in
            guard case .fixed(let paint) = entry, case .linear(let g) = paint.kind else { return nil }
            return g.stops.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
        }
        XCTAssertEqual(storage.count, 200)
        XCTAssertEqual(Set(storage).count, 1)
    }
}
