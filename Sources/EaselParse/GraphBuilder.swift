import EaselModel

/// `<lineGraph>`: its data (values, points, CSV) and its layers.
extension SceneBuilder {
    func buildGraph(_ el: XMLElement, depth: Int) -> LineGraph {
        let usesTable = el.attribute("x-column") != nil || el.children.contains { $0.name == "series" }
            || el.attribute("missing")?.value.trimmingSpaces == MissingData.gap.rawValue
            || (el.attribute("y-scale")?.value.trimmingSpaces == GraphScaleKind.log.rawValue && el.attribute("src") != nil)
        let (read, table) = usesTable ? tableGraph(el) : (singleSeriesGraph(el), SeriesTable())
        var graph = read
        graph.min = number(el, "min")
        graph.max = number(el, "max")
        graph.yScale = keyword(el, "y-scale", GraphScaleKind.self) ?? .linear
        graph.stack = keyword(el, "stack", GraphStacking.self) ?? .none
        if let a = el.attribute("padding") {
            if a.value.trimmingSpaces == "auto" { graph.autoPadding = true } else { graph.padding = padding(el); graph.paddingGiven = true }
        } else {
            graph.autoPadding = el.children.contains { ["xAxis", "yAxis", "legend"].contains($0.name) }
        }
        let hasSeries = el.children.contains { $0.name == "series" }

        // Series first: whether x holds times (a series may read its own
        // file) decides how an <xAxis> before them reads its format.
        var seriesEntries: [Int: GraphEntry] = [:]
        var isTime: Bool? = graph.x == nil ? nil : graph.xIsTime
        for (i, child) in el.children.enumerated() where child.name == "series" {
            seriesEntries[i] = seriesItem(child, in: el, graph: graph, table: table, isTime: &isTime, depth: depth)
        }
        graph.xIsTime = isTime ?? false
        let anyX = graph.x != nil || seriesEntries.values.contains { if case .series(let s) = $0.item { return s.x != nil } else { return false } }
        graphXUnread = el.attribute("x-column") != nil && !anyX
        graphByIndex = el.attribute("x-column") == nil
        let seriesValues = seriesEntries.sorted { $0.key < $1.key }.map { entry -> [Double] in
            if case .series(let s) = entry.value.item { return s.values }
            return []
        }
        checkScaleAndStack(el, graph: graph, series: seriesEntries.sorted { $0.key < $1.key }.map(\.value))
        let all = (graph.values + seriesValues.joined()).filter { !$0.isNaN }
        // The graph's texts tell of its own series, or of its first <series>.
        let told = (hasSeries ? seriesValues.first ?? [] : graph.values).filter { !$0.isNaN }
        if !all.isEmpty {
            let lo = graph.min ?? (graph.yScale == .log ? all.min()! : min(0, all.min()!)), hi = graph.max ?? all.max()!
            if lo > hi { diagnostics.error(.minAboveMax(lo, hi), on: (el.attribute("min") ?? el.attribute("max"))!) }
        }
        let statistics = GraphStatistics.Table(told)
        for (i, child) in el.children.enumerated() where child.name != "point" {
            if child.name == "series" {
                if let entry = seriesEntries[i] { graph.items.append(entry) }
                continue
            }
            if hasSeries, ["area", "line", "points", "bars"].contains(child.name) {
                diagnostics.error(.init(.misplacedElement, "<\(child.name)> goes inside a <series> when the graph has them"), at: child.location)
                continue
            }
            if let entry = graphItem(child, statistics: statistics, isTime: graph.xIsTime, depth: depth) {
                if graph.yScale == .log { checkLogMark(entry.item, child) }
                graph.items.append(entry)
            }
        }
        return graph
    }

