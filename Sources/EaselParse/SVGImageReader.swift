import EaselModel

extension Diagnostic.Message {
    static func svgProblem(_ path: String, _ at: SourceLocation?, _ problem: String, code: DiagnosticCode = .invalidData) -> Self {
        let place = at.map { " line \($0.line), column \($0.column)" } ?? ""
        return .init(code, "'\(path)'\(place): \(problem)")
    }
    static func svgTooDeep(_ path: String, _ depth: Int, at imageDepth: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "'\(path)' nests its elements \(depth) deep; under this <image> (at depth \(imageDepth)) that is more than the limit of \(limit) (raise it with --max-depth)")
    }
    static func svgTooManyElements(_ path: String, _ count: Double, _ limit: Int) -> Self {
        let shown = count >= 1e15 ? "more than 10¹⁵" : "\(Int(count))"
        return .init(.inputTooLarge, "'\(path)' draws \(shown) elements once its references (<use>, url(#…), style rules, markers) are expanded, more than the limit of \(limit) nodes (raise it with --max-nodes)")
    }
    static func svgTooManyToParse(_ path: String, _ count: Int, _ budget: Double) -> Self {
        let most = Int(budget / SVGImageFacts.parseCostPerElement)
        return .init(.workTooLarge, "'\(path)' has \(count) elements; parsing it (each render parses it again) would cost more than the paint budget allows, \(most) elements (raise it with --max-paint)")
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
/// make librsvg read anything but these bytes, works out its size, and
/// bounds what drawing it can cost (`SVGDrawWork`). librsvg parses the same
/// bytes again to draw them, given no file name: it has no base to resolve
/// a relative reference against, and only `data:` URLs would load — so
/// those are allowed only where they are pictures (`<image>`,
/// `<feImage>`: PNG or JPEG), never where librsvg would load them as a
/// document (`<use>`, `url()`, XInclude) or a style sheet.
///
/// Rules are strict where SVG and CSS are loose: CSS is case-insensitive
/// (`URL(`, `@IMPORT`), has escapes (`u\72l(`), and XML may declare another
/// encoding than the bytes were checked as; each is refused rather than
/// interpreted a second way.
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
        if tags > limits.maxNodes { return .failure(.svgTooManyElements(reference, Double(tags), limits.maxNodes)) }
        if Double(tags) * SVGImageFacts.parseCostPerElement > limits.maxPaintCost {
            return .failure(.svgTooManyToParse(reference, tags, limits.maxPaintCost))
        }
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        if let encoding = declaredEncoding(body), !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased()) {
            return .failure(.svgProblem(reference, SourceLocation(file: reference, line: 1, column: 1),
                                        "declares encoding=\"\(encoding)\"; an SVG image must be UTF-8", code: .malformedXML))
        }
        let (rootOrNil, diagnostics) = XMLReader.read(bytes: body, file: reference, errorLimit: 1, dialect: .svgImage)
        if let first = diagnostics.all.first(where: { $0.severity == .error }) {
            return .failure(.svgProblem(reference, first.location, first.message.text, code: first.message.code))
        }
        guard let root = rootOrNil else { return .failure(.notAnImage(reference, root: nil)) }
        guard localName(root.name) == "svg" else { return .failure(.notAnImage(reference, root: root.name)) }
        var walk = Walk(reference: reference, limits: limits)
        walk.visit(root, depth: 1)
        if let problem = walk.problem { return .failure(problem) }
        let size: (Double, Double)
        switch intrinsicSize(root) {
        case .success(let s): size = s
        case .failure(let problem): return .failure(.svgProblem(reference, root.location, problem.text))
        }
        let characters = walk.text.unicodeScalars.count
        if characters > maxTextCharacters {
            return .failure(.svgProblem(reference, root.location, "\(characters) characters of text, more than \(maxTextCharacters): librsvg lays text out in more than linear time (40,000 characters took 17 s)", code: .inputTooLarge))
        }
        // librsvg matches every style rule against every element as it parses.
        let elements = Double(walk.children.count)
        let parseCost = elements * SVGImageFacts.parseCostPerElement + walk.cssRules * elements * SVGImageFacts.parseCostPerRuleMatch
        if parseCost > limits.maxPaintCost {
            return .failure(.svgProblem(reference, root.location, "\(Int(walk.cssRules)) style rules over \(walk.children.count) elements: parsing it would cost more than the paint budget (raise it with --max-paint)", code: .workTooLarge))
        }
        switch walk.expandedWork() {
        case .failure(let problem): return .failure(problem)
        case .success(let work) where work.embeddedPixels > maxEmbeddedPixels:
            return .failure(.svgProblem(reference, root.location, "draws embedded pictures of \(Int(work.embeddedPixels)) pixels in all, more than \(Int(maxEmbeddedPixels)) (librsvg holds each as a decoded picture and a surface, 8 bytes a pixel)", code: .inputTooLarge))
        case .success(let work):
            return .success(SVGImageFacts(width: size.0, height: size.1, parsedElements: walk.children.count, parseCost: parseCost,
                                          depth: walk.deepest, text: walk.text, work: work))
        }
    }

    /// Text an SVG image may hold: logos and cards hold a few words, and
    /// librsvg 2.54 lays text out in worse than linear time.
    static let maxTextCharacters = 4_000
    /// Pixels of the `data:` pictures one SVG image may draw (with their
    /// uses): a 64-megapixel one took 534 MB.
    static let maxEmbeddedPixels = 16_777_216.0

    /// The `encoding` of an XML declaration at the start, if one names it.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let r = declaration.firstRange(of: "encoding") else { return nil }
        var rest = declaration[r.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "?" }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
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
        // Below a thousandth of a point, scaling it to any frame puts
        // Cairo's matrix past what it can invert.
        guard size.0.isFinite, size.1.isFinite, size.0 >= 1e-3, size.1 >= 1e-3, size.0 < 1e7, size.1 < 1e7 else {
            return .failure(SVGSizeProblem(text: "its size (\(size.0)×\(size.1)) is not between 0.001 and 10,000,000 on each side"))
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

    // MARK: References and work

    /// A reference from one element to another, and how many times what it
    /// refers to is drawn for it.
    struct Reference {
        var id: String
        /// A marker's: once per vertex of the element.
        var isMarker = false
    }

    /// One pass over the document: references checked, elements numbered
    /// with what each refers to and what it draws itself, text collected.
    struct Walk {
        let reference: String
        let limits: Limits
        var problem: Diagnostic.Message?
        var deepest = 0
        var text = ""
        /// Per element, in document order.
        var children: [[Int]] = []
        var references: [[Reference]] = []
        var own: [SVGDrawWork] = []
        var vertices: [Double] = []
        var location: [SourceLocation] = []
        var ids: [String: Int] = [:]
        /// What style sheets refer to: drawn for every element they could match.
        var sheetReferences: [String] = []
        /// A style sheet sets a property that makes a layer: any element may have one.
        var sheetMakesLayers = false
        /// Rules in the style sheets: librsvg matches each against every element.
        var cssRules = 0.0
        /// The shortest dash period anywhere (attributes or styles): every
        /// path is counted as dashed with it.
        var shortestDashPeriod = Double.infinity
        /// The largest scale transforms nested in the document apply.
        var largestScale = 1.0

        init(reference: String, limits: Limits) { self.reference = reference; self.limits = limits }

        mutating func fail(_ at: SourceLocation, _ text: String) {
            if problem == nil { problem = .svgProblem(reference, at, text) }
        }

        /// Properties whose element is drawn through a layer of its own.
        static let layerProperties = ["opacity", "mask", "clip-path", "filter", "mix-blend-mode", "isolation"]

        /// The largest factor a transform list scales lengths by (its
        /// largest singular value), 1 if it does not parse.
        static func scale(of transform: String) -> Double {
            guard case .success(let m) = TransformParser.parse(transform) else { return 1 }
            let (a, b, c, d) = (m.a, m.b, m.c, m.d)
            let s1 = a * a + b * b + c * c + d * d
            let root = ((a * a + b * b - c * c - d * d) * (a * a + b * b - c * c - d * d) + 4 * (a * c + b * d) * (a * c + b * d)).squareRoot()
            let value = ((s1 + root) / 2).squareRoot()
            return value.isFinite ? max(value, 1) : .infinity
        }

        @discardableResult
        mutating func visit(_ element: XMLElement, depth: Int, inText: Bool = false, scale outerScale: Double = 1) -> Int {
            let index = children.count
            children.append([]); references.append([]); location.append(element.location)
            own.append(SVGDrawWork()); vertices.append(0)
            let name = SVGImageReader.localName(element.name)
            own[index].elements = 1
            if name.hasPrefix("fe"), !name.hasPrefix("feFunc"), name != "feMergeNode", name != "feDistantLight",
               name != "fePointLight", name != "feSpotLight" {
                let weight = filterWeight(name, element)
                own[index].filterPrimitives = weight
            }
            if name == "feTile" {
                fail(element.location, "<feTile> is not allowed: librsvg 2.54 aborts the process on an empty input region (its issue 928)")
            }
            deepest = max(deepest, depth)
            if name == "include" || name == "fallback" {
                fail(element.location, "<\(element.name)> (XInclude) is not allowed: an SVG image reads no other file")
            }
            var layer = false
            var scale = outerScale
            if let t = element.attribute("transform")?.value { scale *= Self.scale(of: t) }
            largestScale = max(largestScale, scale)
            for a in element.attributes {
                let attribute = SVGImageReader.localName(a.name)
                let value = a.value
                if value.contains("\\") {
                    fail(a.valueLocation, "a backslash in \(a.name)=\"…\" (a CSS escape could spell a reference past this check)")
                }
                if attribute == "id" { ids[value.trimmingSpaces] = ids[value.trimmingSpaces] ?? index }
                // librsvg 2.54 also reads an unprefixed `path` on <image> and
                // <feImage> as the picture (for old Illustrator files). A
                // link's target is not read, but a PDF writes it as a live
                // link: it must stay in the document too.
                if attribute == "href" || (attribute == "path" && (name == "image" || name == "feImage")) {
                    checkHref(a, element: name, index: index)
                }
                checkLibrsvgLimits(attribute, value, element: name, at: a.valueLocation, index: index)
                let lower = value.lowercased()
                if lower.contains("url(") {
                    for id in checkURLs(in: value, at: a.valueLocation) {
                        references[index].append(Reference(id: id, isMarker: attribute.hasPrefix("marker") || lower.contains("marker")))
                    }
                }
                if attribute == "stroke-dasharray" { noteDashes(lower) }
                if attribute == "style" {
                    checkStyleSheet(lower, at: a.valueLocation)
                    checkLibrsvgLimits(inCSS: lower, at: a.valueLocation)
                    if let r = lower.firstRange(of: "stroke-dasharray") { noteDashes(String(lower[r.upperBound...].prefix { $0 != ";" })) }
                    if Self.layerProperties.contains(where: { lower.contains($0) }) { layer = true }
                }
                if Self.layerProperties.contains(String(attribute)), attribute != "opacity" || (Double(value.trimmingSpaces) ?? 0) < 1,
                   lower.trimmingSpaces != "normal", lower.trimmingSpaces != "auto" {
                    layer = true
                }
                if (attribute == "fill" || attribute == "stroke"), lower.contains("url(") { layer = true }   // a pattern, maybe
                if attribute == "d", name == "path" { addPath(PathDataParser.parse(value), index: index, at: a.valueLocation) }
                if attribute == "points", name == "polyline" || name == "polygon" {
                    addPath(Self.polygon(value, closed: name == "polygon"), index: index, at: a.valueLocation)
                }
            }
            if name == "line" { vertices[index] = 2 }
            if name == "pattern" {
                // Its tile at its own size (a fraction of the box with
                // objectBoundingBox units: the image's size bounds it then).
                let w = element.attribute("width").flatMap { Double($0.value.trimmingSpaces) } ?? 0
                let h = element.attribute("height").flatMap { Double($0.value.trimmingSpaces) } ?? 0
                let t = element.attribute("patternTransform").map { Self.scale(of: $0.value) } ?? 1
                own[index].patternTileArea = max(abs(w * h), 1) * t * t
            }
            if layer { own[index].layers = 1; own[index].layerDepth = 1 }
            let textual = inText || name == "text"
            if name == "style" {
                let css = element.text
                if css.contains("\\") { fail(element.location, "a backslash in a style sheet (a CSS escape could spell a reference past this check)") }
                let lower = css.lowercased()
                checkStyleSheet(lower, at: element.location)
                checkLibrsvgLimits(inCSS: lower, at: element.location)
                cssRules += Double(css.filter { $0 == "{" }.count)
                var rest = Substring(lower)
                while let r = rest.firstRange(of: "stroke-dasharray") {
                    rest = rest[r.upperBound...]
                    noteDashes(String(rest.prefix { $0 != ";" && $0 != "}" }))
                }
                if lower.contains("url(") { sheetReferences += checkURLs(in: css, at: element.location) }
                if Self.layerProperties.contains(where: { lower.contains($0) }) { sheetMakesLayers = true }
            }
            if textual { text += element.texts.joined() }
            for child in element.children {
                let c = visit(child, depth: depth + 1, inText: textual, scale: scale)
                children[index].append(c)
            }
            return index
        }

        /// A `stroke-dasharray`'s period (the sum of its lengths).
        mutating func noteDashes(_ value: String) {
            let numbers = value.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ":" || $0 == "\t" || $0 == "\n" })
                .compactMap { Double($0.filter { $0.isNumber || $0 == "." || $0 == "e" || $0 == "-" }) }
            let period = numbers.reduce(0) { $0 + abs($1) } * (numbers.count % 2 == 1 ? 2 : 1)
            if period > 0, period.isFinite { shortestDashPeriod = min(shortestDashPeriod, period) }
        }

        /// What a filter primitive costs per pixel, in units of a blur's
        /// (`PaintCost.perSVGFilterPrimitivePixel`): turbulence per octave,
        /// morphology and convolution by their kernels (a 20 × 20
        /// convolution took 1.9 µs a pixel, 32 blurs' worth). Orders past
        /// what librsvg 2.54 handles abort it, so they are refused.
        mutating func filterWeight(_ name: Substring, _ element: XMLElement) -> Double {
            func numbers(_ attribute: String) -> [Double] {
                (element.attribute(attribute)?.value ?? "").split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .compactMap { Double($0) }
            }
            switch name {
            case "feTurbulence":
                let octaves = numbers("numOctaves").first ?? 1
                if !(octaves <= 10) { fail(element.location, "<feTurbulence numOctaves> above 10 (each octave is another pass over every pixel)") }
                return 10 * max(1, min(octaves, 10))
            case "feMorphology":
                let r = min(numbers("radius").max() ?? 0, 10)   // librsvg's own clamp
                return max(1, (2 * r + 1) * (2 * r + 1) / 8)
            case "feConvolveMatrix":
                let order = numbers("order")
                let x = order.first ?? 3, y = order.count > 1 ? order[1] : x
                guard x >= 1, y >= 1, x <= 20, y <= 20, x == x.rounded(), y == y.rounded() else {
                    fail(element.location, "<feConvolveMatrix order> must be whole numbers from 1 to 20 (librsvg 2.54 aborts past them)")
                    return 1
                }
                if numbers("kernelMatrix").count != Int(x * y) {
                    fail(element.location, "<feConvolveMatrix kernelMatrix> must hold order × order numbers (librsvg 2.54 aborts otherwise)")
                }
                return max(1, x * y / 8)
            default:
                return 1
            }
        }

        /// Values librsvg 2.54 aborts the process on (its issue 932: a
        /// font size past about 10⁶ pixels): sizes and spacings over 10,000.
        static let fontProperties = ["font-size", "letter-spacing", "word-spacing", "font"]
        mutating func checkLibrsvgLimits(_ attribute: Substring, _ value: String, element: Substring, at location: SourceLocation, index: Int) {
            guard Self.fontProperties.contains(String(attribute)) else { return }
            if Self.largestNumber(in: value) > 10_000 {
                fail(location, "\(attribute)=\"\(SVGImageReader.shortened(value))\": sizes and spacings above 10,000 are refused (librsvg 2.54 aborts on huge text)")
            }
        }

        mutating func checkLibrsvgLimits(inCSS lowercased: String, at location: SourceLocation) {
            // A `:lang()` selector aborts librsvg 2.54's style matching.
            if lowercased.contains(":lang(") { fail(location, "a :lang() selector (librsvg 2.54 aborts on it)") }
            for property in Self.fontProperties {
                var rest = Substring(lowercased)
                while let r = rest.firstRange(of: property) {
                    rest = rest[r.upperBound...]
                    guard rest.first == ":" || rest.first == " " else { continue }
                    let declaration = rest.prefix { $0 != ";" && $0 != "}" }
                    if Self.largestNumber(in: String(declaration)) > 10_000 {
                        fail(location, "\(property) above 10,000 in a style (librsvg 2.54 aborts on huge text)")
                        return
                    }
                }
            }
        }

        /// The largest number written in `text` (0 if none; infinity for an
        /// overflow or an exponent).
        static func largestNumber(in text: String) -> Double {
            var largest = 0.0, current = ""
            for c in text + " " {
                if c.isNumber || c == "." || c == "e" || c == "E" || ((c == "+" || c == "-") && (current.last == "e" || current.last == "E")) {
                    current.append(c)
                } else {
                    if !current.isEmpty, current.first!.isNumber || current.first == "." {
                        largest = max(largest, Double(current) ?? .infinity)
                    }
                    current = ""
                }
            }
            return largest
        }

        mutating func addPath(_ parsed: Result<BezierPath, PathDataError>, index: Int, at location: SourceLocation) {
            // librsvg draws a path up to its first error, as SVG says: the
            // part before it is what is weighed.
            guard case .success(let path) = parsed else { return }
            let estimate = PathCrossings.estimate(path)
            own[index].pathEdges = Double(estimate.edges)
            own[index].pathCrossings = estimate.crossings
            own[index].pathLength = PathCrossings.edges(of: path).reduce(0) { total, e in
                let dx = e.1.x - e.0.x, dy = e.1.y - e.0.y
                return total + (dx * dx + dy * dy).squareRoot()
            }
            vertices[index] = Double(estimate.edges) + 1
        }

        /// `points` as a path (pairs of numbers; an odd one left out).
        static func polygon(_ text: String, closed: Bool) -> Result<BezierPath, PathDataError> {
            let numbers = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .compactMap { Double($0) }
            var d = ""
            for k in stride(from: 0, to: numbers.count - 1, by: 2) { d += (k == 0 ? "M" : "L") + "\(numbers[k]) \(numbers[k + 1]) " }
            return d.isEmpty ? .success(BezierPath()) : PathDataParser.parse(d + (closed ? "Z" : ""))
        }

        mutating func checkHref(_ a: XMLAttribute, element: Substring, index: Int) {
            let v = a.value.trimmingSpaces
            if v.hasPrefix("#") {
                references[index].append(Reference(id: String(v.dropFirst())))
            } else if element == "image" || element == "feImage", let pixels = SVGImageReader.embeddedPicturePixels(v) {
                // A PNG or JPEG picture, sized from its header.
                if pixels > Double(limits.maxPixels) {
                    fail(a.valueLocation, "<\(element)> embeds a picture of \(Int(pixels)) pixels, more than the limit of \(limits.maxPixels) (raise it with --max-pixels)")
                }
                own[index].embeddedPixels += pixels
            } else {
                fail(a.valueLocation, "<\(element)> refers to '\(SVGImageReader.shortened(v))'; an SVG image reads no other file, URL or document (a picture may be a data: PNG or JPEG in <image>)")
            }
        }

        /// Each `url(…)` (in any case) must name an element of the
        /// document: the ids named.
        mutating func checkURLs(in value: String, at location: SourceLocation) -> [String] {
            var found: [String] = []
            let bytes = Array(value.utf8)
            var i = 0
            func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }
            while i + 4 <= bytes.count {
                guard lower(bytes[i]) == UInt8(ascii: "u"), lower(bytes[i + 1]) == UInt8(ascii: "r"),
                      lower(bytes[i + 2]) == UInt8(ascii: "l"), bytes[i + 3] == UInt8(ascii: "(") else { i += 1; continue }
                i += 4
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ")")) else {
                    fail(location, "url( without its closing parenthesis")
                    return found
                }
                var target = String(decoding: bytes[i..<close], as: UTF8.self).trimmingSpaces
                if let q = target.first, q == "\"" || q == "'", target.count >= 2, target.last == q {
                    target = String(target.dropFirst().dropLast()).trimmingSpaces
                }
                if target.hasPrefix("#"), target.count > 1 {
                    found.append(String(target.dropFirst()))
                } else {
                    fail(location, "url(\(SVGImageReader.shortened(target))) does not name an element of the document; an SVG image reads no other file, URL or document")
                }
                i = close + 1
            }
            return found
        }

        /// A style sheet may not import another (in any case).
        mutating func checkStyleSheet(_ lowercased: String, at location: SourceLocation) {
            if lowercased.contains("@import") { fail(location, "a style sheet with @import; an SVG image reads no other file") }
        }

        /// What drawing the root does, every reference expanded (depth
        /// first, without recursion: a chain of 100,000 references must
        /// not recurse 100,000 deep). A reference that leads back to an
        /// element containing it is an error.
        func expandedWork() -> Result<SVGDrawWork, Diagnostic.Message> {
            let n = children.count
            guard n > 0 else { return .success(SVGDrawWork()) }
            var weight = [SVGDrawWork](repeating: SVGDrawWork(), count: n)
            // 0: not met, 1: on the path (its parts being weighed), 2: weighed.
            var state = [UInt8](repeating: 0, count: n)
            // Elements and vertices under each element (children come after
            // their parent in document order): a paint, marker or filter
            // set on a group is inherited by what it holds, so a group's
            // reference counts once for each of its elements, a marker once
            // for each of their vertices.
            var subtreeElements = [Double](repeating: 1, count: n), subtreeVertices = vertices
            for i in stride(from: n - 1, through: 0, by: -1) {
                for c in children[i] { subtreeElements[i] += subtreeElements[c]; subtreeVertices[i] += subtreeVertices[c] }
            }
            func parts(_ i: Int) -> [(index: Int, times: Double)] {
                children[i].map { ($0, 1) } + references[i].compactMap { r in
                    // A dangling id draws nothing.
                    ids[r.id].map { ($0, r.isMarker ? max(subtreeVertices[i], 1) : max(subtreeElements[i], 1)) }
                }
            }
            var stack: [Int] = Array(Set(sheetReferences.compactMap { ids[$0] })).sorted() + [0]
            while let i = stack.last {
                let p = parts(i)
                if state[i] == 0 {
                    state[i] = 1
                    for (j, _) in p {
                        if state[j] == 1 {
                            return .failure(.svgProblem(reference, location[j], "a reference that leads back to an element containing it", code: .referenceCycle))
                        }
                        if state[j] == 0 { stack.append(j) }
                    }
                    continue
                }
                stack.removeLast()
                guard state[i] == 1 else { continue }
                var w = own[i]
                var inner = SVGDrawWork()
                for (j, times) in p { inner.add(weight[j], times: times) }
                w.add(inner)
                w.layerDepth = own[i].layerDepth + inner.layerDepth
                weight[i] = w.clamped
                state[i] = 2
            }
            var total = weight[0]
            // A style sheet's reference may apply to every element (a
            // marker's to every vertex).
            for id in Set(sheetReferences) { if let j = ids[id] { total.add(weight[j], times: max(Double(n), subtreeVertices[0])) } }
            // Dashes: every path as if dashed with the shortest period, two
            // edges a dash.
            if shortestDashPeriod.isFinite {
                total.pathEdges += 2 * total.pathLength / shortestDashPeriod
            }
            total.patternTileArea *= largestScale * largestScale
            if sheetMakesLayers {
                total.layers = max(total.layers, Double(n))
                total.layerDepth = max(total.layerDepth, Double(deepest))
            }
            return .success(total.clamped)
        }
    }

    /// The pixels of a `data:` PNG or JPEG (read from its header), or nil
    /// for any other `data:` URL or anything else. The media type must be
    /// exactly `image/png` or `image/jpeg`, followed by `;` or `,`, and the
    /// URL may have no fragment (librsvg would read it as a document then).
    static func embeddedPicturePixels(_ v: String) -> Double? {
        let lower = v.prefix(40).lowercased()
        guard !v.contains("#") else { return nil }
        let png = lower.hasPrefix("data:image/png;") || lower.hasPrefix("data:image/png,")
        let jpeg = lower.hasPrefix("data:image/jpeg;") || lower.hasPrefix("data:image/jpeg,")
        guard png || jpeg, let comma = v.firstIndex(of: ",") else { return nil }
        let header = v[v.startIndex..<comma].lowercased()
        let payload = v[v.index(after: comma)...]
        guard header.hasSuffix(";base64") else { return nil }   // pictures come base64-encoded; anything else is refused
        guard let bytes = Base64Payload.decode(payload) else { return nil }
        return png ? pngPixels(bytes) : jpegPixels(bytes)
    }

    static func pngPixels(_ b: [UInt8]) -> Double? {
        guard b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func be32(_ i: Int) -> Double { Double(Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])) }
        return be32(16) * be32(20)
    }

    /// A JPEG's frame from its first SOF marker, walking the markers
    /// before it strictly: any byte that is not a marker where one must
    /// be, a marker without a length (RSTn, TEM, a second SOI) or the
    /// scan before a frame, and it is refused (nil) — a decoder skips such
    /// bytes as garbage and may find a larger frame past a fake one.
    static func jpegPixels(_ b: [UInt8]) -> Double? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0x01 || marker == 0xFF || (0xD0...0xDA).contains(marker) { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7 else { return nil }
                let h = Double(Int(b[i + 5]) << 8 | Int(b[i + 6])), w = Double(Int(b[i + 7]) << 8 | Int(b[i + 8]))
                return w * h
            }
            i += 2 + length
        }
        return nil
    }

    static func shortened(_ v: String) -> String {
        v.count > 60 ? String(v.prefix(57)) + "…" : v
    }
}

struct SVGSizeProblem: Error { var text: String }

/// Base64 as `data:` URLs carry it (white space ignored), for reading a
/// picture's header.
enum Base64Payload {
    static func decode(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for c in text.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - 48 + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="), 0x20, 0x09, 0x0A, 0x0D: continue
            default: return nil
            }
            buffer = buffer << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}
