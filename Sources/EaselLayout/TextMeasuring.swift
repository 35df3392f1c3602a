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

    public init(text: String, font: FontSpec, wrapWidth: Double?, align: TextAlignment, lineSpacing: Double, maxLines: Int?) {
        self.text = text; self.font = font; self.wrapWidth = wrapWidth
        self.align = align; self.lineSpacing = lineSpacing; self.maxLines = maxLines
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

/// The font the engine actually chose for a request.
public struct ResolvedFont: Hashable, Sendable {
    public var family: String
    public var size: Double
    public var weight: Int
    public var italic: Bool
    public init(family: String, size: Double, weight: Int, italic: Bool) {
        self.family = family; self.size = size; self.weight = weight; self.italic = italic
    }
}

/// The engine's own shaped form of a text (Pango's glyph strings), which
/// only the renderer of that engine can draw. Immutable once made.
public protocol ShapedGlyphs: AnyObject, Sendable {}

/// Text shaped and broken into lines, once, during layout. The painter
/// draws `glyphs` as they are and never measures or breaks lines again.
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
    public var font: ResolvedFont
    /// `nil` from measurers that only size text (layout tests).
    public var glyphs: (any ShapedGlyphs)?

    public init(text: String, size: Size, lineBounds: Rect, lines: [ShapedLine], font: ResolvedFont, glyphs: (any ShapedGlyphs)?) {
        self.text = text; self.size = size; self.lineBounds = lineBounds; self.lines = lines; self.font = font; self.glyphs = glyphs
    }
}

/// Shapes text. `EaselRender` implements it with Pango; layout tests use a
/// fixed-advance stand-in. `measure` only sizes (stacks ask it often);
/// `shape` makes what will be drawn.
public protocol TextMeasuring: Sendable {
    func measure(_ request: TextRequest) -> Size
    func shape(_ request: TextRequest) -> ShapedText
}
