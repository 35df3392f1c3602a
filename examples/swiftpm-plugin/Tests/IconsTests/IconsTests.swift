import Foundation
import Icons
import XCTest

/// The plugin's PNGs are in the bundle, at the pixel size of each scale.
final class IconsTests: XCTestCase {
    /// Width and height from a PNG's IHDR chunk.
    func pixelSize(_ url: URL) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        func be32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testBadgeAtEveryScale() throws {
        for (name, side) in [("badge", 64), ("badge@2x", 128), ("badge@3x", 192)] {
            let url = try XCTUnwrap(Icons.url(name), "\(name).png is in Bundle.module")
            let (w, h) = try pixelSize(url)
            XCTAssertEqual(w, side, name)
            XCTAssertEqual(h, side, name)
        }
    }

    /// The scene's `<variant name="dark">`, at every scale, with the dark
    /// palette value `face` (#1c1c1e) at the badge's centre.
    func testDarkVariant() throws {
        for (name, side) in [("badge~dark", 64), ("badge~dark@2x", 128), ("badge~dark@3x", 192)] {
            let url = try XCTUnwrap(Icons.url(name), "\(name).png is in Bundle.module")
            let (w, h) = try pixelSize(url)
            XCTAssertEqual(w, side, name)
            XCTAssertEqual(h, side, name)
        }
        let light = try Data(contentsOf: try XCTUnwrap(Icons.url("badge")))
        let dark = try Data(contentsOf: try XCTUnwrap(Icons.url("badge~dark")))
        XCTAssertNotEqual(light, dark)
    }

    /// `"formats": ["png", "webp"]`: each scale as a lossless WebP too
    /// (RIFF, WEBP, a VP8L bitstream whose header holds width − 1 and
    /// height − 1 in 14 bits each).
    func testWebPBesideEachPNG() throws {
        for (name, side) in [("badge", 64), ("badge@2x", 128), ("badge@3x", 192)] {
            let url = try XCTUnwrap(Icons.url(name, format: "webp"), "\(name).webp is in Bundle.module")
            let bytes = [UInt8](try Data(contentsOf: url))
            XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self) + String(decoding: bytes[8..<16], as: UTF8.self), "RIFFWEBPVP8L", name)
            let bits = bytes[21..<25].reversed().reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual(bits & 0x3FFF, side - 1, name)
            XCTAssertEqual((bits >> 14) & 0x3FFF, side - 1, name)
        }
    }

    func testGraphFromCSV() throws {
        let url = try XCTUnwrap(Icons.url("week@2x"))
        let (w, h) = try pixelSize(url)
        XCTAssertEqual(w, 400)
        XCTAssertEqual(h, 200)
    }

    /// Text in the target's own font, at every scale.
    func testLabelInTheTargetsFont() throws {
        for (name, width) in [("label", 120), ("label@2x", 240), ("label@3x", 360)] {
            let url = try XCTUnwrap(Icons.url(name), "\(name).png is in Bundle.module")
            XCTAssertEqual(try pixelSize(url).0, width, name)
        }
    }
}
