import EaselModel

struct Resolver {
    let definitions: Definitions
    let measurer: TextMeasuring
    let context: LayoutContext
    let options: LayoutOptions
    /// The scene's `lang`, for graph labels (texts carry their own).
    let lang: String?
    /// The number and date conventions of graph labels.
    var labelLocale: GraphLocale = .enUS
    var colorSpace: SceneColorSpace = .srgb

    var paints: PaintResolver {
        PaintResolver(definitions: definitions, resolvedStops: context.resolvedStops, paintedColors: context.paintedColors,
                      colorSpace: colorSpace) { id, nodes, tile in
            let key = TileKey(pattern: id, width: tile.width, height: tile.height)
            if let hit = context.tiles[key] { return hit }
            let drafts = nodes.map { self.resolve($0, content: tile, absoluteOrigin: .zero, placed: nil) }
            let laidOut = (index: context.tiles.count, content: DraftNode.renderNodes(drafts, collecting: &context.tileTexts))
            context.tiles[key] = laidOut
            return laidOut
        }
    }

    /// A paint placed on `box` and entered in the scene's table, once per
    /// distinct (paint, opacity, box): every node that paints it names one
    /// entry, so each backend makes one gradient, tile or definition of it.
    private func paint(_ paint: Paint, opacity: Double, box: Rect) -> PaintID? {
        let use = PaintUse(paint: paint, opacity: opacity, box: box)
        if let known = context.paintIDs[use] { return known }
        let id = paints.resolve(paint, opacity: opacity, box: box).map { context.paints.add($0) }
        context.paintIDs[use] = id
        return id
    }

