import CCairo
import EaselModel

/// Whole device pixels, `x0..<x1` by `y0..<y1`: where an image that stands
/// for a paint (a dithered gradient, a conic sweep) is drawn, pixel for
/// pixel with the target.
struct PixelBox {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }

    /// The pixels of the grid `userToPixel` that `area` (user space)
    /// touches; nil when that is none, or more than an image can hold.
    static func covering(_ area: Rect, userToPixel: AffineTransform) -> PixelBox? {
        let corners = [Point(area.minX, area.minY), Point(area.maxX, area.minY),
                       Point(area.minX, area.maxY), Point(area.maxX, area.maxY)].map { userToPixel.apply($0) }
        let x0 = corners.map(\.x).min()!.rounded(.down), y0 = corners.map(\.y).min()!.rounded(.down)
        let x1 = corners.map(\.x).max()!.rounded(.up), y1 = corners.map(\.y).max()!.rounded(.up)
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, abs(x0) < 1e6, abs(y0) < 1e6,
              x1 - x0 <= 32767, y1 - y0 <= 32767 else { return nil }
        return PixelBox(x0: Int(x0), y0: Int(y0), x1: Int(max(x1, x0 + 1)), y1: Int(max(y1, y0 + 1)))
    }

    /// `image` (one pixel per pixel of `box`) as a source in user space;
    /// `exactPixels`: sampled, never interpolated (the target's own grid).
    static func pattern(for image: OpaquePointer, at box: PixelBox, userToPixel: AffineTransform,
                        exactPixels: Bool) -> OpaquePointer? {
        guard let pattern = cairo_pattern_create_for_surface(image) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        if exactPixels { cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST) }
        let m = AffineTransform.translation(-Double(box.x0), -Double(box.y0)).concatenating(userToPixel)
        var cm = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        cairo_pattern_set_matrix(pattern, &cm)
        return pattern
    }
}
