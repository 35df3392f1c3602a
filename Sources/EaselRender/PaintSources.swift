import CCairo
import EaselLayout
import EaselModel

/// Paints as Cairo sources: colours, gradients (dithered on a raster
/// target), conic sweeps, pattern tiles and stripes.
extension Painter {
    /// Sets `paint` as the source and runs `operation` (which fills or
    /// strokes); `extents` (user space) is what the operation covers. Paints that carry their own alpha take the opacity into
    /// their colours; patterns and stripes are drawn as a group instead.
    func paint(with paint: ResolvedPaint, extents: () -> Rect, _ operation: () -> Void) {
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

    func configure(_ pattern: OpaquePointer?, stops: [ShadingStop], spread: SpreadMethod,
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
    func setMatrix(_ pattern: OpaquePointer, _ matrix: AffineTransform) {
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

    func conicPattern(_ g: ConicShading, covering area: Rect, opacity: Double) -> OpaquePointer? {
        backend.conicSource(g, covering: area, opacity: opacity, self)
    }

    /// The target's pixel grid: user space to device pixels (the CTM and
    /// the surface's device scale).
    func pixelGrid() -> AffineTransform {
        var ctm = cairo_matrix_t()
        cairo_get_matrix(cr, &ctm)
        var dsx = 1.0, dsy = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &dsx, &dsy)
        return AffineTransform.scale(dsx, dsy)
            .concatenating(AffineTransform(a: ctm.xx, b: ctm.yx, c: ctm.xy, d: ctm.yy, tx: ctm.x0, ty: ctm.y0))
    }

    /// Only what can show of `area` (user space): the part within the clip.
    func visibleArea(_ area: Rect) -> Rect {
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        let x0 = max(area.minX, cx0), y0 = max(area.minY, cy0)
        return Rect(x: x0, y: y0, width: max(0, min(area.maxX, cx1) - x0), height: max(0, min(area.maxY, cy1) - y0))
    }

    /// The pixel grid and the whole device pixels that `area` (user space)
    /// can paint within the clip; nil when that is nothing or no image could
    /// hold it.
    func pixelsShowing(_ area: Rect) -> (AffineTransform, PixelBox)? {
        let visible = visibleArea(area)
        let grid = pixelGrid()
        guard visible.width > 0, visible.height > 0, let box = PixelBox.covering(visible, userToPixel: grid) else { return nil }
        return (grid, box)
    }

    /// A `<pattern>` tile repeated, from the backend's surface of it.
    func tilePattern(_ p: PatternFill) -> OpaquePointer? {
        guard let surface = backend.tileSurface(p, self) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let pattern = cairo_pattern_create_for_surface(surface) else { return nil }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_REPEAT)
        setMatrix(pattern, p.matrix)
        return pattern
    }

    /// The tile's content, painted once per `PatternTiles` key. Text inside
    /// a tile repeats as outlines; one invisible copy per tile would be
    /// noise, so tiles add none.
    func paintTile(_ p: PatternFill, on surface: OpaquePointer) {
        if let tileContext = cairo_create(surface) {
            let painter = Painter(context: tileContext, backend: backend, paints: paints, time: time, budget: budget, dither: dither,
                                  images: images, glyphs: glyphs, fontHold: fontHold, tiles: tiles)
            painter.paint(p.content)
            failures += painter.failures
            cairo_destroy(tileContext)
        }
        cairo_surface_flush(surface)
    }

    /// Stripes are drawn as real lines over the area to paint, not as tiles:
    /// continuous at any angle and scale, and vectors in PDF.
    func stripesPattern(_ s: StripesFill, covering area: Rect) -> OpaquePointer? {
        cairo_push_group(cr)
        if let bg = s.background {
            cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
            cairo_rectangle(cr, area.x, area.y, area.width, area.height)
            cairo_fill(cr)
        }
        let c = s.color
        if let lines = s.lines(covering: area) {
            if s.lineWidth > 0 {
                cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
                cairo_set_line_width(cr, s.lineWidth)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
                cairo_set_dash(cr, nil, 0, 0)
                for (a, b) in lines {
                    cairo_move_to(cr, a.x, a.y)
                    cairo_line_to(cr, b.x, b.y)
                }
                cairo_stroke(cr)
            }
        } else {
            // Lines far finer than any pixel: their average colour.
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * s.averageCoverage)
            cairo_rectangle(cr, area.x, area.y, area.width, area.height)
            cairo_fill(cr)
        }
        return cairo_pop_group(cr)
    }
}
