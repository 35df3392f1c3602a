import EaselModel

/// `missing`: what an empty cell is.
enum MissingData: String, CaseIterable { case error, gap }

/// A line graph read as a table (docs/format.md, "Several series and
/// axes"): `x-column` places rows by value, `<series>` draws several
/// columns, `missing="gap"` keeps empty cells as gaps.
extension SceneBuilder {
    /// What one file gives: columns by name, rows sorted by x.
    struct SeriesTable {
        var columns: [String: [Double]] = [:]
        var labels: [String] = []
        var x: [Double]?
        var isTime = false
        /// Each row's line in `file`, in the rows' (sorted) order.
        var rows: [Int] = []
        var file = ""
    }

    func tableGraph(_ el: XMLElement) -> (LineGraph, SeriesTable) {
        let missing = keyword(el, "missing", MissingData.self) ?? .error
        let hasSeries = el.children.contains { $0.name == "series" }
        let xColumn = el.attribute("x-column")
        if hasSeries {
            for name in ["values", "column"] {
                if let a = el.attribute(name) {
                    diagnostics.error(.init(.conflictingAttributes, "'\(name)' goes on each <series> when the graph has them"), at: a.location)
                }
            }
            for p in el.children where p.name == "point" {
                diagnostics.error(.init(.misplacedElement, "<point> cannot be used with <series>; give each series its data"), at: p.location)
            }
        }
        if let xColumn, el.attribute("src") == nil, !hasSeries {
            diagnostics.error(.init(.conflictingAttributes, "'x-column' goes with 'src'"), at: xColumn.location)
        }
        if hasSeries, let a = el.attribute("label-column"), el.attribute("src") == nil {
            diagnostics.error(.init(.conflictingAttributes, "'label-column' goes with 'src'"), at: a.location)
        }
        var graph = LineGraph(values: [], labels: [])
        var table = SeriesTable()
        // The graph's file: its own column, or those its series name.
        var names: [XMLAttribute] = []
        if !hasSeries {
            if el.attribute("src") != nil, let c = required(el, "column") { names.append(c) }
        } else {
            for s in el.children where s.name == "series" && s.attribute("src") == nil && s.attribute("values") == nil {
                if let c = s.attribute("column") { names.append(c) }
            }
        }
        if let src = el.attribute("src") {
            table = readTable(src, columns: names, x: xColumn, labels: el.attribute("label-column"), missing: missing)
            graph.x = table.x
            graph.xIsTime = table.isTime
            graph.labels = shapedText(table.labels, at: el.location)
            if !hasSeries, let c = names.first {
                graph.values = table.columns[c.value.trimmingSpaces] ?? []
                checkLogValues(graph.values, in: table, graph: el, source: src)
            }
        } else if !hasSeries {
            // `values` or `<point>`s with missing="gap": nothing is missing from a list.
            return (singleSeriesGraph(el), table)
        }
        if let a = el.attribute("labels") {
            if xColumn != nil { diagnostics.error(.init(.conflictingAttributes, "'labels' names points placed by index; with 'x-column' use an <xAxis>"), on: a) }
            graph.labels = shapedText(a.value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init), at: el.location)
        }
        if !hasSeries, graph.values.allSatisfy(\.isNaN), !diagnostics.hasErrors {
            diagnostics.error(.graphEmpty, at: el.attribute("src")?.valueLocation ?? el.location)
        }
        return (graph, table)
    }

    /// Reads `columns` (and `x`, `labels`) from `src`, reporting every
    /// problem at its row; rows come back sorted by x.
    func readTable(_ src: XMLAttribute, columns: [XMLAttribute], x: XMLAttribute?, labels: XMLAttribute?,
                   missing: MissingData) -> SeriesTable {
        var out = SeriesTable()
        let bytes: [UInt8]
        switch resolver.read(src.value) {
        case .success(let b): bytes = b
        case .failure(let m):
            diagnostics.error(m, on: src)
            return out
        }
        let sceneFile = src.location.file
        let folder = sceneFile.contains("/") ? String(sceneFile[..<sceneFile.lastIndex(of: "/")!]) : ""
        let csvFile = src.value.hasPrefix("/") || folder.isEmpty ? src.value : folder + "/" + src.value
        func at(_ row: Int?) -> SourceLocation { row.map { SourceLocation(file: csvFile, line: $0, column: 1) } ?? src.valueLocation }
        if let long = GraphData.oversizedRow(bytes, maxRow: limits.maxCSVRowLength, maxField: limits.maxCSVFieldLength) {
            diagnostics.error(long.message, at: at(long.row))
            return out
        }
        if let bad = GraphData.characterNotAllowed(in: bytes, file: csvFile) {
            diagnostics.error(bad.message, at: bad.location)
            return out
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            diagnostics.error(.init(.invalidData, "'\(src.value)' is not UTF-8 text"), on: src)
            return out
        }
        let attributes = columns + [x, labels].compactMap { $0 }
        // Sets, not searches: a graph may name a great many columns.
        var wanted: [String] = [], seen = Set<String>()
        for a in attributes where seen.insert(a.value.trimmingSpaces).inserted { wanted.append(a.value.trimmingSpaces) }
        let table = CSVTable(wanted, bytes: bytes, text: text)
        for problem in table.problems { diagnostics.error(problem.message, at: at(problem.row)) }
        let missingNames = Set(table.missing)
        for a in attributes where missingNames.contains(a.value.trimmingSpaces) {
            let name = a.value.trimmingSpaces
            diagnostics.error(.csvMissingColumn(name, available: table.header, suggestion: Suggestion.nearest(to: name, in: table.header)), on: a)
        }
        guard table.missing.isEmpty, table.problems.isEmpty else { return out }
        out.file = csvFile
        out.rows = table.rows

        var bad = 0
        for c in columns {
            let name = c.value.trimmingSpaces
            // A column named by several series is read once.
            guard out.columns[name] == nil else { continue }
            var values: [Double] = []
            values.reserveCapacity(table.rows.count)
            for (i, (number, row)) in zip(table.numbers(name), table.rows).enumerated() {
                if let v = number { values.append(v); continue }
                values.append(.nan)
                let cell = table.text(name, i)
                if cell.isEmpty, missing == .gap { continue }
                if bad < 20 {
                    diagnostics.error(cell.isEmpty ? .init(.invalidData, "column '\(name)' has an empty cell here; missing=\"gap\" on the <lineGraph> draws it as a gap")
                                                   : .csvNotANumber(cell, name), at: at(row))
                }
                bad += 1
            }
            out.columns[name] = values
        }
        if let labels { out.labels = table.rows.indices.map { table.text(labels.value.trimmingSpaces, $0) } }
        guard let x else { return out }

        // x: every cell a number, else every cell a date.
        let xName = x.value.trimmingSpaces
        var xs = table.numbers(xName)
        if xs.contains(where: { $0 == nil }), table.rows.indices.contains(where: { UTCCalendar.parseISO8601(table.text(xName, $0)[...]) != nil }) {
            xs = table.rows.indices.map { UTCCalendar.parseISO8601(table.text(xName, $0)[...]) }
            out.isTime = true
        }
        for (i, (v, row)) in zip(xs, table.rows).enumerated() where v == nil {
            let cell = table.text(xName, i)
            diagnostics.error(.init(.invalidData, "x-column '\(xName)': '\(cell)' is \(out.isTime ? "not an ISO 8601 date (2026-11-02, 2026-11-02T08:00:00Z)" : "neither a number nor an ISO 8601 date")"), at: at(row))
            bad += 1
            if bad >= 20 { break }
        }
        guard bad == 0 else { return out }
        let xv = xs.map { $0! }
        // Sorted by x, rows of equal x kept in file order so the message
        // names the later one.
        let order = xv.indices.sorted { xv[$0] != xv[$1] ? xv[$0] < xv[$1] : $0 < $1 }
        for (a, b) in zip(order, order.dropFirst()) where xv[a] == xv[b] {
            diagnostics.error(.init(.invalidData, "x-column '\(xName)': '\(table.text(xName, b))' is also the x of line \(table.rows[a]); each x may appear once"), at: at(table.rows[b]))
            return out
        }
        out.x = order.map { xv[$0] }
        out.rows = order.map { table.rows[$0] }
        for (name, values) in out.columns { out.columns[name] = order.map { values[$0] } }
        if !out.labels.isEmpty { out.labels = order.map { out.labels[$0] } }
        return out
    }

    /// `<series column [name] [values] [src]>` and its layers.
    func seriesItem(_ el: XMLElement, in parent: XMLElement, graph: LineGraph, table: SeriesTable, isTime: inout Bool?, depth: Int) -> GraphEntry? {
        let allowed = Vocabulary.graphChildren["series"] ?? []
        for a in el.attributes where !allowed.contains(a.name) {
            diagnostics.error(.unknownAttribute(a.name, on: el.name, suggestion: Suggestion.nearest(to: a.name, in: allowed)), at: a.location)
        }
        checkNoText(el)
        let missing = MissingData(rawValue: parent.attribute("missing")?.value.trimmingSpaces ?? "") ?? .error
        var series = GraphSeries(name: el.attribute("name")?.value, values: [], x: graph.x)
        let sources = [el.attribute("values") != nil, el.attribute("src") != nil].filter { $0 }.count
        if sources > 1 { diagnostics.error(.init(.conflictingAttributes, "<series> takes 'values' or 'src' with 'column', not both"), at: el.location) }
        if let a = el.attribute("values") {
            if graph.x != nil || parent.attribute("x-column") != nil {
                diagnostics.error(.init(.conflictingAttributes, "a series of a graph with 'x-column' takes a 'column'"), on: a)
            }
            switch GraphData.numbers(a.value) {
            case .success(let v):
                series.values = v
                checkLogValues(v, in: nil, graph: parent, source: a)
            case .failure(let bad):
                var loc = a.valueLocation
                loc.column += bad.offset
                diagnostics.error(.notANumberInList(bad.token, "values"), at: loc)
            }
        } else if let src = el.attribute("src") {
            if let c = required(el, "column") {
                let own = readTable(src, columns: [c], x: parent.attribute("x-column"), labels: nil, missing: missing)
                series.values = own.columns[c.value.trimmingSpaces] ?? []
                checkLogValues(series.values, in: own, graph: parent, source: src)
                series.x = own.x
                if own.x != nil {
                    if let t = isTime, t != own.isTime {
                        diagnostics.error(.init(.invalidData, "this series' x are \(own.isTime ? "dates" : "numbers") and another's are \(t ? "dates" : "numbers"); one graph has one kind of x axis"), on: src)
                    }
                    isTime = isTime ?? own.isTime
                }
            }
        } else if let c = required(el, "column") {
            if parent.attribute("src") == nil {
                diagnostics.error(.init(.missingPart, "'column' names a column of the graph's 'src', and the graph has none"), on: c)
            }
            series.values = table.columns[c.value.trimmingSpaces] ?? []
            if let src = parent.attribute("src") { checkLogValues(series.values, in: table, graph: parent, source: src) }
        }
        if series.values.allSatisfy(\.isNaN), !diagnostics.hasErrors { diagnostics.error(.graphEmpty, at: el.location) }
        for child in el.children {
            guard ["area", "line", "points", "bars"].contains(child.name) else {
                reportMisplaced(child, parent: "series", expected: ["area", "line", "points", "bars"])
                continue
            }
            if let entry = graphItem(child, statistics: GraphStatistics.Table([]), isTime: false, depth: depth) { series.items.append(entry) }
        }
        return GraphEntry(.series(series), at: el.location)
    }

    /// On a log scale (`y-scale="log"`) every value is above 0: the first
    /// few that are not are errors at their rows (or at the attribute that
    /// lists them).
    func checkLogValues(_ values: [Double], in table: SeriesTable?, graph: XMLElement, source: XMLAttribute) {
        guard graph.attribute("y-scale")?.value.trimmingSpaces == GraphScaleKind.log.rawValue else { return }
        var told = 0
        for (i, v) in values.enumerated() where !v.isNaN && v <= 0 {
            let message = Diagnostic.Message(.invalidData, "the value \(GraphStatistics.shortest(v)) is not above 0, and a log scale (y-scale=\"log\") shows only values above 0")
            if let table, i < table.rows.count {
                diagnostics.error(message, at: SourceLocation(file: table.file, line: table.rows[i], column: 1))
            } else if source.name == "values", let offset = GraphData.entryOffsets(source.value).dropFirst(i).first, !source.value.contains("\n") {
                // At the entry itself, as a word that is not a number is.
                var at = source.valueLocation
                at.column += offset
                diagnostics.error(message, at: at)
            } else {
                diagnostics.error(message, on: source)
            }
            told += 1
            // A list's entries and a table's rows are told each (up to 20);
            // another source, once.
            if told >= 20 || (table == nil && source.name != "values") { break }
        }
    }
}
