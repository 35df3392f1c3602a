import EaselModel

/// A graph's axes and legend: tick values as d3 makes them, labels that do
/// not collide, swatches that repeat each series' line and points.
extension Resolver {
    /// One axis: its line along the plot's left (y) or bottom (x) edge, a
    /// tick mark `tickSize` long outside the plot at each tick, and each
    /// tick's label 3 points past the mark (d3-axis's `tickPadding`): right-
    /// aligned and centred on the tick for y, centred under it for x.
    func axisNode(_ axis: GraphAxis, _ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect, location: SourceLocation,
                  absoluteOrigin: Point) -> DraftNode {
        let ticks = axisTicks(axis, g, scale, plot: plot)
        var path = BezierPath()
        var labels: [DraftNode] = []
        switch axis.edge {
        case .y:
            path.move(to: Point(plot.minX, plot.minY)); path.line(to: Point(plot.minX, plot.maxY))
            for (position, text) in ticks {
                if axis.tickSize > 0 { path.move(to: Point(plot.minX - axis.tickSize, position)); path.line(to: Point(plot.minX, position)) }
                // d3's log format leaves crowded ticks unlabelled.
                if text.isEmpty { continue }
                labels.append(graphLabel(text, font: axis.font, fill: axis.fill, location: location, absoluteOrigin: absoluteOrigin) {
                    axisLabelOrigin(axis, at: position, size: $0, drop: 0, plot: plot)
                })
            }
        case .x:
            path.move(to: Point(plot.minX, plot.maxY)); path.line(to: Point(plot.maxX, plot.maxY))
            let drop = baselineDrops(ticks.map(\.1), font: axis.font)
            for (position, text) in ticks {
                if axis.tickSize > 0 { path.move(to: Point(position, plot.maxY)); path.line(to: Point(position, plot.maxY + axis.tickSize)) }
                if text.isEmpty { continue }
                labels.append(graphLabel(text, font: axis.font, fill: axis.fill, location: location, absoluteOrigin: absoluteOrigin) {
                    axisLabelOrigin(axis, at: position, size: $0, drop: drop[text] ?? 0, plot: plot)
                })
            }
        }
        var style = axis.stroke
        style.fill = .none
        let frame = path.boundingBox ?? plot
        return graphNode(axis.edge == .x ? "xAxis" : "yAxis", location, opacity: axis.opacity, frame: frame,
                         absoluteOrigin: absoluteOrigin, drawing: shapeDrawing(path, style: style, box: plot),
                         children: Self.withoutCollisions(labels, along: axis.edge))
    }

    /// Where a tick's label goes, 3 points past its mark (d3-axis's
    /// `tickPadding`): right-aligned and centred on the tick for y, centred
    /// under it for x (lowered by `drop` to share the row's baseline). The
    /// axis and the padding that fits it both place labels here.
    func axisLabelOrigin(_ axis: GraphAxis, at position: Double, size: Size, drop: Double, plot: Rect) -> Point {
        let gap = 3.0
        switch axis.edge {
        case .y: return Point(plot.minX - axis.tickSize - gap - size.width, position - size.height / 2)
        case .x: return Point(position - size.width / 2, plot.maxY + axis.tickSize + gap + drop)
        }
    }

    /// How far each label of a row moves down so that all share the
    /// lowest first baseline: labels whose characters fall back to other
    /// fonts (`2026` beside `10月` or `أبريل`) have other ascents. One font:
    /// all 0.
    func baselineDrops(_ texts: [String], font: FontSpec) -> [String: Double] {
        var baselines: [String: Double] = [:]
        for text in texts where !text.isEmpty && baselines[text] == nil { baselines[text] = labelMetrics(text, font: font).baseline }
        let lowest = baselines.values.max() ?? 0
        return baselines.mapValues { lowest - $0 }
    }

