import EaselModel

/// Gives meaning to the XML tree: checks names against `Vocabulary`, parses
/// values, resolves references, and keeps going after each error so that
/// every problem in the file is reported in one run.
final class SceneBuilder {
    var diagnostics = Diagnostics()
    let resolver: ResourceResolver
    let limits: Limits

    private var palette: [String: Color] = [:]
    private var ids: [String: SourceLocation] = [:]
    private var paintServerIDs: Set<String> = []
    private var clipPathIDs: Set<String> = []
    private var paintReferences: [(String, SourceLocation)] = []
    private var clipReferences: [(String, SourceLocation)] = []

    init(resolver: ResourceResolver, limits: Limits) {
        self.resolver = resolver
        self.limits = limits
    }

    func build(_ root: XMLElement) -> Scene? {
        guard root.name == "scene" else {
            diagnostics.error(.rootMustBeScene(root.name), at: root.location)
            return nil
        }
        checkAttributes(root)
        checkNoText(root)
        let width = requiredNumber(root, "width", positive: true) ?? 1
        let height = requiredNumber(root, "height", positive: true) ?? 1
        var scene = Scene(file: root.location.file, width: width, height: height, location: root.location)
        if let s = number(root, "scale") {
            if s > 0, s <= limits.maxScale { scene.scale = s } else { rangeError(root, "scale", "greater than 0 and at most \(limits.maxScale)") }
        }
        if let v = number(root, "version"), v != 1 { diagnostics.error(.badVersion, at: root.attribute("version")!.valueLocation) }
        if let d = number(root, "duration") {
            if d >= 0 { scene.duration = d } else { rangeError(root, "duration", "0 or more") }
        }

        // Names from <defs> may be used before the <defs> that declares them.
        let defs = root.children.filter { $0.name == "defs" }
        collectDefinitionNames(defs)
        if let bg = color(root, "background") { scene.background = bg }
        scene.definitions = buildDefinitions(defs, into: scene.definitions)
        for child in root.children where child.name != "defs" {
            if let node = buildNode(child, parent: "scene", depth: 1) { scene.nodes.append(node) }
        }
        checkReferences(scene.definitions)
        checkNodeCount(scene)
        let pixels = width * scene.scale * height * scene.scale
        if pixels > Double(limits.maxPixels) {
            diagnostics.error(.tooManyPixels(width * scene.scale, height * scene.scale, limits.maxPixels), at: root.location)
        } else if max(width, height) * scene.scale > 32767 {
            diagnostics.error(.sideTooLong(width * scene.scale, height * scene.scale), at: root.location)
        }
        return scene
    }

    // MARK: Definitions

    private func collectDefinitionNames(_ defs: [XMLElement]) {
        for d in defs {
            for el in d.children {
                switch el.name {
                case "color":
                    guard let name = el.attribute("name")?.value.trimmingSpaces, let v = el.attribute("value") else { continue }
                    // Palette values are CSS colours, so palettes cannot form cycles.
                    if let c = ColorParser.parse(v.value, palette: [:]) { palette[name] = c }
                case _ where Vocabulary.paintServers.contains(el.name):
                    if let id = el.attribute("id")?.value { paintServerIDs.insert(id) }
                case "clipPath":
                    if let id = el.attribute("id")?.value { clipPathIDs.insert(id) }
                default: break
                }
            }
        }
    }

    private func buildDefinitions(_ defs: [XMLElement], into start: Definitions) -> Definitions {
        var out = start
        out.palette = palette
        for d in defs {
            checkAttributes(d)
            checkNoText(d)
            for el in d.children {
                switch el.name {
                case "color":
                    checkAttributes(el)
                    checkNoChildren(el)
                    guard required(el, "name") != nil, let v = required(el, "value") else { continue }
                    if ColorParser.parse(v.value, palette: [:]) == nil {
                        diagnostics.error(.badColor(v.value, suggestion: colorSuggestion(v.value)), at: v.valueLocation)
                    }
                case "linearGradient", "radialGradient", "conicGradient", "pattern", "stripes":
                    if let server = buildPaintServer(el) { out.paintServers[server.id] = server }
                case "clipPath":
                    if let c = buildClipPath(el) { out.clipPaths[c.id] = c }
                default:
                    reportMisplaced(el, parent: "defs", expected: Vocabulary.definitions)
                }
            }
        }
        return out
    }

