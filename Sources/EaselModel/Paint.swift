/// What fills or strokes a shape: nothing, a colour, or a paint server in
/// `<defs>` named by `url(#id)`.
public enum Paint: Hashable, Sendable {
    case none
    case color(Color)
    case reference(String)
}

public enum FillRule: String, Hashable, Sendable, CaseIterable { case nonzero, evenodd }
public enum LineCap: String, Hashable, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Hashable, Sendable, CaseIterable { case miter, round, bevel }

/// Fill and stroke attributes shared by shapes and boxes.
public struct PaintStyle: Hashable, Sendable {
    public var fill: Paint
    public var stroke: Paint = .none
    public var strokeWidth: Double = 1
    public var fillOpacity: Double = 1
    public var strokeOpacity: Double = 1
    public var lineCap: LineCap = .butt
    public var lineJoin: LineJoin = .miter
    public var miterLimit: Double = 4
    public var dash: [Double] = []
    public var dashOffset: Double = 0
    public var fillRule: FillRule = .nonzero
    /// Only read for shapes inside a `<clipPath>`.
    public var clipRule: FillRule = .nonzero

    /// Shapes fill black by default, as in SVG; boxes paint nothing.
    public init(fill: Paint) { self.fill = fill }
}
