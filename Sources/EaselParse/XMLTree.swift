import EaselModel

/// An attribute as written, with where its name and its value start.
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var value: String
    public var location: SourceLocation
    public var valueLocation: SourceLocation
    /// Just past the value (where its closing quote stands).
    public var valueEnd: SourceLocation
}

extension Diagnostics {
    /// An error about an attribute's value, with the value's range.
    mutating func error(_ message: Diagnostic.Message, on attribute: XMLAttribute) {
        error(message, at: attribute.valueLocation, through: attribute.valueEnd)
    }
}

/// The element tree libxml2 read, with a location on everything, before any
/// meaning is given to it (`SceneBuilder` does that).
public struct XMLElement: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var attributes: [XMLAttribute]
    public var children: [XMLElement]
    /// Character data directly inside this element, in order.
    public var text: String

    public func attribute(_ name: String) -> XMLAttribute? {
        attributes.first { $0.name == name }
    }
}

/// Maps UTF-8 byte offsets to 1-based line and column.
struct LineTable {
    let file: String
    private var lineStarts: [Int] = [0]

    init(file: String, bytes: [UInt8]) {
        self.file = file
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(i + 1) }
    }

    func location(ofByte offset: Int) -> SourceLocation {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(file: file, line: lo + 1, column: offset - lineStarts[lo] + 1)
    }
}
