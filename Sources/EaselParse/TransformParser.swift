import EaselModel

/// SVG transform lists: `translate(tx [ty])`, `rotate(a [cx cy])`,
/// `scale(sx [sy])`, `skewX(a)`, `skewY(a)`, `matrix(a b c d e f)`, composed
/// left to right so that `"A B"` maps a point through B first, then A.
public enum TransformParser {
    public static func parse(_ text: String) -> Result<AffineTransform, Diagnostic.Message> {
        var s = NumberScanner(text)
        var result = AffineTransform.identity
        s.skipSpaces()
        while !s.isAtEnd {
            let nameStart = s.index
            while let b = s.current, (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) { s.index += 1 }
            let name = String(decoding: s.bytes[nameStart..<s.index], as: UTF8.self)
            s.skipSpaces()
            guard s.current == UInt8(ascii: "(") else {
                return .failure(.badTransform(text, "expected '(' after '\(name)'"))
            }
            s.index += 1
            var args: [Double] = []
            s.skipSpaces()
            while s.current != UInt8(ascii: ")") {
                guard let v = s.scanNumber() else {
                    return .failure(.badTransform(text, "expected a number in \(name)()"))
                }
                args.append(v)
                s.skipSeparator()
            }
            s.index += 1
            guard let t = make(name, args) else {
                return .failure(.badTransform(text, "\(name) with \(args.count) argument\(args.count == 1 ? "" : "s")"))
            }
            result = result.concatenating(t)
            s.skipSeparator()
        }
        return .success(result)
    }

    static func make(_ name: String, _ a: [Double]) -> AffineTransform? {
        switch (name, a.count) {
        case ("translate", 1): return .translation(a[0], 0)
        case ("translate", 2): return .translation(a[0], a[1])
        case ("scale", 1): return .scale(a[0], a[0])
        case ("scale", 2): return .scale(a[0], a[1])
        case ("rotate", 1): return .rotation(degrees: a[0])
        case ("rotate", 3): return AffineTransform.rotation(degrees: a[0]).about(Point(a[1], a[2]))
        case ("skewX", 1): return .skewX(degrees: a[0])
        case ("skewY", 1): return .skewY(degrees: a[0])
        case ("matrix", 6): return AffineTransform(a: a[0], b: a[1], c: a[2], d: a[3], tx: a[4], ty: a[5])
        default: return nil
        }
    }
}

extension Diagnostic.Message {
    static func badTransform(_ text: String, _ detail: String) -> Self {
        .init(.invalidTransform, "'\(text)' is not a valid transform: \(detail) (expected translate, rotate, scale, skewX, skewY or matrix)")
    }
}
