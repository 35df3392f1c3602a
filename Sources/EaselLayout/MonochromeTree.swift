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
            _ = table.add(.fixed(ResolvedPaint(kind: .solid(Color(red: 0, green: 0, blue: 0, alpha: Self.coverage(paint.kind))),
                                               opacity: paint.opacity)))
        }
        let black = table.add(.fixed(ResolvedPaint(kind: .solid(.black), opacity: 1)))
        var tree = self
        tree.paints = table
        tree.background = background.alpha > 0 ? Color(red: 0, green: 0, blue: 0, alpha: background.alpha) : background
        tree.nodes = Self.tinted(nodes, black)
        return tree
    }

    /// The largest alpha a paint of this kind reaches.
    private static func coverage(_ kind: ResolvedPaint.Kind) -> Double {
        switch kind {
        case .solid(let c): return c.alpha
        case .linear(let g): return g.stops.map(\.color.alpha).max() ?? 0
        case .radial(let g): return g.stops.map(\.color.alpha).max() ?? 0
        case .conic(let g): return g.sectors.flatMap { [$0.startColor.alpha, $0.endColor.alpha] }.max() ?? 0
        case .stripes(let s): return max(s.color.alpha, s.background?.alpha ?? 0)
        case .pattern: return 1
        case .crossFade(let a, let b, _): return max(coverage(a.kind), coverage(b.kind))
        }
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
