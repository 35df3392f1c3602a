import Foundation

/// One problem found in a scene, printed as `file:line:col: error: message`
/// so that Xcode, SwiftPM plugins and editors can jump to it.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    /// Messages are values declared next to the code that emits them
    /// (`extension Diagnostic.Message { static func … }`), not strings
    /// assembled at call sites.
    public struct Message: Error, Hashable, Sendable {
        public var text: String
        public init(_ text: String) { self.text = text }
    }

    public var severity: Severity
    public var message: Message
    public var location: SourceLocation?
    /// What the message is about, where the parser knows its extent (an
    /// attribute's value); starts at `location`.
    public var range: SourceRange?

    public init(_ severity: Severity = .error, _ message: Message, at location: SourceLocation?, through end: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        if let location, let end { range = SourceRange(start: location, end: end) }
    }

    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message.text)"
    }
}

extension Double {
    /// A whole number for messages, without trapping on values past Int's
    /// range (scenes may hold numbers such as 1e76).
    public var wholeNumberText: String {
        guard isFinite else { return "\(self)" }
        let r = rounded()
        return abs(r) < 1e15 ? String(Int(r)) : String(format: "%.3g", r)
    }
}

/// Collects every diagnostic of a run; a pass keeps going after an error so
/// that the user sees all the problems of a file at once.
public struct Diagnostics: Sendable {
    public private(set) var all: [Diagnostic] = []
    public init() {}

    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    public mutating func error(_ message: Diagnostic.Message, at location: SourceLocation?, through end: SourceLocation? = nil) {
        all.append(Diagnostic(.error, message, at: location, through: end))
    }

}

/// Thrown by a stage that cannot go on; carries everything found so far.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
