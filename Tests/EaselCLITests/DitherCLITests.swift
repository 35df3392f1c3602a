import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Dithering through the executable: `--dither no` and `dither="false"`
/// agree, the pattern is the same whichever thread paints (`-j`), and PDF
/// and SVG are untouched.
final class DitherCLITests: XCTestCase, CommandLineTesting {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    /// Gradients of every kind on fills, strokes, text and a pattern tile.
    func scene(_ name: String, dither: Bool? = nil) throws -> String {
        try write("\(name).scene.xml", """
        <scene width="160" height="120" scale="2"\(dither.map { " dither=\"\($0)\"" } ?? "")>
          <defs>
            <linearGradient id="l" angle="30"><stop color="#202838"/><stop color="#303848"/></linearGradient>
            <radialGradient id="r" interpolation="oklab"><stop color="#402020"/><stop color="#483028"/></radialGradient>
            <conicGradient id="c"><stop color="#203020"/><stop color="#284028"/><stop color="#203020"/></conicGradient>
            <pattern id="p" width="40" height="40" units="userSpace"><rect width="40" height="40" fill="url(#l)"/></pattern>
          </defs>
          <rect width="160" height="60" fill="url(#l)" stroke="url(#r)" stroke-width="6"/>
          <circle cx="40" cy="90" r="28" fill="url(#c)"/>
          <rect x="80" y="64" width="76" height="52" fill="url(#p)"/>
          <text x="84" y="40" font="DejaVu Sans Bold 28" fill="url(#r)">Ab</text>
        </scene>
        """)
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    func testTheSameScenesGiveTheSameBytesWhateverTheThreads() throws {
        let scenes = try (0..<6).map { try scene("s\($0)") }
        for (jobs, out) in [("1", "one"), ("4", "four"), ("4", "again")] {
            let r = try easel(["render"] + scenes + ["--out-dir", dir.appendingPathComponent(out).path, "-j", jobs])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        for k in 0..<6 {
            let one = try bytes(dir.appendingPathComponent("one/s\(k).png").path)
            XCTAssertEqual(one, try bytes(dir.appendingPathComponent("four/s\(k).png").path), "s\(k): -j 1 and -j 4")
            XCTAssertEqual(one, try bytes(dir.appendingPathComponent("again/s\(k).png").path), "s\(k): twice")
        }
    }

    func testDitherNoIsTheSceneAttributeAndOnlyPNGChanges() throws {
        let plain = try scene("plain"), off = try scene("off", dither: false)
        func render(_ scene: String, _ out: String, _ extra: [String] = []) throws -> [UInt8] {
            let path = dir.appendingPathComponent(out).path
            let r = try easel(["render", scene, "-o", path] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return try bytes(path)
        }
        let dithered = try render(plain, "a.png"), flagOff = try render(plain, "b.png", ["--dither", "no"])
        XCTAssertNotEqual(dithered, flagOff, "dithering changes the PNG")
        XCTAssertEqual(flagOff, try render(off, "c.png"), "--dither no is dither=\"false\"")
        XCTAssertEqual(dithered, try render(off, "d.png", ["--dither", "yes"]), "--dither yes overrides the scene")
        for format in ["pdf", "svg"] {
            XCTAssertEqual(try render(plain, "e.\(format)"), try render(off, "f.\(format)"), "\(format) is not dithered")
        }
        let bad = try easel(["render", plain, "-o", dir.appendingPathComponent("g.png").path, "--dither", "maybe"])
        XCTAssertEqual(bad.status, 2)
    }
}
