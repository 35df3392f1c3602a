import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Dithered gradients (the contract's "Band-free gradients") against the
/// gradients' definitions, evaluated here: the mean of each 8×8 block of
/// pixels is the exact gradient's mean there to a small fraction of an
/// 8-bit step, flat regions keep their exact bytes, and the pattern belongs
/// to the device pixel.
final class GradientDitherTests: XCTestCase {
    /// A slow gradient, as the bands show on a large dark background: 4
    /// levels from end to end in each channel, over 512 pixels (linear,
    /// radial) or 800 to 1,600 (conic, half a turn, outside the centre) —
    /// about as slow as 16 levels over 2,048 pixels.
    static let from = (r: 0x20, g: 0x28, b: 0x30), to = (r: 0x24, g: 0x2c, b: 0x2c)

    enum Kind: CaseIterable { case linear, radial, conic }

    /// A square scene of `side` points filled with a slow gradient of `kind`.
    func scene(_ kind: Kind, space: String, side: Int, dither: Bool) -> String {
        let stops = ##"<stop color="#202830"/><stop color="#242c2c"/>"##
        let gradient: String
        switch kind {
        case .linear: gradient = ##"<linearGradient id="g" angle="0" interpolation="\##(space)">\##(stops)</linearGradient>"##
        case .radial: gradient = ##"<radialGradient id="g" radius="1" interpolation="\##(space)">\##(stops)</radialGradient>"##
        // There and back: no seam at `from`.
        case .conic: gradient = ##"<conicGradient id="g" from="90" interpolation="\##(space)">\##(stops)<stop color="#202830"/></conicGradient>"##
        }
        return """
        <scene width="\(side)" height="\(side)" dither="\(dither)">
          <defs>\(gradient)</defs>
          <rect width="\(side)" height="\(side)" fill="url(#g)"/>
        </scene>
        """
    }

    /// The gradient's offset at point (x, y) of a square of `side`.
    func offset(_ kind: Kind, _ x: Double, _ y: Double, side: Double) -> Double {
        let c = side / 2
        switch kind {
        case .linear: return x / side
        case .radial: return min(1, ((x - c) * (x - c) + (y - c) * (y - c)).squareRoot() / side)
        case .conic:
            // 0 at north, clockwise on screen; the stops go there and back.
            var t = (atan2(y - c, x - c) + .pi / 2) / (2 * .pi)
            t -= t.rounded(.down)
            return t <= 0.5 ? 2 * t : 2 - 2 * t
        }
    }

    /// The exact colour at offset `t`, in 8-bit units (not rounded).
    func exact(_ t: Double, space: String) -> [Double] {
        let a = [Double(Self.from.r), Double(Self.from.g), Double(Self.from.b)]
        let b = [Double(Self.to.r), Double(Self.to.g), Double(Self.to.b)]
        if space == "srgb" { return zip(a, b).map { $0 + ($1 - $0) * t } }
        let la = OKLab(srgb255: a), lb = OKLab(srgb255: b)
        return OKLab(l: la.l + (lb.l - la.l) * t, a: la.a + (lb.a - la.a) * t, b: la.b + (lb.b - la.b) * t).srgb255
    }

    /// The largest distance, over every 8×8 block not within `skipCentre`
    /// pixels of the centre, between the block's mean and the exact
    /// gradient's mean there (any channel, in 8-bit steps).
    func worstBlockError(_ kind: Kind, space: String, dither: Bool, side: Int = 512, skipCentre: Double = 0,
                         source: String? = nil) throws -> Double {
        let image = try compileScene(source ?? scene(kind, space: space, side: side, dither: dither)).renderImage()
        XCTAssertEqual(image.width, side)
        // The exact colour at 4,097 offsets, linear between them (the colour
        // curves far less than a step between neighbours).
        let table = (0...4096).map { t -> SIMD3<Double> in let c = exact(Double(t) / 4096, space: space); return SIMD3(c[0], c[1], c[2]) }
        func color(_ t: Double) -> SIMD3<Double> {
            let f = t * 4096, i = min(4095, Int(f)), w = f - Double(i)
            return table[i] + (table[i + 1] - table[i]) * w
        }
        var worst = 0.0
        for by in stride(from: 0, to: side, by: 8) {
            for bx in stride(from: 0, to: side, by: 8) {
                let dx = Double(bx + 4) - Double(side) / 2, dy = Double(by + 4) - Double(side) / 2
                if (dx * dx + dy * dy).squareRoot() < skipCentre { continue }
                var got = SIMD3<Double>(), want = SIMD3<Double>()
                for y in by..<by + 8 {
                    for x in bx..<bx + 8 {
                        let p = image.pixel(x, y)
                        got += SIMD3(Double(p.r), Double(p.g), Double(p.b))
                        want += color(offset(kind, Double(x) + 0.5, Double(y) + 0.5, side: Double(side)))
                    }
                }
                let d = got - want
                worst = max(worst, abs(d.x) / 64, abs(d.y) / 64, abs(d.z) / 64)
            }
        }
        return worst
    }

    func testEveryBlockOfASlowGradientAveragesToTheExactGradient() throws {
        for kind in Kind.allCases {
            for space in ["srgb", "oklab"] {
                // Near the conic centre a pixel spans a wide angle and is
                // averaged over its area, not taken at its centre.
                let skip = kind == .conic ? 128.0 : 0
                let dithered = try worstBlockError(kind, space: space, dither: true, skipCentre: skip)
                XCTAssertLessThanOrEqual(dithered, 0.05, "\(kind) \(space): dithered")
                // Without dithering the bands are there: the test can fail.
                let banded = try worstBlockError(kind, space: space, dither: false, skipCentre: skip)
                XCTAssertGreaterThan(banded, 0.3, "\(kind) \(space): not dithered")
            }
        }
    }

    /// A gradient constant down the columns (or along the rows) is drawn
    /// for one period of the dither and copied: the same pixels as a
    /// gradient a hair off that direction, which pixman draws whole.
    func testCopiedRowsAndColumnsAreThePixelsDrawnWhole() throws {
        func render(_ end: String) throws -> RasterImage {
            try compileScene("""
            <scene width="300" height="200" scale="2">
              <defs><linearGradient id="g" units="userSpace" start="10 10" end="\(end)">
                <stop color="#202838"/><stop color="#382820"/></linearGradient></defs>
              <rect x="3" y="5" width="290" height="190" fill="url(#g)"/>
            </scene>
            """).renderImage()
        }
        for (aligned, skewed, across) in [("290 10", "290 10.0000001", true), ("10 190", "10.0000001 190", false)] {
            let a = try render(aligned), b = try render(skewed)
            XCTAssertTrue(a.rgba == b.rgba, "\(aligned): pixels differ from the gradient drawn whole")
            // Along the gradient: many colours (a gradient, not a flat fill or one period copied over).
            let along = across ? (0..<a.width).map { a.pixel($0, 100) } : (0..<a.height).map { a.pixel(100, $0) }
            XCTAssertGreaterThan(Set(along).count, 10, aligned)
        }
    }

    /// Inside a `<pattern>` tile, painted by a painter of its own.
    func testAGradientInAPatternTileIsDitheredToo() throws {
        func tiled(dither: Bool) -> String {
            """
            <scene width="512" height="512" dither="\(dither)">
              <defs>
                <linearGradient id="g" angle="0"><stop color="#202830"/><stop color="#242c2c"/></linearGradient>
                <pattern id="p" width="512" height="512" units="userSpace"><rect width="512" height="512" fill="url(#g)"/></pattern>
              </defs>
              <rect width="512" height="512" fill="url(#p)"/>
            </scene>
            """
        }
        XCTAssertLessThanOrEqual(try worstBlockError(.linear, space: "srgb", dither: true, source: tiled(dither: true)), 0.05)
        XCTAssertGreaterThan(try worstBlockError(.linear, space: "srgb", dither: false, source: tiled(dither: false)), 0.3)
    }

    /// Every pixel of `image` in the columns `xs`.
    func pixels(_ image: RasterImage, columns xs: Range<Int>) -> Set<RasterImage.Pixel> {
        var out = Set<RasterImage.Pixel>()
        for y in 0..<image.height { for x in xs { out.insert(image.pixel(x, y)) } }
        return out
    }

    func solid(_ fill: String, opacity: Double = 1) throws -> RasterImage.Pixel {
        let image = try compileScene("""
        <scene width="8" height="8"><rect width="8" height="8" fill="\(fill)" fill-opacity="\(opacity)"/></scene>
        """).renderImage()
        return image.pixel(4, 4)
    }

    func testFlatRegionsKeepTheirExactColour() throws {
        // Padded ends, two equal stops, and a hard stop's two sides; once
        // opaque, once at an opacity that puts the colours between levels.
        for opacity in [1.0, 0.37] {
            func render(dither: Bool) throws -> RasterImage {
                try compileScene("""
            <scene width="400" height="16" dither="\(dither)">
              <defs><linearGradient id="g" angle="0">
                <stop offset="0.1" color="#203040"/><stop offset="0.2" color="#203040"/>
                <stop offset="0.4" color="#405060"/><stop offset="0.5" color="#405060"/>
                <stop offset="0.5" color="#c08040"/><stop offset="0.6" color="#c08040"/>
                <stop offset="0.8" color="#102030"/>
              </linearGradient></defs>
              <rect width="400" height="16" fill="url(#g)" fill-opacity="\(opacity)"/>
            </scene>
            """).renderImage()
            }
            let image = try render(dither: true)
            // Pixel columns wholly inside each flat stretch (pixel centres x + 0.5).
            for (columns, color) in [(0..<80, "#203040"), (160..<200, "#405060"), (200..<240, "#c08040"), (320..<400, "#102030")] {
                XCTAssertEqual(pixels(image, columns: columns), [try solid(color, opacity: opacity)], "\(color) at \(opacity)")
            }
            // Between them the gradient is dithered: not the undithered pixels.
            let plain = try render(dither: false)
            XCTAssertTrue((80..<160).contains { x in (0..<16).contains { image.pixel(x, $0) != plain.pixel(x, $0) } })
        }
    }

    /// Radial and conic gradients keep flat stretches exact too: the
    /// inner disc and the outside of a radial one, a conic one's flat
    /// sectors; at an opacity that puts the colours between levels.
    func testFlatRadialAndConicStretchesKeepTheirExactColour() throws {
        let opacity = 0.37
        let radial = try compileScene("""
        <scene width="200" height="200"><defs><radialGradient id="g">
          <stop offset="0.3" color="#203040"/><stop offset="0.7" color="#c08040"/></radialGradient></defs>
          <rect width="200" height="200" fill="url(#g)" fill-opacity="\(opacity)"/></scene>
        """).renderImage()
        let inner = try solid("#203040", opacity: opacity), outer = try solid("#c08040", opacity: opacity)
        for y in 0..<200 {
            for x in 0..<200 {
                let r = ((Double(x) + 0.5 - 100) * (Double(x) + 0.5 - 100) + (Double(y) + 0.5 - 100) * (Double(y) + 0.5 - 100)).squareRoot()
                if r < 29 { XCTAssertEqual(radial.pixel(x, y), inner, "(\(x), \(y))") }
                if r > 71 { XCTAssertEqual(radial.pixel(x, y), outer, "(\(x), \(y))") }
            }
        }
        // Four sectors, flat in the right half (12 to 6 o'clock, clockwise).
        let conic = try compileScene("""
        <scene width="200" height="200"><defs><conicGradient id="g">
          <stop offset="0" color="#405060"/><stop offset="0.5" color="#405060"/><stop offset="0.75" color="#102030"/><stop offset="1" color="#405060"/>
          </conicGradient></defs>
          <rect width="200" height="200" fill="url(#g)" fill-opacity="\(opacity)"/></scene>
        """).renderImage()
        XCTAssertEqual(pixels(conic, columns: 104..<200), [try solid("#405060", opacity: opacity)])
    }

    func testAGradientOfOneColourIsASolidImage() throws {
        for stops in [##"<stop color="#336699"/><stop color="#336699"/>"##,
                      // Colours that round to one 8-bit value.
                      #"<stop color="rgb(32, 32, 32)"/><stop color="rgb(32.4, 32.4, 32.4)"/>"#] {
            for kind in ["linearGradient", "radialGradient", "conicGradient"] {
                let image = try compileScene("""
                <scene width="64" height="64"><defs><\(kind) id="g">\(stops)</\(kind)></defs>
                  <rect width="64" height="64" fill="url(#g)"/></scene>
                """).renderImage()
                XCTAssertEqual(pixels(image, columns: 0..<64).count, 1, "\(kind): \(stops)")
            }
        }
    }

    /// A gradient moved by a whole period of the pattern (8 device pixels)
    /// gives the same pixels, moved; moved by a pixel less it does not.
    func testThePatternBelongsToTheDevicePixel() throws {
        func render(shift: Double, scale: Double, kind: String) throws -> RasterImage {
            try compileScene("""
            <scene width="120" height="40" scale="\(scale)">
              <defs><\(kind) id="g" units="userSpace" \(kind == "linearGradient" ? #"start="0 0" end="100 30""# : #"center="50 20" radius="60""#)>
                <stop color="#202838"/><stop color="#382820"/></\(kind)></defs>
              <group transform="translate(\(shift), 0)"><rect width="100" height="40" fill="url(#g)"/></group>
            </scene>
            """).renderImage()
        }
        for kind in ["linearGradient", "radialGradient"] {
            for scale in [1.0, 2.0] {
                let base = try render(shift: 0, scale: scale, kind: kind)
                func same(_ moved: RasterImage, by dx: Int) -> Bool {
                    for y in 0..<base.height { for x in 0..<Int(100 * scale) where base.pixel(x, y) != moved.pixel(x + dx, y) { return false } }
                    return true
                }
                XCTAssertTrue(same(try render(shift: 8 / scale, scale: scale, kind: kind), by: 8), "\(kind) @\(scale)x")
                XCTAssertFalse(same(try render(shift: 7 / scale, scale: scale, kind: kind), by: 7), "\(kind) @\(scale)x: one pixel less")
            }
        }
    }
}

/// OKLab (Björn Ottosson's definition), from and to 8-bit sRGB.
struct OKLab {
    var l, a, b: Double

    init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    init(srgb255 c: [Double]) {
        func linear(_ v: Double) -> Double { let s = v / 255; return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4) }
        let (r, g, b) = (linear(c[0]), linear(c[1]), linear(c[2]))
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        self.l = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    }

    var srgb255: [Double] {
        let l_ = l + 0.3963377774 * a + 0.2158037573 * b
        let m_ = l - 0.1055613458 * a - 0.0638541728 * b
        let s_ = l - 0.0894841775 * a - 1.2914855480 * b
        let (l3, m3, s3) = (l_ * l_ * l_, m_ * m_ * m_, s_ * s_ * s_)
        let r = 4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3
        let g = -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3
        let bl = -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3
        func encode(_ v: Double) -> Double {
            let x = max(0, min(1, v))
            return 255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055)
        }
        return [encode(r), encode(g), encode(bl)]
    }
}
