import CCairo
import EaselLayout
import EaselModel

/// Draws glyph runs with Cairo's glyph API (no text engine), under the
/// render's `CairoFontAccess` hold.
enum GlyphRunDrawing {
    /// One run with the current source. On a surface that keeps text (PDF),
    /// with its characters and clusters, so the text can be selected and
    /// searched. False if Cairo cannot use the run's font.
    static func draw(_ run: GlyphRun, on cr: OpaquePointer) -> Bool {
        guard let face = run.face, !run.glyphs.isEmpty else { return true }
        guard let cairoFace = CairoFontFaces.face(face) else { return false }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_font_face(cr, cairoFace)
        var matrix = cairo_matrix_t(xx: run.fontMatrix.a, yx: run.fontMatrix.b, xy: run.fontMatrix.c, yy: run.fontMatrix.d, x0: 0, y0: 0)
        cairo_set_font_matrix(cr, &matrix)
        cairo_set_font_options(cr, CairoFontFaces.options)
        var glyphs = zip(run.glyphs, run.positions).map { cairo_glyph_t(index: UInt($0), x: $1.x, y: $1.y) }
        let keepsText = cairo_surface_has_show_text_glyphs(cairo_get_target(cr)) != 0
        if keepsText, clustersFit(run) {
            var clusters = run.clusters.map { cairo_text_cluster_t(num_bytes: Int32($0.bytes), num_glyphs: Int32($0.glyphs)) }
            cairo_show_text_glyphs(cr, run.text, -1, &glyphs, Int32(glyphs.count), &clusters, Int32(clusters.count),
                                   run.clustersBackward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
        } else {
            cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
        }
        return true
    }

    /// Cairo puts the whole context in an error state for clusters that do
    /// not cover the glyphs and bytes exactly: such a run is drawn as glyphs only.
    private static func clustersFit(_ run: GlyphRun) -> Bool {
        run.clusters.reduce(0) { $0 + $1.glyphs } == run.glyphs.count
            && run.clusters.reduce(0) { $0 + $1.bytes } == run.text.utf8.count
            && run.clusters.allSatisfy { $0.bytes >= 0 && $0.glyphs >= 0 && ($0.bytes > 0 || $0.glyphs > 0) }
    }

    /// A character no font of the compile has is an empty box (reported
    /// as a warning or an error when the scene is compiled).
    static func drawMissingBoxes(_ runs: [GlyphRun], on cr: OpaquePointer) {
        let boxes = runs.flatMap(\.missing).map(\.box).filter { $0.width > 0 && $0.height > 0 }
        guard !boxes.isEmpty else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        for b in boxes {
            let line = max(0.5, min(b.width, b.height) * 0.08)
            cairo_set_line_width(cr, line)
            cairo_rectangle(cr, b.x + line / 2, b.y + line / 2, b.width - line, b.height - line)
            cairo_stroke(cr)
        }
    }

    /// Underlines and strike-throughs, in the current source.
    static func drawDecorations(_ runs: [GlyphRun], on cr: OpaquePointer) {
        let bars = runs.flatMap(\.decorations).filter { $0.width > 0 && $0.height > 0 }
        guard !bars.isEmpty else { return }
        for b in bars { cairo_rectangle(cr, b.x, b.y, b.width, b.height) }
        cairo_fill(cr)
    }
}
