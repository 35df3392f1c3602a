import EaselModel

/// Turns a gradient's stops into the stops Cairo receives. Cairo (and PDF,
/// and SVG viewers) interpolate straight sRGB between stops; the contract
/// wants premultiplied interpolation, optionally in linear sRGB or OKLab. So
/// each segment is split until straight interpolation between the inserted
/// stops is within half a step of 8-bit colour everywhere, with as few
/// stops as that allows. Dithered PNG output shows a gradient's value to a
/// few hundredths of a step, so it gets stops within `rasterTolerance`
/// (`rasterStops`); PDF and SVG keep the fewer stops.
public enum StopResolution {
    /// Largest allowed difference per channel (premultiplied), in 0…1.
    public static let tolerance = 0.5 / 255
    /// The same for dithered raster output.
    public static let rasterTolerance = 0.02 / 255

    /// Stops within `rasterTolerance`, or nil when they are the same as
    /// `shadingStops` (straight sRGB between opaque stops needs none added).
    public static func rasterStops(_ stops: [GradientStop], interpolation: ColorInterpolation,
                                   coarse: [ShadingStop], output: SceneColorSpace = .srgb) -> [ShadingStop]? {
        let fine = shadingStops(stops, interpolation: interpolation, tolerance: rasterTolerance, output: output)
        return fine == coarse ? nil : fine
    }

    public static func shadingStops(_ stops: [GradientStop], interpolation: ColorInterpolation,
                                    tolerance: Double = tolerance, output: SceneColorSpace = .srgb) -> [ShadingStop] {
        let offsets = GradientMath.resolvedOffsets(stops.map(\.offset))
        // Stops are interpolated as written (inside the output's gamut) and
        // each colour Cairo receives is then converted to the output space:
        // the split below measures straight interpolation of converted
        // stops against the converted exact colour, so a Display P3 scene's
        // sRGB gradient gets the stops that keep its sRGB meaning.
        // A stop outside the output's gamut is gamut-mapped as written, like
        // every other colour of the scene, and the gradient interpolates
        // between the mapped stops. Mapping each interpolated colour instead
        // creases the gradient: CSS Color 4's mapping is not continuous (a
        // colour within its JND of the gamut is clipped, one beyond it
        // loses chroma), and the crease shows as a band.
        let stops = stops.allSatisfy({ DisplayP3.isInside($0.color, output) }) ? stops
            : stops.map { GradientStop(offset: $0.offset, color: output.fitted($0.color)) }
        if stops.count == 1 { return [ShadingStop(offset: offsets[0], color: output.components(stops[0].color))] }
        var out: [ShadingStop] = []
        func append(_ s: ShadingStop) {
            if let last = out.last, last == s { return }
            out.append(s)
        }
        for i in stops.indices.dropFirst() {
            let a = ShadingStop(offset: offsets[i - 1], color: stops[i - 1].color)
            let b = ShadingStop(offset: offsets[i], color: stops[i].color)
            if a.offset == b.offset {
                // A hard edge: nothing to interpolate.
                append(ShadingStop(offset: a.offset, color: output.components(a.color)))
                append(ShadingStop(offset: b.offset, color: output.components(b.color)))
                continue
            }
            // The ends too: a transparent stop takes its neighbour's colour,
            // so that Cairo's straight interpolation shows no grey band.
            append(ShadingStop(offset: a.offset, color: exact(a, b, 0, interpolation, output)))
            var inner: [ShadingStop] = []
            subdivide(a, b, 0, 1, interpolation, output, tolerance, depth: 0, into: &inner)
            inner.forEach(append)
            append(ShadingStop(offset: b.offset, color: exact(a, b, 1, interpolation, output)))
        }
        return out
    }

    /// Exact colour at parameter `t` of the segment `a`→`b`.
    /// Interpolated in `space` as the written (extended sRGB) colours,
    /// then converted: an excursion past the gamut (OKLab between two
    /// saturated colours) is clamped, in sRGB exactly as it always was.
    static func exact(_ a: ShadingStop, _ b: ShadingStop, _ t: Double, _ space: ColorInterpolation,
                      _ output: SceneColorSpace) -> Color {
        if output == .srgb { return ColorSpaces.interpolate(a.color, b.color, t, in: space) }
        return output.components(ColorSpaces.interpolateUnclamped(a.color, b.color, t, in: space))
    }

    /// What Cairo draws between two stops: straight (unpremultiplied) lerp.
    static func straight(_ a: Color, _ b: Color, _ t: Double) -> Color {
        Color(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
              blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    static func premultipliedDistance(_ x: Color, _ y: Color) -> Double {
        max(abs(x.red * x.alpha - y.red * y.alpha), abs(x.green * x.alpha - y.green * y.alpha),
            abs(x.blue * x.alpha - y.blue * y.alpha), abs(x.alpha - y.alpha))
    }

    private static func subdivide(_ a: ShadingStop, _ b: ShadingStop, _ t0: Double, _ t1: Double,
                                  _ space: ColorInterpolation, _ output: SceneColorSpace, _ tolerance: Double, depth: Int,
                                  into out: inout [ShadingStop]) {
        let c0 = exact(a, b, t0, space, output), c1 = exact(a, b, t1, space, output)
        var worst = 0.0
        for k in 1..<8 {
            let f = Double(k) / 8
            let d = premultipliedDistance(straight(c0, c1, f), exact(a, b, t0 + (t1 - t0) * f, space, output))
            worst = max(worst, d)
        }
        guard worst > tolerance, depth < 10 else { return }
        let tm = (t0 + t1) / 2
        subdivide(a, b, t0, tm, space, output, tolerance, depth: depth + 1, into: &out)
        out.append(ShadingStop(offset: a.offset + (b.offset - a.offset) * tm, color: exact(a, b, tm, space, output)))
        subdivide(a, b, tm, t1, space, output, tolerance, depth: depth + 1, into: &out)
    }
}
