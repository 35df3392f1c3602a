import EaselModel

/// What one layout accumulates: the paint table, and laid-out pattern tiles
/// by pattern and tile size (a tile's content does not depend on where it
/// is used, so each is resolved once). Lives for one `resolveFrames` call.
final class LayoutContext {
    init(maxWork: Double, location: SourceLocation) { self.maxWork = maxWork; self.current = location }
    var paints = PaintTable()
    /// Each distinct placed paint's entry (nil: it paints nothing).
    var paintIDs: [PaintUse: PaintID?] = [:]
    /// Sizes by node and proposal: a stack measures a child at more than
    /// one proposal and measuring a stack arranges its children, so
    /// without it nested stacks cost time exponential in their depth
    /// (SwiftUI and Yoga keep the same cache). Nodes are told apart by
    /// their `NodeID`.
    var measured: [MeasureKey: Size] = [:]
    var work = LayoutWork()
    let maxWork: Double
    /// The node being laid out or measured, where an exhausted budget is reported.
    var current: SourceLocation
    var exhausted: Bool { work.exhaustedAt != nil }

    /// Charges `units`; false (and from then on always false) once the
    /// budget is spent.
    func charge(_ units: Double) -> Bool {
        guard !exhausted else { return false }
        work.charged += units
        if work.charged > maxWork { work.exhaustedAt = current }
        return !exhausted
    }
    /// Pattern tiles laid out, by pattern and tile size, as render nodes,
    /// numbered in the order they were laid out (`PatternFill.tileIndex`).
    var tiles: [TileKey: (index: Int, content: [RenderNode])] = [:]
    /// The texts inside those tiles, once per tile laid out.
    var tileTexts: [LaidOutText] = []
    let resolvedStops = ResolvedStops()
    let paintedColors = PaintedColors()
    /// Clip paths resolved in this pass, by id and box size.
    var clips: [ClipKey: ResolvedClip?] = [:]
    var reducedSeries = false
    /// Axis and legend labels past their graph's frame.
    var labelsOutside: [LabelOutside] = []
    /// Graphs whose padding leaves no plot.
    var emptyPlots: [EmptyPlot] = []
    /// Graphs too small for the padding their labels need.
    var squeezedPlots: [SqueezedPlot] = []
    /// `fit="shrink"` results by text and box: stacks measure a text more
    /// than once, and each fit shapes it several times.
    var fits: [FitKey: TextFitter.Result] = [:]
}

struct ClipKey: Hashable {
    var id: String
    var width: Double
    var height: Double
}

struct PaintUse: Hashable {
    var paint: Paint
    var opacity: Double
    var box: Rect
}

struct TileKey: Hashable {
    var pattern: String
    var width: Double
    var height: Double
}

struct MeasureKey: Hashable {
    var node: NodeID
    var width: Double?
    var height: Double?
}

struct FitKey: Hashable {
    var style: TextStyle
    var width: Double
    var height: Double?
}
