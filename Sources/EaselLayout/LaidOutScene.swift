import EaselModel

/// A scene laid out: the geometry of every node (`nodes`, what `easel
/// layout`, the checks and the preview read) and the texts as shaped
/// (`texts`, a side table the geometry points into) — no paints, no paths.
/// The same pass makes the `RenderTree` the backends paint
/// (`LayoutEngine.layOut`); neither depends on what a render is asked for
/// (output scale, format or time), so one layout serves @1x, @2x and @3x,
/// PNG, PDF and SVG, and every frame of an animation.
public struct LaidOutScene: Sendable {
    /// The `<scene>` element, for diagnostics that belong to no node.
    public let location: SourceLocation
    public let size: Size
    /// The scene's own `scale` (what a render uses unless told otherwise).
    public let scale: Double
    /// Frames and transforms, node by node: geometry only.
    public let nodes: [LayoutNode]
    /// Every text the scene shapes: the tree's in document order, then the
    /// pattern tiles' (a tile's once per tile size). `LayoutNode.text`
    /// indexes it.
    public let texts: [LaidOutText]
    /// The largest scale the render tree paints exactly: long graph lines
    /// were reduced to what that many pixels per point can show.
    public let maxScale: Double
    /// Whether any graph line was reduced, so that painting at a scale
    /// above `maxScale` needs a tree with every point.
    public let reducedSeries: Bool
    /// What laying it out cost; `work.exhaustedAt` says the budget ran out
    /// and the layout is incomplete.
    public let work: LayoutWork
    /// Graph labels drawn past their graph's frame (a graph with an
    /// explicit padding too small for them), for a warning each.
    public var labelsOutside: [LabelOutside] = []
    /// Graphs whose padding leaves no plot, for an error each.
    public var emptyPlots: [EmptyPlot] = []
    /// Graphs too small for their labels, for a warning each.
    public var squeezedPlots: [SqueezedPlot] = []

    /// The shaped text of a text node.
    public func text(of node: LayoutNode) -> ShapedTextLayout? { node.text.map { texts[$0].text } }
}

/// A text as layout shaped and fitted it, with the node it belongs to.
public struct LaidOutText: Sendable {
    /// The `<text>` element (or the graph element whose label it is).
    public var location: SourceLocation
    public var text: ShapedTextLayout
}

/// A text's lines and glyph runs and how `fit` set it: what the checks and
/// `easel layout` read (its paints are the render tree's).
public struct ShapedTextLayout: Sendable {
    public var shaped: ShapedText
    public var fitting: TextFitting
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
    /// A graph's plot box, in scene points (ignoring transforms), after
    /// its padding grew to fit its labels.
    public var plot: Rect?
    /// Its shaped text: an index into `LaidOutScene.texts`.
    public var text: Int?
}
