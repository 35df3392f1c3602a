import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Easel's PNG compared with the same picture written by hand as SVG and
/// rendered by rsvg-convert, and with Easel's own PDF and SVG output read
/// back by poppler and librsvg.
///
/// Tolerance: a pixel differs when a premultiplied channel is off by more
/// than 24/255; at most 0.5% of pixels may (edges anti-aliased differently).
final class CrossRendererTests: XCTestCase {
    static let tolerance = 24.0
    static let maxFraction = 0.005

    /// End points of the contract's angle rule, computed here for the SVG.
    func angleEndpoints(_ angle: Double, x: Double, y: Double, w: Double, h: Double) -> (Double, Double, Double, Double) {
        let a = angle * .pi / 180
        let m = max(abs(cos(a)), abs(sin(a)))
        let ex = cos(a) / m, ey = sin(a) / m
        return (x + (1 - ex) / 2 * w, y + (1 + ey) / 2 * h, x + (1 + ex) / 2 * w, y + (1 - ey) / 2 * h)
    }

    let scene = """
    <scene width="220" height="160" background="white">
      <defs>
        <linearGradient id="g" angle="30"><stop color="#4158d0"/><stop color="#c850c0" offset="0.5"/><stop color="#ffcc70"/></linearGradient>
        <clipPath id="round"><circle cx="25" cy="15" r="18"/></clipPath>
      </defs>
      <view x="10" y="10" width="120" height="80" corner-radius="16" fill="url(#g)"/>
      <circle cx="170" cy="45" r="28" fill="#33aa77" stroke="#112233" stroke-width="4" dash="9 4"/>
      <path d="M 20 110 A 30 20 0 0 1 80 110 L 80 145 Q 50 160 20 145 Z" fill="orange" stroke="navy" stroke-width="3" line-join="round"/>
      <polyline points="95,150 110,110 125,140 140,105" fill="none" stroke="crimson" stroke-width="5" line-cap="round" line-join="bevel"/>
      <group opacity="0.6" transform="rotate(20 185 120)">
        <rect x="160" y="100" width="40" height="30" fill="blue"/>
        <rect x="180" y="110" width="30" height="30" fill="lime"/>
      </group>
      <ellipse x="140" y="120" width="60" height="36" fill="purple" clip-path="url(#round)"/>
    </scene>
    """

