import Easel
import EaselLayout
import EaselTestSupport
import Foundation
import XCTest

/// Values 2 8 5 0 6 in a 300×200 graph with padding 40 20 30 20: the plot
/// is (20, 40, 260, 130), min 0, max 8, so point i is at
/// x = 20 + 65·i, y = 170 − v/8·130 (the contract's formulas, here).
final class LineGraphTests: XCTestCase {
    let values = [2.0, 8, 5, 0, 6]
    func expected(_ i: Int) -> (Double, Double) { (20 + 65 * Double(i), 170 - values[i] / 8 * 130) }

    func graph(_ layers: String, attributes: String = "") throws -> CompiledScene {
        try compileScene("""
        <scene width="300" height="200" background="white">
          <lineGraph values="2 8 5 0 6" labels="a b c d e" padding="40 20 30 20" \(attributes)>\(layers)</lineGraph>
        </scene>
        """)
    }

    func testPointCentresAreWhereTheContractPutsThem() throws {
        let image = try graph("<points diameter=\"10\" fill=\"red\"/>").renderImage()
        for i in values.indices {
            let (x, y) = expected(i)
            assertPixel(image, Int(x), Int(y), ExpectedColor(1, 0, 0), tolerance: 1, "point \(i)")
            assertPixel(image, Int(x) + 8, Int(y), ExpectedColor(1, 1, 1), tolerance: 1, "beside point \(i)")
        }
    }

    func testGridLinesAtTheExpectedRows() throws {
        let image = try graph("<grid count=\"3\" stroke=\"black\" stroke-width=\"2\"/>").renderImage()
        for row in [40, 105, 170] {
            for y in [row - 1, row] { assertPixel(image, 150, y, ExpectedColor(0, 0, 0), tolerance: 1, "row \(y)") }
            assertPixel(image, 150, row + 3, ExpectedColor(1, 1, 1), tolerance: 1)
        }
        assertPixel(image, 10, 40, ExpectedColor(1, 1, 1), tolerance: 1, "grid stops at the plot's left edge")
    }

    func testAreaIsUnderTheLineDownToTheFrameBottom() throws {
        let image = try graph("<area fill=\"green\"/>").renderImage()
        var below = 0, above = 0
        for x in stride(from: 21, to: 280, by: 3) {
            let px = Double(x) + 0.5
            let i = min(3, Int((px - 20) / 65))
            let (x0, y0) = expected(i), (x1, y1) = expected(i + 1)
            let lineY = y0 + (y1 - y0) * (px - x0) / (x1 - x0)
            for y in 0..<200 {
                let py = Double(y) + 0.5
                let p = image.pixel(x, y)
                if py > lineY + 1.5 { XCTAssertEqual(p.g, 128, "(\(x), \(y)) under the line"); below += 1 }
                if py < lineY - 1.5 { XCTAssertEqual(p.r, 255, "(\(x), \(y)) above the line"); above += 1 }
            }
        }
        XCTAssertGreaterThan(below, 3000)
        XCTAssertGreaterThan(above, 1000)
    }

    func testAreaEndsAtThePlotOrAtZeroWhenAsked() throws {
        // The plot is rows 40…170; values 2 8 5 0 6 with min −2, max 8 put
        // 0 at y = 170 − (0 + 2)/10·130 = 144 (the formula, here).
        for (to, end) in [("frame", 200.0), ("plot", 170.0), ("zero", 144.0)] {
            let image = try graph("<area fill=\"green\" to=\"\(to)\"/>", attributes: "min=\"-2\"").renderImage()
            // Between points 1 and 2 (x = 85…150) the line is above y = 95.
            for x in [100, 130] {
                for y in 100..<200 {
                    let inside = Double(y) + 0.5 < end - 0.5, outside = Double(y) + 0.5 > end + 0.5
                    if inside { XCTAssertEqual(image.pixel(x, y).g, 128, "to=\(to): (\(x), \(y)) filled") }
                    if outside { XCTAssertEqual(image.pixel(x, y).r, 255, "to=\(to): (\(x), \(y)) background") }
                }
            }
        }
    }

