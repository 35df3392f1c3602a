import Easel
import EaselModel
import EaselRender
import EaselTestSupport
import Foundation
import Synchronization
import XCTest

/// A bars layer over more values than the device columns it spans is
/// filled by the exact area its bars cover of each pixel
/// (`RectangleCoverage`), not as a path. The oracle is independent of that
/// code: the same scene with coverage turned off (every bar a rectangle of
/// one path) filled by Cairo at 8× the scale, each 8×8 block averaged.
final class BarsCoverageTests: XCTestCase {
    enum Kind: CaseIterable { case jagged, smooth, stepped, gapped, signed }

    /// `count` values of a kind, from a fixed LCG (the same every run).
    static func values(_ data: Kind, count: Int, seed start: UInt64) -> String {
        var lcg = FixedLCG(seed: start)
        func random() -> Double { lcg.unit() }
        return (0..<count).map { i -> String in
            let t = Double(i) / Double(count)
            switch data {
            case .jagged: return String(format: "%.3f", 1 + 9 * random())
            case .smooth: return String(format: "%.3f", 5 + 4 * sin(t * 13))
            case .stepped: return String(format: "%.0f", 2 + (t * 7).rounded(.down))
            case .gapped: return random() < 0.2 ? "x" : String(format: "%.3f", 1 + 9 * random())
            case .signed: return String(format: "%.3f", 10 * random() - 5)
            }
        }.joined(separator: " ")
    }

    /// The reduced render and the oracle, after checking that the coverage
    /// fill was used `expectCovered` times (and never by the oracle).
    func renders(_ source: String, scale: Double, expectCovered: Int, baseDirectory: URL,
                 file: StaticString = #filePath, line: UInt = #line) throws -> (reduced: RasterImage, oracle: RasterImage) {
        var limits = Limits()
        limits.maxPaintCost = 1e13
        let covered = Mutex(0)
        PaintingProbe.onRectanglesCovered { covered.withLock { $0 += 1 } }
        defer { PaintingProbe.onRectanglesCovered(nil) }
        let image = try compileScene(source, baseDirectory: baseDirectory, options: Easel.Options(limits: limits, scales: [scale]))
            .renderImage(scale: scale)
        XCTAssertEqual(covered.withLock { $0 }, expectCovered, "layers filled by coverage", file: file, line: line)
        let oracle = try Self.withCoverageOff {
            try compileScene(source, baseDirectory: baseDirectory, options: Easel.Options(limits: limits, scales: [8 * scale]))
                .renderImage(scale: 8 * scale).blockMeans(8)
        }
        XCTAssertEqual(covered.withLock { $0 }, expectCovered, "the oracle fills paths", file: file, line: line)
        return (image, oracle)
    }

    static func withCoverageOff<T>(_ body: () throws -> T) rethrows -> T {
        PaintingProbe.turnRectangleCoverageOff(true)
        defer { PaintingProbe.turnRectangleCoverageOff(false) }
        return try body()
    }

    func saved(_ name: String, _ images: [String: RasterImage], _ source: String) throws -> String {
        try saveImageArtifacts("bars-coverage-\(name)", scene: source, images)
    }

