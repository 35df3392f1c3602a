import EaselLayout
import EaselModel
import XCTest

/// Cairo interpolates straight sRGB between stops; the inserted stops must
/// make that match the contract's premultiplied interpolation everywhere.
final class StopResolutionTests: XCTestCase {
    /// Straight interpolation over the produced stops, as Cairo does it.
    func cairoColor(_ stops: [ShadingStop], at t: Double) -> Color {
        guard let i = stops.lastIndex(where: { $0.offset <= t }), i + 1 < stops.count else { return stops.last!.color }
        let a = stops[i], b = stops[i + 1]
        let f = b.offset == a.offset ? 0 : (t - a.offset) / (b.offset - a.offset)
        return Color(red: a.color.red + (b.color.red - a.color.red) * f,
                     green: a.color.green + (b.color.green - a.color.green) * f,
                     blue: a.color.blue + (b.color.blue - a.color.blue) * f,
                     alpha: a.color.alpha + (b.color.alpha - a.color.alpha) * f)
    }

    /// Premultiplied interpolation written out from its definition.
    func premultiplied(_ a: Color, _ b: Color, _ t: Double) -> [Double] {
        let alpha = a.alpha + (b.alpha - a.alpha) * t
        return [a.red * a.alpha + (b.red * b.alpha - a.red * a.alpha) * t,
                a.green * a.alpha + (b.green * b.alpha - a.green * a.alpha) * t,
                a.blue * a.alpha + (b.blue * b.alpha - a.blue * a.alpha) * t, alpha]
    }

    func testTransparentToOpaqueHasNoGreyBand() {
        let red0 = Color(red: 1, green: 0, blue: 0, alpha: 0)
        let blue = Color(red: 0, green: 0, blue: 1)
        let stops = StopResolution.shadingStops([GradientStop(offset: nil, color: red0), GradientStop(offset: nil, color: blue)],
                                                interpolation: .srgb)
        for k in 0...200 {
            let t = Double(k) / 200
            let c = cairoColor(stops, at: t)
            let want = premultiplied(red0, blue, t)
            let got = [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha]
            for ch in 0..<4 { XCTAssertEqual(got[ch], want[ch], accuracy: 1.0 / 255, "t=\(t) channel \(ch)") }
        }
        // Premultiplied, this ramp never has any red: it is blue fading in.
        XCTAssertEqual(cairoColor(stops, at: 0.5).red, 0, accuracy: 1e-9)
        XCTAssertLessThanOrEqual(stops.count, 3)
    }

    func testTranslucentEndsNeedFewStops() {
        let a = Color(red: 1, green: 0.5, blue: 0, alpha: 0.2)
        let b = Color(red: 0, green: 0.3, blue: 1, alpha: 0.9)
        let stops = StopResolution.shadingStops([GradientStop(offset: 0, color: a), GradientStop(offset: 1, color: b)],
                                                interpolation: .srgb)
        for k in 0...400 {
            let t = Double(k) / 400
            let c = cairoColor(stops, at: t)
            let want = premultiplied(a, b, t)
            let got = [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha]
            for ch in 0..<4 { XCTAssertEqual(got[ch], want[ch], accuracy: 1.0 / 255, "t=\(t)") }
        }
        XCTAssertLessThan(stops.count, 40)
    }

    func testOpaqueStopsAreLeftAlone() {
        let stops = StopResolution.shadingStops([GradientStop(offset: nil, color: .black), GradientStop(offset: nil, color: .white)],
                                                interpolation: .srgb)
        XCTAssertEqual(stops, [ShadingStop(offset: 0, color: .black), ShadingStop(offset: 1, color: .white)])
    }

    func testHardEdgeKeepsBothStops() {
        let stops = StopResolution.shadingStops([
            GradientStop(offset: 0, color: .black), GradientStop(offset: 0.5, color: .black),
            GradientStop(offset: 0.5, color: .white), GradientStop(offset: 1, color: .white),
        ], interpolation: .srgb)
        XCTAssertEqual(stops.filter { $0.offset == 0.5 }.count, 2)
    }
}
