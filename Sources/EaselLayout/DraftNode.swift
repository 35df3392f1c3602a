import EaselModel

/// A node as the resolver builds it, before `split` separates its
/// geometry (`LayoutNode`) from what it paints (`RenderNode`). Internal:
/// nothing outside layout sees one.
struct DraftNode {
    var element: String
    var id: String?
    var node: NodeID?
    var location: SourceLocation
    var frame: Rect
    var absoluteFrame: Rect
    var transform: AffineTransform
    var opacity: Double
    /// Clips the node and its subtree; in the node's own space.
    var clip: ResolvedClip?
    /// Painted before the children (a view's fill, a shape, text, an image).
    var drawing: Drawing?
    /// A view's or stack's inset stroke, painted after the children, as a
    /// CALayer's border is drawn above its sublayers.
    var border: ShapeDrawing?
    /// Where the children's space starts in the node's own space (padding).
    var childOffset: Point
    /// `clip="true"` on a view: its rounded box, in the node's own space.
    var childClip: BezierPath?
    var children: [DraftNode]
    /// For `<repeat>`: the children are painted once under each transform
    /// (copy `i` under the step applied `i` times; collapsed copies dropped).
    var copies: [AffineTransform]?
    /// A graph's plot box in scene points (for `easel layout`).
    var plot: Rect?

    init(element: String, id: String? = nil, node: NodeID? = nil, location: SourceLocation, frame: Rect, absoluteFrame: Rect,
         transform: AffineTransform = .identity, opacity: Double = 1) {
        self.element = element; self.id = id; self.node = node; self.location = location; self.frame = frame
        self.absoluteFrame = absoluteFrame; self.transform = transform; self.opacity = opacity
        clip = nil; drawing = nil; border = nil; childOffset = .zero; childClip = nil; children = []; copies = nil; plot = nil
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
        geometry.plot = plot
        if case .text(let t)? = drawing {
            geometry.text = texts.count
            texts.append(LaidOutText(location: location, text: ShapedTextLayout(shaped: t.shaped, fitting: t.fitting)))
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
                .path(RenderPath(location: location, path: pass.path, fill: pass.fill, fillRule: pass.fillRule, stroke: pass.stroke,
                                 crossesOnlyNeighbours: pass.crossesOnlyNeighbours, disjointRectangles: pass.disjointRectangles))
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
                let shared = RenderGroup.union(of: children)
                return steps.map { RenderNode.group(RenderGroup(location: location, transform: $0, children: children, childrenBounds: shared)) }
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
