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
        var padding = start
        // Where x labels fall depends on the plot's width, which the y
        // labels set: a few passes, each side only growing, settle it.
        for _ in 0..<3 {
            let plot = frameBox.insetBy(Self.withinFrame(padding, size: size))
            guard plot.width > 0, plot.height > 0 else { break }
            let need = reach(g, scale, plot: plot)
            let next = EdgeInsets(top: max(padding.top, need.top), right: max(padding.right, need.right),
                                  bottom: max(padding.bottom, need.bottom), left: max(padding.left, need.left))
            if next == padding { break }
            padding = next
        }
        return Self.withinFrame(padding, size: size)
    }

    /// Never more than the frame: sides scaled down together to leave a
    /// plot of at least a point each way (a graph smaller than the 1.0
    /// default padding still fits its labels where it can).
    static func withinFrame(_ p: EdgeInsets, size: Size) -> EdgeInsets {
        var padding = p
        if padding.left + padding.right > size.width - 1 {
            let k = max(0, size.width - 1) / (padding.left + padding.right)
            padding.left *= k; padding.right *= k
        }
        if padding.top + padding.bottom > size.height - 1 {
            let k = max(0, size.height - 1) / (padding.top + padding.bottom)
            padding.top *= k; padding.bottom *= k
        }
        return padding
    }

    /// How far past each side of `plot` the graph's labels, ticks and
    /// legend reach (0 where nothing does).
    func reach(_ g: LineGraph, _ scale: GraphGeometry.Scale, plot: Rect) -> EdgeInsets {
        var need = EdgeInsets.zero
        let gap = 3.0
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
                for (position, text) in axisTicks(axis, g, scale, plot: plot) where !text.isEmpty {
                    let size = labelSize(text, font: axis.font)
                    switch axis.edge {
                    case .y:
                        include(Rect(x: plot.minX - axis.tickSize - gap - size.width, y: position - size.height / 2, width: size.width, height: size.height))
                    case .x:
                        let box = Rect(x: position - size.width / 2, y: plot.maxY + axis.tickSize + gap, width: size.width, height: size.height)
                        include(box)
                        belowPlot = max(belowPlot, box.maxY - plot.maxY)
                    }
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
        var style = TextStyle(text: text)
        style.font = font
        style.lang = lang
        return measurer.measure(textRequest(style, wrapWidth: nil, height: nil).request)
    }
}
