import EaselModel
import XCTest

/// CSS easing curves against the curve's own definition, solved here by
/// plain bisection, and the animation clock against the contract's rules.
final class TimingFunctionTests: XCTestCase {
    /// y at x for the cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1), by bisection on s.
    func reference(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if b(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, y1, y2)
    }

    func testNamedCurvesMatchCSSWithin1e6() {
        let curves: [(TimingFunction, [Double])] = [(.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
                                                    (.easeInOut, [0.42, 0, 0.58, 1]), (.cubicBezier(0.1, 0.7, 1, 0.1), [0.1, 0.7, 1, 0.1])]
        for (curve, p) in curves {
            for i in 0...200 {
                let x = Double(i) / 200
                XCTAssertEqual(curve.progress(x), reference(x, p[0], p[1], p[2], p[3]), accuracy: 1e-6, "\(curve) at \(x)")
            }
        }
        XCTAssertEqual(TimingFunction.linear.progress(0.3), 0.3)
        // CSS's well-known value: ease-in at 25% of the time is about 9.3% of the way.
        XCTAssertEqual(TimingFunction.easeIn.progress(0.25), 0.0933, accuracy: 1e-3)
    }

    func testStepsJumpAtTheEndOfEachInterval() {
        let s = TimingFunction.steps(4)
        XCTAssertEqual(s.progress(0), 0)
        XCTAssertEqual(s.progress(0.24), 0)
        XCTAssertEqual(s.progress(0.25), 0.25)
        XCTAssertEqual(s.progress(0.99), 0.75)
        XCTAssertEqual(s.progress(1), 1)
    }

    func testClockPassesRepeatAndHold() {
        // Three keyframes, 2 s each, once: one pass of 4 s.
        let once = AnimationClock(keyframes: 3, duration: 2)
        XCTAssertEqual(once.passDuration, 4)
        XCTAssertEqual(once.position(at: -1), AnimationPosition(from: 0, to: 1, progress: 0), "before 0: the first frame")
        XCTAssertEqual(once.position(at: 1), AnimationPosition(from: 0, to: 1, progress: 0.5))
        XCTAssertEqual(once.position(at: 3), AnimationPosition(from: 1, to: 2, progress: 0.5))
        XCTAssertEqual(once.position(at: 4).from, 2, "the end: the last keyframe")
        XCTAssertEqual(once.position(at: 100).from, 2, "after the pass: held")
        // repeat="2": the pass plays twice, jumping back to the first keyframe, then holds.
        let twice = AnimationClock(keyframes: 3, duration: 2, repeatMode: .times(2))
        XCTAssertEqual(twice.position(at: 5), AnimationPosition(from: 0, to: 1, progress: 0.5))
        XCTAssertEqual(twice.position(at: 4), AnimationPosition(from: 2, to: 2, progress: 0), "the end of the first pass")
        XCTAssertEqual(twice.position(at: 9), AnimationPosition(from: 2, to: 2, progress: 0))
        // repeat="true": the way back from the last to the first is part of the pass.
        let loop = AnimationClock(keyframes: 3, duration: 2, repeatMode: .forever)
        XCTAssertEqual(loop.passDuration, 6)
        XCTAssertEqual(loop.position(at: 5), AnimationPosition(from: 2, to: 0, progress: 0.5))
        XCTAssertEqual(loop.position(at: 601), AnimationPosition(from: 0, to: 1, progress: 0.5))
    }
}