    private func buildPaintServer(_ el: XMLElement) -> PaintServerDefinition? {
        checkAttributes(el)
        if el.name != "pattern" { checkNoText(el) }
        guard let id = registerID(el, required: true) else { return nil }
        let server: PaintServer
        switch el.name {
        case "linearGradient": server = .linear(buildLinearGradient(el, id: id))
        case "radialGradient":
            var g = RadialGradient()
            g.center = unitPoint(el, "center")
            if let r = number(el, "radius") { if r >= 0 { g.radius = r } else { rangeError(el, "radius", "0 or more") } }
            g.focus = unitPoint(el, "focus")
            g.base = gradientBase(el, id: id)
            server = .radial(g)
        case "conicGradient":
            var g = ConicGradient()
            g.center = unitPoint(el, "center")
            if let f = number(el, "from") { g.from = f }
            g.base = gradientBase(el, id: id)
            server = .conic(g)
        case "pattern":
            checkNoText(el)
            var tile = PatternTile(width: positive(el, "width", required: true) ?? 1,
                                   height: positive(el, "height", required: true) ?? 1)
            if let u = keyword(el, "units", UnitsKeyword.self) { tile.units = u.units }
            if let t = transformValue(el, "transform") { tile.transform = t }
            tile.children = el.children.compactMap { buildNode($0, parent: "pattern", depth: 3) }
            server = .pattern(tile)
        default:
            checkNoChildren(el)
            var st = Stripes()
            if let v = positive(el, "spacing", required: false) { st.spacing = v }
            if let w = number(el, "line-width") { if w >= 0 { st.lineWidth = w } else { rangeError(el, "line-width", "0 or more") } }
            if let a = number(el, "angle") { st.angle = a }
            if let c = color(el, "color") { st.color = c }
            st.background = color(el, "background")
            server = .stripes(st)
        }
        return PaintServerDefinition(id: id, server: server, location: el.location)
    }

    private func stops(of el: XMLElement, id: String) -> [GradientStop] {
        let stops = buildStops(el)
        if stops.isEmpty { diagnostics.error(.gradientNeedsStops(id), at: el.location) }
        return stops
    }

    private func positive(_ el: XMLElement, _ name: String, required needed: Bool) -> Double? {
        if needed, required(el, name) == nil { return nil }
        guard let v = number(el, name) else { return nil }
        guard v > 0 else {
            diagnostics.error(.mustBePositive(name, el.attribute(name)!.value), at: el.attribute(name)!.valueLocation)
            return nil
        }
        return v
    }

    private func buildLinearGradient(_ el: XMLElement, id: String) -> LinearGradient {
        var g = LinearGradient()
        let angle = number(el, "angle")
        let direction = keyword(el, "direction", LinearDirection.self)
        let start = unitPoint(el, "start"), end = unitPoint(el, "end")
        let forms = [el.attribute("angle") != nil, el.attribute("direction") != nil,
                     el.attribute("start") != nil || el.attribute("end") != nil].filter { $0 }.count
        if forms > 1 {
            diagnostics.error(.linearGeometryConflict, at: el.location)
        } else if let angle {
            g.geometry = .angle(angle)
        } else if let direction {
            g.geometry = .angle(direction.angle)
        } else if el.attribute("start") != nil || el.attribute("end") != nil {
            if let start, let end {
                g.geometry = .points(start: start, end: end)
            } else if el.attribute("start") == nil || el.attribute("end") == nil {
                diagnostics.error(.startNeedsEnd, at: el.location)
            }
        }
        g.base = gradientBase(el, id: id)
        return g
    }

    private func gradientBase(_ el: XMLElement, id: String) -> GradientBase {
        var base = GradientBase()
        if let s = keyword(el, "spread", SpreadMethod.self) { base.spread = s }
        if let i = keyword(el, "interpolation", ColorInterpolation.self) { base.interpolation = i }
        if let u = keyword(el, "units", UnitsKeyword.self) { base.units = u.units }
        if let t = transformValue(el, "transform") { base.transform = t }
        base.stops = stops(of: el, id: id)
        return base
    }

    private func buildStops(_ el: XMLElement) -> [GradientStop] {
        var stops: [GradientStop] = []
        for s in el.children {
            guard s.name == "stop" else {
                reportMisplaced(s, parent: el.name, expected: ["stop"])
                continue
            }
            checkAttributes(s)
            checkNoText(s)
            checkNoChildren(s)
            var offset: Double? = nil
            if let a = s.attribute("offset") {
                offset = ValueParser.unitInterval(a.value)
                if offset == nil { diagnostics.error(.outOfRange("offset", a.value, "a number from 0 to 1 or a percentage from 0% to 100%"), at: a.valueLocation) }
            }
            guard required(s, "color") != nil, var c = color(s, "color") else { continue }
            if let o = number(s, "opacity") {
                if o >= 0, o <= 1 { c.alpha *= o } else { rangeError(s, "opacity", "from 0 to 1") }
            }
            stops.append(GradientStop(offset: offset, color: c, location: s.location))
        }
        return stops
    }

    private func buildClipPath(_ el: XMLElement) -> ClipPathDefinition? {
        checkAttributes(el)
        checkNoText(el)
        guard let id = registerID(el, required: true) else { return nil }
        var shapes: [Node] = []
        for child in el.children {
            guard Vocabulary.shapes.contains(child.name) else {
                reportMisplaced(child, parent: "clipPath", expected: Vocabulary.shapes)
                continue
            }
            if let n = buildNode(child, parent: "clipPath", depth: 3) { shapes.append(n) }
        }
        let clip = clipReference(el, "clip-path")
        return ClipPathDefinition(id: id, shapes: shapes, clipPath: clip, location: el.location)
    }

    // MARK: Nodes

