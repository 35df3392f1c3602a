import EaselModel
import Glibc

/// The contract's graph geometry (docs/format.md, "Line graphs").
public enum GraphGeometry {
    /// `min` defaults to the smaller of 0 and the data's minimum, `max` to
    /// the data's maximum (over every series, gaps left out; over the
    /// stacks' baselines and tops when stacked); an empty range becomes
    /// [min, min + 1]; a `<yAxis nice>` then widens it as d3's `nice()`
    /// does. On a log scale `min` defaults to the data's minimum, an empty
    /// range becomes [min, 10·min] and nice widens to powers of ten.
    public static func range(_ g: LineGraph, stacks: [Stacked]? = nil) -> (min: Double, max: Double) {
        // Over every series without copying them (a graph may hold millions).
        var least = Double.infinity, most = -Double.infinity
        let columns = stacks.map { $0.flatMap { [$0.lower, $0.upper] } } ?? ([g.values] + g.series.map(\.values))
        for values in columns {
            for v in values where !v.isNaN {
                least = Swift.min(least, v)
                most = Swift.max(most, v)
            }
        }
        let any = least <= most
        if g.yScale == .log {
            let lo = g.min ?? (any && least > 0 ? least : 1), hi = g.max ?? (any && most > 0 ? most : 10)
            let range = hi == lo ? (lo, lo * 10) : (lo, hi)
            guard let axis = g.axis(.y), axis.nice else { return range }
            return LogTicks.nice(range.0, range.1)
        }
        let lo = g.min ?? Swift.min(0, any ? least : 0)
        let hi = g.max ?? (any ? most : 1)
        let range = hi == lo ? (lo, lo + 1) : (lo, hi)
        guard let axis = g.axis(.y), axis.nice else { return range }
        return NumericTicks.nice(range.0, range.1)
    }

    /// A stacked series: its baseline (the top of the series below) and
    /// its top, per index.
    public struct Stacked: Sendable {
        public var lower: [Double]
        public var upper: [Double]
    }

    /// d3-shape's `stack` over the `<series>` in document order, aligned by
    /// index, a missing cell counting as 0: `stackOffsetNone` adds each
    /// series to the one below; `stackOffsetExpand` first divides each
    /// index's values by their sum (an index whose values sum to 0 is left
    /// as it is). nil when the graph is not stacked.
    public static func stacks(_ g: LineGraph) -> [Stacked]? {
        guard g.stack != .none else { return nil }
        let series = g.series
        guard !series.isEmpty else { return nil }
        let n = series.map(\.values.count).max() ?? 0
        var columns = series.map { s in (0..<n).map { i in i < s.values.count && !s.values[i].isNaN ? s.values[i] : 0 } }
        if g.stack == .normalize {
            for i in 0..<n {
                var sum = 0.0
                for c in columns { sum += c[i] }
                if sum != 0 { for k in columns.indices { columns[k][i] /= sum } }
            }
        }
        var below = [Double](repeating: 0, count: n)
        var out: [Stacked] = []
        out.reserveCapacity(columns.count)
        for c in columns {
            var top = below
            for i in 0..<n { top[i] += c[i] }
            out.append(Stacked(lower: below, upper: top))
            below = top
        }
        return out
    }

    /// What places a graph's points, found once per graph: each of these
    /// reads every value or every series, so finding them per tick, per
    /// series or per point made a graph's layout quadratic.
    public struct Scale: Sendable {
        public var range: (min: Double, max: Double)
        public var xDomain: (min: Double, max: Double)?
        public var indexCount: Int
        public var kind = GraphScaleKind.linear
        /// Each `<series>`' baseline and top when the graph is stacked.
        public var stacks: [Stacked]?
        /// Whether points sit at the centres of slots (a graph with bars).
        public var banded = false
        /// A banded graph placed by value: the smallest step between
        /// neighbouring x values, the width of a slot in x units.
        public var xStep: Double?

        /// d3's transform for the scale: log10, the signed square root, or none.
        func transform(_ v: Double) -> Double {
            switch kind {
            case .linear: return v
            case .log: return v > 0 ? log10(v) : -.infinity
            case .sqrt: return v < 0 ? -(-v).squareRoot() : v.squareRoot()
            }
        }

        /// Where value `v` lies: plot.bottom − (t(v) − t(min))/(t(max) − t(min))·plot.height.
        public func y(_ v: Double, plot: Rect) -> Double {
            let lo = transform(range.min), hi = transform(range.max)
            return plot.maxY - (transform(v) - lo) / (hi - lo) * plot.height
        }

