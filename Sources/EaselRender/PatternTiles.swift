import CCairo

/// Pattern tiles painted in one render, by laid-out tile
/// (`PatternFill.tileIndex`) and, for raster tiles, the tile's size in
/// device pixels: a pattern shared by a thousand nodes is painted once per
/// distinct device scale, not once per node. A tile's pixels do not depend
/// on where it is drawn (its grid is the tile's own), so the surface is the
/// same whichever use paints it first. Owns its surfaces.
final class PatternTiles {
    struct Key: Hashable {
        var tileIndex: Int
        var pixelWidth: Double
        var pixelHeight: Double
        /// Gradients inside are dithered (off in a cross-fade's layers).
        var dithered: Bool
    }
    private var surfaces: [Key: OpaquePointer] = [:]
    /// The surface for `key`, made by `make` the first time (a new
    /// reference each call: the caller destroys it, as a new surface).
    func surface(_ key: Key, _ make: () -> OpaquePointer?) -> OpaquePointer? {
        if let known = surfaces[key] { return cairo_surface_reference(known) }
        guard let made = make() else { return nil }
        PaintingProbe.tilePainted()
        surfaces[key] = cairo_surface_reference(made)
        return made
    }

    deinit {
        for surface in surfaces.values { cairo_surface_destroy(surface) }
    }
}
