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

/// A PNG file read and checked at parse time, so a missing or unreadable
/// file is reported with the location of its `href`.
public struct ImageSource: Hashable, Sendable {
    public var path: String
    public var data: [UInt8]
    public var pixelWidth: Int
    public var pixelHeight: Int
    public init(path: String, data: [UInt8], pixelWidth: Int, pixelHeight: Int) {
        self.path = path; self.data = data; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
    }
}

/// What a node is. Each case carries only what that element means; common
/// attributes live in `Node.common`.
public enum NodeKind: Hashable, Sendable {
    case view(PaintStyle, corners: CornerRadii, padding: EdgeInsets, clip: Bool)
    case rect(PaintStyle, corners: CornerRadii)
    case ellipse(PaintStyle)
    case circle(cx: Length, cy: Length, r: Length, PaintStyle)
    case line(x1: Length, y1: Length, x2: Length, y2: Length, PaintStyle)
    case polyline([Point], PaintStyle)
    case polygon([Point], PaintStyle)
    case path(BezierPath, PaintStyle)
    case group
    case `repeat`(count: Int, step: AffineTransform)
    case image(ImageSource, fit: ImageFit)
    case text(TextStyle)
    case stack(StackStyle)
    case lineGraph(LineGraph)

    /// Coordinate shapes use their own space directly; their x/y translate them.
    public var isCoordinateShape: Bool {
        switch self {
        case .circle, .line, .polyline, .polygon, .path: return true
        default: return false
        }
    }

    /// Text, images and stacks have a size of their own when none is given.
    public var isMeasured: Bool {
        switch self {
        case .text, .image, .stack: return true
        default: return false
        }
    }

    /// Groups and repeats have no box of their own.
    public var hasBox: Bool {
        switch self {
        case .group, .repeat: return false
        default: return true
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

    public init(element: String, kind: NodeKind, common: CommonAttributes = CommonAttributes(),
                children: [Node] = [], location: SourceLocation) {
        self.element = element; self.kind = kind; self.common = common
        self.children = children; self.location = location
    }
}
