import EaselLayout
import EaselModel
import EaselParse
import EaselRender
import FoundationEssentials
/// What a character that no font of a compile covers is (`--missing-glyphs`).
public enum MissingGlyphs: String, Sendable, CaseIterable {
    /// A located warning; the character is drawn as an empty box.
    case warning
    /// A located error: the scene writes nothing (`easel build`'s default).
    case error
}
