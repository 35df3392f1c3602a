import EaselModel

/// What a renderer paints, back to front: a closed set of node kinds, as
/// usvg's tree is. Views, stacks, borders, padding, `clip="true"`, repeats
/// and graph layers are already ordinary groups and paths here, so a
/// backend walks it knowing nothing of layout. Made in the layout pass
/// (`DraftNode.split`), beside the geometry.
public struct RenderTree: Sendable {
    public var size: Size
    public var background: Color
    /// Gradients on a raster target are dithered (the scene's `dither`).
    public var dither: Bool
    /// The space the colours are in (converted in layout) and the output
    /// is tagged with.
    public var colorSpace: SceneColorSpace = .srgb
    public var nodes: [RenderNode]
    /// Every paint the tree's paths and texts name by `PaintID`.
    public var paints: PaintTable
    /// The `<scene>` element, for errors that belong to no node.
    public var location: SourceLocation
}

public enum RenderNode: Sendable {
    case group(RenderGroup)
    case path(RenderPath)
    case image(RenderImage)
    case text(RenderText)

    /// The element that made the node, for errors while painting it.
    public var location: SourceLocation {
        switch self {
        case .group(let g): return g.location
        case .path(let p): return p.location
        case .image(let i): return i.location
        case .text(let t): return t.location
        }
    }

    /// Where the node can paint, in its parent's space: a box that holds
    /// every pixel it touches (strokes, miters, glyph ink); nil: nothing.
    public var bounds: Rect? {
        switch self {
        case .group(let g): return g.bounds.map { g.transform.isIdentity ? $0 : $0.applying(g.transform) }
        case .path(let p): return p.bounds
        case .image(let i): return i.drawing.clipRect
        case .text(let t): return t.bounds
        }
    }
}

/// Children painted under a transform, then clipped (in the group's own
/// space, after the transform), and composited at `opacity` as one layer
/// when it is below 1.
public struct RenderGroup: Sendable {
    public var location: SourceLocation
    public var transform: AffineTransform
    public var opacity: Double
    public var clip: ResolvedClip?
    public let children: [RenderNode]
    /// The union of the children's bounds, in the group's own space: what
    /// a layer for the group needs to hold. Worked out once, as the tree is
    /// built (every child's own bounds are already known then).
    public let bounds: Rect?

    public init(location: SourceLocation, transform: AffineTransform = .identity, opacity: Double = 1,
                clip: ResolvedClip? = nil, children: [RenderNode]) {
        self.init(location: location, transform: transform, opacity: opacity, clip: clip, children: children,
                  childrenBounds: Self.union(of: children))
    }

    /// For groups that share their children (a repeat's copies): their
    /// union, worked out once for all of them.
    init(location: SourceLocation, transform: AffineTransform = .identity, opacity: Double = 1,
         clip: ResolvedClip? = nil, children: [RenderNode], childrenBounds: Rect?) {
        self.location = location; self.transform = transform; self.opacity = opacity; self.clip = clip
        self.children = children
        self.bounds = childrenBounds
    }

    static func union(of nodes: [RenderNode]) -> Rect? {
        nodes.lazy.compactMap(\.bounds).reduce(nil) { (all: Rect?, next: Rect) in all.map { $0.union(next) } ?? next }
    }
}

/// A filled and/or stroked path: the fill first, then the stroke.
public struct RenderPath: Sendable {
    public let location: SourceLocation
    public let path: BezierPath
    public let fill: PaintID?
    public let fillRule: FillRule
    public let stroke: StrokeDrawing?
    /// `ShapeDrawing.crossesOnlyNeighbours`.
    public let crossesOnlyNeighbours: Bool
    /// `ShapeDrawing.disjointRectangles`: when set, the shape (and `path`
    /// is empty).
    public let disjointRectangles: [Rect]?
    /// What tessellating the path costs (its edges and where they cross),
    /// for the paint budget; nil when nothing is painted or the path
    /// crosses only neighbours (charged by the rows its edges span).
    public let crossings: PathCrossings.Estimate?
    /// Where the fill and stroke can reach, worked out once: a miter
    /// reaches miter-limit half-widths from the path, a square cap √2.
    public let bounds: Rect?
    /// The outline's bounding box (the rectangles' union, or the path's),
    /// worked out once.
    public let outlineBounds: Rect?

    public init(location: SourceLocation, path: BezierPath, fill: PaintID?, fillRule: FillRule, stroke: StrokeDrawing?,
                crossesOnlyNeighbours: Bool = false, disjointRectangles: [Rect]? = nil) {
        self.location = location; self.path = path; self.fill = fill; self.fillRule = fillRule; self.stroke = stroke
        self.crossesOnlyNeighbours = crossesOnlyNeighbours
        self.disjointRectangles = disjointRectangles
        crossings = (fill != nil || stroke != nil) && !crossesOnlyNeighbours && disjointRectangles == nil ? PathCrossings.estimate(path) : nil
        outlineBounds = Self.outlineBounds(path, disjointRectangles)
        if fill != nil || stroke != nil, var box = outlineBounds {
            if let stroke {
                let reach = stroke.width / 2 * max(stroke.miterLimit, 1.5)
                box = Rect(x: box.x - reach, y: box.y - reach, width: box.width + 2 * reach, height: box.height + 2 * reach)
            }
            bounds = box
        } else {
            bounds = nil
        }
    }
}

extension RenderPath {
    /// The shape as a path: `path`, or the rectangles drawn as one (made
    /// on each call, for the backends that draw vectors).
    public var outline: BezierPath {
        guard let rectangles = disjointRectangles else { return path }
        var all = BezierPath()
        all.reserveCapacity(adding: 5 * rectangles.count)
        for r in rectangles { all.addRect(r) }
        return all
    }

    /// Elements of the outline, without making it.
    public var outlineElementCount: Int { disjointRectangles.map { 5 * $0.count } ?? path.elements.count }

    /// The bounding box of `rectangles` if given, else of `path`.
    static func outlineBounds(_ path: BezierPath, _ rectangles: [Rect]?) -> Rect? {
        guard let rectangles else { return path.boundingBox }
        return rectangles.dropFirst().reduce(rectangles.first) { $0?.union($1) }
    }
}

/// Image pixels drawn into `drawing.destination`, clipped to `drawing.clipRect`.
public struct RenderImage: Sendable {
    public var location: SourceLocation
    public var drawing: ImageDrawing
}

/// Glyph runs as layout shaped them, with their fills.
public struct RenderText: Sendable {
    public let location: SourceLocation
    public let drawing: TextDrawing
    /// The lines' and runs' boxes, an em wider on every side for ink
    /// outside them (italic overhangs, accents, decorations).
    public let bounds: Rect?

    public init(location: SourceLocation, drawing: TextDrawing) {
        self.location = location; self.drawing = drawing
        let shaped = drawing.shaped
        guard !shaped.runs.isEmpty || !shaped.lines.isEmpty else { bounds = nil; return }
        let box = shaped.runs.reduce(shaped.lineBounds) { $0.union($1.logicalBox) }
        let em = shaped.runs.map(\.logicalBox.height).reduce(shaped.fontSize, max)
        bounds = Rect(x: box.x - em, y: box.y - em, width: box.width + 2 * em, height: box.height + 2 * em)
    }
}
