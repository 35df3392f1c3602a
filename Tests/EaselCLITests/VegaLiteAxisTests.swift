import EaselTestSupport
import Foundation
import XCTest

/// The same data drawn by Vega-Lite (vl-convert-python, offline;
/// Tests/Fixtures/ticks/vega_lite_labels.py) and by Easel with the same tick
/// count: the axes' label texts that `easel layout` lists equal the ones in
/// Vega-Lite's SVG — a numeric axis, and date axes over a day, a month, a
/// year and several years.
final class VegaLiteAxisTests: XCTestCase, CommandLineTesting {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory("vega-lite") }

    struct Case {
        var x: [String], y: [Double], temporal: Bool, ticks: Int
        var locale: String? = nil
    }

    /// Numbers with thousands, decimals and a minus, and dates over a day
    /// (hours and AM/PM), a month (weekdays, short months) and a year
    /// (months), in each locale: Vega-Lite is given d3's definitions by name.
    static var localeCases: [Case] {
        ["de-DE", "fr-FR", "ja-JP", "en-US", "ar-EG"].flatMap { locale in [
            Case(x: ["-3.7", "12.2", "4"], y: [-1_700, 830, 12_500.5], temporal: false, ticks: 6, locale: locale),
            Case(x: ["0.001", "0.0042"], y: [0.3, 0.9], temporal: false, ticks: 5, locale: locale),
            Case(x: ["2026-11-02T00:00:00Z", "2026-11-02T13:00:00Z", "2026-11-03T00:00:00Z"], y: [1, 2, 3], temporal: true, ticks: 6, locale: locale),
            Case(x: ["2026-11-01", "2026-11-30"], y: [9_000, 12_500], temporal: true, ticks: 5, locale: locale),
            Case(x: ["2026-10-01", "2026-10-12"], y: [9_000, 12_500], temporal: true, ticks: 12, locale: locale),
            Case(x: ["2026-01-01", "2026-07-15", "2026-12-01"], y: [3, 1, 2], temporal: true, ticks: 10, locale: locale),
        ] } + [
            // Indian grouping (3, then 2s) and a sign on a large range.
            Case(x: ["0", "1"], y: [-4_500_000, 23_456_789], temporal: false, ticks: 5, locale: "en-IN"),
        ]
    }

    static let cases: [Case] = [
        Case(x: ["-3.7", "12.2", "4"], y: [-1_700, 830, 12], temporal: false, ticks: 6),
        Case(x: ["0.001", "0.0042"], y: [0.3, 0.9], temporal: false, ticks: 5),
        Case(x: ["2026-11-02T00:00:00Z", "2026-11-02T13:00:00Z", "2026-11-03T00:00:00Z"], y: [1, 2, 3], temporal: true, ticks: 6),
        Case(x: ["2026-11-01", "2026-11-30"], y: [9_000, 12_500], temporal: true, ticks: 5),
        Case(x: ["2026-01-01", "2026-07-15", "2026-12-01"], y: [3, 1, 2], temporal: true, ticks: 6),
        Case(x: ["2019-06-01", "2022-01-01", "2026-03-01"], y: [40, 55, 38], temporal: true, ticks: 5),
    ]

    func testAxisLabelsEqualVegaLites() throws {
        try compare(Self.cases)
    }

    /// `--locale`: labels in d3's number and date conventions of the locale,
    /// as Vega-Lite writes them with the same definitions.
    func testLocaleLabelsEqualVegaLitesWithTheSameLocale() throws {
        try compare(Self.localeCases)
    }

    func compare(_ cases: [Case]) throws {
        let input = cases.map { c -> [String: Any] in
            var o: [String: Any] = ["x": c.temporal ? c.x : c.x.map { Double($0)! } as [Any], "y": c.y, "temporal": c.temporal, "ticks": c.ticks]
            if let l = c.locale { o["locale"] = l }
            return o
        }
        let script = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/ticks/vega_lite_labels.py").path
        let r = try ExternalTool.run("python3", [script], stdin: try JSONSerialization.data(withJSONObject: input))
        XCTAssertEqual(r.status, 0, r.stderr)
        let vega = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: [String]]] ?? []
        XCTAssertEqual(vega.count, cases.count)
        for (n, (c, expected)) in zip(cases, vega).enumerated() {
            let rows = zip(c.x, c.y).map { "\($0),\($1)" }.joined(separator: "\n")
            _ = try write("data\(n).csv", "x,y\n\(rows)\n")
            // Wide, with tiny labels: no label is dropped for overlap (Vega-Lite is told the same).
            let scene = try write("graph\(n).scene.xml", """
            <scene width="2100" height="2100">
              <lineGraph width="2100" height="2100" padding="50 50 50 50" src="data\(n).csv" x-column="x">
                <series column="y"/>
                <xAxis ticks="\(c.ticks)" nice="false" font-size="1"/>
                <yAxis ticks="\(c.ticks)" font-size="1"/>
              </lineGraph>
            </scene>
            """)
            let layout = try easel(["layout", scene] + (c.locale.map { ["--locale", $0] } ?? []))
            XCTAssertEqual(layout.status, 0, layout.stderr)
            let tree = try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any] ?? [:]
            XCTAssertEqual(layoutTexts(in: tree, under: "xAxis"), expected["x"], "x axis of case \(n) (\(c.locale ?? "default")): \(c.x)")
            XCTAssertEqual(layoutTexts(in: tree, under: "yAxis"), expected["y"], "y axis of case \(n) (\(c.locale ?? "default")): \(c.y)")
            XCTAssertFalse(layoutTexts(in: tree, under: "xAxis").isEmpty)
        }
    }
}
