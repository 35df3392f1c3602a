/// What the Cairo surface a `Painter` paints on can do: the painter asks
/// these, never which output format it paints for. The raster and PDF
/// backends name their targets once (`PaintTarget.raster`, `.pdf`); SVG is
/// written from the render tree by `SVGWriter`, not painted.
package struct PaintTarget: Sendable {
    /// How a conic gradient becomes a Cairo source.
    enum ConicSource: Sendable {
        /// Only the device pixels that show, exactly, dithered as gradients are.
        case devicePixels
        /// A mesh of patches (a vector shading in PDF).
        case mesh
    }
    /// How glyphs are drawn.
    enum Glyphs: Sendable {
        /// Filled as paths from `GlyphOutlines`: no font lock.
        case outlines
        /// With Cairo's glyph API, keeping the characters (selectable text);
        /// under the render's `CairoFontAccess` hold.
        case fontGlyphs
    }

    /// Gradients are dithered (when the scene asks for it).
    var dithers: Bool
    /// A translucent group's layer is clipped to the group's bounds in
    /// device pixels: a smaller surface, the same pixels. (On a vector
    /// surface the clip would be written to the file.)
    var layersHoldBounds: Bool
    /// Pattern tiles are recorded as vectors, or rasterised at the device
    /// resolution they are drawn at.
    var tilesAsVectors: Bool
    /// A paint drawn as an image (a dithered gradient) covers what the
    /// clip shows, not a box: glyph ink reaches past its text's box.
    var imagePaintsCoverClip: Bool
    var conic: ConicSource
    var glyphs: Glyphs

    package static let raster = PaintTarget(dithers: true, layersHoldBounds: true, tilesAsVectors: false, imagePaintsCoverClip: true,
                                    conic: .devicePixels, glyphs: .outlines)
    static let pdf = PaintTarget(dithers: false, layersHoldBounds: false, tilesAsVectors: true, imagePaintsCoverClip: false,
                                 conic: .mesh, glyphs: .fontGlyphs)
    /// Raster output with glyphs drawn through Cairo (tests compare the two).
    package static let rasterWithFontGlyphs: PaintTarget = {
        var target = raster
        target.glyphs = .fontGlyphs
        return target
    }()
}
