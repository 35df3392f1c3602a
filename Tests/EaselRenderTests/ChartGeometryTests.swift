import Easel
import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// Stacked areas, bars, rules, bands and log and sqrt scales, painted and
/// sampled where the contract's formulas (docs/format.md, "Graphs that lay
/// themselves out"), evaluated here, put their edges — cumulative sums for
/// stacks, slot bounds for bars — not where Easel says it put them.
/// Every graph is 300×200 with padding 40 20 30 20: the plot is
/// (20, 40, 260, 130), its bottom at y = 170.
final class ChartGeometryTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory() }

    static var white: ExpectedColor { ExpectedColor(1, 1, 1) }
    static var red: ExpectedColor { ExpectedColor(1, 0, 0) }
    static var green: ExpectedColor { ExpectedColor(0, 1, 0) }
    static var blue: ExpectedColor { ExpectedColor(0, 0, 1) }

    func render(_ graph: String) throws -> RasterImage {
        try compileScene("<scene width=\"300\" height=\"200\" background=\"white\">\(graph)</scene>", baseDirectory: dir).renderImage()
    }

    func errors(_ graph: String) -> [String] {
        diagnostics(of: "<scene width=\"300\" height=\"200\">\(graph)</scene>", baseDirectory: dir).filter { $0.severity == .error }.map(\.description)
    }

    /// y of `v` on a linear range lo…hi.
    func y(_ v: Double, _ lo: Double, _ hi: Double) -> Double { 170 - (v - lo) / (hi - lo) * 130 }

    // MARK: Stacks

    /// Three series stacked from zero: each area lies between the running
    /// sums below and including it, sampled between points, where the
    /// straight segments put the sums' averages.
    func testStackedAreasLieBetweenCumulativeSums() throws {
        let series = [[1.0, 2, 3, 2], [2.0, 1, 1, 3], [1.0, 1, 2, 1]]
        for stack in ["zero", "normalize"] {
            let image = try render("""
            <lineGraph width="300" height="200" padding="40 20 30 20" stack="\(stack)">
              <series values="\(series[0].map { "\($0)" }.joined(separator: " "))"><area fill="red"/></series>
              <series values="\(series[1].map { "\($0)" }.joined(separator: " "))"><area fill="lime"/></series>
              <series values="\(series[2].map { "\($0)" }.joined(separator: " "))"><area fill="blue"/></series>
            </lineGraph>
            """)
            // d3-shape's stack, written here: expand divides by each column's sum.
            let n = 4
            var columns = series
            if stack == "normalize" {
                for i in 0..<n {
                    let sum = columns.reduce(0) { $0 + $1[i] }
                    for k in columns.indices { columns[k][i] /= sum }
                }
            }
            var tops: [[Double]] = []
            var below = [Double](repeating: 0, count: n)
            for c in columns {
                below = zip(below, c).map(+)
                tops.append(below)
            }
            let hi = stack == "normalize" ? 1 : tops.last!.max()!
            let colours = [Self.red, Self.green, Self.blue]
            for i in 0..<(n - 1) {
                let x = 20 + (Double(i) + 0.5) * 260 / Double(n - 1)
                var lower = 0.0
                for k in 0..<3 {
                    let top = (tops[k][i] + tops[k][i + 1]) / 2
                    let mid = (lower + top) / 2
                    assertPixel(image, Int(x), Int(y(mid, 0, hi)), colours[k], tolerance: 2, "\(stack): series \(k) between points \(i) and \(i + 1)")
                    lower = top
                }
                assertPixel(image, Int(x), Int(y(lower, 0, hi) - 4), Self.white, tolerance: 2, "\(stack): above the stack at \(i)")
                if stack == "normalize" { XCTAssertEqual(lower, 1, accuracy: 1e-12) }
            }
        }
    }

    /// A stacked line is drawn at its stack's top; the y range covers the
    /// stack, not the largest single value.
    func testAStackedLineRunsAlongItsStacksTop() throws {
        let image = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" stack="zero">
          <series values="3 3 3"><line stroke="none"/></series>
          <series values="1 5 1"><points diameter="8" fill="red"/></series>
        </lineGraph>
        """)
        // The range is 0…8 (3 + 5); the middle point sits at 8, the others at 4.
        for (i, top) in [4.0, 8, 4].enumerated() {
            let x = 20 + Double(i) * 130
            assertPixel(image, Int(min(max(x, 22), 278)), Int(y(top, 0, 8)), Self.red, tolerance: 2, "point \(i)")
        }
    }

    // MARK: Bars

    /// One series of bars by index: slot i spans [20 + i·w, 20 + (i+1)·w]
    /// with w = 260/n, the bar 0.8 of it centred, from 0 to the value;
    /// a negative value's bar hangs below 0.
    func testBarsFillTheirSlotsFromZero() throws {
        let values = [4.0, -2, 6, 1, 3]
        let image = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" values="4 -2 6 1 3"><bars fill="red"/></lineGraph>
        """)
        let (lo, hi) = (-2.0, 6.0)
        let w = 260.0 / 5
        for (i, v) in values.enumerated() {
            let left = 20 + Double(i) * w + 0.1 * w, right = left + 0.8 * w
            let top = min(y(v, lo, hi), y(0, lo, hi)), bottom = max(y(v, lo, hi), y(0, lo, hi))
            let midY = Int((top + bottom) / 2)
            assertPixel(image, Int(left + 1.5), midY, Self.red, tolerance: 2, "bar \(i) left edge inside")
            assertPixel(image, Int(left - 1.5), midY, Self.white, tolerance: 2, "bar \(i) left edge outside")
            assertPixel(image, Int(right - 1.5), midY, Self.red, tolerance: 2, "bar \(i) right edge inside")
            assertPixel(image, Int(right + 1.5), midY, Self.white, tolerance: 2, "bar \(i) right edge outside")
            let cx = Int(left + 0.4 * w)
            assertPixel(image, cx, Int(top + 1.5), Self.red, tolerance: 2, "bar \(i) top inside")
            assertPixel(image, cx, Int(top - 1.5), Self.white, tolerance: 2, "bar \(i) top outside")
            assertPixel(image, cx, Int(bottom - 1.5), Self.red, tolerance: 2, "bar \(i) bottom inside")
            assertPixel(image, cx, Int(bottom + 1.5), Self.white, tolerance: 2, "bar \(i) bottom outside")
        }
    }

    /// Two unstacked series share each slot side by side, each 0.8·w/2
    /// wide; stacked, the second stands on the first.
    func testGroupedAndStackedBars() throws {
        let a = [2.0, 4, 3], b = [3.0, 1, 2]
        let w = 260.0 / 3
        let grouped = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20">
          <series values="2 4 3"><bars fill="red"/></series>
          <series values="3 1 2"><bars fill="blue"/></series>
        </lineGraph>
        """)
        for i in 0..<3 {
            let centre = 20 + (Double(i) + 0.5) * w, bar = 0.8 * w / 2
            assertPixel(grouped, Int(centre - bar / 2), Int(y(a[i] / 2, 0, 4)), Self.red, tolerance: 2, "first series, slot \(i)")
            assertPixel(grouped, Int(centre + bar / 2), Int(y(b[i] / 2, 0, 4)), Self.blue, tolerance: 2, "second series, slot \(i)")
            assertPixel(grouped, Int(centre - bar - 1.5), Int(y(0.1, 0, 4)), Self.white, tolerance: 2, "left of the group, slot \(i)")
            assertPixel(grouped, Int(centre + bar + 1.5), Int(y(0.1, 0, 4)), Self.white, tolerance: 2, "right of the group, slot \(i)")
        }
        let stacked = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" stack="zero">
          <series values="2 4 3"><bars fill="red"/></series>
          <series values="3 1 2"><bars fill="blue"/></series>
        </lineGraph>
        """)
        let hi = zip(a, b).map(+).max()!
        for i in 0..<3 {
            let centre = Int(20 + (Double(i) + 0.5) * w)
            assertPixel(stacked, centre, Int(y(a[i] / 2, 0, hi)), Self.red, tolerance: 2, "lower bar, slot \(i)")
            assertPixel(stacked, centre, Int(y(a[i] + b[i] / 2, 0, hi)), Self.blue, tolerance: 2, "upper bar, slot \(i)")
            assertPixel(stacked, centre, Int(y(a[i] + b[i], 0, hi) - 2), Self.white, tolerance: 2, "above the stack, slot \(i)")
        }
    }

    /// By value: slots as wide as the smallest step between x values,
    /// centred on each x, the domain half a slot wider on each side.
    func testBarsPlacedByValueUseTheSmallestStep() throws {
        try Data("x,v\n0,2\n2,3\n3,1\n7,4\n".utf8).write(to: dir.appendingPathComponent("b.csv"))
        let image = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="b.csv" x-column="x">
          <series column="v"><bars fill="red" width="1"/></series>
        </lineGraph>
        """)
        // Step 1; domain −0.5 … 7.5; a slot is 260/8 wide.
        let w = 260.0 / 8
        for (x, v) in [(0.0, 2.0), (2, 3), (3, 1), (7, 4)] {
            let left = 20 + x * w, right = left + w
            let midY = Int(y(v / 2, 0, 4))
            assertPixel(image, Int(left + 1.5), midY, Self.red, tolerance: 2, "x \(x) left inside")
            assertPixel(image, Int(right - 1.5), midY, Self.red, tolerance: 2, "x \(x) right inside")
        }
        // x = 1 and 4…6 have no bar.
        for x in [1.0, 4, 5, 6] { assertPixel(image, Int(20 + (x + 0.5) * w), Int(y(0.5, 0, 4)), Self.white, tolerance: 2, "no bar at \(x)") }
    }

    /// A corner radius rounds each bar: the corner pixel is outside, the
    /// middle of the edge inside.
    func testRoundedBars() throws {
        let image = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" values="4" min="0" max="4"><bars fill="red" width="0.5" corner-radius="12"/></lineGraph>
        """)
        // One slot of 260: the bar spans 85 … 215, 40 … 170.
        assertPixel(image, 86, 41, Self.white, tolerance: 2, "top-left corner cut")
        assertPixel(image, 86, 105, Self.red, tolerance: 2, "left edge")
        assertPixel(image, 150, 41, Self.red, tolerance: 2, "top edge")
        assertPixel(image, 214, 169, Self.white, tolerance: 2, "bottom-right corner cut")
    }

    // MARK: Rules and bands

    func testRulesAndBandsAtDataValues() throws {
        try Data("day,v\n2026-11-01,2\n2026-11-11,8\n".utf8).write(to: dir.appendingPathComponent("t.csv"))
        let image = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="t.csv" x-column="day" min="0" max="8">
          <series column="v"><line stroke="none"/></series>
          <band from="2" to="6" fill="blue"/>
          <band axis="x" from="2026-11-09" to="2026-11-11" fill="lime"/>
          <rule y="4" stroke="red" stroke-width="4"/>
          <rule x="2026-11-03" stroke="red" stroke-width="4"/>
        </lineGraph>
        """)
        // y: 8 units over 130 points; x: 10 days over 260 points.
        let ruleY = y(4, 0, 8), ruleX = 20 + 2.0 / 10 * 260
        assertPixel(image, 100, Int(ruleY), Self.red, tolerance: 2, "y rule")
        assertPixel(image, 100, Int(ruleY - 4), Self.blue, tolerance: 2, "band above the rule")
        assertPixel(image, 100, Int(y(6, 0, 8) - 2), Self.white, tolerance: 2, "above the band")
        assertPixel(image, 100, Int(y(2, 0, 8) + 2), Self.white, tolerance: 2, "below the band")
        assertPixel(image, 290, Int(ruleY), Self.white, tolerance: 2, "the rule ends at the plot's edge")
        assertPixel(image, Int(ruleX), 60, Self.red, tolerance: 2, "x rule at a date")
        assertPixel(image, Int(ruleX) + 5, 60, Self.white, tolerance: 2, "beside the x rule")
        let bandLeft = 20 + 8.0 / 10 * 260
        assertPixel(image, Int(bandLeft + 2), 60, Self.green, tolerance: 2, "x band")
        assertPixel(image, Int(bandLeft - 2), 60, Self.white, tolerance: 2, "left of the x band")
    }

    // MARK: Scales

    /// Log: y = 170 − (log10 v − log10 lo)/(log10 hi − log10 lo)·130;
    /// sqrt: through √v.
    func testLogAndSqrtScalesPlacePointsThroughTheirTransforms() throws {
        let values = [1.0, 10, 50, 1_000]
        let log = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" values="1 10 50 1000" y-scale="log"><points diameter="6" fill="red"/></lineGraph>
        """)
        for (i, v) in values.enumerated() {
            let x = 20 + Double(i) * 260 / 3
            let yy = 170 - (Foundation.log10(v) - 0) / 3 * 130
            assertPixel(log, Int(min(max(x, 21), 279)), Int(min(max(yy, 41), 169)), Self.red, tolerance: 2, "log \(v)")
        }
        let sqrt = try render("""
        <lineGraph width="300" height="200" padding="40 20 30 20" values="0.25 1 4 16" y-scale="sqrt"><points diameter="6" fill="red"/></lineGraph>
        """)
        for (i, v) in [0.25, 1, 4, 16].enumerated() {
            let x = 20 + Double(i) * 260 / 3
            let yy = 170 - v.squareRoot() / 4 * 130
            assertPixel(sqrt, Int(min(max(x, 21), 279)), Int(max(yy, 41)), Self.red, tolerance: 2, "sqrt \(v)")
        }
        // Linear would put 4 at a quarter of the height, sqrt puts it at half.
        assertPixel(sqrt, Int(20 + 2 * 260 / 3.0), Int(170 - 0.25 * 130), Self.white, tolerance: 2, "not linear")
    }

    func testValuesAtOrBelowZeroOnALogScaleAreErrorsAtTheirRows() throws {
        try Data("x,v\n1,5\n2,0\n3,-4\n4,7\n".utf8).write(to: dir.appendingPathComponent("l.csv"))
        let csv = errors(#"<lineGraph width="300" height="200" src="l.csv" x-column="x" y-scale="log"><series column="v"/></lineGraph>"#)
        XCTAssertEqual(csv.count, 2, "\(csv)")
        XCTAssertTrue(csv[0].contains("l.csv:3:1: error") && csv[0].contains("0 is not above 0"), "\(csv)")
        XCTAssertTrue(csv[1].contains("l.csv:4:1: error") && csv[1].contains("-4"), "\(csv)")
        let single = errors(#"<lineGraph width="300" height="200" src="l.csv" column="v" y-scale="log"/>"#)
        XCTAssertTrue(single.first?.contains("l.csv:3:1: error") == true, "\(single)")
        let listed = errors(#"<lineGraph width="300" height="200" values="3 0 2" y-scale="log"/>"#)
        // `values="3 0 2"` starts at column 77: the 0 is at column 79.
        XCTAssertTrue(listed.first?.contains("test.scene.xml:1:79: error") == true && listed.first?.contains("log scale") == true, "\(listed)")
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" values="3 30" y-scale="log"><rule y="0"/><band from="-1" to="5"/></lineGraph>"#).count, 2,
                       "a rule or band at or below 0 on a log scale")
        XCTAssertFalse(errors(#"<lineGraph width="300" height="200" values="3 1 2" y-scale="log" min="0.5"/>"#).contains { _ in true })
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" values="3 1 2" y-scale="log" min="0"/>"#).count, 1)
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" y-scale="log" stack="zero"><series values="1 2"/></lineGraph>"#).count, 1)
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" values="1 2"><rule x="1" y="2"/></lineGraph>"#).count, 1)
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" values="1 2"><rule/></lineGraph>"#).count, 1)
        XCTAssertEqual(errors(#"<lineGraph width="300" height="200" values="1 2"><bars width="1.5"/></lineGraph>"#).count, 1)
    }

    // MARK: Work

    /// Ten stacked series of 100,000 rows each stay within the budget one
    /// line has: at most four points per eighth of a pixel column for each
    /// line, and for each area its top and its baseline (counted, not timed).
    func testTenStackedSeriesOfManyRowsStayWithinTheSeriesBudget() throws {
        let rows = TestSizes.pick(100_000, small: 20_000)
        var csv = "x," + (0..<10).map { "s\($0)" }.joined(separator: ",") + "\n"
        csv.reserveCapacity(rows * 60)
        var rng = SeededGenerator(seed: 45)
        var level = [Double](repeating: 50, count: 10)
        for i in 0..<rows {
            for k in 0..<10 { level[k] = max(0, level[k] + Double(Int.random(in: -3...3, using: &rng))) }
            csv += "\(i)," + level.map { String(Int($0)) }.joined(separator: ",") + "\n"
        }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("many.csv"))
        let series = (0..<10).map { "<series column=\"s\($0)\"><area fill=\"#3366cc\" opacity=\"0.3\"/><line stroke=\"black\" stroke-width=\"1\"/></series>" }.joined()
        let s = try compileScene("""
        <scene width="600" height="300"><lineGraph width="600" height="300" padding="10" src="many.csv" x-column="x" stack="zero">\(series)</lineGraph></scene>
        """, baseDirectory: dir, options: Easel.Options(scales: [1]))
        var paths: [RenderPath] = []
        func walk(_ nodes: [RenderNode]) {
            for n in nodes {
                if case .path(let p) = n { paths.append(p) }
                if case .group(let g) = n { walk(g.children) }
            }
        }
        walk(s.renderTree.nodes)
        XCTAssertEqual(paths.count, 20, "an area and a line per series")
        let perLine = 4 * 8 * 580 + 10
        for (k, p) in paths.enumerated() {
            XCTAssertLessThan(p.path.elements.count, k % 2 == 0 ? 2 * perLine : perLine, "path \(k)")
        }
        XCTAssertTrue(s.layout.reducedSeries)
    }
}
