import Easel
import EaselTestSupport
import Foundation
import XCTest

final class StripesTests: XCTestCase {
    /// Along the centre line of every stripe, every pixel is the stripe's
    /// colour, and half-way between two lines it is the background: at
    /// scale 1, 2 and 3 and at angles 0, 30, 45, 60 and 90.
    func testCentreLinesAreContinuousAtEveryAngleAndScale() throws {
        for scale in [1.0, 2, 3] {
            for angle in [0.0, 30, 45, 60, 90] {
                let s = try compileScene("""
                <scene width="200" height="150" scale="\(scale)" background="white">
                  <defs><stripes id="s" spacing="12" line-width="3" angle="\(angle)" color="black" background="white"/></defs>
                  <rect x="10" y="10" width="180" height="130" fill="url(#s)"/>
                </scene>
                """)
                let image = try s.renderImage()
                let a = angle * .pi / 180
                let d = (cos(a), -sin(a)), n = (sin(a), cos(a))   // along, and across (y down)
                var onLine = 0, between = 0
                for k in -40...40 {
                    for step in stride(from: -300.0, through: 300, by: 0.5) {
                        for (offset, expected) in [(0.0, 0.0), (6.0, 1.0)] {
                            // Lines pass through the box's top-left (10, 10).
                            let c = Double(k) * 12 + offset
                            let x = 10 + n.0 * c + d.0 * step, y = 10 + n.1 * c + d.1 * step
                            guard x > 12, x < 188, y > 12, y < 138 else { continue }
                            let px = Int(x * scale), py = Int(y * scale)
                            let got = Double(image.pixel(px, py).r) / 255
                            if abs(got - expected) > 1.0 / 255 {
                                return XCTFail("scale \(scale), angle \(angle): pixel (\(px), \(py)) on \(offset == 0 ? "a line" : "the gap") is \(image.pixel(px, py))")
                            }
                            if offset == 0 { onLine += 1 } else { between += 1 }
                        }
                    }
                }
                XCTAssertGreaterThan(onLine, 3000, "scale \(scale) angle \(angle)")
                XCTAssertGreaterThan(between, 3000)
            }
        }
    }

    func testStripesStayVectorsInPDFAndSVG() throws {
        let s = try compileScene("""
        <scene width="100" height="100">
          <defs><stripes id="s" spacing="8" line-width="2"/></defs>
          <circle cx="50" cy="50" r="40" fill="url(#s)" stroke="url(#s)" stroke-width="6"/>
        </scene>
        """)
        XCTAssertFalse(String(decoding: try s.render(format: .pdf), as: UTF8.self).contains("/Subtype /Image"))
        XCTAssertFalse(String(decoding: try s.render(format: .svg), as: UTF8.self).contains("<image"))
    }
}

final class PatternTests: XCTestCase {
    /// A 10-point tile whose left half is black, on a box starting at x = 3:
    /// columns are black exactly where ((x − 3) mod 10) < 5, and every pixel
    /// is pure black or pure white — no blur from upscaling, no seams.
    func testTilesAreSharpAndSeamlessAtEveryScale() throws {
        for scale in [1.0, 2, 3] {
            let s = try compileScene("""
            <scene width="110" height="30" scale="\(scale)" background="white">
              <defs><pattern id="p" width="10" height="10"><rect width="5" height="10" fill="black"/></pattern></defs>
              <rect x="3" y="0" width="100" height="30" fill="url(#p)"/>
            </scene>
            """)
            let image = try s.renderImage()
            for py in stride(from: 0, to: Int(30 * scale), by: 1) {
                for px in Int(3 * scale)..<Int(103 * scale) {
                    let x = (Double(px) + 0.5) / scale - 3
                    let black = (x - 10 * (x / 10).rounded(.down)) < 5
                    let v = image.pixel(px, py).r
                    if v != (black ? 0 : 255) {
                        return XCTFail("scale \(scale): pixel (\(px), \(py)) is \(v), expected \(black ? 0 : 255)")
                    }
                }
            }
        }
    }

    func testTileGridFollowsTheBoxAndBoundingBoxUnits() throws {
        let s = try compileScene("""
        <scene width="200" height="100" background="white">
          <defs><pattern id="half" width="0.5" height="1" units="objectBoundingBox"><rect width="50%" height="100%" fill="red"/></pattern></defs>
          <rect x="20" y="0" width="160" height="100" fill="url(#half)"/>
        </scene>
        """)
        let image = try s.renderImage()
        // Tile = 80×100 points from x = 20; its left 40 are red.
        assertPixel(image, 30, 50, ExpectedColor(1, 0, 0), tolerance: 1)
        assertPixel(image, 80, 50, ExpectedColor(1, 1, 1), tolerance: 1)
        assertPixel(image, 110, 50, ExpectedColor(1, 0, 0), tolerance: 1)
        assertPixel(image, 170, 50, ExpectedColor(1, 1, 1), tolerance: 1)
    }

    func testPatternIsAVectorTilingPatternInPDFAndMatchesRsvgFromSVG() throws {
        let s = try compileScene("""
        <scene width="120" height="120" background="white">
          <defs>
            <linearGradient id="g" angle="0"><stop color="navy"/><stop color="orange"/></linearGradient>
            <pattern id="p" width="20" height="20"><circle cx="10" cy="10" r="6" fill="url(#g)"/></pattern>
          </defs>
          <ellipse x="5" y="5" width="110" height="110" fill="url(#p)"/>
        </scene>
        """)
        let pdf = try s.render(format: .pdf)
        let text = String(decoding: pdf, as: UTF8.self)
        XCTAssertTrue(text.contains("/PatternType 1"), "a PDF tiling pattern")
        XCTAssertFalse(text.contains("/Subtype /Image"))
        let png = try s.renderImage()
        assertSimilar(png, try ReferenceRenderers.poppler(pdf), tolerance: 24, maxFraction: 0.03, name: "pattern-pdf")
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        assertSimilar(png, try ReferenceRenderers.rsvg(svg), tolerance: 24, maxFraction: 0.01, name: "pattern-svg")
    }

    func testPatternOpacity() throws {
        let s = try compileScene("""
        <scene width="20" height="20" background="white">
          <defs><pattern id="p" width="4" height="4"><rect width="4" height="4" fill="black"/></pattern></defs>
          <rect width="20" height="20" fill="url(#p)" fill-opacity="0.5"/>
        </scene>
        """)
        assertPixel(try s.renderImage(), 10, 10, ExpectedColor(0.5, 0.5, 0.5), tolerance: 1.5)
    }
}
