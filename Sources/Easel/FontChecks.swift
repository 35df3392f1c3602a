import EaselParse
import FoundationEssentials

extension Diagnostic.Message {
    static func unknownFontFamily(_ name: String, suggestion: String?) -> Self {
        .init(.unknownFontFamily, "no font of this compile has the family '\(name)': its characters fall back to other fonts\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func noSystemFonts(_ problem: String) -> Self {
        .init(.unusableFont, "\(problem): this compile has no system fonts, only the fonts it declares")
    }
    static func noDefaultFamily(_ used: String?) -> Self {
        .init(.noDefaultFamily, "no font of this compile has Easel's default family '\(FontSpec.defaultFamily)': texts that name no family are set in \(used.map { "'\($0)'" } ?? "no font at all"); name one with font-family")
    }
    static func unknownAxes(_ tags: [String], family: String, axes: [String]) -> Self {
        let list = tags.map { "'\($0)'" }.joined(separator: ", ")
        let has = axes.isEmpty ? "has no axes" : "has \(axes.map { "'\($0)'" }.joined(separator: ", ")) (tags are case-sensitive)"
        return .init(.unknownFontAxis, "'font-variation' names \(list), which the font '\(family)' does not have: ignored; it \(has)")
    }
    static func moreTextsMissGlyphs(_ count: Int) -> Self {
        .init(.missingGlyphs, "\(count) more text\(count == 1 ? " has" : "s have") characters no font of this compile has")
    }
    static func missingGlyphs(_ scalars: [Unicode.Scalar], drawn: Bool) -> Self {
        let shown = scalars.prefix(10).map(MissingGlyphText.describe).joined(separator: ", ")
        let more = scalars.count > 10 ? " and \(scalars.count - 10) more" : ""
        let what = scalars.count == 1 ? "the character" : "the characters"
        return .init(.missingGlyphs, "no font of this compile has \(what) \(shown)\(more)\(drawn ? ", drawn as empty boxes" : ""); declare a font that has them with <font src> or --font-dir")
    }
}

/// `U+4E16 '世'`, as diagnostics and `easel layout` name characters.
public enum MissingGlyphText {
    public static func codePoint(_ s: Unicode.Scalar) -> String {
        let hex = String(s.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    static func describe(_ s: Unicode.Scalar) -> String { "\(codePoint(s)) '\(Character(s))'" }
}

/// What the fonts of a compile say about its scene: families it names that
/// no font has, and characters no font covers — never silently boxes or
/// another font (docs/format.md, "Text and fonts").
enum FontChecks {
    /// A family, font or text reported at a place: each is said once.
    struct NameAt: Hashable {
        var location: SourceLocation
        var name: String
    }

    /// Texts whose missing characters are reported one by one.
    static let maxMissingGlyphReports = 20

    static func diagnose(_ scene: Scene, _ layout: LaidOutScene, fonts: FontSet, missingGlyphs: MissingGlyphs) -> [Diagnostic] {
        var out: [Diagnostic] = []
        if let problem = fonts.systemFontsProblem { out.append(Diagnostic(.warning, .noSystemFonts(problem), at: scene.location)) }
        var reported = Set<NameAt>()
        var defaultUser: SourceLocation?
        func check(_ font: FontSpec, at element: SourceLocation) {
            let named = namedFamilies(font)
            let namesNone = font.families == nil && (font.description.map(PangoDescriptionFamilies.names) ?? []).isEmpty
            if namesNone, defaultUser == nil { defaultUser = element }
            for (name, offset) in named where !fonts.defines(family: name) {
                // At the name itself, where the value's start and the name's offset are known.
                var location = font.familyLocation ?? element
                if let offset { location.column += offset }
                guard reported.insert(NameAt(location: location, name: name)).inserted else { continue }
                // A misspelt generic name is suggested as one (not a quoted generic: it is one already).
                let generics = font.families == nil ? [] : GenericFontFamily.allCases.map(\.rawValue).filter { $0 != name.lowercased() }
                let suggestion = Suggestion.nearest(to: name, in: fonts.families + generics) ?? nearestByDistance(name, fonts.families)
                out.append(Diagnostic(.warning, .unknownFontFamily(name, suggestion: suggestion), at: location))
            }
        }
        for root in scene.paintedRoots {
            root.walk { node in
                switch node.kind {
                case .text(let t): check(t.font, at: node.location)
                case .lineGraph(let g):
                    for entry in g.items {
                        switch entry.item {
                        case .xLabels(let font, _, _, _), .yLabels(let font, _, _, _): check(font, at: entry.location)
                        case .axis(let a): check(a.font, at: entry.location)
                        case .legend(let l): check(l.font, at: entry.location)
                        default: break
                        }
                    }
                default: break
                }
            }
        }
        // Texts that name no family take Easel's default, DejaVu Sans: where
        // the compile has none, once, say which family they get instead.
        if let location = defaultUser, !fonts.defines(family: FontSpec.defaultFamily) {
            let used = fonts.familyList([.named(FontSpec.defaultFamily)], lang: scene.lang).first
            out.append(Diagnostic(.warning, .noDefaultFamily(used), at: location))
        }
        // Axes a text's font-variation names that its fonts lack, once per text and font.
        var axesReported = Set<NameAt>()
        for laid in layout.texts {
            let text = laid.text
            for run in text.shaped.runs where !run.unknownAxes.isEmpty {
                let family = run.font?.family ?? ""
                guard axesReported.insert(NameAt(location: laid.location, name: family)).inserted else { continue }
                let axes = (run.face?.variations ?? "").split(separator: ",").compactMap { $0.split(separator: "=").first.map(String.init) }
                out.append(Diagnostic(.warning, .unknownAxes(run.unknownAxes, family: family, axes: axes), at: laid.location))
            }
        }
        var missingReported = Set<NameAt>()
        var unreported = 0
        let severity: Diagnostic.Severity = missingGlyphs == .error ? .error : .warning
        for laid in layout.texts {
            let text = laid.text
            let missing = text.shaped.missing
            guard !missing.isEmpty, missingReported.insert(NameAt(location: laid.location, name: text.shaped.text)).inserted else { continue }
            // A thousand graph labels with one missing character each: the
            // first texts, then a count, as with errors.
            guard missingReported.count <= maxMissingGlyphReports else {
                unreported += 1
                continue
            }
            out.append(Diagnostic(severity, .missingGlyphs(missing, drawn: missingGlyphs == .warning), at: laid.location))
        }
        if unreported > 0 { out.append(Diagnostic(severity, .moreTextsMissGlyphs(unreported), at: scene.location)) }
        return out.sorted { ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0) }
    }

    /// The families a font names, generics aside, with each name's offset
    /// in the value that names it: `font-family`'s, or else the `font`
    /// description's (the default family is not asked for).
    static func namedFamilies(_ font: FontSpec) -> [(name: String, offset: Int?)] {
        if let families = font.families {
            return families.enumerated().compactMap { i, family in
                guard case .named(let name) = family else { return nil }
                return (name, i < font.familyOffsets.count ? font.familyOffsets[i] : nil)
            }
        }
        guard let description = font.description else { return [] }
        return PangoDescriptionFamilies.names(description).compactMap { family in
            guard case .named(let name) = family else { return nil }
            return (name, description.firstRange(of: name).map { description.utf8.distance(from: description.startIndex, to: $0.lowerBound) })
        }
    }

    /// The closest name by edit distance, however far: a family the
    /// compile does see is the most useful thing to name.
    static func nearestByDistance(_ name: String, _ families: [String]) -> String? {
        families.min { Suggestion.distance(name.lowercased(), $0.lowercased()) < Suggestion.distance(name.lowercased(), $1.lowercased()) }
    }
}
