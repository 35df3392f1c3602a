@testable import EaselParse
import XCTest

/// The byte-level reader for CSV without quotes (`GraphData.unquotedColumn`)
/// must give exactly what libcsv, the RFC 4180 reader, gives:
/// the same values, labels, and problems on the same rows.
final class CSVFastPathTests: XCTestCase {
    typealias Result = (values: [Double], labels: [String], problems: [GraphData.CSVProblem], missing: [String])

    func assertAgree(_ csv: String, column: String = "v", labels: String? = "name",
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let fast = GraphData.unquotedColumn(column, labels: labels, bytes: Array(csv.utf8)) else {
            return XCTFail("the fast path declined \(csv.debugDescription)", file: file, line: line)
        }
        let full = GraphData.column(column, labels: labels, csv: csv)
        XCTAssertEqual(fast.values, full.values, "values of \(csv.debugDescription)", file: file, line: line)
        XCTAssertEqual(fast.labels, full.labels, "labels of \(csv.debugDescription)", file: file, line: line)
        XCTAssertEqual(fast.missing, full.missing, "missing of \(csv.debugDescription)", file: file, line: line)
        XCTAssertEqual(fast.problems.map(\.message.text), full.problems.map(\.message.text),
                       "problems of \(csv.debugDescription)", file: file, line: line)
        XCTAssertEqual(fast.problems.map(\.row), full.problems.map(\.row), "problem rows of \(csv.debugDescription)", file: file, line: line)
    }

    func testHandPickedCases() {
        assertAgree("name,v\na,1\nb,2\n")
        assertAgree("name,v\r\na,1\r\nb,2")                  // CRLF, no final line end
        assertAgree("name , v \n a , 1.5e3 \n\n  \nb,-.5\n")  // spaces, blank lines
        assertAgree("name,v\na,1,extra\nb\nc,2\n")            // ragged rows
        assertAgree("name,v\na,x\nb,\nc, \nd,1 2\ne,1.5.5\n")  // not numbers
        assertAgree("v\n1\n\n2\n   \n3")                       // one column, blank lines
        assertAgree("name,v\n")                                 // header only
        assertAgree("\nname,v\na,1\n")                          // blank first line: no header
        assertAgree("", labels: nil)
        assertAgree("name,w\na,1\n")                            // missing column
        assertAgree("name,v\né,1\n\u{00A0}\n")                  // non-ASCII label, no-break-space line
        assertAgree("name,v\n" + (1...30).map { "r\($0),bad\n" }.joined())   // the 20-problem cap
    }

    func testDeclinesWhatNeedsTheFullParser() {
        XCTAssertNil(GraphData.unquotedColumn("v", labels: nil, bytes: Array("v\n\"1\"\n".utf8)))
        XCTAssertNil(GraphData.unquotedColumn("v", labels: nil, bytes: Array("v\r1\r".utf8)))
        XCTAssertNil(GraphData.unquotedColumn("v", labels: nil, bytes: [0xEF, 0xBB, 0xBF] + Array("v\n1\n".utf8)))
    }

    /// Random files from the pieces that matter: separators, spaces, line
    /// ends, blank and ragged rows, numbers and near-numbers.
    func testRandomFilesAgree() {
        var rng = SplitMix64(seed: 14)
        let cells = ["1", "-2.5", " 3 ", "4e2", ".5", "1.5.5", "x", "", " ", "\t7", "1e", "+8", "é", "0x10", "inf", "nan"]
        for _ in 0..<500 {
            let columns = Int(rng.next() % 3) + 1
            var header = ["v", "name", "other"].prefix(columns).shuffled(using: &rng)
            if rng.next() % 10 == 0 { header[0] = " " + header[0] }
            var text = header.joined(separator: ",")
            for _ in 0..<Int(rng.next() % 12) {
                text += rng.next() % 4 == 0 ? "\r\n" : "\n"
                switch rng.next() % 8 {
                case 0: text += ""                                     // blank
                case 1: text += "  "                                   // blank with spaces
                default:
                    let n = rng.next() % 6 == 0 ? Int(rng.next() % 4) + 1 : columns   // sometimes ragged
                    text += (0..<n).map { _ in cells[Int(rng.next() % UInt64(cells.count))] }.joined(separator: ",")
                }
            }
            if rng.next() % 2 == 0 { text += "\n" }
            assertAgree(text, labels: columns > 1 ? "name" : nil)
        }
    }
}

/// A small seeded generator, so a failure reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
