import CPangoCairo
import EaselLayout
import EaselModel

/// Shapes and measures text with Pango over a compile's font set, for the
/// layout pass: glyph runs out, no Pango object kept.
public struct TextShaper: TextMeasuring {
    public let fonts: FontSet
    /// Off: every text shapes over the whole set (the tests' reference).
    var narrowsFontSet = true
    /// Set: a whole set shapes with this engine whatever the program's
    /// fontconfig default (true: PangoFT2 first; false: PangoCairo), in a
    /// shaping context of its own (the tests' comparison of the two).
    var wholeSetFreeType: Bool?
    public init(fonts: FontSet) { self.fonts = fonts }

    static let scale = 1024.0   // PANGO_SCALE

    public func measure(_ request: TextRequest) -> Size {
        measureCountingLayouts(request).size
    }

    public func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int) {
        fonts.withShapingContext(for: drawnCharacters(request), families: narrowedFamilies(request), wholeSetFreeType: wholeSetFreeType) { context in context.shaping {
            let (display, spans, layouts) = displayText(request, context)
            let layout = self.layout(display, spans: spans, request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            return (size(of: layout, request), layouts + 1)
        } }
    }

    public func shape(_ request: TextRequest) -> ShapedText {
        fonts.withShapingContext(for: drawnCharacters(request), families: narrowedFamilies(request), wholeSetFreeType: wholeSetFreeType) { context in context.shaping {
            let (display, spans, layouts) = displayText(request, context)
            let layout = self.layout(display, spans: spans, request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            var shaped = ShapedText(text: display, size: size(of: layout, request), lineBounds: logicalExtents(layout),
                                    lines: lines(of: layout, text: display),
                                    runs: GlyphRunReader.runs(of: layout, fonts: fonts, requestedAxes: request.font.variations.map(\.tag)))
            shaped.fontSize = baseSize(request.font) * request.fontScale
            shaped.rightToLeft = TextShaper.isRightToLeft(display, request.direction)
            shaped.layouts = layouts + 1
            return shaped
        } }
    }

    public func fitMeasure(_ request: TextRequest) -> TextFitMeasure {
        fonts.withShapingContext(for: request.text, families: narrowedFamilies(request), wholeSetFreeType: wholeSetFreeType) { context in context.shaping {
            let layout = self.layout(request.text, spans: request.spans, request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            return TextFitMeasure(size: size(of: layout, request), lineCount: Int(pango_layout_get_line_count(layout)),
                                  brokenWord: brokenWord(layout, request.text), fontSize: baseSize(request.font))
        } }
    }

    /// Every character a layout of `request` may set: its text, and the
    /// ellipsis `maxLines` may end it with (`displayText`).
    private func drawnCharacters(_ request: TextRequest) -> String {
        request.maxLines == nil ? request.text : request.text + "…"
    }

    /// The family list of each description of `request`'s text and spans,
    /// from which `FontSet.narrowing` takes the few families the text can
    /// use — or nil when the text needs more: a script with faces of its own (whose
    /// stretches list other families), or emoji (set in the family
    /// "emoji"). Pango's font map sorts every font it has for each new
    /// description (Pango 1.50), so shaping over these few instead of the
    /// machine's hundreds is most of a text scene's font cost.
    func narrowedFamilies(_ request: TextRequest) -> [[String]]? {
        guard narrowsFontSet else { return nil }
        for s in request.text.unicodeScalars {
            if s.properties.isEmojiPresentation || s.value == 0xFE0F || s.value == 0x20E3 || (0xE0020...0xE007F).contains(s.value) {
                return nil
            }
            if TextShaper.fontScript(PangoScript(rawValue: g_unichar_get_script(s.value).rawValue)) != nil {
                return nil
            }
        }
        var styles = [(font: request.font, lang: request.lang)]
        for span in request.spans {
            var e = span.parent.map { styles[$0 + 1] } ?? styles[0]
            e.font = e.font.overridden(by: span.font)
            if let v = span.lang { e.lang = v }
            styles.append(e)
        }
        return styles.map { fonts.familyList(requestedFamilies($0.font), lang: $0.lang) }
    }

    /// A word the layout's lines break inside: a line that starts where no
    /// line break is allowed (Pango broke the word because it is wider
    /// than the text).
    private func brokenWord(_ layout: OpaquePointer, _ text: String) -> String? {
        var count: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &count), count > 0 else { return nil }
        let scalars = Array(text.unicodeScalars)
        // Character index of each UTF-8 byte offset that starts a character.
        var charAt: [Int: Int] = [:]
        var offset = 0
        for (i, c) in scalars.enumerated() { charAt[offset] = i; offset += String(c).utf8.count }
        charAt[offset] = scalars.count
        // Walked as a list: pango_layout_get_line_readonly(n) walks it from
        // the start each time (quadratic in the lines).
        var node = pango_layout_get_lines_readonly(layout)?.pointee.next
        while let current = node {
            node = current.pointee.next
            guard let raw = current.pointee.data else { continue }
            let line = raw.assumingMemoryBound(to: PangoLayoutLine.self)
            guard let c = charAt[Int(line.pointee.start_index)], c < Int(count), attrs[c].is_line_break == 0 else { continue }
            var from = c, to = c
            while from > 0, attrs[from].is_line_break == 0 { from -= 1 }
            while to < scalars.count, to + 1 < Int(count), attrs[to].is_line_break == 0 || to == c { to += 1 }
            var word = String(String.UnicodeScalarView(scalars[from..<min(to, scalars.count)]))
            while let last = word.last, last.isWhitespace { word.removeLast() }
            return word
        }
        return nil
    }

    /// The text's own size in points: `font-size`, the `font`
    /// description's, or the default.
    func baseSize(_ spec: FontSpec) -> Double {
        if let size = spec.size { return size }
        guard let description = spec.description, let d = pango_font_description_from_string(description) else { return FontSpec.defaultSize }
        defer { pango_font_description_free(d) }
        let size = Double(pango_font_description_get_size(d)) / TextShaper.scale
        return size > 0 ? size : FontSpec.defaultSize
    }

    /// A Pango layout of `text` laid out as `request` asks, `spans` styling it.
    func layout(_ text: String, spans: [TextSpan], _ request: TextRequest, _ context: ShapingContext) -> OpaquePointer {
        let rightToLeft = TextShaper.isRightToLeft(text, request.direction)
        // The paragraph direction is set, never guessed per paragraph:
        // under `ltr`, Arabic text is still right to left inside a
        // left-to-right paragraph, and `leading` is the left.
        pango_context_set_base_dir(context.context, rightToLeft ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
        let layout = pango_layout_new(context.context)!
        pango_layout_set_auto_dir(layout, 0)
        let font = fontDescription(request.font, lang: request.lang, scale: request.fontScale)
        context.noteDescription(font)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let w = request.wrapWidth {
            // Pango widths are Int32 in 1/1024 points: at most about 2 million points.
            let units = (w * TextShaper.scale).rounded(.up)
            pango_layout_set_width(layout, units.isFinite && units < Double(Int32.max) ? Int32(max(0, units)) : Int32.max)
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        let fraction = request.align.offsetFraction(rightToLeft: rightToLeft)
        pango_layout_set_alignment(layout, fraction == 0 ? PANGO_ALIGN_LEFT : fraction == 1 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_CENTER)
        if request.lineSpacing != 1 { pango_layout_set_line_spacing(layout, Float(request.lineSpacing)) }
        pango_layout_set_text(layout, text, -1)
        if let attributes = textAttributes(text, spans: spans, request, context) {
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        context.noteLayout(layout)
        PaintingProbe.layoutMade()
        return layout
    }

    /// `rtl`, or `auto` with a right-to-left first strong character.
    static func isRightToLeft(_ text: String, _ direction: TextDirection) -> Bool {
        switch direction {
        case .ltr: return false
        case .rtl: return true
        case .auto:
            // The first strong character (UAX #9, P2–P3): the first letter,
            // right to left where its script is (HarfBuzz's Unicode data).
            let unicode = hb_unicode_funcs_get_default()
            for s in text.unicodeScalars {
                switch hb_unicode_general_category(unicode, s.value) {
                case HB_UNICODE_GENERAL_CATEGORY_LOWERCASE_LETTER, HB_UNICODE_GENERAL_CATEGORY_UPPERCASE_LETTER,
                     HB_UNICODE_GENERAL_CATEGORY_TITLECASE_LETTER, HB_UNICODE_GENERAL_CATEGORY_MODIFIER_LETTER,
                     HB_UNICODE_GENERAL_CATEGORY_OTHER_LETTER:
                    return hb_script_get_horizontal_direction(hb_unicode_script(unicode, s.value)) == HB_DIRECTION_RTL
                default: continue
                }
            }
            return false
        }
    }

    /// What a stretch of the text is set in: the text's own style, or the
    /// innermost span's over the spans around it and the text.
    private struct Effective {
        var font: FontSpec
        var lang: String?
        var letterSpacing: Double
        var underline = false
        var strikethrough = false
        var baselineShift = 0.0
    }

    /// Attributes over stretches that share a script and a span: the
    /// stretch's family list, where its script has faces of its own (Arabic
    /// text in a `sans-serif` label tries Noto Sans Arabic before DejaVu
    /// Sans); its `lang` where it writes that script, "und" where not (Latin
    /// words in Japanese text), so that Pango never takes a language from
    /// the environment (`pango_script_get_sample_language` reads
    /// PANGO_LANGUAGE and LANGUAGE); and inside a span the span's whole
    /// font, spacing, decorations and shift. The stretches do not overlap,
    /// so no attribute has to win over another.
    private func textAttributes(_ text: String, spans: [TextSpan], _ request: TextRequest, _ context: ShapingContext) -> OpaquePointer? {
        let textStyle = Effective(font: request.font, lang: request.lang, letterSpacing: request.letterSpacing)
        var effective: [Effective] = []
        for span in spans {
            var e = span.parent.map { effective[$0] } ?? textStyle
            e.font = e.font.overridden(by: span.font)
            if let v = span.lang { e.lang = v }
            if let v = span.letterSpacing { e.letterSpacing = v }
            if let v = span.underline { e.underline = v }
            if let v = span.strikethrough { e.strikethrough = v }
            if let v = span.baselineShift { e.baselineShift += v }
            effective.append(e)
        }
        let length = text.utf8.count
        let edges = Array(Set(spans.flatMap { [$0.start, $0.end] }.filter { $0 > 0 && $0 < length })).sorted()
        let index = SpanIndex(spans)
        let requested = requestedFamilies(request.font)
        let base = fonts.familyList(requested, lang: request.lang)
        let neutral = pango_language_from_string("und")
        let scale = request.fontScale
        var list: OpaquePointer?
        func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
            guard let attribute else { return }
            if list == nil { list = pango_attr_list_new() }
            attribute.pointee.start_index = guint(range.lowerBound)
            attribute.pointee.end_index = guint(range.upperBound)
            pango_attr_list_insert(list, attribute)
        }
        func stretch(_ range: Range<Int>, script: PangoScript) {
            let inner = index.innermost(at: range.lowerBound)
            let e = inner.map { effective[$0] } ?? textStyle
            if let lang = e.lang, let language = pango_language_from_string(lang) {
                insert(pango_attr_language_new(pango_language_includes_script(language, script) != 0 ? language : neutral), range)
            }
            let own = TextShaper.fontScript(script)
            if let inner {
                let d = fontDescription(e.font, lang: e.lang, scale: scale, script: own)
                context.noteDescription(d)
                insert(pango_attr_font_desc_new(d), range)
                pango_font_description_free(d)
                // Marks the span's edges, which runs then never cross (not drawn: the painter fills runs itself).
                insert(pango_attr_foreground_new(guint16(inner & 0xFFFF), guint16(inner >> 16 & 0xFFFF), 0), range)
            } else if let own {
                let families = fonts.familyList(requested, lang: request.lang, script: own)
                if families != base { insert(pango_attr_family_new(families.joined(separator: ",")), range) }
            }
            if e.letterSpacing != 0 { insert(pango_attr_letter_spacing_new(TextShaper.units(e.letterSpacing * scale)), range) }
            if e.underline { insert(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), range) }
            if e.strikethrough { insert(pango_attr_strikethrough_new(1), range) }
            if e.baselineShift != 0 { insert(pango_attr_baseline_shift_new(TextShaper.units(e.baselineShift * scale)), range) }
        }
        text.withCString { start in
            guard let iter = pango_script_iter_new(start, -1) else { return }
            defer { pango_script_iter_free(iter) }
            repeat {
                var from: UnsafePointer<CChar>?, to: UnsafePointer<CChar>?
                var script = PANGO_SCRIPT_COMMON
                pango_script_iter_get_range(iter, &from, &to, &script)
                guard let from, let to else { continue }
                let lo = from - start, hi = to - start
                // The span edges inside this script run (edges are sorted).
                var first = edges.partitionIndex { $0 > lo }
                var cuts = [lo]
                while first < edges.count, edges[first] < hi { cuts.append(edges[first]); first += 1 }
                cuts.append(hi)
                for (a, b) in zip(cuts, cuts.dropFirst()) where a < b { stretch(a..<b, script: script) }
            } while pango_script_iter_next(iter) != 0
        }
        return list
    }

    /// Points in Pango units, within Int32.
    static func units(_ points: Double) -> Int32 {
        let v = (points * scale).rounded()
        return v.isFinite ? Int32(max(Double(Int32.min), min(Double(Int32.max), v))) : 0
    }

    /// The scripts with faces of their own in `GenericFontFamily`.
    static func fontScript(_ script: PangoScript) -> FontScript? {
        switch script {
        case PANGO_SCRIPT_ARABIC: return .arabic
        case PANGO_SCRIPT_HEBREW: return .hebrew
        case PANGO_SCRIPT_HAN, PANGO_SCRIPT_BOPOMOFO: return .han
        case PANGO_SCRIPT_HIRAGANA, PANGO_SCRIPT_KATAKANA: return .kana
        case PANGO_SCRIPT_HANGUL: return .hangul
        case PANGO_SCRIPT_DEVANAGARI: return .devanagari
        case PANGO_SCRIPT_BENGALI: return .bengali
        case PANGO_SCRIPT_THAI: return .thai
        case PANGO_SCRIPT_ARMENIAN: return .armenian
        case PANGO_SCRIPT_GEORGIAN: return .georgian
        case PANGO_SCRIPT_ETHIOPIC: return .ethiopic
        case PANGO_SCRIPT_TAMIL: return .tamil
        default: return nil
        }
    }

    /// The families a font asks for: `font-family`'s, the description's
    /// (Pango's generic names `sans`, `serif`, `monospace` among them), or
    /// the default family.
    private func requestedFamilies(_ spec: FontSpec) -> [FontFamilyName] {
        if let families = spec.families { return families }
        let described = spec.description.map(PangoDescriptionFamilies.names) ?? []
        return described.isEmpty ? [.named(FontSpec.defaultFamily)] : described
    }

    /// `font` first, then each separate attribute over it; DejaVu Sans 12
    /// where neither says. The family becomes the list the set defines
    /// (for `script`, where its script has faces of its own); the size is
    /// multiplied by `scale`.
    func fontDescription(_ spec: FontSpec, lang: String?, scale: Double = 1, script: FontScript? = nil) -> OpaquePointer {
        let d = pango_font_description_from_string(spec.description ?? "")!
        pango_font_description_set_family(d, fonts.familyList(requestedFamilies(spec), lang: lang, script: script ?? .latin).joined(separator: ","))
        pango_font_description_set_size(d, TextShaper.units(min(FontSpec.maxSize, baseSize(spec) * scale)))
        if let w = spec.weight { pango_font_description_set_weight(d, PangoWeight(rawValue: UInt32(w))) }
        switch spec.style {
        case .italic?: pango_font_description_set_style(d, PANGO_STYLE_ITALIC)
        case .oblique?: pango_font_description_set_style(d, PANGO_STYLE_OBLIQUE)
        case .normal?: pango_font_description_set_style(d, PANGO_STYLE_NORMAL)
        case nil: break
        }
        var variations = spec.variations.map { "\($0.tag)=\(number($0.value))" }
        // A variable font takes the weight exactly, even where fontconfig
        // picked one of its named instances (an italic one, say); a
        // `font-variation` wght comes later and wins.
        if let w = spec.weight, !spec.variations.contains(where: { $0.tag == "wght" }) { variations.insert("wght=\(w)", at: 0) }
        if let stretch = spec.stretch {
            pango_font_description_set_stretch(d, TextShaper.nearestStretch(stretch))
            // A variable font's width axis takes the exact percentage.
            if !spec.variations.contains(where: { $0.tag == "wdth" }) { variations.insert("wdth=\(number(stretch))", at: 0) }
        }
        if !variations.isEmpty { pango_font_description_set_variations(d, variations.joined(separator: ",")) }
        return d
    }

    private func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v) }

    /// Pango's nine widths, for choosing among a family's static faces.
    static func nearestStretch(_ percent: Double) -> PangoStretch {
        let widths: [(Double, PangoStretch)] = [
            (50, PANGO_STRETCH_ULTRA_CONDENSED), (62.5, PANGO_STRETCH_EXTRA_CONDENSED), (75, PANGO_STRETCH_CONDENSED),
            (87.5, PANGO_STRETCH_SEMI_CONDENSED), (100, PANGO_STRETCH_NORMAL), (112.5, PANGO_STRETCH_SEMI_EXPANDED),
            (125, PANGO_STRETCH_EXPANDED), (150, PANGO_STRETCH_EXTRA_EXPANDED), (200, PANGO_STRETCH_ULTRA_EXPANDED),
        ]
        return widths.min { abs($0.0 - percent) < abs($1.0 - percent) }!.1
    }

    /// Each line's text, left edge, baseline and width, in the layout's space.
    private func lines(of layout: OpaquePointer, text: String) -> [ShapedLine] {
        let bytes = Array(text.utf8)
        var out: [ShapedLine] = []
        guard let iter = pango_layout_get_iter(layout) else { return out }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            let start = Int(line.pointee.start_index), length = Int(line.pointee.length)
            let slice = start >= 0 && start + length <= bytes.count ? bytes[start..<start + length] : []
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            out.append(ShapedLine(
                text: String(decoding: slice, as: UTF8.self).trimmingTrailingWhitespace(),
                x: Double(logical.x) / TextShaper.scale, baseline: Double(pango_layout_iter_get_baseline(iter)) / TextShaper.scale,
                width: Double(logical.width) / TextShaper.scale))
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    private func logicalExtents(_ layout: OpaquePointer) -> Rect {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Rect(x: Double(logical.x) / TextShaper.scale, y: Double(logical.y) / TextShaper.scale,
                    width: Double(logical.width) / TextShaper.scale, height: Double(logical.height) / TextShaper.scale)
    }

    /// Without a wrap width the layout's own width is the text's; with one,
    /// lines are placed inside that width.
    private func size(of layout: OpaquePointer, _ request: TextRequest) -> Size {
        let logical = logicalExtents(layout)
        return Size(request.wrapWidth ?? logical.maxX, logical.maxY)
    }

    /// With `maxLines`, the text cut after that many lines (wrapped or
    /// not), its last kept line shortened until it fits with an ellipsis;
    /// the spans cut with it (the ellipsis belongs to the span it follows).
    /// The cut is found by bisection over the last line's grapheme
    /// clusters: a line of n clusters costs about log2(n) layouts, not n
    /// (zero-width characters such as U+2060 made the one-at-a-time search
    /// quadratic). `layouts` counts the Pango layouts made, for the budget.
    private func displayText(_ request: TextRequest, _ context: ShapingContext) -> (text: String, spans: [TextSpan], layouts: Int) {
        guard let maxLines = request.maxLines else { return (request.text, request.spans, 0) }
        let full = layout(request.text, spans: request.spans, request, context)
        defer { g_object_unref(UnsafeMutableRawPointer(full)) }
        var layouts = 1
        guard Int(pango_layout_get_line_count(full)) > maxLines else { return (request.text, request.spans, layouts) }
        // Byte offsets where the last kept line starts and where the next begins.
        let bytes = Array(request.text.utf8)
        let lastStart = Int(pango_layout_get_line_readonly(full, Int32(maxLines - 1)).pointee.start_index)
        let nextStart = Int(pango_layout_get_line_readonly(full, Int32(maxLines)).pointee.start_index)
        let kept = String(decoding: bytes[..<lastStart], as: UTF8.self)
        let last = Array(String(decoding: bytes[lastStart..<nextStart], as: UTF8.self)
            .trimmingTrailingWhitespace())
        func cut(_ candidate: String) -> [TextSpan] {
            let keptBytes = candidate.utf8.count - "…".utf8.count, total = candidate.utf8.count
            return request.spans.map { span in
                var s = span
                s.start = min(s.start, keptBytes)
                s.end = s.end > keptBytes ? (span.start < keptBytes ? total : keptBytes) : s.end
                return s
            }
        }
        func candidate(_ clusters: Int) -> String {
            kept + String(last[..<clusters]).trimmingTrailingWhitespace() + "…"
        }
        func fits(_ clusters: Int) -> Bool {
            let text = candidate(clusters)
            let l = layout(text, spans: cut(text), request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(l)) }
            layouts += 1
            return Int(pango_layout_get_line_count(l)) <= maxLines
        }
        // The longest prefix that fits; a longer prefix never takes fewer
        // lines, so fitting holds up to some length and not beyond.
        var best = 0
        if fits(last.count) {
            best = last.count
        } else {
            var lo = 0, hi = last.count - 1   // fits(lo) is assumed; hi may fit
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if fits(mid) { lo = mid } else { hi = mid - 1 }
            }
            best = lo
        }
        let text = candidate(best)
        return (text, cut(text), layouts)
    }
}

