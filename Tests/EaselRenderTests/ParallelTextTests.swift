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
        // Declared fonts only: the same glyphs on every machine.
        let compiled = try compileScene(Self.scene, options: TestFonts.declaredOnly())
        let alone = try compiled.render(format: .png, scale: 2)
        let readsAfterFirst = GlyphOutlines.reads, masksAfterFirst = GlyphMasks.made
        let lookupsAfterFirst = GlyphOutlines.lookups
        let meeting = Rendezvous()
        PaintingProbe.onOutlineGlyphs { meeting.arrive() }
        defer { PaintingProbe.onOutlineGlyphs(nil) }
        let both = ParallelJobs.map([2.0, 2.0], jobs: 2) { scale in try? compiled.render(format: .png, scale: scale) }
        XCTAssertTrue(meeting.met, "the two renders were never inside their text at the same time")
        // The same pixels as a render alone, and no glyph read or rasterised twice.
        XCTAssertEqual(both[0], alone)
        XCTAssertEqual(both[1], alone)
        XCTAssertEqual(GlyphOutlines.reads, readsAfterFirst)
        XCTAssertEqual(GlyphOutlines.lookups, lookupsAfterFirst, "painting took the process's outline table's lock")
        XCTAssertEqual(GlyphMasks.made, masksAfterFirst, "each glyph's mask made once per transform, then shared")
    }

    /// Text over the few machine families it needs is shaped without a
    /// process-wide lock (PangoFT2, `ShapingContext`): two compiles are inside Pango at
    /// once, and a PDF render inside its text (the font hold taken, as
    /// Cairo's PDF fonts need) does not stop another thread's shaping. The
    /// shaped texts are those of a compile alone.
    func testTwoThreadsShapeTextAtOnceAndPDFTextDoesNotBlockShaping() throws {
        // The machine's fonts, narrowed to DejaVu Sans for each text
        // (scripts/install-deps installs it; Easel's default family).
        let options = Easel.Options()
        let scene = """
            <scene width="200" height="60" background="#ffffff">
              <text x="8" y="8" font-family="DejaVu Sans" font-size="24" fill="#123456">Shaped at once</text>
              <text x="8" y="34" font-family="DejaVu Sans" font-size="14" font-weight="700">by two threads, no lock</text>
              <text x="8" y="50" width="60" font-family="DejaVu Sans" font-size="8">a paragraph wrapped at its spaces, line by line</text>
            </scene>
            """
        let alone = try compileScene(scene, options: options).render(format: .png, scale: 1)
        let shaping = Rendezvous()
        PaintingProbe.onLayout { shaping.arrive() }
        let both = ParallelJobs.map([0, 1], jobs: 2) { _ in try? compileScene(scene, options: options).render(format: .png, scale: 1) }
        PaintingProbe.onLayout(nil)
        XCTAssertTrue(shaping.met, "two compiles were never inside text shaping at the same time")
        XCTAssertEqual(both[0], alone)
        XCTAssertEqual(both[1], alone)

        // None of it, the wrapped paragraph included, was shaped again under
        // the lock; a character no font has is.
        let reshaped = Locked(0)
        PaintingProbe.onCairoShaping { reshaped.withLock { $0 += 1 } }
        _ = try compileScene(scene, options: options)
        XCTAssertEqual(reshaped.withLock { $0 }, 0, "texts over their own families shaped with PangoCairo")
        _ = try compileScene(#"<scene width="80" height="20"><text font-family="DejaVu Sans">A \#u{10FFFD} B</text></scene>"#, options: options)
        XCTAssertGreaterThan(reshaped.withLock { $0 }, 0, "an unknown glyph is shaped again with PangoCairo")
        PaintingProbe.onCairoShaping(nil)

        let pdfScene = try compileScene(scene, options: options)
        let pdfAlone = try pdfScene.render(format: .pdf)
        let meeting = Rendezvous()
        PaintingProbe.onCairoGlyphs { meeting.arrive() }
        PaintingProbe.onLayout { meeting.arrive() }
        defer { PaintingProbe.onCairoGlyphs(nil); PaintingProbe.onLayout(nil) }
        let outputs = ParallelJobs.map([true, false], jobs: 2) { pdf in
            pdf ? try? pdfScene.render(format: .pdf) : try? compileScene(scene, options: options).render(format: .png, scale: 1)
        }
        XCTAssertTrue(meeting.met, "a compile could not shape while a PDF render drew its text")
        XCTAssertEqual(outputs[0], pdfAlone)
        XCTAssertEqual(outputs[1], alone)
    }

    /// In a program (`FontSystem.prepareProgram`, as `easel` and its worker
    /// run), whole sets shape without the lock too: declared fonts alone
    /// (hermetic builds), and the machine's set for emoji and a script
    /// with faces of its own. Two compiles over declared fonts are inside
    /// shaping at once; none of it is shaped with PangoCairo.
    func testWholeSetsShapeWithoutTheLockInAProgram() throws {
        FontSystem.prepareProgram()
        let declared = """
            <scene width="200" height="40" background="#ffffff">
              <text x="8" y="8" font-family="Inter" font-size="20" fill="#123456">Declared, at once</text>
            </scene>
            """
        let alone = try compileScene(declared, options: TestFonts.declaredOnly()).render(format: .png, scale: 1)
        let reshaped = Locked(0)
        PaintingProbe.onCairoShaping { reshaped.withLock { $0 += 1 } }
        defer { PaintingProbe.onCairoShaping(nil) }
        let shaping = Rendezvous()
        PaintingProbe.onLayout { shaping.arrive() }
        let both = ParallelJobs.map([0, 1], jobs: 2) { _ in
            try? compileScene(declared, options: TestFonts.declaredOnly()).render(format: .png, scale: 1)
        }
        PaintingProbe.onLayout(nil)
        XCTAssertTrue(shaping.met, "two compiles over declared fonts were never inside text shaping at the same time")
        XCTAssertEqual(both[0], alone)
        XCTAssertEqual(both[1], alone)
        XCTAssertEqual(reshaped.withLock { $0 }, 0, "declared fonts shaped with PangoCairo")
        _ = try compileScene(#"<scene width="200" height="40"><text>Emoji 😀👍🏽 and 日本語, ١٢٣ مرحبا</text></scene>"#)
        XCTAssertEqual(reshaped.withLock { $0 }, 0, "a whole set shaped with PangoCairo")
    }

    /// A raster render takes Cairo's font lock for a colour glyph's run
    /// only, not to its end: two renders that each drew an emoji (through
    /// Cairo, under the lock) are inside their outline text at once.
    func testAnEmojiTakesTheFontLockForItsRunOnly() throws {
        let scene = """
            <scene width="200" height="60" background="#ffffff">
              <text x="8" y="4" font-size="20">😀</text>
              <text x="8" y="34" font-family="DejaVu Sans" font-size="14" fill="#123456">outlines after the emoji</text>
            </scene>
            """
        let compiled = try compileScene(scene)
        let alone = try compiled.render(format: .png, scale: 1)
        let meeting = Rendezvous()
        PaintingProbe.onOutlineGlyphs { meeting.arrive() }
        defer { PaintingProbe.onOutlineGlyphs(nil) }
        let both = ParallelJobs.map([1.0, 1.0], jobs: 2) { scale in try? compiled.render(format: .png, scale: scale) }
        XCTAssertTrue(meeting.met, "a render held the font lock after its emoji")
        XCTAssertEqual(both[0], alone)
        XCTAssertEqual(both[1], alone)
    }

    /// Glyphs through Easel's masks land where Cairo's own glyphs do: every
    /// docs scene and example drawn both ways (Cairo's glyph API, as PDF
    /// draws text, here on an image surface) at @2x differs only by
    /// anti-aliasing — no glyph moves, none is missing. Measured: at most
    /// 26/255 at an edge pixel, and under 0.1 % of a scene's pixels differ
    /// by more than 8. Painting them in PNG and SVG looks no glyph up in
    /// the process's table (so takes no lock there): every run, pattern
    /// tiles' and graph labels' among them, is in the compile's set.
    func testOutlineGlyphsLandWhereCairoGlyphsDo() throws {
        var inkedScenes = 0
        for url in DocsScenesTests.scenes {
            let name = url.lastPathComponent
            let compiled = try Easel.compile(fileAt: url).get()
            let outlines = compiled.glyphs   // taken from the process's table here, once
            let lookups = GlyphOutlines.lookups
            let masks = try SceneRenderer.renderImage(compiled.renderTree, scale: 2, images: compiled.images, glyphs: outlines)
            _ = try compiled.render(format: .svg)
            XCTAssertEqual(GlyphOutlines.lookups, lookups, "\(name): a glyph run missing from the compile's outlines")
            let glyphs = try SceneRenderer.renderImageWithFontGlyphs(compiled.renderTree, scale: 2, images: compiled.images)
            XCTAssertEqual(masks.width, glyphs.width, name)
            var over8 = 0, worst = 0
            for i in stride(from: 0, to: masks.rgba.count, by: 4) {
                var d = 0
                for c in 0..<4 { d = max(d, abs(Int(masks.rgba[i + c]) - Int(glyphs.rgba[i + c]))) }
                worst = max(worst, d)
                if d > 8 { over8 += 1 }
            }
            if over8 > 0 { inkedScenes += 1 }
            XCTAssertLessThanOrEqual(worst, 48, name)
            XCTAssertLessThan(Double(over8), 0.002 * Double(masks.width * masks.height), name)
        }
        // Not vacuous: the text scenes do differ a little (two rasterisers).
        XCTAssertGreaterThanOrEqual(inkedScenes, 8)
    }
}
