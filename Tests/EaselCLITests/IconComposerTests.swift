import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Icon Composer bundles (`-o NAME.icon`, `easel build --icon-composer`;
/// contract 1.3). The structure is checked by
/// `Tests/Fixtures/platform-assets/check_assets.py` (`icon-bundle`: every
/// referenced picture present, colour strings, fills, specializations, one
/// group); the fill by evaluating it at sample pixels against Easel's
/// render of the background group alone (`icon-fill`); each layer's SVG by
/// resvg against Easel's render of that group alone. Xcode's `ictool`,
/// which would show the icon as iOS does, runs only on macOS.
final class IconComposerTests: XCTestCase, CommandLineTesting {
    var dir: URL!

    override func setUpWithError() throws {
        dir = ExternalTool.temporaryDirectory(name)
    }

    static let checker = AssetChecks.checker
    static let exampleIcon = ExternalTool.repositoryRoot.appendingPathComponent("examples/app-icon/icon.scene.xml").path

    @discardableResult
    func check(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try AssetChecks.check(arguments, file: file, line: line)
    }

    func image(_ path: String) throws -> RasterImage {
        try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Each layer's SVG (resvg, at Icon Composer's 1024) against Easel's PNG
    /// of the group alone at the same size: 16-pixel block means within 8/255.
    func assertLayer(_ svg: String, scene: String, layer: String, variant: String?, side: Double,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let theirs = try ReferenceRenderers.resvg(try String(contentsOfFile: svg, encoding: .utf8), file: file, line: line)
        let png = dir.appendingPathComponent("\(layer)-\(variant ?? "any").png").path
        let r = try easel(["render", scene, "--layer", layer, "-o", png, "--scale", "\(1024 / side)"] + (variant.map { ["--variant", $0] } ?? []))
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let ours = try image(png)
        XCTAssertEqual(theirs.width, 1024, file: file, line: line)
        guard let diff = compare(ours.blockMeans(16), theirs.blockMeans(16), tolerance: 8) else {
            return XCTFail("sizes differ: \(ours.width) vs \(theirs.width)", file: file, line: line)
        }
        XCTAssertEqual(diff.fractionOver, 0, "\(layer) \(variant ?? ""): \(diff)", file: file, line: line)
    }

    /// The example icon: its background group (a two-stop gradient in
    /// every appearance) is the fill, specialized for dark and tinted; its
    /// foreground one layer whose picture changes by appearance; the hidden
    /// monochrome group (Android's) no layer.
    func testTheExampleIconBecomesAFillAndALayerInEachAppearance() throws {
        let bundle = dir.appendingPathComponent("AppIcon.icon").path
        let r = try easel(["render", Self.exampleIcon, "-o", bundle])
        XCTAssertEqual(r.status, 0, r.stderr)
        let result = try check(["icon-bundle", bundle])
        XCTAssertEqual(result["layers"] as? [String], ["foreground"])
        XCTAssertEqual(result["assets"] as? [String], ["foreground-dark.svg", "foreground-tinted.svg", "foreground.svg"])
        let json = result["json"] as? [String: Any] ?? [:]
        let fills = json["fill-specializations"] as? [[String: Any]] ?? []
        XCTAssertEqual(fills.map { $0["appearance"] as? String }, [nil, "dark", "tinted"])
        XCTAssertNotNil((fills.first?["value"] as? [String: Any])?["linear-gradient"])
        // The fill, evaluated from its colours and orientation, is the background group's render.
        for variant in [nil, "dark", "tinted"] as [String?] {
            let png = dir.appendingPathComponent("bg-\(variant ?? "any").png").path
            XCTAssertEqual(try easel(["render", Self.exampleIcon, "--layer", "background", "-o", png, "--scale", "4"] + (variant.map { ["--variant", $0] } ?? [])).status, 0)
            XCTAssertLessThanOrEqual(try check(["icon-fill", bundle, png] + (variant.map { [$0] } ?? []))["max"] as? Double ?? 999, 2, variant ?? "any")
        }
        for (file, variant) in [("foreground.svg", nil), ("foreground-dark.svg", "dark"), ("foreground-tinted.svg", "tinted")] as [(String, String?)] {
            try assertLayer(bundle + "/Assets/" + file, scene: Self.exampleIcon, layer: "foreground", variant: variant, side: 108)
        }
        // The fill check sees a gradient turned the wrong way.
        let text = try String(contentsOfFile: bundle + "/icon.json", encoding: .utf8)
        let turned = dir.appendingPathComponent("Turned.icon")
        try FileManager.default.copyItem(atPath: bundle, toPath: turned.path)
        try text.replacingOccurrences(of: "\"start\"", with: "\"was-start\"").replacingOccurrences(of: "\"stop\"", with: "\"start\"")
            .replacingOccurrences(of: "\"was-start\"", with: "\"stop\"").write(toFile: turned.path + "/icon.json", atomically: true, encoding: .utf8)
        let png = dir.appendingPathComponent("bg-any.png").path
        let r2 = try ExternalTool.run("python3", [Self.checker, "icon-fill", turned.path, png])
        let worst = (try JSONSerialization.jsonObject(with: Data(r2.stdout.utf8)) as? [String: Any])?["max"] as? Double ?? 0
        XCTAssertGreaterThan(worst, 50)
        // The same scene gives the same bundle, byte for byte.
        let again = dir.appendingPathComponent("Again.icon").path
        XCTAssertEqual(try easel(["render", Self.exampleIcon, "-o", again]).status, 0)
        for file in ["icon.json", "Assets/foreground.svg", "Assets/foreground-dark.svg"] {
            XCTAssertEqual(FileManager.default.contents(atPath: bundle + "/" + file), FileManager.default.contents(atPath: again + "/" + file), file)
        }
    }

    static let layered = """
        <scene width="512" height="512" asset="app-icon" icon-shadow="layer-color" icon-translucency="0.4">
          <defs>
            <color name="accent" value="#ff9f0a" dark="#ffd60a"/>
            <radialGradient id="glow"><stop color="#1c1c1e"/><stop color="#3a3a3c"/></radialGradient>
            <variant name="dark" appearance="dark"/>
          </defs>
          <group id="background"><rect width="512" height="512" fill="url(#glow)"/></group>
          <group id="back" icon-glass="false"><circle cx="256" cy="256" r="180" fill="#0a84ff"/></group>
          <group id="front" icon-glass="true">
            <rect x="156" y="226" width="200" height="60" corner-radius="30" fill="accent"/>
            <text x="196" y="330" font-size="48" fill="#ffffff">Go</text>
          </group>
          <group id="notes" hidden="true"><rect width="10" height="10"/></group>
        </scene>
        """

    /// Without a background group, the scene's background colour is the
    /// fill, in each appearance's colour.
    func testTheSceneBackgroundIsTheFillInEachAppearance() throws {
        let scene = try write("plain.scene.xml", """
            <scene width="100" height="100" asset="app-icon" background="paper">
              <defs><color name="paper" value="#ffffff" dark="#1c1c1e"/><variant name="dark" appearance="dark"/></defs>
              <group id="mark"><circle cx="50" cy="50" r="30" fill="#ff9f0a"/></group>
            </scene>
            """)
        let bundle = dir.appendingPathComponent("Plain.icon").path
        let r = try easel(["render", scene, "-o", bundle])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try check(["icon-bundle", bundle])["json"] as? [String: Any] ?? [:]
        let fills = json["fill-specializations"] as? [[String: Any]] ?? []
        XCTAssertEqual(fills.compactMap { ($0["value"] as? [String: Any])?["solid"] as? String },
                       ["srgb:1.00000,1.00000,1.00000,1.00000", "srgb:0.10980,0.10980,0.11765,1.00000"])
    }

    /// A radial background is no fill: it is the bottom layer. Layers are
    /// listed front to back; glass, shadow and translucency are the scene's;
    /// a layer that looks the same in the dark has one picture.
    func testLayersFrontToBackWithGlassShadowAndTranslucency() throws {
        let scene = try write("layered.scene.xml", Self.layered)
        let bundle = dir.appendingPathComponent("Layered.icon").path
        let r = try easel(["render", scene, "-o", bundle])
        XCTAssertEqual(r.status, 0, r.stderr)
        let result = try check(["icon-bundle", bundle])
        XCTAssertEqual(result["layers"] as? [String], ["front", "back", "background"])
        XCTAssertEqual(result["assets"] as? [String], ["back.svg", "background.svg", "front-dark.svg", "front.svg"])
        let json = result["json"] as? [String: Any] ?? [:]
        XCTAssertNil(json["fill"]); XCTAssertNil(json["fill-specializations"])
        let group = (json["groups"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual((group["shadow"] as? [String: Any])?["kind"] as? String, "layer-color")
        XCTAssertEqual((group["translucency"] as? [String: Any])?["value"] as? Double, 0.4)
        let layers = group["layers"] as? [[String: Any]] ?? []
        XCTAssertEqual(layers.map { $0["glass"] as? Bool }, [true, false, nil])
        XCTAssertNil(layers[1]["image-name-specializations"], "the back circle does not change in the dark")
        try assertLayer(bundle + "/Assets/front.svg", scene: scene, layer: "front", variant: nil, side: 512)
        try assertLayer(bundle + "/Assets/front-dark.svg", scene: scene, layer: "front", variant: "dark", side: 512)
        try assertLayer(bundle + "/Assets/background.svg", scene: scene, layer: "background", variant: nil, side: 512)
        // A layer SVG is 1024 on a side with the scene's own coordinates.
        let front = try String(contentsOfFile: bundle + "/Assets/front.svg", encoding: .utf8)
        XCTAssertTrue(front.contains("width=\"1024\" height=\"1024\" viewBox=\"0 0 512 512\""), String(front.prefix(300)))
        XCTAssertFalse(front.contains("<text"), "text only as outlines")
    }

    /// Rendering over a bundle replaces it whole; a failed render leaves it
    /// as it was, with nothing hidden left beside it.
    func testABundleIsReplacedWholeOrNotAtAll() throws {
        let scene = try write("layered.scene.xml", Self.layered)
        let bundle = dir.appendingPathComponent("Layered.icon")
        XCTAssertEqual(try easel(["render", scene, "-o", bundle.path]).status, 0)
        try Data("stale".utf8).write(to: bundle.appendingPathComponent("Assets/old.svg"))
        XCTAssertEqual(try easel(["render", scene, "-o", bundle.path]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("Assets/old.svg").path), "replaced whole")
        let before = FileManager.default.contents(atPath: bundle.appendingPathComponent("icon.json").path)
        _ = try write("layered.scene.xml", Self.layered.replacingOccurrences(of: "fill=\"#0a84ff\"", with: "fill=\"url(#nowhere)\""))
        let failed = try easel(["render", scene, "-o", bundle.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(FileManager.default.contents(atPath: bundle.appendingPathComponent("icon.json").path), before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("Assets/back.svg").path))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(hidden, [])
        // A folder that is no bundle, or a file, is someone else's: never replaced.
        _ = try write("layered.scene.xml", Self.layered)
        let mine = dir.appendingPathComponent("Mine.icon")
        _ = try write("Mine.icon/notes.txt", "precious")
        let refused = try easel(["render", scene, "-o", mine.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("it is not an Icon Composer bundle"), refused.stderr)
        XCTAssertEqual(try String(contentsOf: mine.appendingPathComponent("notes.txt"), encoding: .utf8), "precious")
        _ = try write("File.icon", "a file")
        let file = try easel(["render", scene, "-o", dir.appendingPathComponent("File.icon").path])
        XCTAssertEqual(file.status, 1)
        XCTAssertTrue(file.stderr.contains("it is not an Icon Composer bundle"), file.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("File.icon"), encoding: .utf8), "a file")
    }

    func testWhatAnIconBundleCannotBeMadeFromIsALocatedError() throws {
        let plain = try write("plain.scene.xml", #"<scene width="10" height="10"/>"#)
        let r = try easel(["render", plain, "-o", dir.appendingPathComponent("plain.icon").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("plain.scene.xml:1:1: error: an Icon Composer icon (.icon) is made from an app icon"), r.stderr)
        let nested = try write("nested.scene.xml", """
            <scene width="10" height="10" asset="app-icon" icon-translucency="2">
              <group id="a"><group icon-glass="true"/></group>
            </scene>
            """)
        let n = try easel(["render", nested, "-o", dir.appendingPathComponent("nested.icon").path])
        XCTAssertEqual(n.status, 1)
        XCTAssertTrue(n.stderr.contains("nested.scene.xml:1:67: error: icon-translucency is between 0 and 1, not 2"), n.stderr)
        XCTAssertTrue(n.stderr.contains("nested.scene.xml:2:36: error: icon-glass belongs on a top-level <group> with an id"), n.stderr)
        // Content in no layer is an error, not left out.
        let stray = try write("stray.scene.xml", "<scene width=\"10\" height=\"10\" asset=\"app-icon\">\n  <group id=\"a\"/>\n  <circle cx=\"5\" cy=\"5\" r=\"2\"/>\n</scene>")
        let st = try easel(["render", stray, "-o", dir.appendingPathComponent("stray.icon").path])
        XCTAssertEqual(st.status, 1)
        XCTAssertTrue(st.stderr.contains("stray.scene.xml:3:3: error: this top-level element is in no Icon Composer layer"), st.stderr)
        // An id names its file inside Assets/ whatever it holds.
        let escape = try write("escape.scene.xml", #"<scene width="10" height="10" asset="app-icon"><group id="../../escaped"><rect width="4" height="4"/></group></scene>"#)
        let bundle = dir.appendingPathComponent("out/escape.icon")
        try FileManager.default.createDirectory(at: bundle.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertEqual(try easel(["render", escape, "-o", bundle.path]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: bundle.path + "/Assets"), ["______escaped.svg"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("escaped.svg").path))
        // Two ids, one file: an error, not a layer overwritten.
        let clash = try write("clash.scene.xml", #"<scene width="10" height="10" asset="app-icon"><group id="a.b"/><group id="A_b"/></scene>"#)
        let c = try easel(["render", clash, "-o", dir.appendingPathComponent("clash.icon").path])
        XCTAssertEqual(c.status, 1)
        XCTAssertTrue(c.stderr.contains("error: the layers 'a.b' and 'A_b' would both be written as Assets/A_b.svg"), c.stderr)
        // Each layer is compiled alone per appearance: at most 16 of them.
        let groups = (0..<17).map { "<group id=\"g\($0)\"><rect width=\"4\" height=\"4\"/></group>" }.joined()
        let many = try write("many.scene.xml", "<scene width=\"10\" height=\"10\" asset=\"app-icon\">\(groups)</scene>")
        let m = try easel(["render", many, "-o", dir.appendingPathComponent("many.icon").path])
        XCTAssertEqual(m.status, 1)
        XCTAssertTrue(m.stderr.contains("many.scene.xml:1:1: error: an Icon Composer bundle of 17 layers"), m.stderr)
        let usage = try easel(["render", Self.exampleIcon, "--format", "icon", "-o", dir.appendingPathComponent("x.png").path])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--format icon and the extension of"), usage.stderr)
    }

    /// `easel build --icon-composer`: NAME.icon beside the app icon's PNGs,
    /// up to date on a second build.
    func testABuildWritesTheBundleBesideTheOtherOutputs() throws {
        let folder = dir.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.exampleIcon, toPath: folder.appendingPathComponent("icon.scene.xml").path)
        _ = try write("scenes/layered.scene.xml", Self.layered)
        let out = dir.appendingPathComponent("out").path
        let r = try easel(["build", folder.path, "--out-dir", out, "--icon-composer"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try check(["icon-bundle", out + "/icon.icon"])
        try check(["icon-bundle", out + "/layered.icon"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/icon.png"))
        let again = try easel(["build", folder.path, "--out-dir", out, "--icon-composer"])
        XCTAssertTrue(again.stdout.contains("nothing to do"), again.stdout + again.stderr)
        let refused = try easel(["build", folder.path, "--out-dir", dir.appendingPathComponent("App.xcassets").path, "--xcassets", "--icon-composer"])
        XCTAssertEqual(refused.status, 2)
    }
}