    /// One series' bars: jagged, smooth, stepped, gapped (empty CSV cells)
    /// and signed data, in a solid colour, a gradient across the plot and
    /// a translucent one, 0.8 and 1 of the slot wide, at 1× (and 2× for
    /// three of them, at full test sizes), over a
    /// plot whose edges fall between pixels: at most 0.1% of pixels more
    /// than 8/255 from the oracle.
    func testBarsOverMoreValuesThanColumnsMatchTheFullPathAt8x() throws {
        let count = TestSizes.pick(3_000, small: 600)
        let dir = ExternalTool.temporaryDirectory("bars-coverage")
        let fills = [##"fill="#1f5fbf""##, ##"fill="url(#g)""##, ##"fill="#d62828" opacity="0.55""##]
        for (i, data) in Kind.allCases.enumerated() {
            let csv = "v\n" + Self.values(data, count: count, seed: UInt64(3 + i)).split(separator: " ")
                .map { $0 == "x" ? "" : String($0) }.joined(separator: "\n") + "\n"
            try Data(csv.utf8).write(to: dir.appendingPathComponent("\(data).csv"))
            for scale in i % 2 == 0 && !TestSizes.small ? [1.0, 2.0] : [1.0] {
                let source = """
                <scene width="240" height="120" background="white">
                  <defs><linearGradient id="g" angle="60"><stop color="#e63946"/><stop color="#1d3557"/></linearGradient></defs>
                  <lineGraph width="240" height="120" src="\(data).csv" column="v" missing="gap" padding="7.3 5 6 9.6">
                    <bars \(fills[(i + Int(scale)) % 3]) width="\(i % 2 == 0 ? "0.8" : "1")"/>
                  </lineGraph>
                </scene>
                """
                let (reduced, oracle) = try renders(source, scale: scale, expectCovered: 1, baseDirectory: dir)
                let name = "\(data)@\(Int(scale))x"
                guard let d = compare(reduced, oracle, tolerance: 8) else { return XCTFail("\(name): sizes differ") }
                if d.fractionOver > 0.001 {
                    XCTFail("\(name): \(d) (images in \(try saved(name, ["reduced.png": reduced, "oracle.png": oracle], source)))")
                }
            }
        }
    }

    /// Stacked series paint layer after layer, each over the one below:
    /// where sub-pixel bars of two layers share a pixel, compositing one
    /// layer's coverage over the other's is not the supersampled picture
    /// (the oracle sees which bar covers which part of the pixel). Cairo
    /// filling the full paths at the same scale makes the same error; the
    /// coverage fill may be no further from the oracle than Cairo is, but
    /// for 5% of its count and 0.1% of the pixels.
    func testStackedBarsAreAsCloseToTheOracleAsCairosOwnFill() throws {
        let count = TestSizes.pick(2_000, small: 900)
        let source = """
        <scene width="200" height="110" background="#f4f1ea">
          <defs><linearGradient id="g" angle="90"><stop color="#e63946"/><stop color="#1d3557"/></linearGradient></defs>
          <lineGraph width="200" height="110" stack="zero" padding="5">
            <series values="\(Self.values(.jagged, count: count, seed: 21))"><bars fill="url(#g)"/></series>
            <series values="\(Self.values(.smooth, count: count, seed: 22))"><bars fill="#2a9d8f" opacity="0.6"/></series>
            <series values="\(Self.values(.stepped, count: count, seed: 23))"><bars fill="#e9c46a"/></series>
          </lineGraph>
        </scene>
        """
        let dir = ExternalTool.temporaryDirectory("bars-coverage")
        let (reduced, oracle) = try renders(source, scale: 1.5, expectCovered: 3, baseDirectory: dir)
        var limits = Limits()
        limits.maxPaintCost = 1e13
        let cairo = try Self.withCoverageOff { try compileScene(source, options: Easel.Options(limits: limits, scales: [1.5])).renderImage(scale: 1.5) }
        guard let ours = compare(reduced, oracle, tolerance: 8), let theirs = compare(cairo, oracle, tolerance: 8),
              let between = compare(reduced, cairo, tolerance: 8) else { return XCTFail("sizes differ") }
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("STACKED ours \(ours) cairo \(theirs) between \(between)") }
        if ours.fractionOver > theirs.fractionOver * 1.05 + 0.001 {
            XCTFail("coverage \(ours), Cairo \(theirs) (images in \(try saved("stacked", ["reduced.png": reduced, "oracle.png": oracle, "cairo.png": cairo], source)))")
        }
    }

    /// Fewer bars than columns, rounded bars and graphs turned by other
    /// than quarter turns stay paths: their bytes are those of a render with
    /// coverage turned off.
    func testFewRoundedOrRotatedBarsStayPaths() throws {
        let few = #"<scene width="300" height="100"><lineGraph width="300" height="100" values="\#(Self.values(.jagged, count: 120, seed: 5))"><bars/></lineGraph></scene>"#
        let rounded = #"<scene width="300" height="100"><lineGraph width="300" height="100" values="\#(Self.values(.jagged, count: 2_000, seed: 5))"><bars corner-radius="0.1"/></lineGraph></scene>"#
        let rotated = #"<scene width="300" height="300"><lineGraph width="300" height="100" transform="rotate(30)" values="\#(Self.values(.jagged, count: 2_000, seed: 5))"><bars/></lineGraph></scene>"#
        let covered = Mutex(0)
        PaintingProbe.onRectanglesCovered { covered.withLock { $0 += 1 } }
        defer { PaintingProbe.onRectanglesCovered(nil) }
        for source in [few, rounded, rotated] {
            let bytes = try compileScene(source).render(format: .png)
            XCTAssertEqual(bytes, try Self.withCoverageOff { try compileScene(source).render(format: .png) })
        }
        XCTAssertEqual(covered.withLock { $0 }, 0)
    }

