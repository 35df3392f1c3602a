import EaselModel

extension Diagnostic.Message {
    static func svgProblem(_ path: String, _ at: SourceLocation?, _ problem: String, code: DiagnosticCode = .invalidData) -> Self {
        let place = at.map { " line \($0.line), column \($0.column)" } ?? ""
        return .init(code, "'\(path)'\(place): \(problem)")
    }
    static func svgTooDeep(_ path: String, _ depth: Int, at imageDepth: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "'\(path)' nests its elements \(depth) deep; under this <image> (at depth \(imageDepth)) that is more than the limit of \(limit) (raise it with --max-depth)")
    }
    static func svgTooManyElements(_ path: String, _ count: Int, _ limit: Int) -> Self {
        let shown = count >= Int(Int32.max) ? "more than \(Int32.max)" : "\(count)"
        return .init(.inputTooLarge, "'\(path)' draws \(shown) elements once its references (<use>, url(#…)) are expanded, more than the limit of \(limit) nodes (raise it with --max-nodes)")
    }
    static func svgTooMuchText(_ path: String, _ count: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "'\(path)' has \(count) characters of text, more than the limit of \(limit)")
    }
    static func notAnImage(_ path: String, root: String?) -> Self {
        .init(.unreadableFile, "'\(path)' is neither a PNG nor an SVG file" + (root.map { " (its root element is <\($0)>, not <svg>)" } ?? ""))
    }
}

