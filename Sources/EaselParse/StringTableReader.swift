import EaselModel
import FoundationEssentials

extension Diagnostic.Message {
    static func unreadableStrings(_ path: String) -> Self { .init(.unreadableStrings, "cannot read the strings file '\(path)'") }
    static func unknownStringsFormat(_ path: String) -> Self {
        .init(.unreadableStrings, "'\(path)' is not a strings table Easel reads: a String Catalog (.xcstrings), a .strings file in a LOCALE.lproj folder, or JSON (.json: {\"de\": {\"title\": \"…\"}})")
    }
    static func badStringsJSON(_ detail: String) -> Self { .init(.unreadableStrings, "not valid JSON: \(detail)") }
    static func badStringTable(_ detail: String) -> Self { .init(.unreadableStrings, detail) }
    static func stringsNeedsLocaleFolder(_ path: String) -> Self {
        .init(.unreadableStrings, "'\(path)' must be in a LOCALE.lproj folder (de.lproj/Localizable.strings): its folder names its locale")
    }
    static func badStringsSyntax(_ detail: String) -> Self { .init(.unreadableStrings, ".strings syntax: \(detail)") }
}

/// Reads the string tables of `--strings` (docs/format.md, "Locales and
/// strings"): Apple String Catalogs, `.strings` files in `LOCALE.lproj/`
/// (UTF-8, or UTF-16 with a byte order mark, as Xcode writes them) and
/// JSON `{"de": {"title": "…"}}`. Errors are located in the file.
public enum StringTableReader {
    public static func read(path: String, limit: Int = Limits().maxFileSize) -> Result<LocalizedStrings, Diagnostic> {
        let url = URL(fileURLWithPath: path)
        func fail(_ message: Diagnostic.Message, line: Int = 1, column: Int = 1) -> Result<LocalizedStrings, Diagnostic> {
            .failure(Diagnostic(.error, message, at: SourceLocation(file: path, line: line, column: column)))
        }
        // Read with the size limit (FileManager's size attribute is a UInt
        // in FoundationEssentials: a cast to Int would skip the check).
        guard case .success(let bytes) = FileBytes.read(path, limit: limit) else { return fail(.unreadableStrings(path)) }
        let data = Data(bytes)
        var result: Result<LocalizedStrings, Diagnostic>
        switch url.pathExtension.lowercased() {
        case "xcstrings": result = catalog(data, path: path)
        case "json": result = jsonTable(data, path: path)
        case "strings":
            let folder = url.deletingLastPathComponent().lastPathComponent
            guard folder.hasSuffix(".lproj"), folder.count > 6 else { return fail(.stringsNeedsLocaleFolder(path)) }
            let locale = String(folder.dropLast(6))
            result = stringsFile(data, path: path).map { table in
                var strings = LocalizedStrings()
                strings.tables[locale] = table
                strings.sourceLanguage = locale == "Base" ? "Base" : nil
                return strings
            }
        default: return fail(.unknownStringsFormat(path))
        }
        if case .success(let strings) = result, let bad = characterNotAllowed(in: strings, bytes: bytes, path: path) { return .failure(bad) }
        // json-glib ends a string at `\u0000` (its strings are C strings): found in the file itself.
        if case .success = result, ["json", "xcstrings"].contains(url.pathExtension.lowercased()), let offset = nullEscape(in: bytes) {
            let (line, column) = CarriedText.lineAndColumn(of: offset, in: bytes)
            return fail(.characterNotAllowed("\u{0}", in: "this string"), line: line, column: column)
        }
        return result.map { strings in
            var s = strings
            s.files = [url.standardizedFileURL.resolvingSymlinksInPath().path]
            if s.sourceLanguage == nil, s.tables["en"] != nil { s.sourceLanguage = "en" }
            return s
        }
    }

    /// Where JSON text escapes U+0000 (`\u0000`, the backslash itself not
    /// escaped), or nil.
    private static func nullEscape(in bytes: [UInt8]) -> Int? {
        let escape = Array("u0000".utf8)
        var i = 0
        while i + 6 <= bytes.count {
            if bytes[i] == UInt8(ascii: "\\") {
                if bytes[(i + 1)..<(i + 6)].elementsEqual(escape, by: { $0 | 0x20 == $1 | 0x20 }) { return i }
                i += 2   // an escape: the character after the backslash is its
                continue
            }
            i += 1
        }
        return nil
    }

