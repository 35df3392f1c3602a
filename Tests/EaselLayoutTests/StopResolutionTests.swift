import EaselLayout
import EaselModel
import Foundation
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

    func assertMatchesPremultiplied(_ stops: [ShadingStop], _ a: Color, _ b: Color, samples: Int,
                                    file: StaticString = #filePath, line: UInt = #line) {
        for k in 0...samples {
            let t = Double(k) / Double(samples)
            let c = cairoColor(stops, at: t)
            let want = premultiplied(a, b, t)
            let got = [c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha]
            for ch in 0..<4 {
                XCTAssertEqual(got[ch], want[ch], accuracy: 1.0 / 255, "t=\(t) channel \(ch)", file: file, line: line)
            }
        }
    }

    func testTransparentToOpaqueHasNoGreyBand() {
        let red0 = Color(red: 1, green: 0, blue: 0, alpha: 0)
        let blue = Color(red: 0, green: 0, blue: 1)
        let stops = StopResolution.shadingStops([GradientStop(offset: nil, color: red0), GradientStop(offset: nil, color: blue)],
                                                interpolation: .srgb)
        assertMatchesPremultiplied(stops, red0, blue, samples: 200)
        // Premultiplied, this ramp never has any red: it is blue fading in.
        XCTAssertEqual(cairoColor(stops, at: 0.5).red, 0, accuracy: 1e-9)
        XCTAssertLessThanOrEqual(stops.count, 3)
    }

    func testTranslucentEndsNeedFewStops() {
        let a = Color(red: 1, green: 0.5, blue: 0, alpha: 0.2)
        let b = Color(red: 0, green: 0.3, blue: 1, alpha: 0.9)
        let stops = StopResolution.shadingStops([GradientStop(offset: 0, color: a), GradientStop(offset: 1, color: b)],
                                                interpolation: .srgb)
        assertMatchesPremultiplied(stops, a, b, samples: 400)
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

/// OKLab and linear-sRGB interpolation, checked against the colour spaces'
/// published definitions written out in the test.
final class InterpolationSpaceTests: XCTestCase {
    func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    func gamma(_ c: Double) -> Double { c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055 }

    typealias Matrix = [[Double]]

    /// Linear sRGB → CIE XYZ (D65), as CSS Color 4 gives it.
    static let srgbToXYZ: Matrix = [[0.41239079926595934, 0.357584339383878, 0.1804807884018343],
                                    [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
                                    [0.01933081871559182, 0.11919477979462598, 0.9505321522496607]]
    /// Björn Ottosson's published OKLab matrices: XYZ → LMS (M1) and
    /// cube-rooted LMS → Lab (M2). The code uses M1·(sRGB→XYZ) folded into
    /// one matrix; the test derives that product (and the inverses) itself.
    static let m1: Matrix = [[0.8189330101, 0.3618667424, -0.1288597137],
                             [0.0329845436, 0.9293118715, 0.0361456387],
                             [0.0482003018, 0.2643662691, 0.6338517070]]
    static let m2: Matrix = [[0.2104542553, 0.7936177850, -0.0040720468],
                             [1.9779984951, -2.4285922050, 0.4505937099],
                             [0.0259040371, 0.7827717662, -0.8086757660]]

    static func product(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func apply(_ m: Matrix, _ v: [Double]) -> [Double] {
        (0..<3).map { i in (0..<3).reduce(0) { $0 + m[i][$1] * v[$1] } }
    }

    /// The inverse by cofactors (the matrices here are well conditioned).
    static func inverse(_ m: Matrix) -> Matrix {
        func c(_ r: Int, _ k: Int) -> Double {
            let r1 = (r + 1) % 3, r2 = (r + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3
            return m[r1][k1] * m[r2][k2] - m[r1][k2] * m[r2][k1]
        }
        let det = (0..<3).reduce(0) { $0 + m[0][$1] * c(0, $1) }
        return (0..<3).map { i in (0..<3).map { j in c(j, i) / det } }
    }

    static let srgbToLMS = product(m1, srgbToXYZ)

    func oklab(_ r: Double, _ g: Double, _ b: Double) -> [Double] {
        let lms = Self.apply(Self.srgbToLMS, [linear(r), linear(g), linear(b)]).map { cbrt($0) }
        return Self.apply(Self.m2, lms)
    }

    func srgb(fromOklab v: [Double]) -> [Double] {
        let lms = Self.apply(Self.inverse(Self.m2), v).map { $0 * $0 * $0 }
        return Self.apply(Self.inverse(Self.srgbToLMS), lms).map { gamma(max(0, min(1, $0))) }
    }

    func testDerivedMatricesMapWhiteToTheNeutralAxis() {
        // OKLab's defining property: D65 white is L = 1, a = b = 0 (to
        // about 1e-4: M1 was fitted to a slightly different D65 white than
        // CSS's sRGB matrix uses, as CSS Color 4 notes).
        let white = oklab(1, 1, 1)
        XCTAssertEqual(white[0], 1, accuracy: 5e-4)
        XCTAssertEqual(white[1], 0, accuracy: 5e-4)
        XCTAssertEqual(white[2], 0, accuracy: 5e-4)
    }

    func cairoColor(_ stops: [ShadingStop], at t: Double) -> [Double] {
        let i = stops.lastIndex(where: { $0.offset <= t })!
        guard i + 1 < stops.count else { return [stops[i].color.red, stops[i].color.green, stops[i].color.blue] }
        let a = stops[i].color, b = stops[i + 1].color
        let f = (t - stops[i].offset) / (stops[i + 1].offset - stops[i].offset)
        return [a.red + (b.red - a.red) * f, a.green + (b.green - a.green) * f, a.blue + (b.blue - a.blue) * f]
    }

    func testOklabMidpointOfBlueAndWhite() {
        let stops = StopResolution.shadingStops([GradientStop(offset: nil, color: Color(red: 0, green: 0, blue: 1)),
                                                 GradientStop(offset: nil, color: .white)], interpolation: .oklab)
        let a = oklab(0, 0, 1), b = oklab(1, 1, 1)
        for t in stride(from: 0.0, through: 1.0, by: 0.05) {
            let want = srgb(fromOklab: zip(a, b).map { $0 + ($1 - $0) * t })
            let got = cairoColor(stops, at: t)
            for ch in 0..<3 { XCTAssertEqual(got[ch], want[ch], accuracy: 1.0 / 255, "t=\(t)") }
        }
        XCTAssertLessThan(stops.count, 20, "as few stops as the tolerance allows")
    }

    func testLinearSRGBMidpoint() {
        let stops = StopResolution.shadingStops([GradientStop(offset: nil, color: Color(red: 1, green: 0, blue: 0)),
                                                 GradientStop(offset: nil, color: Color(red: 0, green: 1, blue: 0))],
                                                interpolation: .linearSRGB)
        let mid = cairoColor(stops, at: 0.5)
        XCTAssertEqual(mid[0], gamma(0.5), accuracy: 1.0 / 255)   // 0.735, not sRGB's 0.5
        XCTAssertEqual(mid[1], gamma(0.5), accuracy: 1.0 / 255)
    }
}