    private func buildNode(_ el: XMLElement, parent: String, depth: Int) -> Node? {
        guard Vocabulary.nodes.contains(el.name) else {
            reportMisplaced(el, parent: parent, expected: Vocabulary.nodes)
            return nil
        }
        if depth > limits.maxDepth {
            diagnostics.error(.tooDeep(limits.maxDepth), at: el.location)
            return nil
        }
        checkAttributes(el)
        if el.name != "text" { checkNoText(el) }
        _ = registerID(el, required: false)
        let common = commonAttributes(el)
        let kind: NodeKind
        switch el.name {
        case "view":
            kind = .view(paintStyle(el, defaultFill: .none), corners: corners(el), padding: padding(el),
                         clip: bool(el, "clip") ?? false)
        case "rect":
            kind = .rect(paintStyle(el, defaultFill: .color(.black)), corners: corners(el))
        case "ellipse":
            kind = .ellipse(paintStyle(el, defaultFill: .color(.black)))
        case "circle", "line", "polyline", "polygon", "path":
            kind = .shape(coordinateShape(el), paintStyle(el, defaultFill: .color(.black)))
        case "group":
            kind = .group
        case "repeat":
            var count = 0
            if let a = required(el, "count") {
                if let v = ValueParser.number(a.value), v >= 0, v == v.rounded(), v <= Double(limits.maxNodes) {
                    count = Int(v)
                } else {
                    diagnostics.error(.outOfRange("count", a.value, "a whole number from 0 to \(limits.maxNodes)"), at: a.valueLocation)
                }
            }
            kind = .repeat(count: count, step: transformValue(el, "transform") ?? .identity)
        case "image":
            var source = ImageSource(path: "", data: [], pixelWidth: 1, pixelHeight: 1)
            if let href = required(el, "href") {
                switch resolver.loadPNG(href.value) {
                case .success(let s): source = s
                case .failure(let m): diagnostics.error(m, at: href.valueLocation)
                }
            }
            kind = .image(source, fit: keyword(el, "fit", ImageFit.self) ?? .fill)
        case "text":
            kind = .text(textStyle(el))
        case "vstack", "hstack", "zstack":
            kind = .stack(stackStyle(el))
        case "lineGraph":
            kind = .lineGraph(buildGraph(el, depth: depth))
        default:
            return nil
        }
        if Vocabulary.stacks.contains(el.name) { checkPercentages(inStack: el) }
        var children: [Node] = []
        if Vocabulary.containers.contains(el.name) && parent != "clipPath" {
            for child in el.children {
                if let n = buildNode(child, parent: el.name, depth: depth + 1) { children.append(n) }
            }
        } else if el.name != "lineGraph" {
            checkNoChildren(el)
        }
        return Node(element: el.name, kind: kind, common: common, children: children, location: el.location)
    }

    /// The geometry of `<circle>`, `<line>`, `<polyline>`, `<polygon>`, `<path>`.
    private func coordinateShape(_ el: XMLElement) -> CoordinateShape {
        switch el.name {
        case "circle":
            let r = length(el, "r") ?? .points(0)
            if case .points(let v) = r, v < 0 { rangeError(el, "r", "0 or more") }
            return .circle(cx: length(el, "cx") ?? .points(0), cy: length(el, "cy") ?? .points(0), r: r)
        case "line":
            return .line(x1: length(el, "x1") ?? .points(0), y1: length(el, "y1") ?? .points(0),
                         x2: length(el, "x2") ?? .points(0), y2: length(el, "y2") ?? .points(0))
        case "polyline": return .polyline(points(el))
        case "polygon": return .polygon(points(el))
        default: return .path(pathData(el))
        }
    }

    private func commonAttributes(_ el: XMLElement) -> CommonAttributes {
        var c = CommonAttributes()
        c.id = el.attribute("id")?.value
        c.x = length(el, "x")
        c.y = length(el, "y")
        c.width = length(el, "width", allowFill: true)
        c.height = length(el, "height", allowFill: true)
        if let o = number(el, "opacity") {
            if o >= 0, o <= 1 { c.opacity = o } else { rangeError(el, "opacity", "from 0 to 1") }
        }
        if el.name != "repeat", let t = transformValue(el, "transform") { c.transform = t }
        if let a = el.attribute("transform-origin") {
            if a.value.trimmingSpaces == "center" {
                c.transformOrigin = .center
            } else {
                let parts = a.value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                if parts.count == 2, let x = ValueParser.length(parts[0], allowFill: false),
                   let y = ValueParser.length(parts[1], allowFill: false) {
                    c.transformOrigin = .point(x, y)
                } else {
                    diagnostics.error(.badList("transform-origin", a.value, "'center' or two lengths 'x y'"), at: a.valueLocation)
                }
            }
        }
        c.clipPath = clipReference(el, "clip-path")
        c.hidden = bool(el, "hidden") ?? false
        if let g = number(el, "grow") { if g >= 0 { c.grow = g } else { rangeError(el, "grow", "0 or more") } }
        return c
    }

