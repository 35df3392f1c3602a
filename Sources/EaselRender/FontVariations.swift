import CPangoCairo
import EaselModel

/// A face's `font-variation` as FreeType design coordinates: what Cairo's
/// faces are set to before a PDF embeds them (`CairoFontFaces`), and what
/// Easel's own outline faces (`GlyphOutlines`) are read at.
enum FontVariations {
    /// A `wght=650,wdth=100` setting as design coordinates for every axis
    /// of the face (the axis's default where it names none), and whether
    /// any differs from its default; nil for a face without axes.
    static func coordinates(_ variations: String, in ft: FT_Face) -> ([FT_Fixed], Bool)? {
        guard ft.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0 else { return nil }
        var master: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(ft, &master) == 0, let master else { return nil }
        defer { FT_Done_MM_Var(ft.pointee.glyph.pointee.library, master) }
        let axes = UnsafeBufferPointer(start: master.pointee.axis, count: Int(master.pointee.num_axis))
        var coords = axes.map(\.def)
        for setting in variations.split(separator: ",") {
            let parts = setting.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1].trimmingSpaces) else { continue }
            let tag = parts[0].trimmingSpaces.utf8.reduce(FT_ULong(0)) { $0 << 8 | FT_ULong($1) }
            if let i = axes.firstIndex(where: { $0.tag == tag }) { coords[i] = FT_Fixed((value * 65536).rounded()) }
        }
        return (coords, zip(coords, axes).contains { $0 != $1.def })
    }
}