    /// The seed's form: one series from `values`, `<point>`s or one CSV column.
    func singleSeriesGraph(_ el: XMLElement) -> LineGraph {
        var values: [Double] = [], labels: [String] = []
        let pointElements = el.children.filter { $0.name == "point" }
        let sources = [el.attribute("values") != nil, !pointElements.isEmpty, el.attribute("src") != nil].filter { $0 }.count
        if sources == 0 { diagnostics.error(.graphNeedsData, at: el.location) }
        if sources > 1 { diagnostics.error(.graphTooManySources, at: el.location) }
        var dataLocation = el.location
        if let a = el.attribute("values") {
            dataLocation = a.valueLocation
            switch GraphData.numbers(a.value) {
            case .success(let v):
                values = v
                checkLogValues(v, in: nil, graph: el, source: a)
            case .failure(let bad):
                var loc = a.valueLocation
                loc.column += bad.offset
                diagnostics.error(.notANumberInList(bad.token, "values"), at: loc)
            }
        }
        for p in pointElements {
            checkGraphChild(p)
            if let a = required(p, "value"), let v = number(p, "value") {
                values.append(v)
                checkLogValues([v], in: nil, graph: el, source: a)
            }
            labels.append(p.attribute("label")?.value ?? "")
        }
        if pointElements.allSatisfy({ $0.attribute("label") == nil }) { labels = [] }
        if let src = el.attribute("src") {
            dataLocation = src.valueLocation
            if let column = required(el, "column") {
                let (v, l) = readCSV(src, column: column, labelColumn: el.attribute("label-column"))
                values = v
                checkLogValues(v, in: nil, graph: el, source: src)
                labels = l
            }
        } else if let c = el.attribute("column") ?? el.attribute("label-column") {
            diagnostics.error(.init(.conflictingAttributes, "'\(c.name)' goes with 'src'"), at: c.location)
        }
        if let a = el.attribute("labels") {
            labels = a.value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            if labels.count != values.count, !values.isEmpty {
                diagnostics.error(.labelCount(labels.count, values.count), on: a)
            }
        }
        if sources == 1, values.isEmpty, !diagnostics.hasErrors { diagnostics.error(.graphEmpty, at: dataLocation) }
        labels = shapedText(labels, at: el.location)
        return LineGraph(values: values, labels: labels)
    }

    func readCSV(_ src: XMLAttribute, column: XMLAttribute, labelColumn: XMLAttribute?) -> ([Double], [String]) {
        let bytes: [UInt8]
        switch resolver.read(src.value) {
        case .failure(let m):
            diagnostics.error(m, on: src)
            return ([], [])
        case .success(let b): bytes = b
        }
        // Named beside the scene as the user named the scene (relative stays relative).
        let sceneFile = src.location.file
        let folder = sceneFile.contains("/") ? String(sceneFile[..<sceneFile.lastIndex(of: "/")!]) : ""
        let csvFile = src.value.hasPrefix("/") || folder.isEmpty ? src.value : folder + "/" + src.value
        if let long = GraphData.oversizedRow(bytes, maxRow: limits.maxCSVRowLength, maxField: limits.maxCSVFieldLength) {
            diagnostics.error(long.message, at: SourceLocation(file: csvFile, line: long.row ?? 1, column: 1))
            return ([], [])
        }
        if let bad = GraphData.characterNotAllowed(in: bytes, file: csvFile) {
            diagnostics.error(bad.message, at: bad.location)
            return ([], [])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            diagnostics.error(.init(.invalidData, "'\(src.value)' is not UTF-8 text"), on: src)
            return ([], [])
        }
        let name = column.value.trimmingSpaces, labelName = labelColumn?.value.trimmingSpaces
        let result = GraphData.unquotedColumn(name, labels: labelName, bytes: bytes)
            ?? GraphData.column(name, labels: labelName, csv: text)
        for problem in result.problems {
            diagnostics.error(problem.message, at: problem.row.map { SourceLocation(file: csvFile, line: $0, column: 1) } ?? src.valueLocation)
        }
        if !result.missing.isEmpty {
            let header = GraphData.header(of: text)
            for (name, attribute) in [(column.value.trimmingSpaces, column), (labelColumn?.value.trimmingSpaces ?? "", labelColumn)] {
                guard let attribute, result.missing.contains(name) else { continue }
                diagnostics.error(.csvMissingColumn(name, available: header, suggestion: Suggestion.nearest(to: name, in: header)),
                                  on: attribute)
            }
        }
        return (result.values, result.labels)
    }

