import EaselModel
import FoundationEssentials
import Glibc

/// Colour interpolation as the contract defines it: premultiplied, in sRGB
/// (default), linear sRGB or OKLab (CSS Color 4 §12.3 and §9.2).
public enum ColorSpaces {
    public static func interpolate(_ a: Color, _ b: Color, _ t: Double, in space: ColorInterpolation) -> Color {
        let c = interpolateUnclamped(a, b, t, in: space)
        return Color(red: clamp(c.red), green: clamp(c.green), blue: clamp(c.blue), alpha: c.alpha)
    }

    /// Clamped (sRGB output) or not: a Display P3 scene's colours are
    /// extended sRGB, brought into P3 after interpolating.
    public static func interpolate(_ a: Color, _ b: Color, _ t: Double, in space: ColorInterpolation, clamped: Bool) -> Color {
        clamped ? interpolate(a, b, t, in: space) : interpolateUnclamped(a, b, t, in: space)
    }

    /// The interpolated colour as extended sRGB (components may leave 0…1).
    public static func interpolateUnclamped(_ a: Color, _ b: Color, _ t: Double, in space: ColorInterpolation) -> Color {
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        // Fully transparent: keep the colour of the side that has one, the
        // limit of premultiplied interpolation as alpha goes to 0.
        guard alpha > 0 else { return (a.alpha == 0 ? b : a).withAlpha(0) }
        let ca = toSpace(a, space), cb = toSpace(b, space)
        var out = [0.0, 0.0, 0.0]
        for i in 0..<3 {
            out[i] = (ca[i] * a.alpha + (cb[i] * b.alpha - ca[i] * a.alpha) * t) / alpha
        }
        let rgb = fromSpace(out, space)
        return Color(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: alpha)
    }

    static func clamp(_ v: Double) -> Double { max(0, min(1, v)) }

    static func toSpace(_ c: Color, _ space: ColorInterpolation) -> [Double] {
        switch space {
        case .srgb: return [c.red, c.green, c.blue]
        case .linearSRGB: return [toLinear(c.red), toLinear(c.green), toLinear(c.blue)]
        case .oklab: return oklab(fromLinear: [toLinear(c.red), toLinear(c.green), toLinear(c.blue)])
        }
    }

    static func fromSpace(_ v: [Double], _ space: ColorInterpolation) -> [Double] {
        switch space {
        case .srgb: return v
        case .linearSRGB: return v.map(toGamma)
        case .oklab: return linear(fromOklab: v).map(toGamma)
        }
    }

    public static func toLinear(_ c: Double) -> Double { DisplayP3.toLinear(c) }

    public static func toGamma(_ c: Double) -> Double { DisplayP3.toGamma(c) }

    public static func oklab(fromLinear c: [Double]) -> [Double] { DisplayP3.oklab(fromLinear: c) }

    public static func linear(fromOklab v: [Double]) -> [Double] { DisplayP3.linear(fromOklab: v) }
}
