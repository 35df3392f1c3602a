import CPangoCairo
import Glibc
import EaselModel

extension Diagnostic.Message {
    static func fontUnreadable(_ path: String) -> Self {
        .init(.unusableFont, "cannot read a font from '\(path)'")
    }
    static func woffCollection(_ path: String) -> Self {
        .init(.unusableFont, "'\(path)' is a WOFF2 font collection, which Easel does not read; use the collection as a .ttc file")
    }
    static func tooManyFaces(_ path: String, _ count: Int) -> Self {
        .init(.unusableFont, "'\(path)' is a collection of \(count) faces, more than the \(FontNames.maxFaces) Easel reads from one file")
    }
    static func noAnonymousFile(_ path: String, _ reason: String) -> Self {
        .init(.unusableFont, "cannot load the font '\(path)': \(reason)")
    }
    static let fontConfigurationFailed = Self(.unusableFont, "fontconfig could not make the compile's font set")
}

/// Why a declared file gives no font.
enum FontFileProblem: Error, Sendable {
    case unreadable
    case woffCollection
    case tooManyFaces(Int)
    /// No anonymous file for the bytes (`memfd_create` failed: too many
    /// open files, say).
    case noAnonymousFile(String)
    case configuration
}

/// A declared font file (`<font src>`, `--font-dir`): its bytes, read once
/// by the compile that declared it.
public struct DeclaredFontFile: Sendable {
    /// The path as the compile read it (what `easel layout` reports).
    public var path: String
    /// What tells these bytes from others in a process: their content hash,
    /// or the file's path, size, modification time and inode (a font folder's
    /// files are not hashed unless a text uses them).
    public var identity: String
    public var bytes: [UInt8]
    public init(path: String, identity: String, bytes: [UInt8]) { self.path = path; self.identity = identity; self.bytes = bytes }
}

/// Paths for font files that are never used twice in a process. Cairo
/// and fontconfig know a font by its path, and Cairo keeps recently used
/// fonts (and reopens their FreeType faces by path) for a while after the
/// last reference goes: a closed font's `/proc/self/fd/N` handed to other
/// bytes could draw the old font's glyphs. Descriptor numbers are reused as
/// the kernel hands them out; the path of the g-th font at number N spells
/// g in components that lead back where they start (after `/proc/self`,
/// `/task/..` a 1, `/fd/..` a 0): one path per font, however many fonts a
/// process has held, and no descriptor kept past its font. (Numbers that
/// only grew ran out past half the descriptor limit, and every later
/// font's descriptor then stayed open.)
enum FontPaths {
    /// Fonts held so far at each number (bounded by the descriptor limit).
    private static let generations = Locked<[Int32: UInt64]>([:])

    /// A path for the anonymous file open at `fd` that no font had before.
    static func unused(for fd: Int32) -> String {
        let generation = generations.withLock { all -> UInt64 in
            let g = all[fd, default: 0]
            all[fd] = g + 1
            return g
        }
        return path(fd: fd, generation: generation)
    }

    /// `/proc/self/fd/7`, then `/proc/self/task/../fd/7`,
    /// `/proc/self/task/../fd/../fd/7`, `/proc/self/task/../task/../fd/7`…
    static func path(fd: Int32, generation: UInt64) -> String {
        var bits: [String] = []
        var rest = generation
        while rest > 0 {
            bits.append(rest & 1 == 1 ? "/task/.." : "/fd/..")
            rest >>= 1
        }
        return "/proc/self" + bits.reversed().joined() + "/fd/\(fd)"
    }
}

/// Declared fonts in anonymous in-memory files, one per content, kept while
/// a font set uses them. Fontconfig, HarfBuzz and FreeType open fonts by
/// path; `/proc/self/fd/N` of an anonymous file is a path that always
/// means these bytes — a font edited on disk later (the preview) is a new
/// file, never a changed one under glyphs already shaped — and WOFF and
/// WOFF2 are stored decoded, as the sfnt HarfBuzz can read. A long-lived
/// process (the preview, `build --watch`) holds only the fonts its font
/// sets use: when the last set using a file goes, the file and the Cairo
/// faces drawn from it go too (`release`).
enum AnonymousFontFiles {
    struct Stored: Sendable {
        /// What fontconfig, HarfBuzz and FreeType open.
        var path: String
        /// Every family name the file's faces have (for refusing other
        /// fonts with those names).
        var families: [String]
        /// The file's faces have colour glyphs (CBDT, sbix, COLR or SVG tables).
        var isColor = false
        /// The anonymous file's descriptor (none where the font is read
        /// from where it lies), and how many font sets hold it.
        fileprivate var fd: Int32?
        fileprivate var holders = 0
    }

