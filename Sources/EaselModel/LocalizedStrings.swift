/// String tables for one run (`--strings`): each locale's values by key,
/// and the language the tables were written in (docs/format.md, "Locales
/// and strings").
public struct LocalizedStrings: Hashable, Sendable {
    /// Locale → key → value.
    public var tables: [String: [String: String]] = [:]
    /// A String Catalog's `sourceLanguage`; for `.strings` and JSON tables,
    /// `en` where they have it (documented).
    public var sourceLanguage: String?
    /// Each table file, as given, for messages; and its path for depfiles.
    public var files: [String] = []
    public init() {}

    public var locales: [String] { tables.keys.sorted() }
    public var keys: Set<String> { Set(tables.values.flatMap(\.keys)) }

    /// The locale and its parents (`pt-BR`, then `pt`).
    public static func chain(_ locale: String) -> [String] {
        var parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        var out: [String] = []
        while !parts.isEmpty {
            out.append(parts.joined(separator: "-"))
            parts.removeLast()
        }
        return out
    }

    /// The locale whose values a compile in `locale` reads: itself, or for
    /// a pseudo-locale the source language (which it pseudo-translates).
    public func lookupLocale(for locale: String) -> String {
        PseudoLocale(rawValue: locale) == nil ? locale : sourceLanguage ?? locale
    }

    /// A value for `key` in `locale`: from the locale or a parent of it
    /// (`pt-BR`, `pt`), else from the source language (`fellBack`).
    public func value(_ key: String, locale: String) -> (value: String, locale: String, fellBack: Bool)? {
        for l in LocalizedStrings.chain(locale) {
            if let v = table(l)?[key] { return (v, l, false) }
        }
        if let source = sourceLanguage, let v = table(source)?[key] { return (v, source, true) }
        return nil
    }

    /// Locales match without regard to case or `_` for `-` (`pt_BR`, `pt-br`).
    private func table(_ locale: String) -> [String: String]? {
        if let t = tables[locale] { return t }
        let wanted = LocalizedStrings.normalized(locale)
        // The first in name order, so that the same tables always give the
        // same value (one pass, not a sort per lookup).
        return tables.keys.filter { LocalizedStrings.normalized($0) == wanted }.min().flatMap { tables[$0] }
    }

    static func normalized(_ locale: String) -> String { locale.lowercased().replacing("_", with: "-") }

    /// Another file's tables over these (its values win).
    public mutating func merge(_ other: LocalizedStrings) {
        for (locale, table) in other.tables { tables[locale, default: [:]].merge(table) { _, new in new } }
        if sourceLanguage == nil { sourceLanguage = other.sourceLanguage }
        files += other.files
    }
}

/// `--locale pseudo` and `pseudo-rtl`: text that looks translated, to find
/// text that will not fit or does not mirror before translations exist.
public enum PseudoLocale: String, Sendable, CaseIterable {
    case pseudo
    case pseudoRTL = "pseudo-rtl"

    /// Latin letters accented, then padded to 140% of the length with
    /// `·`, the whole in brackets (`[Ŵéêķļý šţéƥš ·····]`). Under
    /// `pseudo-rtl` each line is forced right to left instead (RLO … PDF),
    /// as Android's `ar-XB`.
    public func translate(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        switch self {
        case .pseudo: return "[" + PseudoLocale.accent(text) + PseudoLocale.padding(for: text.count) + "]"
        case .pseudoRTL: return PseudoLocale.reverse(text)
        }
    }

    /// Latin letters accented; `{…}` kept as written (graph placeholders).
    public static func accent(_ text: String) -> String {
        var out = ""
        var braces = 0
        for c in text {
            if c == "{" { braces += 1 } else if c == "}" { braces = max(0, braces - 1) }
            out += braces > 0 || c == "}" ? String(c) : (accented[c] ?? String(c))
        }
        return out
    }

    /// What makes `count` characters 40% longer, brackets included.
    public static func padding(for count: Int) -> String {
        " " + String(repeating: "·", count: max(1, Int((Double(count) * 0.4).rounded(.up)) - 3))
    }

    /// Each line forced right to left.
    public static func reverse(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "\u{202E}" + $0 + "\u{202C}" }.joined(separator: "\n")
    }

    static let accented: [Character: String] = {
        let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let marked = Array("åƀçđéƒĝĥîĵķļɱñöƥǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖƤǪŔŠŢÛṼŴẊÝŽ")
        return Dictionary(uniqueKeysWithValues: zip(plain, marked.map { String($0) }))
    }()
}
