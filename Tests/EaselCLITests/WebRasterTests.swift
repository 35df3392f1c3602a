import Easel
import EaselTestSupport
import Foundation
import XCTest

/// WebP and AVIF output (contract 1.3, "Web raster formats"), read back by
/// decoders that are not the encoders Easel calls: Pillow, libwebp's
/// `dwebp` and `webpinfo`, libavif's `avifdec`, an AVIF box walk typed out
/// in `Tests/Fixtures/web-raster/check_web_raster.py`, LittleCMS for the
/// colour tags, `aapt2` for Android, and Chromium.
final class WebRasterTests: XCTestCase, CommandLineTesting {
    var dir: URL!
    override func setUpWithError() throws { dir = ExternalTool.temporaryDirectory(name) }

    static let checker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/web-raster/check_web_raster.py").path
    static let wideColorChecker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/wide-color/check_wide_color.py").path

    /// Transparency (a translucent gradient, a disc over nothing), a slow
    /// gradient that dithers, text and a hairline: what an encoder that
    /// drops the colour under clear pixels, alpha or a dithered step loses.
    static let scene = """
        <scene width="160" height="90">
          <defs><linearGradient id="g" angle="20"><stop color="#1d2b53"/><stop color="#1f2d57"/></linearGradient>
            <linearGradient id="fade" angle="90"><stop color="#e76f51" opacity="0"/><stop color="#e76f51"/></linearGradient></defs>
          <rect x="0" y="0" width="160" height="60" fill="url(#g)"/>
          <rect x="0" y="60" width="160" height="30" fill="url(#fade)"/>
          <circle cx="140" cy="20" r="14" fill="#ffd166" opacity="0.7"/>
          <text x="10" y="36" font-size="18" fill="white">WebP &amp; AVIF</text>
          <line x1="0" y1="45" x2="160" y2="47" stroke="#30d158" stroke-width="0.5"/>
        </scene>
        """

    func checker(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try ExternalTool.run("python3", [Self.checker] + arguments)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(json["errors"] as? [String], [], "\(arguments)", file: file, line: line)
        return json
    }

    func render(_ scene: String, _ output: String, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = dir.appendingPathComponent(output).path
        let r = try easel(["render", scene, "-o", path] + extra)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return path
    }

    func size(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 }

