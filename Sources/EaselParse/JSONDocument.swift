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

    public static func parse(_ bytes: [UInt8]) -> Result<JSONValue, SyntaxError> {
        guard let parser = json_parser_new() else { return .failure(SyntaxError(message: "cannot read JSON", line: 1, column: 1)) }
        defer { g_object_unref(parser) }
        var error: UnsafeMutablePointer<GError>?
        let loaded = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                json_parser_load_from_data(parser, $0, gssize(buffer.count), &error)
            }
        }
        // An empty buffer has no base address to rebind: json-glib reads it as no document.
        guard loaded != 0, let root = json_parser_get_root(parser) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "empty document"
            if let error { g_error_free(error) }
            return .failure(syntaxError(text))
        }
        return .success(value(root))
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
