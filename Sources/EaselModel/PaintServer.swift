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

/// What every gradient kind has: its stops and how they are painted.
public struct GradientBase: Hashable, Sendable {
    public var stops: [GradientStop] = []
    public var spread: SpreadMethod = .pad
    public var units: GradientUnits = .objectBoundingBox
    public var interpolation: ColorInterpolation = .srgb
    public var transform: AffineTransform = .identity
    public init() {}
}

public struct LinearGradient: Hashable, Sendable {
    public var geometry: LinearGeometry = .angle(270)
    /// Stops, spread, units, interpolation and transform.
    public var base = GradientBase()
    public init() {}
}

/// `<radialGradient center radius focus>`: offset 0 at the focus (default
/// the centre), 1 on the ellipse of radii `radius` × box size.
public struct RadialGradient: Hashable, Sendable {
    /// `nil`: the box's centre (0.5 0.5 in unit space).
    public var center: Point?
    /// `nil`: 0.5 in unit space; half the box's smaller side in user space.
    public var radius: Double?
    public var focus: Point?
    /// Stops, spread, units, interpolation and transform.
    public var base = GradientBase()
    public init() {}
}

/// `<conicGradient center from>`: offset 0 at angle `from` (degrees
/// anticlockwise from east, y up, so 90 is north), growing clockwise on
/// screen to 1 after a full turn. Angles are measured in points, unstretched.
public struct ConicGradient: Hashable, Sendable {
    public var center: Point?
    public var from: Double = 90
    /// Stops, spread, units, interpolation and transform.
    public var base = GradientBase()
    public init() {}
}

/// `<pattern width height units>`: its children painted into one tile,
/// repeated from the painted box's top-left corner.
public struct PatternTile: Hashable, Sendable {
    public var width: Double
    public var height: Double
    /// `userSpace` (default): the tile is `width`×`height` points;
    /// `objectBoundingBox`: fractions of the painted box.
    public var units: GradientUnits = .userSpace
    public var transform: AffineTransform = .identity
    public var children: [Node] = []
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// `<stripes spacing line-width angle color background>`: parallel lines
/// `spacing` points apart, one centre line through the box's top-left.
public struct Stripes: Hashable, Sendable {
    public var spacing: Double = 8
    public var lineWidth: Double = 1
    /// The gradient angle convention: 45 runs from bottom-left to top-right.
    public var angle: Double = 45
    public var color: Color = .white
    public var background: Color? = nil
    public init() {}
}

/// `<animatedGradient>`: two or more keyframe gradients of any kind
/// (`.linear`, `.radial` or `.conic`), played by `clock`.
public struct AnimatedGradient: Hashable, Sendable {
    public var keyframes: [PaintServer]
    public var clock: AnimationClock
    public init(keyframes: [PaintServer], clock: AnimationClock) { self.keyframes = keyframes; self.clock = clock }
}

/// A reusable paint in `<defs>`.
public enum PaintServer: Hashable, Sendable {
    case linear(LinearGradient)
    case radial(RadialGradient)
    case conic(ConicGradient)
    case pattern(PatternTile)
    case stripes(Stripes)
    case animated(AnimatedGradient)
}

public struct PaintServerDefinition: Hashable, Sendable {
    public var id: String
    public var server: PaintServer
    public var location: SourceLocation
    public init(id: String, server: PaintServer, location: SourceLocation) {
        self.id = id; self.server = server; self.location = location
    }
}
