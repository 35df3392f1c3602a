import EaselModel

/// Pango font maps a shaping context let go of, kept alive a while before
/// they are finalised. Pango 1.50 matches and sorts a new description's
/// fonts in a thread of the font map's own, and drops that work's last
/// reference there, reading the map's tables as it does (`free_patterns`):
/// a map finalised while its thread still works for it is read after it is
/// freed, and one whose caches are cleared is read beside the thread that
/// refills them (a test that let a context go after every text died of it,
/// SIGFPE in GLib's hash table lookup under that thread). A sort takes
/// milliseconds; a map is finalised when `capacity` more have been retired
/// after it — by count, not by clock, so that what a long-lived process
/// holds does not depend on timing (its soak test measures the heap each
/// round). Maps are never cleared in place: a context with too many
/// descriptions retires its maps and makes new ones
/// (`ShapingContext.clearCachesIfFull`).
enum RetiredFontMaps {
    /// What keeps a map alive (its engine), and whether letting it go
    /// touches Cairo's fonts (PangoCairo's map holds Cairo faces: under
    /// `CairoFontAccess`).
    private struct Entry: Sendable {
        var owner: any AnyObject & Sendable
        var cairo: Bool
    }
    private static let entries = Locked<[Entry]>([])
    static let capacity = 8
    private static let retiredCount = Locked(0)

    /// Maps retired so far in the process (tests).
    static var retired: Int { retiredCount.withLock { $0 } }

    static func retire(_ owner: any AnyObject & Sendable, cairo: Bool) {
        retiredCount.withLock { $0 += 1 }
        var (cairoOwned, others): ([any AnyObject & Sendable], [any AnyObject & Sendable]) = entries.withLock { list in
            list.append(Entry(owner: owner, cairo: cairo))
            let expired = list.prefix(max(0, list.count - capacity))
            list.removeFirst(expired.count)
            return (expired.filter(\.cairo).map(\.owner), expired.filter { !$0.cairo }.map(\.owner))
        }
        // Finalised here, outside the table's lock; PangoCairo's under Cairo's.
        if !cairoOwned.isEmpty { CairoFontAccess.withLock { cairoOwned.removeAll() } }
        others.removeAll()
    }
}
