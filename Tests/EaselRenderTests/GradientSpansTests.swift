import CPixman
@testable import EaselRender
import EaselTestSupport
import XCTest

/// `LinearGradientSpans` and `RadialGradientSpans` against pixman itself: the same gradient drawn by
/// `pixman_image_composite32` onto a dithered `a8r8g8b8` image (what Easel
/// drew before, and what pixman's float path computes) must give the same
/// bytes, for random geometry, stops, repeat modes, transforms, sizes and
/// dither offsets.
final class GradientSpansTests: XCTestCase {
    /// What pixman stores for `gradient` (consumed) composited onto a
    /// dithered a8r8g8b8 image.
    func composited(_ gradient: OpaquePointer, transform: pixman_transform, repeatMode: pixman_repeat_t,
                    width: Int, height: Int, ditherX: Int, ditherY: Int) -> [UInt32] {
        var pixels = [UInt32](repeating: 0xdeadbeef, count: width * height)
        var transform = transform
        defer { pixman_image_unref(gradient) }
        pixman_image_set_transform(gradient, &transform)
        pixman_image_set_repeat(gradient, repeatMode)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let target = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), buffer.baseAddress, Int32(4 * width))!
            defer { pixman_image_unref(target) }
            pixman_image_set_dither(target, PIXMAN_DITHER_ORDERED_BAYER_8)
            pixman_image_set_dither_offset(target, Int32(ditherX), Int32(ditherY))
            pixman_image_composite32(PIXMAN_OP_SRC, gradient, nil, target, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        }
        return pixels
    }

    func pixmanPixels(_ spans: LinearGradientSpans, width: Int, height: Int, ditherX: Int, ditherY: Int) -> [UInt32] {
        var p1 = spans.start, p2 = spans.end
        return composited(pixman_image_create_linear_gradient(&p1, &p2, spans.stops, Int32(spans.stops.count))!, transform: spans.transform,
                          repeatMode: spans.repeatMode, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
    }

    func spansPixels(_ spans: LinearGradientSpans, width: Int, height: Int, ditherX: Int, ditherY: Int) -> [UInt32]? {
        var pixels = [UInt32](repeating: 0xdeadbeef, count: width * height)
        let ok = pixels.withUnsafeMutableBytes {
            spans.write(into: $0.baseAddress!, stride: 4 * width, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
        }
        return ok ? pixels : nil
    }

    func randomCase(_ rng: inout SeededGenerator) -> (LinearGradientSpans, width: Int, height: Int, ditherX: Int, ditherY: Int) {
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        let count = Int.random(in: 1...5, using: &rng)
        var offsets = (0..<count).map { _ in Double.random(in: 0...1, using: &rng) }.sorted()
        if count > 2 && Bool.random(using: &rng) { offsets[1] = offsets[2] }  // a hard stop
        if Bool.random(using: &rng) { offsets[0] = 0; offsets[count - 1] = 1 }
        let stops = offsets.map { offset -> pixman_gradient_stop_t in
            func channel() -> UInt16 { Bool.random(using: &rng) ? UInt16(Int.random(in: 0...255, using: &rng) * 257) : UInt16.random(in: 0...65535, using: &rng) }
            let alpha = Int.random(in: 0...3, using: &rng) == 0 ? channel() : 65535
            return pixman_gradient_stop_t(x: fixed(offset), color: pixman_color_t(red: channel(), green: channel(), blue: channel(), alpha: alpha))
        }
        let modes = [PIXMAN_REPEAT_PAD, PIXMAN_REPEAT_NORMAL, PIXMAN_REPEAT_REFLECT]
        let mode = modes[Int.random(in: 0..<modes.count, using: &rng)]
        // As `DitheredGradient` scales it: the largest linear entry 1.
        var a = Double.random(in: -1...1, using: &rng), b = Double.random(in: -1...1, using: &rng)
        var c = Double.random(in: -1...1, using: &rng), d = Double.random(in: -1...1, using: &rng)
        switch Int.random(in: 0...2, using: &rng) {
        case 0: (b, c) = (0, 0)  // axis-aligned
        case 1: (a, d) = (0, 0)  // a quarter turn
        default: break
        }
        let largest = max(abs(a), abs(b), abs(c), abs(d), 1e-3)
        (a, b, c, d) = (a / largest, b / largest, c / largest, d / largest)
        var ft = pixman_f_transform()
        ft.m = ((a, c, Double.random(in: -200...200, using: &rng)), (b, d, Double.random(in: -200...200, using: &rng)), (0, 0, 1))
        var transform = pixman_transform()
        XCTAssertNotEqual(pixman_transform_from_pixman_f_transform(&transform, &ft), 0)
        let p1 = pixman_point_fixed_t(x: fixed(.random(in: -100...100, using: &rng)), y: fixed(.random(in: -100...100, using: &rng)))
        var p2 = pixman_point_fixed_t(x: fixed(.random(in: -100...100, using: &rng)), y: fixed(.random(in: -100...100, using: &rng)))
        switch Int.random(in: 0...3, using: &rng) {
        case 0: p2.y = p1.y  // horizontal
        case 1: p2.x = p1.x  // vertical
        case 2: p2.x = p1.x + 3; p2.y = p1.y  // short: many repeats
        default: break
        }
        if p1.x == p2.x && p1.y == p2.y { p2.x += 65536 }
        return (LinearGradientSpans(start: p1, end: p2, stops: stops, repeatMode: mode, transform: transform),
                Int.random(in: 1...70, using: &rng), Int.random(in: 1...40, using: &rng),
                Int.random(in: 0...50, using: &rng), Int.random(in: 0...50, using: &rng))
    }

    func testEveryPixelIsTheByteThatPixmanStores() {
        var rng = SeededGenerator(seed: 43)
        var drawn = 0
        for n in 0..<600 {
            let (spans, width, height, ditherX, ditherY) = randomCase(&rng)
            let expected = pixmanPixels(spans, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
            guard let actual = spansPixels(spans, width: width, height: height, ditherX: ditherX, ditherY: ditherY) else {
                XCTFail("case \(n): out of range")
                continue
            }
            drawn += 1
            if let i = expected.indices.first(where: { expected[$0] != actual[$0] }) {
                XCTFail("case \(n) (\(spans.stops.count) stops, repeat \(spans.repeatMode.rawValue), \(width)×\(height)): pixel (\(i % width), \(i / width)) is \(String(actual[i], radix: 16)), pixman stores \(String(expected[i], radix: 16))")
                return
            }
        }
        XCTAssertEqual(drawn, 600)
    }

    /// Every gradient parameter the tiles of a real gradient meet: the same
    /// comparison over a large image (rows copied by the horizontal case).
    func testALargeGradientIsPixmansToo() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            let (spans, _, _, ditherX, ditherY) = randomCase(&rng)
            let expected = pixmanPixels(spans, width: 300, height: 200, ditherX: ditherX, ditherY: ditherY)
            let actual = spansPixels(spans, width: 300, height: 200, ditherX: ditherX, ditherY: ditherY) ?? []
            let differing = expected.indices.filter { $0 >= actual.count || expected[$0] != actual[$0] }.count
            XCTAssertEqual(differing, 0, "pixels of 60,000 that differ from pixman's")
        }
    }
}

