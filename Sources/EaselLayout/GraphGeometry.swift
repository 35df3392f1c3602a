import EaselModel

/// The contract's graph geometry (docs/format.md, "Line graphs").
public enum GraphGeometry {
    /// `min` defaults to the smaller of 0 and the data's minimum, `max` to
    /// the data's maximum (over every series, gaps left out); an empty range
    /// becomes [min, min + 1]; a `<yAxis nice>` then widens it as d3's
    /// `nice()` does.
    public static func range(_ g: LineGraph) -> (min: Double, max: Double) {
        // Over every series without copying them (a graph may hold millions).
        var least = Double.infinity, most = -Double.infinity
        for values in [g.values] + g.series.map(\.values) {
            for v in values where !v.isNaN {
                least = Swift.min(least, v)
                most = Swift.max(most, v)
            }
        }
        let any = least <= most
        let lo = g.min ?? Swift.min(0, any ? least : 0)
        let hi = g.max ?? (any ? most : 1)
        let range = hi == lo ? (lo, lo + 1) : (lo, hi)
        guard let axis = g.axis(.y), axis.nice else { return range }
        return NumericTicks.nice(range.0, range.1)
    }

    /// Where value `v` lies: plot.bottom − (v − min)/(max − min)·plot.height.
    public static func y(of v: Double, _ g: LineGraph, plot: Rect) -> Double {
        let (lo, hi) = range(g)
        return plot.maxY - (v - lo) / (hi - lo) * plot.height
    }

    /// The x range of a graph placed by value (`x-column`): the smallest
    /// and largest x of every series, widened by an `<xAxis nice>` (over
    /// d3's time intervals for dates); nil for a graph placed by index.
    public static func xDomain(_ g: LineGraph) -> (min: Double, max: Double)? {
        let all = [g.x].compactMap { $0 } + g.series.compactMap(\.x)
        guard !all.isEmpty else { return nil }
        let lo = all.compactMap(\.first).min() ?? 0, hi = all.compactMap(\.last).max() ?? 0
        guard let axis = g.axis(.x), axis.nice, hi > lo else { return (lo, hi) }
        return g.xIsTime ? TimeTicks.nice(lo, hi) : NumericTicks.nice(lo, hi)
    }

    /// How many points a graph placed by index spreads over the plot's
    /// width: its own, or its longest series' (point i is at the same x in
    /// every series).
    public static func indexCount(_ g: LineGraph) -> Int {
        g.series.isEmpty ? g.values.count : g.series.map(\.values.count).max() ?? 0
    }

    /// Where x value `v` lies (a graph placed by value); the plot's centre
    /// when every x is the same.
    public static func x(of v: Double, domain: (min: Double, max: Double), plot: Rect) -> Double {
        domain.max == domain.min ? plot.center.x : plot.minX + (v - domain.min) / (domain.max - domain.min) * plot.width
    }

    /// Point i at x = plot.left + i·plot.width/(n−1) (n = 1: the plot's
    /// centre) and y = plot.bottom − (v − min)/(max − min)·plot.height.
    public static func points(_ g: LineGraph, plot: Rect) -> [Point] {
        points(g.values, x: g.x, g, plot: plot)
    }

    /// A series' points: by index as above, or by its x values. A gap
    /// (NaN) keeps its x and has a NaN y.
    public static func points(_ values: [Double], x: [Double]?, _ g: LineGraph, plot: Rect,
                              range known: (min: Double, max: Double)? = nil) -> [Point] {
        let (lo, hi) = known ?? range(g)
        if let x, let domain = xDomain(g) {
            return zip(values, x).map { v, xv in Point(Self.x(of: xv, domain: domain, plot: plot), plot.maxY - (v - lo) / (hi - lo) * plot.height) }
        }
        let n = g.series.isEmpty ? values.count : indexCount(g)
        return values.enumerated().map { i, v in
            let x = n == 1 ? plot.center.x : plot.minX + Double(i) * plot.width / Double(n - 1)
            return Point(x, plot.maxY - (v - lo) / (hi - lo) * plot.height)
        }
    }

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

    /// The points of a `<points>` layer that draw something of their own:
    /// the first point in each square `cell` of the plot (points lie in
    /// increasing x, so one column of cells is held at a time). Dots are
    /// filled as one path, so a dot over another adds nothing; a dot whose
    /// centre is within a cell of a kept one moves its disc's edge by at
    /// most a cell's diagonal.
    public static func mergedPerCell(_ p: [Point], cell: Double) -> [Point] {
        guard cell > 0, cell.isFinite else { return p }
        var out: [Point] = []
        var column = Int.min
        var rows = Set<Int>()
        for point in p {
            let cx = (point.x / cell).rounded(.down), cy = (point.y / cell).rounded(.down)
            guard abs(cx) < 1e15, abs(cy) < 1e15 else { out.append(point); continue }
            if Int(cx) != column { column = Int(cx); rows.removeAll(keepingCapacity: true) }
            if rows.insert(Int(cy)).inserted { out.append(point) }
        }
        return out
    }

    /// Fewer points that draw the same straight-segment line: within each of
    /// `columns` equal slices of the plot's width keep the first, lowest,
    /// highest and last point (the M4 reduction). With slices well under a
    /// pixel, the line covers the same pixels as the full series.
    public static func decimated(_ p: [Point], plot: Rect, columns: Int) -> [Point] {
        guard columns > 0, p.count > 4 * columns, plot.width > 0, plot.width.isFinite else { return p }
        var out: [Point] = []
        out.reserveCapacity(4 * columns + 4)
        var i = 0
        while i < p.count {
            let column = Swift.min(columns - 1, Swift.max(0, Int((p[i].x - plot.minX) / plot.width * Double(columns))))
            var j = i, lo = i, hi = i
            while j < p.count,
                  Swift.min(columns - 1, Swift.max(0, Int((p[j].x - plot.minX) / plot.width * Double(columns)))) == column {
                if p[j].y < p[lo].y { lo = j }
                if p[j].y > p[hi].y { hi = j }
                j += 1
            }
            for k in Set([i, lo, hi, j - 1]).sorted() { out.append(p[k]) }
            i = j
        }
        return out
    }
}
