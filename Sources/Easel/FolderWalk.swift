import FoundationEssentials
import Glibc

/// The paths under a folder, relative to it, as `FileManager`'s old
/// enumerator gave them: a subfolder that cannot be read (permissions, or
/// deleted during the walk) is skipped, not an error for the whole walk —
/// `subpathsOfDirectory` throws on the first one, which would make
/// `easel build` take every scene for removed. Symbolic links are listed
/// but not followed into.
public enum FolderWalk {
    /// nil if `root` itself cannot be listed.
    public static func relativePaths(under root: String) -> [String]? {
        guard let top = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        var found: [String] = []
        var pending = top.map { ($0, root.appendingPathComponent($0)) }
        while let (relative, path) = pending.popLast() {
            found.append(relative)
            guard isFolder(path), let children = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            pending += children.map { (relative.appendingPathComponent($0), path.appendingPathComponent($0)) }
        }
        return found
    }

    /// A folder itself, not a link to one.
    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