    /// `content` is the parent's content box size; `absoluteOrigin` is where
    /// that content box starts in scene points (ignoring transforms);
    /// `placed` is the frame a stack gave the node, if it is in one.
    func resolve(_ node: Node, content: Size, absoluteOrigin: Point, placed: Rect?) -> DraftNode {
        let c = node.common
        let outer = context.current
        context.current = node.location
        defer { context.current = outer }
        var frame: Rect
        var geometry: BezierPath? = nil
        var ownOrigin = Point.zero        // own space origin in parent content space

        if node.kind.isCoordinateShape {
            geometry = ShapeGeometry.path(for: node.kind, frame: .zero, content: content)
            let bbox = geometry?.boundingBox ?? .zero
            // In a stack, the geometry's box is moved into the slot.
            ownOrigin = placed.map { Point($0.x - bbox.x, $0.y - bbox.y) }
                ?? Point(c.x?.resolve(against: content.width) ?? 0, c.y?.resolve(against: content.height) ?? 0)
            frame = bbox.offsetBy(ownOrigin.x, ownOrigin.y)
        } else if node.kind.hasBox {
            frame = placed ?? {
                let size = sizeInPlainParent(node, content: content)
                return Rect(x: c.x?.resolve(against: content.width) ?? 0, y: c.y?.resolve(against: content.height) ?? 0,
                            width: size.width, height: size.height)
            }()
            ownOrigin = frame.origin
            geometry = ShapeGeometry.path(for: node.kind, frame: frame, content: content)
        } else {
            // group and repeat: no box; their space is the parent's content
            // space (moved to the slot's corner in a stack).
            ownOrigin = placed?.origin ?? .zero
            frame = Rect(x: ownOrigin.x, y: ownOrigin.y, width: placed?.width ?? content.width,
                         height: placed?.height ?? content.height)
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

        var out = DraftNode(element: node.element, id: c.id, node: node.nodeID, location: node.location, frame: frame,
                             absoluteFrame: frame.offsetBy(absoluteOrigin.x, absoluteOrigin.y),
                             transform: transform, opacity: c.hidden ? 0 : c.opacity)
        out.clip = c.clipPath.flatMap { clip(named: $0, box: ownBox.size, visited: []) }

        let inset: EdgeInsets
        switch node.kind {
        case .view(let style, let corners, let padding, let clipChildren):
            (out.drawing, out.border) = boxDrawing(geometry, style: style, corners: corners, size: frame.size)
            inset = padding
            if clipChildren {
                out.childClip = .roundedRect(Rect(x: 0, y: 0, width: frame.width, height: frame.height), radii: corners)
            }
        case .stack(let style):
            (out.drawing, out.border) = boxDrawing(geometry, style: style.paint, corners: style.corners, size: frame.size)
            inset = style.padding
        case .rect(let style, _), .ellipse(let style), .shape(_, let style):
            if let geometry { out.drawing = shapeDrawing(geometry, style: style, box: ownBox) }
            inset = .zero
        case .image(let source, let fit, let tint):
            out.drawing = .image(imageDrawing(source, fit: fit, tint: tint, size: frame.size))
            inset = .zero
        case .text(let style):
            out.drawing = .text(textDrawing(style, frame: frame, wraps: c.width != nil,
                                            height: c.height == nil ? nil : frame.height))
            inset = .zero
        case .lineGraph(let graph):
            let origin = Point(absoluteOrigin.x + frame.x, absoluteOrigin.y + frame.y)
            (out.children, out.plot) = graphLayers(graph, node: node, size: frame.size, absoluteOrigin: origin)
            return out
        case .group:
            inset = .zero
        case .repeat(let count, let step):
            out.copies = copies(count: count, step: step)
            inset = .zero
        }

        var childContent = content
        var childAbsolute = absoluteOrigin
        if node.kind.hasBox && !node.kind.isCoordinateShape {
            out.childOffset = Point(inset.left, inset.top)
            childContent = Rect(x: 0, y: 0, width: frame.width, height: frame.height).insetBy(inset).size
            childAbsolute = Point(absoluteOrigin.x + frame.x + inset.left, absoluteOrigin.y + frame.y + inset.top)
        } else if case .group = node.kind, let placed {
            childAbsolute = Point(absoluteOrigin.x + placed.x, absoluteOrigin.y + placed.y)
        } else if case .repeat = node.kind, let placed {
            childAbsolute = Point(absoluteOrigin.x + placed.x, absoluteOrigin.y + placed.y)
        }

        if case .stack(let style) = node.kind {
            let slots = StackArranger(measure: measure).arrange(node.children, style: style,
                                                                content: (childContent.width, childContent.height)).frames
            out.children = zip(node.children, slots).map {
                resolve($0, content: childContent, absoluteOrigin: childAbsolute, placed: $1)
            }
        } else {
            out.children = node.children.map { resolve($0, content: childContent, absoluteOrigin: childAbsolute, placed: nil) }
        }
        return out
    }

    /// A node's size in a plain parent: what it is given, else its measured
    /// size (text, images, stacks) or the parent's content box (the rest).
    private func sizeInPlainParent(_ node: Node, content: Size) -> Size {
        let w = node.common.width?.resolve(against: content.width)
        let h = node.common.height?.resolve(against: content.height)
        if node.kind.isMeasured { return measure(node, width: w, height: h) }
        return Size(w ?? content.width, h ?? content.height)
    }

    /// The size a node takes when `width`/`height` (if given) are imposed:
    /// text wraps at the width, images keep their aspect ratio, stacks fit
    /// their children; anything else is 0 where nothing is imposed.
    func measure(_ node: Node, width: Double?, height: Double?) -> Size {
        let key = MeasureKey(node: node.nodeID, width: width, height: height)
        if let hit = context.measured[key] { return hit }
        let outer = context.current
        context.current = node.location
        defer { context.current = outer }
        guard context.charge(LayoutWork.perMeasurement) else { return Size(width ?? 0, height ?? 0) }
        context.work.measurements += 1
        let size = measureOnce(node, width: width, height: height)
        context.measured[key] = size
        return size
    }

    private func measureOnce(_ node: Node, width: Double?, height: Double?) -> Size {
        switch node.kind {
        case .text(let style):
            let m = measurer.measure(textRequest(style, wrapWidth: width, height: height).request)
            return Size(width ?? m.width, height ?? m.height)
        case .image(let source, _, _):
            let (iw, ih) = source.intrinsicSize
            switch (width, height) {
            case let (w?, h?): return Size(w, h)
            case let (w?, nil): return Size(w, w * ih / iw)
            case let (nil, h?): return Size(h * iw / ih, h)
            case (nil, nil): return Size(iw, ih)
            }
        case .stack(let style):
            let p = style.padding
            let inner = StackArranger(measure: measure).arrange(
                node.children, style: style,
                content: (width.map { max(0, $0 - p.left - p.right) }, height.map { max(0, $0 - p.top - p.bottom) }))
            return Size(width ?? inner.fitted.width + p.left + p.right, height ?? inner.fitted.height + p.top + p.bottom)
        case .shape(let shape, _):
            let box = ShapeGeometry.path(for: shape, content: .zero).boundingBox ?? .zero
            return Size(width ?? box.width, height ?? box.height)
        case .view, .rect, .ellipse, .group, .repeat, .lineGraph:
            return Size(width ?? 0, height ?? 0)
        }
    }

    /// The request for a text at `wrapWidth`, set at the size `fit` finds
    /// for that width and `height` (the frame's, where it is given).
    func textRequest(_ style: TextStyle, wrapWidth: Double?, height: Double?) -> (request: TextRequest, fit: TextFitter.Result?) {
        var r = TextRequest(text: style.text, font: style.font, wrapWidth: wrapWidth, align: style.align,
                            lineSpacing: style.lineSpacing, maxLines: style.maxLines, lang: style.lang)
        r.spans = style.spans
        r.letterSpacing = style.letterSpacing
        r.direction = style.direction
        guard style.shrinks, let width = wrapWidth else { return (r, nil) }
        let key = FitKey(style: style, width: width, height: height)
        let fit = context.fits[key] ?? TextFitter(measurer: measurer).fit(r, height: height, minFontSize: style.minFontSize)
        context.fits[key] = fit
        r.fontScale = fit.scale
        return (r, fit)
    }

    /// Text is shaped at its frame's width where the scene gives one
    /// (`wraps`), so alignment works inside the frame. A text sized by its
    /// content is shaped as it was measured, unwrapped (a width measured
    /// with letter spacing would wrap its own last letter), then aligned
    /// in its frame where a stack made that wider. `height`: the frame's
    /// height where the scene gives one, which the text must fit.
    func textDrawing(_ style: TextStyle, frame: Rect, wraps: Bool, height: Double?) -> TextDrawing {
        let (request, fit) = textRequest(style, wrapWidth: wraps ? frame.width : nil, height: height)
        var shaped = measurer.shape(request)
        if !wraps, frame.width > shaped.size.width {
            let dx = (frame.width - shaped.size.width) * style.align.offsetFraction(rightToLeft: shaped.rightToLeft)
            if dx > 0 { shaped = shaped.translated(by: dx) }
            shaped.size.width = frame.width
        }
        let box = style.paintsFrame ? Rect(x: 0, y: 0, width: frame.width, height: frame.height) : shaped.lineBounds
        var drawing = TextDrawing(shaped: shaped, fill: paint(style.fill, opacity: style.fillOpacity, box: box), paintBox: box)
        drawing.spanFills = spanFills(style, shaped, textBox: box)
        if let fit {
            drawing.fitting = fit.fitting
        } else {
            drawing.fitting = TextFitting(fontSize: shaped.fontSize, overflow: nil)
            if let height, shaped.size.height > height + 1e-6 {
                var overflow = TextOverflow()
                overflow.excessHeight = shaped.size.height - height
                overflow.frameHeight = height
                drawing.fitting.overflow = overflow
            }
        }
        return drawing
    }

    /// Each span that sets a fill or an opacity paints its runs (those of
    /// spans inside it that set neither among them). Its fill spans the
    /// runs of the span that set that fill: the union of their boxes over
    /// every line. `textBox`: what the text's own fill spans.
    private func spanFills(_ style: TextStyle, _ shaped: ShapedText, textBox: Rect) -> [SpanFill] {
        let spans = style.spans
        guard spans.contains(where: { $0.fill != nil || $0.fillOpacity != nil }), !shaped.runs.isEmpty else { return [] }
        let index = SpanIndex(spans)
        let holder = shaped.runs.map { index.innermost(at: $0.textOffset) }
        // Each span's extent: the union of the boxes of the runs inside it.
        var extent = [Rect?](repeating: nil, count: spans.count)
        for (run, h) in holder.enumerated() {
            guard let h else { continue }
            for s in index.chains[h] { extent[s] = extent[s].map { $0.union(shaped.runs[run].logicalBox) } ?? shaped.runs[run].logicalBox }
        }
        var out: [SpanFill] = []
        var painter: [Int: Int] = [:]   // span → its index in `out`
        for i in spans.indices where spans[i].fill != nil || spans[i].fillOpacity != nil {
            let chain = index.chains[i]
            let owner = chain.first { spans[$0].fill != nil }
            let fill = owner.flatMap { spans[$0].fill } ?? style.fill
            let opacity = chain.lazy.compactMap { spans[$0].fillOpacity }.first ?? style.fillOpacity
            let box = owner.map { extent[$0] ?? .zero } ?? textBox
            painter[i] = out.count
            out.append(SpanFill(fill: paint(fill, opacity: opacity, box: box), box: box, runs: []))
        }
        for (run, h) in holder.enumerated() {
            guard let h, let painted = index.chains[h].first(where: { painter[$0] != nil }) else { continue }
            out[painter[painted]!].runs.append(run)
        }
        return out
    }

    /// A view's fill covers its box and is painted before the children; its
    /// stroke lies inside the box, like a CALayer border, along an outline
    /// inset by half its width, and is painted after them.
    private func boxDrawing(_ geometry: BezierPath?, style: PaintStyle, corners: CornerRadii,
                            size: Size) -> (Drawing?, ShapeDrawing?) {
        guard let geometry else { return (nil, nil) }
        let box = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let fill = paint(style.fill, opacity: style.fillOpacity, box: box).map {
            Drawing.shapes([ShapeDrawing(path: geometry, fill: $0, fillRule: style.fillRule, stroke: nil)])
        }
        // A stroke inside a box with no area has nowhere to go.
        guard size.width > 0, size.height > 0, let stroke = strokeDrawing(style, box: box) else { return (fill, nil) }
        let half = style.strokeWidth / 2
        let outline = BezierPath.roundedRect(box.insetBy(EdgeInsets(top: half, right: half, bottom: half, left: half)),
                                             radii: corners.fitted(to: size).inset(by: half))
        return (fill, ShapeDrawing(path: outline, fill: nil, fillRule: style.fillRule, stroke: stroke))
    }

    /// Copy `i` of a repeat is painted under `step` applied `i` times; a
    /// collapsed step paints nothing from then on, as in SVG.
    private func copies(count: Int, step: AffineTransform) -> [AffineTransform] {
        var out: [AffineTransform] = []
        out.reserveCapacity(count)
        var t = AffineTransform.identity
        for _ in 0..<count {
            guard t.inverted != nil else { break }
            out.append(t)
            t = t.concatenating(step)
        }
        return out
    }

    /// A shape whose paints span `paintBox` rather than its own bounds.
    func shapeDrawing(_ geometry: BezierPath, style: PaintStyle, paintBox: Rect) -> Drawing {
        .shapes([ShapeDrawing(path: geometry, fill: paint(style.fill, opacity: style.fillOpacity, box: paintBox),
                              fillRule: style.fillRule, stroke: strokeDrawing(style, box: paintBox))])
    }

    func shapeDrawing(_ geometry: BezierPath, style: PaintStyle, box: Rect) -> Drawing {
        let bbox = geometry.boundingBox ?? box
        return .shapes([ShapeDrawing(path: geometry, fill: paint(style.fill, opacity: style.fillOpacity, box: bbox),
                                     fillRule: style.fillRule, stroke: strokeDrawing(style, box: bbox))])
    }

    private func strokeDrawing(_ style: PaintStyle, box: Rect) -> StrokeDrawing? {
        guard style.strokeWidth > 0, let p = paint(style.stroke, opacity: style.strokeOpacity, box: box) else { return nil }
        return StrokeDrawing(paint: p, width: style.strokeWidth, cap: style.lineCap, join: style.lineJoin,
                             miterLimit: style.miterLimit, dash: style.dash, dashOffset: style.dashOffset)
    }

    /// Kept out of `resolve`, which recurses once a nesting level: its
    /// frame must stay small (256 levels run under AddressSanitizer).
    @inline(never)
    private func imageDrawing(_ source: ImageSource, fit: ImageFit, tint: Paint?, size: Size) -> ImageDrawing {
        let (iw, ih) = source.intrinsicSize
        let scale: (Double, Double)
        switch fit {
        case .fill: scale = (size.width / iw, size.height / ih)
        case .contain: let s = min(size.width / iw, size.height / ih); scale = (s, s)
        case .cover: let s = max(size.width / iw, size.height / ih); scale = (s, s)
        }
        let w = iw * scale.0, h = ih * scale.1
        let dest = Rect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h)
        let frame = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let paintID = tint.flatMap { $0 == .none ? nil : paint($0, opacity: 1, box: frame) }
        return ImageDrawing(source: source, destination: dest, clipRect: frame, tint: paintID)
    }

