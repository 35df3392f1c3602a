import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Fifty open pages while a scene is saved twenty times: every page gets
/// the last version, and the server's memory stays small.
final class PreviewLoadTests: XCTestCase {
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var versions: [Int]
        init(_ n: Int) { versions = Array(repeating: 0, count: n) }
        func record(_ client: Int, _ version: Int) { lock.withLock { versions[client] = max(versions[client], version) } }
        var all: [Int] { lock.withLock { versions } }
    }

    func testFiftyClientThreadsTwentyEdits() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("load.scene.xml")
        try PreviewServerTests.scene(fill: "#000000").write(to: sceneFile, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let idle = preview.residentKilobytes ?? 0
        let idleSockets = preview.openSockets
        let port = preview.port

        let clients = 50
        let seen = Seen(clients)
        let stop = NSLock()
        nonisolated(unsafe) var stopping = false
        let connected = DispatchGroup()
        let finished = DispatchGroup()
        for i in 0..<clients {
            connected.enter()
            finished.enter()
            Thread {
                defer { finished.leave() }
                guard let events = try? EventStreamClient(port: port) else { connected.leave(); return }
                connected.leave()
                while !stop.withLock({ stopping }) {
                    guard let event = try? events.next(timeout: 0.2) else { continue }
                    let state = PreviewServerTests.json(event)
                    if state["rendering"] as? Bool == false, let v = state["version"] as? Int { seen.record(i, v) }
                }
            }.start()
        }
        XCTAssertEqual(connected.wait(timeout: .now() + EventWait.timeout), .success)

        // Twenty saves back to back (however many renders they make, the
        // last must reach everyone).
        let colours = (1...20).map { String(format: "#%02x%02x%02x", $0 * 12, 255 - $0 * 12, 90) }
        for colour in colours {
            try PreviewServerTests.scene(fill: colour).write(to: sceneFile, atomically: true, encoding: .utf8)
        }
        // The server's final state: not rendering, the last colour served.
        var final: [String: Any] = [:]
        let deadline = Date(timeIntervalSinceNow: EventWait.timeout)
        while deadline.timeIntervalSinceNow > 0 {
            let s = try PreviewServerTests.state(port: preview.port)
            if s["rendering"] as? Bool == false,
               let shown = try? RasterImage(png: try HTTPTestClient.request(port: preview.port, "/scenes/0/image.png").body),
               shown.pixel(300, 150).distance(to: ExpectedColor(hex: colours.last!).pixel) < 0.01 {
                final = s
                break
            }
            usleep(50_000)
        }
        let lastVersion = try XCTUnwrap(final["version"] as? Int)
        let withClients = preview.residentKilobytes ?? 0
        // One connection each (sockets: a render opens and closes fonts and the scene meanwhile).
        XCTAssertGreaterThanOrEqual(preview.openSockets, idleSockets + clients)
        // Every page hears of the last version (waited for, not timed).
        let heard = Date(timeIntervalSinceNow: EventWait.timeout)
        while seen.all.contains(where: { $0 < lastVersion }), heard.timeIntervalSinceNow > 0 { usleep(50_000) }
        let versions = seen.all
        stop.withLock { stopping = true }
        XCTAssertEqual(finished.wait(timeout: .now() + EventWait.timeout), .success)
        XCTAssertEqual(versions.filter { $0 == lastVersion }.count, clients, "versions seen: \(versions), last \(lastVersion)")
        let picture = try RasterImage(png: try HTTPTestClient.request(port: preview.port, "/scenes/0/image.png").body)
        assertPixel(picture, 300, 150, ExpectedColor(hex: colours.last!), tolerance: 0.01)

        // Pages that went away cost nothing once the server has written to
        // them twice (TCP takes the first write after the page closed; the
        // reset it provokes fails the second): two saves here, keep-alives
        // every 5 s otherwise.
        // Each save is waited for until its render is done (and so broadcast),
        // so that the two make two writes rather than merge into one render.
        var version = lastVersion
        for grey in ["#808080", "#909090"] {
            try PreviewServerTests.scene(fill: grey).write(to: sceneFile, atomically: true, encoding: .utf8)
            let rendered = Date(timeIntervalSinceNow: EventWait.timeout)
            while rendered.timeIntervalSinceNow > 0 {
                let s = try PreviewServerTests.state(port: preview.port)
                if s["rendering"] as? Bool == false, let v = s["version"] as? Int, v > version { version = v; break }
                usleep(20_000)
            }
        }
        XCTAssertGreaterThanOrEqual(version, lastVersion + 2, "each save rendered on its own")
        let closing = Date(timeIntervalSinceNow: EventWait.timeout)
        // (Two sockets of slack: the test's own last requests may still be closing.)
        while preview.openSockets > idleSockets + 2, closing.timeIntervalSinceNow > 0 { usleep(50_000) }
        XCTAssertLessThanOrEqual(preview.openSockets, idleSockets + 2, "the \(clients) closed pages' connections are closed")

        print("preview load: \(clients) clients, \(colours.count) saves → \(lastVersion) renders; "
              + "server RSS \(idle / 1024) MB idle, \(withClients / 1024) MB with the clients")
    }
}
