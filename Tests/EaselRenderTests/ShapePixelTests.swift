import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Geometry checked at pixels whose expected colour follows from the
/// contract and plain trigonometry, away from anti-aliased edges.
final class ShapePixelTests: XCTestCase {
    let red = ExpectedColor(1, 0, 0)
    let white = ExpectedColor(1, 1, 1)
    let black = ExpectedColor(0, 0, 0)

    func testClippedRoundedViewCorners() throws {
        let s = try compileScene("""
        <scene width="160" height="120" background="white">
          <view x="20" y="20" width="120" height="80" corner-radius="25" clip="true">
            <rect x="-30" y="-30" width="200" height="200" fill="red"/>
          </view>
        </scene>
        """)
        let image = try s.renderImage()
        // Signed distance of a pixel centre from the rounded box's outline.
        func inside(_ x: Double, _ y: Double) -> Double {
            let r = 25.0, x0 = 20.0, y0 = 20.0, x1 = 140.0, y1 = 100.0
            let cx = min(max(x, x0 + r), x1 - r), cy = min(max(y, y0 + r), y1 - r)
            let dx = x - cx, dy = y - cy
            if x >= x0 + r && x <= x1 - r || y >= y0 + r && y <= y1 - r {
                return min(x - x0, x1 - x, y - y0, y1 - y)
            }
            return r - (dx * dx + dy * dy).squareRoot()
        }
        var checked = 0
        for y in 0..<120 {
            for x in 0..<160 {
                let d = inside(Double(x) + 0.5, Double(y) + 0.5)
                if d > 1 { assertPixel(image, x, y, red, tolerance: 1); checked += 1 }
                if d < -1 { assertPixel(image, x, y, white, tolerance: 1); checked += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 18000)
        // The corner pixel of the box itself lies outside the rounded shape.
        assertPixel(image, 21, 21, white, tolerance: 1)
    }

    func testRepeatedRotatedMarkersLandWhereRotationPutsThem() throws {
        let s = try compileScene("""
        <scene width="200" height="200" background="white">
          <repeat count="8" transform="rotate(45 100 100)">
            <rect x="94" y="14" width="12" height="12" fill="black"/>
          </repeat>
        </scene>
        """)
        let image = try s.renderImage()
        for i in 0..<8 {
            for (angle, expected) in [(Double(i) * 45, black), (Double(i) * 45 + 22.5, white)] {
                // The marker's centre (100, 20) turned clockwise on screen about (100, 100).
                let a = angle * .pi / 180
                let x = 100 + (0 * cos(a) - (-80) * sin(a)), y = 100 + (0 * sin(a) + (-80) * cos(a))
                assertPixel(image, Int(x), Int(y), expected, tolerance: 1, "copy \(i) at \(angle)°")
            }
        }
    }

    func testTransformOriginDefaultsToTheFrameTopLeft() throws {
        // The contract's example: rotate(90) about (100,100) puts the rect
        // below and left of that point: x in [90,100], y in [100,140].
        let s = try compileScene("""
        <scene width="200" height="200" background="white">
          <rect x="100" y="100" width="40" height="10" transform="rotate(90)" fill="black"/>
          <rect x="20" y="20" width="40" height="10" transform="rotate(90)" transform-origin="center" fill="red"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 95, 120, black, tolerance: 1)
        assertPixel(image, 95, 138, black, tolerance: 1)
        assertPixel(image, 120, 105, white, tolerance: 1)   // where the unrotated rect would be
        assertPixel(image, 102, 120, white, tolerance: 1)
        // About its centre (40, 25): a 10×40 bar x∈[35,45], y∈[5,45].
        assertPixel(image, 40, 8, red, tolerance: 1)
        assertPixel(image, 40, 42, red, tolerance: 1)
        assertPixel(image, 25, 25, white, tolerance: 1)
    }

    func testGroupOpacityAppliesToTheGroupAsAWhole() throws {
        let s = try compileScene("""
        <scene width="100" height="50" background="white">
          <group opacity="0.5">
            <rect x="0" y="0" width="60" height="50" fill="red"/>
            <rect x="40" y="0" width="60" height="50" fill="red"/>
          </group>
        </scene>
        """)
        let image = try s.renderImage()
        // Overlap and single coverage look the same: (1 - 0.5) white + 0.5 red.
        for x in [20, 50, 80] { assertPixel(image, x, 25, ExpectedColor(1, 0.5, 0.5), tolerance: 1.5, "x=\(x)") }
    }

    func testViewStrokeLiesInsideTheBoxShapeStrokeIsCentred() throws {
        let s = try compileScene("""
        <scene width="200" height="100" background="white">
          <view x="10" y="10" width="60" height="60" stroke="black" stroke-width="10"/>
          <rect x="110" y="10" width="60" height="60" fill="none" stroke="black" stroke-width="10"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 8, 40, white, tolerance: 1)    // view: nothing outside its box
        assertPixel(image, 11, 40, black, tolerance: 1)
        assertPixel(image, 18, 40, black, tolerance: 1)
        assertPixel(image, 21, 40, white, tolerance: 1)   // 10 points in, the stroke ends
        assertPixel(image, 106, 40, black, tolerance: 1)  // rect: stroke centred on x = 110
        assertPixel(image, 113, 40, black, tolerance: 1)
        assertPixel(image, 116, 40, white, tolerance: 1)
    }

    func testDashesStartWhereSVG2SaysOutlinesStart() throws {
        let s = try compileScene("""
        <scene width="300" height="200" background="white">
          <rect x="10" y="10" width="100" height="50" corner-radius="10" fill="none" stroke="black" stroke-width="4" dash="20 1000"/>
          <circle cx="200" cy="100" r="50" fill="none" stroke="black" stroke-width="4" dash="15 1000"/>
        </scene>
        """)
        let image = try s.renderImage()
        // rect: the first dash covers the top edge from x = 20 to 40.
        assertPixel(image, 30, 10, black, tolerance: 1)
        assertPixel(image, 16, 10, white, tolerance: 1)
        assertPixel(image, 45, 10, white, tolerance: 1)
        // circle: from the rightmost point, clockwise on screen (downwards).
        assertPixel(image, 250, 106, black, tolerance: 2)
        assertPixel(image, 250, 94, white, tolerance: 1)
    }

    func testZeroLengthSubpathWithRoundCapPaintsADot() throws {
        let s = try compileScene("""
        <scene width="40" height="40" background="white">
          <path d="M 20 20 Z" stroke="black" stroke-width="10" line-cap="round"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 20, 20, black, tolerance: 1)
        assertPixel(image, 17, 22, black, tolerance: 1)
        assertPixel(image, 20, 30, white, tolerance: 1)
    }

    func testClipPathIsTheUnionOfItsShapesEachWithItsRule() throws {
        let s = try compileScene("""
        <scene width="200" height="100" background="white">
          <defs>
            <clipPath id="two">
              <circle cx="30" cy="50" r="20"/>
              <rect x="60" y="30" width="40" height="40"/>
              <path d="M 120 10 h 80 v 80 h -80 z M 140 30 h 40 v 40 h -40 z" clip-rule="evenodd"/>
            </clipPath>
          </defs>
          <rect width="200" height="100" fill="red" clip-path="url(#two)"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 30, 50, red, tolerance: 1)
        assertPixel(image, 80, 50, red, tolerance: 1)
        assertPixel(image, 55, 50, white, tolerance: 1)   // between the shapes
        assertPixel(image, 125, 50, red, tolerance: 1)    // the ring
        assertPixel(image, 160, 50, white, tolerance: 1)  // the evenodd hole
    }

    func testNestedClipsIntersect() throws {
        let s = try compileScene("""
        <scene width="100" height="100" background="white">
          <defs>
            <clipPath id="left"><rect width="60" height="100"/></clipPath>
            <clipPath id="top"><rect width="100" height="60"/></clipPath>
          </defs>
          <group clip-path="url(#left)">
            <rect width="100" height="100" fill="red" clip-path="url(#top)"/>
          </group>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 30, 30, red, tolerance: 1)
        assertPixel(image, 80, 30, white, tolerance: 1)
        assertPixel(image, 30, 80, white, tolerance: 1)
    }

    func testClipPathShapesResolveAgainstTheReferringBox() throws {
        let s = try compileScene("""
        <scene width="200" height="100" background="white">
          <defs><clipPath id="half"><rect width="50%" height="100%"/></clipPath></defs>
          <view x="100" y="0" width="100" height="100" fill="red" clip-path="url(#half)"/>
        </scene>
        """)
        let image = try s.renderImage()
        assertPixel(image, 125, 50, red, tolerance: 1)    // the clip is in the view's own space
        assertPixel(image, 175, 50, white, tolerance: 1)
        assertPixel(image, 25, 50, white, tolerance: 1)
    }

    func testImageFitModes() throws {
        let dir = ExternalTool.temporaryDirectory()
        let quad = try compileScene("""
        <scene width="2" height="2">
          <rect width="1" height="1" fill="red"/><rect x="1" width="1" height="1" fill="lime"/>
          <rect y="1" width="1" height="1" fill="blue"/><rect x="1" y="1" width="1" height="1" fill="black"/>
        </scene>
        """).render(format: .png)
        try Data(quad).write(to: dir.appendingPathComponent("quad.png"))
        let s = try compileScene("""
        <scene width="400" height="100" background="white">
          <image href="quad.png" width="100" height="100"/>
          <image href="quad.png" x="100" width="200" height="100" fit="contain"/>
          <image href="quad.png" x="300" width="100" height="50" fit="cover"/>
        </scene>
        """, baseDirectory: dir)
        let image = try s.renderImage()
        // Sample at the centres of the image's pixels (bilinear filtering
        // blends between them): image pixel (i, j) is at ((i+0.5)·w/2, (j+0.5)·h/2).
        assertPixel(image, 25, 25, red, tolerance: 6)
        assertPixel(image, 75, 75, black, tolerance: 6)
        assertPixel(image, 2, 2, red, tolerance: 6)               // padded: no fade at the edge
        assertPixel(image, 120, 50, white, tolerance: 1)          // contain: letterboxed 100×100 at x 150…250
        assertPixel(image, 175, 25, red, tolerance: 6)
        assertPixel(image, 225, 75, black, tolerance: 6)
        // cover: 100×100 centred on the 100×50 frame, so y runs from -25 to 75.
        assertPixel(image, 325, 0, red, tolerance: 8)
        assertPixel(image, 375, 49, black, tolerance: 8)
        assertPixel(image, 350, 80, white, tolerance: 1)          // below the 50-high frame
    }

    func testScaleMultipliesPixels() throws {
        let s = try compileScene("""
        <scene width="50" height="20" scale="3"><rect x="10" width="10" height="10" fill="red"/></scene>
        """)
        let image = try s.renderImage()
        XCTAssertEqual(image.width, 150)
        XCTAssertEqual(image.height, 60)
        assertPixel(image, 31, 1, red, tolerance: 1)
        XCTAssertEqual(image.pixel(29, 1).a, 0)
    }

    func testHiddenNodesDoNotPaint() throws {
        let s = try compileScene("<scene width=\"10\" height=\"10\"><rect fill=\"red\" hidden=\"true\"/></scene>")
        XCTAssertEqual(try s.renderImage().pixel(5, 5).a, 0)
    }
}

final class DegenerateInputTests: XCTestCase {
    /// scale(0) collapses a node: it paints nothing, and the rest still renders.
    func testCollapsedTransformsPaintNothingElseStillRenders() throws {
        let s = try compileScene("""
        <scene width="40" height="20">
          <defs><linearGradient id="g" transform="scale(0)"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <rect width="10" height="10" fill="red" transform="scale(0)"/>
          <repeat count="3" transform="scale(0)"><rect x="10" width="10" height="10" fill="lime"/></repeat>
          <rect x="20" width="10" height="10" fill="url(#g)"/>
          <rect x="30" width="10" height="10" fill="blue"/>
        </scene>
        """)
        let image = try s.renderImage()
        XCTAssertEqual(image.pixel(5, 5).a, 0)
        assertPixel(image, 15, 5, ExpectedColor(0, 1, 0), tolerance: 1)   // copy 0 is untransformed
        XCTAssertEqual(image.pixel(25, 5).a, 0)
        assertPixel(image, 35, 5, ExpectedColor(0, 0, 1), tolerance: 1)
        for format in OutputFormat.allCases { XCTAssertFalse(try s.render(format: format).isEmpty) }
    }

    func testEmptyAndDegenerateGeometry() throws {
        let s = try compileScene("""
        <scene width="20" height="20">
          <defs><linearGradient id="g" angle="45"><stop color="red"/><stop color="blue"/></linearGradient></defs>
          <path d=""/><polyline points=""/><circle r="0"/><line stroke="url(#g)"/>
          <rect width="0" height="0" fill="url(#g)"/><view width="0" fill="url(#g)" stroke="black"/>
          <repeat count="0"><rect fill="red"/></repeat>
        </scene>
        """)
        let image = try s.renderImage()
        XCTAssertTrue(stride(from: 3, to: image.rgba.count, by: 4).allSatisfy { image.rgba[$0] == 0 })
    }
}
