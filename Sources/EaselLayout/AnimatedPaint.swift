import EaselModel

/// An `<animatedGradient>` placed on a node's box: its keyframes as static
/// paints, and what is needed to interpolate between them at any time
/// (docs/format.md, "Animation"). Painting asks for `paint(at:)`; the
/// scene is never laid out again for a frame.
public struct AnimatedPaint: Sendable {
    public struct Keyframe: Sendable {
        /// Exactly what the keyframe paints as a static gradient.
        public var paint: ResolvedPaint
        /// The stops as written (offsets resolved), before Cairo's extra stops.
        public var stops: [ShadingStop]
        public var interpolation: ColorInterpolation
    }
    public var clock: AnimationClock
    public var keyframes: [Keyframe]
    /// The scene's: keyframe stops are written colours, converted to it
    /// after interpolating.
    public var colorSpace: SceneColorSpace = .srgb

    /// Keyframe stops (already inside the scene's gamut) are clamped to
    /// 0…1 as they are mixed in an sRGB scene, as they always were; in a
    /// Display P3 scene they stay extended sRGB until converted.
    public var clampsInterpolation: Bool { colorSpace == .srgb }

    public func paint(at time: Double) -> ResolvedPaint {
        let at = clock.position(at: time)
        let a = keyframes[at.from], b = keyframes[at.to]
        // At a keyframe's own time, the keyframe itself: pixel-identical to
        // the same gradient painted statically.
        guard at.progress > 0, at.from != at.to else { return a.paint }
        guard at.progress < 1 else { return b.paint }
        return interpolate(a, b, at.progress)
    }

    /// Keyframes of one kind interpolate their geometry and their stops
    /// brought to a common list; different kinds cross-fade.
    func interpolate(_ a: Keyframe, _ b: Keyframe, _ p: Double) -> ResolvedPaint {
        let opacity = a.paint.opacity
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        func mix(_ u: Point, _ v: Point) -> Point { Point(mix(u.x, v.x), mix(u.y, v.y)) }
        func mix(_ s: AffineTransform, _ t: AffineTransform) -> AffineTransform {
            AffineTransform(a: mix(s.a, t.a), b: mix(s.b, t.b), c: mix(s.c, t.c), d: mix(s.d, t.d), tx: mix(s.tx, t.tx), ty: mix(s.ty, t.ty))
        }
        let output = colorSpace
        let stops = Self.commonStops(a, b, p, clamped: clampsInterpolation)
        // Stops for vector output, and the finer ones dithered PNG output shows.
        func resolved() -> ([ShadingStop], [ShadingStop]?) {
            let coarse = StopResolution.shadingStops(stops, interpolation: a.interpolation, output: output)
            return (coarse, StopResolution.rasterStops(stops, interpolation: a.interpolation, coarse: coarse, output: output))
        }
        switch (a.paint.kind, b.paint.kind) {
        case (.linear(let g), .linear(let h)):
            let (coarse, raster) = resolved()
            return ResolvedPaint(kind: .linear(LinearShading(start: mix(g.start, h.start), end: mix(g.end, h.end), stops: coarse,
                                                             spread: p < 0.5 ? g.spread : h.spread, matrix: mix(g.matrix, h.matrix),
                                                             rasterStops: raster)),
                                 opacity: opacity)
        case (.radial(let g), .radial(let h)):
            let (coarse, raster) = resolved()
            return ResolvedPaint(kind: .radial(RadialShading(center: mix(g.center, h.center), radius: mix(g.radius, h.radius),
                                                             focus: mix(g.focus, h.focus), stops: coarse,
                                                             spread: p < 0.5 ? g.spread : h.spread, matrix: mix(g.matrix, h.matrix),
                                                             rasterStops: raster)),
                                 opacity: opacity)
        case (.conic(let g), .conic(let h)):
            let from = mix(g.from, h.from), spread = p < 0.5 ? g.spread : h.spread
            let (coarse, raster) = resolved()
            return ResolvedPaint(kind: .conic(ConicShading(center: mix(g.center, h.center),
                                                           sectors: ConicSectors.sectors(stops: coarse, spread: spread, from: from),
                                                           matrix: mix(g.matrix, h.matrix), from: from, spread: spread,
                                                           rasterSectors: raster.map { ConicSectors.sectors(stops: $0, spread: spread, from: from) })),
                                 opacity: opacity)
        default:
            return ResolvedPaint(kind: .crossFade(a.paint, b.paint, p), opacity: 1)
        }
    }

    /// Both keyframes evaluated at the union of their offsets (a hard stop,
    /// two stops at one offset, stays two), then mixed pairwise at `p`,
    /// premultiplied, in the first keyframe's interpolation space. Neither
    /// keyframe's look changes by being evaluated at extra offsets.
    static func commonStops(_ a: Keyframe, _ b: Keyframe, _ p: Double, clamped: Bool = true) -> [GradientStop] {
        let both = resampled([a, b], clamped: clamped)
        return zip(both[0], both[1]).map { s, t in
            GradientStop(offset: s.offset, color: ColorSpaces.interpolate(s.color, t.color, p, in: a.interpolation, clamped: clamped))
        }
    }

    /// Each keyframe evaluated at the union of all their offsets, an offset
    /// repeated as often as any keyframe has stops there (the two sides of
    /// a hard stop): the same count of stops for every keyframe, and none
    /// of them looks any different for it.
    public static func resampled(_ keyframes: [Keyframe], clamped: Bool = true) -> [[ShadingStop]] {
        // Each keyframe's stops by offset, once (n log n, not n² per keyframe).
        let byOffset = keyframes.map { Dictionary(grouping: $0.stops, by: \.offset) }
        var offsets: [Double] = []
        for o in Set(keyframes.flatMap { $0.stops.map(\.offset) }).sorted() {
            let n = byOffset.map { $0[o]?.count ?? 0 }.max() ?? 1
            offsets += Array(repeating: o, count: max(n, 1))
        }
        return zip(keyframes, byOffset).map { k, stopsAt in
            var seen: [Double: Int] = [:]
            return offsets.map { o in
                let i = seen[o, default: 0]
                seen[o] = i + 1
                return ShadingStop(offset: o, color: color(of: k, at: o, index: i, stopsAt: stopsAt[o] ?? [], clamped: clamped))
            }
        }
    }

    /// The keyframe's colour at offset `o` (its `index`-th stop there when
    /// it has several, `stopsAt`: the two sides of a hard stop), padded
    /// beyond its ends.
    static func color(of k: Keyframe, at o: Double, index: Int, stopsAt at: [ShadingStop], clamped: Bool) -> Color {
        if !at.isEmpty { return at[min(index, at.count - 1)].color }
        guard let first = k.stops.first, let last = k.stops.last else { return .transparent }
        if o <= first.offset { return first.color }
        if o >= last.offset { return last.color }
        // The last stop before o, by bisection (offsets never decrease).
        var lo = 0, hi = k.stops.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if k.stops[mid].offset < o { lo = mid + 1 } else { hi = mid }
        }
        let i = lo - 1
        let s = k.stops[i], e = k.stops[i + 1]
        return ColorSpaces.interpolate(s.color, e.color, (o - s.offset) / (e.offset - s.offset), in: k.interpolation, clamped: clamped)
    }
}
