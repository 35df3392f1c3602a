import FoundationEssentials
import Glibc

/// The paths under a folder, relative to it, and the folders under it that
/// could not be listed. A folder that cannot be read (permissions, an
/// unmounted share, removed during the walk) is never taken for an empty
/// one: `easel build` would then remove the outputs of every scene in it as
/// if the scenes were gone. Callers say what an unreadable folder means to
/// them (a build: an error, and the outputs under it kept). Symbolic links
/// are listed but not followed into.
public enum FolderWalk {
    /// A folder of the walk that could not be listed, relative to the root
    /// (`""` for the root itself), and the system's reason.
    public struct Unreadable: Error, Sendable, Equatable {
        public var folder: String
        public var reason: String
    }

    public struct Listing: Sendable {
        /// Every file, folder and link found, relative to the root.
        public var paths: [String] = []
        /// Folders whose entries are unknown: nothing under them may be
        /// taken for absent.
        public var unreadable: [Unreadable] = []

        public init(paths: [String] = [], unreadable: [Unreadable] = []) {
            self.paths = paths
            self.unreadable = unreadable
        }

        /// Whether `relative` lies in (or is) a folder that could not be listed.
        public func isUnknown(_ relative: String) -> Bool {
            unreadable.contains { $0.folder.isEmpty || relative == $0.folder || relative.hasPrefix($0.folder + "/") }
        }
    }

    public static func walk(_ root: String) -> Listing {
        var listing = Listing()
        var pending: [String] = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            switch entries(of: path) {
            case .failure(let reason):
                listing.unreadable.append(Unreadable(folder: relative, reason: reason.text))
            case .success(let names):
                // In a folder that can be listed but not searched, what each
                // name is cannot be known: the folder is unreadable as a whole.
                var found: [(String, Bool)] = []
                var failure: Reason?
                for name in names {
                    let child = relative.isEmpty ? name : relative + "/" + name
                    switch kind(root + "/" + child) {
                    case .success(let isFolder): found.append((child, isFolder))
                    case .failure(let reason): failure = reason
                    }
                    if failure != nil { break }
                }
                if let failure {
                    listing.unreadable.append(Unreadable(folder: relative, reason: failure.text))
                    continue
                }
                for (child, isFolder) in found {
                    listing.paths.append(child)
                    if isFolder { pending.append(child) }
                }
            }
        }
        return listing
    }

    struct Reason: Error { var text: String }

    /// The names in one folder; a failure to open it or to read it to the
    /// end is the folder's error (readdir reports an I/O error by errno).
    private static func entries(of path: String) -> Result<[String], Reason> {
        guard let dir = opendir(path) else { return .failure(Reason(text: String(cString: strerror(errno)))) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { return .failure(Reason(text: String(cString: strerror(errno)))) }
                return .success(names)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Whether `path` is a folder itself (not a link to one); a name gone
    /// since it was listed is not one.
    private static func kind(_ path: String) -> Result<Bool, Reason> {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT ? .success(false) : .failure(Reason(text: String(cString: strerror(errno))))
        }
        return .success((info.st_mode & S_IFMT) == S_IFDIR)
    }
}
