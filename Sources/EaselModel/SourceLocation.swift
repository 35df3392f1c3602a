/// A place in a scene file. `line` and `column` are 1-based; the column
/// counts UTF-8 bytes, as swift-markdown and clang do, so editors that jump
/// to `file:line:col` land on the right character for ASCII input.
///
/// The file is held as its number in `SourceFiles`, not as a string: a
/// location is three integers, copied without reference counting (every
/// attribute of a scene has three locations; with the path's string in
/// each, 10,000 nodes spent tens of millions of instructions retaining and
/// releasing it).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var fileID: SourceFiles.ID
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.init(fileID: SourceFiles.id(of: file), line: line, column: column)
    }

    public init(fileID: SourceFiles.ID, line: Int, column: Int) {
        self.fileID = fileID
        self.line = line
        self.column = column
    }

    public var file: String {
        get { SourceFiles.path(of: fileID) }
        set { fileID = SourceFiles.id(of: newValue) }
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// The file names locations name, each by a number. A location is made
/// from a name while a file is read and printed when a diagnostic is said,
/// both within the compile that read the file; a long-lived process (the
/// preview, a persistent worker) reads ever new names — a fresh scene, a
/// sandbox folder per request — so the table keeps the `capacity` names
/// used most recently and forgets the rest. A number is not given twice
/// (before 2^32 names):
/// a location older than every name kept prints an empty name rather than
/// another file's.
public enum SourceFiles {
    public typealias ID = UInt32

    private struct Table: Sendable {
        var ids: [String: ID] = [:]
        var paths: [ID: (path: String, used: UInt64)] = [:]
        var next: ID = 0
        var clock: UInt64 = 0

        mutating func forgetOldest() {
            // A quarter at a time: one sort for many names.
            let oldest = paths.sorted { $0.value.used < $1.value.used }.prefix(paths.count / 4)
            for (id, entry) in oldest {
                paths[id] = nil
                ids[entry.path] = nil
            }
        }
    }
    private static let table = Locked(Table())
    /// Names kept: far more than a compile reads (its scene, CSV files,
    /// string tables, fonts), and than any few in flight together do.
    public static let capacity = 4096

    public static func id(of path: String) -> ID {
        table.withLock { t in
            t.clock += 1
            if let id = t.ids[path] {
                t.paths[id]?.used = t.clock
                return id
            }
            if t.paths.count >= capacity { t.forgetOldest() }
            let id = t.next
            t.next = t.next == .max ? 0 : t.next + 1
            t.paths[id] = (path, t.clock)
            t.ids[path] = id
            return id
        }
    }

    public static func path(of id: ID) -> String {
        table.withLock { t in
            guard let entry = t.paths[id] else { return "" }
            t.clock += 1
            t.paths[id]!.used = t.clock
            return entry.path
        }
    }

    /// Names kept now (for the soak tests: the table stays bounded).
    public static var count: Int { table.withLock { $0.paths.count } }
}

/// A span of a scene file: from `start` up to (not including) `end`, as
/// swift-markdown's `Range<SourceLocation>`; editors underline it.
public struct SourceRange: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation
    public init(start: SourceLocation, end: SourceLocation) { self.start = start; self.end = end }
}
