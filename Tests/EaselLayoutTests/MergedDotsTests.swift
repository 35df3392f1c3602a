import EaselLayout
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// `GraphGeometry.mergedDots`: a points layer over more points than pixels
/// draws the same region from a number of dots and rectangles that does not
/// grow with the points. The region is checked against the union of the
/// first dot per cell, point by point (an independent membership test);
/// sizes are counted, not timed.
final class MergedDotsTests: XCTestCase {
    /// A reproducible random walk and a uniform cloud over a 400×200 plot.
    static func cloud(_ n: Int, walk: Bool, seed: UInt64) -> [Point] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var y = 100.0
        return (0..<n).map { i in
            if walk { y = min(195, max(5, y + (next() - 0.5) * 2)) } else { y = 5 + next() * 190 }
            return Point(Double(i) / Double(n) * 400, y)
        }
    }

    /// The first point of each cell, as the merge keeps them.
    func firstPerCell(_ points: [Point], cell: Double) -> [Point] {
        var seen = Set<Int>()
        return points.filter { seen.insert(Int(($0.x / cell).rounded(.down)) * 1_000_000 + Int(($0.y / cell).rounded(.down))).inserted }
    }

    func testBuriedDotsLeaveTheRegionUnchanged() {
        for walk in [true, false] {
            let points = Self.cloud(20_000, walk: walk, seed: 7).map { Point($0.x / 8, $0.y / 8) }  // 50×25: dense
            let radius = 1.5, cell = 0.25
            let merged = GraphGeometry.mergedDots(points, radius: radius, cell: cell, buryInterior: true, within: Rect(x: -2, y: -2, width: 54, height: 29))
            let kept = firstPerCell(points, cell: cell)
            XCTAssertFalse(merged.covered.isEmpty, "some dots are buried")
            XCTAssertLessThan(merged.centres.count, kept.count)
            // Centres in buckets of 2 × 2 points and rows by their top, to
            // test membership without a search over all of them.
            func bucketKey(_ x: Double, _ y: Double) -> Int { Int((x / 2).rounded(.down)) * 100_000 + Int((y / 2).rounded(.down)) }
            func buckets(_ points: [Point]) -> [Int: [Point]] {
                var out: [Int: [Point]] = [:]
                for p in points { out[bucketKey(p.x, p.y), default: []].append(p) }
                return out
            }
            let full = buckets(kept), centres = buckets(merged.centres)
            var rows: [Int: [Rect]] = [:]
            for r in merged.covered { rows[Int((r.minY / cell).rounded()), default: []].append(r) }
            func near(_ q: Point, _ b: [Int: [Point]]) -> Bool {
                for i in -1...1 { for j in -1...1 {
                    for p in b[bucketKey(q.x + Double(i) * 2, q.y + Double(j) * 2)] ?? []
                    where (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) <= radius * radius { return true }
                } }
                return false
            }
            func inFull(_ q: Point) -> Bool { near(q, full) }
            func inMerged(_ q: Point) -> Bool {
                (rows[Int((q.y / cell).rounded(.down))] ?? []).contains { $0.minX <= q.x && q.x <= $0.maxX && $0.minY <= q.y && q.y <= $0.maxY }
                    || near(q, centres)
            }
            var mismatches = 0, inside = 0
            // Sample points off the cell grid (an irrational step), so no
            // sample sits exactly on a square's edge.
            var x = 0.013
            while x < 52 {
                var y = -2.0 + 0.0071
                while y < 27 {
                    let q = Point(x, y), full = inFull(q)
                    if full { inside += 1 }
                    if full != inMerged(q) { mismatches += 1 }
                    y += 0.173
                }
                x += 0.191
            }
            XCTAssertGreaterThan(inside, 1000)
            XCTAssertEqual(mismatches, 0, walk ? "walk" : "cloud")
        }
    }

    /// 300,000 values over a 400×200 plot (bench/ renders the issue's
    /// 900,000), merged as the points layer merges them; at @2x and 100,000
    /// under sanitizers.
    func testDenseCloudsDrawAFewDotsAndRowsWhateverTheCount() {
        for (walk, scale) in [(true, 1.0), (false, TestSizes.pick(3.0, small: 2.0))] {
            let points = Self.cloud(TestSizes.pick(300_000, small: 100_000), walk: walk, seed: 3)
            do {
                let plot = Rect(x: -2, y: -2, width: 404, height: 204)
                var m = GraphGeometry.mergedDots(points, radius: 1.5, cell: 0.25 / scale, buryInterior: true, within: plot)
                let pixels = 400 * 200 * scale * scale
                if Double(m.centres.count) > pixels { m = GraphGeometry.mergedDots(points, radius: 1.5, cell: 1 / scale, buryInterior: true, within: plot) }
                // At most one dot per pixel (the fallback's guarantee), and a
                // small part of what the first dot per cell would draw.
                let label = "\(walk ? "walk" : "cloud") @\(scale)x: \(m.centres.count) dots, \(m.covered.count) rows"
                XCTAssertLessThanOrEqual(Double(m.centres.count), pixels, label)
                XCTAssertLessThan(Double(m.centres.count + m.covered.count), pixels, label)
                if ProcessInfo.processInfo.environment["EASEL_REPORT"] == "1" { print("MERGED \(label)") }
            }
        }
    }

    /// Stroked dots are never buried: a square would be stroked too.
    func testStrokedDotsAreOnlyMerged() {
        let points = Self.cloud(50_000, walk: false, seed: 5).map { Point($0.x / 8, $0.y / 8) }
        let m = GraphGeometry.mergedDots(points, radius: 1.5, cell: 0.25, buryInterior: false, within: Rect(x: -2, y: -2, width: 54, height: 29))
        XCTAssertTrue(m.covered.isEmpty)
        XCTAssertEqual(m.centres.count, firstPerCell(points, cell: 0.25).count)
    }

    /// One value far outside the plot (beyond the graph's `max`) does not
    /// stretch the grid: the cloud inside is merged as finely as without it,
    /// and the outlier is drawn where it is.
    func testAnOutlierDoesNotCoarsenTheMerge() {
        let points = Self.cloud(100_000, walk: false, seed: 9)
        let plot = Rect(x: -2, y: -2, width: 404, height: 204)
        let alone = GraphGeometry.mergedDots(points, radius: 1.5, cell: 0.25, buryInterior: true, within: plot)
        let outlier = Point(200, -2_000_000)
        let with = GraphGeometry.mergedDots(points + [outlier], radius: 1.5, cell: 0.25, buryInterior: true, within: plot)
        XCTAssertEqual(with.centres.count, alone.centres.count + 1)
        XCTAssertEqual(with.covered.count, alone.covered.count)
        XCTAssertTrue(with.centres.contains(outlier))
    }
}
