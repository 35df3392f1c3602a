/// A file a compile read, and what it held: the record `easel build` and
/// `--depfile` work from (clang's dependency collector, not a second scan).
public struct FileRecord: Hashable, Sendable, Codable {
    /// The absolute path, symlinks resolved.
    public var path: String
    /// SHA-256 of the bytes read, lower-case hex.
    public var sha256: String
    public var size: Int
    public init(path: String, sha256: String, size: Int) {
        self.path = path; self.sha256 = sha256; self.size = size
    }
}
