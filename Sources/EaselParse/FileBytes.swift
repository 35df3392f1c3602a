import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file, at most `limit` bytes of it, with open/fstat/read.
///
/// Foundation's `FileManager.contents(atPath:)` leaks a 4 KB buffer each
/// time it reads an empty file (swift-foundation with Swift 6.3; the
/// fuzzer found it through an empty CSV) — nothing for a one-shot command,
/// a steady leak for `--watch`, the preview or a service. Reading here also
/// holds the size limit to the bytes actually read, not to a size asked for
/// beforehand (a file can grow in between, and /dev/zero has no size).
public enum FileBytes {
    public enum Failure: Error, Equatable {
        case unreadable
        case tooLarge(Int)
    }

    public static func read(_ path: String, limit: Int = .max) -> Result<[UInt8], Failure> {
        readStamped(path, limit: limit).map(\.bytes)
    }

    /// The bytes, and the file's modification time (nanoseconds since
    /// 1970) as it was before they were read.
    public static func readStamped(_ path: String, limit: Int = .max) -> Result<(bytes: [UInt8], modified: Int), Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return .failure(.unreadable) }
        let modified = FileTime.modified(info)
        let expected = Int(info.st_size)
        if expected > limit { return .failure(.tooLarge(expected)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, expected))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { return .failure(.tooLarge(bytes.count)) }
        }
        return .success((bytes, modified))
    }
}
