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
/// code: the same scene unreduced (every bar a rectangle of one path) filled
/// by Cairo at 8× the scale, each 8×8 block averaged.
final class BarsCoverageTests: XCTestCase {
    enum Kind: CaseIterable { case jagged, smooth, stepped, gapped, signed }

    /// `count` values of a kind, from a fixed LCG (the same every run).
    static func values(_ data: Kind, count: Int, seed start: UInt64) -> String {
        var seed = start
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
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
        var full = Easel.Options(limits: limits, scales: [8 * scale])
        full.reduceSeries = false
        let oracle = try compileScene(source, baseDirectory: baseDirectory, options: full).renderImage(scale: 8 * scale).blockMeans(8)
        XCTAssertEqual(covered.withLock { $0 }, expectCovered, "the oracle fills paths", file: file, line: line)
        return (image, oracle)
    }

    func saved(_ name: String, _ images: [String: RasterImage], _ source: String) throws -> String {
        var files = ["scene.xml": Array(source.utf8)]
        for (file, image) in images { files[file] = try image.pngData() }
        return saveArtifacts("bars-coverage-\(name)", files).path
    }

    /// One series' bars: jagged, smooth, stepped, gapped (empty CSV cells)
    /// and signed data, in a solid colour, a gradient across the plot and
    /// a translucent one, 0.8 and 1 of the slot wide, at 1× (and 2× for
    /// three of them), over a
    /// plot whose edges fall between pixels: at most 0.1% of pixels more
    /// than 8/255 from the oracle.
    func testBarsOverMoreValuesThanColumnsMatchTheFullPathAt8x() throws {
        let count = TestSizes.pick(3_000, small: 1_200)
        let dir = ExternalTool.temporaryDirectory("bars-coverage")
        let fills = [##"fill="#1f5fbf""##, ##"fill="url(#g)""##, ##"fill="#d62828" opacity="0.55""##]
        for (i, data) in Kind.allCases.enumerated() {
            let csv = "v\n" + Self.values(data, count: count, seed: UInt64(3 + i)).split(separator: " ")
                .map { $0 == "x" ? "" : String($0) }.joined(separator: "\n") + "\n"
            try Data(csv.utf8).write(to: dir.appendingPathComponent("\(data).csv"))
            for scale in i % 2 == 0 ? [1.0, 2.0] : [1.0] {
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
    /// coverage fill must be no further from the oracle than Cairo is.
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
        var full = Easel.Options(limits: limits, scales: [1.5])
        full.reduceSeries = false
        let cairo = try compileScene(source, options: full).renderImage(scale: 1.5)
        guard let ours = compare(reduced, oracle, tolerance: 8), let theirs = compare(cairo, oracle, tolerance: 8),
              let between = compare(reduced, cairo, tolerance: 8) else { return XCTFail("sizes differ") }
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("STACKED ours \(ours) cairo \(theirs) between \(between)") }
        if ours.fractionOver > theirs.fractionOver * 1.05 + 0.001 {
            XCTFail("coverage \(ours), Cairo \(theirs) (images in \(try saved("stacked", ["reduced.png": reduced, "oracle.png": oracle, "cairo.png": cairo], source)))")
        }
    }

    /// Fewer bars than columns, rounded bars and rotated graphs stay paths:
    /// their bytes are Cairo's as before.
    func testFewRoundedOrRotatedBarsStayPaths() throws {
        let few = #"<scene width="300" height="100"><lineGraph width="300" height="100" values="\#(Self.values(.jagged, count: 120, seed: 5))"><bars/></lineGraph></scene>"#
        let rounded = #"<scene width="300" height="100"><lineGraph width="300" height="100" values="\#(Self.values(.jagged, count: 2_000, seed: 5))"><bars corner-radius="0.1"/></lineGraph></scene>"#
        let rotated = #"<scene width="300" height="300"><lineGraph width="300" height="100" transform="rotate(30)" values="\#(Self.values(.jagged, count: 2_000, seed: 5))"><bars/></lineGraph></scene>"#
        let covered = Mutex(0)
        PaintingProbe.onRectanglesCovered { covered.withLock { $0 += 1 } }
        defer { PaintingProbe.onRectanglesCovered(nil) }
        for source in [few, rounded, rotated] { _ = try compileScene(source).renderImage() }
        XCTAssertEqual(covered.withLock { $0 }, 0)
    }

    /// Unit level: a rectangle's coverage is its area in each pixel.
    func testCoverageIsTheAreaInEachPixel() {
        let image = RectangleCoverage.alphaForTesting(width: 4, height: 4, rectangles: [(0.5, 0.25, 2.25, 3.5), (3, 0, 3.5, 4)])
        // Columns 0..2 of the first: 0.5, 1, 0.25 wide; rows: 0.75, 1, 1, 0.5 high.
        let widths = [0.5, 1, 0.25, 0.5], heights = [0.75, 1, 1, 0.5]
        for y in 0..<4 {
            for x in 0..<4 {
                let expected = x < 3 ? widths[x] * heights[y] : 0.5
                XCTAssertEqual(Double(image[y * 4 + x]), (expected * 255).rounded(), accuracy: 1, "(\(x), \(y))")
            }
        }
    }
}
