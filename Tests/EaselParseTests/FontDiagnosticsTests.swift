import Easel
import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// Fonts' errors, each located (docs/format.md, "Text and fonts" and "Errors").
final class FontDiagnosticsTests: XCTestCase {
    func testFontAttributesAndDeclarationsAreChecked() throws {
        let dir = ExternalTool.temporaryDirectory()
        try Data("not a font at all".utf8).write(to: dir.appendingPathComponent("notes.ttf"))
        try Data([0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 7, count: 60)).write(to: dir.appendingPathComponent("broken.ttf"))
        let source = MarkedSource("""
        <scene width="100" height="100" lang="1️⃣en_US!">
          <defs>
            <font src="2️⃣missing.ttf"/>
            <font src="3️⃣notes.ttf"/>
            <font src="4️⃣../outside.ttf"/>
            5️⃣<font/>
          </defs>
          <text font-stretch="6️⃣wide" font-variation="7️⃣wght" font-weight="8️⃣1001" font-family="9️⃣Inter,,Noto">a</text>
        </scene>
        """)
        let found = diagnostics(of: source.text, baseDirectory: dir)
        assertDiagnostic(found, at: "1️⃣", in: source, contains: "'lang' must be a BCP 47 language tag")
        assertDiagnostic(found, at: "2️⃣", in: source, contains: "cannot read 'missing.ttf': no such file")
        assertDiagnostic(found, at: "3️⃣", in: source, contains: "'notes.ttf' is not a font file")
        assertDiagnostic(found, at: "4️⃣", in: source, contains: "outside the scene's folder")
        assertDiagnostic(found, at: "5️⃣", in: source, contains: "<font> needs a 'src' attribute")
        assertDiagnostic(found, at: "6️⃣", in: source, contains: "'font-stretch' must be a percentage from 50% to 200%")
        assertDiagnostic(found, at: "7️⃣", in: source, contains: "'font-variation' must be a comma-separated list")
        assertDiagnostic(found, at: "8️⃣", in: source, contains: "'font-weight' must be a number from 1 to 1000")
        assertDiagnostic(found, at: "9️⃣", in: source, contains: "'font-family' must be a comma-separated list")

        // Bytes that look like a font but are not one: an error at its src,
        // found when the font set is made.
        let broken = MarkedSource("<scene width=\"100\" height=\"100\"><defs><font src=\"1️⃣broken.ttf\"/></defs><text>a</text></scene>")
        assertDiagnostic(diagnostics(of: broken.text, baseDirectory: dir), at: "1️⃣", in: broken,
                         contains: "cannot read a font from")
    }

    func testFontValuesAreRead() throws {
        let parsed = SceneParser.parse(source: """
        <scene width="100" height="100" lang="ja" system-fonts="false">
          <text font-family="'Noto Sans', Serif, &quot;emoji&quot;" font-weight="650" font-stretch="87.5%"
                font-variation="opsz 32, GRAD -50">a</text>
          <text lang="zh-Hant" font-stretch="condensed">b</text>
        </scene>
        """, baseDirectory: URL(fileURLWithPath: "/tmp"))
        let scene = try XCTUnwrap(parsed.scene, "\(parsed.diagnostics)")
        XCTAssertEqual(scene.lang, "ja")
        XCTAssertEqual(scene.systemFonts, false)
        guard case .text(let a) = scene.nodes[0].kind, case .text(let b) = scene.nodes[1].kind else { return XCTFail("texts") }
        // Quoted names are families; an unquoted generic keyword is the generic.
        XCTAssertEqual(a.font.families, [.named("Noto Sans"), .generic(.serif), .named("emoji")])
        XCTAssertEqual(a.font.weight, 650)
        XCTAssertEqual(a.font.stretch, 87.5)
        XCTAssertEqual(a.font.variations, [FontVariation(tag: "opsz", value: 32), FontVariation(tag: "GRAD", value: -50)])
        XCTAssertEqual(a.lang, "ja", "inherited from the scene")
        XCTAssertEqual(b.lang, "zh-Hant")
        XCTAssertEqual(b.font.stretch, 75)
    }
}
