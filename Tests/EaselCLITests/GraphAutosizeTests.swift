import EaselTestSupport
import Foundation
import XCTest

/// Graphs with axes and no `padding` grow their padding to fit their
/// labels (docs/format.md, "Graphs that lay themselves out"): read back
/// from `easel layout`, every label's box lies inside the scene, and each
/// side of the padding is the 1.0 default or, where more is needed, within
/// 2 points of the widest label + tick + gap on that side — the plot is
/// as large as it can be.
final class GraphAutosizeTests: XCTestCase, CommandLineTesting {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory("autosize") }

    struct Case {
        var width: Double, height: Double
        var rows: String
        var axes: String
        var legend: String? = nil
    }

    static let defaults = (top: 60.0, right: 20.0, bottom: 50.0, left: 20.0)

    static let cases: [Case] = [
        // The issue's graph: 100,000 rows, y in the thousands.
        Case(width: 800, height: 400, rows: "0,0\n50000,420\n100000,1000\n", axes: "<yAxis/><xAxis/>"),
        Case(width: 320, height: 200, rows: "0,-1700\n5,830\n9,12.5\n", axes: "<yAxis/><xAxis/>"),
        Case(width: 1200, height: 300, rows: "0,0\n1,1234567\n2,9000000\n", axes: "<yAxis font-size=\"16\"/><xAxis font-size=\"16\"/>"),
        Case(width: 500, height: 260, rows: "0.001,0.3\n0.0042,0.9\n", axes: "<yAxis tick-size=\"10\"/><xAxis ticks=\"10\"/>"),
        Case(width: 640, height: 360, rows: "2026-01-01,3\n2026-12-01,120000\n", axes: "<yAxis/><xAxis/>", legend: "bottom-leading"),
        Case(width: 400, height: 300, rows: "2026-11-01,1\n2026-11-30,2\n", axes: "<yAxis font-size=\"22\"/><xAxis font-size=\"22\"/>", legend: "top-trailing"),
    ]

    func layout(_ scene: String, _ extra: [String] = []) throws -> [String: Any] {
        let r = try easel(["layout", scene] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    struct Label { var element: String; var frame: (x: Double, y: Double, w: Double, h: Double) }

    func labels(_ tree: [String: Any]) -> [Label] {
        var out: [Label] = []
        func walk(_ node: [String: Any], in layer: String?) {
            let element = node["element"] as? String ?? ""
            let here = ["xAxis", "yAxis", "legend"].contains(element) ? element : layer
            if element == "text", let layer = here, let f = node["frame"] as? [String: Double] {
                out.append(Label(element: layer, frame: (f["x"]!, f["y"]!, f["width"]!, f["height"]!)))
            }
            for child in node["children"] as? [[String: Any]] ?? [] { walk(child, in: here) }
        }
        walk(tree, in: nil)
        return out
    }

    func testLabelsFitAndThePlotIsAsLargeAsItCanBe() throws {
        for (n, c) in Self.cases.enumerated() {
            _ = try write("d\(n).csv", "x,y\n" + c.rows)
            let legend = c.legend.map { "<legend position=\"\($0)\"/>" } ?? ""
            let scene = try write("g\(n).scene.xml", """
            <scene width="\(c.width)" height="\(c.height)">
              <lineGraph width="\(c.width)" height="\(c.height)" src="d\(n).csv" x-column="x"><series column="y" name="Daily steps"/>\(c.axes)\(legend)</lineGraph>
            </scene>
            """)
            let tree = try layout(scene)
            let graph = try XCTUnwrap((tree["children"] as? [[String: Any]])?.first)
            let plot = try XCTUnwrap(graph["plot"] as? [String: Double], "easel layout gives the plot box")
            let (px, py, pw, ph) = (plot["x"]!, plot["y"]!, plot["width"]!, plot["height"]!)
            let all = labels(tree)
            XCTAssertFalse(all.isEmpty)
            for l in all {
                let f = l.frame
                XCTAssertTrue(f.x >= -0.01 && f.y >= -0.01 && f.x + f.w <= c.width + 0.01 && f.y + f.h <= c.height + 0.01,
                              "case \(n): a \(l.element) label at \(f) leaves the \(c.width)×\(c.height) scene")
            }
            // The sides the axes need, from the labels' own boxes: tick 6
            // (or as set) + gap 3 + the widest y label on the left; the x
            // labels' overhang past the plot's right; their height below.
            let tick = c.axes.contains("tick-size=\"10\"") ? 10.0 : 6.0
            let yLabels = all.filter { $0.element == "yAxis" }, xLabels = all.filter { $0.element == "xAxis" }
            let left = max(Self.defaults.left, tick + 3 + (yLabels.map(\.frame.w).max() ?? 0),
                           xLabels.map { px - $0.frame.x }.max() ?? 0)
            let right = max(Self.defaults.right, xLabels.map { $0.frame.x + $0.frame.w - (px + pw) }.max() ?? 0)
            var bottom = max(Self.defaults.bottom, 6 + 3 + (xLabels.map(\.frame.h).max() ?? 0))
            let legendHeight = all.filter { $0.element == "legend" }.map(\.frame.h).max() ?? 0
            if c.legend?.hasPrefix("bottom") == true { bottom = max(bottom, 6 + 3 + (xLabels.map(\.frame.h).max() ?? 0) + 8 + legendHeight + 4) }
            let top = max(Self.defaults.top, c.legend?.hasPrefix("top") == true ? 8 + legendHeight : 0)
            let sides = [("left", px, left), ("right", c.width - px - pw, right), ("top", py, top), ("bottom", c.height - py - ph, bottom)]
            for (name, got, expected) in sides {
                XCTAssertEqual(got, expected, accuracy: 2, "case \(n): \(name) padding")
            }
        }
    }

    /// The same padding from widths Easel did not measure: each label's
    /// advance in DejaVu Sans (the default family) summed by fontTools from
    /// the font's own tables: left = tick 6 + gap 3 + the widest y label,
    /// right = half the last x label (it is centred on the plot's edge).
    func testThePaddingIsTheLabelsAdvancesAsTheFontGivesThem() throws {
        _ = try write("w.csv", "x,y\n0,-1700\n100000,12500\n")
        let scene = try write("w.scene.xml", """
        <scene width="700" height="300"><lineGraph width="700" height="300" src="w.csv" x-column="x"><series column="y"/><yAxis/><xAxis/></lineGraph></scene>
        """)
        let tree = try layout(scene)
        let graph = try XCTUnwrap((tree["children"] as? [[String: Any]])?.first)
        let plot = try XCTUnwrap(graph["plot"] as? [String: Double])
        let all = labels(tree)
        let yTexts = layoutTexts(in: tree, under: "yAxis"), xTexts = layoutTexts(in: tree, under: "xAxis")
        XCTAssertEqual(yTexts.count, all.filter { $0.element == "yAxis" }.count)
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let script = """
        import json, sys
        from fontTools.ttLib import TTFont
        f = TTFont(sys.argv[1]); cmap = f.getBestCmap(); advance = f["hmtx"]; em = f["head"].unitsPerEm
        print(json.dumps([sum(advance[cmap[ord(c)]][0] for c in t) / em * 12 for t in json.load(sys.stdin)]))
        """
        let r = try ExternalTool.run("python3", ["-c", script, font], stdin: try JSONSerialization.data(withJSONObject: yTexts + [xTexts.last ?? ""]))
        XCTAssertEqual(r.status, 0, r.stderr)
        let widths = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [NSNumber] ?? []).map(\.doubleValue)
        XCTAssertEqual(widths.count, yTexts.count + 1)
        let widestY = widths.dropLast().max() ?? 0, lastX = widths.last ?? 0
        XCTAssertGreaterThan(6 + 3 + widestY, 20, "the y labels need more than the default")
        XCTAssertEqual(plot["x"]!, 6 + 3 + widestY, accuracy: 2, "left padding: \(yTexts)")
        XCTAssertEqual(700 - plot["x"]! - plot["width"]!, max(20, lastX / 2), accuracy: 2, "right padding: \(xTexts.last ?? "")")
    }

    /// A padding that leaves no plot is an error; a frame too small for the
    /// padding its labels need is a warning saying what they need.
    func testNoRoomForThePlotIsTold() throws {
        let given = try write("given.scene.xml", """
        <scene width="120" height="80"><lineGraph width="120" height="80" values="1 5 3" padding="60 20 50 20"><yAxis/></lineGraph></scene>
        """)
        let error = try easel(["check", given])
        XCTAssertEqual(error.status, 1)
        XCTAssertTrue(error.stderr.contains("error: the plot has no height: the graph is 80 points high and its padding takes 110 (60 top, 50 bottom)"), error.stderr)
        let fitted = try write("fitted.scene.xml", """
        <scene width="60" height="40"><lineGraph width="60" height="40" values="1200000 5400000"><yAxis/><xAxis/></lineGraph></scene>
        """)
        let warning = try easel(["check", fitted])
        XCTAssertEqual(warning.status, 0, warning.stderr)
        XCTAssertTrue(warning.stderr.contains("warning: the graph (60 × 40 points) is too small for its axes and legend"), warning.stderr)
        XCTAssertTrue(warning.stderr.contains("[W0608]"), warning.stderr)
        // Where the labels fit, the default's extra room gives way first: no warning.
        let small = try write("small.scene.xml", """
        <scene width="160" height="90"><lineGraph width="160" height="90" values="12 54"><yAxis/><xAxis/></lineGraph></scene>
        """)
        let quiet = try easel(["check", small])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("W0608"), quiet.stderr)
        let tree = try layout(small)
        for l in labels(tree) {
            XCTAssertTrue(l.frame.y >= -0.01 && l.frame.y + l.frame.h <= 90.01, "\(l.frame) leaves the 90-point frame")
        }
    }

    /// The issue's report: 1.0 drew `1,000` as `00` and cut `100,000`.
    func testTheLabelsTheDefaultPaddingCutAreWhole() throws {
        _ = try write("d.csv", "x,y\n0,0\n100000,1000\n")
        let scene = try write("g.scene.xml", """
        <scene width="800" height="400"><lineGraph width="800" height="400" src="d.csv" x-column="x"><series column="y"/><yAxis/><xAxis/></lineGraph></scene>
        """)
        let all = labels(try layout(scene))
        let last = try XCTUnwrap(all.last { $0.element == "xAxis" })
        XCTAssertLessThanOrEqual(last.frame.x + last.frame.w, 800.01)
        let widest = try XCTUnwrap(all.filter { $0.element == "yAxis" }.max { $0.frame.w < $1.frame.w })
        XCTAssertGreaterThanOrEqual(widest.frame.x, -0.01)
    }

    /// An explicit padding is kept; a label it leaves outside the frame is
    /// a warning naming the label, and `padding="auto"` fits any graph.
    func testAnExplicitPaddingIsKeptAndTold() throws {
        let small = try write("small.scene.xml", """
        <scene width="200" height="100"><lineGraph width="200" height="100" values="1000 20000 3000" padding="10"><yAxis/></lineGraph></scene>
        """)
        let r = try easel(["check", small])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: the labels '0', '5,000', '10,000' and 2 more fall outside the graph's frame"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "W0608").count, 2, "one warning for the axis")
        XCTAssertTrue(r.stderr.contains("[W0608]"), r.stderr)
        let graph = try XCTUnwrap((try layout(small)["children"] as? [[String: Any]])?.first)
        XCTAssertEqual((graph["plot"] as? [String: Double])?["x"], 10)
        let auto = try write("auto.scene.xml", """
        <scene width="200" height="100"><lineGraph width="200" height="100" values="1000 20000 3000" padding="auto"><yAxis/></lineGraph></scene>
        """)
        let fitted = try easel(["check", auto])
        XCTAssertFalse(fitted.stderr.contains("W0608"), fitted.stderr)
        let fittedGraph = try XCTUnwrap((try layout(auto)["children"] as? [[String: Any]])?.first)
        XCTAssertGreaterThan((fittedGraph["plot"] as? [String: Double])?["x"] ?? 0, 20)
    }
}
