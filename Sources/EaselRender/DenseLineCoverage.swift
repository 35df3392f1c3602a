import CCairo
import EaselLayout
import EaselModel

/// A stroked polyline with more points than the device columns it spans
/// (a long series), drawn as the coverage it makes per device column
/// rather than stroked by Cairo. Cairo's stroke costs each segment every
/// row it crosses, so a line that crosses the plot several times per
/// column costs points × rows; here each piece of the stroke costs only
/// the columns it reaches.
///
/// Where a device column holds two or more of the line's points (a dense
/// column), the stroke there is taken as one vertical span per
/// thirty-second of a pixel (a sliver): from the highest to the lowest point, at that sliver's
/// centre, of the pieces Cairo's stroker would make — each segment's
/// rectangle, each join (bevel triangle, miter quad, or a round disc,
/// where Cairo's fan for a very small turn may be a bevel: a hair less) — and
/// the span's exact area in each pixel is the coverage (`RectangleCoverage`).
/// Elsewhere (the line sparser than the pixels, around the ends of a run,
/// where caps are, and where two runs share a column) Cairo strokes the segments that reach those
/// columns, clipped to them: the same pixels as before. Both go into one
/// 8-bit mask, through which the stroke's paint is drawn.
///
/// Taking a column's stroke as one span fills any hole between pieces
/// in a sliver; within one run whose x never turns back (a series) the
/// pieces reaching a sliver overlap or touch, so there is none to fill.
enum DenseLineCoverage {
    /// Slivers per device column: a span is sampled at a sliver's centre,
    /// so an edge across a pixel is placed within 1/64 of it (16 were
    /// further from Cairo's stroke than the reduction is; docs/benchmarks.md).
    static let slivers = 32

