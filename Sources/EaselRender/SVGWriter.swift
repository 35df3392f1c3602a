import CCairo
import CRsvg
import EaselLayout
import EaselModel

/// SVG output, written by Easel from its render tree as it walks it — the
/// way usvg's writer emits SVG from its tree: groups as `<g>` with their
/// transform, opacity and clip; paths with their fills and strokes;
/// gradients as SVG gradients (with SMIL `<animate>` children for animated
/// ones); pattern tiles as `<pattern>`s holding their own content; images
/// as embedded PNG; text as its glyph outlines (`GlyphOutlines`) with the
/// label as invisible real `<text>` over them, so it can be selected and
/// searched. Definitions are written just before their first use and
/// shared by every later one; ids are numbered per document, so the same
/// scene always gives the same bytes.
///
/// Two paints have no SVG equivalent and become pictures inside a
/// `<pattern>` over the area they cover: a conic gradient (at
/// `ConicMesh.svgResolution` pixels per point) and a colour or bitmap
/// glyph (drawn by Cairo under the font lock, `CairoFontAccess`). Stripes
/// are real lines in a one-tile pattern over what they cover.
final class SVGWriter {
    private var out: [UInt8] = []
    private let paints: PaintTable
    private let time: Double
    /// Animated paints as SMIL where SMIL can express them (else the frame at `time`).
    private let animates: Bool
    private let budget: PaintBudget
    private let fontHold: CairoFontAccess.Hold
    /// The tree's colours are in this space (Display P3 components in a
    /// Display P3 scene); SVG's own colours are sRGB.
    private let colorSpace: SceneColorSpace
    private var nextID = 0
    /// Display P3 colours outside sRGB, each a class whose rule sets the
    /// property to `color(display-p3 …)` (`wideColorStyle`), by rule.
    private var wideClasses: [String: String] = [:]
    private var wideRules: [String] = []
    /// Definitions already written, shared by every later use.
    private var clipIDs: [ResolvedClip: String] = [:]
    private var clipChainIDs: [ResolvedClip: String] = [:]
    /// Inside a `<pattern>`'s content: text there repeats as outlines, and
    /// an invisible copy of its label per tile would be noise.
    private var tileDepth = 0
    /// The invisible `<text>` over glyph outlines (off for Icon Composer
    /// layers, which are pictures: text only as outlines).
    var selectableText = true
    private var paintIDs: [Int: String] = [:]
    private var current: SourceLocation?
    private let glyphs: GlyphOutlineSet
    private(set) var failures: [Diagnostic] = []
    /// SVG images parsed for this document, and the content each fitted size was written as.
    private let svgDocuments = SVGImageDocuments()
    private var embedded: [EmbeddedKey: String] = [:]
    /// The scene's fonts, for text inside SVG images.
    private let svgFonts: FontSet?

    init(paints: PaintTable, time: Double, animates: Bool, budget: PaintBudget, fontHold: CairoFontAccess.Hold,
         glyphs: GlyphOutlineSet, colorSpace: SceneColorSpace = .srgb, svgFonts: FontSet? = nil) {
        self.paints = paints; self.time = time; self.animates = animates; self.budget = budget; self.fontHold = fontHold
        self.glyphs = glyphs; self.colorSpace = colorSpace; self.svgFonts = svgFonts
    }

