import EaselModel

/// Several named columns of an RFC 4180 CSV file with a header row, with
/// the line each row starts on: what a graph with `x-column`, `<series>`
/// or `missing="gap"` reads (cells are judged by the caller, where an
/// empty one may be a gap).
struct CSVTable {
    /// The line each row starts on (the header is line 1).
    var rows: [Int] = []
    var problems: [GraphData.CSVProblem] = []
    /// Requested names the header lacks.
    var missing: [String] = []
    var header: [String] = []

    /// Cells as byte ranges of the file (text without quotes), or as the
    /// parser's strings.
    private var bytes: [UInt8] = []
    private var ranges: [String: [Range<Int>]] = [:]
    private var strings: [String: [String]] = [:]

    /// `bytes` must have passed `GraphData.oversizedRow`.
    init(_ names: [String], bytes: [UInt8], text: String) {
        if !readUnquoted(names, bytes: bytes) { readWithParser(names, text: text) }
    }

    /// Row `i`'s cell in column `name`, spaces around it removed.
    func text(_ name: String, _ i: Int) -> String {
        if let r = ranges[name] { return String(decoding: bytes[Self.trimmed(r[i], in: bytes)], as: UTF8.self) }
        return strings[name]![i]
    }

    /// Every cell of column `name` as a number (nil where it is none).
    func numbers(_ name: String) -> [Double?] {
        guard let r = ranges[name] else { return strings[name]!.map { ValueParser.number($0) } }
        var scanner = NumberScanner(bytes: bytes)
        return r.map { range in
            let cell = Self.trimmed(range, in: bytes)
            guard !cell.isEmpty else { return nil }
            if let v = ValueParser.plainDecimal(bytes[cell]) { return v }
            scanner.index = cell.lowerBound
            guard let v = scanner.scanNumber(), scanner.index == cell.upperBound else { return nil }
            return v
        }
    }

    private static func trimmed(_ r: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0C }
        var lo = r.lowerBound, hi = r.upperBound
        while lo < hi, isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
        return lo..<hi
    }

    private mutating func start(_ names: [String], header: [String]) -> [Int]? {
        self.header = header
        // By name, the first of equal names (a graph may ask for many columns).
        var index: [String: Int] = [:]
        for (i, name) in header.enumerated() where index[name] == nil { index[name] = i }
        missing = names.filter { index[$0] == nil }
        guard missing.isEmpty else { return nil }
        return names.map { index[$0]! }
    }

    private mutating func ragged(_ count: Int, row: Int) -> Bool {
        problems.append(.init(message: .csvRagged(count, header.count), row: row))
        return problems.count < 20
    }

    /// libcsv for text with quotes (fields may hold commas and line breaks).
    private mutating func readWithParser(_ names: [String], text: String) {
        let records = CSVRecords(text)
        if let failure = records?.failure {
            problems = [.init(message: .csvUnread(failure), row: nil)]
            return
        }
        guard var reader = records,
              case let header = reader.header.map({ $0.trimmingSpaces }), !(header.count == 1 && header[0].isEmpty) else {
            problems = [.init(message: .csvNoHeader, row: nil)]
            return
        }
        guard let indexes = start(names, header: header) else { return }
        for n in names { strings[n] = [] }
        var line = 1
        while let fields = reader.nextRow() {
            line += 1
            if fields.count == 1, fields[0].allSatisfy(\.isWhitespace) { continue }   // a blank line
            guard fields.count == header.count else {
                if ragged(fields.count, row: line) { continue } else { break }
            }
            for (n, i) in zip(names, indexes) { strings[n]!.append(fields[i].trimmingSpaces) }
            rows.append(line)
        }
    }

    /// Text without quotes, lone carriage returns or a byte-order mark: its
    /// fields are what lies between commas and line ends, found here as
    /// byte ranges without the parser (which makes a String of every field,
    /// about ten times the work on large files). False: the text needs the
    /// parser.
    private mutating func readUnquoted(_ names: [String], bytes: [UInt8]) -> Bool {
        let comma = UInt8(ascii: ",")
        guard let lines = GraphData.plainLines(bytes) else { return false }
        self.bytes = bytes
        guard let first = lines.first else {
            problems = [.init(message: .csvNoHeader, row: nil)]
            return true
        }
        let header = bytes[first].split(separator: comma, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self).trimmingSpaces }
        guard !(header.count == 1 && header[0].isEmpty) else {
            problems = [.init(message: .csvNoHeader, row: nil)]
            return true
        }
        guard let indexes = start(names, header: header) else { return true }
        // Which requested column, if any, each field position feeds.
        var wanted = [[Int]](repeating: [], count: header.count)
        for (k, i) in indexes.enumerated() { wanted[i].append(k) }
        var columns = [[Range<Int>]](repeating: [], count: names.count)
        for k in columns.indices { columns[k].reserveCapacity(lines.count) }
        rows.reserveCapacity(lines.count)
        var cells = [Range<Int>](repeating: 0..<0, count: header.count)
        for (offset, line) in lines.enumerated().dropFirst() {
            var field = 0, fieldStart = line.lowerBound
            for i in line where bytes[i] == comma {
                if field < cells.count { cells[field] = fieldStart..<i }
                field += 1
                fieldStart = i + 1
            }
            if field < cells.count { cells[field] = fieldStart..<line.upperBound }
            let count = field + 1
            if count == 1, GraphData.isBlankLine(line, in: bytes) { continue }   // a blank line
            guard count == header.count else {
                if ragged(count, row: offset + 1) { continue } else { break }
            }
            for (i, ks) in wanted.enumerated() { for k in ks { columns[k].append(cells[i]) } }
            rows.append(offset + 1)
        }
        for (k, n) in names.enumerated() { ranges[n] = columns[k] }
        return true
    }
}
