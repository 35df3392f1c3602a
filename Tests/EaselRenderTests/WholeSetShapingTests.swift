import Easel
import EaselLayout
import EaselModel
@testable import EaselRender
import EaselTestSupport
import XCTest

/// A whole font set — the machine's with every fallback, declared fonts
/// alone, declared fonts beside the machine's — shapes with PangoFT2 (no
/// lock) exactly as with PangoCairo (under `CairoFontAccess`): the same
/// font files, glyphs, positions, clusters and sizes, for emoji, scripts
/// with faces of their own, spans and wrapped paragraphs. The reference is
/// PangoCairo, the engine every whole set used before.
final class WholeSetShapingTests: XCTestCase {
    /// As `easel` runs: fontconfig's default configuration empty, so that
    /// PangoFT2's substitution with the default adds nothing (in a host
    /// whose default has rules, whole sets shape with PangoCairo). Later
    /// tests in this process run so too, as every CLI test does; which
    /// engine an earlier test's whole sets took changes no result (this
    /// test holds the two engines to the same runs).
    override class func setUp() {
        super.setUp()
        FontSystem.prepareProgram()
    }

    static func runs(_ shaped: ShapedText) -> [String] {
        shaped.runs.map { "\($0.face.map { "\($0)" } ?? "missing") \($0.glyphs) \($0.positions) \($0.text) \($0.fontMatrix) \($0.missing)" }
            + ["size \(shaped.size)", "lines \(shaped.lines.count)"]
    }

    func wholeSets() throws -> [(name: String, fonts: FontSet)] {
        let scene = #"<scene width="10" height="10"><text>a</text></scene>"#
        var declaredAndMachine = Easel.Options()
        declaredAndMachine.fontDirectories = [TestFonts.folder]
        return [
            ("machine", NarrowedFontsTests.machine),
            ("declared only", try XCTUnwrap(compileScene(scene, options: TestFonts.declaredOnly()).fonts)),
            ("declared and machine", try XCTUnwrap(compileScene(scene, options: declaredAndMachine).fonts)),
        ]
    }

    func testPangoFT2ShapesAWholeSetAsPangoCairoDoes() throws {
        var rng = SeededGenerator(seed: 57)
        let words = ["Hello", "world", "0123", "42", "é", "ﬁne", "Ωμέγα", "Привет", "→∞√", "“quoted”", "😀", "👍🏽", "🇩🇪",
                     "1\u{FE0F}\u{20E3}", "❤️", "✓", "日本語", "中文", "한국어", "مرحبا", "שלום", "नमस्ते", "สวัสดี", "e\u{301}",
                     "\u{10FFFD}", "a\tb", "hy\u{AD}phen\u{AD}ation\u{AD}ally", "zero\u{200B}width", "\u{2068}isolated\u{2069}",
                     "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}", "👨\u{200D}👩\u{200D}👧"]
        let families: [FontFamilyName?] = [nil, .generic(.serif), .generic(.monospace), .named("Inter"), .named("Noto Sans"),
                                           .generic(.emoji)]
        let cairoShapings = Locked(0)
        var texts = 0, lockFree = 0
        PaintingProbe.onCairoShaping { cairoShapings.withLock { $0 += 1 } }
        defer { PaintingProbe.onCairoShaping(nil) }
        for (name, fonts) in try wholeSets() {
            for n in 0..<90 {
                let text = (0..<Int.random(in: 1...8, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
                var spec = FontSpec()
                spec.size = [9, 15, 31.5][n % 3]
                spec.weight = [nil, 400, 700][n % 3 == 0 ? 0 : Int.random(in: 0...2, using: &rng)]
                if let family = families.randomElement(using: &rng)! { spec.families = [family] }
                var request = TextRequest(text: text, font: spec, wrapWidth: n % 4 == 0 ? 90 : nil, align: .leading, lineSpacing: 1,
                                          maxLines: n % 7 == 0 ? 1 : nil, lang: [nil, "ja", "zh", "ar", "de"][n % 5])
                if n % 6 == 0, text.utf8.count > 2 {
                    var span = TextSpan(start: 0, end: text.prefix(1).utf8.count, parent: nil,
                                        location: SourceLocation(file: "t", line: 1, column: 1))
                    span.font.weight = 700
                    span.font.families = [.generic(.serif)]
                    request.spans = [span]
                }
                var shaper = TextShaper(fonts: fonts)
                shaper.narrowsFontSet = false
                shaper.wholeSetFreeType = false
                let reference = shaper.shape(request)
                let before = cairoShapings.withLock { $0 }
                shaper.wholeSetFreeType = true
                let freeType = Self.runs(shaper.shape(request))
                XCTAssertEqual(freeType, Self.runs(reference), "\(name): \(text.debugDescription), \(spec)")
                // Shaped again with PangoCairo just when a glyph is one the
                // engines measure differently: unknown (no font has it).
                let unknown = reference.runs.contains { !$0.missing.isEmpty }
                let reshaped = cairoShapings.withLock { $0 } > before
                if unknown {
                    XCTAssertTrue(reshaped, "\(name): \(text.debugDescription)")
                } else if request.maxLines == nil {   // (an ellipsis may have cut an unknown glyph off)
                    XCTAssertFalse(reshaped, "\(name): \(text.debugDescription)")
                }
                if !reshaped, fonts.includesSystemFonts { lockFree += 1 }
                texts += 1
            }
        }
        XCTAssertEqual(texts, 270)
        XCTAssertEqual(FontSet.filesNumberedLate.withLock { $0 }, 0, "a run's font file missing from its set's numbers")
        XCTAssertGreaterThan(lockFree, 120, "with the machine's fonts, every text of 180 with no unknown glyph (emoji, tabs, every script) shaped without the lock")
    }
}
