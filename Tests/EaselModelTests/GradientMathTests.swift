import EaselModel
import XCTest

final class GradientMathTests: XCTestCase {
    private func assertEndpoints(_ angle: Double, start: (Double, Double), end: (Double, Double),
                                 file: StaticString = #filePath, line: UInt = #line) {
        let e = GradientMath.unitEndpoints(angle: angle)
        XCTAssertEqual(e.start.x, start.0, accuracy: 1e-4, "start.u at \(angle)°", file: file, line: line)
        XCTAssertEqual(e.start.y, start.1, accuracy: 1e-4, "start.v at \(angle)°", file: file, line: line)
        XCTAssertEqual(e.end.x, end.0, accuracy: 1e-4, "end.u at \(angle)°", file: file, line: line)
        XCTAssertEqual(e.end.y, end.1, accuracy: 1e-4, "end.v at \(angle)°", file: file, line: line)
    }

    /// The contract's worked examples and the named directions.
    func testAngleEndpointsFollowTheContract() {
        assertEndpoints(270, start: (0.5, 0), end: (0.5, 1))          // top to bottom (default)
        assertEndpoints(0, start: (0, 0.5), end: (1, 0.5))            // left to right
        assertEndpoints(90, start: (0.5, 1), end: (0.5, 0))           // bottom to top
        assertEndpoints(45, start: (0, 1), end: (1, 0))               // bottom-left to top-right
        assertEndpoints(30, start: (0, 0.7887), end: (1, 0.2113))     // the contract's 30° example
        assertEndpoints(135, start: (1, 1), end: (0, 0))
        assertEndpoints(180, start: (1, 0.5), end: (0, 0.5))
        assertEndpoints(-90, start: (0.5, 0), end: (0.5, 1))          // same as 270
    }

    func testOmittedOffsetsSpreadEvenly() {
        XCTAssertEqual(GradientMath.resolvedOffsets([nil, nil, nil]), [0, 0.5, 1])
        XCTAssertEqual(GradientMath.resolvedOffsets([nil, nil, nil, nil, nil]), [0, 0.25, 0.5, 0.75, 1])
    }

    func testCSSOffsetRules() {
        // Missing ones between given neighbours spread between them.
        let spread = GradientMath.resolvedOffsets([nil, 0.2, nil, nil, 0.8, nil])
        for (got, want) in zip(spread, [0, 0.2, 0.4, 0.6, 0.8, 1]) { XCTAssertEqual(got, want, accuracy: 1e-12) }
        // An offset smaller than an earlier one is raised to it: a hard edge.
        XCTAssertEqual(GradientMath.resolvedOffsets([0, 0.6, 0.3, 1]), [0, 0.6, 0.6, 1])
        XCTAssertEqual(GradientMath.resolvedOffsets([0.7]), [0.7])
    }
}

final class GeometryTests: XCTestCase {
    func testTransformListComposesLeftToRight() {
        // SVG "translate(10 0) rotate(90)": rotate first, then translate.
        let t = AffineTransform.translation(10, 0).concatenating(.rotation(degrees: 90))
        let p = t.apply(Point(1, 0))
        XCTAssertEqual(p.x, 10, accuracy: 1e-12)
        XCTAssertEqual(p.y, 1, accuracy: 1e-12)   // positive rotate turns clockwise on screen (y down)
    }

    func testRotationAboutAPoint() {
        let t = AffineTransform.rotation(degrees: 180).about(Point(5, 5))
        let p = t.apply(Point(0, 0))
        XCTAssertEqual(p.x, 10, accuracy: 1e-12)
        XCTAssertEqual(p.y, 10, accuracy: 1e-12)
        XCTAssertNotNil(t.inverted)
        let back = t.inverted!.apply(p)
        XCTAssertEqual(back.x, 0, accuracy: 1e-12)
    }

    func testBoundingBoxIsTightNotControlPoints() {
        var p = BezierPath()
        p.move(to: Point(0, 0))
        p.curve(to: Point(100, 0), control1: Point(0, 100), control2: Point(100, 100))
        let box = p.boundingBox!
        XCTAssertEqual(box.minY, 0, accuracy: 1e-9)
        // The curve's highest y is 75 (at t = 0.5), not the control points' 100.
        XCTAssertEqual(box.maxY, 75, accuracy: 1e-9)
        XCTAssertEqual(box.width, 100, accuracy: 1e-9)
    }

    func testOversizedRadiiShrinkTogether() {
        // 100×40 box with radius 30 on every corner: 30+30 > 40 on the sides,
        // so every radius scales by 40/60.
        let r = CornerRadii(all: 30).fitted(to: Size(100, 40))
        XCTAssertEqual(r.topLeft, 20, accuracy: 1e-12)
        XCTAssertEqual(r.bottomRight, 20, accuracy: 1e-12)
        let mixed = CornerRadii(topLeft: 80, topRight: 40, bottomRight: 0, bottomLeft: 0).fitted(to: Size(60, 200))
        XCTAssertEqual(mixed.topLeft, 40, accuracy: 1e-12)
        XCTAssertEqual(mixed.topRight, 20, accuracy: 1e-12)
    }

    func testRoundedRectStartsAfterTopLeftCornerClockwise() {
        let p = BezierPath.roundedRect(Rect(x: 0, y: 0, width: 50, height: 30), radii: CornerRadii(all: 5))
        guard case .move(let start) = p.elements[0], case .line(let next) = p.elements[1] else {
            return XCTFail("expected a move then a line")
        }
        XCTAssertEqual(start, Point(5, 0))
        XCTAssertEqual(next, Point(45, 0))     // along the top edge: clockwise on screen
    }

    func testEllipseStartsAtRightmostPointClockwise() {
        let p = BezierPath.ellipse(in: Rect(x: 0, y: 0, width: 20, height: 10))
        guard case .move(let start) = p.elements[0], case .cubic(_, _, let quarter) = p.elements[1] else {
            return XCTFail("expected a move then a curve")
        }
        XCTAssertEqual(start, Point(20, 5))
        XCTAssertEqual(quarter, Point(10, 10))  // then down: clockwise with y down
    }

    func testNamedColorsAreAll148() {
        XCTAssertEqual(NamedColors.names.count, 148)
        XCTAssertEqual(NamedColors.color(named: "rebeccapurple"), Color(r8: 0x66, g8: 0x33, b8: 0x99))
    }
}
