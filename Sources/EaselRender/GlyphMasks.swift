import CCairo
import EaselLayout
import EaselModel

/// Glyph coverage for raster output: each glyph's outline (`GlyphOutlines`)
/// rasterised once per device transform into an 8-bit mask, immutable and
/// shared by every render on every thread — what Cairo's glyph cache does
/// for its own glyphs, without its fonts. A run's glyphs are added into
/// one mask at their whole-pixel origins (as Cairo 1.16 places glyphs) and
/// the run is painted through it in one operation: filling each glyph's
/// path instead cost half as much again as Cairo's glyphs (48 text-heavy
/// scenes @3x: 1.41 s against 0.93 s).
package enum GlyphMasks {
    /// Coverage, `width`×`height`, whose top-left pixel is (`left`, `top`)
    /// from the glyph's origin pixel.
    final class Mask: Sendable {
        let left: Int, top: Int, width: Int, height: Int
        let coverage: [UInt8]
        init(left: Int, top: Int, width: Int, height: Int, coverage: [UInt8]) {
            self.left = left; self.top = top; self.width = width; self.height = height; self.coverage = coverage
        }
    }

    struct Key: Hashable {
        var face: FontFace
        var glyph: UInt32
        /// The glyph's em square to device pixels (no translation).
        var a, b, c, d: Double
    }

    /// Masks by face, each face's bucket marked with when it was last used:
    /// past `maxFaces` faces, or `maxBytes` of masks, the least recently
    /// used faces' masks go. A long-lived process drawing a new
    /// `font-variation` with each request (each a face) keeps a bounded
    /// cache, and a render's faces stay while it draws them.
    private final class Bucket {
        var masks: [Key: Mask] = [:]
        var bytes = 0
        var used: UInt64 = 0
    }
    private final class Table: @unchecked Sendable {
        var faces: [FontFace: Bucket] = [:]
        var bytes = 0
        var made = 0
        var clock: UInt64 = 0
    }
    private static let table = Locked(Table())
    static let maxBytes = 32 << 20
    static let maxFaces = 32
    /// What a mask costs besides its coverage (the dictionary entry, the object).
    private static let overhead = 96
    /// The largest mask side: a glyph bigger than this on the canvas is
    /// filled as a path instead.
    static let maxSide = 2048

    /// Forgets the masks of glyphs from the file at `path` (its last font
    /// set is gone: no render can draw from it again).
    static func release(path: String) {
        guard let file = FontFiles.existing(path) else { return }
        table.withLock { t in
            for (face, bucket) in t.faces where face.file == file {
                t.faces[face] = nil
                t.bytes -= bucket.bytes
            }
        }
    }

    /// Masks made so far (for tests: each glyph once per transform).
    package static var made: Int { table.withLock { $0.made } }

    /// Mask bytes held now (for tests: the cache stays bounded).
    package static var bytesHeld: Int { table.withLock { $0.bytes } }

    /// The mask of `outline` under `transform`, made on first use; nil for
    /// a glyph too large to keep as a mask.
    static func mask(_ key: Key, outline: BezierPath) -> Mask? {
        if let hit = table.withLock({ t -> Mask? in
            guard let bucket = t.faces[key.face], let hit = bucket.masks[key] else { return nil }
            t.clock += 1
            bucket.used = t.clock
            return hit
        }) { return hit }
        // Made outside the lock: two threads may both make one (the same
        // bytes); painting never waits on another glyph's rasterising.
        let t = AffineTransform(a: key.a, b: key.b, c: key.c, d: key.d, tx: 0, ty: 0)
        let made: Mask
        if let box = outline.applying(t).boundingBox {
            guard box.width < Double(maxSide), box.height < Double(maxSide), abs(box.minX) < 1e6, abs(box.minY) < 1e6 else { return nil }
            let left = Int((box.minX - 1).rounded(.down)), top = Int((box.minY - 1).rounded(.down))
            let width = Int((box.maxX + 1).rounded(.up)) - left, height = Int((box.maxY + 1).rounded(.up)) - top
            guard width > 0, height > 0, width <= maxSide, height <= maxSide,
                  let coverage = rasterise(outline, t, left: left, top: top, width: width, height: height) else { return nil }
            made = Mask(left: left, top: top, width: width, height: height, coverage: coverage)
        } else {
            made = Mask(left: 0, top: 0, width: 0, height: 0, coverage: [])   // a space
        }
        return table.withLock { t in
            t.clock += 1
            let bucket: Bucket
            if let known = t.faces[key.face] {
                bucket = known
                if let hit = bucket.masks[key] { return hit }
            } else {
                bucket = Bucket()
                t.faces[key.face] = bucket
            }
            bucket.used = t.clock
            let cost = made.coverage.count + overhead
            bucket.masks[key] = made
            bucket.bytes += cost
            t.bytes += cost
            t.made += 1
            // The least recently used faces go first; this face's bucket
            // starts again if it alone is past the bound.
            while t.faces.count > maxFaces || t.bytes > maxBytes {
                guard let oldest = t.faces.min(by: { $0.value.used < $1.value.used }) else { break }
                if oldest.value === bucket {
                    t.bytes -= bucket.bytes
                    bucket.masks = [key: made]
                    bucket.bytes = cost
                    t.bytes += cost
                    break
                }
                t.faces[oldest.key] = nil
                t.bytes -= oldest.value.bytes
            }
            return made
        }
    }

    /// The outline's coverage, row by row (`width` bytes a row).
    private static func rasterise(_ outline: BezierPath, _ t: AffineTransform, left: Int, top: Int, width: Int, height: Int) -> [UInt8]? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return nil }
        cairo_translate(cr, Double(-left), Double(-top))
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: 0, y0: 0)
        cairo_transform(cr, &m)
        CairoPath.set(outline, on: cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var out = [UInt8](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * width).update(from: data + y * stride, count: width)
            }
        }
        return out
    }
}
