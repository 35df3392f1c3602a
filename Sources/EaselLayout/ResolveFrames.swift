import EaselModel

/// The layout pass: gives every node a frame and a transform, reduces shapes
/// to paths and places paints, producing the tree `EaselRender` paints.
public enum LayoutEngine {
    public static func resolveFrames(_ scene: Scene) -> LaidOutScene {
        let resolver = Resolver(definitions: scene.definitions, tiles: TileCache())
        let content = Size(scene.width, scene.height)
        let nodes = scene.nodes.map { resolver.resolve($0, content: content, absoluteOrigin: .zero) }
        return LaidOutScene(size: content, scale: scene.scale, background: scene.background, nodes: nodes)
    }
}

/// Laid-out pattern tiles by pattern and tile size: a tile's content does
/// not depend on where it is used, so each is resolved once.
private final class TileCache {
    var entries: [String: [LayoutNode]] = [:]
}

private struct Resolver {
    let definitions: Definitions
    let tiles: TileCache

    var paints: PaintResolver {
        PaintResolver(definitions: definitions) { id, nodes, tile in
            let key = "\(id)|\(tile.width)|\(tile.height)"
            if let hit = tiles.entries[key] { return hit }
            let laid = nodes.map { self.resolve($0, content: tile, absoluteOrigin: .zero) }
            tiles.entries[key] = laid
            return laid
        }
    }

    /// `content` is the parent's content box size; `absoluteOrigin` is where
    /// that content box starts in scene points (ignoring transforms).
    func resolve(_ node: Node, content: Size, absoluteOrigin: Point) -> LayoutNode {
        let c = node.common
        var frame: Rect
        var geometry: BezierPath? = nil
        var ownOrigin = Point.zero        // own space origin in parent content space

        if node.kind.hasBox && !node.kind.isCoordinateShape {
            let size = boxSize(node, content: content)
            frame = Rect(x: c.x?.resolve(against: content.width) ?? 0, y: c.y?.resolve(against: content.height) ?? 0,
                         width: size.width, height: size.height)
            ownOrigin = frame.origin
            geometry = ShapeGeometry.path(for: node.kind, frame: frame, content: content)
        } else if node.kind.isCoordinateShape {
            ownOrigin = Point(c.x?.resolve(against: content.width) ?? 0, c.y?.resolve(against: content.height) ?? 0)
            geometry = ShapeGeometry.path(for: node.kind, frame: .zero, content: content)
            let bbox = geometry?.boundingBox ?? .zero
            frame = bbox.offsetBy(ownOrigin.x, ownOrigin.y)
        } else {
            // group and repeat: no box; their space is the parent's content space.
            frame = Rect(x: 0, y: 0, width: content.width, height: content.height)
        }

        // The box the node's own space measures: its frame in own coordinates.
        let ownBox = Rect(x: frame.x - ownOrigin.x, y: frame.y - ownOrigin.y, width: frame.width, height: frame.height)
        let origin: Point
        switch c.transformOrigin {
        case .center: origin = ownBox.center
        case .point(let x, let y): origin = Point(x.resolve(against: frame.width), y.resolve(against: frame.height))
        }
        var transform = AffineTransform.translation(ownOrigin.x, ownOrigin.y)
        if case .repeat = node.kind {} else { transform = transform.concatenating(c.transform.about(origin)) }

        var out = LayoutNode(
            element: node.element, id: c.id, location: node.location, frame: frame,
            absoluteFrame: frame.offsetBy(absoluteOrigin.x, absoluteOrigin.y),
            transform: transform, opacity: c.hidden ? 0 : c.opacity,
            clip: c.clipPath.flatMap { clip(named: $0, box: ownBox.size, visited: []) },
            drawing: nil, childOffset: .zero, childClip: nil, children: [], repetition: nil)

        var childContent = content
        var childAbsolute = absoluteOrigin
        switch node.kind {
        case .view(let style, let corners, let padding, let clipChildren):
            out.drawing = boxDrawing(geometry, style: style, corners: corners, size: frame.size)
            out.childOffset = Point(padding.left, padding.top)
            childContent = Rect(x: 0, y: 0, width: frame.width, height: frame.height).insetBy(padding).size
            childAbsolute = Point(absoluteOrigin.x + frame.x + padding.left, absoluteOrigin.y + frame.y + padding.top)
            if clipChildren {
                out.childClip = .roundedRect(Rect(x: 0, y: 0, width: frame.width, height: frame.height), radii: corners)
            }
        case .rect(let style, _), .ellipse(let style), .circle(_, _, _, let style), .line(_, _, _, _, let style),
             .polyline(_, let style), .polygon(_, let style), .path(_, let style):
            if let geometry { out.drawing = shapeDrawing(geometry, style: style, box: ownBox) }
        case .image(let source, let fit):
            out.drawing = .image(imageDrawing(source, fit: fit, size: frame.size))
        case .group:
            break
        case .repeat(let count, let step):
            out.repetition = Repetition(count: count, step: step)
        }

        out.children = node.children.map { resolve($0, content: childContent, absoluteOrigin: childAbsolute) }
        return out
    }

