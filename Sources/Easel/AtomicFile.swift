import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension Diagnostic.Message {
    public static func cannotWrite(_ path: String, _ reason: String) -> Self { .init(.cannotWrite, "cannot write '\(path)': \(reason)") }
    static func cannotReplace(_ path: String, _ reason: String) -> Self { .init(.cannotWrite, "cannot replace '\(path)': \(reason)") }
}

/// Writes a whole file or nothing, from any number of threads at once, with
/// no state shared between writes.
///
/// The bytes go to an unnamed file in the target's folder (Linux
/// `O_TMPFILE`), which the kernel removes by itself if the process dies
/// however it dies, SIGKILL included. Once complete, it gets a hidden name
/// and is renamed over the target, which POSIX makes atomic: a reader sees
/// the old file or the new one, never a torn one. Where the file system has
/// no `O_TMPFILE`, a named hidden temporary file (`.NAME.easel-XXXXXX`) is
/// used instead and removed on any failure.
///
/// A write is not flushed to disk on its own, as a compiler's outputs are
/// not: the promise is to a failed or killed run, not to a power cut. A
/// build, whose manifest vouches for its outputs, flushes them all at once
/// before it writes the manifest (`OutputFolder.flushToDisk`).
public enum AtomicFile {
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's Swift
    /// overlay does not import.
    private static let tmpFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// `mkdir -p`; nil on success, else the C library's reason ("Not a
    /// directory"), which names the cause where FoundationEssentials'
    /// CocoaError prints only its code.
    public static func makeFolders(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder else {
            return String(cString: strerror(ENOTDIR))
        }
        return nil
    }

    /// `write`, making the file's folder first; a folder that cannot be
    /// made is the file's error (`DiagnosticsError`), with the reason.
    public static func write(_ bytes: [UInt8], makingFolderFor url: URL) throws {
        let folder = url.deletingLastPathComponent().path
        if let reason = makeFolders(folder) {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(url.path, "cannot create its folder '\(folder)': \(reason)"), at: nil)])
        }
        try write(bytes, to: url)
    }

    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        // The folder the user named, links and all; inside it, nothing is followed.
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(url.path, String(cString: strerror(errno))), at: nil)])
        }
        defer { close(folder) }
        try write(bytes, named: url.lastPathComponent, inFolder: folder, shownAs: url.path)
    }

    /// Writes `bytes` as `name` in the folder open as `folder`, by the rules
    /// above; `shownAs` names the file in messages. Every file gets mode
    /// 0644 less the umask, whichever way it was made.
    static func write(_ bytes: [UInt8], named name: String, inFolder folder: Int32, shownAs path: String) throws {
        let hidden = ".\(name).easel-"
        let fd = usesUnnamedFiles ? openat(folder, ".", tmpFileFlag | O_WRONLY | O_CLOEXEC, 0o644) : -1
        if fd >= 0 {
            do { try writeAll(bytes, fd: fd, path: path) } catch { close(fd); throw error }
            // Give the finished file a name, then move it over the target.
            let procPath = "/proc/self/fd/\(fd)"
            var linked: String?
            var isOpen = true
            defer { if isOpen { close(fd) } }
            // From its name to the rename a file is visible: Ctrl-C waits for it.
            try committing(path) {
                for _ in 0..<16 {
                    let candidate = hidden + String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
                    if linkat(AT_FDCWD, procPath, folder, candidate, AT_SYMLINK_FOLLOW) == 0 { linked = candidate; break }
                    if errno != EEXIST { break }
                }
                let reason = String(cString: strerror(errno))
                close(fd)
                isOpen = false
                guard let linked else { throw DiagnosticsError([Diagnostic(.error, .cannotWrite(path, reason), at: nil)]) }
                try replace(name, with: linked, in: folder, shownAs: path)
            }
            TestPause.at(.written, path)
            return
        }
        // No O_TMPFILE here: a named temporary file, for its whole life.
        try committing(path) { try writeNamed(bytes, named: name, inFolder: folder, hidden: hidden, shownAs: path) }
        TestPause.at(.written, path)
    }

    /// Whether to write through unnamed files where the file system has
    /// them; a debug build's tests turn them off (`EASEL_TEST_NAMED_TEMPORARY`)
    /// to check that both ways give the same file.
    private static let usesUnnamedFiles: Bool = {
        #if DEBUG
        return getenv("EASEL_TEST_NAMED_TEMPORARY") == nil
        #else
        return true
        #endif
    }()

    private static func writeNamed(_ bytes: [UInt8], named name: String, inFolder folder: Int32, hidden: String, shownAs path: String) throws {
        var temporary: String?
        var fd: Int32 = -1
        for _ in 0..<16 {
            let candidate = hidden + String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
            // Created here or not at all (O_EXCL), never through a link; the
            // mode as the unnamed file's: 0644 less the umask.
            fd = openat(folder, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { temporary = candidate; break }
            if errno != EEXIST { break }
        }
        guard let temporary, fd >= 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(path, String(cString: strerror(errno))), at: nil)])
        }
        // Closed exactly once: a second close could close a descriptor
        // another thread has opened since (fonts live in open anonymous files).
        do {
            defer { close(fd) }
            try writeAll(bytes, fd: fd, path: path)
        } catch {
            unlinkat(folder, temporary, 0)
            throw error
        }
        try replace(name, with: temporary, in: folder, shownAs: path)
    }

    /// Writes every byte; the caller closes `fd`.
    private static func writeAll(_ bytes: [UInt8], fd: Int32, path: String) throws {
        var written = 0
        #if DEBUG
        // In two halves, so that a test can hold the write in the middle.
        let half = bytes.count / 2
        var pausedHalfway = false
        #endif
        let failure: String? = bytes.withUnsafeBytes { buf -> String? in
            while written < buf.count {
                var end = buf.count
                #if DEBUG
                if written < half { end = half }
                #endif
                let n = Glibc.write(fd, buf.baseAddress! + written, end - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += n
                #if DEBUG
                if written >= half && !pausedHalfway {
                    pausedHalfway = true
                    TestPause.at(.writing, path)
                }
                #endif
            }
            return nil
        }
        if let failure {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(path, failure), at: nil)])
        }
    }

    private static func replace(_ name: String, with temporary: String, in folder: Int32, shownAs path: String) throws {
        guard renameat(folder, temporary, folder, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            throw DiagnosticsError([Diagnostic(.error, .cannotReplace(path, reason), at: nil)])
        }
    }
}

