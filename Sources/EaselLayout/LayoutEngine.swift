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
/// and shapes text, reduces shapes to paths and places paints, producing
/// the tree `EaselRender` paints.
public enum LayoutEngine {
    public static func resolveFrames(_ scene: Scene, text: TextMeasuring, options: LayoutOptions = LayoutOptions()) -> LaidOutScene {
        let context = LayoutContext(maxWork: options.maxWork, location: scene.location)
        let resolver = Resolver(definitions: scene.definitions, measurer: ChargedTextMeasuring(base: text, context: context),
                                context: context, options: options, lang: scene.lang)
        let content = Size(scene.width, scene.height)
        let drafts = scene.nodes.map { resolver.resolve($0, content: content, absoluteOrigin: .zero, placed: nil) }
        return LaidOutScene(location: scene.location, size: content, scale: scene.scale, background: scene.background,
                            dither: scene.dither, drafts: drafts, tileTexts: context.tileTexts, paints: context.paints,
                            maxScale: options.maxScale, reducedSeries: context.reducedSeries, work: context.work)
    }
}
