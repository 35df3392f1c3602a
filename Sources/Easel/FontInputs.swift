import EaselParse
import Foundation

extension Diagnostic.Message {
    static func fontFolderUnreadable(_ path: String) -> Self { .init("cannot read the font folder '\(path)'") }
    static func fontFileUnreadable(_ path: String) -> Self { .init("cannot read the font file '\(path)'") }
    static func fontFileTooLarge(_ path: String, _ size: Int, _ limit: Int) -> Self {
        .init("'\(path)' is \(size) bytes, more than the limit of \(limit) bytes (raise it with --max-file-size)")
    }
    static func notAFontFile(_ path: String) -> Self {
        .init("'\(path)' is not a font file (TrueType, OpenType, a collection, WOFF or WOFF2)")
    }
}

/// The font files a compile reads besides the scene's own `<font src>`:
/// every font under each `--font-dir`, and the system fonts its text used.
/// Both are read and hashed once a process while their files are
/// unchanged (same size, modification time and inode), so a build of 500
/// scenes with one font folder, or one 20 MB CJK font, reads it once.
enum FontInputs {
    /// What `--font-dir` takes from a folder (and its subfolders).
    static let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2"]

    private struct Stamp: Hashable { var size: Int; var modified: Int; var inode: UInt64 }
    private struct Read: Sendable { var stamp: Stamp; var file: DeclaredFontFile }
    private static let cache = Locked<[String: Read]>([:])

    /// Every font file under `folders`, in path order, folder by folder.
    static func declaredFiles(in folders: [URL], limit: Int) -> Result<[DeclaredFontFile], Diagnostic> {
        var out: [DeclaredFontFile] = []
        for folder in folders {
            guard let paths = fontFiles(in: folder) else {
                return .failure(Diagnostic(.error, .fontFolderUnreadable(folder.path), at: nil))
            }
            for path in paths {
                switch read(path, limit: limit) {
                case .success(let f): out.append(f)
                case .failure(let d): return .failure(d)
                }
            }
        }
        return .success(out)
    }

    /// The font files under `folders`' (absolute, sorted), for a build's
    /// fingerprint; an unreadable folder is named as such.
    static func fileNames(in folders: [URL]) -> [String] {
        folders.flatMap { fontFiles(in: $0) ?? ["unreadable: \($0.path)"] }
    }

    /// The paths of the font files under `folder` and its subfolders, sorted; nil if it is not a folder.
    private static func fontFiles(in folder: URL) -> [String]? {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue,
              let walker = FileManager.default.enumerator(atPath: root.path) else { return nil }
        var paths: [String] = []
        while let item = walker.nextObject() as? String {
            if extensions.contains((item as NSString).pathExtension.lowercased()) { paths.append(root.appendingPathComponent(item).path) }
        }
        return paths.sorted()
    }

    /// A used system font as a file the compile read (nil if it cannot be read now).
    static func record(ofSystemFont path: String) -> FileRecord? {
        guard case .success(let f) = read(path, limit: .max, keepBytes: false) else { return nil }
        return FileRecord(path: f.path, sha256: f.sha256, size: stamp(path)?.size ?? 0)
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
                     inode: UInt64(info.st_ino))
    }

    private static func read(_ path: String, limit: Int, keepBytes: Bool = true) -> Result<DeclaredFontFile, Diagnostic> {
        guard let stamp = stamp(path) else { return .failure(Diagnostic(.error, .fontFileUnreadable(path), at: nil)) }
        if let hit = cache.withLock({ $0[path] }), hit.stamp == stamp, !keepBytes || !hit.file.bytes.isEmpty { return .success(hit.file) }
        switch FileBytes.read(path, limit: limit) {
        case .failure(.tooLarge(let size)): return .failure(Diagnostic(.error, .fontFileTooLarge(path, size, limit), at: nil))
        case .failure: return .failure(Diagnostic(.error, .fontFileUnreadable(path), at: nil))
        case .success(let bytes):
            if keepBytes, FontFileKind(bytes) == nil { return .failure(Diagnostic(.error, .notAFontFile(path), at: nil)) }
            let file = DeclaredFontFile(path: path, sha256: ContentHash.sha256(bytes), bytes: keepBytes ? bytes : [])
            cache.withLock { $0[path] = Read(stamp: stamp, file: file) }
            return .success(file)
        }
    }
}
