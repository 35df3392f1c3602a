/// The generic family names of `font-family` (CSS's `sans-serif`, `serif`,
/// `monospace`, `emoji`) and what each means: Easel's own order of
/// families, tried over the fonts a compile sees, so that a generic name
/// resolves the same on every machine that has the same fonts, whatever
/// its fontconfig rules say (docs/format.md, "Fonts").
///
/// As in a browser, a generic is resolved per script: text in a script
/// with faces of its own (Arabic, Hebrew, Han, …) tries those first, then
/// the Latin faces, then the other scripts' faces. Han characters take the
/// regional forms of the text's `lang` (Japanese, Korean, Traditional or
/// Simplified Chinese; Simplified without a `lang`); kana prefers Japanese
/// faces and Hangul Korean ones.
public enum GenericFontFamily: String, CaseIterable, Sendable {
    case sansSerif = "sans-serif", serif, monospace, emoji

    /// The generic name `name` stands for, if it is one (case-insensitive;
    /// `sans` and `mono` as Pango descriptions write them; a quoted name in
    /// `font-family` is a family, not a generic, as in CSS).
    public init?(keyword name: String) {
        switch name.lowercased() {
        case "sans": self = .sansSerif     // Pango's and fontconfig's names
        case "mono": self = .monospace
        case let other: self.init(rawValue: other)
        }
    }

    /// Families in the order they are tried, for text of `script` in `lang`.
    public func families(lang: String?, script: FontScript = .latin) -> [String] {
        guard self != .emoji else {
            return ["Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji", "Twemoji Mozilla", "Twemoji",
                    "JoyPixels", "Noto Emoji", "Symbola"]
        }
        let own = faces(for: script, lang: lang)
        let others = FontScript.allCases.filter { $0 != script && $0 != .latin }.flatMap { faces(for: $0, lang: lang) }
        var seen = Set<String>()
        return (own + latin + others).filter { seen.insert($0).inserted }
    }

    /// What a text falls back to after its own families: the default
    /// family's generic, then emoji.
    public static func fallback(lang: String?, script: FontScript = .latin) -> [String] {
        GenericFontFamily.sansSerif.families(lang: lang, script: script) + GenericFontFamily.emoji.families(lang: lang)
    }

    private var latin: [String] {
        switch self {
        case .sansSerif: return ["DejaVu Sans", "Noto Sans", "Liberation Sans", "Inter", "Roboto", "Open Sans", "Arimo", "Helvetica", "Arial"]
        case .serif: return ["DejaVu Serif", "Noto Serif", "Liberation Serif", "Tinos", "Times New Roman"]
        case .monospace: return ["DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Cousine", "Courier New"]
        case .emoji: return []
        }
    }

    private func faces(for script: FontScript, lang: String?) -> [String] {
        let cjk: [String]
        switch self {
        case .sansSerif: cjk = ["Noto Sans CJK", "Source Han Sans"]
        case .serif: cjk = ["Noto Serif CJK", "Source Han Serif"]
        case .monospace: cjk = ["Noto Sans Mono CJK", "Noto Sans CJK"]
        case .emoji: return []
        }
        let noto = self == .serif ? "Noto Serif" : "Noto Sans"
        switch script {
        case .latin: return []
        case .han: return HanRegion(lang: lang).families(cjk)
        case .kana: return HanRegion.japanese.families(cjk)
        case .hangul: return HanRegion.korean.families(cjk)
        case .arabic: return self == .serif ? ["Noto Naskh Arabic", "Noto Sans Arabic"] : ["Noto Sans Arabic", "Noto Naskh Arabic"]
        case .hebrew, .devanagari, .bengali, .thai, .armenian, .georgian, .ethiopic, .tamil:
            return ["\(noto) \(script.noto)", "Noto Sans \(script.noto)"]
        }
    }
}

/// The scripts whose characters generic families send to faces of their own.
public enum FontScript: String, CaseIterable, Sendable {
    case latin, arabic, hebrew, han, kana, hangul, devanagari, bengali, thai, armenian, georgian, ethiopic, tamil

    /// The script's name in Noto's family names (`Noto Sans Hebrew`).
    var noto: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// Which regional forms of Han characters a language asks for, as the
/// region suffixes of Noto's CJK families (`JP`, `KR`, `TC`, `HK`, `SC`).
enum HanRegion: String {
    case japanese = "JP", korean = "KR", traditional = "TC", hongKong = "HK", simplified = "SC"

    init(lang: String?) {
        let parts = (lang ?? "").lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        switch parts.first {
        case "ja": self = .japanese
        case "ko": self = .korean
        case "zh", "cmn", "yue":
            if parts.contains("hk") || parts.first == "yue" { self = .hongKong }
            else if parts.contains("hant") || parts.contains("tw") || parts.contains("mo") { self = .traditional }
            else { self = .simplified }
        default: self = .simplified
        }
    }

    /// `base + " " + region` for each base, this region first, then the others.
    func families(_ bases: [String]) -> [String] {
        let order: [HanRegion] = [self] + [.simplified, .japanese, .traditional, .hongKong, .korean].filter { $0 != self }
        return bases.flatMap { base in order.map { "\(base) \($0.rawValue)" } }
    }
}
