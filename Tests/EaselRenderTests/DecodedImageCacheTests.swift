@testable import EaselRender
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// The process's decoded images (a persistent worker's requests, a
/// preview's re-renders): the same bytes decoded once, other bytes never
/// served in their place, the whole kept within its byte budget.
final class DecodedImageCacheTests: XCTestCase {
    /// A PNG of one colour, made by Pillow (not by Easel).
    func png(side: Int, red: Int) throws -> [UInt8] {
        let file = ExternalTool.temporaryDirectory(name).appendingPathComponent("image-\(side)-\(red).png")
        let script = "from PIL import Image; Image.new('RGBA', (\(side), \(side)), (\(red), 40, 80, 255)).save('\(file.path)')"
        XCTAssertEqual(try ExternalTool.run("python3", ["-c", script]).status, 0)
        return [UInt8](try Data(contentsOf: file))
    }

    func testTheSameBytesAreDecodedOnceAndTheCacheStaysWithinItsBudget() throws {
        var decodes = 0
        func image(_ bytes: [UInt8], _ space: SceneColorSpace = .srgb) -> DecodedImage? {
            DecodedImageCache.image(ImageSource(path: "", data: bytes, pixelWidth: 1, pixelHeight: 1), colorSpace: space) {
                decodes += 1
                return DecodedImage(png: bytes)
            }
        }
        let small = try png(side: 8, red: 200)
        let first = try XCTUnwrap(image(small))
        XCTAssertTrue(image(small) === first, "the same bytes: the image kept")
        XCTAssertEqual(decodes, 1)
        XCTAssertFalse(image(try png(side: 8, red: 201)) === first, "other bytes are decoded, never served the first's pixels")
        XCTAssertFalse(image(small, .displayP3) === first, "another colour space is another image")
        XCTAssertEqual(decodes, 3)

        // Five images of 16 MB of pixels each: past the 64 MB budget the
        // least recently used go, and the cache never holds more.
        let large = try (0..<5).map { try png(side: 2048, red: $0) }
        let kept = try large.map { try XCTUnwrap(image($0)) }
        XCTAssertLessThanOrEqual(DecodedImageCache.heldBytes, DecodedImageCache.capacity)
        XCTAssertTrue(image(large[4]) === kept[4], "the newest stays")
        XCTAssertFalse(image(large[0]) === kept[0], "the oldest was evicted and is decoded again")
        XCTAssertLessThanOrEqual(DecodedImageCache.heldBytes, DecodedImageCache.capacity)
    }
}
