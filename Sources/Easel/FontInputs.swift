import EaselParse
import FoundationEssentials
import Glibc

extension Diagnostic.Message {
    static func fontFolderUnreadable(_ path: String, _ reason: String? = nil) -> Self {
        .init(.unusableFont, "cannot read the font folder '\(path)'" + (reason.map { ": \($0)" } ?? ""))
    }
    static func fontFileUnreadable(_ path: String) -> Self { .init(.unusableFont, "cannot read the font file '\(path)'") }
    static func fontFileTooLarge(_ path: String, _ size: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "'\(path)' is \(size) bytes, more than the limit of \(limit) bytes (raise it with --max-file-size)")
    }
}

/// The font files a compile reads besides the scene's own `<font src>`:
/// every font under each `--font-dir`, and the fonts its text used. Each
/// is read once a process, and hashed only when a record of it is asked
/// for (a build's manifest), once, while the file is unchanged (same size,
/// modification time and inode): a build of 500 scenes with one font
/// folder, or one 20 MB CJK font, reads it once and hashes it once.
enum FontInputs {
    /// What `--font-dir` takes from a folder (and its subfolders).
    static let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2"]

    private struct Stamp: Hashable { var size: Int; var modified: Int; var inode: UInt64 }
    private struct Known: Sendable { var stamp: Stamp; var bytes: [UInt8]?; var record: FileRecord?; var used: UInt64 = 0 }
    /// By path; a long-lived process (the preview, a persistent worker)
    /// sees font folders come and go, so the files used least recently go
    /// past `capacity` files or `byteCapacity` bytes (read again if asked
    /// for again).
    private struct Table: Sendable {
        var files: [String: Known] = [:]
        var bytes = 0
        var clock: UInt64 = 0

        mutating func hit(_ path: String) -> Known? {
            guard files[path] != nil else { return nil }
            clock += 1
            files[path]!.used = clock
            return files[path]
        }

        mutating func store(_ path: String, _ entry: Known) {
            clock += 1
            var e = entry
            e.used = clock
            bytes += (e.bytes?.count ?? 0) - (files[path]?.bytes?.count ?? 0)
            files[path] = e
            while files.count > FontInputs.capacity || bytes > FontInputs.byteCapacity, files.count > 1 {
                guard let oldest = files.min(by: { $0.value.used < $1.value.used }) else { break }
                bytes -= oldest.value.bytes?.count ?? 0
                files[oldest.key] = nil
            }
        }
    }
    private static let known = Locked(Table())
    static let capacity = 1024
    static let byteCapacity = 256 << 20

    /// Files and bytes held now (for the soak tests: bounded).
    static var held: (files: Int, bytes: Int) { known.withLock { ($0.files.count, $0.bytes) } }

    /// Every font file under `folders`, in path order, folder by folder.
    static func declaredFiles(in folders: [URL], limit: Int) -> Result<[DeclaredFontFile], Diagnostic> {
        var out: [DeclaredFontFile] = []
        for folder in folders {
            let paths: [String]
            switch fontFiles(in: folder) {
            case .success(let found): paths = found
            case .failure(let unreadable): return .failure(Diagnostic(.error, .fontFolderUnreadable(unreadable.folder, unreadable.reason), at: nil))
            }
            for path in paths {
                guard let stamp = stamp(path) else { return .failure(Diagnostic(.error, .fontFileUnreadable(path), at: nil)) }
                let identity = "\(path)|\(stamp.size)|\(stamp.modified)|\(stamp.inode)"
                if let hit = known.withLock({ $0.hit(path) }), hit.stamp == stamp, let bytes = hit.bytes {
                    out.append(DeclaredFontFile(path: path, identity: identity, bytes: bytes))
                    continue
                }
                switch FileBytes.read(path, limit: limit) {
                case .failure(.tooLarge(let size)): return .failure(Diagnostic(.error, .fontFileTooLarge(path, size, limit), at: nil))
                case .failure: return .failure(Diagnostic(.error, .fontFileUnreadable(path), at: nil))
                case .success(let bytes):
                    guard FontFileKind(bytes) != nil else { return .failure(Diagnostic(.error, .notAFont(path), at: nil)) }
                    known.withLock { $0.store(path, Known(stamp: stamp, bytes: bytes, record: nil)) }
                    out.append(DeclaredFontFile(path: path, identity: identity, bytes: bytes))
                }
            }
        }
        return .success(out)
    }

    /// The font files under `folders`' (absolute, sorted), for a build's
    /// fingerprint; an unreadable folder is named as such.
    static func fileNames(in folders: [URL]) -> [String] {
        folders.flatMap { folder in
            (try? fontFiles(in: folder).get()) ?? ["unreadable: \(folder.path)"]
        }
    }

    /// The paths of the font files under `folder` and its subfolders,
    /// sorted; the first folder that cannot be listed (a font missing from
    /// a set would change the pictures without a word), or the folder
    /// itself if it is not one.
    private static func fontFiles(in folder: URL) -> Result<[String], FolderWalk.Unreadable> {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder)
        guard exists, isFolder else {
            return .failure(FolderWalk.Unreadable(folder: folder.path, reason: String(cString: strerror(exists ? ENOTDIR : ENOENT))))
        }
        let listing = FolderWalk.walk(root.path)
        if let first = listing.unreadable.first {
            return .failure(FolderWalk.Unreadable(folder: first.folder.isEmpty ? folder.path : root.appendingPathComponent(first.folder).path,
                                                  reason: first.reason))
        }
        var paths: [String] = []
        for item in listing.paths where extensions.contains(item.pathExtension.lowercased()) {
            paths.append(root.appendingPathComponent(item).path)
        }
        return .success(paths.sorted())
    }

    /// A font a text used as a file the compile read, with the hash of
    /// its bytes (read again only if the file changed since this process
    /// last read it); nil if it cannot be read now.
    static func record(ofFontAt path: String) -> FileRecord? {
        guard let stamp = stamp(path) else { return nil }
        let hit = known.withLock { $0.hit(path) }
        if let hit, hit.stamp == stamp, let record = hit.record { return record }
        let bytes: [UInt8]
        if let hit, hit.stamp == stamp, let b = hit.bytes { bytes = b } else {
            guard case .success(let b) = FileBytes.read(path) else { return nil }
            bytes = b
        }
        let record = FileRecord(path: path, sha256: ContentHash.sha256(bytes), size: bytes.count, modified: FileTime.trusted(stamp.modified))
        known.withLock { t in
            let bytes = t.files[path]?.stamp == stamp ? t.files[path]?.bytes : nil
            t.store(path, Known(stamp: stamp, bytes: bytes, record: record))
        }
        return record
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(size: Int(info.st_size), modified: FileTime.modified(info),
                     inode: UInt64(info.st_ino))
    }
}
