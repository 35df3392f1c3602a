/// Gradient geometry is in the painted thing's unit box unless
/// `units="userSpace"` puts it in the node's own points.
public enum GradientUnits: String, Hashable, Sendable { case objectBoundingBox, userSpace }

public enum SpreadMethod: String, Hashable, Sendable, CaseIterable { case pad, `repeat`, reflect }

public enum ColorInterpolation: String, Hashable, Sendable, CaseIterable {
    case srgb
    case linearSRGB = "linear-srgb"
    case oklab
}

public struct GradientStop: Hashable, Sendable {
    /// `nil` when the attribute was omitted; see `resolvedOffsets`.
    public var offset: Double?
    public var color: Color
    public var location: SourceLocation?
    public init(offset: Double?, color: Color, location: SourceLocation? = nil) {
        self.offset = offset; self.color = color; self.location = location
    }
}

/// How a linear gradient's axis was written; all forms reduce to two points
/// in the unit box (see `LinearGradient.unitEndpoints`).
public enum LinearGeometry: Hashable, Sendable {
    /// Degrees anticlockwise from east, y up (270 = top to bottom).
    case angle(Double)
    case points(start: Point, end: Point)
}

public struct LinearGradient: Hashable, Sendable {
    public var geometry: LinearGeometry = .angle(270)
    public var stops: [GradientStop] = []
    public var spread: SpreadMethod = .pad
    public var units: GradientUnits = .objectBoundingBox
    public var interpolation: ColorInterpolation = .srgb
    public var transform: AffineTransform = .identity
    public init() {}
}

/// A reusable paint in `<defs>`. Radial, conic, patterns and animated
/// gradients join this enum as they land.
public enum PaintServer: Hashable, Sendable {
    case linear(LinearGradient)
}

public struct PaintServerDefinition: Hashable, Sendable {
    public var id: String
    public var server: PaintServer
    public var location: SourceLocation
    public init(id: String, server: PaintServer, location: SourceLocation) {
        self.id = id; self.server = server; self.location = location
    }
}
