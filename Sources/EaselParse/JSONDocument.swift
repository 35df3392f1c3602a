import CJSONGLib
import EaselModel

/// A JSON file read by json-glib, whose syntax errors name their line and
/// column (FoundationEssentials' `JSONDecoder` says only "The given data
/// was not valid JSON.").
public enum JSONDocument {
    public struct SyntaxError: Error, Equatable {
        public let message: String
        public let line: Int
        public let column: Int
    }

    /// Deeper nesting is refused before parsing: json-glib (1.6) and the
    /// conversion below recurse once a level, and a file of a few hundred
    /// kilobytes of `[` would otherwise exhaust the stack.
    public static let maxDepth = 512

    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, SyntaxError> {
        if let (line, column) = tooDeep(bytes) {
            return .failure(SyntaxError(message: "nested deeper than \(maxDepth) levels", line: line, column: column))
        }
        guard !bytes.isEmpty else { return .failure(SyntaxError(message: "the file is empty", line: 1, column: 1)) }
        guard let parser = json_parser_new() else { return .failure(SyntaxError(message: "cannot read JSON", line: 1, column: 1)) }
        defer { g_object_unref(parser) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBytes { buffer in
            json_parser_load_from_data(parser, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(buffer.count), &error)
        }
        guard loaded != 0, let root = json_parser_get_root(parser) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "empty document"
            if let error { g_error_free(error) }
            return .failure(syntaxError(text))
        }
        return .success(value(root))
    }

    /// Where `[` and `{` outside strings first nest past `maxDepth`.
    static func tooDeep(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
        var depth = 0, line = 1, column = 0
        var inString = false, escaped = false
        for byte in bytes {
            if byte == 0x0A { line += 1; column = 0 } else { column += 1 }
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maxDepth { return (line, column) }
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return nil
    }

    /// json-glib's "<data>:2:8: Parse error: unexpected character…" as a
    /// message and its position.
    static func syntaxError(_ text: String) -> SyntaxError {
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        if parts.count == 4, let line = Int(parts[1]), let column = Int(parts[2]) {
            return SyntaxError(message: parts[3].trimmingSpaces, line: max(1, line), column: max(1, column))
        }
        return SyntaxError(message: text, line: 1, column: 1)
    }

    private static func value(_ node: OpaquePointer) -> JSONValue {
        switch json_node_get_node_type(node) {
        case JSON_NODE_OBJECT:
            guard let object = json_node_get_object(node) else { return .object([:]) }
            var members: [String: JSONValue] = [:]
            let names = json_object_get_members(object)
            defer { g_list_free(names) }
            var item = names
            while let link = item {
                if let name = link.pointee.data?.assumingMemoryBound(to: CChar.self), let member = json_object_get_member(object, name) {
                    members[String(cString: name)] = value(member)
                }
                item = link.pointee.next
            }
            return .object(members)
        case JSON_NODE_ARRAY:
            guard let array = json_node_get_array(node) else { return .array([]) }
            return .array((0..<json_array_get_length(array)).compactMap { json_array_get_element(array, $0).map(value) })
        case JSON_NODE_VALUE:
            switch easel_json_value_kind(node) {
            case 1: return .integer(Int(json_node_get_int(node)))
            case 2: return .number(json_node_get_double(node))
            case 3: return .bool(json_node_get_boolean(node) != 0)
            case 4: return .string(json_node_get_string(node).map { String(cString: $0) } ?? "")
            default: return .null
            }
        default:
            return .null
        }
    }
}
