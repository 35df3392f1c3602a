import EaselModel
import Glibc

extension GraphGeometry {
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
}
