import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The SVG Easel writes from its render tree: the edges a browser
/// comparison (SVGInChromiumTests) does not reach.
final class SVGWriterTests: XCTestCase {
    /// Coordinates far past any picture are written as numbers, never
    /// trapped on (an Int64 holds less than 1e19).
    func testHugeCoordinatesAreWrittenNotTrappedOn() throws {
        let s = try compileScene("""
        <scene width="40" height="40">
          <rect width="10" height="10" transform="translate(1e19 0)"/>
          <rect width="10" height="10" x="-3e18" fill="red"/>
          <text transform="scale(1e19 1)">far</text>
        </scene>
        """, options: TestFonts.declaredOnly())
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("10000000000000000000"), svg)
        XCTAssertFalse(try s.render(format: .png).isEmpty)
    }

    /// Text inside a pattern tile repeats as outlines; it adds no invisible
    /// label per tile. The same text outside the tile does.
    func testTextInsideATileAddsNoLabel() throws {
        let s = try compileScene("""
        <scene width="100" height="40">
          <defs><pattern id="p" width="50" height="20"><text font-size="10">tile</text></pattern></defs>
          <rect width="100" height="20" fill="url(#p)"/>
          <text y="22" font-size="10">label</text>
        </scene>
        """, options: TestFonts.declaredOnly())
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        XCTAssertEqual(svg.components(separatedBy: "<text").count - 1, 1, svg)
        XCTAssertTrue(svg.contains(">label</tspan>"))
        XCTAssertFalse(svg.contains(">tile</tspan>"))
        XCTAssertTrue(svg.contains("<pattern"))
    }

    /// The same scene writes the same bytes: ids are numbered per document.
    func testIdsArePerDocument() throws {
        let source = """
        <scene width="60" height="60">
          <defs><linearGradient id="g"><stop color="red"/><stop color="blue"/></linearGradient>
            <clipPath id="c"><circle cx="30" cy="30" r="20"/></clipPath></defs>
          <rect width="60" height="60" fill="url(#g)" clip-path="url(#c)"/>
        </scene>
        """
        let a = try compileScene(source).render(format: .svg)
        _ = try compileScene("<scene width=\"10\" height=\"10\"><circle r=\"3\" fill=\"url(#x)\"/><defs><radialGradient id=\"x\"><stop color=\"red\"/><stop color=\"blue\"/></radialGradient></defs></scene>").render(format: .svg)
        XCTAssertEqual(a, try compileScene(source).render(format: .svg))
    }
}
