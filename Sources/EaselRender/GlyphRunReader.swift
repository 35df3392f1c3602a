import CPangoCairo
import EaselLayout
import EaselModel

/// Reads a laid-out Pango layout into glyph runs: plain data placed exactly
/// where Pango's own renderer would draw each glyph (pango-renderer.c's
/// `pango_renderer_draw_layout_line`: each line at its logical x and
/// baseline, each run after the widths of those before it).
enum GlyphRunReader {
    static let unknownFlag: UInt32 = 0x1000_0000   // PANGO_GLYPH_UNKNOWN_FLAG
    static let emptyGlyph: UInt32 = 0x0FFF_FFFF    // PANGO_GLYPH_EMPTY

    /// `requestedAxes`: the axis tags `font-variation` names, to report
    /// those a run's font lacks.
    static func runs(of layout: OpaquePointer, fonts: FontSet, requestedAxes: [String] = []) -> [GlyphRun] {
        guard let iter = pango_layout_get_iter(layout), let textPointer = pango_layout_get_text(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var out: [GlyphRun] = []
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = Int(pango_layout_iter_get_baseline(iter))
            var x = Int(logical.x)
            var node = line.pointee.runs
            while let n = node {
                node = n.pointee.next
                guard let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) else { continue }
                x += Int(run.pointee.start_x_offset)
                let lineBox = (y: Double(logical.y) / TextShaper.scale, height: Double(logical.height) / TextShaper.scale)
                out.append(read(run, text: textPointer, x: x, y: baseline - Int(run.pointee.y_offset), lineBox: lineBox, fonts: fonts,
                                requestedAxes: requestedAxes))
                x += Int(pango_glyph_string_get_width(run.pointee.glyphs)) + Int(run.pointee.end_x_offset)
            }
        } while pango_layout_iter_next_line(iter) != 0
        return out
    }

    private static func read(_ run: UnsafeMutablePointer<PangoGlyphItem>, text: UnsafePointer<CChar>, x: Int, y: Int,
                             lineBox: (y: Double, height: Double), fonts: FontSet, requestedAxes: [String]) -> GlyphRun {
        let item = run.pointee.item.pointee
        let string = run.pointee.glyphs.pointee
        let runBytes = UnsafeRawBufferPointer(start: text + Int(item.offset), count: Int(item.length))
        let runText = String(decoding: runBytes, as: UTF8.self)
        let backward = item.analysis.level & 1 != 0

        var glyphs: [UInt32] = [], positions: [Point] = [], missing: [MissingCharacter] = []
        var drawn = [Bool](repeating: false, count: Int(string.num_glyphs))
        var advance = 0
        for i in 0..<Int(string.num_glyphs) {
            let g = string.glyphs[i]
            let id = UInt32(g.glyph)
            let gx = x + advance + Int(g.geometry.x_offset), gy = y + Int(g.geometry.y_offset)
            if id & unknownFlag != 0 {
                let code = id & ~unknownFlag
                if let scalar = Unicode.Scalar(code), isVisible(scalar) {
                    let width = Double(g.geometry.width) / TextShaper.scale
                    let box = Rect(x: Double(gx) / TextShaper.scale + width * 0.1, y: lineBox.y + lineBox.height * 0.15,
                                   width: width * 0.8, height: lineBox.height * 0.7)
                    missing.append(MissingCharacter(scalar: scalar, box: box))
                }
            } else if id != emptyGlyph {
                glyphs.append(id)
                positions.append(Point(Double(gx) / TextShaper.scale, Double(gy) / TextShaper.scale))
                drawn[i] = true
            }
            advance += Int(g.geometry.width)
        }

        // Clusters as Pango's Cairo renderer makes them, empty and unknown glyphs not counted.
        var clusters: [GlyphCluster] = []
        var clusterIter = PangoGlyphItemIter()
        if pango_glyph_item_iter_init_start(&clusterIter, run, text) != 0 {
            repeat {
                let lo = min(Int(clusterIter.start_glyph), Int(clusterIter.end_glyph) + 1)
                let hi = max(Int(clusterIter.start_glyph) + 1, Int(clusterIter.end_glyph))
                let count = (lo..<hi).filter { drawn[$0] }.count
                clusters.append(GlyphCluster(bytes: Int(clusterIter.end_index - clusterIter.start_index), glyphs: count))
            } while pango_glyph_item_iter_next_cluster(&clusterIter) != 0
        }

        var face: FontFace?, font: RunFont?, matrix = AffineTransform.identity, color = false, unknownAxes: [String] = []
        if let pangoFont = item.analysis.font,
           let pattern = pango_fc_font_get_pattern(UnsafeMutablePointer<PangoFcFont>(OpaquePointer(pangoFont))) {
            let p = FontPattern(pattern)
            let path = p.string("file") ?? ""
            // A variable font is drawn at exactly the coordinates HarfBuzz
            // shaped with (a named instance, fontconfig's variations and the
            // description's, all applied), every axis written out: Cairo 1.16
            // ignores a named instance in the face index and would draw the
            // default outlines under the instance's advances.
            let axes = VariableAxes(pangoFont)
            let index = p.integer("index") ?? 0
            let bitmaps = p.bool("embeddedbitmap") ?? false
            face = FontFace(file: fonts.fileID(path), index: axes.isEmpty ? index : index & 0xFFFF, variations: axes.variations,
                            synthesizesBold: p.bool("embolden") ?? false, usesBitmaps: bitmaps)
            // Colour bitmaps (CBDT, sbix) paint their own colours; Cairo 1.16
            // draws a COLR font's outlines plainly, as any text, in the fill.
            color = (p.bool("color") ?? false) && bitmaps
            // pangocairo-fcfont.c: the pixel size times fontconfig's matrix (y up there, down here).
            let size = p.double("pixelsize") ?? 0
            let m = p.matrix()
            matrix = AffineTransform(a: m.xx * size, b: -m.yx * size, c: -m.xy * size, d: m.yy * size, tx: 0, ty: 0)
            // The weight drawn: the `wght` axis of a variable font, else the face's.
            let weight = axes.value("wght") ?? FcWeightToOpenTypeDouble(p.double("weight") ?? 80)
            unknownAxes = requestedAxes.filter { !axes.tags.contains($0) }
            font = RunFont(family: p.string("family") ?? "", weight: Int(weight.rounded()),
                           style: style(slant: p.integer("slant") ?? 0), file: fonts.reportedPath(path))
        }
        // Glyphs of a right-to-left run are in visual order; characters are reported in text order.
        if backward { missing.reverse() }
        var glyphRun = GlyphRun(face: face, fontMatrix: matrix, glyphs: glyphs, positions: positions, text: runText, clusters: clusters,
                                clustersBackward: backward, isColor: color, font: font, missing: missing)
        glyphRun.unknownAxes = unknownAxes
        glyphRun.textOffset = Int(item.offset)
        glyphRun.logicalBox = Rect(x: Double(x) / TextShaper.scale, y: lineBox.y, width: Double(advance) / TextShaper.scale,
                                   height: lineBox.height)
        glyphRun.decorations = decorations(item, x: x, width: advance, baseline: y)
        return glyphRun
    }

    /// Underline and strike-through bars over the run's advance, where its
    /// font's metrics put them (Pango's renderer draws them likewise).
    private static func decorations(_ item: PangoItem, x: Int, width: Int, baseline: Int) -> [Rect] {
        var underline = false, strikethrough = false
        var node = item.analysis.extra_attrs
        while let n = node {
            node = n.pointee.next
            guard let attr = n.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) else { continue }
            switch attr.pointee.klass.pointee.type {
            case PANGO_ATTR_UNDERLINE:
                underline = attr.withMemoryRebound(to: PangoAttrInt.self, capacity: 1) { $0.pointee.value } != Int32(PANGO_UNDERLINE_NONE.rawValue)
            case PANGO_ATTR_STRIKETHROUGH:
                strikethrough = attr.withMemoryRebound(to: PangoAttrInt.self, capacity: 1) { $0.pointee.value } != 0
            default: break
            }
        }
        guard underline || strikethrough, width > 0, let font = item.analysis.font,
              let metrics = pango_font_get_metrics(font, item.analysis.language) else { return [] }
        defer { pango_font_metrics_unref(metrics) }
        var out: [Rect] = []
        func bar(_ position: Int32, _ thickness: Int32) {
            out.append(Rect(x: Double(x) / TextShaper.scale, y: Double(baseline - Int(position)) / TextShaper.scale,
                            width: Double(width) / TextShaper.scale, height: Double(max(thickness, 1)) / TextShaper.scale))
        }
        if underline { bar(pango_font_metrics_get_underline_position(metrics), pango_font_metrics_get_underline_thickness(metrics)) }
        if strikethrough {
            bar(pango_font_metrics_get_strikethrough_position(metrics), pango_font_metrics_get_strikethrough_thickness(metrics))
        }
        return out
    }

    /// Characters worth a box and a warning: not spaces, controls or
    /// default-ignorable format characters (which Pango leaves unknown).
    static func isVisible(_ s: Unicode.Scalar) -> Bool {
        let p = s.properties
        return !p.isWhitespace && !p.isDefaultIgnorableCodePoint && p.generalCategory != .control
            && p.generalCategory != .format
    }

    static func style(slant: Int) -> FontStyle {
        switch slant {
        case 0: return .normal
        case 100: return .italic   // FC_SLANT_ITALIC
        default: return .oblique
        }
    }
}

