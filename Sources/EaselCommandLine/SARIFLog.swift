import Easel
import FoundationEssentials

/// A run's diagnostics as one SARIF 2.1.0 log (OASIS, "Static Analysis
/// Results Interchange Format"), the form GitHub code scanning, editors
/// and CI annotations read: a rule per code used (its summary from
/// `DiagnosticCode`), a result per diagnostic with its file and region.
enum SARIFLog {
    static func text(_ diagnostics: [(diagnostic: Diagnostic, file: String)], version: String) -> String {
        var ruleIDs: [String] = []
        var rules: [String] = []
        var lines = LineCache()
        let results = diagnostics.map { d -> String in
            let file = d.file
            let id = d.diagnostic.code
            if !ruleIDs.contains(id) {
                ruleIDs.append(id)
                let code = d.diagnostic.message.code
                rules.append(object([
                    ("id", json(id)),
                    ("name", json(code.name)),
                    ("shortDescription", object([("text", json(code.summary))])),
                    ("defaultConfiguration", object([("level", json(level(d.diagnostic.severity)))])),
                ]))
            }
            var location: [(String, String)] = [("artifactLocation", object([("uri", json(uri(file)))]))]
            if let start = d.diagnostic.location {
                var region = [("startLine", String(start.line)),
                              ("startColumn", String(lines.codePointColumn(file, start.line, start.column)))]
                if let end = d.diagnostic.range?.end {
                    region.append(("endLine", String(end.line)))
                    region.append(("endColumn", String(lines.codePointColumn(file, end.line, end.column))))
                }
                location.append(("region", object(region)))
            }
            var result: [(String, String)] = [
                ("ruleId", json(id)),
                ("ruleIndex", String(ruleIDs.firstIndex(of: id)!)),
                ("level", json(level(d.diagnostic.severity))),
                ("message", object([("text", json(d.diagnostic.message.text))])),
                ("locations", "[" + object([("physicalLocation", object(location))]) + "]"),
            ]
            if let suggestion = d.diagnostic.message.suggestion {
                result.append(("properties", object([("suggestion", json(suggestion))])))
            }
            return object(result)
        }
        let driver = object([
            ("name", json("easel")),
            ("version", json(version)),
            ("rules", "[" + rules.joined(separator: ",") + "]"),
        ])
        let run = object([
            ("tool", object([("driver", driver)])),
            // Easel's own columns count UTF-8 bytes; SARIF's count code points.
            ("columnKind", json("unicodeCodePoints")),
            ("results", "[" + results.joined(separator: ",") + "]"),
        ])
        return object([
            ("$schema", json("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", json("2.1.0")),
            ("runs", "[" + run + "]"),
        ])
    }

    private static func level(_ severity: Diagnostic.Severity) -> String { severity == .error ? "error" : "warning" }
    private static func json(_ s: String) -> String { DiagnosticJSON.string(s) }
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(json($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A path as a relative URI reference (RFC 3986: spaces and the like
    /// percent-encoded, slashes kept); an absolute path as a file URI.
    static func uri(_ path: String) -> String {
        // RFC 3986's path characters (pchar and "/") less ':', with which a
        // first segment would read as a scheme; every other UTF-8 byte as %XX.
        let allowed = Set("!$&'()*+,-./=@_~".utf8)
        var encoded = ""
        for byte in path.utf8 {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlphanumeric || allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    /// Byte columns to code-point columns, reading each file once.
    struct LineCache {
        private var files: [String: [Substring]] = [:]
        mutating func codePointColumn(_ file: String, _ line: Int, _ byteColumn: Int) -> Int {
            if files[file] == nil {
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                files[file] = text.split(separator: "\n", omittingEmptySubsequences: false)
            }
            guard let lines = files[file], line >= 1, line <= lines.count else { return byteColumn }
            let bytes = lines[line - 1].utf8
            let end = bytes.index(bytes.startIndex, offsetBy: min(max(0, byteColumn - 1), bytes.count))
            return String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self).unicodeScalars.count + 1
        }
    }
}