/// The families a Pango-style `font` description names
/// (`"DejaVu Sans Bold 16"` → DejaVu Sans), as Pango reads it; its generic
/// names (`Sans`, `Serif`, `Monospace`, `emoji`) are the generics.
public enum PangoDescriptionFamilies {
    public static func names(_ description: String) -> [FontFamilyName] {
        // By bytes: two spellings String calls equal (composed and
        // decomposed accents) are two descriptions to Pango.
        let key = Array(description.utf8)
        guard key.count <= longestKept else { return parse(description) }
        if let known = read.withLock({ $0[key] }) { return known }
        let names = parse(description)
        read.withLock { table in
            if table.count >= readLimit { table.removeAll(keepingCapacity: true) }
            table[key] = names
        }
        return names
    }

    /// Descriptions already read: Pango's parser costs about 100,000
    /// instructions a call (it tries each word as a style, weight, stretch,
    /// size and variation), and a scene asks for the same few descriptions
    /// for every text, every span and every check — 66 reads of a handful
    /// in the Flo graph, 6% of its render. At most `readLimit` of at most
    /// `longestKept` bytes, emptied when full: a worker serving ever new
    /// descriptions stays flat.
    private static let read = Locked<[[UInt8]: [FontFamilyName]]>([:])
    private static let readLimit = 256
    private static let longestKept = 1_024

    private static func parse(_ description: String) -> [FontFamilyName] {
        guard let d = pango_font_description_from_string(description) else { return [] }
        defer { pango_font_description_free(d) }
        guard let family = pango_font_description_get_family(d) else { return [] }
        return String(cString: family).split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
            .map { GenericFontFamily(keyword: $0).map(FontFamilyName.generic) ?? .named($0) }
    }
}

extension String {
    func trimmingTrailingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for an array
    /// where it holds from some index on (binary search).
    func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if predicate(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
