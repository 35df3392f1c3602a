@testable import EaselRender
import EaselModel
import EaselTestSupport
import Foundation
import XCTest

/// The geometry the VectorDrawable writer works out itself: transforms as
/// Android groups, dashes as pieces of path, numbers as 32-bit floats.
final class VectorDrawableGeometryTests: XCTestCase {
    /// Every transform is one group or two whose product is the transform:
    /// rotations, scales, mirrors, skews (seeded random matrices among them).
    func testGroupsMultiplyBackToTheTransform() {
        var generator = SeededGenerator(seed: 60)
        var transforms: [EaselModel.AffineTransform] = [
            .rotation(degrees: 30), .scale(2, -0.5), .skewX(degrees: 20), .scale(-1, 1),
            EaselModel.AffineTransform.translation(10, 20).concatenating(.rotation(degrees: -45)).concatenating(.scale(3, 1)),
        ]
        for _ in 0..<200 {
            transforms.append(EaselModel.AffineTransform(a: .random(in: -3...3, using: &generator), b: .random(in: -3...3, using: &generator),
                                              c: .random(in: -3...3, using: &generator), d: .random(in: -3...3, using: &generator),
                                              tx: .random(in: -50...50, using: &generator), ty: .random(in: -50...50, using: &generator)))
        }
        for t in transforms where abs(t.determinant) > 1e-6 {
            let groups = AndroidGroupTransform.groups(for: t)
            XCTAssertTrue((1...2).contains(groups.count))
            let product = groups.map { $0.matrix }.reduce(EaselModel.AffineTransform.identity) { $0.concatenating($1) }
            for (x, y) in [(product.a, t.a), (product.b, t.b), (product.c, t.c), (product.d, t.d), (product.tx, t.tx), (product.ty, t.ty)] {
                XCTAssertEqual(x, y, accuracy: 1e-9, "\(t)")
            }
        }
        // A rotation with a scale is one group; a skew needs two.
        XCTAssertEqual(AndroidGroupTransform.groups(for: EaselModel.AffineTransform.rotation(degrees: 30).concatenating(.scale(2, 3))).count, 1)
        XCTAssertEqual(AndroidGroupTransform.groups(for: .skewX(degrees: 20)).count, 2)
        XCTAssertEqual(AndroidGroupTransform.groups(for: .identity).count, 0)
    }

    /// Dashes along a line and around a square: the pieces' lengths follow
    /// the pattern (an odd pattern repeats twice over), the offset moves
    /// them, and a closed outline's last dash joins its first.
    func testDashesAreThePatternsOnPieces() throws {
        var line = BezierPath()
        line.move(to: Point(0, 0)); line.line(to: Point(100, 0))
        let pieces = try XCTUnwrap(DashedOutline.pieces(line, dash: [10, 5, 20], offset: 0))
        XCTAssertEqual(lengths(pieces), [10, 20, 5, 10, 15], "on 10, off 5, on 20, off 10, on 5, off 20, on 10, off 5, on the last 15")
        let shifted = try XCTUnwrap(DashedOutline.pieces(line, dash: [10, 10], offset: 5))
        XCTAssertEqual(lengths(shifted), [5, 10, 10, 10, 10, 5])
        // A square of side 40 with dashes of 30 on, 20 off: the last dash
        // (from 150 of 160) runs through the corner the outline started
        // from into the first, as Cairo joins them.
        let square = BezierPath.rect(Rect(x: 0, y: 0, width: 40, height: 40))
        let around = try XCTUnwrap(DashedOutline.pieces(square, dash: [30, 20], offset: 0))
        XCTAssertEqual(lengths(around), [40, 30, 30])
        // On all the way round: the square itself, closed (a join at its start, no caps).
        let whole = try XCTUnwrap(DashedOutline.pieces(square, dash: [1000, 10], offset: 0))
        XCTAssertEqual(lengths(whole), [160])
        XCTAssertEqual(whole.elements.last, .close)
        // A curve is cut at arc length: pieces of a quarter circle of radius 100.
        var arc = BezierPath()
        arc.move(to: Point(100, 0))
        arc.curve(to: Point(0, 100), control1: Point(100, 55.22847498), control2: Point(55.22847498, 100))
        let arcPieces = try XCTUnwrap(DashedOutline.pieces(arc, dash: [50, 50], offset: 0))
        // 157 long: on 0–50, off, on 100–150, off to the end.
        XCTAssertEqual(lengths(arcPieces).count, 2)
        XCTAssertEqual(lengths(arcPieces)[0], 50, accuracy: 0.2)
        XCTAssertEqual(lengths(arcPieces)[1], 50, accuracy: 0.2)
        let ends = arcPieces.elements.compactMap { e -> Point? in if case .move(let p) = e { return p } else { return nil } }
        // The second piece starts 100 along the arc: at 1 radian.
        XCTAssertEqual(ends[1].x, 100 * cos(1), accuracy: 0.3)
        XCTAssertEqual(ends[1].y, 100 * sin(1), accuracy: 0.3)
        XCTAssertNil(DashedOutline.pieces(line, dash: [0, 0], offset: 0))
    }

    /// Numbers read back as the 32-bit float Android keeps, without exponents.
    func testNumbersAreShortestFloats() {
        XCTAssertEqual(VectorDrawableNumber.format(12.5), "12.5")
        XCTAssertEqual(VectorDrawableNumber.format(3), "3")
        XCTAssertEqual(VectorDrawableNumber.format(-0.0), "0")
        XCTAssertEqual(VectorDrawableNumber.format(144.01923788646684), "144.01924")
        XCTAssertEqual(VectorDrawableNumber.format(0.00001), "0.00001")
        XCTAssertEqual(VectorDrawableNumber.format(12_345_678), "12345678")
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<1000 {
            let v = Double.random(in: -5000...5000, using: &generator)
            let text = VectorDrawableNumber.format(v)
            XCTAssertFalse(text.contains("e"))
            XCTAssertEqual(Float(text), Float(v), text)
        }
    }

    private func lengths(_ path: BezierPath) -> [Double] {
        var out: [Double] = []
        var at = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p): out.append(0); at = p
            case .line(let p): out[out.count - 1] += hypot(p.x - at.x, p.y - at.y); at = p
            case .cubic(let c1, let c2, let p):
                // Arc length, sampled finely.
                var previous = at
                for k in 1...256 {
                    let t = Double(k) / 256, u = 1 - t
                    let q = Point(u * u * u * at.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                                  u * u * u * at.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y)
                    out[out.count - 1] += hypot(q.x - previous.x, q.y - previous.y)
                    previous = q
                }
                at = p
            case .close: break
            }
        }
        return out.map { ($0 * 1000).rounded() / 1000 }
    }
}
