import CCairo
import EaselLayout
import EaselModel

/// Walks a laid-out tree back to front onto a Cairo context. It makes no
/// layout decisions: every size, paint and path was resolved beforehand.
final class Painter {
    private let cr: OpaquePointer
    private(set) var failures: [String] = []

    init(context: OpaquePointer) { cr = context }

    func paint(_ nodes: [LayoutNode]) {
        for node in nodes { paint(node) }
    }

    private func paint(_ node: LayoutNode) {
        // A collapsed transform (scale(0), say) paints nothing, as in SVG;
        // handing it to Cairo would put the whole context in an error state.
        guard node.opacity > 0, node.transform.inverted != nil else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        concat(node.transform)
        if let clip = node.clip {
            withClip(clip) { self.paintContent(node) }
        } else {
            paintContent(node)
        }
    }

    /// The node and its subtree, as one group when it is translucent so that
    /// overlapping children do not show through each other.
    private func paintContent(_ node: LayoutNode) {
        let grouped = node.opacity < 1
        if grouped { cairo_push_group(cr) }
        if let drawing = node.drawing { draw(drawing, node) }
        if !node.children.isEmpty {
            cairo_save(cr)
            if let childClip = node.childClip {
                append(childClip)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                cairo_clip(cr)
            }
            cairo_translate(cr, node.childOffset.x, node.childOffset.y)
            if let r = node.repetition {
                var step = AffineTransform.identity
                for _ in 0..<r.count {
                    guard step.inverted != nil else { break }
                    cairo_save(cr)
                    concat(step)
                    paint(node.children)
                    cairo_restore(cr)
                    step = step.concatenating(r.step)
                }
            } else {
                paint(node.children)
            }
            cairo_restore(cr)
        }
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, node.opacity)
        }
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
        if clip.shapes.count == 1, clip.shapes[0].clip.isEmpty {
            cairo_save(cr)
            append(clip.shapes[0].path)
            cairo_set_fill_rule(cr, fillRule(clip.shapes[0].rule))
            cairo_clip(cr)
            body()
            cairo_restore(cr)
            return
        }
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

    private func draw(_ drawing: Drawing, _ node: LayoutNode) {
        switch drawing {
        case .shapes(let passes):
            for pass in passes { draw(pass) }
        case .image(let image):
            draw(image, node)
        }
    }

    private func draw(_ shape: ShapeDrawing) {
        if let fill = shape.fill {
            append(shape.path)
            setSource(fill)
            cairo_set_fill_rule(cr, fillRule(shape.fillRule))
            cairo_fill(cr)
        }
        if let stroke = shape.stroke {
            append(shape.path)
            setSource(stroke.paint)
            cairo_set_line_width(cr, stroke.width)
            cairo_set_line_cap(cr, lineCap(stroke.cap))
            cairo_set_line_join(cr, lineJoin(stroke.join))
            cairo_set_miter_limit(cr, stroke.miterLimit)
            stroke.dash.withUnsafeBufferPointer {
                cairo_set_dash(cr, $0.baseAddress, Int32($0.count), stroke.dashOffset)
            }
            cairo_stroke(cr)
        }
        cairo_new_path(cr)
    }

    private func draw(_ image: ImageDrawing, _ node: LayoutNode) {
        let source = ByteSource(image.source.data)
        guard let surface = cairo_image_surface_create_from_png_stream(ByteSource.read, source.opaque) else { return }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            failures.append("\(node.location): error: cannot decode the PNG '\(image.source.path)'")
            return
        }
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

    private func setSource(_ paint: ResolvedPaint) {
        switch paint.kind {
        case .solid(let c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * paint.opacity)
        case .linear(let g):
            guard let pattern = cairo_pattern_create_linear(g.start.x, g.start.y, g.end.x, g.end.y) else { return }
            for s in g.stops {
                cairo_pattern_add_color_stop_rgba(pattern, s.offset, s.color.red, s.color.green, s.color.blue,
                                                  s.color.alpha * paint.opacity)
            }
            cairo_pattern_set_extend(pattern, extend(g.spread))
            // Cairo's pattern matrix maps user space to pattern space. A
            // collapsed gradient transform paints nothing.
            if !g.matrix.isIdentity {
                guard let inverse = g.matrix.inverted else {
                    cairo_pattern_destroy(pattern)
                    cairo_set_source_rgba(cr, 0, 0, 0, 0)
                    return
                }
                var m = cairoMatrix(inverse)
                cairo_pattern_set_matrix(pattern, &m)
            }
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
        }
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
