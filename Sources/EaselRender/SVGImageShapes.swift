import CLibXML2
import EaselLayout
import EaselModel
import Glibc

/// An SVG image's drawing as render nodes, for outputs that hold shapes
/// rather than pictures (a VectorDrawable). librsvg draws the image into
/// Cairo's SVG surface (`SVGImageEmbedding.cairoDocument`) — its CSS,
/// references, `<use>`s and text already resolved into paths — and this
/// reads that small, regular dialect back: groups with `matrix()`
/// transforms, clip paths and opacity, paths and rectangles with `style`
/// fills and strokes (inherited from their groups, as Cairo writes glyph
/// runs), glyph `<symbol>`s placed by `<use>`, and user-space linear and
/// radial gradients. What it draws as a picture, a mask or a filter (blurs,
/// group opacity over a clip, embedded bitmaps, patterns) is a failure
/// naming it: an output that cannot hold pictures cannot hold those.
struct SVGImageShapes {
    var nodes: [RenderNode] = []
    var paints = PaintTable()

    /// `location`: the `<image>`, every node's location (errors name it).
    static func read(_ document: [UInt8], location: SourceLocation) -> Result<SVGImageShapes, SVGImageProblem> {
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_HUGE.rawValue)
        let docOrNil = document.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { xmlReadMemory($0, Int32(b.count), nil, "UTF-8", options) }
        }
        guard let doc = docOrNil, let root = xmlDocGetRootElement(doc) else {
            return .failure(SVGImageProblem(text: "Cairo's SVG could not be read back"))
        }
        defer { xmlFreeDoc(doc) }
        var reader = Reader(location: location)
        reader.index(root)
        do {
            var shapes = SVGImageShapes()
            shapes.nodes = try reader.children(of: root, style: Style(), depth: 0)
            shapes.paints = reader.paints
            return .success(shapes)
        } catch let problem as SVGImageProblem {
            return .failure(problem)
        } catch {
            return .failure(SVGImageProblem(text: "\(error)"))
        }
    }

    /// What a path inherits from its groups.
    struct Style {
        var fill: String? = "black"
        var fillOpacity = 1.0
        var fillRule = FillRule.nonzero
        var stroke: String?
        var strokeOpacity = 1.0
        var strokeWidth = 1.0
        var cap = LineCap.butt
        var join = LineJoin.miter
        var miterLimit = 4.0
        var dash: [Double] = []
        var dashOffset = 0.0
    }

    private struct Reader {
        let location: SourceLocation
        var byID: [String: xmlNodePtr] = [:]
        var paints = PaintTable()
        var colorIDs: [String: PaintID] = [:]

        init(location: SourceLocation) { self.location = location }

        mutating func index(_ node: xmlNodePtr) {
            if let id = attribute(node, "id") { byID[id] = node }
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE { index(c) }
                child = c.pointee.next
            }
        }

        func fail(_ what: String) -> SVGImageProblem { SVGImageProblem(text: what) }

        mutating func children(of node: xmlNodePtr, style: Style, depth: Int) throws -> [RenderNode] {
            guard depth < 64 else { throw fail("its drawing nests deeper than 64 groups") }
            var out: [RenderNode] = []
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE, let made = try element(c, style: style, depth: depth) { out.append(made) }
                child = c.pointee.next
            }
            return out
        }

        /// One element as a node (nil: nothing to draw).
        mutating func element(_ node: xmlNodePtr, style inherited: Style, depth: Int) throws -> RenderNode? {
            let name = String(cString: node.pointee.name)
            switch name {
            case "defs", "symbol", "clipPath", "linearGradient", "radialGradient", "title", "desc", "metadata", "style":
                // Definitions are drawn where they are used.
                return nil
            case "mask", "image", "pattern", "filter", "foreignObject":
                return name == "image" ? try refuse(node, "an embedded picture (librsvg draws filters, and what Cairo cannot draw as shapes, as pictures)") : nil
            default:
                break
            }
            var properties = try declarations(node)
            if attribute(node, "mask") != nil || properties["mask"] != nil { throw fail("it draws through a mask (a picture a VectorDrawable cannot hold)") }
            if let filter = attribute(node, "filter") ?? properties["filter"], filter != "none" { throw fail("it uses a filter (a picture a VectorDrawable cannot hold)") }
            let style = try cascade(inherited, &properties)
            let transform = try attribute(node, "transform").map(parseTransform) ?? .identity
            let opacity = (attribute(node, "opacity") ?? properties["opacity"]).flatMap(Double.init) ?? 1
            // Cairo writes the clip's rule on the element that uses it.
            let clipRule = attribute(node, "clip-rule") ?? properties["clip-rule"]
            let clip = try attribute(node, "clip-path").map { try clipPath($0, rule: clipRule) } ?? nil
            var content: [RenderNode]
            switch name {
            case "g", "svg":
                content = try children(of: node, style: style, depth: depth + 1)
            case "use":
                guard let href = attribute(node, "href"), href.hasPrefix("#"), let target = byID[String(href.dropFirst())] else {
                    throw fail("a <use> that names nothing")
                }
                let at = AffineTransform.translation(attribute(node, "x").flatMap(Double.init) ?? 0, attribute(node, "y").flatMap(Double.init) ?? 0)
                let inner = String(cString: target.pointee.name) == "symbol" || String(cString: target.pointee.name) == "g"
                    ? try children(of: target, style: style, depth: depth + 1)
                    : try element(target, style: style, depth: depth + 1).map { [$0] } ?? []
                content = [.group(RenderGroup(location: location, transform: at, children: inner))]
            case "path", "rect":
                let path = name == "path" ? try parsePath(attribute(node, "d") ?? "") : rect(node)
                content = try shape(path, style).map { [.path($0)] } ?? []
            case "text", "tspan":
                throw fail("it has text Cairo kept as text")
            default:
                throw fail("it has an element <\(name)> Easel does not read back")
            }
            guard !content.isEmpty else { return nil }
            if transform.isIdentity, opacity >= 1, clip == nil, content.count == 1 { return content[0] }
            return .group(RenderGroup(location: location, transform: transform, opacity: opacity, clip: clip, children: content))
        }

        func refuse(_ node: xmlNodePtr, _ what: String) throws -> RenderNode? { throw fail("it draws \(what)") }

        /// A path filled and stroked in `style`'s paints.
        mutating func shape(_ path: BezierPath, _ style: Style) throws -> RenderPath? {
            guard !path.isEmpty else { return nil }
            let fill = try style.fill.map { try paint($0, opacity: style.fillOpacity) } ?? nil
            var stroke: StrokeDrawing?
            if let s = style.stroke, style.strokeWidth > 0, let p = try paint(s, opacity: style.strokeOpacity) {
                stroke = StrokeDrawing(paint: p, width: style.strokeWidth, cap: style.cap, join: style.join, miterLimit: style.miterLimit,
                                       dash: style.dash, dashOffset: style.dashOffset)
            }
            guard fill != nil || stroke != nil else { return nil }
            return RenderPath(location: location, path: path, fill: fill, fillRule: style.fillRule, stroke: stroke)
        }

        /// A paint value: a colour, `none`, or `url(#gradient)`.
        mutating func paint(_ value: String, opacity: Double) throws -> PaintID? {
            if value == "none" { return nil }
            let key = value + "|" + String(opacity)
            if let known = colorIDs[key] { return known }
            let kind: ResolvedPaint.Kind
            if value.hasPrefix("url(#") {
                let id = String(value.dropFirst(5).prefix { $0 != ")" })
                guard let g = byID[id] else { throw fail("a paint that names nothing") }
                kind = try gradient(g)
            } else {
                kind = .solid(try color(value))
            }
            let made = paints.add(.fixed(ResolvedPaint(kind: kind, opacity: opacity)))
            colorIDs[key] = made
            return made
        }

        func gradient(_ node: xmlNodePtr) throws -> ResolvedPaint.Kind {
            let name = String(cString: node.pointee.name)
            guard attribute(node, "gradientUnits") == "userSpaceOnUse" else { throw fail("a gradient in bounding-box units") }
            let matrix = try attribute(node, "gradientTransform").map(parseTransform) ?? .identity
            let spread: SpreadMethod = attribute(node, "spreadMethod").flatMap(SpreadMethod.init(rawValue:)) ?? .pad
            var stops: [ShadingStop] = []
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE, String(cString: c.pointee.name) == "stop" {
                    var d = try declarations(c)
                    let offset = attribute(c, "offset").flatMap { $0.hasSuffix("%") ? Double($0.dropLast()).map { $0 / 100 } : Double($0) } ?? 0
                    var color = try self.color(attribute(c, "stop-color") ?? d.removeValue(forKey: "stop-color") ?? "black")
                    color.alpha *= (attribute(c, "stop-opacity") ?? d["stop-opacity"]).flatMap(Double.init) ?? 1
                    stops.append(ShadingStop(offset: max(stops.last?.offset ?? 0, min(1, max(0, offset))), color: color))
                }
                child = c.pointee.next
            }
            guard !stops.isEmpty else { return .solid(.transparent) }
            func number(_ n: String, _ fallback: Double) -> Double { attribute(node, n).flatMap(Double.init) ?? fallback }
            if name == "linearGradient" {
                return .linear(LinearShading(start: Point(number("x1", 0), number("y1", 0)), end: Point(number("x2", 1), number("y2", 0)),
                                             stops: stops, spread: spread, matrix: matrix))
            }
            guard name == "radialGradient" else { throw fail("a paint server <\(name)>") }
            let c = Point(number("cx", 0.5), number("cy", 0.5))
            return .radial(RadialShading(center: c, radius: number("r", 0.5), focus: Point(number("fx", c.x), number("fy", c.y)),
                                         stops: stops, spread: spread, matrix: matrix))
        }

        /// `url(#id)` of a `<clipPath>` of paths and rectangles.
        func clipPath(_ value: String, rule usersRule: String?) throws -> ResolvedClip? {
            guard value.hasPrefix("url(#") else { return nil }
            let id = String(value.dropFirst(5).prefix { $0 != ")" })
            guard let node = byID[id] else { throw fail("a clip path that names nothing") }
            if attribute(node, "clip-path") != nil { throw fail("a clip path clipped itself") }
            var shapes: [ResolvedClip.Shape] = []
            var child = node.pointee.children
            while let c = child {
                if c.pointee.type == XML_ELEMENT_NODE {
                    let name = String(cString: c.pointee.name)
                    guard name == "path" || name == "rect" else { throw fail("a clip path of <\(name)>") }
                    var path = name == "path" ? try parsePath(attribute(c, "d") ?? "") : rect(c)
                    if let t = try attribute(c, "transform").map(parseTransform) { path = path.applying(t) }
                    let d = try declarations(c)
                    let rule: FillRule = (attribute(c, "clip-rule") ?? d["clip-rule"] ?? attribute(node, "clip-rule") ?? usersRule) == "evenodd" ? .evenodd : .nonzero
                    shapes.append(ResolvedClip.Shape(path: path, rule: rule, clip: []))
                }
                child = c.pointee.next
            }
            return ResolvedClip(shapes: shapes, within: [])
        }

        func rect(_ node: xmlNodePtr) -> BezierPath {
            func n(_ name: String) -> Double { attribute(node, name).flatMap(Double.init) ?? 0 }
            return .rect(Rect(x: n("x"), y: n("y"), width: n("width"), height: n("height")))
        }

        /// `style="a:b;c:d"` as a table.
        func declarations(_ node: xmlNodePtr) throws -> [String: String] {
            var out: [String: String] = [:]
            for part in (attribute(node, "style") ?? "").split(separator: ";") {
                let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
                if pair.count == 2 { out[pair[0]] = pair[1] }
            }
            for name in ["fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-width", "stroke-linecap",
                         "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset"] {
                if out[name] == nil, let v = attribute(node, name) { out[name] = v }
            }
            return out
        }

        func cascade(_ base: Style, _ d: inout [String: String]) throws -> Style {
            var s = base
            if let v = d["fill"] { s.fill = v }
            if let v = d["fill-opacity"].flatMap(Double.init) { s.fillOpacity = v }
            if let v = d["fill-rule"] { s.fillRule = v == "evenodd" ? .evenodd : .nonzero }
            if let v = d["stroke"] { s.stroke = v }
            if let v = d["stroke-opacity"].flatMap(Double.init) { s.strokeOpacity = v }
            if let v = d["stroke-width"].flatMap(Double.init) { s.strokeWidth = v }
            if let v = d["stroke-linecap"].flatMap(LineCap.init(rawValue:)) { s.cap = v }
            if let v = d["stroke-linejoin"].flatMap(LineJoin.init(rawValue:)) { s.join = v }
            if let v = d["stroke-miterlimit"].flatMap(Double.init) { s.miterLimit = v }
            if let v = d["stroke-dasharray"] {
                s.dash = v == "none" ? [] : v.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
            }
            if let v = d["stroke-dashoffset"].flatMap(Double.init) { s.dashOffset = v }
            return s
        }

        /// `rgb(r%,g%,b%)`, `rgb(r,g,b)` or `#rrggbb`.
        func color(_ text: String) throws -> Color {
            let t = text.trimmingCharacters(in: " ")
            if t.hasPrefix("rgb("), t.hasSuffix(")") {
                let parts = t.dropFirst(4).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: " ") }
                let values = parts.compactMap { p -> Double? in p.hasSuffix("%") ? Double(p.dropLast()).map { $0 / 100 } : Double(p).map { $0 / 255 } }
                guard values.count == 3 else { throw fail("a colour '\(t)'") }
                return Color(red: values[0], green: values[1], blue: values[2])
            }
            if t.hasPrefix("#"), t.count == 7, let v = Int(t.dropFirst(), radix: 16) {
                return Color(red: Double(v >> 16) / 255, green: Double((v >> 8) & 255) / 255, blue: Double(v & 255) / 255)
            }
            if t == "black" { return .black }
            if t == "white" { return Color(red: 1, green: 1, blue: 1) }
            throw fail("a colour '\(t)'")
        }

        /// `matrix(a,b,c,d,e,f)`, `translate(x[,y])` or `scale(x[,y])`, as Cairo writes them.
        func parseTransform(_ text: String) throws -> AffineTransform {
            var result = AffineTransform.identity
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "("), let close = rest.firstIndex(of: ")") {
                let name = rest[..<open].trimmingCharacters(in: " ,")
                let v = rest[rest.index(after: open)..<close].split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
                let t: AffineTransform
                switch (name, v.count) {
                case ("matrix", 6): t = AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
                case ("translate", 1): t = .translation(v[0], 0)
                case ("translate", 2): t = .translation(v[0], v[1])
                case ("scale", 1): t = .scale(v[0], v[0])
                case ("scale", 2): t = .scale(v[0], v[1])
                default: throw fail("a transform '\(text)'")
                }
                result = result.concatenating(t)
                rest = rest[rest.index(after: close)...]
            }
            return result
        }

        /// Path data of absolute M, L, C and Z, as Cairo writes it.
        func parsePath(_ d: String) throws -> BezierPath {
            var path = BezierPath()
            var command: Character = "M"
            var numbers: [Double] = []
            func flush() throws {
                switch command {
                case "M", "L":
                    guard numbers.count % 2 == 0 else { throw fail("path data '\(d.prefix(40))'") }
                    for k in stride(from: 0, to: numbers.count, by: 2) {
                        let p = Point(numbers[k], numbers[k + 1])
                        if command == "M" && k == 0 { path.move(to: p) } else { path.line(to: p) }
                    }
                case "C":
                    guard numbers.count % 6 == 0 else { throw fail("path data '\(d.prefix(40))'") }
                    for k in stride(from: 0, to: numbers.count, by: 6) {
                        path.curve(to: Point(numbers[k + 4], numbers[k + 5]), control1: Point(numbers[k], numbers[k + 1]),
                                   control2: Point(numbers[k + 2], numbers[k + 3]))
                    }
                case "Z", "z":
                    path.close()
                default:
                    throw fail("path data with '\(command)'")
                }
                numbers = []
            }
            var token = ""
            var started = false
            for ch in d + " " {
                if ch.isLetter, ch != "e", ch != "E" {
                    if !token.isEmpty { numbers.append(try number(token)); token = "" }
                    if started { try flush() }
                    command = ch
                    started = true
                } else if ch == " " || ch == "," || ch == "\n" || ch == "\t" {
                    if !token.isEmpty { numbers.append(try number(token)); token = "" }
                } else {
                    token.append(ch)
                }
            }
            if started { try flush() }
            return path
        }

        func number(_ t: String) throws -> Double {
            guard let v = Double(t), v.isFinite else { throw fail("a number '\(t)'") }
            return v
        }
    }
}

/// A node's attribute by local name, in any namespace (`xlink:href` is
/// `href`), as libxml2's `xmlGetProp` finds it.
private func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
    guard let raw = xmlGetProp(node, name) else { return nil }
    defer { easel_xml_free(raw) }
    return String(cString: raw)
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