    func checkGraphChild(_ el: XMLElement) {
        let allowed = Vocabulary.graphChildren[el.name] ?? []
        for a in el.attributes where !allowed.contains(a.name) {
            diagnostics.error(.unknownAttribute(a.name, on: el.name, suggestion: Suggestion.nearest(to: a.name, in: allowed)), at: a.location)
        }
        if el.name != "text" { checkNoText(el); checkNoChildren(el) }
    }

    func graphItem(_ el: XMLElement, statistics: GraphStatistics.Table, isTime: Bool, depth: Int) -> GraphEntry? {
        guard Vocabulary.graphChildren[el.name] != nil else {
            reportMisplaced(el, parent: "lineGraph", expected: Set(Vocabulary.graphChildren.keys))
            return nil
        }
        let opacity: Double = {
            guard let o = number(el, "opacity") else { return 1 }
            if o >= 0, o <= 1 { return o }
            rangeError(el, "opacity", "from 0 to 1")
            return 1
        }()
        if el.name == "text" {
            // `format` belongs to the graph's text only; the rest is a <text>.
            let format = graphFormat(el)
            var plain = el
            plain.attributes.removeAll { $0.name == "format" }
            guard var node = buildNode(plain, parent: "lineGraph", depth: depth + 1), case .text(var style) = node.kind else { return nil }
            var unknown: [String] = []
            style.rewriteSegments { segment in
                let (filled, names) = GraphData.fillPlaceholders(segment, statistics: statistics, format: format)
                unknown += names
                return filled
            }
            for name in unknown {
                diagnostics.error(.unknownPlaceholder(name, suggestion: Suggestion.nearest(to: name, in: GraphStatistics.names)), at: el.location)
            }
            node.kind = .text(style)
            return GraphEntry(.text(node), at: el.location)
        }
        checkGraphChild(el)
        var style = paintStyle(el, defaultFill: .color(.black))
        switch el.name {
        case "area":
            return GraphEntry(.area(style, opacity: opacity, to: keyword(el, "to", AreaBase.self) ?? .frame), at: el.location)
        case "line":
            if el.attribute("stroke") == nil { style.stroke = .color(.black) }
            if el.attribute("stroke-width") == nil { style.strokeWidth = 2 }
            if el.attribute("line-join") == nil { style.lineJoin = .round }
            if el.attribute("line-cap") == nil { style.lineCap = .round }
            return GraphEntry(.line(style, curve: keyword(el, "curve", GraphCurve.self) ?? .linear, opacity: opacity), at: el.location)
        case "points":
            var diameter = 5.0
            if let d = number(el, "diameter") { if d >= 0 { diameter = d } else { rangeError(el, "diameter", "0 or more") } }
            return GraphEntry(.points(diameter: diameter, style, opacity: opacity), at: el.location)
        case "grid":
            if el.attribute("stroke") == nil { style.stroke = .color(.black) }
            var count = 3
            if let a = el.attribute("count") {
                if let v = ValueParser.number(a.value), v >= 1, v == v.rounded(), v <= 10_000 { count = Int(v) }
                else { diagnostics.error(.outOfRange("count", a.value, "a whole number from 1 to 10000"), on: a) }
            }
            var ticks = false
            if let a = el.attribute("ticks") {
                if a.value.trimmingSpaces == "y" { ticks = true }
                else { diagnostics.error(.outOfRange("ticks", a.value, "'y' (a line at each of the y axis's ticks)"), on: a) }
                if let c = el.attribute("count") { diagnostics.error(.init(.conflictingAttributes, "'count' and 'ticks' both place the lines; give one"), at: c.location) }
            }
            return GraphEntry(.grid(count: count, style, opacity: opacity, ticks: ticks), at: el.location)
        case "xAxis", "yAxis":
            var stroke = PaintStyle(fill: .none)
            stroke.stroke = paint(el, "stroke") ?? .color(.black)
            stroke.strokeWidth = number(el, "stroke-width") ?? 1
            stroke.strokeOpacity = style.strokeOpacity
            var axis = GraphAxis(edge: el.name == "xAxis" ? .x : .y, stroke: stroke)
            axis.opacity = opacity
            axis.font = fontSpec(el)
            axis.fill = paint(el, "fill") ?? .color(.black)
            if let a = el.attribute("ticks") {
                if let v = ValueParser.number(a.value), v >= 1, v == v.rounded(), v <= 1_000 { axis.ticks = Int(v) }
                else { diagnostics.error(.outOfRange("ticks", a.value, "a whole number from 1 to 1000"), on: a) }
            }
            if let nice = bool(el, "nice") { axis.nice = nice }
            if let t = number(el, "tick-size") { if t >= 0 { axis.tickSize = t } else { rangeError(el, "tick-size", "0 or more") } }
            if let f = el.attribute("format") {
                if axis.edge == .x && isTime {
                    if TimeFormat.isValidFormat(f.value) { axis.format = f.value }
                    else { diagnostics.error(.init(.invalidValue, "'\(f.value)' is not a time format: use d3-time-format's %a %A %b %B %d %e %H %I %j %L %m %M %p %S %y %Y (and %% for a percent sign; %-d, %_d and %0d pad with nothing, spaces or zeros)"), on: f) }
                } else {
                    axis.format = graphFormat(el)
                }
            }
            return GraphEntry(.axis(axis), at: el.location)
        case "bars":
            var bars = GraphBars(style: style)
            if el.attribute("fill") == nil { bars.style.fill = .color(.black) }
            bars.opacity = opacity
            if let w = number(el, "width") { if w > 0, w <= 1 { bars.width = w } else { rangeError(el, "width", "above 0, up to 1 (the share of a slot)") } }
            if let r = number(el, "corner-radius") { if r >= 0 { bars.cornerRadius = r } else { rangeError(el, "corner-radius", "0 or more") } }
            bars.paintBox = keyword(el, "paint-box", BarPaintBox.self) ?? .plot
            return GraphEntry(.bars(bars), at: el.location)
        case "rule":
            let given = ["x", "y"].compactMap { el.attribute($0) }
            guard given.count == 1, let a = given.first else {
                diagnostics.error(.init(given.isEmpty ? .missingPart : .conflictingAttributes,
                                        given.isEmpty ? "<rule> needs 'y' (a value) or 'x' (a value or, on a time axis, a date)"
                                                      : "<rule> takes 'x' or 'y', not both: draw two rules"), at: el.location)
                return nil
            }
            let axis: GraphAxis.Edge = a.name == "x" ? .x : .y
            guard let value = dataValue(a, axis: axis, isTime: isTime) else { return nil }
            var stroke = PaintStyle(fill: .none)
            stroke.stroke = paint(el, "stroke") ?? .color(.black)
            stroke.strokeWidth = number(el, "stroke-width") ?? 1
            stroke.strokeOpacity = style.strokeOpacity
            stroke.dash = style.dash
            stroke.dashOffset = style.dashOffset
            var rule = GraphRule(axis: axis, value: value, style: stroke)
            rule.opacity = opacity
            rule.label = markLabel(el)
            return GraphEntry(.rule(rule), at: el.location)
        case "band":
            let axis = keyword(el, "axis", GraphAxis.Edge.self) ?? .y
            guard let from = required(el, "from"), let to = required(el, "to"),
                  let a = dataValue(from, axis: axis, isTime: isTime), let b = dataValue(to, axis: axis, isTime: isTime) else { return nil }
            var band = GraphBand(axis: axis, from: a, to: b, style: style)
            band.opacity = opacity
            band.label = markLabel(el)
            return GraphEntry(.band(band), at: el.location)
        case "legend":
            var legend = GraphLegend()
            legend.opacity = opacity
            legend.font = fontSpec(el)
            legend.fill = paint(el, "fill") ?? .color(.black)
            legend.position = keyword(el, "position", GraphLegend.Position.self) ?? .topLeading
            return GraphEntry(.legend(legend), at: el.location)
        case "xLabels", "yLabels":
            let font = fontSpec(el)
            let fill = paint(el, "fill") ?? .color(.black)
            if el.name == "xLabels" {
                return GraphEntry(.xLabels(font: font, fill: fill, offset: number(el, "offset") ?? 8, opacity: opacity), at: el.location)
            }
            return GraphEntry(.yLabels(font: font, fill: fill, format: graphFormat(el), opacity: opacity), at: el.location)
        default:
            return nil
        }
    }

