import Easel
import EaselModel
import EaselRender
import EaselTestSupport
import Foundation
import Synchronization
import XCTest

/// A line over more points than the device columns it spans is drawn per
/// column (`DenseLineCoverage`) where a column holds two or more of its
/// points. The oracle is independent of that code and of the series'
/// reduction: the full series (not reduced) stroked by Cairo at 8× the
/// scale, each 8×8 block averaged.
final class DenseLineCoverageTests: XCTestCase {
    enum Kind: CaseIterable { case jagged, sawtooth, smooth, stepped, gapped }

    /// `count` values of a kind, from a fixed LCG (the same every run).
    static func values(_ data: Kind, count: Int, seed start: UInt64) -> String {
        var lcg = FixedLCG(seed: start)
        func random() -> Double { lcg.unit() }
        var walk = 0.0
        return (0..<count).map { i -> String in
            let t = Double(i) / Double(count)
            switch data {
            case .jagged:
                walk += random() - 0.5
                return String(format: "%.3f", walk)
            case .sawtooth: return String(format: "%.3f", Double(i % 5) * 2.5 + random())
            case .smooth: return String(format: "%.3f", 5 + 4 * sin(t * 13))
            case .stepped: return String(format: "%.0f", 2 + (t * 7).rounded(.down))
            case .gapped:
                walk += random() - 0.5
                return i % 700 < 40 ? "x" : String(format: "%.3f", walk)
            }
        }.joined(separator: " ")
    }

    static func options(scale: Double, reduce: Bool) -> Easel.Options {
        var limits = Limits()
        limits.maxPaintCost = 1e13
        var options = Easel.Options(limits: limits, scales: [scale])
        options.reduceSeries = reduce
        return options
    }

    static func withCoverageOff<T>(_ body: () throws -> T) rethrows -> T {
        PaintingProbe.turnDenseLineCoverageOff(true)
        defer { PaintingProbe.turnDenseLineCoverageOff(false) }
        return try body()
    }

    /// The render (the series reduced, as always) and the oracle, after
    /// checking that `expectCovered` lines were drawn per column (and none
    /// by the oracle).
    /// `denseColumns`: at least this many device columns were spans (not
    /// Cairo's stroke).
    func renders(_ source: String, scale: Double, expectCovered: Int, denseColumns: Int, baseDirectory: URL,
                 file: StaticString = #filePath, line: UInt = #line) throws -> (ours: RasterImage, oracle: RasterImage) {
        let covered = Mutex((lines: 0, columns: 0))
        PaintingProbe.onDenseLineCovered { columns in covered.withLock { $0.lines += 1; $0.columns += columns } }
        defer { PaintingProbe.onDenseLineCovered(nil) }
        let image = try compileScene(source, baseDirectory: baseDirectory, options: Self.options(scale: scale, reduce: true)).renderImage(scale: scale)
        XCTAssertEqual(covered.withLock { $0.lines }, expectCovered, "lines drawn per column", file: file, line: line)
        XCTAssertGreaterThanOrEqual(covered.withLock { $0.columns }, denseColumns, "columns drawn as spans", file: file, line: line)
        let oracle = try Self.withCoverageOff {
            try compileScene(source, baseDirectory: baseDirectory, options: Self.options(scale: 8 * scale, reduce: false)).renderImage(scale: 8 * scale).blockMeans(8)
        }
        XCTAssertEqual(covered.withLock { $0.lines }, expectCovered, "the oracle strokes paths", file: file, line: line)
        return (image, oracle)
    }

    func saved(_ name: String, _ images: [String: RasterImage], _ source: String) throws -> String {
        try saveImageArtifacts("dense-line-\(name)", scene: source, images)
    }

