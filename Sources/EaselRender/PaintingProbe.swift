import EaselModel

/// A debug build's window into painting, for tests of concurrency that wait
/// on events rather than on a clock: `outlineGlyphsFilled` runs on the
/// painting thread after each run of glyphs is filled as outlines, with no
/// lock of Easel's held, so a test can hold two renders there at once —
/// which a process-wide font lock would make impossible; `tilePainted`
/// runs each time a pattern tile is painted (not when one is reused), so a
/// test counts the work a shared pattern costs; `cairoGlyphsDrawn` and
/// `layoutMade` let a test hold a PDF render inside its text (font hold
/// taken) while another thread shapes text.
///
/// Package access only; release builds compile the call to nothing.
package enum PaintingProbe {
    #if DEBUG
    private static let hook = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets (or with nil, removes) what runs after each run of outline glyphs.
    package static func onOutlineGlyphs(_ body: (@Sendable () -> Void)?) { hook.withLock { $0 = body } }

    static func outlineGlyphsFilled() {
        let body = hook.withLock { $0 }
        body?()
    }

    private static let cairoGlyphsHook = Locked<(@Sendable () -> Void)?>(nil)
    private static let layoutHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets (or with nil, removes) what runs after each run drawn through
    /// Cairo's glyph API (PDF text), with the render's font hold held.
    package static func onCairoGlyphs(_ body: (@Sendable () -> Void)?) { cairoGlyphsHook.withLock { $0 = body } }
    /// Sets (or with nil, removes) what runs after each Pango layout a text
    /// shaping makes (in the middle of shaping).
    package static func onLayout(_ body: (@Sendable () -> Void)?) { layoutHook.withLock { $0 = body } }

    static func cairoGlyphsDrawn() {
        let body = cairoGlyphsHook.withLock { $0 }
        body?()
    }

    static func layoutMade() {
        let body = layoutHook.withLock { $0 }
        body?()
    }

    private static let cairoShapingHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets (or with nil, removes) what runs each time a text is shaped
    /// with PangoCairo under the font lock.
    package static func onCairoShaping(_ body: (@Sendable () -> Void)?) { cairoShapingHook.withLock { $0 = body } }

    static func shapingWithCairo() {
        let body = cairoShapingHook.withLock { $0 }
        body?()
    }

    private static let tileHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Sets (or with nil, removes) what runs after each pattern tile painted.
    package static func onTilePainted(_ body: (@Sendable () -> Void)?) { tileHook.withLock { $0 = body } }

    static func tilePainted() {
        let body = tileHook.withLock { $0 }
        body?()
    }
    #else
    @inline(__always) static func outlineGlyphsFilled() {}
    @inline(__always) static func tilePainted() {}
    @inline(__always) static func cairoGlyphsDrawn() {}
    @inline(__always) static func layoutMade() {}
    @inline(__always) static func shapingWithCairo() {}
    #endif
}
