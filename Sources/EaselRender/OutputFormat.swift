/// What `render` produces. PNG is raster at the scene's scale; PDF and SVG
/// are vectors at point size (1 scene point = 1 PDF point = 1 SVG user unit).
public enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf, svg

    /// The format a file name implies, from its extension.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }
}
