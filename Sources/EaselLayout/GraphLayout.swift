import EaselModel

/// A line graph's layers as children in its own space, in document order:
/// each series' area, line and points, the grid, the axes with their
/// labels, the legend and the graph's texts (docs/format.md, "Line graphs").
extension Resolver {
    /// The layers, and the plot box in scene points.
    func graphLayers(_ g: LineGraph, node: Node, size: Size, absoluteOrigin: Point) -> ([DraftNode], Rect) {
        let frameBox = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let scale = GraphGeometry.scale(g)
        let padding = g.autoPadding ? fittedPadding(g, scale, size: size) : g.padding
        let plot = frameBox.insetBy(padding)
        var items = g.items
        // Rules and bands mark a graph; they do not stand in for its line.
        if g.series.isEmpty, !items.contains(where: { $0.item.isLayer && !$0.item.isReferenceMark }) {
            items.insert(contentsOf: defaultLayers(at: node.location), at: 0)
        }
        // Bars of several series share each slot: the k-th of n unstacked.
        let barSeries = g.series.filter { s in s.items.contains { if case .bars = $0.item { return true } else { return false } } }.count
        let barGroup = g.stack == .none ? Swift.max(1, barSeries) : 1
        let graphPainter = SeriesPainter(resolver: self, graph: g, values: g.values, x: g.x, baseline: nil, items: items,
                                         plot: plot, frameBox: frameBox, absoluteOrigin: absoluteOrigin, scale: scale,
                                         barSlot: (0, 1))

        var out: [DraftNode] = []
        var seriesIndex = 0, barIndex = 0
        for entry in items {
            switch entry.item {
            case .area, .line, .points, .bars:
                out.append(graphPainter.layer(entry))
            case .series(let s):
                let own = s.items.isEmpty ? defaultLayers(at: entry.location) : s.items
                let stacked = scale.stacks.map { $0[seriesIndex] }
                let drawsBars = own.contains { if case .bars = $0.item { return true } else { return false } }
                let painter = SeriesPainter(resolver: self, graph: g, values: stacked?.upper ?? s.values, x: s.x, baseline: stacked?.lower,
                                            items: own, plot: plot, frameBox: frameBox, absoluteOrigin: absoluteOrigin, scale: scale,
                                            barSlot: (g.stack == .none ? barIndex : 0, barGroup))
                seriesIndex += 1
                if drawsBars { barIndex += 1 }
                out.append(graphNode("series", entry.location, opacity: 1, frame: plot, absoluteOrigin: absoluteOrigin,
                                     drawing: nil, children: own.map(painter.layer)))
            case .grid(let count, let style, let opacity, let ticks):
                var lines = BezierPath()
                let ys: [Double]
                if ticks {
                    ys = yTicks(g, scale).map { GraphGeometry.y(of: $0, scale, plot: plot) }
                } else {
                    ys = (0..<count).map { k in count == 1 ? plot.minY : plot.minY + Double(k) * plot.height / Double(count - 1) }
                }
                for y in ys {
                    lines.move(to: Point(plot.minX, y))
                    lines.line(to: Point(plot.maxX, y))
                }
                var s = style
                s.fill = .none
                out.append(graphNode("grid", entry.location, opacity: opacity, frame: plot, absoluteOrigin: absoluteOrigin,
                                     drawing: shapeDrawing(lines, style: s, box: plot)))
            case .xLabels(let font, let fill, let offset, let opacity):
                let points = graphPainter.points
                let labels = zip(points, g.labels).filter { !$0.1.isEmpty }.map { p, text in
                    graphLabel(text, font: font, fill: fill, location: entry.location, absoluteOrigin: absoluteOrigin) { Point(p.x - $0.width / 2, plot.maxY + offset) }
                }
                out.append(graphNode("xLabels", entry.location, opacity: opacity, frame: plot, absoluteOrigin: absoluteOrigin,
                                     drawing: nil, children: labels))
            case .yLabels(let font, let fill, let format, let opacity):
                // The max at the top grid line, the min at the bottom one,
                // right-aligned to the plot, their bottoms 2 points above.
                let (lo, hi) = scale.range
                let labels = [(hi, plot.minY), (lo, plot.maxY)].map { value, lineY in
                    graphLabel(formatted(value, format), font: font, fill: fill, location: entry.location, absoluteOrigin: absoluteOrigin) {
                        Point(plot.maxX - $0.width, lineY - 2 - $0.height)
                    }
                }
                out.append(graphNode("yLabels", entry.location, opacity: opacity, frame: plot, absoluteOrigin: absoluteOrigin,
                                     drawing: nil, children: labels))
            case .axis(let axis):
                out.append(axisNode(axis, g, scale, plot: plot, location: entry.location, absoluteOrigin: absoluteOrigin))
            case .legend(let legend):
                out.append(legendNode(legend, g, plot: plot, frameBox: frameBox, location: entry.location, absoluteOrigin: absoluteOrigin))
            case .rule(let rule):
                out.append(ruleNode(rule, g, scale, plot: plot, location: entry.location, absoluteOrigin: absoluteOrigin))
            case .band(let band):
                out.append(bandNode(band, g, scale, plot: plot, location: entry.location, absoluteOrigin: absoluteOrigin))
            case .text(let textNode):
                out.append(resolve(textNode, content: size, absoluteOrigin: absoluteOrigin, placed: nil))
            }
        }
        noteLabelsOutside(out, frame: frameBox, autoPadding: g.autoPadding)
        if g.paddingGiven, size.width > 0, size.height > 0, plot.width <= 0 || plot.height <= 0 {
            context.emptyPlots.append(EmptyPlot(location: node.location, frame: size, padding: padding))
        }
        return (out, plot.offsetBy(absoluteOrigin.x, absoluteOrigin.y))
    }

