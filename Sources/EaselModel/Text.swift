/// How lines sit in a text's width: `leading` is left for left-to-right text.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable { case leading, center, trailing }

public enum FontStyle: String, Hashable, Sendable, CaseIterable { case normal, italic, oblique }

/// CSS font weights by name; any number from 1 to 1000 is accepted too
/// (CSS Fonts 4), and on a variable font it is the `wght` axis.
public enum FontWeightName: String, CaseIterable {
    case thin, ultralight, light, normal, medium, semibold, bold, ultrabold, heavy
    public var value: Int {
        switch self {
        case .thin: return 100
        case .ultralight: return 200
        case .light: return 300
        case .normal: return 400
        case .medium: return 500
        case .semibold: return 600
        case .bold: return 700
        case .ultrabold: return 800
        case .heavy: return 900
        }
    }
    /// CSS Fonts 4's range for a numeric weight.
    public static let range: ClosedRange<Double> = 1...1000
}

/// `font-stretch`: the CSS keywords and their widths in percent of normal;
/// any percentage from 50% to 200% is accepted too, and on a variable font
/// it is the `wdth` axis.
public enum FontStretchName: String, CaseIterable {
    case ultraCondensed = "ultra-condensed", extraCondensed = "extra-condensed", condensed
    case semiCondensed = "semi-condensed", normal, semiExpanded = "semi-expanded", expanded
    case extraExpanded = "extra-expanded", ultraExpanded = "ultra-expanded"
    public var percent: Double {
        switch self {
        case .ultraCondensed: return 50
        case .extraCondensed: return 62.5
        case .condensed: return 75
        case .semiCondensed: return 87.5
        case .normal: return 100
        case .semiExpanded: return 112.5
        case .expanded: return 125
        case .extraExpanded: return 150
        case .ultraExpanded: return 200
        }
    }
    public static let range: ClosedRange<Double> = 50...200
}

/// One axis setting of `font-variation="opsz 32, GRAD 50"`: a four-letter
/// OpenType axis tag and its value.
public struct FontVariation: Hashable, Sendable {
    public var tag: String
    public var value: Double
    public init(tag: String, value: Double) { self.tag = tag; self.value = value }
}

/// One name of a `font-family` list: a generic family (the keyword
/// unquoted), or a family by its own name (quoted or not).
public enum FontFamilyName: Hashable, Sendable {
    case generic(GenericFontFamily)
    case named(String)
}

/// A font as written: a Pango-style `font` description, overridden field
/// by field by the separate attributes.
public struct FontSpec: Hashable, Sendable {
    public var description: String?
    /// `font-family`: names tried in order for each character, as in CSS.
    public var families: [FontFamilyName]?
    /// Where `font-family`'s (or else `font`'s) value starts, and each
    /// `font-family` name's offset in it (UTF-8 bytes), for warnings.
    public var familyLocation: SourceLocation?
    public var familyOffsets: [Int] = []
    public var size: Double?
    /// 1–1000.
    public var weight: Int?
    public var style: FontStyle?
    /// Percent of the normal width (`font-stretch`).
    public var stretch: Double?
    public var variations: [FontVariation] = []
    public init() {}

    public static let defaultFamily = "DejaVu Sans"
    public static let defaultSize = 12.0
    /// FreeType gives up on glyphs far larger than this.
    public static let maxSize = 4096.0
}

/// `<text>`: a label.
public struct TextStyle: Hashable, Sendable {
    /// The text with source lines as line breaks (see `SceneBuilder`).
    public var text: String
    public var font = FontSpec()
    public var fill: Paint = .color(.black)
    public var fillOpacity = 1.0
    public var align: TextAlignment = .leading
    public var lineSpacing = 1.0
    public var maxLines: Int?
    /// `paint-bounds="frame"`: gradients span the frame, not the glyphs.
    public var paintsFrame = false
    /// BCP 47 (`ja`, `zh-Hans`), the text's own or the scene's: it steers
    /// font fallback and shaping.
    public var lang: String?
    public init(text: String) { self.text = text }
}

public enum StackAxis: String, Hashable, Sendable {
    case vertical = "vstack", horizontal = "hstack", depth = "zstack"
}

/// Where children sit across a stack (or, for a zstack, in both
/// directions): −1 start, 0 centre, 1 end.
public struct StackAlignment: Hashable, Sendable {
    public var horizontal: Int
    public var vertical: Int
    public init(horizontal: Int, vertical: Int) { self.horizontal = horizontal; self.vertical = vertical }
    public static let center = StackAlignment(horizontal: 0, vertical: 0)
}

public struct StackStyle: Hashable, Sendable {
    public var axis: StackAxis
    public var spacing: Double = 0
    public var alignment: StackAlignment = .center
    public var padding: EdgeInsets = .zero
    public var paint = PaintStyle(fill: .none)
    public var corners: CornerRadii = .zero
    public init(axis: StackAxis) { self.axis = axis }
}
