import Easel
import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// Graphs with `x-column`, `<series>`, gaps, axes and a legend. Positions
/// come from the contract's formulas written out here; tick values and
/// labels from the Python transcriptions of d3 (Tests/Fixtures/ticks/).
/// Every graph is 300×200 with padding 40 20 30 20: the plot is
/// (20, 40, 260, 130).
final class SeriesGraphTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory() }

    func csv(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    }

    func scene(_ graph: String, background: String = "white") throws -> CompiledScene {
        try compileScene("""
        <scene width="300" height="200" background="\(background)">\(graph)</scene>
        """, baseDirectory: dir)
    }

    func errors(_ graph: String) -> [String] {
        diagnostics(of: "<scene width=\"300\" height=\"200\">\(graph)</scene>", baseDirectory: dir).map(\.description)
    }

    /// Days since 1970 of an ISO date, by Python's calendar (not Easel's).
    func pythonDays(_ dates: [String]) throws -> [Double] {
        let script = "import sys, json, datetime\nprint(json.dumps([(datetime.date.fromisoformat(d) - datetime.date(1970, 1, 1)).days for d in json.load(sys.stdin)]))"
        let r = try ExternalTool.run("python3", ["-c", script], stdin: try JSONSerialization.data(withJSONObject: dates))
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [NSNumber] ?? []).map(\.doubleValue)
    }

    // MARK: x by value

    func testRowsArePlacedByDateSortedAndSpacedByTime() throws {
        // Unsorted rows; the x range is Nov 01 … Nov 10, the y range 0 … 8.
        let rows = [("2026-11-04", 2.0), ("2026-11-01", 8.0), ("2026-11-10", 4.0), ("2026-11-02", 6.0)]
        try csv("d.csv", "day,v\n" + rows.map { "\($0.0),\(Int($0.1))" }.joined(separator: "\n") + "\n")
        let image = try scene("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="d.csv" x-column="day" column="v">
          <points diameter="10" fill="red"/>
        </lineGraph>
        """).renderImage()
        let days = try pythonDays(rows.map(\.0))
        let (d0, d1) = (days.min()!, days.max()!)
        for ((date, v), day) in zip(rows, days) {
            let x = 20 + (day - d0) / (d1 - d0) * 260, y = 170 - v / 8 * 130
            assertPixel(image, Int(x), Int(y), ExpectedColor(1, 0, 0), tolerance: 1, date)
            assertPixel(image, Int(x) + 8, Int(y), ExpectedColor(1, 1, 1), tolerance: 1, "beside \(date)")
        }
    }

    func testNumericXAndTheErrorsOfBadX() throws {
        try csv("n.csv", "x,v\n10,1\n-5,2\n35,3\n")
        let image = try scene("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="n.csv" x-column="x" column="v" min="0" max="3">
          <points diameter="10" fill="blue"/>
        </lineGraph>
        """).renderImage()
        for (x, v) in [(10.0, 1.0), (-5, 2), (35, 3)] {
            assertPixel(image, Int(20 + (x + 5) / 40 * 260), Int(170 - v / 3 * 130), ExpectedColor(0, 0, 1), tolerance: 1, "x \(x)")
        }
        try csv("dup.csv", "x,v\n1,1\n2,2\n1,3\n")
        let dup = errors(#"<lineGraph width="300" height="200" src="dup.csv" x-column="x" column="v"/>"#)
        XCTAssertTrue(dup.contains { $0.contains("dup.csv:4:1: error: x-column 'x': '1' is also the x of line 2") }, "\(dup)")
        try csv("bad.csv", "x,v\n2026-11-01,1\nlater,2\n")
        let bad = errors(#"<lineGraph width="300" height="200" src="bad.csv" x-column="x" column="v"/>"#)
        XCTAssertTrue(bad.contains { $0.contains("bad.csv:3:1: error: x-column 'x': 'later' is not an ISO 8601 date") }, "\(bad)")
        let noSource = errors(#"<lineGraph width="300" height="200" values="1 2" x-column="x"/>"#)
        XCTAssertTrue(noSource.contains { $0.contains("'x-column' goes with 'src'") }, "\(noSource)")
    }

    func testQuotedAndPlainCSVReadTheSame() throws {
        // The plain text is split by bytes; quotes send it through libcsv.
        try csv("plain.csv", "day,v,w\n2026-11-03, 4 ,1\n2026-11-01,,2\n2026-11-02,6,3\n")
        try csv("quoted.csv", "\"day\",v,\"w\"\n\"2026-11-03\", 4 ,1\n2026-11-01,,\"2\"\n2026-11-02,\"6\",3\n")
        func points(_ file: String) throws -> [String] {
            let s = try scene("""
            <lineGraph width="300" height="200" src="\(file)" x-column="day" missing="gap">
              <series column="v"><points diameter="2"/></series><series column="w"><points diameter="2"/></series>
            </lineGraph>
            """)
            return s.layout.nodes[0].children.map { "\($0.children.map(\.frame))" }
        }
        XCTAssertEqual(try points("plain.csv"), try points("quoted.csv"))
    }

    // MARK: Gaps

    func testAGapBreaksLineAndAreaAndSkipsThePoint() throws {
        // Rows 0…4 by index, row 2 empty: x = 20 + 65·i, y = 170 − v/8·130.
        try csv("g.csv", "i,v\n0,4\n1,8\n2,\n3,8\n4,4\n")
        let graph = """
        <lineGraph width="300" height="200" padding="40 20 30 20" src="g.csv" column="v" min="0" max="8" missing="gap">
          <area fill="#00ff00" to="plot"/><line stroke="black" stroke-width="6"/><points diameter="12" fill="red"/>
        </lineGraph>
        """
        let image = try scene(graph).renderImage()
        // Between the empty cell's neighbours (x 85 and 215, both at y 40):
        // where the line and area would be, the background shows.
        for x in [110, 150, 190] {
            for y in [40, 60, 120, 165] { assertPixel(image, x, y, ExpectedColor(1, 1, 1), tolerance: 1, "gap at (\(x), \(y))") }
        }
        // The runs on either side are drawn: area under them, line through them.
        assertPixel(image, 52, 160, ExpectedColor(0, 1, 0), tolerance: 1, "area left of the gap")
        assertPixel(image, 248, 160, ExpectedColor(0, 1, 0), tolerance: 1, "area right of the gap")
        assertPixel(image, 52, Int(170 - 6.0 / 8 * 130), ExpectedColor(0, 0, 0), tolerance: 1, "line left of the gap")
        assertPixel(image, 150, 170 - 0, ExpectedColor(1, 1, 1), tolerance: 1, "no point for the empty cell at value 0")
        for i in [0, 1, 3, 4] {
            let v = [4.0, 8, 0, 8, 4][i]
            assertPixel(image, 20 + 65 * i, Int(170 - v / 8 * 130), ExpectedColor(1, 0, 0), tolerance: 1, "point \(i)")
        }
        // Without missing="gap" the empty cell is an error at its row.
        let plain = errors(#"<lineGraph width="300" height="200" src="g.csv" column="v"/>"#)
        XCTAssertTrue(plain.contains { $0.contains("g.csv:4:1: error:") }, "\(plain)")
    }

    // MARK: Series and legend

    func testSeriesShareOneRangeAndTheLegendRepeatsTheirStrokes() throws {
        try csv("s.csv", "i,a,b\n0,1,4\n1,2,6\n2,3,8\n")
        let s = try scene("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="s.csv" x-column="i">
          <series column="a"><line stroke="#00ff00" stroke-width="1"/></series>
          <series column="a" name="Alpha"><line stroke="#ff0000" stroke-width="4"/></series>
          <series column="b" name="Beta"><line stroke="#0000ff" stroke-width="4"/><points diameter="10" fill="#0000ff"/></series>
          <legend/>
        </lineGraph>
        """)
        let image = try s.renderImage()
        // One range, 0 … 8 over both series: a(2) at x 20 + 130, y 170 − 2/8·130.
        assertPixel(image, 150, Int(170 - 2.0 / 8 * 130), ExpectedColor(1, 0, 0), tolerance: 1, "alpha's middle point")
        assertPixel(image, 150, Int(170 - 6.0 / 8 * 130), ExpectedColor(0, 0, 1), tolerance: 1, "beta's middle point")
        // The legend: named series only, in order, each swatch's line in its stroke.
        let legend = try XCTUnwrap(s.layout.nodes[0].children.first { $0.element == "legend" })
        let names = legend.children.compactMap { s.layout.text(of: $0)?.shaped.text }
        XCTAssertEqual(names, ["Alpha", "Beta"])
        XCTAssertEqual(legend.frame.maxY, 40 - 8, accuracy: 1e-9, "its bottom 8 points above the plot")
        XCTAssertEqual(legend.frame.minX, 20, accuracy: 1e-9, "leading: at the plot's left edge")
        let swatches = legend.children.filter { $0.element == "swatch" }
        let mid = Int(legend.frame.center.y)
        assertPixel(image, Int(swatches[0].frame.minX) + 3, mid, ExpectedColor(1, 0, 0), tolerance: 1, "Alpha's swatch")
        assertPixel(image, Int(swatches[1].frame.minX) + 2, mid, ExpectedColor(0, 0, 1), tolerance: 1, "Beta's swatch")
        XCTAssertGreaterThan(swatches[1].frame.minX, names.isEmpty ? 0 : 20 + 18)
    }

    func testLayersOutsideASeriesAreRefused() {
        let e = errors(#"<lineGraph width="300" height="200" values="1 2"><series values="1 2"/><line/></lineGraph>"#)
        XCTAssertTrue(e.contains { $0.contains("<line> goes inside a <series>") }, "\(e)")
        let unknown = errors(#"<lineGraph width="300" height="200"><series values="1 2" colour="red"/></lineGraph>"#)
        XCTAssertTrue(unknown.contains { $0.contains("'colour'") }, "\(unknown)")
    }

    // MARK: Axes

    func labels(_ node: LayoutNode, in s: CompiledScene) -> [(String, Rect)] {
        node.children.compactMap { n in
            if let t = s.layout.text(of: n) { return (t.shaped.text, n.frame) }
            return nil
        }
    }

    func d3(_ script: String, _ cases: [[Double]]) throws -> [[String: Any]] {
        let path = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/ticks/\(script)").path
        let r = try ExternalTool.run("python3", [path], stdin: try JSONSerialization.data(withJSONObject: cases))
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
    }

    func testNiceYAxisTicksAndLabelsAreD3sAtTheirValues() throws {
        let s = try scene("""
        <lineGraph width="300" height="200" padding="40 20 30 20" values="0.3 8.3 -1.7 4">
          <line/><yAxis ticks="5"/>
        </lineGraph>
        """)
        // d3: the range −1.7 … 8.3 made nice (count 10), then ticks(5).
        let nice = try XCTUnwrap((try d3("d3_ticks.py", [[-1.7, 8.3, 10]]).first?["nice"] as? [NSNumber])?.map(\.doubleValue))
        let expected = try XCTUnwrap(try d3("d3_ticks.py", [[nice[0], nice[1], 5]]).first)
        let ticks = try XCTUnwrap((expected["ticks"] as? [NSNumber])?.map(\.doubleValue))
        let axis = try XCTUnwrap(s.layout.nodes[0].children.first { $0.element == "yAxis" })
        let got = labels(axis, in: s)
        XCTAssertEqual(got.map(\.0), expected["labels"] as? [String])
        XCTAssertTrue(got.map(\.0).contains("\u{2212}2"), "d3's minus sign")
        for ((_, frame), v) in zip(got, ticks) {
            // Centred on the tick's y; right edge 6 (tick) + 3 (padding) left of the plot.
            XCTAssertEqual(frame.center.y, 170 - (v - nice[0]) / (nice[1] - nice[0]) * 130, accuracy: 1e-6)
            XCTAssertEqual(frame.maxX, 20 - 6 - 3, accuracy: 1e-6)
        }
        // The line's points moved with the nice range: value 8.3 is below the top.
        XCTAssertGreaterThan(nice[1], 8.3)
    }

    func testTimeAxisTicksAndLabelsAreD3sOverADayAMonthAndYears() throws {
        for (start, stop, count) in [("2026-11-02T00:00Z", "2026-11-03T00:00Z", 6.0), ("2026-11-01", "2026-11-30", 5),
                                     ("2026-01-01", "2026-12-01", 6), ("2019-06-01", "2026-03-01", 5)] {
            try csv("t.csv", "t,v\n\(start),1\n\(stop),2\n")
            let s = try scene("""
            <lineGraph width="300" height="200" padding="40 20 30 20" src="t.csv" x-column="t" column="v">
              <line/><xAxis ticks="\(Int(count))" nice="false" font-size="1"/>
            </lineGraph>
            """)
            let t0 = UTCCalendar.parseISO8601(start[...])!, t1 = UTCCalendar.parseISO8601(stop[...])!
            let expected = try XCTUnwrap(try d3("d3_time_ticks.py", [[t0, t1, count]]).first)
            let axis = try XCTUnwrap(s.layout.nodes[0].children.first { $0.element == "xAxis" })
            let got = labels(axis, in: s)
            XCTAssertEqual(got.map(\.0), expected["labels"] as? [String], start)
            let ticks = (expected["ticks"] as? [NSNumber])?.map(\.doubleValue) ?? []
            for ((_, frame), t) in zip(got, ticks) {
                XCTAssertEqual(frame.center.x, 20 + (t - t0) / (t1 - t0) * 260, accuracy: 1e-6, start)
                XCTAssertEqual(frame.minY, 170 + 6 + 3, accuracy: 1e-6)
            }
        }
    }

    func testOverlappingLabelsKeepEveryOtherUntilNoneOverlap() throws {
        try csv("c.csv", "x,v\n0,1\n100,2\n")
        let s = try scene("""
        <lineGraph width="300" height="200" padding="40 20 30 20" src="c.csv" x-column="x" column="v">
          <xAxis ticks="50" font-size="14" format="%.0f"/>
        </lineGraph>
        """)
        let all = NumericTicks.ticks(0, 100, count: 50).map { String(format: "%.0f", $0) }
        let kept = labels(try XCTUnwrap(s.layout.nodes[0].children.first { $0.element == "xAxis" }), in: s)
        XCTAssertLessThan(kept.count, all.count)
        XCTAssertEqual(kept.first?.0, "0")
        // Evenly thinned: the kept ones are d3's ticks 0, s, 2s, … with s a power of two.
        let indexes = kept.map { k in all.firstIndex(of: k.0) ?? -1 }
        let step = indexes[1]
        XCTAssertGreaterThan(step, 1)
        XCTAssertEqual(step & (step - 1), 0, "a power of two")
        XCTAssertEqual(indexes, Array(Swift.stride(from: 0, to: all.count, by: step)))
        for (a, b) in zip(kept, kept.dropFirst()) { XCTAssertLessThanOrEqual(a.1.maxX + 2, b.1.minX) }
    }
}