    /// A rule's or band's `label`, with its font and `label-fill`.
    func markLabel(_ el: XMLElement) -> GraphMarkLabel? {
        guard let text = el.attribute("label")?.value else { return nil }
        var label = GraphMarkLabel(text: shapedText([text], at: el.location).first ?? text)
        label.font = fontSpec(el)
        label.fill = paint(el, "label-fill") ?? .color(.black)
        return label
    }

    /// A data value written on a rule or band: a number, or on the x axis
    /// of a graph whose x are dates an ISO 8601 date.
    func dataValue(_ a: XMLAttribute, axis: GraphAxis.Edge, isTime: Bool) -> Double? {
        let text = a.value.trimmingSpaces
        // A graph whose x could not be read has told why: whether its x
        // are dates is unknown, so an x value is not judged.
        if axis == .x, graphXUnread { return nil }
        if axis == .x, isTime {
            if let t = UTCCalendar.parseISO8601(text[...]) { return t }
            diagnostics.error(.init(.invalidValue, "'\(text)' is not an ISO 8601 date (2026-11-02, 2026-11-02T08:00:00Z): the graph's x are dates"), on: a)
            return nil
        }
        if let v = ValueParser.number(text), v.isFinite { return v }
        let index = axis == .x && graphByIndex ? ": the graph places its points by index, so an x is an index from 0 (the first point)" : ""
        diagnostics.error(.init(.invalidValue, "'\(text)' is not a number\(index)"), on: a)
        return nil
    }