/// A variable font's axes at the coordinates HarfBuzz shaped a run with.
struct VariableAxes {
    private(set) var tags: [String] = []
    private(set) var values: [Double] = []

    init(_ font: UnsafeMutablePointer<PangoFont>) {
        guard let hbFont = pango_font_get_hb_font(font), let face = hb_font_get_face(hbFont) else { return }
        var count = hb_ot_var_get_axis_count(face)
        guard count > 0 else { return }
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        _ = hb_ot_var_get_axis_infos(face, 0, &count, &infos)
        var length: UInt32 = 0
        let coords = hb_font_get_var_coords_design(hbFont, &length)
        for info in infos.prefix(Int(count)) {
            let t = info.tag
            tags.append(String(decoding: [UInt8(t >> 24 & 0xFF), UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], as: UTF8.self))
            let i = Int(info.axis_index)
            values.append(Double(coords != nil && i < Int(length) ? coords![i] : info.default_value))
        }
    }

    var isEmpty: Bool { tags.isEmpty }

    /// Every axis, as fontconfig and Cairo write variations (`wght=350,slnt=-10`).
    var variations: String {
        zip(tags, values).map { tag, v in "\(tag)=\(v == v.rounded() && abs(v) < 1e6 ? String(Int(v)) : String(v))" }.joined(separator: ",")
    }

