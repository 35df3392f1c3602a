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
    /// Styled stretches of `text` (offsets into it).
    public var spans: [TextSpan] = []
    public var letterSpacing = 0.0
    public var direction: TextDirection = .ltr
    /// Every size (the text's, its spans', letter spacing and baseline
    /// shifts) times this: how `fit="shrink"` sets a text smaller.
    public var fontScale = 1.0

    public init(text: String, font: FontSpec, wrapWidth: Double?, align: TextAlignment, lineSpacing: Double, maxLines: Int?,
                lang: String? = nil) {
        self.text = text; self.font = font; self.wrapWidth = wrapWidth
        self.align = align; self.lineSpacing = lineSpacing; self.maxLines = maxLines; self.lang = lang
    }
}

/// What fitting a text needs to know of it at one size, all its lines
/// kept (`maxLines` is not applied).
public struct TextFitMeasure: Hashable, Sendable {
    /// The laid-out size, as `measure` gives it.
    public var size: Size
    public var lineCount: Int
    /// A word the lines break inside (it does not fit the width), if any.
    public var brokenWord: String?
    /// The text's own font size in points, before `fontScale`.
    public var fontSize: Double
    public init(size: Size, lineCount: Int, brokenWord: String?, fontSize: Double) {
        self.size = size; self.lineCount = lineCount; self.brokenWord = brokenWord; self.fontSize = fontSize
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
    /// Times the engine laid the text out to shape it: one, or more where
    /// the text was cut to `maxLines` (the layout budget is charged for
    /// each).
    public var layouts = 1
    /// The text's own font size in points, times the request's `fontScale`.
    public var fontSize: Double = FontSpec.defaultSize
    /// The paragraph runs right to left (`rtl`, or `auto` resolved by the
    /// first strong character): `leading` is the right.
    public var rightToLeft = false

    public init(text: String, size: Size, lineBounds: Rect, lines: [ShapedLine], runs: [GlyphRun]) {
        self.text = text; self.size = size; self.lineBounds = lineBounds; self.lines = lines; self.runs = runs
    }

    /// The same text moved `dx` points along its lines.
    public func translated(by dx: Double) -> ShapedText {
        var t = self
        t.lineBounds = lineBounds.offsetBy(dx, 0)
        t.lines = lines.map { var l = $0; l.x += dx; return l }
        t.runs = runs.map { run in
            var r = run
            r.positions = run.positions.map { Point($0.x + dx, $0.y) }
            r.missing = run.missing.map { MissingCharacter(scalar: $0.scalar, box: $0.box.offsetBy(dx, 0)) }
            r.logicalBox = run.logicalBox.offsetBy(dx, 0)
            r.decorations = run.decorations.map { $0.offsetBy(dx, 0) }
            return r
        }
        return t
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
    /// For `fit="shrink"`: the text's size, lines and broken words.
    func fitMeasure(_ request: TextRequest) -> TextFitMeasure
    /// `measure`, and how many times the engine laid the text out for it
    /// (cutting a text to `maxLines` takes several): what the layout
    /// budget is charged for.
    func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int)
}

extension TextMeasuring {
    public func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int) {
        (measure(request), 1)
    }

    /// From `shape`, for engines that cannot tell where words break.
    public func fitMeasure(_ request: TextRequest) -> TextFitMeasure {
        var r = request
        r.maxLines = nil
        let shaped = shape(r)
        return TextFitMeasure(size: shaped.size, lineCount: shaped.lines.count, brokenWord: nil,
                              fontSize: request.font.size ?? FontSpec.defaultSize)
    }
}
