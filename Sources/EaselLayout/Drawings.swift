import EaselModel

public enum Drawing: Sendable {
    /// Painted in order.
    case shapes([ShapeDrawing])
    case image(ImageDrawing)
    case text(TextDrawing)
}

/// Text already shaped by the text engine: the painter draws it as it is.
public struct TextDrawing: Sendable {
    public var shaped: ShapedText
    public var fill: PaintID?
    /// What the fill's gradient spans: the lines' extents, or the frame.
    public var paintBox: Rect
    /// Spans with a fill of their own: each paint and the box it spans
    /// (the span's runs' extents). Runs not listed take the text's fill.
    public var spanFills: [SpanFill] = []
    /// How `fit` set the text, and whether it overflows its frame.
    public var fitting = TextFitting(fontSize: FontSpec.defaultSize, overflow: nil)
}

/// A span's own fill and the runs it paints.
public struct SpanFill: Sendable {
    public var fill: PaintID?
    public var box: Rect
    /// Indices into the text's `shaped.runs`.
    public var runs: [Int]
}

/// The size a text was set at, and how it does not fit where it does not.
public struct TextFitting: Hashable, Sendable {
    public var fontSize: Double
    public var overflow: TextOverflow?
    public init(fontSize: Double, overflow: TextOverflow?) { self.fontSize = fontSize; self.overflow = overflow }
}

/// How a text overflows its frame, at the size it was set at.
public struct TextOverflow: Hashable, Sendable {
    /// Points the lines reach below the frame's height.
    public var excessHeight: Double?
    public var frameHeight: Double?
    /// Lines beyond `max-lines` (cut with an ellipsis).
    public var excessLines: Int?
    public var maxLines: Int?
    /// A word wider than the text, broken across lines.
    public var brokenWord: String?
    /// `fit="shrink"`: it fits at no size down to this one.
    public var minFontSize: Double?
    public init() {}
}

public struct ShapeDrawing: Sendable {
    public var path: BezierPath
    public var fill: PaintID?
    public var fillRule: FillRule
    public var stroke: StrokeDrawing?
    /// Many small closed shapes, each crossing only its neighbours (a
    /// points layer's dots): what filling it costs is the rows its edges
    /// span, not a count of crossings over the whole path.
    public var crossesOnlyNeighbours = false
}

public struct StrokeDrawing: Sendable {
    public var paint: PaintID
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    public var dash: [Double]
    public var dashOffset: Double
}

public struct ImageDrawing: Sendable {
    public var source: ImageSource
    /// Where the image's pixels land (may overflow `clipRect` for `cover`).
    public var destination: Rect
    public var clipRect: Rect
}