    /// The mask (a Cairo pattern in user space, a new reference), or nil to
    /// stroke the path as usual: dashed, curved or closed, not monotone in
    /// x on the device, under a rotation, skew or unequal scale, no more
    /// points than columns, no dense column, most segments reaching sparse
    /// columns anyway, or a mask over `largestMask` pixels.
    static func mask(path: BezierPath, stroke: StrokeDrawing, bounds: Rect, painter: Painter) -> OpaquePointer? {
        guard stroke.dash.allSatisfy({ $0 == 0 }), stroke.width > 0, stroke.width.isFinite else { return nil }
        let grid = painter.pixelGrid()
        let tiny = 1e-9 * max(abs(grid.a), abs(grid.d))
        guard abs(grid.b) <= tiny, abs(grid.c) <= tiny, abs(abs(grid.a) - abs(grid.d)) <= tiny, grid.a != 0,
              let (_, box) = painter.pixelsShowing(bounds), path.elements.count > box.width,
              box.width * box.height <= largestMask else { return nil }
        let h = stroke.width * abs(grid.a) / 2
        var reach = h
        let miterLimit = min(stroke.miterLimit, Painter.largestMiterLimit)
        if stroke.join == .miter { reach = max(reach, h * miterLimit) }
        if stroke.cap == .square { reach = max(reach, h * 2.squareRoot()) }
        // A sliver's centre may lie just past a piece that still covers part of it.
        reach += 1 / Double(slivers)
        let w = box.width, x0 = Double(box.x0)
        // Wider than the mask: no column is apart from a run's ends.
        guard reach.isFinite, reach < Double(w), let runs = monotoneRuns(path, grid),
              runs.reduce(0, { $0 + $1.count }) > w else { return nil }
        // Points per column; columns around a run's ends (its caps) and
        // where two runs meet (one span would fill the gap between them)
        // stay Cairo's.
        var points = [Int](repeating: 0, count: w)
        var runsAcross = [Int](repeating: 0, count: w + 1)
        var cairoOnly = [Bool](repeating: false, count: w)
        func columns(_ lo: Double, _ hi: Double) -> ClosedRange<Int>? {
            clamped(first: (lo - x0).rounded(.down), last: (hi - x0).rounded(.down), count: w)
        }
        for run in runs {
            guard let first = run.first, let last = run.last else { continue }
            for p in run { if let c = columns(p.x, p.x) { points[c.lowerBound] += 1 } }
            for end in [first, last] { if let c = columns(end.x - reach - 1, end.x + reach + 1) { for k in c { cairoOnly[k] = true } } }
            if let c = columns(first.x - reach - 1, last.x + reach + 1) { runsAcross[c.lowerBound] += 1; runsAcross[c.upperBound + 1] -= 1 }
        }
        var across = 0
        let dense = (0..<w).map { c -> Bool in
            across += runsAcross[c]
            return points[c] >= 2 && !cairoOnly[c] && across < 2
        }
        let denseColumns = dense.reduce(0) { $0 + ($1 ? 1 : 0) }
        guard denseColumns > 0 else { return nil }
        // Segments that reach a sparse column are stroked by Cairo: if that
        // is most of them, the spans would only add work.
        let sparse = SparseColumns(dense: dense, x0: x0)
        var segments = 0, stroked = 0
        for run in runs where run.count > 1 {
            for k in 1..<run.count where sparse.reached(run[k - 1].x - reach, run[k].x + reach) { stroked += 1 }
            segments += run.count - 1
        }
        guard 2 * stroked <= segments else { return nil }

        var spans = Spans(box: box, dense: dense)
        for run in runs { spans.add(run, halfWidth: h, join: stroke.join, miterLimit: miterLimit) }
        var coverage = RectangleCoverage(box: box)
        spans.cover(&coverage)
        guard let image = coverage.maskImage() else { return nil }
        defer { cairo_surface_destroy(image) }
        if stroked > 0 {
            strokeSparseColumns(runs, sparse, box: box, reach: reach, halfWidth: h, stroke: stroke, on: image,
                                cap: painter.lineCap(stroke.cap), join: painter.lineJoin(stroke.join))
        }
        guard let pattern = PixelBox.pattern(for: image, at: box, userToPixel: grid, exactPixels: true) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_NONE)
        PaintingProbe.denseLineCovered(columns: denseColumns)
        return pattern
    }

    /// The most pixels a mask may have (5 bytes each while it is made,
    /// 160 MB): a larger line is stroked.
    static let largestMask = 1 << 25

    /// first...last within 0..<count, or nil if they miss it or are not
    /// numbers; clamped as doubles, so that no conversion can trap.
    static func clamped(first: Double, last: Double, count: Int) -> ClosedRange<Int>? {
        guard first <= last, last >= 0, first < Double(count) else { return nil }
        return Int(max(first, 0))...Int(min(last, Double(count - 1)))
    }

    /// The columns not drawn as spans, to ask whether a range of x reaches one.
    struct SparseColumns {
        let dense: [Bool]
        let x0: Double
        /// Sparse columns before each column.
        let before: [Int]

        init(dense: [Bool], x0: Double) {
            self.dense = dense
            self.x0 = x0
            var before = [0]
            before.reserveCapacity(dense.count + 1)
            for d in dense { before.append(before[before.count - 1] + (d ? 0 : 1)) }
            self.before = before
        }

        func reached(_ lo: Double, _ hi: Double) -> Bool {
            guard let c = DenseLineCoverage.clamped(first: (lo - x0).rounded(.down), last: (hi - x0).rounded(.down), count: dense.count) else { return false }
            return before[c.upperBound + 1] > before[c.lowerBound]
        }
    }

    /// The path's subpaths in device pixels, each with x never decreasing
    /// (one drawn right to left is reversed: the same stroke); nil if any
    /// has a curve, a close, or turns back in x.
    static func monotoneRuns(_ path: BezierPath, _ grid: AffineTransform) -> [[Point]]? {
        var runs: [[Point]] = []
        var run: [Point] = []
        func finish() -> Bool {
            defer { run = [] }
            guard let first = run.first, let last = run.last else { return true }
            let forward = last.x >= first.x
            for k in run.indices.dropFirst() where forward ? run[k].x < run[k - 1].x : run[k].x > run[k - 1].x { return false }
            runs.append(forward ? run : run.reversed())
            return true
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                let q = grid.apply(p)
                guard finish(), q.x.isFinite, q.y.isFinite else { return nil }
                run = [q]
            case .line(let p):
                let q = grid.apply(p)
                guard q.x.isFinite, q.y.isFinite else { return nil }
                run.append(q)
            case .cubic, .close:
                return nil
            }
        }
        guard finish() else { return nil }
        return runs
    }

    /// Cairo's stroke of the segments that reach the columns not drawn as
    /// spans, clipped to those columns, into the mask image. A piece of the
    /// line begins and ends at a segment that reaches no such column, so
    /// its own caps fall outside the clip.
    static func strokeSparseColumns(_ runs: [[Point]], _ sparse: SparseColumns, box: PixelBox, reach: Double, halfWidth h: Double,
                                    stroke: StrokeDrawing, on image: OpaquePointer, cap: cairo_line_cap_t, join: cairo_line_join_t) {
        guard let cr = cairo_create(image) else { return }
        defer { cairo_destroy(cr) }
        let w = sparse.dense.count
        var c = 0
        while c < w {
            guard !sparse.dense[c] else { c += 1; continue }
            var e = c
            while e < w && !sparse.dense[e] { e += 1 }
            cairo_rectangle(cr, Double(c), 0, Double(e - c), Double(box.height))
            c = e
        }
        cairo_clip(cr)
        cairo_translate(cr, -sparse.x0, -Double(box.y0))
        for run in runs {
            if run.count < 2 {
                if let p = run.first, sparse.reached(p.x - reach, p.x + reach) { cairo_move_to(cr, p.x, p.y) }
                continue
            }
            var open = false
            for k in 1..<run.count {
                let a = run[k - 1], b = run[k]
                if sparse.reached(a.x - reach, b.x + reach) {
                    if !open { cairo_move_to(cr, a.x, a.y); open = true }
                    cairo_line_to(cr, b.x, b.y)
                } else {
                    open = false
                }
            }
        }
        cairo_set_line_width(cr, 2 * h)
        cairo_set_line_cap(cr, cap)
        cairo_set_line_join(cr, join)
        cairo_set_miter_limit(cr, min(stroke.miterLimit, Painter.largestMiterLimit))
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_stroke(cr)
        cairo_surface_flush(image)
    }

    /// The highest and lowest point of the stroke at the centre of each
    /// sliver of the dense columns.
    struct Spans {
        let box: PixelBox
        let dense: [Bool]
        var top: [Double], bottom: [Double]

        init(box: PixelBox, dense: [Bool]) {
            self.box = box
            self.dense = dense
            top = Array(repeating: .infinity, count: box.width * slivers)
            bottom = Array(repeating: -.infinity, count: box.width * slivers)
        }

        /// The pieces of one run's stroke: a rectangle per segment, a join
        /// at each point between two segments. A point within 1/256 of a
        /// pixel of the last one kept is dropped, as Cairo drops a point
        /// its fixed point puts on the current one (its direction would be
        /// noise); the next segment starts from the last point kept.
        mutating func add(_ run: [Point], halfWidth h: Double, join: LineJoin, miterLimit: Double) {
            guard var a = run.first else { return }
            var previous: Point?
            for b in run.dropFirst() {
                let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
                guard length >= 1.0 / 256 else { continue }
                let d = Point(dx / length, dy / length), n = Point(-d.y * h, d.x * h)
                polygon(Point(a.x + n.x, a.y + n.y), Point(b.x + n.x, b.y + n.y), Point(b.x - n.x, b.y - n.y), Point(a.x - n.x, a.y - n.y))
                if let d1 = previous { self.join(at: a, d1, d, halfWidth: h, style: join, miterLimit: miterLimit) }
                previous = d
                a = b
            }
        }

        /// The join Cairo's stroker makes where direction `d1` turns to `d2`
        /// at `v`, on the outer side of the turn.
        mutating func join(at v: Point, _ d1: Point, _ d2: Point, halfWidth h: Double, style: LineJoin, miterLimit: Double) {
            let cross = d1.x * d2.y - d1.y * d2.x, dot = d1.x * d2.x + d1.y * d2.y
            if cross == 0 && dot > 0 { return }
            if style == .round {
                disc(v, h)
                return
            }
            let side = cross > 0 ? -h : h
            let n1 = Point(-d1.y, d1.x), n2 = Point(-d2.y, d2.x)
            let o1 = Point(v.x + side * n1.x, v.y + side * n1.y), o2 = Point(v.x + side * n2.x, v.y + side * n2.y)
            if style == .miter && 2 <= miterLimit * miterLimit * (1 + dot) {
                let f = side / (1 + dot)
                polygon(v, o1, Point(v.x + f * (n1.x + n2.x), v.y + f * (n1.y + n2.y)), o2)
            } else {
                polygon(v, o1, o2, o2)
            }
        }

        /// Slivers whose centre lies in lo...hi, in dense columns.
        func sliversCentred(_ lo: Double, _ hi: Double) -> ClosedRange<Int>? {
            let s = Double(DenseLineCoverage.slivers), x0 = Double(box.x0)
            // Centre of sliver j: x0 + (j + 0.5) / s.
            return DenseLineCoverage.clamped(first: ((lo - x0) * s - 0.5).rounded(.up), last: ((hi - x0) * s - 0.5).rounded(.down),
                                             count: box.width * DenseLineCoverage.slivers)
        }

        func centre(_ j: Int) -> Double { Double(box.x0) + (Double(j) + 0.5) / Double(DenseLineCoverage.slivers) }

        /// A convex polygon of four corners in order (a triangle repeats
        /// its last).
        mutating func polygon(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) {
            let lo = min(p0.x, p1.x, p2.x, p3.x), hi = max(p0.x, p1.x, p2.x, p3.x)
            let yMin = min(p0.y, p1.y, p2.y, p3.y), yMax = max(p0.y, p1.y, p2.y, p3.y)
            guard let range = sliversCentred(lo, hi) else { return }
            for j in range where dense[j / DenseLineCoverage.slivers] {
                // Inside the span already (most pieces of a dense line).
                if yMin >= top[j] && yMax <= bottom[j] { continue }
                let x = centre(j)
                var yLow = Double.infinity, yHigh = -Double.infinity
                // Where the vertical through x crosses an edge (both ends
                // of an edge along it).
                func edge(_ a: Point, _ b: Point) {
                    guard (a.x <= x && x <= b.x) || (b.x <= x && x <= a.x) else { return }
                    if a.x == b.x {
                        yLow = min(yLow, a.y, b.y); yHigh = max(yHigh, a.y, b.y)
                    } else {
                        let y = a.y + (x - a.x) * (b.y - a.y) / (b.x - a.x)
                        yLow = min(yLow, y); yHigh = max(yHigh, y)
                    }
                }
                edge(p0, p1); edge(p1, p2); edge(p2, p3); edge(p3, p0)
                if yLow < top[j] { top[j] = yLow }
                if yHigh > bottom[j] { bottom[j] = yHigh }
            }
        }

        mutating func disc(_ c: Point, _ r: Double) {
            guard let range = sliversCentred(c.x - r, c.x + r) else { return }
            for j in range where dense[j / DenseLineCoverage.slivers] {
                if c.y - r >= top[j] && c.y + r <= bottom[j] { continue }
                let dx = centre(j) - c.x, half = max(0, r * r - dx * dx).squareRoot()
                if c.y - half < top[j] { top[j] = c.y - half }
                if c.y + half > bottom[j] { bottom[j] = c.y + half }
            }
        }

        /// Each sliver's span as a rectangle of coverage.
        func cover(_ coverage: inout RectangleCoverage) {
            let s = Double(DenseLineCoverage.slivers)
            for j in top.indices where top[j] < bottom[j] {
                let x = Double(box.x0) + Double(j) / s
                coverage.add(x0: x, y0: top[j], x1: x + 1 / s, y1: bottom[j])
            }
        }
    }
}
