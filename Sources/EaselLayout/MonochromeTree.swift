import EaselModel

extension RenderTree {
    /// The tree in one colour, keeping where and how strongly it paints:
    /// every paint black with its own alpha (a gradient's stops keep theirs)
    /// and opacity, every picture tinted black (its alpha kept). Android's themed icons use only a monochrome layer's alpha
    /// (`easel build --android-monochrome auto` makes it from the foreground).
    public func monochrome() -> RenderTree {
        var table = PaintTable()
        for id in paints.ids {
            let paint = paints.paint(id, at: 0)
            _ = table.add(.fixed(ResolvedPaint(kind: paint.kind.inBlack, opacity: paint.opacity)))
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
    /// The paint with every colour black, its alpha and geometry kept (a
    /// pattern keeps its tile, whose own paints are turned black with the
    /// rest of the table).
    public var inBlack: ResolvedPaint.Kind {
        func black(_ c: Color) -> Color { Color(red: 0, green: 0, blue: 0, alpha: c.alpha) }
        func blackStops(_ stops: [ShadingStop]) -> [ShadingStop] { stops.map { ShadingStop(offset: $0.offset, color: black($0.color)) } }
        switch self {
        case .solid(let c): return .solid(black(c))
        case .linear(var g): g.stops = blackStops(g.stops); g.rasterStops = g.rasterStops.map(blackStops); return .linear(g)
        case .radial(var g): g.stops = blackStops(g.stops); g.rasterStops = g.rasterStops.map(blackStops); return .radial(g)
        case .conic(var g):
            func blackSectors(_ sectors: [ConicSector]) -> [ConicSector] {
                sectors.map { var s = $0; s.startColor = black(s.startColor); s.endColor = black(s.endColor); return s }
            }
            g.sectors = blackSectors(g.sectors); g.rasterSectors = g.rasterSectors.map(blackSectors)
            return .conic(g)
        case .stripes(var st): st.color = black(st.color); st.background = st.background.map(black); return .stripes(st)
        case .pattern: return self
        case .crossFade(let a, let b, let p):
            return .crossFade(ResolvedPaint(kind: a.kind.inBlack, opacity: a.opacity), ResolvedPaint(kind: b.kind.inBlack, opacity: b.opacity), p)
        }
    }

    /// The one alpha the paint has everywhere, if it has one (a gradient
    /// whose stops all have it); nil when it varies.
    public var uniformAlpha: Double? {
        func one(_ alphas: [Double]) -> Double? { alphas.allSatisfy { $0 == alphas.first } ? alphas.first : nil }
        switch self {
        case .solid(let c): return c.alpha
        case .linear(let g): return one(g.stops.map(\.color.alpha))
        case .radial(let g): return one(g.stops.map(\.color.alpha))
        case .conic(let g): return one(g.sectors.flatMap { [$0.startColor.alpha, $0.endColor.alpha] })
        case .stripes, .pattern, .crossFade: return nil
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
        transformed(.translation(dx, dy))
    }

    /// The paint as seen from a space `m` maps the paint's space into (its
    /// gradient matrix after `m`); nil for stripes under more than a move,
    /// and for patterns and cross-fades.
    public func transformed(_ m: AffineTransform) -> ResolvedPaint.Kind? {
        switch self {
        case .solid: return self
        case .linear(var g): g.matrix = m.concatenating(g.matrix); return .linear(g)
        case .radial(var g): g.matrix = m.concatenating(g.matrix); return .radial(g)
        case .conic(var g): g.matrix = m.concatenating(g.matrix); return .conic(g)
        case .stripes(var s):
            guard m.a == 1, m.b == 0, m.c == 0, m.d == 1 else { return nil }
            s.origin = Point(s.origin.x + m.tx, s.origin.y + m.ty)
            return .stripes(s)
        case .pattern, .crossFade: return nil
        }
    }
}
