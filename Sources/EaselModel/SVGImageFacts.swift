/// What the parser learnt of an SVG used as an image, checked before
/// anything draws it: its size, and the counts the scene's limits hold it to.
public struct SVGImageFacts: Hashable, Sendable {
    /// Intrinsic size in points (an SVG user unit is a point), with the
    /// aspect of its `viewBox` where it has one.
    public var width: Double
    public var height: Double
    /// Elements after `<use>` references are expanded: what it adds to the
    /// scene's node count.
    public var elements: Int
    /// Filter primitives after expansion: each may touch every pixel of its
    /// region (the paint budget charges them by the image's area).
    public var filterPrimitives: Int
    /// Its deepest nesting (the root is 1).
    public var depth: Int
    /// The characters of its text, in document order (checked against the
    /// scene's fonts and counted against the text limit).
    public var text: String

    public init(width: Double, height: Double, elements: Int, filterPrimitives: Int, depth: Int, text: String) {
        self.width = width; self.height = height; self.elements = elements
        self.filterPrimitives = filterPrimitives; self.depth = depth; self.text = text
    }

    /// Whether it draws text (its draw then uses the scene's fonts).
    public var hasText: Bool { text.contains { !$0.isWhitespace } }
}
