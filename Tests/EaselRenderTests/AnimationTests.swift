import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `<animatedGradient>` (docs/format.md, "Animation"): frames against the
/// static render of each keyframe, and against colours and geometry the
/// test computes itself.
final class AnimationTests: XCTestCase {
    func scene(_ defs: String, size: (Int, Int) = (200, 20), timing: String = "linear", repeatMode: String = "false",
               duration: Double = 2) -> String {
        """
        <scene width="\(size.0)" height="\(size.1)" background="white">
          <defs><animatedGradient id="a" duration="\(duration)" timing="\(timing)" repeat="\(repeatMode)">\(defs)</animatedGradient></defs>
          <rect width="\(size.0)" height="\(size.1)" fill="url(#a)"/>
        </scene>
        """
    }

    /// The same rect filled with one keyframe as a plain gradient.
    func staticScene(_ keyframe: String, size: (Int, Int) = (200, 20)) -> String {
        // `<linearGradient …` → `<linearGradient id="k" …`
        let nameEnd = keyframe.firstIndex(where: { $0 == " " || $0 == ">" })!
        let named = keyframe[..<nameEnd] + " id=\"k\"" + keyframe[nameEnd...]
        return """
        <scene width="\(size.0)" height="\(size.1)" background="white">
          <defs>\(named)</defs>
          <rect width="\(size.0)" height="\(size.1)" fill="url(#k)"/>
        </scene>
        """
    }

    let keyframes = [
        ##"<linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>"##,
        ##"<radialGradient focus="0.3 0.4"><stop color="white"/><stop color="#ff9f0a" offset="0.4"/><stop color="#1d2b53"/></radialGradient>"##,
        ##"<conicGradient from="30"><stop color="#30d158"/><stop color="#8e44ad"/></conicGradient>"##,
        ##"<linearGradient angle="30" interpolation="oklab"><stop color="blue"/><stop color="blue" offset="0.5"/><stop color="white" offset="0.5"/><stop color="#ff000080"/></linearGradient>"##,
        // Same kind as the one before: keyframe 3 at its time must not be
        // resampled at this one's offsets.
        ##"<linearGradient direction="right" interpolation="linear-srgb"><stop color="#ff9f0a" offset="0.2"/><stop color="transparent" offset="0.7"/></linearGradient>"##,
    ]

    func testEachKeyframeAtItsTimeIsPixelIdenticalToTheStaticGradient() throws {
        let animated = try compileScene(scene(keyframes.joined(), size: (120, 80), duration: 1.5))
        for (k, keyframe) in keyframes.enumerated() {
            let still = try compileScene(staticScene(keyframe, size: (120, 80)))
            for scale in [1.0, 2] {
                XCTAssertEqual(try animated.render(format: .png, scale: scale, time: Double(k) * 1.5),
                               try still.render(format: .png, scale: scale), "keyframe \(k) at \(scale)x")
            }
        }
    }

    // Colours of the two-keyframe scenes below, opaque, so premultiplied and
    // straight interpolation agree: A is red→blue, B green→yellow, left to right.
    let twoKeyframes = ##"<linearGradient direction="right"><stop color="#ff0000"/><stop color="#0000ff"/></linearGradient>"##
        + ##"<linearGradient direction="right"><stop color="#00ff00"/><stop color="#ffff00"/></linearGradient>"##

    func expected(atOffset o: Double, progress p: Double) -> ExpectedColor {
        let a = (1 - o, 0.0, o), b = (o, 1.0, 0.0)
        return ExpectedColor(a.0 + (b.0 - a.0) * p, a.1 + (b.1 - a.1) * p, a.2 + (b.2 - a.2) * p)
    }

    func testLinearTimingHalfwayMixesTheKeyframes() throws {
        let image = try compileScene(scene(twoKeyframes)).renderImage(time: 1)
        for x in stride(from: 5, to: 200, by: 19) {
            assertPixel(image, x, 10, expected(atOffset: (Double(x) + 0.5) / 200, progress: 0.5), tolerance: 2, "x=\(x)")
        }
    }

