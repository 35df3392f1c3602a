import CLibXML2
import FoundationEssentials
import EaselModel

extension Diagnostic.Message {
    static func malformedXML(_ detail: String) -> Self { .init(.malformedXML, "malformed XML: \(detail)") }
    static let doctypeRefused = Self(.doctypeRefused, "a DOCTYPE is not allowed in a scene (scenes need none, and refusing it shuts out entity tricks)")
    static let notUTF8 = Self(.malformedXML, "a scene file must be UTF-8 text")
    static let emptyDocument = Self(.malformedXML, "the file has no root element")
    static let styleSheetRefused = Self(.doctypeRefused, "an <?xml-stylesheet?> is not allowed: an SVG image reads no other file or document")
    static let declarationsRefused = Self(.doctypeRefused, "a DOCTYPE that declares entities, elements or attributes is not allowed (an input SVG may only name a DTD, which is never read): delete its [ … ] block, and the attributes that use its entities (Illustrator's xmlns:x=\"&ns_extend;\" and the like)")
    static func tooManyAttributes(_ limit: Int) -> Self {
        .init(.inputTooLarge, "this element has more than \(limit) attributes (no element of the format takes more than 40)")
    }
    static func fileTooLarge(_ size: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "the file is \(size) bytes, more than the limit of \(limit) bytes (raise it with --max-file-size)")
    }
}

/// Reads XML with libxml2's SAX2 interface, safely: no network, no DTD
/// loading, no entity substitution, and any DOCTYPE is refused. libxml2 only
/// reports line numbers for elements, so each element's and attribute's
/// exact column is found by reading back over the start tag libxml2 has just
/// accepted (attribute values cannot contain `<`, so the tag's start is the
/// nearest `<` before the parser's position).
public enum XMLReader {
    /// libxml2 initialises its globals (encoding handlers among them) on
    /// first use, which is not thread-safe: two scenes parsed at once with
    /// `-j` could both initialise, and one table leaked (LeakSanitizer saw
    /// it). `xmlInitParser` once, before any parse — Swift runs a static's
    /// initialiser exactly once, whichever thread gets there first.
    private static let parserInitialised: Void = xmlInitParser()

    /// How a document is read. A scene refuses any DOCTYPE and any
    /// character no output can carry; an SVG used as an image may name a
    /// public DTD (never read) but declare nothing, and keeps its text as
    /// written (librsvg reads it again).
    public enum Dialect: Sendable { case scene, svgImage }

