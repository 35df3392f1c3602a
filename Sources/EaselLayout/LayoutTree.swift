import EaselModel

/// A laid-out scene: the geometry of every node (`nodes`, what `easel
/// layout`, the checks and the preview read), the texts as shaped (`texts`,
/// a side table the geometry points into), and the render tree the
/// backends paint (`renderTree`: groups, paths, images and texts with their
/// paints), made from the same pass. None of it depends on what a render
/// is asked for — output scale, format or time — so one layout serves
/// @1x, @2x and @3x, PNG, PDF and SVG, and every frame of an animation.
public struct LaidOutScene: Sendable {
    /// The `<scene>` element, for diagnostics that belong to no node.
    public let location: SourceLocation
    public let size: Size
    /// The scene's own `scale` (what a render uses unless told otherwise).
    public let scale: Double
    public let background: Color
    /// Gradients in PNG output are dithered (the scene's `dither`).
    public let dither: Bool
    /// Frames and transforms, node by node: geometry only.
    public let nodes: [LayoutNode]
    /// Every text the scene shapes, in document order (a pattern tile's
    /// once per tile size): `LayoutNode.text` indexes it.
    public let texts: [LaidOutText]
    /// Every paint the render tree uses; its nodes name them by `PaintID`.
    public var paints: PaintTable { renderTree.paints }
    /// The largest scale this tree paints exactly: long graph lines were
    /// reduced to what that many pixels per point can show.
    public let maxScale: Double
    /// Whether any graph line was reduced, so that painting at a scale
    /// above `maxScale` needs a layout for that scale.
    public let reducedSeries: Bool
    /// What laying it out cost; `work.exhaustedAt` says the budget ran out
    /// and the tree is incomplete.
    public let work: LayoutWork
    /// What a backend paints.
    public let renderTree: RenderTree

    /// The shaped text of a text node.
    public func text(of node: LayoutNode) -> TextDrawing? { node.text.map { texts[$0].text } }

    init(location: SourceLocation, size: Size, scale: Double, background: Color, dither: Bool, drafts: [DraftNode],
         tileTexts: [LaidOutText], paints: PaintTable, maxScale: Double, reducedSeries: Bool, work: LayoutWork) {
        self.location = location; self.size = size; self.scale = scale; self.background = background; self.dither = dither
        self.maxScale = maxScale; self.reducedSeries = reducedSeries; self.work = work
        var texts: [LaidOutText] = []
        var geometry: [LayoutNode] = []
        var render: [RenderNode] = []
        for draft in drafts {
            let (node, painted) = draft.split(collecting: &texts)
            geometry.append(node)
            if let painted { render.append(painted) }
        }
        self.nodes = geometry
        self.texts = texts + tileTexts
        renderTree = RenderTree(size: size, background: background, nodes: render, paints: paints, location: location)
    }
}

/// A text as layout shaped it, with the node it belongs to.
public struct LaidOutText: Sendable {
    /// The `<text>` element (or the graph element whose label it is).
    public var location: SourceLocation
    public var text: TextDrawing
}

/// A node's geometry, as `easel layout` reports it: no paints, no paths.
public struct LayoutNode: Sendable {
    public var element: String
    public var id: String?
    /// The parsed node it was laid out from (nil for a graph's own layers
    /// and labels).
    public var node: NodeID?
    public var location: SourceLocation
    /// The node's box in its parent's content space, before its transform.
    /// For coordinate shapes, the tight box of the geometry (after x/y).
    public var frame: Rect
    /// `frame` in scene points, before any transform (for `easel layout`).
    public var absoluteFrame: Rect
    /// Maps the node's own space into its parent's content space.
    public var transform: AffineTransform
    public var opacity: Double
    public var children: [LayoutNode]
    /// For `<repeat>`: how many copies of the children are painted.
    public var copyCount: Int?
    /// Its shaped text: an index into `LaidOutScene.texts`.
    public var text: Int?
}