    /// A number in a `format` (printf, in the locale's decimal mark and
    /// digits) or d3's shortest form.
    func formatted(_ value: Double, _ format: String?) -> String {
        labelLocale.number.localized(printf: GraphStatistics.format(value, format))
    }

    /// An axis or legend label drawn outside the graph's frame is told
    /// (`LayoutContext.labelsOutside`): the padding given is too small, or
    /// the frame is too small even for a padding grown to fit.
    func noteLabelsOutside(_ layers: [DraftNode], frame: Rect, autoPadding: Bool) {
        for layer in layers where ["xAxis", "yAxis", "legend"].contains(layer.element) {
            for child in layer.children where child.element == "text" {
                let f = child.frame
                guard f.minX < frame.minX - 0.5 || f.maxX > frame.maxX + 0.5 || f.minY < frame.minY - 0.5 || f.maxY > frame.maxY + 0.5,
                      case .text(let t)? = child.drawing else { continue }
                context.labelsOutside.append(LabelOutside(text: t.shaped.text, location: child.location, autoPadding: autoPadding))
            }
        }
    }

    /// No layer given: the line, then the points, in black.
    func defaultLayers(at location: SourceLocation) -> [GraphEntry] {
        var line = PaintStyle(fill: .none)
        line.stroke = .color(.black); line.strokeWidth = 2; line.lineJoin = .round; line.lineCap = .round
        return [GraphEntry(.line(line, curve: .linear, opacity: 1), at: location),
                GraphEntry(.points(diameter: 5, PaintStyle(fill: .color(.black)), opacity: 1), at: location)]
    }

    func graphNode(_ element: String, _ location: SourceLocation, opacity: Double, frame: Rect, absoluteOrigin: Point,
                   drawing: Drawing?, children: [DraftNode] = []) -> DraftNode {
        var n = DraftNode(element: element, location: location, frame: frame,
                           absoluteFrame: frame.offsetBy(absoluteOrigin.x, absoluteOrigin.y), opacity: opacity)
        n.drawing = drawing
        n.children = children
        return n
    }

