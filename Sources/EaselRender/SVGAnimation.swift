import EaselLayout
import EaselModel
import FoundationEssentials

/// Animated SVG output (docs/format.md, "Animation"): SMIL `<animate>`
/// elements on a gradient's stops and geometry, with `keyTimes` and
/// `keySplines` for the timing curve. Viewers without SMIL show the
/// gradient's first frame.
///
/// Cairo writes each gradient as its own element (`linearN`, `radialN`) in
/// gradient space, with the placement in `gradientTransform`. For an
/// animated paint the painter hands Cairo a *marker* gradient — two stops of
/// a colour that encodes the animation's index — with the first keyframe's
/// geometry; `insert` then finds each marker element and gives it the
/// keyframes' stops (all brought to the union of their offsets) and the
/// animations. A paint SMIL cannot express exactly — a conic keyframe,
/// keyframes of different kinds, or different gradient transforms — keeps
/// the still frame Cairo drew.
struct SVGAnimation {
    enum Geometry {
        case linear([LinearShading])
        case radial([RadialShading])
    }
    var geometry: Geometry
    var stops: [[ShadingStop]]   // per keyframe, at the same offsets
    var opacity: Double
    var clock: AnimationClock

    /// The marker colours of one document: red and green between the
    /// 8-bit steps (no hex colour has them), the blue the animation's
    /// index; and red moved on until no stop of the document's own paints
    /// is written with the same red and green, so a colour given as
    /// `rgb()` with fractions cannot be taken for a marker either.
    struct Markers: Sendable {
        let red: Double
        let green: Double

        init(avoiding paints: PaintTable) {
            var taken = Set<String>()
            func add(_ stops: [ShadingStop]) {
                for s in stops { taken.insert(SVGAnimation.percent(s.color.red) + "," + SVGAnimation.percent(s.color.green)) }
            }
            func add(_ kind: ResolvedPaint.Kind) {
                switch kind {
                case .linear(let g): add(g.stops); add(g.rasterStops ?? [])
                case .radial(let g): add(g.stops); add(g.rasterStops ?? [])
                case .conic: break   // written as an image, not as stops
                case .crossFade(let a, let b, _): add(a.kind); add(b.kind)
                case .solid, .pattern, .stripes: break
                }
            }
            for entry in paints.entries {
                switch entry {
                case .fixed(let p): add(p.kind)
                case .animated(let a): for k in a.keyframes { add(k.paint.kind); add(k.stops) }
                }
            }
            // 255 × 255 pairs between the steps, more than a document has
            // stops (each gradient at most 1,024): one is free.
            var k = 0
            func pair(_ k: Int) -> (Double, Double) { ((229.5 - Double(k % 255)) / 255, (10.5 + Double(k / 255 % 255)) / 255) }
            while taken.contains(SVGAnimation.percent(pair(k).0) + "," + SVGAnimation.percent(pair(k).1)) { k += 1 }
            (red, green) = pair(k)
        }

        /// Animation `index`'s marker (up to 256 animated uses).
        func marker(_ index: Int) -> Color { Color(red: red, green: green, blue: Double(index % 256) / 255, alpha: 128.0 / 255) }
    }

    /// The animation of `paint`, if SMIL can express it exactly enough.
    init?(_ paint: AnimatedPaint) {
        let frames = paint.keyframes.map(\.paint)
        guard let first = frames.first else { return nil }
        switch first.kind {
        case .linear:
            let shadings = frames.compactMap { f -> LinearShading? in if case .linear(let g) = f.kind { return g } else { return nil } }
            guard shadings.count == frames.count, Set(shadings.map { "\($0.matrix)|\($0.spread)" }).count == 1 else { return nil }
            geometry = .linear(shadings)
        case .radial:
            let shadings = frames.compactMap { f -> RadialShading? in if case .radial(let g) = f.kind { return g } else { return nil } }
            guard shadings.count == frames.count, Set(shadings.map { "\($0.matrix)|\($0.spread)" }).count == 1 else { return nil }
            geometry = .radial(shadings)
        case .solid, .conic, .pattern, .stripes, .crossFade:
            return nil
        }
        opacity = first.opacity
        clock = paint.clock
        stops = AnimatedPaint.resampled(paint.keyframes)
    }

    /// The still frame Cairo is given: the first keyframe's geometry with
    /// marker stops.
    func markerShading(_ index: Int, _ markers: Markers) -> ResolvedPaint.Kind {
        // Two different stops: Cairo writes a gradient of two equal stops as a flat fill.
        let m = [ShadingStop(offset: 0, color: markers.marker(index)),
                 ShadingStop(offset: 1, color: Color(r8: 0x0A, g8: 0xE5, b8: index % 256, alpha: 128.0 / 255))]
        switch geometry {
        case .linear(let g):
            var s = g[0]; s.stops = m
            return .linear(s)
        case .radial(let g):
            var s = g[0]; s.stops = m
            return .radial(s)
        }
    }

    // MARK: Writing

