import EaselLayout
import EaselModel

/// The outlines of every glyph a compile's texts use, taken from the
/// process's table (`GlyphOutlines`) when the compile ends and immutable
/// from then on: raster and SVG renders of the compile, on any number of
/// threads, look their glyphs up here without taking a lock.
///
/// A run it does not know (a render tree painted without its compile's
/// set) is read from the process's table, under its lock.
public final class GlyphOutlineSet: Sendable {
    /// By face, then glyph; a face that gives no outlines (bitmaps, or
    /// FreeType cannot open it) maps to nil.
    private let faces: [FontFace: [UInt32: BezierPath?]?]

    /// Knows no glyph: every run is read from the process's table.
    public init() { faces = [:] }

    /// The outlines of the glyphs of `texts`' runs (colour runs are drawn
    /// by Cairo, and need none).
    public init(texts: [ShapedTextLayout]) {
        var glyphsByFace: [FontFace: Set<UInt32>] = [:]
        for text in texts {
            for run in text.shaped.runs where !run.isColor && !run.glyphs.isEmpty {
                guard let face = run.face else { continue }
                glyphsByFace[face, default: []].formUnion(run.glyphs)
            }
        }
        var faces: [FontFace: [UInt32: BezierPath?]?] = [:]
        for (face, glyphs) in glyphsByFace {
            let ids = Array(glyphs)
            guard let outlines = GlyphOutlines.outlines(face, ids) else { faces[face] = .some(nil); continue }
            faces[face] = Dictionary(uniqueKeysWithValues: zip(ids, outlines))
        }
        self.faces = faces
    }

    /// As `GlyphOutlines.outlines`: the outlines of `glyphs` in order (nil
    /// where a glyph has none), nil when the face gives none.
    func outlines(_ face: FontFace, _ glyphs: [UInt32]) -> [BezierPath?]? {
        if let known = faces[face] {
            guard let known else { return nil }
            var found: [BezierPath?] = []
            found.reserveCapacity(glyphs.count)
            for glyph in glyphs {
                guard let outline = known[glyph] else { return GlyphOutlines.outlines(face, glyphs) }
                found.append(outline)
            }
            return found
        }
        return GlyphOutlines.outlines(face, glyphs)
    }
}
