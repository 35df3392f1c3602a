#if canImport(Glibc)
import Glibc
#endif

/// Points where a test can hold a debug build of a command, so that tests of
/// interruption and concurrency wait on events instead of on how fast the
/// machine renders.
///
/// `EASEL_TEST_PAUSE=PHASE[:SUBJECT],…` names the points: when a thread
/// reaches PHASE with a subject that contains SUBJECT (any, if none is
/// given), it writes `easel-test: paused at PHASE SUBJECT` as one line to
/// standard error and blocks until it reads a byte or end of file on
/// standard input. The test sees the line, does what it tests — sends a
/// signal, asks the server for another scene — and closes the process's
/// standard input to let it go on (no point holds it after that). While
/// points are set, a Ctrl-C that waits for a commit under way says so on
/// standard error (`easel-test: signal noted`), so that a test can release
/// the commit knowing the signal is pending.
///
/// Package access only, and release builds compile every call to nothing:
/// no environment variable can stop an installed `easel`.
package enum TestPause {
    /// The points this package reaches.
    package enum Phase: String, Sendable {
        /// A render is about to start (the live preview's, per scene).
        case render
        /// Half of an output's bytes are in its unnamed temporary file.
        case writing
        /// The finished file is about to get a name in the output folder
        /// (the window a Ctrl-C waits for).
        case committing
        /// An output has its own name.
        case written
    }

    #if DEBUG
    private static let points: [(phase: String, subject: Substring)] = {
        guard let value = getenv("EASEL_TEST_PAUSE") else { return [] }
        return String(cString: value).split(separator: ",").map { point in
            let parts = point.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1] : "")
        }
    }()

    package static func at(_ phase: Phase, _ subject: String) {
        guard points.contains(where: { $0.phase == phase.rawValue && ($0.subject.isEmpty || subject.contains($0.subject)) })
        else { return }
        AtomicFile.announcesDeferredSignals.store(true, ordering: .sequentiallyConsistent)
        let line = Array("easel-test: paused at \(phase.rawValue) \(subject)\n".utf8)
        _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
        var byte: UInt8 = 0
        while read(0, &byte, 1) < 0 && errno == EINTR {}
    }
    #else
    @inline(__always) package static func at(_ phase: Phase, _ subject: String) {}
    #endif
}
