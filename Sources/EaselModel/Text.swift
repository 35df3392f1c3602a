/// How lines sit in a text's width: `leading` is left for left-to-right text.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable { case leading, center, trailing }

public enum FontStyle: String, Hashable, Sendable, CaseIterable { case normal, italic, oblique }

/// CSS font weights by name; numbers 100–900 are accepted too.
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
}

/// A font as written: a Pango-style `font` description, overridden field
/// by field by the separate attributes.
public struct FontSpec: Hashable, Sendable {
    public var description: String?
    public var family: String?
    public var size: Double?
    public var weight: Int?
    public var style: FontStyle?
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
