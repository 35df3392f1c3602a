import CCairo
import EaselLayout
import EaselModel

/// What differs between the Cairo surfaces the `Painter` paints on — an
/// image for PNG, a PDF document — as the operations that differ: the
/// painter calls these and never asks which format it paints for. SVG is
/// written from the render tree by `SVGWriter`, not painted.
protocol CairoBackend: Sendable {
    /// Gradients may be dithered here (when the scene asks for it).
    var dithers: Bool { get }
    /// Fills and strokes become pixels here, so a path's edges cost the
    /// device rows they sweep; a vector backend only writes them.
    var sweepsRows: Bool { get }
    /// An SVG image is drawn once per device transform into a picture of
    /// device pixels, and that picture is painted for every use (raster);
    /// a vector backend writes its paths for each use.
    var reusesSVGPictures: Bool { get }
    /// Called before a translucent group's layer is pushed, with what the
    /// group can paint (its own space): a backend may limit the layer to it.
    func prepareLayer(holding bounds: Rect?, _ painter: Painter)
    /// A pattern's tile as a surface to repeat, a new reference.
    func tileSurface(_ pattern: PatternFill, _ painter: Painter) -> OpaquePointer?
    /// A conic sweep as a Cairo source for what `area` (user space) covers.
    func conicSource(_ g: ConicShading, covering area: Rect, opacity: Double, _ painter: Painter) -> OpaquePointer?
    /// What a text fill's paint must cover, for glyphs in `box`.
    func textPaintExtents(_ box: Rect, _ painter: Painter) -> Rect
    /// A run's glyphs in the current source; false if its font cannot be drawn.
    func drawGlyphs(_ run: GlyphRun, face: FontFace, _ painter: Painter) -> Bool
    /// A mask (a Cairo pattern, a new reference) of what `rectangles`
    /// (user space, disjoint, within `bounds`) cover of each pixel, or nil
    /// to fill them as a path.
    func coverageMask(of rectangles: [Rect], bounds: Rect, _ painter: Painter) -> OpaquePointer?
    /// A mask (a Cairo pattern, a new reference) of what stroking `path`
    /// (user space, reaching no further than `bounds`) covers of each
    /// pixel, or nil to stroke it.
    func strokeCoverageMask(of path: BezierPath, stroke: StrokeDrawing, bounds: Rect, _ painter: Painter) -> OpaquePointer?
}

/// PNG output: an image surface.
struct RasterBackend: CairoBackend {
    /// Glyphs drawn through Cairo's glyph API rather than filled as
    /// outlines (tests compare the two).
    var fontGlyphs = false

    static let outlines = RasterBackend()
    static let fontGlyphs = RasterBackend(fontGlyphs: true)

    var dithers: Bool { true }
    var sweepsRows: Bool { true }
    var reusesSVGPictures: Bool { true }

    /// The layer holds the group's bounds in device pixels: a smaller
    /// surface, the same pixels.
    func prepareLayer(holding bounds: Rect?, _ painter: Painter) {
        if let bounds { painter.clipToDevicePixels(bounds) }
    }

