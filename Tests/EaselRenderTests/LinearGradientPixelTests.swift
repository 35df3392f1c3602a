import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The contract's angle rule, evaluated in the test at pixel centres and
/// compared with what Easel rendered. Written out here from the contract's
/// text, not taken from Easel's own GradientMath.
final class LinearGradientPixelTests: XCTestCase {
    /// Offset t of point p for a gradient of `angle` on a w×h box at (bx, by):
    /// end = (cos a, sin a) stretched so its larger component is ±1, start =
    /// −end, mapped by u = (x+1)/2, v = 1 − (y+1)/2, then projected in points.
    func contractOffset(angle: Double, box: (Double, Double, Double, Double), at p: (Double, Double)) -> Double {
        let a = angle * .pi / 180
        let c = cos(a), s = sin(a)
        let m = max(abs(c), abs(s))
        let ex = c / m, ey = s / m
        let (bx, by, w, h) = box
        let start = (bx + (-ex + 1) / 2 * w, by + (1 - (-ey + 1) / 2) * h)
        let end = (bx + (ex + 1) / 2 * w, by + (1 - (ey + 1) / 2) * h)
        let d = (end.0 - start.0, end.1 - start.1)
        let t = ((p.0 - start.0) * d.0 + (p.1 - start.1) * d.1) / (d.0 * d.0 + d.1 * d.1)
        return max(0, min(1, t))
    }

    func checkAngle(_ angle: Double, width: Double, height: Double, scale: Double = 1,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let s = try compileScene("""
        <scene width="\(width + 20)" height="\(height + 20)" scale="\(scale)">
          <defs><linearGradient id="g" angle="\(angle)"><stop color="black"/><stop color="white"/></linearGradient></defs>
          <view x="10" y="10" width="\(width)" height="\(height)" fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        var worst = 0.0
        for py in stride(from: 0, to: Int(height * scale), by: 7) {
            for px in stride(from: 0, to: Int(width * scale), by: 7) {
                let X = Int(10 * scale) + px, Y = Int(10 * scale) + py
                let t = contractOffset(angle: angle, box: (10, 10, width, height),
                                       at: ((Double(X) + 0.5) / scale, (Double(Y) + 0.5) / scale))
                let got = Double(image.pixel(X, Y).r)
                worst = max(worst, abs(got - t * 255))
            }
        }
        // Pixman evaluates gradients at pixel centres in 8-bit precision: 2 levels.
        XCTAssertLessThanOrEqual(worst, 2, "angle \(angle)° on \(width)×\(height): worst difference \(worst)/255",
                                 file: file, line: line)
    }

    func testContractAnglesOnANonSquareBox() throws {
        for angle in [0.0, 30, 45, 90, 135, 270, 200, 315] {
            try checkAngle(angle, width: 240, height: 90)
        }
    }

    func testContractAnglesOnASquareBoxAtScale2() throws {
        for angle in [0.0, 30, 45, 90, 135, 270] {
            try checkAngle(angle, width: 80, height: 80, scale: 2)
        }
    }

    /// 45° runs from the bottom-left corner to the top-right corner of any
    /// box, so in a wide box the colour lines are not parallel to the other
    /// diagonal (CAGradientLayer, not SVG's objectBoundingBox).
    func testFortyFiveDegreesRunsCornerToCornerPerpendicularInPoints() throws {
        let s = try compileScene("""
        <scene width="300" height="100">
          <defs><linearGradient id="g" angle="45"><stop color="black"/><stop color="white"/></linearGradient></defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        XCTAssertLessThanOrEqual(image.pixel(0, 99).r, 2)        // bottom-left: start
        XCTAssertGreaterThanOrEqual(image.pixel(299, 0).r, 253)  // top-right: end
        // The top-left corner is not at 0.5 in a 3:1 box: t = (0,-100)·(300,-100)/(300²+100²) = 0.1.
        XCTAssertEqual(Double(image.pixel(0, 0).r), 0.1 * 255, accuracy: 3)
    }

    func testDirectionsMatchTheirAngles() throws {
        for (direction, angle) in [("up", 90.0), ("up-right", 45), ("right", 0), ("down-right", 315),
                                   ("down", 270), ("down-left", 225), ("left", 180), ("up-left", 135)] {
            func render(_ attr: String) throws -> RasterImage {
                try compileScene("""
                <scene width="60" height="40">
                  <defs><linearGradient id="g" \(attr)><stop color="red"/><stop color="blue"/></linearGradient></defs>
                  <view fill="url(#g)"/>
                </scene>
                """).renderImage()
            }
            let a = try render("direction=\"\(direction)\""), b = try render("angle=\"\(angle)\"")
            XCTAssertEqual(a.rgba, b.rgba, direction)
        }
    }

    func testStartEndPointsAndSpread() throws {
        let s = try compileScene("""
        <scene width="100" height="10">
          <defs>
            <linearGradient id="g" start="0.25 0" end="0.5 0" spread="repeat"><stop color="black"/><stop color="white"/></linearGradient>
          </defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        // Period of 25 points starting at x = 25: x = 60.5 is (60.5-25)/25 = 0.42 into a repeat.
        XCTAssertEqual(Double(image.pixel(60, 5).r), 0.42 * 255, accuracy: 3)
        XCTAssertEqual(Double(image.pixel(10, 5).r), (10.5 + 25 - 25) / 25 * 255, accuracy: 3)   // before the start, repeating backwards
    }

    func testEvenlySpreadThreeStops() throws {
        let s = try compileScene("""
        <scene width="100" height="10">
          <defs><linearGradient id="g" angle="0"><stop color="red"/><stop color="lime"/><stop color="blue"/></linearGradient></defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 50, 5, ExpectedColor(0.01, 0.99, 0), tolerance: 4)   // the middle stop at 50%
        assertPixel(image, 25, 5, ExpectedColor(0.49, 0.51, 0), tolerance: 4)
    }

    /// transparent red → blue: premultiplied, as CSS; Cairo alone would show purple.
    func testTransparentStopInterpolatesPremultiplied() throws {
        let s = try compileScene("""
        <scene width="100" height="10">
          <defs><linearGradient id="g" angle="0"><stop color="rgba(255,0,0,0)"/><stop color="blue"/></linearGradient></defs>
          <view fill="url(#g)"/>
        </scene>
        """)
        let image = try s.renderImage()
        let mid = image.pixel(50, 5)
        XCTAssertLessThanOrEqual(mid.r, 2, "premultiplied interpolation has no red: \(mid)")
        XCTAssertEqual(Double(mid.a), 50.5 / 100 * 255, accuracy: 3)
        XCTAssertGreaterThanOrEqual(mid.b, 250)
    }

    func testStopOpacityAndFillOpacity() throws {
        let s = try compileScene("""
        <scene width="20" height="10" background="white">
          <defs><linearGradient id="g"><stop color="black" opacity="0.5"/></linearGradient></defs>
          <rect width="10" fill="url(#g)"/>
          <rect x="10" width="10" fill="black" fill-opacity="0.25"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 5, 5, ExpectedColor(0.5, 0.5, 0.5), tolerance: 1.5)    // one stop: its colour
        assertPixel(image, 15, 5, ExpectedColor(0.75, 0.75, 0.75), tolerance: 1.5)
    }
}
