import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The paint budget's cost model (`PaintCost`, `PathCrossings`): expensive
/// scenes stop with a located error before the work, legitimate large ones
/// still render. Every check is about what is charged, never how long it
/// took (no timed tests); bench/paint-costs.py measures the times.
final class PaintBudgetTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    func render(_ name: String, _ source: String, _ extra: [String] = []) throws -> ToolResult {
        let scene = dir.appendingPathComponent(name + ".scene.xml")
        try Data(source.utf8).write(to: scene)
        return try ExternalTool.run(ExternalTool.easelExecutable,
                                    ["render", scene.path, "-o", dir.appendingPathComponent(name + ".png").path] + extra)
    }

    /// 200 translucent groups nested over 4000×4000: each level holds a
    /// surface the size of the canvas, so the nesting stops at the fifth,
    /// before anything is painted (it used to run 13–23 s, and hold a
    /// canvas per level, until the budget ran out).
    func testNestedTranslucentGroupsStopAtTheirNesting() throws {
        var body = "<rect width=\"4000\" height=\"4000\" fill=\"red\" fill-opacity=\"0.5\"/>"
        for _ in 0..<200 { body = "<group opacity=\"0.9\">" + body + "</group>" }
        let r = try render("nested", "<scene width=\"4000\" height=\"4000\">" + body + "</scene>")
        XCTAssertEqual(r.status, 1)
        // The fifth <group> starts at column 35 + 4 × 21 (each is 21 bytes).
        XCTAssertTrue(r.stderr.contains("nested.scene.xml:1:\(35 + 4 * 21): error: translucent groups and clip masks nested here would hold more than 64000000 pixels"),
                      r.stderr)
    }

    /// A group is charged when it is pushed, before its content: the error
    /// points at the group, not at the shape inside it (as it did when the
    /// composite was charged after painting).
    func testGroupIsChargedBeforeItsContent() throws {
        // 1000×1000: the rect costs 2,000 + 10⁶ × 0.3; the group 2,000 + 10⁶ × 2.5.
        let source = """
            <scene width="1000" height="1000">
            <group opacity="0.5">
            <rect width="1000" height="1000" fill="red"/>
            </group>
            </scene>
            """
        let r = try render("group", source, ["--max-paint", "2000000"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("group.scene.xml:2:1: error: painting this scene would cost more than 2000000 paint units"), r.stderr)
        XCTAssertEqual(try render("group", source, ["--max-paint", "2900000"]).status, 0, "group and rect together cost 2,804,000")
    }

    /// A scribble of 10,000 random line segments crosses itself about 11
    /// million times; Cairo's tessellator took 7 s to fill it. Its crossings
    /// are charged before Cairo sees the path. 1,000 segments (115,000
    /// crossings) still render.
    func testSelfCrossingPathsAreChargedByTheirCrossings() throws {
        func scribble(_ n: Int) -> String {
            var state: UInt64 = 42
            func next() -> Double {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 11) / Double(1 << 53) * 1000
            }
            let points = (0..<n).map { _ in String(format: "L %.1f %.1f", next(), next()) }.joined(separator: " ")
            return "<scene width=\"1000\" height=\"1000\"><path d=\"M 0 0 \(points)\" fill=\"red\"/></scene>"
        }
        let big = try render("scribble", scribble(10_000))
        XCTAssertEqual(big.status, 1)
        XCTAssertTrue(big.stderr.contains("painting this scene would cost more than 2000000000 paint units"), big.stderr)
        XCTAssertEqual(try render("small", scribble(1_000)).status, 0)
        // As a clip path, the same scribble is charged the same way.
        let clip = try render("clip", scribble(10_000).replacingOccurrences(of: "<path", with: "<defs><clipPath id=\"c\"><path")
            .replacingOccurrences(of: "fill=\"red\"/>", with: "/></clipPath></defs><rect width=\"1000\" height=\"1000\" clip-path=\"url(#c)\"/>"))
        XCTAssertEqual(clip.status, 1, clip.stderr)
    }

    /// An image is charged its source's pixels each time it is drawn
    /// (decoding and sampling them): 1,000 copies of a one-megapixel PNG
    /// shrunk to 10×10 used to decode 1,000 times.
    func testImagesAreChargedTheirSourcePixels() throws {
        let png = dir.appendingPathComponent("big.png").path
        let source = dir.appendingPathComponent("big.scene.xml")
        try Data("<scene width=\"1000\" height=\"1000\"><rect fill=\"#c86432\"/></scene>".utf8).write(to: source)
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", source.path, "-o", png]).status, 0)
        func copies(_ n: Int) -> String {
            "<scene width=\"200\" height=\"200\"><repeat count=\"\(n)\" transform=\"translate(0.1 0)\"><image href=\"big.png\" width=\"10\" height=\"10\"/></repeat></scene>"
        }
        let many = try render("images", copies(1_000))
        XCTAssertEqual(many.status, 1)
        XCTAssertTrue(many.stderr.contains("painting this scene would cost more than 2000000000 paint units"), many.stderr)
        XCTAssertEqual(try render("few", copies(10)).status, 0)
    }

    /// 64 megapixels with a handful of layers — a gradient background, a
    /// translucent group with a card and a radial glow, a heading, a bar —
    /// renders with the default budget (as PDF, whose device space is the
    /// same 8000×8000, so the test does not spend its time encoding a PNG).
    func testSixtyFourMegapixelsWithAHandfulOfLayersRender() throws {
        let source = """
            <scene width="8000" height="8000" background="#f2f2f7">
              <defs>
                <linearGradient id="g" angle="30"><stop color="#0a84ff"/><stop color="#ff375f"/></linearGradient>
                <radialGradient id="r"><stop color="white" opacity="0.6"/><stop color="white" opacity="0"/></radialGradient>
              </defs>
              <rect width="100%" height="100%" fill="url(#g)"/>
              <group opacity="0.8">
                <rect x="400" y="400" width="7200" height="7200" corner-radius="400" fill="white"/>
                <circle cx="4000" cy="4000" r="2000" fill="url(#r)"/>
              </group>
              <text x="800" y="800" font="DejaVu Sans Bold 400" fill="#1d1d1f">Sixty-four megapixels</text>
              <rect x="800" y="6800" width="6400" height="200" corner-radius="100" fill="url(#g)"/>
            </scene>
            """
        let scene = dir.appendingPathComponent("big.scene.xml")
        try Data(source.utf8).write(to: scene)
        let r = try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", dir.appendingPathComponent("big.pdf").path])
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
