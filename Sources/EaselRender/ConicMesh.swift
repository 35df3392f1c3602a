import CCairo
import EaselLayout
import EaselModel
import FoundationEssentials
import Glibc

/// Cairo 1.16 has no sweep gradient, so conic gradients are built two ways.
///
/// PDF: a mesh of Coons patches, one per sector, with two straight sides
/// along radii and an arc, the corner colours at the sector's two angles.
/// Inside such a patch the point at parameter u on any radius has the colour
/// at u, so the colour follows the angle; it stays a vector shading.
///
/// PNG and SVG: Cairo's mesh rasteriser plots patches to the nearest pixel
/// (off by a few levels close to the centre), so the sweep is evaluated
/// exactly at each pixel centre instead, as pixman does for linear and
/// radial gradients, into an image aligned with the target's pixel grid
/// (PNG) or at `svgResolution` pixels per point (SVG, where the outline of
/// the shape stays a vector).
enum ConicMesh {
    /// `covering`: what will be painted, in user space.
    static func mesh(_ g: ConicShading, covering area: Rect, opacity: Double) -> OpaquePointer? {
        guard let inverse = g.matrix.inverted else { return nil }
        // The radius that reaches every corner of the area, in gradient space.
        let corners = [Point(area.minX, area.minY), Point(area.maxX, area.minY),
                       Point(area.minX, area.maxY), Point(area.maxX, area.maxY)].map { inverse.apply($0) }
        let radius = corners.map { (($0.x - g.center.x) * ($0.x - g.center.x) + ($0.y - g.center.y) * ($0.y - g.center.y)).squareRoot() }
            .max()! + 2
        guard let mesh = cairo_pattern_create_mesh() else { return nil }
        let c = g.center
        for s in g.sectors {
            let a0 = s.startAngle, a1 = s.endAngle
            let k = 4.0 / 3.0 * tan((a1 - a0) / 4) * radius
            let p0 = Point(c.x + radius * cos(a0), c.y + radius * sin(a0))
            let p1 = Point(c.x + radius * cos(a1), c.y + radius * sin(a1))
            let c1 = Point(p0.x - k * sin(a0), p0.y + k * cos(a0))
            let c2 = Point(p1.x + k * sin(a1), p1.y - k * cos(a1))
            cairo_mesh_pattern_begin_patch(mesh)
            cairo_mesh_pattern_move_to(mesh, c.x, c.y)
            cairo_mesh_pattern_line_to(mesh, p0.x, p0.y)
            cairo_mesh_pattern_curve_to(mesh, c1.x, c1.y, c2.x, c2.y, p1.x, p1.y)
            cairo_mesh_pattern_line_to(mesh, c.x, c.y)
            for (corner, color) in [(0, s.startColor), (1, s.startColor), (2, s.endColor), (3, s.endColor)] {
                cairo_mesh_pattern_set_corner_color_rgba(mesh, UInt32(corner), color.red, color.green, color.blue,
                                                         color.alpha * opacity)
            }
            cairo_mesh_pattern_end_patch(mesh)
        }
        if !g.matrix.isIdentity {
            var m = cairo_matrix_t(xx: inverse.a, yx: inverse.b, xy: inverse.c, yy: inverse.d, x0: inverse.tx, y0: inverse.ty)
            cairo_pattern_set_matrix(mesh, &m)
        }
        return mesh
    }

    /// Pixels per point of the image that stands for a conic gradient in
    /// SVG output, and the largest side it may have.
    static let svgResolution = 4.0
    static let svgMaxSide = 2048.0