    /// The SVG with each animation in place; nil if a marker was not found
    /// (the render fails: the document would show the marker's colours).
    static func insert(_ animations: [SVGAnimation], into svg: [UInt8], markers: Markers) -> [UInt8]? {
        guard !animations.isEmpty else { return svg }
        var text = String(decoding: svg, as: UTF8.self)
        for (index, animation) in animations.enumerated() {
            // The marker stop as Cairo writes it.
            let c = markers.marker(index)
            let needle = "stop-color:rgb(\(percent(c.red)),\(percent(c.green)),\(percent(c.blue)));stop-opacity:\(cairoNumber(c.alpha));"
            // Ranges found in a slice are ranges of `text` (a substring shares its indices).
            guard let hit = text.firstRange(of: needle), let start = elementStart(in: text, before: hit.lowerBound),
                  let headEnd = text[start..<hit.lowerBound].firstRange(of: ">") else { return nil }
            let closes = ["</linearGradient>", "</radialGradient>"].compactMap { text[hit.upperBound...].firstRange(of: $0) }
            guard let close = closes.min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
            text.replaceSubrange(headEnd.upperBound..<close.lowerBound, with: "\n" + animation.children())
        }
        return Array(text.utf8)
    }

    /// Where the `<linearGradient`/`<radialGradient` holding `index` starts.
    static func elementStart(in text: String, before index: String.Index) -> String.Index? {
        let linear = text[..<index].ranges(of: "<linearGradient").last?.lowerBound
        let radial = text[..<index].ranges(of: "<radialGradient").last?.lowerBound
        return [linear, radial].compactMap { $0 }.max()
    }

    /// The stops with their colour animations, then the geometry's.
    func children() -> String {
        var out = ""
        for (i, first) in stops[0].enumerated() {
            let colors = values(stops.map { rgb($0[i].color) })
            let opacities = values(stops.map { SVGAnimation.fixed($0[i].color.alpha * opacity) })
            out += "<stop offset=\"\(SVGAnimation.fixed(first.offset))\" style=\"stop-color:\(rgb(first.color));stop-opacity:\(SVGAnimation.fixed(first.color.alpha * opacity));\">"
            out += animate("stop-color", colors) + animate("stop-opacity", opacities) + "</stop>\n"
        }
        switch geometry {
        case .linear(let g):
            out += animate("x1", values(g.map { SVGAnimation.fixed($0.start.x) })) + animate("y1", values(g.map { SVGAnimation.fixed($0.start.y) }))
            out += animate("x2", values(g.map { SVGAnimation.fixed($0.end.x) })) + animate("y2", values(g.map { SVGAnimation.fixed($0.end.y) }))
        case .radial(let g):
            out += animate("cx", values(g.map { SVGAnimation.fixed($0.center.x) })) + animate("cy", values(g.map { SVGAnimation.fixed($0.center.y) }))
            out += animate("r", values(g.map { SVGAnimation.fixed($0.radius) }))
            out += animate("fx", values(g.map { SVGAnimation.fixed($0.focus.x) })) + animate("fy", values(g.map { SVGAnimation.fixed($0.focus.y) }))
        }
        return out
    }

    /// The keyframes' values in playing order: back to the first when the
    /// animation repeats forever (the way back is part of the pass).
    func values(_ perKeyframe: [String]) -> [String] {
        clock.repeatMode == .forever ? perKeyframe + [perKeyframe[0]] : perKeyframe
    }

    func animate(_ attribute: String, _ values: [String]) -> String {
        let segments = values.count - 1
        let times = (0...segments).map { SVGAnimation.fixed(Double($0) / Double(segments)) }.joined(separator: ";")
        let repeatCount: String
        switch clock.repeatMode {
        case .forever: repeatCount = "indefinite"
        case .times(let n): repeatCount = String(n)
        }
        var timing: String
        switch clock.timing {
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let spline = [x1, y1, x2, y2].map(SVGAnimation.fixed).joined(separator: " ")
            timing = " calcMode=\"spline\" keySplines=\"\(Array(repeating: spline, count: segments).joined(separator: ";"))\""
        case .steps:
            timing = " calcMode=\"discrete\""   // SMIL has no steps(n); each keyframe holds until the next
        }
        return "<animate attributeName=\"\(attribute)\" values=\"\(values.joined(separator: ";"))\" keyTimes=\"\(times)\"\(timing)"
            + " dur=\"\(SVGAnimation.fixed(clock.passDuration))s\" repeatCount=\"\(repeatCount)\" fill=\"freeze\"/>"
    }

    func rgb(_ c: Color) -> String {
        "rgb(\(SVGAnimation.percent(c.red)),\(SVGAnimation.percent(c.green)),\(SVGAnimation.percent(c.blue)))"
    }

    /// Cairo's way of writing a channel: a percentage with up to six
    /// decimals, trailing zeros dropped (`89.803922%`, `0%`).
    static func percent(_ v: Double) -> String { cairoNumber(v * 100) + "%" }

    static func cairoNumber(_ v: Double) -> String {
        var s = CFormat.string("%f", v)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
    static func fixed(_ v: Double) -> String { CFormat.string("%g", (v * 1e6).rounded() / 1e6) }
}
