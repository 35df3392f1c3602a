import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// Log axis ticks against d3-scale's `scaleLog` transcribed into Python
/// (`Tests/Fixtures/ticks/d3_log_ticks.py`, from src/log.js and
/// d3-format's `~s`) and evaluated there: tick values, `nice` domains and
/// labels — with the ones d3 leaves empty — over ranges within a decade,
/// across many, below 1, reversed, and with counts that thin the labels.
final class LogTicksTests: XCTestCase {
    static let cases: [[Double]] = [
        [1, 1_000, 5], [1, 1_000, 10], [0.01, 50, 5], [3, 7, 5], [1, 1e9, 5], [2, 2_000, 3], [1_000, 1, 5],
        [0.5, 0.9, 5], [1, 100, 10], [12, 345_678, 5], [0.000_3, 0.2, 6], [7, 7.5, 5], [1e-6, 1e6, 4],
        [25, 2_500_000, 10], [1.5, 99, 2], [40_000, 41_000, 5], [8, 120, 20], [1e12, 3e15, 5],
        // Counts away from d3's default 10, which its label thinning is measured against.
        [6, 9, 5], [1, 1e12, 20], [1, 1e12, 3], [0.02, 7, 30],
    ]

    func testTicksNiceAndLabelsAreD3s() throws {
        let script = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/ticks/d3_log_ticks.py").path
        let r = try ExternalTool.run("python3", [script], stdin: try JSONSerialization.data(withJSONObject: Self.cases))
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(expected.count, Self.cases.count)
        var labelled = 0, unlabelled = 0
        for (c, d3) in zip(Self.cases, expected) {
            let (start, stop, count) = (c[0], c[1], c[2])
            let ticks = LogTicks.ticks(start, stop, count: count)
            XCTAssertEqual(ticks, (d3["ticks"] as? [NSNumber])?.map(\.doubleValue), "ticks \(c)")
            let nice = LogTicks.nice(start, stop)
            XCTAssertEqual([nice.0, nice.1], (d3["nice"] as? [NSNumber])?.map(\.doubleValue), "nice \(c)")
            let labels = LogTicks.labels(ticks, start: start, stop: stop, count: count)
            XCTAssertEqual(labels, d3["labels"] as? [String], "labels \(c)")
            labelled += labels.filter { !$0.isEmpty }.count
            unlabelled += labels.filter(\.isEmpty).count
        }
        // The table exercises both: labels d3 writes and ones it leaves out.
        XCTAssertGreaterThan(labelled, 20)
        XCTAssertGreaterThan(unlabelled, 20)
    }

    func testSIPrefixesInALocale() throws {
        let de = try XCTUnwrap(GraphLocale.resolve("de")).number
        XCTAssertEqual(LogTicks.siPrefixed(2_500, locale: de), "2,5k")
        XCTAssertEqual(LogTicks.siPrefixed(0.001), "1m")
        XCTAssertEqual(LogTicks.siPrefixed(1_200_000), "1.2M")
    }
}
