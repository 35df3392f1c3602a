import CCairo
import EaselModel

/// How much of each device pixel a set of disjoint axis-aligned rectangles
/// covers, exactly: the area of the pixel inside them, in one pass over the
/// rectangles and one over the pixels. Cairo's fill of the same rectangles
/// as one path sweeps every rectangle sharing a row against the others, in
/// time that grows with the square of their number (a bars layer over a
/// long series).
///
/// Disjoint is the caller's promise (bars side by side in their slots):
/// coverage adds up, so overlapping rectangles would count twice (clamped
/// at a full pixel).
package struct RectangleCoverage {
    let box: PixelBox
    /// Per row boundary and column of `box`: how much a column's coverage
    /// changes from the row above to this one — each rectangle adds its
    /// width in the column where its rows begin and takes it off where
    /// they end, its partial top and bottom rows as a part of that, so a
    /// tall rectangle costs its columns, not its rows; summed down each
    /// column once at the end. 4 bytes a pixel.
    private var steps: [Float]

    init(box: PixelBox) {
        self.box = box
        steps = Array(repeating: 0, count: box.width * (box.height + 1))
    }

    /// Adds a rectangle given in device pixels (any order of corners).
    mutating func add(x0 ax: Double, y0 ay: Double, x1 bx: Double, y1 by: Double) {
        let bx0 = Double(box.x0), by0 = Double(box.y0), bx1 = Double(box.x1), by1 = Double(box.y1)
        let x0 = max(min(ax, bx), bx0), x1 = min(max(ax, bx), bx1)
        let y0 = max(min(ay, by), by0), y1 = min(max(ay, by), by1)
        guard x1 > x0, y1 > y0 else { return }
        let w = box.width
        let firstColumn = Int(x0.rounded(.down)), lastColumn = Int(x1.rounded(.up)) - 1
        let topRow = Int(y0.rounded(.down)), bottomRow = Int(y1.rounded(.up)) - 1
        // The share of the top and bottom rows covered (one row: both ends in it).
        let top = Float(min(y1, Double(topRow + 1)) - y0)
        let bottom = topRow == bottomRow ? 0 : Float(y1 - Double(bottomRow))
        for column in firstColumn...lastColumn {
            let width = Float(min(x1, Double(column + 1)) - max(x0, Double(column)))
            guard width > 0 else { continue }
            let c = column - box.x0, r0 = topRow - box.y0, r1 = bottomRow - box.y0
            // Row r0: `top`; rows r0+1 ..< r1: 1; row r1: `bottom`; then 0.
            steps[r0 * w + c] += width * top
            if r1 > r0 {
                steps[(r0 + 1) * w + c] += width * (1 - top)
                steps[r1 * w + c] += width * (bottom - 1)
            }
            steps[(r1 + 1) * w + c] -= width * (r1 > r0 ? bottom : top)
        }
    }

    /// The coverage as 8-bit alpha into `out`, `stride` bytes a row
    /// (Cairo's A8).
    func alpha(into out: UnsafeMutablePointer<UInt8>, stride: Int) {
        let w = box.width, h = box.height
        var running = [Float](repeating: 0, count: w)
        for row in 0..<h {
            for c in 0..<w {
                running[c] += steps[row * w + c]
                let covered = min(max(running[c], 0), 1)
                out[row * stride + c] = UInt8(covered * 255 + 0.5)
            }
        }
    }

    /// The coverage as an A8 image, pixel for pixel with `box` (a new
    /// reference); nil if Cairo could not allocate it.
    func maskImage() -> OpaquePointer? {
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(box.width), Int32(box.height)) else { return nil }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image) else {
            cairo_surface_destroy(image)
            return nil
        }
        alpha(into: data, stride: Int(cairo_image_surface_get_stride(image)))
        cairo_surface_mark_dirty(image)
        return image
    }

    /// The coverage as a Cairo mask in user space (an A8 image, pixel for
    /// pixel with the target; nothing outside `box`); nil if Cairo could
    /// not allocate it.
    func maskPattern(userToPixel: AffineTransform) -> OpaquePointer? {
        guard let image = maskImage() else { return nil }
        defer { cairo_surface_destroy(image) }
        guard let pattern = PixelBox.pattern(for: image, at: box, userToPixel: userToPixel, exactPixels: true) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_NONE)
        return pattern
    }

    /// The 8-bit coverage of `rectangles` (x0, y0, x1, y1 in pixels) over
    /// the pixels x0..<x1, y0..<y1 of `box`, a row a `box.width` bytes:
    /// for tests.
    package static func alphaForTesting(box: (x0: Int, y0: Int, x1: Int, y1: Int),
                                        rectangles: [(Double, Double, Double, Double)]) -> [UInt8] {
        var coverage = RectangleCoverage(box: PixelBox(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1))
        for r in rectangles { coverage.add(x0: r.0, y0: r.1, x1: r.2, y1: r.3) }
        var out = [UInt8](repeating: 0, count: coverage.box.width * coverage.box.height)
        out.withUnsafeMutableBufferPointer { coverage.alpha(into: $0.baseAddress!, stride: coverage.box.width) }
        return out
    }
}
