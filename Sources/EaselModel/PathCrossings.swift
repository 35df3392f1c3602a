/// How hard a path is for Cairo to fill or stroke. Cairo's tessellator
/// sweeps the path's edges (Bentley–Ottmann), so its time grows with the
/// edges and with the points where they cross — up to the square of the
/// edges for a scribble: 10,000 random line segments cross 11 million times
/// and take 7 s to fill. The crossings are counted exactly for small paths
/// and estimated from a fixed sample of edge pairs for large ones (the same
/// sample every time, so a scene fails or renders the same way on every
/// run); the paint budget charges them before Cairo sees the path. Estimated once
/// per path, as the render tree is built (`RenderPath.crossings`,
/// `ResolvedClip.Shape.crossings`): a path a repeat draws 10,000 times is
/// sampled once.
public enum PathCrossings {
    public struct Estimate: Hashable, Sendable {
        public var edges: Int
        public var crossings: Double
    }

    /// Pairs tested at most; below this a path's pairs are all tested.
    static let samplePairs = 20_000

    public static func estimate(_ path: BezierPath) -> Estimate {
        if let n = convexLoopEdges(path) { return Estimate(edges: n, crossings: 0) }
        let edges = self.edges(of: path)
        let n = edges.count
        guard n > 3 else { return Estimate(edges: n, crossings: 0) }
        let pairs = Double(n) * Double(n - 1) / 2
        if pairs <= Double(samplePairs) {
            var count = 0
            for i in 0..<n {
                for j in (i + 1)..<n where cross(edges[i], edges[j]) { count += 1 }
            }
            return Estimate(edges: n, crossings: Double(count))
        }
        // SplitMix64 from a fixed seed: the same pairs for the same path.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(n)
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var hits = 0, tested = 0
        while tested < samplePairs {
            let i = Int(next() % UInt64(n)), j = Int(next() % UInt64(n))
            guard i != j else { continue }
            tested += 1
            if cross(edges[i], edges[j]) { hits += 1 }
        }
        return Estimate(edges: n, crossings: Double(hits) / Double(tested) * pairs)
    }

    /// Whether the path is one outline that does not cross itself (so the
    /// non-zero and even-odd rules fill it alike, and turning it round
    /// makes its winding the other sign everywhere inside): convex ones at
    /// once, others of up to 400 edges by testing every pair; nil past that.
    public static func isSimpleLoop(_ path: BezierPath) -> Bool? {
        let moves = path.elements.reduce(0) { n, e in if case .move = e { return n + 1 } else { return n } }
        guard moves == 1 else { return false }
        if convexLoopEdges(path) != nil { return true }
        let edges = self.edges(of: path)
        guard edges.count <= 400 else { return nil }
        for i in edges.indices {
            for j in (i + 1)..<edges.count where cross(edges[i], edges[j]) { return false }
        }
        return true
    }

    /// The edge count of a path that is one loop whose control polygon is
    /// convex (every rect, rounded rect, circle and ellipse): it cannot cross
    /// itself, and nothing needs to be allocated to know. Convex: every turn
    /// the same way, and the edges reverse horizontal and vertical direction
    /// at most twice each (a star turns one way too, but reverses more).
    static func convexLoopEdges(_ path: BezierPath) -> Int? {
        var count = 0, moves = 0, turn = 0.0
        var start = Point(0, 0), current = Point(0, 0), last: Point? = nil
        var xFlips = 0, yFlips = 0, lastDX = 0.0, lastDY = 0.0
        func edge(to p: Point) -> Bool {
            let d = Point(p.x - current.x, p.y - current.y)
            guard d.x != 0 || d.y != 0 else { return true }
            if let l = last {
                let cross = l.x * d.y - l.y * d.x
                if cross != 0 {
                    if turn != 0, (cross > 0) != (turn > 0) { return false }
                    turn = cross
                }
            }
            if d.x != 0 { if lastDX != 0, (d.x > 0) != (lastDX > 0) { xFlips += 1 }; lastDX = d.x }
            if d.y != 0 { if lastDY != 0, (d.y > 0) != (lastDY > 0) { yFlips += 1 }; lastDY = d.y }
            last = d
            current = p
            count += 1
            return true
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                moves += 1
                guard moves == 1 else { return nil }
                start = p; current = p
            case .line(let p): guard edge(to: p) else { return nil }
            case .cubic(let c1, let c2, let p): guard edge(to: c1), edge(to: c2), edge(to: p) else { return nil }
            case .close: guard edge(to: start) else { return nil }
            }
        }
        guard edge(to: start) else { return nil }   // an open path closes when filled
        // The turn from the closing edge back to the first is not checked;
        // the reversal counts bound the loop to one winding.
        return xFlips <= 2 && yFlips <= 2 ? count : nil
    }

    /// The path's edges, a curve standing for its control polygon (which
    /// contains it).
    public static func edges(of path: BezierPath) -> [(Point, Point)] {
        var out: [(Point, Point)] = []
        var current = Point(0, 0), start = Point(0, 0)
        for e in path.elements {
            switch e {
            case .move(let p): current = p; start = p
            case .line(let p): out.append((current, p)); current = p
            case .cubic(let c1, let c2, let p):
                out.append((current, c1)); out.append((c1, c2)); out.append((c2, p)); current = p
            case .close:
                if current != start { out.append((current, start)) }
                current = start
            }
        }
        return out
    }

    /// The two segments cross at a point inside both (not at a shared end).
    static func cross(_ a: (Point, Point), _ b: (Point, Point)) -> Bool {
        func orient(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let o1 = orient(a.0, a.1, b.0), o2 = orient(a.0, a.1, b.1)
        let o3 = orient(b.0, b.1, a.0), o4 = orient(b.0, b.1, a.1)
        return o1 * o2 < 0 && o3 * o4 < 0
    }
}