    /// `errorLimit`: errors kept before parsing stops (0: all).
    public static func read(bytes: [UInt8], file: String, errorLimit: Int = 0, dialect: Dialect = .scene) -> (XMLElement?, Diagnostics) {
        _ = parserInitialised
        let state = ReaderState(bytes: bytes, file: file)
        state.dialect = dialect
        state.diagnostics.errorLimit = errorLimit
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.contains(0)
            || String(validating: bytes, as: UTF8.self) == nil {
            state.diagnostics.error(.notUTF8, at: SourceLocation(file: file, line: 1, column: 1))
            return (nil, state.diagnostics)
        }
        guard !bytes.isEmpty else {
            state.diagnostics.error(.emptyDocument, at: SourceLocation(file: file, line: 1, column: 1))
            return (nil, state.diagnostics)
        }
        // libxml2 checks each attribute against every earlier one of its
        // element (quadratic: 100,000 attributes on one element cost it
        // 2.5·10¹⁰ instructions before Easel sees the element).
        if let offset = firstElementWithTooManyAttributes(bytes, limit: maxAttributesPerElement) {
            state.diagnostics.error(.tooManyAttributes(maxAttributesPerElement), at: state.lines.location(ofByte: offset))
            return (nil, state.diagnostics)
        }
        // libxml2 takes the size as a C int; `--max-file-size` is held
        // below this, so only a caller that bypassed it gets here.
        guard bytes.count <= Limits.maxFileSizeCeiling else {
            state.diagnostics.error(.fileTooLarge(bytes.count, Limits.maxFileSizeCeiling), at: nil)
            return (nil, state.diagnostics)
        }
        let ctxtOrNil: xmlParserCtxtPtr? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                xmlCreateMemoryParserCtxt($0, Int32(buf.count))
            }
        }
        guard let ctxt = ctxtOrNil else {
            state.diagnostics.error(.malformedXML("libxml2 could not start"), at: nil)
            return (nil, state.diagnostics)
        }
        defer {
            // libxml2 may build a document of its own even with these SAX
            // handlers — to hold entity declarations, when a DOCTYPE follows
            // a malformed XML declaration (a fuzzer found it leaking) — and
            // the parser context does not free it.
            if let doc = ctxt.pointee.myDoc {
                xmlFreeDoc(doc)
                ctxt.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(ctxt)
        }
        state.context = ctxt
        let unmanaged = Unmanaged.passRetained(state)
        defer { unmanaged.release() }

        installHandlers(on: ctxt.pointee.sax)
        ctxt.pointee.userData = unmanaged.toOpaque()
        // NONET: never fetch; IGNORE_ENC: the bytes were checked as UTF-8, so
        // offsets into them stay valid. Never NOENT, DTDLOAD or HUGE.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOCDATA.rawValue)
        _ = xmlCtxtUseOptions(ctxt, options)
        _ = xmlParseDocument(ctxt)
        if !state.diagnostics.hasErrors, state.root == nil {
            state.diagnostics.error(.emptyDocument, at: SourceLocation(file: file, line: 1, column: 1))
        }
        return (state.diagnostics.hasErrors ? nil : state.root, state.diagnostics)
    }

    /// Far above what any element takes, far below what makes libxml2 slow.
    static let maxAttributesPerElement = 256

    /// The offset of the first start tag with more than `limit` attributes
    /// (counted by their `=` outside quotes), in one pass that skips
    /// comments, CDATA, processing instructions and declarations.
    static func firstElementWithTooManyAttributes(_ bytes: [UInt8], limit: Int) -> Int? {
        bytes.withUnsafeBufferPointer { b -> Int? in
            let n = b.count
            let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), eq = UInt8(ascii: "=")
            let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'"), bang = UInt8(ascii: "!"), question = UInt8(ascii: "?")
            func has(_ marker: StaticString, at k: Int) -> Bool {
                let m = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
                guard k + m.count <= n else { return false }
                for t in 0..<m.count where b[k + t] != m[t] { return false }
                return true
            }
            func skip(past marker: StaticString, from start: Int) -> Int {
                var k = start
                while k < n {
                    if has(marker, at: k) { return k + marker.utf8CodeUnitCount }
                    k += 1
                }
                return n
            }
            var i = 0
            while i < n {
                guard b[i] == lt, i + 1 < n else { i += 1; continue }
                let next = b[i + 1]
                if next == bang {
                    if has("<!--", at: i) { i = skip(past: "-->", from: i + 4) }
                    else if has("<![CDATA[", at: i) { i = skip(past: "]]>", from: i + 9) }
                    else { i = skip(past: ">", from: i + 2) }
                    continue
                }
                if next == question { i = skip(past: "?>", from: i + 2); continue }
                if next == UInt8(ascii: "/") { i = skip(past: ">", from: i + 2); continue }
                var j = i + 1, quote: UInt8 = 0, count = 0
                while j < n {
                    let c = b[j]
                    if quote != 0 {
                        if c == quote { quote = 0 }
                    } else if c == dq || c == sq {
                        quote = c
                    } else if c == eq {
                        count += 1
                        if count > limit { return i }
                    } else if c == gt || c == lt {
                        break
                    }
                    j += 1
                }
                i = j
            }
            return nil
        }
    }

    private static func installHandlers(on sax: UnsafeMutablePointer<xmlSAXHandler>) {
        sax.pointee = xmlSAXHandler()
        sax.pointee.initialized = XML_SAX2_MAGIC
        sax.pointee.startElementNs = { ctx, localname, prefix, _, _, _, nbAttributes, _, attributes in
            guard let ctx, let localname else { return }
            let state = Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue()
            var attrs: [(String, String)] = []
            if let attributes {
                for i in 0..<Int(nbAttributes) {
                    let base = attributes + i * 5
                    guard let name = base[0], let start = base[3], let end = base[4] else { continue }
                    var qname = String(cString: name)
                    if let p = base[1] { qname = String(cString: p) + ":" + qname }
                    let count = end - start
                    let value = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
                    attrs.append((qname, value))
                }
            }
            var name = String(cString: localname)
            if let prefix { name = String(cString: prefix) + ":" + name }
            state.startElement(name: name, attributes: attrs)
        }
        sax.pointee.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().endElement()
        }
        sax.pointee.characters = { ctx, chars, len in
            guard let ctx, let chars else { return }
            let text = String(decoding: UnsafeBufferPointer(start: chars, count: Int(len)), as: UTF8.self)
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().characters(text)
        }
        sax.pointee.internalSubset = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDoctype()
        }
        sax.pointee.processingInstruction = { ctx, target, _ in
            guard let ctx, let target else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().processingInstruction(String(cString: target))
        }
        // Declarations inside a DOCTYPE (only an SVG's gets this far).
        sax.pointee.entityDecl = { ctx, _, _, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDeclaration()
        }
        sax.pointee.attributeDecl = { ctx, _, _, _, _, _, tree in
            xmlFreeEnumeration(tree)
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDeclaration()
        }
        sax.pointee.elementDecl = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDeclaration()
        }
        sax.pointee.notationDecl = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDeclaration()
        }
        sax.pointee.unparsedEntityDecl = { ctx, _, _, _, _ in
            guard let ctx else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().refuseDeclaration()
        }
        sax.pointee.serror = { ctx, error in
            guard let ctx, let error else { return }
            Unmanaged<ReaderState>.fromOpaque(ctx).takeUnretainedValue().libxmlError(error.pointee)
        }
    }
}

