import CCairo
import EaselLayout
import EaselModel

/// The painting work a render may still do, shared with the painters of
/// pattern tiles, in paint units (`PaintCost`); and the pixels that
/// translucent groups and clip masks hold at once, bounded so that deep
/// nesting cannot take memory without end (each level is a surface the
/// size of its clip).
final class PaintBudget {
    var remaining: Double
    let limit: Double
    var exceededAt: SourceLocation?
    /// The nesting of groups, not the budget, stopped painting.
    var groupsTooDeep = false
    var liveGroupPixels = 0.0
    let maxGroupPixels: Double
    init(limit: Double, maxGroupPixels: Double = .infinity) {
        self.limit = limit
        remaining = limit
        self.maxGroupPixels = maxGroupPixels
    }
}

/// Walks a laid-out tree back to front onto a Cairo context. It makes no
/// layout decisions: every size, paint and path was resolved beforehand.
final class Painter {
    private let cr: OpaquePointer
    private let budget: PaintBudget
    private let paints: PaintTable
    /// Seconds into the scene's animations.
    private let time: Double
    /// The node being painted, for the message when the budget runs out.
    private var current: SourceLocation?
    /// What the surface can do (`PaintTarget`).
    let target: PaintTarget
    private(set) var failures: [Diagnostic] = []
    /// PNG output only: gradients are dithered (`DitheredGradient`); off
    /// while the two layers of a cross-fade are drawn.
    private var dither: Bool

    private let images: DecodedImages
    /// Taken at the first glyph drawn through Cairo: from then until the
    /// render ends, Cairo may use a font anywhere (`CairoFontAccess`).
    /// Glyphs filled as outlines never take it.
    private let fontHold: CairoFontAccess.Hold

    init(context: OpaquePointer, target: PaintTarget, paints: PaintTable, time: Double, budget: PaintBudget,
         dither: Bool = false, images: DecodedImages, fontHold: CairoFontAccess.Hold) {
        cr = context
        self.dither = dither && target.dithers
        self.fontHold = fontHold
        self.images = images
        self.target = target
        self.paints = paints
        self.time = time
        self.budget = budget
    }

    /// Charges what an operation of `weight` paint units per pixel costs
    /// over the device pixels `rect` (user space) covers within the clip,
    /// before it is done; false once the budget is spent, and painting stops.
    @discardableResult
    private func charge(_ rect: Rect, weight: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        return spend(PaintCost.perOperation + deviceArea(rect) * weight)
    }

    /// Takes `units` from the budget; false (and painting stops) once it is spent.
    private func spend(_ units: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        budget.remaining -= units
        if budget.remaining < 0 {
            budget.exceededAt = current
            return false
        }
        return true
    }

    private func charge(_ rect: Rect, _ kind: PaintCost.Kind) -> Bool {
        charge(rect, weight: PaintCost.perPixel(kind))
    }

