import CPangoCairo
import EaselLayout
import EaselModel
@testable import EaselRender
import EaselTestSupport
import XCTest

/// Texts shape over a font set cut down to the families they can use
/// (`FontSet.narrowing`); the reference is the same text shaped over the
/// machine's whole set, which must give the same runs: the same font
/// files, glyphs, positions and clusters.
final class NarrowedFontsTests: XCTestCase {
    static let machine: FontSet = {
        guard case .success(let set) = FontSets.fontSet(declared: [], systemFonts: true) else { fatalError("no system font set") }
        return set
    }()

    func runs(_ request: TextRequest, narrowed: Bool) -> [String] {
        var shaper = TextShaper(fonts: Self.machine)
        shaper.narrowsFontSet = narrowed
        let shaped = shaper.shape(request)
        return shaped.runs.map { "\($0.face.map { "\($0)" } ?? "missing") \($0.glyphs) \($0.positions) \($0.text) \($0.fontMatrix)" }
            + ["size \(shaped.size)"]
    }

    /// Characters outside DejaVu Sans that another fallback family of the
    /// Latin list has (found on this machine, not assumed).
    func charactersBeyondTheFirstFamily() throws -> [Character] {
        let list = Self.machine.familyList([.generic(.sansSerif)], lang: nil)
        let first = try XCTUnwrap(Self.machine.coverage(of: FontSet.key(list[0])))
        let later = list.dropFirst().compactMap { Self.machine.coverage(of: FontSet.key($0)) }
        var found: [Character] = []
        for v in UInt32(0x250)...0x2BFF where found.count < 6 {
            // Of a script without faces of its own (U+02EA is Bopomofo: its
            // stretches list CJK families, and the whole set is used).
            guard let s = Unicode.Scalar(v), !s.properties.isEmojiPresentation, !first.has(v),
                  TextShaper.fontScript(PangoScript(rawValue: g_unichar_get_script(v).rawValue)) == nil,
                  later.contains(where: { $0.has(v) }) else { continue }
            found.append(Character(s))
        }
        return found
    }

    func testAShapedTextIsTheSameOverItsFewFamiliesAsOverTheWholeSet() throws {
        var rng = SeededGenerator(seed: 44)
        let beyond = try charactersBeyondTheFirstFamily()
        XCTAssertFalse(beyond.isEmpty, "this machine's fallback families cover nothing beyond DejaVu Sans")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCXYZ 0123456789 .,;:!?-–—…“”‘’ éüßøçñ ΑΒΓαβγ АБВабв ₤€¥ →⇒∑√∞ fiﬁ")
        var specs: [FontSpec] = []
        for weight in [nil, 400, 700] as [Int?] {
            for family in [nil, "serif", "monospace", "Noto Sans", "Inter"] as [String?] {
                var spec = FontSpec()
                spec.weight = weight
                spec.size = 15
                if let family { spec.families = [family == "serif" ? .generic(.serif) : family == "monospace" ? .generic(.monospace) : .named(family)] }
                specs.append(spec)
            }
        }
        var narrowedCount = 0, beyondNarrowed = 0
        for n in 0..<240 {
            var text = String((0..<Int.random(in: 1...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            if n % 3 == 0, let c = beyond.randomElement(using: &rng) { text.insert(c, at: text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &rng))) }
            let spec = specs[n % specs.count]
            var request = TextRequest(text: text, font: spec, wrapWidth: n % 4 == 0 ? 80 : nil, align: .leading, lineSpacing: 1,
                                      maxLines: n % 5 == 0 ? 1 : nil, lang: n % 7 == 0 ? "de" : nil)
            if n % 6 == 0, text.utf8.count > 2 {
                var span = TextSpan(start: 0, end: text.prefix(1).utf8.count, parent: nil, location: SourceLocation(file: "t", line: 1, column: 1))
                span.font.weight = 700
                span.font.families = [.generic(.serif)]
                request.spans = [span]
            }
            let shaper = TextShaper(fonts: Self.machine)
            if let lists = shaper.narrowedFamilies(request), Self.machine.narrowing(lists, for: text) != nil {
                narrowedCount += 1
                if text.contains(where: beyond.contains) { beyondNarrowed += 1 }
            }
            XCTAssertEqual(runs(request, narrowed: true), runs(request, narrowed: false), "text \(text.debugDescription), \(spec)")
        }
        XCTAssertGreaterThan(narrowedCount, 160, "most of these texts shape over a few families")
        XCTAssertGreaterThan(beyondNarrowed, 20, "texts that need a later family of the list are narrowed too")
    }

    /// A family's coverage is the union of its fonts' charsets, asked of
    /// fontconfig here character by character.
    func testAFamilysCoverageIsItsFontsCharsetsTogether() throws {
        let family = Self.machine.familyList([.generic(.sansSerif)], lang: nil)[0]
        let coverage = try XCTUnwrap(Self.machine.coverage(of: FontSet.key(family)))
        let pattern = FcPatternCreate()!, objects = FcObjectSetCreate()!
        defer { FcPatternDestroy(pattern); FcObjectSetDestroy(objects) }
        _ = family.withCString { FcPatternAddString(pattern, "family", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        FcObjectSetAdd(objects, "charset")
        FcObjectSetAdd(objects, "fontformat")
        let list = try XCTUnwrap(FcFontList(Self.machine.config, pattern, objects))
        defer { FcFontSetDestroy(list) }
        let charsets: [OpaquePointer] = (0..<Int(list.pointee.nfont)).compactMap { i in
            guard let font = list.pointee.fonts[i], ["truetype", "cff"].contains(FontPattern(font).strings("fontformat").first?.lowercased() ?? "") else { return nil }
            var charset: OpaquePointer?
            return FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch ? charset : nil
        }
        XCTAssertFalse(charsets.isEmpty)
        var covered = 0
        for c in UInt32(0)..<0x3000 {
            let expected = charsets.contains { FcCharSetHasChar($0, c) != 0 }
            XCTAssertEqual(coverage.has(c), expected, "U+\(String(c, radix: 16))")
            if expected { covered += 1 }
        }
        XCTAssertGreaterThan(covered, 1000)
    }

    /// The families taken are the shortest start of the list that covers the text.
    func testTheNarrowingStopsAtTheFirstFamiliesThatCoverTheText() throws {
        let list = Self.machine.familyList([.generic(.sansSerif)], lang: nil)
        let firstNames = try XCTUnwrap(Self.machine.narrowing([list], for: "Hello, world"))
        XCTAssertEqual(Set(firstNames.map(FontSet.key)), [FontSet.key(list[0])])
        let beyond = try XCTUnwrap(try charactersBeyondTheFirstFamily().first)
        let more = try XCTUnwrap(Self.machine.narrowing([list], for: "Hello \(beyond)"))
        XCTAssertGreaterThan(Set(more.map(FontSet.key)).count, 1)
        XCTAssertNil(Self.machine.narrowing([[list[0]]], for: "Hello \(beyond)"), "a list that cannot cover the text: the whole set")
    }
}