    /// Each tick's position (y for the y axis, x for the x axis) and label
    /// (empty where d3 gives a tick none), in the scene's locale.
    func axisTicks(_ axis: GraphAxis, _ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect) -> [(Double, String)] {
        let count = Double(axis.ticks)
        let number = labelLocale.number
        switch axis.edge {
        case .y:
            let (lo, hi) = scale.range
            let values: [Double], texts: [String]
            if scale.kind == .log {
                values = LogTicks.ticks(lo, hi, count: count)
                texts = axis.format.map { f in values.map { formatted($0, f) } } ?? LogTicks.labels(values, start: lo, stop: hi, count: count, locale: number)
            } else {
                values = NumericTicks.ticks(lo, hi, count: count)
                texts = axis.format.map { f in values.map { formatted($0, f) } }
                    ?? NumericTicks.labels(values, start: lo, stop: hi, count: count, locale: number)
            }
            return zip(values, texts).map { (GraphGeometry.y(of: $0, scale, plot: plot), $1) }
        case .x:
            if let domain = scale.xDomain {
                // A banded graph's domain reaches half a slot past the data:
                // ticks over the data's own range.
                let range: (min: Double, max: Double) = scale.xStep.map { (domain.min + $0 / 2, domain.max - $0 / 2) } ?? domain
                let values = g.xIsTime ? TimeTicks.ticks(range.min, range.max, count: count)
                    : NumericTicks.ticks(range.min, range.max, count: count)
                let texts: [String]
                if g.xIsTime {
                    texts = values.map { t in axis.format.map { TimeFormat.format(t, $0, locale: labelLocale.time) } ?? TimeTicks.label(t, locale: labelLocale.time) }
                } else {
                    texts = axis.format.map { f in values.map { formatted($0, f) } }
                        ?? NumericTicks.labels(values, start: range.min, stop: range.max, count: count, locale: number)
                }
                return zip(values, texts).map { (GraphGeometry.x(of: $0, domain: domain, plot: plot), $1) }
            }
            // Placed by index: a tick at each whole index d3 picks over
            // 0…n−1, labelled by the point's label (or its number from 1);
            // a banded graph's at every slot d3 picks.
            let n = scale.indexCount
            let indexes = n == 1 ? [0.0] : NumericTicks.ticks(0, Double(n - 1), count: count).filter { $0 == $0.rounded() }
            return indexes.map { i in
                let k = Int(i)
                let text = k < g.labels.count && !g.labels[k].isEmpty ? g.labels[k] : number.numeralsApplied(String(k + 1))
                return (GraphGeometry.x(ofIndex: i, scale, count: n, plot: plot), text)
            }
        }
    }

    /// Labels that would overlap (closer than 2 points) keep every other one
    /// until none do (Vega's "parity" strategy): first, third, fifth… — so
    /// the ones kept stay evenly spaced.
    static func withoutCollisions(_ labels: [DraftNode], along edge: GraphAxis.Edge) -> [DraftNode] {
        var kept = labels
        func overlaps(_ a: Rect, _ b: Rect) -> Bool {
            edge == .x ? min(a.maxX, b.maxX) + 2 > max(a.minX, b.minX) : min(a.maxY, b.maxY) + 2 > max(a.minY, b.minY)
        }
        while kept.count > 1, zip(kept, kept.dropFirst()).contains(where: { overlaps($0.frame, $1.frame) }) {
            kept = kept.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        }
        return kept
    }

