import EaselModel

/// What a renderer paints, back to front: a closed set of node kinds, as
/// usvg's tree is. Views, stacks, borders, padding, `clip="true"`, repeats
/// and graph layers are already ordinary groups and paths here, so a
/// backend walks it knowing nothing of layout. Made in the layout pass
/// (`DraftNode.split`), beside the geometry.
public struct RenderTree: Sendable {
    public var size: Size
    public var background: Color
    public var nodes: [RenderNode]
    /// Every paint the tree's paths and texts name by `PaintID`.
    public var paints: PaintTable
    /// The `<scene>` element, for errors that belong to no node.
    public var location: SourceLocation
}

public enum RenderNode: Sendable {
    case group(RenderGroup)
    case path(RenderPath)
    case image(RenderImage)
    case text(RenderText)

    /// The element that made the node, for errors while painting it.
    public var location: SourceLocation {
        switch self {
        case .group(let g): return g.location
        case .path(let p): return p.location
        case .image(let i): return i.location
        case .text(let t): return t.location
        }
    }

    /// Where the node can paint, in its parent's space: a box that holds
    /// every pixel it touches (strokes, miters, glyph ink); nil: nothing.
    public var bounds: Rect? {
        switch self {
        case .group(let g): return g.bounds.map { g.transform.isIdentity ? $0 : $0.applying(g.transform) }
        case .path(let p): return p.bounds
        case .image(let i): return i.drawing.clipRect
        case .text(let t): return t.bounds
        }
    }
}

/// Children painted under a transform, then clipped (in the group's own
/// space, after the transform), and composited at `opacity` as one layer
/// when it is below 1.
public struct RenderGroup: Sendable {
    public var location: SourceLocation
    public var transform: AffineTransform
    public var opacity: Double
    public var clip: ResolvedClip?
    public var children: [RenderNode]
    /// The union of the children's bounds, in the group's own space: what
    /// a layer for the group needs to hold. Worked out when asked (only a
    /// translucent group's layer asks), not for every group.
    public var bounds: Rect? {
        children.lazy.compactMap(\.bounds).reduce(nil) { (all: Rect?, next: Rect) in all.map { $0.union(next) } ?? next }
    }

    public init(location: SourceLocation, transform: AffineTransform = .identity, opacity: Double = 1,
                clip: ResolvedClip? = nil, children: [RenderNode]) {
        self.location = location; self.transform = transform; self.opacity = opacity; self.clip = clip
        self.children = children
    }
}

/// A filled and/or stroked path: the fill first, then the stroke.
public struct RenderPath: Sendable {
    public var location: SourceLocation
    public var path: BezierPath
    public var fill: PaintID?
    public var fillRule: FillRule
    public var stroke: StrokeDrawing?
    /// `ShapeDrawing.crossesOnlyNeighbours`.
    public var crossesOnlyNeighbours = false

    public var bounds: Rect? {
        guard fill != nil || stroke != nil, var box = path.boundingBox else { return nil }
        if let stroke {
            // A miter reaches miter-limit half-widths from the path, a square
            // cap √2 half-widths.
            let reach = stroke.width / 2 * max(stroke.miterLimit, 1.5)
            box = Rect(x: box.x - reach, y: box.y - reach, width: box.width + 2 * reach, height: box.height + 2 * reach)
        }
        return box
    }
}

/// Image pixels drawn into `drawing.destination`, clipped to `drawing.clipRect`.
public struct RenderImage: Sendable {
    public var location: SourceLocation
    public var drawing: ImageDrawing
}

/// Glyph runs as layout shaped them, with their fills.
public struct RenderText: Sendable {
    public var location: SourceLocation
    public var drawing: TextDrawing

    /// The lines' and runs' boxes, an em wider on every side for ink
    /// outside them (italic overhangs, accents, decorations).
    public var bounds: Rect? {
        let shaped = drawing.shaped
        guard !shaped.runs.isEmpty || !shaped.lines.isEmpty else { return nil }
        var box = shaped.runs.reduce(shaped.lineBounds) { $0.union($1.logicalBox) }
        let em = shaped.runs.map(\.logicalBox.height).reduce(shaped.fontSize, max)
        box = Rect(x: box.x - em, y: box.y - em, width: box.width + 2 * em, height: box.height + 2 * em)
        return box
    }
}

extension DraftNode {
    /// The node's geometry and what it paints, in one walk: its render
    /// node is a group under its transform, clip and opacity holding its
    /// drawing, then its children (under its padding offset and
    /// `clip="true"`, once per repeat copy), then its border; nil for a
    /// node that cannot show (opacity 0, a collapsed transform). Its text,
    /// if any, goes to `texts`, which the geometry indexes.
    func split(collecting texts: inout [LaidOutText]) -> (LayoutNode, RenderNode?) {
        var geometry = LayoutNode(element: element, id: id, node: node, location: location, frame: frame,
                                  absoluteFrame: absoluteFrame, transform: transform, opacity: opacity, children: [],
                                  copyCount: copies?.count, text: nil)
        if case .text(let t)? = drawing {
            geometry.text = texts.count
            texts.append(LaidOutText(location: location, text: t))
        }
        var renderChildren: [RenderNode] = []
        geometry.children.reserveCapacity(children.count)
        for child in children {
            let (g, r) = child.split(collecting: &texts)
            geometry.children.append(g)
            if let r { renderChildren.append(r) }
        }
        guard opacity > 0, transform.inverted != nil else { return (geometry, nil) }
        return (geometry, .group(RenderGroup(location: location, transform: transform, opacity: opacity, clip: clip,
                                             children: content(renderChildren))))
    }

    /// Drafts of a pattern tile's content as render nodes (their texts to `texts`).
    static func renderNodes(_ drafts: [DraftNode], collecting texts: inout [LaidOutText]) -> [RenderNode] {
        drafts.compactMap { $0.split(collecting: &texts).1 }
    }

    private func content(_ children: [RenderNode]) -> [RenderNode] {
        var content: [RenderNode] = []
        switch drawing {
        case .shapes(let passes)?:
            content += passes.map { pass in
                var path = RenderPath(location: location, path: pass.path, fill: pass.fill, fillRule: pass.fillRule, stroke: pass.stroke)
                path.crossesOnlyNeighbours = pass.crossesOnlyNeighbours
                return .path(path)
            }
        case .image(let image)?:
            content.append(.image(RenderImage(location: location, drawing: image)))
        case .text(let text)?:
            content.append(.text(RenderText(location: location, drawing: text)))
        case nil:
            break
        }
        if !children.isEmpty {
            let copied = copies.map { steps in
                steps.map { RenderNode.group(RenderGroup(location: location, transform: $0, children: children)) }
            } ?? children
            var inner = RenderGroup(location: location, transform: .translation(childOffset.x, childOffset.y), children: copied)
            if let childClip {
                let clip = ResolvedClip(shapes: [ResolvedClip.Shape(path: childClip, rule: .nonzero, clip: [])], within: [])
                inner = RenderGroup(location: location, clip: clip, children: [.group(inner)])
            }
            content.append(.group(inner))
        }
        if let border {
            content.append(.path(RenderPath(location: location, path: border.path, fill: border.fill, fillRule: border.fillRule,
                                            stroke: border.stroke)))
        }
        return content
    }
}
