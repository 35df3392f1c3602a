import Foundation

/// The images the EaselPlugin rendered from this target's scenes.
public enum Icons {
    /// `name` as asset catalogs name files: "badge", "badge@2x"; `format`
    /// png or webp (easel-plugin.json asks for both).
    public static func url(_ name: String, format: String = "png") -> URL? {
        Bundle.module.url(forResource: name, withExtension: format)
    }
}
