import Glibc

/// CSS Color 4 §13.2 gamut mapping: a colour outside the destination is
/// brought inside by reducing its OKLCh chroma, lightness and hue kept,
/// until clipping what is left moves it by less than a just-noticeable
/// difference (deltaEOK 0.02). The binary search and its constants are the
/// specification's ("binary search gamut mapping with local MINDE").
extension SceneColorSpace {
    /// A colour written in a scene, made paintable in this space: itself
    /// when inside the gamut, else gamut-mapped. Still an sRGB `Color`
    /// (extended, for Display P3), so interpolation keeps its meaning.
    public func fitted(_ c: Color) -> Color {
        if DisplayP3.isInside(c, self) { return c }
        let (l, chroma, h) = DisplayP3.oklch(of: c)
        if l >= 1 { return Color.white.withAlpha(c.alpha) }
        if l <= 0 { return Color.black.withAlpha(c.alpha) }
        let jnd = 0.02, epsilon = 0.0001
        func atChroma(_ x: Double) -> Color { DisplayP3.srgb(fromOklch: l, x, h, alpha: c.alpha) }
        var current = c
        var clipped = clip(current)
        if deltaEOK(clipped, current) < jnd { return clipped }
        var low = 0.0, high = chroma, lowInGamut = true
        while high - low > epsilon {
            let mid = (low + high) / 2
            current = atChroma(mid)
            if lowInGamut, DisplayP3.isInside(current, self) {
                low = mid
                continue
            }
            clipped = clip(current)
            let e = deltaEOK(clipped, current)
            if e < jnd {
                if jnd - e < epsilon { return clipped }
                lowInGamut = false
                low = mid
            } else {
                high = mid
            }
        }
        return clipped
    }

    /// A written colour as painted in this space: gamut-mapped if outside
    /// it, then its components.
    public func painted(_ c: Color) -> Color { components(fitted(c)) }

    /// This space's components of a colour, each clamped to 0…1: what is
    /// painted. An sRGB colour inside sRGB is returned as it is.
    public func components(_ c: Color) -> Color {
        func clamp(_ v: Double) -> Double { max(0, min(1, v)) }
        guard self == .displayP3 else { return Color(red: clamp(c.red), green: clamp(c.green), blue: clamp(c.blue), alpha: c.alpha) }
        // Converted components this close to 0 or 1 are rounding: snapped,
        // so P3 primaries are written 1 0 0, not 1 3e-18 8e-17.
        func snap(_ v: Double) -> Double { abs(v) < 1e-9 ? 0 : abs(v - 1) < 1e-9 ? 1 : clamp(v) }
        let v = DisplayP3.p3(fromSRGB: c)
        return Color(red: snap(v.red), green: snap(v.green), blue: snap(v.blue), alpha: v.alpha)
    }

    /// The colour with this space's components clamped, as sRGB.
    func clip(_ c: Color) -> Color {
        let v = components(c)
        return self == .srgb ? v : DisplayP3.srgb(fromP3: v.red, v.green, v.blue, alpha: v.alpha)
    }

    func deltaEOK(_ a: Color, _ b: Color) -> Double {
        let p = DisplayP3.oklab(of: a), q = DisplayP3.oklab(of: b)
        return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
    }
}