    /// Jagged, sawtooth, smooth, stepped and gapped data; strokes 1 wide
    /// (miter join, butt cap), 2.5 (bevel, round cap) and 0.5 (round join,
    /// square cap); in a
    /// solid colour, a gradient and a translucent colour; at 1× and 2×
    /// over a plot whose edges fall between pixels: at most 0.1% of pixels
    /// more than 8/255 from the oracle.
    func testDenseLinesMatchTheFullSeriesAt8x() throws {
        let count = TestSizes.pick(4_000, small: 1_500)
        let strokes = [##"stroke="#1f5fbf" stroke-width="1" line-join="miter" line-cap="butt""##,
                       ##"stroke="url(#g)" stroke-width="2.5" line-join="bevel""##,
                       ##"stroke="#d62828" stroke-opacity="0.6" stroke-width="0.5" line-cap="square""##]
        let dir = ExternalTool.temporaryDirectory("dense-line")
        for (i, data) in Kind.allCases.enumerated() {
            let csv = "v\n" + Self.values(data, count: count, seed: UInt64(5 + i)).split(separator: " ")
                .map { $0 == "x" ? "" : String($0) }.joined(separator: "\n") + "\n"
            try Data(csv.utf8).write(to: dir.appendingPathComponent("\(data).csv"))
            for scale in i % 2 == 0 && !TestSizes.small ? [1.0, 2.0] : [1.0] {
                let source = """
                <scene width="240" height="120" background="white">
                  <defs><linearGradient id="g" angle="60"><stop color="#e63946"/><stop color="#1d3557"/></linearGradient></defs>
                  <lineGraph width="240" height="120" src="\(data).csv" column="v" missing="gap" padding="7.3 5 6 9.6">
                    <line \(strokes[(i + Int(scale)) % 3])/>
                  </lineGraph>
                </scene>
                """
                // Gaps and run ends leave some columns to Cairo.
                let (ours, oracle) = try renders(source, scale: scale, expectCovered: 1, denseColumns: Int(150 * scale), baseDirectory: dir)
                let name = "\(data)@\(Int(scale))x"
                guard let d = compare(ours, oracle, tolerance: 8) else { return XCTFail("\(name): sizes differ") }
                if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("DENSE \(name) \(d)") }
                if d.fractionOver > 0.001 {
                    XCTFail("\(name): \(d) (images in \(try saved(name, ["ours.png": ours, "oracle.png": oracle], source)))")
                }
            }
        }
    }

