import EaselModel

/// Places paint servers on the box of what they paint.
struct PaintResolver {
    let definitions: Definitions

    /// `box` is the bounding box in the node's own points: the frame for
    /// boxes, the geometry (without stroke) for shapes.
    func resolve(_ paint: Paint, opacity: Double, box: Rect) -> ResolvedPaint? {
        switch paint {
        case .none:
            return nil
        case .color(let c):
            return ResolvedPaint(kind: .solid(c), opacity: opacity)
        case .reference(let id):
            guard let def = definitions.paintServers[id] else { return nil }
            switch def.server {
            case .linear(let g):
                return ResolvedPaint(kind: linear(g, box: box), opacity: opacity)
            }
        }
    }

    private func linear(_ g: LinearGradient, box: Rect) -> ResolvedPaint.Kind {
        let stops = StopResolution.shadingStops(g.stops, interpolation: g.interpolation)
        if stops.count == 1 { return .solid(stops[0].color) }
        // Unit points are mapped to the box's points first, so colour lines
        // are perpendicular to start→end in points (CAGradientLayer), not in
        // the unit square as SVG's objectBoundingBox would have them.
        let unitToBox = AffineTransform.translation(box.x, box.y).concatenating(.scale(box.width, box.height))
        let start: Point, end: Point
        var matrix = g.transform
        switch (g.geometry, g.units) {
        case (.angle(let a), _):
            let e = GradientMath.unitEndpoints(angle: a)
            (start, end) = (unitToBox.apply(e.start), unitToBox.apply(e.end))
            if g.units == .objectBoundingBox { matrix = conjugate(g.transform, by: unitToBox) }
        case (.points(let s, let e), .objectBoundingBox):
            (start, end) = (unitToBox.apply(s), unitToBox.apply(e))
            matrix = conjugate(g.transform, by: unitToBox)
        case (.points(let s, let e), .userSpace):
            (start, end) = (s, e)
        }
        return .linear(LinearShading(start: start, end: end, stops: stops, spread: g.spread, matrix: matrix))
    }

    /// A gradient transform given in unit-box space, expressed in points.
    private func conjugate(_ t: AffineTransform, by box: AffineTransform) -> AffineTransform {
        guard !t.isIdentity, let inverse = box.inverted else { return .identity }
        return box.concatenating(t).concatenating(inverse)
    }
}
