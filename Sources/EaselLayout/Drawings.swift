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
    /// When set, the shape is these rectangles along the axes, which do not
    /// overlap (a bars layer's bars, side by side in their slots), and
    /// `path` is empty: 32 bytes a rectangle where a path takes 280. A
    /// raster backend may fill them by the exact area they cover of each
    /// pixel (`RectangleCoverage`); the others draw `RenderPath.outline`.
    public var disjointRectangles: [Rect]?
}

public struct StrokeDrawing: Sendable {
    public var paint: PaintID
    public var width: Double
    public var cap: LineCap
    public var join: LineJoin
    public var miterLimit: Double
    public var dash: [Double]
    public var dashOffset: Double

    public init(paint: PaintID, width: Double, cap: LineCap, join: LineJoin, miterLimit: Double, dash: [Double], dashOffset: Double) {
        self.paint = paint; self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.dash = dash; self.dashOffset = dashOffset
    }
}

public struct ImageDrawing: Sendable {
    public var source: ImageSource
    /// Where the image's pixels land (may overflow `clipRect` for `cover`).
    public var destination: Rect
    public var clipRect: Rect
    /// `tint`: painted over the frame (`clipRect`) through the image's
    /// coverage, instead of the image's own colours.
    public var tint: PaintID?

    public init(source: ImageSource, destination: Rect, clipRect: Rect, tint: PaintID? = nil) {
        self.source = source; self.destination = destination; self.clipRect = clipRect; self.tint = tint
    }
}

extension TextDrawing {
    /// The runs as they are filled: the text's own fill over its box with
    /// the runs no span claims, then each span with a fill of its own over
    /// the span's extents (indices into `shaped.runs`).
    public var fillGroups: [(fill: PaintID?, box: Rect, runs: [Int])] {
        var own = Set(shaped.runs.indices)
        var groups: [(fill: PaintID?, box: Rect, runs: [Int])] = []
        for span in spanFills {
            groups.append((span.fill, span.box, span.runs))
            own.subtract(span.runs)
        }
        groups.insert((fill, paintBox, shaped.runs.indices.filter { own.contains($0) }), at: 0)
        return groups
    }
}

extension StripesFill {
    /// What stripes over `area` (user space) are drawn as: their centre
    /// lines, each reaching past the area by a line width, or — for lines
    /// far finer than any pixel (over 100,000 across the area) — nil: the
    /// area in their average colour (`averageCoverage`).
    public func lines(covering area: Rect) -> [(Point, Point)]? {
        let d = direction, n = Point(-d.y, d.x)
        let corners = [Point(area.minX, area.minY), Point(area.maxX, area.minY),
                       Point(area.minX, area.maxY), Point(area.maxX, area.maxY)].map { $0 - origin }
        let across = corners.map { $0.x * n.x + $0.y * n.y }, along = corners.map { $0.x * d.x + $0.y * d.y }
        let margin = lineWidth
        let kmin = ((across.min()! - margin) / spacing).rounded(.down)
        let kmax = ((across.max()! + margin) / spacing).rounded(.up)
        guard kmax - kmin <= 100_000 else { return nil }
        let smin = along.min()! - margin, smax = along.max()! + margin
        var out: [(Point, Point)] = []
        var k = kmin
        while k <= kmax {
            let base = origin + n * (k * spacing)
            out.append((base + d * smin, base + d * smax))
            k += 1
        }
        return out
    }

    /// The share of the area the lines cover.
    public var averageCoverage: Double { min(1, lineWidth / spacing) }
}
