import CCairo
import CPixman
import EaselLayout
import EaselModel
import Glibc

/// Linear and radial gradients for PNG output, dithered.
///
/// Cairo 1.16 draws gradients with pixman and rounds each pixel to 8 bits,
/// so a slow gradient shows flat bands. pixman (0.40 and later) can dither
/// while it stores a gradient: it evaluates the gradient in floating point,
/// adds an ordered threshold and truncates, which is `floor(255·v + d)`
/// with `d` in (0, 1) — at most half a step either way from rounding, and a
/// value that is exactly an 8-bit level stays that level. So the gradient
/// is drawn with pixman's float path and dither, with the same geometry
/// Cairo hands pixman, into an image on the target's pixel grid; Cairo then
/// fills, strokes or shows glyphs with that image as the source, sampling
/// it pixel for pixel. The pixels are written by Easel's own spans
/// (`LinearGradientSpans`, `RadialGradientSpans`: pixman's arithmetic in
/// one pass, a fifth of its instructions, the same bytes on x86-64), and
/// by pixman itself when a value is out of their range. The pattern is
/// pixman's 8×8 Bayer matrix: blue noise (64×64) gave larger files and a
/// larger block error on the same renders (docs/benchmarks.md).
enum DitheredGradient {
    /// A pattern for `g` over `visible` (device pixels, the area painted and
    /// not clipped away); nil when Cairo's own undithered gradient serves:
    /// a degenerate gradient, or one whose geometry is past pixman's 16.16
    /// fixed-point range.
    static func linear(_ g: LinearShading, visible: PixelBox, userToPixel: AffineTransform, opacity: Double) -> OpaquePointer? {
        draw(stops: g.rasterStops ?? g.stops, spread: g.spread, opacity: opacity, matrix: g.matrix, visible: visible, userToPixel: userToPixel,
             direction: Point(g.end.x - g.start.x, g.end.y - g.start.y)) { scale in
            var p1 = pixman_point_fixed_t(), p2 = pixman_point_fixed_t()
            guard fixed(g.start, scale, &p1), fixed(g.end, scale, &p2), p1.x != p2.x || p1.y != p2.y else { return nil }
            return .linear(p1, p2)
        }
    }

    static func radial(_ g: RadialShading, visible: PixelBox, userToPixel: AffineTransform, opacity: Double) -> OpaquePointer? {
        draw(stops: g.rasterStops ?? g.stops, spread: g.spread, opacity: opacity, matrix: g.matrix, visible: visible, userToPixel: userToPixel) { scale in
            var focus = pixman_point_fixed_t(), center = pixman_point_fixed_t()
            let r = g.radius * scale
            guard fixed(g.focus, scale, &focus), fixed(g.center, scale, &center), r > 1e-3, r < 32000 else { return nil }
            return .radial(focus: focus, center: center, radius: fixedPoint(r))
        }
    }

    /// A gradient's geometry in pixman's fixed point, scaled.
    private enum Geometry {
        case linear(pixman_point_fixed_t, pixman_point_fixed_t)
        case radial(focus: pixman_point_fixed_t, center: pixman_point_fixed_t, radius: pixman_fixed_t)
    }

    /// The premultiplied 8-bit pixel Cairo paints for a solid colour (its
    /// 16-bit premultiplied colour, truncated), as straight colour again: a
    /// stop that borders a flat stretch gets it, so the stretch is exactly
    /// what a solid fill of that colour gives and dithering leaves it alone
    /// (with `fill-opacity`, say, a colour can fall between levels).
    static func level(_ c: Color) -> Color {
        func byte(_ v: Double) -> Double { Double(UInt32((max(0, min(1, v)) * 65535).rounded()) >> 8) }
        let a = byte(c.alpha)
        // Transparent keeps its colour: the stop beside it interpolates towards it.
        guard a > 0 else { return Color(red: c.red, green: c.green, blue: c.blue, alpha: 0) }
        func channel(_ v: Double) -> Double { min(1, byte(v * c.alpha) / a) }
        return Color(red: channel(c.red), green: channel(c.green), blue: channel(c.blue), alpha: a / 255)
    }

    /// `c` at `opacity` set to its `level`, as a colour to draw at `opacity`.
    static func exactLevel(_ c: Color, opacity: Double) -> Color {
        guard opacity > 0 else { return c }
        let l = level(Color(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha * opacity))
        return Color(red: l.red, green: l.green, blue: l.blue, alpha: min(1, l.alpha / opacity))
    }

