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
        let paths = try XCTUnwrap(FolderWalk.relativePaths(under: root.path)).sorted()
        XCTAssertEqual(paths, ["a", "a/b", "a/b/card.scene.xml", "a/dangling", "loop", "top.scene.xml"])
        XCTAssertNil(FolderWalk.relativePaths(under: root.appendingPathComponent("missing").path))
    }
}
