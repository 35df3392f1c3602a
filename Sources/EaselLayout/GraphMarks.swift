import EaselModel

/// `<rule>` and `<band>`: a line or a filled span across the plot at data
/// values (docs/format.md, "Rules and bands"), their labels inside the plot.
extension Resolver {
    /// Where data value `v` lies along `axis`: a y through the scale, an x
    /// by value (a date on a time axis) or, on a graph placed by index, at
    /// index `v` (0 is the first point).
    func position(of v: Double, on axis: GraphAxis.Edge, _ scale: GraphGeometry.Scale, plot: Rect) -> Double {
        switch axis {
        case .y: return GraphGeometry.y(of: v, scale, plot: plot)
        case .x:
            if let domain = scale.xDomain { return GraphGeometry.x(of: v, domain: domain, plot: plot) }
            return GraphGeometry.x(ofIndex: v, scale, count: scale.indexCount, plot: plot)
        }
    }

    /// A line across the plot, nothing when the value is outside it; its
    /// label right-aligned 4 points in from the plot's right edge just
    /// above the line (below it at the plot's top), or for an x rule 4
    /// points right of the line and 4 below the plot's top (left of the
    /// line where it would pass the plot's right edge).
    func ruleNode(_ rule: GraphRule, _ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect, location: SourceLocation,
                  absoluteOrigin: Point) -> DraftNode {
        let at = position(of: rule.value, on: rule.axis, scale, plot: plot)
        let inside = at.isFinite && (rule.axis == .y ? (plot.minY - 0.5...plot.maxY + 0.5).contains(at)
                                                      : (plot.minX - 0.5...plot.maxX + 0.5).contains(at))
        guard inside else {
            return graphNode("rule", location, opacity: rule.opacity, frame: .zero, absoluteOrigin: absoluteOrigin, drawing: nil)
        }
        var path = BezierPath()
        if rule.axis == .y {
            path.move(to: Point(plot.minX, at)); path.line(to: Point(plot.maxX, at))
        } else {
            path.move(to: Point(at, plot.minY)); path.line(to: Point(at, plot.maxY))
        }
        var style = rule.style
        style.fill = .none
        var children: [DraftNode] = []
        if let label = rule.label, !label.text.isEmpty {
            let inset = 4.0, gap = 3.0
            children.append(graphLabel(label.text, font: label.font, fill: label.fill, location: location, absoluteOrigin: absoluteOrigin) { size in
                if rule.axis == .y {
                    let above = at - gap - size.height
                    return Point(plot.maxX - inset - size.width, above >= plot.minY ? above : at + gap)
                }
                let right = at + inset
                return Point(right + size.width <= plot.maxX ? right : at - inset - size.width, plot.minY + inset)
            })
        }
        return graphNode("rule", location, opacity: rule.opacity, frame: path.boundingBox ?? plot, absoluteOrigin: absoluteOrigin,
                         drawing: shapeDrawing(path, style: style, box: plot), children: children)
    }

    /// The plot filled between two values (clipped to the plot); its label
    /// 4 points in from the band's top-left corner.
    func bandNode(_ band: GraphBand, _ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect, location: SourceLocation,
                  absoluteOrigin: Point) -> DraftNode {
        let a = position(of: band.from, on: band.axis, scale, plot: plot), b = position(of: band.to, on: band.axis, scale, plot: plot)
        var box: Rect?
        // ±∞ (a value off a log scale's end) clips to the plot's edge.
        if !a.isNaN, !b.isNaN {
            let lo = min(a, b), hi = max(a, b)
            if band.axis == .y {
                let top = max(plot.minY, lo), bottom = min(plot.maxY, hi)
                if bottom > top { box = Rect(x: plot.minX, y: top, width: plot.width, height: bottom - top) }
            } else {
                let left = max(plot.minX, lo), right = min(plot.maxX, hi)
                if right > left { box = Rect(x: left, y: plot.minY, width: right - left, height: plot.height) }
            }
        }
        guard let box else {
            return graphNode("band", location, opacity: band.opacity, frame: .zero, absoluteOrigin: absoluteOrigin, drawing: nil)
        }
        var style = band.style
        style.stroke = .none
        var children: [DraftNode] = []
        if let label = band.label, !label.text.isEmpty {
            children.append(graphLabel(label.text, font: label.font, fill: label.fill, location: location, absoluteOrigin: absoluteOrigin) { _ in
                Point(box.minX + 4, box.minY + 4)
            })
        }
        return graphNode("band", location, opacity: band.opacity, frame: box, absoluteOrigin: absoluteOrigin,
                         drawing: shapeDrawing(.rect(box), style: style, box: box), children: children)
    }
}
