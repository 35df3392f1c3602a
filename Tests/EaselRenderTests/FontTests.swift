import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Fonts (docs/format.md, "Text and fonts"): declared fonts, the runs a text is
/// set in, variable axes, WOFF, colour emoji, generic families and `lang`,
/// missing characters, threads. Oracles: fontTools' reading of the same
/// font files, pixel measurements against them, and other encodings of
/// the same font; Easel's own output only where the claim is that two
/// renders agree (threads) or as a marked regression guard (the reviewed
/// picture).
final class FontTests: XCTestCase {
    func runs(_ scene: CompiledScene) -> [GlyphRun] {
        scene.layout.texts.flatMap(\.text.shaped.runs)
    }

    func testADeclaredFontIsWhatTheRunsNameAndAFileTheCompileRead() throws {
        let s = try compileScene("""
        <scene width="300" height="60">
          <text font-family="Inter" font-size="20" font-weight="650">Hello</text>
        </scene>
        """, options: TestFonts.declaredOnly())
        let run = try XCTUnwrap(runs(s).first)
        XCTAssertEqual(run.font?.family, "Inter")
        XCTAssertEqual(run.font?.weight, 650, "a variable font takes the weight exactly")
        XCTAssertEqual(run.font?.file, TestFonts.inter.path, "the file as the compile read it")
        XCTAssertTrue(run.missing.isEmpty)
        XCTAssertEqual(run.glyphs.count, 5)
        // The file is among the compile's inputs, with the hash of its bytes.
        let record = try XCTUnwrap(s.filesRead.first { $0.path == TestFonts.inter.path })
        XCTAssertEqual(record.size, try Data(contentsOf: TestFonts.inter).count)
    }

    /// The stem of Inter's "I" at each weight, measured in pixels, against
    /// the same glyph instantiated at that `wght` by fontTools: every
    /// weight, between the named instances too, sets the axis exactly, and
    /// the stem grows with the weight.
    func testVariableWeightSetsTheAxisExactly() throws {
        let size = 200.0
        var previous = 0.0
        for weight in [100, 200, 300, 400, 450, 500, 600, 650, 700, 800, 900] {
            let image = try compileScene("""
            <scene width="160" height="260" background="white">
              <text x="20" y="10" font-family="Inter" font-size="\(Int(size))" font-weight="\(weight)">I</text>
            </scene>
            """, options: TestFonts.declaredOnly()).renderImage()
            // A vertical stem: the row's ink, summed as coverage, is its width.
            let row = image.height / 2
            let ink = (0..<image.width).reduce(0.0) { sum, x in sum + (255 - Double(image.pixel(x, row).r)) / 255 }
            let fields = try TestFonts.tool(["stem", TestFonts.inter.path, "I", String(weight)]).split(separator: " ").compactMap { Double($0) }
            let expected = (fields[1] - fields[0]) * size / fields[2]
            XCTAssertEqual(ink, expected, accuracy: 0.6, "weight \(weight): stem \(ink) px, fontTools says \(expected) px")
            XCTAssertGreaterThan(ink, previous, "the stem grows with the weight (\(weight))")
            previous = ink
        }
    }

    /// One PDF with several weights of one variable font: each is embedded
    /// as itself (Cairo shares one FreeType face, and one set of axis
    /// coordinates, per font file; each instance is now a Cairo face over a
    /// FreeType face of its own). Rasterised by poppler, each stem is as wide as
    /// fontTools' instance at that weight says — the bold one was the
    /// default's before.
    func testEveryWeightOfAVariableFontInOnePDFIsEmbeddedAsItself() throws {
        let size = 100.0, weights = [100, 400, 800, 900]
        let texts = weights.enumerated().map { i, w in
            "<text x=\"\(20 + i * 80)\" y=\"10\" font-family=\"Inter\" font-size=\"\(Int(size))\" font-weight=\"\(w)\">I</text>"
        }.joined()
        let s = try compileScene("<scene width=\"\(40 + weights.count * 80)\" height=\"140\" background=\"white\">\(texts)</scene>",
                                 options: TestFonts.declaredOnly())
        let page = try ReferenceRenderers.poppler(try s.render(format: .pdf))
        let row = page.height / 2
        for (i, weight) in weights.enumerated() {
            let columns = (20 + i * 80 - 10)..<(20 + i * 80 + 70)
            let ink = columns.reduce(0.0) { sum, x in sum + (255 - Double(page.pixel(x, row).r)) / 255 }
            let fields = try TestFonts.tool(["stem", TestFonts.inter.path, "I", String(weight)]).split(separator: " ").compactMap { Double($0) }
            let expected = (fields[1] - fields[0]) * size / fields[2]
            XCTAssertEqual(ink, expected, accuracy: 0.8, "weight \(weight) in the PDF: stem \(ink) px, fontTools says \(expected) px")
        }
    }

