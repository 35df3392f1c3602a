import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Text with the test font declared (Tests/Fixtures/fonts: Inter, cut to
/// Latin) and the machine's fonts off: nothing here depends on what fonts
/// the machine has.
final class TextTests: XCTestCase {
    func compileText(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> CompiledScene {
        try compileScene(source, file: file, line: line, options: TestFonts.declaredOnly())
    }

    /// Left-most and right-most ink columns of rows that have ink.
    func inkColumns(_ image: RasterImage) -> (first: Int, last: Int)? {
        var first = Int.max, last = -1
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x, y).a == 255 {
            first = min(first, x); last = max(last, x)
        } }
        return last >= 0 ? (first, last) : nil
    }

    /// Box of the pixels darker than the white background: minX, minY, maxX, maxY.
    func inkBox(_ image: RasterImage) -> [Int]? {
        var box = [Int.max, Int.max, -1, -1]
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.pixel(x, y)
            if Int(p.r) + Int(p.g) + Int(p.b) < 600 {
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
            }
        } }
        return box[2] >= 0 ? box : nil
    }

    /// The most opaque pixel in a column's colour.
    func solidPixel(_ image: RasterImage, column x: Int) -> RasterImage.Pixel? {
        (0..<image.height).map { image.pixel(x, $0) }.first { $0.a == 255 }
    }

    /// A short label in a wide frame still shows the whole gradient: its
    /// first glyph starts red, its last ends blue. With paint-bounds="frame"
    /// the same label only reaches the gradient's first part.
    func testGradientSpansTheGlyphsNotTheFrame() throws {
        func render(_ bounds: String) throws -> RasterImage {
            try compileText("""
            <scene width="600" height="60">
              <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="blue"/></linearGradient></defs>
              <text x="0" y="5" width="600" font="Inter Bold 40" fill="url(#g)"\(bounds)>HHHH</text>
            </scene>
            """).renderImage()
        }
        let image = try render("")
        let ink = try XCTUnwrap(inkColumns(image))
        XCTAssertLessThan(ink.last, 200, "a short label")
        let left = try XCTUnwrap(solidPixel(image, column: ink.first)), right = try XCTUnwrap(solidPixel(image, column: ink.last))
        // The side bearings keep the ink a few points inside the line's
        // logical extent: within 6% of either end of the ramp.
        XCTAssertGreaterThan(left.r, 240, "first glyph starts at the first stop: \(left)")
        XCTAssertLessThan(left.b, 15)
        XCTAssertGreaterThan(right.b, 240, "last glyph ends at the last stop: \(right)")
        XCTAssertLessThan(right.r, 15)

        let framed = try render(" paint-bounds=\"frame\"")
        let framedRight = try XCTUnwrap(solidPixel(framed, column: ink.last))
        XCTAssertGreaterThan(framedRight.r, 120, "with the frame as the box, the end of the text is still reddish: \(framedRight)")
    }

    func testCentredTextGradientFollowsTheCentredLine() throws {
        let image = try compileText("""
        <scene width="600" height="60">
          <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <text width="600" align="center" font-size="40" fill="url(#g)">IIIII</text>
        </scene>
        """).renderImage()
        let ink = try XCTUnwrap(inkColumns(image))
        XCTAssertGreaterThan(ink.first, 200, "centred")
        XCTAssertGreaterThan(try XCTUnwrap(solidPixel(image, column: ink.first)).r, 200)
        XCTAssertGreaterThan(try XCTUnwrap(solidPixel(image, column: ink.last)).b, 200)
    }

    func testTextIsRealTextInPDFWithAnEmbeddedFont() throws {
        let s = try compileText("""
        <scene width="300" height="100">
          <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <text x="10" y="10" font-size="20">Plain label</text>
          <text x="10" y="50" font="Inter Bold 20" fill="url(#g)">Gradient label</text>
        </scene>
        """)
        let dir = ExternalTool.temporaryDirectory()
        let pdf = dir.appendingPathComponent("t.pdf")
        try Data(try s.render(format: .pdf)).write(to: pdf)
        let text = try ExternalTool.run("pdftotext", [pdf.path, "-"])
        XCTAssertTrue(text.stdout.contains("Plain label"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Gradient label"), "gradient text stays text: \(text.stdout)")
        // Inter is a variable font: Cairo embeds each instance's outlines as
        // a font of its own ("CairoFont-…"), subset, as any font.
        let fonts = try ExternalTool.run("pdffonts", [pdf.path])
        let rows = fonts.stdout.split(separator: "\n").dropFirst(2)
        XCTAssertFalse(rows.isEmpty)
        for row in rows { XCTAssertTrue(row.contains(" yes "), "embedded: \(row)") }
    }

    /// SVG keeps Cairo's exact glyph outlines and adds the label as real,
    /// invisible text, one tspan per line, which changes no pixel.
    func testSVGHasRealTextAndLooksLikeThePNG() throws {
        let s = try compileText("""
        <scene width="300" height="120" background="white">
          <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <text x="10" y="10" width="200" font="Inter Bold 18" fill="url(#g)">Two &amp; a half
        lines of text</text>
          <text x="10" y="80" font-size="14" transform="rotate(-5)">Tilted</text>
        </scene>
        """)
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains(">Two &amp; a half</tspan>"), svg)
        XCTAssertTrue(svg.contains(">lines of text</tspan>"))
        XCTAssertTrue(svg.contains(">Tilted</tspan>"))
        XCTAssertTrue(svg.contains("font-weight=\"700\""))
        let png = try s.renderImage()
        // Small glyphs are mostly edge pixels, and FreeType rasterises glyphs
        // differently from a path fill: up to 5% may differ, but the ink
        // must cover the same box to within a pixel.
        for (name, reference) in [("rsvg", try ReferenceRenderers.rsvg(svg)), ("resvg", try ReferenceRenderers.resvg(svg))] {
            assertSimilar(png, reference, tolerance: 24, maxFraction: 0.05, name: "text-svg-\(name)")
            let a = try XCTUnwrap(inkBox(png)), b = try XCTUnwrap(inkBox(reference))
            for (u, v) in zip(a, b) { XCTAssertEqual(u, v, accuracy: 1, "\(name) ink box \(a) vs \(b)") }
        }
    }

    func testMaxLinesEndsTheLastKeptLineWithAnEllipsis() throws {
        let s = try compileText("""
        <scene width="200" height="200">
          <text id="t" width="120" font-size="12" max-lines="2">one two three four five six seven eight nine ten eleven twelve</text>
          <text id="u" x="0" y="100" max-lines="1">first line
        second line</text>
        </scene>
        """)
        guard let t = s.layout.text(of: s.layout.nodes[0]), let u = s.layout.text(of: s.layout.nodes[1]) else {
            return XCTFail("expected text drawings")
        }
        XCTAssertTrue(t.shaped.text.hasSuffix("…"), t.shaped.text)
        XCTAssertTrue(t.shaped.text.hasPrefix("one two"))
        XCTAssertEqual(u.shaped.text, "first line…")
        let twoLines = s.layout.nodes[0].frame.height
        let one = try compileText("<scene width=\"200\" height=\"50\"><text>one</text></scene>").layout.nodes[0].frame.height
        XCTAssertEqual(twoLines, 2 * one, accuracy: 0.5)
    }

    /// Cutting to `max-lines` searches the last line by bisection, and the
    /// layout budget pays for every layout. The last kept line here is
    /// "abcd" and k groups of 90 zero-width word joiners (each group a
    /// word, so no quadratic run), and "abcd…" is too wide: the cut must
    /// go back past every joiner, one layout per cluster before.
    func testTheEllipsisCutTakesLogarithmicallyManyLayoutsAllCharged() throws {
        var calls: [Int] = []
        for groups in [10, 20, 40] {
            let text = "abcd" + String(repeating: " " + String(repeating: "\u{2060}", count: 90), count: groups) + " efghijkl"
            let s = try compileText("""
                <scene width="200" height="50"><text width="30" font-size="12" max-lines="1">\(text)</text></scene>
                """)
            guard let t = s.layout.text(of: s.layout.nodes[0]) else { return XCTFail("expected a text drawing") }
            XCTAssertTrue(t.shaped.text.hasPrefix("ab"), t.shaped.text)
            XCTAssertTrue(t.shaped.text.hasSuffix("…"))
            XCTAssertLessThan(t.shaped.text.unicodeScalars.count, 10, "cut back past every joiner")
            XCTAssertEqual(t.shaped.lines.count, 1)
            let work = s.layout.work
            // Every layout is charged as a call over the whole text.
            XCTAssertEqual(work.textCharacters, work.textCalls * text.unicodeScalars.count)
            XCTAssertNil(work.exhaustedAt)
            calls.append(work.textCalls)
        }
        // Doubling the line adds about one bisection step (to measure and
        // to shape), where the linear search doubled the layouts (900 to
        // 3,600 clusters).
        XCTAssertLessThanOrEqual(calls[2] - calls[0], 6, "\(calls)")
        XCTAssertLessThan(calls[2], 2 * (14 + 3), "\(calls)")
    }

    /// A label painted with a pattern whose tile holds text draws text while
    /// drawing text: it must not wait on itself.
    func testTextFilledWithAPatternOfText() throws {
        func scene(_ fill: String) -> String {
            """
            <scene width="200" height="60" background="white">
              <defs><pattern id="p" width="20" height="14"><text font-size="10" fill="red">ab</text></pattern></defs>
              <text font="Inter Bold 40" fill="\(fill)">WWW</text>
            </scene>
            """
        }
        let image = try compileText(scene("url(#p)")).renderImage()
        // The glyphs' ink, drawn solid: the pattern's red must lie inside
        // it, cover a fair part of it, and reach every W.
        let ink = try compileText(scene("black")).renderImage()
        var red: [Int] = [], inked: [Int] = [], outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x, y), i = ink.pixel(x, y)
                if i.r < 128 { inked.append(x) }
                guard p.r > 200, p.g < 60 else { continue }
                red.append(x)
                if i.r > 250 { outside += 1 }
            }
        }
        XCTAssertGreaterThan(inked.count, 1000)
        XCTAssertEqual(outside, 0, "red only inside the glyphs")
        // Small red text, anti-aliased: a few percent of the ink is pure red.
        XCTAssertGreaterThan(Double(red.count) / Double(inked.count), 0.01, "the pattern's text shows through: \(red.count) of \(inked.count)")
        let left = inked.min() ?? 0, width = max(1, (inked.max() ?? 0) - left + 1)
        XCTAssertEqual(Set(red.map { min(2, ($0 - left) * 3 / width) }), [0, 1, 2], "in every W")
    }

    /// The example card in four scripts, compiled twice: the same bytes.
    func testTextOutputIsDeterministic() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("examples/hello-world.scene.xml")
        // Emoji have no VectorDrawable (VectorDrawableTests render text twice).
        for format in OutputFormat.allCases where format != .vectorDrawable {
            XCTAssertEqual(try Easel.compile(fileAt: url).get().render(format: format),
                           try Easel.compile(fileAt: url).get().render(format: format), "\(format)")
        }
    }

    func testSizeFollowsFontSizeNotOutputScale() throws {
        let a = try compileText("<scene width=\"300\" height=\"50\"><text font-size=\"16\">Hello</text></scene>")
        let b = try compileText("<scene width=\"300\" height=\"50\" scale=\"3\"><text font-size=\"16\">Hello</text></scene>")
        let c = try compileText("<scene width=\"300\" height=\"50\"><text font-size=\"32\">Hello</text></scene>")
        XCTAssertEqual(a.layout.nodes[0].frame, b.layout.nodes[0].frame)
        XCTAssertEqual(c.layout.nodes[0].frame.width, 2 * a.layout.nodes[0].frame.width, accuracy: 0.5)
        // The font's line height, as fontTools reads its metrics.
        let em = try XCTUnwrap(Double(try TestFonts.tool(["height", TestFonts.inter.path])))
        XCTAssertEqual(a.layout.nodes[0].frame.height, 16 * em, accuracy: 0.05)
    }

    func testFontAttributesOverrideTheDescription() throws {
        let bold = try compileText("<scene width=\"300\" height=\"50\"><text font=\"Inter 16\" font-weight=\"bold\">Hello</text></scene>")
        let boldToo = try compileText("<scene width=\"300\" height=\"50\"><text font=\"Inter Bold 16\">Hello</text></scene>")
        let regular = try compileText("<scene width=\"300\" height=\"50\"><text font=\"Inter 16\">Hello</text></scene>")
        XCTAssertEqual(bold.layout.nodes[0].frame, boldToo.layout.nodes[0].frame)
        XCTAssertGreaterThan(bold.layout.nodes[0].frame.width, regular.layout.nodes[0].frame.width)
    }
}
