/// A JSON document as values, for the few files Easel reads or writes as
/// JSON without a fixed shape (string tables, parameter files, asset
/// catalogs' Contents.json). Decoded and encoded by FoundationEssentials'
/// `JSONDecoder`/`JSONEncoder`; `JSONSerialization`, which gave `Any`,
/// lives in the ICU-backed part of Foundation that Easel does not link.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction that fits an `Int`.
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let b = try? value.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? value.decode(Int.self) {
            self = .integer(i)
        } else if let d = try? value.decode(Double.self) {
            self = .number(d)
        } else if let s = try? value.decode(String.self) {
            self = .string(s)
        } else if let a = try? value.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try value.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .null: try value.encodeNil()
        case .bool(let b): try value.encode(b)
        case .integer(let i): try value.encode(i)
        case .number(let d): try value.encode(d)
        case .string(let s): try value.encode(s)
        case .array(let a): try value.encode(a)
        case .object(let o): try value.encode(o)
        }
    }

    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A string as it is, a number as JSON writes it (`12`, `0.5`).
    public var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : "\(d)"
        default: return nil
        }
    }

    public subscript(key: String) -> JSONValue? { object?[key] }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
