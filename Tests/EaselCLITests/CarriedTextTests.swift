import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Contract 1.3: text may not hold a character an output format cannot
/// carry (a C0 control other than tab and line feed, U+FFFE, U+FFFF),
/// from any source; the error points at the source. Before 1.3 each case
/// here exited 0 and wrote an SVG that xmllint and librsvg refuse.
final class CarriedTextTests: XCTestCase {
    var dir: URL!

    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url.path
    }
    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    func easel(_ args: [String]) throws -> ToolResult { try ExternalTool.run(ExternalTool.easelExecutable, args) }

    static let titled = """
    <scene width="120" height="40" background="white">
      <defs><param name="title" type="string" default="Title"/><font src="Inter.ttf"/></defs>
      <text x="4" y="4" width="112" font-size="12" font-family="Inter">{title}</text>
    </scene>
    """

    func titledScene() throws -> String {
        try FileManager.default.copyItem(at: TestFonts.inter, to: dir.appendingPathComponent("Inter.ttf"))
        return try write("card.scene.xml", Self.titled)
    }

    /// No output is written in any format, and the error names the character.
    func assertRefused(_ r: ToolResult, _ expected: [String], status: Int32 = 1, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.stderr, file: file, line: line)
        for e in expected { XCTAssertTrue(r.stderr.contains(e), "'\(e)' not in:\n\(r.stderr)", file: file, line: line) }
        XCTAssertTrue(r.stderr.contains("E0206"), r.stderr, file: file, line: line)
        for ext in ["png", "pdf", "svg"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.\(ext)").path), "out.\(ext) written",
                           file: file, line: line)
        }
    }

    func testASetValueWithAControlCharacterIsRefused() throws {
        let scene = try titledScene()
        // (An argument cannot hold U+0000: a string table can, below.)
        for (value, named) in [("a\u{07}b", "U+0007 (a control character)"), ("a\u{FFFF}", "U+FFFF (a noncharacter)"),
                               ("a\rb", "U+000D (a carriage return)")] {
            for ext in ["png", "pdf", "svg"] {
                let r = try easel(["render", scene, "-o", dir.appendingPathComponent("out.\(ext)").path, "--set", "title=\(value)"])
                assertRefused(r, ["--set title holds \(named)"], status: 2)
            }
        }
        // Tabs and line feeds are text.
        let fine = try easel(["render", scene, "-o", dir.appendingPathComponent("fine.svg").path, "--set", "title=a\tb\nc"])
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertEqual(try ExternalTool.run("xmllint", ["--noout", dir.appendingPathComponent("fine.svg").path]).status, 0)
    }

    func testAParameterFileValueIsRefused() throws {
        let scene = try titledScene()
        let params = try write("params.json", #"{"title": "a\u0007b"}"#)
        let r = try easel(["render", scene, "-o", dir.appendingPathComponent("out.svg").path, "--set-file", params])
        assertRefused(r, ["params.json': the value of 'title' holds U+0007"], status: 2)
    }

    /// `"t" = "a\U0007b";` in a `.strings` table: located at its key's line.
    func testAStringTableValueIsRefusedAtItsLine() throws {
        let scene = try titledScene()
        let table = try write("de.lproj/Localizable.strings", "/* a comment */\n\"other\" = \"fine\";\n\"title\" = \"a\\U0007b\";\n")
        let r = try easel(["render", scene, "-o", dir.appendingPathComponent("out.svg").path, "--strings", table, "--locale", "de"])
        assertRefused(r, ["Localizable.strings:3:1: error: the 'de' string 'title' holds U+0007"])
        let json = try write("strings.json", #"{"de": {"title": "x\u0000y"}}"#)
        let j = try easel(["render", scene, "-o", dir.appendingPathComponent("out.svg").path, "--strings", json, "--locale", "de"])
        assertRefused(j, ["strings.json:1:20: error: this string holds U+0000 (a null character)"])
    }

    /// A CSV cell: at its line and column. A CRLF line end is no character.
    func testACSVCellIsRefusedAtItsPlace() throws {
        _ = try write("data.csv", Array("v,label\r\n1,one\r\n2,t\u{07}wo\r\n".utf8))
        let scene = try write("graph.scene.xml", """
        <scene width="100" height="60"><lineGraph width="100" height="60" src="data.csv" column="v" label-column="label" padding="4"/></scene>
        """)
        let r = try easel(["render", scene, "-o", dir.appendingPathComponent("out.svg").path])
        assertRefused(r, ["data.csv:3:4: error: this cell holds U+0007"])
        _ = try write("data.csv", Array("v,label\r\n1,one\r\n2,two\r\n".utf8))
        XCTAssertEqual(try easel(["render", scene, "-o", dir.appendingPathComponent("crlf.svg").path]).status, 0, "CRLF line ends are fine")
    }

    /// `&#13;` is well-formed XML, but no output carries a carriage return as written.
    func testASceneCharacterReferenceIsRefused() throws {
        let scene = try write("cr.scene.xml", """
        <scene width="100" height="40">
          <text x="4" y="4" font-size="12" id="a&#13;b">x&#13;y</text>
        </scene>
        """)
        let r = try easel(["check", scene])
        assertRefused(r, ["cr.scene.xml:2:40: error: the value of 'id' holds U+000D (a carriage return)", "the text of <text> holds U+000D"])
    }

    /// `easel layout` of a node whose frame overflows: a located error, not `{}`.
    func testLayoutOfAnInfiniteFrameIsALocatedError() throws {
        let scene = try write("far.scene.xml", """
        <scene width="100" height="100">
          <view x="1e308" width="10" height="10">
            <view x="1e308" width="10" height="10"/>
          </view>
        </scene>
        """)
        let r = try easel(["layout", scene])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("far.scene.xml:3:5: error: the frame of this <view> is not a finite number"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[E0207]"), r.stderr)
        XCTAssertEqual(r.stdout, "", "no JSON at all")
    }
}
