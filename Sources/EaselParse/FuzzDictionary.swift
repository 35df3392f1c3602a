/// libFuzzer's dictionary for `fuzz/run`, made from `Vocabulary` so that a
/// new element or attribute reaches the fuzzer without anyone remembering
/// to add it (a test fails when `fuzz/scene.dict` differs from this).
public enum FuzzDictionary {
    /// Every element and attribute name as `<name`, `name="` and `</name>`,
    /// then tokens of the value syntaxes.
    public static var text: String {
        var names = Set(Vocabulary.attributes.keys).union(Vocabulary.graphChildren.keys).union(Vocabulary.planned)
        for list in Vocabulary.attributes.values { names.formUnion(list) }
        for list in Vocabulary.graphChildren.values { names.formUnion(list) }
        var lines: [String] = []
        for name in names.sorted() {
            lines += ["\"<\(name)\"", "\"\(name)=\\\"\"", "\"</\(name)>\""]
        }
        lines += valueTokens.map { "\"" + $0.replacingQuotes + "\"" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Pieces of the value syntaxes that random mutation rarely builds.
    static let valueTokens = [
        "url(#", "#ff0000", "rgb(1,2,3)", "hsl(10,50%,50%)", "rotate(45)", "translate(1 2)", "scale(2)",
        "matrix(1 0 0 1 0 0)", "M 0 0 L 10 10 Z", "A 5 5 0 1 1 10 10", "100%", "fill", "true", "false",
        "<scene width=\"100\" height=\"100\">", "<defs>", "<stop offset=\"0.5\" color=\"red\"/>", "{average}", "%.1f",
        // Parameters: a reference, escaped braces, declarations and variants.
        "{p}", "{{", "}}", "<param name=\"p\" type=\"color\" default=\"red\"/>", "<variant name=\"v\" appearance=\"dark\" set=\"p=blue\"/>",
        "dark=\"#111\"", "number", "length", "angle", "string",
        // The files an input may carry after a NUL (EaselFuzz): a CSV and a build manifest.
        "csv:", "src=\"data.csv\" column=\"v\"", "manifest:", "{\"version\":1,\"scenes\":{", "\"outputs\":[\"../",
        // Input that once grew work faster than itself (issue 42): word
        // joiners and zero-width spaces in wrapped text, chained clips,
        // font axes, dense points.
        "\u{2060}\u{2060}\u{2060}\u{2060}", "\u{200B}\u{200B}\u{200B}\u{200B}", "max-lines=\"1\" width=\"40\"",
        "<clipPath id=\"c\"><rect clip-path=\"url(#c)\"/></clipPath>", "clip-path=\"url(#c)\"", "wght 800, wdth 90",
        "<points diameter=\"3\"/>", "{}{}{}{}",
        // SVG images (`svg:` carries logo.svg): references, declarations,
        // expansion and the filters librsvg runs.
        "svg:", "href=\"logo.svg\"", "tint=\"", "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">",
        "</svg>", "xlink:href=\"#", "<use xlink:href=\"#a\"/>", "id=\"a\"", "url(#a)", "url(/etc/passwd)",
        "data:image/png;base64,", "<!DOCTYPE svg [<!ENTITY a \"aa\">]>", "&a;", "@import", "<style>",
        "<feGaussianBlur stdDeviation=\"1e9\"/>", "<filter id=\"a\">", "<pattern id=\"a\" width=\"1\" height=\"1\">",
        "<text font-family=\"Inter\">", "<marker id=\"a\">", "marker-mid=\"url(#a)\"",
    ]
}

private extension String {
    /// As libFuzzer's dictionary parser reads an entry: quotes and
    /// backslashes escaped, bytes outside printable ASCII as `\xNN`.
    var replacingQuotes: String {
        var out = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