    /// A string no output can carry (`CarriedText`: a control character
    /// written as an escape, `\u0007` or `\U0007`), located at the line
    /// of its key (the first line that names it in quotes; the parsers keep
    /// no position per value).
    private static func characterNotAllowed(in strings: LocalizedStrings, bytes: [UInt8], path: String) -> Diagnostic? {
        for locale in strings.tables.keys.sorted() {
            let table = strings.tables[locale]!
            for key in table.keys.sorted() {
                guard let (scalar, _) = CarriedText.firstNotAllowed(in: table[key]!) else { continue }
                let text = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
                    ? String(decoding: stride(from: 2, to: bytes.count - 1, by: 2).map { i in
                        bytes[0] == 0xFF ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
                    }, as: UTF16.self)
                    : String(decoding: bytes, as: UTF8.self)
                let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"\(key)\"") }.map { $0 + 1 } ?? 1
                return Diagnostic(.error, .characterNotAllowed(scalar, in: "the '\(locale)' string '\(key)'"),
                                  at: SourceLocation(file: path, line: line, column: 1))
            }
        }
        return nil
    }

    /// JSON with a syntax error located where json-glib found it.
    private static func json(_ data: Data, path: String) -> Result<JSONValue, Diagnostic> {
        JSONDocument.parse(Array(data)).mapError { error in
            Diagnostic(.error, .badStringsJSON(error.message), at: SourceLocation(file: path, line: error.line, column: error.column))
        }
    }

    /// `{"de": {"title": "Titel"}, "en": {…}}`.
    static func jsonTable(_ data: Data, path: String) -> Result<LocalizedStrings, Diagnostic> {
        json(data, path: path).flatMap { object in
            let at = SourceLocation(file: path, line: 1, column: 1)
            guard let locales = object.object else {
                return .failure(Diagnostic(.error, .badStringTable("a JSON strings table is one object of locales: {\"de\": {\"title\": \"Titel\"}}"), at: at))
            }
            var strings = LocalizedStrings()
            for (locale, value) in locales {
                guard let table = value.object else {
                    return .failure(Diagnostic(.error, .badStringTable("the value of locale '\(locale)' must be an object of keys and strings"), at: at))
                }
                var out: [String: String] = [:]
                for (key, v) in table {
                    guard let text = v.string else {
                        return .failure(Diagnostic(.error, .badStringTable("'\(locale)'/'\(key)' must be a string"), at: at))
                    }
                    out[key] = text
                }
                strings.tables[locale] = out
            }
            return .success(strings)
        }
    }

    /// An Apple String Catalog: each key's `stringUnit` value per locale; a
    /// plural (or device) variation read as its `other` form; a key without
    /// a value in the source language has the key itself (as Xcode does).
    static func catalog(_ data: Data, path: String) -> Result<LocalizedStrings, Diagnostic> {
        json(data, path: path).flatMap { object in
            let at = SourceLocation(file: path, line: 1, column: 1)
            guard let root = object.object, let entries = root["strings"]?.object else {
                return .failure(Diagnostic(.error, .badStringTable("a String Catalog is an object with \"sourceLanguage\" and \"strings\""), at: at))
            }
            var strings = LocalizedStrings()
            let source = root["sourceLanguage"]?.string
            strings.sourceLanguage = source
            for (key, entry) in entries {
                let localizations = entry["localizations"]?.object ?? [:]
                for (locale, localization) in localizations {
                    if let value = unitValue(localization) { strings.tables[locale, default: [:]][key] = value }
                }
                if let source, strings.tables[source]?[key] == nil {
                    strings.tables[source, default: [:]][key] = key
                }
            }
            return .success(strings)
        }
    }

    /// `{"stringUnit": {"value": …}}`, or `{"variations": {"plural": {"other": …}}}`.
    private static func unitValue(_ localization: JSONValue) -> String? {
        if let unit = localization["stringUnit"], let value = unit["value"]?.string {
            // An empty value not yet translated (`"state": "new"`) is no translation, as in Xcode.
            return value.isEmpty && unit["state"]?.string != "translated" ? nil : value
        }
        if let variations = localization["variations"] {
            for kind in ["plural", "device"] {
                if let other = variations[kind]?["other"] { return unitValue(other) }
            }
        }
        return nil
    }

    /// `"key" = "value";` pairs with `/* */` and `//` comments, in UTF-16
    /// (with a byte order mark) or UTF-8.
    static func stringsFile(_ data: Data, path: String) -> Result<[String: String], Diagnostic> {
        let bytes = [UInt8](data)
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            guard let t = String(data: data, encoding: .utf16) else {
                return .failure(Diagnostic(.error, .badStringsSyntax("not valid UTF-16"), at: SourceLocation(file: path, line: 1, column: 1)))
            }
            text = t
        } else {
            guard let t = String(validating: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self) else {
                return .failure(Diagnostic(.error, .badStringsSyntax("not UTF-8, nor UTF-16 with a byte order mark"),
                                           at: SourceLocation(file: path, line: 1, column: 1)))
            }
            text = t
        }
        var parser = StringsParser(scalars: Array(text.unicodeScalars.drop { $0 == "\u{FEFF}" }), path: path)
        return parser.parse()
    }
}

