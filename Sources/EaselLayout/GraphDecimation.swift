import EaselModel
import Glibc

extension GraphGeometry {
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
