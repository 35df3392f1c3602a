import Foundation

/// `<lineGraph>`: a series of values drawn in a plot box (docs/format.md,
/// "Line graphs"), with layers painted in document order.
public struct LineGraph: Hashable, Sendable {
    public var values: [Double]
    public var labels: [String]
    /// As written; `GraphScale` applies the defaults.
    public var min: Double?
    public var max: Double?
    /// Top, right, bottom, left: the plot box inside the frame.
    public var padding = EdgeInsets(top: 60, right: 20, bottom: 50, left: 20)
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

public enum GraphItem: Hashable, Sendable {
    /// The region under the line down to `to`.
    case area(PaintStyle, opacity: Double, to: AreaBase)
    case line(PaintStyle, curve: GraphCurve, opacity: Double)
    case points(diameter: Double, PaintStyle, opacity: Double)
    case grid(count: Int, PaintStyle, opacity: Double)
    case xLabels(font: FontSpec, fill: Paint, offset: Double, opacity: Double)
    case yLabels(font: FontSpec, fill: Paint, format: String?, opacity: Double)
    /// A `<text>` child, laid out as in a view, its `{max}`… already filled in.
    case text(Node)

    /// Whether this is one of the six layer elements (text does not count).
    public var isLayer: Bool {
        if case .text = self { return false }
        return true
    }
}

/// The numbers a graph's text can show, and how they are written.
public enum GraphStatistics {
    public static func value(_ name: String, of values: [Double]) -> Double? {
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

    /// With `format` (a printf conversion the parser has checked to be one
    /// %[flags][width][.precision] f, e or g), that; else the shortest form.
    public static func format(_ v: Double, _ format: String?) -> String {
        guard let format else { return shortest(v) }
        return String(format: format, v)
    }

    /// The shortest form that round-trips: `4.571428571428571`, `8`.
    public static func shortest(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return "\(v)"
    }
}