    func value(_ tag: String) -> Double? { tags.firstIndex(of: tag).map { values[$0] } }
}

/// Typed reads of a fontconfig pattern's values.
struct FontPattern {
    let pattern: OpaquePointer
    init(_ pattern: OpaquePointer) { self.pattern = pattern }

    func string(_ object: String, _ n: Int32 = 0) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
    func strings(_ object: String) -> [String] {
        var out: [String] = []
        while let s = string(object, Int32(out.count)) { out.append(s) }
        return out
    }
    func integer(_ object: String) -> Int? {
        var value: Int32 = 0
        return FcPatternGetInteger(pattern, object, 0, &value) == FcResultMatch ? Int(value) : nil
    }
    func double(_ object: String) -> Double? {
        var value = 0.0
        return FcPatternGetDouble(pattern, object, 0, &value) == FcResultMatch ? value : nil
    }
    func bool(_ object: String) -> Bool? {
        var value: FcBool = 0
        return FcPatternGetBool(pattern, object, 0, &value) == FcResultMatch ? value != 0 : nil
    }
    /// The product of every matrix the pattern holds (fontconfig's y-up convention).
    func matrix() -> FcMatrix {
        var product = FcMatrix(xx: 1, xy: 0, yx: 0, yy: 1)
        var n: Int32 = 0
        var m: UnsafeMutablePointer<FcMatrix>?
        while FcPatternGetMatrix(pattern, "matrix", n, &m) == FcResultMatch, let m {
            var left = product
            FcMatrixMultiply(&product, &left, m)
            n += 1
        }
        return product
    }
}
