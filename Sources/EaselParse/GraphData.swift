import EaselModel
import FoundationEssentials

/// Reading a graph's numbers: lists, CSV files, and the text placeholders.
enum GraphData {
    /// The first entry of a number list that is not a number, with its
    /// byte offset, or the numbers.
    struct BadToken: Error {
        var token: String
        var offset: Int
    }

    static func numbers(_ text: String) -> Result<[Double], BadToken> {
        var scanner = NumberScanner(text)
        var out: [Double] = []
        func isSeparator(_ b: UInt8) -> Bool { b == 0x20 || b == 0x2C || b == 0x0A || b == 0x09 || b == 0x0D }
        while true {
            while let b = scanner.current, isSeparator(b) { scanner.index += 1 }
            guard !scanner.isAtEnd else { break }
            let start = scanner.index
            if let v = scanner.scanNumber(), scanner.current.map(isSeparator) ?? true {
                out.append(v)
                continue
            }
            var end = start
            while end < scanner.bytes.count, !isSeparator(scanner.bytes[end]) { end += 1 }
            return .failure(BadToken(token: String(decoding: scanner.bytes[start..<end], as: UTF8.self), offset: start))
        }
        return .success(out)
    }

    /// The byte offset of each entry of a number list, in order (the
    /// separators are `numbers`').
    static func entryOffsets(_ text: String) -> [Int] {
        var out: [Int] = []
        var inEntry = false
        for (i, b) in text.utf8.enumerated() {
            let separator = b == 0x20 || b == 0x2C || b == 0x0A || b == 0x09 || b == 0x0D
            if !separator, !inEntry { out.append(i) }
            inEntry = !separator
        }
        return out
    }

    struct CSVProblem: Error {
        var message: Diagnostic.Message
        /// 1-based row (the header is row 1); nil: the file as a whole.
        var row: Int?
    }

    /// A character no output can carry (`CarriedText`) anywhere in a CSV
    /// file, at its line and column: a cell's text may become a label. A
    /// carriage return that ends a line (CRLF, RFC 4180's) is allowed.
    static func characterNotAllowed(in bytes: [UInt8], file: String) -> (message: Diagnostic.Message, location: SourceLocation)? {
        guard let (scalar, offset) = bytes.withUnsafeBufferPointer({ CarriedText.firstNotAllowed(inUTF8: $0, lineEndsMayBeCRLF: true) })
        else { return nil }
        let (line, column) = CarriedText.lineAndColumn(of: offset, in: bytes)
        return (.characterNotAllowed(scalar, in: "this cell"), SourceLocation(file: file, line: line, column: column))
    }

    /// The first row (a record: quoted fields may hold line breaks) longer
    /// than `maxRow` bytes, or holding a field longer than `maxField`, at
    /// the line it starts on; nil if there is none. One pass over the
    /// bytes, holding nothing: checked before either reader buffers a row.
    static func oversizedRow(_ bytes: [UInt8], maxRow: Int, maxField: Int) -> CSVProblem? {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf: UInt8 = 0x0A
        return bytes.withUnsafeBufferPointer { b -> CSVProblem? in
            var line = 1, rowLine = 1, rowStart = 0, fieldStart = 0, quoted = false
            for i in 0..<b.count {
                let c = b[i]
                if c == quote { quoted.toggle() }
                let endsField = !quoted && (c == comma || c == lf)
                // Byte i is byte i − start + 1 of its row or field; a row's
                // line end and a field's comma are not part of them.
                if !(endsField && c == lf), i - rowStart >= maxRow { return CSVProblem(message: .csvRowTooLong(maxRow), row: rowLine) }
                if !endsField, i - fieldStart >= maxField { return CSVProblem(message: .csvFieldTooLong(maxField), row: rowLine) }
                if c == lf { line += 1 }
                if endsField { fieldStart = i + 1 }
                if endsField, c == lf { rowStart = i + 1; rowLine = line }
            }
            return nil
        }
    }

