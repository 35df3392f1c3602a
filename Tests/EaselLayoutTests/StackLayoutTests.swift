import EaselLayout
import EaselModel
import EaselParse
import Foundation
import XCTest

/// Every character is 10 points wide and every line 20 high; a wrap width
/// breaks lines after floor(width / 10) characters. Frames in these tests
/// are worked out by hand from that and the contract's stack rules.
struct FixedAdvanceMeasurer: TextMeasuring {
    func measure(_ r: TextRequest) -> Size { shape(r).size }

    func shape(_ r: TextRequest) -> ShapedText {
        var lines: [String] = []
        for source in r.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard let w = r.wrapWidth else { lines.append(source); continue }
            let perLine = max(1, Int(w / 10))
            var rest = Substring(source)
            repeat { lines.append(String(rest.prefix(perLine))); rest = rest.dropFirst(perLine) } while !rest.isEmpty
        }
        let width = Double(lines.map(\.count).max() ?? 0) * 10, height = Double(lines.count) * 20
        return ShapedText(text: r.text, size: Size(r.wrapWidth ?? width, height),
                          lineBounds: Rect(x: 0, y: 0, width: width, height: height),
                          lines: lines.enumerated().map { ShapedLine(text: $1, x: 0, baseline: Double($0 + 1) * 20, width: Double($1.count) * 10) },
                          runs: [])
    }
}

final class StackLayoutTests: XCTestCase {
    func layout(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Rect] {
        let result = SceneParser.parse(source: source, baseDirectory: URL(fileURLWithPath: "/tmp"))
        let parsed = try XCTUnwrap(result.scene, result.diagnostics.map(\.description).joined(separator: "\n"), file: file, line: line)
        var frames: [String: Rect] = [:]
        func collect(_ nodes: [LayoutNode]) {
            for n in nodes {
                if let id = n.id { frames[id] = n.absoluteFrame }
                collect(n.children)
            }
        }
        collect(LayoutEngine.resolveFrames(parsed, text: FixedAdvanceMeasurer()).nodes)
        return frames
    }

    func testVStackAlignmentsSpacingAndPadding() throws {
        // Content: 60 wide (the widest text), 20+5+20+5+10 = 60 high, at (10+6, 20+4).
        for (alignment, aX) in [("leading", 16.0), ("center", 31.0), ("trailing", 46.0)] {
            let f = try layout("""
            <scene width="300" height="300">
              <vstack id="s" x="10" y="20" spacing="5" padding="4 6" alignment="\(alignment)">
                <text id="a">abc</text>
                <text id="b">abcdef</text>
                <view id="v" height="10"/>
              </vstack>
            </scene>
            """)
            XCTAssertEqual(f["s"], Rect(x: 10, y: 20, width: 72, height: 68), alignment)
            XCTAssertEqual(f["a"], Rect(x: aX, y: 24, width: 30, height: 20), alignment)
            XCTAssertEqual(f["b"], Rect(x: 16, y: 49, width: 60, height: 20), alignment)
            XCTAssertEqual(f["v"], Rect(x: 16, y: 74, width: 60, height: 10), "views stretch across: \(alignment)")
        }
    }

    func testHStackGrowSharesTheFreeSpace() throws {
        // Used: 20 (text) + 0 + 0 + 30 (rect) + 3 × 10 spacing = 80; free 120,
        // shared 1 : 3 → 30 and 90.
        let f = try layout("""
        <scene width="300" height="300">
          <hstack x="0" y="0" width="200" height="50" spacing="10" alignment="bottom">
            <text id="t">ab</text>
            <view id="g1" grow="1"/>
            <view id="g2" grow="3"/>
            <rect id="r" width="30" height="10"/>
          </hstack>
        </scene>
        """)
        XCTAssertEqual(f["t"], Rect(x: 0, y: 30, width: 20, height: 20))
        XCTAssertEqual(f["g1"], Rect(x: 30, y: 0, width: 30, height: 50))
        XCTAssertEqual(f["g2"], Rect(x: 70, y: 0, width: 90, height: 50))
        XCTAssertEqual(f["r"], Rect(x: 170, y: 40, width: 30, height: 10))
    }

