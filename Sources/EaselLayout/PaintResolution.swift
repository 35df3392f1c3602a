import EaselModel

/// Places paint servers on the box of what they paint.
/// Each gradient's stops as painted, resolved once per layout pass: they
/// do not depend on the box, and every use then shares one array (a
/// gradient of 1,024 stops filling a million nodes made a copy for each).
final class ResolvedStops {
    var byKey: [String: (stops: [ShadingStop], raster: [ShadingStop]?)] = [:]
}

/// Each written colour as painted in the scene's space, once per layout
/// pass: converting (a million P3 fills) or gamut-mapping (a binary search)
/// is done per distinct colour, not per node. sRGB colours in an sRGB
/// scene need neither and are not entered.
final class PaintedColors {
    var byWritten: [Color: Color] = [:]
}

struct PaintResolver {
    let definitions: Definitions
    let resolvedStops: ResolvedStops
    let paintedColors: PaintedColors
    /// The scene's colour space: every colour placed here is converted to
    /// it (gamut-mapped when outside), so painting never converts.
    var colorSpace: SceneColorSpace = .srgb
    /// Lays out a pattern's children (pattern id, children, tile size),
    /// once per pattern and size: the tile's index in the pass and content.
    let layoutTile: (String, [Node], Size) -> (index: Int, content: [RenderNode])

    /// The stops of the gradient `base` (of the server `key` names).
    private func stops(_ key: String, _ base: GradientBase) -> (stops: [ShadingStop], raster: [ShadingStop]?) {
        if let hit = resolvedStops.byKey[key] { return hit }
        let stops = StopResolution.shadingStops(base.stops, interpolation: base.interpolation, output: colorSpace)
        let raster = stops.count > 1
            ? StopResolution.rasterStops(base.stops, interpolation: base.interpolation, coarse: stops, output: colorSpace) : nil
        resolvedStops.byKey[key] = (stops, raster)
        return (stops, raster)
    }

    /// `box` is the bounding box in the node's own points: the frame for
    /// boxes, the geometry (without stroke) for shapes.
    func resolve(_ paint: Paint, opacity: Double, box: Rect) -> PaintTable.Entry? {
        switch paint {
        case .none:
            return nil
        case .color(let c):
            return .fixed(ResolvedPaint(kind: .solid(painted(c)), opacity: opacity))
        case .reference(let id):
            guard let def = definitions.paintServers[id] else { return nil }
            if case .animated(let animation) = def.server {
                return animated(animation, id: id, opacity: opacity, box: box).map { .animated($0) }
            }
            return resolve(def.server, id: id, stopsKey: id, box: box).map { .fixed(ResolvedPaint(kind: $0, opacity: opacity)) }
        }
    }

    /// Each keyframe placed on the box as a static gradient would be, with
    /// the stops it was written with, for interpolating between them.
    private func animated(_ a: AnimatedGradient, id: String, opacity: Double, box: Rect) -> AnimatedPaint? {
        var keyframes: [AnimatedPaint.Keyframe] = []
        for (k, server) in a.keyframes.enumerated() {
            guard let kind = resolve(server, id: id, stopsKey: "\(id)\u{0}\(k)", box: box) else { return nil }
            let base: GradientBase
            switch server {
            case .linear(let g): base = g.base
            case .radial(let g): base = g.base
            case .conic(let g): base = g.base
            case .pattern, .stripes, .animated: return nil   // the parser allows gradients only
            }
            let offsets = GradientMath.resolvedOffsets(base.stops.map(\.offset))
            keyframes.append(AnimatedPaint.Keyframe(
                paint: ResolvedPaint(kind: kind, opacity: opacity),
                stops: zip(offsets, base.stops).map { ShadingStop(offset: $0, color: colorSpace.fitted($1.color)) },
                interpolation: base.interpolation))
        }
        return AnimatedPaint(clock: a.clock, keyframes: keyframes, colorSpace: colorSpace)
    }

    private func resolve(_ server: PaintServer, id: String, stopsKey: String, box: Rect) -> ResolvedPaint.Kind? {
        switch server {
        case .linear(let g):
            let (stops, raster) = self.stops(stopsKey, g.base)
            guard stops.count > 1 else { return .solid(stops[0].color) }
            return linear(g, stops: stops, raster: raster, box: box)
        case .radial(let g):
            let (stops, raster) = self.stops(stopsKey, g.base)
            guard stops.count > 1 else { return .solid(stops[0].color) }
            return radial(g, stops: stops, raster: raster, box: box)
        case .conic(let g):
            let (stops, raster) = self.stops(stopsKey, g.base)
            guard stops.count > 1 else { return .solid(stops[0].color) }
            return conic(g, stops: stops, raster: raster, box: box)
        case .pattern(let tile):
            let size = tile.units == .userSpace ? Size(tile.width, tile.height)
                : Size(tile.width * box.width, tile.height * box.height)
            guard size.width > 0, size.height > 0 else { return nil }
            // The tile grid starts at the painted box's top-left corner.
            let matrix = AffineTransform.translation(box.x, box.y).concatenating(tile.transform)
            let laidOut = layoutTile(id, tile.children, size)
            return .pattern(PatternFill(tile: size, matrix: matrix, tileIndex: laidOut.index, content: laidOut.content))
        case .animated:
            return nil   // resolved by `animated(_:id:opacity:box:)`; a keyframe cannot be animated
        case .stripes(let st):
            return .stripes(StripesFill(origin: box.origin, direction: GradientMath.screenDirection(angle: st.angle),
                                        spacing: st.spacing,
                                        lineWidth: st.lineWidth, color: painted(st.color), background: st.background.map(painted)))
        }
    }

