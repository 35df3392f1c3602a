import ArgumentParser
import Easel
import EaselModel
import FoundationEssentials

/// How a run prints its diagnostics (`--diagnostics-format`).
public enum DiagnosticsFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// `file:line:col: error: message [E0103]`, as compilers print them.
    case text
    /// One JSON object a line, as each scene finishes.
    case json
    /// One SARIF 2.1.0 log for the whole run, when it ends.
    case sarif
}

/// `--diagnostics-format`, on every command that compiles.
public struct DiagnosticsOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(name: .customLong("diagnostics-format"),
            help: "text, json (one object a line) or sarif (one SARIF 2.1.0 log for the run); printed to stderr.")
    public var diagnosticsFormat: DiagnosticsFormat = .text

    /// Starts the run's output in this format; `finish` it when the run ends.
    public func start() -> DiagnosticsOutput { DiagnosticsOutput(format: diagnosticsFormat) }
}

/// Prints a run's diagnostics to stderr, so that stdout stays the
/// command's own output (`easel layout`'s tree). Text and JSON lines go out
/// as they are reported; SARIF collects them into one log at `finish`.
public final class DiagnosticsOutput: @unchecked Sendable {
    public let format: DiagnosticsFormat
    private let collected = Locked<[(diagnostic: Diagnostic, file: String)]>([])

    public init(format: DiagnosticsFormat) { self.format = format }

    /// `input` names the file a diagnostic without a location belongs to
    /// (a write failure belongs to the scene that was being written).
    public func report(_ diagnostics: [Diagnostic], input: String) {
        guard !diagnostics.isEmpty else { return }
        // Under the lock: one report's lines stay together.
        collected.withLock { collected in
        switch format {
        case .text:
            let lines = diagnostics.map { d in d.location == nil ? "\(input): \(d) [\(d.code)]\n" : "\(d) [\(d.code)]\n" }
            StandardStreams.error(lines.joined())
        case .json:
            let lines = diagnostics.map { DiagnosticJSON.line($0, file: $0.file ?? input) + "\n" }
            StandardStreams.error(lines.joined())
        case .sarif:
            collected += diagnostics.map { ($0, $0.file ?? input) }
        }
        }
    }

    /// An error about a path that is no scene's (an output folder that
    /// cannot be made).
    public func report(_ message: Diagnostic.Message, path: String) {
        report([Diagnostic(.error, message, at: nil)], input: path)
    }

    /// Prints the SARIF log (text and JSON were printed as they came).
    public func finish() {
        guard format == .sarif else { return }
        collected.withLock { collected in
            StandardStreams.error(SARIFLog.text(collected, version: Easel.version) + "\n")
            collected = []
        }
    }
}

/// The contract's JSON form of one diagnostic, keys in its order.
enum DiagnosticJSON {
    static func line(_ d: Diagnostic, file: String) -> String {
        let end = d.range?.end
        var fields: [(String, String)] = [
            ("file", string(file)),
            ("line", d.location.map { String($0.line) } ?? "null"),
            ("column", d.location.map { String($0.column) } ?? "null"),
            ("endLine", end.map { String($0.line) } ?? "null"),
            ("endColumn", end.map { String($0.column) } ?? "null"),
            ("severity", string(d.severity.rawValue)),
            ("code", string(d.code)),
            ("message", string(d.message.text)),
        ]
        fields.append(("suggestion", d.message.suggestion.map(string) ?? "null"))
        return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A JSON string literal (RFC 8259: quote, backslash and controls escaped).
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
