import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `easel preview` over HTTP: the page, the event stream, the picture, the
/// refusals. Each test starts the real program on a free port.
final class PreviewServerTests: XCTestCase {
    /// A scene filled with one colour (given as hex text, so the expected
    /// pixel comes from the text, not from Easel).
    static func scene(fill: String, width: Int = 200, height: Int = 100) -> String {
        """
        <scene width="\(width)" height="\(height)">
          <rect id="paper" x="0" y="0" width="\(width)" height="\(height)" fill="\(fill)"/>
          <rect id="chip" x="20" y="20" width="40" height="30" fill="#ffffff"/>
        </scene>
        """
    }

    var folder: URL!
    var sceneFile: URL!
    var preview: PreviewProcess!

    override func setUpWithError() throws {
        folder = ExternalTool.temporaryDirectory()
        sceneFile = folder.appendingPathComponent("card.scene.xml")
        try Self.scene(fill: "#d0302a").write(to: sceneFile, atomically: true, encoding: .utf8)
        preview = try PreviewProcess([sceneFile.path])
    }

    override func tearDownWithError() throws {
        guard let preview else { return }
        let (status, stderr) = preview.interrupt()
        XCTAssertEqual(status, 130, "Ctrl-C stops the server cleanly, with 130 as every command; stderr: \(stderr)")
    }

    /// A state after a render finished (the first events may be the states
    /// from before any render).
    static func rendered(_ event: EventStreamClient.Event) -> Bool {
        let state = json(event)
        return state["rendering"] as? Bool == false && (state["version"] as? Int ?? 0) >= 1
    }

    /// A scene's state as the server serves it (`/scenes/N/state.json`).
    static func state(port: Int, scene: Int = 0) throws -> [String: Any] {
        try JSONSerialization.jsonObject(
            with: Data(try HTTPTestClient.request(port: port, "/scenes/\(scene)/state.json").body)) as? [String: Any] ?? [:]
    }

