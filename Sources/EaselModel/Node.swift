/// `transform-origin`: a point in the node's own points, or the centre of
/// its frame (or of its geometry's bounding box, for coordinate shapes).
public enum TransformOrigin: Hashable, Sendable {
    case point(Length, Length)
    case center
}

/// Attributes every node with a box accepts.
public struct CommonAttributes: Hashable, Sendable {
    public var id: String?
    public var x: Length?
    public var y: Length?
    public var width: Length?
    public var height: Length?
    public var opacity: Double = 1
    public var transform: AffineTransform = .identity
    public var transformOrigin: TransformOrigin = .point(.points(0), .points(0))
    public var clipPath: String?
    public var hidden = false
    /// In a stack: this child's share of the main axis's free space.
    public var grow: Double = 0
    public init() {}
}

public enum ImageFit: String, Hashable, Sendable, CaseIterable { case fill, contain, cover }

/// A PNG or SVG file read and checked at parse time, so a missing or
/// unreadable file is reported with the location of its `href`.
public struct ImageSource: Hashable, Sendable {
    public var path: String
    public var data: [UInt8] { didSet { digest = Self.digest(of: data) } }
    /// A PNG's pixels; for an SVG, its intrinsic size rounded up (what the
    /// paint budget charges as its source).
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Set when the file is an SVG (drawn as vectors): what the parser
    /// learnt of it.
    public var vector: SVGImageFacts? {
        get { if case .facts(let f)? = vectorStorage { return f } else { return nil } }
        set { vectorStorage = newValue.map { .facts($0) } }
    }
    /// On the heap: a node holds its image source inline, and layout
    /// recurses once per nesting level with nodes in its frames.
    private var vectorStorage: VectorStorage?
    private indirect enum VectorStorage: Hashable, Sendable { case facts(SVGImageFacts) }
    /// A hash of `data`, taken once: what decoded images are found by,
    /// so that painting an image never hashes its bytes. Seeded per
    /// process, as Swift's hashes are: never written anywhere.
    public private(set) var digest: Int

    public init(path: String, data: [UInt8], pixelWidth: Int, pixelHeight: Int, vector: SVGImageFacts? = nil) {
        self.path = path; self.data = data; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        digest = Self.digest(of: data)
        self.vector = vector
    }

    /// The size `fit` works with, in points: a PNG's pixels, an SVG's
    /// intrinsic size (its aspect from the `viewBox`).
    public var intrinsicSize: (width: Double, height: Double) {
        if let vector { return (vector.width, vector.height) }
        return (Double(pixelWidth), Double(pixelHeight))
    }

    private static func digest(of data: [UInt8]) -> Int {
        var hasher = Hasher()
        data.withUnsafeBytes { hasher.combine(bytes: $0) }
        return hasher.finalize()
    }
}

/// Shapes given by coordinates in their own space (their `x`/`y` translate
/// them). A new coordinate shape is a case here, its geometry in
/// `ShapeGeometry`, its builder, its vocabulary entry and its test.
public enum CoordinateShape: Hashable, Sendable {
    case circle(cx: Length, cy: Length, r: Length)
    case line(x1: Length, y1: Length, x2: Length, y2: Length)
    case polyline([Point])
    case polygon([Point])
    case path(BezierPath)
}

/// What a node is. Each case carries only what that element means; common
/// attributes live in `Node.common`. Switches over it list every case (no
/// `default:`), so a new kind is a compile error wherever it needs handling.
public enum NodeKind: Hashable, Sendable {
    case view(PaintStyle, corners: CornerRadii, padding: EdgeInsets, clip: Bool)
    case rect(PaintStyle, corners: CornerRadii)
    case ellipse(PaintStyle)
    case shape(CoordinateShape, PaintStyle)
    case group
    case `repeat`(count: Int, step: AffineTransform)
    /// `tint`: a paint over the image's frame, shown through the image's coverage.
    case image(ImageSource, fit: ImageFit, tint: Paint?)
    case text(TextStyle)
    case stack(StackStyle)
    case lineGraph(LineGraph)

    /// Fill and stroke of the kinds that have them (text's fill is its own).
    public var paintStyle: PaintStyle? {
        switch self {
        case .view(let s, _, _, _), .rect(let s, _), .ellipse(let s), .shape(_, let s): return s
        case .stack(let style): return style.paint
        case .group, .repeat, .image, .text, .lineGraph: return nil
        }
    }

    /// Coordinate shapes use their own space directly; their x/y translate them.
    public var isCoordinateShape: Bool {
        switch self {
        case .shape: return true
        case .view, .rect, .ellipse, .group, .repeat, .image, .text, .stack, .lineGraph: return false
        }
    }

    /// Text, images and stacks have a size of their own when none is given.
    public var isMeasured: Bool {
        switch self {
        case .text, .image, .stack: return true
        case .view, .rect, .ellipse, .shape, .group, .repeat, .lineGraph: return false
        }
    }

    /// Groups and repeats have no box of their own.
    public var hasBox: Bool {
        switch self {
        case .group, .repeat: return false
        case .view, .rect, .ellipse, .shape, .image, .text, .stack, .lineGraph: return true
        }
    }
}

public struct Node: Hashable, Sendable {
    /// The element name as written, for diagnostics and `easel layout`.
    public var element: String
    public var kind: NodeKind
    public var common: CommonAttributes
    public var children: [Node]
    public var location: SourceLocation
    /// The node's identity: what layout's caches key it by.
    public var nodeID: NodeID

    public init(element: String, kind: NodeKind, common: CommonAttributes = CommonAttributes(),
                children: [Node] = [], location: SourceLocation, nodeID: NodeID) {
        self.element = element; self.kind = kind; self.common = common
        self.children = children; self.location = location; self.nodeID = nodeID
    }
}

/// A node's identity, dense from 0 in the order the parser built the
/// scene's nodes (its tree, pattern tiles, clip paths and graph texts):
/// layout keys its caches by it, not by where the element was written.
public struct NodeID: Hashable, Sendable, Comparable {
    public var index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: NodeID, b: NodeID) -> Bool { a.index < b.index }
}
