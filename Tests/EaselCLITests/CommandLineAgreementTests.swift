import Easel
import EaselTestSupport
import Foundation
import XCTest

/// One meaning per flag across `render`, `build` and `preview`: the same
/// file names and sizes for the same scene, the old spellings accepted,
/// one range for scales.
final class CommandLineAgreementTests: XCTestCase, CommandLineTesting {
    var dir: URL!

    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
    }

    func files(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    func pngWidth(_ url: URL) throws -> Int {
        try RasterImage(png: [UInt8](try Data(contentsOf: url))).width
    }

    /// A scene of scale 2: render and build without scales both write
    /// `card.png` at 2×; with scales both write the asset-catalog names.
    func testRenderAndBuildNameAndSizeAScaleTheSameWay() throws {
        let scene = try write("scenes/card.scene.xml", #"<scene width="30" height="20" scale="2" background="teal"/>"#)
        let rendered = dir.appendingPathComponent("rendered"), built = dir.appendingPathComponent("built")
        XCTAssertEqual(try easel(["render", scene, "--out-dir", rendered.path]).status, 0)
        let b = try easel(["build", dir.appendingPathComponent("scenes").path, "--out-dir", built.path])
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(files(rendered), ["card.png"])
        XCTAssertEqual(files(built), ["card.png"])
        XCTAssertEqual(try pngWidth(rendered.appendingPathComponent("card.png")), 60)
        XCTAssertEqual(try pngWidth(built.appendingPathComponent("card.png")), 60)

        let r3 = dir.appendingPathComponent("r3"), b3 = dir.appendingPathComponent("b3")
        XCTAssertEqual(try easel(["render", scene, "--out-dir", r3.path, "--scales", "1,3"]).status, 0)
        // -o is the older spelling of build's --out-dir.
        XCTAssertEqual(try easel(["build", dir.appendingPathComponent("scenes").path, "-o", b3.path, "--scales", "1,3"]).status, 0)
        XCTAssertEqual(files(r3), ["card.png", "card@3x.png"])
        XCTAssertEqual(files(b3), files(r3))
        XCTAssertEqual(try pngWidth(b3.appendingPathComponent("card@3x.png")), 90)
    }

    /// An asset catalog fills Xcode's three slots unless told otherwise.
    func testACatalogDefaultsToXcodesThreeScales() throws {
        _ = try write("scenes/icon.scene.xml", #"<scene width="10" height="10" background="red"/>"#)
        let catalog = dir.appendingPathComponent("Assets.xcassets")
        let r = try easel(["build", dir.appendingPathComponent("scenes").path, "--out-dir", catalog.path, "--xcassets"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(catalog.appendingPathComponent("icon.imageset")), ["Contents.json", "icon.png", "icon@2x.png", "icon@3x.png"])
    }

    /// `--formats` and `--format` on both commands; several formats in one render.
    func testFormatsAreSpelledAlikeOnBothCommands() throws {
        let scene = try write("scenes/card.scene.xml", #"<scene width="10" height="10" background="red"/>"#)
        let out = dir.appendingPathComponent("out")
        let r = try easel(["render", scene, "--out-dir", out.path, "--formats", "png,svg"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(files(out), ["card.png", "card.svg"])
        let built = dir.appendingPathComponent("built")
        XCTAssertEqual(try easel(["build", dir.appendingPathComponent("scenes").path, "--out-dir", built.path, "--format", "pdf"]).status, 0)
        XCTAssertEqual(files(built), ["card.pdf"])
        // One file cannot hold two formats.
        XCTAssertEqual(try easel(["render", scene, "-o", dir.appendingPathComponent("x.png").path, "--formats", "png,svg"]).status, 2)
    }

    /// The scale range comes from `Limits` and reads the same everywhere.
    func testScaleLimitsReadTheSameEverywhere() throws {
        let scene = try write("card.scene.xml", #"<scene width="10" height="10"/>"#)
        let limit = Limits().maxScale.wholeNumberText
        for args in [["render", scene, "-o", dir.appendingPathComponent("x.png").path, "--scale", "17"],
                     ["render", scene, "--out-dir", dir.path, "--scales", "1,17"],
                     ["build", dir.path, "--out-dir", dir.appendingPathComponent("b").path, "--scales", "17"]] {
            let r = try easel(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.contains("at most \(limit)") && !r.stderr.contains("\(limit).0"), r.stderr)
        }
        let inScene = try write("big.scene.xml", #"<scene width="10" height="10" scale="17"/>"#)
        let r = try easel(["check", inScene])
        XCTAssertTrue(r.stderr.contains("at most \(limit)") && !r.stderr.contains("\(limit).0"), r.stderr)
    }
}
