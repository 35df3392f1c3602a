import CRsvg
import EaselLayout
import EaselModel
import Glibc

/// Android VectorDrawable output (contract 1.3, "Vector outputs for
/// platforms"), written from the render tree as the SVG writer writes SVG:
/// `android:width`/`height` in dp equal to the scene's points and a
/// viewport of its size; paths with their fills and strokes (a dashed
/// stroke as its dashes, `DashedOutline`, since a VectorDrawable has no
/// dashes); transforms as `<group>`s (`AndroidGroupTransform`); clips as
/// `<clip-path>`s, which Android intersects and applies to the group's
/// later children; gradients as `<aapt:attr>` `<gradient>`s in viewport
/// coordinates; text as its glyph outlines.
///
/// Stripes are their lines clipped to the shape, as the painter draws them.
/// What a VectorDrawable cannot express is an error at the node, never
/// left out: raster images, patterns, opacity over children that overlap
/// (a group has no alpha), a radial gradient's focal point, even-odd clips.
/// Colours are sRGB: a Display P3 scene's colours are converted, those
/// outside sRGB gamut-mapped (`SceneRenderer.colorsOutsideSRGB` counts
/// them for the warning).
final class VectorDrawableWriter {
    var out = ""
    private let paints: PaintTable
    private let time: Double
    private let budget: PaintBudget
    private let glyphs: GlyphOutlineSet
    private let colorSpace: SceneColorSpace
    private var current: SourceLocation?
    var indent = 1
    private(set) var failures: [Diagnostic] = []

    /// Android reads a `pathData` string of at most this many characters
    /// into one path (aapt2 keeps longer ones, some tools do not): a longer
    /// path is split into paths of independent parts.
    static let maxPathDataCharacters = 32_767

    /// The most pieces one dashed stroke may become.
    static let maxDashPieces = 200_000.0

    /// SVG images: parsed once per document, drawn by librsvg into Cairo's
    /// SVG surface and read back as shapes (`SVGImageShapes`); text in them
    /// in the scene's fonts, under Cairo's font lock.
    private let svgDocuments: SVGImageDocuments
    private let svgFonts: FontSet?
    private let fontHold: CairoFontAccess.Hold?

    init(paints: PaintTable, time: Double, budget: PaintBudget, glyphs: GlyphOutlineSet, colorSpace: SceneColorSpace,
         svgDocuments: SVGImageDocuments = SVGImageDocuments(), svgFonts: FontSet? = nil, fontHold: CairoFontAccess.Hold? = nil) {
        self.paints = paints; self.time = time; self.budget = budget; self.glyphs = glyphs; self.colorSpace = colorSpace
        self.svgDocuments = svgDocuments; self.svgFonts = svgFonts; self.fontHold = fontHold
    }

    /// `side`: the drawable's width and height in dp, if not the scene's
    /// size in points (the viewport is the scene's size either way).
    static func document(_ tree: RenderTree, time: Double, budget: PaintBudget, glyphs: GlyphOutlineSet, side: Double? = nil,
                         svgFonts: FontSet? = nil, fontHold: CairoFontAccess.Hold? = nil)
        -> (bytes: [UInt8], failures: [Diagnostic]) {
        let writer = VectorDrawableWriter(paints: tree.paints, time: time, budget: budget, glyphs: glyphs, colorSpace: tree.colorSpace,
                                          svgFonts: svgFonts, fontHold: fontHold)
        let vw = VectorDrawableNumber.format(tree.size.width), vh = VectorDrawableNumber.format(tree.size.height)
        let w = side.map(VectorDrawableNumber.format) ?? vw, h = side.map(VectorDrawableNumber.format) ?? vh
        writer.out += "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        writer.out += "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\""
        writer.out += " xmlns:aapt=\"http://schemas.android.com/aapt\"\n"
        writer.out += "    android:width=\"\(w)dp\" android:height=\"\(h)dp\""
        writer.out += " android:viewportWidth=\"\(vw)\" android:viewportHeight=\"\(vh)\">\n"
        writer.current = tree.location
        if tree.background.alpha > 0 {
            let all = BezierPath.rect(Rect(x: 0, y: 0, width: tree.size.width, height: tree.size.height))
            writer.line("<path android:pathData=\"\(writer.pathData(all))\" android:fillColor=\"\(writer.color(tree.background, opacity: 1))\"/>")
        }
        writer.write(tree.nodes, opacity: 1)
        writer.out += "</vector>\n"
        return (Array(writer.out.utf8), writer.failures)
    }

    // MARK: Output

    private func line(_ s: String) {
        out += String(repeating: "    ", count: indent)
        out += s
        out += "\n"
    }

    private func spend(_ units: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        budget.remaining -= units
        if budget.remaining < 0 { budget.exceededAt = current; return false }
        return true
    }

    private func refuse(_ why: String) {
        failures.append(Diagnostic(.error, .notInVectorDrawable(why), at: current))
    }

    // MARK: Nodes

