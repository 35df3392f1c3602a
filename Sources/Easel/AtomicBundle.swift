import CFileSystemSync
import FoundationEssentials
import Glibc

/// A folder output (an Icon Composer `.icon` bundle) written as files are:
/// whole or not at all. Its files are written into a hidden folder beside
/// it, which then takes the bundle's name in one step — swapped with the
/// old bundle (renameat2's exchange), which is then removed — so a reader
/// sees the old bundle or the new one, never a mix, and a failure leaves
/// the old one as it was.
extension AtomicFile {
    /// `files`' last is the bundle's own marker (`icon.json`): an existing
    /// folder is replaced only if it holds one.
    public static func writeBundle(_ files: [(path: String, bytes: [UInt8])], to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(url.path, String(cString: strerror(errno))), at: nil)])
        }
        defer { close(folder) }
        // From the hidden folder's making to its rename, Ctrl-C waits: none is left behind.
        try committing(url.path) { try writeBundle(files, to: url, in: folder, directory: directory) }
    }

    private static func writeBundle(_ files: [(path: String, bytes: [UInt8])], to url: URL, in folder: Int32, directory: String) throws {
        let name = url.lastPathComponent
        // Only a bundle is replaced: a file, or a folder without icon.json, is someone else's.
        var existing = stat()
        if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
            var manifest = stat()
            let isBundle = (existing.st_mode & S_IFMT) == S_IFDIR
                && fstatat(folder, name + "/" + (files.last?.path ?? "icon.json"), &manifest, AT_SYMLINK_NOFOLLOW) == 0
            guard isBundle else {
                throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, "it is not an Icon Composer bundle (a folder holding icon.json), and a bundle is replaced whole; remove it or name the output otherwise"), at: nil)])
            }
        }
        var made: String?
        for _ in 0..<16 {
            let candidate = ".\(name).easel-" + String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
            if mkdirat(folder, candidate, 0o755) == 0 { made = candidate; break }
            if errno != EEXIST { break }
        }
        guard let temporary = made else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(url.path, String(cString: strerror(errno))), at: nil)])
        }
        let temporaryPath = (directory.isEmpty ? "." : directory) + "/" + temporary
        func discard() { try? FileManager.default.removeItem(atPath: temporaryPath) }
        do {
            for (path, bytes) in files {
                let parts = path.split(separator: "/").map(String.init)
                var at = openat(folder, temporary, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                for part in parts.dropLast() where at >= 0 {
                    if mkdirat(at, part, 0o755) != 0, errno != EEXIST { close(at); at = -1; break }
                    let next = openat(at, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    close(at)
                    at = next
                }
                guard at >= 0 else {
                    throw DiagnosticsError([Diagnostic(.error, .cannotWrite(url.path + "/" + path, String(cString: strerror(errno))), at: nil)])
                }
                defer { close(at) }
                try write(bytes, named: parts.last!, inFolder: at, shownAs: url.path + "/" + path)
            }
        } catch {
            discard()
            throw error
        }
        // What was swapped out is removed only if it is a bundle still (it
        // could have been replaced since it was checked).
        func isBundle(_ entry: String) -> Bool {
            var info = stat()
            return fstatat(folder, entry + "/" + (files.last?.path ?? "icon.json"), &info, AT_SYMLINK_NOFOLLOW) == 0
        }
        if easel_exchange_names(folder, temporary, name) == 0 {
            // The old bundle now has the hidden name.
            guard isBundle(temporary) else {
                _ = easel_exchange_names(folder, temporary, name)
                discard()
                throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, "it changed into something that is not an Icon Composer bundle while the new one was written"), at: nil)])
            }
            discard()
        } else if errno == ENOENT, renameat(folder, temporary, folder, name) == 0 {
            return
        } else if errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP {
            // A file system without exchange: the old bundle aside, the new in place, the old removed.
            let aside = temporary + "-old"
            guard renameat(folder, name, folder, aside) == 0 else {
                let reason = String(cString: strerror(errno))
                if errno == ENOENT, renameat(folder, temporary, folder, name) == 0 { return }
                discard()
                throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, reason), at: nil)])
            }
            guard isBundle(aside) else {
                _ = renameat(folder, aside, folder, name)
                discard()
                throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, "it changed into something that is not an Icon Composer bundle while the new one was written"), at: nil)])
            }
            guard renameat(folder, temporary, folder, name) == 0 else {
                let reason = String(cString: strerror(errno))
                _ = renameat(folder, aside, folder, name)
                discard()
                throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, reason), at: nil)])
            }
            try? FileManager.default.removeItem(atPath: (directory.isEmpty ? "." : directory) + "/" + aside)
        } else {
            let reason = String(cString: strerror(errno))
            discard()
            throw DiagnosticsError([Diagnostic(.error, .cannotReplace(url.path, reason), at: nil)])
        }
    }
}
