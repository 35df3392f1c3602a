import CCairo
import EaselLayout
import EaselModel

/// Walks a laid-out tree back to front onto a Cairo context. It makes no
/// layout decisions: every size, paint and path was resolved beforehand.
final class Painter {
    let cr: OpaquePointer
    let budget: PaintBudget
    let paints: PaintTable
    /// Seconds into the scene's animations.
    let time: Double
    /// The node being painted, for the message when the budget runs out.
    var current: SourceLocation?
    /// What painting on this surface does its own way (`CairoBackend`).
    let backend: any CairoBackend
    var failures: [Diagnostic] = []
    /// PNG output only: gradients are dithered (`DitheredGradient`); off
    /// while the two layers of a cross-fade are drawn.
    var dither: Bool

    let images: DecodedImages
    let glyphs: GlyphOutlineSet
    /// Cairo's font lock for glyphs drawn through Cairo: in a PDF, from
    /// the first such glyph to the render's end (a recording may replay
    /// them in any later fill); on an image, for each such run
    /// (`CairoFontAccess`). Glyphs filled as outlines never take it.
    let fontHold: CairoFontAccess.Hold
    /// Tiles painted so far in this render (shared with the painters of tiles).
    let tiles: PatternTiles
    /// SVG images parsed so far in this render.
    let svgDocuments = SVGImageDocuments()

    init(context: OpaquePointer, backend: any CairoBackend, paints: PaintTable, time: Double, budget: PaintBudget,
         dither: Bool = false, images: DecodedImages, glyphs: GlyphOutlineSet, fontHold: CairoFontAccess.Hold,
         tiles: PatternTiles = PatternTiles()) {
        cr = context
        self.tiles = tiles
        self.dither = dither && backend.dithers
        self.fontHold = fontHold
        self.images = images
        self.glyphs = glyphs
        self.backend = backend
        self.paints = paints
        self.time = time
        self.budget = budget
    }

    /// Charges what an operation of `weight` paint units per pixel costs
    /// over the device pixels `rect` (user space) covers within the clip,
    /// before it is done; false once the budget is spent, and painting stops.
    @discardableResult
    func charge(_ rect: Rect, weight: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        return spend(PaintCost.perOperation + deviceArea(rect) * weight)
    }

    /// Takes `units` from the budget; false (and painting stops) once it is spent.
    func spend(_ units: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        budget.remaining -= units
        if budget.remaining < 0 {
            budget.exceededAt = current
            return false
        }
        return true
    }

    func charge(_ rect: Rect, _ kind: PaintCost.Kind) -> Bool {
        charge(rect, weight: PaintCost.perPixel(kind))
    }

    /// The device pixels of `rect` (user space) within the clip.
    func deviceArea(_ rect: Rect) -> Double {
        var cx0 = 0.0, cy0 = 0.0, cx1 = 0.0, cy1 = 0.0
        cairo_clip_extents(cr, &cx0, &cy0, &cx1, &cy1)
        let box = deviceBox(rect), clip = deviceBox(Rect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0))
        let w = max(0, min(box.maxX, clip.maxX) - max(box.minX, clip.minX))
        let h = max(0, min(box.maxY, clip.maxY) - max(box.minY, clip.minY))
        return w * h
    }

    /// The device-space box of `rect`'s corners (user space).
    func deviceBox(_ rect: Rect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
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
    func deviceRows(of edges: [(Point, Point)]) -> Double {
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
    func beginGroup(_ kind: PaintCost.Kind) -> Double? {
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

    func endGroup(_ pixels: Double) { budget.liveGroupPixels -= pixels }

    /// The weight of painting with `paint`, per pixel.
    func weight(of paint: ResolvedPaint) -> Double {
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

    func paint(_ node: RenderNode) {
        guard budget.exceededAt == nil else { return }
        current = node.location
        switch node {
        case .group(let group): paint(group)
        case .path(let path): draw(path)
        case .image(let image): draw(image.drawing, at: image.location)
        case .text(let text): draw(text.drawing)
        }
    }

    func paint(_ group: RenderGroup) {
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
    func paintContent(_ group: RenderGroup) {
        let grouped = group.opacity < 1
        var groupPixels = 0.0
        if grouped {
            backend.prepareLayer(holding: group.bounds, self)
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
    func clipToDevicePixels(_ rect: Rect) {
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
    func clipRect() -> Rect {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
