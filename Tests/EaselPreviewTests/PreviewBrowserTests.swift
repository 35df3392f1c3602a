import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The preview page in a real browser (headless Chromium): it shows the new
/// picture after a save, the located error after a broken save, and the
/// frame of a hovered node.
final class PreviewBrowserTests: XCTestCase {
    func testPageFollowsEditsInChromium() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("card.scene.xml")
        try PreviewServerTests.scene(fill: "#d0302a").write(to: sceneFile, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }

        let browser = try HeadlessChromium()
        try browser.open(preview.url)
        let image = #"document.querySelector('[data-scene="0"] img')"#
        func shows(version: Int) -> String {
            "(() => { const i = \(image); return !!i && i.dataset.version === '\(version)' && i.complete && i.naturalWidth > 0 })()"
        }
        XCTAssertTrue(try browser.waitUntil(shows(version: 1)), "the first picture never showed")
        XCTAssertEqual(try browser.evaluate("document.getElementById('connection').textContent") as? String, "live")

        // Save a new colour; the page shows it without a reload.
        try PreviewServerTests.scene(fill: "#1f6feb").write(to: sceneFile, atomically: true, encoding: .utf8)
        XCTAssertTrue(try browser.waitUntil(shows(version: 2)), "the page did not update after the save")
        let box = try XCTUnwrap(try browser.evaluate(
            "(() => { const r = \(image).getBoundingClientRect(); return [r.left, r.top, r.width, r.height] })()") as? [Double])
        XCTAssertEqual(box[2], 200, "the picture is shown at its size in points")
        let shot = try RasterImage(png: try browser.screenshot())
        // Right of the white chip, inside the picture (screenshot pixels are CSS pixels here).
        assertPixel(shot, Int(box[0] + 150), Int(box[1] + 60), ExpectedColor(hex: "#1f6feb"), tolerance: 0.02)
        assertPixel(shot, Int(box[0] + 40), Int(box[1] + 35), ExpectedColor(hex: "#ffffff"), tolerance: 0.02)

        // Hovering a node in the list outlines its frame (the chip: 20, 20, 40 × 30 points).
        let outline = try browser.evaluate("""
            (() => {
              const item = [...document.querySelectorAll('[data-scene="0"] .nodes li')].find(li => li.textContent.startsWith('rect#chip'));
              item.dispatchEvent(new MouseEvent('mouseenter'));
              const s = document.querySelector('[data-scene="0"] .outline').style;
              return [s.display, s.left, s.top, s.width, s.height].join(' ');
            })()
            """) as? String
        XCTAssertEqual(outline, "block 20px 20px 40px 30px")

        // A broken save: the located error shows over the last good picture.
        try PreviewServerTests.scene(fill: "#1f6fe").write(to: sceneFile, atomically: true, encoding: .utf8)
        let overlay = #"document.querySelector('[data-scene="0"] .diagnostics')"#
        XCTAssertTrue(try browser.waitUntil("\(overlay).classList.contains('visible')"), "no error shown")
        let text = try XCTUnwrap(try browser.evaluate("\(overlay).textContent") as? String)
        XCTAssertTrue(text.contains("\(sceneFile.path):2:"), text)
        XCTAssertTrue(text.contains("error: '#1f6fe' is not a colour"), text)
        XCTAssertEqual(try browser.evaluate("\(image).dataset.version") as? String, "2", "the last good picture stays")
        let broken = try browser.screenshot()
        _ = saveArtifacts("preview-browser", ["broken.png": broken])