        /// Where a bar or an area down to zero starts: at 0, or the plot's
        /// bottom (top) when 0 is below (above) the range or not on the scale.
        public func base(plot: Rect) -> Double {
            if kind == .log { return plot.maxY }
            let (lo, hi) = (Swift.min(range.min, range.max), Swift.max(range.min, range.max))
            if 0 < lo { return y(lo, plot: plot) }
            if 0 > hi { return y(hi, plot: plot) }
            return y(0, plot: plot)
        }

        /// The width of one slot in points (a banded graph).
        public func slotWidth(plot: Rect) -> Double {
            if let domain = xDomain, let step = xStep {
                return domain.max == domain.min ? plot.width : step / (domain.max - domain.min) * plot.width
            }
            return indexCount > 0 ? plot.width / Double(indexCount) : plot.width
        }
    }

    public static func scale(_ g: LineGraph) -> Scale {
        let stacks = stacks(g)
        var s = Scale(range: range(g, stacks: stacks), xDomain: nil, indexCount: indexCount(g))
        s.kind = g.yScale
        s.stacks = stacks
        s.banded = g.hasBars
        if s.banded, let xs = allX(g) {
            // Slots centred on each x, the smallest step wide: the domain
            // grows by half a slot on each side so the outer bars fit.
            var values = xs.flatMap { $0 }
            values.sort()
            var step = Double.infinity
            for (a, b) in zip(values, values.dropFirst()) where b > a { step = Swift.min(step, b - a) }
            if !step.isFinite { step = 1 }
            s.xStep = step
            if let lo = values.first, let hi = values.last { s.xDomain = (lo - step / 2, hi + step / 2) }
        } else {
            s.xDomain = xDomain(g)
        }
        return s
    }

    static func allX(_ g: LineGraph) -> [[Double]]? {
        let all = [g.x].compactMap { $0 } + g.series.compactMap(\.x)
        return all.isEmpty ? nil : all
    }

    /// Where value `v` lies: plot.bottom − (v − min)/(max − min)·plot.height
    /// (through the scale's transform on a log or sqrt scale).
    public static func y(of v: Double, _ scale: Scale, plot: Rect) -> Double {
        scale.y(v, plot: plot)
    }