    /// `opacity`: the opacity of the groups around, given to each paint
    /// (possible only where nothing under them overlaps).
    private func write(_ nodes: [RenderNode], opacity: Double) {
        for node in nodes {
            guard budget.exceededAt == nil else { return }
            current = node.location
            guard spend(PaintCost.perOperation) else { return }
            switch node {
            case .group(let g): write(g, opacity: opacity)
            case .path(let p): write(p, opacity: opacity)
            case .image(let i):
                if let svg = i.drawing.source.vector {
                    write(i.drawing, svg, opacity: opacity)
                } else {
                    refuse("this <image> is raster pixels, which a VectorDrawable cannot hold")
                }
            case .text(let t): write(t.drawing, opacity: opacity)
            }
        }
    }

    private func write(_ group: RenderGroup, opacity: Double) {
        guard group.opacity > 0, group.transform.inverted != nil, !group.children.isEmpty else { return }
        if group.opacity < 1, !Self.paintsApart(group.children) {
            return refuse("a VectorDrawable group has no opacity, and this group's parts overlap, so their paints cannot each take it; give the opacity to each part's fill instead")
        }
        let inner = opacity * group.opacity
        guard !group.transform.isIdentity || group.clip != nil else { return write(group.children, opacity: inner) }
        let frames = AndroidGroupTransform.groups(for: group.transform)
        if frames.isEmpty {
            line("<group>"); indent += 1
        }
        for f in frames { line("<group\(f.attributes)>"); indent += 1 }
        if let clip = group.clip {
            guard let paths = clipPaths(clip) else {
                for _ in 0..<max(1, frames.count) { indent -= 1; line("</group>") }
                return
            }
            for d in paths { line("<clip-path android:pathData=\"\(d)\"/>") }
        }
        write(group.children, opacity: inner)
        for _ in 0..<max(1, frames.count) { indent -= 1; line("</group>") }
    }

