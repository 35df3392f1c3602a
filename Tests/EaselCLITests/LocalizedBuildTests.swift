import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `easel build --locales` (docs/format.md, "Locales and strings"): one
/// render per locale of each scene that uses a localized key, into
/// `LOCALE/` or as localized entries of one imageset; a changed
/// translation rewrites only its locale's files. Run through the built
/// executable; images checked by decoding them (Pillow, independent of
/// Easel).
final class LocalizedBuildTests: XCTestCase {
    var dir: URL!, src: URL!, out: URL!, strings: URL!

    override func setUpWithError() throws {
        dir = ExternalTool.temporaryDirectory(name)
        src = dir.appendingPathComponent("scenes")
        out = dir.appendingPathComponent("out")
        strings = dir.appendingPathComponent("strings.json")
        try put("promo.scene.xml", """
        <scene width="120" height="40" background="white">
          <defs>
            <param name="title" type="string" default="Title"/>
            <color name="ink" value="#000000" dark="#ffffff"/>
            <variant name="dark" appearance="dark"/>
          </defs>
          <text x="4" y="4" width="112" font-size="12" fill="ink">{title}</text>
        </scene>
        """)
        try put("dot.scene.xml", "<scene width=\"8\" height=\"8\"><circle cx=\"4\" cy=\"4\" r=\"3\"/></scene>")
        try writeStrings(de: "Fortschritt")
    }

