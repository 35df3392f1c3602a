import EaselModel
import Glibc

/// An affine transform as Android `<group>` attributes. A group scales,
/// then rotates, then translates (about a pivot, 0 here) and has no skew,
/// so a transform with skew is two groups: the singular value
/// decomposition R(θ1)·S(σ1, σ2)·R(θ2), the outer group translating,
/// rotating by θ1 and scaling, the inner one rotating by θ2.
struct AndroidGroupTransform: Equatable {
    var translateX = 0.0, translateY = 0.0
    /// Degrees, clockwise on screen (y down), as Android's `rotation`.
    var rotation = 0.0
    var scaleX = 1.0, scaleY = 1.0

    /// The groups, outer first, that together apply `m` (none for the identity).
    static func groups(for m: AffineTransform) -> [AndroidGroupTransform] {
        guard !m.isIdentity else { return [] }
        // One group when the columns are orthogonal: R(θ)·S(sx, sy).
        let theta = atan2(m.b, m.a)
        let sx = hypot(m.a, m.b)
        let sy = -m.c * sin(theta) + m.d * cos(theta)
        let scale = max(abs(m.a), abs(m.b), abs(m.c), abs(m.d), 1e-300)
        if abs(m.c + sy * sin(theta)) <= 1e-12 * scale, abs(m.d - sy * cos(theta)) <= 1e-12 * scale {
            return [AndroidGroupTransform(translateX: m.tx, translateY: m.ty, rotation: degrees(theta), scaleX: sx, scaleY: sy)]
        }
        // Blinn's closed form for a 2×2 SVD: [a c; b d] = R(θ1)·diag(σ1, σ2)·R(θ2).
        let e = (m.a + m.d) / 2, f = (m.a - m.d) / 2, g = (m.b + m.c) / 2, h = (m.b - m.c) / 2
        let q = hypot(e, h), r = hypot(f, g)
        let a1 = atan2(g, f), a2 = atan2(h, e)
        let theta2 = (a2 - a1) / 2, theta1 = (a2 + a1) / 2
        return [
            AndroidGroupTransform(translateX: m.tx, translateY: m.ty, rotation: degrees(theta1), scaleX: q + r, scaleY: q - r),
            AndroidGroupTransform(rotation: degrees(theta2)),
        ]
    }

    /// What the group applies: T·R·S.
    var matrix: AffineTransform {
        let r = rotation * .pi / 180
        return AffineTransform(a: cos(r) * scaleX, b: sin(r) * scaleX, c: -sin(r) * scaleY, d: cos(r) * scaleY,
                               tx: translateX, ty: translateY)
    }

    /// ` android:…="…"` for every attribute away from its default.
    var attributes: String {
        var s = ""
        func add(_ name: String, _ v: Double, _ standard: Double) {
            let text = VectorDrawableNumber.format(v)
            if text != VectorDrawableNumber.format(standard) { s += " android:\(name)=\"\(text)\"" }
        }
        add("translateX", translateX, 0); add("translateY", translateY, 0)
        add("rotation", rotation, 0)
        add("scaleX", scaleX, 1); add("scaleY", scaleY, 1)
        return s
    }

    private static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}

/// Numbers as a VectorDrawable holds them: Android reads every number into
/// a 32-bit float, so each is written as the shortest text that reads back
/// as that float, without exponents.
enum VectorDrawableNumber {
    static func format(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let f = Float(v)
        if f == 0 { return "0" }
        if abs(f) >= 1e-4, abs(f) < 1e7 {
            var s = "\(f)"
            if !s.contains("e") {
                if s.hasSuffix(".0") { s.removeLast(2) }
                return s
            }
        }
        return SVGNumber.format(Double(f), places: 6)
    }
}
