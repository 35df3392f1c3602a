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
    /// Work charged in all, in units.
    public var charged = 0.0
    /// Where the budget ran out: the node being laid out. The rest of the
    /// pass measured nothing and shaped no text; the tree is not painted.
    public var exhaustedAt: SourceLocation?

    public static let perMeasurement = 1.0
    public static let textCall = 5.0
    public static let perTextCharacter = 1.0
    public init() {}

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