    func put(_ relative: String, _ text: String) throws {
        let url = src.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func writeStrings(de: String) throws {
        try Data("""
        {"en": {"title": "Progress"}, "de": {"title": "\(de)"}, "ja": {"title": "進捗"}, "ar": {"title": "التقدم"}}
        """.utf8).write(to: strings)
    }

    func build(_ extra: [String] = []) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.easelExecutable,
                             ["build", src.path, "-o", out.path, "--scales", "1,2", "--locales", "en,de,ja,ar", "--strings", strings.path] + extra)
    }

    /// Inode numbers of the files under `out`: an atomic write makes a new one.
    func files() throws -> [String: Int] {
        var result: [String: Int] = [:]
        let walker = FileManager.default.enumerator(atPath: out.path)!
        while let item = walker.nextObject() as? String {
            let attrs = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(item).path)
            if (attrs[.type] as? FileAttributeType) == .typeRegular, !item.hasSuffix(".easel-build.json") {
                result[item] = (attrs[.systemFileNumber] as? Int) ?? -1
            }
        }
        return result
    }

    /// Width and height of a PNG, read by Pillow.
    func pixelSize(_ url: URL) throws -> [Int] {
        let r = try ExternalTool.run("python3", ["-c", "import sys; from PIL import Image; print(*Image.open(sys.argv[1]).size)", url.path])
        return r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func testPlainOutputsPerLocaleAndIncrementalTranslations() throws {
        let first = try build()
        XCTAssertEqual(first.status, 0, first.stderr)
        var expected: Set<String> = ["dot.png", "dot@2x.png"]
        for locale in ["en", "de", "ja", "ar"] {
            for v in ["", "~dark"] { for s in ["", "@2x"] { expected.insert("\(locale)/promo\(v)\(s).png") } }
        }
        let before = try files()
        XCTAssertEqual(Set(before.keys), expected)
        XCTAssertEqual(try pixelSize(out.appendingPathComponent("de/promo@2x.png")), [240, 80])
        // Each locale its own picture.
        let en = try Data(contentsOf: out.appendingPathComponent("en/promo.png"))
        XCTAssertNotEqual(en, try Data(contentsOf: out.appendingPathComponent("de/promo.png")))

        XCTAssertTrue(try build().stdout.contains("nothing to do"))
        try writeStrings(de: "Fortschritte")
        let second = try build()
        XCTAssertEqual(second.status, 0, second.stderr)
        let after = try files()
        for (file, inode) in after {
            if file.hasPrefix("de/") {
                XCTAssertNotEqual(inode, before[file], "\(file) rewritten")
            } else {
                XCTAssertEqual(inode, before[file], "\(file) kept")
            }
        }
    }

    /// With `--android-vectors` a locale kept from the last build records
    /// only the files it wrote (a VectorDrawable), not the PNGs it could
    /// have been: changing another locale's text removes nothing.
    func testAKeptLocaleOfVectorDrawablesRecordsOnlyItsFiles() throws {
        let res = dir.appendingPathComponent("res")
        func buildRes() throws -> ToolResult {
            try ExternalTool.run(ExternalTool.easelExecutable, ["build", src.path, "--android", res.path, "--android-vectors", "--locales", "en,de", "--strings", strings.path])
        }
        let first = try buildRes()
        XCTAssertEqual(first.status, 0, first.stderr)
        let en = res.appendingPathComponent("drawable-en/promo.xml").path
        let inode = try FileManager.default.attributesOfItem(atPath: en)[.systemFileNumber] as? UInt64
        XCTAssertNotNil(inode)
        try writeStrings(de: "Fortschritte")
        let second = try buildRes()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("0 removed"), second.stdout)
        let manifest = try String(contentsOf: res.appendingPathComponent(".easel-build.json"), encoding: .utf8)
            .replacingOccurrences(of: "\\/", with: "/")
        XCTAssertTrue(manifest.contains("drawable-en/promo.xml"), manifest)
        XCTAssertFalse(manifest.contains("drawable-en-mdpi/promo.png"), "a kept locale lists no file it did not write")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: en)[.systemFileNumber] as? UInt64, inode, "en was kept")
        let third = try buildRes()
        XCTAssertTrue(third.stdout.contains("nothing to do"), third.stdout)
    }

    /// In an asset catalog each locale's images (dark ones included) are
    /// entries of the scene's one imageset, marked with their locale, each
    /// file of the right pixel size.
    func testCatalogHasLocalizedEntries() throws {
        let result = try build(["--xcassets"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let set = out.appendingPathComponent("promo.imageset")
        let contents = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: set.appendingPathComponent("Contents.json"))) as? [String: Any])
        let images = try XCTUnwrap(contents["images"] as? [[String: Any]])
        XCTAssertEqual(images.count, 4 * 2 * 2, "4 locales × light/dark × 2 scales")
        XCTAssertEqual((contents["properties"] as? [String: Any])?["localizable"] as? Bool, true)
        for locale in ["en", "de", "ja", "ar"] {
            let mine = images.filter { $0["locale"] as? String == locale }
            XCTAssertEqual(mine.count, 4, locale)
            XCTAssertEqual(mine.filter { $0["appearances"] != nil }.count, 2, "\(locale): a dark image is one more entry")
            for image in mine {
                let file = try XCTUnwrap(image["filename"] as? String)
                let scale = (image["scale"] as? String) == "2x" ? 2 : 1
                XCTAssertEqual(try pixelSize(set.appendingPathComponent(file)), [120 * scale, 40 * scale], file)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("promo~dark.imageset").path))
        let dot = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("dot.imageset/Contents.json"))) as? [String: Any])
        XCTAssertNil(dot["properties"], "a scene without a localized key is not localized")
    }

    /// The example builds for its four locales with a build's defaults
    /// (a character no font has is an error), its title shrunk in German and
    /// its hstack mirrored in Arabic (the icon's orange at the right).
    func testLocalizedExampleBuildsItsLocalesOnThreads() throws {
        let example = ExternalTool.repositoryRoot.appendingPathComponent("examples/localized")
        let r = try ExternalTool.run(ExternalTool.easelExecutable, [
            "build", example.path, "-o", out.path, "--scales", "1", "--locales", "en,de,ja,ar", "-j", "4",
            "--strings", example.appendingPathComponent("Localizable.xcstrings").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
        for locale in ["en", "de", "ja", "ar"] {
            XCTAssertEqual(try pixelSize(out.appendingPathComponent("\(locale)/promo.png")), [360, 150], locale)
        }
        let layout = try ExternalTool.run(ExternalTool.easelExecutable, [
            "layout", example.appendingPathComponent("promo.scene.xml").path, "--locale", "de",
            "--strings", example.appendingPathComponent("Localizable.xcstrings").path])
        XCTAssertTrue(layout.stdout.contains("\"fontSize\" : 14"), "the German title shrinks to its min-font-size")
        // The icon's gradient ends orange (#ff9500): at the left in English, the right in Arabic.
        let probe = "import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert('RGB'); print(*im.getpixel((int(sys.argv[2]), 42)))"
        let en = try ExternalTool.run("python3", ["-c", probe, out.appendingPathComponent("en/promo.png").path, "20"]).stdout
        let ar = try ExternalTool.run("python3", ["-c", probe, out.appendingPathComponent("ar/promo.png").path, "340"]).stdout
        XCTAssertTrue(en.hasPrefix("255"), en)
        XCTAssertTrue(ar.hasPrefix("255"), ar)
        let arLeft = try ExternalTool.run("python3", ["-c", probe, out.appendingPathComponent("ar/promo.png").path, "20"]).stdout
        XCTAssertFalse(arLeft.hasPrefix("255"), "nothing of the icon at the left in Arabic: \(arLeft)")
    }

    /// A locale dropped from --locales takes its files with it; a scene that
    /// stops using a localized key leaves its locale folders for one output.
    func testDroppedLocalesAndUnlocalizedScenesLeaveNothingBehind() throws {
        XCTAssertEqual(try build().status, 0)
        let fewer = try ExternalTool.run(ExternalTool.easelExecutable,
                                         ["build", src.path, "-o", out.path, "--scales", "1,2", "--locales", "en,de", "--strings", strings.path])
        XCTAssertEqual(fewer.status, 0, fewer.stderr)
        let left = try files().keys.sorted()
        XCTAssertFalse(left.contains { $0.hasPrefix("ar/") || $0.hasPrefix("ja/") }, "\(left)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("ar").path), "the empty folder goes too")
        XCTAssertTrue(try files().keys.contains("de/promo@2x.png"))

        try put("promo.scene.xml", "<scene width=\"120\" height=\"40\"><rect width=\"10\" height=\"10\"/></scene>")
        XCTAssertEqual(try build().status, 0)
        XCTAssertEqual(Set(try files().keys), ["dot.png", "dot@2x.png", "promo.png", "promo@2x.png"])
    }

    /// Turning --locales off (or on again) rebuilds the localized scenes and
    /// removes the files of the other mode.
    func testTurningLocalesOffAndOnCleansUp() throws {
        XCTAssertEqual(try build().status, 0)
        let plain = try ExternalTool.run(ExternalTool.easelExecutable, ["build", src.path, "-o", out.path, "--scales", "1,2"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(Set(try files().keys), ["dot.png", "dot@2x.png", "promo.png", "promo@2x.png", "promo~dark.png", "promo~dark@2x.png"])
        XCTAssertEqual(try build().status, 0)
        XCTAssertFalse(try files().keys.contains("promo.png"), "the unlocalized files go again")
        XCTAssertTrue(try files().keys.contains("ja/promo.png"))
    }

    /// A build in one --locale is rebuilt when the locale or a translation changes.
    func testOneLocaleBuildFollowsTheTables() throws {
        func one(_ locale: String) throws -> ToolResult {
            try ExternalTool.run(ExternalTool.easelExecutable,
                                 ["build", src.path, "-o", out.path, "--locale", locale, "--strings", strings.path])
        }
        XCTAssertEqual(try one("de").status, 0)
        let german = try Data(contentsOf: out.appendingPathComponent("promo.png"))
        XCTAssertTrue(try one("de").stdout.contains("nothing to do"))
        try writeStrings(de: "Ganz anders")
        XCTAssertFalse(try one("de").stdout.contains("nothing to do"), "a changed translation rebuilds")
        XCTAssertNotEqual(try Data(contentsOf: out.appendingPathComponent("promo.png")), german)
        XCTAssertFalse(try one("ja").stdout.contains("nothing to do"), "another locale rebuilds")
    }

    /// `render --depfile` names the string tables among the inputs.
    func testRenderDepfileNamesTheStringTables() throws {
        let depfile = dir.appendingPathComponent("promo.d")
        let r = try ExternalTool.run(ExternalTool.easelExecutable, [
            "render", src.appendingPathComponent("promo.scene.xml").path, "-o", dir.appendingPathComponent("promo.png").path,
            "--strings", strings.path, "--locale", "de", "--depfile", depfile.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try String(contentsOf: depfile, encoding: .utf8).contains("strings.json"))
    }

    /// --locales needs string tables; a bad locale is a usage error.
    /// With only a Latin font, `ja` and `ar` both lack glyphs: the build
    /// fails and says so for each of them, naming the locale; `en` and
    /// `de` are not blamed.
    func testEveryFailingLocaleIsReportedByName() throws {
        let r = try build(["--font-dir", TestFonts.folder.path, "--system-fonts", "no"])
        XCTAssertEqual(r.status, 1)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains("error: no font of this compile has") }
        XCTAssertEqual(errors.filter { $0.hasSuffix("(locale ja)") || $0.contains("(locale ja) [") }.count, 1, r.stderr)
        XCTAssertEqual(errors.filter { $0.hasSuffix("(locale ar)") || $0.contains("(locale ar) [") }.count, 1, r.stderr)
        XCTAssertEqual(errors.count, 2, r.stderr)
        XCTAssertFalse(r.stderr.contains("(locale en)") || r.stderr.contains("(locale de)"), r.stderr)
    }

    func testUsageErrors() throws {
        let noStrings = try ExternalTool.run(ExternalTool.easelExecutable, ["build", src.path, "-o", out.path, "--locales", "en,de"])
        XCTAssertEqual(noStrings.status, 2)
        XCTAssertTrue(noStrings.stderr.contains("--strings"), noStrings.stderr)
        let bad = try build(["--locales", "en,!!"])
        XCTAssertEqual(bad.status, 2)
    }
}
