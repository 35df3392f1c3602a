import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `--set`, `--set-file`, `--appearance`, `--variant`, and variants in
/// `easel build` (plain trees and asset catalogs), through the executable.
/// Expected colours come from the hex text written in the test.
final class ParameterCLITests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    func easel(_ args: [String]) throws -> ToolResult { try ExternalTool.run(ExternalTool.easelExecutable, args) }

    func write(_ relative: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func image(_ path: String) throws -> RasterImage { try RasterImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))) }

    func hex(_ s: String) -> ExpectedColor { ExpectedColor(hex: s) }

    /// Left half: the `bg` palette colour; right half: the accent parameter.
    let scene = """
        <scene width="20" height="10">
          <defs>
            <param name="accent" type="color" default="#0a84ff"/>
            <color name="bg" value="#f2f2f7" dark="#1c1c1e"/>
            <variant name="dark" appearance="dark"/>
            <variant name="brand" set="accent=#ff375f"/>
          </defs>
          <rect width="10" height="10" fill="bg"/>
          <rect x="10" width="10" height="10" fill="{accent}"/>
        </scene>
        """

    func testSetAndAppearanceOnRender() throws {
        let input = try write("card.scene.xml", scene)
        for accent in ["#34c759", "#af52de"] {
            let out = dir.appendingPathComponent("a\(accent.dropFirst()).png").path
            let r = try easel(["render", input, "-o", out, "--set", "accent=\(accent)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            assertPixel(try image(out), 15, 5, hex(accent), tolerance: 1, accent)
        }
        let dark = dir.appendingPathComponent("dark.png").path
        XCTAssertEqual(try easel(["render", input, "-o", dark, "--appearance", "dark"]).status, 0)
        assertPixel(try image(dark), 5, 5, hex("#1c1c1e"), tolerance: 1)
        assertPixel(try image(dark), 15, 5, hex("#0a84ff"), tolerance: 1)

        // A parameter file, and --set over it.
        let json = try write("params.json", "{\"accent\": \"#ffd60a\"}")
        let fromFile = dir.appendingPathComponent("file.png").path
        XCTAssertEqual(try easel(["render", input, "-o", fromFile, "--set-file", json]).status, 0)
        assertPixel(try image(fromFile), 15, 5, hex("#ffd60a"), tolerance: 1)
        // The file decides the output: a depfile lists it as an input.
        let depfile = dir.appendingPathComponent("file.d").path
        XCTAssertEqual(try easel(["render", input, "-o", fromFile, "--set-file", json, "--depfile", depfile]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: depfile, encoding: .utf8).contains("params.json"))
        XCTAssertEqual(try easel(["render", input, "-o", fromFile, "--set-file", json, "--set", "accent=#30d158"]).status, 0)
        assertPixel(try image(fromFile), 15, 5, hex("#30d158"), tolerance: 1)

        // --variant with --out-dir names the file as a build does.
        let outDir = dir.appendingPathComponent("variants").path
        XCTAssertEqual(try easel(["render", input, "--out-dir", outDir, "--variant", "brand"]).status, 0)
        assertPixel(try image(outDir + "/card~brand.png"), 15, 5, hex("#ff375f"), tolerance: 1)
    }

    func testErrorsAndExitStatus() throws {
        let input = try write("card.scene.xml", scene)
        let out = dir.appendingPathComponent("x.png").path
        // Unknown parameter: the command line was wrong.
        var r = try easel(["render", input, "-o", out, "--set", "acent=#fff"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("card.scene.xml:1:1: error: --set acent=…: the scene has no parameter 'acent'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("did you mean 'accent'?"), r.stderr)
        // The same key from a parameter file is named as the file's.
        let values = try write("values.json", ##"{"acent": "#fff"}"##)
        r = try easel(["render", input, "-o", out, "--set-file", values])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("card.scene.xml:1:1: error: --set-file \(values): 'acent': the scene has no parameter 'acent'"), r.stderr)
        // Wrong type: the scene's error, located at the attribute, naming the parameter.
        r = try easel(["render", input, "-o", out, "--set", "accent=bleu"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("card.scene.xml:9:45: error: 'bleu' is not a colour (from parameter 'accent' = 'bleu', set on the command line)"),
                      r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        // Malformed --set, unreadable or malformed --set-file: usage errors.
        for args in [["--set", "accent"], ["--set-file", dir.appendingPathComponent("none.json").path],
                     ["--set-file", try write("bad.json", "[1, 2]")]] {
            r = try easel(["render", input, "-o", out] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
        r = try easel(["render", input, "-o", out, "--variant", "promo"])
        XCTAssertEqual(r.status, 2, r.stderr)
        // Undeclared {name} in the scene.
        let broken = try write("broken.scene.xml", "<scene width=\"4\" height=\"4\">\n<rect fill=\"{acent}\"/></scene>")
        r = try easel(["check", broken])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("broken.scene.xml:2:13: error: {acent} is not a declared parameter"), r.stderr)
        // A value that looks like a reference stays literal.
        let ids = try write("ids.scene.xml", """
            <scene width="4" height="4"><defs><param name="a" type="string" default="x"/>
            <param name="b" type="string" default="B"/></defs><rect id="{a}"/></scene>
            """)
        r = try easel(["layout", ids, "--set", "a={b}"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"id\" : \"{b}\"") || r.stdout.contains("\"id\":\"{b}\""), r.stdout)
    }

    func testBuildWritesVariantsAndRebuildsWhenValuesChange() throws {
        _ = try write("src/card.scene.xml", scene)
        _ = try write("src/plain.scene.xml", "<scene width=\"4\" height=\"4\"><rect fill=\"red\"/></scene>")
        let src = dir.appendingPathComponent("src").path, out = dir.appendingPathComponent("out").path
        var r = try easel(["build", src, "-o", out, "--scales", "1,2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for file in ["card.png", "card@2x.png", "card~dark.png", "card~dark@2x.png", "card~brand.png", "card~brand@2x.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + file), file)
        }
        assertPixel(try image(out + "/card~dark@2x.png"), 10, 10, hex("#1c1c1e"), tolerance: 1)
        assertPixel(try image(out + "/card~brand.png"), 15, 5, hex("#ff375f"), tolerance: 1)
        assertPixel(try image(out + "/card.png"), 15, 5, hex("#0a84ff"), tolerance: 1)

        r = try easel(["build", src, "-o", out, "--scales", "1,2"])
        XCTAssertTrue(r.stdout.contains("nothing to do"), r.stdout)
        // A new value is a new input: rebuilt, and only the declaring scene gets it.
        r = try easel(["build", src, "-o", out, "--scales", "1,2", "--set", "accent=#30d158"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("2 rendered"), r.stdout)
        assertPixel(try image(out + "/card.png"), 15, 5, hex("#30d158"), tolerance: 1)
        assertPixel(try image(out + "/card~brand.png"), 15, 5, hex("#ff375f"), tolerance: 1)   // the variant's own value
        // A name no scene declares is a warning in a build, not a failure.
        r = try easel(["build", src, "-o", out, "--set", "acent=#fff"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: --set acent=…: no scene built declares a parameter 'acent'"), r.stderr)
    }

    /// The themed example as an asset catalog: each scale has an image for
    /// any appearance and one for dark, files of the right pixel size; the
    /// brand variant is an imageset of its own; each palette colour is a
    /// colorset whose components are the palette's sRGB values.
    func testExampleAsAssetCatalog() throws {
        let example = ExternalTool.repositoryRoot.appendingPathComponent("examples/themed")
        let catalog = dir.appendingPathComponent("Themed.xcassets")
        let r = try easel(["build", example.path, "-o", catalog.path, "--xcassets", "--scales", "1,2,3"])
        XCTAssertEqual(r.status, 0, r.stderr)

        func json(_ path: String) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: catalog.appendingPathComponent(path))) as? [String: Any], path)
        }
        let set = "themed-card.imageset"
        let images = try XCTUnwrap(try json(set + "/Contents.json")["images"] as? [[String: Any]])
        for scale in [1, 2, 3] {
            let entries = images.filter { $0["scale"] as? String == "\(scale)x" }
            XCTAssertEqual(entries.count, 2, "scale \(scale)")
            let any = try XCTUnwrap(entries.first { $0["appearances"] == nil })
            let dark = try XCTUnwrap(entries.first { $0["appearances"] != nil })
            let appearances = try XCTUnwrap(dark["appearances"] as? [[String: String]])
            XCTAssertEqual(appearances, [["appearance": "luminosity", "value": "dark"]])
            for entry in [any, dark] {
                XCTAssertEqual(entry["idiom"] as? String, "universal")
                let file = try XCTUnwrap(entry["filename"] as? String)
                let png = try image(catalog.appendingPathComponent(set + "/" + file).path)
                XCTAssertEqual(png.width, 320 * scale, file)
                XCTAssertEqual(png.height, 180 * scale, file)
            }
        }
        let brand = try XCTUnwrap(try json("themed-card~brand.imageset/Contents.json")["images"] as? [[String: Any]])
        XCTAssertEqual(brand.count, 3)

        // Palette values read from the example's own text, independently of Easel.
        let source = try String(contentsOf: example.appendingPathComponent("themed-card.scene.xml"), encoding: .utf8)
        let declaration = try NSRegularExpression(pattern: "<color name=\"(\\w+)\" value=\"#(\\w{6})\" dark=\"#(\\w{6})\"/>")
        let matches = declaration.matches(in: source, range: NSRange(source.startIndex..., in: source))
        XCTAssertEqual(matches.count, 5)
        for m in matches {
            func group(_ k: Int) -> String { String(source[Range(m.range(at: k), in: source)!]) }
            let colors = try XCTUnwrap(try json(group(1) + ".colorset/Contents.json")["colors"] as? [[String: Any]])
            XCTAssertEqual(colors.count, 2, group(1))
            for (entry, hexText) in [(colors.first { $0["appearances"] == nil }, group(2)), (colors.first { $0["appearances"] != nil }, group(3))] {
                let color = try XCTUnwrap((entry?["color"] as? [String: Any]))
                XCTAssertEqual(color["color-space"] as? String, "srgb")
                let c = try XCTUnwrap(color["components"] as? [String: String])
                let want = hex("#" + hexText)
                for (key, value) in [("red", want.r), ("green", want.g), ("blue", want.b), ("alpha", 1.0)] {
                    XCTAssertEqual(Double(c[key] ?? "") ?? -1, value, accuracy: 0.0005, "\(group(1)) \(key)")
                }
            }
        }
    }
}
