import Easel
import Foundation
import XCTest

/// The walk `easel build` finds scenes with, `--font-dir` fonts and
/// `--watch` folders: every path under the folder, links listed but not
/// followed (a link to a folder, or a loop, adds nothing below it).
final class FolderWalkTests: XCTestCase {
    func testNestedPathsAndLinksNotFollowed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("a/b/card.scene.xml"))
        try Data("x".utf8).write(to: root.appendingPathComponent("top.scene.xml"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("loop").path, withDestinationPath: root.path)
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("a/dangling").path, withDestinationPath: "/no/such/place")
        let listing = FolderWalk.walk(root.path)
        XCTAssertEqual(listing.paths.sorted(), ["a", "a/b", "a/b/card.scene.xml", "a/dangling", "loop", "top.scene.xml"])
        XCTAssertEqual(listing.unreadable, [])
        // A folder that cannot be listed is reported, never taken for an empty one.
        let missing = FolderWalk.walk(root.appendingPathComponent("missing").path)
        XCTAssertEqual(missing.paths, [])
        XCTAssertEqual(missing.unreadable.map(\.folder), [""])
        XCTAssertTrue(missing.isUnknown("anything/below.scene.xml"))
    }
}