    /// The text of a `<text>`: each source line is a line, without the
    /// indentation and the blank lines around it that XML layout adds.
    static func textContent(_ raw: String) -> String {
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    private func textStyle(_ el: XMLElement) -> TextStyle {
        var t = TextStyle(text: SceneBuilder.textContent(el.text))
        if t.text.isEmpty { diagnostics.error(.textNeedsContent, at: el.location) }
        t.font = fontSpec(el)
        if let p = paint(el, "fill") { t.fill = p }
        if let o = number(el, "fill-opacity") { if o >= 0, o <= 1 { t.fillOpacity = o } else { rangeError(el, "fill-opacity", "from 0 to 1") } }
        if let a = keyword(el, "align", TextAlignment.self) { t.align = a }
        if let v = number(el, "line-spacing") { if v > 0 { t.lineSpacing = v } else { rangeError(el, "line-spacing", "greater than 0") } }
        if let a = el.attribute("max-lines") {
            if let v = ValueParser.number(a.value), v >= 1, v == v.rounded(), v < 1e6 { t.maxLines = Int(v) }
            else { diagnostics.error(.outOfRange("max-lines", a.value, "a whole number, 1 or more"), at: a.valueLocation) }
        }
        if let a = el.attribute("paint-bounds") {
            switch a.value.trimmingSpaces {
            case "frame": t.paintsFrame = true
            case "text": t.paintsFrame = false
            default:
                diagnostics.error(.badKeyword("paint-bounds", a.value, choices: ["text", "frame"],
                                              suggestion: Suggestion.nearest(to: a.value, in: ["text", "frame"])), at: a.valueLocation)
            }
        }
        return t
    }

    private func fontSpec(_ el: XMLElement) -> FontSpec {
        var font = FontSpec()
        font.description = el.attribute("font")?.value.trimmingSpaces
        if let a = el.attribute("font"), let last = a.value.split(separator: " ").last,
           let size = ValueParser.number(String(last)), size > FontSpec.maxSize {
            diagnostics.error(.outOfRange("font", a.value, "a description whose size is at most \(Int(FontSpec.maxSize))"), at: a.valueLocation)
        }
        font.family = el.attribute("font-family")?.value.trimmingSpaces
        if let v = number(el, "font-size") {
            if v > 0, v <= FontSpec.maxSize { font.size = v } else { rangeError(el, "font-size", "greater than 0 and at most \(Int(FontSpec.maxSize))") }
        }
        if let a = el.attribute("font-weight") {
            let v = a.value.trimmingSpaces
            if let n = ValueParser.number(v), n >= 100, n <= 900 {
                font.weight = Int(n)
            } else if let w = FontWeightName(rawValue: v.lowercased()) {
                font.weight = w.value
            } else {
                diagnostics.error(.badFontWeight(v, suggestion: Suggestion.nearest(to: v, in: FontWeightName.allCases.map(\.rawValue))),
                                  at: a.valueLocation)
            }
        }
        if let s = keyword(el, "font-style", FontStyle.self) { font.style = s }
        return font
    }

    private func stackStyle(_ el: XMLElement) -> StackStyle {
        let axis = StackAxis(rawValue: el.name) ?? .vertical
        var s = StackStyle(axis: axis)
        if let v = number(el, "spacing") { if v >= 0 { s.spacing = v } else { rangeError(el, "spacing", "0 or more") } }
        s.padding = padding(el)
        s.paint = paintStyle(el, defaultFill: .none)
        s.corners = corners(el)
        if let a = el.attribute("alignment") {
            let choices: [String: StackAlignment]
            switch axis {
            case .vertical: choices = ["leading": .init(horizontal: -1, vertical: 0), "center": .center, "trailing": .init(horizontal: 1, vertical: 0)]
            case .horizontal: choices = ["top": .init(horizontal: 0, vertical: -1), "center": .center, "bottom": .init(horizontal: 0, vertical: 1)]
            case .depth:
                var all: [String: StackAlignment] = [:]
                for (vName, v) in [("top", -1), ("", 0), ("bottom", 1)] {
                    for (hName, h) in [("leading", -1), ("", 0), ("trailing", 1)] {
                        let name = [vName, hName].filter { !$0.isEmpty }.joined(separator: "-")
                        all[name.isEmpty ? "center" : name] = .init(horizontal: h, vertical: v)
                    }
                }
                choices = all
            }
            let v = a.value.trimmingSpaces
            if let c = choices[v] { s.alignment = c } else {
                let names = choices.keys.sorted()
                diagnostics.error(.badKeyword("alignment", a.value, choices: names, suggestion: Suggestion.nearest(to: v, in: names)),
                                  at: a.valueLocation)
            }
        }
        return s
    }

    // MARK: Line graphs

    private func buildGraph(_ el: XMLElement, depth: Int) -> LineGraph {
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
            diagnostics.error(.init("'\(c.name)' goes with 'src'"), at: c.location)
        }
        if let a = el.attribute("labels") {
            labels = a.value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            if labels.count != values.count, !values.isEmpty {
                diagnostics.error(.labelCount(labels.count, values.count), at: a.valueLocation)
            }
        }
        if sources == 1, values.isEmpty, !diagnostics.hasErrors { diagnostics.error(.graphEmpty, at: dataLocation) }

        var graph = LineGraph(values: values, labels: labels)
        graph.min = number(el, "min")
        graph.max = number(el, "max")
        if !values.isEmpty {
            let lo = graph.min ?? min(0, values.min()!), hi = graph.max ?? values.max()!
            if lo > hi { diagnostics.error(.minAboveMax(lo, hi), at: (el.attribute("min") ?? el.attribute("max"))!.valueLocation) }
        }
        if el.attribute("padding") != nil { graph.padding = padding(el) }

        for child in el.children where child.name != "point" {
            if let entry = graphItem(child, values: values, depth: depth) { graph.items.append(entry) }
        }
        return graph
    }

