import CPangoCairo
import Glibc
import EaselModel

/// A font's family names from its `name` table (typographic, WWS and
/// legacy families, every platform and language), as fontconfig gives them
/// to the font: what other fonts must not also claim when it is declared;
/// and whether it has colour glyphs (its families then come first for emoji).
struct FontNames {
    var families: [String]
    var isColor: Bool

    /// Faces read from one collection: Noto CJK has 10; a file claiming
    /// millions would make fontconfig read each in turn.
    static let maxFaces = 256
    static let colorTables = ["CBDT", "sbix", "COLR", "SVG "]

    static func read(_ bytes: [UInt8], library: FT_Library) -> Result<FontNames, FontFileProblem> {
        bytes.withUnsafeBufferPointer { buffer -> Result<FontNames, FontFileProblem> in
            var names: [String] = []
            var isColor = false
            var faceCount = 1
            var index = 0
            while index < faceCount {
                var face: FT_Face?
                guard FT_New_Memory_Face(library, buffer.baseAddress, FT_Long(buffer.count), FT_Long(index), &face) == 0,
                      let face else { return .failure(.unreadable) }
                defer { FT_Done_Face(face) }
                faceCount = Int(face.pointee.num_faces)
                guard faceCount <= maxFaces else { return .failure(.tooManyFaces(faceCount)) }
                if let family = face.pointee.family_name { names.append(String(cString: family)) }
                for table in colorTables {
                    let tag = table.utf8.reduce(FT_ULong(0)) { $0 << 8 | FT_ULong($1) }
                    var length: FT_ULong = 0
                    if FT_Load_Sfnt_Table(face, tag, 0, nil, &length) == 0, length > 0 { isColor = true }
                }
                for i in 0..<FT_Get_Sfnt_Name_Count(face) {
                    var name = FT_SfntName()
                    guard FT_Get_Sfnt_Name(face, i, &name) == 0, [1, 16, 21].contains(name.name_id),
                          let text = decode(name) else { continue }
                    names.append(text)
                }
                index += 1
            }
            var seen = Set<String>()
            let families = names.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
            return families.isEmpty ? .failure(.unreadable) : .success(FontNames(families: families, isColor: isColor))
        }
    }

    /// UTF-16BE for the Unicode and Windows platforms, Mac Roman's ASCII
    /// part for the Macintosh platform; nil for other encodings.
    private static func decode(_ name: FT_SfntName) -> String? {
        guard let p = name.string else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: p, count: Int(name.string_len)))
        switch name.platform_id {
        case 0, 3:
            guard bytes.count % 2 == 0 else { return nil }
            let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case 1 where name.encoding_id == 0:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        default:
            return nil
        }
    }
}
