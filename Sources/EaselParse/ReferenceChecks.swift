import EaselModel

/// References between definitions and nodes: `url(#id)` values, unknown
/// names, cycles, and the painted-node budget.
extension SceneBuilder {
    /// A `url(#id)` naming a clip path (paints go through `paint`).
    func clipReference(_ el: XMLElement, _ name: String) -> String? {
        guard let a = el.attribute(name) else { return nil }
        let t = a.value.trimmingSpaces
        guard let id = urlReference(t) else {
            diagnostics.error(.badList(name, a.value, "url(#id)"), on: a)
            return nil
        }
        clipReferences.append((id, a.valueLocation))
        return id
    }

    func urlReference(_ t: String) -> String? {
        guard t.hasPrefix("url(#"), t.hasSuffix(")") else { return nil }
        let id = String(t.dropFirst(5).dropLast())
        return id.isEmpty ? nil : id
    }

    func paint(_ el: XMLElement, _ name: String) -> Paint? {
        guard let a = el.attribute(name) else { return nil }
        let t = a.value.trimmingSpaces
        if t == "none" { return Paint.none }
        if t.hasPrefix("url(") {
            guard let id = urlReference(t) else {
                diagnostics.error(.badPaint(a.value), on: a)
                return nil
            }
            paintReferences.append((id, a.valueLocation))
            return .reference(id)
        }
        if let c = ColorParser.parse(t, palette: palette) {
            noteGamut(c, t, a.valueLocation)
            return .color(c)
        }
        diagnostics.error(.badColor(a.value, suggestion: colorSuggestion(t)), on: a)
        return nil
    }

    func checkReferences(_ defs: Definitions) {
        for (id, loc) in paintReferences where defs.paintServers[id] == nil && !(paintServerIDs.contains(id)) {
            diagnostics.error(.unknownPaintServer(id, suggestion: Suggestion.nearest(to: id, in: paintServerIDs)), at: loc)
        }
        for (id, loc) in clipReferences where defs.clipPaths[id] == nil && !clipPathIDs.contains(id) {
            diagnostics.error(.unknownClipPath(id, suggestion: Suggestion.nearest(to: id, in: clipPathIDs)), at: loc)
        }
        // A clip path may be clipped by another (on itself or on its shapes);
        // following those edges must never come back to where it started.
        func edges(_ c: ClipPathDefinition) -> [String] {
            ([c.clipPath] + c.shapes.map(\.common.clipPath)).compactMap { $0 }
        }
        findCycles(in: defs.clipPaths.mapValues(edges), locations: defs.clipPaths.mapValues(\.location))
        // A pattern's children may be painted with paint servers, patterns
        // among them; none may lead back to the pattern being painted.
        var paintEdges: [String: [String]] = [:]
        for (id, def) in defs.paintServers {
            if case .pattern(let tile) = def.server { paintEdges[id] = tile.children.flatMap(referencedPaintIDs) }
        }
        findCycles(in: paintEdges, locations: defs.paintServers.mapValues(\.location))
    }

    /// The paint servers a node and everything below it name.
    func referencedPaintIDs(in node: Node) -> [String] {
        var ids: [String] = []
        node.walk { ids += Self.serverIDs($0.ownPaints) }
        return ids
    }

    static func serverIDs(_ paints: [Paint]) -> [String] {
        paints.compactMap { paint in
            if case .reference(let id) = paint { return id }
            return nil
        }
    }

    /// Reports each reference cycle in a graph of ids once, and a chain of
    /// references longer than `Limits.maxDepthCeiling` (layout and painting
    /// follow a chain by recursion: a chain of 30,000 clip paths or patterns
    /// would overflow the stack). An explicit stack, not recursion, and the
    /// path held once (not copied per step).
    func findCycles(in graph: [String: [String]], locations: [String: SourceLocation]) {
        var state: [String: Int] = [:]   // 1 visiting, 2 done
        var depth: [String: Int] = [:]   // the longest chain from a finished id
        for root in graph.keys.sorted() where state[root] == nil {
            var path: [String] = [root]
            var stack: [(id: String, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                let edges = graph[top.id] ?? []
                guard top.next < edges.count else {
                    let d = 1 + (edges.compactMap { depth[$0] }.max() ?? 0)
                    depth[top.id] = d
                    if d > Limits.maxDepthCeiling {
                        diagnostics.error(.referencesTooDeep(Limits.maxDepthCeiling), at: locations[top.id])
                        referenceChainTooDeep = true
                        return
                    }
                    state[top.id] = 2
                    stack.removeLast()
                    path.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let n = edges[top.next]
                guard graph[n] != nil, state[n] != 2 else { continue }
                if state[n] == 1 {
                    let cycle = Array(path.drop(while: { $0 != n })) + [n]
                    diagnostics.error(.referenceCycle(cycle), at: locations[cycle[0]])
                    return
                }
                state[n] = 1
                path.append(n)
                stack.append((n, 0))
            }
        }
    }

    /// Counts painted nodes after expanding repeats, and the contents of a
    /// pattern once for every node it fills (a tile is drawn per use), so
    /// that nested repeats and patterns of patterns cannot explode.
    func checkNodeCount(_ scene: Scene) {
        let limit = Double(limits.maxNodes)
        var patternWeights: [String: Double] = [:]
        var visiting: Set<String> = []
        var reportedRepeat = false
        func patternWeight(_ id: String) -> Double {
            if let w = patternWeights[id] { return w }
            guard case .pattern(let tile)? = scene.definitions.paintServers[id]?.server, !visiting.contains(id) else { return 0 }
            visiting.insert(id)
            let w = tile.children.reduce(0) { $0 + count($1, report: false) }
            visiting.remove(id)
            patternWeights[id] = w
            return w
        }
        /// The node itself: 1, a circle per value for each points layer of a
        /// graph, and the tiles of the patterns it paints with.
        func ownWeight(_ n: Node) -> Double {
            var dots = 0.0
            if case .lineGraph(let g) = n.kind {
                func isPoints(_ e: GraphEntry) -> Bool { if case .points = e.item { return true } else { return false } }
                let layers = g.items.filter(isPoints).count
                dots = Double(g.values.count) * Double(g.items.contains(where: \.item.isLayer) ? layers : 1)
                for s in g.series {
                    dots += Double(s.values.count) * Double(s.items.isEmpty ? 1 : s.items.filter(isPoints).count)
                }
            }
            // A text's spans are nodes too: each is a stretch the shaper and painter handle.
            if case .text(let t) = n.kind { dots += Double(t.spans.count) }
            // An SVG image's elements, its references expanded.
            if case .image(let source, _, _) = n.kind, let svg = source.vector { dots += svg.work.elements }
            return 1 + dots + Self.serverIDs(n.ownPaints).reduce(0) { $0 + patternWeight($1) }
        }
        func count(_ root: Node, report: Bool) -> Double {
            root.fold { (n: Node, inner: [Double]) -> Double in
                let own = ownWeight(n), below = inner.reduce(0, +)
                guard case .repeat(let k, _) = n.kind else { return own + below }
                let total = own + Double(k) * below
                guard total > limit else { return total }
                if report {
                    diagnostics.error(.tooManyNodes(total, limits.maxNodes), at: n.location)
                    reportedRepeat = true
                }
                return report ? own : total   // report each offending repeat once, not its ancestors
            }
        }
        let total = scene.nodes.reduce(0) { $0 + count($1, report: true) }
        if total > limit, !reportedRepeat {
            diagnostics.error(.tooManyNodes(total, limits.maxNodes), at: scene.location)
        }
    }
}