    /// An image at the device resolution the tile is drawn at, with a whole
    /// number of pixels per tile so that tiles meet without seams and are
    /// never upscaled; painted once per pixel size (`PatternTiles`).
    func tileSurface(_ p: PatternFill, _ painter: Painter) -> OpaquePointer? {
        let w = p.tile.width, h = p.tile.height
        var ctm = cairo_matrix_t()
        cairo_get_matrix(painter.cr, &ctm)
        var tileMatrix = painter.cairoMatrix(p.matrix)
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
        let key = PatternTiles.Key(tileIndex: p.tileIndex, pixelWidth: pw, pixelHeight: ph, dithered: painter.dither)
        return painter.tiles.surface(key) {
            guard let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pw), Int32(ph)) else { return nil }
            cairo_surface_set_device_scale(image, pw / w, ph / h)
            painter.paintTile(p, on: image)
            return image
        }
    }

    /// Only the device pixels that show, exactly, dithered as gradients are.
    func conicSource(_ g: ConicShading, covering area: Rect, opacity: Double, _ painter: Painter) -> OpaquePointer? {
        guard let (grid, box) = painter.pixelsShowing(area) else { return nil }
        return ConicMesh.raster(g, box: box, userToPixel: grid, opacity: opacity, exactPixels: true, dither: painter.dither)
    }

    /// A paint drawn as an image (a dithered gradient) covers what the
    /// clip shows: glyph ink reaches past its text's box.
    func textPaintExtents(_ box: Rect, _ painter: Painter) -> Rect { painter.clipRect() }

    /// Rectangles on a device grid along the axes (turned by a quarter
    /// turn or not, flipped or not), more of them than the device pixels
    /// they span across their long sides (a bars layer over a long series):
    /// their exact coverage per pixel. Fewer, or under any other rotation
    /// or a skew, they are a path.
    func coverageMask(of rectangles: [Rect], bounds: Rect, _ painter: Painter) -> OpaquePointer? {
        #if DEBUG
        if PaintingProbe.rectangleCoverageOff { return nil }
        #endif
        let grid = painter.pixelGrid()
        let tiny = 1e-9 * max(abs(grid.a), abs(grid.b), abs(grid.c), abs(grid.d))
        let upright = abs(grid.b) <= tiny && abs(grid.c) <= tiny, turned = abs(grid.a) <= tiny && abs(grid.d) <= tiny
        guard upright || turned, let (_, box) = painter.pixelsShowing(bounds),
              rectangles.count > (upright ? box.width : box.height) else { return nil }
        var coverage = RectangleCoverage(box: box)
        for r in rectangles {
            let a = grid.apply(Point(r.minX, r.minY)), b = grid.apply(Point(r.maxX, r.maxY))
            coverage.add(x0: a.x, y0: a.y, x1: b.x, y1: b.y)
        }
        guard let mask = coverage.maskPattern(userToPixel: grid) else { return nil }
        PaintingProbe.rectanglesCovered()
        return mask
    }

    /// A line with more points than the device columns it spans, through
    /// some columns at least twice (a long series): per column
    /// (`DenseLineCoverage`). Other lines are stroked.
    func strokeCoverageMask(of path: BezierPath, stroke: StrokeDrawing, bounds: Rect, _ painter: Painter) -> OpaquePointer? {
        #if DEBUG
        if PaintingProbe.denseLineCoverageOff { return nil }
        #endif
        return DenseLineCoverage.mask(path: path, stroke: stroke, bounds: bounds, painter: painter)
    }

    /// Filled as paths from `GlyphOutlines` (no font lock) where the font
    /// has outlines; colour and bitmap glyphs through Cairo.
    func drawGlyphs(_ run: GlyphRun, face: FontFace, _ painter: Painter) -> Bool {
        if !fontGlyphs, painter.fillOutlines(run, face: face) { return true }
        return GlyphRunDrawing.draw(run, on: painter.cr, fontHold: painter.fontHold)
    }
}

/// PDF output: vectors, real text.
struct PDFBackend: CairoBackend {
    static let pdf = PDFBackend()

    var dithers: Bool { false }
    var sweepsRows: Bool { false }
    var reusesSVGPictures: Bool { false }

    /// No limit: on a vector surface the clip would be written to the file.
    func prepareLayer(holding bounds: Rect?, _ painter: Painter) {}

    /// A recording surface: a vector tiling pattern, recorded once.
    func tileSurface(_ p: PatternFill, _ painter: Painter) -> OpaquePointer? {
        painter.tiles.surface(PatternTiles.Key(tileIndex: p.tileIndex, pixelWidth: 0, pixelHeight: 0, dithered: false)) {
            var rect = cairo_rectangle_t(x: 0, y: 0, width: p.tile.width, height: p.tile.height)
            guard let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &rect) else { return nil }
            painter.paintTile(p, on: recording)
            return recording
        }
    }

    /// A mesh of patches: a vector shading.
    func conicSource(_ g: ConicShading, covering area: Rect, opacity: Double, _ painter: Painter) -> OpaquePointer? {
        ConicMesh.mesh(g, covering: area, opacity: opacity)
    }

    func textPaintExtents(_ box: Rect, _ painter: Painter) -> Rect { box }

    /// Vectors: the rectangles stay a path.
    func coverageMask(of rectangles: [Rect], bounds: Rect, _ painter: Painter) -> OpaquePointer? { nil }

    /// Vectors: the line stays a stroked path.
    func strokeCoverageMask(of path: BezierPath, stroke: StrokeDrawing, bounds: Rect, _ painter: Painter) -> OpaquePointer? { nil }

    /// With Cairo's glyph API, keeping the characters (selectable text),
    /// under the render's `CairoFontAccess` hold.
    func drawGlyphs(_ run: GlyphRun, face: FontFace, _ painter: Painter) -> Bool {
        GlyphRunDrawing.draw(run, on: painter.cr, fontHold: painter.fontHold)
    }
}
