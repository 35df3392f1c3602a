import EaselModel

extension Diagnostic.Message {
    static func marksDropped(_ count: Int, _ limit: Int) -> Self {
        .init(.marksDropped, "\(count) combining mark\(count == 1 ? "" : "s") dropped: Easel draws at most \(limit) on one character (shaping costs the square of a character's marks)")
    }
    static func lineTooLong(_ count: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "a line of this text has \(count) characters; a text without a 'width' (which does not wrap) may have at most \(limit) on a line (Pango lays out a long line's runs in quadratic time)")
    }
    static let shrinkNeedsWidth = Self(.missingPart, "fit=\"shrink\" needs a 'width' to fit the text into")
    static func tooMuchText(_ limit: Int) -> Self {
        .init(.inputTooLarge, "the scene's texts have more than \(limit) characters in all (raise the limit with --max-text)")
    }
}

/// `<text>`: its content and font.
extension SceneBuilder {
    /// The text of a `<text>`: each source line is a line, without the
    /// indentation and the blank lines around it that XML layout adds.
    static func textContent(_ raw: String) -> String { textContent(raw, marks: []).text }

    /// `textContent`, with byte offsets into `raw` (where spans start and
    /// end) moved to the same places in the result: a mark inside removed
    /// indentation moves to where the kept text resumes.
    static func textContent(_ raw: String, marks: [Int]) -> (text: String, marks: [Int]) {
        let bytes = Array(raw.utf8)
        var lines: [Range<Int>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
            lines.append(start..<i)
            start = i + 1
        }
        lines.append(start..<bytes.count)
        // Each line without the whitespace at its ends (as `trimmingSpaces`, by characters).
        let content: [Range<Int>] = lines.map { line in
            let text = String(decoding: bytes[line], as: UTF8.self)
            var lead = 0, trail = 0
            for c in text { if c.isWhitespace { lead += c.utf8.count } else { break } }
            if lead == line.count { return line.lowerBound..<line.lowerBound }
            for c in text.reversed() { if c.isWhitespace { trail += c.utf8.count } else { break } }
            return (line.lowerBound + lead)..<(line.upperBound - trail)
        }
        var kept = [Bool](repeating: false, count: bytes.count)
        if let first = content.firstIndex(where: { !$0.isEmpty }), let last = content.lastIndex(where: { !$0.isEmpty }) {
            for i in first...last {
                for b in content[i] { kept[b] = true }
                if i < last { kept[lines[i].upperBound] = true }   // the line break after it
            }
        }
        var before = [Int](repeating: 0, count: bytes.count + 1)   // kept bytes before each offset
        for i in bytes.indices { before[i + 1] = before[i] + (kept[i] ? 1 : 0) }
        let text = String(decoding: bytes.indices.filter { kept[$0] }.map { bytes[$0] }, as: UTF8.self)
        return (text, marks.map { before[min(max(0, $0), bytes.count)] })
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
        // Mixed content: the characters, and where each span starts and ends
        // (indices into `marks`), spans listed as they open.
        var raw = "", marks: [Int] = []
        var found: [(element: XMLElement, parent: Int?, start: Int, end: Int)] = []
        func collect(_ el: XMLElement, parent: Int?) {
            for (i, piece) in el.texts.enumerated() {
                raw += piece
                guard i < el.children.count else { continue }
                let child = el.children[i]
                guard child.name == "span" else {
                    reportMisplaced(child, parent: el.name, expected: ["span"])
                    continue
                }
                let index = found.count
                found.append((child, parent, marks.count, 0))
                marks.append(raw.utf8.count)
                collect(child, parent: index)
                found[index].end = marks.count
                marks.append(raw.utf8.count)
            }
        }
        collect(el, parent: nil)
        let (content, moved) = SceneBuilder.textContent(raw, marks: marks)
        var t = TextStyle(text: content)
        t.spans = found.map { f in
            var span = TextSpan(start: moved[f.start], end: moved[f.end], parent: f.parent, location: f.element.location)
            spanStyle(f.element, into: &span)
            return span
        }
        // Shaping-safe text, stretch by stretch so the spans' edges stay put.
        var stretches: [String] = []
        t.rewriteSegments { stretches.append($0); return $0 }
        var safe = shapedText(stretches, at: el.location).makeIterator()
        t.rewriteSegments { _ in safe.next() ?? "" }
        if let pseudo = options.pseudoLocale { pseudoTranslate(&t, pseudo) }
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
        t.letterSpacing = letterSpacing(el) ?? 0
        if let a = el.attribute("fit") {
            switch a.value.trimmingSpaces {
            case "shrink": t.shrinks = true
            case "none": t.shrinks = false
            default:
                diagnostics.error(.badKeyword("fit", a.value, choices: ["none", "shrink"],
                                              suggestion: Suggestion.nearest(to: a.value, in: ["none", "shrink"])), on: a)
            }
            if t.shrinks, el.attribute("width") == nil { diagnostics.error(.shrinkNeedsWidth, on: a) }
        }
        if let v = number(el, "min-font-size") {
            if v > 0, v <= FontSpec.maxSize { t.minFontSize = v } else { rangeError(el, "min-font-size", "greater than 0 and at most \(Int(FontSpec.maxSize))") }
        }
        t.direction = keyword(el, "dir", TextDirection.self) ?? direction
        return t
    }

    /// `--locale pseudo`: the text as drawn (parameters in it included)
    /// accented and 40% longer in brackets, spans keeping their words;
    /// `pseudo-rtl`: each stretch forced right to left.
    private func pseudoTranslate(_ t: inout TextStyle, _ pseudo: PseudoLocale) {
        guard !t.text.isEmpty else { return }
        switch pseudo {
        case .pseudoRTL:
            t.rewriteSegments(PseudoLocale.reverse)
        case .pseudo:
            let count = t.text.count
            t.rewriteSegments(PseudoLocale.accent)
            // The brackets and padding stand outside every span.
            t.text = "[" + t.text + PseudoLocale.padding(for: count) + "]"
            for i in t.spans.indices { t.spans[i].start += 1; t.spans[i].end += 1 }
        }
    }

    /// `letter-spacing` in points, any sign, less than a font's largest size.
    private func letterSpacing(_ el: XMLElement) -> Double? {
        guard let v = number(el, "letter-spacing") else { return nil }
        guard abs(v) <= FontSpec.maxSize else {
            rangeError(el, "letter-spacing", "from -\(Int(FontSpec.maxSize)) to \(Int(FontSpec.maxSize))")
            return nil
        }
        return v
    }

    /// What a `<span>` sets; it has no other attributes and no box.
    private func spanStyle(_ el: XMLElement, into span: inout TextSpan) {
        checkAttributes(el)
        span.font = fontSpec(el)
        span.fill = paint(el, "fill")
        if let o = number(el, "fill-opacity") { if o >= 0, o <= 1 { span.fillOpacity = o } else { rangeError(el, "fill-opacity", "from 0 to 1") } }
        span.lang = language(el)
        span.letterSpacing = letterSpacing(el)
        span.underline = bool(el, "underline")
        span.strikethrough = bool(el, "strikethrough")
        if let v = number(el, "baseline-shift") {
            if abs(v) <= FontSpec.maxSize { span.baselineShift = v } else { rangeError(el, "baseline-shift", "from -\(Int(FontSpec.maxSize)) to \(Int(FontSpec.maxSize))") }
        }
    }
}
