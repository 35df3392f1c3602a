/// A length as written in a scene: points, a percentage of the parent's
/// content box, or `fill` (the whole content box along that axis).
public enum Length: Hashable, Sendable {
    case points(Double)
    case percent(Double)
    case fill

    /// Resolves against `reference`, the parent's content size on this axis.
    public func resolve(against reference: Double) -> Double {
        switch self {
        case .points(let v): return v
        case .percent(let p): return p / 100 * reference
        case .fill: return reference
        }
    }
}
