import EaselModel

/// Decoded images kept between the compiles of one process (a persistent
/// worker, the preview, a build): a PNG used by many scenes or requests is
/// decoded once. Keyed by the file's bytes (compared whole on a hit, so a
/// changed file is never served from the cache) and the colour space it was
/// converted to; bounded by the memory the images hold, the least recently
/// used evicted first.
enum DecodedImageCache {
    /// Pixels and PNG bytes kept at most (an image larger than this is
    /// decoded per compile and not kept).
    static let capacity = 64 << 20

    private struct Key: Hashable {
        var digest: Int
        var count: Int
        var colorSpace: SceneColorSpace
    }
    private struct Entry { var key: Key; var image: DecodedImage }
    private struct State { var entries: [Entry] = []; var bytes = 0 }
    private static let state = Locked(State())

    /// The image for these bytes in this colour space, decoded now or kept
    /// from before; nil if the bytes are not a PNG Cairo decodes.
    static func image(png: [UInt8], colorSpace: SceneColorSpace, decoded: () -> DecodedImage?) -> DecodedImage? {
        var hasher = Hasher()
        png.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = Key(digest: hasher.finalize(), count: png.count, colorSpace: colorSpace)
        if let hit = state.withLock({ state -> DecodedImage? in
            guard let i = state.entries.firstIndex(where: { $0.key == key && $0.image.hasBytes(png) }) else { return nil }
            let entry = state.entries.remove(at: i)
            state.entries.append(entry)
            return entry.image
        }) {
            return hit
        }
        guard let made = decoded() else { return nil }
        guard made.byteCount <= capacity else { return made }
        return state.withLock { state -> DecodedImage in
            // Another compile may have kept the same bytes meanwhile: one copy.
            if let kept = state.entries.first(where: { $0.key == key && $0.image.hasBytes(png) }) { return kept.image }
            state.entries.append(Entry(key: key, image: made))
            state.bytes += made.byteCount
            while state.bytes > capacity, !state.entries.isEmpty {
                state.bytes -= state.entries.removeFirst().image.byteCount
            }
            return made
        }
    }

    /// What the cache holds now (tests and the soak read it).
    static var heldBytes: Int { state.withLock { $0.bytes } }
}
