import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// The d3 locale tables and how a scene's locale finds its definition
/// (docs/format.md, "Graphs that lay themselves out"). The labels
/// themselves are compared with Vega-Lite's in `VegaLiteAxisTests`.
final class GraphLocaleTests: XCTestCase {
    /// `D3LocaleTables.swift` is what `scripts/d3-locale-tables` makes from
    /// data/d3-locales: the data stays data.
    func testTheGeneratedTablesAreTheData() throws {
        let script = ExternalTool.repositoryRoot.appendingPathComponent("scripts/d3-locale-tables").path
        let r = try ExternalTool.run("python3", [script, "--check"])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    func testALocaleFindsItsDefinition() throws {
        func names(_ tag: String) -> (String, String)? { GraphLocale.resolve(tag).map { ($0.numberName, $0.timeName) } }
        XCTAssertEqual(names("de-DE")?.0, "de-DE")
        XCTAssertEqual(names("de")?.0, "de-DE", "a bare language: its own country")
        XCTAssertEqual(names("de_ch")?.0, "de-CH", "any case, either separator")
        XCTAssertEqual(names("de-AT")?.0, "de-DE", "a region d3 lacks: the language's own")
        XCTAssertEqual(names("ar")?.0, "ar-EG", "the likely region")
        XCTAssertEqual(names("ja")?.1, "ja-JP")
        XCTAssertEqual(names("zh-Hant-TW")?.1, "zh-TW", "a script subtag is passed over")
        XCTAssertEqual(names("zh-Hant")?.1, "zh-TW", "Traditional Chinese: Taiwan's names")
        XCTAssertEqual(names("zh-HK")?.1, "zh-TW")
        XCTAssertEqual(names("zh-Hans")?.1, "zh-CN")
        XCTAssertEqual(names("es-419")?.0, "es-MX")
        XCTAssertEqual(names("en-IN")?.0, "en-IN")
        XCTAssertEqual(names("en-IN")?.1, "en-US", "no en-IN dates: the language's likely region")
        XCTAssertEqual(names("nb")?.0, "en-US", "no number definition for the language: en-US's")
        XCTAssertEqual(names("nb")?.1, "nb-NO")
        XCTAssertNil(names("eo"), "neither table: the caller warns")
    }

    func testGroupingCyclesAsD3sFormatGroup() throws {
        let india = try XCTUnwrap(GraphLocale.resolve("en-IN")).number
        XCTAssertEqual(india.group("1234567890"[...]), "1,23,45,67,890")
        XCTAssertEqual(india.group("123"[...]), "123")
        let de = try XCTUnwrap(GraphLocale.resolve("de")).number
        XCTAssertEqual(NumericTicks.labels([-2_000.5, 1_000.5], start: 0, stop: 1, count: 2, locale: de), ["\u{2212}2.000,5", "1.000,5"])
        let ar = try XCTUnwrap(GraphLocale.resolve("ar-EG")).number
        XCTAssertEqual(ar.localized(printf: "12.5"), "١٢٫٥")
    }

    func testMonthAndDayNamesComeFromTheDefinition() throws {
        let de = try XCTUnwrap(GraphLocale.resolve("de")).time
        // 2026-10-05 (a Monday) 13:00 UTC.
        let t = 1_791_205_200_000.0
        XCTAssertEqual(TimeFormat.format(t, "%A %e. %B %Y, %a %b", locale: de), "Montag  5. Oktober 2026, Mo Okt")
        XCTAssertEqual(TimeFormat.format(t, "%x %X", locale: de), "05.10.2026 13:00:00")
        XCTAssertEqual(TimeFormat.format(t, "%c", locale: de), "Montag, der  5. Oktober 2026, 13:00:00")
        XCTAssertEqual(TimeTicks.label(UTCCalendar.time(.init(year: 2026, month: 10, day: 1)), locale: de), "Oktober")
        // d3's own date formats pad with modifiers: en-US "%-m/%-d/%Y", zh-CN "%Y年%-m月%-d日".
        let us = try XCTUnwrap(GraphLocale.resolve("en-US")).time, zh = try XCTUnwrap(GraphLocale.resolve("zh-CN")).time
        XCTAssertEqual(TimeFormat.format(t, "%x", locale: us), "10/5/2026")
        XCTAssertEqual(TimeFormat.format(t, "%X", locale: us), "1:00:00 PM")
        XCTAssertEqual(TimeFormat.format(t, "%x", locale: zh), "2026年10月5日")
        XCTAssertEqual(TimeFormat.format(t, "[%-d|%_d|%0e|%e]"), "[5| 5|05| 5]")
        XCTAssertTrue(TimeFormat.isValidFormat("%-d %_H %0e"))
        XCTAssertFalse(TimeFormat.isValidFormat("%--d"))
    }
}
