import EaselLayout
import EaselModel
import FoundationEssentials

/// Animated SVG output (docs/format.md, "Animation"): SMIL `<animate>`
/// elements on a gradient's stops and geometry, with `keyTimes` and
/// `keySplines` for the timing curve. Viewers without SMIL show the
/// gradient's first frame. `SVGWriter` writes the gradient element with
/// the first keyframe's geometry, every keyframe's stops (all brought to
/// the union of their offsets) and the animations. A paint SMIL cannot
/// express exactly — a conic keyframe, keyframes of different kinds, or
/// different gradient transforms — is written as its still frame.
struct SVGAnimation {
    enum Geometry {
        case linear([LinearShading])
        case radial([RadialShading])
    }
    var geometry: Geometry
    var stops: [[ShadingStop]]   // per keyframe, at the same offsets
    var opacity: Double
    var clock: AnimationClock
    /// The scene's: keyframe stops are written colours, made paintable here.
    var colorSpace: SceneColorSpace

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
        colorSpace = paint.colorSpace
        stops = AnimatedPaint.resampled(paint.keyframes, clamped: paint.clampsInterpolation)
    }

    /// The gradient element, id `id`, in user space: the first keyframe's
    /// geometry, placement and spread, with the animations as children.
    func element(id: String) -> String {
        var head: String
        let spread: SpreadMethod, matrix: AffineTransform
        switch geometry {
        case .linear(let g):
            let f = g[0]
            head = "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(Self.fixed(f.start.x))\" y1=\"\(Self.fixed(f.start.y))\""
                + " x2=\"\(Self.fixed(f.end.x))\" y2=\"\(Self.fixed(f.end.y))\""
            spread = f.spread; matrix = f.matrix
        case .radial(let g):
            let f = g[0]
            head = "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(Self.fixed(f.center.x))\" cy=\"\(Self.fixed(f.center.y))\""
                + " r=\"\(Self.fixed(f.radius))\" fx=\"\(Self.fixed(f.focus.x))\" fy=\"\(Self.fixed(f.focus.y))\""
            spread = f.spread; matrix = f.matrix
        }
        if spread != .pad { head += " spreadMethod=\"\(spread.rawValue)\"" }
        if !matrix.isIdentity {
            head += " gradientTransform=\"matrix(" + [matrix.a, matrix.b, matrix.c, matrix.d, matrix.tx, matrix.ty].map(Self.fixed)
                .joined(separator: " ") + ")\""
        }
        let close: String
        if case .linear = geometry { close = "</linearGradient>" } else { close = "</radialGradient>" }
        return "<defs>" + head + ">\n" + children() + close + "</defs>\n"
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

    /// Keyframe stops are written colours (sRGB, extended where a Display
    /// P3 scene's colour lies outside it).
    func rgb(_ written: Color) -> String {
        // An sRGB scene's colours outside sRGB are written gamut-mapped.
        let c = colorSpace == .srgb ? SceneColorSpace.srgb.painted(written) : written
        if !DisplayP3.isInside(c, .srgb) { return SVGWriter.color(srgb: c) }
        func channel(_ v: Double) -> String { SVGAnimation.percent(max(0, min(1, v))) }
        return "rgb(\(channel(c.red)),\(channel(c.green)),\(channel(c.blue)))"
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
