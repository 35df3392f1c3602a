import EaselModel
import FoundationEssentials
import Glibc

/// Splits a full turn into sectors over which a conic gradient's colour is
/// linear in the angle, so each can become one mesh patch with exact
/// corner colours. Sector edges fall on every stop offset (and their images
/// under `repeat`/`reflect`), and no sector is wider than `maxSector` —
/// small enough that a cubic arc's parametrisation follows the angle to
/// far better than 1/255 of a colour step.
public enum ConicSectors {
    public static let maxSector = 2 * Double.pi / 96
    /// Stops repeated more often than this are drawn with their first
    /// `limit` breakpoints; finer repeats are invisible anyway.
    public static let limit = 20_000

    /// `from` is the gradient's angle (degrees, anticlockwise from east, y
    /// up); offsets grow clockwise on screen from there.
    public static func sectors(stops: [ShadingStop], spread: SpreadMethod, from: Double) -> [ConicSector] {
        guard let first = stops.first, let last = stops.last else { return [] }
        let s0 = first.offset, s1 = last.offset, period = s1 - s0
        // Where the colour function has a corner, in [0, 1].
        var breaks: Set<Double> = [0, 1]
        let uniform = Int((2 * Double.pi / maxSector).rounded(.up))
        for k in 0...uniform { breaks.insert(Double(k) / Double(uniform)) }
        for s in stops where s.offset >= 0 && s.offset <= 1 { breaks.insert(s.offset) }
        // Stops repeated more finely than a billionth of a turn are drawn
        // padded: finer repetition is invisible and would not terminate.
        if spread != .pad, period > 1e-9 {
            let images = spread == .reflect ? stops.map(\.offset) + stops.map { s0 + s1 - $0.offset } : stops.map(\.offset)
            var k = Int(((0 - s1) / period).rounded(.down))
            while Double(k) * period + s0 <= 1, breaks.count < limit {
                let shift = Double(k) * (spread == .reflect ? 2 * period : period)
                for o in images {
                    let t = o + shift
                    if t > 0, t < 1 { breaks.insert(t) }
                }
                k += 1
            }
        }
        let sorted = breaks.sorted()
        let start = -from * .pi / 180   // screen angle of offset 0 (y down flips the sign)
        var out: [ConicSector] = []
        for (t0, t1) in zip(sorted, sorted.dropFirst()) where t1 > t0 {
            let (c0, c1) = colors(stops, spread, t0, t1)
            out.append(ConicSector(startAngle: start + 2 * .pi * t0, endAngle: start + 2 * .pi * t1,
                                   startColor: c0, endColor: c1))
        }
        return out
    }

    /// Colours at both ends of an interval inside which the colour function
    /// is linear: the interval's middle decides which stop segment it is in.
    static func colors(_ stops: [ShadingStop], _ spread: SpreadMethod, _ t0: Double, _ t1: Double) -> (Color, Color) {
        let first = stops[0], last = stops[stops.count - 1]
        let mid = (t0 + t1) / 2
        let (m, slope) = map(mid, first.offset, last.offset, spread)
        if stops.count == 1 || (slope == 0 && m <= first.offset) { return (first.color, first.color) }
        if slope == 0 && m >= last.offset { return (last.color, last.color) }
        // The last stop (but the final one) at or before m, by bisection
        // (offsets never decrease): a sector per stop costs log n each.
        var lo0 = 0, hi0 = stops.count - 1   // answer in [0, count - 2]; -1 → 0
        while lo0 < hi0 {
            let mid = (lo0 + hi0) / 2
            if stops[mid].offset <= m { lo0 = mid + 1 } else { hi0 = mid }
        }
        let i = max(0, min(stops.count - 2, lo0 - 1))
        let lo = stops[i], hi = stops[i + 1]
        func at(_ t: Double) -> Color {
            guard hi.offset > lo.offset else { return hi.color }
            return StopResolution.straight(lo.color, hi.color, max(0, min(1, (t - lo.offset) / (hi.offset - lo.offset))))
        }
        return (at(m - slope * (mid - t0)), at(m + slope * (t1 - mid)))
    }

    /// `t` mapped into the stops' range by the spread method, and the slope
    /// of that map at `t` (1, −1 where reflected, 0 where padded).
    static func map(_ t: Double, _ s0: Double, _ s1: Double, _ spread: SpreadMethod) -> (Double, Double) {
        let period = s1 - s0
        if t >= s0 && t <= s1 { return (t, 1) }
        guard period > 1e-9, spread != .pad else { return (min(max(t, s0), s1), 0) }
        let u = (t - s0) / period
        switch spread {
        case .repeat:
            return (s0 + (u - u.rounded(.down)) * period, 1)
        case .reflect, .pad:   // pad returned above
            let k = Int(u.rounded(.down))
            let frac = u - Double(k)
            return k % 2 == 0 ? (s0 + frac * period, 1) : (s1 - frac * period, -1)
        }
    }
}

extension ConicShading {
    /// The exact colour of the sweep at `p` (gradient space): the sector
    /// holding the angle, linear inside it.
    public func color(at p: Point) -> Color {
        // Indexed, not `first`: an unoptimised build allocates for `first`,
        // and this runs a few times per pixel.
        guard !sectors.isEmpty else { return .transparent }
        let start = sectors[0].startAngle
        let turn = 2 * Double.pi
        var a = atan2(p.y - center.y, p.x - center.x) - start
        a -= turn * (a / turn).rounded(.down)
        let angle = start + a
        var lo = 0, hi = sectors.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if sectors[mid].endAngle < angle { lo = mid + 1 } else { hi = mid }
        }
        let s = sectors[lo]
        let f = s.endAngle > s.startAngle ? max(0, min(1, (angle - s.startAngle) / (s.endAngle - s.startAngle))) : 0
        return StopResolution.straight(s.startColor, s.endColor, f)
    }
}
