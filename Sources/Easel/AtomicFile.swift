import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a whole file or nothing: the bytes go to a temporary file in the
/// same folder, are flushed to disk, then renamed over the target, which
/// POSIX makes atomic. A crash at any point leaves the old file or the new.
public enum AtomicFile {
    /// The temporary file being written, as a C string, so that a signal
    /// handler can remove it without allocating (`removeInFlightFile`).
    private static let inFlight: UnsafeMutablePointer<CChar> = {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)
        p.initialize(repeating: 0, count: 4096)
        return p
    }()

    /// Async-signal-safe: unlinks the temporary file of a write in progress.
    /// The CLI calls it from its SIGINT/SIGTERM handler; after SIGKILL the
    /// hidden temporary file may stay, but the target is never torn.
    public static func removeInFlightFile() {
        if inFlight.pointee != 0 { unlink(inFlight) }
    }

    public static func write(_ bytes: [UInt8], to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/.\(url.lastPathComponent).easel-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw RenderError("cannot write in '\(directory)': \(String(cString: strerror(errno)))") }
        let tempPath = String(cString: template)
        template.withUnsafeBufferPointer { buf in
            let n = min(buf.count, 4095)
            for i in 0..<n { inFlight[i] = buf[i] }
            inFlight[n] = 0
        }
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
            inFlight.pointee = 0
        }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buf -> String? in
            while written < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + written, buf.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                written += n
            }
            return nil
        }
        if let failure {
            close(fd)
            throw RenderError("cannot write '\(url.path)': \(failure)")
        }
        fchmod(fd, 0o644)
        guard fsync(fd) == 0, close(fd) == 0 else { throw RenderError("cannot write '\(url.path)'") }
        guard rename(tempPath, url.path) == 0 else {
            throw RenderError("cannot replace '\(url.path)': \(String(cString: strerror(errno)))")
        }
        ok = true
    }
}
