import EaselModel

/// A debug build's window into painting, for tests of concurrency that wait
/// on events rather than on a clock: `outlineGlyphsFilled` runs on the
/// painting thread after each run of glyphs is filled as outlines, with no
/// lock of Easel's held, so a test can hold two renders there at once —
/// which a process-wide font lock would make impossible.
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
    #else
    @inline(__always) static func outlineGlyphsFilled() {}
    #endif
}
