import FoundationEssentials

/// `<lineGraph>`: a series of values drawn in a plot box (docs/format.md,
/// "Line graphs"), with layers painted in document order.
public struct LineGraph: Hashable, Sendable {
    /// The graph's own series (none when it has `<series>` children). A NaN
    /// is an empty cell kept as a gap (`missing="gap"`); data that reads as
    /// NaN is an error, so NaN means nothing else.
    public var values: [Double]
    public var labels: [String]
    /// Each value's x by value (`x-column`), ascending; nil: by index.
    public var x: [Double]?
    /// Whether `x` holds times (milliseconds since 1970, UTC).
    public var xIsTime = false
    /// As written; `GraphScale` applies the defaults.
    public var min: Double?
    public var max: Double?
    /// Top, right, bottom, left: the plot box inside the frame.
    public var padding = EdgeInsets(top: 60, right: 20, bottom: 50, left: 20)
    /// Whether each side of `padding` grows to fit the axes' ticks and
    /// labels and the legend (no `padding` on a graph with axes or a
    /// legend, or `padding="auto"`).
    public var autoPadding = false
    /// Whether `padding` was written (a plot it leaves no room is an error;
    /// the 1.0 default on a small frame stays as 1.0 drew it).
    public var paddingGiven = false
    /// `y-scale`: how values map to heights.
    public var yScale = GraphScaleKind.linear
    /// `stack`: series stacked in document order.
    public var stack = GraphStacking.none
    /// Layers and `<text>` children, in document order.
    public var items: [GraphEntry] = []

    public init(values: [Double], labels: [String]) {
        self.values = values
        self.labels = labels
    }
}

public struct GraphEntry: Hashable, Sendable {
    public var item: GraphItem
    public var location: SourceLocation
    public init(_ item: GraphItem, at location: SourceLocation) { self.item = item; self.location = location }
}

public enum GraphCurve: String, Hashable, Sendable, CaseIterable { case linear, monotone }

/// `y-scale`: d3-scale's `scaleLinear`, `scaleLog` (base 10) or `scaleSqrt`.
public enum GraphScaleKind: String, Hashable, Sendable, CaseIterable { case linear, log, sqrt }

/// `stack`: d3-shape's `stack` with `stackOffsetNone` (`zero`) or
/// `stackOffsetExpand` (`normalize`), series in document order.
public enum GraphStacking: String, Hashable, Sendable, CaseIterable { case none, zero, normalize }

/// `<bars>`: one bar per value, from zero to the value.
public struct GraphBars: Hashable, Sendable {
    /// The share of its slot a bar (or a group of bars) is wide.
    public var width = 0.8
    public var cornerRadius = 0.0
    public var style: PaintStyle
    public var opacity = 1.0
    /// Whether a gradient spans each bar (`bar`) or the whole plot, each
    /// bar showing its part of it (`plot`, the seed's clipped gradient).
    public var paintBox = BarPaintBox.plot
    public init(style: PaintStyle) { self.style = style }
}

public enum BarPaintBox: String, Hashable, Sendable, CaseIterable { case plot, bar }

/// A rule's or band's label, drawn inside the plot.
public struct GraphMarkLabel: Hashable, Sendable {
    public var text: String
    public var font = FontSpec()
    public var fill: Paint = .color(.black)
    public init(text: String) { self.text = text }
}

/// `<rule>`: a line across the plot at a data value.
public struct GraphRule: Hashable, Sendable {
    public var axis: GraphAxis.Edge
    /// A number, or for the x axis of a time graph milliseconds since 1970.
    public var value: Double
    public var style: PaintStyle
    public var opacity = 1.0
    public var label: GraphMarkLabel?
    public init(axis: GraphAxis.Edge, value: Double, style: PaintStyle) {
        self.axis = axis
        self.value = value
        self.style = style
    }
}

/// `<band>`: the plot filled between two data values.
public struct GraphBand: Hashable, Sendable {
    public var axis: GraphAxis.Edge
    public var from: Double
    public var to: Double
    public var style: PaintStyle
    public var opacity = 1.0
    public var label: GraphMarkLabel?
    public init(axis: GraphAxis.Edge, from: Double, to: Double, style: PaintStyle) {
        self.axis = axis
        self.from = from
        self.to = to
        self.style = style
    }
}

/// `<area to>`: where an area's fill ends below the line.
public enum AreaBase: String, Hashable, Sendable, CaseIterable {
    /// The frame's bottom edge (the seed's geometry, through the label row).
    case frame
    /// The plot's bottom edge.
    case plot
    /// The line of value 0 (wherever it lies: an area of values above 0
    /// with a minimum above 0 reaches below the plot).
    case zero
}

/// `<series>`: a series with its own data and layers.
public struct GraphSeries: Hashable, Sendable {
    public var name: String?
    /// As `LineGraph.values`: NaN is a gap.
    public var values: [Double]
    /// As `LineGraph.x`.
    public var x: [Double]?
    /// Its layers (`area`, `line`, `points`), in document order.
    public var items: [GraphEntry] = []
    public init(name: String?, values: [Double], x: [Double]?) {
        self.name = name
        self.values = values
        self.x = x
    }
}

