import EaselLayout
import EaselModel

/// Real text for SVG output. Glyphs are written as outlines, which look
/// identical in every viewer and need no fonts; over them Easel writes
/// each label as invisible `<text>` (one `<tspan>` per line, at the line's
/// baseline and width), so SVG text can be selected, searched and read by
/// assistive tools, as a PDF's text layer can.
struct SVGTextOverlay {
    var runs: [GlyphRun]
    var lines: [ShapedLine]

    /// The families the text was actually set in, in order of first use
    /// (not the ones asked for).
    var families: [String] {
        var seen = Set<String>()
        return runs.compactMap(\.font?.family).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The first run's font (an outline font's where there is one): its
    /// size (the font matrix's scale), weight and slant.
    var primary: (size: Double, weight: Int, italic: Bool)? {
        guard let run = runs.first(where: { $0.font != nil && !$0.isColor }) ?? runs.first(where: { $0.font != nil }),
              let font = run.font else { return nil }
        let m = run.fontMatrix
        return ((abs(m.a * m.d - m.b * m.c)).squareRoot(), font.weight, font.style != .normal)
    }
}

extension SVGTextOverlay {
    /// The label as one invisible `<text>` element: a `<tspan>` per line
    /// at the line's baseline and width, in the families it was set in.
    func element() -> String {
        // Written beside its glyphs, in their user space: no transform.
        var out = "<text fill-opacity=\"0\" stroke=\"none\""
        if !families.isEmpty {
            // CSS quotes every name (one with digits or punctuation is no identifier).
            let list = families.map { "'" + $0.flatMap { $0 == "'" ? ["\\", "'"] : [$0] } + "'" }.joined(separator: ", ")
            out += " font-family=\"\(XMLText.escape(list))\""
        }
        if let p = primary {
            out += " font-size=\"\(n(p.size))\" font-weight=\"\(p.weight)\""
            if p.italic { out += " font-style=\"italic\"" }
        }
        out += " xml:space=\"preserve\">"
        for line in lines where !line.text.isEmpty {
            out += "<tspan x=\"\(n(line.x))\" y=\"\(n(line.baseline))\" textLength=\"\(n(line.width))\""
            out += " lengthAdjust=\"spacingAndGlyphs\">\(XMLText.escape(line.text))</tspan>"
        }
        return out + "</text>\n"
    }

    private func n(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}
