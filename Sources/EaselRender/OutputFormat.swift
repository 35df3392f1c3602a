/// What `render` produces. PNG, WebP and AVIF are raster at the scene's
/// scale; PDF, SVG and Android VectorDrawable are vectors at point size
/// (1 scene point = 1 PDF point = 1 SVG user unit = 1 dp).
public enum OutputFormat: String, CaseIterable, Sendable {
    case png, pdf, svg
    case vectorDrawable = "vector-drawable"
    case webp, avif

    /// The format a file name implies, from its extension (`.xml`: a VectorDrawable).
    public init?(fileExtension: String) {
        let lowered = fileExtension.lowercased()
        if lowered == "xml" { self = .vectorDrawable; return }
        self.init(rawValue: lowered)
    }

    /// The extension of its files.
    public var fileExtension: String { self == .vectorDrawable ? "xml" : rawValue }

    /// Painted at a scale (and named with one in builds: `card@2x.webp`), or drawn at point size.
    public var isRaster: Bool { self == .png || self == .webp || self == .avif }

    /// Takes `--quality` (WebP: lossy at that quality; AVIF: 100 is lossless).
    public var hasQuality: Bool { self == .webp || self == .avif }
}
