import EaselModel

/// What a layout pass did, counted: the work budget is charged from it,
/// and tests hold layout to linear time by counting it, not timing it.
///
/// Units are about a microsecond each on the machine the budget was set
/// on (bench/run --only layout): a node measured costs one, a text shaped
/// or measured costs `textCall` plus one per character.
public struct LayoutWork: Hashable, Sendable {
    /// Nodes measured (a node measured again at a proposal it was already
    /// measured at is served from the pass's cache and not counted).
    public var measurements = 0
    /// Calls into the text engine: measuring, shaping, fitting probes.
    public var textCalls = 0
    /// Characters those calls shaped, together.
    public var textCharacters = 0
    /// Shapes of clip paths resolved (each clip once per box size).
    public var clipShapes = 0
    /// Work charged in all, in units.
    public var charged = 0.0
    /// Where the budget ran out: the node being laid out. The rest of the
    /// pass measured nothing and shaped no text; the tree is not painted.
    public var exhaustedAt: SourceLocation?

    public static let perMeasurement = 1.0
    public static let textCall = 5.0
    public static let perTextCharacter = 1.0
    public init() {}

    /// Hyphens, slashes and the tsheg: lines break after them.
    static let breaksAfter: Set<Unicode.Scalar> = ["-", "/", "\u{00AD}", "\u{2010}", "\u{2013}", "\u{2014}", "\u{0F0B}"]

    /// Runs shorter than this are words: wrapping them is linear.
    public static let longRun = 100
    /// Pango 1.50 wraps a long run with no space or ideograph in it
    /// (`xxxx…`, or letters followed by thousands of U+200B/U+2060) in
    /// time that grows with the square of the run's length: it reshapes
    /// the rest of the run at each forced break and rescans it at each
    /// break opportunity. Measured on the budget's machine, 8,000 such
    /// characters took 0.5–2.5 s per call and 16,000 four times that
    /// (n²/25 µs at worst). A call that wraps is charged that square for
    /// every run longer than `longRun`, before it is made, so such a text
    /// stops with the budget's error instead of running for minutes;
    /// words, CJK and text that does not wrap are charged nothing here.
    public static func wrapCost(of text: String) -> Double {
        var cost = 0.0, run = 0
        func endRun() {
            if run > longRun { cost += Double(run) * Double(run) / 25 }
            run = 0
        }
        for scalar in text.unicodeScalars {
            let p = scalar.properties
            // A space, an ideograph (or kana), a hyphen, a slash or a
            // Tibetan tsheg is a break opportunity Pango takes without
            // reshaping (16,000 characters of 'a-', 'ab/' or Tibetan
            // syllables wrap in 0.1–0.3 s). Zero-width spaces are not: a
            // line of them is what Pango scans at every opportunity.
            if p.isWhitespace || p.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || Self.breaksAfter.contains(scalar) {
                endRun()
            } else {
                run += 1
            }
        }
        endRun()
        return cost
    }

    /// The error of a pass that ran out of budget, located at the node it
    /// was laying out; nil if it did not.
    public func exhaustedError(limit: Double) -> Diagnostic? {
        exhaustedAt.map { Diagnostic(.error, .layoutBudgetExceeded(limit), at: $0) }
    }
}

extension Diagnostic.Message {
    static func layoutBudgetExceeded(_ limit: Double) -> Self {
        .init(.workTooLarge, "laying this scene out would cost more than \(limit.wholeNumberText) layout units (about \((limit / 1e5).rounded() / 10) s; it stopped at this element; raise the limit with --max-layout)")
    }
}
