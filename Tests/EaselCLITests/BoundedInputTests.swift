import Easel
@testable import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// Input that once cost memory or time out of proportion to what Easel
/// keeps of it. Memory is bounded by running the CLI under an address-space
/// limit (`ulimit -v`): within it the run must end with its located error
/// (the old reader needed 1.5 GB for the CSV below and crashed under it).
final class BoundedInputTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    /// `easel check` on the scene under `kilobytes` of address space: the
    /// release build (EASEL_RELEASE_BINARY) where the tests run under a
    /// sanitizer, whose own binary reserves terabytes of shadow memory.
    func checkUnderMemoryLimit(_ scene: URL, kilobytes: Int) throws -> ToolResult {
        let easel = ProcessInfo.processInfo.environment["EASEL_RELEASE_BINARY"] ?? ExternalTool.easelExecutable
        return try ExternalTool.run("bash", ["-c", "ulimit -v \(kilobytes); exec \"$0\" check \"$1\"", easel, scene.path])
    }

    func testAOneLineCSVIsRefusedBeforeItsFieldsAreBuffered() throws {
        // 60 MB: one row of 30 million empty fields.
        let csv = dir.appendingPathComponent("one.csv")
        try Data(String(repeating: "v,", count: 30_000_000).utf8).write(to: csv)
        let scene = dir.appendingPathComponent("one.scene.xml")
        try Data("<scene width=\"100\" height=\"50\"><lineGraph width=\"100\" height=\"50\" src=\"one.csv\" column=\"v\"/></scene>".utf8)
            .write(to: scene)
        // 300 MB: the file itself (60 MB), the runtime and the libraries.
        let r = try checkUnderMemoryLimit(scene, kilobytes: 300_000)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").map(String.init),
                       [dir.path + "/one.csv:1:1: error: this row of the CSV file is more than 1048576 bytes long, the most a row may hold (a table's rows are far shorter: is this the right file?) [E0701]"])
    }

    func testOversizedRowsAndFieldsAreFoundWhereTheyStart() {
        func find(_ s: String, row: Int = 16, field: Int = 8) -> (String, Int?)? {
            GraphData.oversizedRow(Array(s.utf8), maxRow: row, maxField: field).map { ($0.message.text, $0.row) }
        }
        XCTAssertNil(find("v,w\n1,2\r\n3,4\n"))
        XCTAssertNil(find("v\n12345678\n"), "a row of exactly the field limit")
        XCTAssertEqual(find("v\n123456789\n")?.1, 2)
        XCTAssertEqual(find("a,b,c,d\n1,2,3,4,5,6,7,8,9\n")?.1, 2)
        XCTAssert(find("a,b,c,d\n1,2,3,4,5,6,7,8,9\n")?.0.contains("row") == true)
        // A quoted field's line breaks belong to its row, which starts on line 2.
        XCTAssertEqual(find("v\n\"a\n\nb\nc\nd\ne\nf\ng\"\n", row: 1000, field: 12)?.1, 2)
        XCTAssertNil(find("v\n\"a,b\",c\n", row: 1000, field: 5))
        XCTAssertEqual(find("h\n1\n2\n\"1234,5678,\"\n", row: 1000, field: 10)?.1, 4)
    }

    /// Limits have ceilings: `--max-depth` no deeper than the XML reader
    /// nests (its own error named plainly), `--max-file-size` no larger
    /// than the XML reader can address (a larger file trapped converting
    /// its size to 32 bits).
    func testLimitsHaveCeilings() throws {
        let scene = dir.appendingPathComponent("deep.scene.xml")
        let depth = 300
        try Data(("<scene width=\"10\" height=\"10\">" + String(repeating: "<group>", count: depth) + "<rect width=\"5\" height=\"5\"/>"
                  + String(repeating: "</group>", count: depth) + "</scene>").utf8).write(to: scene)
        let out = dir.appendingPathComponent("deep.png").path
        let r = try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("error: malformed XML: elements nested more than 256 deep (the most the XML reader takes)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("XML_PARSE_HUGE"))
        for (option, value, message) in [("--max-depth", "257", "--max-depth can be at most 256"),
                                         ("--max-file-size", "2147483648", "--max-file-size can be at most 2147483647")] {
            let refused = try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", out, option, value])
            XCTAssertEqual(refused.status, 2, option)
            XCTAssertTrue(refused.stderr.contains(message), refused.stderr)
        }
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["check", scene.path, "--max-depth", "256", "--max-file-size", "2147483647"]).status, 1,
                       "the ceilings themselves are accepted")
    }
}
