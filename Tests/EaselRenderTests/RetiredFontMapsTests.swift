import EaselLayout
import EaselModel
@testable import EaselRender
import XCTest

/// Font sets let go of right after their texts were shaped: Pango's
/// fontconfig thread may still be sorting for their maps (each new
/// description queues a sort of the whole set), so the maps are retired,
/// not finalised under it (`RetiredFontMaps`). The use after free this
/// prevents is rare (the freed map mostly still reads as closed): a test
/// that dropped a context after every text died of it (SIGFPE in GLib's
/// hash table lookup under Pango's thread); this loop does not reproduce
/// it reliably, so it checks that the maps were retired.
final class RetiredFontMapsTests: XCTestCase {
    func testFontSetsLetGoOfWhilePangoStillSortsForThemAreNotFreedUnderIt() throws {
        FontSystem.prepareProgram()   // whole sets on PangoFT2, as `easel` runs
        let retiredBefore = RetiredFontMaps.count
        for round in 0..<24 {
            guard case .success(let fonts) = FontSets.make(declared: [], systemFonts: true) else { return XCTFail("no font set") }
            let shaper = TextShaper(fonts: fonts)
            // Descriptions the set's maps have not seen: each queues a match and a sort.
            for size in 0..<6 {
                var spec = FontSpec()
                spec.size = Double(9 + round * 6 + size)
                spec.weight = [400, 700][size % 2]
                let text = size == 5 ? "unknown \u{10FFFD} glyph" : "Emoji 😀 and 日本語 \(round)"
                _ = shaper.shape(TextRequest(text: text, font: spec, wrapWidth: nil, align: .leading, lineSpacing: 1,
                                             maxLines: nil, lang: nil))
            }
        }
        // Every set made here is gone; their maps wait to be finalised.
        XCTAssertGreaterThan(RetiredFontMaps.count, retiredBefore, "no font map was retired")
    }
}