    /// A line dense in one part and sparse in another (points bunched by
    /// an x column), a graph flipped both ways, one upside down with a wide
    /// mitred line, one partly off the canvas, one under a clip path, and
    /// a path of two runs over the same columns (Cairo's: one span would
    /// fill the gap between them): each against the oracle (the mitred
    /// line no further from it than Cairo's own stroke at 1×). On the clip's edge a pixel
    /// shows the line's coverage times the clip's (a mask through a clip),
    /// not the area of their intersection: compared away from that edge,
    /// and nothing painted outside it.
    func testMixedFlippedOffCanvasAndClippedLines() throws {
        let count = TestSizes.pick(3_000, small: 1_200)
        var lcg = FixedLCG(seed: 17)
        var walk = 0.0
        // Three quarters of the points in the first fifth of the x range.
        let rows = (0..<count).map { i -> String in
            walk += lcg.unit() - 0.5
            let x = i < count * 3 / 4 ? Double(i) / Double(count * 3 / 4) * 20 : 20 + Double(i - count * 3 / 4) / Double(count / 4) * 80
            return String(format: "%.4f,%.3f", x, walk)
        }
        let dir = ExternalTool.temporaryDirectory("dense-line")
        try Data(("x,v\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("mixed.csv"))
        let values = Self.values(.jagged, count: count, seed: 9)
        let twoRuns = [20.0, 80.0].map { y in
            "M0 \(y)" + (1...1_000).map { i in " L\(Double(i) / 5) \(y + Double(i % 3))" }.joined()
        }.joined(separator: " ")
        // 120 columns of them (40 at sanitizer sizes).
        let tinySteps = (0...TestSizes.pick(60_000, small: 20_000)).map { i in
            String(format: "%.3f,%.4f", 20 + Double(i) / 500, 50 + 20 * sin(Double(i) / 5_000))
        }.joined(separator: " ")
        let twoRunsInPart = "M0 20" + (1...1_000).map { i in " L\(Double(i) / 5) \(20 + Double(i % 3))" }.joined()
            + " M160 80" + (1...200).map { i in " L\(160 + Double(i) / 5) \(80 + Double(i % 3))" }.joined()
        let graph = { (attributes: String, data: String, line: String) in
            #"<lineGraph width="200" height="100" padding="3" \#(attributes) \#(data)><line \#(line)/></lineGraph>"#
        }
        let cases: [(String, String)] = [
            ("mixed", graph("", ##"src="mixed.csv" x-column="x" column="v""##, ##"stroke="#264653" stroke-width="1.5""##)),
            ("flipped", graph(##"transform="scale(-1 -1)" transform-origin="center""##, #"values="\#(values)""#, ##"stroke="#264653""##)),
            ("clipped", graph(##"clip-path="url(#c)""##, #"values="\#(values)""#, ##"stroke="#e76f51" line-join="miter""##)),
            ("off-canvas", graph(##"x="-60" y="30""##, #"values="\#(values)""#, ##"stroke="#2a9d8f" stroke-width="3""##)),
            ("upside-down", graph(##"transform="scale(1 -1)" transform-origin="center""##, #"values="\#(values)""#,
                                  ##"stroke="#264653" stroke-width="6" line-join="miter" line-cap="square""##)),
            // Two runs side by side over the same columns: each its own band.
            ("two runs", ##"<path stroke="#264653" stroke-width="1.5" line-join="bevel" d="\##(twoRuns)"/>"##),
            // Steps of 1/500 of a pixel, each shorter than Cairo's 1/256:
            // drawn from the last point kept, as Cairo draws them.
            ("tiny steps", ##"<polyline stroke="#264653" stroke-width="1.5" points="\##(tinySteps)"/>"##),
            // The second run over the last fifth only: spans before it.
            ("two runs in part", ##"<path stroke="#264653" stroke-width="1.5" d="\##(twoRunsInPart)"/>"##),
        ]
        // Dense columns: the mixed line's first fifth; none for the two runs.
        let denseColumns = ["mixed": 30, "two runs": 0, "two runs in part": 120, "tiny steps": TestSizes.pick(100, small: 30), "off-canvas": 100, "clipped": 80]
        for (name, body) in cases {
            let source = """
            <scene width="200" height="200" background="white">
              <defs><clipPath id="c"><circle cx="100" cy="50" r="45"/></clipPath></defs>
              \(body)
            </scene>
            """
            var (ours, oracle) = try renders(source, scale: 1, expectCovered: name == "two runs" ? 0 : 1,
                                             denseColumns: denseColumns[name] ?? 150, baseDirectory: dir)
            if name == "clipped" {
                let outside = ours.takeClipEdge(centre: (100, 50), radius: 45, from: oracle)
                XCTAssertTrue(outside.isEmpty, "painted outside the clip at \(outside.prefix(5))")
            }
            guard let d = compare(ours, oracle, tolerance: 8) else { return XCTFail("\(name): sizes differ") }
            if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("DENSE \(name) \(d)") }
            // Mitred joins and caps on segments a fraction of a pixel long
            // are Cairo's own call at each scale (its points are rounded to
            // 1/256 of a pixel first): its stroke at 1× differs from its
            // stroke at 8× by whole miter spikes. No further than that.
            var bound = 0.001
            if name == "upside-down" || name == "tiny steps" {
                let cairo = try Self.withCoverageOff { try compileScene(source, baseDirectory: dir, options: Self.options(scale: 1, reduce: true)).renderImage(scale: 1) }
                guard let theirs = compare(cairo, oracle, tolerance: 8) else { return XCTFail("\(name): sizes differ") }
                if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("DENSE \(name) Cairo \(theirs)") }
                bound = max(bound, theirs.fractionOver * 1.05)
            }
            if d.fractionOver > bound {
                XCTFail("\(name): \(d) (images in \(try saved(name, ["ours.png": ours, "oracle.png": oracle], source)))")
            }
        }
    }

    /// Lines with no more points than columns, dashed, curved, turned by
    /// other than a half turn, and every line in PDF and SVG are stroked as
    /// before: their bytes are those of a render with per-column drawing
    /// turned off.
    func testSparseDashedCurvedAndRotatedLinesAndVectorFormatsAreStroked() throws {
        let many = Self.values(.jagged, count: 2_000, seed: 5)
        let graph = { (attributes: String, values: String, line: String) in
            #"<scene width="300" height="300"><lineGraph width="300" height="100" \#(attributes) values="\#(values)"><line \#(line)/></lineGraph></scene>"#
        }
        let sources = [graph("", Self.values(.jagged, count: 200, seed: 5), ""),
                       graph("", many, ##"dash="4 2""##),
                       graph("", many, ##"curve="monotone""##),
                       graph(##"transform="rotate(30)""##, many, "")]
        let covered = Mutex(0)
        PaintingProbe.onDenseLineCovered { _ in covered.withLock { $0 += 1 } }
        defer { PaintingProbe.onDenseLineCovered(nil) }
        for source in sources {
            let bytes = try compileScene(source).render(format: .png)
            XCTAssertEqual(bytes, try Self.withCoverageOff { try compileScene(source).render(format: .png) })
        }
        XCTAssertEqual(covered.withLock { $0 }, 0)
        let dense = graph("", many, "")
        for format in [OutputFormat.pdf, .svg] {
            let bytes = try compileScene(dense).render(format: format)
            XCTAssertEqual(bytes, try Self.withCoverageOff { try compileScene(dense).render(format: format) }, "\(format)")
        }
        XCTAssertEqual(covered.withLock { $0 }, 0)
        _ = try compileScene(dense).render(format: .png)
        XCTAssertEqual(covered.withLock { $0 }, 1, "the dense line in PNG")
    }

    /// Over a long walk the series is reduced (four points per eighth of
    /// a device column) before it is drawn: drawn per column, that
    /// reduction is no further from the oracle than Cairo's stroke of it.
    func testAReducedWalkIsNoFurtherFromTheOracleThanCairosStrokeOfIt() throws {
        let values = LineGraphTests.randomWalk(TestSizes.pick(200_000, small: 30_000), seed: 7)
        let source = """
        <scene width="500" height="250" background="white">
          <lineGraph values="\(values)" padding="10"><line stroke="black" stroke-width="1"/></lineGraph>
        </scene>
        """
        let (ours, oracle) = try renders(source, scale: 1, expectCovered: 1, denseColumns: 400, baseDirectory: ExternalTool.temporaryDirectory("dense-line"))
        let cairo = try Self.withCoverageOff { try compileScene(source, options: Self.options(scale: 1, reduce: true)).renderImage(scale: 1) }
        guard let d = compare(ours, oracle, tolerance: 8), let theirs = compare(cairo, oracle, tolerance: 8) else { return XCTFail("sizes differ") }
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("DENSE walk ours \(d), Cairo \(theirs)") }
        if d.fractionOver > max(theirs.fractionOver * 1.05, 0.001) {
            XCTFail("per column \(d), Cairo \(theirs) (images in \(try saved("walk", ["ours.png": ours, "oracle.png": oracle, "cairo.png": cairo], source)))")
        }
    }

    /// Numbers far outside what Cairo can draw (it works in 24.8 fixed
    /// point and subtracts coordinates in the same 32 bits): a point at
    /// 1e300, a stroke 1e300 or 1e15 wide, an edge 1e7 pixels long, a
    /// curve whose control points (not the curve) pass the range, bars a
    /// billion times their axis drawn as a path (PDF) — each a located
    /// error at its element naming the range, not a picture Cairo's
    /// arithmetic wrapped (segments drawn backwards, a canvas filled
    /// black). What cannot show is left out, without error: a far path
    /// with no paint, a far rectangle; and such bars filled by coverage
    /// (PNG) draw, the outlier up to the top of the plot. A miter limit of
    /// 1e300 draws the line as 1e4 does (Cairo drew nothing at 1e9).
    func testHugeNumbersAreALocatedErrorOrDrawn() throws {
        let points = (0...2_000).map { i in "\(Double(i) / 20),\(50 + Double(i % 7) * 5)" }.joined(separator: " ")
        let outlier = (0..<2_000).map { $0 == 700 ? "1e9" : String($0 % 10) }.joined(separator: " ")
        let bars = #"<lineGraph width="100" height="50" max="10" padding="0" values="\#(outlier)"><bars/></lineGraph>"#
        let beyond: [(scale: Int, body: String, formats: [OutputFormat])] = [
            (2, #"<polyline stroke="black" points="\#(points) 1e300,50"/>"#, [.png, .pdf]),
            (2, #"<polyline stroke="black" stroke-width="1e300" points="\#(points)"/>"#, [.png, .pdf]),
            (2, #"<polyline stroke="black" stroke-width="1e15" line-join="round" points="0,0 50,50 100,0"/>"#, [.png, .pdf]),
            (2, #"<path stroke="black" d="M1e308 0 L1e308 5 M0 0 L1 1"/>"#, [.png, .pdf]),
            (1, #"<path stroke="black" stroke-width="4" d="M-5000000 0 L5000000 100"/>"#, [.png, .pdf]),
            (1, #"<path stroke="black" d="M-1800000 50 C9000000 50 -9000000 60 1800000 60"/>"#, [.png, .pdf]),
            (1, bars, [.pdf]),
            // The fill is left out (outside the clip), its stroke reaches in.
            (1, #"<path fill="red" stroke="black" stroke-width="2e7" d="M5e6 0 L6e6 0 L6e6 10 Z"/>"#, [.png]),
        ]
        for (scale, body, formats) in beyond {
            let source = #"<scene width="100" height="100" scale="\#(scale)">\#(body)</scene>"#
            // At the element drawn: the bars layer, not its graph.
            let element = source.range(of: "<bars") ?? source.range(of: body)!
            let column = source.distance(from: source.startIndex, to: element.lowerBound) + 1
            for format in formats {
                XCTAssertThrowsError(try compileScene(source).render(format: format), "\(body) \(format)") { error in
                    XCTAssertTrue("\(error)".contains("test.scene.xml:1:\(column): error:") && "\(error)".contains("Cairo draws within ±4,000,000"), "\(error)")
                }
            }
        }
        // An arc whose radii overflow when squared is as flat as a zero
        // radius: a line (it had control points that were not numbers).
        for body in [#"<path d="M0 0 L20000000 0" fill="none"/>"#, #"<rect x="20000000" y="0" width="10" height="10" fill="red"/>"#,
                     #"<path stroke="black" d="M50 50 A1e300 1e-300 0 0 1 60 60"/>"#] {
            let source = #"<scene width="100" height="100">\#(body)</scene>"#
            for format in [OutputFormat.png, .pdf] { XCTAssertNoThrow(try compileScene(source).render(format: format), "\(body) \(format)") }
        }
        // Bars with a pattern paint it over what shows of them, not the
        // outlier's full height.
        let stripedBars = bars.replacingOccurrences(of: "<bars/>", with: ##"<bars fill="url(#s)"/>"##)
        let striped = ##"<scene width="100" height="100" background="white"><defs><stripes id="s" spacing="4" line-width="2" angle="30" color="#000" background="#ddd"/></defs>\##(stripedBars)</scene>"##
        let stripes = try compileScene(striped).renderImage()
        XCTAssertLessThan(stripes.pixel(35, 0).r, 255, "the outlier shows")
        XCTAssertEqual([10, 34, 36, 90].map { stripes.pixel($0, 0).r }, [255, 255, 255, 255], "nothing else above the bars")
        // The outlier is bar 700 of 2,000 across 100 pixels: in column 35,
        // 0.8 of its 0.05-pixel slot, 10/255 of each pixel up to the top,
        // where no other bar reaches (the highest is 9 of 10).
        let drawn = try compileScene(#"<scene width="100" height="100" background="white">\#(bars)</scene>"#).renderImage()
        XCTAssertEqual(Double(drawn.pixel(35, 0).r), 255 * (1 - 0.04), accuracy: 1.5, "the outlier reaches the top: \(drawn.pixel(35, 0))")
        XCTAssertEqual(drawn.pixel(34, 0).r, 255)
        XCTAssertEqual(drawn.pixel(36, 0).r, 255)
        let mitred = { (limit: String) in
            #"<scene width="100" height="100" scale="2" background="white"><polyline stroke="black" line-join="miter" miter-limit="\#(limit)" points="\#(points)"/></scene>"#
        }
        let huge = try compileScene(mitred("1e300")).renderImage(scale: 2)
        XCTAssertEqual(huge.rgba, try compileScene(mitred("1e4")).renderImage(scale: 2).rgba)
        XCTAssertGreaterThan(stride(from: 0, to: huge.rgba.count, by: 4).filter { huge.rgba[$0] < 128 }.count, 1_000, "the line is drawn")
    }
}