    var equivalentSVG: String {
        let (x1, y1, x2, y2) = angleEndpoints(30, x: 10, y: 10, w: 120, h: 80)
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="220" height="160">
          <defs>
            <linearGradient id="g" gradientUnits="userSpaceOnUse" x1="\(x1)" y1="\(y1)" x2="\(x2)" y2="\(y2)">
              <stop offset="0" stop-color="#4158d0"/><stop offset="0.5" stop-color="#c850c0"/><stop offset="1" stop-color="#ffcc70"/>
            </linearGradient>
            <clipPath id="round"><circle cx="165" cy="135" r="18"/></clipPath>
          </defs>
          <rect width="220" height="160" fill="white"/>
          <rect x="10" y="10" width="120" height="80" rx="16" fill="url(#g)"/>
          <circle cx="170" cy="45" r="28" fill="#33aa77" stroke="#112233" stroke-width="4" stroke-dasharray="9 4"/>
          <path d="M 20 110 A 30 20 0 0 1 80 110 L 80 145 Q 50 160 20 145 Z" fill="orange" stroke="navy" stroke-width="3" stroke-linejoin="round"/>
          <polyline points="95,150 110,110 125,140 140,105" fill="none" stroke="crimson" stroke-width="5" stroke-linecap="round" stroke-linejoin="bevel"/>
          <g opacity="0.6" transform="rotate(20 185 120)">
            <rect x="160" y="100" width="40" height="30" fill="blue"/>
            <rect x="180" y="110" width="30" height="30" fill="lime"/>
          </g>
          <ellipse cx="170" cy="138" rx="30" ry="18" fill="purple" clip-path="url(#round)"/>
        </svg>
        """
    }

    func testPNGMatchesHandWrittenSVGRenderedByRsvg() throws {
        let compiled = try compileScene(scene)
        let easel = try compiled.renderImage()
        let reference = try ReferenceRenderers.rsvg(equivalentSVG)
        // Images of different sizes are a failure, not a pass.
        let d = try XCTUnwrap(compare(easel, reference, tolerance: Self.tolerance),
                              "sizes differ: \(easel.width)×\(easel.height) vs \(reference.width)×\(reference.height)")
        if d.fractionOver > Self.maxFraction {
            let dir = saveArtifacts("rsvg-crosscheck", ["easel.png": try compiled.render(format: .png),
                                                        "reference.svg": Array(equivalentSVG.utf8)])
            XCTFail("\(d); artifacts in \(dir.path)")
        }
    }

    /// A gradient whose colour lines must be perpendicular in points, on a
    /// 4:1 box, at several angles, against SVG with user-space end points.
    func testAngledGradientsMatchRsvg() throws {
        for angle in [0.0, 30, 45, 100, 135, 225, 300] {
            let easel = try compileScene("""
            <scene width="200" height="50">
              <defs><linearGradient id="g" angle="\(angle)"><stop color="red"/><stop color="yellow" offset="40%"/><stop color="blue"/></linearGradient></defs>
              <view fill="url(#g)"/>
            </scene>
            """).renderImage()
            let (x1, y1, x2, y2) = angleEndpoints(angle, x: 0, y: 0, w: 200, h: 50)
            let reference = try ReferenceRenderers.rsvg("""
            <svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">
              <linearGradient id="g" gradientUnits="userSpaceOnUse" x1="\(x1)" y1="\(y1)" x2="\(x2)" y2="\(y2)">
                <stop offset="0" stop-color="red"/><stop offset="0.4" stop-color="yellow"/><stop offset="1" stop-color="blue"/>
              </linearGradient>
              <rect width="200" height="50" fill="url(#g)"/>
            </svg>
            """)
            assertSimilar(easel, reference, tolerance: 3, maxFraction: 0, name: "angle \(angle)")
        }
    }

    func testSpreadModesMatchRsvg() throws {
        for spread in ["pad", "repeat", "reflect"] {
            let easel = try compileScene("""
            <scene width="200" height="20">
              <defs><linearGradient id="g" start="0.3 0" end="0.5 0" spread="\(spread)"><stop color="black"/><stop color="orange"/></linearGradient></defs>
              <view fill="url(#g)"/>
            </scene>
            """).renderImage()
            let reference = try ReferenceRenderers.rsvg("""
            <svg xmlns="http://www.w3.org/2000/svg" width="200" height="20">
              <linearGradient id="g" gradientUnits="userSpaceOnUse" x1="60" y1="0" x2="100" y2="0" spreadMethod="\(spread)">
                <stop offset="0" stop-color="black"/><stop offset="1" stop-color="orange"/>
              </linearGradient>
              <rect width="200" height="20" fill="url(#g)"/>
            </svg>
            """)
            assertSimilar(easel, reference, tolerance: 3, maxFraction: 0, name: spread)
        }
    }

    func testPDFPassesQpdfAndMatchesThePNG() throws {
        let compiled = try compileScene(scene)
        let pdf = try compiled.render(format: .pdf)
        let dir = ExternalTool.temporaryDirectory()
        let file = dir.appendingPathComponent("scene.pdf")
        try Data(pdf).write(to: file)
        let check = try ExternalTool.run("qpdf", ["--check", file.path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let page = try ReferenceRenderers.poppler(pdf)
        // Poppler's rasteriser computes edge coverage its own way, so up to
        // 2% of pixels (this scene's edges are about 3%) may differ; a wrong
        // fill, gradient or placement changes far more.
        assertSimilar(try compiled.renderImage(), page, tolerance: Self.tolerance, maxFraction: 0.02, name: "pdf")
    }

    func testSVGOutputRenderedByRsvgMatchesThePNG() throws {
        let compiled = try compileScene(scene)
        let svg = String(decoding: try compiled.render(format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("width=\"220\""), "SVG is at point size, 1 point = 1 user unit")
        let reference = try ReferenceRenderers.rsvg(svg)
        assertSimilar(try compiled.renderImage(), reference, tolerance: Self.tolerance, maxFraction: Self.maxFraction, name: "svg")
    }

    func testOutputIsDeterministic() throws {
        // The scene's group opacity over overlapping parts has no VectorDrawable
        // (VectorDrawableTests render the same drawable twice).
        for format in OutputFormat.allCases where format != .vectorDrawable {
            let a = try compileScene(scene).render(format: format)
            let b = try compileScene(scene).render(format: format)
            XCTAssertEqual(a, b, "\(format) output differs between two runs")
        }
    }
}
