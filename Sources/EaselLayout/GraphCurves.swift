import EaselModel
import Glibc

extension GraphGeometry {
    /// The runs of points between gaps (`missing="gap"`), each drawn as
    /// its own line; a run of one point draws no line but keeps its dot.
    public static func runs(_ p: [Point]) -> [[Point]] {
        guard p.contains(where: { $0.y.isNaN }) else { return [p] }
        return p.split(whereSeparator: { $0.y.isNaN }).map(Array.init)
    }

    /// The line through the points: straight segments, or a monotone cubic
    /// (Fritsch–Carlson, with the tangents of d3's `curveMonotoneX`) that
    /// never leaves the range of two neighbouring values.
    public static func curve(_ p: [Point], _ kind: GraphCurve) -> BezierPath {
        var path = BezierPath()
        guard let first = p.first else { return path }
        path.move(to: first)
        if kind == .linear || p.count < 3 {
            for q in p.dropFirst() { path.line(to: q) }
            return path
        }
        let m = monotoneTangents(p)
        for i in 0..<(p.count - 1) {
            let dx = (p[i + 1].x - p[i].x) / 3
            path.curve(to: p[i + 1], control1: Point(p[i].x + dx, p[i].y + dx * m[i]),
                       control2: Point(p[i + 1].x - dx, p[i + 1].y - dx * m[i + 1]))
        }
        return path
    }

    /// dy/dx at each point. Inside: zero at a local extremum, else the
    /// harmonic-style mean limited to three times the smaller secant
    /// (Fritsch–Carlson); at the ends, the one-sided three-point estimate.
    static func monotoneTangents(_ p: [Point]) -> [Double] {
        let n = p.count
        var h: [Double] = [], s: [Double] = []
        for i in 0..<(n - 1) {
            let dx = p[i + 1].x - p[i].x
            h.append(dx)
            s.append(dx == 0 ? 0 : (p[i + 1].y - p[i].y) / dx)
        }
        func sign(_ v: Double) -> Double { v < 0 ? -1 : (v > 0 ? 1 : 0) }
        var m = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            let (h0, h1, s0, s1) = (h[i - 1], h[i], s[i - 1], s[i])
            let mid = (h0 + h1) == 0 ? 0 : (s0 * h1 + s1 * h0) / (h0 + h1)
            m[i] = (sign(s0) + sign(s1)) * Swift.min(abs(s0), abs(s1), 0.5 * abs(mid))
        }
        func end(_ hh: Double, _ ss: Double, _ t: Double) -> Double {
            hh == 0 ? t : (3 * ss - t) / 2
        }
        m[0] = end(h[0], s[0], m[1])
        m[n - 1] = end(h[n - 2], s[n - 2], m[n - 2])
        // Keep the end tangents inside the monotone region too.
        if sign(m[0]) != sign(s[0]) { m[0] = 0 } else if abs(m[0]) > 3 * abs(s[0]) { m[0] = 3 * s[0] }
        if sign(m[n - 1]) != sign(s[n - 2]) { m[n - 1] = 0 } else if abs(m[n - 1]) > 3 * abs(s[n - 2]) { m[n - 1] = 3 * s[n - 2] }
        return m
    }
}
