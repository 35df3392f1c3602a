import Easel
import EaselTestSupport
import Foundation
import XCTest

/// A compile decodes each PNG image once, however many renders, scales,
/// formats and frames paint it: counted through the compile's image store.
final class ImageDecodingTests: XCTestCase {
    /// A PNG whose header is sound but whose pixels are not is found by
    /// the compile (so `easel check` reports it), at its `<image>` element.
    func testABrokenImageFailsTheCompileAtItsElement() throws {
        let dir = ExternalTool.temporaryDirectory()
        var png = try [UInt8](Data(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/assets/tile.png")))
        png.removeLast(png.count / 2)
        try Data(png).write(to: dir.appendingPathComponent("cut.png"))
        let source = """
            <scene width="60" height="60">
              <rect width="60" height="60" fill="white"/>
              <image href="cut.png" width="40" height="40"/>
            </scene>
            """
        switch Easel.compile(source: source, file: "cut.scene.xml", baseDirectory: dir) {
        case .success: XCTFail("a truncated PNG compiled")
        case .failure(let error):
            let d = try XCTUnwrap(error.diagnostics.first)
            XCTAssertEqual(d.severity, .error)
            XCTAssertEqual(d.location?.line, 3)
            XCTAssertEqual(d.location?.column, 3)
            XCTAssertTrue(d.message.text.contains("cut.png"), d.message.text)
        }
    }

    func testA60FrameAnimationDecodesItsImageOnce() throws {
        let dir = ExternalTool.temporaryDirectory()
        try FileManager.default.copyItem(at: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/assets/tile.png"),
                                         to: dir.appendingPathComponent("tile.png"))
        let compiled = try compileScene("""
            <scene width="120" height="60">
              <defs>
                <animatedGradient id="sky" duration="2">
                  <linearGradient angle="0"><stop offset="0" color="#204"/><stop offset="1" color="#f80"/></linearGradient>
                  <linearGradient angle="90"><stop offset="0" color="#f80"/><stop offset="1" color="#204"/></linearGradient>
                </animatedGradient>
              </defs>
              <rect width="120" height="60" fill="url(#sky)"/>
              <image href="tile.png" x="10" y="10" width="40" height="40"/>
              <image href="tile.png" x="70" y="10" width="40" height="40" fit="cover"/>
            </scene>
            """, baseDirectory: dir)
        XCTAssertEqual(compiled.images.decodes, 1, "decoded by the compile")
        XCTAssertGreaterThanOrEqual(compiled.frameTimes(fps: 30).count, 60)
        _ = try compiled.renderAnimatedPNG(fps: 30)
        XCTAssertEqual(compiled.images.decodes, 1)
        _ = try compiled.render(format: .png, scale: 3)
        _ = try compiled.render(format: .pdf)
        _ = try compiled.render(format: .svg)
        XCTAssertEqual(compiled.images.decodes, 1)
        // and every render still shows it: the image's pixels at its centre
        // match a render that decoded it afresh
        let again = try compileScene("<scene width=\"120\" height=\"60\"><image href=\"tile.png\" x=\"10\" y=\"10\" width=\"40\" height=\"40\"/></scene>",
                                     baseDirectory: dir)
        let a = try compiled.renderImage(scale: 1), b = try again.renderImage(scale: 1)
        XCTAssertEqual(a.pixel(30, 30), b.pixel(30, 30))
        XCTAssertEqual(again.images.decodes, 1)
    }

    /// Images are known by their bytes: one file under two names is one
    /// decode, and two files are two, whatever they are called.
    func testImagesAreKnownByTheirBytesNotTheirNames() throws {
        let dir = ExternalTool.temporaryDirectory()
        let tile = ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/assets/tile.png")
        try FileManager.default.copyItem(at: tile, to: dir.appendingPathComponent("tile.png"))
        try FileManager.default.copyItem(at: tile, to: dir.appendingPathComponent("copy.png"))
        let red = try compileScene("<scene width=\"4\" height=\"4\"><rect fill=\"red\"/></scene>").render(format: .png)
        try Data(red).write(to: dir.appendingPathComponent("red.png"))
        let compiled = try compileScene("""
            <scene width="120" height="40">
              <image href="tile.png" width="40" height="40"/>
              <image href="./copy.png" x="40" width="40" height="40"/>
              <image href="red.png" x="80" width="40" height="40"/>
            </scene>
            """, baseDirectory: dir)
        XCTAssertEqual(compiled.images.decodes, 2)
        let image = try compiled.renderImage(scale: 1)
        XCTAssertEqual(image.pixel(20, 20), image.pixel(60, 20), "the same file under two names paints the same")
        XCTAssertEqual(image.pixel(100, 20).r, 255)
        XCTAssertEqual(image.pixel(100, 20).g, 0)
    }
}
