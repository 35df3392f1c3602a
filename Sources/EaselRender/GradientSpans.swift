import CGradientSpans
import CPixman

/// A linear gradient written into 8-bit premultiplied ARGB pixels with the
/// ordered dither, computing exactly what pixman's float path stores
/// (`pixman_image_composite32` of a linear gradient onto a dithered
/// `a8r8g8b8` image), in one pass over the row (docs/benchmarks.md has
/// the figures).
///
/// pixman evaluates each pixel through a chain of generic stages — a
/// per-scanline iterator, a float combiner, a dithering pass over a float
/// buffer, a contraction to 8 bits — each a loop over the row with its
/// own buffer.
/// Here every pixel goes through the same arithmetic in one pass, in the
/// same types and order, so the bytes are pixman's: the gradient parameter
/// as a 16.16 fixed-point number from pixman's double-precision formula
/// (per row, here), the colour from the stop interval in single precision,
/// the dither `f + (d − f) / 256` and the truncation to 8 bits (per pixel,
/// in C: `easel_gradient_row`, the four channels in one SSE2 register; C
/// compiled without contracting `a·b + c`, as Debian's x86-64 pixman is —
/// on a target whose pixman fuses them, the last bit could differ).
/// `GradientSpansTests` holds this to pixman's own output on hundreds of
/// random gradients.
///
/// Only affine transforms reach here (Easel's gradients are never
/// projective); `write` is false when a value leaves the range where
/// pixman's integer conversions are defined, and the caller asks pixman.
struct LinearGradientSpans {
    let start: pixman_point_fixed_t, end: pixman_point_fixed_t
    let stops: [pixman_gradient_stop_t]
    let repeatMode: pixman_repeat_t
    let transform: pixman_transform

    /// Writes `width` × `height` pixels into `pixels` (rows `stride` bytes
    /// apart); pixel (i, j) is dithered as device pixel (ditherX + i,
    /// ditherY + j). False, with nothing promised about the pixels, when
    /// the geometry is out of range.
    func write(into pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int, ditherX: Int, ditherY: Int) -> Bool {
        let dx = Int64(end.x) - Int64(start.x), dy = Int64(end.y) - Int64(start.y)
        let lengthSquared = dx &* dx &+ dy &* dy
        let m = transform.matrix
        guard !stops.isEmpty, lengthSquared != 0, m.2.0 == 0, m.2.1 == 0, m.2.2 != 0, width > 0, height > 0 else { return false }
        // pixman's test for a gradient that does not change down the image:
        // then every row takes the first row's parameters.
        let down = Double(height) * 65536.0 * 65536.0 * Double(dx &* Int64(m.0.1) &+ dy &* Int64(m.1.1))
            / (Double(m.2.2) * Double(lengthSquared))
        let sameForEveryRow = -1 < down && down < 1
        let across = dx &* Int64(m.0.0) &+ dy &* Int64(m.1.0)
        let origin = dx &* Int64(start.x) &+ dy &* Int64(start.y)
        var transform = transform
        let cStops = OrderedDither.cStops(stops)
        let limit = Double(Int64.max / 4)
        for j in 0..<height {
            let row = pixels.advanced(by: j * stride).assumingMemoryBound(to: UInt32.self)
            if sameForEveryRow && j >= 8 {
                // Same parameters, same dither row: the row eight above.
                row.update(from: pixels.advanced(by: (j - 8) * stride).assumingMemoryBound(to: UInt32.self), count: width)
                continue
            }
            var v = pixman_vector(vector: (0x8000, pixman_fixed_t(sameForEveryRow ? 0 : j) << 16 | 0x8000, 0x10000))
            guard pixman_transform_point_3d(&transform, &v) != 0, v.vector.2 != 0 else { return false }
            let invden = 65536.0 * 65536.0 / (Double(lengthSquared) * Double(v.vector.2))
            let v2 = Double(v.vector.2) * (1.0 / 65536)
            let t = (Double(dx &* Int64(v.vector.0) &+ dy &* Int64(v.vector.1)) - Double(origin) * v2) * invden
            let inc = Double(across) * invden
            guard abs(t) < limit, abs(inc * Double(width)) < limit else { return false }
            let thresholds = OrderedDither.row(ditherY + j, startingAt: ditherX)
            // pixman starts each row with a new walker, as this does.
            easel_gradient_row(row, Int32(width), Int64(t), inc, Int64(inc * Double(width)) == 0 ? 1 : 0, thresholds,
                               cStops, Int32(cStops.count), Int32(repeatMode.rawValue))
        }
        return true
    }
}

