import Glibc

/// C's printf formatting of one `Double`, without Foundation's
/// `String(format:)` (which lives in the ICU-backed part of Foundation that
/// Easel no longer links). Formats come from Easel or are checked by the
/// parser to be a single number conversion (`%.1f`, `%g`, `%e`, …), so
/// the one `Double` argument always matches. Always in the "C" locale: a
/// point, no grouping.
public enum CFormat {
    /// The "C" locale, whatever the process set with setlocale (a program
    /// embedding Easel may use a comma for the decimal point; SVG, JSON and
    /// tick labels may not).
    nonisolated(unsafe) private static let cLocale = newlocale(1 << LC_NUMERIC, "C", nil)  // LC_NUMERIC_MASK, a macro Swift cannot see

    public static func string(_ format: String, _ value: Double) -> String {
        let previous = uselocale(cLocale)
        defer { uselocale(previous) }
        return withVaList([value]) { arguments in
            // vsnprintf consumes its va_list: measure with a copy, then format.
            let length = withVaList([value]) { vsnprintf(nil, 0, format, $0) }
            guard length >= 0 else { return "" }
            var bytes = [CChar](repeating: 0, count: Int(length) + 1)
            _ = bytes.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
            return String(decoding: bytes.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
