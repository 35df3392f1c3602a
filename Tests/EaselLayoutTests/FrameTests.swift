import Easel
import EaselTestSupport
import XCTest

/// Frames worked out by hand from the contract's rules.
final class FrameTests: XCTestCase {
    func node(_ scene: CompiledScene, _ id: String) -> LayoutNode? {
        func find(_ nodes: [LayoutNode]) -> LayoutNode? {
            for n in nodes {
                if n.id == id { return n }
                if let f = find(n.children) { return f }
            }
            return nil
        }
        return find(scene.layout.nodes)
    }

    func testDefaultsPercentagesAndPadding() throws {
        let s = try compileScene("""
        <scene width="400" height="300">
          <view id="outer" x="10" y="20" width="200" height="100" padding="10 20 30 40">
            <view id="fills"/>
            <rect id="half" x="50%" y="10%" width="50%" height="fill"/>
          </view>
          <view id="whole"/>
        </scene>
        """)
        XCTAssertEqual(node(s, "outer")?.absoluteFrame, Rect(x: 10, y: 20, width: 200, height: 100))
        // Content box: 200 - 20 - 40 = 140 wide, 100 - 10 - 30 = 60 high, starting at (10+40, 20+10).
        XCTAssertEqual(node(s, "fills")?.absoluteFrame, Rect(x: 50, y: 30, width: 140, height: 60))
        XCTAssertEqual(node(s, "half")?.frame, Rect(x: 70, y: 6, width: 70, height: 60))
        XCTAssertEqual(node(s, "half")?.absoluteFrame, Rect(x: 120, y: 36, width: 70, height: 60))
        XCTAssertEqual(node(s, "whole")?.absoluteFrame, Rect(x: 0, y: 0, width: 400, height: 300))
    }

    func testCoordinateShapesAreFramedByTheirGeometry() throws {
        let s = try compileScene("""
        <scene width="100" height="100">
          <view x="5" y="5" width="50" height="50">
            <circle id="c" cx="10" cy="20" r="5" x="3"/>
            <path id="p" d="M 0 0 C 0 100 100 100 100 0"/>
            <line id="l" x1="10%" y1="0" x2="90%" y2="50%"/>
          </view>
        </scene>
        """)
        XCTAssertEqual(node(s, "c")?.frame, Rect(x: 8, y: 15, width: 10, height: 10))
        XCTAssertEqual(node(s, "c")?.absoluteFrame, Rect(x: 13, y: 20, width: 10, height: 10))
        let p = try XCTUnwrap(node(s, "p")?.frame)
        XCTAssertEqual(p.height, 75, accuracy: 1e-9)   // the curve's tight box, not its control points
        XCTAssertEqual(node(s, "l")?.frame, Rect(x: 5, y: 0, width: 40, height: 25))
    }

    func testTransformOriginCenterRotatesAboutTheFrameCentre() throws {
        let s = try compileScene("""
        <scene width="100" height="100">
          <rect id="r" x="10" y="20" width="40" height="20" transform="rotate(90)" transform-origin="center"/>
          <rect id="o" x="100" y="100" width="40" height="10" transform="rotate(90)"/>
        </scene>
        """)
        let t = try XCTUnwrap(node(s, "r")?.transform)
        // Own space (0,0) is the frame's top-left; the centre (20,10) stays put.
        let c = t.apply(Point(20, 10))
        XCTAssertEqual(c.x, 30, accuracy: 1e-9)
        XCTAssertEqual(c.y, 30, accuracy: 1e-9)
        // The contract's example: rotate(90) about the frame's top-left (100,100)
        // puts the 40-long side going down and the 10-wide side to the left.
        let o = try XCTUnwrap(node(s, "o")?.transform)
        let far = o.apply(Point(40, 10))
        XCTAssertEqual(far.x, 90, accuracy: 1e-9)
        XCTAssertEqual(far.y, 140, accuracy: 1e-9)
    }

    func testImageDefaultsToPixelSizeAndKeepsAspect() throws {
        let dir = ExternalTool.temporaryDirectory()
        // A 4×2 PNG written by Easel itself is enough to have real pixels.
        let png = try compileScene("<scene width=\"4\" height=\"2\"><rect fill=\"red\"/></scene>").render(format: .png)
        try Data(png).write(to: dir.appendingPathComponent("px.png"))
        let s = try compileScene("""
        <scene width="100" height="100">
          <image id="a" href="px.png"/>
          <image id="b" href="px.png" width="40"/>
        </scene>
        """, baseDirectory: dir)
        XCTAssertEqual(node(s, "a")?.frame.size, Size(4, 2))
        XCTAssertEqual(node(s, "b")?.frame.size, Size(40, 20))
    }

    func testLayoutJSONHasFramesLinesAndIDs() throws {
        let s = try compileScene("""
        <scene width="100" height="80">
          <view id="card" x="10" y="10" width="50" height="40" padding="5">
            <rect id="inner" x="1" y="2" width="3" height="4"/>
          </view>
          <repeat count="3" transform="rotate(10 50 40)"><rect id="tick" width="2" height="5"/></repeat>
        </scene>
        """)
        let json = try JSONSerialization.jsonObject(with: Data(try s.layoutJSON().utf8)) as! [String: Any]
        let children = json["children"] as! [[String: Any]]
        XCTAssertEqual(children.count, 2)
        let card = children[0]
        XCTAssertEqual(card["element"] as? String, "view")
        XCTAssertEqual(card["id"] as? String, "card")
        XCTAssertEqual(card["line"] as? Int, 2)
        let inner = (card["children"] as! [[String: Any]])[0]
        let frame = inner["frame"] as! [String: Double]
        XCTAssertEqual(frame, ["x": 16, "y": 17, "width": 3, "height": 4])
        XCTAssertEqual(children[1]["count"] as? Int, 3)
    }
}
