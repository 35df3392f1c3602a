import EaselModel
import Glibc

/// Text to standard output or standard error, unbuffered (as
/// `FileHandle.standardError.write` did: diagnostics and progress appear in
/// the order they happen, interleaved with child processes' output).
///
/// Inside `capturing` both go to the capture instead: a persistent
/// worker runs many commands in one process, each answering with what it
/// printed, and its standard output carries only the protocol.
public enum StandardStreams {
    public static func output(_ text: String) { write(text, to: STDOUT_FILENO) }
    public static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    /// What a command printed, in order, both streams in one text (as a
    /// terminal would show it).
    public final class Capture: Sendable {
        private let text = Locked<String>("")
        public init() {}
        public func append(_ more: String) { text.withLock { $0 += more } }
        public var contents: String { text.withLock { $0 } }
    }

    /// The capture of the command running on this thread (task-local, so
    /// that commands on other threads keep their own).
    @TaskLocal public static var capture: Capture?

    /// Runs `body` with everything it prints on this thread captured; a
    /// thread it starts captures only if it binds `capture` itself.
    public static func capturing<R>(_ body: () throws -> R) rethrows -> (result: R, printed: String) {
        let capture = Capture()
        let result = try $capture.withValue(capture, operation: body)
        return (result, capture.contents)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        if let capture {
            capture.append(text)
            return
        }
        // A closed pipe: nothing more can be said there.
        _ = writeAll(Array(text.utf8), to: descriptor)
    }

    /// Writes every byte (again after a signal interrupts); false if the
    /// descriptor is gone.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
