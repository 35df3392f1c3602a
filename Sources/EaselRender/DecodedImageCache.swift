import EaselModel

/// Decoded images kept between the compiles of one process (a persistent
/// worker, the preview, a build): a PNG used by many scenes or requests is
/// decoded once. Keyed by the file's bytes (compared whole on a hit, so a
/// changed file is never served from the cache) and the colour space it was
/// converted to; bounded by the memory the images hold: past it the least
/// recently used go, down to three quarters of it.
enum DecodedImageCache {
    /// Pixels and PNG bytes kept at most (an image larger than this is
    /// decoded per compile and not kept).
    static let capacity = 64 << 20

    fileprivate struct Key: Hashable {
        var digest: Int
        var count: Int
        var colorSpace: SceneColorSpace
    }
    /// Images by key (a key shared by other bytes, however unlikely, holds
    /// each: the bytes decide), each with when it was last used.
    fileprivate struct Entry { var image: DecodedImage; var used: Int }
    fileprivate struct State { var entries: [Key: [Entry]] = [:]; var bytes = 0; var clock = 0 }
    private static let state = Locked(State())

    /// The image for these bytes in this colour space, decoded now or kept
    /// from before; nil if the bytes are not a PNG Cairo decodes. A lookup
    /// is a hash of the bytes and a comparison with the one kept image of
    /// that hash, however many are kept; the hash is the source's, taken
    /// once when it was read.
    static func image(_ source: ImageSource, colorSpace: SceneColorSpace, decoded: () -> DecodedImage?) -> DecodedImage? {
        let png = source.data
        let key = Key(digest: source.digest, count: png.count, colorSpace: colorSpace)
        if let hit = state.withLock({ $0.use(key, png) }) { return hit }
        guard let made = decoded() else { return nil }
        guard made.byteCount <= capacity else { return made }
        return state.withLock { state -> DecodedImage in
            // Another compile may have kept the same bytes meanwhile: one copy.
            if let kept = state.use(key, png) { return kept }
            state.clock += 1
            state.entries[key, default: []].append(Entry(image: made, used: state.clock))
            state.bytes += made.byteCount
            if state.bytes > capacity { state.evict() }
            return made
        }
    }

    /// What the cache holds now (tests and the soak read it).
    static var heldBytes: Int { state.withLock { $0.bytes } }
}

extension DecodedImageCache.State {
    /// The kept image of these bytes, marked used now.
    mutating func use(_ key: DecodedImageCache.Key, _ png: [UInt8]) -> DecodedImage? {
        guard let i = entries[key]?.firstIndex(where: { $0.image.hasBytes(png) }) else { return nil }
        clock += 1
        entries[key]![i].used = clock
        return entries[key]![i].image
    }

    /// The least recently used go until the cache holds three quarters of
    /// its capacity: one sort pays for many insertions after it.
    mutating func evict() {
        let byAge = entries.flatMap { key, list in list.map { (key, $0) } }.sorted { $0.1.used < $1.1.used }
        for (key, entry) in byAge where bytes > DecodedImageCache.capacity / 4 * 3 {
            entries[key]!.removeAll { $0.image === entry.image }
            if entries[key]!.isEmpty { entries[key] = nil }
            bytes -= entry.image.byteCount
        }
    }
}