    /// An image of the sweep over the pixels `box` of the grid
    /// `userToPixel`; with `dither`, each pixel's value gets the threshold
    /// of its device pixel (PNG output).
    static func raster(_ g: ConicShading, box: PixelBox, userToPixel: AffineTransform,
                       opacity: Double, exactPixels: Bool, dither: Bool = false) -> OpaquePointer? {
        guard let toGradient = g.matrix.inverted, let toUser = userToPixel.inverted,
              let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(box.width), Int32(box.height)) else {
            return nil
        }
        defer { cairo_surface_destroy(image) }
        // An image Cairo could not allocate: a pattern carrying its error,
        // which the painter reports.
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return cairo_pattern_create_for_surface(image) }
        cairo_surface_flush(image)
        let (w, h) = (box.width, box.height)
        let x0 = Double(box.x0), y0 = Double(box.y0)
        let stride = Int(cairo_image_surface_get_stride(image))
        let pixelToGradient = toGradient.concatenating(toUser)
        // Dithered as pixman dithers linear and radial gradients
        // (`DitheredGradient`): floor(255·v + d), d the threshold of the
        // device pixel, so a value that is exactly a level stays it; flat
        // sectors, or a sweep of one level, are set to the level a solid
        // fill of their colour gets.
        var g = g
        if dither {
            g.sectors = g.rasterSectors ?? g.sectors
            let oneLevel = DitheredGradient.isOneLevel(g.sectors.flatMap { [$0.startColor, $0.endColor] }, opacity: opacity)
            for i in g.sectors.indices where oneLevel || g.sectors[i].startColor == g.sectors[i].endColor {
                let c = DitheredGradient.exactLevel(oneLevel ? g.sectors[0].startColor : g.sectors[i].startColor, opacity: opacity)
                (g.sectors[i].startColor, g.sectors[i].endColor) = (c, c)
            }
        }
        if let data = cairo_image_surface_get_data(image) {
            // Immutable from here, so `sample` captures the value, not a box.
            let shading = g
            func sample(_ x: Double, _ y: Double) -> Color { shading.color(at: pixelToGradient.apply(Point(x0 + x, y0 + y))) }
            var d = 0.5
            func q(_ v: Double) -> UInt32 { UInt32(max(0, min(255, (v * 255 + d).rounded(.down)))) }
            // The sweep at pixel corners: where a pixel's corners disagree by
            // more than `edge`, a hard stop or the centre crosses it, and the
            // pixel gets the mean of 4×4 samples (premultiplied) instead of
            // its centre's colour, so sector edges are anti-aliased as a
            // shape's outline is.
            let edge = 16.0 / 255
            // Two rows of corners, refilled in place: no allocation per row
            // or per pixel (every allocation is a stack walk under
            // AddressSanitizer's leak checks).
            var above = [Color](repeating: .transparent, count: w + 1)
            var below = above
            for i in 0..<(w + 1) { above[i] = sample(Double(i), 0) }
            for j in 0..<h {
                for i in 0..<(w + 1) { below[i] = sample(Double(i), Double(j + 1)) }
                let row = UnsafeMutableRawPointer(data + j * stride)
                for i in 0..<w {
                    if dither { d = DitheredGradient.threshold(box.x0 + i, box.y0 + j) }
                    var r: Double, gr: Double, b: Double, a: Double
                    if Color.spread(above[i], above[i + 1], below[i], below[i + 1]) > edge {
                        (r, gr, b, a) = (0, 0, 0, 0)
                        for sy in 0..<4 {
                            for sx in 0..<4 {
                                let c = sample(Double(i) + (Double(sx) + 0.5) / 4, Double(j) + (Double(sy) + 0.5) / 4)
                                r += c.red * c.alpha; gr += c.green * c.alpha; b += c.blue * c.alpha; a += c.alpha
                            }
                        }
                        (r, gr, b, a) = (r / 16 * opacity, gr / 16 * opacity, b / 16 * opacity, a / 16 * opacity)
                    } else {
                        let c = sample(Double(i) + 0.5, Double(j) + 0.5)
                        a = c.alpha * opacity
                        (r, gr, b) = (c.red * a, c.green * a, c.blue * a)
                    }
                    row.storeBytes(of: q(a) << 24 | q(r) << 16 | q(gr) << 8 | q(b), toByteOffset: 4 * i, as: UInt32.self)
                }
                swap(&above, &below)
            }
        }
        cairo_surface_mark_dirty(image)
        return PixelBox.pattern(for: image, at: box, userToPixel: userToPixel, exactPixels: exactPixels)
    }
}
