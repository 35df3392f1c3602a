import Easel
import EaselModel
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Watches folders with Linux inotify and reports which files changed, once a
/// burst of changes has gone quiet (editors save in several steps: write a
/// temporary file, rename it over the old one, touch the folder).
///
/// One inotify instance lives as long as the watcher, so an edit made while
/// the caller is busy (a build, a render) is queued, not missed. Folders may
/// be added from any thread while another waits for changes.
public final class FolderWatcher: @unchecked Sendable {
    private let fd: Int32
    private let watches = Locked<[Int32: String]>([:])
    /// How long the files must stay unchanged before the changes are reported.
    public var quiet: TimeInterval

    /// nil if inotify is not available here.
    public init?(quiet: TimeInterval = 0.05) {
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.quiet = quiet
    }

    deinit { close(fd) }

    /// Adds `folders`, and with `recursive` every folder below them (inotify
    /// watches one level); false if none could be watched. Watching a folder
    /// twice is harmless.
    @discardableResult
    public func watch(_ folders: [String], recursive: Bool = true) -> Bool {
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        var any = false
        for folder in Set(folders) {
            var all = [folder]
            // What can be listed is watched; a folder that cannot be is the
            // build's error, and its parent's events (IN_ATTRIB: a chmod)
            // start the build that finds it readable again.
            if recursive {
                for item in FolderWalk.walk(folder).paths {
                    var isDir = false
                    let path = folder + "/" + item
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir { all.append(path) }
                }
            }
            for path in all {
                let wd = inotify_add_watch(fd, path, mask)
                if wd >= 0 { watches.withLock { $0[wd] = path }; any = true }
            }
        }
        return any
    }

    /// What changed: the paths the events named, and whether the kernel's
    /// queue overflowed (`IN_Q_OVERFLOW`) and dropped events, in which case
    /// anything may have changed and the watcher's user must look again at
    /// everything it watches.
    public struct Changes: Sendable {
        public var paths = Set<String>()
        public var eventsLost = false
        public init() {}
    }

    /// Blocks until something changed and then stayed still for `quiet`;
    /// returns the paths named by the events (a folder's own path when the
    /// event named no file), nil if reading the events failed.
    public func waitForChanges() -> Changes? {
        var changed = Changes()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let first = read(fd, &buffer, buffer.count)
        guard first > 0 else { return nil }
        collect(buffer, count: first, into: &changed)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, Int32(quiet * 1000)) > 0 {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { collect(buffer, count: n, into: &changed) }
        }
        return changed
    }

    private func collect(_ buffer: [UInt8], count: Int, into changed: inout Changes) {
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        let watches = self.watches.withLock { $0 }
        buffer.withUnsafeBytes { raw in
            while offset + header <= count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { changed.eventsLost = true }
                let nameLength = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let folder = watches[wd] ?? ""
                var name = ""
                if nameLength > 0 {
                    let bytes = raw[(offset + header)..<min(count, offset + header + nameLength)]
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if wd >= 0 { changed.paths.insert(name.isEmpty ? folder : folder + "/" + name) }
                offset += header + nameLength
            }
        }
    }
}
