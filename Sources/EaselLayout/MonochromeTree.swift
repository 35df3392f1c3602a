import EaselModel

extension RenderTree {
    /// The tree in one colour, keeping where and how strongly it paints:
    /// every paint black at its largest alpha (a gradient's most opaque
    /// stop) times its opacity, every picture tinted black (its alpha
    /// kept). Android's themed icons use only a monochrome layer's alpha
    /// (`easel build --android-monochrome auto` makes it from the foreground).
    public func monochrome() -> RenderTree {
        var table = PaintTable()
        for id in paints.ids {
            let paint = paints.paint(id, at: 0)
            _ = table.add(.fixed(ResolvedPaint(kind: .solid(Color(red: 0, green: 0, blue: 0, alpha: paint.kind.largestAlpha)),
                                               opacity: paint.opacity)))
        }
        let black = table.add(.fixed(ResolvedPaint(kind: .solid(.black), opacity: 1)))
        var tree = self
        tree.paints = table
        tree.background = background.alpha > 0 ? Color(red: 0, green: 0, blue: 0, alpha: background.alpha) : background
        tree.nodes = Self.tinted(nodes, black)
        return tree
    }

    private static func tinted(_ nodes: [RenderNode], _ black: PaintID) -> [RenderNode] {
        nodes.map { node in
            switch node {
            case .group(let g):
                return .group(RenderGroup(location: g.location, transform: g.transform, opacity: g.opacity, clip: g.clip,
                                          children: tinted(g.children, black)))
            case .image(var i):
                i.drawing.tint = black
                return .image(i)
            case .path, .text:
                return node
            }
        }
    }
}

extension ResolvedPaint.Kind {
    /// The largest alpha a paint of this kind reaches (a gradient's most
    /// opaque stop; a pattern's tile may be opaque anywhere: 1).
    public var largestAlpha: Double {
        switch self {
        case .solid(let c): return c.alpha
        case .linear(let g): return g.stops.map(\.color.alpha).max() ?? 0
        case .radial(let g): return g.stops.map(\.color.alpha).max() ?? 0
        case .conic(let g): return g.sectors.flatMap { [$0.startColor.alpha, $0.endColor.alpha] }.max() ?? 0
        case .stripes(let s): return max(s.color.alpha, s.background?.alpha ?? 0)
        case .pattern: return 1
        case .crossFade(let a, let b, _): return max(a.kind.largestAlpha, b.kind.largestAlpha)
        }
    }

    /// Whether the paint is opaque everywhere it paints.
    public var isOpaque: Bool {
        switch self {
        case .solid(let c): return c.alpha >= 1
        case .linear(let g): return g.stops.allSatisfy { $0.color.alpha >= 1 }
        case .radial(let g): return g.stops.allSatisfy { $0.color.alpha >= 1 }
        case .conic(let g): return g.sectors.allSatisfy { $0.startColor.alpha >= 1 && $0.endColor.alpha >= 1 }
        case .stripes(let s): return s.background.map { $0.alpha >= 1 } ?? false
        case .pattern, .crossFade: return false
        }
    }

    /// The paint with its geometry moved by (dx, dy), for content drawn in
    /// a space that is the paint's moved (an SVG image's shapes in its box).
    public func moved(_ dx: Double, _ dy: Double) -> ResolvedPaint.Kind? {
        let shift = AffineTransform.translation(dx, dy)
        switch self {
        case .solid: return self
        case .linear(var g): g.matrix = shift.concatenating(g.matrix); return .linear(g)
        case .radial(var g): g.matrix = shift.concatenating(g.matrix); return .radial(g)
        case .conic(var g): g.matrix = shift.concatenating(g.matrix); return .conic(g)
        case .stripes(var s): s.origin = Point(s.origin.x + dx, s.origin.y + dy); return .stripes(s)
        case .pattern, .crossFade: return nil
        }
    }
}
