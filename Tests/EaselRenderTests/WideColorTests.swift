import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Wide colour (docs/format.md, "Wide colour") against oracles Easel does
/// not share: CSS Color 4's conversion matrices typed out here (§18 sample
/// code, with OKLab composed through XYZ as the specification does, where
/// Easel folds it into Ottosson's direct matrices), a Python transcription
/// of CSS Color 4's gamut-mapping pseudo-code and LittleCMS
/// (`Tests/Fixtures/wide-color/check_wide_color.py`), Poppler reading the
/// PDF's ICC colour space, and Chromium showing the SVG.
final class WideColorTests: XCTestCase {
    static let checker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/wide-color/check_wide_color.py").path

    // MARK: CSS Color 4 §18, typed here

    static let linearSRGBToXYZ = [[0.41239079926595934, 0.357584339383878, 0.1804807884018343],
                                  [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
                                  [0.01933081871559182, 0.11919477979462598, 0.9505321522496607]]
    static let linearP3ToXYZ = [[0.48657094864821626, 0.26566769316909294, 0.1982172852343625],
                                [0.22897456406974884, 0.6917385218365062, 0.079286914093745],
                                [0.0, 0.045113381858902575, 1.0439443689009757]]
    static let xyzToLMS = [[0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
                           [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
                           [0.0481771893596242, 0.2642395317527308, 0.6335478284694309]]
    static let lmsToOklab = [[0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
                             [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
                             [0.0259040424655478, 0.7827717124575296, -0.8086757549230774]]

    static func apply(_ m: [[Double]], _ v: [Double]) -> [Double] { m.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] } }
    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2]), (d, e, f) = (m[1][0], m[1][1], m[1][2]), (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
    static func linear(_ c: Double) -> Double {
        let a = abs(c), v = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return c < 0 ? -v : v
    }
    static func gamma(_ c: Double) -> Double {
        let a = abs(c), v = a <= 0.0031308 ? 12.92 * a : 1.055 * pow(a, 1 / 2.4) - 0.055
        return c < 0 ? -v : v
    }
    /// Gamma-encoded components of one RGB space to another's, through XYZ.
    static func convert(_ rgb: [Double], from: [[Double]], to: [[Double]]) -> [Double] {
        apply(inverse(to), apply(from, rgb.map(linear))).map(gamma)
    }
    static func srgbToP3(_ rgb: [Double]) -> [Double] { convert(rgb, from: linearSRGBToXYZ, to: linearP3ToXYZ) }
    static func p3ToSRGB(_ rgb: [Double]) -> [Double] { convert(rgb, from: linearP3ToXYZ, to: linearSRGBToXYZ) }
    static func oklchToXYZ(_ l: Double, _ c: Double, _ h: Double) -> [Double] {
        let lab = [l, c * cos(h * .pi / 180), c * sin(h * .pi / 180)]
        return apply(inverse(xyzToLMS), apply(inverse(lmsToOklab), lab).map { $0 * $0 * $0 })
    }
    static func oklch(_ l: Double, _ c: Double, _ h: Double, in rgbToXYZ: [[Double]]) -> [Double] {
        apply(inverse(rgbToXYZ), oklchToXYZ(l, c, h)).map(gamma)
    }
    /// OKLCh of sRGB components.
    static func oklch(ofSRGB rgb: [Double]) -> (l: Double, c: Double, h: Double) {
        let lab = apply(lmsToOklab, apply(xyzToLMS, apply(linearSRGBToXYZ, rgb.map(linear))).map { cbrt($0) })
        var h = atan2(lab[2], lab[1]) * 180 / .pi
        if h < 0 { h += 360 }
        return (lab[0], hypot(lab[1], lab[2]), h)
    }

    /// A row of 10-point squares, one per fill, in a scene of `space`.
    static func swatches(_ fills: [String], space: String) -> String {
        "<scene width=\"\(fills.count * 10)\" height=\"10\" color-space=\"\(space)\">"
            + fills.enumerated().map { "<view x=\"\($0.offset * 10)\" width=\"10\" height=\"10\" fill=\"\($0.element)\"/>" }.joined()
            + "</scene>"
    }

    func assertPainted(_ image: RasterImage, _ index: Int, _ expected: [Double], tolerance: Double = 1, _ name: String,
                       file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(index * 10 + 5, 5)
        let got = [Double(p.r), Double(p.g), Double(p.b)]
        for k in 0..<3 {
            XCTAssertEqual(got[k], (min(1, max(0, expected[k])) * 255).rounded(), accuracy: tolerance,
                           "\(name): painted \(got), expected \(expected.map { $0 * 255 })", file: file, line: line)
        }
    }

    // MARK: Conversions

    func testFlatFillsAreTheCSSColor4Conversions() throws {
        // A Display P3 scene: every colour converted to P3 exactly.
        let p3Fills: [(String, [Double])] = [
            ("#ff0000", Self.srgbToP3([1, 0, 0])),
            ("#3a7bd5", Self.srgbToP3([0x3a, 0x7b, 0xd5].map { $0 / 255 })),
            ("rgb(20% 90% 40%)", Self.srgbToP3([0.2, 0.9, 0.4])),
            ("color(display-p3 0.2 0.6 0.9)", [0.2, 0.6, 0.9]),
            ("color(display-p3 100% 0% 50%)", [1, 0, 0.5]),
            ("oklch(0.7 0.15 250)", Self.oklch(0.7, 0.15, 250, in: Self.linearP3ToXYZ)),
            ("oklch(55% 0.2 30deg)", Self.oklch(0.55, 0.2, 30, in: Self.linearP3ToXYZ)),
            ("color(srgb 0.25 0.5 0.75)", Self.srgbToP3([0.25, 0.5, 0.75])),
        ]
        let p3 = try compileScene(Self.swatches(p3Fills.map(\.0), space: "display-p3")).renderImage(scale: 1)
        for (i, (text, expected)) in p3Fills.enumerated() { assertPainted(p3, i, expected, text) }

        // An sRGB scene: colours inside sRGB written in P3 or OKLCh, exactly.
        let srgbFills: [(String, [Double])] = [
            ("color(display-p3 0.5 0.4 0.3)", Self.p3ToSRGB([0.5, 0.4, 0.3])),
            ("color(display-p3 0.9 0.2 0.3)", Self.p3ToSRGB([0.9, 0.2, 0.3])),
            ("oklch(0.6 0.1 30)", Self.oklch(0.6, 0.1, 30, in: Self.linearSRGBToXYZ)),
            ("oklch(0.8 0.05 200 / 1)", Self.oklch(0.8, 0.05, 200, in: Self.linearSRGBToXYZ)),
            ("#3a7bd5", [0x3a, 0x7b, 0xd5].map { $0 / 255 }),
        ]
        for (_, expected) in srgbFills { XCTAssertTrue(expected.allSatisfy { $0 >= 0 && $0 <= 1 }, "a test colour must lie inside sRGB") }
        let srgb = try compileScene(Self.swatches(srgbFills.map(\.0), space: "srgb"))
        XCTAssertTrue(srgb.warnings.isEmpty, "\(srgb.warnings)")
        let image = try srgb.renderImage(scale: 1)
        for (i, (text, expected)) in srgbFills.enumerated() { assertPainted(image, i, expected, text) }

        // --color-space over the scene's: the same P3 colour painted in sRGB.
        var options = Easel.Options()
        options.colorSpace = .srgb
        let forced = try compileScene(Self.swatches(["color(display-p3 0.5 0.4 0.3)"], space: "display-p3"), options: options)
        assertPainted(try forced.renderImage(scale: 1), 0, Self.p3ToSRGB([0.5, 0.4, 0.3]), "--color-space srgb")
    }

    /// A gradient in a Display P3 scene keeps its interpolation space's
    /// meaning: halfway between two sRGB stops, in sRGB, is the sRGB
    /// midpoint converted to P3 (not the midpoint of the converted stops).
    func testGradientsInterpolateInTheirSpaceThenConvert() throws {
        let scene = """
            <scene width="200" height="10" color-space="display-p3" dither="false">
              <defs><linearGradient id="g" angle="0"><stop offset="0" color="#ff0000"/><stop offset="1" color="#0000ff"/></linearGradient>
              <linearGradient id="o" angle="0" interpolation="oklab"><stop offset="0" color="color(display-p3 1 0 0)"/><stop offset="1" color="color(display-p3 0 1 0)"/></linearGradient></defs>
              <view width="200" height="5" fill="url(#g)"/>
              <view y="5" width="200" height="5" fill="url(#o)"/>
            </scene>
            """
        let image = try compileScene(scene).renderImage(scale: 1)
        let expected = Self.srgbToP3([0.5, 0, 0.5])
        let p = image.pixel(100, 2)
        // Pixel 100's centre is at t = 100.5/200.
        let t = 100.5 / 200
        let exact = Self.srgbToP3([1 - t, 0, t])
        for (k, v) in [Double(p.r), Double(p.g), Double(p.b)].enumerated() {
            XCTAssertEqual(v, (exact[k] * 255).rounded(), accuracy: 1, "sRGB midpoint in P3: \(p) vs \(expected.map { $0 * 255 })")
        }
        // OKLab between the P3 primaries, converted: the test's own OKLab.
        func oklab(_ p3: [Double]) -> [Double] {
            Self.apply(Self.lmsToOklab, Self.apply(Self.xyzToLMS, Self.apply(Self.linearP3ToXYZ, p3.map(Self.linear))).map { cbrt($0) })
        }
        let a = oklab([1, 0, 0]), b = oklab([0, 1, 0])
        let mid = zip(a, b).map { $0 + ($1 - $0) * t }
        let xyz = Self.apply(Self.inverse(Self.xyzToLMS), Self.apply(Self.inverse(Self.lmsToOklab), mid).map { $0 * $0 * $0 })
        let want = Self.apply(Self.inverse(Self.linearP3ToXYZ), xyz).map(Self.gamma)
        let q = image.pixel(100, 7)
        for (k, v) in [Double(q.r), Double(q.g), Double(q.b)].enumerated() {
            XCTAssertEqual(v, (min(1, max(0, want[k])) * 255).rounded(), accuracy: 1, "OKLab midpoint in P3: \(q) vs \(want.map { $0 * 255 })")
        }
    }

    // MARK: Gamut mapping

    /// Out-of-gamut colours in an sRGB scene land inside sRGB where CSS
    /// Color 4's algorithm puts them (the Python transcription, with its
    /// own OKLab); one warning lists every one. The algorithm keeps
    /// lightness and hue while it reduces chroma and then clips a colour
    /// within a just-noticeable difference (deltaEOK 0.02) of the gamut,
    /// so what lands can differ from the written colour by up to that:
    /// measured on these eight, lightness within 0.019 and hue within 2.5°.
    func testOutOfGamutColoursAreMappedAsCSSColor4MapsThem() throws {
        let written: [(String, (Double, Double, Double))] = [
            ("color(display-p3 1 0 0)", Self.oklch(ofSRGB: Self.p3ToSRGB([1, 0, 0]))),
            ("color(display-p3 0 1 0)", Self.oklch(ofSRGB: Self.p3ToSRGB([0, 1, 0]))),
            ("color(display-p3 0 0 1)", Self.oklch(ofSRGB: Self.p3ToSRGB([0, 0, 1]))),
            ("oklch(0.7 0.3 145)", (0.7, 0.3, 145)),
            ("oklch(0.5 0.35 300)", (0.5, 0.35, 300)),
            ("color(display-p3 1 1 0)", Self.oklch(ofSRGB: Self.p3ToSRGB([1, 1, 0]))),
            ("oklch(0.85 0.2 90)", (0.85, 0.2, 90)),
            ("oklch(0.6 0.25 30)", (0.6, 0.25, 30)),
        ]
        let compiled = try compileScene(Self.swatches(written.map(\.0), space: "srgb"))
        let warnings = compiled.warnings.filter { $0.message.code == .colorOutsideGamut }
        XCTAssertEqual(warnings.count, 1, "one warning for all of them: \(compiled.warnings)")
        for (text, _) in written { XCTAssertTrue(warnings.first?.message.text.contains("'\(text)'") == true, "the warning lists \(text)") }
        let image = try compiled.renderImage(scale: 1)
        let oracle = try ExternalTool.run("python3", [Self.checker, "gamut-map"] + written.flatMap { [$0.1.0, $0.1.1, $0.1.2].map { String($0) } })
        let mapped = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(oracle.stdout.utf8)) as? [String: Any])?["mapped"] as? [[String: Any]],
                                   oracle.stderr)
        var worstL = 0.0, worstH = 0.0
        for (i, (text, lch)) in written.enumerated() {
            let rgb = try XCTUnwrap(mapped[i]["srgb"] as? [Double])
            XCTAssertTrue(rgb.allSatisfy { $0 >= -1e-6 && $0 <= 1 + 1e-6 }, "\(text) lands inside sRGB")
            assertPainted(image, i, rgb, text)
            let p = image.pixel(i * 10 + 5, 5)
            let got = Self.oklch(ofSRGB: [Double(p.r), Double(p.g), Double(p.b)].map { $0 / 255 })
            var dh = abs(got.h - lch.2).truncatingRemainder(dividingBy: 360)
            if dh > 180 { dh = 360 - dh }
            worstL = max(worstL, abs(got.l - lch.0)); worstH = max(worstH, dh)
            XCTAssertLessThan(got.c, lch.1, "\(text): chroma reduced")
        }
        XCTAssertLessThanOrEqual(worstL, 0.02, "lightness kept within the algorithm's JND")
        XCTAssertLessThanOrEqual(worstH, 2.6, "hue kept within the algorithm's JND")
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" {
            print("GAMUT worst lightness \(worstL) hue \(worstH)")
        }
        // In a Display P3 scene the P3 colours are inside; only the OKLCh
        // colours beyond P3 are mapped (into P3) and listed.
        let p3 = try compileScene(Self.swatches(written.map(\.0), space: "display-p3"))
        let listed = p3.warnings.first { $0.message.code == .colorOutsideGamut }?.message.text ?? ""
        XCTAssertFalse(listed.contains("display-p3 1 0 0"), listed)
        XCTAssertTrue(listed.contains("oklch(0.5 0.35 300)"), listed)
    }

    // MARK: Tagged output

    func testDisplayP3PNGCarriesAProfileLittleCMSReads() throws {
        let fills = ["#ff0000", "#3a7bd5", "#20c060", "color(display-p3 0.5 0.4 0.3)", "oklch(0.6 0.1 30)"]
        let compiled = try compileScene(Self.swatches(fills, space: "display-p3"))
        let dir = ExternalTool.temporaryDirectory("wide-color-png")
        let png = dir.appendingPathComponent("p3.png")
        try Data(try compiled.render(format: .png)).write(to: png)
        let profile = try json(ExternalTool.run("python3", [Self.checker, "profile", png.path]))
        XCTAssertEqual(profile["errors"] as? [String], [])
        let primaries = try XCTUnwrap(profile["primaries"] as? [[Double]])
        for (got, want) in zip(primaries, [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]) {
            XCTAssertEqual(got[0], want[0], accuracy: 0.0005); XCTAssertEqual(got[1], want[1], accuracy: 0.0005)
        }
        let white = try XCTUnwrap(profile["white"] as? [Double])
        XCTAssertEqual(white[0], 0.3127, accuracy: 0.0005); XCTAssertEqual(white[1], 0.3290, accuracy: 0.0005)
        XCTAssertEqual(profile["chunks"] as? [String], ["IHDR", "cICP", "iCCP", "IDAT", "IEND"])
        // LittleCMS converts the P3 pixels back to the sRGB colours written.
        let back = try json(ExternalTool.run("python3", [Self.checker, "to-srgb", png.path] + fills.indices.map { "\($0 * 10 + 5),5" }))
        let pixels = try XCTUnwrap(back["pixels"] as? [[Double]])
        let written: [[Double]] = [[1, 0, 0], [0x3a, 0x7b, 0xd5].map { $0 / 255 }, [0x20, 0xc0, 0x60].map { $0 / 255 },
                                   Self.p3ToSRGB([0.5, 0.4, 0.3]), Self.oklch(0.6, 0.1, 30, in: Self.linearSRGBToXYZ)]
        for (got, want) in zip(pixels, written) {
            for k in 0..<3 { XCTAssertEqual(got[k], (want[k] * 255).rounded(), accuracy: 2, "LittleCMS: \(got) vs \(want.map { $0 * 255 })") }
        }
        // An sRGB scene's PNG says so in 13 bytes.
        let srgb = try compileScene(Self.swatches(["#ff0000"], space: "srgb")).render(format: .png)
        try Data(srgb).write(to: dir.appendingPathComponent("srgb.png"))
        let plain = try json(ExternalTool.run("python3", [Self.checker, "profile", dir.appendingPathComponent("srgb.png").path]))
        XCTAssertEqual(plain["errors"] as? [String], ["no embedded ICC profile"])
        XCTAssertTrue(srgb.indices.dropLast(17).contains { Array(srgb[$0..<$0 + 4]) == Array("sRGB".utf8) && srgb[$0 + 4] == 0 })
    }

    /// Poppler (with LittleCMS) paints the PDF's colours through its ICC
    /// Display P3 space: sRGB red written in a P3 scene comes back as sRGB
    /// red, which it would not if the P3 numbers were read as device RGB.
    func testDisplayP3PDFIsReadThroughItsICCSpace() throws {
        let scene = """
            <scene width="40" height="20" color-space="display-p3">
              <defs><linearGradient id="g" angle="90"><stop offset="0" color="#ff0000"/><stop offset="1" color="#ff0000"/></linearGradient></defs>
              <view width="20" height="20" fill="#ff0000"/>
              <view x="20" width="20" height="20" fill="url(#g)"/>
            </scene>
            """
        let dir = ExternalTool.temporaryDirectory("wide-color-pdf")
        let pdf = dir.appendingPathComponent("p3.pdf")
        try Data(try compileScene(scene).render(format: .pdf)).write(to: pdf)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--check", pdf.path]).status, 0)
        let out = dir.appendingPathComponent("page")
        XCTAssertEqual(try ExternalTool.run("pdftoppm", ["-r", "72", "-png", "-singlefile", pdf.path, out.path]).status, 0)
        let page = try RasterImage(png: Array(try Data(contentsOf: out.appendingPathExtension("png"))))
        for x in [10, 30] {
            let p = page.pixel(x, 10)
            XCTAssertEqual(Double(p.r), 255, accuracy: 2, "\(p)")
            XCTAssertEqual(Double(p.g), 0, accuracy: 3, "\(p) (device RGB would give 51)")
            XCTAssertEqual(Double(p.b), 0, accuracy: 3, "\(p)")
        }
    }

    /// Chromium on a Display P3 screen shows Easel's P3 SVG like Easel's P3
    /// PNG, and the PNG as its own pixels.
    func testChromiumShowsTheDisplayP3SVGLikeThePNG() throws {
        let scene = """
            <scene width="200" height="120" color-space="display-p3" background="white">
              <defs><linearGradient id="brand" angle="0" interpolation="oklab">
                <stop offset="0" color="color(display-p3 1 0.1 0.2)"/><stop offset="1" color="color(display-p3 0.1 0.9 0.3)"/></linearGradient></defs>
              <view width="200" height="60" fill="url(#brand)"/>
              <view y="60" width="50" height="60" fill="color(display-p3 0 1 0)"/>
              <view x="50" y="60" width="50" height="60" fill="#3a7bd5"/>
              <view x="100" y="60" width="50" height="60" fill="oklch(0.6 0.25 20)"/>
              <view x="150" y="60" width="50" height="60" fill="color(display-p3 0.2 0.3 1)"/>
            </scene>
            """
        let compiled = try compileScene(scene)
        let dir = ExternalTool.temporaryDirectory("wide-color-chromium")
        let png = try compiled.render(format: .png)
        try Data(png).write(to: dir.appendingPathComponent("p3.png"))
        try Data(try compiled.render(format: .svg)).write(to: dir.appendingPathComponent("p3.svg"))
        // The PNG in a page at 0, 0 (Chromium shows a PNG alone centred on grey).
        try Data("<html><body style=\"margin:0\"><img style=\"display:block\" src=\"p3.png\"></body></html>".utf8)
            .write(to: dir.appendingPathComponent("p3.html"))
        let browser = try HeadlessChromium(width: 400, height: 300, arguments: ["--force-color-profile=display-p3-d65"], gpu: true)
        func shot(_ name: String) throws -> RasterImage {
            try browser.open(dir.appendingPathComponent(name).absoluteString)
            XCTAssertTrue(try browser.waitUntil("""
                (() => { if (document.readyState !== 'complete') return false;
                  requestAnimationFrame(() => requestAnimationFrame(() => { window.easelDrawn = true; })); return true })()
                """))
            XCTAssertTrue(try browser.waitUntil("window.easelDrawn === true"))
            return try RasterImage(png: try browser.screenshot()).cropped(width: 200, height: 120)
        }
        let own = try RasterImage(png: png)
        let pngShot = try shot("p3.html"), svgShot = try shot("p3.svg")
        assertSimilar(svgShot.blockMeans(4), pngShot.blockMeans(4), tolerance: 16, maxFraction: 0.06, name: "p3-svg-chromium")
        // The flat squares exactly: Chromium's P3 output is the PNG's P3 values.
        for x in [25, 75, 125, 175] {
            XCTAssertLessThanOrEqual(svgShot.pixel(x, 90).distance(to: own.pixel(x, 90)), 3, "SVG at \(x): \(svgShot.pixel(x, 90)) vs \(own.pixel(x, 90))")
            XCTAssertLessThanOrEqual(pngShot.pixel(x, 90).distance(to: own.pixel(x, 90)), 3, "PNG at \(x)")
        }
    }

    // MARK: Errors

    func testBadWideColoursAreLocatedErrors() {
        let cases: [(String, String)] = [
            ("color(display-p3 1.2 0 0)", "component '1.2' is outside 0…1"),
            ("color(display-p3 1 0)", "takes three components"),
            ("color(rec2020 1 0 0)", "display-p3 or srgb"),
            ("oklch(1.5 0.1 30)", "lightness '1.5' is outside 0…1"),
            ("oklch(0.5 -0.1 30)", "chroma '-0.1' is outside"),
            ("oklch(0.5 0.1 north)", "hue 'north'"),
            ("color(display-p3 1 0 0 / 2x)", "is not an alpha"),
        ]
        for (value, message) in cases {
            let found = diagnostics(of: "<scene width=\"10\" height=\"10\"><view width=\"10\" height=\"10\" fill=\"\(value)\"/></scene>")
            let error = found.first { $0.severity == .error }
            XCTAssertEqual(error?.message.code, .invalidColor, value)
            XCTAssertTrue(error?.message.text.contains(message) == true, "\(value): \(error?.message.text ?? "no error")")
            XCTAssertEqual(error?.location?.line, 1, value)
            XCTAssertEqual(error?.location?.column, 66, value)
        }
    }

    private func json(_ result: ToolResult) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stderr)
    }
}
