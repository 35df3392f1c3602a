import CCairo
import CPangoCairo
import EaselLayout
import EaselModel
import Glibc

/// Cairo font faces for glyph runs, made once per face a process draws and
/// kept while recently used: the table is bounded (a long-lived worker or
/// preview drawing a new `font-variation` with each request keeps the last
/// `capacity` of them, the least recently used out). Each is made from a
/// fontconfig pattern holding exactly what Cairo's FreeType backend reads
/// from one (`_get_pattern_ft_options`), with the values `FontRules.fixed`
/// gives every font — the two must change together — so a run draws as
/// Pango would have drawn it. Cairo's faces are reference-counted and
/// thread-safe; the lock covers only the table.
///
/// Cairo keeps one FreeType face per font file path, and a FreeType face has
/// one set of axis coordinates at a time, which a PDF's embedded outlines
/// are read at when it is finished. So the instances of one variable font
/// that one document draws each get a *slot* (`CairoFontAccess.Hold.slot`):
/// slot k opens the file by a spelling of its path of its own
/// (`/./…` k times), which Cairo takes for another file and gives a
/// FreeType face of its own; before the document is finished every slot it
/// drew is set to its instance (`settleVariations`). Slots are per document,
/// so a process needs as many spellings as one document has instances of
/// one font, whatever it drew before — no descriptor, no file per instance.
/// (A Cairo face over a FreeType face of Easel's own, Cairo's other way to
/// name an instance, leaks about 740 bytes in Cairo 1.16 each time one is
/// made: a worker drawing a new weight with each request would grow.)
enum CairoFontFaces {
    struct Key: Hashable {
        var face: FontFace
        var slot: Int
    }
    private final class Table: @unchecked Sendable {
        var faces: [Key: (face: OpaquePointer, used: UInt64)] = [:]
        var clock: UInt64 = 0
    }
    private static let table = Locked(Table())
    /// Faces kept between renders. A render holds its own references to
    /// the faces it drew (through Cairo) for as long as it needs them.
    static let capacity = 32

    /// Frees the faces drawn from the file at `path`: its last font set is
    /// gone, and no render can draw from it any more (a compiled scene holds
    /// its set). Cairo may keep a face a while longer among its recently
    /// used fonts; its path is never handed to other bytes (`FontPaths`).
    static func release(path: String) {
        guard let file = FontFiles.existing(path) else { return }
        table.withLock { t in
            for (key, entry) in t.faces where key.face.file == file {
                cairo_font_face_destroy(entry.face)
                t.faces[key] = nil
            }
        }
    }

    /// Faces held now (for the soak run: what a long-lived process keeps).
    static var count: Int { table.withLock { $0.faces.count } }

    /// The Cairo face for `face` in `slot`, made on first use, as a reference
    /// of the caller's own: `cairo_font_face_destroy` it when done (a context
    /// it was set on holds one of its own).
    static func face(_ face: FontFace, slot: Int = 0) -> OpaquePointer? {
        let key = Key(face: face, slot: slot)
        return table.withLock { t in
            t.clock += 1
            if let hit = t.faces[key] {
                t.faces[key]!.used = t.clock
                return cairo_font_face_reference(hit.face)
            }
            guard let made = make(face, slot: slot) else { return nil }
            if t.faces.count >= capacity, let oldest = t.faces.min(by: { $0.value.used < $1.value.used }) {
                cairo_font_face_destroy(oldest.value.face)
                t.faces[oldest.key] = nil
            }
            t.faces[key] = (made, t.clock)
            return cairo_font_face_reference(made)
        }
    }

    /// `/proc/self/fd/7` in slot 2: `/././proc/self/fd/7`, the same file.
    static func spelling(of path: String, slot: Int) -> String {
        guard slot > 0, path.hasPrefix("/") else { return path }
        return String(repeating: "/.", count: slot) + path
    }

