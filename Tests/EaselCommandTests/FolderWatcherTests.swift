import EaselCommandLine
import Foundation
import XCTest

/// `FolderWatcher` over a real folder: events name the files, and when the
/// kernel's queue overflows (`IN_Q_OVERFLOW`: more events than
/// /proc/sys/fs/inotify/max_queued_events before anyone reads them) the
/// watcher says events were lost, so its users look at everything again.
final class FolderWatcherTests: XCTestCase {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("easel-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testAChangedFileIsNamed() throws {
        let dir = try folder()
        let watcher = try XCTUnwrap(FolderWatcher(quiet: 0.05))
        XCTAssertTrue(watcher.watch([dir.path]))
        try Data("x".utf8).write(to: dir.appendingPathComponent("a.scene.xml"))
        let changes = try XCTUnwrap(watcher.waitForChanges())
        XCTAssertTrue(changes.paths.contains(dir.path + "/a.scene.xml"), "\(changes.paths)")
        XCTAssertFalse(changes.eventsLost)
    }

    func testAnOverflowedQueueIsReportedAsLostEvents() throws {
        let limit = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        let dir = try folder()
        let watcher = try XCTUnwrap(FolderWatcher(quiet: 0.05))
        XCTAssertTrue(watcher.watch([dir.path]))
        // Each new empty file queues two events (created, closed after writing).
        for i in 0..<(limit / 2 + 100) {
            let fd = open(dir.path + "/f\(i)", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            close(fd)
        }
        let changes = try XCTUnwrap(watcher.waitForChanges())
        XCTAssertTrue(changes.eventsLost, "\(changes.paths.count) paths, no overflow reported")
        XCTAssertFalse(changes.paths.contains(""), "the overflow event names no file")
    }
}