    /// `font-variation` sets any axis: Inter's `slnt` at −10 leans the
    /// stem of "I", measured as the shift of the stem's centre between two
    /// rows, by what fontTools' instance of the glyph at that axis value
    /// says (its top edge's shift over its height); without it the stem is upright.
    func testFontVariationSetsAnyAxis() throws {
        func lean(_ variation: String) throws -> Double {
            let image = try compileScene("""
            <scene width="200" height="260" background="white">
              <text x="40" y="10" font-family="Inter" font-size="200" font-weight="700" \(variation)>I</text>
            </scene>
            """, options: TestFonts.declaredOnly()).renderImage()
            func centre(_ row: Int) -> Double {
                var sum = 0.0, weight = 0.0
                for x in 0..<image.width {
                    let ink = (255 - Double(image.pixel(x, row).r)) / 255
                    sum += ink * Double(x); weight += ink
                }
                return sum / weight
            }
            let top = 80, bottom = 190
            return (centre(top) - centre(bottom)) / Double(bottom - top)
        }
        XCTAssertEqual(try lean(""), 0, accuracy: 0.005)
        let expected = try XCTUnwrap(Double(try TestFonts.tool(["lean", TestFonts.inter.path, "I", "wght=700", "slnt=-10"])))
        XCTAssertGreaterThan(expected, 0.1, "fontTools sees the lean")
        XCTAssertEqual(try lean("font-variation=\"slnt -10\""), expected, accuracy: 0.005)
    }

    /// WOFF and WOFF2 are the same font in another wrapping: the same family,
    /// the same pixels as the TrueType file.
    func testWOFFAndWOFF2DrawAsTheFontTheyWrap() throws {
        let dir = ExternalTool.temporaryDirectory()
        let scene = """
        <scene width="300" height="60" background="white">
          <defs><font src="FILE"/></defs>
          <text x="5" y="5" font-family="Inter" font-size="28" font-weight="500">Wrapped fonts</text>
        </scene>
        """
        try FileManager.default.copyItem(at: TestFonts.inter, to: dir.appendingPathComponent("inter.ttf"))
        var options = Easel.Options()
        options.systemFonts = false
        let reference = try compileScene(scene.replacingOccurrences(of: "FILE", with: "inter.ttf"), baseDirectory: dir, options: options)
        for flavor in ["woff", "woff2"] {
            try TestFonts.tool(["flavor", TestFonts.inter.path, dir.appendingPathComponent("inter.\(flavor)").path, flavor])
            let s = try compileScene(scene.replacingOccurrences(of: "FILE", with: "inter.\(flavor)"), baseDirectory: dir, options: options)
            XCTAssertEqual(runs(s).first?.font?.family, "Inter", flavor)
            XCTAssertEqual(runs(s).first?.font?.file, dir.appendingPathComponent("inter.\(flavor)").path, flavor)
            XCTAssertEqual(try s.renderImage().rgba, try reference.renderImage().rgba, "\(flavor) draws as the TrueType file")
        }
    }

