import CCairo
import CPangoCairo
import EaselLayout
import EaselModel
import Glibc

/// Cairo font faces for glyph runs, made once per face a process draws and
/// kept while recently used (the table is bounded: a long-lived worker or
/// preview drawing a new `font-variation` with each request keeps the last
/// `capacity` of them, the least recently used out). A face is made from a
/// fontconfig pattern holding exactly what Cairo's FreeType backend reads
/// from one (`_get_pattern_ft_options`), with the values `FontRules.fixed`
/// gives every font — the two must change together — so a run draws as
/// Pango would have drawn it. A variable font's instance is made from a
/// FreeType face of its own, set to the instance's coordinates
/// (`cairo_ft_font_face_create_for_ft_face`, which Cairo reads them from):
/// a PDF embeds each instance as itself, however many instances the process
/// drew before, with no file or descriptor per instance. Cairo's faces are
/// reference-counted and thread-safe; the lock covers only the table.
enum CairoFontFaces {
    private final class Table: @unchecked Sendable {
        var faces: [FontFace: (face: OpaquePointer, used: UInt64)] = [:]
        var clock: UInt64 = 0
    }
    private static let table = Locked(Table())
    /// Faces kept between renders. A render holds its own references to
    /// the faces it drew (through Cairo) for as long as it needs them.
    static let capacity = 32

    /// Frees the faces drawn from the file at `path`: its last font set is
    /// gone, and no render can draw from it any more (a compiled scene holds
    /// its set). Cairo may keep a face a while longer among its recently
    /// used fonts; its path is never handed to other bytes (`FontDescriptors`).
    static func release(path: String) {
        table.withLock { t in
            for (face, entry) in t.faces where face.path == path {
                cairo_font_face_destroy(entry.face)
                t.faces[face] = nil
            }
        }
    }

    /// Faces held now (for the soak run: what a long-lived process keeps).
    static var count: Int { table.withLock { $0.faces.count } }

    /// The Cairo face for `face`, made on first use, as a reference of the
    /// caller's own: `cairo_font_face_destroy` it when done (a context it
    /// was set on holds one of its own).
    static func face(_ face: FontFace) -> OpaquePointer? {
        table.withLock { t in
            t.clock += 1
            if let hit = t.faces[face] {
                t.faces[face]!.used = t.clock
                return cairo_font_face_reference(hit.face)
            }
            guard let made = make(face) else { return nil }
            if t.faces.count >= capacity, let oldest = t.faces.min(by: { $0.value.used < $1.value.used }) {
                cairo_font_face_destroy(oldest.value.face)
                t.faces[oldest.key] = nil
            }
            t.faces[face] = (made, t.clock)
            return cairo_font_face_reference(made)
        }
    }

    private static func make(_ face: FontFace) -> OpaquePointer? {
        if !face.variations.isEmpty, !face.usesBitmaps, let instance = instance(face) { return instance }
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
        return made
    }

    /// A variable font's instance as a face over a FreeType face of its own,
    /// set to the instance's coordinates, which Cairo takes from it when the
    /// face is made: the same loading as a pattern face's (no hinting, no
    /// bitmaps, no autohinter; emboldened where the face synthesises bold).
    /// The FreeType face is freed when Cairo frees the face (its user data).
    /// Nil for a face FreeType cannot open or set: then the pattern's way.
    private static func instance(_ face: FontFace) -> OpaquePointer? {
        var opened: FT_Face?
        guard FontSystem.withFreeType({ library -> Bool in
            guard let library else { return false }
            return FT_New_Face(library, face.path, FT_Long(face.index), &opened) == 0
        }), let ft = opened else { return nil }
        func fail() -> OpaquePointer? {
            _ = FontSystem.withFreeType { _ in FT_Done_Face(ft) }
            return nil
        }
        guard let (coords, _) = FontVariations.coordinates(face.variations, in: ft) else { return fail() }
        var c = coords
        guard FT_Set_Var_Design_Coordinates(ft, FT_UInt(c.count), &c) == 0 else { return fail() }
        let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_NO_AUTOHINT)
        guard let made = cairo_ft_font_face_create_for_ft_face(ft, flags) else { return fail() }
        guard cairo_font_face_status(made) == CAIRO_STATUS_SUCCESS,
              cairo_font_face_set_user_data(made, freeTypeFaceKey, UnsafeMutableRawPointer(ft), { pointer in
                  guard let pointer else { return }
                  _ = FontSystem.withFreeType { _ in FT_Done_Face(FT_Face(OpaquePointer(pointer))) }
              }) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(made)
            return fail()
        }
        if face.synthesizesBold { cairo_ft_font_face_set_synthesize(made, UInt32(CAIRO_FT_SYNTHESIZE_BOLD.rawValue)) }
        return made
    }

    /// The key of a Cairo face's FreeType face (its address is the key).
    nonisolated(unsafe) private static let freeTypeFaceKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

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