    /// Whether every colour is one 8-bit level at `opacity`: then the
    /// gradient is that level's flat colour.
    static func isOneLevel(_ colors: [Color], opacity: Double) -> Bool {
        let levels = colors.map { level(Color(red: $0.red, green: $0.green, blue: $0.blue, alpha: $0.alpha * opacity)) }
        return levels.allSatisfy { $0 == levels[0] }
    }

    /// The stops as pixman takes them, with opacity; those at a padded end
    /// or beside an equal neighbour set to 8-bit levels, and all of them to
    /// one level when every stop has it (the gradient is then flat).
    static func pixmanStops(_ stops: [ShadingStop], spread: SpreadMethod, opacity: Double) -> [pixman_gradient_stop_t] {
        let colors = stops.map { Color(red: $0.color.red, green: $0.color.green, blue: $0.color.blue, alpha: $0.color.alpha * opacity) }
        let levels = colors.map(level)
        let flat = isOneLevel(colors, opacity: 1)
        return stops.indices.map { i in
            let flatBeside = (i > 0 && colors[i - 1] == colors[i]) || (i + 1 < colors.count && colors[i + 1] == colors[i])
            let paddedEnd = spread == .pad && (i == 0 || i == stops.count - 1)
            let c = flat ? levels[0] : flatBeside || paddedEnd ? levels[i] : colors[i]
            func short(_ v: Double) -> UInt16 { UInt16(max(0, min(65535, (v * 65535).rounded()))) }
            return pixman_gradient_stop_t(x: fixedPoint(max(0, min(1, stops[i].offset))),
                                          color: pixman_color_t(red: short(c.red), green: short(c.green), blue: short(c.blue), alpha: short(c.alpha)))
        }
    }

