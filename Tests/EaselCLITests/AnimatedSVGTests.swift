import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Animated SVG (SMIL): played by a browser, paused at t, it shows what
/// Easel paints at t; a viewer without SMIL shows the first frame.
final class AnimatedSVGTests: XCTestCase {
    let scene = """
    <scene width="200" height="100" background="white">
      <defs>
        <animatedGradient id="a" duration="1" timing="ease-in-out" repeat="true">
          <linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>
          <linearGradient direction="right"><stop color="#ff9f0a"/><stop color="#30d158"/><stop color="#1d2b53"/></linearGradient>
          <linearGradient direction="down"><stop color="#8e44ad"/><stop color="#fff3b0"/></linearGradient>
        </animatedGradient>
        <animatedGradient id="r" duration="1" timing="cubic-bezier(0.2, 0.7, 0.4, 1)">
          <radialGradient center="0.3 0.5" radius="0.4"><stop color="white"/><stop color="#1d2b53"/></radialGradient>
          <radialGradient center="0.7 0.5" radius="0.6" focus="0.6 0.4"><stop color="#fff3b0"/><stop color="#e76f51" offset="0.6"/><stop color="#8e44ad"/></radialGradient>
        </animatedGradient>
      </defs>
      <rect x="10" y="10" width="120" height="80" corner-radius="12" fill="url(#a)"/>
      <rect x="140" y="10" width="50" height="80" fill="url(#r)" stroke="url(#a)" stroke-width="4"/>
    </scene>
    """

    /// Headless Chromium shows the SVG inline, paused at `time`.
    func chromium(_ svg: String, at time: Double, size: (Int, Int)) throws -> RasterImage {
        let dir = ExternalTool.temporaryDirectory("chromium")
        let body = svg.components(separatedBy: "?>").dropFirst().joined(separator: "?>")
        let page = """
        <!doctype html><html><head><style>html,body{margin:0;padding:0}svg{display:block}</style></head><body>\(body)
        <script>const s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(time));</script></body></html>
        """
        let html = dir.appendingPathComponent("page.html"), shot = dir.appendingPathComponent("shot.png")
        try Data(page.utf8).write(to: html)
        let r = try ExternalTool.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                  "--window-size=\(size.0),\(size.1)", "--screenshot=\(shot.path)", html.absoluteString])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try RasterImage(png: [UInt8](try Data(contentsOf: shot)))
    }

    func testBrowserPausedAtTMatchesEaselAtT() throws {
        let compiled = try compileScene(scene)
        let svg = String(decoding: try compiled.render(format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("<animate attributeName=\"x1\""), "linear geometry animates")
        XCTAssertTrue(svg.contains("<animate attributeName=\"fx\""), "radial geometry animates")
        XCTAssertTrue(svg.contains("keySplines=\"0.42 0 0.58 1"), "ease-in-out as keySplines")
        // 0.3 and 1.2: a quarter and a fifth into eased segments (asymmetric
        // progress); 2.6: on the way back from the last keyframe to the first.
        for t in [0.3, 1.2, 2.6] {
            let browser = try chromium(svg, at: t, size: (200, 100))
            let easel = try compiled.renderImage(scale: 1, time: t)
            // Skia and Cairo rasterise edges and gradients a little
            // differently: within 12/255 everywhere but 1% of pixels (edges).
            let d = try XCTUnwrap(compare(browser, easel, tolerance: 12))
            XCTAssertLessThanOrEqual(d.fractionOver, 0.01, "t=\(t): \(d)")
        }
    }

    func testWithoutSMILTheSVGShowsTheFirstFrame() throws {
        let compiled = try compileScene(scene)
        // librsvg does not play SMIL: it shows the base values, frame 0.
        let still = try ReferenceRenderers.rsvg(String(decoding: try compiled.render(format: .svg), as: UTF8.self))
        let d = try XCTUnwrap(compare(still, try compiled.renderImage(scale: 1, time: 0), tolerance: 24))
        XCTAssertLessThanOrEqual(d.fractionOver, 0.01, "\(d)")
        // --time asks for a still: no animation in it.
        XCTAssertFalse(String(decoding: try compiled.render(format: .svg, time: 1.2), as: UTF8.self).contains("<animate"))
    }

    /// Animated paints are found in Cairo's SVG by marker colours; a static
    /// gradient painted first with the old marker's colour, or with the new
    /// one's written as rgb() with fractions, keeps its own stops, and only
    /// the animated paint is animated.
    func testAUserColourIsNeverTakenForAMarker() throws {
        for colour in ["#e50a0080", "rgba(229.5, 10.5, 0, 0.5019608)"] {
            let compiled = try compileScene("""
            <scene width="100" height="40">
              <defs>
                <linearGradient id="s"><stop color="\(colour)"/><stop color="rgba(10, 229, 0, 0.5)"/></linearGradient>
                <animatedGradient id="a" duration="1">
                  <linearGradient><stop color="red"/><stop color="blue"/></linearGradient>
                  <linearGradient><stop color="green"/><stop color="yellow"/></linearGradient>
                </animatedGradient>
              </defs>
              <rect width="40" height="40" fill="url(#s)"/>
              <rect x="50" width="40" height="40" fill="url(#a)"/>
            </scene>
            """)
            let svg = String(decoding: try compiled.render(format: .svg), as: UTF8.self)
            let gradients = svg.components(separatedBy: "<linearGradient").dropFirst()
            XCTAssertEqual(gradients.count, 2, svg)
            XCTAssertEqual(gradients.filter { $0.contains("<animate") }.count, 1, "\(colour): \(svg)")
            // The static gradient (painted first) is the one without animations.
            XCTAssertFalse(gradients.first!.contains("<animate"), "\(colour): the static gradient was taken for the marker")
        }
    }
}
