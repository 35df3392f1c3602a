import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `--fps`: animated PNGs and frame sequences, decoded by tools that are
/// not Easel (Pillow, ffprobe, ffmpeg) and compared with `--time` stills.
final class AnimatedOutputTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    func easel(_ args: [String]) throws -> ToolResult { try ExternalTool.run(ExternalTool.easelExecutable, args) }

    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func animated(repeatMode: String = "true", timing: String = "linear") -> String {
        """
        <scene width="48" height="32" background="white">
          <defs><animatedGradient id="a" duration="1" timing="\(timing)" repeat="\(repeatMode)">
            <linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>
            <linearGradient direction="right"><stop color="#ff9f0a"/><stop color="#30d158"/><stop color="#1d2b53"/></linearGradient>
            <radialGradient><stop color="white"/><stop color="#1d2b53"/></radialGradient>
          </animatedGradient></defs>
          <rect width="48" height="32" fill="url(#a)"/>
        </scene>
        """
    }

    /// Pillow's view of an APNG: frames, size, loop count, each frame's duration.
    func pillow(_ apng: String) throws -> [String: Any] {
        let script = """
        import json, sys
        from PIL import Image
        im = Image.open(sys.argv[1])
        durations = []
        for k in range(im.n_frames):
            im.seek(k); durations.append(im.info.get("duration"))
        print(json.dumps({"format": im.format, "frames": im.n_frames, "size": list(im.size), "loop": im.info.get("loop"), "durations": durations}))
        """
        let r = try ExternalTool.run("python3", ["-c", script, apng])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    func testAnimatedPNGDecodesElsewhereAndEachFrameIsTheStillAtItsTime() throws {
        let scene = try write("sky.scene.xml", animated())
        let apng = dir.appendingPathComponent("sky.png").path
        let r = try easel(["render", scene, "-o", apng, "--fps", "4"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // repeat="true": one pass is 3 keyframes × 1 s; floor(3·4) + 1 = 13 frames at k/4, looping forever.
        let info = try pillow(apng)
        XCTAssertEqual(info["format"] as? String, "PNG")
        XCTAssertEqual(info["frames"] as? Int, 13)
        XCTAssertEqual(info["size"] as? [Int], [48, 32])
        XCTAssertEqual(info["loop"] as? Int, 0)
        XCTAssertEqual((info["durations"] as? [Double])?.first, 250)
        let probe = try ExternalTool.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                     "stream=codec_name,width,height,nb_read_frames", "-of", "default=nw=1", apng])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertTrue(probe.stdout.contains("codec_name=apng") && probe.stdout.contains("nb_read_frames=13")
                      && probe.stdout.contains("width=48"), probe.stdout)
        // Decoded by ffmpeg, frame k is the --time k/4 still within 1/255.
        let frames = dir.appendingPathComponent("ff")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        let ff = try ExternalTool.run("ffmpeg", ["-v", "error", "-i", apng, "-vsync", "0", "-f", "image2", frames.appendingPathComponent("%03d.png").path])
        XCTAssertEqual(ff.status, 0, ff.stderr)
        for k in [0, 1, 2, 5, 6, 11, 12] {
            let still = dir.appendingPathComponent("still-\(k).png").path
            XCTAssertEqual(try easel(["render", scene, "-o", still, "--time", "\(Double(k) / 4)"]).status, 0)
            let decoded = try RasterImage(png: [UInt8](try Data(contentsOf: frames.appendingPathComponent(String(format: "%03d.png", k + 1)))))
            let expected = try RasterImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: still))))
            let d = try XCTUnwrap(compare(decoded, expected, tolerance: 1))
            XCTAssertEqual(d.fractionOver, 0, "frame \(k): \(d)")
        }
    }

    func testLoopCountFollowsRepeatAndIdenticalFramesAreStoredOnce() throws {
        // repeat="2": two passes; steps(2): each 1-s step shows two pictures.
        let scene = try write("steps.scene.xml", animated(repeatMode: "2", timing: "steps(2)"))
        let apng = dir.appendingPathComponent("steps.apng").path
        XCTAssertEqual(try easel(["render", scene, "-o", apng, "--fps", "10"]).status, 0)
        let info = try pillow(apng)
        XCTAssertEqual(info["loop"] as? Int, 2)
        // One pass of 2 s at 10 fps is 21 frames: 0–4, 5–9, 10–14, 15–19 and 20 (the
        // end of the pass: the last keyframe) are four pictures of five frames
        // and one more: 5 stored frames.
        XCTAssertEqual(info["frames"] as? Int, 5)
        XCTAssertEqual(info["durations"] as? [Double], [500, 500, 500, 500, 100])
    }

    func testFrameSequencesAndStaticScenes() throws {
        let scene = try write("sky.scene.xml", animated(repeatMode: "false"))
        let out = dir.appendingPathComponent("frames")
        let r = try easel(["render", scene, "--out-dir", out.path, "--fps", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // One pass of 2 s (3 keyframes, once) at 2 fps: 5 frames.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       (0..<5).map { String(format: "sky-%04d.png", $0) })
        let still = dir.appendingPathComponent("still.png").path
        XCTAssertEqual(try easel(["render", scene, "-o", still, "--time", "1.5"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("sky-0003.png")), try Data(contentsOf: URL(fileURLWithPath: still)))
        // A scene that does not animate: one frame.
        let plain = try write("plain.scene.xml", "<scene width=\"8\" height=\"8\"><rect fill=\"red\"/></scene>")
        let one = dir.appendingPathComponent("plain.apng").path
        XCTAssertEqual(try easel(["render", plain, "-o", one, "--fps", "30"]).status, 0)
        XCTAssertEqual(try pillow(one)["frames"] as? Int, 1)
    }

    func testSVGWarnsWhenAnAnimationStaysStill() throws {
        // A radial keyframe after linear ones: a cross-fade, which SMIL cannot express.
        let scene = try write("mixed.scene.xml", animated())
        let r = try easel(["render", scene, "-o", dir.appendingPathComponent("mixed.svg").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("mixed.scene.xml: warning: 1 animated paint cannot be animated in SVG"), r.stderr)
        let still = try easel(["render", scene, "-o", dir.appendingPathComponent("still.svg").path, "--time", "1"])
        XCTAssertEqual(still.stderr, "", "a still SVG was asked for: nothing to warn about")
        // A build's SVGs animate too, and say the same (before 1.3 a build said nothing).
        let built = try easel(["build", dir.path, "-o", dir.appendingPathComponent("built").path, "--formats", "svg"])
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stderr.contains("mixed.scene.xml: warning: 1 animated paint cannot be animated in SVG"), built.stderr)
        XCTAssertTrue(built.stderr.contains("[W0805]"), built.stderr)
        let pngs = try easel(["build", dir.path, "-o", dir.appendingPathComponent("pngs").path])
        XCTAssertFalse(pngs.stderr.contains("W0805"), "no SVG, nothing to warn about: \(pngs.stderr)")
    }

    func testBadFrameRatesAndLimits() throws {
        let scene = try write("sky.scene.xml", animated())
        for args in [["--fps", "0"], ["--fps", "300"], ["--fps", "nan"], ["--fps", "10", "--time", "1"],
                     ["--fps", "10", "--format", "pdf"]] {
            let r = try easel(["render", scene, "-o", dir.appendingPathComponent("x.png").path] + args)
            XCTAssertEqual(r.status, 2, args.joined(separator: " ") + ": " + r.stderr)
        }
        // Clearing and encoding 13 frames of 48×32 pixels (5 units a pixel) is more than a budget of 10,000.
        let out = dir.appendingPathComponent("big.png")
        let r = try easel(["render", scene, "-o", out.path, "--fps", "4", "--max-paint", "10000"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("sky.scene.xml:1:1: error: 13 frames of 48×32 pixels"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written")
    }
}
