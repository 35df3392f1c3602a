import CPangoCairo
import Glibc
import EaselModel

/// WOFF and WOFF2 to the sfnt (TrueType/OpenType) they wrap. FreeType
/// reads both (zlib and Brotli, WOFF2's glyph transform); its tables are
/// written back out as a plain sfnt, which HarfBuzz (through Pango) needs:
/// it reads font files, not WOFF.
enum SFNTFromWOFF {
    static func decode(_ bytes: [UInt8], library: FT_Library) -> Result<[UInt8], FontFileProblem> {
        guard bytes.count >= 12 else { return .failure(.unreadable) }
        // The WOFF header's flavor: the wrapped font's sfnt version.
        let flavor = Array(bytes[4..<8])
        guard flavor != Array("ttcf".utf8) else { return .failure(.woffCollection) }
        return bytes.withUnsafeBufferPointer { buffer -> Result<[UInt8], FontFileProblem> in
            var face: FT_Face?
            guard FT_New_Memory_Face(library, buffer.baseAddress, FT_Long(buffer.count), 0, &face) == 0, let face else {
                return .failure(.unreadable)
            }
            defer { FT_Done_Face(face) }
            var tables: [(tag: UInt32, data: [UInt8])] = []
            var count: FT_ULong = 0
            // With a NULL tag, FT_Sfnt_Table_Info gives the number of tables.
            guard FT_Sfnt_Table_Info(face, 0, nil, &count) == 0 else { return .failure(.unreadable) }
            for i in 0..<count {
                var tag: FT_ULong = 0, length: FT_ULong = 0
                guard FT_Sfnt_Table_Info(face, FT_UInt(i), &tag, &length) == 0 else { return .failure(.unreadable) }
                var data = [UInt8](repeating: 0, count: Int(length))
                var got = length
                let error = data.withUnsafeMutableBufferPointer { FT_Load_Sfnt_Table(face, tag, 0, $0.baseAddress, &got) }
                guard error == 0, got == length else { return .failure(.unreadable) }
                tables.append((UInt32(tag), data))
            }
            guard !tables.isEmpty else { return .failure(.unreadable) }
            return .success(assemble(flavor: flavor, tables: tables.sorted { $0.tag < $1.tag }))
        }
    }

    /// An sfnt: the offset table, one record per table (tag, checksum,
    /// offset, length), then the tables, each padded to four bytes.
    static func assemble(flavor: [UInt8], tables: [(tag: UInt32, data: [UInt8])]) -> [UInt8] {
        var out = flavor
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) { out += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let n = tables.count
        var power = 1, log2 = 0
        while power * 2 <= n { power *= 2; log2 += 1 }
        u16(n); u16(power * 16); u16(log2); u16(n * 16 - power * 16)
        var offset = 12 + 16 * n
        for t in tables {
            u32(t.tag); u32(checksum(t.data)); u32(UInt32(offset)); u32(UInt32(t.data.count))
            offset += (t.data.count + 3) & ~3
        }
        for t in tables {
            out += t.data
            out += [UInt8](repeating: 0, count: ((t.data.count + 3) & ~3) - t.data.count)
        }
        return out
    }

    static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var i = 0
        while i < data.count {
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 8 | UInt32(i + k < data.count ? data[i + k] : 0) }
            sum = sum &+ word
            i += 4
        }
        return sum
    }
}
