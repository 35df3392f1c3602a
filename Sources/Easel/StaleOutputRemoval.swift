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
}

/// Writing and removing a build's outputs without ever leaving the output
/// folder. The path comes from the manifest, a file anyone with the
/// folder can edit, and a folder can hold symbolic links: so every
/// component below the output folder is looked at itself (`lstat`, no link
/// followed) and must be a real folder, and the output a file.
enum StaleOutputRemoval {
    enum Outcome: Equatable {
        case removed
        /// Gone already (removed by hand): nothing to do.
        case absent
        /// A component (relative to the output folder) is a symbolic link.
        case throughLink(String)
        case failed(String)
    }

    static func remove(_ relative: String, under root: URL) -> Outcome {
        let components = relative.split(separator: "/").map(String.init)
        guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else {
            return .failed("not a path inside the output folder")
        }
        var path = root.path
        for (i, component) in components.enumerated() {
            path += "/" + component
            var info = stat()
            if lstat(path, &info) != 0 {
                return errno == ENOENT ? .absent : .failed(String(cString: strerror(errno)))
            }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFLNK { return .throughLink(components[...i].joined(separator: "/")) }
            let isLast = i == components.count - 1
            if !isLast && kind != S_IFDIR { return .absent }   // a file where a folder was: the output is not there
            if isLast && kind == S_IFDIR { return .failed("a folder, not an output file") }
        }
        return unlink(path) == 0 || errno == ENOENT ? .removed : .failed(String(cString: strerror(errno)))
    }

    /// Writes `bytes` to `relative` below the output folder `root`, making
    /// its folders, after checking that none of the folders already there
    /// is a symbolic link (`lstat`): a link inside the output folder would
    /// take the write elsewhere. (The output itself may be a link: the
    /// atomic rename replaces the link, not what it points to.)
    static func write(_ bytes: [UInt8], to relative: String, under root: URL) throws {
        var path = root.path
        let folders = relative.split(separator: "/").dropLast().map(String.init)
        for (i, component) in folders.enumerated() {
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0 else { break }   // not there yet: made below, a real folder
            if info.st_mode & S_IFMT == S_IFLNK {
                throw DiagnosticsError([Diagnostic(.error, .writeThroughLink(root.appendingPathComponent(relative).path,
                                                                           folders[...i].joined(separator: "/")), at: nil)])
            }
        }
        try AtomicFile.write(bytes, makingFolderFor: root.appendingPathComponent(relative))
    }

    /// Removes `relativeFolder` and the folders above it while they are
    /// empty, up to (not including) the output folder. `rmdir` removes only
    /// an empty real folder: never a link, never anything in it.
    static func removeEmptyFolders(_ relativeFolder: String, under root: URL) {
        var components = relativeFolder.split(separator: "/").map(String.init)
        while !components.isEmpty {
            // Not empty, or not a real folder: it stays, and so do the folders above it.
            guard rmdir(root.path + "/" + components.joined(separator: "/")) == 0 else { return }
            components.removeLast()
        }
    }
}
