/// The one walk over the AST that every check shares: a new node kind is
/// handled here once (the switches list every case), not in each pass.
extension Node {
    /// Nodes painted as part of this one that are not among `children`:
    /// the `<text>` layers of a line graph.
    public var embeddedNodes: [Node] {
        switch kind {
        case .lineGraph(let g):
            return g.items.compactMap { entry in
                if case .text(let node) = entry.item { return node }
                return nil
            }
        case .view, .rect, .ellipse, .shape, .group, .repeat, .image, .text, .stack:
            return []
        }
    }

    /// The paints this node itself uses (fills and strokes, its graph
    /// layers' included), not those of the nodes below it.
    public var ownPaints: [Paint] {
        switch kind {
        case .view, .rect, .ellipse, .shape, .stack:
            let style = kind.paintStyle
            return [style?.fill, style?.stroke].compactMap { $0 }
        case .text(let t):
            return [t.fill]
        case .lineGraph(let g):
            func paints(_ item: GraphItem) -> [Paint] {
                switch item {
                case .area(let s, _, _), .line(let s, _, _), .points(_, let s, _), .grid(_, let s, _, _): return [s.fill, s.stroke]
                case .xLabels(_, let fill, _, _), .yLabels(_, let fill, _, _): return [fill]
                case .axis(let a): return [a.fill, a.stroke.stroke]
                case .legend(let l): return [l.fill]
                case .bars(let b): return [b.style.fill, b.style.stroke]
                case .rule(let r): return [r.style.stroke] + [r.label?.fill].compactMap { $0 }
                case .band(let b): return [b.style.fill] + [b.label?.fill].compactMap { $0 }
                case .series(let s): return s.items.flatMap { paints($0.item) }
                case .text: return []   // an embedded node, visited on its own
                }
            }
            return g.items.flatMap { paints($0.item) }
        case .image(_, _, let tint):
            return [tint].compactMap { $0 }
        case .group, .repeat:
            return []
        }
    }

    /// Visits this node, then everything below it (children and embedded
    /// nodes), depth first, parents before children.
    public func walk(_ visit: (Node) -> Void) {
        visit(self)
        for child in children { child.walk(visit) }
        for inner in embeddedNodes { inner.walk(visit) }
    }

    /// Folds the subtree bottom-up: `combine` gets a node and the folded
    /// values of its children and embedded nodes.
    public func fold<T>(_ combine: (Node, [T]) -> T) -> T {
        combine(self, (children + embeddedNodes).map { $0.fold(combine) })
    }
}

extension Scene {
    /// The roots of everything the scene paints: its nodes, and the
    /// children of its pattern tiles (in the order of their ids).
    public var paintedRoots: [Node] {
        var roots = nodes
        for server in definitions.paintServers.values.sorted(by: { $0.id < $1.id }) {
            if case .pattern(let tile) = server.server { roots += tile.children }
        }
        return roots
    }
}