    private static func make(_ face: FontFace, slot: Int) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = spelling(of: FontFiles.path(face.file), slot: slot).withCString {
            FcPatternAddString(pattern, "file", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        FcPatternAddInteger(pattern, "index", Int32(face.index))
        FcPatternAddBool(pattern, "antialias", 1)
        // Bitmap fonts need hinting in the pattern for Cairo to draw their
        // bitmaps at all; outlines stay unhinted either way (the drawing's
        // font options say so).
        FcPatternAddBool(pattern, "hinting", face.usesBitmaps ? 1 : 0)
        FcPatternAddInteger(pattern, "hintstyle", face.usesBitmaps ? 1 : 0)   // FC_HINT_SLIGHT, FC_HINT_NONE
        FcPatternAddBool(pattern, "embeddedbitmap", face.usesBitmaps ? 1 : 0)
        FcPatternAddBool(pattern, "autohint", 0)
        FcPatternAddInteger(pattern, "rgba", 5)          // FC_RGBA_NONE
        FcPatternAddInteger(pattern, "lcdfilter", 0)     // FC_LCD_NONE
        FcPatternAddBool(pattern, "embolden", face.synthesizesBold ? 1 : 0)
        if !face.variations.isEmpty {
            _ = face.variations.withCString {
                FcPatternAddString(pattern, "fontvariations", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            }
        }
        guard let made = cairo_ft_font_face_create_for_pattern(pattern) else { return nil }
        guard cairo_font_face_status(made) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(made)
            return nil
        }
        return made
    }

    /// Before a PDF is finished: Cairo 1.16 embeds a variable font as a
    /// subset of its file (its default instance) or as outlines by reading
    /// the axis coordinates its FreeType face for the file was *last* set to
    /// (`_cairo_ft_is_synthetic`), not the document's — glyphs cached by an
    /// earlier render, or a face Cairo closed and opened again, leave them
    /// anywhere. So each slot the document drew (each instance a FreeType
    /// face of its own) is set here to its instance, the default instance
    /// too. Called under the render's `CairoFontAccess` hold. The faces set
    /// stay locked until `release` (after the surface is finished): Cairo
    /// closes an unlocked face when it opens an eleventh, and one opened
    /// again reads as its default instance.
    static func settleVariations(for drawn: [(face: FontFace, slot: Int)]) -> SettledFaces {
        var settled = SettledFaces()
        for (face, slot) in drawn {
            guard let cairoFace = self.face(face, slot: slot) else { continue }
            defer { cairo_font_face_destroy(cairoFace) }
            var identity = cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)
            guard let scaled = cairo_scaled_font_create(cairoFace, &identity, &identity, options) else { continue }
            // cairo_ft_scaled_font_lock_face gives the face's mutex back and
            // keeps its lock count: Cairo may use the face meanwhile, but
            // not close it.
            guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS, let ft = cairo_ft_scaled_font_lock_face(scaled) else {
                cairo_scaled_font_destroy(scaled)
                continue
            }
            // A face without axes has nothing to set, and need not stay open.
            guard var (coords, _) = FontVariations.coordinates(face.variations, in: ft) else {
                cairo_ft_scaled_font_unlock_face(scaled)
                cairo_scaled_font_destroy(scaled)
                continue
            }
            settled.locked.append(scaled)
            // Unset, the PDF would embed this instance at whatever the face
            // was last set to: the render fails instead.
            if FT_Set_Var_Design_Coordinates(ft, FT_UInt(coords.count), &coords) != 0 { settled.unset.append(FontFiles.path(face.file)) }
        }
        return settled
    }

    /// Faces `settleVariations` set and keeps open.
    struct SettledFaces {
        fileprivate var locked: [OpaquePointer] = []
        /// Fonts whose axes FreeType would not set.
        var unset: [String] = []
        func release() {
            for scaled in locked.reversed() {
                cairo_ft_scaled_font_unlock_face(scaled)
                cairo_scaled_font_destroy(scaled)
            }
        }
    }

    /// The font options text is shaped and drawn with: grey anti-aliasing,
    /// no hinting, unhinted metrics (the shaping contexts take them too).
    nonisolated(unsafe) static let options: OpaquePointer = {
        let options = cairo_font_options_create()!
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        return options
    }()
}
