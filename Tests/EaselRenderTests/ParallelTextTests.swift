import Easel
import EaselRender
import EaselTestSupport
import Foundation
import XCTest

/// Raster text paints without a process-wide lock: glyphs are filled as
/// outlines read once into an immutable cache (`GlyphOutlines`), so two
/// renders are inside their text at the same moment. Shown by events:
/// each render, after its first run of glyphs, waits at a rendezvous for
/// the other to arrive there too. Under the old design (one font lock held
/// from a render's first glyph to its end) the second could never arrive.
final class ParallelTextTests: XCTestCase {
    /// Two threads meet inside painting; the wait's limit only turns a hang
    /// (the second render blocked on a lock) into a failure.
    final class Rendezvous: @unchecked Sendable {
        private var mutex = pthread_mutex_t()
        private var arrived = pthread_cond_t()
        private var threads = Set<UInt>()
        private(set) var met = false
        init() { pthread_mutex_init(&mutex, nil); pthread_cond_init(&arrived, nil) }

        /// A wait ran out: the renders were not inside at once, and an
        /// arrival after it must not count as a meeting.
        private var gaveUp = false

        func arrive() {
            pthread_mutex_lock(&mutex)
            defer { pthread_mutex_unlock(&mutex) }
            guard !met, !gaveUp else { return }
            threads.insert(UInt(pthread_self()))
            if threads.count >= 2 { met = true; pthread_cond_broadcast(&arrived); return }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += Self.patience
            while !met && pthread_cond_timedwait(&arrived, &mutex, &deadline) == 0 {}
            if !met { gaveUp = true }
        }
        static let patience = 120
    }

    static let scene = """
    <scene width="200" height="60" background="#ffffff">
      <text x="8" y="8" font-size="24" fill="#123456">Parallel glyphs</text>
      <text x="8" y="34" font-size="14" fill="#654321" font-weight="bold">fīll ǒutlines, no lock</text>
    </scene>
    """

    func testTwoThreadsPaintGlyphsAtOnce() throws {
        let compiled = try Easel.compile(source: Self.scene, baseDirectory: URL(fileURLWithPath: "/tmp")).get()
        let alone = try compiled.render(format: .png, scale: 2)
        let readsAfterFirst = GlyphOutlines.reads, masksAfterFirst = GlyphMasks.made
        let meeting = Rendezvous()
        PaintingProbe.onOutlineGlyphs { meeting.arrive() }
        defer { PaintingProbe.onOutlineGlyphs(nil) }
        let both = ParallelJobs.map([2.0, 2.0], jobs: 2) { scale in try? compiled.render(format: .png, scale: scale) }
        XCTAssertTrue(meeting.met, "the two renders were never inside their text at the same time")
        // The same pixels as a render alone, and no glyph read or rasterised twice.
        XCTAssertEqual(both[0], alone)
        XCTAssertEqual(both[1], alone)
        XCTAssertEqual(GlyphOutlines.reads, readsAfterFirst)
        XCTAssertEqual(GlyphMasks.made, masksAfterFirst, "each glyph's mask made once per transform, then shared")
    }

    /// Outlines are filled where Cairo would have put its glyph masks: the
    /// same text drawn through Cairo's glyph API (PDF's path, rasterised
    /// here on an image surface) and as outlines differs only by
    /// anti-aliasing — no glyph moves, none is missing.
    func testOutlineGlyphsLandWhereCairoGlyphsDo() throws {
        let compiled = try Easel.compile(source: Self.scene, baseDirectory: URL(fileURLWithPath: "/tmp")).get()
        let outlines = try SceneRenderer.renderImage(compiled.layout, scale: 3)
        let glyphs = try SceneRenderer.renderImage(compiled.layout, scale: 3, target: .rasterWithFontGlyphs)
        XCTAssertEqual(outlines.width, glyphs.width)
        var over8 = 0, worst = 0, inked = 0
        for y in 0..<outlines.height {
            for x in 0..<outlines.width {
                let a = outlines.pixel(x, y), b = glyphs.pixel(x, y)
                let d = [(a.r, b.r), (a.g, b.g), (a.b, b.b), (a.a, b.a)].map { abs(Int($0) - Int($1)) }.max()!
                worst = max(worst, d)
                if d > 8 { over8 += 1 }
                if a.r < 128 { inked += 1 }
            }
        }
        XCTAssertGreaterThan(inked, 500, "no text was drawn")
        // Measured: at most 17/255 on the examples and 38 at one glyph edge;
        // under 0.1 % of pixels differ by more than 8.
        XCTAssertLessThanOrEqual(worst, 48)
        XCTAssertLessThan(Double(over8), 0.002 * Double(outlines.width * outlines.height))
    }
}
