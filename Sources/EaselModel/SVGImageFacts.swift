/// What the parser learnt of an SVG used as an image, checked before
/// anything draws it: its size, and the work librsvg's draw of it can do —
/// what the scene's limits and the paint budget hold it to.
public struct SVGImageFacts: Hashable, Sendable {
    /// Intrinsic size in points (an SVG user unit is a point), with the
    /// aspect of its `viewBox` where it has one.
    public var width: Double
    public var height: Double
    /// Elements in the file, as librsvg parses them (its memory and the
    /// time of every parse follow them).
    public var parsedElements: Int
    /// What each parse of it costs, in paint units: its elements, and its
    /// style rules matched against every element.
    public var parseCost: Double
    /// Its deepest nesting (the root is 1).
    public var depth: Int
    /// The characters of its text, in document order (checked against the
    /// scene's fonts and counted against the text limit).
    public var text: String
    /// What one draw of it does, every reference expanded.
    public var work: SVGDrawWork

    public init(width: Double, height: Double, parsedElements: Int, parseCost: Double, depth: Int, text: String, work: SVGDrawWork) {
        self.width = width; self.height = height; self.parsedElements = parsedElements; self.parseCost = parseCost
        self.depth = depth; self.text = text; self.work = work
    }

    /// Paint units each parse of an element costs (librsvg's, once in the
    /// compile and once per render; `PaintCost.perSVGParsedElement`): the
    /// parser refuses a file whose start tags alone would exceed the
    /// paint budget before reading it into a tree.
    public static let parseCostPerElement = 10_000.0
    /// Per style rule and element, as librsvg matches them: 2,000 rules
    /// over 100,000 elements took 27 s (135 ns a pair).
    public static let parseCostPerRuleMatch = 150.0

    /// Whether it draws text (its draw then uses the scene's fonts).
    public var hasText: Bool { text.contains { !$0.isWhitespace } }
}

/// An upper bound of what drawing an SVG does, with each `<use>`,
/// `url(#id)` and style-sheet reference counted again for what it draws
/// (a reference from a style sheet for every element it could match, a
/// marker for every vertex of what it marks).
public struct SVGDrawWork: Hashable, Sendable {
    /// Elements drawn: what the image adds to the scene's node count.
    public var elements: Double = 0
    /// Filter primitives: each may touch every pixel of the image.
    public var filterPrimitives: Double = 0
    /// Path edges, and the points where a path's own edges cross
    /// (`PathCrossings`): what Cairo's tessellator sweeps.
    public var pathEdges: Double = 0
    public var pathCrossings: Double = 0
    /// Pixels of the `data:` pictures drawn.
    public var embeddedPixels: Double = 0
    /// The length of the paths drawn (user units): with a dash pattern,
    /// each dash is a piece Cairo strokes.
    public var pathLength: Double = 0
    /// The largest pattern tile, in square user units times the square of
    /// the largest scale any transform inside the SVG applies: librsvg
    /// draws a tile at its device size, whatever shows of it.
    public var patternTileArea: Double = 0
    /// Elements drawn through a layer of their own (opacity, a mask, a clip
    /// path, a filter, a pattern fill): each a surface the image's size.
    public var layers: Double = 0
    /// The most such layers one inside another: how many surfaces the
    /// image's size librsvg can hold at once.
    public var layerDepth: Double = 0

    public init() {}

    /// `self` and `other`, drawn one after the other.
    public mutating func add(_ other: SVGDrawWork, times k: Double = 1) {
        elements += k * other.elements
        filterPrimitives += k * other.filterPrimitives
        pathEdges += k * other.pathEdges
        pathCrossings += k * other.pathCrossings
        embeddedPixels += k * other.embeddedPixels
        pathLength += k * other.pathLength
        patternTileArea = max(patternTileArea, other.patternTileArea)
        layers += k * other.layers
        layerDepth = max(layerDepth, other.layerDepth)
    }

    /// Every count held below 10¹⁸ (expansion multiplies).
    public var clamped: SVGDrawWork {
        var w = self
        for path in [\SVGDrawWork.elements, \.filterPrimitives, \.pathEdges, \.pathCrossings, \.embeddedPixels, \.pathLength,
                     \.patternTileArea, \.layers, \.layerDepth] as [WritableKeyPath<SVGDrawWork, Double>] {
            w[keyPath: path] = min(w[keyPath: path], 1e18)
        }
        return w
    }
}
