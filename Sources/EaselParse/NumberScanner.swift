import EaselModel
#if canImport(Glibc)
import Glibc
#endif
/// Reads SVG-style numbers (`-1.5e3`, `.5`, `1.5.5` = 1.5 then .5) and the
/// separators between them. Used by every list-valued attribute and by path
/// data, so all of them accept the same spellings.
struct NumberScanner {
    let bytes: [UInt8]
    var index = 0
    /// Holds one token, NUL-terminated, for `strtod`: no allocation per
    /// number, which matters for graphs of a million values.
    private var token = [CChar](repeating: 0, count: 64)

    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpaces() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C { index += 1 }
    }

    /// Spaces, then at most one comma, then spaces.
    mutating func skipSeparator() {
        skipSpaces()
        if current == UInt8(ascii: ",") { index += 1; skipSpaces() }
    }

    mutating func scanNumber() -> Double? {
        let start = index
        var i = index
        func digit(_ j: Int) -> Bool { j < bytes.count && bytes[j] >= 0x30 && bytes[j] <= 0x39 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        var sawDigits = false
        while digit(i) { i += 1; sawDigits = true }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while digit(i) { i += 1; sawDigits = true }
        }
        guard sawDigits else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if digit(j) {
                while digit(j) { j += 1 }
                i = j
            }
        }
        // The span is a checked decimal number, so strtod reads exactly it.
        let length = i - start
        let v: Double
        if length < token.count {
            for k in 0..<length { token[k] = CChar(bitPattern: bytes[start + k]) }
            token[length] = 0
            v = token.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
        } else {
            guard let parsed = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { return nil }
            v = parsed
        }
        guard v.isFinite else { return nil }
        index = i
        return v
    }

    /// A path-data arc flag: exactly one `0` or `1`, which may touch the next number.
    mutating func scanFlag() -> Bool? {
        switch current {
        case UInt8(ascii: "0"): index += 1; return false
        case UInt8(ascii: "1"): index += 1; return true
        default: return nil
        }
    }
}

/// Parsers for attribute values. Each returns the value or a message; the
/// caller attaches the attribute's location.
public enum ValueParser {
    public static func number(_ text: String) -> Double? {
        if let v = plainDecimal(text.utf8) { return v }
        var s = NumberScanner(text)
        s.skipSpaces()
        guard let v = s.scanNumber() else { return nil }
        s.skipSpaces()
        return s.isAtEnd ? v : nil
    }

    /// A number written as most are — an optional `-`, at most 15 digits
    /// with at most one `.` among them — read without copying the text;
    /// nil for anything else (spaces, exponents, `+`, more digits), which
    /// `NumberScanner` and `strtod` read. The value is the digits as an
    /// integer divided by a power of ten: both exact in a Double (below
    /// 2^53 and 10^22), so the one division rounds correctly, as `strtod`
    /// does (Clinger's fast path).
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    static func plainDecimal<Bytes: Collection>(_ bytes: Bytes) -> Double? where Bytes.Element == UInt8 {
        var negative = false, mantissa: Int64 = 0, digits = 0, fraction = -1
        var first = true
        for b in bytes {
            defer { first = false }
            switch b {
            case UInt8(ascii: "-") where first: negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(b - UInt8(ascii: "0"))
                if fraction >= 0 { fraction += 1 }
            case UInt8(ascii: ".") where fraction < 0: fraction = 0
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        let v = Double(mantissa) / powersOfTen[max(fraction, 0)]
        return negative ? -v : v
    }

    /// Numbers separated by spaces and/or commas.
    public static func numberList(_ text: String) -> [Double]? {
        var s = NumberScanner(text)
        var out: [Double] = []
        s.skipSpaces()
        while !s.isAtEnd {
            guard let v = s.scanNumber() else { return nil }
            out.append(v)
            s.skipSeparator()
        }
        return out
    }

    /// `12`, `12.5`, `50%`, and `fill` where the attribute allows it.
    public static func length(_ text: String, allowFill: Bool) -> Length? {
        // `12`, `12.5`, `50%`: read in place (no copies of the text).
        let bytes = text.utf8
        if bytes.last == UInt8(ascii: "%") {
            if let v = plainDecimal(bytes.dropLast()) { return .percent(v) }
        } else if let v = plainDecimal(bytes) {
            return .points(v)
        }
        let t = text.trimmingSpaces
        if t == "fill" { return allowFill ? .fill : nil }
        if t.hasSuffix("%") {
            return number(String(t.dropLast())).map { .percent($0) }
        }
        return number(t).map { .points($0) }
    }

    public static func bool(_ text: String) -> Bool? {
        switch text.trimmingSpaces {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// An offset: 0–1 or a percentage.
    public static func unitInterval(_ text: String) -> Double? {
        let t = text.trimmingSpaces
        let v = t.hasSuffix("%") ? number(String(t.dropLast())).map { $0 / 100 } : number(t)
        guard let v, v >= 0, v <= 1 else { return nil }
        return v
    }
}
