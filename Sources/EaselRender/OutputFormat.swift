/// What `render` produces. PNG is raster at the scene's scale; PDF and SVG
/// are vectors at point size (1 scene point = 1 PDF point = 1 SVG user unit).
public enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf, svg

    /// The format a file name implies, from its extension.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }
}

/// What painting does differently for each output: the one place the
/// painter asks which format it paints for.
extension OutputFormat {
    /// Raster output: a translucent group's layer is clipped to the group's
    /// bounds (a smaller surface, the same pixels). Vector output keeps
    /// groups as they are, since a clip there would be written to the file.
    var boundsLayers: Bool { self == .png }
    /// Pattern tiles are recorded as vectors (PDF, SVG), or rasterised at
    /// the device resolution they are drawn at (PNG).
    var tilesAsVectors: Bool { self != .png }
    /// Text is also written as invisible real text over its glyphs, so it
    /// can be selected and found (SVG).
    var overlaysText: Bool { self == .svg }
    /// Animated paints can be written as SMIL animations (SVG).
    var animates: Bool { self == .svg }
}