    /// A one-line label placed by its measured size.
    func graphLabel(_ text: String, font: FontSpec, fill: Paint, location: SourceLocation, absoluteOrigin: Point,
                    place: (Size) -> Point) -> DraftNode {
        var style = TextStyle(text: text)
        style.font = font
        style.fill = fill
        style.lang = lang
        let size = measurer.measure(textRequest(style, wrapWidth: nil, height: nil).request)
        let origin = place(size)
        let frame = Rect(x: origin.x, y: origin.y, width: size.width, height: size.height)
        var n = graphNode("text", location, opacity: 1, frame: frame, absoluteOrigin: absoluteOrigin,
                          drawing: .text(textDrawing(style, frame: frame, wraps: false, height: nil)))
        n.transform = .translation(frame.x, frame.y)
        return n
    }

    /// The y axis's tick values: its own count, or d3's 5 for a grid
    /// without an axis; a log scale's as `scaleLog` makes them.
    func yTicks(_ g: LineGraph, _ scale: GraphGeometry.Scale) -> [Double] {
        let (lo, hi) = scale.range
        let count = Double(g.axis(.y)?.ticks ?? 5)
        return scale.kind == .log ? LogTicks.ticks(lo, hi, count: count) : NumericTicks.ticks(lo, hi, count: count)
    }
}

/// One series' points and the area, line and points layers drawn from them.
struct SeriesPainter {
    let resolver: Resolver
    let points: [Point]
    /// The runs between gaps, as the line is drawn (reduced where far more
    /// points than pixel columns), and the line through each.
    let drawnRuns: [[Point]]
    let curve: BezierPath
    /// The curve of the series' first `<line>` (its area follows it).
    let curveKind: GraphCurve
    let plot: Rect, frameBox: Rect, absoluteOrigin: Point
    let graph: LineGraph
    let scale: GraphGeometry.Scale
    /// A stacked series' baseline points (the tops of the series below),
    /// drawn as they are reduced: its area fills down to them, its bars
    /// stand on them.
    let baseline: [Point]?
    let drawnBaselines: [[Point]]
    /// Which of how many bars side by side in each slot this series draws.
    let barSlot: (index: Int, of: Int)

    init(resolver: Resolver, graph: LineGraph, values: [Double], x: [Double]?, baseline: [Double]?, items: [GraphEntry],
         plot: Rect, frameBox: Rect, absoluteOrigin: Point, scale: GraphGeometry.Scale, barSlot: (Int, Int)) {
        self.resolver = resolver
        self.graph = graph
        self.scale = scale
        self.plot = plot
        self.frameBox = frameBox
        self.absoluteOrigin = absoluteOrigin
        self.barSlot = barSlot
        points = GraphGeometry.points(values, x: x, graph, scale, plot: plot)
        let base = baseline.map { GraphGeometry.points($0, x: x, graph, scale, plot: plot) }
        self.baseline = base
        let curveKind: GraphCurve = items.lazy.compactMap { entry -> GraphCurve? in
            if case .line(_, let c, _) = entry.item { return c }
            return nil
        }.first ?? .linear
        // Straight lines through far more points than pixel columns are
        // drawn from the M4 reduction over eighth-of-a-pixel slices: the
        // same pixels to within 8/255 on 99.7% of them (M4 is exact for
        // aliased lines; anti-aliased ones need the finer slices).
        // The slices are those of the largest scale the tree serves, so the
        // tree does not depend on the scale it is painted at.
        let options = resolver.options
        let slices = (plot.width * options.maxScale * 8).rounded(.up)
        let columns = slices.isFinite && slices < 1e7 ? Int(slices) : 0   // 0: no reduction
        var runs: [[Point]] = []
        var curve = BezierPath()
        for run in GraphGeometry.runs(points) {
            let drawn = curveKind == .linear && options.reduceSeries ? GraphGeometry.decimated(run, plot: plot, columns: columns) : run
            if drawn.count < run.count { resolver.context.reducedSeries = true }
            runs.append(drawn)
            curve.append(GraphGeometry.curve(drawn, curveKind))
        }
        drawnRuns = runs
        // A stacked series has no gaps (a missing cell counts as 0).
        drawnBaselines = base.map { b in
            [curveKind == .linear && options.reduceSeries ? GraphGeometry.decimated(b, plot: plot, columns: columns) : b]
        } ?? []
        self.curve = curve
        self.curveKind = curveKind
    }

