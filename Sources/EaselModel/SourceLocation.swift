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

/// Every file name a location has named in this process, each once, by
/// number. A process sees a few (its scenes, their CSV files and string
/// tables), so the table only grows — a host that compiles sources under a
/// new name each time grows it by that name — and is looked up under a
/// lock only when a location is made from a name or printed. A number the
/// table never gave prints as an empty name.
public enum SourceFiles {
    public typealias ID = UInt32

    private struct Table: Sendable {
        var ids: [String: ID] = [:]
        var paths: [String] = []
    }
    private static let table = Locked(Table())

    public static func id(of path: String) -> ID {
        table.withLock { t in
            if let id = t.ids[path] { return id }
            let id = ID(t.paths.count)
            t.paths.append(path)
            t.ids[path] = id
            return id
        }
    }

    public static func path(of id: ID) -> String {
        table.withLock { t in Int(id) < t.paths.count ? t.paths[Int(id)] : "" }
    }
}

/// A span of a scene file: from `start` up to (not including) `end`, as
/// swift-markdown's `Range<SourceLocation>`; editors underline it.
public struct SourceRange: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation
    public init(start: SourceLocation, end: SourceLocation) { self.start = start; self.end = end }
}
