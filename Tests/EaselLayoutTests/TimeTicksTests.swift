import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// Time axis ticks against d3's UTC time scale, transcribed into Python from
/// d3-time, d3-scale and d3-time-format with Python's own calendar
/// (`Tests/Fixtures/ticks/d3_time_ticks.py`): tick moments, labels and
/// `nice` domains over spans from a second to decades.
final class TimeTicksTests: XCTestCase {
    static func t(_ iso: String) -> Double { UTCCalendar.parseISO8601(iso[...])! }

    static let cases: [(String, String, Double)] = [
        ("2026-11-02T08:00:00.100Z", "2026-11-02T08:00:00.900Z", 10),   // milliseconds
        ("2026-11-02T08:00:01Z", "2026-11-02T08:00:50Z", 10),            // seconds
        ("2026-11-02T08:03Z", "2026-11-02T08:58Z", 5),                   // minutes
        ("2026-11-02T08:00Z", "2026-11-02T20:00Z", 10),                  // hours
        ("2026-11-02", "2026-11-03", 10),                                // a day
        ("2026-11-01", "2026-11-30", 10),                                // a month: days
        ("2026-11-01", "2026-11-30", 5),                                 // weeks
        ("2026-01-15", "2026-12-20", 10),                                // a year: months
        ("2026-01-15", "2026-12-20", 4),                                 // quarters
        ("2019-03-01", "2026-10-01", 10),                                // years
        ("1950-01-01", "2026-01-01", 5),                                 // decades
        ("2024-02-27", "2024-03-03", 10),                                // a leap day
        ("1969-12-25", "1970-01-06", 10),                                // across 1970
        ("2026-11-30", "2026-11-01", 5),                                 // reversed
        ("2026-11-02T23:59:59Z", "2026-11-03T00:00:01Z", 10),           // across midnight
    ]

    func testTicksLabelsAndNiceAreD3s() throws {
        let script = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/ticks/d3_time_ticks.py").path
        let table = Self.cases.map { [Self.t($0.0), Self.t($0.1), $0.2] }
        let r = try ExternalTool.run("python3", [script], stdin: try JSONSerialization.data(withJSONObject: table))
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(expected.count, table.count)
        for (c, d3) in zip(table, expected) {
            let ticks = TimeTicks.ticks(c[0], c[1], count: c[2])
            let name = "\(c)"
            XCTAssertEqual(ticks, (d3["ticks"] as? [NSNumber])?.map(\.doubleValue), "ticks \(name)")
            XCTAssertGreaterThan(ticks.count, 1, name)
            XCTAssertEqual(ticks.map { TimeTicks.label($0) }, d3["labels"] as? [String], "labels \(name)")
            let nice = TimeTicks.nice(c[0], c[1])
            XCTAssertEqual([nice.0, nice.1], (d3["nice"] as? [NSNumber])?.map(\.doubleValue), "nice \(name)")
        }
    }

    func testISO8601DatesAreUTCUnlessTheySayOtherwise() {
        XCTAssertEqual(UTCCalendar.parseISO8601("1970-01-01"), 0)
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11-02"), 1_793_577_600_000)
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11-02T08:00:00Z"), 1_793_577_600_000 + 8 * 3_600_000)
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11-02T08:00"), UTCCalendar.parseISO8601("2026-11-02T08:00:00Z"))
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11-02T09:00+01:00"), UTCCalendar.parseISO8601("2026-11-02T08:00Z"))
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11-02 08:00:00.25Z"), 1_793_577_600_000 + 8 * 3_600_000 + 250)
        XCTAssertEqual(UTCCalendar.parseISO8601("2026-11"), UTCCalendar.parseISO8601("2026-11-01"))
        XCTAssertEqual(UTCCalendar.parseISO8601("2024-02-29"), UTCCalendar.parseISO8601("2024-03-01").map { $0 - 86_400_000 })
        for bad in ["2026-02-29", "2026-13-01", "2026-11-02T24:00", "2026-11-2", "26-11-02", "2026-11-02T08", "2026-11-02x", "12", ""] {
            XCTAssertNil(UTCCalendar.parseISO8601(bad[...]), bad)
        }
    }

    func testCalendarFieldsRoundTripOverFourCenturies() {
        var t = UTCCalendar.time(.init(year: 1800, month: 1, day: 1))
        let end = UTCCalendar.time(.init(year: 2200, month: 1, day: 1))
        var previous = UTCCalendar.fields(t)
        while t < end {
            t += 86_400_000 * 7 + 3_600_000 * 5 + 1_234
            let f = UTCCalendar.fields(t)
            XCTAssertEqual(UTCCalendar.time(f), t)
            XCTAssertGreaterThanOrEqual(f.year, previous.year)
            previous = f
        }
    }

    func testFormatDirectives() {
        let t = Self.t("2026-11-02T20:05:09.045Z")
        XCTAssertEqual(TimeFormat.format(t, "%a %A %b %B %d %e %H %I %j %L %m %M %p %S %y %Y %%"),
                       "Mon Monday Nov November 02  2 20 08 306 045 11 05 PM 09 26 2026 %")
        XCTAssertTrue(TimeFormat.isValidFormat("%b %d, %Y"))
        XCTAssertFalse(TimeFormat.isValidFormat("%Q"))
        XCTAssertFalse(TimeFormat.isValidFormat("100%"))
    }
}
