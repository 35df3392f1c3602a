import EaselModel

/// The union of `shapes` (each with its own rule, optionally clipped
/// itself), intersected with `within` when the clip path is clipped too.
public struct ResolvedClip: Hashable, Sendable {
    public struct Shape: Hashable, Sendable {
        public let path: BezierPath
        public let rule: FillRule
        public let clip: [ResolvedClip]
        /// What tessellating `path` costs, estimated once (`PathCrossings`).
        public let crossings: PathCrossings.Estimate
        public init(path: BezierPath, rule: FillRule, clip: [ResolvedClip]) {
            self.path = path; self.rule = rule; self.clip = clip
            crossings = PathCrossings.estimate(path)
        }
    }
    public var shapes: [Shape]
    public var within: [ResolvedClip]

    public init(shapes: [Shape], within: [ResolvedClip]) {
        self.shapes = shapes
        self.within = within
    }

    public func applying(_ t: AffineTransform) -> ResolvedClip {
        ResolvedClip(
            shapes: shapes.map { Shape(path: $0.path.applying(t), rule: $0.rule, clip: $0.clip.map { $0.applying(t) }) },
            within: within.map { $0.applying(t) })
    }
}