/// Reads an SVG used as an `<image>` before anything draws it, with the
/// scene's XML reader (`XMLReader`, SVG dialect): refuses whatever would
/// make it read another file or a URL (librsvg draws it from bytes with no
/// base file, so it could not anyway — refusing first names the reference,
/// with its line), works out its size, and counts what the scene's limits
/// hold it to. librsvg parses the same bytes again to draw them.
enum SVGImageReader {
    /// Whether `bytes` look like XML (an SVG, if anything): the first
    /// character after a byte-order mark and white space is `<`.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "<")
    }

    static func read(_ bytes: [UInt8], reference: String, limits: Limits) -> Result<SVGImageFacts, Diagnostic.Message> {
        // Start tags counted before a tree is built: a million elements
        // would cost hundreds of megabytes to read into one first.
        let tags = startTags(bytes)
        if tags > limits.maxNodes { return .failure(.svgTooManyElements(reference, tags, limits.maxNodes)) }
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        let (rootOrNil, diagnostics) = XMLReader.read(bytes: body, file: reference, errorLimit: 1, dialect: .svgImage)
        if let first = diagnostics.all.first(where: { $0.severity == .error }) {
            return .failure(.svgProblem(reference, first.location, first.message.text, code: first.message.code))
        }
        guard let root = rootOrNil else { return .failure(.notAnImage(reference, root: nil)) }
        guard localName(root.name) == "svg" else { return .failure(.notAnImage(reference, root: root.name)) }
        var walk = Walk(reference: reference)
        walk.visit(root, depth: 1)
        if let problem = walk.problem { return .failure(problem) }
        let size: (Double, Double)
        switch intrinsicSize(root) {
        case .success(let s): size = s
        case .failure(let problem): return .failure(.svgProblem(reference, root.location, problem.text))
        }
        let expanded: (elements: Double, filters: Double)
        switch walk.expandedCounts() {
        case .success(let counts): expanded = counts
        case .failure(let problem): return .failure(problem)
        }
        func clamp(_ v: Double) -> Int { v < Double(Int32.max) ? Int(v) : Int(Int32.max) }
        return .success(SVGImageFacts(width: size.0, height: size.1, elements: clamp(expanded.elements),
                                      filterPrimitives: clamp(expanded.filters), depth: walk.deepest, text: walk.text))
    }

    /// `<` followed by a name's first character: at least the elements
    /// (comments, declarations and end tags are not counted; a `<` in text
    /// or a comment may be, which only overcounts).
    static func startTags(_ bytes: [UInt8]) -> Int {
        var count = 0
        bytes.withUnsafeBufferPointer { b in
            guard b.count > 1 else { return }
            for i in 0..<(b.count - 1) where b[i] == UInt8(ascii: "<") {
                let c = b[i + 1]
                if (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                    || c == UInt8(ascii: "_") || c >= 0x80 { count += 1 }
            }
        }
        return count
    }

    static func localName(_ qname: String) -> Substring {
        qname.split(separator: ":", maxSplits: 1).last ?? Substring(qname)
    }

    // MARK: Size

    /// In user units (points): the `viewBox` gives the aspect; `width` and
    /// `height` (absolute lengths at 96 per inch) the size, the `viewBox`'s
    /// own size where neither is given.
    static func intrinsicSize(_ root: XMLElement) -> Result<(Double, Double), SVGSizeProblem> {
        var viewBox: (Double, Double)?
        if let v = root.attribute("viewBox")?.value {
            let numbers = v.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .map { Double($0) }
            guard numbers.count == 4, let w = numbers[2], let h = numbers[3], w.isFinite, h.isFinite, w > 0, h > 0 else {
                return .failure(SVGSizeProblem(text: "viewBox=\"\(v)\" is not four numbers with a positive width and height"))
            }
            viewBox = (w, h)
        }
        let w = root.attribute("width").flatMap { absoluteLength($0.value) }
        let h = root.attribute("height").flatMap { absoluteLength($0.value) }
        let size: (Double, Double)
        if let (vw, vh) = viewBox {
            let aspect = vw / vh
            if let w { size = (w, w / aspect) } else if let h { size = (h * aspect, h) } else { size = (vw, vh) }
        } else if let w, let h {
            size = (w, h)
        } else {
            return .failure(SVGSizeProblem(text: "the SVG gives no size: it needs a viewBox, or a width and a height in absolute units"))
        }
        guard size.0.isFinite, size.1.isFinite, size.0 > 0, size.1 > 0, size.0 < 1e7, size.1 < 1e7 else {
            return .failure(SVGSizeProblem(text: "its size (\(size.0)×\(size.1)) is not a positive size below 10,000,000"))
        }
        return .success(size)
    }

    /// A length in user units, or nil for a percentage, `auto` or anything
    /// that is not one (the `viewBox` decides then).
    static func absoluteLength(_ text: String) -> Double? {
        let t = text.trimmingSpaces
        let units: [(String, Double)] = [("px", 1), ("pt", 96.0 / 72), ("pc", 16), ("in", 96), ("cm", 96 / 2.54),
                                         ("mm", 96 / 25.4), ("em", 16), ("ex", 8)]
        for (unit, factor) in units where t.hasSuffix(unit) {
            return Double(t.dropLast(unit.count)).map { $0 * factor }.flatMap { $0 > 0 ? $0 : nil }
        }
        return Double(t).flatMap { $0 > 0 ? $0 : nil }
    }

    // MARK: References and counts

    /// One pass over the document: references checked, elements numbered
    /// with what each refers to (`<use>` and `url(#id)`), text collected.
    struct Walk {
        let reference: String
        var problem: Diagnostic.Message?
        var deepest = 0
        var text = ""
        /// Per element, in document order: its children, what it refers
        /// to by id, and whether it is a filter primitive.
        var children: [[Int]] = []
        var references: [[String]] = []
        var isFilterPrimitive: [Bool] = []
        var location: [SourceLocation] = []
        var ids: [String: Int] = [:]

        init(reference: String) { self.reference = reference }

        mutating func fail(_ at: SourceLocation, _ text: String) {
            if problem == nil { problem = .svgProblem(reference, at, text) }
        }

        @discardableResult
        mutating func visit(_ element: XMLElement, depth: Int, inText: Bool = false) -> Int {
            let index = children.count
            children.append([]); references.append([]); location.append(element.location)
            let name = SVGImageReader.localName(element.name)
            isFilterPrimitive.append(name.hasPrefix("fe") && !name.hasPrefix("feFunc") && !name.hasPrefix("feMergeNode"))
            deepest = max(deepest, depth)
            for a in element.attributes {
                let attribute = SVGImageReader.localName(a.name)
                if attribute == "id" { ids[a.value.trimmingSpaces] = ids[a.value.trimmingSpaces] ?? index }
                // A link's target is never read: only what draws is checked.
                if attribute == "href", name != "a" { checkHref(a, element: name, index: index) }
                if a.value.contains("url(") { checkURLs(in: a.value, at: a.valueLocation, index: index) }
                if attribute == "style" { checkStyle(a.value, at: a.valueLocation) }
            }
            let textual = inText || name == "text"
            if name == "style" { checkStyle(element.text, at: element.location) }
            if textual { text += element.texts.joined() }
            for child in element.children {
                let c = visit(child, depth: depth + 1, inText: textual)
                children[index].append(c)
            }
            return index
        }

        mutating func checkHref(_ a: XMLAttribute, element: Substring, index: Int) {
            let v = a.value.trimmingSpaces
            if v.hasPrefix("#") {
                references[index].append(String(v.dropFirst()))
            } else if !SVGImageReader.isAllowedData(v) {
                fail(a.valueLocation, "<\(element)> refers to '\(SVGImageReader.shortened(v))'; an SVG image reads no other file or URL (embed a picture as a data: PNG or JPEG)")
            }
        }

        mutating func checkURLs(in value: String, at location: SourceLocation, index: Int) {
            var rest = Substring(value)
            while let r = rest.firstRange(of: "url(") {
                rest = rest[r.upperBound...]
                guard let close = rest.firstIndex(of: ")") else {
                    fail(location, "url( without its closing parenthesis")
                    return
                }
                var target = String(rest[..<close]).trimmingSpaces
                if let q = target.first, q == "\"" || q == "'", target.count >= 2, target.last == q {
                    target = String(target.dropFirst().dropLast())
                }
                if target.hasPrefix("#") {
                    references[index].append(String(target.dropFirst()))
                } else if !SVGImageReader.isAllowedData(target) {
                    fail(location, "url(\(SVGImageReader.shortened(target))) refers to another file or a URL; an SVG image reads none")
                }
                rest = rest[close...]
            }
        }

        /// A style sheet may not import another; its `url()`s are checked
        /// as any attribute's. A backslash could spell either in CSS escapes,
        /// so style text with one is refused too.
        mutating func checkStyle(_ css: String, at location: SourceLocation) {
            if css.contains("@import") {
                fail(location, "a style sheet with @import; an SVG image reads no other file")
            } else if css.contains("\\") {
                fail(location, "a style with a backslash escape (an SVG image's styles are read without escapes, so nothing can hide a reference)")
            } else if css.contains("url(") {
                checkURLs(in: css, at: location, index: children.count - 1)
            }
        }

        /// Elements and filter primitives as drawn: each `<use>` and
        /// `url(#id)` counts what it refers to again, so a document of
        /// references to references cannot stand for billions of elements.
        /// A reference to an element that contains it is an error.
        func expandedCounts() -> Result<(elements: Double, filters: Double), Diagnostic.Message> {
            let n = children.count
            guard n > 0 else { return .success((0, 0)) }
            var weight = [(Double, Double)](repeating: (0, 0), count: n)
            // 0: not met, 1: on the path (its parts being weighed), 2: weighed.
            var state = [UInt8](repeating: 0, count: n)
            // Iterative, depth first: a chain of 100,000 references must not
            // recurse 100,000 deep.
            var stack: [Int] = [0]
            while let i = stack.last {
                let parts = children[i] + references[i].compactMap { ids[$0] }   // a dangling id draws nothing
                if state[i] == 0 {
                    state[i] = 1
                    for p in parts {
                        if state[p] == 1 {
                            return .failure(.svgProblem(reference, location[p], "a reference that leads back to an element containing it", code: .referenceCycle))
                        }
                        if state[p] == 0 { stack.append(p) }
                    }
                    continue
                }
                stack.removeLast()
                guard state[i] == 1 else { continue }
                var w = (1.0, isFilterPrimitive[i] ? 1.0 : 0)
                for p in parts { w.0 += weight[p].0; w.1 += weight[p].1 }
                weight[i] = (min(w.0, 1e18), min(w.1, 1e18))
                state[i] = 2
            }
            return .success(weight[0])
        }
    }

    /// `data:` pictures librsvg decodes itself: PNG and JPEG.
    static func isAllowedData(_ v: String) -> Bool {
        let lower = v.prefix(32).lowercased()
        return lower.hasPrefix("data:image/png") || lower.hasPrefix("data:image/jpeg") || lower.hasPrefix("data:image/jpg")
    }

    static func shortened(_ v: String) -> String {
        v.count > 60 ? String(v.prefix(57)) + "…" : v
    }
}

struct SVGSizeProblem: Error { var text: String }
