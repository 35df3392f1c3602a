import Foundation

/// Cairo numbers some SVG ids (`surfaceN`) from a process-wide counter, so
/// a second render in the same process would name them differently. They
/// are renumbered in order of appearance, so the same scene always gives
/// the same bytes.
enum SVGIdentifiers {
    static func normalize(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let regex = try? NSRegularExpression(pattern: "(id=\"|#)surface([0-9]+)") else { return bytes }
        var numbers: [String: Int] = [:]
        var out = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let prefix = Range(match.range(at: 1), in: text),
                  let number = Range(match.range(at: 2), in: text) else { continue }
            let old = String(text[number])
            let new = numbers[old] ?? (numbers.count + 1)
            numbers[old] = new
            out += text[last..<whole.lowerBound] + text[prefix] + "surface\(new)"
            last = whole.upperBound
        }
        out += text[last...]
        return Array(out.utf8)
    }
}