    static func json(_ event: EventStreamClient.Event) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
    }

    func image() throws -> RasterImage {
        let response = try HTTPTestClient.request(port: preview.port, "/scenes/0/image.png")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "image/png")
        return try RasterImage(png: response.body)
    }

    func testPageEventsUpdatesAndErrorsFromTheWatcherThread() throws {
        let page = try HTTPTestClient.request(port: preview.port, "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains("<script src=\"/preview.js\""))
        XCTAssertEqual(try HTTPTestClient.request(port: preview.port, "/preview.js").status, 200)

        let events = try EventStreamClient(port: preview.port)
        XCTAssertEqual(events.status, 200)
        XCTAssertEqual(events.headers["content-type"], "text/event-stream")
        // The first render: ok, 2× by default.
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        XCTAssertEqual(first["ok"] as? Bool, true)
        let picture = try XCTUnwrap(first["picture"] as? [String: Any])
        XCTAssertEqual(picture["pixelWidth"] as? Int, 400)
        assertPixel(try image(), 300, 150, ExpectedColor(hex: "#d0302a"), tolerance: 0.01)

        // An edit in place (as editors that write the file itself do).
        let saved = Date()
        try Self.scene(fill: "#1f6feb").write(to: sceneFile, atomically: false, encoding: .utf8)
        let updated = Self.json(try events.next(timeout: EventWait.timeout) {
            let s = Self.json($0)
            return s["ok"] as? Bool == true && (s["version"] as? Int ?? 0) > (first["version"] as? Int ?? 0)
        })
        let latency = Date().timeIntervalSince(saved)
        print("preview: event \(Int(latency * 1000)) ms after the save")
        XCTAssertEqual((updated["picture"] as? [String: Any])?["version"] as? Int, updated["version"] as? Int)
        assertPixel(try image(), 300, 150, ExpectedColor(hex: "#1f6feb"), tolerance: 0.01)

        // A broken edit, written by rename (as most editors save): the
        // located error arrives and the last good picture is still served.
        try Self.scene(fill: "#1f6fe").write(to: sceneFile, atomically: true, encoding: .utf8)
        let broken = Self.json(try events.next(timeout: EventWait.timeout) { Self.json($0)["ok"] as? Bool == false })
        let message = try XCTUnwrap((broken["diagnostics"] as? [[String: Any]])?.first)
        XCTAssertEqual(message["line"] as? Int, 2)
        XCTAssertEqual(message["severity"] as? String, "error")
        let text = try XCTUnwrap(message["text"] as? String)
        XCTAssertTrue(text.hasPrefix("\(sceneFile.path):2:"), text)
        XCTAssertTrue(text.contains("error: '#1f6fe' is not a colour"), text)
        XCTAssertEqual((broken["picture"] as? [String: Any])?["version"] as? Int, updated["version"] as? Int)
        assertPixel(try image(), 300, 150, ExpectedColor(hex: "#1f6feb"), tolerance: 0.01)
        let state = try HTTPTestClient.request(port: preview.port, "/scenes/0/state.json")
        XCTAssertTrue(state.text.contains("is not a colour"))

        // The layout pass's nodes, with frames in scene points.
        let layout = try HTTPTestClient.request(port: preview.port, "/scenes/0/layout.json")
        XCTAssertTrue(layout.text.contains("\"id\" : \"chip\""), layout.text)
    }

    /// A file the scene reads, in a folder of its own, is watched too.
    func testEditingAnImageTheSceneReadsRerenders() throws {
        let assets = folder.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        func writeTile(_ hex: String) throws {
            let tileScene = folder.appendingPathComponent("tile-\(hex.dropFirst()).scene.xml")
            try Self.scene(fill: hex, width: 10, height: 10).write(to: tileScene, atomically: true, encoding: .utf8)
            let made = try ExternalTool.run(ExternalTool.easelExecutable,
                                            ["render", tileScene.path, "-o", assets.appendingPathComponent("tile.png").path])
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        try writeTile("#2a9d4b")
        let framed = folder.appendingPathComponent("framed.scene.xml")
        try """
            <scene width="100" height="100">
              <image href="assets/tile.png" x="0" y="0" width="100" height="100" fit="fill"/>
            </scene>
            """.write(to: framed, atomically: true, encoding: .utf8)
        let second = try PreviewProcess([framed.path])
        defer { XCTAssertEqual(second.interrupt().status, 130) }
        let events = try EventStreamClient(port: second.port)
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        XCTAssertEqual(first["ok"] as? Bool, true, "\(first)")
        try writeTile("#7b2cbf")
        _ = try events.next(timeout: EventWait.timeout) { Self.rendered($0) && (Self.json($0)["version"] as? Int ?? 0) > 1 }
        let image = try RasterImage(png: try HTTPTestClient.request(port: second.port, "/scenes/0/image.png").body)
        assertPixel(image, 180, 180, ExpectedColor(hex: "#7b2cbf"), tolerance: 0.01)
    }

    /// An SVG image is a file the scene reads: saving it re-renders.
    func testEditingAnSVGImageTheSceneReadsRerenders() throws {
        let logo = folder.appendingPathComponent("logo.svg")
        func writeLogo(_ hex: String) throws {
            try ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="HEX"/></svg>"##
                .replacingOccurrences(of: "HEX", with: hex).write(to: logo, atomically: true, encoding: .utf8)
        }
        try writeLogo("#2a9d4b")
        let framed = folder.appendingPathComponent("logo.scene.xml")
        try #"<scene width="100" height="100"><image href="logo.svg" width="100" height="100"/></scene>"#
            .write(to: framed, atomically: true, encoding: .utf8)
        let second = try PreviewProcess([framed.path])
        defer { XCTAssertEqual(second.interrupt().status, 130) }
        let events = try EventStreamClient(port: second.port)
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        XCTAssertEqual(first["ok"] as? Bool, true, "\(first)")
        try writeLogo("#7b2cbf")
        _ = try events.next(timeout: EventWait.timeout) { Self.rendered($0) && (Self.json($0)["version"] as? Int ?? 0) > 1 }
        let image = try RasterImage(png: try HTTPTestClient.request(port: second.port, "/scenes/0/image.png").body)
        assertPixel(image, 100, 100, ExpectedColor(hex: "#7b2cbf"), tolerance: 0.01)
    }

    func testOnlyTheServedSetIsReachable() throws {
        let secret = folder.appendingPathComponent("secret.txt")
        try "not for the web".write(to: secret, atomically: true, encoding: .utf8)
        for path in ["/card.scene.xml", "/secret.txt", "/../secret.txt", "/scenes/0/../../secret.txt",
                     "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd", "/scenes/1/image.png", "/scenes/-1/image.png",
                     "/scenes/00/image.png", "/scenes/0/card.scene.xml", "/scenes/0", "/index.html", "/events/x"] {
            let r = try HTTPTestClient.request(port: preview.port, path)
            XCTAssertEqual(r.status, 404, path)
            XCTAssertFalse(r.text.contains("not for the web") || r.text.contains("root:"), path)
        }
        // Another name for 127.0.0.1 (DNS rebinding) is refused.
        XCTAssertEqual(try HTTPTestClient.request(port: preview.port, "/", host: "attacker.example:\(preview.port)").status, 403)
        XCTAssertEqual(try HTTPTestClient.request(port: preview.port, "/", host: "localhost:\(preview.port)").status, 200)
        // Settings come as JSON only (a cross-site form cannot send JSON
        // without a preflight), and in range.
        let form = try HTTPTestClient.request(port: preview.port, "/scenes/0/settings", method: "POST",
                                              headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                              body: Array("scale=2".utf8))
        XCTAssertEqual(form.status, 415)
        let huge = try HTTPTestClient.request(port: preview.port, "/scenes/0/settings", method: "POST",
                                              headers: ["Content-Type": "application/json"],
                                              body: Array(#"{"scale": 1000, "appearance": "light"}"#.utf8))
        XCTAssertEqual(huge.status, 400)
    }

    /// The format switch: the picture as WebP (lossless: the PNG's pixels,
    /// decoded by Pillow) or lossy AVIF, served under its own name and
    /// type, its size in the state; a format or quality out of range is refused.
    func testTheFormatSwitchServesWebPAndAVIF() throws {
        let events = try EventStreamClient(port: preview.port)
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        let scale = (first["settings"] as? [String: Any])?["scale"] as? Double ?? 0
        let png = try HTTPTestClient.request(port: preview.port, "/scenes/0/image.png").body
        func choose(_ settings: String, _ format: String) throws -> [String: Any] {
            let posted = try HTTPTestClient.request(port: preview.port, "/scenes/0/settings", method: "POST",
                                                    headers: ["Content-Type": "application/json"], body: Array(settings.utf8))
            XCTAssertEqual(posted.status, 202)
            return try XCTUnwrap(Self.json(try events.next(timeout: EventWait.timeout) {
                (Self.json($0)["picture"] as? [String: Any])?["format"] as? String == format
            })["picture"] as? [String: Any])
        }
        // At the scale of the PNG above.
        let webp = try choose(#"{"scale": "# + "\(scale)" + #", "time": 0, "appearance": "light", "parameters": {}, "format": "webp"}"#, "webp")
        XCTAssertEqual(webp["pixelWidth"] as? Int, Int(200 * scale))
        let served = try HTTPTestClient.request(port: preview.port, "/scenes/0/image.webp")
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(served.headers["content-type"], "image/webp")
        XCTAssertEqual(webp["bytes"] as? Int, served.body.count)
        XCTAssertEqual(String(decoding: served.body[8..<12], as: UTF8.self), "WEBP")
        XCTAssertEqual(try HTTPTestClient.request(port: preview.port, "/scenes/0/image.png").status, 404, "the picture is WebP now")
        // Pillow decodes the PNG's pixels from it.
        try Data(png).write(to: folder.appendingPathComponent("p.png"))
        try Data(served.body).write(to: folder.appendingPathComponent("p.webp"))
        let same = try ExternalTool.run("python3", ["-c", "import sys; from PIL import Image; a, b = (Image.open(p).convert('RGBA').tobytes() for p in sys.argv[1:]); print(a == b)",
                                                    folder.appendingPathComponent("p.png").path, folder.appendingPathComponent("p.webp").path])
        XCTAssertEqual(same.stdout, "True\n", same.stderr)
        let avif = try choose(#"{"scale": 2, "time": 0, "appearance": "light", "parameters": {}, "format": "avif", "quality": 40}"#, "avif")
        XCTAssertEqual(avif["pixelWidth"] as? Int, 400)
        let servedAVIF = try HTTPTestClient.request(port: preview.port, "/scenes/0/image.avif")
        XCTAssertEqual(servedAVIF.headers["content-type"], "image/avif")
        XCTAssertEqual(String(decoding: servedAVIF.body[4..<12], as: UTF8.self), "ftypavif")
        for bad in [#"{"scale": 1, "time": 0, "appearance": "light", "parameters": {}, "format": "gif"}"#,
                    #"{"scale": 1, "time": 0, "appearance": "light", "parameters": {}, "format": "webp", "quality": 0}"#] {
            let refused = try HTTPTestClient.request(port: preview.port, "/scenes/0/settings", method: "POST",
                                                     headers: ["Content-Type": "application/json"], body: Array(bad.utf8))
            XCTAssertEqual(refused.status, 400, bad)
        }
    }

    func testSettingsFromThePageRerender() throws {
        let themed = folder.appendingPathComponent("themed.scene.xml")
        try """
            <scene width="100" height="50">
              <defs>
                <param name="accent" type="color" default="#ff0000"/>
                <color name="ground" value="#ffffff" dark="#000000"/>
              </defs>
              <rect x="0" y="0" width="100" height="50" fill="ground"/>
              <rect x="0" y="0" width="50" height="50" fill="{accent}"/>
            </scene>
            """.write(to: themed, atomically: true, encoding: .utf8)
        let second = try PreviewProcess([themed.path])
        defer { XCTAssertEqual(second.interrupt().status, 130) }
        let events = try EventStreamClient(port: second.port)
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        XCTAssertEqual(first["ok"] as? Bool, true)
        XCTAssertEqual(first["hasDark"] as? Bool, true)
        let parameters = try XCTUnwrap(first["parameters"] as? [[String: Any]])
        XCTAssertEqual(parameters.first?["name"] as? String, "accent")

        let settings = ##"{"scale": 3, "time": 0, "appearance": "dark", "parameters": {"accent": "#00a0ff"}}"##
        let posted = try HTTPTestClient.request(port: second.port, "/scenes/0/settings", method: "POST",
                                                headers: ["Content-Type": "application/json"], body: Array(settings.utf8))
        XCTAssertEqual(posted.status, 202)
        let after = Self.json(try events.next(timeout: EventWait.timeout) {
            (Self.json($0)["picture"] as? [String: Any])?["pixelWidth"] as? Int == 300
        })
        XCTAssertEqual((after["settings"] as? [String: Any])?["appearance"] as? String, "dark")
        let png = try HTTPTestClient.request(port: second.port, "/scenes/0/image.png").body
        let image = try RasterImage(png: png)
        XCTAssertEqual(image.width, 300)
        assertPixel(image, 60, 75, ExpectedColor(hex: "#00a0ff"), tolerance: 0.01)
        assertPixel(image, 240, 75, ExpectedColor(hex: "#000000"), tolerance: 0.01)
    }

    /// A graph's labels follow the locale picked on the page, from the
    /// string tables' locales or `--locale`: French grouping here, en-US's
    /// under a pseudo-locale.
    func testTheLocalePickedShowsInGraphLabels() throws {
        let chart = folder.appendingPathComponent("chart.scene.xml")
        try """
            <scene width="300" height="160">
              <lineGraph width="300" height="160" values="1500.5 800 2200" labels="a b c"><yAxis/></lineGraph>
            </scene>
            """.write(to: chart, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([chart.path, "--locale", "fr"])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let events = try EventStreamClient(port: preview.port)
        let first = Self.json(try events.next(timeout: EventWait.timeout, where: Self.rendered))
        XCTAssertEqual(first["locales"] as? [String], ["fr", "pseudo", "pseudo-rtl"], "--locale is offered")
        func labels() throws -> [String] {
            var out: [String] = []
            func walk(_ node: Any) {
                guard let node = node as? [String: Any] else { return }
                if let t = node["text"] as? String { out.append(t) }
                for child in node["children"] as? [Any] ?? [] { walk(child) }
            }
            let body = try HTTPTestClient.request(port: preview.port, "/scenes/0/layout.json").body
            walk(try JSONSerialization.jsonObject(with: Data(body)))
            return out
        }
        let french = try labels()
        XCTAssertTrue(french.contains("2\u{00A0}000"), "French grouping: \(french)")
        let settings = #"{"scale": 1, "time": 0, "appearance": "light", "parameters": {}, "locale": "pseudo"}"#
        let posted = try HTTPTestClient.request(port: preview.port, "/scenes/0/settings", method: "POST",
                                                headers: ["Content-Type": "application/json"], body: Array(settings.utf8))
        XCTAssertEqual(posted.status, 202)
        _ = try events.next(timeout: EventWait.timeout) { (Self.json($0)["settings"] as? [String: Any])?["locale"] as? String == "pseudo" }
        let pseudo = try labels()
        XCTAssertTrue(pseudo.contains("2,000"), "a pseudo-locale: en-US labels: \(pseudo)")
    }

    /// A scene whose render is under way does not hold up requests or other
    /// scenes. The slow scene's first render is held at its start (the
    /// server built for tests stops there, see TestPause) until the quick
    /// scene has been answered: the overlap is an event the test waits on,
    /// not a render that happens to take long.
    func testAHeldRenderThreadDoesNotBlockTheServer() throws {
        // The server renders at most as many scenes at once as there are
        // cores: on one core a render in flight (held or slow) does hold the other scene.
        try XCTSkipIf(ParallelJobs.defaultJobs < 2, "one render slot on a one-core machine")
        let slow = folder.appendingPathComponent("slow.scene.xml")
        func slowScene(_ angle: Int) -> String {
            """
            <scene width="200" height="200">
              <defs><conicGradient id="c"><stop color="red"/><stop color="blue"/></conicGradient></defs>
              <rect x="0" y="0" width="200" height="200" fill="url(#c)" transform="rotate(\(angle) 100 100)"/>
            </scene>
            """
        }
        try slowScene(3).write(to: slow, atomically: true, encoding: .utf8)
        let both = try PreviewProcess([slow.path, sceneFile.path, "--scale", "1"],
                                      environment: ["EASEL_TEST_PAUSE": "render:slow.scene.xml"])
        defer { both.channel.releaseAll(); XCTAssertEqual(both.interrupt().status, 130) }
        let events = try EventStreamClient(port: both.port)
        XCTAssertTrue(both.channel.waitForPause("render", slow.path), "the slow scene's render never started")
        // The quick scene's picture arrives while the slow one is held.
        let quick = Self.json(try events.next(timeout: EventWait.timeout) { Self.json($0)["scene"] as? Int == 1 && Self.rendered($0) })
        XCTAssertNotNil(quick["picture"])
        for _ in 0..<5 {
            XCTAssertEqual(try HTTPTestClient.request(port: both.port, "/").status, 200)
            XCTAssertEqual(try HTTPTestClient.request(port: both.port, "/scenes/1/image.png").status, 200)
        }
        let held = try Self.state(port: both.port)
        XCTAssertEqual(held["rendering"] as? Bool, true, "the slow scene is still rendering: \(held)")
        // Saved while its first render is still held; from here on no render waits.
        for angle in [4, 5] {
            try slowScene(angle).write(to: slow, atomically: true, encoding: .utf8)
        }
        both.channel.releaseAll()
        // Saves back to back: whatever their timing against the renders,
        // at most one render per scene is in flight (each state says so),
        // renders are fewer than saves plus one, and the newest text wins.
        try slowScene(6).write(to: slow, atomically: true, encoding: .utf8)
        let expected = try Easel.compile(source: slowScene(6), baseDirectory: slow.deletingLastPathComponent()).get().renderImage(scale: 1)
        var last: [String: Any] = [:]
        while true {
            let state = Self.json(try events.next(timeout: EventWait.timeout) { Self.json($0)["scene"] as? Int == 0 && Self.rendered($0) })
            last = state
            let picture = try RasterImage(png: try HTTPTestClient.request(port: both.port, "/scenes/0/image.png").body)
            if picture.rgba == expected.rgba { break }
        }
        XCTAssertLessThanOrEqual(last["version"] as? Int ?? 99, 4, "renders: at most one more than the saves")
        let settled = try Self.state(port: both.port)
        XCTAssertEqual(settled["version"] as? Int, last["version"] as? Int, "no render after the newest text's")
    }

    func testNonLoopbackHostPrintsAWarning() throws {
        let open = try PreviewProcess([sceneFile.path, "--host", "0.0.0.0"])
        XCTAssertEqual(try HTTPTestClient.request(port: open.port, "/").status, 200)
        let (status, stderr) = open.interrupt()
        XCTAssertEqual(status, 130)
        XCTAssertTrue(stderr.contains("warning: listening on 0.0.0.0, not loopback"), stderr)
        // Loopback prints none.
        let (_, quiet) = preview.interrupt()
        XCTAssertFalse(quiet.contains("warning"), quiet)
        preview = nil
    }

    /// A missing scene is reported as `render` reports it (E0808, exit 1);
    /// other mistakes on the command line exit 2.
    func testCommandLineMistakes() throws {
        let nope = folder.appendingPathComponent("nope.scene.xml").path
        let missing = try ExternalTool.run(ExternalTool.easelExecutable, ["preview", nope])
        let render = try ExternalTool.run(ExternalTool.easelExecutable, ["render", nope, "-o", folder.appendingPathComponent("nope.png").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(render.status, 1)
        XCTAssertEqual(missing.stderr, "\(nope): error: no such file [E0808]\n")
        XCTAssertEqual(missing.stderr, render.stderr)
        let host = try ExternalTool.run(ExternalTool.easelExecutable, ["preview", sceneFile.path, "--host", "example.com"])
        XCTAssertEqual(host.status, 2)
        XCTAssertTrue(host.stderr.contains("--host takes an IP address"), host.stderr)
        // A port already taken.
        let taken = try ExternalTool.run(ExternalTool.easelExecutable, ["preview", sceneFile.path, "--port", String(preview.port)])
        XCTAssertEqual(taken.status, 1)
        XCTAssertTrue(taken.stderr.contains("error: cannot listen"), taken.stderr)
    }
}
