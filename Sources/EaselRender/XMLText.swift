/// Text and attribute values inside XML that Easel writes (SVG, fontconfig).
enum XMLText {
    /// Whether XML 1.0 can hold `s` at all (no control characters but tab,
    /// line feed and carriage return; no U+FFFE or U+FFFF).
    static func canHold(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy(holds)
    }

    private static func holds(_ c: Unicode.Scalar) -> Bool {
        (c.value >= 0x20 || c == "\t" || c == "\n" || c == "\r") && c.value != 0xFFFE && c.value != 0xFFFF
    }

    /// `s` as XML character data or an attribute value. Text from scenes is
    /// checked where it is read (`CarriedText`); anything else that reaches
    /// here (a font's family name, read from its file) and that XML cannot
    /// hold is written as U+FFFD, so that every document Easel writes is
    /// well-formed.
    static func escape(_ s: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where !holds(c): out.unicodeScalars.append("\u{FFFD}")
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