    private func boxSize(_ node: Node, content: Size) -> Size {
        let c = node.common
        let w = c.width?.resolve(against: content.width)
        let h = c.height?.resolve(against: content.height)
        if case .image(let source, _) = node.kind {
            // An image defaults to its pixel size in points; given one side,
            // the other keeps the image's aspect ratio.
            let iw = Double(source.pixelWidth), ih = Double(source.pixelHeight)
            switch (w, h) {
            case let (w?, h?): return Size(w, h)
            case let (w?, nil): return Size(w, w * ih / iw)
            case let (nil, h?): return Size(h * iw / ih, h)
            case (nil, nil): return Size(iw, ih)
            }
        }
        return Size(w ?? content.width, h ?? content.height)
    }

    /// A view's stroke lies inside its box, like a CALayer border: the fill
    /// covers the box, the stroke follows an outline inset by half its width.
    private func boxDrawing(_ geometry: BezierPath?, style: PaintStyle, corners: CornerRadii, size: Size) -> Drawing? {
        guard let geometry else { return nil }
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        var passes: [ShapeDrawing] = []
        if let fill = paints.resolve(style.fill, opacity: style.fillOpacity, box: box) {
            passes.append(ShapeDrawing(path: geometry, fill: fill, fillRule: style.fillRule, stroke: nil))
        }
        // A stroke inside a box with no area has nowhere to go.
        if size.width > 0, size.height > 0, let stroke = strokeDrawing(style, box: box) {
            let half = style.strokeWidth / 2
            let outline = BezierPath.roundedRect(box.insetBy(EdgeInsets(top: half, right: half, bottom: half, left: half)),
                                                 radii: corners.fitted(to: size).inset(by: half))
            passes.append(ShapeDrawing(path: outline, fill: nil, fillRule: style.fillRule, stroke: stroke))
        }
        return passes.isEmpty ? nil : .shapes(passes)
    }

    private func shapeDrawing(_ geometry: BezierPath, style: PaintStyle, box: Rect) -> Drawing {
        let bbox = geometry.boundingBox ?? box
        return .shapes([ShapeDrawing(path: geometry, fill: paints.resolve(style.fill, opacity: style.fillOpacity, box: bbox),
                                     fillRule: style.fillRule, stroke: strokeDrawing(style, box: bbox))])
    }

    private func strokeDrawing(_ style: PaintStyle, box: Rect) -> StrokeDrawing? {
        guard style.strokeWidth > 0, let p = paints.resolve(style.stroke, opacity: style.strokeOpacity, box: box) else { return nil }
        return StrokeDrawing(paint: p, width: style.strokeWidth, cap: style.lineCap, join: style.lineJoin,
                             miterLimit: style.miterLimit, dash: style.dash, dashOffset: style.dashOffset)
    }

    private func imageDrawing(_ source: ImageSource, fit: ImageFit, size: Size) -> ImageDrawing {
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let iw = Double(source.pixelWidth), ih = Double(source.pixelHeight)
        let scale: (Double, Double)
        switch fit {
        case .fill: scale = (size.width / iw, size.height / ih)
        case .contain: let s = min(size.width / iw, size.height / ih); scale = (s, s)
        case .cover: let s = max(size.width / iw, size.height / ih); scale = (s, s)
        }
        let w = iw * scale.0, h = ih * scale.1
        let dest = Rect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h)
        return ImageDrawing(source: source, destination: dest, clipRect: box)
    }

    /// A `<clipPath>` resolved in the referring node's own space, its sizes
    /// and percentages against that node's box. Cycles were refused by the
    /// parser; `visited` guards anyway.
    func clip(named id: String, box: Size, visited: Set<String>) -> ResolvedClip? {
        guard let def = definitions.clipPaths[id], !visited.contains(id) else { return nil }
        let seen = visited.union([id])
        var shapes: [ResolvedClip.Shape] = []
        for shape in def.shapes where !shape.common.hidden {
            let laid = resolve(shape, content: box, absoluteOrigin: .zero)
            guard case .shapes(let passes)? = laid.drawing, let d = passes.first else { continue }
            let rule: FillRule
            switch shape.kind {
            case .rect(let s, _), .ellipse(let s), .circle(_, _, _, let s), .line(_, _, _, _, let s),
                 .polyline(_, let s), .polygon(_, let s), .path(_, let s): rule = s.clipRule
            default: rule = .nonzero
            }
            let inner = shape.common.clipPath.flatMap { clip(named: $0, box: laid.frame.size, visited: seen) }
            shapes.append(ResolvedClip.Shape(path: d.path.applying(laid.transform), rule: rule,
                                             clip: inner.map { [$0.applying(laid.transform)] } ?? []))
        }
        let within = def.clipPath.flatMap { clip(named: $0, box: box, visited: seen) }
        return ResolvedClip(shapes: shapes, within: within.map { [$0] } ?? [])
    }
}
