import EaselModel

extension Diagnostic.Message {
    static func badColor(_ text: String, suggestion: String?) -> Self {
        if let problem = ColorParser.wideColorProblem(text) { return .init(.invalidColor, problem) }
        return .init(.invalidColor, "'\(text)' is not a colour (expected #rgb, #rrggbb, rgb(), hsl(), color(display-p3 …), oklch(), a CSS name or a palette name)"
              + didYouMean(suggestion), suggestion: suggestion)
    }
}

/// The CSS Color 4 subset of the contract, plus palette names from `<defs>`.
public enum ColorParser {
    public static func parse(_ raw: String, palette: [String: Color]) -> Color? {
        // `#rrggbb` and the like, the commonest spelling, read in place.
        if palette.isEmpty || palette[raw] == nil, let c = hexBytes(raw.utf8) { return c }
        let text = raw.trimmingSpaces
        let lower = text.lowercased()
        // A palette colour is the scene author's own name; it wins over CSS's.
        if let c = palette[text] { return c }
        if lower == "transparent" || lower == "clear" { return .transparent }
        if let c = NamedColors.color(named: lower) { return c }
        if lower.hasPrefix("#") { return hex(String(lower.dropFirst())) }
        if let open = lower.firstIndex(of: "("), lower.hasSuffix(")") {
            let fn = String(lower[..<open]).trimmingSpaces
            let body = String(lower[lower.index(after: open)..<lower.index(before: lower.endIndex)])
            switch fn {
            case "rgb", "rgba": return rgbFunction(body)
            case "hsl", "hsla": return hslFunction(body)
            case "color", "oklch": return try? wideFunction(fn, body).get()
            default: return nil
            }
        }
        return nil
    }

    /// `#` and 3, 4, 6 or 8 hex digits, nothing else (no spaces); nil otherwise.
    static func hexBytes(_ bytes: String.UTF8View) -> Color? {
        guard bytes.first == UInt8(ascii: "#") else { return nil }
        // The digits, four bits each, first digit highest.
        var packed: UInt32 = 0, count = 0
        for b in bytes.dropFirst() {
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            count += 1
            guard count <= 8 else { return nil }
            packed = packed << 4 | UInt32(v)
        }
        func digit(_ i: Int) -> Int { Int(packed >> UInt32(4 * (count - 1 - i)) & 0xF) }
        switch count {
        case 3, 4:
            return Color(r8: digit(0) * 17, g8: digit(1) * 17, b8: digit(2) * 17, alpha: count == 4 ? Double(digit(3) * 17) / 255 : 1)
        case 6, 8:
            return Color(r8: digit(0) * 16 + digit(1), g8: digit(2) * 16 + digit(3), b8: digit(4) * 16 + digit(5),
                         alpha: count == 8 ? Double(digit(6) * 16 + digit(7)) / 255 : 1)
        default:
            return nil
        }
    }

    /// `h` (the digits after `#`) as 3, 4, 6 or 8 ASCII hex digits. Only
    /// ASCII: `Character.isHexDigit` also takes fullwidth digits, which
    /// once reached a forced conversion (`#ＡＢＣ` crashed).
    static func hex(_ h: String) -> Color? { hexBytes(("#" + h).utf8) }

    /// Splits a function body in either the legacy comma form `(a, b, c, d)`
    /// or the modern space form `(a b c / d)`.
    static func arguments(_ body: String) -> (values: [String], alpha: String?)? {
        if body.contains(",") {
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
            guard parts.count == 3 || parts.count == 4, !parts.contains(where: \.isEmpty), !body.contains("/") else { return nil }
            return (Array(parts.prefix(3)), parts.count == 4 ? parts[3] : nil)
        }
        let halves = body.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        let values = halves[0].split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard values.count == 3 else { return nil }
        let alpha = halves.count == 2 ? String(halves[1]).trimmingSpaces : nil
        if let alpha, alpha.isEmpty { return nil }
        return (values, alpha)
    }

    static func alphaValue(_ s: String?) -> Double? {
        guard let s else { return 1 }
        if s.hasSuffix("%") { return ValueParser.number(String(s.dropLast())).map { clamp($0 / 100) } }
        return ValueParser.number(s).map(clamp)
    }

