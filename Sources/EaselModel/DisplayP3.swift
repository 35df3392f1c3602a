import Glibc

/// `<scene color-space>`: the space a picture is painted and written in.
public enum SceneColorSpace: String, Hashable, Sendable, CaseIterable {
    case srgb
    case displayP3 = "display-p3"
}

/// Conversions between sRGB, Display P3 and OKLab/OKLCh, as CSS Color 4
/// defines them (§10.2 sRGB, §10.4 display-p3, §9.2 OKLab; the matrices
/// are the specification's sample code, D65 throughout). A `Color` is sRGB;
/// a colour outside sRGB keeps its components outside 0…1 ("extended"
/// sRGB), so every colour a scene can write has one exact `Color`.
public enum DisplayP3 {
    /// sRGB's transfer function, extended to negative values and values
    /// above 1 by symmetry, as CSS Color 4's `lin_sRGB` does.
    public static func toLinear(_ c: Double) -> Double {
        let a = abs(c)
        let v = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return c < 0 ? -v : v
    }

    public static func toGamma(_ c: Double) -> Double {
        let a = abs(c)
        let v = a <= 0.0031308 ? 12.92 * a : 1.055 * pow(a, 1 / 2.4) - 0.055
        return c < 0 ? -v : v
    }

    // CSS Color 4 §18 (sample code): linear sRGB ↔ XYZ-D65 ↔ linear P3.
    static let linearSRGBToXYZ: [[Double]] = [
        [0.41239079926595934, 0.357584339383878, 0.1804807884018343],
        [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
        [0.01933081871559182, 0.11919477979462598, 0.9505321522496607],
    ]
    static let xyzToLinearSRGB: [[Double]] = [
        [3.2409699419045226, -1.537383177570094, -0.4986107602930034],
        [-0.9692436362808796, 1.8759675015077202, 0.04155505740717559],
        [0.05563007969699366, -0.20397695888897652, 1.0569715142428786],
    ]
    public static let linearP3ToXYZ: [[Double]] = [
        [0.48657094864821626, 0.26566769316909294, 0.1982172852343625],
        [0.22897456406974884, 0.6917385218365062, 0.079286914093745],
        [0.0, 0.045113381858902575, 1.0439443689009757],
    ]
    static let xyzToLinearP3: [[Double]] = [
        [2.4934969119414245, -0.9313836179191236, -0.40271078445071684],
        [-0.8294889695615749, 1.7626640603183468, 0.02362468584194358],
        [0.03584583024378433, -0.07617238926804171, 0.9568845240076873],
    ]

    /// Linear sRGB to linear Display P3 in one matrix (XYZ_to_lin_P3 ·
    /// lin_sRGB_to_XYZ), rows as tuples.
    public static let linearSRGBToLinearP3: ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double)) = {
        let m = product(xyzToLinearP3, linearSRGBToXYZ)
        return ((m[0][0], m[0][1], m[0][2]), (m[1][0], m[1][1], m[1][2]), (m[2][0], m[2][1], m[2][2]))
    }()

    /// Linear Display P3 to linear sRGB in one matrix.
    static let linearP3ToLinearSRGB: ((Double, Double, Double), (Double, Double, Double), (Double, Double, Double)) = {
        let m = product(xyzToLinearSRGB, linearP3ToXYZ)
        return ((m[0][0], m[0][1], m[0][2]), (m[1][0], m[1][1], m[1][2]), (m[2][0], m[2][1], m[2][2]))
    }()

    public static func product(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    public static func multiply(_ m: [[Double]], _ v: [Double]) -> [Double] {
        m.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] }
    }

    /// The sRGB colour (extended) of Display P3 components.
    public static func srgb(fromP3 r: Double, _ g: Double, _ b: Double, alpha: Double = 1) -> Color {
        let x = toLinear(r), y = toLinear(g), z = toLinear(b)
        let m = linearP3ToLinearSRGB
        return Color(red: toGamma(m.0.0 * x + m.0.1 * y + m.0.2 * z), green: toGamma(m.1.0 * x + m.1.1 * y + m.1.2 * z),
                     blue: toGamma(m.2.0 * x + m.2.1 * y + m.2.2 * z), alpha: alpha)
    }

    /// Display P3 components (extended) of an sRGB colour, alpha kept:
    /// one fused matrix, no arrays (asked once per colour a P3 scene paints).
    public static func p3(fromSRGB c: Color) -> Color {
        let r = toLinear(c.red), g = toLinear(c.green), b = toLinear(c.blue)
        let m = linearSRGBToLinearP3
        return Color(red: toGamma(m.0.0 * r + m.0.1 * g + m.0.2 * b), green: toGamma(m.1.0 * r + m.1.1 * g + m.1.2 * b),
                     blue: toGamma(m.2.0 * r + m.2.1 * g + m.2.2 * b), alpha: c.alpha)
    }

    /// Björn Ottosson's OKLab from linear sRGB (the matrices CSS Color 4
    /// §9.2 composes with XYZ, here folded into one step as in his post).
    public static func oklab(fromLinear c: [Double]) -> [Double] {
        let l = 0.4122214708 * c[0] + 0.5363325363 * c[1] + 0.0514459929 * c[2]
        let m = 0.2119034982 * c[0] + 0.6806995451 * c[1] + 0.1073969566 * c[2]
        let s = 0.0883024619 * c[0] + 0.2817188376 * c[1] + 0.6299787005 * c[2]
        let l_ = cbrt(l), m_ = cbrt(m), s_ = cbrt(s)
        return [0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_]
    }

    public static func linear(fromOklab v: [Double]) -> [Double] {
        let l_ = v[0] + 0.3963377774 * v[1] + 0.2158037573 * v[2]
        let m_ = v[0] - 0.1055613458 * v[1] - 0.0638541728 * v[2]
        let s_ = v[0] - 0.0894841775 * v[1] - 1.2914855480 * v[2]
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        return [4.0767416621 * l - 3.3077118276 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s]
    }

    /// OKLab of an sRGB colour; the same arithmetic as `oklab(fromLinear:)`
    /// without arrays (the gamut search asks it thousands of times).
    public static func oklab(of c: Color) -> (l: Double, a: Double, b: Double) {
        let r = toLinear(c.red), g = toLinear(c.green), b = toLinear(c.blue)
        let l_ = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m_ = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s_ = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return (0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)
    }

    /// `oklch(L C H)`: L 0…1, C ≥ 0, H in degrees.
    public static func srgb(fromOklch l: Double, _ c: Double, _ h: Double, alpha: Double = 1) -> Color {
        let radians = h * Double.pi / 180
        let a = c * cos(radians), b = c * sin(radians)
        let l_ = l + 0.3963377774 * a + 0.2158037573 * b
        let m_ = l - 0.1055613458 * a - 0.0638541728 * b
        let s_ = l - 0.0894841775 * a - 1.2914855480 * b
        let x = l_ * l_ * l_, y = m_ * m_ * m_, z = s_ * s_ * s_
        return Color(red: toGamma(4.0767416621 * x - 3.3077118276 * y + 0.2309699292 * z),
                     green: toGamma(-1.2684380046 * x + 2.6097574011 * y - 0.3413193965 * z),
                     blue: toGamma(-0.0041960863 * x - 0.7034186147 * y + 1.7076147010 * z), alpha: alpha)
    }

    /// L, C, H (degrees, 0…360) of an sRGB colour.
    public static func oklch(of c: Color) -> (l: Double, c: Double, h: Double) {
        let lab = oklab(of: c)
        var h = atan2(lab.b, lab.a) * 180 / Double.pi
        if h < 0 { h += 360 }
        return (lab.l, (lab.a * lab.a + lab.b * lab.b).squareRoot(), h)
    }

    /// Components this close outside 0…1 are rounding, not colour: a
    /// Display P3 colour inside sRGB converts to within 1e-15 of its bounds.
    static let gamutEpsilon = 1e-6

    /// Asked of every colour a scene paints (a million solid fills): no
    /// conversion and no allocation for the sRGB case.
    public static func isInside(_ c: Color, _ space: SceneColorSpace) -> Bool {
        @inline(__always) func within(_ x: Double) -> Bool { x >= -gamutEpsilon && x <= 1 + gamutEpsilon }
        if within(c.red), within(c.green), within(c.blue) { return true }
        guard space == .displayP3 else { return false }
        let v = p3(fromSRGB: c)
        return within(v.red) && within(v.green) && within(v.blue)
    }
}
