import Easel
import Foundation

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
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")   // a first segment with ':' would read as a scheme
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
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
