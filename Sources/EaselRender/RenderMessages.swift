import EaselModel

/// What painting and encoding can report. Each is a located `Diagnostic`
/// (the node being painted, or the scene) that the CLI formats.
extension Diagnostic.Message {
    package static func paintBudgetExceeded(_ limit: Double) -> Self {
        .init(.workTooLarge, "painting this scene would cost more than \(limit.wholeNumberText) paint units (about \(CFormat.string("%.1f", limit / 1e9)) s; raise the limit with --max-paint)")
    }
    static func groupsTooDeep(_ pixels: Double) -> Self {
        .init(.workTooLarge, "translucent groups and clip masks nested here would hold more than \(pixels.wholeNumberText) pixels at once (flatten the nesting, or lower the scale)")
    }
    package static func cannotDecodePNG(_ path: String) -> Self { .init(.unreadableFile, "cannot decode the PNG '\(path)'") }
    static func svgLayersTooLarge(_ path: String, _ pixels: Double, _ surfaces: Double) -> Self {
        .init(.workTooLarge, "the SVG '\(path)' would cover \(pixels.rounded().wholeNumberText) device pixels with \(Int(surfaces)) layers or filter surfaces at once, more than \(PaintCost.maxSVGSurfacePixels.wholeNumberText) pixels in all (librsvg sizes them by the whole image, not what shows of it); draw it smaller or at a lower scale")
    }
    static func svgPatternTileTooLarge(_ path: String, _ pixels: Double) -> Self {
        .init(.workTooLarge, "the SVG '\(path)' has a pattern whose tile would be drawn over \(pixels.rounded().wholeNumberText) device pixels, more than \(PaintCost.maxSVGPatternTilePixels.wholeNumberText) (librsvg draws a tile at its full size); draw it smaller or at a lower scale")
    }
    package static func cannotDrawSVG(_ path: String, _ problem: String) -> Self { .init(.invalidData, "librsvg cannot draw the SVG '\(path)': \(problem)") }
    static func cannotDrawFont(_ path: String) -> Self { .init(.unusableFont, "Cairo cannot draw glyphs from the font '\(path)'") }
    static func outputSideTooLong(_ w: Int, _ h: Int) -> Self {
        .init(.outputTooLarge, "the output would be \(w)×\(h) pixels; Cairo draws at most 32767 on a side")
    }
    static func shapeBeyondCairosRange(_ reach: Double) -> Self {
        let far = reach.isFinite ? reach.wholeNumberText : "an infinite distance"
        return .init(.outputTooLarge, "this shape reaches \(far) device pixels from the origin; Cairo draws within ±4,000,000 here (a coordinate, a curve's control point, a stroke's width or a graph value far outside its axis)")
    }
    static func cannotAllocateImage(_ w: Int, _ h: Int) -> Self { .init(.renderFailed, "cannot allocate a \(w)×\(h) image") }
    static func cannotCreateSurface(_ format: OutputFormat) -> Self { .init(.renderFailed, "cannot create a \(format.rawValue) surface") }
    static func cairoFailed(_ reason: String) -> Self { .init(.renderFailed, "Cairo failed: \(reason)") }
    static func variationsNotSet(_ font: String) -> Self {
        .init(.renderFailed, "FreeType would not set the axes of the variable font '\(font)', so the PDF cannot draw its instance")
    }
    static func cannotTagPDF(_ reason: String) -> Self { .init(.renderFailed, "cannot write the PDF in Display P3 (qpdf: \(reason))") }
    static func cannotMakePaint(_ reason: String) -> Self { .init(.renderFailed, "Cairo cannot make this element's paint: \(reason)") }
    static func notInVectorDrawable(_ why: String) -> Self { .init(.notExpressible, "cannot write this as a VectorDrawable: \(why)") }
    static let pngEncodingFailed = Self(.renderFailed, "could not compress the PNG (libdeflate)")
}