    private static let stored = Locked<[String: Stored]>([:])

    /// Files held now, for tests and the soak run: what a long-lived
    /// process keeps.
    public static var count: Int { stored.withLock { $0.count } }

    /// Gives the file back for one holder (a font set that stored it); the
    /// last gives it up: its descriptor is closed and its Cairo faces freed.
    static func release(_ identities: [String]) {
        var gone: [Stored] = []
        stored.withLock { all in
            for identity in identities {
                guard var entry = all[identity] else { continue }
                entry.holders -= 1
                if entry.holders > 0 || entry.fd == nil { all[identity] = entry } else { all[identity] = nil; gone.append(entry) }
            }
        }
        // A font read from where it lies (no anonymous file: no /proc or
        // memfd) may be a system font's file too: it stays stored.
        for entry in gone {
            guard let fd = entry.fd else { continue }
            CairoFontFaces.release(path: entry.path)
            GlyphOutlines.release(path: entry.path)
            GlyphMasks.release(path: entry.path)
            close(fd)
        }
    }

    /// Stores the file (or finds it stored) for one more holder, who must
    /// `release` it.
    static func store(_ file: DeclaredFontFile) -> Result<Stored, FontFileProblem> {
        if let hit = stored.withLock({ all -> Stored? in
            guard var entry = all[file.identity] else { return nil }
            entry.holders += 1
            all[file.identity] = entry
            return entry
        }) { return .success(hit) }
        let result: Result<(Stored, Int32?), FontFileProblem> = FontSystem.withFreeType { library in
            guard let library else { return .failure(.unreadable) }
            var sfnt = file.bytes
            let wrapped: Bool
            switch FontFileKind(file.bytes) {
            case .woff?, .woff2?:
                switch SFNTFromWOFF.decode(file.bytes, library: library) {
                case .success(let decoded): sfnt = decoded
                case .failure(let problem): return .failure(problem)
                }
                wrapped = true
            case .sfnt?, .collection?: wrapped = false
            case nil: return .failure(.unreadable)
            }
            let names: FontNames
            switch FontNames.read(sfnt, library: library) {
            case .success(let read): names = read
            case .failure(let problem): return .failure(problem)
            }
            switch anonymousFile(sfnt) {
            case .success(let (path, fd)):
                return .success((Stored(path: path, families: names.families, isColor: names.isColor, fd: fd), fd))
            // Without anonymous files (no /proc, no memfd), an sfnt is used
            // from where it lies; WOFF needs its decoded bytes somewhere.
            case .failure where !wrapped: return .success((Stored(path: file.path, families: names.families, isColor: names.isColor), nil))
            case .failure(let problem): return .failure(problem)
            }
        }
        guard case .success(let (made, fd)) = result else { return result.map(\.0) }
        // Another thread may have stored the same bytes meanwhile: one file
        // per content; this one's path was never handed out.
        return .success(stored.withLock { all in
            if var first = all[file.identity] {
                if let fd { close(fd) }
                first.holders += 1
                all[file.identity] = first
                return first
            }
            var entry = made
            entry.holders = 1
            all[file.identity] = entry
            return entry
        })
    }

    /// The bytes in an anonymous file (`memfd_create`), open until its
    /// last holder releases it, at a path no font had before
    /// (`FontPaths`): Cairo and fontconfig cache faces by path.
    private static func anonymousFile(_ bytes: [UInt8]) -> Result<(path: String, fd: Int32), FontFileProblem> {
        let fd = easel_memfd_create("easel-font")
        guard fd >= 0 else { return .failure(.noAnonymousFile(String(cString: strerror(errno)))) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                return .failure(.noAnonymousFile(reason))
            }
            written += n
        }
        let path = FontPaths.unused(for: fd)
        guard access(path, R_OK) == 0 else {
            close(fd)
            return .failure(.noAnonymousFile("/proc is not mounted"))
        }
        return .success((path, fd))
    }
}

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