    /// A rule or band on a log scale's y axis marks values above 0.
    func checkLogMark(_ item: GraphItem, _ el: XMLElement) {
        var values: [(String, Double)] = []
        if case .rule(let r) = item, r.axis == .y { values = [("y", r.value)] }
        if case .band(let b) = item, b.axis == .y { values = [("from", b.from), ("to", b.to)] }
        for (name, v) in values where v <= 0 {
            guard let a = el.attribute(name) else { continue }
            diagnostics.error(.init(.invalidValue, "\(name) \(GraphStatistics.shortest(v)) is not above 0, and a log scale (y-scale=\"log\") shows only values above 0"), on: a)
        }
    }

    /// A log scale takes values above 0 and no stacking; stacked series
    /// share their x.
    func checkScaleAndStack(_ el: XMLElement, graph: LineGraph, series: [GraphEntry]) {
        if graph.yScale == .log {
            if graph.stack != .none, let a = el.attribute("stack") {
                diagnostics.error(.init(.conflictingAttributes, "stacked series start from 0, which a log scale cannot show: use y-scale=\"linear\" or \"sqrt\""), on: a)
            }
            for name in ["min", "max"] {
                if let a = el.attribute(name), let v = ValueParser.number(a.value.trimmingSpaces), v <= 0 {
                    diagnostics.error(.init(.invalidValue, "\(name) \(GraphStatistics.shortest(v)) is not above 0, and a log scale (y-scale=\"log\") shows only values above 0"), on: a)
                }
            }
        }
        if graph.stack != .none {
            let xs = series.compactMap { entry -> [Double]? in if case .series(let s) = entry.item { return s.x } else { return nil } }
            if let first = xs.first, xs.contains(where: { $0 != first }), let a = el.attribute("stack") {
                diagnostics.error(.init(.conflictingAttributes, "stacked series are added row by row, and these series have different x: read them from one file"), on: a)
            }
        }
    }

    /// A checked `format`: one printf number conversion, nothing else.
    func graphFormat(_ el: XMLElement) -> String? {
        guard let f = el.attribute("format") else { return nil }
        guard GraphData.isSafeFormat(f.value) else {
            diagnostics.error(.badFormat(f.value), on: f)
            return nil
        }
        return f.value
    }
}
