import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Conic and radial gradients against their definitions, evaluated here at
/// pixel centres.
final class ConicPixelTests: XCTestCase {
    /// Offset of a point for a conic gradient: 0 at `from` (degrees
    /// anticlockwise from east, y up), growing clockwise on screen.
    func conicOffset(_ p: (Double, Double), center: (Double, Double), from: Double) -> Double {
        let screen = atan2(p.1 - center.1, p.0 - center.0)     // clockwise with y down
        var t = (screen + from * .pi / 180) / (2 * .pi)
        t -= t.rounded(.down)
        return t
    }

    /// Black → white → black around the circle has no seam at `from`, so
    /// every pixel away from the centre can be checked.
    func checkConic(scale: Double, from: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let size = 120.0
        let s = try compileScene("""
        <scene width="\(size)" height="\(size)" scale="\(scale)">
          <defs><conicGradient id="g" from="\(from)"><stop color="black"/><stop color="white"/><stop color="black"/></conicGradient></defs>
          <rect width="\(size)" height="\(size)" fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        var worst = 0.0, worstAt = (0, 0), checked = 0
        let n = Int(size * scale)
        for y in 0..<n {
            for x in 0..<n {
                let p = ((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale)
                let dx = p.0 - 60, dy = p.1 - 60
                func sweep(_ q: (Double, Double)) -> Double {
                    let t = conicOffset(q, center: (60, 60), from: from)
                    return (t <= 0.5 ? 2 * t : 2 - 2 * t) * 255
                }
                // Within a few pixels of the centre a pixel spans a wide
                // angle, and the sweep is averaged over it (16 samples, as
                // at hard stops), not taken at its centre.
                let nearCentre = (dx * dx + dy * dy).squareRoot() * scale < 4
                let want = nearCentre ? supersampled(x, y, scale: scale, sweep) : sweep(p)
                let d = abs(Double(image.pixel(x, y).r) - want)
                if d > worst { worst = d; worstAt = (x, y) }
                checked += 1
            }
        }
        XCTAssertEqual(checked, n * n)
        // 1/255 from the exact sweep, plus the half step of rounding to 8 bits.
        XCTAssertLessThanOrEqual(worst, 1.5, "scale \(scale), from \(from): worst \(worst) at \(worstAt)", file: file, line: line)
    }

    /// The mean of `f` at 4×4 points spread over device pixel (x, y).
    func supersampled(_ x: Int, _ y: Int, scale: Double, _ f: ((Double, Double)) -> Double) -> Double {
        var sum = 0.0
        for sy in 0..<4 {
            for sx in 0..<4 {
                sum += f(((Double(x) + (Double(sx) + 0.5) / 4) / scale, (Double(y) + (Double(sy) + 0.5) / 4) / scale))
            }
        }
        return sum / 16
    }

    func testConicMatchesTheExactSweepAtScales1To3() throws {
        for scale in [1.0, 2, 3] { try checkConic(scale: scale, from: 90) }
        try checkConic(scale: 1, from: 17)
    }

    func testConicCompassPoints() throws {
        // Eight stops spread evenly: N, NE, E, … get colours 0, 1/8, 2/8, …
        let s = try compileScene("""
        <scene width="200" height="200">
          <defs><conicGradient id="g"><stop color="black"/><stop color="white"/></conicGradient></defs>
          <rect width="200" height="200" fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        for k in 1..<8 {
            // Compass direction k·45° clockwise from north, 80 points out.
            let a = Double(k) * 45 * .pi / 180
            let x = 100 + 80 * sin(a), y = 100 - 80 * cos(a)
            XCTAssertEqual(Double(image.pixel(Int(x), Int(y)).r), Double(k) / 8 * 255, accuracy: 3, "direction \(k * 45)°")
        }
    }

    /// Stops spanning a quarter turn: pad holds the ends, repeat starts over,
    /// reflect runs back.
    func testConicSpreadModes() throws {
        for (spread, expected) in [("pad", 1.0), ("repeat", 0.2), ("reflect", 0.8)] {
            let s = try compileScene("""
            <scene width="200" height="200">
              <defs><conicGradient id="g" spread="\(spread)"><stop color="black" offset="0"/><stop color="white" offset="0.25"/></conicGradient></defs>
              <rect width="200" height="200" fill="url(#g)"/>
            </scene>
            """)
            // 0.3 of a turn clockwise from north: 0.05 past the stops' end.
            let a = 0.3 * 2 * Double.pi
            let x = 100 + 80 * sin(a), y = 100 - 80 * cos(a)
            let v = Double(try s.renderImage().pixel(Int(x), Int(y)).r) / 255
            XCTAssertEqual(v, expected, accuracy: 0.03, spread)
        }
    }

    func testUserSpaceConicCentreIsInPoints() throws {
        let s = try compileScene("""
        <scene width="300" height="100">
          <defs><conicGradient id="g" units="userSpace" center="30 50" from="0"><stop color="black"/><stop color="white"/></conicGradient></defs>
          <rect x="100" width="200" height="100" fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        // The centre is (130, 50) in the scene; from = 0 (east), clockwise:
        // straight down from the centre is a quarter turn.
        XCTAssertEqual(Double(image.pixel(130, 90).r) / 255, 0.25, accuracy: 0.02)
        XCTAssertEqual(Double(image.pixel(110, 50).r) / 255, 0.5, accuracy: 0.02)
    }

    func testNoSeamAtFrom() throws {
        // A single-colour conic must be that colour everywhere, seam included.
        let s = try compileScene("""
        <scene width="100" height="100">
          <defs><conicGradient id="g" from="0"><stop color="#336699"/><stop color="#336699"/></conicGradient></defs>
          <rect width="100" height="100" fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        for x in 0..<100 { for y in [49, 50, 51] { assertPixel(image, x, y, ExpectedColor(0.2, 0.4, 0.6), tolerance: 1) } }
    }

    func testConicIsAVectorMeshInPDF() throws {
        let s = try compileScene("""
        <scene width="100" height="100" background="white">
          <defs><conicGradient id="g"><stop color="red"/><stop color="blue"/></conicGradient></defs>
          <circle cx="50" cy="50" r="40" fill="url(#g)"/>
        </scene>
        """)
        let pdf = String(decoding: try s.render(format: .pdf), as: UTF8.self)
        XCTAssertTrue(pdf.contains("/ShadingType 6") || pdf.contains("/ShadingType 7"), "a patch mesh shading")
        XCTAssertFalse(pdf.contains("/Subtype /Image"), "no raster fallback")
        assertSimilar(try s.renderImage(), try ReferenceRenderers.poppler(try s.render(format: .pdf)),
                      tolerance: 8, maxFraction: 0.03, name: "conic-pdf")
    }
}

final class RadialPixelTests: XCTestCase {
    /// Offset of a point for a radial gradient with focus `f` and circle
    /// (`c`, `r`), all in one space: the t for which p lies on the circle of
    /// centre f + t(c − f) and radius t·r (SVG's focal rule), solved here.
    func radialOffset(_ p: (Double, Double), c: (Double, Double), r: Double, f: (Double, Double)) -> Double {
        let dx = p.0 - f.0, dy = p.1 - f.1, cdx = c.0 - f.0, cdy = c.1 - f.1
        // |d − t·cd| = t·r  →  (cd² − r²)t² − 2(d·cd)t + d² = 0
        let a = cdx * cdx + cdy * cdy - r * r, b = -2 * (dx * cdx + dy * cdy), k = dx * dx + dy * dy
        if abs(a) < 1e-12 { return k / -b }
        let disc = b * b - 4 * a * k
        let t1 = (-b - disc.squareRoot()) / (2 * a), t2 = (-b + disc.squareRoot()) / (2 * a)
        return max(t1, t2) >= 0 && a < 0 ? max(t1, t2) : min(t1, t2)
    }

    func render(_ defs: String, width: Int, height: Int) throws -> RasterImage {
        try compileScene("""
        <scene width="\(width)" height="\(height)">
          <defs>\(defs)</defs>
          <rect width="\(width)" height="\(height)" fill="url(#g)"/>
        </scene>
        """).renderImage()
    }

    /// In a 240×120 box, the default radial is an ellipse: offset 1 where
    /// ((x−120)/120)² + ((y−60)/60)² = 1.
    func testEllipticalInAUnitBox() throws {
        let image = try render("<radialGradient id=\"g\"><stop color=\"black\"/><stop color=\"white\"/></radialGradient>",
                               width: 240, height: 120)
        var worst = 0.0
        for y in stride(from: 0, to: 120, by: 3) {
            for x in stride(from: 0, to: 240, by: 3) {
                let u = (Double(x) + 0.5 - 120) / 120, v = (Double(y) + 0.5 - 60) / 60
                let t = min(1, (u * u + v * v).squareRoot())
                worst = max(worst, abs(Double(image.pixel(x, y).r) - t * 255))
            }
        }
        XCTAssertLessThanOrEqual(worst, 2)
        // On the ellipse and beyond: the last stop.
        XCTAssertGreaterThanOrEqual(image.pixel(239, 60).r, 253)
        XCTAssertGreaterThanOrEqual(image.pixel(120, 0).r, 251)
    }

    func testFocusAndSpreadBeyondTheEnds() throws {
        for spread in ["pad", "repeat", "reflect"] {
            let image = try render("""
            <radialGradient id="g" center="0.5 0.5" radius="0.3" focus="0.35 0.4" spread="\(spread)">
              <stop color="black"/><stop color="white"/>
            </radialGradient>
            """, width: 200, height: 200)
            var worst = 0.0, at = (0, 0)
            for y in stride(from: 1, to: 200, by: 4) {
                for x in stride(from: 1, to: 200, by: 4) {
                    let p = ((Double(x) + 0.5) / 200, (Double(y) + 0.5) / 200)
                    var t = radialOffset(p, c: (0.5, 0.5), r: 0.3, f: (0.35, 0.4))
                    switch spread {
                    case "pad": t = min(1, max(0, t))
                    case "repeat": t -= t.rounded(.down)
                    default: t = abs(t - 2 * (t / 2).rounded()); t = min(1, t)
                    }
                    let d = abs(Double(image.pixel(x, y).r) - t * 255)
                    // Where repeat wraps from white to black, a pixel centre
                    // can fall on either side: skip the wrap itself.
                    if spread == "repeat" && (t < 0.02 || t > 0.98) { continue }
                    if d > worst { worst = d; at = (x, y) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 2.5, "\(spread): worst \(worst) at \(at)")
        }
    }

    func testUserSpaceRadialIsACircleInPoints() throws {
        let image = try render("""
        <radialGradient id="g" units="userSpace" center="100 50" radius="40"><stop color="black"/><stop color="white"/></radialGradient>
        """, width: 300, height: 100)
        // 30 points from the centre horizontally and vertically: both t = 0.75.
        XCTAssertEqual(Double(image.pixel(130, 50).r), 0.7625 * 255, accuracy: 3)
        XCTAssertEqual(Double(image.pixel(100, 80).r), 0.7625 * 255, accuracy: 3)
    }

    func testHardEdgeSwitchesWithinOnePixel() throws {
        let s = try compileScene("""
        <scene width="200" height="10">
          <defs><linearGradient id="g" angle="0"><stop color="black"/><stop color="black" offset="0.5"/><stop color="white" offset="0.5"/><stop color="white"/></linearGradient></defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        for x in 0..<99 { XCTAssertLessThanOrEqual(image.pixel(x, 5).r, 1, "x=\(x)") }
        for x in 101..<200 { XCTAssertGreaterThanOrEqual(image.pixel(x, 5).r, 254, "x=\(x)") }
    }

    func testOklabMidpointPixel() throws {
        let s = try compileScene("""
        <scene width="101" height="4">
          <defs><linearGradient id="g" angle="0" interpolation="oklab"><stop color="blue"/><stop color="white"/></linearGradient></defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let mid = try s.renderImage().pixel(50, 2)
        // OKLab of blue (0.4520, −0.0325, −0.3115) and white (1, 0, 0); at
        // t = 50.5/101 the mix (0.7260, −0.01623, −0.15576) is sRGB
        // (0.4530, 0.6381, 1.0) by Ottosson's published matrices (worked out
        // apart from Easel, in Python). sRGB mixing would give (0.5, 0.5, 1).
        XCTAssertEqual(Double(mid.r), 0.4530 * 255, accuracy: 2)
        XCTAssertEqual(Double(mid.g), 0.6381 * 255, accuracy: 2)
        XCTAssertEqual(Double(mid.b), 1.0 * 255, accuracy: 2)
    }
}

/// Radial gradients and spread modes against resvg and rsvg-convert, and
/// Easel's SVG output (conic included) read back by both.
final class SVGRendererAgreementTests: XCTestCase {
    func testRadialAndSpreadMatchResvgAndRsvg() throws {
        for spread in ["pad", "repeat", "reflect"] {
            let easel = try compileScene("""
            <scene width="240" height="120">
              <defs><radialGradient id="g" center="0.5 0.5" radius="0.25" focus="0.4 0.45" spread="\(spread)">
                <stop color="#0b3d91"/><stop color="#fc3d21" offset="0.6"/><stop color="#ffd23f"/></radialGradient></defs>
              <rect width="240" height="120" fill="url(#g)"/>
            </scene>
            """).renderImage()
            // SVG's objectBoundingBox radial stretches with the box too.
            let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="240" height="120">
              <radialGradient id="g" cx="0.5" cy="0.5" r="0.25" fx="0.4" fy="0.45" spreadMethod="\(spread)">
                <stop offset="0" stop-color="#0b3d91"/><stop offset="0.6" stop-color="#fc3d21"/><stop offset="1" stop-color="#ffd23f"/>
              </radialGradient>
              <rect width="240" height="120" fill="url(#g)"/>
            </svg>
            """
            // Both references sample gradients their own way; 4/255 on 99.5%.
            assertSimilar(easel, try ReferenceRenderers.resvg(svg), tolerance: 4, maxFraction: 0.005, name: "resvg-\(spread)")
            assertSimilar(easel, try ReferenceRenderers.rsvg(svg), tolerance: 4, maxFraction: 0.005, name: "rsvg-\(spread)")
        }
    }

    /// Cairo numbers images from a process-wide counter; whatever was drawn
    /// before, the same scene gives the same SVG bytes.
    func testSVGWithImagesIsDeterministicWithinAProcess() throws {
        let source = """
        <scene width="60" height="60">
          <defs><conicGradient id="c"><stop color="red"/><stop color="blue"/></conicGradient></defs>
          <circle cx="30" cy="30" r="25" fill="url(#c)"/>
        </scene>
        """
        let first = try compileScene(source).render(format: .svg)
        _ = try compileScene(source.replacingOccurrences(of: "r=\"25\"", with: "r=\"20\"")).render(format: .svg)
        XCTAssertEqual(first, try compileScene(source).render(format: .svg))
    }

    func testSVGOutputOfEveryKindLooksTheSameInResvgAndRsvg() throws {
        let s = try compileScene("""
        <scene width="300" height="100" background="white">
          <defs>
            <linearGradient id="l" angle="30"><stop color="#ff5f6d"/><stop color="#ffc371"/></linearGradient>
            <radialGradient id="r" spread="reflect" radius="0.3"><stop color="#11998e"/><stop color="#38ef7d"/></radialGradient>
            <conicGradient id="c" from="20"><stop color="red"/><stop color="yellow"/><stop color="blue"/><stop color="red"/></conicGradient>
          </defs>
          <rect x="5" y="5" width="90" height="90" corner-radius="10" fill="url(#l)"/>
          <rect x="105" y="5" width="90" height="90" fill="url(#r)"/>
          <circle cx="250" cy="50" r="45" fill="url(#c)"/>
        </scene>
        """)
        let png = try s.renderImage()
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        assertSimilar(png, try ReferenceRenderers.resvg(svg), tolerance: 24, maxFraction: 0.01, name: "svg-resvg")
        assertSimilar(png, try ReferenceRenderers.rsvg(svg), tolerance: 24, maxFraction: 0.01, name: "svg-rsvg")
    }
}