    /// A written colour as painted: in the scene's space, inside its gamut.
    func painted(_ c: Color) -> Color {
        if colorSpace == .srgb, DisplayP3.isInside(c, .srgb) { return colorSpace.components(c) }
        if let hit = paintedColors.byWritten[c] { return hit }
        let out = colorSpace.painted(c)
        paintedColors.byWritten[c] = out
        return out
    }

    private func unitToBox(_ box: Rect) -> AffineTransform {
        AffineTransform.translation(box.x, box.y).concatenating(.scale(box.width, box.height))
    }

    private func linear(_ g: LinearGradient, stops: [ShadingStop], raster: [ShadingStop]?, box: Rect) -> ResolvedPaint.Kind {
        // Unit points are mapped to the box's points first, so colour lines
        // are perpendicular to start→end in points (CAGradientLayer), not in
        // the unit square as SVG's objectBoundingBox would have them.
        let unit = unitToBox(box)
        let start: Point, end: Point
        var matrix = g.base.transform
        switch (g.geometry, g.base.units) {
        case (.angle(let a), _):
            let e = GradientMath.unitEndpoints(angle: a)
            (start, end) = (unit.apply(e.start), unit.apply(e.end))
            if g.base.units == .objectBoundingBox { matrix = conjugate(g.base.transform, by: unit) }
        case (.points(let s, let e), .objectBoundingBox):
            (start, end) = (unit.apply(s), unit.apply(e))
            matrix = conjugate(g.base.transform, by: unit)
        case (.points(let s, let e), .userSpace):
            (start, end) = (s, e)
        }
        return .linear(LinearShading(start: start, end: end, stops: stops, spread: g.base.spread, matrix: matrix, rasterStops: raster))
    }

    /// Radial gradients stretch with the box (CAGradientLayer's radial type):
    /// in unit space the geometry is a circle that the box maps to an ellipse.
    private func radial(_ g: RadialGradient, stops: [ShadingStop], raster: [ShadingStop]?, box: Rect) -> ResolvedPaint.Kind? {
        switch g.base.units {
        case .objectBoundingBox:
            guard box.width > 0, box.height > 0 else { return nil }
            let c = g.center ?? Point(0.5, 0.5)
            return .radial(RadialShading(center: c, radius: g.radius ?? 0.5, focus: g.focus ?? c, stops: stops,
                                         spread: g.base.spread, matrix: unitToBox(box).concatenating(g.base.transform), rasterStops: raster))
        case .userSpace:
            let c = g.center ?? box.center
            return .radial(RadialShading(center: c, radius: g.radius ?? min(box.width, box.height) / 2,
                                         focus: g.focus ?? c, stops: stops, spread: g.base.spread, matrix: g.base.transform, rasterStops: raster))
        }
    }

    /// Conic angles are measured in points, unstretched: only the centre
    /// maps through the unit box.
    private func conic(_ g: ConicGradient, stops: [ShadingStop], raster: [ShadingStop]?, box: Rect) -> ResolvedPaint.Kind {
        let sectors = ConicSectors.sectors(stops: stops, spread: g.base.spread, from: g.from)
        let rasterSectors = raster.map { ConicSectors.sectors(stops: $0, spread: g.base.spread, from: g.from) }
        switch g.base.units {
        case .objectBoundingBox:
            let unit = unitToBox(box)
            return .conic(ConicShading(center: unit.apply(g.center ?? Point(0.5, 0.5)), sectors: sectors,
                                       matrix: conjugate(g.base.transform, by: unit), from: g.from, spread: g.base.spread,
                                       rasterSectors: rasterSectors))
        case .userSpace:
            return .conic(ConicShading(center: g.center ?? box.center, sectors: sectors, matrix: g.base.transform,
                                       from: g.from, spread: g.base.spread, rasterSectors: rasterSectors))
        }
    }

    /// A gradient transform given in unit-box space, expressed in points.
    private func conjugate(_ t: AffineTransform, by box: AffineTransform) -> AffineTransform {
        guard !t.isIdentity, let inverse = box.inverted else { return .identity }
        return box.concatenating(t).concatenating(inverse)
    }
}