    /// Noto Color Emoji's bitmaps, scaled to the text's size, in colour: in
    /// the PNG and in the PDF as pdftoppm rasterises it. The emoji's box
    /// (from the layout) holds saturated pixels; the text around it does not.
    func testColourEmojiDrawInColourInPNGAndPDF() throws {
        let s = try compileScene("""
        <scene width="200" height="60" background="white">
          <text x="10" y="10" font-family="Inter, emoji" font-size="32">Hi 👋</text>
        </scene>
        """, options: TestFonts.declaredOnly([TestFonts.folder, TestFonts.exampleFolder]))
        let emoji = try XCTUnwrap(runs(s).first { $0.isColor })
        XCTAssertEqual(emoji.font?.family, "Noto Color Emoji")
        // The bitmap's 109-pixel strike is drawn at 32 points.
        let m = emoji.fontMatrix
        XCTAssertEqual((m.a * m.d - m.b * m.c).squareRoot(), 32, accuracy: 0.01)
        // The emoji's box: from its origin to the end of the text's frame.
        let x0 = 10 + emoji.positions[0].x, x1 = s.layout.nodes[0].frame.maxX
        func saturatedPixels(_ image: RasterImage, scale: Double) -> (inBox: Int, outside: Int) {
            var inBox = 0, outside = 0
            for y in 0..<image.height { for x in 0..<image.width {
                let p = image.pixel(x, y)
                let saturation = Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b))
                guard saturation > 80 else { continue }
                if Double(x) / scale >= x0 - 1, Double(x) / scale <= x1 + 1 { inBox += 1 } else { outside += 1 }
            } }
            return (inBox, outside)
        }
        let png = saturatedPixels(try s.renderImage(), scale: 1)
        XCTAssertGreaterThan(png.inBox, 200, "the emoji is in colour in the PNG")
        XCTAssertEqual(png.outside, 0)

        let dir = ExternalTool.temporaryDirectory()
        let pdf = dir.appendingPathComponent("emoji.pdf")
        try Data(try s.render(format: .pdf)).write(to: pdf)
        try ExternalTool.run("pdftoppm", ["-png", "-r", "144", "-singlefile", pdf.path, dir.appendingPathComponent("page").path])
        let page = try RasterImage(png: Array(Data(contentsOf: dir.appendingPathComponent("page.png"))))
        let fromPDF = saturatedPixels(page, scale: 2)
        XCTAssertGreaterThan(fromPDF.inBox, 800, "the emoji is in colour in the PDF")
        XCTAssertEqual(fromPDF.outside, 0)
    }

    /// Characters no font of the compile has: a located warning with each
    /// code point, the runs list them, and they are drawn as boxes (ink
    /// where the characters are, none of it another font's glyphs).
    func testMissingCharactersAreReportedNotSilentlyBoxed() throws {
        let source = "<scene width=\"400\" height=\"60\" background=\"white\">\n  <text x=\"10\" y=\"10\" font-family=\"Inter\" font-size=\"20\">Hi 世界 👋 مرحبا</text>\n</scene>"
        let s = try compileScene(source, options: TestFonts.declaredOnly())
        let warning = try XCTUnwrap(s.warnings.first { $0.message.text.contains("no font of this compile has") })
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 2)
        XCTAssertEqual(warning.location?.column, 3)
        for code in ["U+4E16 '世'", "U+754C '界'", "U+1F44B '👋'", "U+0645 'م'", "U+0627 'ا'"] {
            XCTAssertTrue(warning.message.text.contains(code), "\(code) in: \(warning.message.text)")
        }
        // In text order, the Arabic word too (its glyphs run right to left).
        let missing = runs(s).flatMap(\.missing).map(\.scalar)
        XCTAssertEqual(String(String.UnicodeScalarView(missing)), "世界👋مرحبا")
        XCTAssertFalse(warning.message.text.contains("U+0020"), "spaces are not missing characters")

        var options = TestFonts.declaredOnly()
        options.missingGlyphs = .error
        let errors = diagnostics(of: source, options: options)
        XCTAssertTrue(errors.contains { $0.severity == .error && $0.message.text.contains("U+4E16") }, "\(errors)")
    }

    func testAFamilyNoFontHasIsAWarningWithTheNearestFamily() throws {
        let source = MarkedSource("""
        <scene width="300" height="60">
          <text font-family="1️⃣Intre, sans-serif, '4️⃣emoji', 5️⃣sans-serf" font-size="20">Hello</text>
          <text font="2️⃣Intr Bold 20">Hello</text>
          <text font="3️⃣Sans Bold 20">Hello</text>
        </scene>
        """)
        let s = try compileScene(source.text, options: TestFonts.declaredOnly())
        assertDiagnostic(s.warnings, at: "1️⃣", in: source, contains: "no font of this compile has the family 'Intre'")
        assertDiagnostic(s.warnings, at: "1️⃣", in: source, contains: "did you mean 'Inter'")
        assertDiagnostic(s.warnings, at: "2️⃣", in: source, contains: "the family 'Intr'")
        // Quoted, "emoji" is a family's name, not the generic: there is no such family.
        assertDiagnostic(s.warnings, at: "4️⃣", in: source, contains: "the family 'emoji'")
        // A misspelt generic name is suggested as such.
        assertDiagnostic(s.warnings, at: "5️⃣", in: source, contains: "did you mean 'sans-serif'")
        let messages = s.warnings.map(\.message.text)
        XCTAssertFalse(messages.contains { $0.contains("the family 'sans-serif'") || $0.contains("the family 'Sans'") },
                       "generic names (and Pango's Sans) are no family to warn about: \(messages)")
        XCTAssertFalse(source.markers["3️⃣"].map { m in s.warnings.contains { $0.location?.line == m.line } } ?? true)
        // The texts fall back, to the only font there is.
        XCTAssertEqual(runs(s).first?.font?.family, "Inter")
    }

    /// Texts that name no family take DejaVu Sans; a compile without it
    /// says once which family they get instead.
    func testAMissingDefaultFamilyIsSaidOnce() throws {
        let s = try compileScene("""
        <scene width="300" height="60"><text>One</text><text y="20">Two</text><text y="40" font-family="Inter">Three</text></scene>
        """, options: TestFonts.declaredOnly())
        let said = s.warnings.filter { $0.message.text.contains("default family 'DejaVu Sans'") }
        XCTAssertEqual(said.count, 1, "\(s.warnings)")
        XCTAssertTrue(said.first?.message.text.contains("set in 'Inter'") == true, "\(said)")
        XCTAssertTrue(try compileScene("<scene width=\"300\" height=\"60\"><text>One</text></scene>").warnings.isEmpty,
                      "the machine has DejaVu Sans")
    }

    /// An axis `font-variation` names that the font lacks (axis tags are
    /// case-sensitive) is said, with the axes the font has.
    func testAnAxisTheFontLacksIsAWarning() throws {
        let s = try compileScene("""
        <scene width="300" height="60"><text font-family="Inter" font-variation="SLNT -10, wght 500">Hello</text></scene>
        """, options: TestFonts.declaredOnly())
        let warning = try XCTUnwrap(s.warnings.first { $0.message.text.contains("'font-variation' names") }, "\(s.warnings)")
        XCTAssertTrue(warning.message.text.contains("'SLNT'") && warning.message.text.contains("'slnt'")
                      && !warning.message.text.contains("names 'SLNT', 'wght'"), warning.message.text)
        XCTAssertEqual(runs(s).first?.font?.weight, 500)
    }

    /// A family without a bold or an italic face gets them synthesised
    /// (Noto Sans Arabic has only its regular face here): emboldened
    /// outlines, heavier ink; and an oblique that leans the stroke of alef
    /// by 0.2 more (the shear of fontconfig's own 90-synthetic.conf, which
    /// Easel's rule repeats), measured in pixels.
    func testSyntheticBoldAndObliqueWhereAFamilyLacksThem() throws {
        func render(_ attributes: String) throws -> (run: GlyphRun, image: RasterImage) {
            let s = try compileScene("""
            <scene width="120" height="220" background="white">
              <text x="40" y="10" font-family="Noto Sans Arabic" font-size="160" \(attributes)>ا</text>
            </scene>
            """, options: TestFonts.declaredOnly([TestFonts.exampleFolder]))
            return (try XCTUnwrap(runs(s).first), try s.renderImage())
        }
        func ink(_ image: RasterImage) -> Double {
            image.rgba.enumerated().filter { $0.offset % 4 == 0 }.reduce(0.0) { $0 + (255 - Double($1.element)) / 255 }
        }
        func lean(_ image: RasterImage) -> Double {
            func coverage(_ row: Int) -> (sum: Double, weight: Double) {
                var sum = 0.0, weight = 0.0
                for x in 0..<image.width {
                    let a = (255 - Double(image.pixel(x, row).r)) / 255
                    sum += a * Double(x); weight += a
                }
                return (sum, weight)
            }
            // Rows a quarter and three quarters down the stroke, away from its ends.
            let inked = (0..<image.height).filter { coverage($0).weight > 1 }
            guard let top = inked.first, let bottom = inked.last, bottom - top > 20 else { return .nan }
            let (upper, lower) = (top + (bottom - top) / 4, bottom - (bottom - top) / 4)
            func centre(_ row: Int) -> Double { coverage(row).sum / coverage(row).weight }
            return (centre(upper) - centre(lower)) / Double(lower - upper)
        }
        let regular = try render(""), bold = try render("font-weight=\"bold\""), oblique = try render("font-style=\"italic\"")
        XCTAssertEqual(regular.run.face?.synthesizesBold, false)
        XCTAssertEqual(bold.run.face?.synthesizesBold, true)
        XCTAssertGreaterThan(ink(bold.image), ink(regular.image) * 1.15, "emboldened")
        XCTAssertEqual(oblique.run.font?.style, .oblique)
        // Alef is not quite upright in this design: the oblique adds 0.2 to its lean.
        XCTAssertEqual(lean(oblique.image) - lean(regular.image), 0.2, accuracy: 0.01)
    }

    /// A scene's `lang` reaches its graph labels as it reaches its texts.
    func testGraphLabelsTakeTheScenesLang() throws {
        let s = try compileScene("""
        <scene width="200" height="120" lang="ja">
          <lineGraph values="1 2" labels="直 角" padding="10 10 30 10"><line/><xLabels font-family="sans-serif"/></lineGraph>
        </scene>
        """)
        XCTAssertEqual(Set(runs(s).compactMap(\.font?.family)), ["Noto Sans CJK JP"])
    }

    /// Missing characters in a thousand labels: twenty texts reported one
    /// by one, then one count (as errors stop at the error limit).
    func testMissingGlyphReportsAreBounded() throws {
        let texts = (0..<30).map { "<text y=\"\($0 * 2)\" font-family=\"Inter\">世 \($0)</text>" }.joined()
        let s = try compileScene("<scene width=\"100\" height=\"100\">\(texts)</scene>", options: TestFonts.declaredOnly())
        let missing = s.warnings.filter { $0.message.text.contains("no font of this compile has the character") }
        XCTAssertEqual(missing.count, 20)
        XCTAssertTrue(s.warnings.contains { $0.message.text == "10 more texts have characters no font of this compile has" },
                      "\(s.warnings)")
    }

    /// The generic names resolve by Easel's documented order over the
    /// machine's fonts (DejaVu, Noto and Inter come with the test set-up).
    func testGenericFamiliesFollowEaselsOrderPerScript() throws {
        let s = try compileScene("""
        <scene width="400" height="200">
          <text font-family="serif">Serif</text>
          <text font-family="monospace">Mono</text>
          <text font-family="sans-serif">Sans مرحبا</text>
          <text font-family="Inter">👋😀☔</text>
        </scene>
        """)
        let families = runs(s).map { "\($0.text.trimmingCharacters(in: .whitespaces))=\($0.font?.family ?? "-")" }
        // Emoji sequences take the emoji order whatever the text's families
        // (Pango sets them in "emoji"): colour emoji even for 😀 and ☔,
        // which DejaVu Sans, earlier in the fallback, also has.
        XCTAssertEqual(families, ["Serif=DejaVu Serif", "Mono=DejaVu Sans Mono", "Sans=DejaVu Sans", "مرحبا=Noto Sans Arabic",
                                  "👋😀☔=Noto Color Emoji"])
        XCTAssertTrue(runs(s).last?.isColor == true)
    }

    /// `lang` picks the regional faces of Han characters: 直 (U+76F4) is drawn
    /// with the Japanese face's glyph for `ja` and the Simplified Chinese
    /// one's for `zh-Hans`, as fontTools reads the collection's two cmaps.
    func testLangPicksTheRegionalFormsOfHan() throws {
        let collection = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
        for (lang, family, face) in [("ja", "Noto Sans CJK JP", 0), ("zh-Hans", "Noto Sans CJK SC", 2), ("zh-TW", "Noto Sans CJK TC", 3)] {
            let s = try compileScene("""
            <scene width="100" height="60" lang="\(lang)"><text font-family="sans-serif" font-size="30">直</text></scene>
            """)
            let run = try XCTUnwrap(runs(s).first)
            XCTAssertEqual(run.font?.family, family, lang)
            XCTAssertEqual(run.font?.file, collection, lang)
            XCTAssertEqual(run.glyphs, [UInt32(try TestFonts.tool(["glyph", collection, String(face), "直"]))!], lang)
        }
        // Without a lang: Simplified Chinese, whatever the environment says.
        let plain = try compileScene("<scene width=\"100\" height=\"60\"><text font-size=\"30\">直</text></scene>")
        XCTAssertEqual(runs(plain).first?.font?.family, "Noto Sans CJK SC")
        // `lang` also reaches the shaper: the Simplified Chinese face asked
        // for by name draws the Japanese form under lang="ja" (its `locl`
        // feature), the glyph the Japanese face's cmap gives.
        let localized = try compileScene("""
        <scene width="100" height="60"><text font-family="Noto Sans CJK SC" lang="ja" font-size="30">直</text></scene>
        """)
        XCTAssertEqual(runs(localized).first?.font?.family, "Noto Sans CJK SC")
        XCTAssertEqual(runs(localized).first?.glyphs, [UInt32(try TestFonts.tool(["glyph", collection, "0", "直"]))!])
    }

    /// The SVG's invisible text names the families the text was set in, not
    /// the ones asked for.
    func testSVGTextLayerNamesTheFontsActuallyUsed() throws {
        let s = try compileScene("""
        <scene width="300" height="60"><text font-family="Nowhere Sans, Inter" font-size="20">Hello</text></scene>
        """, options: TestFonts.declaredOnly())
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("font-family=\"'Inter'\""), svg)
        XCTAssertFalse(svg.contains("Nowhere"))
    }

    /// Text in PDF stays real text in every script, emoji included.
    func testTextInEveryScriptIsRealTextInPDF() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("examples/hello-world.scene.xml")
        let s = try Easel.compile(fileAt: url).get()
        XCTAssertTrue(s.warnings.isEmpty, "\(s.warnings)")
        let dir = ExternalTool.temporaryDirectory()
        let pdf = dir.appendingPathComponent("hello.pdf")
        try Data(try s.render(format: .pdf)).write(to: pdf)
        let text = try ExternalTool.run("pdftotext", [pdf.path, "-"]).stdout
        for expected in ["Hello, world", "こんにちは、世界", "Noto Color Emoji"] { XCTAssertTrue(text.contains(expected), "\(expected) in \(text)") }
        // pdftotext gives Arabic in its visual order; its letters are there.
        XCTAssertTrue(["م", "ر", "ح", "ب", "ا", "ل", "ع"].allSatisfy { text.contains($0) }, text)
        // Every font is embedded (subset); a variable font's instances as
        // Cairo's own fonts of their outlines, the others by name.
        let fonts = try ExternalTool.run("pdffonts", [pdf.path]).stdout
        for family in ["NotoSansCJKjp", "NotoSansArabic"] { XCTAssertTrue(fonts.contains(family), "\(family) embedded:\n\(fonts)") }
        let rows = fonts.split(separator: "\n").dropFirst(2)
        XCTAssertGreaterThanOrEqual(rows.count, 3, fonts)
        for row in rows { XCTAssertTrue(row.contains(" yes yes "), "embedded and subset: \(row)") }
    }

    /// Eight threads making font sets and shaping and painting with them
    /// at once give the bytes a serial run gives (and ThreadSanitizer, in
    /// CI, sees no race in Easel's code: no global lock guards shaping or
    /// painting now). Ten sets no other test makes (Inter renamed for this
    /// run), more than a process keeps (8), so sets, anonymous font files
    /// and Cairo faces are made — and sets evicted and made again — while
    /// other threads render; the parallel run comes first.
    func testThreadsMakingFontSetsMatchASerialRun() throws {
        let dir = ExternalTool.temporaryDirectory()
        var folders: [URL] = []
        for i in 0..<10 {
            let folder = dir.appendingPathComponent("set\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try TestFonts.renamed(TestFonts.inter, family: "Thread Sans \(i)", to: folder.appendingPathComponent("ThreadSans.ttf"))
            folders.append(folder)
        }
        let scenes: [(String, Easel.Options)] = (0..<20).map { k in
            let text = ["Threads \(k)", "こんにちは \(k)", "مرحبا \(k)", "Emoji \(k)"][k % 4]
            return ("""
            <scene width="220" height="70" background="white">
              <defs><linearGradient id="g" angle="0"><stop color="#4158d0"/><stop color="#ff7a59"/></linearGradient>
                <pattern id="p" width="30" height="20"><text font-family="Thread Sans \(k % 10)" font-size="9" fill="#888">\(text)</text></pattern></defs>
              <view width="220" height="70" fill="url(#p)"/>
              <text x="6" y="6" width="208" font-family="Thread Sans \(k % 10), emoji" font-size="22" fill="url(#g)">\(text) 👋</text>
            </scene>
            """, TestFonts.declaredOnly([folders[k % 10], TestFonts.exampleFolder]))
        }
        @Sendable func render(_ k: Int) -> [[UInt8]] {
            let (source, options) = scenes[k]
            guard case .success(let s) = Easel.compile(source: source, baseDirectory: URL(fileURLWithPath: "/tmp"), options: options) else {
                return []
            }
            return [(try? s.render(format: .png)) ?? [], (try? s.render(format: .pdf)) ?? [], (try? s.render(format: .svg)) ?? []]
        }
        let parallel = ParallelJobs.map(Array(0..<scenes.count * 2), jobs: 8) { render($0 % scenes.count) }
        let serial = (0..<scenes.count).map(render)
        XCTAssertTrue(serial.allSatisfy { $0.count == 3 && $0.allSatisfy { !$0.isEmpty } })
        for (k, outputs) in parallel.enumerated() {
            XCTAssertEqual(outputs, serial[k % scenes.count], "scene \(k % scenes.count) on 8 threads")
        }
    }

    /// A reviewed picture of the example card (Tests/Fixtures/golden): its
    /// fonts are declared and the machine's off, so the bytes depend on no
    /// machine's fonts — only on Easel, Cairo and FreeType, whose changes
    /// this catches. A regression guard, not a proof of correctness: the
    /// reviewed picture is Easel's own output. The oracles beside it are the
    /// tests above (fontTools' glyph ids, cmaps and instanced outlines
    /// for the same fonts) and DocsScenesTests, which compares this
    /// card's PNG with poppler's page of its PDF and librsvg's picture of its
    /// SVG. `EASEL_RECORD=1` records it again (and fails).
    func testTheExampleCardMatchesItsReviewedPicture() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("examples/hello-world.scene.xml")
        let png = try Easel.compile(fileAt: url).get().render(format: .png, scale: 1)
        let golden = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/golden/hello-world.png")
        if ProcessInfo.processInfo.environment["EASEL_RECORD"] == "1" {
            try Data(png).write(to: golden)
            return XCTFail("recorded \(golden.path); look at it, then run again without EASEL_RECORD")
        }
        let reviewed = try [UInt8](Data(contentsOf: golden))
        if png != reviewed {
            let artifacts = saveArtifacts("hello-world", ["rendered.png": png, "reviewed.png": reviewed])
            XCTFail("examples/hello-world renders differently from its reviewed picture: see \(artifacts.path)")
        }
    }

    /// The example card declares all its fonts and turns the machine's
    /// off: nothing is missing, and every run comes from a declared file.
    func testTheExampleCardUsesOnlyItsDeclaredFonts() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("examples/hello-world.scene.xml")
        let s = try Easel.compile(fileAt: url).get()
        let files = Set(runs(s).compactMap(\.font?.file))
        XCTAssertEqual(files, Set(["InterVariable-Latin.ttf", "NotoSansCJKjp-Subset.otf", "NotoSansArabic-Subset.ttf",
                                   "NotoColorEmoji-Subset.ttf"].map { TestFonts.exampleFolder.appendingPathComponent($0).path }))
        XCTAssertTrue(runs(s).allSatisfy { $0.missing.isEmpty })
    }
}