    /// The whole document for `tree`.
    /// `side`: the document's width and height when not the scene's size
    /// (its viewBox is the scene's size either way).
    static func document(_ tree: RenderTree, time: Double, animates: Bool, budget: PaintBudget,
                         fontHold: CairoFontAccess.Hold, glyphs: GlyphOutlineSet, svgFonts: FontSet? = nil,
                         side: Double? = nil, selectableText: Bool = true) -> (bytes: [UInt8], failures: [Diagnostic]) {
        let writer = SVGWriter(paints: tree.paints, time: time, animates: animates, budget: budget, fontHold: fontHold,
                               glyphs: glyphs, colorSpace: tree.colorSpace, svgFonts: svgFonts)
        writer.selectableText = selectableText
        let w = SVGNumber.format(tree.size.width), h = SVGNumber.format(tree.size.height)
        let shownW = side.map { SVGNumber.format($0) } ?? w, shownH = side.map { SVGNumber.format($0) } ?? h
        writer.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        writer.write("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" ")
        writer.write("width=\"\(shownW)\" height=\"\(shownH)\" viewBox=\"0 0 \(w) \(h)\">\n")
        if tree.background.alpha > 0 {
            writer.write("<rect width=\"\(w)\" height=\"\(h)\"\(writer.colorAttributes("fill", tree.background, opacity: 1))/>\n")
        }
        writer.write(tree.nodes)
        writer.write(writer.wideColorStyle())
        writer.write("</svg>\n")
        return (writer.out, writer.failures)
    }

    // MARK: Output

    private func write(_ s: String) { out.append(contentsOf: s.utf8) }

    private func newID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    /// Takes `units` from the paint budget; false once it is spent.
    private func spend(_ units: Double) -> Bool {
        guard budget.exceededAt == nil else { return false }
        budget.remaining -= units
        if budget.remaining < 0 { budget.exceededAt = current; return false }
        return true
    }

    // MARK: Nodes

    private func write(_ nodes: [RenderNode]) {
        for node in nodes {
            guard budget.exceededAt == nil else { return }
            current = node.location
            guard spend(PaintCost.perOperation) else { return }
            switch node {
            case .group(let g): write(g)
            case .path(let p): write(p)
            case .image(let i): write(i.drawing)
            case .text(let t): write(t.drawing)
            }
        }
    }

    private func write(_ group: RenderGroup) {
        guard group.opacity > 0, group.transform.inverted != nil, !group.children.isEmpty else { return }
        // A group that changes nothing is its children.
        guard !group.transform.isIdentity || group.opacity < 1 || group.clip != nil else { return write(group.children) }
        var head = "<g"
        if !group.transform.isIdentity { head += " transform=\"\(matrix(group.transform))\"" }
        if group.opacity < 1 { head += " opacity=\"\(SVGNumber.format(group.opacity, places: 6))\"" }
        write(head + ">\n")
        if let clip = group.clip {
            withClip(clip) { self.write(group.children) }
        } else {
            write(group.children)
        }
        write("</g>\n")
    }

    /// `body` inside groups clipped by `clip` (its `within` clips first).
    private func withClip(_ clip: ResolvedClip, _ body: () -> Void) {
        if let within = clip.within.first {
            let inner = ResolvedClip(shapes: clip.shapes, within: Array(clip.within.dropFirst()))
            withClip(within) { self.withClip(inner, body) }
            return
        }
        for shape in clip.shapes { guard spend(Double(shape.path.elements.count) * PaintCost.perPathEdge) else { return } }
        write("<g clip-path=\"url(#\(clipID(clip)))\">\n")
        body()
        write("</g>\n")
    }

    /// A `<clipPath>` for the union of `clip`'s shapes (written once).
    private func clipID(_ clip: ResolvedClip) -> String {
        if let known = clipIDs[clip] { return known }
        _ = spend(PaintCost.perOperation + Double(clip.shapes.reduce(0) { $0 + $1.path.elements.count }) * PaintCost.perPathEdge)
        let inner = clip.shapes.map { $0.clip.first.map(clipChainID) }
        let id = newID("c")
        var s = "<defs><clipPath id=\"\(id)\" clipPathUnits=\"userSpaceOnUse\">"
        for (shape, innerID) in zip(clip.shapes, inner) {
            s += "<path d=\"\(pathData(shape.path))\""
            if shape.rule == .evenodd { s += " clip-rule=\"evenodd\"" }
            if let innerID { s += " clip-path=\"url(#\(innerID))\"" }
            s += "/>"
        }
        write(s + "</clipPath></defs>\n")
        clipIDs[clip] = id
        return id
    }

    /// A clip with clips of its own inside a clip path: the `within` chain
    /// as clip paths that clip each other.
    private func clipChainID(_ clip: ResolvedClip) -> String {
        guard let within = clip.within.first else { return clipID(clip) }
        if let known = clipChainIDs[clip] { return known }
        _ = spend(PaintCost.perOperation)
        let outer = clipChainID(ResolvedClip(shapes: within.shapes, within: within.within + clip.within.dropFirst()))
        let id = newID("c")
        let own = clipID(ResolvedClip(shapes: clip.shapes, within: []))
        write("<defs><clipPath id=\"\(id)\" clipPathUnits=\"userSpaceOnUse\" clip-path=\"url(#\(outer))\">"
              + "<rect x=\"-1e7\" y=\"-1e7\" width=\"2e7\" height=\"2e7\" clip-path=\"url(#\(own))\"/></clipPath></defs>\n")
        clipChainIDs[clip] = id
        return id
    }

    private func write(_ shape: RenderPath) {
        let edges = Double(shape.outlineElementCount)
        guard spend(edges * PaintCost.perPathEdge) else { return }
        let d = pathData(shape.outline)
        if let fill = shape.fill {
            let rule = shape.fillRule == .evenodd ? " fill-rule=\"evenodd\"" : ""
            emit(fill, area: { shape.outlineBounds ?? .zero }) { paint in
                "<path d=\"\(d)\"\(attributes(paint, "fill"))\(rule) stroke=\"none\"/>\n"
            }
        }
        if let stroke = shape.stroke {
            var style = " stroke-width=\"\(SVGNumber.format(stroke.width))\""
            if stroke.cap != .butt { style += " stroke-linecap=\"\(stroke.cap.rawValue)\"" }
            if stroke.join != .miter { style += " stroke-linejoin=\"\(stroke.join.rawValue)\"" }
            if stroke.miterLimit != 4 { style += " stroke-miterlimit=\"\(SVGNumber.format(stroke.miterLimit))\"" }
            if !stroke.dash.isEmpty {
                style += " stroke-dasharray=\"\(stroke.dash.map { SVGNumber.format($0) }.joined(separator: " "))\""
                if stroke.dashOffset != 0 { style += " stroke-dashoffset=\"\(SVGNumber.format(stroke.dashOffset))\"" }
            }
            emit(stroke.paint, area: { shape.bounds ?? .zero }) { paint in
                "<path d=\"\(d)\" fill=\"none\"\(attributes(paint, "stroke"))\(style)/>\n"
            }
        }
    }

    private func write(_ image: ImageDrawing) {
        var c = image.clipRect
        // An SVG image shows nothing outside its box (an overflow of its
        // viewBox, a blur's bleed), as in PNG and PDF.
        if image.source.vector != nil {
            let d = image.destination
            let x0 = max(c.minX, d.minX), y0 = max(c.minY, d.minY)
            c = Rect(x: x0, y: y0, width: max(0, min(c.maxX, d.maxX) - x0), height: max(0, min(c.maxY, d.maxY) - y0))
        }
        let clip = ResolvedClip(shapes: [ResolvedClip.Shape(path: .rect(c), rule: .nonzero, clip: [])], within: [])
        guard let tint = image.tint else {
            withClip(clip) { self.writePicture(image) }
            return
        }
        // The picture's coverage as an alpha mask over the tint.
        let mask = newID("m")
        write("<defs><mask id=\"\(mask)\" maskUnits=\"userSpaceOnUse\" mask-type=\"alpha\" style=\"mask-type:alpha\" \(rectBox(c))>\n")
        writePicture(image)
        write("</mask></defs>\n")
        emit(tint, area: { c }) { paint in
            "<rect \(self.rectBox(c))\(self.attributes(paint, "fill")) mask=\"url(#\(mask))\"/>\n"
        }
    }

    private func writePicture(_ image: ImageDrawing) {
        let d = image.destination
        if let svg = image.source.vector { return writeVector(image, svg) }
        let pixels = Double(image.source.pixelWidth) * Double(image.source.pixelHeight)
        guard spend(pixels * PaintCost.perImageSourcePixel) else { return }
        write("<image x=\"\(SVGNumber.format(d.x))\" y=\"\(SVGNumber.format(d.y))\" width=\"\(SVGNumber.format(d.width))\""
              + " height=\"\(SVGNumber.format(d.height))\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,")
        out.append(contentsOf: Base64.encode(image.source.data))
        write("\"/>\n")
    }

    /// An SVG image as vector content (`SVGImageEmbedding`), defined once
    /// per file and fitted size and used wherever it is drawn.
    private func writeVector(_ image: ImageDrawing, _ svg: SVGImageFacts) {
        let d = image.destination
        guard d.width > 0, d.height > 0, d.width.isFinite, d.height.isFinite else { return }
        let pixels = d.width * d.height
        if let refusal = SVGImageDocuments.vectorDrawRefusal(image, svg) {
            failures.append(Diagnostic(.error, refusal, at: current))
            budget.exceededAt = budget.exceededAt ?? current
            return
        }
        let key = EmbeddedKey(digest: image.source.digest, identity: SVGImageDocuments.identity(of: image.source.data),
                              width: d.width, height: d.height)
        var id = embedded[key]
        if id == nil {
            // librsvg's parse and draw are charged once, where it is written.
            let handle: UnsafeMutablePointer<RsvgHandle>
            switch svgDocuments.handle(for: image.source, parse: { spend(svg.parseCost) }) {
            case .success(let h): handle = h
            case .failure(let problem):
                if budget.exceededAt == nil {
                    failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem.text), at: current))
                }
                return
            }
            guard spend(PaintCost.svgDraw(svg.work, pixels: pixels, vector: true)) else { return }
            let made = newID("v")
            let draw = {
                SVGImageEmbedding.content(handle, in: self.svgDocuments, width: d.width, height: d.height,
                                          intrinsic: image.source.intrinsicSize,
                                          fonts: svg.hasText ? self.svgFonts : nil, idPrefix: made + "-")
            }
            switch svg.hasText ? fontHold.using(draw) : draw() {
            case .success(let content):
                write("<defs><g id=\"\(made)\">\n")
                write(content)
                write("\n</g></defs>\n")
                embedded[key] = made
                id = made
            case .failure(let problem):
                failures.append(Diagnostic(.error, .cannotDrawSVG(image.source.path, problem.text), at: current))
                return
            }
        }
        write("<use xlink:href=\"#\(id!)\" transform=\"translate(\(SVGNumber.format(d.x)) \(SVGNumber.format(d.y)))\"/>\n")
    }

    private struct EmbeddedKey: Hashable {
        var digest: Int
        /// The bytes by their storage (`SVGImageDocuments.identity`).
        var identity: UInt
        var width: Double
        var height: Double
    }

    // MARK: Text

    /// As the painter draws text: each group of runs (the text's, then
    /// each span with a fill of its own) as one path of glyph outlines in
    /// its paint over its box, the missing-glyph boxes and decorations in
    /// it too; colour glyphs as pictures; then the label as invisible text.
    private func write(_ text: TextDrawing) {
        let runs = text.shaped.runs
        for group in text.fillGroups where !group.runs.isEmpty {
            guard let fill = group.fill else { continue }
            let members = group.runs.map { runs[$0] }
            var glyphs = BezierPath()
            var pictures: [GlyphRun] = []
            for run in members {
                guard let face = run.face, !run.glyphs.isEmpty else { continue }
                guard !run.isColor, let outlines = self.glyphs.outlines(face, run.glyphs), !outlines.contains(where: { $0 == nil })
                else { pictures.append(run); continue }
                let m = run.fontMatrix
                for (outline, at) in zip(outlines, run.positions) {
                    glyphs.append(outline!.applying(AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: at.x, ty: at.y)))
                }
            }
            guard spend(Double(glyphs.elements.count) * PaintCost.perPathEdge) else { return }
            let box = group.box
            if !glyphs.isEmpty {
                let d = pathData(glyphs)
                emit(fill, area: { box }) { "<path d=\"\(d)\"\(self.attributes($0, "fill"))/>\n" }
            }
            let boxes = members.flatMap(\.missing).map(\.box).filter { $0.width > 0 && $0.height > 0 }
            for b in boxes {
                let line = max(0.5, min(b.width, b.height) * 0.08)
                let r = Rect(x: b.x + line / 2, y: b.y + line / 2, width: b.width - line, height: b.height - line)
                emit(fill, area: { box }) {
                    "<path d=\"\(self.pathData(.rect(r)))\" fill=\"none\"\(self.attributes($0, "stroke")) stroke-width=\"\(SVGNumber.format(line))\"/>\n"
                }
            }
            let bars = members.flatMap(\.decorations).filter { $0.width > 0 && $0.height > 0 }
            if !bars.isEmpty {
                var path = BezierPath()
                for b in bars { path.append(.rect(b)) }
                let d = pathData(path)
                emit(fill, area: { box }) { "<path d=\"\(d)\"\(self.attributes($0, "fill"))/>\n" }
            }
            for run in pictures {
                if run.isColor {
                    writePicture(of: run, opacity: paints.paint(fill, at: time).opacity)
                } else {
                    // Glyphs only Cairo can draw (a bitmap font): their
                    // coverage as a mask over the fill.
                    writeMasked(run, fill: fill, box: box)
                }
            }
        }
        if tileDepth == 0, selectableText, text.fill != nil || text.spanFills.contains(where: { $0.fill != nil }) {
            write(SVGTextOverlay(runs: runs, lines: text.shaped.lines).element())
        }
    }

    /// A run Cairo must draw (colour glyphs): drawn on an image at
    /// `pictureResolution` pixels per point, black where it has no colours
    /// of its own (as the painter draws it), placed over its box.
    private func writePicture(of run: GlyphRun, opacity: Double) {
        guard let (area, size, png) = picture(of: run, in: (0, 0, 0)) else { return }
        var head = "<image \(imageBox(area, size))"
        if opacity < 1 { head += " opacity=\"\(SVGNumber.format(opacity, places: 6))\"" }
        write(head + " xlink:href=\"data:image/png;base64,")
        out.append(contentsOf: Base64.encode(png))
        write("\"/>\n")
    }

    /// A run of glyphs without outlines (a bitmap font): drawn white on an
    /// image, which masks (by luminance) a box filled with the text's paint.
    private func writeMasked(_ run: GlyphRun, fill: PaintID, box: Rect) {
        guard let (area, size, png) = picture(of: run, in: (1, 1, 1)) else { return }
        let id = newID("m")
        write("<defs><mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" \(rectBox(area))><image \(imageBox(area, size))"
              + " xlink:href=\"data:image/png;base64,")
        out.append(contentsOf: Base64.encode(png))
        write("\"/></mask></defs>\n")
        emit(fill, area: { box }) { "<path d=\"\(self.pathData(.rect(area)))\"\(self.attributes($0, "fill")) mask=\"url(#\(id))\"/>\n" }
    }

    /// The run drawn by Cairo (under the font lock) over its box and an em
    /// around it, glyphs without colours of their own in `rgb`: the area,
    /// the image's size in points, and its PNG.
    private func picture(of run: GlyphRun, in rgb: (Double, Double, Double)) -> (Rect, Size, [UInt8])? {
        let em = run.logicalBox.height
        let area = Rect(x: run.logicalBox.x - em, y: run.logicalBox.y - em, width: run.logicalBox.width + 2 * em,
                        height: run.logicalBox.height + 2 * em)
        let res = min(Self.pictureResolution, 2048 / max(area.width, area.height, 1))
        let w = Int((area.width * res).rounded(.up)), h = Int((area.height * res).rounded(.up))
        guard w > 0, h > 0, spend(Double(w * h) * PaintCost.perPixel(.text)), let canvas = RasterCanvas(width: w, height: h),
              let cr = cairo_create(canvas.surface) else { return nil }
        cairo_scale(cr, res, res)
        cairo_translate(cr, -area.x, -area.y)
        cairo_set_source_rgb(cr, rgb.0, rgb.1, rgb.2)
        let drawn = GlyphRunDrawing.draw(run, on: cr, fontHold: fontHold)
        cairo_destroy(cr)
        cairo_surface_flush(canvas.surface)
        guard drawn else {
            failures.append(Diagnostic(.error, .cannotDrawFont(run.font?.file ?? ""), at: current))
            return nil
        }
        guard let png = PNGEncoder.encode(canvas, compression: .default, keepAlpha: true) else { return nil }
        return (area, Size(Double(w) / res, Double(h) / res), png)
    }

    private func rectBox(_ r: Rect) -> String {
        "x=\"\(SVGNumber.format(r.x))\" y=\"\(SVGNumber.format(r.y))\" width=\"\(SVGNumber.format(r.width))\" height=\"\(SVGNumber.format(r.height))\""
    }

    private func imageBox(_ area: Rect, _ size: Size) -> String {
        rectBox(Rect(x: area.x, y: area.y, width: size.width, height: size.height)) + " preserveAspectRatio=\"none\""
    }

    static let pictureResolution = 4.0

    // MARK: Paints

    /// A paint as SVG attributes: a colour, or a reference to a definition.
    struct SVGPaint {
        var value: String
        var opacity: Double
        /// `color(display-p3 …)` for a Display P3 colour outside sRGB
        /// (`value` is then its sRGB fallback).
        var wide: String? = nil
    }

    /// ` fill="…"` (or the property given) with its opacity, and the class
    /// that paints a Display P3 colour where the renderer can.
    private func attributes(_ paint: SVGPaint, _ property: String) -> String {
        var s = " \(property)=\"\(paint.value)\"" + wideClass(property, paint.wide)
        if paint.opacity < 1 { s += " \(property)-opacity=\"\(SVGNumber.format(paint.opacity, places: 6))\"" }
        return s
    }

    private func wideClass(_ property: String, _ wide: String?) -> String {
        guard let wide else { return "" }
        let rule = property + ":" + wide
        let name = wideClasses[rule] ?? {
            let made = "p3-\(wideRules.count)"
            wideClasses[rule] = made
            wideRules.append(".\(made){\(rule)}")
            return made
        }()
        return " class=\"\(name)\""
    }

    /// Writes `element` (made for a paint) in paint `id`, over `area` (user
    /// space, what the paint must cover). A cross-fade is two elements, the
    /// second added to the first (`plus-lighter`) in an isolated group.
    private func emit(_ id: PaintID, area: () -> Rect, _ element: (SVGPaint) -> String) {
        guard budget.exceededAt == nil else { return }
        if animates, case .animated(let a) = paints.entries[id.index], let animation = SVGAnimation(a) {
            let ref = paintIDs[id.index] ?? {
                let made = newID("p")
                write(animation.element(id: made))
                paintIDs[id.index] = made
                return made
            }()
            write(element(SVGPaint(value: "url(#\(ref))", opacity: 1)))
            return
        }
        let paint = paints.paint(id, at: time)
        let cached: Bool
        if case .fixed = paints.entries[id.index] { cached = true } else { cached = false }
        emit(paint, key: cached ? id.index : nil, area: area, element)
    }

    private func emit(_ paint: ResolvedPaint, key: Int?, area: () -> Rect, _ element: (SVGPaint) -> String) {
        if case .crossFade(let a, let b, let p) = paint.kind {
            write("<g style=\"isolation:isolate\">\n")
            emit(ResolvedPaint(kind: a.kind, opacity: a.opacity * (1 - p) * paint.opacity), key: nil, area: area, element)
            write("<g style=\"mix-blend-mode:plus-lighter\">\n")
            emit(ResolvedPaint(kind: b.kind, opacity: b.opacity * p * paint.opacity), key: nil, area: area, element)
            write("</g>\n</g>\n")
            return
        }
        guard let svg = define(paint, key: key, area: area) else { return }
        write(element(svg))
    }

    /// The paint's SVG value, writing its definition first where it needs
    /// one; nil: nothing of it can show.
    private func define(_ paint: ResolvedPaint, key: Int?, area: () -> Rect) -> SVGPaint? {
        switch paint.kind {
        case .solid(let c):
            return paintValue(c, opacity: c.alpha * paint.opacity)
        case .crossFade:
            return nil
        default:
            break
        }
        if let key, let known = paintIDs[key] { return SVGPaint(value: "url(#\(known))", opacity: groupOpacity(paint)) }
        let id = newID("p")
        switch paint.kind {
        case .linear(let g):
            guard g.matrix.inverted != nil else { return nil }
            var s = "<defs><linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(SVGNumber.format(g.start.x))\""
            s += " y1=\"\(SVGNumber.format(g.start.y))\" x2=\"\(SVGNumber.format(g.end.x))\" y2=\"\(SVGNumber.format(g.end.y))\""
            s += spreadAndTransform(g.spread, g.matrix) + ">" + stops(g.stops, opacity: paint.opacity) + "</linearGradient></defs>\n"
            write(s)
        case .radial(let g):
            guard g.matrix.inverted != nil else { return nil }
            var s = "<defs><radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(SVGNumber.format(g.center.x))\""
            s += " cy=\"\(SVGNumber.format(g.center.y))\" r=\"\(SVGNumber.format(g.radius))\" fx=\"\(SVGNumber.format(g.focus.x))\""
            s += " fy=\"\(SVGNumber.format(g.focus.y))\"" + spreadAndTransform(g.spread, g.matrix) + ">"
            s += stops(g.stops, opacity: paint.opacity) + "</radialGradient></defs>\n"
            write(s)
        case .conic(let g):
            guard writeConic(g, id: id, area: area(), opacity: paint.opacity) else { return nil }
            return SVGPaint(value: "url(#\(id))", opacity: 1)   // per use: the picture covers this area only
        case .pattern(let p):
            guard p.matrix.inverted != nil else { return nil }
            var head = "<defs><pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" width=\"\(SVGNumber.format(p.tile.width))\""
            head += " height=\"\(SVGNumber.format(p.tile.height))\""
            if !p.matrix.isIdentity { head += " patternTransform=\"\(matrix(p.matrix))\"" }
            write(head + ">\n")
            tileDepth += 1
            write(p.content)
            tileDepth -= 1
            write("</pattern></defs>\n")
        case .stripes(let st):
            writeStripes(st, id: id, area: area())
            return SVGPaint(value: "url(#\(id))", opacity: paint.opacity)
        case .solid, .crossFade:
            return nil
        }
        if let key { paintIDs[key] = id }
        return SVGPaint(value: "url(#\(id))", opacity: groupOpacity(paint))
    }

    /// Gradients carry their opacity in their stops; patterns take it as
    /// the fill's or stroke's opacity (as the painter composites them).
    private func groupOpacity(_ paint: ResolvedPaint) -> Double {
        switch paint.kind {
        case .pattern, .stripes: return paint.opacity
        default: return 1
        }
    }

    private func spreadAndTransform(_ spread: SpreadMethod, _ m: AffineTransform) -> String {
        var s = spread == .pad ? "" : " spreadMethod=\"\(spread.rawValue)\""
        if !m.isIdentity { s += " gradientTransform=\"\(matrix(m))\"" }
        return s
    }

    private func stops(_ stops: [ShadingStop], opacity: Double) -> String {
        stops.map { s in
            let value = paintValue(s.color, opacity: 1)
            var e = "<stop offset=\"\(SVGNumber.format(s.offset, places: 6))\" stop-color=\"\(value.value)\"" + wideClass("stop-color", value.wide)
            let a = s.color.alpha * opacity
            if a < 1 { e += " stop-opacity=\"\(SVGNumber.format(a, places: 6))\"" }
            return e + "/>"
        }.joined()
    }

    /// A conic sweep as a picture over `area` in a one-tile pattern.
    private func writeConic(_ g: ConicShading, id: String, area: Rect, opacity: Double) -> Bool {
        let res = min(ConicMesh.svgResolution, ConicMesh.svgMaxSide / max(area.width, area.height, 1))
        let grid = AffineTransform.scale(res, res)
        guard let box = PixelBox.covering(area, userToPixel: grid),
              spend(Double(box.width * box.height) * PaintCost.perPixel(.conicGradient)),
              let source = ConicMesh.raster(g, box: box, userToPixel: grid, opacity: opacity, exactPixels: false) else { return false }
        defer { cairo_pattern_destroy(source) }
        guard let canvas = RasterCanvas(width: box.width, height: box.height), let cr = cairo_create(canvas.surface) else { return false }
        cairo_translate(cr, -Double(box.x0), -Double(box.y0))
        cairo_scale(cr, res, res)
        cairo_set_source(cr, source)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(canvas.surface)
        guard let png = PNGEncoder.encode(canvas, compression: .default, keepAlpha: true, colorSpace: colorSpace) else { return false }
        let x = Double(box.x0) / res, y = Double(box.y0) / res, w = Double(box.width) / res, h = Double(box.height) / res
        var s = "<defs><pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" x=\"\(SVGNumber.format(x))\" y=\"\(SVGNumber.format(y))\""
        s += " width=\"\(SVGNumber.format(w))\" height=\"\(SVGNumber.format(h))\">"
        s += "<image width=\"\(SVGNumber.format(w))\" height=\"\(SVGNumber.format(h))\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"
        write(s)
        out.append(contentsOf: Base64.encode(png))
        write("\"/></pattern></defs>\n")
        return true
    }

    /// Stripes as real lines over `area`, in a pattern whose one tile is
    /// the area (no seams), as the painter draws them.
    private func writeStripes(_ s: StripesFill, id: String, area: Rect) {
        let box = "x=\"\(SVGNumber.format(area.x))\" y=\"\(SVGNumber.format(area.y))\" width=\"\(SVGNumber.format(area.width))\" height=\"\(SVGNumber.format(area.height))\""
        var body = "<defs><pattern id=\"\(id)\" patternUnits=\"userSpaceOnUse\" \(box)>"
        // The tile's content is placed from its corner (x, y).
        body += "<g transform=\"translate(\(SVGNumber.format(-area.x)),\(SVGNumber.format(-area.y)))\">"
        if let bg = s.background { body += "<rect \(box)\(colorAttributes("fill", bg, opacity: 1))/>" }
        let c = s.color
        if let lines = s.lines(covering: area) {
            if s.lineWidth > 0, spend(Double(lines.count) * PaintCost.perPathEdge) {
                var path = BezierPath()
                for (a, b) in lines { path.move(to: a); path.line(to: b) }
                body += "<path d=\"\(pathData(path))\" fill=\"none\"\(colorAttributes("stroke", c, opacity: 1)) stroke-width=\"\(SVGNumber.format(s.lineWidth))\"/>"
            }
        } else {
            body += "<rect \(box)\(colorAttributes("fill", c, opacity: s.averageCoverage))/>"
        }
        write(body + "</g></pattern></defs>\n")
    }

    // MARK: Values

    private func colorAttributes(_ property: String, _ c: Color, opacity: Double) -> String {
        attributes(paintValue(c, opacity: c.alpha * opacity), property)
    }

    /// A colour of the tree: as sRGB where it is inside
    /// sRGB. A Display P3 colour outside it is written as its sRGB
    /// gamut-mapped colour, with a class whose rule — inside
    /// `@supports (color: color(display-p3 0 0 0))` — sets the property to
    /// `color(display-p3 …)`: Chromium, Safari and Firefox paint the P3
    /// colour, and renderers without CSS Color 4 (librsvg, resvg, which
    /// paint black for a `color()` they cannot read) the sRGB one.
    private func paintValue(_ c: Color, opacity: Double) -> SVGPaint {
        guard colorSpace == .displayP3 else { return SVGPaint(value: Self.color(c), opacity: opacity) }
        let srgb = DisplayP3.srgb(fromP3: c.red, c.green, c.blue, alpha: c.alpha)
        guard !DisplayP3.isInside(srgb, .srgb) else { return SVGPaint(value: Self.color(srgb), opacity: opacity) }
        return SVGPaint(value: Self.color(SceneColorSpace.srgb.painted(srgb)), opacity: opacity, wide: Self.color(srgb: srgb))
    }

    /// The rules of the Display P3 classes, one `<style>` at the end.
    func wideColorStyle() -> String {
        guard !wideRules.isEmpty else { return "" }
        return "<style>@supports (color: color(display-p3 0 0 0)) {\n" + wideRules.joined(separator: "\n") + "\n}</style>\n"
    }

    /// An sRGB colour, extended outside 0…1 when it lies outside sRGB.
    static func color(srgb c: Color) -> String {
        if DisplayP3.isInside(c, .srgb) { return color(c) }
        let p = SceneColorSpace.displayP3.painted(c)
        return "color(display-p3 " + [p.red, p.green, p.blue].map { SVGNumber.format($0, places: 6) }.joined(separator: " ") + ")"
    }

    /// `#rrggbb` where the colour is whole 8-bit values, else percentages.
    static func color(_ c: Color) -> String {
        let channels = [c.red, c.green, c.blue].map { min(1, max(0, $0)) }
        let bytes = channels.map { ($0 * 255).rounded() }
        if zip(channels, bytes).allSatisfy({ abs($0 * 255 - $1) < 1e-9 }) {
            let hex = Array("0123456789abcdef")
            return "#" + String(bytes.flatMap { b -> [Character] in let v = Int(b); return [hex[v >> 4], hex[v & 15]] })
        }
        return "rgb(" + channels.map { SVGNumber.format($0 * 100, places: 4) + "%" }.joined(separator: ",") + ")"
    }

    private func matrix(_ t: AffineTransform) -> String {
        if t.a == 1, t.b == 0, t.c == 0, t.d == 1 {
            return "translate(" + SVGNumber.format(t.tx, places: 4) + " " + SVGNumber.format(t.ty, places: 4) + ")"
        }
        return "matrix(" + [t.a, t.b, t.c, t.d].map { SVGNumber.format($0, places: 6) }.joined(separator: " ") + " "
            + SVGNumber.format(t.tx, places: 4) + " " + SVGNumber.format(t.ty, places: 4) + ")"
    }

    private func pathData(_ path: BezierPath) -> String {
        var d = ""
        d.reserveCapacity(path.elements.count * 16)
        func p(_ q: Point) { d += SVGNumber.format(q.x); d += " "; d += SVGNumber.format(q.y) }
        for e in path.elements {
            switch e {
            case .move(let q): d += "M"; p(q)
            case .line(let q): d += "L"; p(q)
            case .cubic(let c1, let c2, let q): d += "C"; p(c1); d += " "; p(c2); d += " "; p(q)
            case .close: d += "Z"
            }
        }
        return d
    }
}
