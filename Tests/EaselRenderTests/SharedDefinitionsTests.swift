import Easel
import EaselModel
import EaselRender
import EaselTestSupport
import Foundation
import XCTest

/// A definition many nodes use is one entry of the render tree, and each
/// backend makes it once: SVG writes one definition, the raster backend
/// paints a pattern tile once per device scale, PDF records it once. The
/// outputs still show every use: rsvg-convert's picture of the SVG and
/// Poppler's of the PDF against Easel's PNG.
final class SharedDefinitionsTests: XCTestCase {
    /// `count` equal 16×16 views in rows of 40, 20 points apart, with `attributes`.
    static func squares(_ count: Int, _ attributes: String, defs: String) -> String {
        var views = ""
        for i in 0..<count {
            views += #"<view x="\#((i % 40) * 20)" y="\#((i / 40) * 20)" width="16" height="16" \#(attributes)/>"#
        }
        return #"<scene width="800" height="\#(((count + 39) / 40) * 20)" background="white"><defs>\#(defs)</defs>\#(views)</scene>"#
    }

    static let gradient = ##"<linearGradient id="g" angle="30"><stop color="#e63946"/><stop color="#1d3557"/></linearGradient>"##
    static let pattern = ##"<pattern id="p" width="8" height="8"><circle cx="4" cy="4" r="3" fill="#2a9d8f"/></pattern>"##
    static let clip = #"<clipPath id="c"><circle cx="8" cy="8" r="7"/></clipPath>"#

    func testEqualNodesShareOneSVGDefinition() throws {
        let cases: [(String, String, String)] = [
            (#"fill="url(#g)""#, Self.gradient, "<linearGradient"),
            (#"fill="url(#p)""#, Self.pattern, "<pattern"),
            (##"fill="#c33" clip-path="url(#c)""##, Self.clip, "<clipPath"),
        ]
        for (attributes, defs, element) in cases {
            let s = try compileScene(Self.squares(1000, attributes, defs: defs))
            let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
            XCTAssertEqual(svg.components(separatedBy: element).count - 1, 1, "\(element) written once for 1,000 uses")
            // Every use still shows it: the last square as well as the first.
            let small = try compileScene(Self.squares(80, attributes, defs: defs))
            assertSimilar(try small.renderImage(), try ReferenceRenderers.rsvg(String(decoding: try small.render(format: .svg), as: UTF8.self)),
                          tolerance: 24, maxFraction: 0.02, name: "shared-\(element.dropFirst())")
        }
    }

    /// Sharing is per box: a gradient placed on two sizes of box is two
    /// definitions, each stretched to its own box (the contract's angle
    /// geometry depends on the box).
    func testDifferentBoxesKeepTheirOwnGeometry() throws {
        let s = try compileScene("""
            <scene width="200" height="100" background="white"><defs>\(Self.gradient)</defs>
              <view width="100" height="100" fill="url(#g)"/><view x="100" width="100" height="50" fill="url(#g)"/>
              <view x="100" y="50" width="100" height="50" fill="url(#g)"/>
            </scene>
            """)
        let svg = String(decoding: try s.render(format: .svg), as: UTF8.self)
        XCTAssertEqual(svg.components(separatedBy: "<linearGradient").count - 1, 2, svg)
        assertSimilar(try s.renderImage(), try ReferenceRenderers.rsvg(svg), tolerance: 24, maxFraction: 0.02, name: "shared-boxes")
    }

    /// 1,000 squares filled with one pattern paint its tile once per render
    /// (and per device scale), in PNG and in PDF.
    func testAPatternTileIsPaintedOncePerRender() throws {
        let s = try compileScene(Self.squares(1000, #"fill="url(#p)""#, defs: Self.pattern), options: Easel.Options(scales: [1, 2]))
        let painted = Locked(0)
        PaintingProbe.onTilePainted { painted.withLock { $0 += 1 } }
        defer { PaintingProbe.onTilePainted(nil) }
        let png = try s.renderImage(scale: 1)
        XCTAssertEqual(painted.withLock { $0 }, 1, "PNG @1x")
        _ = try s.renderImage(scale: 2)
        XCTAssertEqual(painted.withLock { $0 }, 2, "PNG @2x: one more, at its own resolution")
        let pdf = try s.render(format: .pdf)
        XCTAssertEqual(painted.withLock { $0 }, 3, "PDF: one recording")
        // The last row's squares are patterned like the first.
        for (x, y) in [(4, 4), (784, 484)] {
            assertPixel(png, x, y, ExpectedColor(0x2a / 255.0, 0x9d / 255.0, 0x8f / 255.0), tolerance: 2, "a circle's centre at \(x),\(y)")
        }
        assertSimilar(png, try ReferenceRenderers.poppler(pdf), tolerance: 24, maxFraction: 0.03, name: "shared-pattern-pdf")
    }
}

/// A compiled scene owns what its tree draws from: with the declared font
/// file gone from disk and more other font sets made since than the
/// process keeps (so the process's table has let this compile's set go),
/// its PDF still sets the text in that font — from the set the compile
/// holds, whose anonymous font files its glyph runs name — and its PNG is
/// unchanged.
final class CompiledSceneOwnershipTests: XCTestCase {
    func testATreeRendersAfterItsFontFileIsGone() throws {
        let dir = ExternalTool.temporaryDirectory("owned-fonts")
        let font = dir.appendingPathComponent("Owned.ttf")
        try FileManager.default.copyItem(at: TestFonts.inter, to: font)
        let source = """
            <scene width="200" height="40" background="white" system-fonts="false">
              <defs><font src="Owned.ttf"/></defs>
              <text x="4" y="4" font-family="Inter" font-size="20">Owned glyphs</text>
            </scene>
            """
        let compiled = try compileScene(source, baseDirectory: dir)
        let png = try compiled.render(format: .png)
        try FileManager.default.removeItem(at: font)
        // Nine other sets, each its own font bytes (Inter with trailing
        // bytes FreeType ignores): one more than FontSets keeps.
        let inter = try Data(contentsOf: TestFonts.inter)
        for i in 0..<9 {
            let other = ExternalTool.temporaryDirectory("owned-fonts-\(i)")
            try (inter + Data(repeating: UInt8(i), count: i + 1)).write(to: other.appendingPathComponent("Other.ttf"))
            let churn = try compileScene("""
                <scene width="40" height="20" system-fonts="false"><defs><font src="Other.ttf"/></defs>
                <text font-family="Inter" font-size="10">other \(i)</text></scene>
                """, baseDirectory: other)
            _ = try churn.render(format: .pdf)
        }
        XCTAssertEqual(try compiled.render(format: .png), png)
        let pdf = dir.appendingPathComponent("owned.pdf")
        try Data(try compiled.render(format: .pdf)).write(to: pdf)
        XCTAssertEqual(try ExternalTool.run("qpdf", ["--check", pdf.path]).status, 0)
        let fonts = try ExternalTool.run("pdffonts", [pdf.path])
        XCTAssertTrue(fonts.stdout.contains("Inter"), fonts.stdout)
        let text = try ExternalTool.run("pdftotext", [pdf.path, "-"])
        XCTAssertTrue(text.stdout.contains("Owned glyphs"), text.stdout)
    }
}
