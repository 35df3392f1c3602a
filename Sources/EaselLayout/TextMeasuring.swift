import EaselModel

/// What layout asks of a text engine, so it can be tested without Pango.
public struct TextRequest: Hashable, Sendable {
    public var text: String
    public var font: FontSpec
    /// Lines wrap at this width; `nil`: one line per source line.
    public var wrapWidth: Double?
    public var align: TextAlignment
    public var lineSpacing: Double
    public var maxLines: Int?

    public init(text: String, font: FontSpec, wrapWidth: Double?, align: TextAlignment, lineSpacing: Double, maxLines: Int?) {
        self.text = text; self.font = font; self.wrapWidth = wrapWidth
        self.align = align; self.lineSpacing = lineSpacing; self.maxLines = maxLines
    }
}

public struct TextMeasurement: Hashable, Sendable {
    /// The logical size of the laid-out text (what frames use).
    public var size: Size
    /// The union of the lines' logical extents, in the text's own space:
    /// what a gradient on the text spans.
    public var lineBounds: Rect
    /// The text as it will be drawn: with `maxLines`, cut after the last
    /// kept line, which ends with an ellipsis.
    public var displayText: String

    public init(size: Size, lineBounds: Rect, displayText: String) {
        self.size = size; self.lineBounds = lineBounds; self.displayText = displayText
    }
}

/// Measures text. `EaselRender` implements it with Pango; tests use a
/// fixed-advance stand-in.
public protocol TextMeasuring {
    func measure(_ request: TextRequest) -> TextMeasurement
}