    /// The named series, each as a swatch — 18 points of its line with its
    /// point's dot in the middle, or for a series of bars or areas alone a
    /// 10-point square of their fill — then its name, in one row 12 points
    /// apart. Top positions put the row's bottom 8 points above the plot,
    /// bottom ones its bottom 4 points above the frame's bottom; leading
    /// aligns it with the plot's left edge, trailing with its right.
    func legendNode(_ legend: GraphLegend, _ g: LineGraph, plot: Rect, frameBox: Rect, location: SourceLocation,
                    absoluteOrigin: Point) -> DraftNode {
        let swatch = 18.0, gap = 4.0, spacing = 12.0
        struct Entry { var line: PaintStyle?; var dot: (Double, PaintStyle)?; var fill: PaintStyle?; var label: DraftNode }
        var entries: [Entry] = []
        for s in g.series {
            guard let name = s.name, !name.isEmpty else { continue }
            let layers = s.items.isEmpty ? defaultLayers(at: location) : s.items
            var entry = Entry(label: graphLabel(name, font: legend.font, fill: legend.fill, location: location, absoluteOrigin: absoluteOrigin) { _ in .zero })
            for layer in layers {
                if case .line(let style, _, let opacity) = layer.item, entry.line == nil {
                    var st = style
                    st.fill = .none
                    st.strokeOpacity *= opacity
                    entry.line = st
                }
                if case .points(let d, let style, let opacity) = layer.item, entry.dot == nil {
                    var st = style
                    st.fillOpacity *= opacity
                    st.strokeOpacity *= opacity
                    entry.dot = (min(d, swatch / 2), st)
                }
                // A series of bars or areas alone: a square of its fill.
                if entry.fill == nil {
                    if case .bars(let bars) = layer.item {
                        var st = bars.style
                        st.fillOpacity *= bars.opacity
                        st.stroke = .none
                        entry.fill = st
                    } else if case .area(let style, let opacity, _) = layer.item {
                        var st = style
                        st.fillOpacity *= opacity
                        entry.fill = st
                    }
                }
            }
            entries.append(entry)
        }
        let height = entries.map(\.label.frame.height).max() ?? 0
        let width = entries.reduce(0) { $0 + swatch + gap + $1.label.frame.width } + spacing * Double(max(0, entries.count - 1))
        let top: Double, left: Double
        switch legend.position {
        case .topLeading, .topTrailing: top = plot.minY - 8 - height
        case .bottomLeading, .bottomTrailing: top = frameBox.maxY - 4 - height
        }
        switch legend.position {
        case .topLeading, .bottomLeading: left = plot.minX
        case .topTrailing, .bottomTrailing: left = plot.maxX - width
        }
        var children: [DraftNode] = []
        var x = left
        let mid = top + height / 2
        for entry in entries {
            let box = Rect(x: x, y: top, width: swatch, height: height)
            if let line = entry.line {
                var path = BezierPath()
                path.move(to: Point(x, mid)); path.line(to: Point(x + swatch, mid))
                children.append(graphNode("swatch", location, opacity: 1, frame: box, absoluteOrigin: absoluteOrigin,
                                          drawing: shapeDrawing(path, style: line, box: box)))
            }
            if entry.line == nil, entry.dot == nil, let fill = entry.fill {
                let side = min(10, height)
                let square = Rect(x: x + (swatch - side) / 2, y: mid - side / 2, width: side, height: side)
                children.append(graphNode("swatch", location, opacity: 1, frame: square, absoluteOrigin: absoluteOrigin,
                                          drawing: shapeDrawing(.roundedRect(square, radii: CornerRadii(all: 2)), style: fill, box: square)))
            }
            if let (d, style) = entry.dot, d > 0 {
                var dot = BezierPath()
                dot.append(.ellipse(in: Rect(x: x + swatch / 2 - d / 2, y: mid - d / 2, width: d, height: d)))
                children.append(graphNode("swatch", location, opacity: 1, frame: box, absoluteOrigin: absoluteOrigin,
                                          drawing: shapeDrawing(dot, style: style, box: box)))
            }
            var label = entry.label
            let origin = Point(x + swatch + gap, top + (height - label.frame.height) / 2)
            label.frame = Rect(x: origin.x, y: origin.y, width: label.frame.width, height: label.frame.height)
            label.absoluteFrame = label.frame.offsetBy(absoluteOrigin.x, absoluteOrigin.y)
            label.transform = .translation(origin.x, origin.y)
            children.append(label)
            x += swatch + gap + label.frame.width + spacing
        }
        return graphNode("legend", location, opacity: legend.opacity, frame: Rect(x: left, y: top, width: width, height: height),
                         absoluteOrigin: absoluteOrigin, drawing: nil, children: children)
    }
}