    private func readCSV(_ src: XMLAttribute, column: XMLAttribute, labelColumn: XMLAttribute?) -> ([Double], [String]) {
        let bytes: [UInt8]
        switch resolver.read(src.value) {
        case .failure(let m):
            diagnostics.error(m, at: src.valueLocation)
            return ([], [])
        case .success(let b): bytes = b
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            diagnostics.error(.init("'\(src.value)' is not UTF-8 text"), at: src.valueLocation)
            return ([], [])
        }
        let result = GraphData.column(column.value.trimmingSpaces, labels: labelColumn?.value.trimmingSpaces, csv: text)
        let csvFile = resolver.sceneDirectory.appendingPathComponent(src.value).path
        for problem in result.problems {
            diagnostics.error(problem.message, at: problem.row.map { SourceLocation(file: csvFile, line: $0, column: 1) } ?? src.valueLocation)
        }
        if !result.missing.isEmpty {
            let header = GraphData.header(of: text)
            for (name, attribute) in [(column.value.trimmingSpaces, column), (labelColumn?.value.trimmingSpaces ?? "", labelColumn)] {
                guard let attribute, result.missing.contains(name) else { continue }
                diagnostics.error(.csvMissingColumn(name, available: header, suggestion: Suggestion.nearest(to: name, in: header)),
                                  at: attribute.valueLocation)
            }
        }
        return (result.values, result.labels)
    }

    private func checkGraphChild(_ el: XMLElement) {
        let allowed = Vocabulary.graphChildren[el.name] ?? []
        for a in el.attributes where !allowed.contains(a.name) {
            diagnostics.error(.unknownAttribute(a.name, on: el.name, suggestion: Suggestion.nearest(to: a.name, in: allowed)), at: a.location)
        }
        if el.name != "text" { checkNoText(el); checkNoChildren(el) }
    }

    private func graphItem(_ el: XMLElement, values: [Double], depth: Int) -> GraphEntry? {
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
            let (filled, unknown) = GraphData.fillPlaceholders(style.text, values: values, format: format)
            for name in unknown {
                diagnostics.error(.unknownPlaceholder(name, suggestion: Suggestion.nearest(to: name, in: GraphStatistics.names)), at: el.location)
            }
            style.text = filled
            node.kind = .text(style)
            return GraphEntry(.text(node), at: el.location)
        }
        checkGraphChild(el)
        var style = paintStyle(el, defaultFill: .color(.black))
        switch el.name {
        case "area":
            return GraphEntry(.area(style, opacity: opacity), at: el.location)
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
                else { diagnostics.error(.outOfRange("count", a.value, "a whole number from 1 to 10000"), at: a.valueLocation) }
            }
            return GraphEntry(.grid(count: count, style, opacity: opacity), at: el.location)
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
    private func graphFormat(_ el: XMLElement) -> String? {
        guard let f = el.attribute("format") else { return nil }
        guard GraphData.isSafeFormat(f.value) else {
            diagnostics.error(.badFormat(f.value), at: f.valueLocation)
            return nil
        }
        return f.value
    }

    /// A percentage inside a stack refers to the stack's content box, which
    /// does not exist along an axis where the stack fits its children.
    private func checkPercentages(inStack el: XMLElement) {
        func sized(_ name: String) -> Bool { el.attribute(name) != nil }
        for child in el.children {
            for (attr, axisSized) in [("width", sized("width")), ("height", sized("height"))] where !axisSized {
                if let a = child.attribute(attr), a.value.trimmingSpaces.hasSuffix("%") {
                    diagnostics.error(.percentInFittingStack(attr, stack: el.name), at: a.valueLocation)
                }
            }
        }
    }

    private func paintStyle(_ el: XMLElement, defaultFill: Paint) -> PaintStyle {
        var s = PaintStyle(fill: defaultFill)
        if let p = paint(el, "fill") { s.fill = p }
        if let p = paint(el, "stroke") { s.stroke = p }
        if let w = number(el, "stroke-width") { if w >= 0 { s.strokeWidth = w } else { rangeError(el, "stroke-width", "0 or more") } }
        if let o = number(el, "fill-opacity") { if o >= 0, o <= 1 { s.fillOpacity = o } else { rangeError(el, "fill-opacity", "from 0 to 1") } }
        if let o = number(el, "stroke-opacity") { if o >= 0, o <= 1 { s.strokeOpacity = o } else { rangeError(el, "stroke-opacity", "from 0 to 1") } }
        if let v = keyword(el, "line-cap", LineCap.self) { s.lineCap = v }
        if let v = keyword(el, "line-join", LineJoin.self) { s.lineJoin = v }
        if let m = number(el, "miter-limit") { if m >= 1 { s.miterLimit = m } else { rangeError(el, "miter-limit", "1 or more") } }
        if let a = el.attribute("dash") {
            if a.value.trimmingSpaces == "none" {
                s.dash = []
            } else if let list = ValueParser.numberList(a.value), list.allSatisfy({ $0 >= 0 }) {
                s.dash = list.allSatisfy({ $0 == 0 }) ? [] : list
            } else {
                diagnostics.error(.badList("dash", a.value, "a list of non-negative lengths"), at: a.valueLocation)
            }
        }
        if let o = number(el, "dash-offset") { s.dashOffset = o }
        if let v = keyword(el, "fill-rule", FillRule.self) { s.fillRule = v }
        if let v = keyword(el, "clip-rule", FillRule.self) { s.clipRule = v }
        return s
    }

