import EaselModel

/// A paint ready to hand to the renderer: a colour, or a shading whose
/// geometry is already in the node's own points.
public struct ResolvedPaint: Sendable {
    public enum Kind: Sendable {
        case solid(Color)
        case linear(LinearShading)
        case radial(RadialShading)
        case conic(ConicShading)
        case pattern(PatternFill)
        case stripes(StripesFill)
        /// Two keyframes of different kinds at progress p: (1−p)·A + p·B.
        indirect case crossFade(ResolvedPaint, ResolvedPaint, Double)
    }
    public var kind: Kind
    /// `fill-opacity`/`stroke-opacity`, applied on top of the paint.
    public var opacity: Double
    public init(kind: Kind, opacity: Double) { self.kind = kind; self.opacity = opacity }
}

/// A linear gradient in the node's own points: `start`/`end` are in
/// gradient space, which `matrix` maps into the node's own space.
public struct LinearShading: Sendable, Hashable {
    public var start: Point
    public var end: Point
    /// Stops as Cairo should receive them (extra stops already inserted so
    /// that Cairo's straight sRGB interpolation matches the contract's).
    public var stops: [ShadingStop]
    public var spread: SpreadMethod
    public var matrix: AffineTransform
    /// Stops for dithered PNG output (`StopResolution.rasterStops`); nil:
    /// `stops` serve.
    public var rasterStops: [ShadingStop]? = nil

    public init(start: Point, end: Point, stops: [ShadingStop], spread: SpreadMethod, matrix: AffineTransform,
                rasterStops: [ShadingStop]? = nil) {
        self.start = start; self.end = end; self.stops = stops; self.spread = spread; self.matrix = matrix
        self.rasterStops = rasterStops
    }

    /// Offsets 0 and 1 in the node's own space, with no matrix: an affine
    /// map of a linear gradient is a linear gradient, its offset an affine
    /// function of the point whose gradient vector gives the direction and
    /// length. Nil when `start` and `end` meet or the matrix is singular.
    public var ownSpaceLine: (start: Point, end: Point)? {
        guard let inverse = matrix.inverted else { return nil }
        let dx = end.x - start.x, dy = end.y - start.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0 else { return nil }
        let gx = (inverse.a * dx + inverse.b * dy) / len2, gy = (inverse.c * dx + inverse.d * dy) / len2
        let n2 = gx * gx + gy * gy
        guard n2 > 0, n2.isFinite else { return nil }
        let a = matrix.apply(start)
        return (a, Point(a.x + gx / n2, a.y + gy / n2))
    }
}

/// A radial gradient in gradient space: offset 0 at `focus`, 1 on the
/// circle (`center`, `radius`); `matrix` maps gradient space into the node's
/// own space (for unit-box geometry it stretches the circle to an ellipse).
public struct RadialShading: Sendable, Hashable {
    public var center: Point
    public var radius: Double
    public var focus: Point
    public var stops: [ShadingStop]
    public var spread: SpreadMethod
    public var matrix: AffineTransform
    /// Stops for dithered PNG output (`StopResolution.rasterStops`); nil:
    /// `stops` serve.
    public var rasterStops: [ShadingStop]? = nil

    public init(center: Point, radius: Double, focus: Point, stops: [ShadingStop], spread: SpreadMethod, matrix: AffineTransform,
                rasterStops: [ShadingStop]? = nil) {
        self.center = center; self.radius = radius; self.focus = focus; self.stops = stops; self.spread = spread
        self.matrix = matrix; self.rasterStops = rasterStops
    }
}

/// A sweep around `center` (gradient space, in points), made of sectors
/// over which colour changes linearly with the angle; `matrix` maps
/// gradient space into the node's own space.
public struct ConicShading: Sendable, Hashable {
    public var center: Point
    public var sectors: [ConicSector]
    public var matrix: AffineTransform
    /// Where offset 0 is (degrees, the `angle` convention) and how stops
    /// repeat: what `sectors` were made from, kept for animation.
    public var from: Double
    public var spread: SpreadMethod
    /// Sectors for dithered PNG output, from `StopResolution.rasterStops`;
    /// nil: `sectors` serve.
    public var rasterSectors: [ConicSector]? = nil
}

/// Part of a turn: from `start` to `end` (fractions of a turn, clockwise on
/// screen from the gradient's `from`), colours linear in between.
public struct ConicSector: Sendable, Hashable {
    public var startAngle: Double   // radians, screen convention (y down)
    public var endAngle: Double
    public var startColor: Color
    public var endColor: Color
}

/// A `<pattern>` tile: `content` laid out in a `tile`-sized box, repeated;
/// `matrix` maps pattern space (tile grid origin at 0,0) into own space.
public struct PatternFill: Sendable {
    public var tile: Size
    public var matrix: AffineTransform
    /// Which laid-out tile `content` is, within its tree: fills with one
    /// index paint the same tile, which a backend makes once.
    public var tileIndex: Int
    /// The tile's content as the backends paint it.
    public var content: [RenderNode]
}

/// `<stripes>`: lines `spacing` apart along `direction` (a unit vector in
/// own space), one centre line through `origin`.
public struct StripesFill: Sendable, Hashable {
    public var origin: Point
    public var direction: Point
    public var spacing: Double
    public var lineWidth: Double
    public var color: Color
    public var background: Color?
}

public struct ShadingStop: Sendable, Hashable {
    public var offset: Double
    public var color: Color
    public init(offset: Double, color: Color) { self.offset = offset; self.color = color }
}
