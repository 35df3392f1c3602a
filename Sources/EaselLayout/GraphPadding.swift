import EaselModel

/// A graph's padding grown to fit what is drawn outside its plot — the
/// axes' tick marks and labels, `<xLabels>`, `<yLabels>` and the legend —
/// as Vega-Lite's `autosize: pad` grows a view (docs/format.md, "Graphs
/// that lay themselves out"). Each side starts from the 1.0 default.
extension Resolver {
    /// Between an axis's labels and a bottom legend.
    static let legendGap = 8.0

    func fittedPadding(_ g: LineGraph, _ scale: GraphGeometry.Scale, size: Size) -> EdgeInsets {
        let start = LineGraph(values: [], labels: []).padding
        let frameBox = Rect(x: 0, y: 0, width: size.width, height: size.height)
        var padding = start, need = EdgeInsets.zero
        // Where x labels fall depends on the plot's width, which the y
        // labels set: a few passes, each side only growing, settle it.
        for _ in 0..<3 {
            let plot = frameBox.insetBy(Self.withinFrame(padding, need: need, size: size).padding)
            guard plot.width > 0, plot.height > 0 else { break }
            let reached = reach(g, scale, plot: plot)
            need = EdgeInsets(top: max(need.top, reached.top), right: max(need.right, reached.right),
                              bottom: max(need.bottom, reached.bottom), left: max(need.left, reached.left))
            let next = EdgeInsets(top: max(padding.top, need.top), right: max(padding.right, need.right),
                                  bottom: max(padding.bottom, need.bottom), left: max(padding.left, need.left))
            if next == padding { break }
            padding = next
        }
        let (fitted, squeezed) = Self.withinFrame(padding, need: need, size: size)
        if squeezed {
            context.squeezedPlots.append(SqueezedPlot(location: context.current, frame: size, needed: need))
        }
        return fitted
    }

    /// Never more than the frame, leaving a plot of at least a point each
    /// way: what a side has beyond what its labels need (the 1.0 default's
    /// room) gives way first; only if the labels' own needs do not fit are
    /// they scaled down too (`squeezed`: the labels will not fit).
    static func withinFrame(_ p: EdgeInsets, need: EdgeInsets, size: Size) -> (padding: EdgeInsets, squeezed: Bool) {
        func fit(_ a: Double, _ b: Double, needA: Double, needB: Double, room: Double) -> (Double, Double, Bool) {
            let excess = a + b - room
            guard excess > 0 else { return (a, b, false) }
            let slackA = max(0, a - needA), slackB = max(0, b - needB), slack = slackA + slackB
            if slack >= excess, slack > 0 { return (a - excess * slackA / slack, b - excess * slackB / slack, false) }
            let (na, nb) = (min(a, needA), min(b, needB))
            let k = na + nb > 0 ? max(0, room) / (na + nb) : 0
            return (na * k, nb * k, true)
        }
        let (left, right, squeezedX) = fit(p.left, p.right, needA: need.left, needB: need.right, room: size.width - 1)
        let (top, bottom, squeezedY) = fit(p.top, p.bottom, needA: need.top, needB: need.bottom, room: size.height - 1)
        return (EdgeInsets(top: top, right: right, bottom: bottom, left: left), squeezedX || squeezedY)
    }

    /// How far past each side of `plot` the graph's labels, ticks and
    /// legend reach (0 where nothing does).
    func reach(_ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect) -> EdgeInsets {
        var need = EdgeInsets.zero
        func include(_ box: Rect) {
            need.left = max(need.left, plot.minX - box.minX)
            need.right = max(need.right, box.maxX - plot.maxX)
            need.top = max(need.top, plot.minY - box.minY)
            need.bottom = max(need.bottom, box.maxY - plot.maxY)
        }
        var belowPlot = 0.0
        for entry in g.items {
            switch entry.item {
            case .axis(let axis):
                let ticks = axisTicks(axis, g, scale, plot: plot)
                let drop = axis.edge == .x ? baselineDrops(ticks.map(\.1), font: axis.font) : [:]
                for (position, text) in ticks where !text.isEmpty {
                    let size = labelSize(text, font: axis.font)
                    let origin = axisLabelOrigin(axis, at: position, size: size, drop: drop[text] ?? 0, plot: plot)
                    let box = Rect(x: origin.x, y: origin.y, width: size.width, height: size.height)
                    include(box)
                    if axis.edge == .x { belowPlot = max(belowPlot, box.maxY - plot.maxY) }
                }
                if axis.edge == .y { need.left = max(need.left, axis.tickSize) } else { belowPlot = max(belowPlot, axis.tickSize) }
            case .xLabels(let font, _, let offset, _):
                let n = g.series.isEmpty ? g.values.count : scale.indexCount
                for (i, text) in g.labels.enumerated() where !text.isEmpty && i < n {
                    let x = GraphGeometry.x(ofIndex: Double(i), scale, count: n, plot: plot)
                    let size = labelSize(text, font: font)
                    let box = Rect(x: x - size.width / 2, y: plot.maxY + offset, width: size.width, height: size.height)
                    include(box)
                    belowPlot = max(belowPlot, box.maxY - plot.maxY)
                }
            case .yLabels(let font, _, let format, _):
                let size = labelSize(formatted(scale.range.max, format), font: font)
                need.top = max(need.top, 2 + size.height)
            default:
                break
            }
        }
        for entry in g.items {
            guard case .legend(let legend) = entry.item else { continue }
            let height = g.series.compactMap { s in s.name.flatMap { $0.isEmpty ? nil : labelSize($0, font: legend.font).height } }.max() ?? 0
            guard height > 0 else { continue }
            switch legend.position {
            case .topLeading, .topTrailing: need.top = max(need.top, 8 + height)
            case .bottomLeading, .bottomTrailing:
                need.bottom = max(need.bottom, belowPlot + (belowPlot > 0 ? Self.legendGap : 0) + height + 4)
            }
        }
        return need
    }

    /// A one-line label's measured size.
    func labelSize(_ text: String, font: FontSpec) -> Size {
        measurer.measure(labelRequest(text, font: font))
    }

    /// A one-line label's size and its first baseline from its top.
    func labelMetrics(_ text: String, font: FontSpec) -> (size: Size, baseline: Double) {
        let shaped = measurer.shape(labelRequest(text, font: font))
        return (shaped.size, shaped.lines.first?.baseline ?? shaped.size.height)
    }

    private func labelRequest(_ text: String, font: FontSpec) -> TextRequest {
        var style = TextStyle(text: text)
        style.font = font
        style.lang = lang
        return textRequest(style, wrapWidth: nil, height: nil).request
    }
}
