import CCairo
import CLibXML2
import CRsvg

/// An SVG image as content of Easel's SVG output: librsvg draws it into
/// Cairo's SVG surface — the same drawing as in PNG and PDF, text as
/// glyph outlines in the scene's fonts, nothing of the input's CSS or
/// references left to interpret — and the result's ids (and every
/// reference to them) get a prefix of the output's own, so they can
/// collide with nothing else in the document.
enum SVGImageEmbedding {
    /// The children of Cairo's root element, as markup, drawn into a
    /// `width`×`height` box (the image's fitted box) from the image's
    /// intrinsic `size`; or librsvg's or Cairo's problem.
    static func content(_ handle: UnsafeMutablePointer<RsvgHandle>, in documents: SVGImageDocuments, width: Double, height: Double,
                        intrinsic size: (width: Double, height: Double), fonts: FontSet?, idPrefix: String) -> Result<String, SVGImageProblem> {
        cairoDocument(handle, in: documents, width: width, height: height, intrinsic: size, fonts: fonts).flatMap { bytes in
            prefixed(bytes, idPrefix).map { .success($0) } ?? .failure(SVGImageProblem(text: "Cairo's SVG could not be read back"))
        }
    }

    /// Cairo's SVG document of librsvg's drawing into a `width`×`height`
    /// box from the image's intrinsic `size`.
    static func cairoDocument(_ handle: UnsafeMutablePointer<RsvgHandle>, in documents: SVGImageDocuments, width: Double, height: Double,
                              intrinsic size: (width: Double, height: Double), fonts: FontSet?) -> Result<[UInt8], SVGImageProblem> {
        var problem: String?
        let (status, bytes) = ByteSink.collect { sink -> cairo_status_t in
            guard let surface = cairo_svg_surface_create_for_stream(ByteSink.write, sink, width, height) else { return CAIRO_STATUS_NO_MEMORY }
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)
            cairo_scale(cr, width / size.width, height / size.height)
            problem = documents.draw(handle, on: cr!, width: size.width, height: size.height, fonts: fonts)
            cairo_destroy(cr)
            cairo_surface_finish(surface)
            return cairo_surface_status(surface)
        }
        if let problem { return .failure(SVGImageProblem(text: problem)) }
        guard status == CAIRO_STATUS_SUCCESS else { return .failure(SVGImageProblem(text: String(cString: cairo_status_to_string(status)))) }
        return .success(bytes)
    }

    /// Cairo's document with every id renamed `prefix` + its number in
    /// document order (Cairo numbers surfaces by a counter of the whole
    /// process, which would make the same scene's bytes differ from run to
    /// run), every `url(#…)` and `#…` link to match, its root's children
    /// serialised.
    static func prefixed(_ document: [UInt8], _ prefix: String) -> String? {
        // HUGE: Cairo writes a filter's result or an embedded picture as one
        // base64 attribute, past libxml2's 10 MB default for a value; this
        // is Cairo's own output (no DTD, no entities), not an input.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOBLANKS.rawValue | XML_PARSE_HUGE.rawValue)
        let docOrNil = document.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) { xmlReadMemory($0, Int32(b.count), nil, "UTF-8", options) }
        }
        guard let doc = docOrNil else { return nil }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { return nil }
        var names: [String: String] = [:]
        forEachAttribute(root) { name, value in
            if name == "id", names[value] == nil { names[value] = prefix + String(names.count + 1) }
            return nil
        }
        forEachAttribute(root) { name, value in
            if name == "id" { return names[value] }
            var changed = value
            if name == "href", value.hasPrefix("#") { changed = "#" + (names[String(value.dropFirst())] ?? prefix + "missing") }
            if changed.contains("url(#") { changed = renamingURLs(changed, names, prefix) }
            return changed == value ? nil : changed
        }
        guard let buffer = xmlBufferCreate() else { return nil }
        defer { xmlBufferFree(buffer) }
        var child = root.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE { _ = xmlNodeDump(buffer, doc, node, 0, 0) }
            child = node.pointee.next
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    /// `url(#a)` → `url(#` + a's new name + `)`, for each in `value`.
    private static func renamingURLs(_ value: String, _ names: [String: String], _ prefix: String) -> String {
        var out = "", rest = Substring(value)
        while let r = rest.firstRange(of: "url(#") {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            let end = rest.firstIndex(of: ")") ?? rest.endIndex
            out += names[String(rest[..<end])] ?? prefix + "missing"
            rest = rest[end...]
        }
        return out + rest
    }

    /// Calls `body` with each attribute's local name and value, depth
    /// first; a non-nil result replaces the value.
    private static func forEachAttribute(_ node: xmlNodePtr, _ body: (String, String) -> String?) {
        var attribute = node.pointee.properties
        while let a = attribute {
            let name = String(cString: a.pointee.name)
            if let raw = a.pointee.ns.map({ xmlGetNsProp(node, a.pointee.name, $0.pointee.href) }) ?? xmlGetNoNsProp(node, a.pointee.name) {
                let value = String(cString: raw)
                easel_xml_free(raw)
                if let changed = body(name, value) { _ = xmlSetNsProp(node, a.pointee.ns, a.pointee.name, changed) }
            }
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { forEachAttribute(c, body) }
            child = c.pointee.next
        }
    }
}
