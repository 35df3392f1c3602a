import CCairo
import CPangoCairo
import EaselLayout
import EaselModel
import Glibc

/// Cairo font faces for glyph runs, made once per face a process draws.
/// Each is made from a fontconfig pattern holding exactly what Cairo's
/// FreeType backend reads from one (`_get_pattern_ft_options`), with the
/// values `FontRules.fixed` gives every font — the two must change
/// together — so a run draws as Pango would have drawn it. Cairo's faces
/// are thread-safe; the lock covers only the table.
enum CairoFontFaces {
    private final class Table: @unchecked Sendable {
        var faces: [FontFace: OpaquePointer] = [:]
        /// The file each face was made from (`instanceFile`).
        var files: [FontFace: String] = [:]
        /// By font file and face index: the file each variable instance is
        /// opened as.
        var instances: [String: [String: String]] = [:]
        /// Instance files whose descriptors may be closed with their font.
        var closable = Set<String>()
    }
    private static let table = Locked(Table())

    /// The path Cairo opens a face's file by. Cairo keeps one FreeType face
    /// per file path and face index, and a FreeType face has one set of
    /// axis coordinates at a time, which a PDF's embedded outlines are read
    /// at: so each variable instance after a file's first is opened by a
    /// path of its own — a descriptor of the same file, open for the life
    /// of the process (its `/proc/self/fd` path never names other bytes),
    /// one per instance drawn — and a PDF with two weights of one variable
    /// font embeds each weight as itself.
    private static func instanceFile(_ face: FontFace, _ t: Table) -> String {
        guard !face.variations.isEmpty else { return face.path }
        let key = "\(face.path)#\(face.index)"
        if let file = t.instances[key]?[face.variations] { return file }
        var file = face.path
        // At most 64 instances of one file get files of their own (a
        // descriptor each, kept with the font): past that they share the
        // file, and a PDF may draw them at another instance's coordinates.
        if let known = t.instances[key], !known.isEmpty, known.count < 64 {
            let fd = open(face.path, O_RDONLY | O_CLOEXEC)
            if fd >= 0 {
                let (renumbered, closable) = FontDescriptors.renumbered(fd)
                file = "/proc/self/fd/\(renumbered)"
                if closable { t.closable.insert(file) }
            }
        }
        t.instances[key, default: [:]][face.variations] = file
        return file
    }

    /// Frees the faces drawn from the file at `path` and closes the files
    /// its instances were opened as: its last font set is gone, and no
    /// render can draw from it any more (a compiled scene holds its set).
    /// Cairo may keep a face a while longer among its recently used fonts;
    /// its path is never handed to other bytes (`FontDescriptors`).
    static func release(path: String) {
        table.withLock { t in
            for (face, made) in t.faces where face.path == path {
                cairo_font_face_destroy(made)
                t.faces[face] = nil
                t.files[face] = nil
            }
            for key in t.instances.keys where key.hasPrefix(path + "#") {
                for file in t.instances[key]!.values where t.closable.remove(file) != nil {
                    if let fd = Int32(file.dropFirst("/proc/self/fd/".count)) { close(fd) }
                }
                t.instances[key] = nil
            }
        }
    }

    /// Faces held now (for the soak run: what a long-lived process keeps).
    static var count: Int { table.withLock { $0.faces.count } }

    /// The file `face` was made from (see `instanceFile`).
    static func file(of face: FontFace) -> String {
        table.withLock { $0.files[face] ?? face.path }
    }

    static func face(_ face: FontFace) -> OpaquePointer? {
        table.withLock { t in
            if let hit = t.faces[face] { return hit }
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            let file = instanceFile(face, t)
            t.files[face] = file
            _ = file.withCString { FcPatternAddString(pattern, "file", UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
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

    /// Before a PDF is finished: Cairo 1.16 embeds a variable font as a
    /// subset of its file (its default instance) or as outlines by reading
    /// the axis coordinates its one shared FreeType face was *last* set to
    /// (`_cairo_ft_is_synthetic`), not the document's. Glyphs cached by an
    /// earlier render, or a face Cairo closed and opened again, leave them
    /// anywhere — a history-dependent PDF, and bold text drawn at the
    /// default weight. So each variable file the document drew is set here
    /// to its instance (each instance is a file of its own, `instanceFile`):
    /// a non-default one is embedded as outlines at its coordinates, the
    /// default one as a subset.
    /// Called under the render's `CairoFontAccess` hold. The faces set stay
    /// locked until `release` (after the surface is finished): Cairo closes
    /// an unlocked face when it opens an eleventh, and one opened again reads
    /// as its default instance — so subsetting the document's other fonts
    /// could undo the setting (seen once in a fresh-clone CI run: a PDF
    /// embedding Inter's default instance for its bold text).
    static func settleVariations(for faces: [FontFace]) -> SettledFaces {
        var settled = SettledFaces()
        var chosen: [String: (face: FontFace, coords: [FT_Fixed], nonDefault: Bool)] = [:]
        var order: [String] = []
        for face in faces where !face.variations.isEmpty {
            guard let cairoFace = self.face(face) else { continue }
            withLockedFace(cairoFace) { ft in
                guard let (coords, nonDefault) = FontVariations.coordinates(face.variations, in: ft) else { return }
                let file = "\(self.file(of: face))#\(face.index & 0xFFFF)"
                if chosen[file] == nil { order.append(file) }
                if chosen[file] == nil || nonDefault || !(chosen[file]!.nonDefault) {
                    chosen[file] = (face, coords, nonDefault)
                }
            }
        }
        for file in order {
            guard let pick = chosen[file], let cairoFace = self.face(pick.face) else { continue }
            var identity = cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)
            guard let scaled = cairo_scaled_font_create(cairoFace, &identity, &identity, options) else { continue }
            // cairo_ft_scaled_font_lock_face gives the face's mutex back and
            // keeps its lock count: Cairo may use the face meanwhile, but
            // not close it.
            guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS, let ft = cairo_ft_scaled_font_lock_face(scaled) else {
                cairo_scaled_font_destroy(scaled)
                continue
            }
            var coords = pick.coords
            // Unset, the PDF would embed this instance at whatever the face
            // was last set to: the render fails instead.
            if FT_Set_Var_Design_Coordinates(ft, FT_UInt(coords.count), &coords) != 0 { settled.unset.append(pick.face.path) }
            settled.locked.append(scaled)
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

    /// Runs `body` with the FreeType face behind a Cairo face, locked.
    private static func withLockedFace(_ cairoFace: OpaquePointer, _ body: (FT_Face) -> Void) {
        var identity = cairo_matrix_t(xx: 1, yx: 0, xy: 0, yy: 1, x0: 0, y0: 0)
        guard let scaled = cairo_scaled_font_create(cairoFace, &identity, &identity, options) else { return }
        defer { cairo_scaled_font_destroy(scaled) }
        guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS, let ft = cairo_ft_scaled_font_lock_face(scaled) else { return }
        defer { cairo_ft_scaled_font_unlock_face(scaled) }
        body(ft)
    }
}
