import Foundation

/// Cairo numbers some SVG ids (`surfaceN`, `imageN`) from a process-wide
/// counter, so a render's ids depend on what the process drew before. They
/// are renumbered in order of appearance, so the same scene always gives
/// the same bytes.
enum SVGIdentifiers {
    static func normalize(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: "(id=\"|#)(surface|image)([0-9]+)") else { return bytes }
        var numbers: [String: Int] = [:]
        var counts: [String: Int] = [:]
        var out = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let prefix = Range(match.range(at: 1), in: text),
                  let kind = Range(match.range(at: 2), in: text), let number = Range(match.range(at: 3), in: text) else { continue }
            let name = String(text[kind]), old = name + text[number]
            let new = numbers[old] ?? {
                counts[name, default: 0] += 1
                return counts[name]!
            }()
            numbers[old] = new
            out += text[last..<whole.lowerBound] + text[prefix] + name + String(new)
            last = whole.upperBound
        }
        out += text[last...]
        return Array(out.utf8)
    }
}
