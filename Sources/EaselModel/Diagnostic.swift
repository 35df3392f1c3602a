import FoundationEssentials

/// One problem found in a scene, printed as `file:line:col: error: message`
/// so that Xcode, SwiftPM plugins and editors can jump to it.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    /// Messages are values declared next to the code that emits them
    /// (`extension Diagnostic.Message { static func … }`), not strings
    /// assembled at call sites.
    public struct Message: Error, Hashable, Sendable {
        public var code: DiagnosticCode
        public var text: String
        /// What the user probably meant, where the message suggests it
        /// (the text says it too): for editors that offer the fix.
        public var suggestion: String?
        public init(_ code: DiagnosticCode, _ text: String, suggestion: String? = nil) {
            self.code = code
            self.text = text
            self.suggestion = suggestion
        }
    }

    public var severity: Severity
    public var message: Message
    public var location: SourceLocation? { didSet { file = location?.file } }
    /// The name of `location`'s file, taken when the diagnostic is made:
    /// `SourceFiles` keeps only the names used most recently, and a build
    /// prints its scenes' diagnostics after it has read thousands of files.
    public private(set) var file: String?
    /// What the message is about, where the parser knows its extent (an
    /// attribute's value); starts at `location`.
    public var range: SourceRange?
    /// `E0103` or `W0103` (`DiagnosticCode`).
    public var code: String { message.code.code(severity) }

    public init(_ severity: Severity = .error, _ message: Message, at location: SourceLocation?, through end: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        file = location?.file
        if let location, let end { range = SourceRange(start: location, end: end) }
    }

    /// What makes two diagnostics one report: the same code at the same
    /// place about the same thing. The text stays in the key because one
    /// code at one place can name different subjects (E0605 at a text lists
    /// the characters each locale's string lacks).
    public struct Identity: Hashable, Sendable {
        let code: String
        let file: String?
        let location: SourceLocation?
        let text: String
    }

    public var identity: Identity { Identity(code: code, file: file, location: location, text: message.text) }

    public var description: String {
        let prefix = location.map { "\(file ?? ""):\($0.line):\($0.column): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message.text)"
    }
}

extension Double {
    /// A whole number for messages, without trapping on values past Int's
    /// range (scenes may hold numbers such as 1e76).
    public var wholeNumberText: String {
        guard isFinite else { return "\(self)" }
        let r = rounded()
        return abs(r) < 1e15 ? String(Int(r)) : CFormat.string("%.3g", r)
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

    /// The message is made only if it is kept: past the limit a message's
    /// "did you mean" search (over every id, colour or parameter) is not
    /// paid for each of a flood of errors nobody sees.
    public mutating func error(_ message: @autoclosure () -> Diagnostic.Message, at location: SourceLocation?, through end: SourceLocation? = nil) {
        guard !isFull else { return }
        all.append(Diagnostic(.error, message(), at: location, through: end))
        errorCount += 1
        limitReached(at: location)
    }

    /// Warnings do not count towards the error limit and never stop a compile.
    public mutating func warning(_ message: Diagnostic.Message, at location: SourceLocation?) {
        all.append(Diagnostic(.warning, message, at: location))
    }

    private mutating func limitReached(at location: SourceLocation?) {
        if errorLimit > 0, errorCount >= errorLimit {
            isFull = true
            all.append(Diagnostic(.error, .tooManyErrors, at: location))
        }
    }
}

extension Diagnostic.Message {
    public static let tooManyErrors = Diagnostic.Message(.tooManyErrors, "too many errors, stopping; --error-limit 0 shows all")
}

/// Thrown by a stage that cannot go on; carries everything found so far.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