    private func corners(_ el: XMLElement) -> CornerRadii {
        guard let a = el.attribute("corner-radius") else { return .zero }
        guard let v = ValueParser.numberList(a.value), v.count == 1 || v.count == 4, v.allSatisfy({ $0 >= 0 }) else {
            diagnostics.error(.badList("corner-radius", a.value, "one or four non-negative lengths"), at: a.valueLocation)
            return .zero
        }
        return v.count == 1 ? CornerRadii(all: v[0])
            : CornerRadii(topLeft: v[0], topRight: v[1], bottomRight: v[2], bottomLeft: v[3])
    }

    private func padding(_ el: XMLElement) -> EdgeInsets {
        guard let a = el.attribute("padding") else { return .zero }
        guard let v = ValueParser.numberList(a.value), [1, 2, 4].contains(v.count), v.allSatisfy({ $0 >= 0 }) else {
            diagnostics.error(.badList("padding", a.value, "1, 2 or 4 non-negative lengths (CSS order)"), at: a.valueLocation)
            return .zero
        }
        switch v.count {
        case 1: return EdgeInsets(top: v[0], right: v[0], bottom: v[0], left: v[0])
        case 2: return EdgeInsets(top: v[0], right: v[1], bottom: v[0], left: v[1])
        default: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[3])
        }
    }

    private func points(_ el: XMLElement) -> [Point] {
        guard let a = el.attribute("points") else { return [] }
        guard let v = ValueParser.numberList(a.value), v.count % 2 == 0 else {
            diagnostics.error(.badList("points", a.value, "pairs of numbers 'x,y x,y …'"), at: a.valueLocation)
            return []
        }
        return stride(from: 0, to: v.count, by: 2).map { Point(v[$0], v[$0 + 1]) }
    }

    private func pathData(_ el: XMLElement) -> BezierPath {
        guard let a = el.attribute("d") else { return BezierPath() }
        switch PathDataParser.parse(a.value) {
        case .success(let p): return p
        case .failure(let e):
            diagnostics.error(e.message, at: location(in: a, byteOffset: e.offset))
            return BezierPath()
        }
    }

    /// The location of a byte inside an attribute value, following line breaks.
    private func location(in a: XMLAttribute, byteOffset: Int) -> SourceLocation {
        var loc = a.valueLocation
        // XML normalises newlines in attribute values to spaces, so columns
        // past the first line are approximate; lines stay exact.
        loc.column += byteOffset
        return loc
    }

    // MARK: References

    /// A `url(#id)` naming a clip path (paints go through `paint`).
    private func clipReference(_ el: XMLElement, _ name: String) -> String? {
        guard let a = el.attribute(name) else { return nil }
        let t = a.value.trimmingSpaces
        guard let id = urlReference(t) else {
            diagnostics.error(.badList(name, a.value, "url(#id)"), at: a.valueLocation)
            return nil
        }
        clipReferences.append((id, a.valueLocation))
        return id
    }

    private func urlReference(_ t: String) -> String? {
        guard t.hasPrefix("url(#"), t.hasSuffix(")") else { return nil }
        let id = String(t.dropFirst(5).dropLast())
        return id.isEmpty ? nil : id
    }

    private func paint(_ el: XMLElement, _ name: String) -> Paint? {
        guard let a = el.attribute(name) else { return nil }
        let t = a.value.trimmingSpaces
        if t == "none" { return Paint.none }
        if t.hasPrefix("url(") {
            guard let id = urlReference(t) else {
                diagnostics.error(.badPaint(a.value), at: a.valueLocation)
                return nil
            }
            paintReferences.append((id, a.valueLocation))
            return .reference(id)
        }
        if let c = ColorParser.parse(t, palette: palette) { return .color(c) }
        diagnostics.error(.badColor(a.value, suggestion: colorSuggestion(t)), at: a.valueLocation)
        return nil
    }

    private func checkReferences(_ defs: Definitions) {
        for (id, loc) in paintReferences where defs.paintServers[id] == nil && !(paintServerIDs.contains(id)) {
            diagnostics.error(.unknownPaintServer(id, suggestion: Suggestion.nearest(to: id, in: paintServerIDs)), at: loc)
        }
        for (id, loc) in clipReferences where defs.clipPaths[id] == nil && !clipPathIDs.contains(id) {
            diagnostics.error(.unknownClipPath(id, suggestion: Suggestion.nearest(to: id, in: clipPathIDs)), at: loc)
        }
        // A clip path may be clipped by another (on itself or on its shapes);
        // following those edges must never come back to where it started.
        func edges(_ c: ClipPathDefinition) -> [String] {
            ([c.clipPath] + c.shapes.map(\.common.clipPath)).compactMap { $0 }
        }
        findCycles(in: defs.clipPaths.mapValues(edges), locations: defs.clipPaths.mapValues(\.location))
        // A pattern's children may be painted with paint servers, patterns
        // among them; none may lead back to the pattern being painted.
        var paintEdges: [String: [String]] = [:]
        for (id, def) in defs.paintServers {
            if case .pattern(let tile) = def.server { paintEdges[id] = tile.children.flatMap(referencedPaintIDs) }
        }
        findCycles(in: paintEdges, locations: defs.paintServers.mapValues(\.location))
    }

    private func referencedPaintIDs(in node: Node) -> [String] {
        var ids: [String] = []
        var style = node.kind.paintStyle
        switch node.kind {
        case .text(let t): style = PaintStyle(fill: t.fill)
        case .lineGraph(let g):
            for entry in g.items {
                switch entry.item {
                case .area(let s, _), .line(let s, _, _), .points(_, let s, _), .grid(_, let s, _):
                    for paint in [s.fill, s.stroke] { if case .reference(let id) = paint { ids.append(id) } }
                case .xLabels(_, let fill, _, _), .yLabels(_, let fill, _, _):
                    if case .reference(let id) = fill { ids.append(id) }
                case .text(let node):
                    ids += referencedPaintIDs(in: node)
                }
            }
        case .view, .rect, .ellipse, .shape, .stack, .group, .repeat, .image: break
        }
        for paint in [style?.fill, style?.stroke] {
            if case .reference(let id)? = paint { ids.append(id) }
        }
        return ids + node.children.flatMap(referencedPaintIDs)
    }

    /// Reports each reference cycle in a graph of ids once.
    private func findCycles(in graph: [String: [String]], locations: [String: SourceLocation]) {
        var state: [String: Int] = [:]   // 1 visiting, 2 done
        var reported = false
        func visit(_ id: String, _ chain: [String]) {
            guard !reported, let next = graph[id] else { return }
            if state[id] == 2 { return }
            if state[id] == 1 {
                let cycle = Array(chain.drop(while: { $0 != id })) + [id]
                diagnostics.error(.referenceCycle(cycle), at: locations[cycle[0]])
                reported = true
                return
            }
            state[id] = 1
            for n in next { visit(n, chain + [id]) }
            state[id] = 2
        }
        for id in graph.keys.sorted() { visit(id, []) }
    }

    /// Counts painted nodes after expanding repeats, and the contents of a
    /// pattern once for every node it fills (a tile is drawn per use), so
    /// that nested repeats and patterns of patterns cannot explode.
    private func checkNodeCount(_ scene: Scene) {
        let limit = Double(limits.maxNodes)
        var patternWeights: [String: Double] = [:]
        var visiting: Set<String> = []
        func patternWeight(_ id: String) -> Double {
            if let w = patternWeights[id] { return w }
            guard case .pattern(let tile)? = scene.definitions.paintServers[id]?.server, !visiting.contains(id) else { return 0 }
            visiting.insert(id)
            let w = tile.children.reduce(0) { $0 + count($1, report: false) }
            visiting.remove(id)
            patternWeights[id] = w
            return w
        }
        func count(_ n: Node, report: Bool) -> Double {
            // A graph paints a circle per value for each points layer.
            var dots = 0.0
            if case .lineGraph(let g) = n.kind {
                let layers = g.items.filter { if case .points = $0.item { return true } else { return false } }.count
                dots = Double(g.values.count) * Double(g.items.contains(where: \.item.isLayer) ? layers : 1)
            }
            let own = 1 + dots + referencedPaintIDs(in: Node(element: n.element, kind: n.kind, common: n.common,
                                                      location: n.location)).reduce(0) { $0 + patternWeight($1) }
            let inner = n.children.reduce(0) { $0 + count($1, report: report) }
            if case .repeat(let k, _) = n.kind {
                let total = own + Double(k) * inner
                if total > limit {
                    if report { diagnostics.error(.tooManyNodes(total, limits.maxNodes), at: n.location) }
                    return report ? own : total   // report each offending repeat once, not its ancestors
                }
                return total
            }
            return own + inner
        }
        let total = scene.nodes.reduce(0) { $0 + count($1, report: true) }
        if total > limit, !diagnostics.all.contains(where: { $0.message.text.contains("nodes after expanding repeats") }) {
            diagnostics.error(.tooManyNodes(total, limits.maxNodes), at: scene.location)
        }
    }

    // MARK: Checks and typed attribute readers

    private func checkAttributes(_ el: XMLElement) {
        let allowed = Vocabulary.attributes[el.name] ?? []
        for a in el.attributes where !allowed.contains(a.name) {
            diagnostics.error(.unknownAttribute(a.name, on: el.name, suggestion: Suggestion.nearest(to: a.name, in: allowed)),
                              at: a.location)
        }
    }

    private func checkNoText(_ el: XMLElement) {
        if el.text.contains(where: { !$0.isWhitespace }) {
            diagnostics.error(.unexpectedText(in: el.name), at: el.location)
        }
    }

    private func checkNoChildren(_ el: XMLElement) {
        for child in el.children { reportMisplaced(child, parent: el.name, expected: []) }
    }

    private func reportMisplaced(_ el: XMLElement, parent: String, expected: Set<String>) {
        let known = Set(Vocabulary.attributes.keys)
        if Vocabulary.planned.contains(el.name) {
            diagnostics.error(.notYetSupported(el.name), at: el.location)
        } else if known.contains(el.name) {
            diagnostics.error(.misplacedElement(el.name, in: parent), at: el.location)
        } else {
            let candidates = expected.isEmpty ? known : expected
            diagnostics.error(.unknownElement(el.name, suggestion: Suggestion.nearest(to: el.name, in: candidates)), at: el.location)
        }
    }

    private func registerID(_ el: XMLElement, required needed: Bool) -> String? {
        guard let a = el.attribute("id") else {
            if needed { diagnostics.error(.missingAttribute("id", on: el.name), at: el.location) }
            return nil
        }
        if let first = ids[a.value] {
            diagnostics.error(.duplicateID(a.value, first: first), at: a.valueLocation)
        } else {
            ids[a.value] = a.valueLocation
        }
        return a.value
    }

    private func required(_ el: XMLElement, _ name: String) -> XMLAttribute? {
        guard let a = el.attribute(name) else {
            diagnostics.error(.missingAttribute(name, on: el.name), at: el.location)
            return nil
        }
        return a
    }

    private func rangeError(_ el: XMLElement, _ name: String, _ range: String) {
        guard let a = el.attribute(name) else { return }
        diagnostics.error(.outOfRange(name, a.value, range), at: a.valueLocation)
    }

    private func number(_ el: XMLElement, _ name: String) -> Double? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.number(a.value) else {
            diagnostics.error(.badNumber(name, a.value), at: a.valueLocation)
            return nil
        }
        return v
    }

    private func requiredNumber(_ el: XMLElement, _ name: String, positive: Bool) -> Double? {
        guard required(el, name) != nil, let v = number(el, name) else { return nil }
        if positive, v <= 0 { rangeError(el, name, "greater than 0"); return nil }
        return v
    }

    private func length(_ el: XMLElement, _ name: String, allowFill: Bool = false) -> Length? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.length(a.value, allowFill: allowFill) else {
            diagnostics.error(.badLength(name, a.value, allowFill: allowFill), at: a.valueLocation)
            return nil
        }
        if ["width", "height"].contains(name) {
            switch v {
            case .points(let p) where p < 0, .percent(let p) where p < 0:
                rangeError(el, name, "0 or more")
                return nil
            default: break
            }
        }
        return v
    }

    private func bool(_ el: XMLElement, _ name: String) -> Bool? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.bool(a.value) else {
            diagnostics.error(.badBool(name, a.value), at: a.valueLocation)
            return nil
        }
        return v
    }

    private func color(_ el: XMLElement, _ name: String) -> Color? {
        guard let a = el.attribute(name) else { return nil }
        guard let c = ColorParser.parse(a.value, palette: palette) else {
            diagnostics.error(.badColor(a.value, suggestion: colorSuggestion(a.value)), at: a.valueLocation)
            return nil
        }
        return c
    }

    private func colorSuggestion(_ text: String) -> String? {
        let t = text.trimmingSpaces
        guard t.allSatisfy({ $0.isLetter }) else { return nil }
        return Suggestion.nearest(to: t, in: NamedColors.names + Array(palette.keys) + ["transparent"])
    }

    private func keyword<K: RawRepresentable & CaseIterable>(_ el: XMLElement, _ name: String, _: K.Type) -> K?
    where K.RawValue == String {
        guard let a = el.attribute(name) else { return nil }
        if let k = K(rawValue: a.value.trimmingSpaces) { return k }
        let choices = K.allCases.map(\.rawValue)
        diagnostics.error(.badKeyword(name, a.value, choices: choices, suggestion: Suggestion.nearest(to: a.value, in: choices)),
                          at: a.valueLocation)
        return nil
    }

    private func transformValue(_ el: XMLElement, _ name: String) -> AffineTransform? {
        guard let a = el.attribute(name) else { return nil }
        switch TransformParser.parse(a.value) {
        case .success(let t): return t
        case .failure(let m):
            diagnostics.error(m, at: a.valueLocation)
            return nil
        }
    }

    private func unitPoint(_ el: XMLElement, _ name: String) -> Point? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.numberList(a.value), v.count == 2 else {
            diagnostics.error(.badPoint(name, a.value), at: a.valueLocation)
            return nil
        }
        return Point(v[0], v[1])
    }
}

/// `direction` keywords, and the angles the contract gives them.
enum LinearDirection: String, CaseIterable {
    case up, upRight = "up-right", right, downRight = "down-right", down, downLeft = "down-left", left, upLeft = "up-left"
    var angle: Double {
        switch self {
        case .up: return 90
        case .upRight: return 45
        case .right: return 0
        case .downRight: return 315
        case .down: return 270
        case .downLeft: return 225
        case .left: return 180
        case .upLeft: return 135
        }
    }
}

enum UnitsKeyword: String, CaseIterable {
    case objectBoundingBox, userSpace
    var units: GradientUnits { self == .userSpace ? .userSpace : .objectBoundingBox }
}
