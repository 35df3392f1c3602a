import CPangoCairo
import EaselLayout
import EaselModel
import Glibc

/// Glyph outlines as paths, read from the font file by Easel's own
/// FreeType faces (not Cairo's) once per face and glyph, and immutable
/// from then on: raster output rasterises them into masks (`GlyphMasks`),
/// SVG writes them as paths, so neither takes the lock that guards
/// Cairo's FreeType faces (`CairoFontAccess`), which only PDF output and
/// colour or bitmap glyphs still draw through. FreeType faces are not
/// thread-safe: every call on one happens under this table's lock, held
/// while a glyph not seen before is read (once per glyph in the life of
/// the process). A compile takes its texts' outlines from here once
/// (`GlyphOutlineSet`); its renders paint from that set, not this table.
///
/// An outline is in em units, y down (Cairo's font space): a run's
/// `fontMatrix` then its glyph position place it. It is read at 1,024
/// pixels per em without hinting, as Cairo reads an unhinted glyph at its
/// size, and emboldened as Cairo 1.16 emboldens (`FT_GlyphSlot_Embolden`)
/// where the face synthesises bold.
package enum GlyphOutlines {
    /// An outline, or nil for a glyph that has none to fill (a bitmap or
    /// colour glyph; a face FreeType cannot open): the caller draws those
    /// through Cairo.
    typealias Outline = BezierPath

    private static let pixelsPerEm = 1024.0

    private final class Face {
        let ft: FT_Face
        /// By glyph id; nil entries: no outline.
        var glyphs: [UInt32: Outline?] = [:]
        /// When the face was last looked up (the table's clock).
        var used: UInt64 = 0
        init(ft: FT_Face) { self.ft = ft }
    }
    private final class Table: @unchecked Sendable {
        var faces: [FontFace: Face] = [:]
        var clock: UInt64 = 0
        /// Glyphs read, for tests: each (face, glyph) is read once.
        var reads = 0
        /// Runs looked up, for tests: a compile's renders look up none.
        var lookups = 0
    }
    private static let table = Locked(Table())

    /// The outlines of `glyphs` in `face`, in order (nil where a glyph has
    /// none); nil when the face cannot give outlines at all.
    static func outlines(_ face: FontFace, _ glyphs: [UInt32]) -> [Outline?]? {
        guard !face.usesBitmaps else { return nil }
        return table.withLock { t -> [Outline?]? in
            t.lookups += 1
            let entry: Face
            if let known = t.faces[face] {
                entry = known
            } else {
                // A face that cannot be opened now (out of descriptors, say)
                // is not remembered: the next run tries again.
                guard let opened = open(face) else { return nil }
                // Faces are kept per file and variation: a worker or preview
                // drawing a new `font-variation` each time makes a new one
                // each time, so past `maxFaces` the least recently used goes
                // (outlines already taken stay valid: they are values).
                if t.faces.count >= Self.maxFaces, let oldest = t.faces.min(by: { $0.value.used < $1.value.used }) {
                    _ = FontSystem.withFreeType { _ in FT_Done_Face(oldest.value.ft) }
                    t.faces[oldest.key] = nil
                }
                entry = opened
                t.faces[face] = entry
            }
            t.clock += 1
            entry.used = t.clock
            return glyphs.map { glyph in
                if let hit = entry.glyphs[glyph] { return hit }
                t.reads += 1
                let outline = read(glyph, from: entry.ft, embolden: face.synthesizesBold)
                entry.glyphs[glyph] = .some(outline)
                return outline
            }
        }
    }

    /// Glyphs read from font files so far (each face and glyph once).
    package static var reads: Int { table.withLock { $0.reads } }

    /// Runs looked up in this table so far (compiles, and renders of trees
    /// without their compile's `GlyphOutlineSet`).
    package static var lookups: Int { table.withLock { $0.lookups } }

    /// Forgets the faces of the file at `path` (its last font set is gone).
    static func release(path: String) {
        guard let file = FontFiles.existing(path) else { return }
        table.withLock { t in
            for (face, entry) in t.faces where face.file == file {
                _ = FontSystem.withFreeType { _ in FT_Done_Face(entry.ft) }
                t.faces[face] = nil
            }
        }
    }

    static let maxFaces = 32

    private static func open(_ face: FontFace) -> Face? {
        var ft: FT_Face?
        let opened = FontSystem.withFreeType { library -> Bool in
            guard let library else { return false }
            return FT_New_Face(library, FontFiles.path(face.file), FT_Long(face.index), &ft) == 0
        }
        guard opened, let ft else { return nil }
        guard ft.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0,
              FT_Set_Pixel_Sizes(ft, 0, FT_UInt(pixelsPerEm)) == 0 else {
            _ = FontSystem.withFreeType { _ in FT_Done_Face(ft) }
            return nil
        }
        if !face.variations.isEmpty, let (coords, _) = FontVariations.coordinates(face.variations, in: ft) {
            var c = coords
            guard FT_Set_Var_Design_Coordinates(ft, FT_UInt(c.count), &c) == 0 else {
                _ = FontSystem.withFreeType { _ in FT_Done_Face(ft) }
                return nil
            }
        }
        return Face(ft: ft)
    }

    private static func read(_ glyph: UInt32, from ft: FT_Face, embolden: Bool) -> Outline? {
        let flags = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_NO_AUTOHINT
        guard FT_Load_Glyph(ft, glyph, Int32(flags)) == 0, let slot = ft.pointee.glyph,
              slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return nil }
        if embolden { FT_GlyphSlot_Embolden(slot) }
        var builder = OutlineBuilder(scale: 1 / (64 * pixelsPerEm))
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in OutlineBuilder.from(user).pointee.move(to!.pointee); return 0 },
            line_to: { to, user in OutlineBuilder.from(user).pointee.line(to!.pointee); return 0 },
            conic_to: { control, to, user in OutlineBuilder.from(user).pointee.conic(control!.pointee, to!.pointee); return 0 },
            cubic_to: { c1, c2, to, user in OutlineBuilder.from(user).pointee.cubic(c1!.pointee, c2!.pointee, to!.pointee); return 0 },
            shift: 0, delta: 0)
        let status = withUnsafeMutablePointer(to: &builder) { user in
            FT_Outline_Decompose(&slot.pointee.outline, &funcs, UnsafeMutableRawPointer(user))
        }
        guard status == 0 else { return nil }
        builder.finish()
        return builder.path
    }
}

/// FreeType's contours as a path in em units, y down, each contour closed.
private struct OutlineBuilder {
    let scale: Double
    var path = BezierPath()
    private var current = Point.zero
    private var open = false
    init(scale: Double) { self.scale = scale }

    static func from(_ user: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<OutlineBuilder> {
        user!.assumingMemoryBound(to: OutlineBuilder.self)
    }

    private func point(_ v: FT_Vector) -> Point { Point(Double(v.x) * scale, -Double(v.y) * scale) }

    mutating func move(_ to: FT_Vector) {
        finish()
        current = point(to)
        path.move(to: current)
        open = true
    }
    mutating func line(_ to: FT_Vector) {
        current = point(to)
        path.line(to: current)
    }
    mutating func conic(_ control: FT_Vector, _ to: FT_Vector) {
        let q = point(control), p = point(to)
        path.quad(to: p, control: q)
        current = p
    }
    mutating func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ to: FT_Vector) {
        let p = point(to)
        path.curve(to: p, control1: point(c1), control2: point(c2))
        current = p
    }
    mutating func finish() {
        if open { path.close() }
        open = false
    }
}