/// The `.strings` grammar: `key = value;` where each side is a quoted
/// string (escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\UXXXX`) or a bare
/// word.
private struct StringsParser {
    let scalars: [Unicode.Scalar]
    let path: String
    var i = 0, line = 1, column = 1

    init(scalars: [Unicode.Scalar], path: String) { self.scalars = scalars; self.path = path }

    mutating func parse() -> Result<[String: String], Diagnostic> {
        var out: [String: String] = [:]
        do {
            while true {
                try skipSpace()
                guard i < scalars.count else { break }
                let key = try word()
                try skipSpace()
                try expect("=")
                try skipSpace()
                let value = try word()
                try skipSpace()
                try expect(";")
                out[key] = value
            }
            return .success(out)
        } catch let failure as Failure {
            return .failure(Diagnostic(.error, .badStringsSyntax(failure.message), at: failure.location))
        } catch {
            return .failure(Diagnostic(.error, .badStringsSyntax("\(error)"), at: SourceLocation(file: path, line: line, column: column)))
        }
    }

    struct Failure: Error { var message: String; var location: SourceLocation }
    var here: SourceLocation { SourceLocation(file: path, line: line, column: column) }

    mutating func advance() {
        if scalars[i] == "\n" { line += 1; column = 1 } else { column += 1 }
        i += 1
    }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < scalars.count ? scalars[i + offset] : nil }

    mutating func skipSpace() throws {
        while let c = peek() {
            if c.properties.isWhitespace { advance(); continue }
            if c == "/", peek(1) == "*" {
                let start = here
                advance(); advance()
                while peek() != nil, !(peek() == "*" && peek(1) == "/") { advance() }
                guard peek() != nil else { throw Failure(message: "a comment is not closed", location: start) }
                advance(); advance()
                continue
            }
            if c == "/", peek(1) == "/" {
                while let d = peek(), d != "\n" { _ = d; advance() }
                continue
            }
            break
        }
    }

    mutating func expect(_ c: Unicode.Scalar) throws {
        guard peek() == c else {
            throw Failure(message: "expected '\(c)'\(peek().map { ", found '\($0)'" } ?? " at the end of the file")", location: here)
        }
        advance()
    }

    mutating func word() throws -> String {
        guard let c = peek() else { throw Failure(message: "expected a quoted string at the end of the file", location: here) }
        if c != "\"" {
            var out = String.UnicodeScalarView()
            while let d = peek(), d.properties.isAlphabetic || d.properties.numericType != nil || "_.-$:/".unicodeScalars.contains(d) {
                out.append(d); advance()
            }
            guard !out.isEmpty else { throw Failure(message: "expected a quoted string, found '\(c)'", location: here) }
            return String(out)
        }
        let start = here
        advance()
        var out = String.UnicodeScalarView()
        while true {
            guard let d = peek() else { throw Failure(message: "a string is not closed", location: start) }
            advance()
            if d == "\"" { break }
            guard d == "\\" else { out.append(d); continue }
            guard let e = peek() else { throw Failure(message: "a string is not closed", location: start) }
            advance()
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "U", "u":
                var hex = ""
                while hex.count < 4, let h = peek(), h.properties.isASCIIHexDigit { hex.unicodeScalars.append(h); advance() }
                guard hex.count == 4, var v = UInt32(hex, radix: 16) else {
                    throw Failure(message: "\\U needs four hexadecimal digits", location: here)
                }
                // A UTF-16 surrogate pair, as Xcode writes characters past U+FFFF (`\UD83D\UDE00`).
                if (0xD800...0xDBFF).contains(v), peek() == "\\", peek(1) == "U" || peek(1) == "u" {
                    advance(); advance()
                    var low = ""
                    while low.count < 4, let h = peek(), h.properties.isASCIIHexDigit { low.unicodeScalars.append(h); advance() }
                    guard low.count == 4, let l = UInt32(low, radix: 16), (0xDC00...0xDFFF).contains(l) else {
                        throw Failure(message: "a high surrogate must be followed by a low one (\\UD83D\\UDE00)", location: here)
                    }
                    v = 0x10000 + ((v - 0xD800) << 10) + (l - 0xDC00)
                }
                guard let s = Unicode.Scalar(v) else { throw Failure(message: "\\U\(hex) is not a character", location: here) }
                out.append(s)
            default: out.append(e)
            }
        }
        return String(out)
    }
}
