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
}
