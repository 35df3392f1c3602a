import Easel
import EaselRender
import EaselTestSupport
import Foundation
import XCTest

/// SVG files as `<image>`s (contract 1.3, "SVG as an input"), against
/// independent oracles: resvg drawing the same composition written as one
/// SVG (a nested `<svg>` per image, whose `preserveAspectRatio` is `fit`
/// said the SVG way), poppler for PDF, librsvg's CLI and xmllint for SVG output.
final class SVGImageTests: XCTestCase {
    /// A logo with what logos have: a gradient, curves, a stroke, a
    /// translucent group, an id the scene uses too (`g1`).
    static let logoBody = """
        <defs><linearGradient id="g1" x1="0" y1="0" x2="1" y2="1">\
        <stop offset="0" stop-color="#ff5a36"/><stop offset="1" stop-color="#3a2bd9"/></linearGradient></defs>\
        <rect x="4" y="4" width="112" height="72" rx="16" fill="url(#g1)"/>\
        <path d="M20 60 C 40 10, 80 10, 100 60" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round"/>\
        <g opacity="0.6"><circle cx="60" cy="40" r="14" fill="#ffe14d"/><circle cx="70" cy="40" r="14" fill="#14c8a0"/></g>
        """
    static let logo = #"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">"# + logoBody + "</svg>"