    /// `webpinfo`'s own reading: libwebp's parser walks every chunk.
    func webpinfo(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try ExternalTool.run("webpinfo", [path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr, file: file, line: line)
        XCTAssertTrue(r.stdout.contains("No error detected."), r.stdout, file: file, line: line)
        return r.stdout
    }

    // MARK: WebP

    /// Lossless by default: Pillow and dwebp decode the PNG's very pixels,
    /// at 1x and 2x, transparent and opaque.
    func testLosslessWebPDecodesToExactlyThePNGsPixels() throws {
        let scene = try write("card.scene.xml", Self.scene)
        let opaque = try write("opaque.scene.xml", Self.scene.replacingOccurrences(of: "<scene width=\"160\" height=\"90\">",
                                                                                   with: "<scene width=\"160\" height=\"90\" background=\"#fafafa\">"))
        for (input, scale) in [(scene, "1"), (scene, "2"), (opaque, "1")] {
            let name = URL(fileURLWithPath: input).lastPathComponent + "-" + scale
            let png = try render(input, name + ".png", ["--scale", scale])
            let webp = try render(input, name + ".webp", ["--scale", scale])
            for decoder in ["pillow", "dwebp"] {
                let json = try checker(["compare", png, webp, decoder])
                XCTAssertEqual(json["exact"] as? Bool, true, "\(name) by \(decoder): \(json)")
            }
            let info = try webpinfo(webp)
            XCTAssertTrue(info.contains("Format: Lossless"), info)
            XCTAssertFalse(info.contains("ICCP: 1"), "an sRGB scene carries no profile")
        }
    }

    /// `--quality 80`: lossy, smaller than lossless, within 3/255 of the PNG.
    func testLossyWebPIsSmallerAndCloseToThePNG() throws {
        let scene = ExternalTool.repositoryRoot.appendingPathComponent("examples/card.scene.xml").path
        let png = try render(scene, "card.png")
        let lossless = try render(scene, "card.webp")
        let lossy = try render(scene, "card-80.webp", ["--quality", "80"])
        XCTAssertLessThan(try size(lossy), try size(lossless))
        XCTAssertTrue(try webpinfo(lossy).contains("Format: Lossy"))
        for decoder in ["pillow", "dwebp"] {
            let json = try checker(["compare", png, lossy, decoder])
            XCTAssertLessThanOrEqual(json["mean"] as? Double ?? 99, 3, "\(decoder): \(json)")
            XCTAssertEqual(json["exact"] as? Bool, false, "lossy is not exact")
        }
        // A lower quality is smaller still: the number reaches the encoder.
        let low = try render(scene, "card-20.webp", ["--quality", "20"])
        XCTAssertLessThan(try size(low), try size(lossy))
    }

    // MARK: AVIF

    /// Default quality 80: at least 35 dB against the PNG (avifdec and
    /// Pillow's libavif); `--quality 100`: exactly the PNG's pixels. The
    /// `colr` box says sRGB, sRGB's transfer and the matrix used.
    func testAVIFAtTheDefaultQualityAndLossless() throws {
        let scene = try write("card.scene.xml", Self.scene)
        let example = ExternalTool.repositoryRoot.appendingPathComponent("examples/card.scene.xml").path
        for (input, name) in [(scene, "fixture"), (example, "example")] {
            let png = try render(input, name + ".png")
            let avif = try render(input, name + ".avif")
            for decoder in ["avifdec", "pillow"] {
                let json = try checker(["compare", png, avif, decoder])
                XCTAssertGreaterThanOrEqual(json["psnr"] as? Double ?? 0, 35, "\(name) by \(decoder): \(json)")
            }
            XCTAssertLessThan(try size(avif), try size(png))
            let lossless = try render(input, name + "-100.avif", ["--quality", "100"])
            let json = try checker(["compare", png, lossless, "avifdec"])
            XCTAssertEqual(json["exact"] as? Bool, true, "\(name): \(json)")
            let colr = try checker(["colr", avif])["colr"] as? [[String: Any]]
            XCTAssertEqual(colr?.first?["type"] as? String, "nclx")
            XCTAssertEqual(colr?.first?["primaries"] as? Int, 1)
            XCTAssertEqual(colr?.first?["transfer"] as? Int, 13)
            XCTAssertEqual(colr?.first?["matrix"] as? Int, 6)
            XCTAssertEqual((try checker(["colr", lossless])["colr"] as? [[String: Any]])?.first?["matrix"] as? Int, 0,
                           "lossless stores RGB as is: the identity matrix")
        }
        // Quality reaches the encoder: 30 is smaller and further off than 80.
        let png = dir.appendingPathComponent("fixture.png").path
        let low = try render(scene, "low.avif", ["--quality", "30"])
        XCTAssertLessThan(try size(low), try size(dir.appendingPathComponent("fixture.avif").path))
        XCTAssertLessThan(try checker(["compare", png, low, "avifdec"])["psnr"] as? Double ?? 99,
                          try checker(["compare", png, dir.appendingPathComponent("fixture.avif").path, "avifdec"])["psnr"] as? Double ?? 0)
    }

    // MARK: Animation

    /// An animated scene as WebP: the APNG's frames (runs of identical
    /// frames merged in both), durations to the millisecond, plays; every
    /// frame's pixels as the APNG's (lossless).
    func testAnimatedWebPHasTheAPNGsFramesTimingAndPlays() throws {
        // Two passes of 1 s (plays twice) in a scene 3 s long: the last
        // second's frames are identical, one frame 1.125 s long in both.
        let scene = try write("sky.scene.xml", """
            <scene width="48" height="32" duration="3">
              <defs><animatedGradient id="a" duration="1" repeat="2">
                <linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51" opacity="0.5"/></linearGradient>
                <linearGradient direction="right"><stop color="#ff9f0a"/><stop color="#30d158"/></linearGradient>
              </animatedGradient></defs>
              <rect width="48" height="32" corner-radius="8" fill="url(#a)"/>
              <circle cx="24" cy="16" r="6" fill="white"/>
            </scene>
            """)
        for fps in ["8", "30", "12.5"] {
            let apng = try render(scene, "sky-\(fps).png", ["--fps", fps])
            let webp = try render(scene, "sky-\(fps).webp", ["--fps", fps])
            let json = try checker(["animation", apng, webp])
            let a = json["apng"] as? [String: Any] ?? [:], w = json["webp"] as? [String: Any] ?? [:]
            XCTAssertEqual(w["frames"] as? Int, a["frames"] as? Int, "fps \(fps)")
            XCTAssertGreaterThan(a["frames"] as? Int ?? 0, 1)
            XCTAssertEqual(w["loop"] as? Int, a["loop"] as? Int, "plays")
            XCTAssertEqual(w["loop"] as? Int, 2)
            XCTAssertEqual(json["differing"] as? Int, 0, "every frame's pixels")
            let da = (a["durations"] as? [Double]) ?? [], dw = (w["durations"] as? [Double]) ?? []
            XCTAssertEqual(da.count, dw.count)
            for (x, y) in zip(da, dw) { XCTAssertEqual(x, y, accuracy: 1, "fps \(fps): \(da) vs \(dw)") }
            XCTAssertEqual(da.reduce(0, +), dw.reduce(0, +), accuracy: 1, "no rounding error adds up")
            XCTAssertTrue(try webpinfo(webp).contains("Animation: 1"))
        }
        // With --quality the frames are lossy, still as many and as long:
        // at 30 fps a slow gradient's neighbouring frames differ by a level
        // or two, which libwebp's lossy animation encoder would merge.
        let slow = ExternalTool.repositoryRoot.appendingPathComponent("examples/animated-gradient.scene.xml").path
        let slowAPNG = try render(slow, "slow.png", ["--fps", "30", "--scale", "0.25"])
        for quality in ["80", "10"] {
            let lossy = try render(slow, "slow-\(quality).webp", ["--fps", "30", "--scale", "0.25", "--quality", quality])
            let json = try checker(["animation", slowAPNG, lossy])
            let a = json["apng"] as? [String: Any] ?? [:], w = json["webp"] as? [String: Any] ?? [:]
            XCTAssertEqual(w["frames"] as? Int, a["frames"] as? Int, "quality \(quality)")
            XCTAssertEqual(w["loop"] as? Int, a["loop"] as? Int)
            let da = (a["durations"] as? [Double]) ?? [], dw = (w["durations"] as? [Double]) ?? []
            for (x, y) in zip(da, dw) { XCTAssertEqual(x, y, accuracy: 1, "quality \(quality): \(da) vs \(dw)") }
            XCTAssertTrue(try webpinfo(lossy).contains("Format: Lossy"))
        }
        // WebP counts plays in 16 bits: more is a located error (the APNG takes it).
        let many = try write("many.scene.xml", try String(contentsOfFile: scene, encoding: .utf8).replacingOccurrences(of: #"repeat="2""#, with: #"repeat="70000""#))
        XCTAssertEqual(try easel(["render", many, "-o", dir.appendingPathComponent("many.png").path, "--fps", "2"]).status, 0)
        let refused = try easel(["render", many, "-o", dir.appendingPathComponent("many.webp").path, "--fps", "2"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("many.scene.xml:1:1: error: an animated WebP plays at most 65535 times"), refused.stderr)
        // --out-dir with --format webp names the animation NAME.webp.
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try easel(["render", scene, "--out-dir", out, "--format", "webp", "--fps", "8"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/sky.webp")),
                       try Data(contentsOf: URL(fileURLWithPath: dir.appendingPathComponent("sky-8.webp").path)))
    }

    // MARK: Display P3

    /// A display-p3 scene: the WebP carries Easel's profile in `ICCP`
    /// (LittleCMS reads P3 primaries and D65 from it), the AVIF says
    /// primaries 12 and transfer 13 in `colr`, and both convert to sRGB by
    /// LittleCMS as the P3 PNG does.
    func testDisplayP3IsTaggedInBothFormats() throws {
        let scene = try write("p3.scene.xml", """
            <scene width="80" height="40" color-space="display-p3" background="white">
              <view width="40" height="40" fill="color(display-p3 0 1 0)"/>
              <view x="40" width="40" height="40" fill="color(display-p3 1 0.1 0.2)"/>
            </scene>
            """)
        let png = try render(scene, "p3.png")
        let webp = try render(scene, "p3.webp")
        XCTAssertTrue(try webpinfo(webp).contains("ICCP: 1"))
        let r = try ExternalTool.run("python3", [Self.wideColorChecker, "profile", webp])
        XCTAssertEqual(r.status, 0, r.stderr)
        let profile = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let primaries = profile["primaries"] as? [[Double]] ?? []
        XCTAssertEqual(primaries.count, 3, "\(profile)")
        for (found, expected) in zip(primaries, [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]) {
            XCTAssertEqual(found[0], expected[0], accuracy: 0.002)
            XCTAssertEqual(found[1], expected[1], accuracy: 0.002)
        }
        XCTAssertEqual(try checker(["compare", png, webp, "pillow"])["exact"] as? Bool, true)

        let avif = try render(scene, "p3.avif", ["--quality", "100"])
        let colr = (try checker(["colr", avif])["colr"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(colr["primaries"] as? Int, 12)
        XCTAssertEqual(colr["transfer"] as? Int, 13)
        XCTAssertEqual(colr["matrix"] as? Int, 0)
        let converted = try checker(["p3-to-srgb", avif, png, "10,20", "60,20"])
        let fromAVIF = converted["avif"] as? [[Int]] ?? [], fromPNG = converted["png"] as? [[Int]] ?? []
        XCTAssertEqual(fromAVIF.count, 2)
        for (a, p) in zip(fromAVIF, fromPNG) {
            for (x, y) in zip(a, p) { XCTAssertLessThanOrEqual(abs(x - y), 1, "\(fromAVIF) vs \(fromPNG)") }
        }
        // The tag matters: the P3 red read as sRGB numbers would be another colour.
        let raw = converted["raw"] as? [[Int]] ?? []
        XCTAssertGreaterThan(zip(raw.last ?? [], fromAVIF.last ?? []).map { abs($0 - $1) }.max() ?? 0, 20, "\(raw) vs \(fromAVIF)")
        let lossy = try render(scene, "p3-80.avif")
        XCTAssertEqual((try checker(["colr", lossy])["colr"] as? [[String: Any]])?.first?["primaries"] as? Int, 12)
        // An animated P3 WebP carries the profile too, lossless and lossy.
        let animated = try write("p3-anim.scene.xml", """
            <scene width="40" height="20" color-space="display-p3">
              <defs><animatedGradient id="a" duration="1"><linearGradient><stop color="color(display-p3 0 1 0)"/><stop color="white"/></linearGradient>
                <linearGradient><stop color="color(display-p3 1 0 0)"/><stop color="black"/></linearGradient></animatedGradient></defs>
              <rect width="40" height="20" fill="url(#a)"/>
            </scene>
            """)
        for extra in [[], ["--quality", "80"]] {
            let info = try webpinfo(try render(animated, "p3-anim\(extra.count).webp", ["--fps", "4"] + extra))
            XCTAssertTrue(info.contains("ICCP: 1") && info.contains("Animation: 1"), "\(extra): \(info)")
        }
    }

    // MARK: Usage

    /// `--quality` outside 1–100 or with no format that has one, `--fps`
    /// with AVIF, `--format` against the extension, WebP/AVIF in an asset
    /// catalog: usage errors, exit 2, naming the option; nothing written.
    func testUsageErrorsNameTheOption() throws {
        let scene = try write("card.scene.xml", Self.scene)
        let source = dir.appendingPathComponent("src").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: scene, toPath: source + "/card.scene.xml")
        let out = dir.appendingPathComponent("out").path
        let cases: [([String], String)] = [
            (["render", scene, "-o", out + "/x.png", "--quality", "80"], "--quality is for WebP and AVIF output; png has no quality"),
            (["render", scene, "-o", out + "/x.webp", "--quality", "0"], "--quality must be from 1 to 100, not 0"),
            (["render", scene, "-o", out + "/x.avif", "--quality", "101"], "--quality must be from 1 to 100, not 101"),
            (["render", scene, "-o", out + "/x.pdf", "--quality", "50"], "pdf has no quality"),
            (["render", scene, "--out-dir", out, "--format", "png,svg", "--quality", "50"], "png,svg has no quality"),
            (["render", scene, "-o", out + "/x.icns", "--quality", "50"], "icns has no quality"),
            (["render", scene, "-o", out + "/x.avif", "--fps", "10"], "--fps makes an animated PNG or WebP"),
            (["render", scene, "--out-dir", out, "--format", "avif", "--fps", "10"], "use --time for a still avif"),
            (["render", scene, "-o", out + "/x.webp", "--format", "avif"], "--format avif and the extension of"),
            (["build", source, "--out-dir", out, "--formats", "png", "--quality", "50"], "--quality is for WebP and AVIF output; png has no quality"),
            (["build", source, "--out-dir", out, "--quality", "50"], "--quality is for WebP and AVIF output; png has no quality"),
            (["render", scene, "-o", out + "/x.apng", "--format", "webp"], "--format webp and the extension of"),
            (["render", scene, "-o", out + "/x.apng", "--quality", "50"], "apng has no quality"),
            (["render", scene, "-o", out + "/noext", "--quality", "50"], "cannot tell the format of"),
            (["build", source, "--out-dir", out + "/A.xcassets", "--xcassets", "--formats", "webp"], "Xcode's asset catalogs take no webp"),
            (["build", source, "--out-dir", out + "/A.xcassets", "--xcassets", "--formats", "avif"], "Xcode's asset catalogs take no avif"),
            (["build", source, "--out-dir", out, "--android-format", "webp"], "--android-format chooses an Android resource folder's pictures: add --android RES"),
            (["build", source, "--android", out + "/res", "--android-format", "gif"], "--android-format takes png or webp, not 'gif'"),
            (["build", source, "--android", out + "/res", "--android-format", "webp", "--quality", "80"], "an Android resource folder's WebP is lossless"),
        ]
        for (arguments, message) in cases {
            let r = try easel(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a usage error writes nothing")
    }

    /// Lossy animation stores each frame's changed rectangle, replacing what
    /// was there (alpha too): a small spinner on a still card is smaller than
    /// lossless, every frame within 3/255 of the APNG's, and a frame where
    /// the spinner is gone shows nothing of it.
    func testLossyAnimationStoresChangedRectanglesWithoutBlending() throws {
        let scene = try write("spinner.scene.xml", """
            <scene width="200" height="120">
              <defs><linearGradient id="bg" angle="30"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>
                <animatedGradient id="a" duration="0.5">
                  <linearGradient direction="up"><stop color="white"/><stop color="#1d2b53"/></linearGradient>
                  <linearGradient direction="right"><stop color="#ff9f0a" opacity="0"/><stop color="#30d158" opacity="0"/></linearGradient>
                </animatedGradient></defs>
              <rect width="200" height="100" corner-radius="12" fill="url(#bg)"/>
              <text x="12" y="20" font-size="14" fill="white">Loading the dashboard</text>
              <circle cx="180" cy="108" r="10" fill="url(#a)"/>
            </scene>
            """)
        let apng = try render(scene, "spinner.png", ["--fps", "30"])
        let lossless = try render(scene, "spinner.webp", ["--fps", "30"])
        let lossy = try render(scene, "spinner-80.webp", ["--fps", "30", "--quality", "80"])
        XCTAssertLessThan(try size(lossy), try size(lossless))
        let json = try checker(["animation", apng, lossy])
        let a = json["apng"] as? [String: Any] ?? [:], w = json["webp"] as? [String: Any] ?? [:]
        XCTAssertEqual(w["frames"] as? Int, a["frames"] as? Int)
        let da = (a["durations"] as? [Double]) ?? [], dw = (w["durations"] as? [Double]) ?? []
        XCTAssertEqual(da.count, dw.count)
        for (x, y) in zip(da, dw) { XCTAssertEqual(x, y, accuracy: 1, "\(da) vs \(dw)") }
        let means = json["frame_means"] as? [Double] ?? []
        XCTAssertEqual(means.count, a["frames"] as? Int)
        XCTAssertLessThanOrEqual(means.max() ?? 99, 3, "\(means)")
        // The last frame of the pass: the spinner fully transparent, as in the APNG.
        let last = try ExternalTool.run("python3", ["-c", "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.seek(im.n_frames - 1); print(im.convert('RGBA').getpixel((180, 110)))", lossy])
        XCTAssertEqual(last.stdout, "(0, 0, 0, 0)\n", last.stderr)
    }

    /// A build writing only WebP and AVIF compiles for the scales it paints
    /// at: a dense graph (its lines reduced per pixel column for 1x) at 3x.
    func testAWebPOnlyBuildPaintsAboveTheScenesScale() throws {
        let source = dir.appendingPathComponent("src").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        let rows = (0..<4000).map { "\($0),\(sin(Double($0) / 40) * 50 + 50)" }.joined(separator: "\n")
        try Data(("x,y\n" + rows + "\n").utf8).write(to: URL(fileURLWithPath: source + "/series.csv"))
        _ = try write("src/dense.scene.xml", #"<scene width="200" height="100"><lineGraph width="200" height="100" src="series.csv" column="y"/></scene>"#)
        let out = dir.appendingPathComponent("out").path
        let r = try easel(["build", source, "--out-dir", out, "--formats", "webp,avif", "--scales", "1,3"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let png = try render(source + "/dense.scene.xml", "dense@3x.png", ["--scale", "3"])
        XCTAssertEqual(try checker(["compare", png, out + "/dense@3x.webp", "dwebp"])["exact"] as? Bool, true)
    }

    /// A render larger than WebP allows (16383 pixels a side) is a located
    /// error, exit 1, and the previous file stays.
    func testAWebPTooLargeIsALocatedErrorAndKeepsThePreviousFile() throws {
        let scene = try write("wide.scene.xml", "<scene width=\"9000\" height=\"4\"><rect width=\"9000\" height=\"4\" fill=\"red\"/></scene>")
        let webp = try render(scene, "wide.webp")
        let before = try Data(contentsOf: URL(fileURLWithPath: webp))
        let r = try easel(["render", scene, "-o", webp, "--scale", "2"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("wide.scene.xml:1:1: error: a WebP is at most 16383 pixels a side and this render is 18000×8"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: webp)), before)
        // AVIF takes it.
        _ = try render(scene, "wide.avif", ["--scale", "2"])
    }

    /// The same scene gives byte-identical WebP and AVIF files.
    func testOutputIsDeterministic() throws {
        let scene = try write("card.scene.xml", Self.scene)
        for (name, extra) in [("a.webp", []), ("a.avif", []), ("q.webp", ["--quality", "60"]), ("anim.webp", ["--fps", "4"])] {
            let first = try Data(contentsOf: URL(fileURLWithPath: try render(scene, "1-" + name, extra)))
            let second = try Data(contentsOf: URL(fileURLWithPath: try render(scene, "2-" + name, extra)))
            XCTAssertEqual(first, second, name)
        }
    }

    // MARK: Builds

    /// `easel build --formats png,webp,avif --scales 1,2`: each kind named
    /// as PNGs are, each WebP the PNG's pixels, listed in the depfile and
    /// the manifest; a second build is up to date.
    func testBuildsWriteWebPAndAVIFNamedAsPNGs() throws {
        let source = dir.appendingPathComponent("src").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        _ = try write("src/card.scene.xml", Self.scene)
        let out = dir.appendingPathComponent("out").path, depfile = dir.appendingPathComponent("deps.d").path
        let r = try easel(["build", source, "--out-dir", out, "--formats", "png,webp,avif", "--scales", "1,2", "--depfile", depfile])
        XCTAssertEqual(r.status, 0, r.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(names, ["card.avif", "card.png", "card.webp", "card@2x.avif", "card@2x.png", "card@2x.webp"])
        for s in ["", "@2x"] {
            XCTAssertEqual(try checker(["compare", "\(out)/card\(s).png", "\(out)/card\(s).webp", "dwebp"])["exact"] as? Bool, true)
            XCTAssertGreaterThanOrEqual(try checker(["compare", "\(out)/card\(s).png", "\(out)/card\(s).avif", "avifdec"])["psnr"] as? Double ?? 0, 35)
        }
        let deps = try String(contentsOfFile: depfile, encoding: .utf8)
        XCTAssertTrue(deps.contains("card@2x.webp") && deps.contains("card@2x.avif"), deps)
        let manifest = try String(contentsOfFile: out + "/.easel-build.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("card@2x.webp") && manifest.contains("card.avif"), manifest)
        let again = try easel(["build", source, "--out-dir", out, "--formats", "png,webp,avif", "--scales", "1,2"])
        XCTAssertTrue(again.stdout.contains("nothing to do, 1 up to date"), again.stdout)
        // A new quality is a new build: the lossy WebP replaces the lossless one.
        let lossy = try easel(["build", source, "--out-dir", out, "--formats", "png,webp,avif", "--scales", "1,2", "--quality", "70"])
        XCTAssertTrue(lossy.stdout.contains("1 rendered"), lossy.stdout)
        XCTAssertTrue(try webpinfo(out + "/card.webp").contains("Format: Lossy"))
    }

    /// `--android-format webp`: every drawable and mipmap picture a lossless
    /// WebP with the PNG build's pixels, and the folder compiles and links
    /// with aapt2.
    func testAndroidWebPPassesAapt2AndEqualsThePNGBuild() throws {
        let source = dir.appendingPathComponent("src").path
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        _ = try write("src/card.scene.xml", Self.scene)
        try FileManager.default.copyItem(atPath: ExternalTool.repositoryRoot.appendingPathComponent("examples/app-icon/icon.scene.xml").path,
                                         toPath: source + "/icon.scene.xml")
        let pngRes = dir.appendingPathComponent("res-png").path, webpRes = dir.appendingPathComponent("res-webp").path
        XCTAssertEqual(try easel(["build", source, "--android", pngRes]).status, 0)
        let r = try easel(["build", source, "--android", webpRes, "--android-format", "webp", "--android-monochrome", "auto"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var compared = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: pngRes) where !folder.hasPrefix(".") {
            for file in try FileManager.default.contentsOfDirectory(atPath: pngRes + "/" + folder) where file.hasSuffix(".png") {
                let webp = webpRes + "/" + folder + "/" + file.dropLast(4) + ".webp"
                XCTAssertFalse(FileManager.default.fileExists(atPath: webpRes + "/" + folder + "/" + file), "no PNG beside the WebP")
                XCTAssertEqual(try checker(["compare", pngRes + "/" + folder + "/" + file, webp, "dwebp"])["exact"] as? Bool, true, webp)
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 5 * 4 + 5 * 4, "drawables and the icon's mipmaps at five densities")
        try AssetChecks.check(["link", webpRes])
    }

    // MARK: Chromium

    /// Chromium shows the WebP and the AVIF (lossless) like the PNG, in
    /// sRGB and, on a Display P3 screen, a P3 scene's colours as the P3
    /// PNG's: the tags are read.
    func testChromiumShowsBothLikeThePNG() throws {
        let scene = try write("p3.scene.xml", """
            <scene width="200" height="60" color-space="display-p3" background="white">
              <view width="50" height="60" fill="color(display-p3 0 1 0)"/>
              <view x="50" width="50" height="60" fill="#3a7bd5"/>
              <view x="100" width="50" height="60" fill="oklch(0.6 0.25 20)"/>
              <view x="150" width="50" height="60" fill="color(display-p3 0.2 0.3 1)"/>
            </scene>
            """)
        let png = try render(scene, "p3.png")
        _ = try render(scene, "p3.webp")
        _ = try render(scene, "p3.avif", ["--quality", "100"])
        let own = try RasterImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
        let browser = try HeadlessChromium(width: 400, height: 300, arguments: ["--force-color-profile=display-p3-d65"], gpu: true)
        for name in ["p3.png", "p3.webp", "p3.avif"] {
            let page = dir.appendingPathComponent(name + ".html")
            try Data("<html><body style=\"margin:0\"><img style=\"display:block\" src=\"\(name)\"></body></html>".utf8).write(to: page)
            try browser.open(page.absoluteString)
            XCTAssertTrue(try browser.waitUntil("document.readyState === 'complete' && document.images[0].complete && document.images[0].naturalWidth === 200"))
            // Screenshots until the picture shows: a frame can come after the load event.
            let deadline = Date(timeIntervalSinceNow: EventWait.timeout)
            var shot: RasterImage
            repeat {
                shot = try RasterImage(png: try browser.screenshot()).cropped(width: 200, height: 60)
            } while !(shot.pixel(25, 30).r < 128 && shot.pixel(25, 30).g > 200) && Date() < deadline
            for x in [25, 75, 125, 175] {
                XCTAssertLessThanOrEqual(shot.pixel(x, 30).distance(to: own.pixel(x, 30)), 3,
                                         "\(name) at \(x): \(shot.pixel(x, 30)) vs the PNG's \(own.pixel(x, 30))")
            }
        }
    }
}