private final class ReaderState {
    let bytes: [UInt8]
    let file: String
    let lines: LineTable
    var context: xmlParserCtxtPtr?
    var stack: [XMLElement] = []
    var root: XMLElement?
    var diagnostics = Diagnostics()
    var dialect = XMLReader.Dialect.scene

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
        lines = LineTable(file: file, bytes: bytes)
    }

    private var parserOffset: Int {
        guard let context else { return 0 }
        return max(0, min(bytes.count, Int(xmlByteConsumed(context))))
    }

    func startElement(name: String, attributes: [(String, String)]) {
        let end = parserOffset
        // At the end of a truncated file the parser stands past the last byte.
        var start = min(end, bytes.count - 1)
        while start > 0, bytes[start] != UInt8(ascii: "<") { start -= 1 }
        let positions = scanStartTag(from: start, to: end)
        var attrs: [XMLAttribute] = []
        attrs.reserveCapacity(attributes.count)
        for (index, (qname, value)) in attributes.enumerated() {
            // In written order, so the same index; searched if not.
            let found = index < positions.count && spells(positions[index].name, qname) ? positions[index]
                : positions.first { spells($0.name, qname) }
            let pos = found.map { ($0.name.lowerBound, $0.value, $0.valueEnd) } ?? (start, start, start)
            let attribute = XMLAttribute(name: qname, value: value,
                                         location: lines.location(ofByte: pos.0),
                                         valueLocation: lines.location(ofByte: pos.1),
                                         valueEnd: lines.location(ofByte: pos.2))
            // `&#13;` is well-formed XML, but no output carries it as written.
            if dialect == .scene, let (scalar, _) = CarriedText.firstNotAllowed(in: value) {
                diagnostics.error(.characterNotAllowed(scalar, in: "the value of '\(qname)'"), at: attribute.valueLocation, through: attribute.valueEnd)
            }
            attrs.append(attribute)
        }
        stack.append(XMLElement(name: name, location: lines.location(ofByte: start),
                                attributes: attrs, children: []))
    }

    func endElement() {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty { root = element } else {
            stack[stack.count - 1].children.append(element)
            stack[stack.count - 1].texts.append("")
        }
    }

    func characters(_ text: String) {
        guard !stack.isEmpty else { return }
        if dialect == .scene, let (scalar, _) = CarriedText.firstNotAllowed(in: text) {
            diagnostics.error(.characterNotAllowed(scalar, in: "the text of <\(stack[stack.count - 1].name)>"), at: lines.location(ofByte: parserOffset))
        }
        let top = stack.count - 1
        stack[top].texts[stack[top].texts.count - 1] += text
    }

    func refuseDoctype() {
        guard dialect == .scene else { return }
        refuse(.doctypeRefused)
    }

    /// An SVG image may not name a style sheet (librsvg would load it);
    /// other processing instructions mean nothing to it or to a scene.
    func processingInstruction(_ target: String) {
        guard dialect == .svgImage, target.lowercased() == "xml-stylesheet" else { return }
        refuse(.styleSheetRefused, at: "<?")
    }

    func refuseDeclaration() {
        guard !diagnostics.all.contains(where: { $0.message.code == .doctypeRefused }) else { return }
        refuse(.declarationsRefused)
    }

    /// Reports `message` at the nearest `marker` before the parser's
    /// position, and stops.
    private func refuse(_ message: Diagnostic.Message, at markerText: String = "<!DOCTYPE") {
        var start = min(parserOffset, bytes.count - 1)
        let marker = Array(markerText.utf8)
        while start > 0, !bytes[start...].starts(with: marker) { start -= 1 }
        diagnostics.error(message, at: lines.location(ofByte: start))
        if let context { xmlStopParser(context) }
    }

    func libxmlError(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        // After a refused DOCTYPE, stopping the parser raises its own error.
        if diagnostics.all.contains(where: { $0.message.code == .doctypeRefused }) { return }
        var message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        message = message.trimmingSpaces
        if let first = message.first { message = first.lowercased() + message.dropFirst() }
        // libxml2's own limit, whatever --max-depth says; its message names
        // an option Easel never sets.
        if message.hasPrefix("excessive depth in document") {
            message = "elements nested more than \(Limits.maxDepthCeiling) deep (the most the XML reader takes)"
        }
        let line = max(1, Int(error.line))
        let column = max(1, Int(error.int2))
        diagnostics.error(.malformedXML(message), at: SourceLocation(file: file, line: line, column: column))
        if diagnostics.isFull, let context { xmlStopParser(context) }
    }

    /// The byte offsets of each attribute's name, value start and value end
    /// inside a start tag that libxml2 has already checked to be well
    /// formed, in the order they are written (the order libxml2 reports
    /// them in): no names copied, no table made.
    private func scanStartTag(from start: Int, to end: Int) -> [(name: Range<Int>, value: Int, valueEnd: Int)] {
        var result: [(name: Range<Int>, value: Int, valueEnd: Int)] = []
        var i = start + 1
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i < end, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/") { i += 1 }
        while i < end {
            while i < end, isSpace(bytes[i]) { i += 1 }
            guard i < end, bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/") else { break }
            let nameStart = i
            while i < end, bytes[i] != UInt8(ascii: "="), !isSpace(bytes[i]) { i += 1 }
            let nameEnd = i
            while i < end, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "'") { i += 1 }
            guard i < end else { break }
            let quote = bytes[i]
            i += 1
            let valueStart = i
            while i < end, bytes[i] != quote { i += 1 }
            result.append((nameStart..<nameEnd, valueStart, i))
            i += 1
        }
        return result
    }

    /// Whether the bytes in `range` spell `name`.
    private func spells(_ range: Range<Int>, _ name: String) -> Bool {
        name.utf8.count == range.count && name.utf8.elementsEqual(bytes[range])
    }
}
