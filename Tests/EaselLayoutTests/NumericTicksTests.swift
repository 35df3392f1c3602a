import EaselLayout
import EaselTestSupport
import Foundation
import XCTest

/// Numeric axis ticks against d3's own algorithm, transcribed into Python
/// from d3-array, d3-scale and d3-format (`Tests/Fixtures/ticks/d3_ticks.py`)
/// and evaluated there: tick values, `nice` domains and default labels for
/// a table of ranges and counts — negative, tiny, huge, reversed, empty.
final class NumericTicksTests: XCTestCase {
    static let cases: [[Double]] = [
        [0, 1, 10], [0, 1, 5], [0, 10, 10], [0, 100, 5], [1, 9, 5], [0.1, 0.9, 5], [-1, 1, 5], [-100, -3, 5],
        [-3.7, 12.2, 6], [0, 1_000_000, 4], [1_234, 98_765, 5], [0.000_012, 0.000_97, 5], [1e-9, 5e-9, 4],
        [3e15, 7e15, 5], [42, 42, 5], [10, 0, 5], [5, -5, 3], [0, 1, 1], [0, 1, 0.6], [2.5, 2.6, 10],
        [0.1, 0.3, 10], [-0.5, 0.5, 10], [1_000, 1_500, 2], [0, 68_240, 5], [12, 13, 20], [0.3, 3.3, 7],
    ]

    func testTicksNiceAndLabelsAreD3s() throws {
        let script = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/ticks/d3_ticks.py").path
        let input = try JSONSerialization.data(withJSONObject: Self.cases)
        let r = try ExternalTool.run("python3", [script], stdin: input)
        XCTAssertEqual(r.status, 0, r.stderr)
        let expected = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(expected.count, Self.cases.count)
        for (c, d3) in zip(Self.cases, expected) {
            let (start, stop, count) = (c[0], c[1], c[2])
            let ticks = NumericTicks.ticks(start, stop, count: count)
            XCTAssertEqual(ticks, (d3["ticks"] as? [NSNumber])?.map(\.doubleValue), "ticks \(c)")
            let nice = NumericTicks.nice(start, stop)
            XCTAssertEqual([nice.0, nice.1], (d3["nice"] as? [NSNumber])?.map(\.doubleValue), "nice \(c)")
            XCTAssertEqual(NumericTicks.labels(ticks, start: start, stop: stop, count: count), d3["labels"] as? [String], "labels \(c)")
        }
    }

    func testLabelsUseD3sMinusAndGrouping() {
        XCTAssertEqual(NumericTicks.labels([-1_500, 0, 1_500], start: -1_500, stop: 1_500, count: 2), ["\u{2212}1,500", "0", "1,500"])
        XCTAssertEqual(NumericTicks.labels([0, 0.2, 0.4], start: 0, stop: 0.4, count: 2), ["0.0", "0.2", "0.4"])
    }
}
