import EaselModel

/// What a layout is for, beyond the scene itself.
public struct LayoutOptions: Sendable {
    /// The largest scale the tree will be painted at: graph lines through
    /// far more points than pixel columns are reduced to what that many
    /// pixels per point can show (16, the largest scale a scene may ask
    /// for, serves every scale; the tree says whether it reduced anything).
    public var maxScale: Double
    /// Draw long straight graph lines from their M4 reduction (the same
    /// pixels, far faster); off only to compare or measure.
    public var reduceSeries: Bool
    /// Most layout work, in `LayoutWork` units (`Limits.maxLayoutWork`).
    public var maxWork: Double
    public init(maxScale: Double = Limits().maxScale, reduceSeries: Bool = true, maxWork: Double = Limits().maxLayoutWork) {
        self.maxScale = maxScale; self.reduceSeries = reduceSeries; self.maxWork = maxWork
    }
}

/// The layout pass: gives every node a frame and a transform, sizes stacks
/// and shapes text, reduces shapes to paths and places paints — producing,
/// in one pass, the geometry (`LaidOutScene`) and the tree `EaselRender`
/// paints (`RenderTree`).
public enum LayoutEngine {
    public static func layOut(_ scene: Scene, text: TextMeasuring,
                              options: LayoutOptions = LayoutOptions()) -> (layout: LaidOutScene, renderTree: RenderTree) {
        let context = LayoutContext(maxWork: options.maxWork, location: scene.location)
        var resolver = Resolver(definitions: scene.definitions, measurer: ChargedTextMeasuring(base: text, context: context),
                                context: context, options: options, lang: scene.lang)
        resolver.labelLocale = scene.labelLocale
        resolver.colorSpace = scene.colorSpace
        let content = Size(scene.width, scene.height)
        let drafts = scene.nodes.map { resolver.resolve($0, content: content, absoluteOrigin: .zero, placed: nil) }
        var texts: [LaidOutText] = []
        var geometry: [LayoutNode] = []
        var render: [RenderNode] = []
        for draft in drafts {
            let (node, painted) = draft.split(collecting: &texts)
            geometry.append(node)
            if let painted { render.append(painted) }
        }
        var layout = LaidOutScene(location: scene.location, size: content, scale: scene.scale, nodes: geometry,
                                  texts: texts + context.tileTexts, maxScale: options.maxScale,
                                  reducedSeries: context.reducedSeries, work: context.work)
        layout.labelsOutside = context.labelsOutside
        layout.emptyPlots = context.emptyPlots
        layout.squeezedPlots = context.squeezedPlots
        let tree = RenderTree(size: content, background: resolver.paints.painted(scene.background), dither: scene.dither,
                              colorSpace: scene.colorSpace, nodes: render,
                              paints: context.paints, location: scene.location)
        return (layout, tree)
    }

    /// The geometry alone (for tests and tools that paint nothing).
    public static func resolveFrames(_ scene: Scene, text: TextMeasuring, options: LayoutOptions = LayoutOptions()) -> LaidOutScene {
        layOut(scene, text: text, options: options).layout
    }
}
