import CPangoCairo
import EaselLayout
import EaselModel

/// Shapes and measures text with Pango over a compile's font set, for the
/// layout pass: glyph runs out, no Pango object kept.
public struct TextShaper: TextMeasuring {
    public let fonts: FontSet
    public init(fonts: FontSet) { self.fonts = fonts }

    static let scale = 1024.0   // PANGO_SCALE

    public func measure(_ request: TextRequest) -> Size {
        fonts.withShapingContext { context in
            let layout = self.layout(displayText(request, context), request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            return size(of: layout, request)
        }
    }

    public func shape(_ request: TextRequest) -> ShapedText {
        fonts.withShapingContext { context in
            let display = displayText(request, context)
            let layout = self.layout(display, request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            return ShapedText(text: display, size: size(of: layout, request), lineBounds: logicalExtents(layout),
                              lines: lines(of: layout, text: display),
                              runs: GlyphRunReader.runs(of: layout, fonts: fonts, requestedAxes: request.font.variations.map(\.tag)))
        }
    }

    /// A Pango layout of `text` laid out as `request` asks.
    func layout(_ text: String, _ request: TextRequest, _ context: ShapingContext) -> OpaquePointer {
        let layout = pango_layout_new(context.context)!
        let font = fontDescription(request.font, lang: request.lang)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let w = request.wrapWidth {
            // Pango widths are Int32 in 1/1024 points: at most about 2 million points.
            let units = (w * TextShaper.scale).rounded(.up)
            pango_layout_set_width(layout, units.isFinite && units < Double(Int32.max) ? Int32(max(0, units)) : Int32.max)
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        switch request.align {
        case .leading: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .trailing: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if request.lineSpacing != 1 { pango_layout_set_line_spacing(layout, Float(request.lineSpacing)) }
        pango_layout_set_text(layout, text, -1)
        if let attributes = scriptAttributes(text, request) {
            pango_layout_set_attributes(layout, attributes)
            pango_attr_list_unref(attributes)
        }
        return layout
    }

    /// Over each script run of the text: its family list, where its script
    /// has faces of its own (Arabic text in a `sans-serif` label tries Noto
    /// Sans Arabic before DejaVu Sans); and the text's `lang` where it
    /// writes that script, "und" where not (Latin words in Japanese text),
    /// so that Pango never takes a language from the environment
    /// (`pango_script_get_sample_language` reads PANGO_LANGUAGE and LANGUAGE).
    private func scriptAttributes(_ text: String, _ request: TextRequest) -> OpaquePointer? {
        let language = request.lang.flatMap { pango_language_from_string($0) }
        let neutral = pango_language_from_string("und")
        let requested = requestedFamilies(request.font)
        let base = fonts.familyList(requested, lang: request.lang)
        var list: OpaquePointer?
        text.withCString { start in
            guard let iter = pango_script_iter_new(start, -1) else { return }
            defer { pango_script_iter_free(iter) }
            repeat {
                var from: UnsafePointer<CChar>?, to: UnsafePointer<CChar>?
                var script = PANGO_SCRIPT_COMMON
                pango_script_iter_get_range(iter, &from, &to, &script)
                guard let from, let to else { continue }
                func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?) {
                    guard let attribute else { return }
                    if list == nil { list = pango_attr_list_new() }
                    attribute.pointee.start_index = guint(from - start)
                    attribute.pointee.end_index = guint(to - start)
                    pango_attr_list_insert(list, attribute)
                }
                if let language {
                    insert(pango_attr_language_new(pango_language_includes_script(language, script) != 0 ? language : neutral))
                }
                if let own = TextShaper.fontScript(script) {
                    let families = fonts.familyList(requested, lang: request.lang, script: own)
                    if families != base { insert(pango_attr_family_new(families.joined(separator: ","))) }
                }
            } while pango_script_iter_next(iter) != 0
        }
        return list
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
    /// where neither says. The family becomes the list the set defines.
    func fontDescription(_ spec: FontSpec, lang: String?) -> OpaquePointer {
        let d = pango_font_description_from_string(spec.description ?? "")!
        pango_font_description_set_family(d, fonts.familyList(requestedFamilies(spec), lang: lang).joined(separator: ","))
        if let size = spec.size {
            pango_font_description_set_size(d, Int32((size * TextShaper.scale).rounded()))
        } else if pango_font_description_get_size(d) == 0 {
            pango_font_description_set_size(d, Int32(FontSpec.defaultSize * TextShaper.scale))
        }
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
    /// not), its last kept line shortened until it fits with an ellipsis.
    private func displayText(_ request: TextRequest, _ context: ShapingContext) -> String {
        guard let maxLines = request.maxLines else { return request.text }
        let full = layout(request.text, request, context)
        defer { g_object_unref(UnsafeMutableRawPointer(full)) }
        guard Int(pango_layout_get_line_count(full)) > maxLines else { return request.text }
        // Byte offsets where the last kept line starts and where the next begins.
        let bytes = Array(request.text.utf8)
        let lastStart = Int(pango_layout_get_line_readonly(full, Int32(maxLines - 1)).pointee.start_index)
        let nextStart = Int(pango_layout_get_line_readonly(full, Int32(maxLines)).pointee.start_index)
        let kept = String(decoding: bytes[..<lastStart], as: UTF8.self)
        var last = Array(String(decoding: bytes[lastStart..<nextStart], as: UTF8.self)
            .trimmingTrailingWhitespace())
        func fits(_ candidate: String) -> Bool {
            let l = layout(candidate, request, context)
            defer { g_object_unref(UnsafeMutableRawPointer(l)) }
            return Int(pango_layout_get_line_count(l)) <= maxLines
        }
        while true {
            let candidate = kept + String(last).trimmingTrailingWhitespace() + "…"
            if fits(candidate) || last.isEmpty { return candidate }
            last.removeLast()
        }
    }
}

/// The families a Pango-style `font` description names
/// (`"DejaVu Sans Bold 16"` → DejaVu Sans), as Pango reads it; its generic
/// names (`Sans`, `Serif`, `Monospace`, `emoji`) are the generics.
public enum PangoDescriptionFamilies {
    public static func names(_ description: String) -> [FontFamilyName] {
        guard let d = pango_font_description_from_string(description) else { return [] }
        defer { pango_font_description_free(d) }
        guard let family = pango_font_description_get_family(d) else { return [] }
        return String(cString: family).split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
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

extension Substring {
    func trimmingCharacters() -> String {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
