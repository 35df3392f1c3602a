import FoundationEssentials

extension Diagnostic.Message {
    static func textOverflows(_ overflow: TextOverflow, text: String, fontSize: Double, context: String) -> Self {
        func points(_ v: Double) -> String { CFormat.string("%.1f", v) }
        var parts: [String] = []
        if let word = overflow.brokenWord { parts.append("the word '\(word)' is wider than the text's width and breaks across lines") }
        if let lines = overflow.excessLines, let max = overflow.maxLines {
            parts.append("it has \(lines) line\(lines == 1 ? "" : "s") more than max-lines (\(max)), cut with '…'")
        }
        if let excess = overflow.excessHeight, let height = overflow.frameHeight {
            parts.append("its lines are \(points(excess)) points taller than its frame's height of \(points(height))")
        }
        let at = overflow.minFontSize.map { "it fits at no size down to min-font-size \(points($0)) pt: at \(points(fontSize)) pt " }
            ?? "at \(points(fontSize)) pt "
        let advice = overflow.minFontSize == nil ? "; give it fit=\"shrink\", a larger height or a shorter text" : ""
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        let shown = line.count <= 40 ? line : String(line.prefix(39)) + "…"
        return .init(.textOverflows, "text '\(shown)' overflows its frame\(context): \(at)\(parts.joined(separator: "; "))\(advice)")
    }
}

/// Text that does not fit its frame, said where the text is
/// (docs/format.md, "Text and fonts"): warnings, or
/// errors under `--text-overflow error`.
enum TextChecks {
    static func diagnose(_ scene: Scene, _ layout: LaidOutScene, severity: Diagnostic.Severity, locale: String?) -> [Diagnostic] {
        var context: [String] = []
        if let locale { context.append("locale \(locale)") }
        if let variant = scene.variant { context.append("variant \(variant)") }
        let said = context.isEmpty ? "" : " (" + context.joined(separator: ", ") + ")"
        var out: [Diagnostic] = []
        var reported = Set<SourceLocation>()
        for laid in layout.texts {
            let text = laid.text
            guard let overflow = text.fitting.overflow, reported.insert(laid.location).inserted else { continue }
            out.append(Diagnostic(severity, .textOverflows(overflow, text: text.shaped.text, fontSize: text.fitting.fontSize, context: said), at: laid.location))
        }
        return out
    }
}

/// What text that does not fit its frame is (`--text-overflow`).
public enum TextOverflowPolicy: String, Sendable, CaseIterable {
    /// A located warning; the text is drawn as it overflows.
    case warning
    /// A located error: the scene writes nothing.
    case error
}