    func testLabelsArePlacedAsTheContractSays() throws {
        let s = try graph("<xLabels font-size=\"10\"/><yLabels font-size=\"10\"/>")
        let layers = s.layout.nodes[0].children
        let x = layers[0].children, y = layers[1].children
        XCTAssertEqual(x.count, 5)
        for (i, label) in x.enumerated() {
            XCTAssertEqual(label.frame.center.x, expected(i).0, accuracy: 1e-9, "centred under its x")
            XCTAssertEqual(label.frame.minY, 170 + 8, accuracy: 1e-9, "top 8 below the plot")
        }
        guard let top = s.layout.text(of: y[0]), let bottom = s.layout.text(of: y[1]) else { return XCTFail() }
        XCTAssertEqual(top.shaped.text, "8")
        XCTAssertEqual(bottom.shaped.text, "0")
        XCTAssertEqual(y[0].frame.maxX, 280, accuracy: 1e-9, "right-aligned to the plot")
        XCTAssertEqual(y[0].frame.maxY, 40 - 2, accuracy: 1e-9, "bottom 2 above the top line")
        XCTAssertEqual(y[1].frame.maxY, 170 - 2, accuracy: 1e-9)
    }

    func testStatisticsInText() throws {
        let data = [4.0, 2, 6, 4, 5, 8, 3]
        let sum = data.reduce(0, +), average = sum / Double(data.count)
        let s = try compileScene("""
        <scene width="300" height="200">
          <lineGraph values="4 2 6 4 5 8 3">
            <text>{average}|{sum}|{count}|{last}|{min}|{max}</text>
            <text format="%.1f">{average}</text>
          </lineGraph>
        </scene>
        """)
        let texts = s.layout.nodes[0].children.compactMap { s.layout.text(of: $0)?.shaped.text }
        XCTAssertEqual(texts, ["\(average)|\(Int(sum))|7|3|2|8", String(format: "%.1f", average)])
        XCTAssertEqual(texts[0], "4.571428571428571|32|7|3|2|8")
        XCTAssertEqual(s.layout.nodes[0].children.count, 4, "line and points by default, then the two texts")
    }

    func testDefaultLayersAndScaleRules() throws {
        // max == min: the range is [min, min + 1], so every point sits on the bottom.
        let flat = try compileScene("""
        <scene width="100" height="100" background="white">
          <lineGraph values="3 3" min="3" padding="10"/>
        </scene>
        """).renderImage()
        assertPixel(flat, 50, 89, ExpectedColor(0, 0, 0), tolerance: 1, "default black line along the bottom")
        // One value: the plot's horizontal centre.
        let one = try compileScene("""
        <scene width="100" height="100" background="white">
          <lineGraph values="5" padding="10"><points diameter="8" fill="blue"/></lineGraph>
        </scene>
        """).renderImage()
        assertPixel(one, 50, 10, ExpectedColor(0, 0, 1), tolerance: 1)
    }

    /// A monotone curve never leaves the range of the two values it joins.
    func testMonotoneCurveNeverOvershoots() {
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<50 {
            let n = 3 + Int(random() * 20)
            var x = 0.0
            let points = (0..<n).map { _ -> Point in
                x += 1 + random() * 30
                return Point(x, random() < 0.2 ? 50 : random() * 100)
            }
            let path = GraphGeometry.curve(points, .monotone)
            var start = points[0], segment = 0
            for e in path.elements {
                guard case .cubic(let c1, let c2, let end) = e else { continue }
                let lo = min(points[segment].y, points[segment + 1].y), hi = max(points[segment].y, points[segment + 1].y)
                for k in 0...100 {
                    let t = Double(k) / 100, u = 1 - t
                    let y = u * u * u * start.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * end.y
                    let px = u * u * u * start.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * end.x
                    XCTAssertGreaterThanOrEqual(y, lo - 1e-9)
                    XCTAssertLessThanOrEqual(y, hi + 1e-9)
                    XCTAssertGreaterThanOrEqual(px, start.x - 1e-9)
                    XCTAssertLessThanOrEqual(px, end.x + 1e-9)
                }
                start = end
                segment += 1
            }
            XCTAssertEqual(segment, n - 1)
        }
    }

    /// `count` steps of a random walk (a fixed LCG, so every run has the
    /// same series), as a `values` list.
    static func randomWalk(_ count: Int, seed start: UInt64) -> String {
        var lcg = FixedLCG(seed: start)
        var v = 0.0
        return (0..<count).map { _ -> String in
            v += Double(Int(lcg.next() >> 40) % 2001 - 1000) / 1000
            return String(format: "%.3f", v)
        }.joined(separator: " ")
    }