        // Fixed again: the error goes away.
        try PreviewServerTests.scene(fill: "#2a9d4b").write(to: sceneFile, atomically: true, encoding: .utf8)
        XCTAssertTrue(try browser.waitUntil("!\(overlay).classList.contains('visible') && \(shows(version: 4))"))
    }

    /// The page reconnects to a restarted server by itself and shows the
    /// scene as the new server renders it (its versions start again at 1).
    func testPageSurvivesAServerRestart() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("card.scene.xml")
        try PreviewServerTests.scene(fill: "#d0302a").write(to: sceneFile, atomically: true, encoding: .utf8)
        let first = try PreviewProcess([sceneFile.path])
        let browser = try HeadlessChromium()
        try browser.open(first.url)
        let image = #"document.querySelector('[data-scene="0"] img')"#
        XCTAssertTrue(try browser.waitUntil("!!\(image) && \(image).dataset.version === '1' && \(image).complete"))
        XCTAssertEqual(first.interrupt().status, 130)
        XCTAssertTrue(try browser.waitUntil("document.getElementById('connection').textContent === 'reconnecting…'"))
        try PreviewServerTests.scene(fill: "#1f6feb").write(to: sceneFile, atomically: true, encoding: .utf8)
        let second = try PreviewProcess([sceneFile.path], port: first.port)
        defer { XCTAssertEqual(second.interrupt().status, 130) }
        XCTAssertTrue(try browser.waitUntil("document.getElementById('connection').textContent === 'live'"))
        // Version 1 again, of another run: the page must still load it.
        XCTAssertTrue(try browser.waitUntil("\(image).src.endsWith('/1') && \(image).complete && \(image).dataset.version === '1'"))
        let box = try XCTUnwrap(try browser.evaluate(
            "(() => { const r = \(image).getBoundingClientRect(); return [r.left, r.top] })()") as? [Double])
        let shot = try screenshot(browser, showing: ExpectedColor(hex: "#1f6feb"), at: Int(box[0] + 150), Int(box[1] + 60))
        assertPixel(shot, Int(box[0] + 150), Int(box[1] + 60), ExpectedColor(hex: "#1f6feb"), tolerance: 0.02)
    }

    /// A scene of 3,000 shapes: the node list shows 2,000 rows and counts the rest.
    func testLongNodeListIsCapped() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("many.scene.xml")
        let shapes = (0..<3000).map { i in
            "<rect x=\"\(i % 100 * 4)\" y=\"\(i / 100 * 4)\" width=\"3\" height=\"3\" fill=\"#336699\"/>"
        }.joined(separator: "\n")
        try "<scene width=\"400\" height=\"120\">\n\(shapes)\n</scene>\n".write(to: sceneFile, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let browser = try HeadlessChromium()
        try browser.open(preview.url)
        XCTAssertTrue(try browser.waitUntil("document.querySelectorAll('.nodes li').length > 0"))
        XCTAssertEqual(try browser.evaluate("document.querySelectorAll('.nodes li:not(.more)').length") as? Int, 2000)
        // The scene and its 3,000 shapes: 3,001 nodes, 1,001 of them counted.
        XCTAssertEqual(try browser.evaluate("document.querySelector('.nodes li.more').textContent") as? String,
                       "… and 1001 more nodes")
    }

    /// Two examples in one page: the themed card's parameter fields and
    /// light/dark switch, the animated gradient's time slider. With
    /// EASEL_RECORD=1 the screenshot becomes docs/images/preview-page.png
    /// (the README's picture of the page).
    func testExamplesInThePage() throws {
        let root = ExternalTool.repositoryRoot
        let preview = try PreviewProcess(["examples/themed/themed-card.scene.xml", "examples/animated-gradient.scene.xml"], in: root)
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let browser = try HeadlessChromium(width: 1100, height: 900)
        try browser.open(preview.url)
        func panel(_ i: Int) -> String { #"document.querySelector('[data-scene="\#(i)"]')"# }
        func loaded(_ i: Int) -> String { "(() => { const i = \(panel(i))?.querySelector('img'); return !!i && i.complete && i.naturalWidth > 0 })()" }
        XCTAssertTrue(try browser.waitUntil("\(loaded(0)) && \(loaded(1))"), "the examples did not show")

        // The themed card: a field per <param>, and the light/dark switch (its palette has dark values).
        let fields = try browser.evaluate("[...\(panel(0)).querySelectorAll('.params input')].map(i => i.name + '=' + i.value).join(';')") as? String
        XCTAssertEqual(fields, "accent=#0a84ff;title=Weekly steps;figure=68,240;goal=70,000;corner=18")
        XCTAssertEqual(try browser.evaluate("\(panel(0)).querySelector('.appearance').hidden") as? Bool, false)
        XCTAssertEqual(try browser.evaluate("\(panel(0)).querySelector('.time').hidden") as? Bool, true)
        // The animated gradient: the time slider runs over the scene's duration.
        XCTAssertEqual(try browser.evaluate("\(panel(1)).querySelector('.time').hidden") as? Bool, false)
        XCTAssertEqual(try browser.evaluate("\(panel(1)).querySelector('.appearance').hidden") as? Bool, true)
        let duration = try XCTUnwrap(Double(try browser.evaluate("\(panel(1)).querySelector('input[type=range]').max") as? String ?? ""))
        XCTAssertGreaterThan(duration, 0)

        // Dark: the surface becomes the palette's dark value (#000000 in the scene's text).
        let before = try XCTUnwrap(try browser.evaluate("\(panel(0)).querySelector('img').dataset.version") as? String)
        _ = try browser.evaluate("\(panel(0)).querySelector('[data-appearance=dark]').click()")
        XCTAssertTrue(try browser.waitUntil(
            "\(panel(0)).querySelector('img').dataset.version !== '\(before)' && \(loaded(0))"))
        let box = try XCTUnwrap(try browser.evaluate(
            "(() => { const r = \(panel(0)).querySelector('img').getBoundingClientRect(); return [r.left, r.top] })()") as? [Double])
        // A time on the slider: the frame at 1 s.
        _ = try browser.evaluate("""
            (() => { const s = \(panel(1)).querySelector('input[type=range]'); s.value = 1; s.dispatchEvent(new Event('input')); })()
            """)
        XCTAssertTrue(try browser.waitUntil("\(panel(1)).querySelector('.time-label').textContent.startsWith('1.00 s')"))
        XCTAssertTrue(try browser.waitUntil(loaded(1)))
        // Hovering the figure's node outlines its frame as `easel layout` gives it
        // (the picture is shown at its size in points, so CSS pixels are points).
        let layout = try ExternalTool.run(ExternalTool.easelExecutable, ["layout", root.appendingPathComponent("examples/themed/themed-card.scene.xml").path])
        let figureFrame = try XCTUnwrap(Self.frame(ofLine: 33, in: try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8))))
        let outline = try browser.evaluate("""
            (() => {
              const item = [...\(panel(0)).querySelectorAll('.nodes li')].find(li => li.textContent.endsWith('line 33'));
              item.dispatchEvent(new MouseEvent('mouseenter'));
              const s = \(panel(0)).querySelector('.outline').style;
              return [s.left, s.top, s.width, s.height].map(parseFloat);
            })()
            """) as? [Double]
        let expected = ["x", "y", "width", "height"].map { figureFrame[$0] ?? -1 }
        XCTAssertEqual(outline?.count, 4)
        for (got, want) in zip(outline ?? [], expected) { XCTAssertEqual(got, want, accuracy: 0.01) }
        let image = try screenshot(browser, showing: ExpectedColor(hex: "#000000"), at: Int(box[0] + 6), Int(box[1] + 6))
        // The card's margin (the surface) at (6, 6) points.
        assertPixel(image, Int(box[0] + 6), Int(box[1] + 6), ExpectedColor(hex: "#000000"), tolerance: 0.02)
        // Play: frames follow one another (each asked for once the last is on screen), then pause.
        _ = try browser.evaluate("\(panel(1)).querySelector('.play').click()")
        var times = Set<String>()
        let playing = Date(timeIntervalSinceNow: EventWait.timeout)
        while times.count < 4, playing.timeIntervalSinceNow > 0 {
            if let label = try browser.evaluate("\(panel(1)).querySelector('.time-label').textContent") as? String { times.insert(label) }
            usleep(30_000)
        }
        XCTAssertGreaterThanOrEqual(times.count, 4, "play shows successive times: \(times)")
        _ = try browser.evaluate("\(panel(1)).querySelector('.play').click()")
        if ProcessInfo.processInfo.environment["EASEL_RECORD"] == "1" {
            try Data(try image.pngData()).write(to: root.appendingPathComponent("docs/images/preview-page.png"))
        }
    }

    /// The locale picker offers the string tables' locales and the
    /// pseudo-locales; picking one re-renders in it, a text that overflows
    /// is marked where it is, with the warning as its title, and an edited
    /// string table shows at once.
    func testLocalePickerAndOverflowMarks() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("promo.scene.xml")
        try """
        <scene width="240" height="60" background="white">
          <defs><param name="title" type="string" default="Progress"/></defs>
          <text x="10" y="10" width="150" height="20" font-size="16">{title}</text>
        </scene>
        """.write(to: sceneFile, atomically: true, encoding: .utf8)
        let strings = folder.appendingPathComponent("strings.json")
        try #"{"en": {"title": "Progress"}, "de": {"title": "Der Fortschritt dieser Trainingswoche"}}"#
            .write(to: strings, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path, "--strings", strings.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let browser = try HeadlessChromium()
        try browser.open(preview.url)
        let panel = #"document.querySelector('[data-scene="0"]')"#
        func shows(version: Int) -> String {
            "(() => { const i = \(panel).querySelector('img'); return !!i && Number(i.dataset.version) >= \(version) && i.complete })()"
        }
        XCTAssertTrue(try browser.waitUntil(shows(version: 1)))
        let options = try browser.evaluate("[...\(panel).querySelectorAll('select[name=locale] option')].map(o => o.value).join(',')") as? String
        XCTAssertEqual(options, ",de,en,pseudo,pseudo-rtl")
        XCTAssertEqual(try browser.evaluate("\(panel).querySelectorAll('.overflow-frame').length") as? Int, 0, "English fits")

        _ = try browser.evaluate("""
            (() => { const s = \(panel).querySelector('select[name=locale]'); s.value = 'de'; s.dispatchEvent(new Event('change')); })()
            """)
        XCTAssertTrue(try browser.waitUntil("\(panel).querySelectorAll('.overflow-frame').length === 1"), "no overflow mark")
        let mark = try XCTUnwrap(try browser.evaluate("""
            (() => { const m = \(panel).querySelector('.overflow-frame'); return [m.style.left, m.style.top, m.style.width, m.style.height, m.title].join('|') })()
            """) as? String)
        XCTAssertTrue(mark.hasPrefix("10px|10px|150px|20px|"), mark)
        XCTAssertTrue(mark.contains("locale de"), mark)
        XCTAssertTrue(try XCTUnwrap(try browser.evaluate("\(panel).querySelector('.warnings').textContent") as? String)
            .contains("overflows its frame"))

        // A shorter translation saved: re-rendered, the mark gone.
        try #"{"en": {"title": "Progress"}, "de": {"title": "Fortschritt"}}"#.write(to: strings, atomically: true, encoding: .utf8)
        XCTAssertTrue(try browser.waitUntil("\(panel).querySelectorAll('.overflow-frame').length === 0"),
                      "the edited string table was not read again")
    }

    /// The gamut switch: the scene painted in sRGB lists its out-of-gamut
    /// colours under the picture; switched to P3 it is painted in Display
    /// P3 (a tagged picture) and nothing is mapped, so the warning goes.
    func testGamutSwitchShowsTheOutOfGamutWarningInPlace() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("brand.scene.xml")
        try """
        <scene width="120" height="40"><view width="120" height="40" fill="color(display-p3 0 1 0)"/></scene>
        """.write(to: sceneFile, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let browser = try HeadlessChromium()
        try browser.open(preview.url)
        let panel = #"document.querySelector('[data-scene="0"]')"#
        let warnings = "\(panel).querySelector('.warnings').textContent"
        XCTAssertTrue(try browser.waitUntil("\(warnings).includes('outside sRGB')"), "the sRGB picture's warning")
        XCTAssertEqual(try browser.evaluate("\(panel).querySelector('.gamut button.selected').textContent") as? String, "sRGB")
        _ = try browser.evaluate("\(panel).querySelector('.gamut button[data-color-space=\"display-p3\"]').click()")
        XCTAssertTrue(try browser.waitUntil("!\(warnings).includes('outside sRGB') && \(panel).querySelector('.gamut button.selected').textContent === 'P3'"),
                      "switched to P3, nothing is mapped")
    }

    /// The format switch: WebP shows the picture from image.webp with its
    /// size beside the buttons; AVIF with a quality typed in, the same.
    func testFormatSwitchShowsWebPAndAVIF() throws {
        let folder = ExternalTool.temporaryDirectory()
        let sceneFile = folder.appendingPathComponent("card.scene.xml")
        try ##"<scene width="120" height="40"><rect width="120" height="40" fill="#3a7bd5"/></scene>"##.write(to: sceneFile, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess([sceneFile.path])
        defer { XCTAssertEqual(preview.interrupt().status, 130) }
        let browser = try HeadlessChromium()
        try browser.open(preview.url)
        let panel = #"document.querySelector('[data-scene="0"]')"#
        let image = "\(panel).querySelector('.frame img')"
        XCTAssertTrue(try browser.waitUntil("\(image).complete && \(image).naturalWidth > 0 && \(image).src.includes('image.png')"))
        // The WebP and the AVIF decode to the PNG's size (a picture that fails to decode has none).
        let width = try XCTUnwrap(try browser.evaluate("\(image).naturalWidth") as? Int)
        _ = try browser.evaluate("\(panel).querySelector('.format button[data-format=\"webp\"]').click()")
        XCTAssertTrue(try browser.waitUntil("\(image).src.includes('image.webp') && \(image).complete && \(image).naturalWidth === \(width) && \(panel).querySelector('.picture-size').textContent.endsWith(' KB')"),
                      "the WebP shown")
        _ = try browser.evaluate("\(panel).querySelector('.format button[data-format=\"avif\"]').click()")
        XCTAssertTrue(try browser.waitUntil("\(image).src.includes('image.avif') && \(image).complete && \(image).naturalWidth === \(width)"), "the AVIF shown")
        // A quality typed in: a new picture (a later version) at that quality.
        let shown = try XCTUnwrap(Int(try browser.evaluate("\(panel).dataset.version") as? String ?? ""))
        _ = try browser.evaluate("const q = \(panel).querySelector('.format input'); q.value = '30'; q.dispatchEvent(new Event('change'))")
        XCTAssertTrue(try browser.waitUntil("Number(\(panel).dataset.version) > \(shown) && \(image).src.includes('image.avif') && \(image).complete && \(image).naturalWidth === \(width)"))
        let state = try JSONSerialization.jsonObject(with: Data(try HTTPTestClient.request(port: preview.port, "/scenes/0/state.json").body)) as? [String: Any]
        XCTAssertEqual((state?["settings"] as? [String: Any])?["quality"] as? Int, 30)
    }

    /// The frame of the node on `line` in `easel layout`'s JSON.
    static func frame(ofLine line: Int, in node: Any) -> [String: Double]? {
        guard let node = node as? [String: Any] else { return nil }
        if node["line"] as? Int == line { return node["frame"] as? [String: Double] }
        for child in node["children"] as? [Any] ?? [] {
            if let found = frame(ofLine: line, in: child) { return found }
        }
        return nil
    }

    /// A screenshot once the page shows `colour` at (x, y): the browser
    /// paints a loaded image on a later frame, so the test waits for that
    /// event (EventWait.timeout at most) instead of sleeping a guessed time.
    func screenshot(_ browser: HeadlessChromium, showing colour: ExpectedColor, at x: Int, _ y: Int) throws -> RasterImage {
        let deadline = Date(timeIntervalSinceNow: EventWait.timeout)
        var shot = try RasterImage(png: try browser.screenshot())
        while deadline.timeIntervalSinceNow > 0, x < shot.width, y < shot.height,
              shot.pixel(x, y).distance(to: colour.pixel) > 0.02 {
            usleep(20_000)
            shot = try RasterImage(png: try browser.screenshot())
        }
        return shot
    }
}
