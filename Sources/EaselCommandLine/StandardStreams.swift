import Glibc

/// Text to standard output or standard error, unbuffered (as
/// `FileHandle.standardError.write` did: diagnostics and progress appear in
/// the order they happen, interleaved with child processes' output).
public enum StandardStreams {
    public static func output(_ text: String) { write(text, to: STDOUT_FILENO) }
    public static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more can be said there
                }
                offset += written
            }
        }
    }
}
