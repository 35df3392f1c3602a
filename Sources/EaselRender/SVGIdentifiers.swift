import FoundationEssentials

/// Cairo numbers some SVG ids (`surfaceN`, `imageN`) from a process-wide
/// counter, so a render's ids depend on what the process drew before. They
/// are renumbered in order of appearance, so the same scene always gives
/// the same bytes.
enum SVGIdentifiers {
    static func normalize(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        var numbers: [String: Int] = [:]
        var counts: [String: Int] = [:]
        var out = ""
        var last = text.startIndex
        for match in text.matches(of: #/(id="|#)(surface|image)([0-9]+)/#) {
            let (_, prefix, kind, number) = match.output
            let name = String(kind), old = name + number
            let new = numbers[old] ?? {
                counts[name, default: 0] += 1
                return counts[name]!
            }()
            numbers[old] = new
            out += text[last..<match.range.lowerBound] + prefix + name + String(new)
            last = match.range.upperBound
        }
        out += text[last...]
        return Array(out.utf8)
    }
}
