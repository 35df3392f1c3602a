import EaselRender

/// A compile's glyph outlines, taken from the process's table when a
/// render first needs them — before it paints — and then shared by every
/// render of the compile: `check`, `layout` and PDF output (which draws
/// glyphs through Cairo) never read an outline.
final class CompiledGlyphOutlines: Sendable {
    private let texts: [ShapedTextLayout]
    private let made = Locked<GlyphOutlineSet?>(nil)

    init(_ texts: [ShapedTextLayout]) { self.texts = texts }

    var set: GlyphOutlineSet {
        made.withLock { made in
            if let made { return made }
            let set = GlyphOutlineSet(texts: texts)
            made = set
            return set
        }
    }
}
