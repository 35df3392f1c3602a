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
    /// Every text the scene shapes: the tree's in document order, then the
    /// pattern tiles' (a tile's
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