    /// The x range of a graph placed by value (`x-column`): the smallest
    /// and largest x of every series, widened by an `<xAxis nice>` (over
    /// d3's time intervals for dates); nil for a graph placed by index.
    public static func xDomain(_ g: LineGraph) -> (min: Double, max: Double)? {
        guard let all = allX(g) else { return nil }
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

    /// Where index `i` lies on a graph placed by index: i·plot.width/(n−1)
    /// from the left (n = 1: the centre), or on a banded graph the centre
    /// of slot i, (i + ½)·plot.width/n.
    public static func x(ofIndex i: Double, _ scale: Scale, count n: Int, plot: Rect) -> Double {
        if scale.banded { return plot.minX + (i + 0.5) * plot.width / Double(Swift.max(n, 1)) }
        return n == 1 ? plot.center.x : plot.minX + i * plot.width / Double(n - 1)
    }

    /// Point i at x = plot.left + i·plot.width/(n−1) (n = 1: the plot's
    /// centre) and y = plot.bottom − (v − min)/(max − min)·plot.height.
    public static func points(_ g: LineGraph, plot: Rect) -> [Point] {
        points(g.values, x: g.x, g, scale(g), plot: plot)
    }

    /// A series' points: by index as above, or by its x values. A gap
    /// (NaN) keeps its x and has a NaN y.
    public static func points(_ values: [Double], x: [Double]?, _ g: LineGraph, _ scale: Scale, plot: Rect) -> [Point] {
        if scale.kind == .linear {
            // The common cases, without a call or a test per point (a graph
            // may hold millions).
            let (lo, hi) = scale.range
            if let x, let domain = scale.xDomain {
                return zip(values, x).map { v, xv in Point(Self.x(of: xv, domain: domain, plot: plot), plot.maxY - (v - lo) / (hi - lo) * plot.height) }
            }
            if !scale.banded {
                let n = g.series.isEmpty ? values.count : scale.indexCount
                return values.enumerated().map { i, v in
                    let x = n == 1 ? plot.center.x : plot.minX + Double(i) * plot.width / Double(n - 1)
                    return Point(x, plot.maxY - (v - lo) / (hi - lo) * plot.height)
                }
            }
        } else if let x, let domain = scale.xDomain {
            return zip(values, x).map { v, xv in Point(Self.x(of: xv, domain: domain, plot: plot), v.isNaN ? .nan : scale.y(v, plot: plot)) }
        }
        let n = g.series.isEmpty ? values.count : scale.indexCount
        return values.enumerated().map { i, v in
            Point(Self.x(ofIndex: Double(i), scale, count: n, plot: plot), v.isNaN ? .nan : scale.y(v, plot: plot))
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

    /// What a `<points>` layer over more points than its plot has pixels
    /// draws, from far fewer dots: the first dot in each square `cell`
    /// (`centres`, in the points' order), and, where a dot is buried, the
    /// squares of the buried cells merged into runs along each row
    /// (`covered`). All of it is filled as one path, so the region is the
    /// union of what is drawn.
    public struct MergedDots: Sendable {
        public var centres: [Point] = []
        public var covered: [Rect] = []
    }

    /// Cells in a merge's grid at most; a finer grid is coarsened.
    static let maxMergeCells = 16_000_000

    /// Merges dots of radius `radius` per square `cell`. Keeping only the
    /// first dot of a cell moves the region's edge by at most a cell's
    /// diagonal. With `buryInterior` (dots filled, not stroked, under the
    /// non-zero rule), the region inside is drawn as squares instead:
    /// a cell is *solid* when its centre is within `radius` less a cell's
    /// diagonal of a kept dot's cell centre (so one disc holds the whole
    /// cell), and a dot is *buried* when every cell its disc can reach is
    /// solid. Solid cells are drawn as squares, merged into runs along
    /// each row, and buried dots are not drawn: the region is unchanged —
    /// each square lies inside a disc, and each point of a buried dot's
    /// disc lies in a solid square. A dense cloud then draws the dots on
    /// its outline and a few rectangles per row. Linear in the points and
    /// the cells (a Euclidean distance transform finds the solid cells, a
    /// summed-area table the buried dots).
    /// The grid covers the points inside `bounds` (the plot, grown by the
    /// radius); a point outside it (a value beyond the graph's `min` or
    /// `max`) is kept as it is, so that one outlier cannot stretch the grid
    /// and coarsen the merge of all the others. A grid of more than
    /// `maxMergeCells` (a plot of more than a million device pixels at a
    /// quarter pixel a cell) has cells twice as large, and again.
    public static func mergedDots(_ points: [Point], radius: Double, cell: Double, buryInterior: Bool, within bounds: Rect) -> MergedDots {
        var inside: [Point] = [], outside: [Point] = []
        for p in points where p.x.isFinite && p.y.isFinite && abs(p.x) < 1e12 && abs(p.y) < 1e12 {
            if bounds.minX <= p.x && p.x <= bounds.maxX && bounds.minY <= p.y && p.y <= bounds.maxY { inside.append(p) } else { outside.append(p) }
        }
        var merged = mergedDots(inside, radius: radius, cell: cell, buryInterior: buryInterior)
        merged.centres += outside
        return merged
    }

    static func mergedDots(_ finite: [Point], radius: Double, cell: Double, buryInterior: Bool) -> MergedDots {
        guard cell > 0, cell.isFinite, let first = finite.first else { return MergedDots(centres: finite) }
        var (minX, maxX, minY, maxY) = (first.x, first.x, first.y, first.y)
        for p in finite { minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x); minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y) }
        var s = cell
        func extent(_ lo: Double, _ hi: Double) -> Int { Int((hi / s).rounded(.down) - (lo / s).rounded(.down)) + 1 }
        while Double(extent(minX, maxX)) * Double(extent(minY, maxY)) > Double(maxMergeCells) { s *= 2 }
        let ox = (minX / s).rounded(.down), oy = (minY / s).rounded(.down)
        let w = extent(minX, maxX), h = extent(minY, maxY)
        // The first point of each cell, or -1.
        var firstIn = [Int32](repeating: -1, count: w * h)
        func cellOf(_ p: Point) -> Int {
            let i = Swift.min(w - 1, Swift.max(0, Int((p.x / s).rounded(.down) - ox)))
            let j = Swift.min(h - 1, Swift.max(0, Int((p.y / s).rounded(.down) - oy)))
            return j * w + i
        }
        for (n, p) in finite.enumerated() where firstIn[cellOf(p)] < 0 { firstIn[cellOf(p)] = Int32(n) }
        var solid = [Bool](repeating: false, count: w * h)
        var buried = [Bool](repeating: false, count: w * h)
        // In cells: a kept dot lies within half a diagonal of its cell's
        // centre, and a cell's corners within half a diagonal of its own.
        let reach = radius / s - 2.0.squareRoot()
        if buryInterior, reach >= 0 {
            let distance = squaredDistanceToOccupied(firstIn.map { $0 >= 0 }, width: w, height: h)
            for c in 0..<(w * h) { solid[c] = distance[c] <= reach * reach }
            let k = Int((radius / s).rounded(.up))
            let side = 2 * k + 1
            // sums[(j + 1) * (w + 1) + (i + 1)]: solid cells in [0, i] × [0, j].
            var sums = [Int32](repeating: 0, count: (w + 1) * (h + 1))
            for j in 0..<h {
                var row: Int32 = 0
                for i in 0..<w {
                    if solid[j * w + i] { row += 1 }
                    sums[(j + 1) * (w + 1) + i + 1] = sums[j * (w + 1) + i + 1] + row
                }
            }
            for j in k..<Swift.max(k, h - k) {
                for i in k..<Swift.max(k, w - k) where firstIn[j * w + i] >= 0 {
                    let x0 = i - k, y0 = j - k, x1 = i + k + 1, y1 = j + k + 1
                    let count = sums[y1 * (w + 1) + x1] - sums[y0 * (w + 1) + x1] - sums[y1 * (w + 1) + x0] + sums[y0 * (w + 1) + x0]
                    buried[j * w + i] = Int(count) == side * side
                }
            }
        }
        var out = MergedDots()
        for (n, p) in finite.enumerated() {
            let c = cellOf(p)
            if firstIn[c] == Int32(n), !buried[c] { out.centres.append(p) }
        }
        for j in 0..<h {
            var i = 0
            while i < w {
                guard solid[j * w + i] else { i += 1; continue }
                var end = i
                while end + 1 < w, solid[j * w + end + 1] { end += 1 }
                out.covered.append(Rect(x: (ox + Double(i)) * s, y: (oy + Double(j)) * s, width: Double(end - i + 1) * s, height: s))
                i = end + 1
            }
        }
        return out
    }

    /// For each cell of a `width` × `height` grid, the squared distance
    /// (in cells, centre to centre) to the nearest occupied cell; infinite
    /// if none is. Felzenszwalb and Huttenlocher's exact transform: a
    /// lower envelope of parabolas along each column, then each row.
    static func squaredDistanceToOccupied(_ occupied: [Bool], width w: Int, height h: Int) -> [Double] {
        var d = occupied.map { $0 ? 0.0 : Double.infinity }
        var f = [Double](repeating: 0, count: Swift.max(w, h))
        var out = [Double](repeating: 0, count: Swift.max(w, h))
        var v = [Int](repeating: 0, count: Swift.max(w, h))
        var z = [Double](repeating: 0, count: Swift.max(w, h) + 1)
        func transform(_ n: Int) {
            var k = 0
            v[0] = 0; z[0] = -.infinity; z[1] = .infinity
            func intersection(_ q: Int, _ p: Int) -> Double {
                ((f[q] + Double(q * q)) - (f[p] + Double(p * p))) / Double(2 * q - 2 * p)
            }
            for q in 1..<Swift.max(1, n) {
                if f[q] == .infinity { continue }
                if f[v[k]] == .infinity { v[k] = q; continue }
                var x = intersection(q, v[k])
                while k > 0, x <= z[k] { k -= 1; x = intersection(q, v[k]) }
                k += 1
                v[k] = q; z[k] = x; z[k + 1] = .infinity
            }
            k = 0
            for q in 0..<n {
                while z[k + 1] < Double(q) { k += 1 }
                let p = v[k]
                out[q] = f[p] == .infinity ? .infinity : Double((q - p) * (q - p)) + f[p]
            }
        }
        for i in 0..<w {
            for j in 0..<h { f[j] = d[j * w + i] }
            transform(h)
            for j in 0..<h { d[j * w + i] = out[j] }
        }
        for j in 0..<h {
            for i in 0..<w { f[i] = d[j * w + i] }
            transform(w)
            for i in 0..<w { d[j * w + i] = out[i] }
        }
        return d
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
