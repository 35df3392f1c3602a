import CCairo
import Glibc

/// A Cairo ARGB32 image surface over a buffer Easel allocates, one byte
/// per row larger than the pixels need: room for the PNG filter-type
/// bytes, so `PNGEncoder` can filter the rows in place instead of holding
/// a second copy of the image (a 4096×4096 render is 64 MB of pixels).
package final class RasterCanvas {
    let surface: OpaquePointer
    let pixels: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let stride: Int
    /// `stride * height + height` bytes.
    let capacity: Int

    init?(width: Int, height: Int) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride > 0 else { return nil }
        let (rows, overflow) = stride.multipliedReportingOverflow(by: height)
        guard !overflow, rows < Int.max - height else { return nil }
        let capacity = rows + height
        // Cleared (transparent black), as Cairo's own surfaces start; calloc
        // maps large buffers lazily, so pages nothing paints cost no memory.
        guard let pixels = calloc(capacity, 1) else { return nil }
        guard let surface = cairo_image_surface_create_for_data(
                  pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            free(pixels)
            return nil
        }
        self.surface = surface
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.capacity = capacity
    }

    deinit {
        cairo_surface_destroy(surface)
        free(pixels)
    }
}
