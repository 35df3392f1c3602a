import EaselModel
import Glibc
@testable import EaselParse
import EaselTestSupport
import XCTest

final class ColorParserTests: XCTestCase {
    func parse(_ s: String, palette: [String: Color] = [:]) -> Color? { ColorParser.parse(s, palette: palette) }

    func testEveryColorSyntaxOfTheContract() {
        let red = Color(red: 1, green: 0, blue: 0)
        XCTAssertEqual(parse("#f00"), red)
        XCTAssertEqual(parse("#ff0000"), red)
        XCTAssertEqual(parse("#F00F"), red)
        XCTAssertEqual(parse("#ff000080"), red.withAlpha(128.0 / 255))
        XCTAssertEqual(parse("#f008"), red.withAlpha(136.0 / 255))
        XCTAssertEqual(parse("rgb(255,0,0)"), red)
        XCTAssertEqual(parse("rgb( 255 , 0 , 0 )"), red)
        XCTAssertEqual(parse("rgba(255,0,0,0.5)"), red.withAlpha(0.5))
        XCTAssertEqual(parse("rgb(255 0 0 / 50%)"), red.withAlpha(0.5))
        XCTAssertEqual(parse("rgb(255 0 0 / 0.25)"), red.withAlpha(0.25))
        XCTAssertEqual(parse("rgb(100% 0% 0%)"), red)
        XCTAssertEqual(parse("hsl(0, 100%, 50%)"), red)
        XCTAssertEqual(parse("hsl(120deg 100% 25%)"), Color(red: 0, green: 0.5, blue: 0))
        XCTAssertEqual(parse("hsla(240, 100%, 50%, 0.5)"), Color(red: 0, green: 0, blue: 1, alpha: 0.5))
        XCTAssertEqual(parse("red"), red)
        XCTAssertEqual(parse("RebeccaPurple"), Color(r8: 0x66, g8: 0x33, b8: 0x99))
        XCTAssertEqual(parse("transparent"), .transparent)
        XCTAssertEqual(parse("clear"), .transparent)
        XCTAssertEqual(parse("brand", palette: ["brand": Color(r8: 0xfc, g8: 0x4f, b8: 0x08)]),
                       Color(r8: 0xfc, g8: 0x4f, b8: 0x08))
    }

    func testBadColorsAreRejectedNotBlack() {
        for bad in ["#ff", "#12345", "#gggggg", "rgb(1,2)", "rgb(1,2,3,4,5)", "rgb(1 2 3 /)", "hsl(0, 100, 50%)",
                    "redd", "", "url(#x)", "rgb(a,b,c)", "#ff00000", "rgb(1,2 3)",
                    // Fullwidth digits are hex digits to `Character`, not to CSS (this one crashed).
                    "#ＡＢＣ", "#１２３", " #ＦＦ００００ "] {
            XCTAssertNil(parse(bad), "'\(bad)' should not parse")
        }
    }
}

/// The in-place readers (plain decimals, `#hex`) against the general ones
/// they stand in front of: `strtod` for numbers, the Character-based path
/// for colours with spaces around them.
final class FastPathParserTests: XCTestCase {
    func testPlainDecimalsAreStrtodsNumbers() {
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &rng)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            if Bool.random(using: &rng) { text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0...digits, using: &rng))) }
            if Bool.random(using: &rng) { text = "-" + text }
            XCTAssertEqual(ValueParser.plainDecimal(text.utf8), strtod(text, nil), text)
        }
        for other in ["1e5", "+1", " 1", "1 ", "1.2.3", "--1", "1234567890123456", ".", "-", ""] {
            XCTAssertNil(ValueParser.plainDecimal(other.utf8), other)
        }
        XCTAssertEqual(ValueParser.number(" 1e2 "), 100)
        XCTAssertEqual(ValueParser.length("50%", allowFill: false), .percent(50))
        XCTAssertEqual(ValueParser.length(" 12 ", allowFill: false), .points(12))
    }

    func testHexColoursReadInPlaceAreTheGeneralPathsColours() {
        for text in ["#f00", "#F00F", "#3779b1", "#3779B1CC", "#000", "#ffffffff"] {
            XCTAssertEqual(ColorParser.parse(text, palette: [:]), ColorParser.parse(" \(text) ", palette: [:]), text)
        }
        // A palette name wins, even one spelled like a colour.
        let brand = Color(r8: 1, g8: 2, b8: 3)
        XCTAssertEqual(ColorParser.parse("#fff", palette: ["#fff": brand]), brand)
    }
}

final class TransformParserTests: XCTestCase {
    func testListsComposeLeftToRight() throws {
        let t = try TransformParser.parse("translate(10, 20) rotate(90) scale(2)").get()
        let p = t.apply(Point(1, 0))
        XCTAssertEqual(p.x, 10, accuracy: 1e-12)
        XCTAssertEqual(p.y, 22, accuracy: 1e-12)
    }

