import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Spans, shrink-to-fit and direction (docs/format.md, "Text
/// and fonts"), checked against colours written in the test, a
/// size found by HarfBuzz (uharfbuzz, through fonttool.py) and pixel
/// positions the contract fixes.
final class TextSpanFitDirectionTests: XCTestCase {
    func compileText(_ source: String, options: Easel.Options = TestFonts.declaredOnly(),
                     file: StaticString = #filePath, line: UInt = #line) throws -> CompiledScene {
        try compileScene(source, file: file, line: line, options: options)
    }

    /// Opaque pixels whose colour is near `colour` (within 40 per channel).
    func columns(_ image: RasterImage, near colour: (Int, Int, Int)) -> [Int] {
        var out = Set<Int>()
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.pixel(x, y)
            if p.a == 255, abs(Int(p.r) - colour.0) < 40, abs(Int(p.g) - colour.1) < 40, abs(Int(p.b) - colour.2) < 40 { out.insert(x) }
        } }
        return out.sorted()
    }

    /// The text's black glyphs lie left of the span's green ones, and no
    /// glyph of either has the other's colour.
    func testSpanGlyphsHaveTheSpansFill() throws {
        let image = try compileText("""
        <scene width="400" height="60">
          <text x="0" y="5" font="Inter Bold 40">HHH<span fill="#00c000">HHH</span></text>
        </scene>
        """).renderImage()
        let black = columns(image, near: (0, 0, 0)), green = columns(image, near: (0, 192, 0))
        XCTAssertGreaterThan(black.count, 30)
        XCTAssertGreaterThan(green.count, 30)
        XCTAssertLessThan(try XCTUnwrap(black.last), try XCTUnwrap(green.first), "black HHH, then green HHH")
    }

    /// A red-to-blue gradient on a span in the middle of a sentence runs from
    /// the span's first glyph to its last, not over the text.
    func testSpanGradientSpansTheSpansGlyphs() throws {
        let image = try compileText("""
        <scene width="600" height="60">
          <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <text x="0" y="5" font="Inter Bold 40">Move <span fill="url(#g)">HHHH</span> now</text>
        </scene>
        """).renderImage()
        // Coloured (not grey) ink is the span's.
        var first = Int.max, last = -1
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.pixel(x, y)
            let m = max(p.r, p.b)
            if p.a == 255, m > 60, Int(p.g) + 40 < Int(m) {
                first = min(first, x); last = max(last, x)
            }
        } }
        XCTAssertGreaterThan(first, 80, "'Move ' comes before the span")
        func solid(_ x: Int) -> RasterImage.Pixel? { (0..<image.height).map { image.pixel(x, $0) }.first { $0.a == 255 && $0.g < 40 } }
        let left = try XCTUnwrap(solid(first)), right = try XCTUnwrap(solid(last))
        // Side bearings keep the ink a little inside the span's extent.
        XCTAssertGreaterThan(left.r, 225, "the span's first glyph starts red: \(left)")
        XCTAssertGreaterThan(right.b, 225, "its last glyph ends blue: \(right)")
    }

    /// Nested spans: the inner span's fill wins inside it; a span that sets
    /// only fill-opacity keeps the colour around it.
    func testNestedSpansAndOpacity() throws {
        let image = try compileText("""
        <scene width="500" height="60" background="white">
          <text x="0" y="5" font="Inter Bold 40"><span fill="#0000ff">HH<span fill="#ff0000">HH</span></span><span fill-opacity="0.5">HH</span></text>
        </scene>
        """).renderImage()
        let blue = columns(image, near: (0, 0, 255)), red = columns(image, near: (255, 0, 0)), grey = columns(image, near: (128, 128, 128))
        XCTAssertFalse(blue.isEmpty); XCTAssertFalse(red.isEmpty); XCTAssertFalse(grey.isEmpty)
        XCTAssertLessThan(blue.last!, red.first!)
        XCTAssertLessThan(red.last!, grey.first!)
    }

    /// A title that fits at its own 40 points stays 40; a longer one is set
    /// at the largest size on the 1/8-point grid whose HarfBuzz advance fits
    /// the width (within one grid step), and its ink stays in the frame.
    func testShrinkFindsTheSizeAnIndependentShaperFinds() throws {
        let width = 300.0
        func scene(_ title: String) -> String {
            """
            <scene width="400" height="80">
              <text x="20" y="10" width="\(Int(width))" font-family="Inter" font-weight="700" font-size="40" fit="shrink" min-font-size="8">\(title)</text>
            </scene>
            """
        }
        func setSize(_ compiled: CompiledScene) throws -> Double { try XCTUnwrap(compiled.layout.texts.first).text.fitting.fontSize }
        XCTAssertEqual(try setSize(compileText(scene("Progress"))), 40)

        let title = "Trainingsfortschrittsübersicht"
        let em = try XCTUnwrap(Double(TestFonts.tool(["advance", TestFonts.inter.path, title, "wght=700"])))
        // The largest 8 + k/8 with em · size ≤ width.
        let expected = 8 + ((width / em - 8) * 8).rounded(.down) / 8
        let compiled = try compileText(scene(title))
        XCTAssertEqual(try setSize(compiled), expected, accuracy: 0.125 + 1e-9, "HarfBuzz: \(em) em")
        XCTAssertTrue(compiled.warnings.isEmpty, "\(compiled.warnings)")
        let image = try compiled.renderImage()
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x, y).a > 0 {
            XCTAssertTrue(x >= 20 && x < 20 + Int(width), "ink at \(x),\(y) outside the frame")
        } }
    }

    /// A sentence in a sized frame shrinks until its wrapped lines fit the
    /// height; text that fits at no size is a warning saying by how much
    /// (an error under --text-overflow error).
    func testShrinkToHeightAndOverflowWarnings() throws {
        let fitting = try compileText("""
        <scene width="300" height="120">
          <text x="0" y="0" width="200" height="60" font-family="Inter" font-size="30" fit="shrink">Close all three rings every day this week</text>
        </scene>
        """)
        let text = try XCTUnwrap(fitting.layout.texts.first).text
        XCTAssertLessThan(text.fitting.fontSize, 30)
        XCTAssertGreaterThan(text.fitting.fontSize, 15, "not simply the minimum")
        XCTAssertLessThanOrEqual(text.shaped.size.height, 60 + 1e-6)
        XCTAssertNil(text.fitting.overflow)
        // The largest such size: an eighth of a point more, set without fit, overflows the 60 points.
        let larger = try compileText("""
        <scene width="300" height="120">
          <text x="0" y="0" width="200" height="60" font-family="Inter" font-size="\(text.fitting.fontSize + 0.125)">Close all three rings every day this week</text>
        </scene>
        """)
        XCTAssertTrue(larger.warnings.contains { $0.message.text.contains("overflows its frame") }, "\(larger.warnings)")

        let source = """
        <scene width="300" height="120">
          <text x="0" y="0" width="100" height="20" font-family="Inter" font-size="30" fit="shrink">Close all three rings every day</text>
        </scene>
        """
        let warned = try compileText(source)
        let warning = try XCTUnwrap(warned.warnings.first { $0.message.text.contains("overflows its frame") })
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 2)
        XCTAssertTrue(warning.message.text.contains("min-font-size 15.0"), warning.message.text)
        XCTAssertTrue(warning.message.text.hasPrefix("text 'Close all three rings every day' overflows"), warning.message.text)
        XCTAssertTrue(warning.message.text.contains("points taller than its frame's height of 20.0"), warning.message.text)

        var strict = TestFonts.declaredOnly()
        strict.textOverflow = .error
        let errors = diagnostics(of: source, options: strict)
        XCTAssertTrue(errors.contains { $0.severity == .error && $0.message.text.contains("overflows its frame") }, "\(errors)")

        // Without fit, lines taller than the frame's height are the same warning.
        let plain = try compileText("""
        <scene width="300" height="120">
          <text x="0" y="0" width="100" height="20" font-family="Inter" font-size="20">Three lines of text here</text>
        </scene>
        """)
        XCTAssertTrue(plain.warnings.contains { $0.message.text.contains("overflows its frame") }, "\(plain.warnings)")
    }

    /// `easel layout` gives a text's laid-out bounds and size beside its frame.
    func testLayoutReportsTextBoundsAndFontSize() throws {
        let json = try compileText("""
        <scene width="400" height="200">
          <text x="10" y="20" width="300" height="30" font-family="Inter" font-size="20">One line</text>
        </scene>
        """).layoutJSON()
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let text = try XCTUnwrap((root["children"] as? [[String: Any]])?.first)
        let bounds = try XCTUnwrap(text["textBounds"] as? [String: Double])
        XCTAssertEqual(text["fontSize"] as? Double, 20)
        XCTAssertEqual(bounds["x"]!, 10, accuracy: 0.01)
        XCTAssertEqual(bounds["y"]!, 20, accuracy: 0.01)
        XCTAssertLessThan(bounds["width"]!, 120, "the line's extent, not the 300-point frame")
        // Inter's line height (from fontTools) at 20 points.
        let lineHeight = try XCTUnwrap(Double(TestFonts.tool(["height", TestFonts.inter.path]))) * 20
        XCTAssertEqual(bounds["height"]!, lineHeight, accuracy: 0.05)
    }

    /// `<hstack dir="rtl">` places its first child at the right edge.
    func testRightToLeftHStackPlacesTheFirstChildAtTheRight() throws {
        let image = try compileText("""
        <scene width="300" height="40">
          <hstack x="0" y="0" width="300" height="40" dir="rtl" spacing="10">
            <view width="50" fill="#ff0000"/><view width="50" fill="#00ff00"/><view width="50" fill="#0000ff"/>
          </hstack>
        </scene>
        """).renderImage()
        func colour(_ x: Int) -> (UInt8, UInt8, UInt8) { let p = image.pixel(x, 20); return (p.r, p.g, p.b) }
        XCTAssertTrue(colour(275) == (255, 0, 0), "first child at the right: \(colour(275))")
        XCTAssertTrue(colour(215) == (0, 255, 0), "\(colour(215))")
        XCTAssertTrue(colour(155) == (0, 0, 255), "\(colour(155))")
        XCTAssertEqual(image.pixel(100, 20).a, 0, "the left is empty")
    }

    /// Under rtl a vstack's `leading` is the right edge.
    func testRightToLeftVStackLeadingIsTheRight() throws {
        let image = try compileText("""
        <scene width="200" height="40">
          <vstack x="0" y="0" width="200" height="40" dir="rtl" alignment="leading">
            <view width="40" height="40" fill="#ff0000"/>
          </vstack>
        </scene>
        """).renderImage()
        XCTAssertEqual(image.pixel(180, 20).r, 255)
        XCTAssertEqual(image.pixel(20, 20).a, 0)
    }

    static let arabic = "مرحبا بالعالم"

    /// The example fonts: Noto Sans Arabic cut to "مرحبا بالعالم", and Inter.
    func arabicOptions() -> Easel.Options { TestFonts.declaredOnly([TestFonts.exampleFolder]) }

    /// Arabic text with align="leading" in a right-to-left text has its ink
    /// at the frame's right edge; under the scene's default ltr, at the left.
    func testArabicLeadingIsTheRightUnderRTL() throws {
        func ink(_ dir: String) throws -> (Int, Int) {
            let image = try compileText("""
            <scene width="400" height="50">
              <text x="0" y="5" width="400" font-family="Noto Sans Arabic" font-size="24" align="leading"\(dir)>\(Self.arabic)</text>
            </scene>
            """, options: arabicOptions()).renderImage()
            var first = Int.max, last = -1
            for y in 0..<image.height { for x in 0..<image.width where image.pixel(x, y).a > 128 { first = min(first, x); last = max(last, x) } }
            return (first, last)
        }
        let rtl = try ink(" dir=\"rtl\"")
        XCTAssertGreaterThan(rtl.1, 390, "ink reaches the right edge: \(rtl)")
        XCTAssertGreaterThan(rtl.0, 200)
        let auto = try ink(" dir=\"auto\"")
        XCTAssertEqual(auto.0, rtl.0, "auto follows the first strong character")
        let ltr = try ink("")
        XCTAssertLessThan(ltr.0, 10, "the scene's default ltr: leading is the left: \(ltr)")
    }

    /// A Latin word inside Arabic stays left to right: its run sits between
    /// the Arabic words (the first Arabic word at the right), its glyphs in
    /// increasing x and its clusters forward.
    func testEmbeddedLatinWordStaysLeftToRight() throws {
        let compiled = try compileText("""
        <scene width="500" height="50">
          <text x="0" y="5" width="500" font-family="Noto Sans Arabic, Inter" font-size="24" dir="rtl">مرحبا Easel بالعالم</text>
        </scene>
        """, options: arabicOptions())
        let runs = try XCTUnwrap(compiled.layout.texts.first).text.shaped.runs.filter { !$0.glyphs.isEmpty }
        let latin = try XCTUnwrap(runs.firstIndex { $0.text.contains("Easel") })
        XCTAssertFalse(runs[latin].clustersBackward)
        let xs = runs[latin].positions.map(\.x)
        XCTAssertEqual(xs, xs.sorted(), "Latin glyphs left to right")
        let first = try XCTUnwrap(runs.firstIndex { $0.text.contains("مرحبا") })
        let second = try XCTUnwrap(runs.firstIndex { $0.text.contains("بالعالم") })
        XCTAssertTrue(runs[first].clustersBackward)
        XCTAssertGreaterThan(runs[first].positions.map(\.x).min()!, xs.max()!, "the first Arabic word is right of the Latin word")
        XCTAssertLessThan(runs[second].positions.map(\.x).max()!, xs.min()!, "the second Arabic word is left of it")
    }

    /// Spans in a graph's text take its placeholders, and parameters work in
    /// a span's text and attributes.
    func testSpansWithPlaceholdersAndParameters() throws {
        let compiled = try compileText("""
        <scene width="300" height="100">
          <defs><param name="accent" type="color" default="#00c000"/><param name="unit" type="string" default="steps"/></defs>
          <lineGraph x="0" y="0" width="300" height="100" values="3 9 4">
            <text x="4" y="4" font-family="Inter" font-size="20">max <span fill="{accent}">{max} {unit}</span></text>
          </lineGraph>
        </scene>
        """)
        let text = try XCTUnwrap(compiled.layout.texts.first).text
        XCTAssertEqual(text.shaped.text, "max 9 steps")
        let green = try XCTUnwrap(firstText(compiled)?.spanFills.first)
        XCTAssertEqual(green.runs.map { text.shaped.runs[$0].text }.joined(), "9 steps")
        let image = try compiled.renderImage()
        XCTAssertFalse(columns(image, near: (0, 192, 0)).isEmpty, "the span is in the parameter's colour")
    }

    /// What a span may hold and say is checked like any element.
    func testSpanDiagnostics() throws {
        assertDiagnostics("""
        <scene width="10" height="10">
          <text>a <span 1️⃣colour="red">b</span> 2️⃣<view/></text>
          <text fit="3️⃣shrink">c</text>
          4️⃣<span>d</span>
        </scene>
        """, [("1️⃣", "unknown attribute 'colour' on <span>"), ("2️⃣", "<view>"), ("3️⃣", "width"), ("4️⃣", "<span>")], count: 4)
    }
}
