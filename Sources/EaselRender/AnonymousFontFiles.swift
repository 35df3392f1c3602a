import CPangoCairo
import Glibc
import EaselModel

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