    /// A column (and optionally a label column) of an RFC 4180 CSV file
    /// with a header row. Spaces around a number are ignored.
    static func column(_ name: String, labels labelName: String?, csv: String)
        -> (values: [Double], labels: [String], problems: [CSVProblem], missing: [String]) {
        var problems: [CSVProblem] = []
        let records = CSVRecords(csv)
        if let failure = records?.failure { return ([], [], [CSVProblem(message: .csvUnread(failure), row: nil)], []) }
        guard var reader = records,
              case let header = reader.header.map({ $0.trimmingSpaces }), !(header.count == 1 && header[0].isEmpty) else {
            return ([], [], [CSVProblem(message: .csvNoHeader, row: nil)], [])
        }
        let (index, labelIndex, missing) = columns(name, labels: labelName, in: header)
        guard let index, missing.isEmpty else { return ([], [], [], missing) }
        var values: [Double] = [], labels: [String] = []
        var row = 1
        while let fields = reader.nextRow() {
            row += 1
            if fields.count == 1, fields[0].allSatisfy(\.isWhitespace) { continue }   // a blank line
            guard fields.count == header.count else {
                problems.append(CSVProblem(message: .csvRagged(fields.count, header.count), row: row))
                if problems.count >= 20 { break }
                continue
            }
            // number() skips the spaces around a number itself.
            if let v = ValueParser.number(fields[index]) {
                values.append(v)
                if let labelIndex { labels.append(fields[labelIndex].trimmingSpaces) }
            } else {
                problems.append(CSVProblem(message: .csvNotANumber(fields[index].trimmingSpaces, name), row: row))
                if problems.count >= 20 { break }
            }
        }
        return (values, labels, problems, [])
    }

    /// The positions of the value and label columns in a header row, and
    /// the names it lacks.
    static func columns(_ name: String, labels labelName: String?, in header: [String])
        -> (index: Int?, labelIndex: Int?, missing: [String]) {
        var missing: [String] = []
        let index = header.firstIndex(of: name)
        if index == nil { missing.append(name) }
        let labelIndex = labelName.flatMap { header.firstIndex(of: $0) }
        if let labelName, labelIndex == nil { missing.append(labelName) }
        return (index, labelIndex, missing)
    }