/// A node as the resolver builds it, before `split` separates its
/// geometry (`LayoutNode`) from what it paints (`RenderNode`). Internal:
/// nothing outside layout sees one.
struct DraftNode {
    var element: String
    var id: String?
    var node: NodeID?
    var location: SourceLocation
    var frame: Rect
    var absoluteFrame: Rect
    var transform: AffineTransform
    var opacity: Double
    /// Clips the node and its subtree; in the node's own space.
    var clip: ResolvedClip?
    /// Painted before the children (a view's fill, a shape, text, an image).
    var drawing: Drawing?
    /// A view's or stack's inset stroke, painted after the children, as a
    /// CALayer's border is drawn above its sublayers.
    var border: ShapeDrawing?
    /// Where the children's space starts in the node's own space (padding).
    var childOffset: Point
    /// `clip="true"` on a view: its rounded box, in the node's own space.
    var childClip: BezierPath?
    var children: [DraftNode]
    /// For `<repeat>`: the children are painted once under each transform
    /// (copy `i` under the step applied `i` times; collapsed copies dropped).
    var copies: [AffineTransform]?

    init(element: String, id: String? = nil, node: NodeID? = nil, location: SourceLocation, frame: Rect, absoluteFrame: Rect,
         transform: AffineTransform = .identity, opacity: Double = 1) {
        self.element = element; self.id = id; self.node = node; self.location = location; self.frame = frame
        self.absoluteFrame = absoluteFrame; self.transform = transform; self.opacity = opacity
        clip = nil; drawing = nil; border = nil; childOffset = .zero; childClip = nil; children = []; copies = nil
    }
}

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

/// An index into the scene's `PaintTable`.
public struct PaintID: Hashable, Sendable {
    public var index: Int
}

/// The paints of one laid-out scene, shared by every drawing that uses
/// them. An entry is a function of time: static paints ignore it; an
/// animated gradient (see the contract's Animation section) is resolved at
/// the painted time without laying the scene out again.
public struct PaintTable: Sendable {
    public enum Entry: Sendable {
        case fixed(ResolvedPaint)
        case animated(AnimatedPaint)
    }
    public private(set) var entries: [Entry] = []
    public init() {}

    public mutating func add(_ entry: Entry) -> PaintID {
        entries.append(entry)
        return PaintID(index: entries.count - 1)
    }

    /// The paint as it is at `time` seconds.
    public func paint(_ id: PaintID, at time: Double) -> ResolvedPaint {
        switch entries[id.index] {
        case .fixed(let p): return p
        case .animated(let a): return a.paint(at: time)
        }
    }

    /// How many times the animations play (an animated PNG's loop count):
    /// 0, forever, when any repeats forever; else the most passes of any.
    public var plays: Int {
        var most = 1
        for case .animated(let a) in entries {
            switch a.clock.repeatMode {
            case .forever: return 0
            case .times(let n): most = max(most, n)
            }
        }
        return most
    }

