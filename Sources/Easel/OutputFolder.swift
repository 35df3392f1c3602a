import CFileSystemSync
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension Diagnostic.Message {
    static func staleOutputThroughLink(_ output: String, _ link: String) -> Self {
        .init(.staleManifest, "not removing '\(output)', listed in the build manifest: '\(link)' is a symbolic link, and a build removes nothing outside its output folder")
    }
    static func writeThroughLink(_ output: String, _ link: String) -> Self {
        .init(.cannotWrite, "cannot write '\(output)': '\(link)' in the output folder is a symbolic link, and a build writes nothing outside its output folder")
    }
    static func cannotRemove(_ path: String, _ reason: String) -> Self {
        .init(.cannotWrite, "cannot remove '\(path)': \(reason)")
    }
    static func cannotOpenOutputFolder(_ path: String, _ reason: String) -> Self {
        .init(.cannotWrite, "cannot open the output folder '\(path)': \(reason)")
    }
}

/// A build's output folder, held open for the build: every file written,
/// folder made and output removed inside it goes through descriptors
/// relative to it (`openat`, `mkdirat`, `unlinkat`), each folder below it
/// opened with `O_NOFOLLOW`. The paths come from the manifest, a file anyone
/// with the folder can edit, and the folder can hold symbolic links: a link
/// swapped in between a check and a use can take nothing outside, because
/// no path is looked up twice. The folder itself is the one the user named
/// (links to it are followed once, to open it).
///
/// It also holds the build's lock: one build writes a folder at a time.
final class OutputFolder: Sendable {
    let root: URL
    private let descriptor: Int32

