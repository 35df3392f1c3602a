import EaselModel
import XCTest

/// `SourceFiles` keeps only the names used most recently; a diagnostic
/// made while its file was known keeps the name however many files a
/// process reads before it is printed (a build prints its scenes'
/// diagnostics after reading all of them).
final class SourceFilesTests: XCTestCase {
    func testADiagnosticKeepsItsFileNamePastTheTable() {
        let early = Diagnostic(.warning, .init(.unusedSetting, "early"), at: SourceLocation(file: "/scenes/early.scene.xml", line: 3, column: 5))
        for i in 0..<(SourceFiles.capacity * 2) { _ = SourceFiles.id(of: "/scenes/later-\(i).scene.xml") }
        XCTAssertLessThanOrEqual(SourceFiles.count, SourceFiles.capacity, "the table stays bounded")
        XCTAssertEqual(early.description, "/scenes/early.scene.xml:3:5: warning: early")
        XCTAssertEqual(early.file, "/scenes/early.scene.xml")
        // Moved to another place, it names that place's file.
        var moved = early
        moved.location = SourceLocation(file: "/scenes/moved.scene.xml", line: 1, column: 1)
        XCTAssertEqual(moved.file, "/scenes/moved.scene.xml")
    }
}
