/// A place in a scene file. `line` and `column` are 1-based; the column
/// counts UTF-8 bytes, as swift-markdown and clang do, so editors that jump
/// to `file:line:col` land on the right character for ASCII input.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A span of a scene file: from `start` up to (not including) `end`, as
/// swift-markdown's `Range<SourceLocation>`; editors underline it.
public struct SourceRange: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation
    public init(start: SourceLocation, end: SourceLocation) { self.start = start; self.end = end }
}
