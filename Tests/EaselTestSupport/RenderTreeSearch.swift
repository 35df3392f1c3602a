import Easel

/// The first node of a kind a compiled scene's render tree paints, depth first.
public func firstRenderNode<T>(_ s: CompiledScene, _ pick: (RenderNode) -> T?) -> T? {
    func find(_ nodes: [RenderNode]) -> T? {
        for node in nodes {
            if let hit = pick(node) { return hit }
            if case .group(let g) = node, let hit = find(g.children) { return hit }
        }
        return nil
    }
    return find(s.renderTree.nodes)
}

/// The first path the scene paints: a graph's first layer, in a scene of one graph.
public func firstPath(_ s: CompiledScene) -> RenderPath? {
    firstRenderNode(s) { if case .path(let p) = $0 { return p } else { return nil } }
}

/// The first text the scene paints, with its fills.
public func firstText(_ s: CompiledScene) -> TextDrawing? {
    firstRenderNode(s) { if case .text(let t) = $0 { return t.drawing } else { return nil } }
}
