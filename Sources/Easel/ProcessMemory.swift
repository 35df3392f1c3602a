import CMallocStatistics
import Glibc

/// What a long-lived process holds, for its soak tests (`EaselSoak`, the
/// persistent worker's `EASEL_WORKER_MEMORY` report): the heap in use, the
/// resident memory and the open descriptors.
public enum ProcessMemory {
    /// Bytes malloc has handed out and not had back, over every arena
    /// (glibc's `mallinfo2`: allocated chunks and mmapped ones): what a leak
    /// grows, without the fragmentation and per-thread arena peaks that move
    /// the resident figure by a megabyte from one moment to the next, or the
    /// free space at an arena's top that `malloc_info`'s totals count as in
    /// use. Nil where glibc gives none.
    public static var heapInUse: Int? {
        let bytes = easel_malloc_in_use()
        return bytes > 0 ? Int(bytes) : nil
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
