import FoundationEssentials

/// Outline geometry in absolute coordinates: every shape (rects, ellipses,
/// polygons, SVG path data) is reduced to these four elements before painting,
/// as usvg reduces shapes to paths.
public struct BezierPath: Hashable, Sendable {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case cubic(Point, Point, Point)
        case close
    }

    public private(set) var elements: [Element] = []
    private var subpathStart = Point.zero
    private var current = Point.zero

    public init() {}

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: Point) {
        elements.append(.move(p)); subpathStart = p; current = p
    }

    public mutating func line(to p: Point) {
        elements.append(.line(p)); current = p
    }

    public mutating func curve(to p: Point, control1: Point, control2: Point) {
        elements.append(.cubic(control1, control2, p)); current = p
    }

    public mutating func quad(to p: Point, control q: Point) {
        let c1 = current + (q - current) * (2.0 / 3.0)
        let c2 = p + (q - p) * (2.0 / 3.0)
        curve(to: p, control1: c1, control2: c2)
    }

    public mutating func close() {
        elements.append(.close); current = subpathStart
    }

    /// Room for `count` elements more, for a path built from many shapes.
    public mutating func reserveCapacity(adding count: Int) {
        elements.reserveCapacity(elements.count + count)
    }

    /// A closed rectangle, as `rect(_:)` draws it: along x, down y, back.
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY))
        line(to: Point(r.maxX, r.minY))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.minX, r.maxY))
        close()
    }

    public mutating func append(_ other: BezierPath) {
        for e in other.elements {
            switch e {
            case .move(let p): move(to: p)
            case .line(let p): line(to: p)
            case .cubic(let c1, let c2, let p): curve(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }

    public func applying(_ t: AffineTransform) -> BezierPath {
        var out = BezierPath()
        for e in elements {
            switch e {
            case .move(let p): out.move(to: t.apply(p))
            case .line(let p): out.line(to: t.apply(p))
            case .cubic(let c1, let c2, let p): out.curve(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
            case .close: out.close()
            }
        }
        return out
    }

    /// The box of every point the path names, curves' control points
    /// included (what a rasteriser is given, where `boundingBox` is what
    /// the path covers); nil for an empty path, all NaN if a point is not
    /// a number (`min` and `max` would pass over it).
    public var controlBounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        var notANumber = false
        func add(_ p: Point) {
            if p.x.isNaN || p.y.isNaN { notANumber = true }
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        for e in elements {
            switch e {
            case .move(let p), .line(let p): add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        if notANumber { return Rect(x: .nan, y: .nan, width: .nan, height: .nan) }
        return minX <= maxX ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }

    /// The tight box of the geometry: curve extrema, not control points,
    /// as the contract asks for a shape's bounding box. `nil` when empty.
    public var boundingBox: Rect? {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        func between(_ v: Double, _ a: Double, _ b: Double) -> Bool { v >= min(a, b) && v <= max(a, b) }
        var cur = Point.zero, start = Point.zero
        for e in elements {
            switch e {
            case .move(let p): add(p); cur = p; start = p
            case .line(let p): add(p); cur = p
            case .close: cur = start
            case .cubic(let c1, let c2, let p):
                add(p)
                // A control point outside its end points' range is the only way a curve leaves their box.
                let curve = (cur, c1, c2, p)
                if !(between(c1.x, cur.x, p.x) && between(c2.x, cur.x, p.x)) {
                    BezierPath.forEachExtremum(cur.x, c1.x, c2.x, p.x) { add(BezierPath.point(on: curve, at: $0)) }
                }
                if !(between(c1.y, cur.y, p.y) && between(c2.y, cur.y, p.y)) {
                    BezierPath.forEachExtremum(cur.y, c1.y, c2.y, p.y) { add(BezierPath.point(on: curve, at: $0)) }
                }
                cur = p
            }
        }
        guard minX.isFinite else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    static func point(on c: (Point, Point, Point, Point), at t: Double) -> Point {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return Point(w0 * c.0.x + w1 * c.1.x + w2 * c.2.x + w3 * c.3.x,
                     w0 * c.0.y + w1 * c.1.y + w2 * c.2.y + w3 * c.3.y)
    }

    /// Each root in (0,1) of the derivative of a 1-D cubic Bézier (no
    /// array: bounding boxes are asked for every shape of a scene).
    static func forEachExtremum(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double, _ body: (Double) -> Void) {
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        func report(_ t: Double) { if t > 0 && t < 1 { body(t) } }
        if abs(a) < 1e-12 {
            if abs(b) > 1e-12 { report(-c / b) }
        } else {
            let disc = b * b - 4 * a * c
            if disc >= 0 {
                let s = disc.squareRoot()
                report((-b + s) / (2 * a))
                report((-b - s) / (2 * a))
            }
        }
    }
}

extension BezierPath {
    /// Approximation constant for a quarter circle by one cubic.
    public static let kappa = 0.5522847498307936

    /// An ellipse inscribed in `rect`, starting at its rightmost point and
    /// running clockwise on screen (SVG 2), which fixes where dashes start.
    /// A rectangle, clockwise from its top-left corner.
    public static func rect(_ r: Rect) -> BezierPath {
        var p = BezierPath()
        p.addRect(r)
        return p
    }

    public static func ellipse(in rect: Rect) -> BezierPath {
        let cx = rect.center.x, cy = rect.center.y
        let rx = rect.width / 2, ry = rect.height / 2
        let kx = rx * kappa, ky = ry * kappa
        var p = BezierPath()
        p.move(to: Point(cx + rx, cy))
        p.curve(to: Point(cx, cy + ry), control1: Point(cx + rx, cy + ky), control2: Point(cx + kx, cy + ry))
        p.curve(to: Point(cx - rx, cy), control1: Point(cx - kx, cy + ry), control2: Point(cx - rx, cy + ky))
        p.curve(to: Point(cx, cy - ry), control1: Point(cx - rx, cy - ky), control2: Point(cx - kx, cy - ry))
        p.curve(to: Point(cx + rx, cy), control1: Point(cx + kx, cy - ry), control2: Point(cx + rx, cy - ky))
        p.close()
        return p
    }

    /// A rectangle with per-corner radii, starting on the top edge after the
    /// top-left corner and running clockwise (SVG 2). Radii that do not fit
    /// shrink together by one factor, as CSS `border-radius` does.
    public static func roundedRect(_ rect: Rect, radii: CornerRadii) -> BezierPath {
        let r = radii.fitted(to: rect.size)
        let x0 = rect.minX, y0 = rect.minY, x1 = rect.maxX, y1 = rect.maxY
        var p = BezierPath()
        p.move(to: Point(x0 + r.topLeft, y0))
        p.line(to: Point(x1 - r.topRight, y0))
        if r.topRight > 0 {
            p.curve(to: Point(x1, y0 + r.topRight),
                    control1: Point(x1 - r.topRight * (1 - kappa), y0),
                    control2: Point(x1, y0 + r.topRight * (1 - kappa)))
        }
        p.line(to: Point(x1, y1 - r.bottomRight))
        if r.bottomRight > 0 {
            p.curve(to: Point(x1 - r.bottomRight, y1),
                    control1: Point(x1, y1 - r.bottomRight * (1 - kappa)),
                    control2: Point(x1 - r.bottomRight * (1 - kappa), y1))
        }
        p.line(to: Point(x0 + r.bottomLeft, y1))
        if r.bottomLeft > 0 {
            p.curve(to: Point(x0, y1 - r.bottomLeft),
                    control1: Point(x0 + r.bottomLeft * (1 - kappa), y1),
                    control2: Point(x0, y1 - r.bottomLeft * (1 - kappa)))
        }
        p.line(to: Point(x0, y0 + r.topLeft))
        if r.topLeft > 0 {
            p.curve(to: Point(x0 + r.topLeft, y0),
                    control1: Point(x0, y0 + r.topLeft * (1 - kappa)),
                    control2: Point(x0 + r.topLeft * (1 - kappa), y0))
        }
        p.close()
        return p
    }
}

/// Corner radii in CSS order: top-left, top-right, bottom-right, bottom-left.
public struct CornerRadii: Hashable, Sendable {
    public var topLeft, topRight, bottomRight, bottomLeft: Double
    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight
        self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }
    public init(all r: Double) { self.init(topLeft: r, topRight: r, bottomRight: r, bottomLeft: r) }
    public static let zero = CornerRadii(all: 0)

    public var isZero: Bool { topLeft == 0 && topRight == 0 && bottomRight == 0 && bottomLeft == 0 }

    /// CSS Backgrounds §5.5: scale all radii by the smallest factor that makes
    /// every pair of adjacent radii fit its side.
    public func fitted(to size: Size) -> CornerRadii {
        var f = 1.0
        func limit(_ side: Double, _ sum: Double) { if sum > side, sum > 0 { f = min(f, side / sum) } }
        limit(size.width, topLeft + topRight)
        limit(size.width, bottomLeft + bottomRight)
        limit(size.height, topLeft + bottomLeft)
        limit(size.height, topRight + bottomRight)
        return CornerRadii(topLeft: topLeft * f, topRight: topRight * f,
                           bottomRight: bottomRight * f, bottomLeft: bottomLeft * f)
    }

    /// Radii of the same shape inset by `d` (a stroke kept inside a box).
    public func inset(by d: Double) -> CornerRadii {
        CornerRadii(topLeft: max(0, topLeft - d), topRight: max(0, topRight - d),
                    bottomRight: max(0, bottomRight - d), bottomLeft: max(0, bottomLeft - d))
    }
}
