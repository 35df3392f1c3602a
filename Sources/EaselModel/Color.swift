import FoundationEssentials
import Glibc

/// An sRGB colour with straight (unpremultiplied) alpha, each channel 0…1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// 8-bit channels, as in `#rrggbb`.
    public init(r8: Int, g8: Int, b8: Int, alpha: Double = 1) {
        self.init(red: Double(r8) / 255, green: Double(g8) / 255, blue: Double(b8) / 255, alpha: alpha)
    }

    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    public func withAlpha(_ a: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: a)
    }

    /// The sRGB grey of the same relative luminance (WCAG's weights on
    /// linear channels), alpha kept.
    public var greyOfSameLuminance: Color {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let y = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
        let v = y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055
        return Color(red: v, green: v, blue: v, alpha: alpha)
    }

    public var description: String {
        func h(_ v: Double) -> String {
            let s = String(Int((max(0, min(1, v)) * 255).rounded()), radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }

    /// The largest difference of any premultiplied channel between four
    /// colours (a pixel's corners): how far apart they look.
    public static func spread(_ a: Color, _ b: Color, _ c: Color, _ d: Color) -> Double {
        // Two-argument max and min only: the variadic forms build an array
        // per call, and this runs for every pixel of a rasterised sweep
        // (under AddressSanitizer, every allocation records its stack).
        // Chained, they pick the same value as the variadic forms.
        func range(_ p: Double, _ q: Double, _ r: Double, _ s: Double) -> Double {
            max(max(max(p, q), r), s) - min(min(min(p, q), r), s)
        }
        let red = range(a.red * a.alpha, b.red * b.alpha, c.red * c.alpha, d.red * d.alpha)
        let green = range(a.green * a.alpha, b.green * b.alpha, c.green * c.alpha, d.green * d.alpha)
        let blue = range(a.blue * a.alpha, b.blue * b.alpha, c.blue * c.alpha, d.blue * d.alpha)
        return max(max(max(red, green), blue), range(a.alpha, b.alpha, c.alpha, d.alpha))
    }
}
