import CCairo
import EaselLayout
import EaselModel
import Foundation

/// Paints a laid-out scene into PNG, PDF or SVG bytes, in memory.
public enum SceneRenderer {
    /// Pixel size of a raster render: points × scale, rounded up.
    public static func pixelSize(of scene: LaidOutScene, scale: Double) -> (width: Int, height: Int) {
        func side(_ v: Double) -> Int { v.isFinite && v < 1e9 ? Int(v.rounded(.up)) : Int(1e9) }
        return (side(scene.size.width * scale), side(scene.size.height * scale))
    }

    /// `maxPaintedPixels` bounds the painting work (see `Limits`).
    public static func render(_ scene: LaidOutScene, format: OutputFormat, scale: Double? = nil,
                              maxPaintedPixels: Double = .infinity) throws -> [UInt8] {
        switch format {
        case .png:
            let surface = try rasterSurface(scene, scale: scale ?? scene.scale, budget: maxPaintedPixels)
            defer { cairo_surface_destroy(surface) }
            let sink = ByteSink()
            let status = cairo_surface_write_to_png_stream(surface, ByteSink.write, sink.opaque)
            guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(String(cString: cairo_status_to_string(status))) }
            return sink.bytes
        case .pdf, .svg:
            let sink = ByteSink()
            let w = scene.size.width, h = scene.size.height
            guard let surface = format == .pdf
                ? cairo_pdf_surface_create_for_stream(ByteSink.write, sink.opaque, w, h)
                : cairo_svg_surface_create_for_stream(ByteSink.write, sink.opaque, w, h) else {
                throw RenderError("cannot create a \(format.rawValue) surface")
            }
            defer { cairo_surface_destroy(surface) }
            if format == .pdf {
                // Fixed metadata: the same scene gives byte-identical files.
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Easel")
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "")
            } else {
                cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_USER)
            }
            let overlays = try draw(scene, on: surface, scale: 1, format: format, budget: maxPaintedPixels)
            cairo_surface_finish(surface)
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(String(cString: cairo_status_to_string(status))) }
            return format == .svg ? SVGTextLayer.insert(overlays, into: SVGIdentifiers.normalize(sink.bytes)) : sink.bytes
        }
    }

    /// A raster render without PNG encoding.
    public static func renderImage(_ scene: LaidOutScene, scale: Double? = nil,
                                   maxPaintedPixels: Double = .infinity) throws -> RasterImage {
        let surface = try rasterSurface(scene, scale: scale ?? scene.scale, budget: maxPaintedPixels)
        defer { cairo_surface_destroy(surface) }
        return RasterImage(surface: surface)
    }

    private static func rasterSurface(_ scene: LaidOutScene, scale: Double, budget: Double) throws -> OpaquePointer {
        let (w, h) = pixelSize(of: scene, scale: scale)
        guard w > 0, h > 0, w <= 32767, h <= 32767 else {
            throw RenderError("the output would be \(w)×\(h) pixels; Cairo draws at most 32767 on a side")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw RenderError("cannot allocate a \(w)×\(h) image")
        }
        do {
            _ = try draw(scene, on: surface, scale: scale, format: .png, budget: budget)
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        return surface
    }

    /// Paints the scene; returns the text to add to SVG output.
    @discardableResult
    private static func draw(_ scene: LaidOutScene, on surface: OpaquePointer, scale: Double,
                             format: OutputFormat, budget limit: Double) throws -> [SVGTextOverlay] {
        guard let cr = cairo_create(surface) else { throw RenderError("cannot create a Cairo context") }
        defer { cairo_destroy(cr) }
        cairo_scale(cr, scale, scale)
        let bg = scene.background
        if bg.alpha > 0 {
            cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
            cairo_paint(cr)
        }
        let budget = PaintBudget(limit: limit)
        let painter = Painter(context: cr, format: format, budget: budget)
        painter.paint(scene.nodes)
        if budget.remaining < 0 {
            let at = budget.exceededAt.map { "\($0): " } ?? ""
            throw RenderError("\(at)error: painting this scene covers more than \(budget.limit.wholeNumberText) pixels in all (raise the limit with --max-paint)")
        }
        if !painter.failures.isEmpty { throw RenderError(painter.failures.joined(separator: "\n")) }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(String(cString: cairo_status_to_string(status))) }
        return painter.textOverlays
    }
}
