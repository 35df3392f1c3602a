import EaselModel

/// Nodes: the element switch, common attributes, and the paint and
/// geometry attributes that shapes and boxes share.
extension SceneBuilder {
    func buildNode(_ el: XMLElement, parent: String, depth: Int) -> Node? {
        // Past the error limit, looking further only finds errors nobody sees.
        if diagnostics.isFull { return nil }
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
        case _ where Vocabulary.coordinateShapes.contains(el.name):
            kind = .shape(coordinateShape(el), paintStyle(el, defaultFill: .color(.black)))
        case "group":
            kind = .group
        case "repeat":
            var count = 0
            if let a = required(el, "count") {
                if let v = ValueParser.number(a.value), v >= 0, v == v.rounded(), v <= Double(limits.maxNodes) {
                    count = Int(v)
                } else {
                    diagnostics.error(.outOfRange("count", a.value, "a whole number from 0 to \(limits.maxNodes)"), on: a)
                }
            }
            kind = .repeat(count: count, step: transformValue(el, "transform") ?? .identity)
        case "image":
            var source = ImageSource(path: "", data: [], pixelWidth: 1, pixelHeight: 1)
            if let href = required(el, "href") {
                switch resolver.loadImage(href.value) {
                case .success(let s):
                    if let svg = s.vector, svg.work.elements > Double(limits.maxNodes) {
                        diagnostics.error(.svgTooManyElements(href.value, svg.work.elements, limits.maxNodes), on: href)
                    } else if let svg = s.vector, depth + svg.depth > limits.maxDepth {
                        diagnostics.error(.svgTooDeep(href.value, svg.depth, at: depth, limits.maxDepth), on: href)
                    } else if let svg = s.vector, svg.text.unicodeScalars.count > limits.maxTextCharacters {
                        diagnostics.error(.svgTooMuchText(href.value, svg.text.unicodeScalars.count, limits.maxTextCharacters), on: href)
                    } else {
                        source = s
                    }
                case .failure(let m): diagnostics.error(m, on: href)
                }
            }
            kind = .image(source, fit: keyword(el, "fit", ImageFit.self) ?? .fill, tint: paint(el, "tint"))
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
            // A stack's `dir` is inherited by what it holds.
            let inherited = direction
            defer { direction = inherited }
            if case .stack(let style) = kind, style.setsDirection { direction = style.direction }
            for child in el.children {
                if let n = buildNode(child, parent: el.name, depth: depth + 1) { children.append(n) }
            }
        } else if el.name != "lineGraph" && el.name != "text" {
            checkNoChildren(el)
        }
        nodesBuilt += 1
        return Node(element: el.name, kind: kind, common: common, children: children, location: el.location,
                    nodeID: NodeID(nodesBuilt - 1))
    }

    /// The geometry of `<circle>`, `<line>`, `<polyline>`, `<polygon>`, `<path>`.
    func coordinateShape(_ el: XMLElement) -> CoordinateShape {
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
        case "path": return .path(pathData(el))
        default:
            // A name in `Vocabulary.coordinateShapes` without a case above:
            // said loudly, so the first test of a new shape shows it.
            diagnostics.error(.notYetSupported(el.name), at: el.location)
            return .path(BezierPath())
        }
    }

    func commonAttributes(_ el: XMLElement) -> CommonAttributes {
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
                    diagnostics.error(.badList("transform-origin", a.value, "'center' or two lengths 'x y'"), on: a)
                }
            }
        }
        c.clipPath = clipReference(el, "clip-path")
        c.hidden = bool(el, "hidden") ?? false
        if let g = number(el, "grow") { if g >= 0 { c.grow = g } else { rangeError(el, "grow", "0 or more") } }
        return c
    }

    func paintStyle(_ el: XMLElement, defaultFill: Paint) -> PaintStyle {
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
                diagnostics.error(.badList("dash", a.value, "a list of non-negative lengths"), on: a)
            }
        }
        if let o = number(el, "dash-offset") { s.dashOffset = o }
        if let v = keyword(el, "fill-rule", FillRule.self) { s.fillRule = v }
        if let v = keyword(el, "clip-rule", FillRule.self) { s.clipRule = v }
        return s
    }

    func corners(_ el: XMLElement) -> CornerRadii {
        guard let a = el.attribute("corner-radius") else { return .zero }
        guard let v = ValueParser.numberList(a.value), v.count == 1 || v.count == 4, v.allSatisfy({ $0 >= 0 }) else {
            diagnostics.error(.badList("corner-radius", a.value, "one or four non-negative lengths"), on: a)
            return .zero
        }
        return v.count == 1 ? CornerRadii(all: v[0])
            : CornerRadii(topLeft: v[0], topRight: v[1], bottomRight: v[2], bottomLeft: v[3])
    }

    func padding(_ el: XMLElement) -> EdgeInsets {
        guard let a = el.attribute("padding") else { return .zero }
        guard let v = ValueParser.numberList(a.value), [1, 2, 4].contains(v.count), v.allSatisfy({ $0 >= 0 }) else {
            diagnostics.error(.badList("padding", a.value, "1, 2 or 4 non-negative lengths (CSS order)"), on: a)
            return .zero
        }
        switch v.count {
        case 1: return EdgeInsets(top: v[0], right: v[0], bottom: v[0], left: v[0])
        case 2: return EdgeInsets(top: v[0], right: v[1], bottom: v[0], left: v[1])
        default: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[3])
        }
    }

    func points(_ el: XMLElement) -> [Point] {
        guard let a = el.attribute("points") else { return [] }
        guard let v = ValueParser.numberList(a.value), v.count % 2 == 0 else {
            diagnostics.error(.badList("points", a.value, "pairs of numbers 'x,y x,y …'"), on: a)
            return []
        }
        return stride(from: 0, to: v.count, by: 2).map { Point(v[$0], v[$0 + 1]) }
    }

    func pathData(_ el: XMLElement) -> BezierPath {
        guard let a = el.attribute("d") else { return BezierPath() }
        switch PathDataParser.parse(a.value) {
        case .success(let p): return p
        case .failure(let e):
            diagnostics.error(e.message, at: location(in: a, byteOffset: e.offset))
            return BezierPath()
        }
    }

    /// The location of a byte inside an attribute value, following line breaks.
    func location(in a: XMLAttribute, byteOffset: Int) -> SourceLocation {
        var loc = a.valueLocation
        // XML normalises newlines in attribute values to spaces, so columns
        // past the first line are approximate; lines stay exact.
        loc.column += byteOffset
        return loc
    }
}
