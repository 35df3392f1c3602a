import EaselModel
import FoundationEssentials

/// Shapes reduced to paths in their own space.
enum ShapeGeometry {
    /// Percentages in coordinate shapes refer to the parent's content box;
    /// `r` to its normalised diagonal, as in SVG.
    static func path(for kind: NodeKind, frame: Rect, content: Size) -> BezierPath? {
        switch kind {
        case .view(_, let corners, _, _), .rect(_, let corners):
            return .roundedRect(Rect(x: 0, y: 0, width: frame.width, height: frame.height), radii: corners)
        case .stack(let style):
            return .roundedRect(Rect(x: 0, y: 0, width: frame.width, height: frame.height), radii: style.corners)
        case .ellipse:
            return .ellipse(in: Rect(x: 0, y: 0, width: frame.width, height: frame.height))
        case .shape(let shape, _):
            return path(for: shape, content: content)
        case .group, .repeat, .image, .text, .lineGraph:
            return nil
        }
    }

    /// A coordinate shape's outline in its own space.
    static func path(for shape: CoordinateShape, content: Size) -> BezierPath {
        switch shape {
        case .circle(let cx, let cy, let r):
            let diagonal = ((content.width * content.width + content.height * content.height) / 2).squareRoot()
            let rr = r.resolve(against: diagonal)
            let c = Point(cx.resolve(against: content.width), cy.resolve(against: content.height))
            guard rr > 0 else { return BezierPath() }
            return .ellipse(in: Rect(x: c.x - rr, y: c.y - rr, width: 2 * rr, height: 2 * rr))
        case .line(let x1, let y1, let x2, let y2):
            var p = BezierPath()
            p.move(to: Point(x1.resolve(against: content.width), y1.resolve(against: content.height)))
            p.line(to: Point(x2.resolve(against: content.width), y2.resolve(against: content.height)))
            return p
        case .polyline(let pts), .polygon(let pts):
            var p = BezierPath()
            for (i, pt) in pts.enumerated() {
                if i == 0 { p.move(to: pt) } else { p.line(to: pt) }
            }
            if case .polygon = shape, !pts.isEmpty { p.close() }
            return p
        case .path(let p):
            return p
        }
    }
}
