import EaselModel

/// `<defs>`: palette colours, gradients, patterns, stripes and clip paths.
extension SceneBuilder {
    func collectDefinitionNames(_ defs: [XMLElement]) {
        for d in defs {
            for el in d.children {
                switch el.name {
                case "color":
                    guard let name = el.attribute("name")?.value.trimmingSpaces, let v = el.attribute("value") else { continue }
                    // Palette values are CSS colours, so palettes cannot form cycles.
                    if let c = ColorParser.parse(v.value, palette: [:]) {
                        let dark = el.attribute("dark").flatMap { ColorParser.parse($0.value, palette: [:]) }
                        let tinted = el.attribute("tinted").flatMap { ColorParser.parse($0.value, palette: [:]) }
                        // Checked (and reported) in buildDefinitions.
                        let exported = el.attribute("export").flatMap { ValueParser.bool($0.value) } ?? true
                        var color = PaletteColor(name: name, light: c, dark: dark, tinted: tinted, exported: exported, location: el.location)
                        color.isWide = [v, el.attribute("dark"), el.attribute("tinted")].contains { $0.map { ColorParser.isWrittenWide($0.value) } ?? false }
                            || [c, dark, tinted].contains { $0.map { !DisplayP3.isInside($0, .srgb) } ?? false }
                        // The first of a name is the palette colour (a lookup, not a search: palettes can be long).
                        if palette.updateValue(color.value(in: appearance), forKey: name) == nil { paletteColors.append(color) }
                    }
                case _ where Vocabulary.paintServers.contains(el.name):
                    if let id = el.attribute("id")?.value { paintServerIDs.insert(id) }
                case "clipPath":
                    if let id = el.attribute("id")?.value { clipPathIDs.insert(id) }
                default: break
                }
            }
        }
    }

    func buildDefinitions(_ defs: [XMLElement], into start: Definitions) -> Definitions {
        var out = start
        out.palette = palette
        out.paletteColors = paletteColors
        for d in defs {
            checkAttributes(d)
            checkNoText(d)
            for el in d.children {
                switch el.name {
                case "color":
                    checkAttributes(el)
                    checkNoChildren(el)
                    guard required(el, "name") != nil, let v = required(el, "value") else { continue }
                    // The value this compile paints is the one the gamut warning lists.
                    let dark = el.attribute("dark"), tinted = el.attribute("tinted")
                    let painted: XMLAttribute? = switch appearance {
                    case .light: v
                    case .dark: dark ?? v
                    case .tinted: tinted   // else a grey of the dark or light value, inside sRGB
                    }
                    for a in [v, dark, tinted].compactMap({ $0 }) {
                        if let c = ColorParser.parse(a.value, palette: [:]) {
                            if a.location == painted?.location { noteGamut(c, a.value, a.valueLocation) }
                        } else {
                            diagnostics.error(.badColor(a.value, suggestion: colorSuggestion(a.value)), on: a)
                        }
                    }
                    _ = bool(el, "export")
                case "param", "variant":
                    break   // read before substitution (ParameterSubstitution)
                case "font":
                    buildFontDeclaration(el)
                case _ where Vocabulary.paintServers.contains(el.name):
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

    func buildPaintServer(_ el: XMLElement) -> PaintServerDefinition? {
        guard let id = registerID(el, required: true) else {
            checkAttributes(el)
            return nil
        }
        return PaintServerDefinition(id: id, server: paintServer(el, id: id), location: el.location)
    }

    /// The server an element describes; `id` names it in messages.
    func paintServer(_ el: XMLElement, id: String) -> PaintServer {
        checkAttributes(el)
        if el.name != "pattern" { checkNoText(el) }
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
        case "animatedGradient":
            server = .animated(buildAnimatedGradient(el, id: id))
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
        return server
    }

    func stops(of el: XMLElement, id: String) -> [GradientStop] {
        let stops = buildStops(el)
        if stops.isEmpty { diagnostics.error(.gradientNeedsStops(id), at: el.location) }
        return stops
    }

    func positive(_ el: XMLElement, _ name: String, required needed: Bool) -> Double? {
        if needed, required(el, name) == nil { return nil }
        guard let v = number(el, name) else { return nil }
        guard v > 0 else {
            diagnostics.error(.mustBePositive(name, el.attribute(name)!.value), on: el.attribute(name)!)
            return nil
        }
        return v
    }

    func buildLinearGradient(_ el: XMLElement, id: String) -> LinearGradient {
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

    func gradientBase(_ el: XMLElement, id: String) -> GradientBase {
        var base = GradientBase()
        if let s = keyword(el, "spread", SpreadMethod.self) { base.spread = s }
        if let i = keyword(el, "interpolation", ColorInterpolation.self) { base.interpolation = i }
        if let u = keyword(el, "units", UnitsKeyword.self) { base.units = u.units }
        if let t = transformValue(el, "transform") { base.transform = t }
        base.stops = stops(of: el, id: id)
        return base
    }

    /// Far above what a gradient takes (a 256-entry colour map fits four
    /// times), far below what would make resolving every use of it costly.
    static let maxStops = 1024

    func buildStops(_ el: XMLElement) -> [GradientStop] {
        var stops: [GradientStop] = []
        for s in el.children {
            guard s.name == "stop" else {
                reportMisplaced(s, parent: el.name, expected: ["stop"])
                continue
            }
            guard stops.count < Self.maxStops else {
                diagnostics.error(.tooManyStops(Self.maxStops), at: s.location)
                break
            }
            checkAttributes(s)
            checkNoText(s)
            checkNoChildren(s)
            var offset: Double? = nil
            if let a = s.attribute("offset") {
                offset = ValueParser.unitInterval(a.value)
                if offset == nil { diagnostics.error(.outOfRange("offset", a.value, "a number from 0 to 1 or a percentage from 0% to 100%"), on: a) }
            }
            guard required(s, "color") != nil, var c = color(s, "color") else { continue }
            if let o = number(s, "opacity") {
                if o >= 0, o <= 1 { c.alpha *= o } else { rangeError(s, "opacity", "from 0 to 1") }
            }
            stops.append(GradientStop(offset: offset, color: c, location: s.location))
        }
        return stops
    }

    func buildClipPath(_ el: XMLElement) -> ClipPathDefinition? {
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
