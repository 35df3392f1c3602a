import CCSV

/// The records of an RFC 4180 CSV text, read by libcsv: quoted fields may
/// hold commas, quotes ("") and line breaks; lines end in LF, CR LF or CR.
/// The first record is the header. A blank line is a record of one empty
/// field (so that rows keep their numbers, as the messages give them).
struct CSVRecords {
    private(set) var header: [String]
    private var rows: [[String]]
    private var next = 0
    /// Why libcsv stopped before the end (out of memory, a field too big
    /// for it), if it did: the records read are then not the file's, and
    /// the file is an error, not a shorter table.
    private(set) var failure: String?

    /// Tests only: libcsv's allocator, to make it fail (it is never set
    /// while another thread reads a CSV file).
    nonisolated(unsafe) static var reallocateForTests: (@convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?)?

    /// nil if the text has no header record.
    init?(_ text: String) {
        var collector = Collector()
        var parser = csv_parser()
        // REPALL_NL: blank lines are reported (rows keep their numbers);
        // not strict: a stray quote is kept as text, as most readers do.
        guard csv_init(&parser, UInt8(CSV_REPALL_NL)) == 0 else { return nil }
        defer { csv_free(&parser) }
        // No character is a space to libcsv: it would drop spaces before a
        // field, so that a blank line of spaces after a lone CR looked like
        // the LF of a CR LF pair (a row number lost) and ` "a,b"` became one
        // quoted field. Spaces stay in the fields; Easel trims what it reads.
        csv_set_space_func(&parser) { _ in 0 }
        if let reallocate = Self.reallocateForTests { csv_set_realloc_func(&parser, reallocate) }
        var bytes = Array(text.utf8)
        // A byte-order mark is not part of the first header name.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let complete = withUnsafeMutablePointer(to: &collector) { data in
            let parsed = bytes.withUnsafeBytes { csv_parse(&parser, $0.baseAddress, $0.count, Collector.field, Collector.rowEnd, data) }
            return parsed == bytes.count && csv_fini(&parser, Collector.field, Collector.rowEnd, data) == 0
        }
        let failure = complete ? nil : csv_strerror(csv_error(&parser)).map { String(cString: $0) } ?? "error \(csv_error(&parser))"
        guard let first = collector.rows.first else {
            guard let failure else { return nil }
            header = []
            rows = []
            self.failure = failure
            return
        }
        header = first
        rows = Array(collector.rows.dropFirst())
        self.failure = failure
    }

    /// The next record after the header, or nil at the end.
    mutating func nextRow() -> [String]? {
        guard next < rows.count else { return nil }
        defer { next += 1 }
        return rows[next]
    }

    /// Fields and records as libcsv's callbacks hand them over.
    private struct Collector {
        var rows: [[String]] = []
        var fields: [String] = []
        var lastEnd: Int32 = -1

        static let field: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = { bytes, count, data in
            let collector = data!.assumingMemoryBound(to: Collector.self)
            let text = bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
            collector.pointee.fields.append(text)
        }

        static let rowEnd: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { end, data in
            let collector = data!.assumingMemoryBound(to: Collector.self)
            defer { collector.pointee.lastEnd = end }
            if collector.pointee.fields.isEmpty {
                // The LF of a CR LF pair is reported on its own: not a line.
                if end == 0x0A && collector.pointee.lastEnd == 0x0D { return }
                // A blank line: one empty field, as the header's readers expect.
                collector.pointee.rows.append([""])
                return
            }
            collector.pointee.rows.append(collector.pointee.fields)
            collector.pointee.fields = []
        }
    }
}
