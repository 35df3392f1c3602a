import Glibc

/// glibc's `malloc_info` (malloc.h, which the Glibc module leaves out).
@_silgen_name("malloc_info")
private func mallocInfo(_ options: Int32, _ stream: UnsafeMutablePointer<FILE>) -> Int32

/// What a long-lived process holds, for its soak tests (`EaselSoak`, the
/// persistent worker's `EASEL_WORKER_MEMORY` report): the heap in use, the
/// resident memory and the open descriptors.
public enum ProcessMemory {
    /// Bytes malloc has handed out and not had back, over every arena: what
    /// a leak grows, without the fragmentation and per-thread arena peaks
    /// that move the resident figure by a megabyte from one moment to the
    /// next. Nil if glibc gives no report.
    public static var heapInUse: Int? {
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        _ = mallocInfo(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return nil }
        let report = String(cString: buffer)
        // The report ends with the totals over all arenas: <total type="fast"
        // .../> <total type="rest" .../> <total type="mmap" .../> <system
        // type="current" size=.../>; in use = current − free (fast + rest) + mmap.
        func size(_ prefix: String) -> Int? {
            guard let range = report.ranges(of: prefix).last else { return nil }
            let rest = report[range.upperBound...]
            guard let value = rest.firstRange(of: "size=\"") else { return nil }
            return Int(rest[value.upperBound...].prefix { $0.isNumber })
        }
        guard let current = size("<system type=\"current\""), current > 0 else { return nil }
        return current - (size("<total type=\"fast\"") ?? 0) - (size("<total type=\"rest\"") ?? 0) + (size("<total type=\"mmap\"") ?? 0)
    }

    /// Resident bytes (`/proc/self/statm`), or nil without /proc.
    public static var resident: Int? {
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var size = 0, pages = 0
        guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &pages) { p in
            withVaList([s, p]) { vfscanf(file, "%ld %ld", $0) }
        } }) == 2 else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Descriptors open now (`/proc/self/fd`, less the one reading it).
    public static var openDescriptors: Int? { entries(of: "/proc/self/fd").map { $0 - 1 } }

    /// Threads now (`/proc/self/task`).
    public static var threads: Int? { entries(of: "/proc/self/task") }

    private static func entries(of folder: String) -> Int? {
        guard let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let dot = withUnsafeBytes(of: entry.pointee.d_name) { $0[0] == UInt8(ascii: ".") }
            if !dot { count += 1 }
        }
        return count
    }

    /// Gives memory malloc holds free back to the system (glibc's
    /// `malloc_trim`), so that the resident figure is what is in use.
    public static func trim() { _ = mallocTrimmed(0) }
}

@_silgen_name("malloc_trim")
private func mallocTrimmed(_ pad: Int) -> Int32
