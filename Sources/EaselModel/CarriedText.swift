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

    /// The same in UTF-8 bytes. `lineEndsMayBeCRLF`: a carriage return
    /// before a line feed ends a line (a CSV file's, RFC 4180's) and is no
    /// character of the text.
    public static func firstNotAllowed<Bytes: Collection<UInt8>>(inUTF8 bytes: Bytes, lineEndsMayBeCRLF: Bool) -> (scalar: Unicode.Scalar, offset: Int)?
    where Bytes.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b = bytes[i]
            if b < 0x20 && b != 0x09 && b != 0x0A {
                if !(lineEndsMayBeCRLF && b == 0x0D && i + 1 < end && bytes[i + 1] == 0x0A) {
                    return (Unicode.Scalar(b), i - bytes.startIndex)
                }
            } else if b == 0xEF, i + 2 < end, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF {
                return (Unicode.Scalar(bytes[i + 2] == 0xBE ? 0xFFFE : 0xFFFF)!, i - bytes.startIndex)
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