    static func rgbFunction(_ body: String) -> Color? {
        guard let (values, alphaText) = arguments(body), let alpha = alphaValue(alphaText) else { return nil }
        var channels: [Double] = []
        for v in values {
            if v.hasSuffix("%") {
                guard let p = ValueParser.number(String(v.dropLast())) else { return nil }
                channels.append(clamp(p / 100))
            } else {
                guard let n = ValueParser.number(v) else { return nil }
                channels.append(clamp(n / 255))
            }
        }
        return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)
    }

    static func hslFunction(_ body: String) -> Color? {
        guard let (values, alphaText) = arguments(body), let alpha = alphaValue(alphaText) else { return nil }
        var hueText = values[0]
        if hueText.hasSuffix("deg") { hueText.removeLast(3) }
        guard let hue = ValueParser.number(hueText),
              values[1].hasSuffix("%"), values[2].hasSuffix("%"),
              let s = ValueParser.number(String(values[1].dropLast())),
              let l = ValueParser.number(String(values[2].dropLast())) else { return nil }
        let (r, g, b) = hslToRGB(hue: hue, saturation: clamp(s / 100), lightness: clamp(l / 100))
        return Color(red: r, green: g, blue: b, alpha: alpha)
    }

    /// CSS Color 4 §7.1's `hslToRgb`.
    static func hslToRGB(hue: Double, saturation s: Double, lightness l: Double) -> (Double, Double, Double) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (f(0), f(8), f(4))
    }

    static func clamp(_ v: Double) -> Double { max(0, min(1, v)) }

    /// What is wrong with a `color()` or `oklch()` that does not parse, in
    /// words; nil for any other text.
    public static func wideColorProblem(_ raw: String) -> String? {
        let lower = raw.trimmingSpaces.lowercased()
        guard let open = lower.firstIndex(of: "(") else { return nil }
        let fn = String(lower[..<open]).trimmingSpaces
        guard fn == "color" || fn == "oklch" else { return nil }
        guard lower.hasSuffix(")") else { return "'\(raw.trimmingSpaces)' has no closing ')'" }
        let body = String(lower[lower.index(after: open)..<lower.index(before: lower.endIndex)])
        if case .failure(let problem) = wideFunction(fn, body) { return problem.text }
        return nil
    }

    struct WideColorProblem: Error { var text: String }

    /// Written as `color(display-p3 …)` or `oklch(…)`: a colour from a
    /// wide-gamut design, whatever its value.
    public static func isWrittenWide(_ raw: String) -> Bool {
        let lower = raw.trimmingSpaces.lowercased()
        guard let open = lower.firstIndex(of: "(") else { return false }
        let fn = String(lower[..<open]).trimmingSpaces
        if fn == "oklch" { return true }
        return fn == "color" && lower[lower.index(after: open)...].trimmingSpaces.hasPrefix("display-p3")
    }

    /// `color(display-p3 r g b [/ a])` (or `srgb`), components 0…1 or
    /// percentages, and `oklch(L C H [/ a])`: L 0…1 or a percentage, C ≥ 0
    /// (a percentage of 0.4, as CSS Color 4 reads it), H in degrees. Values
    /// outside those ranges are errors, not clamped: a design token out of
    /// range is a mistake worth a message. The result is sRGB, extended
    /// outside 0…1 when the colour is outside sRGB.
    static func wideFunction(_ fn: String, _ body: String) -> Result<Color, WideColorProblem> {
        func fail(_ text: String) -> Result<Color, WideColorProblem> {
            // rgb() takes commas; these functions do not (CSS Color 4's modern syntax only).
            .failure(WideColorProblem(text: text + (body.contains(",") ? " (\(fn)() separates its components with spaces, not commas)" : "")))
        }
        var words = body.split(separator: "/", omittingEmptySubsequences: false)
        guard words.count <= 2 else { return fail("\(fn)() takes one '/' before its alpha") }
        let alphaText = words.count == 2 ? String(words[1]).trimmingSpaces : nil
        guard let alpha = alphaValue(alphaText), alphaText?.isEmpty != true else {
            return fail("\(fn)(): '\(alphaText ?? "")' is not an alpha (0…1 or a percentage)")
        }
        var values = words.removeFirst().split(whereSeparator: { $0.isWhitespace }).map(String.init)
        if fn == "color" {
            guard let space = values.first else { return fail("color() needs a colour space: color(display-p3 r g b)") }
            guard space == "display-p3" || space == "srgb" else {
                return fail("color(\(space) …): Easel reads color() in display-p3 or srgb")
            }
            values.removeFirst()
            guard values.count == 3 else { return fail("color(\(space) …) takes three components, then an optional / alpha") }
            var channels: [Double] = []
            for v in values {
                let percent = v.hasSuffix("%")
                guard let n = ValueParser.number(percent ? String(v.dropLast()) : v) else {
                    return fail("color(\(space) …): '\(v)' is not a number")
                }
                let x = percent ? n / 100 : n
                guard x >= 0, x <= 1 else { return fail("color(\(space) …): component '\(v)' is outside 0…1") }
                channels.append(x)
            }
            if space == "srgb" { return .success(Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha)) }
            return .success(DisplayP3.srgb(fromP3: channels[0], channels[1], channels[2], alpha: alpha))
        }
        guard values.count == 3 else { return fail("oklch() takes lightness, chroma and hue, then an optional / alpha") }
        func number(_ v: String, percentOf scale: Double) -> Double? {
            if v.hasSuffix("%") { return ValueParser.number(String(v.dropLast())).map { $0 / 100 * scale } }
            return ValueParser.number(v)
        }
        guard let l = number(values[0], percentOf: 1) else { return fail("oklch(): lightness '\(values[0])' is not a number") }
        guard l >= 0, l <= 1 else { return fail("oklch(): lightness '\(values[0])' is outside 0…1 (0%…100%)") }
        guard let c = number(values[1], percentOf: 0.4) else { return fail("oklch(): chroma '\(values[1])' is not a number") }
        guard c >= 0, c.isFinite, c <= 1 else { return fail("oklch(): chroma '\(values[1])' is outside 0…1 (CSS's 100% is 0.4)") }
        var hueText = values[2]
        if hueText.hasSuffix("deg") { hueText.removeLast(3) }
        guard let h = ValueParser.number(hueText), h.isFinite else { return fail("oklch(): hue '\(values[2])' is not an angle in degrees") }
        return .success(DisplayP3.srgb(fromOklch: l, c, h, alpha: alpha))
    }
}