    func testEaseInAtAQuarterFollowsTheCubicBezier() throws {
        // ease-in is cubic-bezier(0.42, 0, 1, 1); progress at x = 0.25 by bisection.
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<60 { let m = (lo + hi) / 2; if b(m, 0.42, 1) < 0.25 { lo = m } else { hi = m } }
        let p = b(lo, 0, 1)
        XCTAssertEqual(p, 0.0933, accuracy: 1e-3)
        let image = try compileScene(scene(twoKeyframes, timing: "ease-in")).renderImage(time: 0.5)
        for x in stride(from: 5, to: 200, by: 19) {
            assertPixel(image, x, 10, expected(atOffset: (Double(x) + 0.5) / 200, progress: p), tolerance: 2, "x=\(x)")
        }
    }

    func testDifferentStopCountsMeetAtTheUnionOfOffsets() throws {
        let defs = ##"<linearGradient direction="right"><stop color="#ff0000"/><stop color="#0000ff"/></linearGradient>"##
            + ##"<linearGradient direction="right"><stop color="#00ff00"/><stop color="#ffffff" offset="0.3"/><stop color="#000000"/></linearGradient>"##
        let compiled = try compileScene(scene(defs))
        // The ends are the keyframes themselves.
        XCTAssertEqual(try compiled.render(format: .png, time: 2),
                       try compileScene(staticScene(##"<linearGradient direction="right"><stop color="#00ff00"/><stop color="#ffffff" offset="0.3"/><stop color="#000000"/></linearGradient>"##)).render(format: .png))
        // Halfway: both evaluated at {0, 0.3, 1}, mixed pairwise.
        func lerp(_ u: [Double], _ v: [Double], _ t: Double) -> [Double] { zip(u, v).map { $0 + ($1 - $0) * t } }
        let union: [(Double, [Double])] = [
            (0, lerp([1, 0, 0], [0, 1, 0], 0.5)),
            (0.3, lerp(lerp([1, 0, 0], [0, 0, 1], 0.3), [1, 1, 1], 0.5)),
            (1, lerp([0, 0, 1], [0, 0, 0], 0.5)),
        ]
        let image = try compiled.renderImage(time: 1)
        for x in stride(from: 3, to: 200, by: 13) {
            let o = (Double(x) + 0.5) / 200
            let i = o < 0.3 ? 0 : 1
            let c = lerp(union[i].1, union[i + 1].1, (o - union[i].0) / (union[i + 1].0 - union[i].0))
            assertPixel(image, x, 10, ExpectedColor(c[0], c[1], c[2]), tolerance: 2, "x=\(x)")
        }
    }

    func testLinearGeometryInterpolatesStartAndEndPoints() throws {
        // right: (0,50)→(100,50); up: (50,100)→(50,0); halfway (25,75)→(75,25).
        let defs = ##"<linearGradient direction="right"><stop color="black"/><stop color="white"/></linearGradient>"##
            + ##"<linearGradient direction="up"><stop color="black"/><stop color="white"/></linearGradient>"##
        let image = try compileScene(scene(defs, size: (100, 100))).renderImage(time: 1)
        for (x, y) in [(10, 10), (30, 70), (50, 50), (80, 20), (90, 60), (20, 95)] {
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            let t = max(0, min(1, ((px - 25) * 50 + (py - 75) * -50) / (50 * 50 + 50 * 50)))
            assertPixel(image, x, y, ExpectedColor(t, t, t), tolerance: 2, "(\(x), \(y))")
        }
    }

    func testDifferentKindsCrossFade() throws {
        let linear = ##"<linearGradient direction="right"><stop color="#ff0000"/><stop color="#0000ff"/></linearGradient>"##
        let radial = ##"<radialGradient><stop color="#ffff00"/><stop color="#00ffff"/></radialGradient>"##
        let frame = try compileScene(scene(linear + radial, size: (100, 60))).renderImage(time: 0.5)   // p = 0.25
        let a = try compileScene(staticScene(linear, size: (100, 60))).renderImage()
        let b = try compileScene(staticScene(radial, size: (100, 60))).renderImage()
        for (x, y) in [(5, 5), (50, 30), (80, 50), (30, 10)] {
            let pa = a.pixel(x, y), pb = b.pixel(x, y)
            func mix(_ u: UInt8, _ v: UInt8) -> Double { (Double(u) * 0.75 + Double(v) * 0.25) / 255 }
            assertPixel(frame, x, y, ExpectedColor(mix(pa.r, pb.r), mix(pa.g, pb.g), mix(pa.b, pb.b)), tolerance: 2, "(\(x), \(y))")
        }
    }

    func testRepeatLoopsBackHoldsAndStartsHeld() throws {
        let first = try compileScene(staticScene(keyframes[0], size: (60, 40))).render(format: .png)
        let last = try compileScene(staticScene(keyframes[2], size: (60, 40))).render(format: .png)
        let three = keyframes[0...2].joined()
        let loop = try compileScene(scene(three, size: (60, 40), repeatMode: "true", duration: 1))
        XCTAssertEqual(try loop.render(format: .png, time: 3), first, "repeat=true: after 3 keyframes × 1 s, back at the first")
        XCTAssertNotEqual(try loop.render(format: .png, time: 2.5), first, "on the way back from the last to the first")
        let twice = try compileScene(scene(three, size: (60, 40), repeatMode: "2", duration: 1))
        XCTAssertEqual(try twice.render(format: .png, time: 2.5), try twice.render(format: .png, time: 0.5),
                       "the second pass starts again from the first keyframe")
        XCTAssertEqual(try twice.render(format: .png, time: 2), last, "the end of the first pass: the last keyframe")
        XCTAssertEqual(try twice.render(format: .png, time: 99), last, "after two passes: the final frame, held")
        XCTAssertEqual(try twice.render(format: .png, time: -5), first, "before 0: the first frame")
    }

    func testAnimatedPaintFillsTextStrokesAndGraphs() throws {
        let s = try compileScene("""
        <scene width="200" height="100" background="white">
          <defs><animatedGradient id="a" duration="1">
            <linearGradient direction="right"><stop color="red"/><stop color="blue"/></linearGradient>
            <linearGradient direction="left"><stop color="red"/><stop color="blue"/></linearGradient>
          </animatedGradient></defs>
          <text x="5" y="5" font="DejaVu Sans Bold 20" fill="url(#a)">Animated</text>
          <rect x="120" y="5" width="70" height="30" fill="none" stroke="url(#a)" stroke-width="6"/>
          <lineGraph y="40" width="200" height="60" values="1 3 2 4" padding="5"><area fill="url(#a)"/><line stroke="url(#a)"/></lineGraph>
        </scene>
        """)
        XCTAssertNotEqual(try s.render(format: .png, time: 0), try s.render(format: .png, time: 1))
        XCTAssertEqual(s.renderTree.paints.longestPass, 1)
    }

    func testBadAnimationsAreLocated() {
        assertDiagnostics("""
        <scene width="10" height="10"><defs>
          1️⃣<animatedGradient id="one" duration="1"><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="d" duration="2️⃣0"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="n" duration="3️⃣nan"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="t" duration="1" timing="4️⃣ease-inn"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="b" duration="1" timing="5️⃣cubic-bezier(1.5, 0, 1, 1)"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="p" duration="1">6️⃣<pattern width="4" height="4"/><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="r" duration="1" repeat="7️⃣sometimes"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
          <animatedGradient id="s" duration="1" timing="8️⃣steps(0)"><linearGradient><stop color="red"/></linearGradient><linearGradient><stop color="red"/></linearGradient></animatedGradient>
        </defs></scene>
        """, [("1️⃣", "needs two or more keyframe gradients, not 1"), ("2️⃣", "'duration' is 0 but must be greater than 0"),
              ("3️⃣", "'duration'"), ("4️⃣", "did you mean 'ease-in'?"), ("5️⃣", "not a valid cubic-bezier()"),
              ("6️⃣", "<pattern> is not allowed inside <animatedGradient>"), ("7️⃣", "'repeat' must be true, false"),
              ("8️⃣", "not a valid steps()")], count: 8)
    }
}