/// `<xAxis>` and `<yAxis>`.
public struct GraphAxis: Hashable, Sendable {
    public enum Edge: String, Hashable, Sendable, CaseIterable { case x, y }
    public var edge: Edge
    /// About how many ticks (d3's `count`).
    public var ticks = 5
    /// Widen the range to round values first (d3's `nice()`).
    public var nice = true
    /// A printf number conversion, or for a time axis a d3-time-format
    /// specifier; nil: d3's default labels.
    public var format: String?
    public var font = FontSpec()
    public var fill: Paint = .color(.black)
    /// The axis line's and tick marks' stroke.
    public var stroke: PaintStyle
    public var tickSize = 6.0
    public var opacity = 1.0
    public init(edge: Edge, stroke: PaintStyle) {
        self.edge = edge
        self.stroke = stroke
    }
}

/// `<legend>`.
public struct GraphLegend: Hashable, Sendable {
    public enum Position: String, Hashable, Sendable, CaseIterable {
        case topLeading = "top-leading", topTrailing = "top-trailing"
        case bottomLeading = "bottom-leading", bottomTrailing = "bottom-trailing"
    }
    public var position = Position.topLeading
    public var font = FontSpec()
    public var fill: Paint = .color(.black)
    public var opacity = 1.0
    public init() {}
}

public enum GraphItem: Hashable, Sendable {
    /// The region under the line down to `to`.
    case area(PaintStyle, opacity: Double, to: AreaBase)
    case line(PaintStyle, curve: GraphCurve, opacity: Double)
    case points(diameter: Double, PaintStyle, opacity: Double)
    case bars(GraphBars)
    case rule(GraphRule)
    case band(GraphBand)
    /// `count` even lines, or with `ticks` (`ticks="y"`) one at each of the
    /// y axis's ticks.
    case grid(count: Int, PaintStyle, opacity: Double, ticks: Bool)
    case xLabels(font: FontSpec, fill: Paint, offset: Double, opacity: Double)
    case yLabels(font: FontSpec, fill: Paint, format: String?, opacity: Double)
    /// A `<text>` child, laid out as in a view, its `{max}`… already filled in.
    case text(Node)
    case axis(GraphAxis)
    case legend(GraphLegend)
    case series(GraphSeries)

    /// Whether this is a layer element (text, axes, legends and series do not count).
    public var isLayer: Bool {
        switch self {
        case .text, .axis, .legend, .series: return false
        default: return true
        }
    }

    /// Whether this is a `<rule>` or a `<band>`.
    public var isReferenceMark: Bool {
        switch self {
        case .rule, .band: return true
        default: return false
        }
    }

    /// Whether this draws a series' data (area, line, points, bars).
    public var isSeriesLayer: Bool {
        switch self {
        case .area, .line, .points, .bars: return true
        default: return false
        }
    }
}

extension LineGraph {
    /// Its `<series>`, in document order.
    public var series: [GraphSeries] {
        items.compactMap { if case .series(let s) = $0.item { return s } else { return nil } }
    }

    /// Every value drawn: the graph's own and its series', gaps left out.
    public var allValues: [Double] {
        (values + series.flatMap(\.values)).filter { !$0.isNaN }
    }

    /// Whether any series (or the graph itself) draws bars: then every
    /// series is placed by band (a slot per value).
    public var hasBars: Bool {
        items.contains { entry in
            if case .bars = entry.item { return true }
            if case .series(let s) = entry.item { return s.items.contains { if case .bars = $0.item { return true } else { return false } } }
            return false
        }
    }

    public func axis(_ edge: GraphAxis.Edge) -> GraphAxis? {
        for entry in items { if case .axis(let a) = entry.item, a.edge == edge { return a } }
        return nil
    }
}

/// The numbers a graph's text can show, and how they are written.
public enum GraphStatistics {
    public static func value(_ name: String, of values: [Double]) -> Double? {
        guard names.contains(name) else { return nil }
        let values = values.filter { !$0.isNaN }
        guard !values.isEmpty else { return nil }
        switch name {
        case "max": return values.max()
        case "min": return values.min()
        case "sum": return values.reduce(0, +)
        case "average": return values.reduce(0, +) / Double(values.count)
        case "count": return Double(values.count)
        case "last": return values.last
        default: return nil
        }
    }

    public static let names = ["max", "min", "average", "sum", "count", "last"]

    /// A graph's statistics, each found once however many texts and
    /// placeholders ask for it (each reads every value).
    public final class Table {
        private let values: [Double]
        private var found: [String: Double?] = [:]
        public init(_ values: [Double]) { self.values = values }
        public func value(_ name: String) -> Double? {
            if let hit = found[name] { return hit }
            let v = GraphStatistics.value(name, of: values)
            found[name] = .some(v)
            return v
        }
    }

    /// With `format` (a printf conversion the parser has checked to be one
    /// %[flags][width][.precision] f, e or g), that; else the shortest form.
    public static func format(_ v: Double, _ format: String?) -> String {
        guard let format else { return shortest(v) }
        return CFormat.string(format, v)
    }

    /// The shortest form that round-trips: `4.571428571428571`, `8`.
    public static func shortest(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }
}