    /// The mask's own cases: a flipped or quarter-turned graph, a graph
    /// partly off the canvas, zero-height bars, a clip path cutting the bars
    /// — each against the oracle — and bars with a stroke, drawn as a path
    /// over the filled mask, against Cairo's fill and stroke at the same
    /// scale (a stroke far thinner than a pixel is Cairo's own sampling at
    /// 1×). On the clip's edge a pixel shows the bars' coverage times the
    /// clip's, not the area of their intersection (a mask through a clip,
    /// as Cairo composites any group): compared away from that edge, and
    /// nothing painted outside it.
    func testFlippedTurnedClippedStrokedAndEmptyBars() throws {
        let count = TestSizes.pick(2_400, small: 600)
        let values = Self.values(.jagged, count: count, seed: 9)
        let zeros = (0..<count).map { $0 % 3 == 0 ? "0" : "4" }.joined(separator: " ")
        let graph = { (attributes: String, values: String, bars: String) in
            #"<lineGraph width="200" height="100" padding="3" \#(attributes) values="\#(values)"><bars \#(bars)/></lineGraph>"#
        }
        let cases: [(String, String)] = [
            ("flipped", graph(##"transform="scale(-1 1)" transform-origin="center""##, values, ##"fill="#264653""##)),
            ("turned", graph(##"transform="rotate(90)" transform-origin="center""##, values, ##"fill="#264653""##)),
            ("clipped", graph(##"clip-path="url(#c)""##, values, ##"fill="#e76f51""##)),
            ("off-canvas", graph(##"x="-60" y="30""##, values, ##"fill="#2a9d8f""##)),
            ("stroked", graph("", values, ##"fill="#e9c46a" stroke="#264653" stroke-width="0.02""##)),
            ("zero-height", graph("", zeros, ##"fill="#264653""##)),
        ]
        let dir = ExternalTool.temporaryDirectory("bars-coverage")
        for (name, body) in cases {
            let source = """
            <scene width="200" height="200" background="white">
              <defs><clipPath id="c"><circle cx="100" cy="50" r="45"/></clipPath></defs>
              \(body)
            </scene>
            """
            var (reduced, oracle) = try renders(source, scale: 1, expectCovered: 1, baseDirectory: dir)
            if name == "stroked" { oracle = try Self.withCoverageOff { try compileScene(source).renderImage() } }
            if name == "clipped" {
                let outside = reduced.takeClipEdge(centre: (100, 50), radius: 45, from: oracle)
                XCTAssertTrue(outside.isEmpty, "painted outside the clip at \(outside.prefix(5))")
            }
            guard let d = compare(reduced, oracle, tolerance: 8) else { return XCTFail("\(name): sizes differ") }
            if d.fractionOver > 0.001 {
                XCTFail("\(name): \(d) (images in \(try saved(name, ["reduced.png": reduced, "oracle.png": oracle], source)))")
            }
        }
    }

    /// Many bars fit the default paint budget in every format: PDF and SVG
    /// write them as a path, which costs their edges, not the rows a
    /// rasteriser would sweep (charged only where one does).
    func testManyBarsFitTheDefaultBudgetInEveryFormat() throws {
        let count = 20_000
        let source = """
        <scene width="800" height="300" background="white">
          <lineGraph width="800" height="300" stack="zero">
            <series values="\(Self.values(.smooth, count: count, seed: 31))"><bars fill="#1f5fbf"/></series>
            <series values="\(Self.values(.jagged, count: count, seed: 32))"><bars fill="#e76f51"/></series>
          </lineGraph>
        </scene>
        """
        let scene = try compileScene(source)
        for format in [OutputFormat.png, .pdf, .svg] {
            XCTAssertNoThrow(try scene.render(format: format), "\(format)")
        }
    }

    /// Unit level: a rectangle's coverage is its area in each pixel, on a
    /// box that does not start at the origin, with rectangles reaching past
    /// it (clipped) and one within a single row.
    func testCoverageIsTheAreaInEachPixel() {
        let image = RectangleCoverage.alphaForTesting(box: (x0: 10, y0: 20, x1: 14, y1: 24),
                                                      rectangles: [(10.5, 20.25, 12.25, 23.5), (13, 19, 13.5, 30), (11, 23.6, 11.5, 23.9)])
        // The first covers columns 0..2 by 0.5, 1, 0.25 and rows by 0.75, 1, 1, 0.5;
        // the second column 3 by 0.5 in every row (clipped); the third 0.5 × 0.3 of (1, 3).
        let widths = [0.5, 1, 0.25], heights = [0.75, 1, 1, 0.5]
        for y in 0..<4 {
            for x in 0..<4 {
                var expected = x < 3 ? widths[x] * heights[y] : 0.5
                if x == 1 && y == 3 { expected += 0.5 * 0.3 }
                XCTAssertEqual(Double(image[y * 4 + x]), (expected * 255).rounded(), accuracy: 1, "(\(x), \(y))")
            }
        }
    }
}
