@testable import EaselParse
import Foundation
import XCTest

/// libcsv as `CSVRecords` drives it: rows keep their numbers across blank
/// lines and every line ending, and spaces are field text, not separators.
final class CSVRecordsTests: XCTestCase {
    func testRowNumbersSurviveBlankLinesAndEveryLineEnding() {
        // Rows: header 1, "1" 2, a blank line of spaces 3, "2" 4, "x" 5 — with LF, CR LF and lone CR ends.
        for text in ["v\n1\n  \n2\nx\n", "v\r\n1\r\n  \r\n2\r\nx\r\n", "v\r1\r  \n2\rx\r", "v\r1\r\n\n2\nx"] {
            let read = GraphData.column("v", labels: nil, csv: text)
            XCTAssertEqual(read.values, [1, 2], text.debugDescription)
            XCTAssertEqual(read.problems.map(\.row), [5], text.debugDescription)
        }
    }

    func testQuotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        var records = try XCTUnwrap(CSVRecords("name,v\n\"a, \"\"b\"\"\nc\",1\n"))
        XCTAssertEqual(records.header, ["name", "v"])
        XCTAssertEqual(records.nextRow(), ["a, \"b\"\nc", "1"])
        XCTAssertNil(records.nextRow())
    }

    func testSpacesAreFieldText() throws {
        // A space before a quote: the quote is text, so the comma inside splits (as CSV.swift read it).
        var records = try XCTUnwrap(CSVRecords("a,b\nx, \"a,b\"\n"))
        XCTAssertEqual(records.nextRow(), ["x", " \"a", "b\""])
    }

    func testAByteOrderMarkIsNotPartOfTheFirstName() throws {
        XCTAssertEqual(try XCTUnwrap(CSVRecords("\u{FEFF}v,w\n1,2\n")).header, ["v", "w"])
    }

    /// libcsv stopping short (its allocator failing, as under memory
    /// pressure) is the file's error, not a table cut where it stopped —
    /// its return values used to be ignored.
    func testALibcsvFailureIsAnErrorNotAShorterTable() throws {
        CSVRecords.reallocateForTests = { pointer, size in size > 64 ? nil : realloc(pointer, size) }
        defer { CSVRecords.reallocateForTests = nil }
        let text = "v\n1\n2\n" + String(repeating: "3", count: 200) + "\n4\n"
        XCTAssertNotNil(try XCTUnwrap(CSVRecords(text)).failure)
        let read = GraphData.column("v", labels: nil, csv: text)
        XCTAssertEqual(read.values, [])
        XCTAssertEqual(read.problems.map(\.message.text), ["libcsv could not read the CSV file: memory exhausted while increasing buffer size"])
        CSVRecords.reallocateForTests = nil
        XCTAssertNil(try XCTUnwrap(CSVRecords(text)).failure)
        XCTAssertEqual(GraphData.column("v", labels: nil, csv: text).values.count, 4)
    }
}
