import EaselModel
import FoundationEssentials

extension Diagnostic.Message {
    public static func notAFont(_ path: String) -> Self {
        .init(.unusableFont, "'\(path)' is not a font file (TrueType, OpenType, a TrueType or OpenType collection, WOFF or WOFF2)")
    }
    static func fontOutsideScene(_ path: String) -> Self {
        .init(.fileOutsideScene, "'\(path)' is outside the scene's folder (allow its folder with --allow-read DIR; fonts that many scenes share can be declared for all of them with --font-dir DIR)")
    }
    static func badFamilyList(_ text: String) -> Self {
        .init(.invalidValue, "'font-family' must be a comma-separated list of family names, not '\(text)'")
    }
    static func badFontStretch(_ text: String, suggestion: String?) -> Self {
        .init(.invalidValue, "'font-stretch' must be a percentage from 50% to 200% or one of \(FontStretchName.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func badFontVariation(_ text: String) -> Self {
        .init(.invalidValue, "'font-variation' must be a comma-separated list of four-letter axis tags and values ('opsz 32, GRAD 50'), not '\(text)'")
    }
    static func badLanguage(_ text: String) -> Self {
        .init(.invalidValue, "'lang' must be a BCP 47 language tag such as 'en', 'ja' or 'zh-Hans', not '\(text)'")
    }
}

/// Fonts: `<font src>` declarations, the `font-*` attributes of texts and
/// graph labels, and `lang` (docs/format.md, "Text and fonts").
extension SceneBuilder {
    /// `<font src>` in `<defs>`: the file is read (and recorded, with its
    /// hash) as any `src` is, and must look like a font.
    func buildFontDeclaration(_ el: XMLElement) {
        checkAttributes(el)
        checkNoChildren(el)
        checkNoText(el)
        guard let src = required(el, "src") else { return }
        let resolved: URL
        switch resolver.resolve(src.value) {
        case .failure(let m):
            diagnostics.error(m == .fileOutsideScene(src.value) ? .fontOutsideScene(src.value) : m, on: src)
            return
        case .success(let url): resolved = url
        }
        switch resolver.read(src.value) {
        case .failure(let m): diagnostics.error(m, on: src)
        case .success(let bytes):
            guard FontFileKind(bytes) != nil else {
                diagnostics.error(.notAFont(src.value), on: src)
                return
            }
            // A font's hash is its identity (two `<font>`s of one file are
            // one font): taken even when records carry none.
            let recorded = resolver.recorder.record(of: resolved.path)?.sha256 ?? ""
            let sha = recorded.isEmpty ? ContentHash.sha256(bytes) : recorded
            guard !fontDeclarations.contains(where: { $0.sha256 == sha }) else { return }
            fontDeclarations.append(FontDeclaration(path: resolved.path, reference: src.value, sha256: sha, location: src.valueLocation))
            fontData[sha] = bytes
        }
    }

