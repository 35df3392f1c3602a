import EaselModel

/// The painting work a render may still do, shared with the painters of
/// pattern tiles, in paint units (`PaintCost`); and the pixels that
/// translucent groups and clip masks hold at once, bounded so that deep
/// nesting cannot take memory without end (each level is a surface the
/// size of its clip).
final class PaintBudget {
    var remaining: Double
    let limit: Double
    var exceededAt: SourceLocation?
    /// The nesting of groups, not the budget, stopped painting.
    var groupsTooDeep = false
    var liveGroupPixels = 0.0
    let maxGroupPixels: Double
    init(limit: Double, maxGroupPixels: Double = .infinity) {
        self.limit = limit
        remaining = limit
        self.maxGroupPixels = maxGroupPixels
    }
}
