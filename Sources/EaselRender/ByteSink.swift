import CCairo

/// Collects what Cairo writes to a stream (PNG, PDF, SVG), so output is
/// produced in memory and written to disk atomically in one step.
final class ByteSink {
    var bytes: [UInt8] = []

    /// A `cairo_write_func_t` whose closure argument is an unretained `ByteSink`.
    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}

/// Feeds bytes to Cairo's PNG reader.
final class ByteSource {
    let bytes: [UInt8]
    var position = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
        let n = Int(length)
        guard source.position + n <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
        source.bytes.withUnsafeBufferPointer { buf in
            data.update(from: buf.baseAddress! + source.position, count: n)
        }
        source.position += n
        return CAIRO_STATUS_SUCCESS
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
}
