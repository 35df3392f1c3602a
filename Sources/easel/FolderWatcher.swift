import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for changes under folders with Linux inotify, and returns once a
/// burst of changes has gone quiet (editors save in several steps: write a
/// temporary file, rename it, touch the folder).
struct FolderWatcher {
    let folders: [String]
    /// How long the files must stay unchanged before a rebuild starts.
    var quiet: TimeInterval = 0.1

    /// Blocks until something under `folders` changed and then stayed
    /// still for `quiet`; false if watching is impossible here.
    func waitForChange() -> Bool {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        for folder in Set(folders) {
            // Every folder below too: inotify watches one level.
            var all = [folder]
            if let walker = FileManager.default.enumerator(atPath: folder) {
                while let item = walker.nextObject() as? String {
                    var isDir: ObjCBool = false
                    let path = folder + "/" + item
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { all.append(path) }
                }
            }
            for path in all { _ = inotify_add_watch(fd, path, mask) }
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // The first event, then events until `quiet` passes without one.
        guard read(fd, &buffer, buffer.count) > 0 else { return false }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, Int32(quiet * 1000)) > 0 {
            _ = read(fd, &buffer, buffer.count)
        }
        return true
    }
}
