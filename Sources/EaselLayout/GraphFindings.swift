import EaselModel

// What laying graphs out found that the compile reports: labels outside
// the frame, plots with no room, plots squeezed to fit (`LaidOutScene`).

/// A graph label drawn outside its graph's frame: told as a warning.
public struct LabelOutside: Hashable, Sendable {
    public var text: String
    public var location: SourceLocation
    /// Whether the graph's padding was grown to fit (and the frame is too
    /// small even so), rather than given.
    public var autoPadding: Bool
}

/// A graph whose explicit padding leaves its plot no width or height:
/// an error (docs/format.md, `<lineGraph>`).
public struct EmptyPlot: Hashable, Sendable {
    public var location: SourceLocation
    public var frame: Size
    public var padding: EdgeInsets
}

/// A graph whose frame is smaller than the padding its axes and legend
/// need (`padding` grown to fit): the padding is scaled down to leave a
/// plot of a point; a warning.
public struct SqueezedPlot: Hashable, Sendable {
    public var location: SourceLocation
    public var frame: Size
    public var needed: EdgeInsets
}
