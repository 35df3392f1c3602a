/// A d3-format locale definition: how numbers are written
/// (data/d3-locales/format, generated into `D3LocaleTables.swift`).
public struct NumberLocale: Hashable, Sendable {
    public var decimal: String
    public var thousands: String
    /// Digits per group from the right, the last repeating (d3's `grouping`).
    public var grouping: [Int]
    public var currency: [String]
    /// Ten digits replacing 0–9 (`ar-EG`'s ٠…٩), or nil.
    public var numerals: [String]?
    public var percent: String
    public var minus: String
    public var nan: String

    public init(decimal: String, thousands: String, grouping: [Int], currency: [String], numerals: [String]?,
                percent: String?, minus: String?, nan: String?) {
        self.decimal = decimal
        self.thousands = thousands
        self.grouping = grouping
        self.currency = currency
        self.numerals = numerals
        // d3-format's defaults for what a definition leaves out.
        self.percent = percent ?? "%"
        self.minus = minus ?? "\u{2212}"
        self.nan = nan ?? "NaN"
    }

    public static let enUS = d3Definitions["en-US"]!

    /// Digits grouped from the right as d3-format's `formatGroup` groups
    /// them (`grouping` cycles; en-IN's `[3, 2]` gives 12,34,567).
    public func group(_ digits: Substring) -> String {
        var parts: [Substring] = []
        var end = digits.endIndex, j = 0
        var size = grouping.first ?? 0
        while end > digits.startIndex, size > 0 {
            let start = digits.index(end, offsetBy: -size, limitedBy: digits.startIndex) ?? digits.startIndex
            parts.append(digits[start..<end])
            end = start
            j = (j + 1) % grouping.count
            size = grouping[j]
        }
        if end > digits.startIndex { parts.append(digits[digits.startIndex..<end]) }
        return parts.reversed().joined(separator: thousands)
    }

    /// The locale's digits for ASCII ones.
    public func numeralsApplied(_ text: String) -> String {
        guard let numerals, numerals.count == 10 else { return text }
        var out = ""
        for c in text {
            if let d = c.asciiValue, d >= 48, d <= 57 { out += numerals[Int(d - 48)] } else { out.append(c) }
        }
        return out
    }

    /// Text from C's printf (a point, ASCII digits) in this locale's
    /// decimal mark and digits; the sign is kept as printf wrote it.
    public func localized(printf text: String) -> String {
        numeralsApplied(decimal == "." ? text : text.replacing(".", with: decimal))
    }
}

/// A d3-time-format locale definition: the names dates are written with.
public struct TimeLocale: Hashable, Sendable {
    public var dateTime: String
    public var date: String
    public var time: String
    public var periods: [String]
    public var days: [String]
    public var shortDays: [String]
    public var months: [String]
    public var shortMonths: [String]

    public init(dateTime: String, date: String, time: String, periods: [String], days: [String], shortDays: [String],
                months: [String], shortMonths: [String]) {
        self.dateTime = dateTime
        self.date = date
        self.time = time
        self.periods = periods
        self.days = days
        self.shortDays = shortDays
        self.months = months
        self.shortMonths = shortMonths
    }

    public static let enUS = d3Definitions["en-US"]!
}

/// The number and date conventions a graph's labels use: the scene's
/// locale (`--locale`, else `<scene lang>`, else `en-US`) matched to d3's
/// definitions (docs/format.md, "Labels in the scene's locale").
public struct GraphLocale: Hashable, Sendable {
    public var number: NumberLocale
    public var time: TimeLocale
    /// The definitions' names, `en-US` where a table has none for the locale.
    public var numberName: String
    public var timeName: String

    public static let enUS = GraphLocale(number: .enUS, time: .enUS, numberName: "en-US", timeName: "en-US")

    /// A bare language's definition where it is not `xx-XX` (the region
    /// CLDR's likely subtags give it).
    static let likelyRegion: [String: String] = [
        "ar": "ar-EG", "en": "en-US", "ja": "ja-JP", "zh": "zh-CN", "ko": "ko-KR", "he": "he-IL", "sv": "sv-SE",
        "da": "da-DK", "cs": "cs-CZ", "uk": "uk-UA", "nb": "nb-NO", "no": "nb-NO", "fa": "fa-IR", "ca": "ca-ES",
        "pt": "pt-BR", "sl": "sl-SI", "el": "el-GR",
    ]

    /// Subtags whose conventions a definition of another name holds:
    /// Traditional Chinese (Taiwan's), Simplified (the mainland's), Latin
    /// American Spanish (Mexico's).
    static let stands: [String: String] = [
        "zh-hant": "zh-TW", "zh-hk": "zh-TW", "zh-mo": "zh-TW", "zh-hans": "zh-CN", "zh-sg": "zh-CN", "es-419": "es-MX",
    ]

    /// The definition for `tag` in `table`: the tag itself, a parent of it
    /// (`de-DE-1996` → `de-DE`), a subtag's stand-in (`zh-Hant` → `zh-TW`),
    /// the language's likely region (`de` → `de-DE`), or another region of
    /// the language, first by name.
    static func match<T>(_ tag: String, in table: [String: T]) -> String? {
        let names = Dictionary(table.keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        let parts = tag.replacing("_", with: "-").split(separator: "-").map { $0.lowercased() }
        guard let language = parts.first else { return nil }
        var candidates: [String] = []
        for n in stride(from: parts.count, to: 1, by: -1) { candidates.append(parts[..<n].joined(separator: "-")) }
        // A script subtag (zh-Hant-TW): without it.
        if parts.count >= 3, parts[1].count == 4 { candidates.append(([language] + parts[2...]).joined(separator: "-")) }
        for subtag in parts.dropFirst() { if let stand = stands["\(language)-\(subtag)"] { candidates.append(stand.lowercased()) } }
        if let likely = likelyRegion[language] { candidates.append(likely.lowercased()) }
        candidates.append("\(language)-\(language)")
        for c in candidates { if let hit = names[c] { return hit } }
        return table.keys.filter { $0.lowercased().hasPrefix(language + "-") }.min()
    }

    /// `nil` when neither table has a definition for the tag's language
    /// (the caller warns and uses `enUS`); else the best of each, `en-US`
    /// for a table without one.
    public static func resolve(_ tag: String) -> GraphLocale? {
        let n = match(tag, in: NumberLocale.d3Definitions), t = match(tag, in: TimeLocale.d3Definitions)
        guard n != nil || t != nil else { return nil }
        return GraphLocale(number: n.flatMap { NumberLocale.d3Definitions[$0] } ?? .enUS,
                           time: t.flatMap { TimeLocale.d3Definitions[$0] } ?? .enUS,
                           numberName: n ?? "en-US", timeName: t ?? "en-US")
    }
}
