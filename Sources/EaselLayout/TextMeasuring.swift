import EaselModel

/// What layout asks of a text engine, so it can be tested without Pango.
public struct TextRequest: Hashable, Sendable {
    public var text: String
    public var font: FontSpec
    /// Lines wrap at this width; `nil`: one line per source line.
    public var wrapWidth: Double?
    public var align: TextAlignment
    public var lineSpacing: Double
    public var maxLines: Int?
    /// BCP 47; steers font fallback (Han forms) and shaping.
    public var lang: String?

    public init(text: String, font: FontSpec, wrapWidth: Double?, align: TextAlignment, lineSpacing: Double, maxLines: Int?,
                lang: String? = nil) {
        self.text = text; self.font = font; self.wrapWidth = wrapWidth
        self.align = align; self.lineSpacing = lineSpacing; self.maxLines = maxLines; self.lang = lang
    }
}

/// One laid-out line: its text, left edge, baseline and width in the
/// text's own space (for SVG's text layer and for tests).
public struct ShapedLine: Hashable, Sendable {
    public var text: String
    public var x: Double
    public var baseline: Double
    public var width: Double
    public init(text: String, x: Double, baseline: Double, width: Double) {
        self.text = text; self.x = x; self.baseline = baseline; self.width = width
    }
}

/// Text shaped and broken into lines, once, during layout: plain data the
/// painter draws with no text engine (the usvg way: glyphs, not layouts).
public struct ShapedText: Sendable {
    /// The text as drawn: with `maxLines`, cut after the last kept line,
    /// which ends with an ellipsis.
    public var text: String
    /// The logical size of the laid-out text (what frames use).
    public var size: Size
    /// The union of the lines' logical extents, in the text's own space:
    /// what a gradient on the text spans.
    public var lineBounds: Rect
    public var lines: [ShapedLine]
    /// Every run of glyphs in one font, line by line, left to right.
    public var runs: [GlyphRun]

    public init(text: String, size: Size, lineBounds: Rect, lines: [ShapedLine], runs: [GlyphRun]) {
        self.text = text; self.size = size; self.lineBounds = lineBounds; self.lines = lines; self.runs = runs
    }

    /// Characters no font of the compile covers, in text order, each once.
    public var missing: [Unicode.Scalar] {
        var seen = Set<UInt32>()
        return runs.flatMap(\.missing).map(\.scalar).filter { seen.insert($0.value).inserted }
    }
}

/// Shapes text. `EaselRender` implements it with Pango over a compile's
/// font set; layout tests use a fixed-advance stand-in. `measure` only
/// sizes (stacks ask it often); `shape` makes what will be drawn.
public protocol TextMeasuring: Sendable {
    func measure(_ request: TextRequest) -> Size
    func shape(_ request: TextRequest) -> ShapedText
}
