import CCairo
import Glibc
import EaselLayout
import EaselModel

/// Draws glyph runs: as outline paths (`fill`, no lock), or with Cairo's
/// glyph API (no text engine) under the render's `CairoFontAccess` hold.
enum GlyphRunDrawing {
    /// One run with the current source. On a surface that keeps text (PDF),
    /// with its characters and clusters, so the text can be selected and
    /// searched. False if Cairo cannot use the run's font.
    /// `fontHold`: the render's hold on Cairo's fonts (used here), which
    /// gives the run's face its slot in the document.
    static func draw(_ run: GlyphRun, on cr: OpaquePointer, fontHold: CairoFontAccess.Hold) -> Bool {
        guard let face = run.face, !run.glyphs.isEmpty else { return true }
        // Everything that touches the face — the context's scaled font
        // included, let go by `cairo_restore` — happens inside.
        return fontHold.using { draw(run, face: face, on: cr, fontHold: fontHold) }
    }

    private static func draw(_ run: GlyphRun, face: FontFace, on cr: OpaquePointer, fontHold: CairoFontAccess.Hold) -> Bool {
        guard let cairoFace = CairoFontFaces.face(face, slot: fontHold.slot(for: face)) else { return false }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // The context holds the face from here (and the PDF surface holds it
        // until it is finished): the table may let it go meanwhile.
        cairo_set_font_face(cr, cairoFace)
        cairo_font_face_destroy(cairoFace)
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
        PaintingProbe.cairoGlyphsDrawn()
        return true
    }

    /// One run's glyphs on a raster target through `GlyphMasks`: each
    /// glyph's mask added at its whole-pixel origin into one mask for the
    /// run, painted in the current source. `userToPixel`: user space to
    /// the target's pixels (the CTM and the surface's device scale). False
    /// if a glyph is too large for a mask: the caller fills the outlines.
    static func fillMasked(_ run: GlyphRun, face: FontFace, outlines: [GlyphOutlines.Outline], on cr: OpaquePointer,
                           userToPixel g: AffineTransform) -> Bool {
        let m = run.fontMatrix
        let key = (a: g.a * m.a + g.c * m.b, b: g.b * m.a + g.d * m.b, c: g.a * m.c + g.c * m.d, d: g.b * m.c + g.d * m.d)
        var placed: [(mask: GlyphMasks.Mask, x: Int, y: Int)] = []
        placed.reserveCapacity(run.glyphs.count)
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for (i, glyph) in run.glyphs.enumerated() where i < outlines.count && i < run.positions.count {
            let p = g.apply(run.positions[i])
            guard p.x.isFinite, p.y.isFinite, abs(p.x) < 1e6, abs(p.y) < 1e6,
                  let mask = GlyphMasks.mask(GlyphMasks.Key(face: face, glyph: glyph, a: key.a, b: key.b, c: key.c, d: key.d),
                                             outline: outlines[i]) else { return false }
            guard mask.width > 0 else { continue }
            // Cairo 1.16 puts a glyph's origin on a whole pixel (`_cairo_lround`).
            let x = Int((p.x + 0.5).rounded(.down)) + mask.left, y = Int((p.y + 0.5).rounded(.down)) + mask.top
            placed.append((mask, x, y))
            minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x + mask.width); maxY = max(maxY, y + mask.height)
        }
        guard !placed.isEmpty else { return true }
        let width = maxX - minX, height = maxY - minY
        // A run's mask is at most 16 megapixels (a line of text at @3x is a
        // few hundred thousand): past that the outlines are filled as paths.
        guard width * height <= 16_000_000 else { return false }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(width)))
        guard stride > 0, let memory = RunMaskMemory(bytes: stride * height) else { return false }
        defer { memory.release() }
        let buffer = memory.pointer
        // Overlapping glyphs add, saturating (as Cairo adds glyph masks).
        for (mask, x, y) in placed {
            mask.coverage.withUnsafeBufferPointer { src in
                for row in 0..<mask.height {
                    let to = buffer + (y - minY + row) * stride + (x - minX), from = src.baseAddress! + row * mask.width
                    for col in 0..<mask.width where from[col] != 0 {
                        let sum = Int(to[col]) + Int(from[col])
                        to[col] = UInt8(min(255, sum))
                    }
                }
            }
        }
        guard let surface = cairo_image_surface_create_for_data(buffer, CAIRO_FORMAT_A8, Int32(width), Int32(height), Int32(stride)) else {
            return false
        }
        defer { cairo_surface_destroy(surface) }
        var dsx = 1.0, dsy = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &dsx, &dsy)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_scale(cr, 1 / dsx, 1 / dsy)
        cairo_mask_surface(cr, surface, Double(minX), Double(minY))
        cairo_restore(cr)
        return true
    }

    /// One run's glyphs as filled paths (`GlyphOutlines`, one per glyph,
    /// in em units): each under the run's font matrix at its position.
    static func fill(_ run: GlyphRun, outlines: [GlyphOutlines.Outline], on cr: OpaquePointer) {
        let m = run.fontMatrix
        cairo_new_path(cr)
        for (outline, origin) in zip(outlines, run.positions) {
            // Cairo 1.16 draws a glyph with its origin on a whole device
            // pixel (`_cairo_lround` in its image compositor): the same,
            // so text keeps its crisp stems and its pictures.
            var dx = origin.x, dy = origin.y
            cairo_user_to_device(cr, &dx, &dy)
            dx = (dx + 0.5).rounded(.down); dy = (dy + 0.5).rounded(.down)
            cairo_device_to_user(cr, &dx, &dy)
            let at = Point(dx, dy)
            func place(_ p: Point) -> (Double, Double) { (m.a * p.x + m.c * p.y + at.x, m.b * p.x + m.d * p.y + at.y) }
            for e in outline.elements {
                switch e {
                case .move(let p): let (x, y) = place(p); cairo_move_to(cr, x, y)
                case .line(let p): let (x, y) = place(p); cairo_line_to(cr, x, y)
                case .cubic(let c1, let c2, let p):
                    let (x1, y1) = place(c1), (x2, y2) = place(c2), (x, y) = place(p)
                    cairo_curve_to(cr, x1, y1, x2, y2, x, y)
                case .close: cairo_close_path(cr)
                }
            }
        }
        // Font outlines wind: TrueType and CFF contours are filled nonzero.
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
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

/// A run's mask buffer, zeroed. Large ones are mapped and unmapped
/// directly: through malloc, buffers of a few hundred kilobytes made and
/// freed on several threads left the arenas fragmented (resident memory
/// wandering by a megabyte between rounds of the soak test at -j 4).
struct RunMaskMemory {
    let pointer: UnsafeMutablePointer<UInt8>
    private let mapped: Int

    init?(bytes: Int) {
        guard bytes > 0 else { return nil }
        if bytes >= 64 << 10 {
            guard let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else { return nil }
            pointer = p.assumingMemoryBound(to: UInt8.self)
            mapped = bytes
        } else {
            guard let p = calloc(bytes, 1) else { return nil }
            pointer = p.assumingMemoryBound(to: UInt8.self)
            mapped = 0
        }
    }

    func release() {
        if mapped > 0 { munmap(pointer, mapped) } else { free(pointer) }
    }
}
