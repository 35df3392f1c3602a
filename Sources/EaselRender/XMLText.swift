/// Text and attribute values inside XML that Easel writes (SVG, fontconfig).
enum XMLText {
    /// Whether XML 1.0 can hold `s` at all (no control characters but tab,
    /// line feed and carriage return).
    static func canHold(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
