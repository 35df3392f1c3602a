import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Platform asset sets (docs/platform-assets.md): app icon sets in asset
/// catalogs, ICNS and ICO files, Android resource folders, colour sets
/// that cannot clash. Run through the built executable; every file is
/// read back by tools independent of Easel — Pillow and the platforms'
/// sizes typed out in `Tests/Fixtures/platform-assets/check_assets.py`,
/// `icns2png` (libicns), `aapt2 compile` (the Android SDK's resource compiler).
final class PlatformAssetTests: XCTestCase, CommandLineTesting {
    var dir: URL!

    override func setUpWithError() throws {
        dir = ExternalTool.temporaryDirectory(name)
    }

    static let checker = AssetChecks.checker
    static let exampleIcon = ExternalTool.repositoryRoot.appendingPathComponent("examples/app-icon/icon.scene.xml")

    /// The checker's JSON, failing the test on any error it lists.
    @discardableResult
    func check(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try AssetChecks.check(arguments, file: file, line: line)
    }

    /// A scene folder holding the example icon and `others`.
    func scenes(_ others: [String: String] = [:]) throws -> String {
        let folder = dir.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.exampleIcon, to: folder.appendingPathComponent("icon.scene.xml"))
        for (name, text) in others { _ = try write("scenes/" + name, text) }
        return folder.path
    }

    static let card = """
        <scene width="40" height="30"><defs><color name="ink" value="#1d1d1f" dark="#f5f5f7"/><variant name="dark" appearance="dark"/></defs>
        <rect width="40" height="30" fill="ink"/></scene>
        """

    // MARK: Asset catalogs

    /// `--display-gamut both`: per scale (and appearance) an sRGB and a
    /// Display P3 entry, the P3 PNGs tagged with a P3-D65 profile and the
    /// sRGB ones with `sRGB` (`check_wide_color.py` reads them with
    /// Pillow/LittleCMS); a palette colour written in P3 or OKLCh is a
    /// `display-p3` colour set, an sRGB one stays `srgb`.
    func testDisplayGamutBothGivesEachImageAnSRGBAndADisplayP3Entry() throws {
        _ = try write("scenes/brand.scene.xml", """
            <scene width="40" height="20"><defs>
              <color name="brandGreen" value="color(display-p3 0.1 0.9 0.2)" dark="oklch(0.6 0.2 150)"/>
              <color name="ink" value="#1d1d1f" dark="#f5f5f7"/><variant name="dark" appearance="dark"/></defs>
              <view width="40" height="20" fill="brandGreen"/></scene>
            """)
        let catalog = dir.appendingPathComponent("App.xcassets").path
        let r = try easel(["build", dir.appendingPathComponent("scenes").path, "-o", catalog, "--xcassets", "--display-gamut", "both"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("W0205"), "the sRGB images are gamut-mapped, with the warning: \(r.stderr)")
        let checker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/wide-color/check_wide_color.py").path
        let out = try ExternalTool.run("python3", [checker, "catalog", catalog])
        let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(json["errors"] as? [String], [], out.stdout + out.stderr)
        // Three scales, light and dark, two gamuts.
        XCTAssertEqual(json["images"] as? Int, 12)
        XCTAssertEqual(json["p3"] as? Int, 6)
        let green = try XCTUnwrap(json["brandGreen.colorset"] as? [[Any]])
        XCTAssertEqual(green.map { $0[0] as? String }, ["display-p3", "display-p3"])
        XCTAssertEqual(green[0].dropFirst().compactMap { $0 as? Double }, [0.1, 0.9, 0.2, 1])
        XCTAssertEqual((json["ink.colorset"] as? [[Any]])?.map { $0[0] as? String }, ["srgb", "srgb"])
        // Xcode's spelling of the slots, each scale's sRGB entry before its P3 one.
        let contents = try String(contentsOfFile: catalog + "/brand.imageset/Contents.json", encoding: .utf8)
        let gamuts = contents.split(separator: "\n").filter { $0.contains("display-gamut") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(gamuts.prefix(2)), ["\"display-gamut\" : \"sRGB\",", "\"display-gamut\" : \"display-P3\","])
        XCTAssertTrue(FileManager.default.fileExists(atPath: catalog + "/brand.imageset/brand-p3@2x.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: catalog + "/brand.imageset/brand~dark-p3@3x.png")
                      || FileManager.default.fileExists(atPath: catalog + "/brand.imageset/brand-p3~dark@3x.png"))
        // Built again with one slot: the P3 files the catalog no longer lists go.
        let again = try easel(["build", dir.appendingPathComponent("scenes").path, "-o", catalog, "--xcassets"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: catalog + "/brand.imageset").sorted()
        XCTAssertEqual(left.filter { $0.contains("-p3") }, [], "\(left)")
        XCTAssertTrue(left.contains("brand@3x.png"), "\(left)")
        // Without --xcassets the option has nothing to choose.
        XCTAssertEqual(try easel(["build", dir.appendingPathComponent("scenes").path, "-o", dir.appendingPathComponent("png").path,
                                  "--display-gamut", "both"]).status, 2)
    }

    func testAppIconSetHasTheIOSEntryWithItsAppearancesAndTheTenMacSizes() throws {
        let source = try scenes()
        let catalog = dir.appendingPathComponent("App.xcassets").path
        let r = try easel(["build", source, "-o", catalog, "--xcassets", "--platforms", "ios,macos"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try check(["appiconset", catalog + "/icon.appiconset", "ios,macos"])
        let entries = json["entries"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.filter { $0["idiom"] as? String == "universal" }.map { $0["appearance"] as? String ?? "any" }, ["any", "dark", "tinted"])
        XCTAssertEqual(entries.filter { $0["idiom"] as? String == "mac" }.count, 10)
        // The entries in Xcode 16's order and spelling: only `author` tells them apart.
        let contents = try String(contentsOfFile: catalog + "/icon.appiconset/Contents.json", encoding: .utf8)
        XCTAssertTrue(contents.hasPrefix("""
            {
              "images" : [
                {
                  "filename" : "icon.png",
                  "idiom" : "universal",
                  "platform" : "ios",
                  "size" : "1024x1024"
                },
                {
                  "appearances" : [
                    {
                      "appearance" : "luminosity",
                      "value" : "dark"
                    }
                  ],
            """), contents)
        // Each size painted from the scene at that size: the 16-pixel Mac
        // icon is the scene rendered at 16/108, not the 1024 one scaled down.
        let small = dir.appendingPathComponent("16.png").path
        XCTAssertEqual(try easel(["render", Self.exampleIcon.path, "-o", small, "--scale", "\(16.0 / 108)"]).status, 0)
        try assertSamePixels(catalog + "/icon.appiconset/icon_16x16.png", small)
        // iOS alone by default.
        let iosOnly = dir.appendingPathComponent("iOS.xcassets").path
        XCTAssertEqual(try easel(["build", source, "-o", iosOnly, "--xcassets"]).status, 0)
        try check(["appiconset", iosOnly + "/icon.appiconset", "ios"])
    }

    func testAnIOSAppIconWithTransparentPixelsIsAnErrorNamingTheScene() throws {
        let source = try scenes(["clear.scene.xml": """
            <scene width="64" height="64" asset="app-icon"><circle cx="32" cy="32" r="30" fill="#0a84ff"/></scene>
            """])
        let r = try easel(["build", source, "-o", dir.appendingPathComponent("A.xcassets").path, "--xcassets"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("scenes/clear.scene.xml:1:1: error: an iOS app icon must be opaque"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[E0902]"), r.stderr)
        // For macOS alone transparency is how icons are shaped.
        XCTAssertEqual(try easel(["build", source, "-o", dir.appendingPathComponent("M.xcassets").path, "--xcassets", "--platforms", "macos"]).status, 0)
    }

    func testColourSetsThatClashAreAnErrorNamingBothScenesAndPrivateColoursStayPrivate() throws {
        let source = try scenes([
            "card.scene.xml": Self.card,
            "badge.scene.xml": """
                <scene width="20" height="20"><defs>
                <color name="ink" value="#1b1f3b" dark="#000000"/>
                <color name="c1" value="#ff0000" export="false"/></defs>
                <rect width="20" height="20" fill="ink"/></scene>
                """,
            "sub/same.scene.xml": """
                <scene width="20" height="20"><defs><color name="ink" value="#1d1d1f" dark="#f5f5f7"/></defs><rect width="20" height="20" fill="ink"/></scene>
                """,
        ])
        let catalog = dir.appendingPathComponent("C.xcassets")
        let r = try easel(["build", source, "-o", catalog.path, "--xcassets"])
        XCTAssertEqual(r.status, 1)
        // badge (first in path order) makes 'ink'; card and sub/same disagree and are told where.
        for other in ["card", "sub/same"] {
            XCTAssertTrue(r.stderr.contains("scenes/\(other).scene.xml:1:37: error: palette colour 'ink' is #1d1d1f (dark #f5f5f7) here but #1b1f3b (dark #000000) in \(source)/badge.scene.xml:2:1"), r.stderr)
        }
        XCTAssertTrue(r.stderr.contains("[E0903]"))
        XCTAssertTrue(r.stdout.contains("2 failed"), r.stdout)
        let sets = try FileManager.default.subpathsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".colorset") }
        XCTAssertEqual(sets, ["ink.colorset"], "one 'ink', no 'c1' (export=\"false\")")
        let ink = try JSONSerialization.jsonObject(with: Data(contentsOf: catalog.appendingPathComponent("ink.colorset/Contents.json"))) as? [String: Any]
        let light = ((ink?["colors"] as? [[String: Any]])?.first?["color"] as? [String: Any])?["components"] as? [String: String]
        XCTAssertEqual(light?["red"], String(format: "%.3f", 0x1b / 255.0))
        // Fixed: the card renames its colour; the same values in two scenes make one set.
        try FileManager.default.removeItem(atPath: source + "/badge.scene.xml")
        let fixed = try easel(["build", source, "-o", catalog.path, "--xcassets"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".colorset") }, ["ink.colorset"])
        let now = try JSONSerialization.jsonObject(with: Data(contentsOf: catalog.appendingPathComponent("ink.colorset/Contents.json"))) as? [String: Any]
        let red = (((now?["colors"] as? [[String: Any]])?.first?["color"] as? [String: Any])?["components"] as? [String: String])?["red"]
        XCTAssertEqual(red, String(format: "%.3f", 0x1d / 255.0))
    }

    // MARK: ICNS and ICO

    /// A 128-point scene: every entry's scale (16/128 …) is exact.
    static let square = """
        <scene width="128" height="128" background="#0b3d91">
          <circle cx="64" cy="64" r="40" fill="#ffd60a"/><rect x="20" y="20" width="24" height="24" fill="#ff375f" transform="rotate(20 32 32)"/>
        </scene>
        """

    func references(_ scene: String, _ sizes: [Int]) throws -> String {
        let folder = dir.appendingPathComponent("references")
        for px in sizes {
            let r = try easel(["render", scene, "-o", folder.appendingPathComponent("\(px).png").path, "--scale", "\(Double(px) / 128)"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        return folder.path
    }

    func testICNSHoldsEverySizeEachPaintedAtItsOwnSize() throws {
        let scene = try write("mark.scene.xml", Self.square)
        let icns = dir.appendingPathComponent("mark.icns").path
        let r = try easel(["render", scene, "-o", icns])
        XCTAssertEqual(r.status, 0, r.stderr)
        let listed = try ExternalTool.run("icns2png", ["-l", icns])
        for type in ["icp4", "icp5", "icp6", "ic07", "ic08", "ic09", "ic10", "ic11", "ic12", "ic13", "ic14"] {
            XCTAssertTrue(listed.stdout.contains("'\(type)'"), "icns2png lists \(type): \(listed.stdout)")
        }
        XCTAssertTrue(listed.stdout.contains("11 elements"), listed.stdout)
        // libicns 0.8 decodes the big PNG types itself.
        let extracted = dir.appendingPathComponent("extracted")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        XCTAssertEqual(try ExternalTool.run("icns2png", ["-x", "-o", extracted.path, icns]).status, 0)
        let refs = try references(scene, [16, 32, 64, 128, 256, 512, 1024])
        for px in [256, 512, 1024] {
            try assertSamePixels(extracted.appendingPathComponent("mark_\(px)x\(px)x32.png").path, refs + "/\(px).png")
        }
        let json = try check(["container", icns, refs])
        XCTAssertEqual((json["sizes"] as? [Int])?.sorted(), [16, 32, 32, 64, 64, 128, 256, 256, 512, 512, 1024])
    }

    func testICOHoldsTheSevenWindowsSizes() throws {
        let scene = try write("mark.scene.xml", Self.square)
        let ico = dir.appendingPathComponent("out/mark.ico").path
        let r = try easel(["render", scene, "--out-dir", dir.appendingPathComponent("out").path, "--format", "ico"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try check(["container", ico, try references(scene, [16, 24, 32, 48, 64, 128, 256])])
        XCTAssertEqual(json["sizes"] as? [Int], [16, 24, 32, 48, 64, 128, 256])
        // An icon is square.
        let wide = try write("wide.scene.xml", #"<scene width="20" height="10"/>"#)
        let refused = try easel(["render", wide, "-o", dir.appendingPathComponent("wide.ico").path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("wide.scene.xml:1:1: error: an ICO icon must be square, not 20×10 points"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("wide.ico").path))
    }

    // MARK: Android

    func testAndroidResourcesForImagesAndAnAdaptiveIcon() throws {
        let source = try scenes(["My Card.scene.xml": Self.card])
        let res = dir.appendingPathComponent("res").path
        let r = try easel(["build", source, "--android", res])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "the example's foreground stays in the safe circle")
        let json = try check(["android", res, "ic_launcher", "my_card:40x30"])
        XCTAssertEqual(json["layers"] as? [String], ["background", "foreground", "monochrome"])
        let files = json["files"] as? [String] ?? []
        XCTAssertTrue(files.contains("drawable-night-xxhdpi/my_card.png"), "the dark variant is the night resource: \(files)")
        XCTAssertTrue(files.contains("mipmap-night-xhdpi/ic_launcher.png"))
        XCTAssertFalse(files.contains { $0.contains("tinted") }, "tinted is iOS's appearance")
        // The Android SDK's resource compiler takes every file.
        let compiled = dir.appendingPathComponent("compiled")
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        for file in files {
            let c = try ExternalTool.run("aapt2", ["compile", "-o", compiled.path, res + "/" + file])
            XCTAssertEqual(c.status, 0, "\(file): \(c.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: compiled.path).count, files.count)
        // A layer is the scene's group rendered alone: what render --layer makes.
        let layer = dir.appendingPathComponent("fg.png").path
        XCTAssertEqual(try easel(["render", Self.exampleIcon.path, "--layer", "foreground", "-o", layer, "--scale", "4"]).status, 0)
        try assertSamePixels(res + "/mipmap-xxxhdpi/ic_launcher_foreground.png", layer)
        XCTAssertEqual(try check(["outside-circle", layer])["outside"] as? Int, 0)
    }

    func testForegroundInkOutsideTheSafeCircleIsAWarning() throws {
        let source = dir.appendingPathComponent("icons").path
        _ = try write("icons/wide.scene.xml", """
            <scene width="108" height="108" asset="app-icon">
              <group id="background"><rect width="108" height="108" fill="#222"/></group>
              <group id="foreground"><rect x="10" y="10" width="88" height="88" corner-radius="8" fill="#fc0"/></group>
            </scene>
            """)
        let res = dir.appendingPathComponent("res").path
        let r = try easel(["build", source, "--android", res])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("icons/wide.scene.xml:3:3: warning: the adaptive icon's foreground draws up to"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[W0906]"), r.stderr)
        // Measured independently: the layer has ink past the circle.
        XCTAssertGreaterThan(try check(["outside-circle", res + "/mipmap-xxxhdpi/ic_launcher_foreground.png"])["outside"] as? Int ?? 0, 0)
    }

    func testResourceNamesAreMadeValidOrRefusedWithALocatedError() throws {
        let folder = dir.appendingPathComponent("scenes")
        let dot = #"<scene width="4" height="4"><rect width="4" height="4"/></scene>"#
        for name in ["My Icon", "2x-banner", "class", "ok"] { _ = try write("scenes/\(name).scene.xml", dot) }
        let res = dir.appendingPathComponent("res").path
        let r = try easel(["build", folder.path, "--android", res])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("scenes/2x-banner.scene.xml:1:1: error: '2x-banner' cannot be an Android resource name: it becomes '2x_banner', which starts with a digit"), r.stderr)
        XCTAssertTrue(r.stderr.contains("scenes/class.scene.xml:1:1: error: 'class' cannot be an Android resource name"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[E0904]"))
        try check(["android", res, "", "my_icon:4x4", "ok:4x4"])
        // Two scenes, one resource.
        _ = try write("scenes/my_icon.scene.xml", dot)
        let clash = try easel(["build", folder.path, "--android", res])
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("error: '\(folder.path)/My Icon.scene.xml' and '\(folder.path)/my_icon.scene.xml' would both write 'drawable-*/my_icon.png'"), clash.stderr)
        XCTAssertTrue(clash.stderr.contains("[E0905]"))
    }

    func testOneLauncherIconPerResourceFolderWhicheverThreadFinishesFirst() throws {
        let folder = dir.appendingPathComponent("icons")
        func icon(_ colour: String) -> String {
            "<scene width=\"48\" height=\"48\" asset=\"app-icon\" background=\"\(colour)\"/>"
        }
        _ = try write("icons/alpha.scene.xml", icon("#ff0000"))
        let res = dir.appendingPathComponent("res").path
        XCTAssertEqual(try easel(["build", folder.path, "--android", res]).status, 0)
        _ = try write("icons/beta.scene.xml", icon("#0000ff"))
        for _ in 0..<3 {
            let r = try easel(["build", folder.path, "--android", res, "-j", "2"])
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains("icons/beta.scene.xml:1:1: error: '\(folder.path)/alpha.scene.xml' and '\(folder.path)/beta.scene.xml' are both app icons"), r.stderr)
            let launcher = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: res + "/mipmap-mdpi/ic_launcher.png"))))
            XCTAssertEqual(launcher.pixel(24, 24), .init(r: 255, g: 0, b: 0, a: 255), "the first icon's, every time")
        }
        // Renamed, the icon still writes ic_launcher: the old name's removal leaves it.
        try FileManager.default.removeItem(atPath: folder.path + "/beta.scene.xml")
        try FileManager.default.moveItem(atPath: folder.path + "/alpha.scene.xml", toPath: folder.path + "/gamma.scene.xml")
        let renamed = try easel(["build", folder.path, "--android", res])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        try check(["android", res, "ic_launcher"])
    }

    // MARK: Incremental builds

    func testTouchingTheIconRebuildsItsOutputsOnEveryPlatformAndNothingElse() throws {
        let source = try scenes(["card.scene.xml": Self.card])
        let catalog = dir.appendingPathComponent("App.xcassets").path, res = dir.appendingPathComponent("res").path
        let depfile = dir.appendingPathComponent("assets.d").path
        let args = ["build", source, "-o", catalog, "--xcassets", "--android", res, "--depfile", depfile]
        XCTAssertEqual(try easel(args).status, 0)
        // Every file written is in the depfile.
        let deps = try String(contentsOfFile: depfile, encoding: .utf8)
        for root in [catalog, res] {
            for file in try FileManager.default.subpathsOfDirectory(atPath: root)
            where file.hasSuffix(".png") || file.hasSuffix(".xml") || file.hasSuffix(".colorset/Contents.json") {
                XCTAssertTrue(deps.contains(file), "\(file) in the depfile")
            }
        }
        let cardFile = res + "/drawable-mdpi/card.png"
        let before = try FileManager.default.attributesOfItem(atPath: cardFile)[.modificationDate] as? Date
        var icon = try String(contentsOfFile: source + "/icon.scene.xml", encoding: .utf8)
        icon = icon.replacingOccurrences(of: "#ffd60a", with: "#ff9f0a")
        try Data(icon.utf8).write(to: URL(fileURLWithPath: source + "/icon.scene.xml"))
        let again = try easel(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout.split(separator: "\n").filter { $0.hasPrefix("rendered") },
                       ["rendered icon.scene.xml → \(catalog)", "rendered icon.scene.xml → \(res)"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: cardFile)[.modificationDate] as? Date, before)
        XCTAssertTrue(try easel(args).stdout.contains("nothing to do, 2 up to date"))
    }

    // MARK: Appearances

    func testTintedAppearanceUsesTintedValuesAndGreysTheRest() throws {
        let scene = try write("t.scene.xml", """
            <scene width="20" height="10"><defs>
              <color name="a" value="#ff0000"/><color name="b" value="#ff0000" dark="#00ff00"/><color name="c" value="#ff0000" tinted="#404040"/>
            </defs><rect width="6" height="10" fill="a"/><rect x="7" width="6" height="10" fill="b"/><rect x="14" width="6" height="10" fill="c"/></scene>
            """)
        let png = dir.appendingPathComponent("t.png").path
        XCTAssertEqual(try easel(["render", scene, "-o", png, "--appearance", "tinted"]).status, 0)
        let image = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        // WCAG relative luminance, back to sRGB: red's grey, the dark value's (green's) grey.
        func grey(_ y: Double) -> UInt8 { UInt8(((y <= 0.0031308 ? 12.92 * y : 1.055 * pow(y, 1 / 2.4) - 0.055) * 255).rounded()) }
        XCTAssertEqual(image.pixel(3, 5), .init(r: grey(0.2126), g: grey(0.2126), b: grey(0.2126), a: 255))
        XCTAssertEqual(image.pixel(10, 5), .init(r: grey(0.7152), g: grey(0.7152), b: grey(0.7152), a: 255))
        XCTAssertEqual(image.pixel(17, 5), .init(r: 0x40, g: 0x40, b: 0x40, a: 255))
    }

    func assertSamePixels(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let x = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: a))))
        let y = try RasterImage(png: Array(try Data(contentsOf: URL(fileURLWithPath: b))))
        XCTAssertEqual(x.width, y.width, file: file, line: line)
        XCTAssertEqual(x.height, y.height, file: file, line: line)
        // Channels 0…255, premultiplied: within 1/255.
        XCTAssertLessThanOrEqual(compare(x, y, tolerance: 1)?.maxDifference ?? 255, 1, "\(a) and \(b)", file: file, line: line)
    }
}
