/// A file a compile read, and what it held: the record `easel build` and
/// `--depfile` work from (clang's dependency collector, not a second scan).
public struct FileRecord: Hashable, Sendable, Codable {
    /// The absolute path, symlinks resolved.
    public var path: String
    /// SHA-256 of the bytes read, lower-case hex.
    public var sha256: String
    public var size: Int
    /// The file's modification time (nanoseconds since 1970) as it was
    /// before it was read, kept only if it was then more than two seconds
    /// old (`FileTime.trusted`): a build takes a file whose size and time are still these as
    /// unchanged without reading it (as git's index does). A younger file
    /// could change again within the clock's tick, and is always hashed.
    public var modified: Int?
    public init(path: String, sha256: String, size: Int, modified: Int? = nil) {
        self.path = path; self.sha256 = sha256; self.size = size; self.modified = modified
    }
}