    /// The longest pass among the animated paints; nil when nothing animates.
    public var longestPass: Double? {
        entries.compactMap { entry -> Double? in
            if case .animated(let a) = entry { return a.clock.passDuration }
            return nil
        }.max()
    }
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

/// A paint ready to hand to the renderer: a colour, or a shading whose
/// geometry is already in the node's own points.
public struct ResolvedPaint: Sendable {
    public enum Kind: Sendable {
        case solid(Color)
        case linear(LinearShading)
        case radial(RadialShading)
        case conic(ConicShading)
        case pattern(PatternFill)
        case stripes(StripesFill)
        /// Two keyframes of different kinds at progress p: (1−p)·A + p·B.
        indirect case crossFade(ResolvedPaint, ResolvedPaint, Double)
    }
    public var kind: Kind
    /// `fill-opacity`/`stroke-opacity`, applied on top of the paint.
    public var opacity: Double
    public init(kind: Kind, opacity: Double) { self.kind = kind; self.opacity = opacity }
}

/// A linear gradient in the node's own points: `start`/`end` are in
/// gradient space, which `matrix` maps into the node's own space.
public struct LinearShading: Sendable, Hashable {
    public var start: Point
    public var end: Point
    /// Stops as Cairo should receive them (extra stops already inserted so
    /// that Cairo's straight sRGB interpolation matches the contract's).
    public var stops: [ShadingStop]
    public var spread: SpreadMethod
    public var matrix: AffineTransform
    /// Stops for dithered PNG output (`StopResolution.rasterStops`); nil:
    /// `stops` serve.
    public var rasterStops: [ShadingStop]? = nil
}

/// A radial gradient in gradient space: offset 0 at `focus`, 1 on the
/// circle (`center`, `radius`); `matrix` maps gradient space into the node's
/// own space (for unit-box geometry it stretches the circle to an ellipse).
public struct RadialShading: Sendable, Hashable {
    public var center: Point
    public var radius: Double
    public var focus: Point
    public var stops: [ShadingStop]
    public var spread: SpreadMethod
    public var matrix: AffineTransform
    /// Stops for dithered PNG output (`StopResolution.rasterStops`); nil:
    /// `stops` serve.
    public var rasterStops: [ShadingStop]? = nil
}

/// A sweep around `center` (gradient space, in points), made of sectors
/// over which colour changes linearly with the angle; `matrix` maps
/// gradient space into the node's own space.
public struct ConicShading: Sendable, Hashable {
    public var center: Point
    public var sectors: [ConicSector]
    public var matrix: AffineTransform
    /// Where offset 0 is (degrees, the `angle` convention) and how stops
    /// repeat: what `sectors` were made from, kept for animation.
    public var from: Double
    public var spread: SpreadMethod
    /// Sectors for dithered PNG output, from `StopResolution.rasterStops`;
    /// nil: `sectors` serve.
    public var rasterSectors: [ConicSector]? = nil
}

/// Part of a turn: from `start` to `end` (fractions of a turn, clockwise on
/// screen from the gradient's `from`), colours linear in between.
public struct ConicSector: Sendable, Hashable {
    public var startAngle: Double   // radians, screen convention (y down)
    public var endAngle: Double
    public var startColor: Color
    public var endColor: Color
}

/// A `<pattern>` tile: `content` laid out in a `tile`-sized box, repeated;
/// `matrix` maps pattern space (tile grid origin at 0,0) into own space.
public struct PatternFill: Sendable {
    public var tile: Size
    public var matrix: AffineTransform
    /// The tile's content as the backends paint it.
    public var content: [RenderNode]
}

/// `<stripes>`: lines `spacing` apart along `direction` (a unit vector in
/// own space), one centre line through `origin`.
public struct StripesFill: Sendable, Hashable {
    public var origin: Point
    public var direction: Point
    public var spacing: Double
    public var lineWidth: Double
    public var color: Color
    public var background: Color?
}

public struct ShadingStop: Sendable, Hashable {
    public var offset: Double
    public var color: Color
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}

/// The union of `shapes` (each with its own rule, optionally clipped
/// itself), intersected with `within` when the clip path is clipped too.
public struct ResolvedClip: Hashable, Sendable {
    public struct Shape: Hashable, Sendable {
        public var path: BezierPath
        public var rule: FillRule
        public var clip: [ResolvedClip]
        public init(path: BezierPath, rule: FillRule, clip: [ResolvedClip]) { self.path = path; self.rule = rule; self.clip = clip }
    }
    public var shapes: [Shape]
    public var within: [ResolvedClip]

    public init(shapes: [Shape], within: [ResolvedClip]) {
        self.shapes = shapes
        self.within = within
    }

    public func applying(_ t: AffineTransform) -> ResolvedClip {
        ResolvedClip(
            shapes: shapes.map { Shape(path: $0.path.applying(t), rule: $0.rule, clip: $0.clip.map { $0.applying(t) }) },
            within: within.map { $0.applying(t) })
    }
}