    func testHStackTopAndCenter() throws {
        for (alignment, y) in [("top", 0.0), ("center", 15.0)] {
            let f = try layout("""
            <scene width="300" height="300">
              <hstack alignment="\(alignment)"><view id="tall" width="10" height="50"/><text id="t">ab</text></hstack>
            </scene>
            """)
            XCTAssertEqual(f["t"], Rect(x: 10, y: y, width: 20, height: 20), alignment)
        }
    }

    func testFillWidthTextWrapsAtTheStackWidth() throws {
        let f = try layout("""
        <scene width="300" height="300">
          <vstack id="s" width="100" alignment="leading">
            <text id="w" width="fill">aaaa bbbb cccc</text>
            <text id="n">xy</text>
          </vstack>
        </scene>
        """)
        // 14 characters at 10 per line: 2 lines.
        XCTAssertEqual(f["w"], Rect(x: 0, y: 0, width: 100, height: 40))
        XCTAssertEqual(f["n"], Rect(x: 0, y: 40, width: 20, height: 20))
        XCTAssertEqual(f["s"], Rect(x: 0, y: 0, width: 100, height: 60))
    }

    func testZStackFitsAndAlignsInTwoDirections() throws {
        let f = try layout("""
        <scene width="300" height="300">
          <zstack id="z" x="5" y="5" alignment="top-trailing">
            <text id="t">abcd</text>
            <view id="dot" width="10" height="10"/>
            <view id="bg"/>
          </zstack>
          <zstack x="100" y="100" width="100" height="60" alignment="bottom-leading" padding="10">
            <text id="b">ab</text>
          </zstack>
        </scene>
        """)
        XCTAssertEqual(f["z"], Rect(x: 5, y: 5, width: 40, height: 20))
        XCTAssertEqual(f["t"], Rect(x: 5, y: 5, width: 40, height: 20))
        XCTAssertEqual(f["dot"], Rect(x: 35, y: 5, width: 10, height: 10))
        XCTAssertEqual(f["bg"], Rect(x: 5, y: 5, width: 40, height: 20))
        XCTAssertEqual(f["b"], Rect(x: 110, y: 130, width: 20, height: 20))
    }

    func testNestedStacksAndPercentagesOfASizedStack() throws {
        let f = try layout("""
        <scene width="300" height="300">
          <vstack id="outer" spacing="2" alignment="trailing">
            <hstack id="row" spacing="4"><text id="x">abc</text><text id="y">de</text></hstack>
            <text id="z">abcdefghij</text>
          </vstack>
          <vstack x="200" y="0" width="50" height="100" alignment="leading">
            <view id="p" width="50%" height="50%"/>
          </vstack>
        </scene>
        """)
        // row: 30 + 4 + 20 = 54 wide, 20 high; outer: 100 wide, 42 high.
        XCTAssertEqual(f["outer"], Rect(x: 0, y: 0, width: 100, height: 42))
        XCTAssertEqual(f["row"], Rect(x: 46, y: 0, width: 54, height: 20))
        XCTAssertEqual(f["y"], Rect(x: 80, y: 0, width: 20, height: 20))
        XCTAssertEqual(f["z"], Rect(x: 0, y: 22, width: 100, height: 20))
        XCTAssertEqual(f["p"], Rect(x: 200, y: 0, width: 25, height: 50))
    }

    func testChildPositionsInAStackIgnoreTheirXY() throws {
        let f = try layout("""
        <scene width="300" height="300">
          <vstack><view id="v" x="50" y="50" width="10" height="10"/></vstack>
        </scene>
        """)
        XCTAssertEqual(f["v"], Rect(x: 0, y: 0, width: 10, height: 10))
    }
}
