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
    /// The command line was wrong (a `--set` naming no parameter): the run
    /// exits with status 2, not 1.
    public var isCommandLineError = false

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
    /// Most errors kept (`--error-limit`, `Limits.maxErrors`); 0 keeps all.
    /// Reaching it adds one error saying so and sets `isFull`, which tells
    /// whoever is looking for errors to stop: a flood of them then costs
    /// neither output nor time.
    public var errorLimit = 0
    public private(set) var isFull = false
    private var errorCount = 0

    public init(errorLimit: Int = 0) { self.errorLimit = errorLimit }

    public var hasErrors: Bool { errorCount > 0 }

    public mutating func error(_ message: Diagnostic.Message, at location: SourceLocation?, through end: SourceLocation? = nil) {
        guard !isFull else { return }
        all.append(Diagnostic(.error, message, at: location, through: end))
        errorCount += 1
        limitReached(at: location)
    }

    /// Warnings do not count towards the error limit and never stop a compile.
    public mutating func warning(_ message: Diagnostic.Message, at location: SourceLocation?) {
        all.append(Diagnostic(.warning, message, at: location))
    }

    /// An error caused by the command line, not the scene (exit status 2).
    public mutating func commandLineError(_ message: Diagnostic.Message, at location: SourceLocation?) {
        guard !isFull else { return }
        var d = Diagnostic(.error, message, at: location)
        d.isCommandLineError = true
        all.append(d)
        errorCount += 1
        limitReached(at: location)
    }

    private mutating func limitReached(at location: SourceLocation?) {
        if errorLimit > 0, errorCount >= errorLimit {
            isFull = true
            all.append(Diagnostic(.error, .tooManyErrors, at: location))
        }
    }
}

extension Diagnostic.Message {
    public static let tooManyErrors = Diagnostic.Message("too many errors, stopping; --error-limit 0 shows all")
}

/// Thrown by a stage that cannot go on; carries everything found so far.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
