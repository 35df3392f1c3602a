import CCairo
import EaselLayout
import EaselModel

/// Clips: one plain shape clips directly, anything else becomes a mask.
extension Painter {
    /// One plain shape clips directly (exact and compact in PDF); a union
    /// of shapes, or shapes with clips of their own, becomes an alpha mask.
    func withClip(_ clip: ResolvedClip, _ body: () -> Void) {
        if let within = clip.within.first {
            let inner = ResolvedClip(shapes: clip.shapes, within: Array(clip.within.dropFirst()))
            withClip(within) { self.withClip(inner, body) }
            return
        }
        // A clip's shapes are tessellated as fills are.
        for shape in clip.shapes {
            let c = shape.crossings
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
}
