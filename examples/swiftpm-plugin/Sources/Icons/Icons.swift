import Foundation

/// The images the EaselPlugin rendered from this target's scenes.
public enum Icons {
    /// `name` as asset catalogs name files: "badge", "badge@2x".
    public static func url(_ name: String) -> URL? {
        Bundle.module.url(forResource: name, withExtension: "png")
    }
}
