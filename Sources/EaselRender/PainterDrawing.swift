import CCairo
import CRsvg
import EaselLayout
import EaselModel

/// Drawing the render tree's leaves: text, paths and images.
extension Painter {
    /// Text is drawn as shaped during layout: its glyph runs as outlines or
    /// with Cairo's glyph API (real text in PDF; `drawGlyphs`), filled with its paint, whose box is the
    /// lines' extents or the frame; runs of a span with a fill of its own
    /// in that fill, over the span's extents. Colour glyphs (emoji) paint
    /// their own colours, once, at the fill's opacity; a character no font
    /// covers is an empty box in the fill; underlines and strike-throughs
    /// are bars in it.
    func draw(_ text: TextDrawing) {
        let runs = text.shaped.runs
        let groups = text.fillGroups
        var undrawn: [String] = []
        for group in groups where !group.runs.isEmpty {
            guard let fillID = group.fill else { continue }
            let fill = resolve(fillID)
            guard charge(group.box, weight: PaintCost.perPixel(.text) + weight(of: fill)) else { return }
            let members = group.runs.map { runs[$0] }
            // Glyph ink can reach past the box (overhangs, marks, overflow):
            // a paint drawn as an image covers what the clip shows instead.
            paint(with: fill, extents: { self.backend.textPaintExtents(group.box, self) }) {
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

    /// One run's glyphs in the current source, as the backend draws them.
    /// False if Cairo cannot use the run's font.
    func drawGlyphs(_ run: GlyphRun) -> Bool {
        guard let face = run.face, !run.glyphs.isEmpty else { return true }
        return backend.drawGlyphs(run, face: face, self)
    }

    /// Fills a run's glyphs as outlines read once per compile
    /// (`GlyphOutlineSet`), with no lock; false (nothing drawn) for colour
    /// glyphs and fonts without outlines.
    func fillOutlines(_ run: GlyphRun, face: FontFace) -> Bool {
        guard !run.isColor, let outlines = glyphs.outlines(face, run.glyphs),
              let all = Optional(outlines.compactMap { $0 }), all.count == outlines.count else { return false }
        if !GlyphRunDrawing.fillMasked(run, face: face, outlines: all, on: cr, userToPixel: pixelGrid()) {
            GlyphRunDrawing.fill(run, outlines: all, on: cr)
        }
        PaintingProbe.outlineGlyphsFilled()
        return true
    }

    /// Cairo draws in 24.8 fixed point and subtracts two coordinates in
    /// the same 32 bits: device coordinates within ±2^22, less a layer's
    /// offset on its target (a side at most), so that an edge's length
    /// fits too.
    static let cairoRange = 4_000_000.0
    /// Cairo's stroke of a line under a far larger miter limit can come out
    /// empty (1e9 drew nothing); a miter past this many half-widths joins
    /// segments turning back within 0.012°, where any join looks the same.
    static let largestMiterLimit = 1e4

    /// Whether Cairo is given `shape` drawn as a path (filled, or with
    /// `stroke`). Within Cairo's range it is, clip or no clip (as ever).
    /// Past it — its points, a curve's control points, or its stroke's
    /// reach beyond them — one that lies outside the clip is left out, and
    /// one that would show is a located error, not a picture Cairo's
    /// arithmetic wrapped (segments drawn backwards, a canvas filled
    /// black). A union box is judged whole: a far point that draws
    /// nothing (a lone move) or is hidden still counts.
    /// `points`: the box of every point the shape gives Cairo (worked out
    /// once per draw by `pointsGivenToCairo`).
    func cairoCanDraw(_ shape: RenderPath, points: Rect?, stroke: StrokeDrawing?) -> CairoDrawing {
        guard let box = points else { return .draw }
        var reach = 0.0
        if let stroke {
            reach = stroke.width / 2
            if stroke.join == .miter { reach *= max(min(stroke.miterLimit, Self.largestMiterLimit), 1) }
            if stroke.cap == .square { reach = max(reach, stroke.width / 2 * 2.squareRoot()) }
        }
        let grid = pixelGrid()
        let corners = [Point(box.minX - reach, box.minY - reach), Point(box.maxX + reach, box.minY - reach),
                       Point(box.minX - reach, box.maxY + reach), Point(box.maxX + reach, box.maxY + reach)].map(grid.apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        if (xs + ys).allSatisfy({ abs($0) <= Self.cairoRange }) { return .draw }   // NaN is not
        let clip = clipRect().applying(grid)
        let numbers = xs + ys
        if !numbers.contains(where: \.isNaN),
           xs.max()! < clip.minX || xs.min()! > clip.maxX || ys.max()! < clip.minY || ys.min()! > clip.maxY { return .skip }
        let far = numbers.map { $0.isNaN ? .infinity : abs($0) }.max() ?? .infinity
        failures.append(Diagnostic(.error, .shapeBeyondCairosRange(far), at: shape.location))
        return .fail
    }

    /// What `cairoCanDraw` judges: a path's control points too, the
    /// rectangles' union.
    func pointsGivenToCairo(_ shape: RenderPath) -> Rect? {
        shape.disjointRectangles == nil ? shape.path.controlBounds : shape.outlineBounds
    }

    /// `cairoCanDraw`'s answer: draw it, leave it out (it cannot show), or
    /// stop (an error is said).
    enum CairoDrawing { case draw, skip, fail }

    func draw(_ shape: RenderPath) {
        // What tessellating the path costs, whatever it covers.
        let complexity = shape.crossings
        // What Cairo would be given, worked out once for fill and stroke.
        var given: Rect??
        func points() -> Rect? {
            if let given { return given }
            given = .some(pointsGivenToCairo(shape))
            return given!
        }
        // Rectangles are made a path only if they are drawn as one, once.
        var made: BezierPath?
        func outline() -> BezierPath {
            if let made { return made }
            made = shape.outline
            return made!
        }
        func pathCost(stroke: Bool) -> Double {
            if let rectangles = shape.disjointRectangles {
                // Their edges; rasterised as a path (a stroke, or a fill not
                // made by coverage) also the rows their sides sweep, charged then.
                let edges = Double(4 * rectangles.count) * PaintCost.perPathEdge
                return stroke && backend.sweepsRows ? edges + rowCost(of: rectangles) : edges
            }
            if shape.crossesOnlyNeighbours {
                let edges = PathCrossings.edges(of: shape.path)
                return Double(edges.count) * PaintCost.perPathEdge + deviceRows(of: edges) * PaintCost.perNeighbourEdgeRow
            }
            guard let complexity else { return 0 }
            return Double(complexity.edges) * PaintCost.perPathEdge
                + complexity.crossings * (stroke ? PaintCost.perStrokeCrossing : PaintCost.perFillCrossing)
        }
        if let fill = shape.fill {
            // Rectangles filled by coverage never reach Cairo as coordinates:
            // they are checked only if drawn as a path, below.
            let drawing = shape.disjointRectangles == nil ? cairoCanDraw(shape, points: points(), stroke: nil) : .draw
            if drawing == .fail { return }
            if drawing == .draw {
                cairo_set_fill_rule(cr, fillRule(shape.fillRule))
                // Before the extents, which already tessellate the path.
                guard spend(pathCost(stroke: false)) else { return }
                let paint = resolve(fill)
                let area = coverage(of: shape, outline: outline, stroke: false, paint: paint)
                guard charge(area, weight: weight(of: paint)) else { return }
                var mask: OpaquePointer?
                var asPath = CairoDrawing.draw
                if let rectangles = shape.disjointRectangles, let bounds = shape.outlineBounds {
                    mask = backend.coverageMask(of: rectangles, bounds: bounds, self)
                    if mask == nil {
                        asPath = cairoCanDraw(shape, points: points(), stroke: nil)
                        if asPath == .fail { return }
                        if asPath == .draw, backend.sweepsRows { guard spend(rowCost(of: rectangles)) else { return } }
                    }
                }
                defer { if let mask { cairo_pattern_destroy(mask) } }
                if asPath == .draw {
                    self.paint(with: paint, extents: { area }, through: mask) {
                        self.append(outline())
                        cairo_fill(self.cr)
                    }
                }
            }
        }
        if let stroke = shape.stroke {
            switch cairoCanDraw(shape, points: points(), stroke: stroke) {
            case .fail, .skip:
                cairo_new_path(cr)
                return
            case .draw: break
            }
            cairo_set_line_width(cr, stroke.width)
            cairo_set_line_cap(cr, lineCap(stroke.cap))
            cairo_set_line_join(cr, lineJoin(stroke.join))
            cairo_set_miter_limit(cr, min(stroke.miterLimit, Self.largestMiterLimit))
            stroke.dash.withUnsafeBufferPointer {
                cairo_set_dash(cr, $0.baseAddress, Int32($0.count), stroke.dashOffset)
            }
            guard spend(pathCost(stroke: true)) else { return }
            let paint = resolve(stroke.paint)
            let area = coverage(of: shape, outline: outline, stroke: true, paint: paint)
            guard charge(area, weight: weight(of: paint)) else { return }
            var mask: OpaquePointer?
            if shape.disjointRectangles == nil, let bounds = shape.bounds {
                mask = backend.strokeCoverageMask(of: shape.path, stroke: stroke, bounds: bounds, self)
            }
            defer { if let mask { cairo_pattern_destroy(mask) } }
            self.paint(with: paint, extents: { area }, through: mask) {
                self.append(outline())
                cairo_stroke(self.cr)
            }
        }
        cairo_new_path(cr)
    }

    /// `paint` through `mask` (coverage worked out by Easel) if there is
    /// one, else over what `draw` fills or strokes.
    func paint(with paint: ResolvedPaint, extents: () -> Rect, through mask: OpaquePointer?, draw: () -> Void) {
        self.paint(with: paint, extents: extents) {
            if let mask { cairo_mask(self.cr, mask) } else { draw() }
        }
    }

    /// What rectangles drawn as a path cost beyond their edges: the device
    /// rows their four sides span (each at least one), as for a path whose
    /// pieces cross only their neighbours.
    func rowCost(of rectangles: [Rect]) -> Double {
        // A side along x spans |b|·width rows, one along y |d|·height.
        let grid = pixelGrid()
        var rows = 0.0
        for r in rectangles { rows += 2 * (max(1, abs(grid.b * r.width)) + max(1, abs(grid.d * r.height))) }
        return rows * PaintCost.perNeighbourEdgeRow
    }

    /// The paint at the painted time.
    func resolve(_ id: PaintID) -> ResolvedPaint {
        paints.paint(id, at: time)
    }

    /// What filling or stroking `shape` covers, in user space: for a solid
    /// colour (which needs no extent but the budget's) the path's bounds,
    /// which take no tessellation; for paints placed over the area, Cairo's
    /// exact extents — for a fill of rectangles, what shows of their
    /// bounds, which is.
    func coverage(of shape: RenderPath, outline: () -> BezierPath, stroke: Bool, paint: ResolvedPaint) -> Rect {
        if case .solid = paint.kind, let box = shape.bounds { return box }
        // What shows of them: a bar far past its axis reaches past Cairo's range.
        if !stroke, shape.disjointRectangles != nil, let box = shape.outlineBounds { return visibleArea(box) }
        return extents(of: outline(), stroke: stroke)
    }

    /// Where `path` would paint, in user space.
    func extents(of path: BezierPath, stroke: Bool) -> Rect {
        append(path)
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        if stroke { cairo_stroke_extents(cr, &x0, &y0, &x1, &y1) } else { cairo_fill_extents(cr, &x0, &y0, &x1, &y1) }
        cairo_new_path(cr)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    func draw(_ image: ImageDrawing, at location: SourceLocation) {
        guard let tint = image.tint else { return drawPicture(image, at: location) }
        // The picture as a mask (its coverage), then the tint through it.
        guard let pixels = beginGroup(.groupComposite) else { return }
        defer { endGroup(pixels) }
        cairo_push_group(cr)
        drawPicture(image, at: location)
        let mask = cairo_pop_group(cr)
        defer { cairo_pattern_destroy(mask) }
        let paint = resolve(tint)
        guard charge(image.clipRect, weight: weight(of: paint)) else { return }
        cairo_save(cr)
        cairo_rectangle(cr, image.clipRect.x, image.clipRect.y, image.clipRect.width, image.clipRect.height)
        cairo_clip(cr)
        self.paint(with: paint, extents: { image.clipRect }, through: mask) {}
        cairo_restore(cr)
    }

    private func drawPicture(_ image: ImageDrawing, at location: SourceLocation) {
        if image.source.vector != nil { return drawVector(image, at: location) }
        // What it covers, and its source's pixels (decoded by the compile, which
        // charged decoding too).
        let sourcePixels = Double(image.source.pixelWidth) * Double(image.source.pixelHeight)
        guard charge(image.clipRect, .image), spend(sourcePixels * PaintCost.perImageSourcePixel) else { return }
        // Every image was decoded by the compile: one missing is a render
        // tree painted with another compile's images, said at its element.
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

    /// An SVG image, drawn by librsvg as vectors at the device's
    /// resolution (on a PDF page, as paths and text) into the fitted box,
    /// clipped to it. On a raster backend it is drawn once per device
    /// transform into a picture of device pixels, painted at every use (as
    /// pattern tiles are): a hundred copies of a logo cost one librsvg draw.
    /// In a Display P3 scene librsvg's sRGB is converted: the picture is
    /// converted to P3 (on a PDF page too, a picture at 4 pixels a point).
    private func drawVector(_ image: ImageDrawing, at location: SourceLocation) {
        guard let svg = image.source.vector else { return }
        let d = image.destination
        let (iw, ih) = image.source.intrinsicSize
        guard d.width > 0, d.height > 0, d.width.isFinite, d.height.isFinite, charge(image.clipRect, .image) else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_rectangle(cr, image.clipRect.x, image.clipRect.y, image.clipRect.width, image.clipRect.height)
        cairo_clip(cr)
        // Nothing of the SVG shows outside its box (an overflow of its
        // viewBox, a blur's bleed), in every format alike.
        cairo_rectangle(cr, d.x, d.y, d.width, d.height)
        cairo_clip(cr)
        cairo_translate(cr, d.x, d.y)
        // `fill` stretches: librsvg draws into the intrinsic box, scaled.
        cairo_scale(cr, d.width / iw, d.height / ih)
        let box = Rect(x: 0, y: 0, width: iw, height: ih)
        let p3 = images.colorSpace == .displayP3
        // A picture's pixels per device unit: a PDF page's picture (P3
        // only) at 4 a point; a tile's surface carries its own scale.
        let pixelScale = devicePixelScale(extra: backend.reusesSVGPictures ? 1 : 4)
        // librsvg sizes layers and filter surfaces by the whole image.
        let whole = deviceBox(box)
        let wholePixels = max(0, whole.maxX - whole.minX) * max(0, whole.maxY - whole.minY) * pixelScale.x * pixelScale.y
        let surfaces = PaintCost.svgSurfaces(svg.work)
        if surfaces > 0, wholePixels * (surfaces + 1) > PaintCost.maxSVGSurfacePixels {
            failures.append(Diagnostic(.error, .svgLayersTooLarge(image.source.path, wholePixels, surfaces), at: location))
            budget.exceededAt = budget.exceededAt ?? location
            return
        }
        // A pattern's tile at the image's largest device scale.
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let deviceScale = max((m.xx * m.xx + m.yx * m.yx).squareRoot(), (m.xy * m.xy + m.yy * m.yy).squareRoot()) * max(pixelScale.x, pixelScale.y)
        let tilePixels = svg.work.patternTileArea * deviceScale * deviceScale
        if tilePixels > PaintCost.maxSVGPatternTilePixels {
            failures.append(Diagnostic(.error, .svgPatternTileTooLarge(image.source.path, tilePixels), at: location))
            budget.exceededAt = budget.exceededAt ?? location
            return
        }
        let drawCost = PaintCost.svgDraw(svg.work, pixels: surfaces > 0 ? wholePixels : deviceArea(box) * pixelScale.x * pixelScale.y,
                                         vector: !backend.reusesSVGPictures)
        let handle: UnsafeMutablePointer<RsvgHandle>
        switch svgDocuments.handle(for: image.source, parse: { spend(svg.parseCost) }) {
        case .success(let h): handle = h
        case .failure(let problem):
            if budget.exceededAt == nil {
                failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem.text), at: location))
            }
            return
        }
        let draw = { (target: OpaquePointer) -> String? in
            if svg.hasText {
                // librsvg's text is drawn with Cairo's FreeType fonts.
                return self.fontHold.using { self.svgDocuments.draw(handle, on: target, width: iw, height: ih, fonts: self.images.fontsForSVGText) }
            }
            return self.svgDocuments.draw(handle, on: target, width: iw, height: ih, fonts: nil)
        }
        var problem: String?
        if backend.reusesSVGPictures || p3, let (key, origin) = pictureKey(image.source, box: box, scale: pixelScale, always: p3) {
            let picture = svgDocuments.picture(key) {
                guard spend(drawCost),
                      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, key.width, key.height) else { return nil }
                let target = cairo_create(surface)!
                var m = cairo_matrix_t(xx: key.xx, yx: key.yx, xy: key.xy, yy: key.yy, x0: key.x0, y0: key.y0)
                cairo_set_matrix(target, &m)
                problem = draw(target)
                cairo_destroy(target)
                guard problem == nil, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
                    cairo_surface_destroy(surface)
                    return nil
                }
                if p3, let data = cairo_image_surface_get_data(surface) {
                    cairo_surface_flush(surface)
                    DecodedImage.convertToDisplayP3(data, width: key.width, height: key.height,
                                                    stride: cairo_image_surface_get_stride(surface), format: CAIRO_FORMAT_ARGB32)
                    cairo_surface_mark_dirty(surface)
                }
                return surface
            }
            if let picture {
                cairo_identity_matrix(cr)
                cairo_scale(cr, 1 / pixelScale.x, 1 / pixelScale.y)
                cairo_set_source_surface(cr, picture, origin.x, origin.y)
                cairo_paint(cr)
                return
            }
            guard problem == nil, budget.exceededAt == nil, !p3 else {
                if let problem { failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem), at: location)) }
                else if p3, budget.exceededAt == nil {
                    failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, "its picture in Display P3 would hold more than \(SVGImageDocuments.maxPicturePixels) pixels"), at: location))
                }
                return
            }
        }
        guard spend(drawCost) else { return }
        if let problem = draw(cr) { failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem), at: location)) }
    }

    /// Pixels per device unit of the surface painted on (a pattern tile's
    /// device scale), times `extra`.
    private func devicePixelScale(extra: Double) -> (x: Double, y: Double) {
        var sx = 1.0, sy = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &sx, &sy)
        return (sx * extra, sy * extra)
    }

    /// The picture of an image's intrinsic `box` under the current
    /// transform at `scale` pixels per device unit: its key and its origin
    /// in whole pixels; nil when the picture would be much larger than what
    /// the clip shows of it (a `cover` of a tiny frame; unless `always`)
    /// or past the pictures' size.
    private func pictureKey(_ source: ImageSource, box: Rect, scale: (x: Double, y: Double), always: Bool)
        -> (SVGImageDocuments.PictureKey, origin: (x: Double, y: Double))? {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        m = cairo_matrix_t(xx: m.xx * scale.x, yx: m.yx * scale.y, xy: m.xy * scale.x, yy: m.yy * scale.y,
                           x0: m.x0 * scale.x, y0: m.y0 * scale.y)
        var xs: [Double] = [], ys: [Double] = []
        for (u, v) in [(box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY)] {
            xs.append(m.xx * u + m.xy * v + m.x0)
            ys.append(m.yx * u + m.yy * v + m.y0)
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(),
              minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        let w = (maxX.rounded(.up) - x0), h = (maxY.rounded(.up) - y0)
        guard w >= 1, h >= 1, w * h <= Double(SVGImageDocuments.maxPicturePixels) else { return nil }
        // What shows of it: a picture four times larger is not kept.
        let shown = deviceArea(box) * scale.x * scale.y
        guard always || w * h <= 4 * max(shown, 1) else { return nil }
        let key = SVGImageDocuments.PictureKey(digest: source.digest, identity: SVGImageDocuments.identity(of: source.data),
                                               xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy,
                                               x0: m.x0 - x0, y0: m.y0 - y0, width: Int32(w), height: Int32(h))
        return (key, (x0, y0))
    }
}