/// A radial gradient from a circle of radius 0 at `focus` to one of
/// `radius` at `center` (Easel's radial gradients; all 16.16), written as
/// pixman's float path stores it onto a dithered `a8r8g8b8` image: per
/// row, the first pixel's centre in gradient space from pixman's own
/// transform; per pixel, pixman's exact 64-bit quadratic terms, its
/// double-precision root and the same float walker and dither as linear
/// gradients (`easel_radial_row`). `GradientSpansTests` holds the bytes
/// to pixman's.
struct RadialGradientSpans {
    let focus: pixman_point_fixed_t, center: pixman_point_fixed_t
    let radius: pixman_fixed_t
    let stops: [pixman_gradient_stop_t]
    let repeatMode: pixman_repeat_t
    let transform: pixman_transform

    /// As `LinearGradientSpans.write`.
    func write(into pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int, ditherX: Int, ditherY: Int) -> Bool {
        let m = transform.matrix
        guard !stops.isEmpty, m.2.0 == 0, m.2.1 == 0, m.2.2 == 0x10000, width > 0, height > 0 else { return false }
        var transform = transform
        let cStops = OrderedDither.cStops(stops)
        for j in 0..<height {
            let row = pixels.advanced(by: j * stride).assumingMemoryBound(to: UInt32.self)
            var v = pixman_vector(vector: (0x8000, pixman_fixed_t(j) << 16 | 0x8000, 0x10000))
            guard pixman_transform_point_3d(&transform, &v) != 0, v.vector.2 == 0x10000 else { return false }
            let thresholds = OrderedDither.row(ditherY + j, startingAt: ditherX)
            guard easel_radial_row(row, Int32(width), Int64(v.vector.0), Int64(v.vector.1), Int64(m.0.0), Int64(m.1.0),
                                   Int64(focus.x), Int64(focus.y), Int64(center.x), Int64(center.y), Int64(radius), thresholds,
                                   cStops, Int32(cStops.count), Int32(repeatMode.rawValue)) != 0 else { return false }
        }
        return true
    }
}

/// pixman's 8×8 ordered dither, and the stops as the C span writers take them.
enum OrderedDither {
    /// The threshold pixman adds at device pixel (x, y), in (0, 1):
    /// reverse(interleave(x xor y, x)) of the low three bits, over 64, plus
    /// half a step.
    static func threshold(_ x: Int, _ y: Int) -> Float {
        let yx = y ^ x
        let m = ((yx & 1) << 5) | ((x & 1) << 4) | ((yx & 2) << 2) | ((x & 2) << 1) | ((yx & 4) >> 1) | ((x & 4) >> 2)
        return Float(m) * (1 / 64 as Float) + (1 / 128 as Float)
    }

    /// The thresholds of the eight device pixels (x, y), (x + 1, y), …
    /// whose index is their column modulo 8 from `x`.
    static func row(_ y: Int, startingAt x: Int) -> [Float] { (0..<8).map { threshold(x + $0, y) } }

    static func cStops(_ stops: [pixman_gradient_stop_t]) -> [easel_gradient_stop] {
        stops.map { easel_gradient_stop(x: $0.x, red: $0.color.red, green: $0.color.green, blue: $0.color.blue, alpha: $0.color.alpha) }
    }
}
