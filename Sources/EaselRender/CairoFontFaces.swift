import CCairo
import CPangoCairo
import EaselLayout
import EaselModel

/// Cairo font faces for glyph runs, made once per face a process draws.
/// Each is made from a fontconfig pattern holding exactly what Cairo's
/// FreeType backend reads from one (`_get_pattern_ft_options`), with the
/// values `FontRules.fixed` gives every font — the two must change
/// together — so a run draws as Pango would have drawn it. Cairo's faces
/// are thread-safe; the lock covers only the table.
enum CairoFontFaces {
    private final class Table: @unchecked Sendable { var faces: [FontFace: OpaquePointer] = [:] }
    private static let table = Locked(Table())

    static func face(_ face: FontFace) -> OpaquePointer? {
        table.withLock { t in
            if let hit = t.faces[face] { return hit }
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            _ = face.path.withCString { FcPatternAddString(pattern, "file", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
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
            t.faces[face] = made
            return made
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
