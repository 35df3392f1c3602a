import EaselModel
import Synchronization

/// A debug build's window into painting and shaping, for tests of
/// concurrency that wait on events rather than on a clock, and tests that
/// count work:
/// - `outlineGlyphsFilled` runs on the painting thread after each run of
///   glyphs is filled as outlines, with no lock of Easel's held, so a test
///   can hold two renders there at once — which a process-wide font lock
///   would make impossible;
/// - `tilePainted` runs each time a pattern tile is painted (not when one
///   is reused), so a test counts the work a shared pattern costs;
///   `svgImageDrawn` each time librsvg draws an SVG image (not when its
///   picture is reused);
/// - `cairoGlyphsDrawn` and `layoutMade` let a test hold a PDF render
///   inside its text (font hold taken) while another thread shapes text;
/// - `shapingWithCairo` runs each time a text is shaped with PangoCairo
///   under the font lock;
/// - `rectanglesCovered` runs each time disjoint rectangles are filled by
///   their coverage (`RectangleCoverage`) instead of as a path, and
///   `rectangleCoverageOff` makes them paths (a test's oracle);
/// - `denseLineCovered` runs each time a stroked line is drawn per column
///   (`DenseLineCoverage`), given how many columns were spans, and
///   `denseLineCoverageOff` strokes it with Cairo instead (a test's oracle).
///
/// Package access only; release builds compile the calls to nothing.
package enum PaintingProbe {
    #if DEBUG
    /// One event's hook: what runs (if anything) each time it happens.
    private final class Hook: Sendable {
        private let body = Locked<(@Sendable () -> Void)?>(nil)
        /// Sets (or with nil, removes) what runs.
        func set(_ body: (@Sendable () -> Void)?) { self.body.withLock { $0 = body } }
        func fire() {
            let body = self.body.withLock { $0 }
            body?()
        }
    }

    private static let outlineGlyphs = Hook()
    private static let tiles = Hook()
    private static let svgImages = Hook()
    private static let cairoGlyphs = Hook()
    private static let layouts = Hook()
    private static let cairoShaping = Hook()
    private static let coverage = Hook()
    private static let denseLine = Locked<(@Sendable (Int) -> Void)?>(nil)

    static func outlineGlyphsFilled() { outlineGlyphs.fire() }
    static func tilePainted() { tiles.fire() }
    static func svgImageDrawn() { svgImages.fire() }
    static func cairoGlyphsDrawn() { cairoGlyphs.fire() }
    static func layoutMade() { layouts.fire() }
    static func shapingWithCairo() { cairoShaping.fire() }
    static func rectanglesCovered() { coverage.fire() }
    static func denseLineCovered(columns: Int) {
        let body = denseLine.withLock { $0 }
        body?(columns)
    }

    package static func onOutlineGlyphs(_ body: (@Sendable () -> Void)?) { outlineGlyphs.set(body) }
    package static func onTilePainted(_ body: (@Sendable () -> Void)?) { tiles.set(body) }
    package static func onSVGImageDrawn(_ body: (@Sendable () -> Void)?) { svgImages.set(body) }
    package static func onCairoGlyphs(_ body: (@Sendable () -> Void)?) { cairoGlyphs.set(body) }
    package static func onLayout(_ body: (@Sendable () -> Void)?) { layouts.set(body) }
    package static func onCairoShaping(_ body: (@Sendable () -> Void)?) { cairoShaping.set(body) }
    package static func onRectanglesCovered(_ body: (@Sendable () -> Void)?) { coverage.set(body) }
    private static let coverageOff = Atomic<Bool>(false)
    static var rectangleCoverageOff: Bool { coverageOff.load(ordering: .relaxed) }
    package static func turnRectangleCoverageOff(_ off: Bool) { coverageOff.store(off, ordering: .relaxed) }
    package static func onDenseLineCovered(_ body: (@Sendable (Int) -> Void)?) { denseLine.withLock { $0 = body } }
    private static let denseLineOff = Atomic<Bool>(false)
    static var denseLineCoverageOff: Bool { denseLineOff.load(ordering: .relaxed) }
    package static func turnDenseLineCoverageOff(_ off: Bool) { denseLineOff.store(off, ordering: .relaxed) }
    #else
    @inline(__always) static func outlineGlyphsFilled() {}
    @inline(__always) static func tilePainted() {}
    @inline(__always) static func svgImageDrawn() {}
    @inline(__always) static func cairoGlyphsDrawn() {}
    @inline(__always) static func layoutMade() {}
    @inline(__always) static func shapingWithCairo() {}
    @inline(__always) static func rectanglesCovered() {}
    @inline(__always) static func denseLineCovered(columns: Int) {}
    #endif
}
