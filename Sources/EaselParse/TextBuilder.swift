import EaselModel

/// `<text>`: its content and font.
extension SceneBuilder {
    /// The text of a `<text>`: each source line is a line, without the
    /// indentation and the blank lines around it that XML layout adds.
    static func textContent(_ raw: String) -> String {
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    func textStyle(_ el: XMLElement) -> TextStyle {
        var t = TextStyle(text: SceneBuilder.textContent(el.text))
        if t.text.isEmpty { diagnostics.error(.textNeedsContent, at: el.location) }
        t.font = fontSpec(el)
        if let p = paint(el, "fill") { t.fill = p }
        if let o = number(el, "fill-opacity") { if o >= 0, o <= 1 { t.fillOpacity = o } else { rangeError(el, "fill-opacity", "from 0 to 1") } }
        if let a = keyword(el, "align", TextAlignment.self) { t.align = a }
        if let v = number(el, "line-spacing") { if v > 0 { t.lineSpacing = v } else { rangeError(el, "line-spacing", "greater than 0") } }
        if let a = el.attribute("max-lines") {
            if let v = ValueParser.number(a.value), v >= 1, v == v.rounded(), v < 1e6 { t.maxLines = Int(v) }
            else { diagnostics.error(.outOfRange("max-lines", a.value, "a whole number, 1 or more"), on: a) }
        }
        if let a = el.attribute("paint-bounds") {
            switch a.value.trimmingSpaces {
            case "frame": t.paintsFrame = true
            case "text": t.paintsFrame = false
            default:
                diagnostics.error(.badKeyword("paint-bounds", a.value, choices: ["text", "frame"],
                                              suggestion: Suggestion.nearest(to: a.value, in: ["text", "frame"])), on: a)
            }
        }
        return t
    }

    func fontSpec(_ el: XMLElement) -> FontSpec {
        var font = FontSpec()
        font.description = el.attribute("font")?.value.trimmingSpaces
        if let a = el.attribute("font"), let last = a.value.split(separator: " ").last,
           let size = ValueParser.number(String(last)), size > FontSpec.maxSize {
            diagnostics.error(.outOfRange("font", a.value, "a description whose size is at most \(Int(FontSpec.maxSize))"), on: a)
        }
        font.family = el.attribute("font-family")?.value.trimmingSpaces
        if let v = number(el, "font-size") {
            if v > 0, v <= FontSpec.maxSize { font.size = v } else { rangeError(el, "font-size", "greater than 0 and at most \(Int(FontSpec.maxSize))") }
        }
        if let a = el.attribute("font-weight") {
            let v = a.value.trimmingSpaces
            if let n = ValueParser.number(v), n >= 100, n <= 900 {
                font.weight = Int(n)
            } else if let w = FontWeightName(rawValue: v.lowercased()) {
                font.weight = w.value
            } else {
                diagnostics.error(.badFontWeight(v, suggestion: Suggestion.nearest(to: v, in: FontWeightName.allCases.map(\.rawValue))),
                                  on: a)
            }
        }
        if let s = keyword(el, "font-style", FontStyle.self) { font.style = s }
        return font
    }
}