    func folder(_ files: [String: String]) throws -> URL {
        let dir = ExternalTool.temporaryDirectory("svg-image")
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    /// The boxes: one per `fit`, each a different aspect from the logo's.
    static let boxes: [(fit: String, x: Double, y: Double, w: Double, h: Double, aspect: String)] = [
        ("contain", 10, 10, 100, 100, "xMidYMid meet"),
        ("cover", 120, 10, 100, 100, "xMidYMid slice"),
        ("fill", 230, 10, 70, 110, "none"),
    ]

    static var scene: String {
        var s = #"<scene width="310" height="130" background="white">"# + "\n"
        s += ##"  <defs><linearGradient id="g1" angle="0"><stop offset="0" color="#000"/><stop offset="1" color="#888"/></linearGradient></defs>"## + "\n"
        s += #"  <rect x="0" y="125" width="310" height="5" fill="url(#g1)"/>"# + "\n"
        for b in boxes {
            s += "  <image href=\"logo.svg\" x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.w)\" height=\"\(b.h)\" fit=\"\(b.fit)\"/>\n"
        }
        return s + "</scene>\n"
    }

    /// The same picture as one SVG for resvg, at `scale`.
    static func reference(scale: Double) -> String {
        var s = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(310 * scale)" height="\#(130 * scale)" viewBox="0 0 310 130">"#
        s += ##"<defs><linearGradient id="ground" x1="0" y1="0" x2="310" y2="0" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#888"/></linearGradient></defs>"##
        s += #"<rect width="310" height="130" fill="white"/><rect x="0" y="125" width="310" height="5" fill="url(#ground)"/>"#
        for b in boxes {
            s += "<svg x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.w)\" height=\"\(b.h)\" viewBox=\"0 0 120 80\" preserveAspectRatio=\"\(b.aspect)\">"
            s += logoBody + "</svg>"
        }
        return s + "</svg>"
    }

    /// Mean absolute difference per channel (0–255), premultiplied.
    static func meanDifference(_ a: RasterImage, _ b: RasterImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0.0
        for i in stride(from: 0, to: a.rgba.count, by: 4) {
            let aa = Double(a.rgba[i + 3]) / 255, ba = Double(b.rgba[i + 3]) / 255
            for c in 0..<3 { sum += abs(Double(a.rgba[i + c]) * aa - Double(b.rgba[i + c]) * ba) }
            sum += abs(Double(a.rgba[i + 3]) - Double(b.rgba[i + 3]))
        }
        return sum / Double(a.rgba.count)
    }

    func testEachFitMatchesResvgAtOneAndThreeTimes() throws {
        let dir = try folder(["logo.svg": Self.logo])
        let compiled = try compileScene(Self.scene, baseDirectory: dir)
        for scale in [1.0, 3.0] {
            let ours = try compiled.renderImage(scale: scale)
            let theirs = try ReferenceRenderers.resvg(Self.reference(scale: scale))
            let mean = Self.meanDifference(ours, theirs)
            XCTAssertLessThanOrEqual(mean, 2, "@\(scale)x: mean difference \(mean)/255")
            // Sharp as vectors: at 3× the edges agree with resvg's 3× drawing
            // pixel by pixel, not only on average (a bitmap scaled up would
            // smear each edge over three pixels).
            assertSimilar(ours, theirs, tolerance: 48, maxFraction: 0.003, name: "svg-image-fit-\(Int(scale))x")
        }
    }

    /// A bitmap drawn at 1× and scaled up has soft edges: the test above
    /// fails on one (its own check that it can fail).
    func testTheOracleTellsABitmapScaledUpFromVectors() throws {
        let dir = try folder(["logo.svg": Self.logo])
        let compiled = try compileScene(Self.scene, baseDirectory: dir)
        let oneX = try compiled.renderImage(scale: 1)
        // Nearest-neighbour 3× of the 1× render.
        var rgba = [UInt8](repeating: 0, count: oneX.width * 3 * oneX.height * 3 * 4)
        for y in 0..<(oneX.height * 3) {
            for x in 0..<(oneX.width * 3) {
                let s = ((y / 3) * oneX.width + x / 3) * 4, d = (y * oneX.width * 3 + x) * 4
                for c in 0..<4 { rgba[d + c] = oneX.rgba[s + c] }
            }
        }
        let scaled = RasterImage(width: oneX.width * 3, height: oneX.height * 3, rgba: rgba)
        let theirs = try ReferenceRenderers.resvg(Self.reference(scale: 3))
        let d = try XCTUnwrap(compare(scaled, theirs, tolerance: 48))
        XCTAssertGreaterThan(d.fractionOver, 0.003, "a scaled-up bitmap passes the sharpness bound")
    }

    func testThePDFDrawsVectorsAndSelectableTextNoImage() throws {
        let withText = Self.logo.replacingOccurrences(of: "</svg>", with:
            ##"<text x="60" y="74" font-family="DejaVu Sans" font-size="9" text-anchor="middle" fill="#fff">Acme Logo</text></svg>"##)
        let dir = try folder(["logo.svg": withText])
        let compiled = try compileScene(Self.scene, baseDirectory: dir)
        let pdf = try compiled.render(format: .pdf)
        let file = dir.appendingPathComponent("out.pdf")
        try Data(pdf).write(to: file)
        let images = try ExternalTool.run("pdfimages", ["-list", file.path])
        XCTAssertEqual(images.status, 0, images.stderr)
        let rows = images.stdout.split(separator: "\n").dropFirst(2)
        XCTAssertTrue(rows.isEmpty, "the PDF holds images:\n\(images.stdout)")
        let text = try ExternalTool.run("pdftotext", ["-raw", file.path, "-"])
        // The stretched (`fill`) one comes out letter by letter.
        let letters = text.stdout.filter { !$0.isWhitespace }
        XCTAssertEqual(letters.components(separatedBy: "AcmeLogo").count - 1, 3, "the logo's text, once per image: \(text.stdout)")
        // poppler's page against Easel's PNG of the same tree.
        let page = try ReferenceRenderers.poppler(pdf)
        let png = try compiled.renderImage(scale: 1)
        let mean = Self.meanDifference(png, page)
        XCTAssertLessThanOrEqual(mean, 2, "PDF vs PNG: mean difference \(mean)/255")
    }

    /// Two different SVGs with the same ids beside a scene gradient of that
    /// id: the SVG output is well-formed (xmllint), every id is unique,
    /// every reference lands on one, and librsvg draws it like the PNG.
    func testTheSVGOutputIsWellFormedCollisionFreeAndLooksLikeThePNG() throws {
        let other = Self.logo.replacingOccurrences(of: "#ff5a36", with: "#10a010")
        let dir = try folder(["logo.svg": Self.logo, "other.svg": other])
        var scene = Self.scene
        scene = scene.replacingOccurrences(of: #"fit="fill"/>"#, with: #"fit="fill"/>"# + "\n" +
            #"  <image href="other.svg" x="10" y="60" width="60" height="40"/>"# + "\n" +
            #"  <image href="other.svg" x="200" y="60" width="60" height="40" tint="url(#g1)"/>"#)
        let compiled = try compileScene(scene, baseDirectory: dir)
        let svg = try compiled.render(format: .svg)
        let text = String(decoding: svg, as: UTF8.self)
        let file = dir.appendingPathComponent("out.svg")
        try Data(svg).write(to: file)
        let lint = try ExternalTool.run("xmllint", ["--noout", file.path])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        func captures(_ pattern: String) -> [String] {
            let regex = try! NSRegularExpression(pattern: pattern)
            return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            }
        }
        let ids = captures(#"\bid="([^"]+)""#)
        XCTAssertEqual(ids.count, Set(ids).count, "ids repeat: \(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
        let references = captures(##"url\(#([^)]+)\)"##) + captures(##"href="#([^"]+)""##)
        XCTAssertFalse(references.isEmpty)
        for r in Set(references) { XCTAssertTrue(ids.contains(r), "a reference to '\(r)', which no element has") }
        XCTAssertFalse(text.contains("data:image/png"), "an SVG image was embedded as a picture")
        let drawn = try ReferenceRenderers.rsvg(text)
        let png = try compiled.renderImage(scale: 1)
        let mean = Self.meanDifference(png, drawn)
        XCTAssertLessThanOrEqual(mean, 2, "SVG (librsvg) vs PNG: mean difference \(mean)/255")
    }

    /// `tint` paints a gradient through the picture's coverage, for a PNG
    /// (drawn here by rsvg-convert, with alpha) and an SVG: resvg draws the
    /// same as an alpha mask over an SVG gradient across the frame.
    func testTintPaintsAGradientThroughPNGAndSVGCoverage() throws {
        let ring = ##"<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80"><circle cx="40" cy="40" r="30" fill="none" stroke="#000" stroke-width="12"/><rect x="30" y="30" width="20" height="20" fill="#000" fill-opacity="0.5"/></svg>"##
        let dir = try folder(["ring.svg": ring])
        let r = try ExternalTool.run("rsvg-convert", ["-o", dir.appendingPathComponent("ring.png").path, dir.appendingPathComponent("ring.svg").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let scene = """
            <scene width="200" height="100" background="white">
              <defs><linearGradient id="warm" angle="0"><stop offset="0" color="#e0302a"/><stop offset="1" color="#2a40e0"/></linearGradient></defs>
              <image href="ring.png" x="10" y="10" width="80" height="80" tint="url(#warm)"/>
              <image href="ring.svg" x="110" y="10" width="80" height="80" tint="url(#warm)"/>
            </scene>
            """
        let compiled = try compileScene(scene, baseDirectory: dir)
        let ringBody = ##"<circle cx="40" cy="40" r="30" fill="none" stroke="#000" stroke-width="12"/><rect x="30" y="30" width="20" height="20" fill="#000" fill-opacity="0.5"/>"##
        var reference = #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="white"/>"#
        for x in [10, 110] {
            reference += ##"<defs><linearGradient id="w\##(x)" gradientUnits="userSpaceOnUse" x1="\##(x)" y1="0" x2="\##(x + 80)" y2="0"><stop offset="0" stop-color="#e0302a"/><stop offset="1" stop-color="#2a40e0"/></linearGradient>"##
            reference += ##"<mask id="m\##(x)" mask-type="alpha" maskUnits="userSpaceOnUse" x="0" y="0" width="200" height="100"><g transform="translate(\##(x) 10)">\##(ringBody)</g></mask></defs>"##
            reference += ##"<rect x="\##(x)" y="10" width="80" height="80" fill="url(#w\##(x))" mask="url(#m\##(x))"/>"##
        }
        reference += "</svg>"
        let ours = try compiled.renderImage(scale: 1)
        let theirs = try ReferenceRenderers.resvg(reference)
        let mean = Self.meanDifference(ours, theirs)
        XCTAssertLessThanOrEqual(mean, 2, "tint: mean difference \(mean)/255")
        // The contract's gradient evaluated at pixel centres (angle 0: offset
        // = (x + 0.5 − frame's x) / 80 from #e0302a to #2a40e0): the ring's
        // left and right sides, the half-covered centre over white, and white
        // outside the coverage.
        func mix(_ t: Double) -> (Double, Double, Double) {
            let a = (224.0, 48.0, 42.0), b = (42.0, 64.0, 224.0)
            return ((a.0 + (b.0 - a.0) * t) / 255, (a.1 + (b.1 - a.1) * t) / 255, (a.2 + (b.2 - a.2) * t) / 255)
        }
        for x0 in [10, 110] {
            for (dx, coverage) in [(10, 1.0), (70, 1.0), (40, 0.5)] {
                let c = mix((Double(dx) + 0.5) / 80)
                let over = (c.0 * coverage + 1 - coverage, c.1 * coverage + 1 - coverage, c.2 * coverage + 1 - coverage)
                assertPixel(ours, x0 + dx, 50, ExpectedColor(over.0, over.1, over.2), tolerance: 6)
            }
            assertPixel(ours, x0 + 2, 12, ExpectedColor(1, 1, 1), tolerance: 1)
        }
    }

    /// A blur of any radius is one pass per primitive over the image's
    /// pixels: one renders; two hundred are refused by the paint budget
    /// before librsvg runs them, at the `<image>`.
    func testHugeBlursRenderOrAreRefusedByThePaintBudget() throws {
        func blur(_ count: Int) -> String {
            #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f" x="-1000" y="-1000" width="3000" height="3000" filterUnits="userSpaceOnUse">"#
                + String(repeating: #"<feGaussianBlur stdDeviation="100000"/>"#, count: count)
                + #"</filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>"#
        }
        let dir = try folder(["one.svg": blur(1), "many.svg": blur(200)])
        let one = try compileScene(#"<scene width="400" height="400"><image href="one.svg" width="400" height="400"/></scene>"#, baseDirectory: dir)
        XCTAssertNoThrow(try one.renderImage(scale: 4))
        let many = try compileScene("<scene width=\"400\" height=\"400\">\n  <image href=\"many.svg\" width=\"400\" height=\"400\"/>\n</scene>", baseDirectory: dir)
        XCTAssertThrowsError(try many.renderImage(scale: 4)) { error in
            let d = (error as? DiagnosticsError)?.diagnostics.first
            XCTAssertEqual(d?.message.code, .workTooLarge, "\(error)")
            XCTAssertEqual(d?.location?.line, 2)
        }
    }

    /// An SVG image's text is drawn in the scene's fonts: with only a
    /// declared font (Inter) and the machine's fonts off, resvg given that
    /// one font file and no system fonts draws the same words alike.
    func testSVGTextUsesTheScenesDeclaredFont() throws {
        let words = ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60"><text x="10" y="42" font-family="Inter" font-size="32" fill="#102030">Haven</text></svg>"##
        let dir = try folder(["words.svg": words])
        let compiled = try compileScene(##"<scene width="200" height="60" background="white"><image href="words.svg" width="200" height="60"/></scene>"##,
                                        baseDirectory: dir, options: TestFonts.declaredOnly())
        let ours = try compiled.renderImage(scale: 1)
        let input = dir.appendingPathComponent("words-ref.svg"), output = dir.appendingPathComponent("words-ref.png")
        try Data(words.replacingOccurrences(of: "<text", with: ##"<rect width="200" height="60" fill="white"/><text"##).utf8).write(to: input)
        let r = try ExternalTool.run("resvg", ["--skip-system-fonts", "--use-font-file", TestFonts.inter.path, input.path, output.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let theirs = try RasterImage(png: [UInt8](try Data(contentsOf: output)))
        // Ink is there (a fallback to no font would draw nothing or boxes),
        // and where resvg's is: block means of 4×4 within 16/255.
        let inked = stride(from: 0, to: ours.rgba.count, by: 4).filter { ours.rgba[$0] < 128 }.count
        XCTAssertGreaterThan(inked, 300, "the words were drawn")
        assertSimilar(ours.blockMeans(4), theirs.blockMeans(4), tolerance: 16, maxFraction: 0.02, name: "svg-text-inter")
        XCTAssertTrue(compiled.warnings.isEmpty, "\(compiled.warnings)")
    }

    /// A character no font of the compile has, in an SVG image's text, is
    /// `--missing-glyphs`' warning or error at the `<image>`.
    func testMissingGlyphsInSVGTextFollowTheOption() throws {
        let text = ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><text x="5" y="30" font-family="Inter" font-size="20">A&#x10FFFD;</text></svg>"##
        let dir = try folder(["t.svg": text])
        let source = "<scene width=\"100\" height=\"40\">\n  <image href=\"t.svg\"/>\n</scene>"
        let warned = try compileScene(source, baseDirectory: dir, options: TestFonts.declaredOnly())
        let w = try XCTUnwrap(warned.warnings.first { $0.message.code == .missingGlyphs }, "\(warned.warnings)")
        XCTAssertEqual(w.location?.line, 2)
        XCTAssertTrue(w.message.text.contains("U+10FFFD"), w.message.text)
        var strict = TestFonts.declaredOnly()
        strict.missingGlyphs = .error
        let errors = diagnostics(of: source, baseDirectory: dir, options: strict)
        XCTAssertTrue(errors.contains { $0.severity == .error && $0.message.code == .missingGlyphs && $0.location?.line == 2 }, "\(errors)")
    }

    /// 200 copies of one logo at one size cost one librsvg draw in a PNG
    /// render (a picture per device transform, painted per use), two at
    /// another size, one per use in PDF (vectors each time); and every copy
    /// is resvg's drawing of it.
    func testALogoUsedManyTimesIsDrawnOncePerDeviceTransform() throws {
        let dir = try folder(["logo.svg": Self.logo])
        var scene = #"<scene width="400" height="250" background="white">"# + "\n"
        for i in 0..<200 { scene += "  <image href=\"logo.svg\" x=\"\((i % 20) * 20)\" y=\"\((i / 20) * 20)\" width=\"18\" height=\"12\"/>\n" }
        scene += #"  <image href="logo.svg" x="0" y="205" width="60" height="40"/>"# + "\n</scene>\n"
        let compiled = try compileScene(scene, baseDirectory: dir)
        let drawn = Locked(0)
        PaintingProbe.onSVGImageDrawn { drawn.withLock { $0 += 1 } }
        defer { PaintingProbe.onSVGImageDrawn(nil) }
        let png = try compiled.renderImage(scale: 1)
        XCTAssertEqual(drawn.withLock { $0 }, 2, "one picture per size, at whole-pixel positions")
        _ = try compiled.render(format: .pdf)
        XCTAssertEqual(drawn.withLock { $0 }, 2 + 201, "PDF: vectors at every use")
        var reference = #"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="250"><rect width="400" height="250" fill="white"/>"#
        for i in 0..<200 {
            reference += "<svg x=\"\((i % 20) * 20)\" y=\"\((i / 20) * 20)\" width=\"18\" height=\"12\" viewBox=\"0 0 120 80\">" + Self.logoBody + "</svg>"
        }
        reference += #"<svg x="0" y="205" width="60" height="40" viewBox="0 0 120 80">"# + Self.logoBody + "</svg></svg>"
        let mean = Self.meanDifference(png, try ReferenceRenderers.resvg(reference))
        XCTAssertLessThanOrEqual(mean, 2, "mean difference \(mean)/255")
    }

    /// SVG images with text render on several threads at once (each sets
    /// its own thread's font map for librsvg's text), each render equal to
    /// the same render made alone: PNG, PDF and SVG.
    func testSVGImagesWithTextRenderOnThreadsAtOnce() throws {
        let withText = Self.logo.replacingOccurrences(of: "</svg>", with:
            ##"<text x="60" y="74" font-family="Inter" font-size="9" text-anchor="middle" fill="#fff">Acme Logo</text></svg>"##)
        let dir = try folder(["logo.svg": withText])
        let compiled = try compileScene(Self.scene, baseDirectory: dir, options: TestFonts.declaredOnly())
        let formats: [OutputFormat] = [.png, .pdf, .svg]
        let alone = try formats.map { try compiled.render(format: $0) }
        let results = Locked([[UInt8]?](repeating: nil, count: 12))
        DispatchQueue.concurrentPerform(iterations: 12) { i in
            let bytes = try? compiled.render(format: formats[i % 3])
            results.withLock { $0[i] = bytes }
        }
        for (i, bytes) in results.withLock({ $0 }).enumerated() {
            XCTAssertEqual(bytes, alone[i % 3], "render \(i) (\(formats[i % 3])) differs from the render made alone")
        }
    }

    /// An SVG image inside a pattern tile is drawn at the tile's own
    /// resolution (the tile's device scale), not at one pixel a point and
    /// scaled up: at @3x it matches resvg's pattern of the same logo.
    func testAnSVGImageInAPatternTileIsSharpAtThreeTimes() throws {
        let dir = try folder(["logo.svg": Self.logo])
        let compiled = try compileScene("""
            <scene width="180" height="120" background="white">
              <defs><pattern id="p" width="60" height="40"><image href="logo.svg" width="60" height="40"/></pattern></defs>
              <rect width="180" height="120" fill="url(#p)"/>
            </scene>
            """, baseDirectory: dir)
        let ours = try compiled.renderImage(scale: 3)
        let reference = ##"<svg xmlns="http://www.w3.org/2000/svg" width="540" height="360" viewBox="0 0 180 120"><defs><pattern id="p" width="60" height="40" patternUnits="userSpaceOnUse"><svg width="60" height="40" viewBox="0 0 120 80">"## + Self.logoBody + ##"</svg></pattern></defs><rect width="180" height="120" fill="white"/><rect width="180" height="120" fill="url(#p)"/></svg>"##
        let theirs = try ReferenceRenderers.resvg(reference)
        XCTAssertLessThanOrEqual(Self.meanDifference(ours, theirs), 2)
        assertSimilar(ours, theirs, tolerance: 48, maxFraction: 0.004, name: "svg-image-in-tile-3x")
    }

    /// Nothing of an SVG shows outside its fitted box — not what overflows
    /// its viewBox — in PNG, PDF (poppler) and SVG (librsvg) alike; a
    /// `data:` PNG inside it is drawn.
    func testNothingShowsOutsideTheFittedBoxInAnyFormat() throws {
        // A 1×1 opaque blue PNG, base64 (made here from its bytes).
        let bluePNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC"
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><rect x="-50" y="-50" width="110" height="110" fill="#e0302a"/><image x="2" y="2" width="6" height="6" preserveAspectRatio="none" xlink:href="data:image/png;base64,"## + bluePNG + ##""/></svg>"##
        let dir = try folder(["over.svg": svg])
        let compiled = try compileScene(##"<scene width="100" height="50" background="white"><image href="over.svg" width="100" height="50" fit="contain"/></scene>"##, baseDirectory: dir)
        let png = try compiled.renderImage(scale: 1)
        let pdf = try ReferenceRenderers.poppler(try compiled.render(format: .pdf))
        let drawn = try ReferenceRenderers.rsvg(String(decoding: try compiled.render(format: .svg), as: UTF8.self))
        for (name, image) in [("PNG", png), ("PDF", pdf), ("SVG", drawn)] {
            assertPixel(image, 10, 25, ExpectedColor(1, 1, 1), tolerance: 2, "\(name): left of the box")
            assertPixel(image, 90, 25, ExpectedColor(1, 1, 1), tolerance: 2, "\(name): right of the box")
            assertPixel(image, 30, 25, ExpectedColor(hex: "#e0302a"), tolerance: 4, "\(name): inside")
            assertPixel(image, 50, 25, ExpectedColor(0, 0, 1), tolerance: 4, "\(name): the data: PNG")
        }
    }

    /// In a Display P3 scene librsvg's sRGB is converted like a PNG's: an
    /// SVG's #d07020 is P3 (0.7658, 0.4585, 0.2081) in the PNG (the
    /// CSS Color 4 matrices, evaluated independently of Easel), and poppler,
    /// which colour-manages the P3-tagged PDF, shows #d07020 again (sRGB
    /// numbers taken as P3 would show about #df6900).
    func testAnSVGImageInADisplayP3SceneIsConverted() throws {
        let dir = try folder(["ochre.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#d07020"/></svg>"##])
        let compiled = try compileScene(##"<scene width="40" height="40" color-space="display-p3"><image href="ochre.svg" width="40" height="40"/></scene>"##, baseDirectory: dir)
        assertPixel(try compiled.renderImage(scale: 2), 40, 40, ExpectedColor(0.7658, 0.4585, 0.2081), tolerance: 3, "PNG")
        assertPixel(try ReferenceRenderers.poppler(try compiled.render(format: .pdf)), 20, 20, ExpectedColor(hex: "#d07020"), tolerance: 4, "PDF")
    }

    func testTheSameSceneGivesTheSameBytes() throws {
        let dir = try folder(["logo.svg": Self.logo])
        for format in [OutputFormat.png, .pdf, .svg] {
            let a = try compileScene(Self.scene, baseDirectory: dir).render(format: format)
            let b = try compileScene(Self.scene, baseDirectory: dir).render(format: format)
            XCTAssertEqual(a, b, "\(format)")
        }
    }
}