    func layer(_ entry: GraphEntry) -> DraftNode {
        switch entry.item {
        case .area(let style, let opacity, let to):
            let base: Double
            switch to {
            case .frame: base = frameBox.maxY
            case .plot: base = plot.maxY
            case .zero: base = scale.base(plot: plot)
            }
            var region = BezierPath()
            if baseline != nil {
                // Stacked: down to the series below, back along its top.
                for (run, below) in zip(drawnRuns, drawnBaselines) {
                    guard let last = below.last else { continue }
                    var part = GraphGeometry.curve(run, curveKind)
                    part.line(to: last)
                    for element in GraphGeometry.curve(below.reversed(), curveKind).elements.dropFirst() {
                        switch element {
                        case .line(let p): part.line(to: p)
                        case .cubic(let c1, let c2, let p): part.curve(to: p, control1: c1, control2: c2)
                        case .move, .close: break
                        }
                    }
                    part.close()
                    region.append(part)
                }
            } else {
                for run in drawnRuns {
                    guard let first = run.first, let last = run.last else { continue }
                    var part = GraphGeometry.curve(run, curveKind)
                    part.line(to: Point(last.x, base))
                    part.line(to: Point(first.x, base))
                    part.close()
                    region.append(part)
                }
            }
            var s = style
            s.stroke = .none
            return node("area", entry, opacity: opacity, frame: region.boundingBox ?? .zero,
                        drawing: region.isEmpty ? nil : resolver.shapeDrawing(region, style: s, box: frameBox))
        case .line(let style, _, let opacity):
            var s = style
            s.fill = .none
            return node("line", entry, opacity: opacity, frame: curve.boundingBox ?? .zero,
                        drawing: resolver.shapeDrawing(curve, style: s, box: plot))
        case .points(let diameter, let style, let opacity):
            var dots = BezierPath()
            let r = diameter / 2
            let present = points.filter { !$0.y.isNaN }
            // More points than the plot has device pixels (at the largest
            // scale served): merged per quarter device pixel, buried dots
            // drawn as the squares they cover (`mergedDots`); if that still
            // leaves more dots than pixels (noise fills a cloud with holes),
            // per device pixel. The same picture from far fewer dots.
            let options = resolver.options
            let pixels = plot.width * plot.height * options.maxScale * options.maxScale
            if options.reduceSeries && Double(present.count) > pixels {
                let bury = style.stroke == .none && style.fillRule == .nonzero
                let bounds = Rect(x: plot.minX - r, y: plot.minY - r, width: plot.width + 2 * r, height: plot.height + 2 * r)
                var merged = GraphGeometry.mergedDots(present, radius: r, cell: 0.25 / options.maxScale, buryInterior: bury, within: bounds)
                if Double(merged.centres.count) > pixels {
                    merged = GraphGeometry.mergedDots(present, radius: r, cell: 1 / options.maxScale, buryInterior: bury, within: bounds)
                }
                resolver.context.reducedSeries = true
                if r > 0 {
                    for p in merged.centres { dots.append(.ellipse(in: Rect(x: p.x - r, y: p.y - r, width: diameter, height: diameter))) }
                    // Clockwise with y down, as the ellipses: overlaps add up under the non-zero rule.
                    for box in merged.covered {
                        dots.move(to: Point(box.minX, box.minY))
                        dots.line(to: Point(box.maxX, box.minY))
                        dots.line(to: Point(box.maxX, box.maxY))
                        dots.line(to: Point(box.minX, box.maxY))
                        dots.close()
                    }
                }
            } else if r > 0 {
                for p in present { dots.append(.ellipse(in: Rect(x: p.x - r, y: p.y - r, width: diameter, height: diameter))) }
            }
            var drawing = resolver.shapeDrawing(dots, style: style, box: plot)
            if case .shapes(var passes) = drawing, !passes.isEmpty {
                passes[0].crossesOnlyNeighbours = true
                drawing = .shapes(passes)
            }
            return node("points", entry, opacity: opacity, frame: dots.boundingBox ?? .zero, drawing: drawing)
        case .bars(let bars):
            return barsLayer(bars, entry)
        default:
            // Callers pass only area, line, points and bars (`isSeriesLayer`).
            return node(entry.item.isLayer ? "layer" : "text", entry, opacity: 1, frame: .zero, drawing: nil)
        }
    }