    init(_ root: URL) throws {
        self.root = root
        descriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotOpenOutputFolder(root.path, String(cString: strerror(errno))), at: nil)])
        }
    }

    deinit { close(descriptor) }

    /// Takes the folder's lock (`flock`, released when the process ends or
    /// this folder is closed), calling `waiting` first if another process
    /// holds it: a second build of one folder waits for the first. False if
    /// Ctrl-C came while it waited. It polls rather than blocks: a blocking
    /// `flock` is restarted after the signal handler returns (SA_RESTART),
    /// so a build waiting on another would not stop.
    func lock(waiting: () -> Void) -> Bool {
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        // A file system without locks: the build goes on unlocked.
        guard errno == EWOULDBLOCK else { return true }
        waiting()
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return true }
            if AtomicFile.isInterrupted { return false }
            usleep(50_000)
        }
        return true
    }

    enum Outcome: Equatable {
        case removed
        /// Gone already (removed by hand): nothing to do.
        case absent
        /// A component (relative to the output folder) is a symbolic link.
        case throughLink(String)
        case failed(String)
    }

    /// The folder `components` below the root, open; with `creating`,
    /// missing folders are made. The caller closes a descriptor other than
    /// the root's.
    private func openFolder(_ components: ArraySlice<String>, creating: Bool) -> Result<Int32, FolderFailure> {
        var current = descriptor
        for (i, component) in components.enumerated() {
            var next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 && errno == ENOENT && creating {
                if mkdirat(current, component, 0o777) != 0 && errno != EEXIST {
                    let reason = String(cString: strerror(errno))
                    if current != descriptor { close(current) }
                    return .failure(.failed(reason))
                }
                next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let error = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                let prefix = components.prefix(i + 1).joined(separator: "/")
                switch error {
                case ENOENT: return .failure(.absent)
                case ELOOP: return .failure(.throughLink(prefix))
                case ENOTDIR:
                    // A link to something else, or a file where a folder is needed.
                    return .failure(isLink(prefix) ? .throughLink(prefix) : .notAFolder(prefix))
                default: return .failure(.failed(String(cString: strerror(error))))
                }
            }
            current = next
        }
        return .success(current)
    }

    private enum FolderFailure: Error {
        case absent, throughLink(String), notAFolder(String), failed(String)
    }

    private func isLink(_ relative: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    private static func components(_ relative: String) -> [String]? {
        let parts = relative.split(separator: "/").map(String.init)
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        return parts
    }

    /// Removes an output that no scene makes any more: a file, not a
    /// folder, reached through real folders only.
    func remove(_ relative: String) -> Outcome {
        guard let parts = Self.components(relative) else { return .failed("not a path inside the output folder") }
        let folder: Int32
        switch openFolder(parts.dropLast(), creating: false) {
        case .success(let fd): folder = fd
        case .failure(.absent), .failure(.notAFolder): return .absent   // a file where a folder was: the output is not there
        case .failure(.throughLink(let link)): return .throughLink(link)
        case .failure(.failed(let reason)): return .failed(reason)
        }
        defer { if folder != descriptor { close(folder) } }
        var info = stat()
        guard fstatat(folder, parts.last!, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return errno == ENOENT ? .absent : .failed(String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .throughLink(relative)
        case S_IFDIR: return .failed("a folder, not an output file")
        default: break
        }
        // unlinkat removes the name in this folder: a link is removed, never followed.
        return unlinkat(folder, parts.last!, 0) == 0 || errno == ENOENT ? .removed : .failed(String(cString: strerror(errno)))
    }

    /// Everything written to the folder's file system so far, on disk
    /// (`syncfs`, which flushes other programs' writes to that file system
    /// too, and reports errors only from Linux 5.8): one flush for a
    /// build's outputs, before its manifest says they are there, rather
    /// than one per file.
    func flushToDisk() throws {
        guard easel_sync_file_system(descriptor) == 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(root.path, "cannot flush it to disk: \(String(cString: strerror(errno)))"), at: nil)])
        }
    }

    /// Writes `bytes` to `relative` atomically (`AtomicFile`), making its
    /// folders; a folder on the way that is a symbolic link is an error.
    /// (The output itself may be a link: the rename replaces the link, not
    /// what it points to.)
    func write(_ bytes: [UInt8], to relative: String) throws {
        let shown = root.appendingPathComponent(relative).path
        guard let parts = Self.components(relative) else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(shown, "not a path inside the output folder"), at: nil)])
        }
        let folder: Int32
        switch openFolder(parts.dropLast(), creating: true) {
        case .success(let fd): folder = fd
        case .failure(.throughLink(let link)):
            throw DiagnosticsError([Diagnostic(.error, .writeThroughLink(shown, link), at: nil)])
        case .failure(.notAFolder(let file)):
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(shown, "cannot create its folder '\(file)': \(String(cString: strerror(ENOTDIR)))"), at: nil)])
        case .failure(.absent):
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(shown, "its folder was removed during the build"), at: nil)])
        case .failure(.failed(let reason)):
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(shown, "cannot create its folder: \(reason)"), at: nil)])
        }
        defer { if folder != descriptor { close(folder) } }
        try AtomicFile.write(bytes, named: parts.last!, inFolder: folder, shownAs: shown)
    }

    /// Whether `relative` is there (any kind of file), looked up through real folders only.
    func exists(_ relative: String) -> Bool {
        guard let parts = Self.components(relative), case .success(let folder) = openFolder(parts.dropLast(), creating: false) else { return false }
        defer { if folder != descriptor { close(folder) } }
        var info = stat()
        return fstatat(folder, parts.last!, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Removes `relativeFolder` and the folders above it while they are
    /// empty, up to (not including) the output folder. Only an empty real
    /// folder is removed: never a link, never anything in it.
    func removeEmptyFolders(_ relativeFolder: String) {
        guard var parts = Self.components(relativeFolder) else { return }
        while let last = parts.last {
            guard case .success(let parent) = openFolder(parts.dropLast(), creating: false) else { return }
            // Not empty, or not a real folder: it stays, and so do the folders above it.
            let removed = unlinkat(parent, last, AT_REMOVEDIR) == 0
            if parent != descriptor { close(parent) }
            guard removed else { return }
            parts.removeLast()
        }
    }
}
