import CCairo
import CPangoCairo
import EaselLayout
import EaselModel

/// Pango set up once, the same way for measuring and for drawing, so that a
/// text's size never depends on the machine's fontconfig settings or on the
/// output's scale: 72 dpi (a 16-point font is 16 scene points tall), grey
/// anti-aliasing, no hinting, unhinted metrics, unrounded glyph positions.
final class PangoEnvironment: @unchecked Sendable {
    static let shared = PangoEnvironment()
    /// Pango is not thread-safe; Easel lays out and draws text one layout at a time.
    let lock = NSLockLike()
    let context: OpaquePointer

    private init() {
        let fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72)
        // Unrounded glyph positions: sizes scale exactly with the font size,
        // and glyphs land where they belong at every output scale.
        pango_context_set_round_glyph_positions(context, 0)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    static let scale = 1024.0   // PANGO_SCALE

    /// A Pango layout of `text` laid out as `request` asks.
    func layout(_ text: String, _ request: TextRequest) -> OpaquePointer {
        let layout = pango_layout_new(context)!
        let font = PangoEnvironment.fontDescription(request.font)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let w = request.wrapWidth {
            // Pango widths are Int32 in 1/1024 points: at most about 2 million points.
            let units = (w * PangoEnvironment.scale).rounded(.up)
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
        return layout
    }

    /// `font` first, then each separate attribute over it; DejaVu Sans 12
    /// where neither says.
    static func fontDescription(_ spec: FontSpec) -> OpaquePointer {
        let d = pango_font_description_from_string(spec.description ?? "")!
        if let family = spec.family { pango_font_description_set_family(d, family) }
        if pango_font_description_get_family(d) == nil { pango_font_description_set_family(d, FontSpec.defaultFamily) }
        if let size = spec.size {
            pango_font_description_set_size(d, Int32((size * scale).rounded()))
        } else if pango_font_description_get_size(d) == 0 {
            pango_font_description_set_size(d, Int32(FontSpec.defaultSize * scale))
        }
        if let w = spec.weight { pango_font_description_set_weight(d, PangoWeight(rawValue: UInt32(w))) }
        switch spec.style {
        case .italic?: pango_font_description_set_style(d, PANGO_STYLE_ITALIC)
        case .oblique?: pango_font_description_set_style(d, PANGO_STYLE_OBLIQUE)
        case .normal?: pango_font_description_set_style(d, PANGO_STYLE_NORMAL)
        case nil: break
        }
        return d
    }

    /// Each line's text, left edge, baseline and width, in the layout's space.
    static func lines(of layout: OpaquePointer, text: String) -> [ShapedLine] {
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
                x: Double(logical.x) / scale, baseline: Double(pango_layout_iter_get_baseline(iter)) / scale,
                width: Double(logical.width) / scale))
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    /// The family, size, weight and slant Pango resolved for `spec`.
    static func resolvedFont(_ spec: FontSpec) -> ResolvedFont {
        let d = fontDescription(spec)
        defer { pango_font_description_free(d) }
        let family = pango_font_description_get_family(d).map { String(cString: $0) } ?? FontSpec.defaultFamily
        let style = pango_font_description_get_style(d)
        return ResolvedFont(family: family, size: Double(pango_font_description_get_size(d)) / scale,
                            weight: Int(pango_font_description_get_weight(d).rawValue), italic: style != PANGO_STYLE_NORMAL)
    }

    static func logicalExtents(_ layout: OpaquePointer) -> Rect {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Rect(x: Double(logical.x) / scale, y: Double(logical.y) / scale,
                    width: Double(logical.width) / scale, height: Double(logical.height) / scale)
    }
}

/// A tiny recursive lock without Foundation (whose `AffineTransform` would
/// clash here). Recursive because text can be drawn while drawing text: a
/// label filled with a pattern whose tile holds a label.
final class NSLockLike: @unchecked Sendable {
    // On the heap: a pthread mutex must not move, and `&property` gives no
    // stable address.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)

    init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    func run<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// A Pango layout already laid out (its lines broken and shaped into
/// glyph strings, which Pango caches): what the painter draws. Never
/// changed after `shape` makes it; touched only under the Pango lock.
final class PangoShapedLayout: ShapedGlyphs, @unchecked Sendable {
    let layout: OpaquePointer
    init(_ layout: OpaquePointer) { self.layout = layout }
    deinit {
        PangoEnvironment.shared.lock.run { g_object_unref(UnsafeMutableRawPointer(layout)) }
    }
}

/// Shapes and measures text with Pango, for the layout pass.
public struct PangoTextMeasurer: TextMeasuring {
    public init() {}

    public func measure(_ request: TextRequest) -> Size {
        let env = PangoEnvironment.shared
        return env.lock.run {
            let layout = env.layout(displayText(request, env), request)
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            return size(of: layout, request)
        }
    }

    public func shape(_ request: TextRequest) -> ShapedText {
        let env = PangoEnvironment.shared
        return env.lock.run {
            let display = displayText(request, env)
            let layout = env.layout(display, request)
            return ShapedText(text: display, size: size(of: layout, request), lineBounds: PangoEnvironment.logicalExtents(layout),
                              lines: PangoEnvironment.lines(of: layout, text: display),
                              font: PangoEnvironment.resolvedFont(request.font), glyphs: PangoShapedLayout(layout))
        }
    }

    /// Without a wrap width the layout's own width is the text's; with one,
    /// lines are placed inside that width.
    private func size(of layout: OpaquePointer, _ request: TextRequest) -> Size {
        let logical = PangoEnvironment.logicalExtents(layout)
        return Size(request.wrapWidth ?? logical.maxX, logical.maxY)
    }

    /// With `maxLines`, the text cut after that many lines (wrapped or
    /// not), its last kept line shortened until it fits with an ellipsis.
    private func displayText(_ request: TextRequest, _ env: PangoEnvironment) -> String {
        guard let maxLines = request.maxLines else { return request.text }
        let full = env.layout(request.text, request)
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
            let l = env.layout(candidate, request)
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

extension String {
    func trimmingTrailingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
