import Easel
@testable import EaselRender
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
    /// measured on these eight, lightness within 0.019 and hue within 2.5°
    /// (the issue's 1° and 0.01 are tighter than the algorithm allows).
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
        // What CSS Color 4 keeps: the search moves along chroma only (L and
        // H exact), and the colour painted is within its just-noticeable
        // difference (deltaEOK 0.02, plus 8-bit rounding) of such a colour.
        for (i, (text, lch)) in written.enumerated() {
            let p = image.pixel(i * 10 + 5, 5)
            let got = Self.oklch(ofSRGB: [Double(p.r), Double(p.g), Double(p.b)].map { $0 / 255 })
            let nearest = (0...400).map { Double($0) / 1000 }.map { c -> Double in
                let a = c * cos(lch.2 * .pi / 180), b = c * sin(lch.2 * .pi / 180)
                let ga = got.c * cos(got.h * .pi / 180), gb = got.c * sin(got.h * .pi / 180)
                return ((got.l - lch.0) * (got.l - lch.0) + (ga - a) * (ga - a) + (gb - b) * (gb - b)).squareRoot()
            }.min() ?? 1
            XCTAssertLessThan(nearest, 0.02 + 0.004, "\(text): within a JND of its lightness and hue")
        }
        XCTAssertLessThanOrEqual(worstL, 0.02)
        if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" {
            print("GAMUT worst lightness \(worstL) hue \(worstH)")
        }
        // A gradient between P3 stops in an sRGB scene: its stops mapped as
        // written (the warning's colours), then interpolated in sRGB between
        // them, so the gradient stays smooth.
        let gradient = try compileScene("""
            <scene width="100" height="10" dither="false"><defs><linearGradient id="g" angle="0">
              <stop color="color(display-p3 1 0 0)"/><stop color="color(display-p3 0 1 0)"/></linearGradient></defs>
              <view width="100" height="10" fill="url(#g)"/></scene>
            """).renderImage(scale: 1)
        let ends = [[1.0, 0, 0], [0, 1, 0]].map { p3 -> [String] in
            let lch = Self.oklch(ofSRGB: Self.p3ToSRGB(p3))
            return [lch.l, lch.c, lch.h].map { String($0) }
        }
        let mappedEnds = try XCTUnwrap((try json(ExternalTool.run("python3", [Self.checker, "gamut-map"] + ends.flatMap { $0 })))["mapped"]
                                       as? [[String: Any]]).compactMap { $0["srgb"] as? [Double] }
        XCTAssertEqual(mappedEnds.count, 2)
        for x in [10, 50, 90] {
            let t = (Double(x) + 0.5) / 100
            let want = zip(mappedEnds[0], mappedEnds[1]).map { $0 + ($1 - $0) * t }
            let p = gradient.pixel(x, 5)
            for (c, v) in [Double(p.r), Double(p.g), Double(p.b)].enumerated() {
                XCTAssertEqual(v, (want[c] * 255).rounded(), accuracy: 1.5, "gradient at \(x): \(p) vs \(want.map { $0 * 255 })")
            }
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
        // MuPDF (its own LittleCMS) agrees within its rendering intent's
        // few levels. PDFium as pypdfium2 ships it reads `rg` colours as
        // device RGB (it does not apply a resource dictionary's
        // `DefaultRGB`, though it converts a colour set with `cs`/`sc` in
        // an ICC space as Poppler does), and painted the shading, whose
        // space is the ICC one itself, the same with a profile whose red and
        // green are swapped: it shows the device-RGB reading, which proves
        // it read every object, and nothing about colour.
        let pages = dir.appendingPathComponent("others")
        _ = try json(ExternalTool.run("python3", [Self.checker, "pages", pdf.path, pages.path]))
        let mupdf = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: pages.path + "-mupdf.png"))))
        let pdfium = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: pages.path + "-pdfium.png"))))
        for x in [10, 30] {
            let p = mupdf.pixel(x, 10)
            XCTAssertEqual(Double(p.r), 255, accuracy: 6, "MuPDF: \(p)")
            XCTAssertEqual(Double(p.g), 0, accuracy: 10, "MuPDF: \(p) (device RGB would give 51)")
            XCTAssertEqual(Double(p.b), 0, accuracy: 10, "MuPDF: \(p)")
            let q = pdfium.pixel(x, 10)
            XCTAssertEqual([Double(q.r), Double(q.g), Double(q.b)], [234, 51, 35].map(Double.init), "PDFium: \(q)")
        }
    }

    /// A Display P3 PDF is the sRGB PDF with one profile more: each object
    /// written once (the retagging copied every stream it changed before
    /// qpdf wrote the file). And it is retagged whatever cross-reference
    /// form the PDF has: Cairo 1.17.6 and later write object and
    /// cross-reference streams, which qpdf makes of Cairo 1.16's file here.
    func testDisplayP3PDFIsTheSRGBPDFPlusAProfile() throws {
        let dir = ExternalTool.temporaryDirectory("wide-color-pdf-size")
        // A 256×256 image whose pixels deflate poorly, as a photo's do.
        let photo = dir.appendingPathComponent("photo.png").path
        XCTAssertEqual(try ExternalTool.run("python3", ["-c", "import random, sys; from PIL import Image; random.seed(7); "
            + "Image.frombytes('RGB', (256, 256), bytes(random.randrange(256) for _ in range(256 * 256 * 3))).save(sys.argv[1])",
            photo]).status, 0)
        let scene = """
            <scene width="256" height="256" color-space="display-p3"><image width="256" height="256" href="photo.png"/></scene>
            """
        var srgbOptions = Easel.Options()
        srgbOptions.colorSpace = .srgb
        let srgb = try compileScene(scene, baseDirectory: dir, options: srgbOptions).render(format: .pdf)
        let p3 = try compileScene(scene, baseDirectory: dir).render(format: .pdf)
        XCTAssertGreaterThan(srgb.count, 150_000)
        XCTAssertLessThanOrEqual(Double(p3.count), 1.1 * Double(srgb.count), "P3 \(p3.count) bytes, sRGB \(srgb.count)")

        let cairo = dir.appendingPathComponent("srgb.pdf"), streams = dir.appendingPathComponent("streams.pdf")
        try Data(srgb).write(to: cairo)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--object-streams=generate", cairo.path, streams.path]).status, 0)
        let retagged = try PDFColorSpace.displayP3(Array(try Data(contentsOf: streams)))
        let out = dir.appendingPathComponent("retagged.pdf"), expanded = dir.appendingPathComponent("expanded.pdf")
        try Data(retagged).write(to: out)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--check", out.path]).status, 0)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--qdf", "--object-streams=disable", out.path, expanded.path]).status, 0)
        let text = String(decoding: try Data(contentsOf: expanded), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "/DeviceRGB").count - 1, 1, "only the profile's /Alternate")
        XCTAssertTrue(text.contains("/DefaultRGB"))
        XCTAssertTrue(String(decoding: retagged, as: UTF8.self).contains("/ObjStm"), "object streams kept")
        // A file qpdf must repair is refused, not half retagged.
        XCTAssertThrowsError(try PDFColorSpace.displayP3(Array(srgb.prefix(srgb.count / 2))))
    }

    /// Every kind of PDF object Cairo writes colours into — content
    /// streams, axial and conic (mesh) shadings, a tiling pattern with its
    /// own resources, a group with opacity, an image — is read in Display
    /// P3: no dictionary names device RGB any more (but the profile's
    /// alternate), and Poppler's page is the P3 PNG as LittleCMS converts it
    /// to sRGB, not the PNG's numbers read as sRGB. (The group's colour is
    /// inside sRGB: Poppler blends in its sRGB output after converting,
    /// Cairo in P3, which for a colour outside sRGB means clipped before
    /// blending or after.)
    func testEveryKindOfPDFObjectIsInDisplayP3() throws {
        let dir = ExternalTool.temporaryDirectory("wide-color-pdf-kinds")
        try FileManager.default.copyItem(at: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/assets/tile.png"),
                                         to: dir.appendingPathComponent("tile.png"))
        let scene = """
            <scene width="300" height="100" color-space="display-p3" background="white">
              <defs>
                <linearGradient id="g" angle="90"><stop color="color(display-p3 1 0 0)"/><stop color="#0a84ff"/></linearGradient>
                <conicGradient id="c"><stop color="color(display-p3 0 1 0)"/><stop color="#ff9500"/><stop color="color(display-p3 0 1 0)"/></conicGradient>
                <stripes id="s" angle="45" spacing="12" line-width="6" color="color(display-p3 0 0.9 0.3)" background="#ffcc00"/>
              </defs>
              <view width="60" height="100" fill="url(#g)"/>
              <view x="60" width="60" height="100" fill="url(#c)"/>
              <view x="120" width="60" height="100" fill="url(#s)"/>
              <group opacity="0.6"><view x="180" width="60" height="100" fill="#c93a8c"/></group>
              <image x="240" width="60" height="100" href="tile.png" fit="fill"/>
            </scene>
            """
        // The same scene in sRGB: how far Poppler's page and Easel's PNG
        // differ anyway (a conic mesh against exact pixels, anti-aliasing).
        var srgbOptions = Easel.Options()
        srgbOptions.colorSpace = .srgb
        let srgbScene = try compileScene(scene, baseDirectory: dir, options: srgbOptions)
        try Data(try srgbScene.render(format: .pdf)).write(to: dir.appendingPathComponent("srgb.pdf"))
        try Data(try srgbScene.render(format: .png, scale: 1)).write(to: dir.appendingPathComponent("srgb.png"))
        XCTAssertEqual(try ExternalTool.run("pdftoppm", ["-r", "72", "-png", "-singlefile", dir.appendingPathComponent("srgb.pdf").path,
                                                         dir.appendingPathComponent("srgb-page").path]).status, 0)
        let baseline = try XCTUnwrap(try json(ExternalTool.run("python3", [Self.checker, "versus", dir.appendingPathComponent("srgb.png").path,
                                                                           dir.appendingPathComponent("srgb-page.png").path]))["converted"] as? [Double])

        let compiled = try compileScene(scene, baseDirectory: dir)
        let pdf = dir.appendingPathComponent("kinds.pdf"), png = dir.appendingPathComponent("kinds.png")
        try Data(try compiled.render(format: .pdf)).write(to: pdf)
        try Data(try compiled.render(format: .png, scale: 1)).write(to: png)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--check", pdf.path]).status, 0)
        let expanded = dir.appendingPathComponent("expanded.pdf")
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--qdf", "--object-streams=disable", pdf.path, expanded.path]).status, 0)
        let text = String(decoding: try Data(contentsOf: expanded), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "/DeviceRGB").count - 1, 1, "only the profile's /Alternate")
        XCTAssertTrue(text.contains("/ShadingType 7"), "the conic sweep is a mesh shading")
        XCTAssertTrue(text.contains("/DefaultRGB"))
        let page = dir.appendingPathComponent("page")
        XCTAssertEqual(try ExternalTool.run("pdftoppm", ["-r", "72", "-png", "-singlefile", pdf.path, page.path]).status, 0)
        let versus = try json(ExternalTool.run("python3", [Self.checker, "versus", png.path, page.path + ".png"]))
        let converted = try XCTUnwrap(versus["converted"] as? [Double]), raw = try XCTUnwrap(versus["raw"] as? [Double])
        for k in 0..<3 {
            XCTAssertLessThan(converted[k], baseline[k] + 1, "Poppler's page is the P3 picture in sRGB, as near as the sRGB scene's page is to its PNG: \(converted) vs \(baseline) (raw \(raw))")
        }
        XCTAssertGreaterThan(raw.max() ?? 0, 2 * (converted.max() ?? 0), "and not the P3 numbers read as sRGB: \(raw)")
        // MuPDF's page too.
        let others = dir.appendingPathComponent("others")
        _ = try json(ExternalTool.run("python3", [Self.checker, "pages", pdf.path, others.path]))
        let mupdf = try json(ExternalTool.run("python3", [Self.checker, "versus", png.path, others.path + "-mupdf.png"]))
        let mupdfConverted = try XCTUnwrap(mupdf["converted"] as? [Double])
        for k in 0..<3 {
            XCTAssertLessThan(mupdfConverted[k], baseline[k] + 2, "MuPDF's page is the P3 picture in sRGB: \(mupdfConverted) vs \(baseline)")
        }
    }

    /// An animated PNG of a Display P3 scene keeps the tags; an SVG's
    /// Display P3 colours outside sRGB fall back to their sRGB mapping for
    /// renderers without CSS Color 4 (librsvg paints the fallback, never
    /// black).
    func testAPNGIsTaggedAndSVGFallsBackToSRGB() throws {
        let scene = """
            <scene width="40" height="20" color-space="display-p3" duration="1">
              <defs><animatedGradient id="a" duration="1">
                <linearGradient angle="0"><stop color="color(display-p3 0 1 0)"/><stop color="#ffffff"/></linearGradient>
                <linearGradient angle="0"><stop color="#ffffff"/><stop color="color(display-p3 0 1 0)"/></linearGradient>
              </animatedGradient></defs>
              <view width="20" height="20" fill="url(#a)"/>
              <view x="20" width="20" height="20" fill="color(display-p3 0 1 0)"/>
            </scene>
            """
        let dir = ExternalTool.temporaryDirectory("wide-color-apng")
        let apng = dir.appendingPathComponent("a.png"), source = dir.appendingPathComponent("a.scene.xml")
        try Data(scene.utf8).write(to: source)
        let r = try ExternalTool.run(ExternalTool.easelExecutable, ["render", source.path, "-o", apng.path, "--fps", "4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let profile = try json(ExternalTool.run("python3", [Self.checker, "profile", apng.path]))
        XCTAssertEqual(Array((profile["chunks"] as? [String] ?? []).prefix(4)), ["IHDR", "cICP", "iCCP", "acTL"])
        let svg = try compileScene(scene).render(format: .svg)
        let file = dir.appendingPathComponent("p3.svg")
        try Data(svg).write(to: file)
        let text = String(decoding: svg, as: UTF8.self)
        XCTAssertTrue(text.contains("@supports (color: color(display-p3 0 0 0))"), text)
        XCTAssertTrue(text.contains("fill:color(display-p3 0 1 0)"), text)
        XCTAssertEqual(try ExternalTool.run("rsvg-convert", [file.path, "-o", dir.appendingPathComponent("rsvg.png").path]).status, 0)
        let shown = try RasterImage(png: Array(try Data(contentsOf: dir.appendingPathComponent("rsvg.png"))))
        // P3 green mapped into sRGB, as CSS Color 4 maps it.
        let mapped = try XCTUnwrap((try json(ExternalTool.run("python3", [Self.checker, "gamut-map", "0.848", "0.369", "145.6"]))["mapped"]
                                    as? [[String: Any]])?.first?["srgb"] as? [Double])
        let p = shown.pixel(30, 10)
        for (k, v) in [Double(p.r), Double(p.g), Double(p.b)].enumerated() {
            XCTAssertEqual(v, (mapped[k] * 255).rounded(), accuracy: 3, "librsvg shows the sRGB fallback: \(p)")
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
        // Loaded, then screenshots until the picture shows (its bottom-left
        // square is P3 green, not the blank page): a frame on the GPU path
        // can come after the load event, and requestAnimationFrame is not
        // always called in a headless window that is never shown.
        func shot(_ name: String) throws -> RasterImage {
            try browser.open(dir.appendingPathComponent(name).absoluteString)
            XCTAssertTrue(try browser.waitUntil("document.readyState === 'complete'"))
            let deadline = Date(timeIntervalSinceNow: EventWait.timeout)
            while true {
                let image = try RasterImage(png: try browser.screenshot()).cropped(width: 200, height: 120)
                let p = image.pixel(25, 90)
                if (p.r < 128 && p.g > 200) || Date() > deadline { return image }
            }
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
