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

    /// Runs `body` with a `cairo_write_func_t` closure argument that stays
    /// valid for the whole call.
    static func collect(_ body: (UnsafeMutableRawPointer) -> cairo_status_t) -> (cairo_status_t, [UInt8]) {
        let sink = ByteSink()
        let status = withExtendedLifetime(sink) { body(sink.opaque) }
        return (status, sink.bytes)
    }
}

/// Feeds bytes to Cairo's PNG reader.
final class ByteSource {
    /// Decodes PNG bytes into an image surface (the caller destroys it);
    /// `nil` when Cairo cannot. The source outlives the C call that reads it.
    static func decodePNG(_ bytes: [UInt8]) -> OpaquePointer? {
        let source = ByteSource(bytes)
        let surface = withExtendedLifetime(source) {
            cairo_image_surface_create_from_png_stream(ByteSource.read, source.opaque)
        }
        guard let surface else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }

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
