import EaselModel
import FoundationEssentials
import Glibc

/// Colour interpolation as the contract defines it: premultiplied, in sRGB
/// (default), linear sRGB or OKLab (CSS Color 4 §12.3 and §9.2).
public enum ColorSpaces {
    public static func interpolate(_ a: Color, _ b: Color, _ t: Double, in space: ColorInterpolation) -> Color {
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
        return Color(red: clamp(rgb[0]), green: clamp(rgb[1]), blue: clamp(rgb[2]), alpha: alpha)
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

    public static func toLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    public static func toGamma(_ c: Double) -> Double {
        c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// Björn Ottosson's OKLab, from linear sRGB.
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
}
