import CCairo
import EaselLayout
import EaselModel

/// Renders a render tree into PNG, PDF or SVG bytes, in memory, with the
/// backend for the format. The scale, the format and the time are
/// arguments of rendering: one tree serves them all, from any number of
/// threads at once.
public enum SceneRenderer {
    /// Pixel size of a raster render: points × scale, rounded up.
    public static func pixelSize(of scene: RenderTree, scale: Double) -> (width: Int, height: Int) {
        func side(_ v: Double) -> Int { v.isFinite && v < 1e9 ? Int(v.rounded(.up)) : Int(1e9) }
        return (side(scene.size.width * scale), side(scene.size.height * scale))
    }

    /// `scale` applies to PNG only (PDF and SVG are at point size); `time`
    /// is seconds into the scene's animations; `maxPaintCost` bounds
    /// the painting work (see `Limits`). Failures are located diagnostics.
    /// `animateSVG`: SVG output of animated paints as SMIL animations
    /// (starting at 0) instead of the still frame at `time`.
    /// `png`: how PNG output is encoded. `images`: the tree's images,
    /// decoded by the compile (painting decodes nothing); `glyphs`: its
    /// texts' outlines, taken by the compile (painting reads no font).
    /// Package access: a tree is rendered through the `CompiledScene` that
    /// holds it with what its runs draw from — its images, its glyph
    /// outlines and its font set (whose anonymous font files PDF text and
    /// colour glyphs open) — so no caller renders a tree whose fonts are gone.
    package static func render(_ scene: RenderTree, format: OutputFormat, scale: Double, time: Double = 0,
                               maxPaintCost: Double = .infinity, animateSVG: Bool = false,
                               png: PNGSettings = PNGSettings(), quality: Int? = nil, images: DecodedImages,
                               glyphs: GlyphOutlineSet = GlyphOutlineSet()) throws -> [UInt8] {
        TestLeak.leakIfAsked()
        switch format {
        case .webp, .avif:
            if format == .webp {
                let (w, h) = pixelSize(of: scene, scale: scale)
                try located(scene) { try WebPEncoder.checkSize(width: w, height: h) }
            }
            let canvas = try rasterCanvas(scene, scale: scale, time: time, budget: maxPaintCost, images: images, glyphs: glyphs)
            return try encodeWeb(canvas, format, quality: quality, scene)
        case .png:
            let canvas = try rasterCanvas(scene, scale: scale, time: time, budget: maxPaintCost, images: images, glyphs: glyphs)
            guard let bytes = PNGEncoder.encode(canvas, compression: png.compression, keepAlpha: png.keepAlpha,
                                                colorSpace: scene.colorSpace) else {
                throw failure(.pngEncodingFailed, scene.location)
            }
            return bytes
        case .svg:
            return try svg(scene, time: time, animates: animateSVG, maxPaintCost: maxPaintCost, images: images, glyphs: glyphs)
        case .vectorDrawable:
            return try vectorDrawable(scene, time: time, maxPaintCost: maxPaintCost, images: images, glyphs: glyphs)
        case .pdf:
            var failure: Error?
            // Finishing the surface subsets the fonts the text used.
            let fontHold = CairoFontAccess.Hold(untilEnd: true)
            defer { fontHold.end() }
            let (status, bytes) = ByteSink.collect { sink -> cairo_status_t in
                guard let surface = cairo_pdf_surface_create_for_stream(ByteSink.write, sink, scene.size.width, scene.size.height)
                else { return CAIRO_STATUS_NO_MEMORY }
                defer { cairo_surface_destroy(surface) }
                // Fixed metadata: the same scene gives byte-identical files.
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Easel")
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "")
                do {
                    try draw(scene, on: surface, scale: 1, time: time, backend: PDFBackend.pdf, budget: maxPaintCost, images: images, glyphs: glyphs,
                             fontHold: fontHold)
                } catch {
                    failure = error
                }
                let settled = CairoFontFaces.settleVariations(for: fontHold.drawn)
                cairo_surface_finish(surface)
                settled.release()
                if let unset = settled.unset.first, failure == nil {
                    failure = Self.failure(.variationsNotSet(unset), scene.location)
                }
                return cairo_surface_status(surface)
            }
            if let failure { throw failure }
            try check(status, scene)
            guard scene.colorSpace == .displayP3 else { return bytes }
            do {
                return try PDFColorSpace.displayP3(bytes)
            } catch {
                throw Self.failure(.cannotTagPDF(error.description), scene.location)
            }
        }
    }

    /// Paints the tree at each time, one canvas at a time, into `encoder`
    /// (each frame shown for `delay`); `maxPaintCost` bounds each frame.
    package static func paintFrames(_ scene: RenderTree, scale: Double, times: [Double], delay: FrameDelay,
                                    maxPaintCost: Double, images: DecodedImages, glyphs: GlyphOutlineSet,
                                    into encoder: inout some FrameEncoder) throws {
        for time in times {
            let canvas = try rasterCanvas(scene, scale: scale, time: time, budget: maxPaintCost, images: images, glyphs: glyphs)
            try located(scene) { try encoder.add(canvas, delay: delay) }
        }
    }

    /// SVG of the tree; `side`: its width and height when not the scene's
    /// points (an Icon Composer layer is 1024 whatever the scene's size);
    /// `selectableText`: invisible real text over the glyph outlines.
    package static func svg(_ scene: RenderTree, time: Double = 0, animates: Bool = false, maxPaintCost: Double = .infinity,
                            images: DecodedImages, glyphs: GlyphOutlineSet, side: Double? = nil,
                            selectableText: Bool = true) throws -> [UInt8] {
        // Colour glyphs are drawn by Cairo into pictures (`SVGWriter`).
        let fontHold = CairoFontAccess.Hold(untilEnd: false)
        defer { fontHold.end() }
        let budget = PaintBudget(limit: maxPaintCost)
        let (bytes, failures) = SVGWriter.document(scene, time: animates ? 0 : time, animates: animates,
                                                   budget: budget, fontHold: fontHold, glyphs: glyphs,
                                                   svgFonts: images.fontsForSVGText, side: side, selectableText: selectableText)
        if budget.remaining < 0 {
            throw failure(.paintBudgetExceeded(budget.limit), budget.exceededAt ?? scene.location)
        }
        if !failures.isEmpty { throw DiagnosticsError(failures) }
        return bytes
    }

    /// An Android VectorDrawable of the tree; `side`: its width and height
    /// in dp when not the scene's points (an adaptive icon layer is 108 dp
    /// whatever the scene's size). Package access, as `render`.
    package static func vectorDrawable(_ scene: RenderTree, time: Double = 0, maxPaintCost: Double = .infinity,
                                       images: DecodedImages, glyphs: GlyphOutlineSet, side: Double? = nil) throws -> [UInt8] {
        let budget = PaintBudget(limit: maxPaintCost)
        // SVG images' text is drawn by Cairo (`VectorDrawableWriter`).
        let fontHold = CairoFontAccess.Hold(untilEnd: false)
        defer { fontHold.end() }
        let (bytes, failures) = VectorDrawableWriter.document(scene, time: time, budget: budget, glyphs: glyphs, side: side,
                                                                 svgFonts: images.fontsForSVGText, fontHold: fontHold)
        if budget.remaining < 0 {
            throw failure(.paintBudgetExceeded(budget.limit), budget.exceededAt ?? scene.location)
        }
        if !failures.isEmpty { throw DiagnosticsError(failures) }
        return bytes
    }

    /// A PNG (or WebP, AVIF) of where the tree paints and how strongly, in black:
    /// every pixel's colour dropped, its alpha kept — colour glyphs and
    /// pictures too (an Android themed layer made from a foreground).
    /// Package access, as `render`.
    package static func coverage(_ scene: RenderTree, scale: Double, format: OutputFormat = .png, maxPaintCost: Double = .infinity,
                                 png: PNGSettings = PNGSettings(), quality: Int? = nil, images: DecodedImages,
                                 glyphs: GlyphOutlineSet) throws -> [UInt8] {
        let canvas = try rasterCanvas(scene, scale: scale, time: 0, budget: maxPaintCost, images: images, glyphs: glyphs)
        cairo_surface_flush(canvas.surface)
        // ARGB32, premultiplied: black at alpha a is (0, 0, 0, a).
        let words = canvas.pixels.assumingMemoryBound(to: UInt32.self)
        for y in 0..<canvas.height {
            let row = words + y * (canvas.stride / 4)
            for x in 0..<canvas.width { row[x] &= 0xFF00_0000 }
        }
        cairo_surface_mark_dirty(canvas.surface)
        if format == .webp || format == .avif { return try encodeWeb(canvas, format, quality: quality, scene) }
        guard let bytes = PNGEncoder.encode(canvas, compression: png.compression, keepAlpha: true, colorSpace: scene.colorSpace) else {
            throw failure(.pngEncodingFailed, scene.location)
        }
        return bytes
    }

    /// How many animated paints an animated SVG can only show as their first
    /// frame (a conic keyframe, keyframes of different kinds, transforms or
    /// spreads): what a caller should warn about.
    public static func animatedPaintsSVGCannotAnimate(in scene: RenderTree) -> Int {
        scene.paints.entries.filter { entry in
            if case .animated(let a) = entry { return SVGAnimation(a) == nil }
            return false
        }.count
    }

    /// How many of a Display P3 tree's colours lie outside sRGB: what a
    /// VectorDrawable (sRGB only) gamut-maps, and a caller warns of.
    public static func colorsOutsideSRGB(in scene: RenderTree) -> Int {
        guard scene.colorSpace == .displayP3 else { return 0 }
        var colors: [Color] = [scene.background]
        for id in scene.paints.ids {
            switch scene.paints.paint(id, at: 0).kind {
            case .solid(let c): colors.append(c)
            case .linear(let g): colors += g.stops.map(\.color)
            case .radial(let g): colors += g.stops.map(\.color)
            case .conic(let g): colors += g.sectors.flatMap { [$0.startColor, $0.endColor] }
            case .stripes(let s): colors += [s.color] + (s.background.map { [$0] } ?? [])
            case .pattern, .crossFade: break
            }
        }
        return Set(colors.filter { $0.alpha > 0 && !DisplayP3.isInside(DisplayP3.srgb(fromP3: $0.red, $0.green, $0.blue, alpha: $0.alpha), .srgb) }
            .map { "\($0.red) \($0.green) \($0.blue)" }).count
    }

    /// A raster render without PNG encoding (package access, as `render`).
    package static func renderImage(_ scene: RenderTree, scale: Double, time: Double = 0,
                                    maxPaintCost: Double = .infinity, images: DecodedImages,
                                    glyphs: GlyphOutlineSet = GlyphOutlineSet()) throws -> RasterImage {
        try renderImage(scene, scale: scale, time: time, maxPaintCost: maxPaintCost, images: images, glyphs: glyphs, backend: RasterBackend.outlines)
    }

    /// A raster render with every glyph drawn through Cairo's glyph API
    /// (tests compare it with outlines).
    package static func renderImageWithFontGlyphs(_ scene: RenderTree, scale: Double, images: DecodedImages) throws -> RasterImage {
        try renderImage(scene, scale: scale, images: images, backend: RasterBackend.fontGlyphs)
    }

    static func renderImage(_ scene: RenderTree, scale: Double, time: Double = 0, maxPaintCost: Double = .infinity,
                            images: DecodedImages, glyphs: GlyphOutlineSet = GlyphOutlineSet(),
                            backend: any CairoBackend) throws -> RasterImage {
        let canvas = try rasterCanvas(scene, scale: scale, time: time, budget: maxPaintCost,
                                      images: images, glyphs: glyphs, backend: backend)
        return RasterImage(surface: canvas.surface)
    }

    /// A WebP or AVIF of the canvas: WebP lossless without a quality, AVIF at 80.
    private static func encodeWeb(_ canvas: RasterCanvas, _ format: OutputFormat, quality: Int?, _ scene: RenderTree) throws -> [UInt8] {
        try located(scene) {
            format == .webp ? try WebPEncoder.still(canvas, quality: quality, colorSpace: scene.colorSpace)
                : try AVIFEncoder.encode(canvas, quality: quality ?? 80, colorSpace: scene.colorSpace)
        }
    }

    /// `body`'s errors, those without a place at the scene (an encoder's).
    package static func located<T>(_ scene: RenderTree, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DiagnosticsError {
            throw DiagnosticsError(error.diagnostics.map { d in
                var d = d
                if d.location == nil { d.location = scene.location }
                return d
            })
        }
    }

    private static func failure(_ message: Diagnostic.Message, _ location: SourceLocation?) -> DiagnosticsError {
        DiagnosticsError([Diagnostic(.error, message, at: location)])
    }

    private static func check(_ status: cairo_status_t, _ scene: RenderTree) throws {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw failure(.cairoFailed(String(cString: cairo_status_to_string(status))), scene.location)
        }
    }

    private static func rasterCanvas(_ scene: RenderTree, scale: Double, time: Double, budget: Double,
                                     images: DecodedImages, glyphs: GlyphOutlineSet,
                                     backend: any CairoBackend = RasterBackend.outlines) throws -> RasterCanvas {
        let (w, h) = pixelSize(of: scene, scale: scale)
        guard w > 0, h > 0, w <= 32767, h <= 32767 else { throw failure(.outputSideTooLong(w, h), scene.location) }
        guard let canvas = RasterCanvas(width: w, height: h) else { throw failure(.cannotAllocateImage(w, h), scene.location) }
        let fontHold = CairoFontAccess.Hold(untilEnd: false)
        defer { fontHold.end() }
        try draw(scene, on: canvas.surface, scale: scale, time: time, backend: backend, budget: budget, images: images, glyphs: glyphs,
                 fontHold: fontHold)
        return canvas
    }

    /// Paints the scene on a Cairo surface (raster or PDF).
    private static func draw(_ scene: RenderTree, on surface: OpaquePointer, scale: Double, time: Double,
                             backend: any CairoBackend, budget limit: Double,
                             images: DecodedImages, glyphs: GlyphOutlineSet, fontHold: CairoFontAccess.Hold) throws {
        guard let cr = cairo_create(surface) else { throw failure(.cairoFailed("no context"), scene.location) }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        let bg = scene.background
        if bg.alpha > 0 {
            cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
            cairo_paint(cr)
        }
        // Groups and masks nested over the whole canvas: four at once (or
        // 16 megapixels' worth on a small canvas) is more than any scene in
        // the examples and docs needs, and bounds memory to a few canvases.
        let canvasPixels = scene.size.width * scale * scene.size.height * scale
        let budget = PaintBudget(limit: limit, maxGroupPixels: max(4 * canvasPixels, 16_000_000))
        let painter = Painter(context: cr, backend: backend, paints: scene.paints, time: time, budget: budget,
                              dither: scene.dither, images: images, glyphs: glyphs,
                              fontHold: fontHold)
        painter.paint(scene.nodes)
        if budget.groupsTooDeep {
            throw failure(.groupsTooDeep(budget.maxGroupPixels), budget.exceededAt ?? scene.location)
        }
        if budget.remaining < 0 {
            throw failure(.paintBudgetExceeded(budget.limit), budget.exceededAt ?? scene.location)
        }
        if !painter.failures.isEmpty { throw DiagnosticsError(painter.failures) }
        try check(cairo_status(cr), scene)
    }
}
