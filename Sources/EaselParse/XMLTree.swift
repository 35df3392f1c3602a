import EaselModel

/// An attribute as written, with where its name and its value start.
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var value: String
    public var location: SourceLocation
    public var valueLocation: SourceLocation
    /// Just past the value (where its closing quote stands).
    public var valueEnd: SourceLocation
    /// The parameters substituted into the value, for messages about it.
    public var parameters: [ParameterUse] = []
    /// A parameter's value was already reported as the wrong type here: the
    /// value's own parse error would say the same again.
    public var parameterErrorReported = false
}

/// A parameter's value written into an attribute or a text.
public struct ParameterUse: Hashable, Sendable {
    public var name: String
    public var setting: ParameterSetting
}

extension Diagnostics {
    /// An error about an attribute's value, with the value's range; when
    /// parameters made the value, the message says which and from where.
    mutating func error(_ message: @autoclosure () -> Diagnostic.Message, on attribute: XMLAttribute) {
        guard !attribute.parameterErrorReported, !isFull else { return }
        var message = message()
        message.text += ParameterUse.note(attribute.parameters)
        error(message, at: attribute.valueLocation, through: attribute.valueEnd)
    }
}

extension ParameterUse {
    /// ` (from parameter 'accent' = 'bleu', set on the command line)`, or
    /// nothing when no parameter was used.
    static func note(_ uses: [ParameterUse]) -> String {
        guard !uses.isEmpty else { return "" }
        func shown(_ v: String) -> String { v.count <= 60 ? v : String(v.prefix(57)) + "..." }
        let parts = uses.map { "'\($0.name)' = '\(shown($0.setting.value))', \($0.setting.originText)" }
        return " (from parameter\(uses.count == 1 ? "" : "s") " + parts.joined(separator: "; ") + ")"
    }
}

/// The element tree libxml2 read, with a location on everything, before any
/// meaning is given to it (`SceneBuilder` does that).
public struct XMLElement: Hashable, Sendable {
    public var name: String
    public var location: SourceLocation
    public var attributes: [XMLAttribute]
    public var children: [XMLElement]
    /// Character data directly inside this element: before the first
    /// child, between children, after the last (one more than `children`).
    public var texts: [String] = [""]

    /// All the character data directly inside this element, in order.
    public var text: String { texts.count == 1 ? texts[0] : texts.joined() }

    /// Whether an element below this one is named `name` (a stack, not
    /// recursion: scenes may nest deeply).
    public func descendants(named name: String) -> Bool {
        var pending = children[...]
        var more: [XMLElement] = []
        while true {
            for child in pending {
                if child.name == name { return true }
                more.append(contentsOf: child.children)
            }
            guard !more.isEmpty else { return false }
            pending = more[...]
            more = []
        }
    }

    public func attribute(_ name: String) -> XMLAttribute? {
        // The builder asks for every attribute an element may have: most
        // are absent, and a length check answers most comparisons.
        let length = name.utf8.count
        for i in attributes.indices where attributes[i].name.utf8.count == length && attributes[i].name == name {
            return attributes[i]
        }
        return nil
    }
}

/// Maps UTF-8 byte offsets to 1-based line and column.
struct LineTable {
    let file: SourceFiles.ID
    private var lineStarts: [Int] = [0]

    init(file: String, bytes: [UInt8]) {
        self.file = SourceFiles.id(of: file)
        // Indexed: an unoptimised build allocates per element of `enumerated()`.
        for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") { lineStarts.append(i + 1) }
    }

    func location(ofByte offset: Int) -> SourceLocation {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SourceLocation(fileID: file, line: lo + 1, column: offset - lineStarts[lo] + 1)
    }
}
