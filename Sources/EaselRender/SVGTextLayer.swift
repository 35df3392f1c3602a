import EaselLayout
import EaselModel

/// Real text for SVG output. Cairo writes glyphs as outlines, which look
/// identical in every viewer and need no fonts; on top of them Easel adds
/// each label as invisible `<text>` (one `<tspan>` per line, at the line's
/// baseline and width), so SVG text can be selected, searched and read by
/// assistive tools, as a PDF's text layer can.
struct SVGTextOverlay {
    /// The label's space → SVG user space (Cairo's CTM when it was drawn).
    var transform: AffineTransform
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

enum SVGTextLayer {
    static func insert(_ overlays: [SVGTextOverlay], into svg: [UInt8]) -> [UInt8] {
        guard !overlays.isEmpty else { return svg }
        var layer = "<g id=\"easel-text\" fill-opacity=\"0\" stroke=\"none\">\n"
        for o in overlays {
            let t = o.transform
            layer += "<text transform=\"matrix(\(n(t.a)),\(n(t.b)),\(n(t.c)),\(n(t.d)),\(n(t.tx)),\(n(t.ty)))\""
            if !o.families.isEmpty {
                // CSS quotes every name (one with digits or punctuation is no identifier).
                let list = o.families.map { "'" + $0.flatMap { $0 == "'" ? ["\\", "'"] : [$0] } + "'" }.joined(separator: ", ")
                layer += " font-family=\"\(XMLText.escape(list))\""
            }
            if let p = o.primary {
                layer += " font-size=\"\(n(p.size))\" font-weight=\"\(p.weight)\""
                if p.italic { layer += " font-style=\"italic\"" }
            }
            layer += " xml:space=\"preserve\">"
            for line in o.lines where !line.text.isEmpty {
                layer += "<tspan x=\"\(n(line.x))\" y=\"\(n(line.baseline))\" textLength=\"\(n(line.width))\""
                layer += " lengthAdjust=\"spacingAndGlyphs\">\(XMLText.escape(line.text))</tspan>"
            }
            layer += "</text>\n"
        }
        layer += "</g>\n"
        let text = String(decoding: svg, as: UTF8.self)
        guard let end = text.lastRange(of: "</svg>") else { return svg }
        return Array((text[..<end.lowerBound] + layer + text[end.lowerBound...]).utf8)
    }

    static func n(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }
}

extension String {
    /// The last occurrence of `needle` (without Foundation).
    func lastRange(of needle: String) -> Range<String.Index>? {
        var i = endIndex
        while i > startIndex {
            i = index(before: i)
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
        }
        return nil
    }
}
