import EaselModel

extension Diagnostic.Message {
    static func marksDropped(_ count: Int, _ limit: Int) -> Self {
        .init("\(count) combining mark\(count == 1 ? "" : "s") dropped: Easel draws at most \(limit) on one character (shaping costs the square of a character's marks)")
    }
    static func lineTooLong(_ count: Int, _ limit: Int) -> Self {
        .init("a line of this text has \(count) characters; a text without a 'width' (which does not wrap) may have at most \(limit) on a line (Pango lays out a long line's runs in quadratic time)")
    }
    static func tooMuchText(_ limit: Int) -> Self {
        .init("the scene's texts have more than \(limit) characters in all (raise the limit with --max-text)")
    }
}

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

    /// Characters on one line of a text that does not wrap. Pango 1.50
    /// walks a line's list of runs once per run, so a line whose script or
    /// font changes at every character costs the square of its length (a
    /// 200,000-character line of mixed scripts took 28 s; 10,000 take 0.1 s).
    static let maxUnwrappedLine = 10_000

    /// Texts as they will be shaped (stream-safe, marks per character
    /// bounded), counted against the scene's text limit.
    func shapedText(_ texts: [String], at location: SourceLocation) -> [String] {
        var dropped = 0
        let out = texts.map { text -> String in
            let (safe, n) = StreamSafeText.apply(text)
            dropped += n
            textCharacters += safe.unicodeScalars.count
            return safe
        }
        if dropped > 0 { diagnostics.warning(.marksDropped(dropped, StreamSafeText.maxMarksPerCharacter), at: location) }
        if textCharacters > limits.maxTextCharacters, !reportedTextLimit {
            reportedTextLimit = true
            diagnostics.error(.tooMuchText(limits.maxTextCharacters), at: location)
        }
        return out
    }

    func textStyle(_ el: XMLElement) -> TextStyle {
        var t = TextStyle(text: shapedText([SceneBuilder.textContent(el.text)], at: el.location)[0])
        if el.attribute("width") == nil,
           let longest = t.text.split(separator: "\n").map({ $0.unicodeScalars.count }).max(), longest > Self.maxUnwrappedLine {
            diagnostics.error(.lineTooLong(longest, Self.maxUnwrappedLine), at: el.location)
        }
        if t.text.isEmpty { diagnostics.error(.textNeedsContent, at: el.location) }
        t.font = fontSpec(el)
        t.lang = language(el) ?? sceneLang
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
}
