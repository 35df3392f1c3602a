import EaselModel
import Glibc

/// A dashed stroke's "on" pieces as open subpaths, for outputs that have
/// no dashes (a VectorDrawable strokes them with the stroke's cap). The
/// pattern is walked as Cairo walks it: the lengths repeat, alternately on
/// and off (so an odd count repeats twice over), `offset` into it at the
/// start of every subpath; a closed subpath whose pattern is on at both
/// ends joins its last piece to its first, as Cairo joins them.
enum DashedOutline {
    /// Nil when the pattern draws nothing or everything (no "on" length, or
    /// no "off" one): the caller strokes the path as it is, or not at all.
    static func pieces(_ path: BezierPath, dash: [Double], offset: Double) -> BezierPath? {
        let total = dash.reduce(0, +)
        guard dash.allSatisfy({ $0 >= 0 && $0.isFinite }), total > 0 else { return nil }
        var out = BezierPath()
        for subpath in subpaths(path) {
            out.append(walk(subpath, dash: dash, total: total, offset: offset))
        }
        return out
    }

    /// At most how many pieces `pieces` makes: the path's control polygon
    /// (no shorter than the path) over the pattern's period, each period's
    /// "on" lengths, and one more per outline.
    static func estimatedPieces(_ path: BezierPath, dash: [Double]) -> Double {
        let total = dash.reduce(0, +)
        guard total > 0 else { return 0 }
        var length = 0.0, outlines = 0.0
        var at = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p): at = p; outlines += 1
            case .line(let p): length += hypot(p.x - at.x, p.y - at.y); at = p
            case .cubic(let c1, let c2, let p):
                length += hypot(c1.x - at.x, c1.y - at.y) + hypot(c2.x - c1.x, c2.y - c1.y) + hypot(p.x - c2.x, p.y - c2.y)
                at = p
            case .close: break
            }
        }
        // An odd pattern repeats twice over: its period holds each length twice.
        return length / total * Double(dash.count) + 2 * outlines
    }

    /// The pieces of one subpath: its segments as cubics (lines are
    /// cubics with control points on them), and whether it is closed.
    private struct Subpath {
        var segments: [(Point, Point, Point, Point, Bool)] = []
        var closed = false
        var start: Point
    }

    private static func subpaths(_ path: BezierPath) -> [Subpath] {
        var all: [Subpath] = []
        var current: Subpath?
        var point = Point.zero
        func line(_ a: Point, _ b: Point) -> (Point, Point, Point, Point, Bool) {
            (a, Point(a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3), Point(a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3), b, true)
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                if let c = current { all.append(c) }
                current = Subpath(start: p)
                point = p
            case .line(let p):
                if current == nil { current = Subpath(start: point) }
                current!.segments.append(line(point, p))
                point = p
            case .cubic(let c1, let c2, let p):
                if current == nil { current = Subpath(start: point) }
                current!.segments.append((point, c1, c2, p, false))
                point = p
            case .close:
                guard var c = current else { continue }
                if point != c.start { c.segments.append(line(point, c.start)) }
                c.closed = true
                all.append(c)
                point = c.start
                current = Subpath(start: point)
            }
        }
        if let c = current, !c.segments.isEmpty { all.append(c) }
        return all
    }

    private static func walk(_ subpath: Subpath, dash: [Double], total: Double, offset: Double) -> BezierPath {
        // Where in the pattern the subpath starts.
        var index = 0, on = true
        var left = dash[0]
        var skip = offset.truncatingRemainder(dividingBy: 2 * total)
        if skip < 0 { skip += 2 * total }
        while skip > 0 {
            if skip >= left {
                skip -= left
                index = (index + 1) % dash.count; on.toggle(); left = dash[index]
            } else {
                left -= skip; skip = 0
            }
        }
        let startsOn = on
        var pieces: [BezierPath] = []
        var piece: BezierPath?
        for (p0, p1, p2, p3, isLine) in subpath.segments {
            let table = lengths(p0, p1, p2, p3)
            let length = table.last!
            var at = 0.0
            while at < length {
                let step = min(left, length - at)
                let end = at + step
                if on {
                    if piece == nil { piece = BezierPath(); piece!.move(to: point(p0, p1, p2, p3, parameter(table, at))) }
                    let (c1, c2, q) = part(p0, p1, p2, p3, parameter(table, at), parameter(table, end))
                    if isLine { piece!.line(to: q) } else { piece!.curve(to: q, control1: c1, control2: c2) }
                }
                at = end
                left -= step
                if left <= 1e-12 {
                    if on, let done = piece { pieces.append(done); piece = nil }
                    index = (index + 1) % dash.count; on.toggle(); left = dash[index]
                    // A zero-length "on" is a dot where caps draw one.
                    if on, dash[index] == 0 {
                        let q = point(p0, p1, p2, p3, parameter(table, at))
                        var dot = BezierPath(); dot.move(to: q); dot.line(to: q)
                        pieces.append(dot)
                        index = (index + 1) % dash.count; on.toggle(); left = dash[index]
                    }
                }
            }
        }
        if var last = piece {
            if subpath.closed, startsOn, pieces.isEmpty {
                // On all the way round: the outline itself, closed (its start a join, not two caps).
                last.close()
                pieces.append(last)
            } else if subpath.closed, startsOn, pieces.count > 0, first(pieces[0], startsAt: subpath.start) {
                // On at both ends of a closed subpath: one piece through the start.
                var joined = last
                for e in pieces[0].elements.dropFirst() {
                    if case .cubic(let c1, let c2, let q) = e { joined.curve(to: q, control1: c1, control2: c2) }
                    else if case .line(let q) = e { joined.line(to: q) }
                }
                pieces[0] = joined
            } else {
                pieces.append(last)
            }
        }
        var out = BezierPath()
        for p in pieces { out.append(p) }
        return out
    }

    private static func first(_ piece: BezierPath, startsAt p: Point) -> Bool {
        if case .move(let q) = piece.elements.first { return q == p }
        return false
    }

    // MARK: Cubics

    /// Arc length from t = 0 at `samples` + 1 evenly spaced parameters.
    private static let samples = 32

    private static func lengths(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> [Double] {
        var table = [0.0]
        table.reserveCapacity(samples + 1)
        var previous = p0, sum = 0.0
        for k in 1...samples {
            let q = point(p0, p1, p2, p3, Double(k) / Double(samples))
            sum += hypot(q.x - previous.x, q.y - previous.y)
            table.append(sum)
            previous = q
        }
        return table
    }

    /// The parameter at arc length `s`, between the table's samples linearly.
    private static func parameter(_ table: [Double], _ s: Double) -> Double {
        guard s > 0 else { return 0 }
        guard s < table.last! else { return 1 }
        var lo = 0, hi = table.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if table[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = table[hi] - table[lo]
        let f = span > 0 ? (s - table[lo]) / span : 0
        return (Double(lo) + f) / Double(samples)
    }

    private static func point(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// The cubic between parameters t0 and t1 (its controls and end).
    private static func part(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t0: Double, _ t1: Double) -> (Point, Point, Point) {
        // Split at t1, keep the first part; split that at t0 / t1, keep the second.
        let (a0, a1, a2, a3) = split(p0, p1, p2, p3, at: t1).0
        guard t1 > 0 else { return (a3, a3, a3) }
        let (_, b1, b2, b3) = split(a0, a1, a2, a3, at: t0 / t1).1
        return (b1, b2, b3)
    }

    private static func split(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, at t: Double)
        -> ((Point, Point, Point, Point), (Point, Point, Point, Point)) {
        func mix(_ a: Point, _ b: Point) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        let q0 = mix(p0, p1), q1 = mix(p1, p2), q2 = mix(p2, p3)
        let r0 = mix(q0, q1), r1 = mix(q1, q2)
        let s = mix(r0, r1)
        return ((p0, q0, r0, s), (s, r1, q2, p3))
    }
}
