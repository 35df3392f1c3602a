/// The characters text may hold (contract 1.3, "Nothing lost, nothing
/// malformed"): every character an output can carry — XML 1.0 (SVG) has
/// no C0 control but tab, line feed and carriage return, nor U+FFFE and
/// U+FFFF; a PDF string and Pango stop at U+0000 — less the carriage
/// return, which XML readers turn into a line feed and fonts draw as
/// nothing. Each source of text (the scene, a `--set` value, a string
/// table, a CSV file) is checked where it is read, so that the error points
/// there.
public enum CarriedText {
    /// The first character of `text` that no output can carry, with its
    /// offset in UTF-8 bytes; nil if there is none.
    public static func firstNotAllowed(in text: String) -> (scalar: Unicode.Scalar, offset: Int)? {
        var text = text
        return text.withUTF8 { firstNotAllowed(inUTF8: $0, lineEndsMayBeCRLF: false) }
    }

    /// The same in UTF-8 bytes (a CSV file of megabytes), eight bytes at a
    /// time: a word with no byte below U+0020 but tab and line feed, and no
    /// 0xEF (the lead byte of U+FFFE/U+FFFF), is passed whole; any other
    /// is looked at byte by byte. A tenth of the instructions of the plain
    /// loop, which cost a million-point CSV graph 4% more.
    /// `lineEndsMayBeCRLF`: a carriage return before a line feed ends a
    /// line (a CSV file's, RFC 4180's) and is no character of the text.
    public static func firstNotAllowed(inUTF8 bytes: UnsafeBufferPointer<UInt8>, lineEndsMayBeCRLF: Bool) -> (scalar: Unicode.Scalar, offset: Int)? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // 0x80 in each byte of `x` that is zero, nothing elsewhere.
        func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low) &+ low) | x | low) }
        func spread(_ b: UInt8) -> UInt64 { UInt64(b) &* 0x0101_0101_0101_0101 }
        var i = 0
        while i < count {
            if i + 8 <= count {
                let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let control = zeroBytes(w & spread(0xE0)) & ~zeroBytes(w ^ spread(0x0A)) & ~zeroBytes(w ^ spread(0x09))
                if control | zeroBytes(w ^ spread(0xEF)) == 0 {
                    i += 8
                    continue
                }
            }
            // This word byte by byte; a pair it ends in the middle of is read whole.
            let stop = min(i + 8, count)
            if let found = firstNotAllowed(inUTF8: UnsafeBufferPointer(rebasing: bytes[i..<min(stop + 2, count)]), upTo: stop - i,
                                           lineEndsMayBeCRLF: lineEndsMayBeCRLF) {
                return (found.scalar, i + found.offset)
            }
            i = stop
        }
        return nil
    }

    /// The plain loop over the first `limit` bytes of `bytes` (the bytes
    /// after them only completing a CRLF or an 0xEF sequence).
    private static func firstNotAllowed(inUTF8 bytes: UnsafeBufferPointer<UInt8>, upTo limit: Int, lineEndsMayBeCRLF: Bool) -> (scalar: Unicode.Scalar, offset: Int)? {
        let end = bytes.count
        var i = 0
        while i < limit {
            let b = bytes[i]
            if b < 0x20 && b != 0x09 && b != 0x0A {
                if !(lineEndsMayBeCRLF && b == 0x0D && i + 1 < end && bytes[i + 1] == 0x0A) {
                    return (Unicode.Scalar(b), i)
                }
            } else if b == 0xEF, i + 2 < end, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                return (Unicode.Scalar(bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF)!, i)
            }
            i += 1
        }
        return nil
    }

    /// A fast test for the common case: text made only of characters at or
    /// above U+0020 but U+FFFE/U+FFFF, tabs and line feeds.
    public static func isCarried(_ text: String) -> Bool { firstNotAllowed(in: text) == nil }

    /// `U+0007 (a control character)`, `U+000D (a carriage return)`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar.value {
        case 0: return code + " (a null character)"
        case 0x0D: return code + " (a carriage return)"
        case 0xFFFE, 0xFFFF: return code + " (a noncharacter)"
        default: return code + " (a control character)"
        }
    }

    /// 1-based line and column (in UTF-8 bytes) of `offset` in `bytes`.
    @inlinable
    public static func lineAndColumn<Bytes: Collection<UInt8>>(of offset: Int, in bytes: Bytes) -> (line: Int, column: Int) where Bytes.Index == Int {
        var line = 1, lineStart = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.startIndex + offset {
            if bytes[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, bytes.startIndex + offset - lineStart + 1)
    }
}

extension Diagnostic.Message {
    /// `what`: where the text came from, as the user knows it (`the value
    /// of --set title`, `the 'de' string 'title'`, `this cell`).
    public static func characterNotAllowed(_ scalar: Unicode.Scalar, in what: String) -> Self {
        .init(.characterNotAllowed, "\(what) holds \(CarriedText.describe(scalar)), which SVG, PDF and the text engine cannot carry; remove it (tab and line feed are the only control characters text may hold)")
    }
}
