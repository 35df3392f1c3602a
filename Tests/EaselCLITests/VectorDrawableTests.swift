import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Android VectorDrawable output (contract 1.3, "Vector outputs for
/// platforms"). Every drawable is drawn by a rasteriser written in the
/// tests from Android's documented semantics
/// (`Tests/Fixtures/platform-assets/vector_drawable.py`: groups,
/// clip paths, gradients translated to their SVG equivalents for resvg, a
/// sweep evaluated wedge by wedge) and compared with Easel's PNG; the
/// Android builds are compiled and linked by `aapt2`.
final class VectorDrawableTests: XCTestCase, CommandLineTesting {
    var dir: URL!

    override func setUpWithError() throws {
        dir = ExternalTool.temporaryDirectory(name)
    }

    static let rasteriser = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/platform-assets/vector_drawable.py").path
    static let checker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/platform-assets/check_assets.py").path
    static let kinds = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/vector-drawable/kinds.scene.xml").path

    /// The independent rasteriser's comparison of a VectorDrawable with a
    /// PNG at `scale`. Besides the mean (which a small missing element
    /// hardly moves) every 8-pixel block's mean must agree within 32/255:
    /// glyph anti-aliasing moves a block by at most about 17, a missing
    /// stroke, dash or stripe by 100 or more.
    func compare(_ xml: String, _ png: String, scale: Double, file: StaticString = #filePath, line: UInt = #line) throws -> (mean: Double, max: Double) {
        let r = try ExternalTool.run("python3", [Self.rasteriser, "compare", xml, png, "\(scale)"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(json["errors"] as? [String], [], file: file, line: line)
        XCTAssertLessThanOrEqual(json["block_max"] as? Double ?? 999, blockBound, "8-pixel block means of \(xml)", file: file, line: line)
        return (json["mean"] as? Double ?? 999, json["max"] as? Double ?? 999)
    }

    /// Raised only by the test that shows the rasteriser sees wrong drawables.
    var blockBound = 32.0

    func python(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try ExternalTool.run("python3", arguments)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    // MARK: Pixels

    /// Gradients of each kind (linear at an angle, OKLab, radial stretched
    /// to an ellipse, user-space radial reflecting, conic sweeps with and
    /// without hard stops, a conic stroke), a rotated group, a skewed group
    /// clipped by a union of two shapes, dashed round-capped curves, a
    /// dashed gradient stroke with round joins, gradient text, a
    /// translucent fill and stripes (lines clipped to the shape): the
    /// rasteriser draws the VectorDrawable within
    /// 3/255 mean of Easel's PNG, at 1x and 3x.
    func testEveryKindOfContentDrawsAsEaselsPNG() throws {
        let xml = dir.appendingPathComponent("kinds.xml").path
        let r = try easel(["render", Self.kinds, "-o", xml])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        for needed in ["android:type=\"linear\"", "android:type=\"radial\"", "android:type=\"sweep\"", "<clip-path ", "android:rotation=",
                       "android:strokeLineCap=\"round\"", "android:tileMode=\"mirror\"", "aapt:attr name=\"android:strokeColor\""] {
            XCTAssertTrue(text.contains(needed), "the drawable has \(needed)")
        }
        XCTAssertFalse(text.contains("dash"), "a VectorDrawable has no dashes: they are pieces of path")
        // The same scene, the same bytes.
        let again = dir.appendingPathComponent("again.xml").path
        XCTAssertEqual(try easel(["render", Self.kinds, "-o", again]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: again), FileManager.default.contents(atPath: xml))
        for scale in [1.0, 3.0] {
            let png = dir.appendingPathComponent("kinds@\(scale).png").path
            XCTAssertEqual(try easel(["render", Self.kinds, "-o", png, "--scale", "\(scale)"]).status, 0)
            let diff = try compare(xml, png, scale: scale)
            XCTAssertLessThanOrEqual(diff.mean, 3, "at \(scale)x")
        }
    }

    /// The docs' scenes a VectorDrawable can hold, compared the same way.
    func testTheDocsScenesThatCanBeVectorDrawablesDrawAsTheirPNGs() throws {
        let docs = ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes")
        for name in ["transforms", "strokes", "linear-gradients", "shapes", "fill-rule", "spread", "interpolation", "views", "text", "spans", "graph-layers"] {
            let scene = docs.appendingPathComponent(name + ".scene.xml").path
            let xml = dir.appendingPathComponent(name + ".xml").path, png = dir.appendingPathComponent(name + ".png").path
            let r = try easel(["render", scene, "-o", xml])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(try easel(["render", scene, "-o", png, "--scale", "2"]).status, 0)
            XCTAssertLessThanOrEqual(try compare(xml, png, scale: 2).mean, 3, name)
        }
    }

    /// The rasteriser is not lenient: a drawable whose gradient is turned
    /// the wrong way, or whose group has lost its rotation, is far off.
    func testTheRasteriserSeesAWrongDrawable() throws {
        let xml = dir.appendingPathComponent("kinds.xml").path, png = dir.appendingPathComponent("kinds.png").path
        XCTAssertEqual(try easel(["render", Self.kinds, "-o", xml]).status, 0)
        XCTAssertEqual(try easel(["render", Self.kinds, "-o", png]).status, 0)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        blockBound = .infinity
        // The dashed curve taken out: the mean hardly moves, its blocks do.
        let curve = text.range(of: "android:strokeColor=\"#E76F51\"").map { r -> String in
            let start = text[..<r.lowerBound].range(of: "<path", options: .backwards)!.lowerBound
            let end = text[r.upperBound...].range(of: "/>")!.upperBound
            return String(text[..<start] + text[end...])
        }
        let withoutCurve = dir.appendingPathComponent("no-curve.xml").path
        try XCTUnwrap(curve).write(toFile: withoutCurve, atomically: true, encoding: .utf8)
        let r = try ExternalTool.run("python3", [Self.rasteriser, "compare", withoutCurve, png, "1"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertGreaterThan(json["block_max"] as? Double ?? 0, 64, "the curve's blocks")
        for (label, broken) in [("no rotation", text.replacingOccurrences(of: "android:rotation=", with: "android:pivotX=")),
                                ("sweep turned", text.replacingOccurrences(of: "android:type=\"sweep\" android:centerX=\"365\"", with: "android:type=\"sweep\" android:centerX=\"375\"")),
                                ("no clip", text.replacingOccurrences(of: "<clip-path ", with: "<path "))] {
            XCTAssertNotEqual(broken, text, label)
            let bad = dir.appendingPathComponent("bad.xml").path
            try broken.write(toFile: bad, atomically: true, encoding: .utf8)
            XCTAssertGreaterThan(try compare(bad, png, scale: 1).mean, 0.5, label)
        }
    }

    /// SVG images become their shapes: librsvg's drawing read back from
    /// Cairo's SVG surface — gradients, clips, dashes, text as glyphs —
    /// drawn by the rasteriser as Easel draws the PNG; the docs' scene of
    /// SVG images (each fit, and a tint) too. A blur is a picture: an error
    /// naming the file.
    func testSVGImagesBecomeTheirShapes() throws {
        let fixtures = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/vector-drawable")
        for file in ["svg-images.scene.xml", "badge.svg", "blur.svg"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(file), to: dir.appendingPathComponent(file))
        }
        try FileManager.default.copyItem(at: ExternalTool.repositoryRoot.appendingPathComponent("examples/svg-logo/logo.svg"),
                                         to: dir.appendingPathComponent("logo.svg"))
        let scenes = [dir.appendingPathComponent("svg-images.scene.xml").path,
                      ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/svg-images.scene.xml").path]
        for (k, scene) in scenes.enumerated() {
            let xml = dir.appendingPathComponent("s\(k).xml").path, png = dir.appendingPathComponent("s\(k).png").path
            let r = try easel(["render", scene, "-o", xml])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try easel(["render", scene, "-o", png, "--scale", "3"]).status, 0)
            XCTAssertLessThanOrEqual(try compare(xml, png, scale: 3).mean, 3, scene)
        }
        let blur = try write("blur.scene.xml", "<scene width=\"40\" height=\"40\">\n  <image href=\"blur.svg\" width=\"40\" height=\"40\"/>\n</scene>")
        let r = try easel(["render", blur, "-o", dir.appendingPathComponent("blur.xml").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("blur.scene.xml:2:3: error: cannot write this as a VectorDrawable: the SVG image 'blur.svg' cannot be written as VectorDrawable paths: it draws an embedded picture"), r.stderr)
    }

    // MARK: What a VectorDrawable cannot hold

    func testWhatAVectorDrawableCannotExpressIsALocatedErrorAndNoFile() throws {
        _ = try write("tile.png", "")
        let cases: [(String, String, String)] = [
            ("pattern", #"<scene width="40" height="40"><defs><pattern id="p" width="4" height="4"><rect width="2" height="2"/></pattern></defs>"# + "\n" + #"<rect width="40" height="40" fill="url(#p)"/></scene>"#,
             "pattern.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable has no pattern fills"),
            ("opacity", #"<scene width="40" height="40">"# + "\n" + #"<group opacity="0.5"><rect width="30" height="30"/><rect x="10" y="10" width="30" height="30" fill="red"/></group></scene>"#,
             "opacity.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable group has no opacity"),
            ("focus", #"<scene width="40" height="40"><defs><radialGradient id="g" focus="0.3 0.3"><stop color="white"/><stop color="blue"/></radialGradient></defs>"# + "\n" + #"<circle cx="20" cy="20" r="20" fill="url(#g)"/></scene>"#,
             "focus.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable's radial gradient has no focal point"),
            ("dashes", #"<scene width="400" height="400">"# + "\n" + #"<path d="M0 0 L400 400 L0 400 L400 0 Z" fill="none" stroke="black" dash="0.001 0.001"/></scene>"#,
             "dashes.scene.xml:2:1: error: cannot write this as a VectorDrawable: this dash pattern would make about"),
            ("star", #"<scene width="40" height="40"><defs><clipPath id="c"><path d="M20 0 L32 40 L0 14 L40 14 L8 40 Z" clip-rule="evenodd"/></clipPath></defs>"# + "\n" + #"<group clip-path="url(#c)"><rect width="40" height="40"/></group></scene>"#,
             "star.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable clips by the non-zero rule only, and this even-odd clip has several outlines or crosses itself"),
            ("bowtie", #"<scene width="40" height="40"><defs><clipPath id="c"><path d="M0 0 L40 40 L40 0 L0 40 Z"/><rect width="10" height="40"/></clipPath></defs>"# + "\n" + #"<group clip-path="url(#c)"><rect width="40" height="40"/></group></scene>"#,
             "bowtie.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable clips with one non-zero path, and this clip joins shapes of several outlines or that cross themselves"),
            ("underline", #"<scene width="80" height="40">"# + "\n" + #"<group opacity="0.5"><text x="4" y="4" font-size="20"><span underline="true">gyp</span></text></group></scene>"#,
             "underline.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable group has no opacity"),
            ("evenodd", #"<scene width="40" height="40"><defs><clipPath id="c"><path d="M0 0H40V40H0Z M10 10H30V30H10Z" clip-rule="evenodd"/></clipPath></defs>"# + "\n" + #"<group clip-path="url(#c)"><rect width="40" height="40"/></group></scene>"#,
             "evenodd.scene.xml:2:1: error: cannot write this as a VectorDrawable: a VectorDrawable clips by the non-zero rule only"),
        ]
        for (name, scene, message) in cases {
            let path = try write(name + ".scene.xml", scene)
            let out = dir.appendingPathComponent(name + ".xml").path
            let r = try easel(["render", path, "-o", out])
            XCTAssertEqual(r.status, 1, name)
            XCTAssertTrue(r.stderr.contains(message), "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("[E0810]"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), name)
        }
        // A scene is never its own output.
        let own = try write("own.scene.xml", #"<scene width="4" height="4"/>"#)
        let overwritten = try easel(["render", own, "-o", own, "--format", "vector-drawable"])
        XCTAssertNotEqual(overwritten.status, 0)
        XCTAssertTrue(overwritten.stderr.contains("is a scene this render reads"), overwritten.stderr)
        XCTAssertEqual(try String(contentsOfFile: own, encoding: .utf8), #"<scene width="4" height="4"/>"#)
        // A group whose parts lie apart takes its opacity into each paint.
        let apart = try write("apart.scene.xml", #"<scene width="40" height="20"><group opacity="0.5"><rect width="15" height="20"/><rect x="20" width="15" height="20" fill="red"/></group></scene>"#)
        let out = dir.appendingPathComponent("apart.xml").path
        XCTAssertEqual(try easel(["render", apart, "-o", out]).status, 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("android:fillColor=\"#80000000\"") && text.contains("android:fillColor=\"#80FF0000\""), text)
    }

    /// A raster image names its element; `--format` and the extension must agree.
    func testARasterImageAndADisagreeingExtension() throws {
        let png = dir.appendingPathComponent("dot.png").path
        XCTAssertEqual(try easel(["render", try write("dot.scene.xml", #"<scene width="2" height="2" background="red"/>"#), "-o", png]).status, 0)
        let scene = try write("photo.scene.xml", "<scene width=\"20\" height=\"20\">\n  <image href=\"dot.png\" width=\"20\" height=\"20\"/>\n</scene>")
        let r = try easel(["render", scene, "--format", "vector-drawable", "-o", dir.appendingPathComponent("photo.xml").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("photo.scene.xml:2:3: error: cannot write this as a VectorDrawable: this <image> is raster pixels"), r.stderr)
        let mismatch = try easel(["render", scene, "--format", "vector-drawable", "-o", dir.appendingPathComponent("photo.png").path])
        XCTAssertEqual(mismatch.status, 2)
        XCTAssertTrue(mismatch.stderr.contains("--format vector-drawable and the extension of"), mismatch.stderr)
        // --out-dir names a VectorDrawable NAME.xml.
        let square = try write("square.scene.xml", ##"<scene width="10" height="10"><rect width="10" height="10" fill="#123456"/></scene>"##)
        XCTAssertEqual(try easel(["render", square, "--out-dir", dir.appendingPathComponent("out").path, "--format", "vector-drawable"]).status, 0)
        let made = try String(contentsOfFile: dir.appendingPathComponent("out/square.xml").path, encoding: .utf8)
        XCTAssertTrue(made.contains("android:fillColor=\"#123456\""), made)
        XCTAssertTrue(made.contains("android:width=\"10dp\"") && made.contains("android:viewportWidth=\"10\""), made)
    }

    /// A Display P3 colour outside sRGB is gamut-mapped, with a warning.
    func testADisplayP3SceneIsWrittenInSRGBWithAWarning() throws {
        let scene = try write("wide.scene.xml", #"<scene width="10" height="10" color-space="display-p3"><rect width="10" height="10" fill="color(display-p3 0 1 0)"/></scene>"#)
        let out = dir.appendingPathComponent("wide.xml").path
        let r = try easel(["render", scene, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: a VectorDrawable is sRGB: 1 colour of this display-p3 scene outside sRGB is gamut-mapped"), r.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        // Gamut-mapped, not clipped to #00FF00: the colour keeps a little red and blue.
        XCTAssertFalse(text.contains("#00FF00"), text)
    }

    /// Android reads at most 32,767 characters of path data: long text is
    /// split between glyphs, every piece within the limit, and draws the same.
    func testLongPathDataIsSplitBetweenIndependentParts() throws {
        let words = String(repeating: "Splendid quiz of jumbled glyphs ", count: 30)
        let scene = try write("long.scene.xml", """
            <scene width="600" height="400" background="white"><text x="10" y="10" width="580" font-size="14" fill="#223">\(words)</text></scene>
            """)
        let xml = dir.appendingPathComponent("long.xml").path, png = dir.appendingPathComponent("long.png").path
        let r = try easel(["render", scene, "-o", xml])
        XCTAssertEqual(r.status, 0, r.stderr)
        // At 3x: 14-point text at 1x differs by Cairo's and resvg's glyph anti-aliasing alone.
        XCTAssertEqual(try easel(["render", scene, "-o", png, "--scale", "3"]).status, 0)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        let data = text.components(separatedBy: "android:pathData=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertGreaterThan(data.count, 2, "split")
        XCTAssertLessThanOrEqual(data.map(\.utf8.count).max() ?? 0, 32_767)
        XCTAssertGreaterThan(data.map(\.utf8.count).reduce(0, +), 32_767)
        XCTAssertLessThanOrEqual(try compare(xml, png, scale: 3).mean, 3)
    }

    // MARK: Android builds

    /// `--android-vectors --android-monochrome auto`: a drawable per scene
    /// that can be one (the others as PNG densities, with a warning), the
    /// app icon's adaptive layers as drawables referenced from
    /// `ic_launcher.xml` and `ic_launcher_round.xml`, the legacy launcher
    /// PNGs kept; every file compiles and the whole folder links with `aapt2`.
    func testAnAndroidBuildOfVectorsCompilesAndLinks() throws {
        let folder = dir.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try write("scenes/icon.scene.xml", Self.iconWithoutMonochrome)
        _ = try write("scenes/badge.scene.xml", ##"<scene width="24" height="24"><circle cx="12" cy="12" r="10" fill="#ff3b30"/></scene>"##)
        XCTAssertEqual(try easel(["render", try write("scenes/dot.scene.xml", #"<scene width="2" height="2" background="red"/>"#),
                                  "-o", folder.appendingPathComponent("dot.png").path]).status, 0)
        _ = try write("scenes/photo.scene.xml", "<scene width=\"20\" height=\"20\">\n  <image href=\"dot.png\" width=\"20\" height=\"20\"/>\n</scene>")
        let res = dir.appendingPathComponent("res").path
        let r = try easel(["build", folder.path, "--android", res, "--android-vectors", "--android-monochrome", "auto"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("scenes/photo.scene.xml:2:3: warning: written as PNG densities instead of a VectorDrawable: this <image> is raster pixels"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[W0908]"), r.stderr)
        let linked = try python([Self.checker, "link", res])
        XCTAssertEqual(linked["errors"] as? [String], [])
        let files = Set(linked["files"] as? [String] ?? [])
        for expected in ["drawable/badge.xml", "drawable/dot.xml", "drawable-mdpi/photo.png", "drawable-xxxhdpi/photo.png",
                         "drawable/ic_launcher_background.xml", "drawable/ic_launcher_foreground.xml", "drawable/ic_launcher_monochrome.xml",
                         "mipmap-anydpi-v26/ic_launcher.xml", "mipmap-anydpi-v26/ic_launcher_round.xml", "mipmap-mdpi/ic_launcher.png", "mipmap-xxxhdpi/ic_launcher.png"] {
            XCTAssertTrue(files.contains(expected), "\(expected) in \(files.sorted())")
        }
        XCTAssertFalse(files.contains("drawable-mdpi/badge.png"), "a VectorDrawable scene has no density PNGs")
        XCTAssertFalse(files.contains { $0.hasPrefix("mipmap-mdpi/ic_launcher_foreground") }, "vector layers have no PNGs")
        let resources = Set(linked["resources"] as? [String] ?? [])
        XCTAssertTrue(resources.isSuperset(of: ["drawable/badge", "drawable/ic_launcher_foreground", "drawable/ic_launcher_monochrome", "mipmap/ic_launcher_round"]), "\(resources)")
        let adaptive = try String(contentsOfFile: res + "/mipmap-anydpi-v26/ic_launcher.xml", encoding: .utf8)
        XCTAssertTrue(adaptive.contains("<monochrome android:drawable=\"@drawable/ic_launcher_monochrome\" />"), adaptive)
        // A layer is 108 dp whatever the scene's size.
        let foreground = try String(contentsOfFile: res + "/drawable/ic_launcher_foreground.xml", encoding: .utf8)
        XCTAssertTrue(foreground.contains("android:width=\"108dp\"") && foreground.contains("android:viewportWidth=\"216\""), foreground)
        // The link check fails a drawable Android would refuse.
        let broken = dir.appendingPathComponent("broken/drawable")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try foreground.replacingOccurrences(of: "android:strokeLineCap=\"round\"", with: "android:strokeLineCap=\"rounded\"")
            .write(to: broken.appendingPathComponent("bad.xml"), atomically: true, encoding: .utf8)
        XCTAssertNotEqual((try python([Self.checker, "link", broken.deletingLastPathComponent().path])["errors"] as? [String])?.count ?? 0, 0)
    }

    /// The derived monochrome layer covers exactly what the foreground
    /// covers, in one colour: its alpha (drawn by the rasteriser) equals
    /// the foreground layer's alpha (Easel's PNG of the group alone).
    func testTheAutoMonochromeLayerHasTheForegroundsCoverage() throws {
        let folder = dir.appendingPathComponent("scenes")
        _ = try write("scenes/icon.scene.xml", Self.iconWithoutMonochrome)
        let res = dir.appendingPathComponent("res").path
        XCTAssertEqual(try easel(["build", folder.path, "--android", res, "--android-vectors", "--android-monochrome", "auto"]).status, 0)
        let mono = res + "/drawable/ic_launcher_monochrome.xml"
        let drawn = dir.appendingPathComponent("mono.png").path
        _ = try python([Self.rasteriser, "render", mono, drawn, "4"])
        let foreground = dir.appendingPathComponent("fg.png").path
        XCTAssertEqual(try easel(["render", folder.appendingPathComponent("icon.scene.xml").path, "--layer", "foreground", "-o", foreground, "--scale", "2"]).status, 0)
        let m = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: drawn))))
        let f = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: foreground))))
        XCTAssertEqual(m.width, f.width)
        var alphaDifference = 0.0, colours = Set<[UInt8]>()
        for i in stride(from: 0, to: m.rgba.count, by: 4) {
            alphaDifference += abs(Double(m.rgba[i + 3]) - Double(f.rgba[i + 3]))
            if m.rgba[i + 3] == 255 { colours.insert(Array(m.rgba[i..<i + 3])) }
        }
        XCTAssertLessThanOrEqual(alphaDifference / Double(m.width * m.height), 1)
        XCTAssertEqual(colours, [[0, 0, 0]], "one colour")
        // The fading circle fades in the monochrome layer too: alpha at four heights.
        for y in [76, 100, 124, 140].map({ $0 * 2 }) {
            XCTAssertEqual(Double(m.rgba[(y * m.width + 216) * 4 + 3]), Double(f.rgba[(y * f.width + 216) * 4 + 3]), accuracy: 3, "y \(y)")
        }
        // The PNG build makes the same layer as PNGs.
        let pngRes = dir.appendingPathComponent("res-png").path
        XCTAssertEqual(try easel(["build", folder.path, "--android", pngRes, "--android-monochrome", "auto"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pngRes + "/mipmap-xxxhdpi/ic_launcher_monochrome.png"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: res + "/mipmap-xxxhdpi/ic_launcher_monochrome.png"))
        // An emoji (colour glyphs, no VectorDrawable) in the foreground: the
        // themed layer is a PNG of its coverage, black, alpha for alpha.
        _ = try write("emoji/icon.scene.xml", """
            <scene width="108" height="108" asset="app-icon">
              <group id="background"><rect width="108" height="108" fill="#222"/></group>
              <group id="foreground"><text x="38" y="38" font-size="28">🚀</text></group>
            </scene>
            """)
        let emojiRes = dir.appendingPathComponent("res-emoji").path
        let e = try easel(["build", dir.appendingPathComponent("emoji").path, "--android", emojiRes, "--android-vectors", "--android-monochrome", "auto"])
        XCTAssertEqual(e.status, 0, e.stderr)
        XCTAssertTrue(e.stderr.contains("warning: written as PNG densities instead of a VectorDrawable"), e.stderr)
        let themed = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: emojiRes + "/mipmap-xxxhdpi/ic_launcher_monochrome.png"))))
        let fg = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: emojiRes + "/mipmap-xxxhdpi/ic_launcher_foreground.png"))))
        var coloured = 0, inked = 0, alphaOff = 0
        for i in stride(from: 0, to: themed.rgba.count, by: 4) {
            if themed.rgba[i] != 0 || themed.rgba[i + 1] != 0 || themed.rgba[i + 2] != 0 { coloured += 1 }
            if fg.rgba[i + 3] > 0 { inked += 1 }
            if themed.rgba[i + 3] != fg.rgba[i + 3] { alphaOff += 1 }
        }
        XCTAssertGreaterThan(inked, 1000, "the emoji is drawn")
        XCTAssertEqual(coloured, 0, "black")
        XCTAssertEqual(alphaOff, 0, "the foreground's alpha")
    }

    func testVectorOptionsNeedAnAndroidFolder() throws {
        let r = try easel(["build", dir.path, "--out-dir", dir.appendingPathComponent("out").path, "--android-vectors"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--android-vectors writes into an Android resource folder: add --android RES"), r.stderr)
    }

    /// An app icon at 216 points (twice the 108 dp canvas) with a
    /// gradient background and a foreground of shapes, a stroke and text.
    static let iconWithoutMonochrome = """
        <scene width="216" height="216" asset="app-icon">
          <defs><linearGradient id="bg" angle="135"><stop color="#5ac8fa"/><stop color="#0040dd"/></linearGradient>
            <linearGradient id="fade" angle="90"><stop color="#ffffff"/><stop color="#ffffff" opacity="0"/></linearGradient></defs>
          <group id="background"><rect width="216" height="216" fill="url(#bg)"/></group>
          <group id="foreground">
            <circle cx="108" cy="108" r="40" fill="url(#fade)"/>
            <rect x="60" y="150" width="96" height="10" fill="#ffffff" fill-opacity="0.6"/>
            <polyline points="80,120 100,96 116,108 140,84" fill="none" stroke="#ffd60a" stroke-width="7" line-cap="round" line-join="round"/>
            <text x="88" y="124" font-size="20" fill="#0040dd">Aa</text>
          </group>
        </scene>
        """
}