    func testEveryFunction() throws {
        XCTAssertEqual(try TransformParser.parse("matrix(1 2 3 4 5 6)").get(), AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        XCTAssertEqual(try TransformParser.parse("translate(7)").get(), .translation(7, 0))
        XCTAssertEqual(try TransformParser.parse("scale(2 3)").get(), .scale(2, 3))
        let r = try TransformParser.parse("rotate(90 10 10)").get().apply(Point(20, 10))
        XCTAssertEqual(r.x, 10, accuracy: 1e-12)
        XCTAssertEqual(r.y, 20, accuracy: 1e-12)
        let k = try TransformParser.parse("skewX(45)").get().apply(Point(0, 10))
        XCTAssertEqual(k.x, 10, accuracy: 1e-9)
        let ky = try TransformParser.parse("skewY(45)").get().apply(Point(10, 0))
        XCTAssertEqual(ky.y, 10, accuracy: 1e-9)
    }

    func testBadTransforms() {
        for bad in ["rotate(", "spin(3)", "rotate(1 2)", "matrix(1 2 3)", "translate(a)", "scale()"] {
            if case .success = TransformParser.parse(bad) { XCTFail("'\(bad)' should fail") }
        }
    }
}

final class PathDataParserTests: XCTestCase {
    func parse(_ d: String) throws -> BezierPath { try PathDataParser.parse(d).get() }

    func testRelativeAndImplicitCommands() throws {
        // After m, pairs are implicit relative linetos.
        let p = try parse("m10 10 20 0 0 20z")
        XCTAssertEqual(p.elements, [.move(Point(10, 10)), .line(Point(30, 10)), .line(Point(30, 30)), .close])
        let h = try parse("M0,0H10V5h-5v-5")
        XCTAssertEqual(h.elements.last, .line(Point(5, 0)))
    }

    func testCompactNumbers() throws {
        let p = try parse("M.5.5L-1.5e1-2")
        XCTAssertEqual(p.elements, [.move(Point(0.5, 0.5)), .line(Point(-15, -2))])
    }

    func testSmoothCurvesReflectControlPoints() throws {
        let p = try parse("M0 0 C 0 10 10 10 10 0 S 20 -10 20 0")
        guard case .cubic(let c1, _, _) = p.elements[2] else { return XCTFail() }
        XCTAssertEqual(c1, Point(10, -10))
        let q = try parse("M0 0 Q 5 10 10 0 T 20 0")
        XCTAssertEqual(q.boundingBox!.minY, -5, accuracy: 1e-9)   // reflected control (15,-10): peak at -5
        XCTAssertEqual(q.boundingBox!.maxY, 5, accuracy: 1e-9)
    }

    func testArcsBecomeCubicsThroughTheRightPoints() throws {
        // A half circle of radius 10 from (0,0) to (20,0) with sweep=1 runs
        // clockwise on screen (y down), so it passes through (10,-10).
        let p = try parse("M0 0 A10 10 0 0 1 20 0")
        let box = p.boundingBox!
        XCTAssertEqual(box.minY, -10, accuracy: 0.01)
        XCTAssertEqual(box.maxY, 0, accuracy: 1e-9)
        XCTAssertEqual(box.width, 20, accuracy: 1e-9)
        // Flags may touch the next number.
        let compact = try parse("M0 0a10 10 0 0020 0")
        XCTAssertEqual(compact.boundingBox!.maxY, 10, accuracy: 0.01)
        // Radii too small are scaled up (SVG's out-of-range rule).
        let scaled = try parse("M0 0 A1 1 0 0 1 20 0")
        XCTAssertEqual(scaled.boundingBox!.minY, -10, accuracy: 0.01)
        // Radii whose squares leave Double's range are as flat as a zero
        // radius: a line, every point a number.
        let flat = try parse("M50 50 A1e300 1e-300 0 0 1 60 60")
        XCTAssertEqual(flat.elements.count, 2)
        XCTAssertEqual(flat.controlBounds, Rect(x: 50, y: 50, width: 10, height: 10))
    }

    /// A point that is not a number makes the whole box not a number
    /// (`min` and `max` would pass over it), so a range check refuses it.
    func testControlBoundsSeeEveryPointIncludingNaN() {
        var path = BezierPath()
        path.move(to: Point(0, 0))
        path.curve(to: Point(10, 0), control1: Point(-5, 20), control2: Point(15, -30))
        XCTAssertEqual(path.controlBounds, Rect(x: -5, y: -30, width: 20, height: 50))
        path.line(to: Point(.nan, 3))
        XCTAssertTrue(path.controlBounds!.minX.isNaN)
        XCTAssertNil(BezierPath().controlBounds)
    }

    func testErrorsPointAtTheirOffset() {
        for (d, offset) in [("L 10 10", 0), ("M 10", 4), ("M 0 0 L 10 x", 11), ("M 0 0 A 1 1 0 2 1 3 3", 14), ("M0 0 Z 5", 7)] {
            switch PathDataParser.parse(d) {
            case .success: XCTFail("'\(d)' should fail")
            case .failure(let e): XCTAssertEqual(e.offset, offset, "offset for '\(d)': \(e.message.text)")
            }
        }
    }
}

final class SuggestionTests: XCTestCase {
    func testNearestNames() {
        XCTAssertEqual(Suggestion.nearest(to: "rectt", in: Vocabulary.nodes), "rect")
        XCTAssertEqual(Suggestion.nearest(to: "strok-width", in: Vocabulary.attributes["rect"]!), "stroke-width")
        XCTAssertEqual(Suggestion.nearest(to: "cornerradius", in: Vocabulary.attributes["view"]!), "corner-radius")
        XCTAssertNil(Suggestion.nearest(to: "banana", in: Vocabulary.nodes))
    }
}
