import FoundationEssentials
import Glibc

/// A 2-D affine map `(x, y) ↦ (a·x + c·y + tx, b·x + d·y + ty)`, the layout of
/// SVG's `matrix(a b c d e f)` and Cairo's `cairo_matrix_t`.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> AffineTransform {
        AffineTransform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Positive degrees turn clockwise on screen because y grows downwards.
    public static func rotation(degrees: Double) -> AffineTransform {
        let r = degrees * .pi / 180
        let (s, c) = (exactSin(r, degrees), exactCos(r, degrees))
        return AffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    public static func skewX(degrees: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: tan(degrees * .pi / 180), d: 1, tx: 0, ty: 0)
    }

    public static func skewY(degrees: Double) -> AffineTransform {
        AffineTransform(a: 1, b: tan(degrees * .pi / 180), c: 0, d: 1, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    /// `self · other`: applies `other` first, then `self` — the order of an
    /// SVG transform list, where `"A B"` maps points through B, then A.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + c * other.b,
            b: b * other.a + d * other.b,
            c: a * other.c + c * other.d,
            d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx,
            ty: b * other.tx + d * other.ty + ty)
    }

    public func apply(_ p: Point) -> Point {
        Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    public var determinant: Double { a * d - b * c }

    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// This transform applied about `origin` instead of (0,0).
    public func about(_ origin: Point) -> AffineTransform {
        guard origin != .zero else { return self }
        return AffineTransform.translation(origin.x, origin.y)
            .concatenating(self)
            .concatenating(.translation(-origin.x, -origin.y))
    }

    public var description: String { "matrix(\(a) \(b) \(c) \(d) \(tx) \(ty))" }

    // Multiples of 90° give exact zeros, so rotated rectangles stay pixel-aligned.
    private static func exactSin(_ r: Double, _ deg: Double) -> Double {
        let q = deg.truncatingRemainder(dividingBy: 90) == 0
        return q ? sin(r).rounded() : sin(r)
    }
    private static func exactCos(_ r: Double, _ deg: Double) -> Double {
        let q = deg.truncatingRemainder(dividingBy: 90) == 0
        return q ? cos(r).rounded() : cos(r)
    }
}