    /// A `<clipPath>` resolved in the referring node's own space, its sizes
    /// and percentages against that node's box. Cycles were refused by the
    /// parser; `visited` guards anyway.
    /// Each clip is resolved once per box size in a pass (the cache), and
    /// a shape's own clip once (not again inside `resolve`): a chain of
    /// clip paths each clipped by the next is linear in its length — it
    /// was resolved twice per link, 2^n times in all.
    func clip(named id: String, box: Size, visited: Set<String>) -> ResolvedClip? {
        guard let def = definitions.clipPaths[id], !visited.contains(id) else { return nil }
        let key = ClipKey(id: id, width: box.width, height: box.height)
        if let hit = context.clips[key] { return hit }
        let seen = visited.union([id])
        var shapes: [ResolvedClip.Shape] = []
        for shape in def.shapes where !shape.common.hidden {
            var bare = shape
            bare.common.clipPath = nil
            context.work.clipShapes += 1
            let laid = resolve(bare, content: box, absoluteOrigin: .zero, placed: nil)
            guard case .shapes(let passes)? = laid.drawing, let d = passes.first else { continue }
            let rule = shape.kind.paintStyle?.clipRule ?? .nonzero
            let inner = shape.common.clipPath.flatMap { clip(named: $0, box: laid.frame.size, visited: seen) }
            shapes.append(ResolvedClip.Shape(path: d.path.applying(laid.transform), rule: rule,
                                             clip: inner.map { [$0.applying(laid.transform)] } ?? []))
        }
        let within = def.clipPath.flatMap { clip(named: $0, box: box, visited: seen) }
        let resolved = ResolvedClip(shapes: shapes, within: within.map { [$0] } ?? [])
        context.clips[key] = .some(resolved)
        return resolved
    }
}
