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
    var font: ResolvedFont
    var lines: [ShapedLine]
}

enum SVGTextLayer {
    static func insert(_ overlays: [SVGTextOverlay], into svg: [UInt8]) -> [UInt8] {
        guard !overlays.isEmpty else { return svg }
        var layer = "<g id=\"easel-text\" fill-opacity=\"0\" stroke=\"none\">\n"
        for o in overlays {
            let t = o.transform
            layer += "<text transform=\"matrix(\(n(t.a)),\(n(t.b)),\(n(t.c)),\(n(t.d)),\(n(t.tx)),\(n(t.ty)))\""
            layer += " font-family=\"\(escape(o.font.family))\" font-size=\"\(n(o.font.size))\" font-weight=\"\(o.font.weight)\""
            if o.font.italic { layer += " font-style=\"italic\"" }
            layer += " xml:space=\"preserve\">"
            for line in o.lines where !line.text.isEmpty {
                layer += "<tspan x=\"\(n(line.x))\" y=\"\(n(line.baseline))\" textLength=\"\(n(line.width))\""
                layer += " lengthAdjust=\"spacingAndGlyphs\">\(escape(line.text))</tspan>"
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

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
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
