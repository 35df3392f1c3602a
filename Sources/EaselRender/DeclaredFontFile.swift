import CPangoCairo
import Glibc
import EaselModel

extension Diagnostic.Message {
    static func fontUnreadable(_ path: String) -> Self {
        .init(.unusableFont, "cannot read a font from '\(path)'")
    }
    static func woffCollection(_ path: String) -> Self {
        .init(.unusableFont, "'\(path)' is a WOFF2 font collection, which Easel does not read; use the collection as a .ttc file")
    }
    static func tooManyFaces(_ path: String, _ count: Int) -> Self {
        .init(.unusableFont, "'\(path)' is a collection of \(count) faces, more than the \(FontNames.maxFaces) Easel reads from one file")
    }
    static func noAnonymousFile(_ path: String, _ reason: String) -> Self {
        .init(.unusableFont, "cannot load the font '\(path)': \(reason)")
    }
    static let fontConfigurationFailed = Self(.unusableFont, "fontconfig could not make the compile's font set")
}

/// Why a declared file gives no font.
enum FontFileProblem: Error, Sendable {
    case unreadable
    case woffCollection
    case tooManyFaces(Int)
    /// No anonymous file for the bytes (`memfd_create` failed: too many
    /// open files, say).
    case noAnonymousFile(String)
    case configuration
}

/// A declared font file (`<font src>`, `--font-dir`): its bytes, read once
/// by the compile that declared it.
public struct DeclaredFontFile: Sendable {
    /// The path as the compile read it (what `easel layout` reports).
    public var path: String
    /// What tells these bytes from others in a process: their content hash,
    /// or the file's path, size, modification time and inode (a font folder's
    /// files are not hashed unless a text uses them).
    public var identity: String
    public var bytes: [UInt8]
    public init(path: String, identity: String, bytes: [UInt8]) { self.path = path; self.identity = identity; self.bytes = bytes }
}