/// Ctrl-C and a file between a temporary name and its own. A command exits
/// on SIGINT or SIGTERM at once (`_exit`, 128 + the signal) — except while
/// some thread is in that window: then the signal is noted and the last
/// such write to finish exits, so no hidden `.NAME.easel-…` file is left.
/// Atomics only: the signal handler may touch nothing else.
extension AtomicFile {
    private static let commitsInFlight = Atomic<Int>(0)
    private static let pendingSignal = Atomic<Int32>(0)
    #if DEBUG
    /// Set once a `TestPause` point has held a thread.
    static let announcesDeferredSignals = Atomic<Bool>(false)
    #endif

    private static let interruptsDeferred = Atomic<Int>(0)
    private static let interruptNoted = Atomic<Bool>(false)

    /// Whether a Ctrl-C (or SIGTERM) arrived while interrupts were deferred.
    public static var isInterrupted: Bool { interruptNoted.load(ordering: .sequentiallyConsistent) }

    /// Runs `body` with the first Ctrl-C only noted (`isInterrupted`), so
    /// that a build can finish the scenes under way and record them; a
    /// second one ends the process as ever.
    public static func deferringInterrupts<T>(_ body: () throws -> T) rethrows -> T {
        interruptsDeferred.add(1, ordering: .sequentiallyConsistent)
        defer { interruptsDeferred.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// For the command's signal handler.
    public static func exitOnSignal(_ signal: Int32) {
        if interruptsDeferred.load(ordering: .sequentiallyConsistent) > 0,
           interruptNoted.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
            let line: StaticString = "\neasel: stopping once the scenes under way are written (Ctrl-C again stops at once)\n"
            _ = Glibc.write(2, line.utf8Start, line.utf8CodeUnitCount)
            return
        }
        pendingSignal.store(signal, ordering: .sequentiallyConsistent)
        if commitsInFlight.load(ordering: .sequentiallyConsistent) == 0 { _exit(128 + signal) }
        #if DEBUG
        // write(2) is safe in a signal handler; the line tells a test the signal waits.
        if announcesDeferredSignals.load(ordering: .sequentiallyConsistent) {
            let line: StaticString = "easel-test: signal noted\n"
            _ = Glibc.write(2, line.utf8Start, line.utf8CodeUnitCount)
        }
        #endif
    }

    /// Runs `body` as a commit the signal handler waits for; after a signal
    /// no new commit starts (the write fails; the process is exiting).
    static func committing(_ path: String, _ body: () throws -> Void) throws {
        #if DEBUG
        // Initialised here, not first in the signal handler.
        _ = announcesDeferredSignals.load(ordering: .relaxed)
        #endif
        commitsInFlight.add(1, ordering: .sequentiallyConsistent)
        defer {
            if commitsInFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
                let signal = pendingSignal.load(ordering: .sequentiallyConsistent)
                if signal != 0 { _exit(128 + signal) }
            }
        }
        guard pendingSignal.load(ordering: .sequentiallyConsistent) == 0 else {
            throw DiagnosticsError([Diagnostic(.error, .cannotWrite(path, "interrupted"), at: nil)])
        }
        TestPause.at(.committing, path)
        try body()
    }
}
