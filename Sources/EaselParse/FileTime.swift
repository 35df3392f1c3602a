#if canImport(Glibc)
import Glibc
#endif
import EaselModel

/// Files' modification times, as `FileRecord.modified` keeps them.
public enum FileTime {
    /// Nanoseconds since 1970.
    public static func modified(_ info: stat) -> Int {
        Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }

    /// `modified`, if old enough to be trusted: more than two seconds
    /// before now (a younger file could change again within the clock's tick).
    public static func trusted(_ modified: Int) -> Int? {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nowNanoseconds = Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
        return nowNanoseconds - modified > 2_000_000_000 ? modified : nil
    }
}

extension FileRecord {
    /// Whether the file at `path` still has this record's size and time
    /// (false when the record keeps no time).
    public var isUnchangedOnDisk: Bool {
        guard let modified else { return false }
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return Int(info.st_size) == size && FileTime.modified(info) == modified
    }
}