    /// Each line's byte range (without its CR LF or LF) of CSV text with no
    /// quote character, no lone carriage return and no byte-order mark:
    /// text whose fields are simply what lies between commas and line ends.
    /// nil: the text needs the full parser.
    static func plainLines(_ bytes: [UInt8]) -> [Range<Int>]? {
        let quote = UInt8(ascii: "\""), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return nil }
        let plain = bytes.withUnsafeBufferPointer { b -> Bool in
            for i in 0..<b.count where b[i] == quote || (b[i] == cr && (i + 1 == b.count || b[i + 1] != lf)) { return false }
            return true
        }
        guard plain else { return nil }
        var lines: [Range<Int>] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == lf {
            lines.append(start..<(i > start && bytes[i - 1] == cr ? i - 1 : i))
            start = i + 1
        }
        if start < bytes.count { lines.append(start..<bytes.count) }
        return lines
    }

    /// A line of nothing but white space, which both readers skip.
    static func isBlankLine(_ r: Range<Int>, in bytes: [UInt8]) -> Bool {
        bytes[r].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0B || $0 == 0x0C }
            || (bytes[r].contains { $0 >= 0x80 } && String(decoding: bytes[r], as: UTF8.self).allSatisfy(\.isWhitespace))
    }

    /// What `column` gives, for CSV text with no quote character, no lone
    /// carriage return and no byte-order mark — text whose RFC 4180 fields
    /// are simply what lies between commas and line ends — read from the
    /// bytes of the columns needed. A general reader makes a String of
    /// every field (CSV.swift, used before libcsv: about 9·10⁹ instructions
    /// for a million rows); this makes none. nil:
    /// the text needs the full parser. `CSVFastPathTests` checks both agree.
    static func unquotedColumn(_ name: String, labels labelName: String?, bytes: [UInt8])
        -> (values: [Double], labels: [String], problems: [CSVProblem], missing: [String])? {
        let comma = UInt8(ascii: ",")
        guard let lines = plainLines(bytes) else { return nil }
        func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
        func isBlank(_ r: Range<Int>) -> Bool { isBlankLine(r, in: bytes) }

        guard let first = lines.first else { return ([], [], [CSVProblem(message: .csvNoHeader, row: nil)], []) }
        let header = bytes[first].split(separator: comma, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self).trimmingSpaces }
        guard !(header.count == 1 && header[0].isEmpty) else { return ([], [], [CSVProblem(message: .csvNoHeader, row: nil)], []) }
        let (index, labelIndex, missing) = columns(name, labels: labelName, in: header)
        guard let index, missing.isEmpty else { return ([], [], [], missing) }

        var values: [Double] = [], labels: [String] = [], problems: [CSVProblem] = []
        values.reserveCapacity(lines.count - 1)
        var scanner = NumberScanner(bytes: bytes)
        for (offset, line) in lines.enumerated().dropFirst() {
            let row = offset + 1
            // The wanted fields' ranges and the number of fields, in one pass.
            var field = 0, fieldStart = line.lowerBound
            var valueRange = line, labelRange = line
            for i in line where bytes[i] == comma {
                if field == index { valueRange = fieldStart..<i }
                if field == labelIndex { labelRange = fieldStart..<i }
                field += 1
                fieldStart = i + 1
            }
            if field == index { valueRange = fieldStart..<line.upperBound }
            if field == labelIndex { labelRange = fieldStart..<line.upperBound }
            let count = field + 1
            if count == 1, isBlank(line) { continue }
            guard count == header.count else {
                problems.append(CSVProblem(message: .csvRagged(count, header.count), row: row))
                if problems.count >= 20 { break }
                continue
            }
            // As ValueParser.number: spaces, one number, spaces, nothing else
            // (within the field: the scanner's own space skipping would run on
            // past the line's end).
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0C }
            var lo = valueRange.lowerBound, hi = valueRange.upperBound
            while lo < hi, isSpace(bytes[lo]) { lo += 1 }
            while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
            scanner.index = lo
            let v = lo < hi ? scanner.scanNumber() : nil
            if let v, scanner.index == hi {
                values.append(v)
                if labelIndex != nil { labels.append(text(labelRange).trimmingSpaces) }
            } else {
                problems.append(CSVProblem(message: .csvNotANumber(text(valueRange).trimmingSpaces, name), row: row))
                if problems.count >= 20 { break }
            }
        }
        return (values, labels, problems, [])
    }

    /// `%` conversions Easel accepts in `format`: one of f, e, g with
    /// optional flags, width and precision — nothing that reads memory.
    static func isSafeFormat(_ f: String) -> Bool {
        f.wholeMatch(of: #/%[-+ 0#]{0,4}[0-9]{0,3}(\.[0-9]{1,3})?[fFeEgG]/#) != nil
    }

    /// `{max}` and friends replaced by the data's values; unknown names are
    /// returned so the caller can report them.
    static func fillPlaceholders(_ text: String, statistics: GraphStatistics.Table, format: String?) -> (String, [String]) {
        var out = "", unknown: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            out += rest[..<open]
            // Doubled braces (`{{max}}`) write one brace and fill nothing in.
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after] == rest[open] {
                out.append(rest[open])
                rest = rest[rest.index(after: after)...]
                continue
            }
            if rest[open] == "}" { out.append("}"); rest = rest[after...]; continue }
            guard let close = rest[open...].firstIndex(of: "}") else { out += rest[open...]; rest = ""; break }
            let name = String(rest[rest.index(after: open)..<close])
            if let v = statistics.value(name) {
                out += GraphStatistics.format(v, format)
            } else {
                if name.allSatisfy({ $0.isLetter }) && !name.isEmpty { unknown.append(name) }
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return (out, unknown)
    }
}

extension GraphData {
    /// The header names of a CSV text, for suggestions.
    static func header(of csv: String) -> [String] {
        (CSVRecords(csv)?.header ?? []).map { $0.trimmingSpaces }
    }
}
