import EaselParse

extension Diagnostic.Message {
    static func unknownFontFamily(_ name: String, suggestion: String?) -> Self {
        .init("no font of this compile has the family '\(name)': its characters fall back to other fonts\(didYouMean(suggestion))")
    }
    static func moreTextsMissGlyphs(_ count: Int) -> Self {
        .init("\(count) more text\(count == 1 ? " has" : "s have") characters no font of this compile has")
    }
    static func missingGlyphs(_ scalars: [Unicode.Scalar], drawn: Bool) -> Self {
        let shown = scalars.prefix(10).map(MissingGlyphText.describe).joined(separator: ", ")
        let more = scalars.count > 10 ? " and \(scalars.count - 10) more" : ""
        let what = scalars.count == 1 ? "the character" : "the characters"
        return .init("no font of this compile has \(what) \(shown)\(more)\(drawn ? ", drawn as empty boxes" : ""); declare a font that has them with <font src> or --font-dir")
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
/// another font (SCENE-FORMAT.md, "Fonts").
enum FontChecks {
    /// Texts whose missing characters are reported one by one.
    static let maxMissingGlyphReports = 20

    static func diagnose(_ scene: Scene, _ layout: LaidOutScene, fonts: FontSet, missingGlyphs: MissingGlyphs) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var reported = Set<String>()
        func check(_ font: FontSpec, at element: SourceLocation) {
            let location = font.familyLocation ?? element
            for name in namedFamilies(font) where !fonts.defines(family: name) {
                guard reported.insert("\(location)|\(name)").inserted else { continue }
                let suggestion = Suggestion.nearest(to: name, in: fonts.families) ?? nearestByDistance(name, fonts.families)
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
                        default: break
                        }
                    }
                default: break
                }
            }
        }
        var missingReported = Set<String>()
        var unreported = 0
        let severity: Diagnostic.Severity = missingGlyphs == .error ? .error : .warning
        for (node, text) in layout.texts {
            let missing = text.shaped.missing
            guard !missing.isEmpty, missingReported.insert("\(node.location)|\(text.shaped.text)").inserted else { continue }
            // A thousand graph labels with one missing character each: the
            // first texts, then a count, as with errors.
            guard missingReported.count <= maxMissingGlyphReports else {
                unreported += 1
                continue
            }
            out.append(Diagnostic(severity, .missingGlyphs(missing, drawn: missingGlyphs == .warning), at: node.location))
        }
        if unreported > 0 { out.append(Diagnostic(severity, .moreTextsMissGlyphs(unreported), at: scene.location)) }
        return out.sorted { ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0) }
    }

    /// The families a font names, generics aside: `font-family`'s, or else
    /// the `font` description's (the default family is not asked for).
    static func namedFamilies(_ font: FontSpec) -> [String] {
        let names = font.families ?? font.description.map(PangoDescriptionFamilies.names) ?? []
        return names.compactMap { if case .named(let family) = $0 { return family } else { return nil } }
    }

    /// The closest name by edit distance, however far: a family the
    /// compile does see is the most useful thing to name.
    static func nearestByDistance(_ name: String, _ families: [String]) -> String? {
        families.min { Suggestion.distance(name.lowercased(), $0.lowercased()) < Suggestion.distance(name.lowercased(), $1.lowercased()) }
    }
}