    /// Draws the gradient `geometry` gives into an image over `visible` and
    /// returns it as a Cairo pattern in user space.
    ///
    /// Pixel (i, j) of the image is sampled at its centre, mapped by the
    /// gradient's transform, as pixman samples it. That transform takes
    /// image pixels to gradient space scaled by `scale`, a factor that keeps
    /// the matrix's entries near 1: they are 16.16 fixed-point numbers, and
    /// a tiny entry (a gradient in unit-box space over hundreds of pixels)
    /// would lose most of its digits. `geometry` receives the scale to apply.
    ///
    /// A linear gradient along `direction` (gradient space) whose colour is
    /// constant down the pixel columns (or along the rows) — a background
    /// from left to right or from top to bottom — repeats every 8 rows
    /// (columns), the dither's period: one period is drawn and the rest
    /// copied.
    private static func draw(stops: [ShadingStop], spread: SpreadMethod, opacity: Double, matrix: AffineTransform,
                             visible: PixelBox, userToPixel: AffineTransform, direction: Point? = nil,
                             geometry: (Double) -> Geometry?) -> OpaquePointer? {
        guard visible.width > 0, visible.height > 0, visible.width <= 32767, visible.height <= 32767,
              let pixelToGradient = userToPixel.concatenating(matrix).inverted else { return nil }
        let local = pixelToGradient.concatenating(.translation(Double(visible.x0), Double(visible.y0)))
        let largest = max(abs(local.a), abs(local.b), abs(local.c), abs(local.d))
        guard largest > 0, largest.isFinite else { return nil }
        let scale = 1 / largest
        let t = AffineTransform.scale(scale, scale).concatenating(local)
        var ft = pixman_f_transform()
        ft.m = ((t.a, t.c, t.tx), (t.b, t.d, t.ty), (0, 0, 1))
        var transform = pixman_transform()
        guard pixman_transform_from_pixman_f_transform(&transform, &ft) != 0, let geometry = geometry(scale) else { return nil }
        let stops = pixmanStops(stops, spread: spread, opacity: opacity)

        guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(visible.width), Int32(visible.height)) else { return nil }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image) else { return nil }
        cairo_surface_flush(image)
        let stride = cairo_image_surface_get_stride(image)
        let (w, h) = (visible.width, visible.height), period = 8
        // dx·c + dy·d is the change down a column, dx·a + dy·b along a row;
        // only exact zeros (axis-aligned geometry) take the copy.
        let rowsRepeat = direction.map { $0.y == 0 && t.c == 0 } ?? false
        let columnsRepeat = direction.map { $0.x == 0 && t.b == 0 } ?? false
        let drawnWidth = columnsRepeat ? min(w, period) : w, drawnHeight = rowsRepeat ? min(h, period) : h
        var written = false
        // The threshold of pixel (i, j) is that of device pixel (x0+i,
        // y0+j): the pattern belongs to the canvas, not to this image.
        switch geometry {
        case .linear(let p1, let p2):
            written = LinearGradientSpans(start: p1, end: p2, stops: stops, repeatMode: repeatMode(spread), transform: transform)
                .write(into: UnsafeMutableRawPointer(data), stride: Int(stride), width: drawnWidth, height: drawnHeight,
                       ditherX: visible.x0, ditherY: visible.y0)
        case .radial(let focus, let center, let radius):
            written = RadialGradientSpans(focus: focus, center: center, radius: radius, stops: stops, repeatMode: repeatMode(spread),
                                          transform: transform)
                .write(into: UnsafeMutableRawPointer(data), stride: Int(stride), width: drawnWidth, height: drawnHeight,
                       ditherX: visible.x0, ditherY: visible.y0)
        }
        if !written {
            guard composite(geometry, stops: stops, spread: spread, transform: transform, into: data, stride: stride,
                            width: drawnWidth, height: drawnHeight, ditherX: visible.x0, ditherY: visible.y0) else { return nil }
        }
        let rowBytes = 4 * w, rowStride = Int(stride)
        if drawnHeight < h {
            for j in drawnHeight..<h { memcpy(data + j * rowStride, data + (j - period) * rowStride, rowBytes) }
        }
        if drawnWidth < w {
            // Each row's first period, doubled until the row is full.
            for j in 0..<h {
                let row = data + j * rowStride
                var filled = 4 * drawnWidth
                while filled < rowBytes {
                    let n = min(filled, rowBytes - filled)
                    memcpy(row + filled, row, n)
                    filled += n
                }
            }
        }
        cairo_surface_mark_dirty(image)

        return PixelBox.pattern(for: image, at: visible, userToPixel: userToPixel, exactPixels: true)
    }

    /// pixman draws the gradient (one out of the range of Easel's own
    /// spans, `GradientSpans.swift`) into the pixels, dithered.
    private static func composite(_ geometry: Geometry, stops: [pixman_gradient_stop_t], spread: SpreadMethod, transform: pixman_transform,
                                  into data: UnsafeMutablePointer<UInt8>, stride: Int32, width: Int, height: Int,
                                  ditherX: Int, ditherY: Int) -> Bool {
        let gradient: OpaquePointer?
        switch geometry {
        case .linear(var p1, var p2):
            gradient = pixman_image_create_linear_gradient(&p1, &p2, stops, Int32(stops.count))
        case .radial(var focus, var center, let radius):
            gradient = pixman_image_create_radial_gradient(&focus, &center, 0, radius, stops, Int32(stops.count))
        }
        guard let gradient else { return false }
        defer { pixman_image_unref(gradient) }
        var transform = transform
        pixman_image_set_transform(gradient, &transform)
        pixman_image_set_repeat(gradient, repeatMode(spread))
        guard let target = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                    UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self), stride) else {
            return false
        }
        defer { pixman_image_unref(target) }
        pixman_image_set_dither(target, PIXMAN_DITHER_ORDERED_BAYER_8)
        pixman_image_set_dither_offset(target, Int32(ditherX), Int32(ditherY))
        pixman_image_composite32(PIXMAN_OP_SRC, gradient, nil, target, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        return true
    }

    private static func fixed(_ p: Point, _ scale: Double, _ out: inout pixman_point_fixed_t) -> Bool {
        let x = p.x * scale, y = p.y * scale
        guard abs(x) < 32000, abs(y) < 32000 else { return false }
        out = pixman_point_fixed_t(x: fixedPoint(x), y: fixedPoint(y))
        return true
    }

    /// pixman's `pixman_double_to_fixed`, a macro Swift cannot call, rounded.
    private static func fixedPoint(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }

    private static func repeatMode(_ s: SpreadMethod) -> pixman_repeat_t {
        switch s {
        case .pad: return PIXMAN_REPEAT_PAD
        case .repeat: return PIXMAN_REPEAT_NORMAL
        case .reflect: return PIXMAN_REPEAT_REFLECT
        }
    }

    /// pixman's 8×8 Bayer threshold for device pixel (x, y), in (0, 1): the
    /// same `d` pixman adds, for the conic sweep Easel evaluates itself
    /// (exact in a Float: a multiple of 1/128).
    static func threshold(_ x: Int, _ y: Int) -> Double { Double(OrderedDither.threshold(x, y)) }
}