    /// An SVG image as its shapes, placed in its fitted box and clipped to
    /// what shows of it, written by a writer of the image's own paints
    /// (sRGB, as librsvg draws).
    private func write(_ image: ImageDrawing, _ svg: SVGImageFacts, opacity: Double) {
        let d = image.destination
        guard d.width > 0, d.height > 0, d.width.isFinite, d.height.isFinite else { return }
        if let refusal = SVGImageDocuments.vectorDrawRefusal(image, svg) {
            failures.append(Diagnostic(.error, refusal, at: current))
            budget.exceededAt = budget.exceededAt ?? current
            return
        }
        let handle: UnsafeMutablePointer<RsvgHandle>
        switch svgDocuments.handle(for: image.source, parse: { spend(svg.parseCost) }) {
        case .success(let h): handle = h
        case .failure(let problem):
            if budget.exceededAt == nil { failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem.text), at: current)) }
            return
        }
        guard spend(PaintCost.svgDraw(svg.work, pixels: d.width * d.height, vector: true)) else { return }
        let draw = {
            SVGImageEmbedding.cairoDocument(handle, in: self.svgDocuments, width: d.width, height: d.height,
                                            intrinsic: image.source.intrinsicSize, fonts: svg.hasText ? self.svgFonts : nil)
        }
        let drawn = svg.hasText ? (fontHold?.using(draw) ?? draw()) : draw()
        let shapes: SVGImageShapes
        switch drawn.flatMap({ SVGImageShapes.read($0, location: current ?? SourceLocation(file: "", line: 1, column: 1)) }) {
        case .success(let s): shapes = s
        case .failure(let problem):
            return refuse("the SVG image '\(image.source.path)' cannot be written as VectorDrawable paths: \(problem.text)")
        }
        let c = image.clipRect
        let x0 = max(c.minX, d.minX), y0 = max(c.minY, d.minY)
        let box = Rect(x: x0 - d.x, y: y0 - d.y, width: max(0, min(c.maxX, d.maxX) - x0), height: max(0, min(c.maxY, d.maxY) - y0))
        let clip = ResolvedClip(shapes: [ResolvedClip.Shape(path: .rect(box), rule: .nonzero, clip: [])], within: [])
        var nodes = shapes.nodes
        var table = shapes.paints
        var space = SceneColorSpace.srgb
        if let tint = image.tint {
            // The tint over the image's coverage: each shape in the tint at
            // its own paint's alpha — the same picture where the shapes do
            // not overlap, or where the tint and every shape are opaque.
            let paint = paints.paint(tint, at: time)
            let opaque = paint.opacity >= 1 && paint.kind.isOpaque
                && shapes.paints.ids.allSatisfy { let p = shapes.paints.paint($0, at: 0); return p.opacity >= 1 && p.kind.isOpaque }
            // Each shape's coverage is its paint's alpha: one number only when the alpha is the same all over it.
            let uniform = shapes.paints.ids.allSatisfy { shapes.paints.paint($0, at: 0).kind.uniformAlpha != nil }
            guard let moved = paint.kind.moved(-d.x, -d.y), uniform, opaque || Self.paintsApart(shapes.nodes) else {
                return refuse("a VectorDrawable cannot paint this tint through the SVG image's coverage: its shapes overlap and are not all opaque under an opaque tint, or one fades (a gradient of changing alpha), or the tint is a pattern")
            }
            // Each shape's tint in that shape's own space (under the groups Cairo wrote).
            table = PaintTable()
            guard let tinted = Self.tinted(shapes.nodes, from: .identity, tint: ResolvedPaint(kind: moved, opacity: paint.opacity),
                                           own: shapes.paints, into: &table) else {
                return refuse("a VectorDrawable cannot paint this tint through the SVG image's coverage: stripes under the SVG's own scaling")
            }
            nodes = tinted
            space = colorSpace
        }
        let placed = RenderGroup(location: current ?? SourceLocation(file: "", line: 1, column: 1), transform: .translation(d.x, d.y),
                                 clip: clip, children: nodes)
        let inner = VectorDrawableWriter(paints: table, time: 0, budget: budget, glyphs: glyphs, colorSpace: space)
        inner.indent = indent
        inner.write([.group(placed)], opacity: opacity)
        out += inner.out
        failures += inner.failures
    }

    /// The shapes with each paint replaced by `tint` (given in the space of
    /// `nodes`' parent, which `t` maps their space into) at the shape's own
    /// alpha: one paint per shape, its geometry in that shape's space.
    private static func tinted(_ nodes: [RenderNode], from t: AffineTransform, tint: ResolvedPaint, own: PaintTable,
                               into table: inout PaintTable) -> [RenderNode]? {
        var out: [RenderNode] = []
        for node in nodes {
            switch node {
            case .group(let g):
                // A group that draws nothing (a singular transform) stays as it is: the writer skips it.
                guard g.transform.inverted != nil else { out.append(node); continue }
                guard let children = tinted(g.children, from: t.concatenating(g.transform), tint: tint, own: own, into: &table) else { return nil }
                out.append(.group(RenderGroup(location: g.location, transform: g.transform, opacity: g.opacity, clip: g.clip, children: children)))
            case .path(let p):
                guard let inverse = t.inverted, let kind = tint.kind.transformed(inverse) else { return nil }
                func recoloured(_ id: PaintID) -> PaintID {
                    let o = own.paint(id, at: 0)
                    return table.add(.fixed(ResolvedPaint(kind: kind, opacity: tint.opacity * o.opacity * (o.kind.uniformAlpha ?? 1))))
                }
                let stroke = p.stroke.map { s in
                    StrokeDrawing(paint: recoloured(s.paint), width: s.width, cap: s.cap, join: s.join, miterLimit: s.miterLimit,
                                  dash: s.dash, dashOffset: s.dashOffset)
                }
                out.append(.path(RenderPath(location: p.location, path: p.path, fill: p.fill.map(recoloured), fillRule: p.fillRule,
                                            stroke: stroke, crossesOnlyNeighbours: p.crossesOnlyNeighbours,
                                            disjointRectangles: p.disjointRectangles)))
            case .image, .text:
                out.append(node)
            }
        }
        return out
    }

    /// Whether everything `nodes` paint — each fill, stroke and text — lies
    /// apart, so an opacity over them equals the opacity on each.
    static func paintsApart(_ nodes: [RenderNode]) -> Bool {
        var boxes: [Rect] = []
        func collect(_ nodes: [RenderNode], _ t: AffineTransform) -> Bool {
            for node in nodes {
                switch node {
                case .group(let g):
                    guard collect(g.children, t.concatenating(g.transform)) else { return false }
                case .path(let p):
                    // A fill and its stroke overlap.
                    if p.fill != nil, p.stroke != nil { return false }
                    if let b = p.bounds { boxes.append(t.isIdentity ? b : b.applying(t)) }
                case .text(let text):
                    let runs = text.drawing.shaped.runs
                    for group in text.drawing.fillGroups where group.fill != nil {
                        // Decorations and missing-glyph boxes are paths of their own over the glyphs.
                        if group.runs.contains(where: { !runs[$0].decorations.isEmpty || !runs[$0].missing.isEmpty }) { return false }
                        boxes.append(t.isIdentity ? group.box : group.box.applying(t))
                    }
                case .image:
                    // An SVG image's shapes may overlap one another.
                    return false
                }
                if boxes.count > 4096 { return false }
            }
            return true
        }
        guard collect(nodes, .identity) else { return false }
        boxes.sort { $0.minX < $1.minX }
        for i in boxes.indices {
            var j = i + 1
            while j < boxes.count, boxes[j].minX < boxes[i].maxX {
                if boxes[j].minY < boxes[i].maxY, boxes[i].minY < boxes[j].maxY { return false }
                j += 1
            }
        }
        return true
    }

    /// The `<clip-path>` data for `clip`: its `within` clips' first (all
    /// intersect), then its own shapes as one non-zero path (each a closed
    /// outline turned clockwise on screen, so that their windings add up
    /// to their union). Nil after refusing.
    private func clipPaths(_ clip: ResolvedClip) -> [String]? {
        var all: [String] = []
        for within in clip.within {
            guard let inner = clipPaths(within) else { return nil }
            all += inner
        }
        var union = BezierPath()
        for shape in clip.shapes {
            guard spend(Double(shape.path.elements.count) * PaintCost.perPathEdge) else { return nil }
            if !shape.clip.isEmpty {
                refuse("a VectorDrawable cannot clip a clip path's own shape; clip the content in a group inside instead")
                return nil
            }
            // One non-zero shape is itself; an even-odd one, or a shape in a
            // union, must be one outline that does not cross itself (turned
            // clockwise, the windings of several add up to their union).
            if clip.shapes.count == 1, shape.rule == .nonzero {
                union = shape.path
                continue
            }
            guard PathCrossings.isSimpleLoop(shape.path) == true, let oriented = Self.clockwise(shape.path) else {
                refuse(clip.shapes.count == 1
                    ? "a VectorDrawable clips by the non-zero rule only, and this even-odd clip has several outlines or crosses itself"
                    : "a VectorDrawable clips with one non-zero path, and this clip joins shapes of several outlines or that cross themselves, which cannot be joined into one")
                return nil
            }
            union.append(oriented)
        }
        let d = pathData(union)
        guard d.utf8.count <= Self.maxPathDataCharacters else {
            refuse("this clip's outline would be \(d.utf8.count) characters of path data, more than the \(Self.maxPathDataCharacters) a VectorDrawable reads in one")
            return nil
        }
        return all + [d]
    }

    private static func subpathCount(_ path: BezierPath) -> Int {
        path.elements.reduce(0) { n, e in if case .move = e { return n + 1 } else { return n } }
    }

    /// One closed outline, turned so that its signed area (y down) is
    /// positive; nil for a path of several outlines.
    static func clockwise(_ path: BezierPath) -> BezierPath? {
        guard subpathCount(path) == 1, case .move(let start) = path.elements.first else { return nil }
        var area = 0.0
        var p = start
        for e in path.elements.dropFirst() {
            switch e {
            case .move: return nil
            case .line(let q): area += p.x * q.y - q.x * p.y; p = q
            case .cubic(let c1, let c2, let q):
                // The control polygon's area has the curve's orientation.
                for r in [c1, c2, q] { area += p.x * r.y - r.x * p.y; p = r }
            case .close: break
            }
        }
        area += p.x * start.y - start.x * p.y
        guard area < 0 else { return path }
        // Reversed: each segment backwards, from the end.
        var reversed = BezierPath()
        var segments: [(from: Point, element: BezierPath.Element)] = []
        var at = start
        for e in path.elements.dropFirst() {
            switch e {
            case .line(let q): segments.append((at, e)); at = q
            case .cubic(_, _, let q): segments.append((at, e)); at = q
            default: break
            }
        }
        if at != start { segments.append((at, .line(start))) }
        reversed.move(to: start)
        for (from, e) in segments.reversed() {
            switch e {
            case .line: reversed.line(to: from)
            case .cubic(let c1, let c2, _): reversed.curve(to: from, control1: c2, control2: c1)
            default: break
            }
        }
        reversed.close()
        return reversed
    }

    // MARK: Paths

    private func write(_ shape: RenderPath, opacity: Double) {
        guard spend(Double(shape.outlineElementCount) * PaintCost.perPathEdge) else { return }
        let outline = shape.outline
        var fill: Paint?, stroke: Paint?
        if let id = shape.fill {
            guard let p = paint(id, opacity: opacity, stroked: false) else { return }
            fill = p
        }
        var strokePath = outline
        if let s = shape.stroke, s.width > 0 {
            guard let p = paint(s.paint, opacity: opacity, stroked: true) else { return }
            stroke = p
            if !s.dash.isEmpty {
                // Charged, and bounded, before any piece is made.
                let estimate = DashedOutline.estimatedPieces(outline, dash: s.dash)
                guard estimate <= Self.maxDashPieces else {
                    return refuse("this dash pattern would make about \(estimate.rounded().wholeNumberText) pieces of path (a VectorDrawable has no dashes), more than \(Self.maxDashPieces.wholeNumberText); lengthen the dashes")
                }
                guard spend(estimate * 3 * PaintCost.perPathEdge) else { return }
                guard let pieces = DashedOutline.pieces(outline, dash: s.dash, offset: s.dashOffset) else {
                    if s.dash.allSatisfy({ $0 == 0 }) { stroke = nil }
                    return draw(outline, rule: shape.fillRule, fill: fill, stroke: stroke.map { ($0, s, outline) })
                }
                guard spend(Double(pieces.elements.count) * PaintCost.perPathEdge) else { return }
                strokePath = pieces
            }
        }
        draw(outline, rule: shape.fillRule, fill: fill, stroke: stroke.map { ($0, shape.stroke!, strokePath) })
    }

    /// A fill and a stroke, as one `<path>` when both paints are in the
    /// path's own space and the stroke is not dashed, else one each.
    private func draw(_ outline: BezierPath, rule: FillRule, fill: Paint?, stroke: (Paint, StrokeDrawing, BezierPath)?,
                      units: [BezierPath]? = nil) {
        if let (stripes, opacity) = fill?.stripes {
            drawStripes(stripes, opacity: opacity, in: outline, rule: rule)
            return draw(outline, rule: rule, fill: nil, stroke: stroke)
        }
        if let fill, let (sp, s, sPath) = stroke, fill.frame == nil, sp.frame == nil, sPath == outline {
            element(outline, attributes: fillAttributes(fill, rule) + strokeAttributes(sp, s, scale: 1),
                    children: fill.children + sp.children, reach: s.width)
            return
        }
        if let fill {
            framed(fill.frame, outline) { path, _ in
                let inverse = fill.frame?.inverted
                // Glyphs painted one by one blend twice where they overlap, unless the paint is opaque.
                let placed = units.map { u in inverse.map { i in u.map { $0.applying(i) } } ?? u }
                self.element(path, attributes: self.fillAttributes(fill, rule), children: fill.children, reach: 0,
                             units: fill.opaque ? placed : placed.map { Self.independentParts(of: $0, reach: 0) })
            }
        }
        if let (sp, s, sPath) = stroke {
            framed(sp.frame, sPath) { path, scale in
                self.element(path, attributes: self.strokeAttributes(sp, s, scale: scale), children: sp.children, reach: s.width / scale)
            }
        }
    }

    /// Stripes as the painter draws them: the background over the shape's
    /// box, then the lines across it, all clipped to the shape.
    private func drawStripes(_ st: StripesFill, opacity: Double, in outline: BezierPath, rule: FillRule) {
        guard let area = outline.boundingBox else { return }
        guard rule == .nonzero || PathCrossings.isSimpleLoop(outline) == true else {
            return refuse("a VectorDrawable clips by the non-zero rule only, and these stripes fill an even-odd shape of several outlines or one that crosses itself")
        }
        let clip = pathData(outline)
        guard clip.utf8.count <= Self.maxPathDataCharacters else {
            return refuse("this striped shape's outline would be \(clip.utf8.count) characters of path data, more than the \(Self.maxPathDataCharacters) a VectorDrawable reads in one clip")
        }
        line("<group>"); indent += 1
        line("<clip-path android:pathData=\"\(clip)\"/>")
        if let bg = st.background {
            element(.rect(area), attributes: " android:fillColor=\"\(color(bg, opacity: opacity))\"", children: [], reach: 0)
        }
        if let lines = st.lines(covering: area) {
            if st.lineWidth > 0, spend(Double(lines.count) * PaintCost.perPathEdge) {
                var path = BezierPath()
                for (a, b) in lines { path.move(to: a); path.line(to: b) }
                element(path, attributes: " android:strokeColor=\"\(color(st.color, opacity: opacity))\" android:strokeWidth=\"\(VectorDrawableNumber.format(st.lineWidth))\"",
                        children: [], reach: st.lineWidth)
            }
        } else {
            element(.rect(area), attributes: " android:fillColor=\"\(color(st.color, opacity: opacity * st.averageCoverage))\"", children: [], reach: 0)
        }
        indent -= 1; line("</group>")
    }

    /// `body` with the path in the frame's space, inside the groups of the
    /// frame (a gradient the path's own space cannot hold); the frame's scale
    /// is given for stroke widths (a frame around a stroke is a similarity).
    private func framed(_ frame: AffineTransform?, _ path: BezierPath, _ body: (BezierPath, Double) -> Void) {
        guard let frame, let inverse = frame.inverted else { return body(path, 1) }
        let groups = AndroidGroupTransform.groups(for: frame)
        for g in groups { line("<group\(g.attributes)>"); indent += 1 }
        body(path.applying(inverse), hypot(frame.a, frame.b))
        for _ in groups { indent -= 1; line("</group>") }
    }

    private func fillAttributes(_ p: Paint, _ rule: FillRule) -> String {
        var s = p.color.map { " android:fillColor=\"\($0)\"" } ?? ""
        if rule == .evenodd { s += " android:fillType=\"evenOdd\"" }
        return s
    }

    private func strokeAttributes(_ p: Paint, _ s: StrokeDrawing, scale: Double) -> String {
        var a = p.color.map { " android:strokeColor=\"\($0)\"" } ?? ""
        a += " android:strokeWidth=\"\(VectorDrawableNumber.format(s.width / scale))\""
        if s.cap != .butt { a += " android:strokeLineCap=\"\(s.cap.rawValue)\"" }
        if s.join != .miter { a += " android:strokeLineJoin=\"\(s.join.rawValue)\"" }
        if s.join == .miter, s.miterLimit != 4 { a += " android:strokeMiterLimit=\"\(VectorDrawableNumber.format(s.miterLimit))\"" }
        return a
    }

    /// One `<path>`, or several when its data is too long for one: split
    /// between `units` (parts that may be painted one by one: glyphs) or
    /// else between groups of outlines whose boxes touch no other group's.
    private func element(_ path: BezierPath, attributes: String, children: [String], reach: Double, units: [BezierPath]? = nil) {
        guard !path.isEmpty else { return }
        let whole = pathData(path)
        let parts: [String]
        if whole.utf8.count <= Self.maxPathDataCharacters {
            parts = [whole]
        } else if let split = Self.pack((units ?? Self.independentParts(path, reach: reach)).map(pathData)) {
            parts = split
        } else {
            return refuse("this shape's outline would be \(whole.utf8.count) characters of path data, more than the \(Self.maxPathDataCharacters) a VectorDrawable reads in one, and its outlines overlap, so it cannot be split")
        }
        for d in parts {
            if children.isEmpty {
                line("<path android:pathData=\"\(d)\"\(attributes)/>")
            } else {
                line("<path android:pathData=\"\(d)\"\(attributes)>")
                indent += 1
                for c in children { line(c) }
                indent -= 1
                line("</path>")
            }
        }
    }

    /// The units' data packed in order into as few strings as fit; nil if one unit alone is too long.
    private static func pack(_ units: [String]) -> [String]? {
        var parts: [String] = [], part = ""
        for u in units {
            guard u.utf8.count <= maxPathDataCharacters else { return nil }
            if !part.isEmpty, part.utf8.count + u.utf8.count > maxPathDataCharacters { parts.append(part); part = "" }
            part += u
        }
        if !part.isEmpty { parts.append(part) }
        return parts
    }

    /// The path's outlines grouped so that no group's boxes (grown by a
    /// stroke's reach) touch another's: each group paints the same alone.
    /// In order of each group's first outline.
    static func independentParts(_ path: BezierPath, reach: Double) -> [BezierPath] {
        independentParts(of: outlines(of: path), reach: reach)
    }

    /// `units` grouped so that no group's boxes touch another's (each unit
    /// one outline, or a glyph's outlines).
    static func independentParts(of outlines: [BezierPath], reach: Double) -> [BezierPath] {
        guard outlines.count > 1, outlines.count <= 5_000 else {
            var all = BezierPath()
            for o in outlines { all.append(o) }
            return [all]
        }
        let boxes = outlines.map { o -> Rect in
            let b = o.boundingBox ?? .zero
            return Rect(x: b.x - reach, y: b.y - reach, width: b.width + 2 * reach, height: b.height + 2 * reach)
        }
        var parent = Array(outlines.indices)
        func root(_ k: Int) -> Int {
            var k = k
            while parent[k] != k { parent[k] = parent[parent[k]]; k = parent[k] }
            return k
        }
        // A sweep along x: only boxes whose x ranges meet are compared.
        let byX = outlines.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        for (n, i) in byX.enumerated() {
            for j in byX[(n + 1)...] {
                if boxes[j].minX > boxes[i].maxX { break }
                if overlap(boxes[i], boxes[j]) || boxes[j].minX == boxes[i].maxX { parent[root(j)] = root(i) }
            }
        }
        var order: [Int] = [], members: [Int: BezierPath] = [:]
        for (k, o) in outlines.enumerated() {
            let r = root(k)
            if members[r] == nil { order.append(r); members[r] = BezierPath() }
            members[r]!.append(o)
        }
        return order.map { members[$0]! }
    }

    private static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }

    /// The path's outlines (subpaths), each a path of its own.
    static func outlines(of path: BezierPath) -> [BezierPath] {
        var all: [BezierPath] = []
        var current = BezierPath()
        for e in path.elements {
            switch e {
            case .move(let p):
                if !current.isEmpty { all.append(current) }
                current = BezierPath(); current.move(to: p)
            case .line(let p): current.line(to: p)
            case .cubic(let c1, let c2, let p): current.curve(to: p, control1: c1, control2: c2)
            case .close: current.close()
            }
        }
        if !current.isEmpty { all.append(current) }
        return all
    }

    // MARK: Text

    /// Each group of runs (the text's, then each span with its own fill)
    /// as one path of glyph outlines, with its missing-glyph boxes and
    /// decorations, as the painter draws them.
    private func write(_ text: TextDrawing, opacity: Double) {
        let runs = text.shaped.runs
        for group in text.fillGroups where !group.runs.isEmpty {
            guard let id = group.fill else { continue }
            var outlines = BezierPath()
            var glyphUnits: [BezierPath] = []
            for run in group.runs.map({ runs[$0] }) {
                guard let face = run.face, !run.glyphs.isEmpty else { continue }
                guard !run.isColor, let found = glyphs.outlines(face, run.glyphs), !found.contains(where: { $0 == nil }) else {
                    return refuse("a VectorDrawable cannot draw colour glyphs (emoji) or glyphs of a bitmap font, which have no outlines")
                }
                let m = run.fontMatrix
                for (outline, at) in zip(found, run.positions) {
                    let placed = outline!.applying(AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: at.x, ty: at.y))
                    outlines.append(placed)
                    glyphUnits.append(placed)
                }
            }
            guard spend(Double(outlines.elements.count) * PaintCost.perPathEdge) else { return }
            guard let fill = paint(id, opacity: opacity, stroked: false) else { return }
            // Glyphs may be painted one by one (a long text's data is split between them).
            draw(outlines, rule: .nonzero, fill: fill, stroke: nil, units: glyphUnits)
            let members = group.runs.map { runs[$0] }
            for b in members.flatMap(\.missing).map(\.box) where b.width > 0 && b.height > 0 {
                let width = max(0.5, min(b.width, b.height) * 0.08)
                let r = Rect(x: b.x + width / 2, y: b.y + width / 2, width: b.width - width, height: b.height - width)
                guard let p = paint(id, opacity: opacity, stroked: true) else { return }
                let s = StrokeDrawing(paint: id, width: width, cap: .butt, join: .miter, miterLimit: 4, dash: [], dashOffset: 0)
                draw(BezierPath.rect(r), rule: .nonzero, fill: nil, stroke: (p, s, BezierPath.rect(r)))
            }
            var bars = BezierPath()
            for b in members.flatMap(\.decorations) where b.width > 0 && b.height > 0 { bars.append(.rect(b)) }
            if !bars.isEmpty { draw(bars, rule: .nonzero, fill: fill, stroke: nil) }
        }
    }

    // MARK: Paints

    /// A paint as a VectorDrawable holds it: a colour attribute, or a
    /// `<gradient>` child, which some gradients need drawn inside `frame`
    /// (a sweep's start angle, a radial gradient stretched to an ellipse).
    private struct Paint {
        var color: String?
        var children: [String] = []
        var frame: AffineTransform?
        /// Stripes: lines (and a background) clipped to the shape.
        var stripes: (StripesFill, opacity: Double)?
        /// Opaque wherever it paints: parts drawn one by one paint the same where they overlap.
        var opaque = false
    }

    private func paint(_ id: PaintID, opacity: Double, stroked: Bool) -> Paint? {
        let resolved = paints.paint(id, at: time)
        let attribute = stroked ? "android:strokeColor" : "android:fillColor"
        let o = resolved.opacity * opacity
        switch resolved.kind {
        case .solid(let c):
            return Paint(color: color(c, opacity: o), opaque: c.alpha * o >= 1)
        case .linear(let g):
            guard g.matrix.inverted != nil else { return nil }
            guard let (start, end) = g.ownSpaceLine else { return Paint(color: color(g.stops.last?.color ?? .transparent, opacity: o)) }
            let head = "<gradient android:type=\"linear\"" + coordinates(["startX": start.x, "startY": start.y, "endX": end.x, "endY": end.y])
                + tileMode(g.spread) + ">"
            return Paint(children: gradient(attribute, head, items(g.stops, opacity: o)), opaque: o >= 1 && resolved.kind.isOpaque)
        case .radial(let g):
            guard abs(g.focus.x - g.center.x) < 1e-9, abs(g.focus.y - g.center.y) < 1e-9 else {
                refuse("a VectorDrawable's radial gradient has no focal point; give this gradient's focus its centre")
                return nil
            }
            let (frame, scale) = similarity(g.matrix)
            if frame != nil, stroked {
                refuse("a VectorDrawable cannot stretch a stroke's radial gradient into an ellipse; use a circle, or fill a shape instead")
                return nil
            }
            let c = frame == nil ? g.matrix.apply(g.center) : g.center
            let r = frame == nil ? g.radius * scale : g.radius
            guard r > 0, r.isFinite else { return Paint(color: color(g.stops.last?.color ?? .transparent, opacity: o)) }
            let head = "<gradient android:type=\"radial\"" + coordinates(["centerX": c.x, "centerY": c.y, "gradientRadius": r])
                + tileMode(g.spread) + ">"
            return Paint(children: gradient(attribute, head, items(g.stops, opacity: o)), frame: frame, opaque: o >= 1 && resolved.kind.isOpaque)
        case .conic(let g):
            guard let first = g.sectors.first, g.matrix.inverted != nil else { return nil }
            // A sweep starts at 3 o'clock: the frame turns it to the first sector's angle.
            let turn = AffineTransform.rotation(degrees: first.startAngle * 180 / .pi).about(g.center)
            let frame = g.matrix.concatenating(turn)
            if stroked, similarity(frame).frame != nil {
                refuse("a VectorDrawable cannot stretch a stroke's conic gradient; draw it in a box as wide as it is high, or fill a shape instead")
                return nil
            }
            var stops: [ShadingStop] = []
            for s in g.sectors {
                let a = (s.startAngle - first.startAngle) / (2 * .pi), b = (s.endAngle - first.startAngle) / (2 * .pi)
                stops.append(ShadingStop(offset: a, color: s.startColor))
                stops.append(ShadingStop(offset: b, color: s.endColor))
            }
            let head = "<gradient android:type=\"sweep\"" + coordinates(["centerX": g.center.x, "centerY": g.center.y]) + ">"
            return Paint(children: gradient(attribute, head, items(stops, opacity: o)), frame: frame, opaque: o >= 1 && resolved.kind.isOpaque)
        case .pattern:
            refuse("a VectorDrawable has no pattern fills")
            return nil
        case .stripes(let st):
            if stroked {
                refuse("a VectorDrawable cannot clip to a stroke, so a stroke cannot be striped; stripe a filled shape instead")
                return nil
            }
            if o < 1, st.background != nil {
                refuse("translucent stripes with a background are one layer, which a VectorDrawable cannot make; drop the opacity or the background")
                return nil
            }
            return Paint(stripes: (st, o))
        case .crossFade:
            refuse("a VectorDrawable cannot blend two paints, as this animation does at this time; give another --time")
            return nil
        }
    }

    /// Nil and the scale when `m` keeps circles circles (a rotation and
    /// one scale, no mirror): the gradient's geometry can be mapped into
    /// the path's space. Else `m`, a frame to draw the path in.
    private func similarity(_ m: AffineTransform) -> (frame: AffineTransform?, scale: Double) {
        let s = hypot(m.a, m.b)
        let tolerance = 1e-9 * max(s, 1e-300)
        if abs(m.a - m.d) <= tolerance, abs(m.b + m.c) <= tolerance, s > 0 { return (nil, s) }
        return (m, 1)
    }

    private func gradient(_ attribute: String, _ head: String, _ items: [String]) -> [String] {
        ["<aapt:attr name=\"\(attribute)\">", "    " + head] + items.map { "        " + $0 } + ["    </gradient>", "</aapt:attr>"]
    }

    private func coordinates(_ values: KeyValuePairs<String, Double>) -> String {
        values.map { " android:\($0.key)=\"\(VectorDrawableNumber.format($0.value))\"" }.joined()
    }

    private func tileMode(_ spread: SpreadMethod) -> String {
        switch spread {
        case .pad: return ""
        case .repeat: return " android:tileMode=\"repeat\""
        case .reflect: return " android:tileMode=\"mirror\""
        }
    }

    /// The stops as `<item>`s, leaving out each stop that lies on the
    /// straight line between the items kept around it (a sweep's sectors
    /// and a hard stop's repeats), within a quarter of an 8-bit level.
    private func items(_ stops: [ShadingStop], opacity: Double) -> [String] {
        var all: [ShadingStop] = []
        for s in stops {
            let clamped = ShadingStop(offset: min(1, max(0, s.offset)), color: s.color)
            if all.last != clamped { all.append(clamped) }
        }
        var kept: [Int] = []
        var k = 0
        while k < all.count {
            kept.append(k)
            // Extend the run from k as far as every stop inside stays on the line.
            var end = k + 1
            while end + 1 < all.count, Self.onLine(all, from: k, to: end + 1) { end += 1 }
            k = end == k + 1 ? k + 1 : end
        }
        var out: [String] = []
        var previous: (Double, String)?
        for i in kept {
            let offset = all[i].offset
            let c = color(all[i].color, opacity: opacity)
            if let p = previous, p.0 == offset, p.1 == c { continue }
            previous = (offset, c)
            out.append("<item android:offset=\"\(VectorDrawableNumber.format(offset))\" android:color=\"\(c)\"/>")
        }
        return out
    }

    /// Whether every stop strictly between `a` and `b` has the colour a
    /// straight interpolation from `a` to `b` gives it.
    private static func onLine(_ stops: [ShadingStop], from a: Int, to b: Int) -> Bool {
        let s0 = stops[a], s1 = stops[b]
        let span = s1.offset - s0.offset
        guard span > 0 else { return false }
        for j in (a + 1)..<b {
            let f = (stops[j].offset - s0.offset) / span
            guard f > 0, f < 1 else { return false }
            let c = stops[j].color
            let expected = [s0.color.red + (s1.color.red - s0.color.red) * f, s0.color.green + (s1.color.green - s0.color.green) * f,
                            s0.color.blue + (s1.color.blue - s0.color.blue) * f, s0.color.alpha + (s1.color.alpha - s0.color.alpha) * f]
            for (x, y) in zip([c.red, c.green, c.blue, c.alpha], expected) where abs(x - y) > 0.25 / 255 { return false }
        }
        return true
    }

    /// `#RRGGBB`, or `#AARRGGBB` when not opaque, in sRGB.
    private func color(_ c: Color, opacity: Double) -> String {
        var srgb = c
        if colorSpace == .displayP3 {
            srgb = DisplayP3.srgb(fromP3: c.red, c.green, c.blue, alpha: c.alpha)
            if !DisplayP3.isInside(srgb, .srgb) { srgb = SceneColorSpace.srgb.painted(srgb) }
        }
        func hex(_ v: Double) -> String {
            let byte = Int((min(1, max(0, v)) * 255).rounded())
            let digits = Array("0123456789ABCDEF")
            return String([digits[byte >> 4], digits[byte & 15]])
        }
        let alpha = c.alpha * opacity
        return "#" + (alpha < 1 ? hex(alpha) : "") + hex(srgb.red) + hex(srgb.green) + hex(srgb.blue)
    }

    // MARK: Path data

    /// Absolute commands, numbers as `VectorDrawableNumber`s, a space only
    /// where the next number would otherwise run into the last.
    private func pathData(_ path: BezierPath) -> String {
        var d = ""
        d.reserveCapacity(path.elements.count * 14)
        var last: Character = "M"
        func n(_ v: Double) {
            let s = VectorDrawableNumber.format(v)
            if last.isNumber || last == "." , s.first != "-" { d += " " }
            d += s
            last = s.last!
        }
        func c(_ command: Character) { d.append(command); last = command }
        for e in path.elements {
            switch e {
            case .move(let q): c("M"); n(q.x); n(q.y)
            case .line(let q): c("L"); n(q.x); n(q.y)
            case .cubic(let c1, let c2, let q): c("C"); n(c1.x); n(c1.y); n(c2.x); n(c2.y); n(q.x); n(q.y)
            case .close: c("Z")
            }
        }
        return d
    }
}
