import CCairo
import CPangoCairo
import CRsvg
import EaselLayout
import EaselModel

/// SVG images as librsvg documents: parsed once per render from the bytes
/// the parser read and checked (`SVGImageReader`), never from a file, so
/// librsvg has no base to resolve a reference against — it loads nothing
/// but `data:` pictures — and keeps its own limits (no
/// `RSVG_HANDLE_FLAG_UNLIMITED`). A render's painters share one per
/// image file: every `<image>` of it draws from the same parse. librsvg's
/// handles are not for two threads at once, so renders do not share them.
final class SVGImageDocuments {
    private var handles: [Int: [(identity: UInt, handle: UnsafeMutablePointer<RsvgHandle>)]] = [:]

    /// Pictures of SVG images in device pixels, by file and device
    /// transform (`Painter.drawVector`): drawn once, painted per use.
    struct PictureKey: Hashable {
        var digest: Int
        /// The file's bytes by their storage (`identity(of:)`), so that a
        /// lookup never hashes or compares a whole file.
        var identity: UInt
        /// The image's intrinsic box to device pixels, its translation
        /// reduced to the fraction of a pixel (the picture's own origin is
        /// a whole pixel).
        var xx, yx, xy, yy, x0, y0: Double
        var width, height: Int32
    }
    private var pictures: [PictureKey: OpaquePointer] = [:]
    private(set) var picturePixels = 0
    /// Pictures held by one render, in pixels (4 bytes each): past it an
    /// image is drawn directly at each use.
    static let maxPicturePixels = 16 << 20

    /// The PangoCairo font map librsvg's text is laid out with, over the
    /// scene's fonts: made at the first text this render draws.
    private var fontMap: (fonts: ObjectIdentifier, map: UnsafeMutablePointer<PangoFontMap>)?

    deinit {
        for list in handles.values { for entry in list { g_object_unref(UnsafeMutableRawPointer(entry.handle)) } }
        for surface in pictures.values { cairo_surface_destroy(surface) }
        if let fontMap {
            pango_fc_font_map_set_config(OpaquePointer(fontMap.map), nil)
            g_object_unref(UnsafeMutableRawPointer(fontMap.map))
        }
    }

    /// The storage of an image's bytes: every `<image>` of one file holds
    /// the same array (the parser reads each file once), and the scene
    /// holds it for as long as it is rendered.
    static func identity(of bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// The parsed document, or librsvg's message when it cannot read it.
    /// `parse` runs before a first parse and may refuse it (the budget).
    func handle(for source: ImageSource, parse: () -> Bool = { true }) -> Result<UnsafeMutablePointer<RsvgHandle>, SVGImageProblem> {
        let identity = Self.identity(of: source.data)
        if let known = handles[source.digest]?.first(where: { $0.identity == identity }) { return .success(known.handle) }
        guard parse() else { return .failure(SVGImageProblem(text: "the paint budget is spent")) }
        switch Self.load(source.data) {
        case .failure(let problem): return .failure(problem)
        case .success(let handle):
            handles[source.digest, default: []].append((identity, handle))
            return .success(handle)
        }
    }

    /// The picture for `key`, drawn by `draw` the first time (nil: nothing
    /// to keep — `draw` failed, or the pictures are full).
    func picture(_ key: PictureKey, draw: () -> OpaquePointer?) -> OpaquePointer? {
        if let known = pictures[key] { return known }
        let pixels = Int(key.width) * Int(key.height)
        guard picturePixels + pixels <= Self.maxPicturePixels, let made = draw() else { return nil }
        pictures[key] = made
        picturePixels += pixels
        return made
    }

    static func load(_ bytes: [UInt8]) -> Result<UnsafeMutablePointer<RsvgHandle>, SVGImageProblem> {
        var error: UnsafeMutablePointer<GError>?
        let handle = bytes.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }
        guard let handle else { return .failure(SVGImageProblem(text: Self.message(error))) }
        // Physical units inside the SVG at 96 per inch, as the parser sized it.
        rsvg_handle_set_dpi(handle, 96)
        return .success(handle)
    }

    static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        guard let text = error?.pointee.message else { return "librsvg could not read it" }
        return String(cString: text).trimmingSpaces
    }

    /// Draws `handle` into (0, 0, width, height) of `cr`'s user space, with
    /// text from `fonts` (the scene's): librsvg lays text out with the
    /// thread's default PangoCairo font map, which is set to one over the
    /// scene's fontconfig configuration for the draw, and only on this
    /// thread — other renders are not held. Returns librsvg's error.
    func draw(_ handle: UnsafeMutablePointer<RsvgHandle>, on cr: OpaquePointer, width: Double, height: Double,
              fonts: FontSet?) -> String? {
        var map: UnsafeMutablePointer<PangoFontMap>?
        if let fonts {
            if fontMap?.fonts != ObjectIdentifier(fonts) {
                if let old = fontMap {
                    pango_fc_font_map_set_config(OpaquePointer(old.map), nil)
                    g_object_unref(UnsafeMutableRawPointer(old.map))
                }
                let made = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
                pango_fc_font_map_set_config(OpaquePointer(made), fonts.config)
                fontMap = (ObjectIdentifier(fonts), made)
            }
            map = fontMap?.map
            pango_cairo_font_map_set_default(OpaquePointer(map))
        }
        defer { if map != nil { pango_cairo_font_map_set_default(nil) } }
        PaintingProbe.svgImageDrawn()
        var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 else { return Self.message(error) }
        return nil
    }
}

/// Why librsvg or Cairo could not read or draw an SVG image.
public struct SVGImageProblem: Error { public var text: String }

extension SVGImageDocuments {
    /// Why librsvg may not draw `image` into a vector output's surface
    /// (Cairo's SVG surface, at 1 pixel per unit for its layers and
    /// filters), or nil: the surfaces one image holds at once, and a
    /// pattern tile at its largest inner scale.
    static func vectorDrawRefusal(_ image: ImageDrawing, _ svg: SVGImageFacts) -> Diagnostic.Message? {
        let d = image.destination
        let pixels = d.width * d.height
        let surfaces = PaintCost.svgSurfaces(svg.work)
        if surfaces > 0, pixels * (surfaces + 1) > PaintCost.maxSVGSurfacePixels {
            return .svgLayersTooLarge(image.source.path, pixels, surfaces)
        }
        let (iw, ih) = image.source.intrinsicSize
        let scale = max(d.width / iw, d.height / ih)
        let tilePixels = svg.work.patternTileArea * scale * scale
        if tilePixels > PaintCost.maxSVGPatternTilePixels {
            return .svgPatternTileTooLarge(image.source.path, tilePixels)
        }
        return nil
    }
}