    /// The device pixels of `rect` (user space) within the clip.
    private func deviceArea(_ rect: Rect) -> Double {
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        let box = deviceBox(rect), clip = deviceBox(Rect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0))
        let w = max(0, min(box.maxX, clip.maxX) - max(box.minX, clip.minX))
        let h = max(0, min(box.maxY, clip.maxY) - max(box.minY, clip.minY))
        return w * h
    }

    /// The device-space box of `rect`'s corners (user space).
    private func deviceBox(_ rect: Rect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var out = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for (x0, y0) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            var x = x0, y = y0
            cairo_user_to_device(cr, &x, &y)
            out = (min(out.minX, x), min(out.minY, y), max(out.maxX, x), max(out.maxY, y))
        }
        return out
    }

    /// The device rows `edges` (user space) span, together, each at
    /// least one: the work of scan-converting them.
    private func deviceRows(of edges: [(Point, Point)]) -> Double {
        var rows = 0.0
        for (a, b) in edges {
            var dx = b.x - a.x, dy = b.y - a.y
            cairo_user_to_device_distance(cr, &dx, &dy)
            rows += max(1, abs(dy))
        }
        return rows
    }

    /// Charges a group (a surface the size of the clip, composited when
    /// popped) before it is pushed, and holds its pixels until `endGroup`;
    /// nil, and painting stops, when the budget or the nesting is spent.
    private func beginGroup(_ kind: PaintCost.Kind) -> Double? {
        let pixels = deviceArea(clipRect())
        guard spend(PaintCost.perOperation + pixels * PaintCost.perPixel(kind)) else { return nil }
        guard budget.liveGroupPixels + pixels <= budget.maxGroupPixels else {
            budget.groupsTooDeep = true
            budget.exceededAt = current
            return nil
        }
        budget.liveGroupPixels += pixels
        return pixels
    }

    private func endGroup(_ pixels: Double) { budget.liveGroupPixels -= pixels }

    /// The weight of painting with `paint`, per pixel.
    private func weight(of paint: ResolvedPaint) -> Double {
        switch paint.kind {
        case .solid: return PaintCost.perPixel(.solid)
        case .crossFade(let a, let b, _): return weight(of: a) + weight(of: b) + PaintCost.perPixel(.groupComposite)
        case .linear: return PaintCost.perPixel(.linearGradient) + (dither ? PaintCost.perPixel(.dither) : 0)
        case .radial: return PaintCost.perPixel(.radialGradient) + (dither ? PaintCost.perPixel(.dither) : 0)
        case .conic: return PaintCost.perPixel(.conicGradient)
        case .pattern:
            return PaintCost.perPixel(.patternTile) + (paint.opacity < 1 ? PaintCost.perPixel(.groupComposite) : 0)
        case .stripes:
            return PaintCost.perPixel(.stripes) + (paint.opacity < 1 ? PaintCost.perPixel(.groupComposite) : 0)
        }
    }

    var budgetExceeded: Bool { budget.exceededAt != nil }

    func paint(_ nodes: [RenderNode]) {
        for node in nodes { paint(node) }
    }

    private func paint(_ node: RenderNode) {
        guard budget.exceededAt == nil else { return }
        current = node.location
        switch node {
        case .group(let group): paint(group)
        case .path(let path): draw(path)
        case .image(let image): draw(image.drawing, at: image.location)
        case .text(let text): draw(text.drawing)
        }
    }

    private func paint(_ group: RenderGroup) {
        // A collapsed transform (scale(0), say) paints nothing, as in SVG;
        // handing it to Cairo would put the whole context in an error state.
        guard group.opacity > 0, group.transform.inverted != nil else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        concat(group.transform)
        if let clip = group.clip {
            withClip(clip) { self.paintContent(group) }
        } else {
            paintContent(group)
        }
    }

    /// The group's children, as one layer when it is translucent so that
    /// overlapping children do not show through each other.
    private func paintContent(_ group: RenderGroup) {
        let grouped = group.opacity < 1
        var groupPixels = 0.0
        if grouped {
            if target.layersHoldBounds, let bounds = group.bounds { clipToDevicePixels(bounds) }
            guard let pixels = beginGroup(.groupComposite) else { return }
            groupPixels = pixels
            cairo_push_group(cr)
        }
        paint(group.children)
        if grouped {
            cairo_pop_group_to_source(cr)
            endGroup(groupPixels)
            // Charged when pushed; a budget spent inside leaves nothing to composite.
            if budget.exceededAt == nil { cairo_paint_with_alpha(cr, group.opacity) }
        }
    }

    /// Clips to the whole device pixels `rect` (user space) touches, and a
    /// pixel more: a layer pushed then holds the group's pixels, not the
    /// canvas's (as resvg sizes its layers). Every pixel the group paints
    /// is inside it, so the clip changes no pixel.
    private func clipToDevicePixels(_ rect: Rect) {
        var xs: [Double] = [], ys: [Double] = []
        for (x0, y0) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.minX, rect.maxY), (rect.maxX, rect.maxY)] {
            var x = x0, y = y0
            cairo_user_to_device(cr, &x, &y)
            xs.append(x); ys.append(y)
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
              x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite else { return }
        // Past a Cairo coordinate's range, the canvas's own extent bounds it anyway.
        let left = max(-1e6, (x0 - 1).rounded(.down)), top = max(-1e6, (y0 - 1).rounded(.down))
        let right = min(1e6, (x1 + 1).rounded(.up)), bottom = min(1e6, (y1 + 1).rounded(.up))
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, left, top, max(0, right - left), max(0, bottom - top))
        cairo_clip(cr)
        cairo_set_matrix(cr, &m)
    }

    /// The current clip's extents, in user space.
    private func clipRect() -> Rect {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Clipping

    /// One plain shape clips directly (exact and compact in PDF/SVG); a union
    /// of shapes, or shapes with clips of their own, becomes an alpha mask.
    private func withClip(_ clip: ResolvedClip, _ body: () -> Void) {
        if let within = clip.within.first {
            let inner = ResolvedClip(shapes: clip.shapes, within: Array(clip.within.dropFirst()))
            withClip(within) { self.withClip(inner, body) }
            return
        }
        // A clip's shapes are tessellated as fills are.
        for shape in clip.shapes {
            let c = PathCrossings.estimate(shape.path)
            guard spend(Double(c.edges) * PaintCost.perPathEdge + c.crossings * PaintCost.perFillCrossing) else { return }
        }
        if clip.shapes.count == 1, clip.shapes[0].clip.isEmpty {
            cairo_save(cr)
            append(clip.shapes[0].path)
            cairo_set_fill_rule(cr, fillRule(clip.shapes[0].rule))
            cairo_clip(cr)
            body()
            cairo_restore(cr)
            return
        }
        // Content and mask: two surfaces the size of the clip, charged up front.
        guard let contentPixels = beginGroup(.clipMask) else { return }
        defer { endGroup(contentPixels) }
        guard let maskPixels = beginGroup(.clipMask) else { return }
        defer { endGroup(maskPixels) }
        cairo_push_group(cr)
        body()
        let content = cairo_pop_group(cr)
        cairo_push_group_with_content(cr, CAIRO_CONTENT_ALPHA)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        for shape in clip.shapes {
            let fillShape = {
                self.append(shape.path)
                cairo_set_fill_rule(self.cr, self.fillRule(shape.rule))
                cairo_fill(self.cr)
            }
            if let inner = shape.clip.first { withClip(inner, fillShape) } else { fillShape() }
        }
        let mask = cairo_pop_group(cr)
        cairo_set_source(cr, content)
        cairo_mask(cr, mask)
        cairo_pattern_destroy(mask)
        cairo_pattern_destroy(content)
    }

    // MARK: Drawing

    /// Text is drawn as shaped during layout: its glyph runs as outlines or
    /// with Cairo's glyph API (real text in PDF; `drawGlyphs`), filled with its paint, whose box is the
    /// lines' extents or the frame; runs of a span with a fill of its own
    /// in that fill, over the span's extents. Colour glyphs (emoji) paint
    /// their own colours, once, at the fill's opacity; a character no font
    /// covers is an empty box in the fill; underlines and strike-throughs
    /// are bars in it.
    private func draw(_ text: TextDrawing) {
        let runs = text.shaped.runs
        var own = Set(runs.indices)
        var groups: [(fill: PaintID?, box: Rect, runs: [Int])] = []
        for span in text.spanFills {
            groups.append((span.fill, span.box, span.runs))
            own.subtract(span.runs)
        }
        groups.insert((text.fill, text.paintBox, runs.indices.filter { own.contains($0) }), at: 0)
        var undrawn: [String] = []
        for group in groups where !group.runs.isEmpty {
            guard let fillID = group.fill else { continue }
            let fill = resolve(fillID)
            guard charge(group.box, weight: PaintCost.perPixel(.text) + weight(of: fill)) else { return }
            let members = group.runs.map { runs[$0] }
            // Glyph ink can reach past the box (overhangs, marks, overflow):
            // a paint drawn as an image covers what the clip shows instead.
            paint(with: fill, extents: { self.target.imagePaintsCoverClip ? self.clipRect() : group.box }) {
                for run in members where !run.isColor && !self.drawGlyphs(run) { undrawn.append(run.font?.file ?? "") }
                GlyphRunDrawing.drawMissingBoxes(members, on: self.cr)
                GlyphRunDrawing.drawDecorations(members, on: self.cr)
            }
            if members.contains(where: \.isColor) {
                cairo_save(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                let grouped = fill.opacity < 1
                if grouped { cairo_push_group(cr) }
                for run in members where run.isColor && !drawGlyphs(run) { undrawn.append(run.font?.file ?? "") }
                if grouped {
                    cairo_pop_group_to_source(cr)
                    cairo_paint_with_alpha(cr, fill.opacity)
                }
                cairo_restore(cr)
            }
        }
        if let file = undrawn.first {
            failures.append(Diagnostic(.error, .cannotDrawFont(file), at: current))
        }
    }

    /// One run's glyphs in the current source: filled as outlines where
    /// the target takes them and the font has them (no lock), else through
    /// Cairo's glyph API under the render's font hold (PDF text, colour
    /// and bitmap glyphs). False if Cairo cannot use the run's font.
    private func drawGlyphs(_ run: GlyphRun) -> Bool {
        guard let face = run.face, !run.glyphs.isEmpty else { return true }
        if case .outlines = target.glyphs, !run.isColor, let outlines = GlyphOutlines.outlines(face, run.glyphs),
           let all = Optional(outlines.compactMap { $0 }), all.count == outlines.count {
            GlyphRunDrawing.fill(run, outlines: all, on: cr)
            PaintingProbe.outlineGlyphsFilled()
            return true
        }
        fontHold.take()
        fontHold.drew(face)
        return GlyphRunDrawing.draw(run, on: cr)
    }

    private func draw(_ shape: RenderPath) {
        // What tessellating the path costs, whatever it covers.
        let complexity = (shape.fill != nil || shape.stroke != nil) && !shape.crossesOnlyNeighbours
            ? PathCrossings.estimate(shape.path) : nil
        func pathCost(stroke: Bool) -> Double {
            if shape.crossesOnlyNeighbours {
                let edges = PathCrossings.edges(of: shape.path)
                return Double(edges.count) * PaintCost.perPathEdge + deviceRows(of: edges) * PaintCost.perNeighbourEdgeRow
            }
            guard let complexity else { return 0 }
            return Double(complexity.edges) * PaintCost.perPathEdge
                + complexity.crossings * (stroke ? PaintCost.perStrokeCrossing : PaintCost.perFillCrossing)
        }
        if let fill = shape.fill {
            cairo_set_fill_rule(cr, fillRule(shape.fillRule))
            // Before the extents, which already tessellate the path.
            guard spend(pathCost(stroke: false)) else { return }
            let paint = resolve(fill)
            let area = coverage(of: shape, stroke: false, paint: paint)
            guard charge(area, weight: weight(of: paint)) else { return }
            self.paint(with: paint, extents: { area }) {
                self.append(shape.path)
                cairo_fill(self.cr)
            }
        }
        if let stroke = shape.stroke {
            cairo_set_line_width(cr, stroke.width)
            cairo_set_line_cap(cr, lineCap(stroke.cap))
            cairo_set_line_join(cr, lineJoin(stroke.join))
            cairo_set_miter_limit(cr, stroke.miterLimit)
            stroke.dash.withUnsafeBufferPointer {
                cairo_set_dash(cr, $0.baseAddress, Int32($0.count), stroke.dashOffset)
            }
            guard spend(pathCost(stroke: true)) else { return }
            let paint = resolve(stroke.paint)
            let area = coverage(of: shape, stroke: true, paint: paint)
            guard charge(area, weight: weight(of: paint)) else { return }
            self.paint(with: paint, extents: { area }) {
                self.append(shape.path)
                cairo_stroke(self.cr)
            }
        }
        cairo_new_path(cr)
    }

    /// The paint at the painted time.
    private func resolve(_ id: PaintID) -> ResolvedPaint {
        paints.paint(id, at: time)
    }

    /// What filling or stroking `shape` covers, in user space: for a solid
    /// colour (which needs no extent but the budget's) the path's bounds,
    /// which take no tessellation; for paints placed over the area, Cairo's
    /// exact extents.
    private func coverage(of shape: RenderPath, stroke: Bool, paint: ResolvedPaint) -> Rect {
        if case .solid = paint.kind, let box = shape.bounds { return box }
        return extents(of: shape.path, stroke: stroke)
    }

    /// Where `path` would paint, in user space.
    private func extents(of path: BezierPath, stroke: Bool) -> Rect {
        append(path)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        if stroke { cairo_stroke_extents(cr, &x0, &y0, &x1, &y1) } else { cairo_fill_extents(cr, &x0, &y0, &x1, &y1) }
        cairo_new_path(cr)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func draw(_ image: ImageDrawing, at location: SourceLocation) {
        // Charged before decoding: what it covers, and its source's pixels.
        let sourcePixels = Double(image.source.pixelWidth) * Double(image.source.pixelHeight)
        guard charge(image.clipRect, .image), spend(sourcePixels * PaintCost.perImageSourcePixel) else { return }
        guard let surface = images.surface(for: image.source) else {
            failures.append(Diagnostic(.error, .cannotDecodePNG(image.source.path), at: location))
            return
        }
        defer { cairo_surface_destroy(surface) }
        let iw = Double(cairo_image_surface_get_width(surface)), ih = Double(cairo_image_surface_get_height(surface))
        cairo_save(cr)
        cairo_rectangle(cr, image.clipRect.x, image.clipRect.y, image.clipRect.width, image.clipRect.height)
        cairo_clip(cr)
        let d = image.destination
        cairo_rectangle(cr, d.x, d.y, d.width, d.height)
        cairo_clip(cr)
        cairo_translate(cr, d.x, d.y)
        cairo_scale(cr, d.width / iw, d.height / ih)
        cairo_set_source_surface(cr, surface, 0, 0)
        // Pad, then clip to the destination: a scaled-up image keeps sharp
        // edges instead of fading to transparent over its outer half-pixel.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Sets `paint` as the source and runs `operation` (which fills or
    /// strokes); `extents` (user space) is what the operation covers. Paints that carry their own alpha take the opacity into
    /// their colours; patterns and stripes are drawn as a group instead.
    private func paint(with paint: ResolvedPaint, extents: () -> Rect, _ operation: () -> Void) {
        let source: OpaquePointer?
        var groupOpacity = false
        switch paint.kind {
        case .solid(let c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * paint.opacity)
            operation()
            return
        case .crossFade(let a, let b, let p):
            // (1−p)·A + p·B, coverage included, composited as one layer. Not
            // dithered: two layers with one threshold each would add their
            // truncations (an opaque mix could lose a level of alpha).
            let dithering = dither
            dither = false
            defer { dither = dithering }
            cairo_push_group(cr)
            self.paint(with: ResolvedPaint(kind: a.kind, opacity: a.opacity * (1 - p) * paint.opacity), extents: extents, operation)
            cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
            self.paint(with: ResolvedPaint(kind: b.kind, opacity: b.opacity * p * paint.opacity), extents: extents, operation)
            cairo_pop_group_to_source(cr)
            cairo_paint(cr)
            return
        case .linear(let g):
            if dither, let (grid, visible) = pixelsShowing(extents()),
               let dithered = DitheredGradient.linear(g, visible: visible, userToPixel: grid, opacity: paint.opacity) {
                source = dithered
            } else {
                source = cairo_pattern_create_linear(g.start.x, g.start.y, g.end.x, g.end.y)
                configure(source, stops: g.stops, spread: g.spread, matrix: g.matrix, opacity: paint.opacity)
            }
        case .radial(let g):
            if dither, let (grid, visible) = pixelsShowing(extents()),
               let dithered = DitheredGradient.radial(g, visible: visible, userToPixel: grid, opacity: paint.opacity) {
                source = dithered
            } else {
                source = cairo_pattern_create_radial(g.focus.x, g.focus.y, 0, g.center.x, g.center.y, g.radius)
                configure(source, stops: g.stops, spread: g.spread, matrix: g.matrix, opacity: paint.opacity)
            }
        case .conic(let g):
            source = conicPattern(g, covering: extents(), opacity: paint.opacity)
        case .pattern(let p):
            source = tilePattern(p)
            groupOpacity = true
        case .stripes(let st):
            source = stripesPattern(st, covering: extents())
            groupOpacity = true
        }
        // nil: nothing of the paint can show (outside the clip, a collapsed
        // transform). A source Cairo could not make (an image it could not
        // allocate) is the node's error, not a paint left out.
        guard let source else { return }
        let status = cairo_pattern_status(source)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(source)
            failures.append(Diagnostic(.error, .cannotMakePaint(String(cString: cairo_status_to_string(status))), at: current))
            return
        }
        let grouped = groupOpacity && paint.opacity < 1
        if grouped { cairo_push_group(cr) }
        cairo_set_source(cr, source)
        cairo_pattern_destroy(source)
        operation()
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, paint.opacity)
        }
    }

    private func configure(_ pattern: OpaquePointer?, stops: [ShadingStop], spread: SpreadMethod,
                           matrix: AffineTransform, opacity: Double) {
        guard let pattern else { return }
        for s in stops {
            cairo_pattern_add_color_stop_rgba(pattern, s.offset, s.color.red, s.color.green, s.color.blue,
                                              s.color.alpha * opacity)
        }
        cairo_pattern_set_extend(pattern, extend(spread))
        setMatrix(pattern, matrix)
    }

    /// Cairo's pattern matrix maps user space to pattern space, the inverse
    /// of `matrix`. A collapsed matrix paints nothing.
    private func setMatrix(_ pattern: OpaquePointer, _ matrix: AffineTransform) {
        guard !matrix.isIdentity else { return }
        guard let inverse = matrix.inverted else {
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_NONE)
            var far = cairoMatrix(.translation(1e9, 1e9))
            cairo_pattern_set_matrix(pattern, &far)
            return
        }
        var m = cairoMatrix(inverse)
        cairo_pattern_set_matrix(pattern, &m)
    }

    private func conicPattern(_ g: ConicShading, covering area: Rect, opacity: Double) -> OpaquePointer? {
        switch target.conic {
        case .mesh:
            return ConicMesh.mesh(g, covering: area, opacity: opacity)
        case .devicePixels:
            // Only what can show: the area within the clip, on the target's pixel grid.
            guard let (grid, box) = pixelsShowing(area) else { return nil }
            return ConicMesh.raster(g, box: box, userToPixel: grid, opacity: opacity, exactPixels: true, dither: dither)
        }
    }

    /// The target's pixel grid: user space to device pixels (the CTM and
    /// the surface's device scale).
    private func pixelGrid() -> AffineTransform {
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var dsx = 1.0, dsy = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &dsx, &dsy)
        return AffineTransform.scale(dsx, dsy)
            .concatenating(AffineTransform(a: ctm.xx, b: ctm.yx, c: ctm.xy, d: ctm.yy, tx: ctm.x0, ty: ctm.y0))
    }

    /// Only what can show of `area` (user space): the part within the clip.
    private func visibleArea(_ area: Rect) -> Rect {
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        let x0 = max(area.minX, cx0), y0 = max(area.minY, cy0)
        return Rect(x: x0, y: y0, width: max(0, min(area.maxX, cx1) - x0), height: max(0, min(area.maxY, cy1) - y0))
    }

    /// The pixel grid and the whole device pixels that `area` (user space)
    /// can paint within the clip; nil when that is nothing or no image could
    /// hold it.
    private func pixelsShowing(_ area: Rect) -> (AffineTransform, PixelBox)? {
        let visible = visibleArea(area)
        let grid = pixelGrid()
        guard visible.width > 0, visible.height > 0, let box = PixelBox.covering(visible, userToPixel: grid) else { return nil }
        return (grid, box)
    }

    /// A `<pattern>` tile: a recording surface (a vector tiling pattern) for
    /// PDF and SVG; for PNG an image at the device resolution the tile will
    /// be drawn at, with a whole number of pixels per tile so that tiles
    /// meet without seams and are never upscaled.
    private func tilePattern(_ p: PatternFill) -> OpaquePointer? {
        let w = p.tile.width, h = p.tile.height
        let surface: OpaquePointer?
        if !target.tilesAsVectors {
            var ctm = cairo_matrix_t()
            cairo_get_matrix(cr, &ctm)
            var tileMatrix = cairoMatrix(p.matrix)
            var toDevice = cairo_matrix_t()
            cairo_matrix_multiply(&toDevice, &tileMatrix, &ctm)
            let sx = (toDevice.xx * toDevice.xx + toDevice.yx * toDevice.yx).squareRoot()
            let sy = (toDevice.xy * toDevice.xy + toDevice.yy * toDevice.yy).squareRoot()
            var pw = (w * sx).rounded(), ph = (h * sy).rounded()
            if !(pw >= 1) { pw = 1 }      // also NaN, from a degenerate transform
            if !(ph >= 1) { ph = 1 }
            // A tile larger than the limit is drawn at a lower resolution.
            let limit = 4096.0
            if pw > limit || ph > limit {
                let f = limit / max(pw, ph)
                pw = max(1, (pw * f).rounded()); ph = max(1, (ph * f).rounded())
            }
            surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pw), Int32(ph))
            if let surface { cairo_surface_set_device_scale(surface, pw / w, ph / h) }
        } else {
            var rect = cairo_rectangle_t(x: 0, y: 0, width: w, height: h)
            surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &rect)
        }
        guard let surface else { return nil }
        defer { cairo_surface_destroy(surface) }
        if let tileContext = cairo_create(surface) {
            let painter = Painter(context: tileContext, target: target, paints: paints, time: time, budget: budget, dither: dither,
                                  images: images,
                                  fontHold: fontHold)
            painter.paint(p.content)
            failures += painter.failures
            // Text inside a tile repeats as outlines; one invisible copy per
            // tile would be noise, so tiles add none.
            cairo_destroy(tileContext)
        }
        cairo_surface_flush(surface)
        guard let pattern = cairo_pattern_create_for_surface(surface) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        setMatrix(pattern, p.matrix)
        return pattern
    }

    /// Stripes are drawn as real lines over the area to paint, not as tiles:
    /// continuous at any angle and scale, and vectors in PDF and SVG.
    private func stripesPattern(_ s: StripesFill, covering area: Rect) -> OpaquePointer? {
        let d = s.direction, n = Point(-d.y, d.x)
        let corners = [Point(area.minX, area.minY), Point(area.maxX, area.minY),
                       Point(area.minX, area.maxY), Point(area.maxX, area.maxY)].map { $0 - s.origin }
        let across = corners.map { $0.x * n.x + $0.y * n.y }, along = corners.map { $0.x * d.x + $0.y * d.y }
        let margin = s.lineWidth
        let kmin = ((across.min()! - margin) / s.spacing).rounded(.down)
        let kmax = ((across.max()! + margin) / s.spacing).rounded(.up)
        let smin = along.min()! - margin, smax = along.max()! + margin
        cairo_push_group(cr)
        if let bg = s.background {
            cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
            cairo_rectangle(cr, area.x, area.y, area.width, area.height)
            cairo_fill(cr)
        }
        let c = s.color
        if kmax - kmin > 100_000 {
            // Lines far finer than any pixel: their average colour.
            let coverage = min(1, s.lineWidth / s.spacing)
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * coverage)
            cairo_rectangle(cr, area.x, area.y, area.width, area.height)
            cairo_fill(cr)
        } else if s.lineWidth > 0 {
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
            cairo_set_line_width(cr, s.lineWidth)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
            cairo_set_dash(cr, nil, 0, 0)
            var k = kmin
            while k <= kmax {
                let base = s.origin + n * (k * s.spacing)
                let a = base + d * smin, b = base + d * smax
                cairo_move_to(cr, a.x, a.y)
                cairo_line_to(cr, b.x, b.y)
                k += 1
            }
            cairo_stroke(cr)
        }
        return cairo_pop_group(cr)
    }

    // MARK: Conversions

    private func append(_ path: BezierPath) {
        cairo_new_path(cr)
        for e in path.elements {
            switch e {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .cubic(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    private func concat(_ t: AffineTransform) {
        guard !t.isIdentity else { return }
        var m = cairoMatrix(t)
        cairo_transform(cr, &m)
    }

    private func cairoMatrix(_ t: AffineTransform) -> cairo_matrix_t {
        cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
    }

    private func fillRule(_ r: FillRule) -> cairo_fill_rule_t {
        r == .evenodd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING
    }

    private func lineCap(_ c: LineCap) -> cairo_line_cap_t {
        switch c {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }

    private func lineJoin(_ j: LineJoin) -> cairo_line_join_t {
        switch j {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }

    private func extend(_ s: SpreadMethod) -> cairo_extend_t {
        switch s {
        case .pad: return CAIRO_EXTEND_PAD
        case .repeat: return CAIRO_EXTEND_REPEAT
        case .reflect: return CAIRO_EXTEND_REFLECT
        }
    }
}