    /// A long series drawn from its per-column reduction covers the same
    /// pixels as the full series.
    func testReducedSeriesRendersLikeTheFullOne() throws {
        // Either size is far more points than the plot's 480 columns keep.
        let values = Self.randomWalk(TestSizes.pick(200_000, small: 50_000), seed: 7)
        let source = """
        <scene width="500" height="250" background="white">
          <lineGraph values="\(values)" padding="10"><line stroke="black" stroke-width="1"/></lineGraph>
        </scene>
        """
        var full = Easel.Options()
        full.reduceSeries = false
        // A compile reduces for the scales it will paint (here the scene's, 1).
        let atOne = Easel.Options(scales: [1])
        let reduced = try compileScene(source, options: atOne).renderImage()
        let complete = try compileScene(source, options: full).renderImage()
        // Anti-aliased edges of the zig-zags differ by a little: at most 0.4%
        // of pixels by more than 8/255.
        let d = try XCTUnwrap(compare(reduced, complete, tolerance: 8))
        XCTAssertLessThanOrEqual(d.fractionOver, 0.004, "\(d)")
        guard let line = firstPath(try compileScene(source, options: atOne)) else { return XCTFail() }
        XCTAssertLessThan(line.path.elements.count, 4 * 8 * 480 + 10, "at most four points per eighth of a pixel column")
    }

    /// A points layer over far more points than the plot has pixels keeps
    /// one dot per quarter pixel: the same picture (dots are one path, so a
    /// translucent fill is not darker where they overlap) from a fraction
    /// of the dots, counted in the path, not timed.
    func testPointsOverMorePointsThanPixelsAreMergedPerQuarterPixel() throws {
        let values = Self.randomWalk(15_000, seed: 11)
        let source = """
        <scene width="100" height="60" background="white">
          <lineGraph values="\(values)" padding="5"><points diameter="3" fill="#3366cc" opacity="0.5"/></lineGraph>
        </scene>
        """
        // Overlapping dots are charged for every crossing of their edges
        // (the paint budget's worst case); painting both is allowed here.
        var limits = Limits()
        limits.maxPaintCost = 1e12
        var full = Easel.Options(limits: limits, scales: [1])
        full.reduceSeries = false
        let atOne = Easel.Options(limits: limits, scales: [1])
        let merged = try compileScene(source, options: atOne)
        let complete = try compileScene(source, options: full)
        func dots(_ s: CompiledScene) throws -> Int {
            guard let dots = firstPath(s) else { XCTFail(); return 0 }
            return dots.path.elements.filter { if case .move = $0 { return true } else { return false } }.count
        }
        XCTAssertEqual(try dots(complete), 15_000)
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("POINTS kept \(try dots(merged))") }
        XCTAssertLessThan(try dots(merged), 15_000 / 2, "dots kept")
        XCTAssertTrue(merged.layout.reducedSeries)
        let d = try XCTUnwrap(compare(try merged.renderImage(), try complete.renderImage(), tolerance: 8))
        XCTAssertLessThanOrEqual(d.fractionOver, 0.004, "\(d)")
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("POINTS kept \(try dots(merged)) \(d)") }
    }

    func testCSVWithQuotesHeaderAndSpaces() throws {
        let dir = ExternalTool.temporaryDirectory()
        try Data(#"""
        "day","glasses",note
        "Mon", 4 ,"fine, thanks"
        Tue,2,"said ""no"""
        "Wed",  6,

        """#.utf8).write(to: dir.appendingPathComponent("w.csv"))
        let s = try compileScene("""
        <scene width="300" height="200">
          <lineGraph src="w.csv" column="glasses" label-column="day"><xLabels/><text>{sum}</text></lineGraph>
        </scene>
        """, baseDirectory: dir)
        let layers = s.layout.nodes[0].children
        let labels = layers[0].children.compactMap { s.layout.text(of: $0)?.shaped.text }
        XCTAssertEqual(labels, ["Mon", "Tue", "Wed"])
        guard let sum = s.layout.text(of: layers[1]) else { return XCTFail() }
        XCTAssertEqual(sum.shaped.text, "12")
    }
}