    /// One bar per value (docs/format.md, "Bars"): in the slot centred on
    /// its point, `width`·w wide for a stacked series or one of k
    /// unstacked ones `width`·w/k wide side by side, from its baseline (0,
    /// or the plot's edge when 0 is outside the range; the series below
    /// when stacked) to its value. One gradient across the plot, or one
    /// per bar (`paint-box="bar"`).
    func barsLayer(_ bars: GraphBars, _ entry: GraphEntry) -> DraftNode {
        let w = scale.slotWidth(plot: plot)
        let group = bars.width * w
        let barWidth = group / Double(barSlot.of)
        let zero = scale.base(plot: plot)
        var rects: [Rect] = []
        for (i, p) in points.enumerated() where !p.y.isNaN && p.y.isFinite {
            let left = p.x - group / 2 + Double(barSlot.index) * barWidth
            let from = baseline.map { $0[i].y } ?? zero
            let top = Swift.min(from, p.y), bottom = Swift.max(from, p.y)
            rects.append(Rect(x: left, y: top, width: barWidth, height: bottom - top))
        }
        func path(_ r: Rect) -> BezierPath {
            let radius = Swift.min(bars.cornerRadius, r.width / 2, r.height / 2)
            return radius > 0 ? .roundedRect(r, radii: CornerRadii(all: radius)) : .rect(r)
        }
        var style = bars.style
        if style.stroke == .none { style.strokeWidth = 0 }
        let bounds = RenderPath.outlineBounds(BezierPath(), rects) ?? .zero
        switch bars.paintBox {
        case .plot:
            // Square bars of one series never overlap (each in its own slot,
            // at most the slot's width): kept as rectangles, which a raster
            // backend may fill by coverage at any scale.
            let square = bars.cornerRadius <= 0
            var all = BezierPath()
            if !square {
                for r in rects { all.append(path(r)) }
            }
            var drawing = rects.isEmpty ? nil : resolver.shapeDrawing(all, style: style, paintBox: plot)
            if square, case .shapes(var passes)? = drawing, !passes.isEmpty {
                passes[0].disjointRectangles = rects
                drawing = .shapes(passes)
            }
            return node("bars", entry, opacity: bars.opacity, frame: bounds, drawing: drawing)
        case .bar:
            var n = node("bars", entry, opacity: bars.opacity, frame: bounds, drawing: nil)
            n.children = rects.map { r in
                resolver.graphNode("bar", entry.location, opacity: 1, frame: r, absoluteOrigin: absoluteOrigin,
                                   drawing: resolver.shapeDrawing(path(r), style: style, paintBox: r))
            }
            return n
        }
    }

    private func node(_ element: String, _ entry: GraphEntry, opacity: Double, frame: Rect, drawing: Drawing?) -> DraftNode {
        resolver.graphNode(element, entry.location, opacity: opacity, frame: frame, absoluteOrigin: absoluteOrigin, drawing: drawing)
    }
}