extension GradientSpansTests {
    func pixmanPixels(_ spans: RadialGradientSpans, width: Int, height: Int, ditherX: Int, ditherY: Int) -> [UInt32] {
        var focus = spans.focus, center = spans.center
        return composited(pixman_image_create_radial_gradient(&focus, &center, 0, spans.radius, spans.stops, Int32(spans.stops.count))!,
                          transform: spans.transform, repeatMode: spans.repeatMode, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
    }

    func testEveryRadialPixelIsTheByteThatPixmanStores() {
        var rng = SeededGenerator(seed: 45)
        var differing = 0, total = 0, cases = 0
        for n in 0..<400 {
            let (linear, width, height, ditherX, ditherY) = randomCase(&rng)
            func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
            var center = pixman_point_fixed_t(x: fixed(.random(in: -60...60, using: &rng)), y: fixed(.random(in: -60...60, using: &rng)))
            let focus = n % 3 == 0 ? center
                : pixman_point_fixed_t(x: center.x + fixed(.random(in: -20...20, using: &rng)), y: center.y + fixed(.random(in: -20...20, using: &rng)))
            if n % 7 == 0 { center = focus }
            let radius = fixed(.random(in: 0.5...120, using: &rng))
            // The focus on the outer circle: A = 0, the quadratic's linear case.
            if n % 5 == 0 { center = pixman_point_fixed_t(x: focus.x, y: focus.y + radius) }
            let spans = RadialGradientSpans(focus: focus, center: center, radius: radius, stops: linear.stops, repeatMode: linear.repeatMode,
                                            transform: linear.transform)
            let expected = pixmanPixels(spans, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
            var actual = [UInt32](repeating: 0xdeadbeef, count: width * height)
            let ok = actual.withUnsafeMutableBytes {
                spans.write(into: $0.baseAddress!, stride: 4 * width, width: width, height: height, ditherX: ditherX, ditherY: ditherY)
            }
            guard ok else { XCTFail("case \(n): out of range"); continue }
            cases += 1
            total += expected.count
            differing += expected.indices.filter { expected[$0] != actual[$0] }.count
        }
        XCTAssertEqual(cases, 400)
        XCTAssertEqual(differing, 0, "pixels of \(total) that differ from pixman's")
    }
}
