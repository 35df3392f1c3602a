import CCairo
import EaselModel

/// How much of each device pixel a set of disjoint axis-aligned rectangles
/// covers, exactly: the area of the pixel inside them. For a bars layer
/// with more bars than device columns this replaces Cairo's fill, whose
/// sweep over that many overlapping rows costs the square of the bar count
/// (10 × 100,000 bars: minutes); here it is one pass over the bars and one
/// over the pixels.
///
/// Disjoint is the caller's promise (bars side by side in their slots):
/// coverage adds up, so overlapping rectangles would count twice (clamped
/// at a full pixel).
package struct RectangleCoverage {
    let box: PixelBox
    /// Per pixel of `box`, row by row: the covered fraction of its area.
    private(set) var area: [Float]
    /// Per row boundary and column: the width, as a fraction of a column,
    /// of rectangles that cover every row from this boundary down to the
    /// one where it is taken off again — whole rows are summed down the
    /// column at the end, so a tall bar costs its columns, not its rows.
    private var wholeRows: [Float]

    init(box: PixelBox) {
        self.box = box
        area = Array(repeating: 0, count: box.width * box.height)
        wholeRows = Array(repeating: 0, count: box.width * (box.height + 1))
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
        // Rows the rectangle covers from top to bottom, and its partial ends.
        let fullFrom = Int(y0.rounded(.up)), fullTo = Int(y1.rounded(.down))   // whole rows fullFrom..<fullTo
        for column in firstColumn...lastColumn {
            let width = Float(min(x1, Double(column + 1)) - max(x0, Double(column)))
            guard width > 0 else { continue }
            let c = column - box.x0
            if topRow == bottomRow {
                area[(topRow - box.y0) * w + c] += width * Float(y1 - y0)
                continue
            }
            if Double(fullFrom) > y0 { area[(topRow - box.y0) * w + c] += width * Float(Double(fullFrom) - y0) }
            if y1 > Double(fullTo) { area[(bottomRow - box.y0) * w + c] += width * Float(y1 - Double(fullTo)) }
            if fullTo > fullFrom {
                wholeRows[(fullFrom - box.y0) * w + c] += width
                wholeRows[(fullTo - box.y0) * w + c] -= width
            }
        }
    }

    /// The coverage as 8-bit alpha, `stride` bytes a row (Cairo's A8).
    func alpha(stride: Int) -> [UInt8] {
        let w = box.width, h = box.height
        var out = [UInt8](repeating: 0, count: stride * h)
        var running = [Float](repeating: 0, count: w)
        for row in 0..<h {
            for c in 0..<w {
                running[c] += wholeRows[row * w + c]
                let covered = min(max(running[c] + area[row * w + c], 0), 1)
                out[row * stride + c] = UInt8(covered * 255 + 0.5)
            }
        }
        return out
    }
}

extension RectangleCoverage {
    /// The coverage as a Cairo mask in user space (an A8 image, pixel for
    /// pixel with the target; nothing outside `box`); nil if Cairo could
    /// not allocate it.
    func maskPattern(userToPixel: AffineTransform) -> OpaquePointer? {
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(box.width), Int32(box.height)) else { return nil }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(image))
        let bytes = alpha(stride: stride)
        bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: bytes.count) }
        cairo_surface_mark_dirty(image)
        guard let pattern = PixelBox.pattern(for: image, at: box, userToPixel: userToPixel, exactPixels: true) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_NONE)
        return pattern
    }
}

extension RectangleCoverage {
    /// The 8-bit coverage of `rectangles` (x0, y0, x1, y1 in pixels) on a
    /// `width`×`height` grid at the origin, a row a `width` bytes: for tests.
    package static func alphaForTesting(width: Int, height: Int, rectangles: [(Double, Double, Double, Double)]) -> [UInt8] {
        var coverage = RectangleCoverage(box: PixelBox(x0: 0, y0: 0, x1: width, y1: height))
        for r in rectangles { coverage.add(x0: r.0, y0: r.1, x1: r.2, y1: r.3) }
        return coverage.alpha(stride: width)
    }
}
