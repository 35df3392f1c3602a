import EaselModel

/// `<lineGraph>`: its data (values, points, CSV) and its layers.
extension SceneBuilder {
    func buildGraph(_ el: XMLElement, depth: Int) -> LineGraph {
        let usesTable = el.attribute("x-column") != nil || el.children.contains { $0.name == "series" }
            || el.attribute("missing")?.value.trimmingSpaces == MissingData.gap.rawValue
        let (read, table) = usesTable ? tableGraph(el) : (singleSeriesGraph(el), SeriesTable())
        var graph = read
        graph.min = number(el, "min")
        graph.max = number(el, "max")
        if el.attribute("padding") != nil { graph.padding = padding(el) }
        let hasSeries = el.children.contains { $0.name == "series" }

        // Series first: whether x holds times (a series may read its own
        // file) decides how an <xAxis> before them reads its format.
        var seriesEntries: [Int: GraphEntry] = [:]
        var isTime: Bool? = graph.x == nil ? nil : graph.xIsTime
        for (i, child) in el.children.enumerated() where child.name == "series" {
            seriesEntries[i] = seriesItem(child, in: el, graph: graph, table: table, isTime: &isTime, depth: depth)
        }
        graph.xIsTime = isTime ?? false
        let seriesValues = seriesEntries.sorted { $0.key < $1.key }.map { entry -> [Double] in
            if case .series(let s) = entry.value.item { return s.values }
            return []
        }
        let all = (graph.values + seriesValues.joined()).filter { !$0.isNaN }
        // The graph's texts tell of its own series, or of its first <series>.
        let told = (hasSeries ? seriesValues.first ?? [] : graph.values).filter { !$0.isNaN }
        if !all.isEmpty {
            let lo = graph.min ?? min(0, all.min()!), hi = graph.max ?? all.max()!
            if lo > hi { diagnostics.error(.minAboveMax(lo, hi), on: (el.attribute("min") ?? el.attribute("max"))!) }
        }
        let statistics = GraphStatistics.Table(told)
        for (i, child) in el.children.enumerated() where child.name != "point" {
            if child.name == "series" {
                if let entry = seriesEntries[i] { graph.items.append(entry) }
                continue
            }
            if hasSeries, ["area", "line", "points"].contains(child.name) {
                diagnostics.error(.init(.misplacedElement, "<\(child.name)> goes inside a <series> when the graph has them"), at: child.location)
                continue
            }
            if let entry = graphItem(child, statistics: statistics, isTime: graph.xIsTime, depth: depth) { graph.items.append(entry) }
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
            case .success(let v): values = v
            case .failure(let bad):
                var loc = a.valueLocation
                loc.column += bad.offset
                diagnostics.error(.notANumberInList(bad.token, "values"), at: loc)
            }
        }
        for p in pointElements {
            checkGraphChild(p)
            if required(p, "value") != nil, let v = number(p, "value") { values.append(v) }
            labels.append(p.attribute("label")?.value ?? "")
        }
        if pointElements.allSatisfy({ $0.attribute("label") == nil }) { labels = [] }
        if let src = el.attribute("src") {
            dataLocation = src.valueLocation
            if let column = required(el, "column") {
                let (v, l) = readCSV(src, column: column, labelColumn: el.attribute("label-column"))
                values = v
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
                    else { diagnostics.error(.init(.invalidValue, "'\(f.value)' is not a time format: use d3-time-format's %a %A %b %B %d %e %H %I %j %L %m %M %p %S %y %Y (and %% for a percent sign)"), on: f) }
                } else {
                    axis.format = graphFormat(el)
                }
            }
            return GraphEntry(.axis(axis), at: el.location)
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