    func fontSpec(_ el: XMLElement) -> FontSpec {
        var font = FontSpec()
        font.description = el.attribute("font")?.value.trimmingSpaces
        if let a = el.attribute("font"), let last = a.value.split(separator: " ").last,
           let size = ValueParser.number(String(last)), size > FontSpec.maxSize {
            diagnostics.error(.outOfRange("font", a.value, "a description whose size is at most \(Int(FontSpec.maxSize))"), on: a)
        }
        font.familyLocation = (el.attribute("font-family") ?? el.attribute("font"))?.valueLocation
        if let a = el.attribute("font-family") {
            if let list = FontFamilyList.parse(a.value) {
                font.families = list
                font.familyOffsets = FontFamilyList.offsets(a.value)
            } else {
                diagnostics.error(.badFamilyList(a.value), on: a)
            }
        }
        if let v = number(el, "font-size") {
            if v > 0, v <= FontSpec.maxSize { font.size = v } else { rangeError(el, "font-size", "greater than 0 and at most \(Int(FontSpec.maxSize))") }
        }
        if let a = el.attribute("font-weight") {
            let v = a.value.trimmingSpaces
            if let n = ValueParser.number(v), FontWeightName.range.contains(n) {
                font.weight = Int(n.rounded())
            } else if let w = FontWeightName(rawValue: v.lowercased()) {
                font.weight = w.value
            } else {
                diagnostics.error(.badFontWeight(v, suggestion: Suggestion.nearest(to: v, in: FontWeightName.allCases.map(\.rawValue))),
                                  on: a)
            }
        }
        if let s = keyword(el, "font-style", FontStyle.self) { font.style = s }
        if let a = el.attribute("font-stretch") {
            let v = a.value.trimmingSpaces
            if v.hasSuffix("%"), let n = ValueParser.number(String(v.dropLast())), FontStretchName.range.contains(n) {
                font.stretch = n
            } else if let k = FontStretchName(rawValue: v.lowercased()) {
                font.stretch = k.percent
            } else {
                diagnostics.error(.badFontStretch(v, suggestion: Suggestion.nearest(to: v, in: FontStretchName.allCases.map(\.rawValue))),
                                  on: a)
            }
        }
        if let a = el.attribute("font-variation") {
            if let list = FontVariationList.parse(a.value) {
                // A font has a handful of axes; each run keeps the list.
                if list.count > FontVariationList.maxAxes { diagnostics.error(.tooManyAxes(FontVariationList.maxAxes), on: a) } else { font.variations = list }
            } else {
                diagnostics.error(.badFontVariation(a.value), on: a)
            }
        }
        return font
    }

    /// `lang` on `el`, checked as a BCP 47 tag; nil when absent or bad.
    func language(_ el: XMLElement) -> String? {
        guard let a = el.attribute("lang") else { return nil }
        let v = a.value.trimmingSpaces
        guard LanguageTag.isWellFormed(v) else {
            diagnostics.error(.badLanguage(a.value), on: a)
            return nil
        }
        return v
    }
}

/// `font-family`'s value: family names separated by commas, as in CSS. A
/// name may be quoted (`"Noto Sans CJK JP"`; needed only for a family named
/// like a generic: quoted, `"emoji"` is a family, unquoted the generic).
public enum FontFamilyList {
    public static func parse(_ text: String) -> [FontFamilyName]? {
        var names: [FontFamilyName] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var name = String(part).trimmingSpaces
            var quoted = false
            if name.count >= 2, let q = name.first, q == "\"" || q == "'", name.last == q {
                name = String(name.dropFirst().dropLast()).trimmingSpaces
                quoted = true
            }
            guard !name.isEmpty, !name.contains(where: { $0 == "\"" || $0 == "'" || $0.isNewline }) else { return nil }
            if !quoted, let generic = GenericFontFamily(rawValue: name.lowercased()) {
                names.append(.generic(generic))
            } else {
                names.append(.named(name))
            }
        }
        return names.isEmpty ? nil : names
    }
}

extension FontFamilyList {
    /// Where each name of a list starts in its text (UTF-8 bytes, past
    /// spaces and an opening quote).
    public static func offsets(_ text: String) -> [Int] {
        var out: [Int] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let lead = part.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            let quote = part.utf8.dropFirst(lead).first.map { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") } ?? false
            out.append(offset + lead + (quote ? 1 : 0))
            offset += part.utf8.count + 1
        }
        return out
    }
}

/// `font-variation`'s value: `TAG VALUE` pairs separated by commas.
public enum FontVariationList {
    /// Most axes one `font-variation` sets (fonts have a handful).
    public static let maxAxes = 64
    public static func parse(_ text: String) -> [FontVariation]? {
        var out: [FontVariation] = []
        for part in text.split(separator: ",") {
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard words.count == 2, words[0].count == 4, words[0].unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 }),
                  let v = ValueParser.number(words[1]), v.isFinite, abs(v) <= 32767 else { return nil }
            out.append(FontVariation(tag: words[0], value: v))
        }
        return out.isEmpty ? nil : out
    }
}

/// BCP 47 language tags, checked for their shape only (letters and digits
/// in subtags of 1–8, the first of 2–8 letters).
public enum LanguageTag {
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count),
              first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return false }
        return parts.dropFirst().allSatisfy { p in
            (1...8).contains(p.count) && p.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains(Character($0))) }
        }
    }
}
