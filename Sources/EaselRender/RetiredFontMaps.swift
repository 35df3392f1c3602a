import Glibc
import EaselModel

/// Pango font maps a shaping context let go of, kept alive a while before
/// they are finalised. Pango 1.50 matches and sorts a new description's
/// fonts in a thread of the font map's own, and drops that work's last
/// reference there, reading the map's tables as it does (`free_patterns`):
/// a map finalised while its thread still works for it is read after it is
/// freed, and one whose caches are cleared is read beside the thread that
/// refills them (a test that let a context go after every text died of it,
/// SIGFPE in GLib's hash table lookup under that thread). A sort
/// takes milliseconds; a map let go of is finalised at the first
/// retirement `grace` or more later, never sooner. Its caches are never
/// cleared in place: a context with too many descriptions retires its maps
/// and makes new ones (`ShapingContext.clearCachesIfFull`).
enum RetiredFontMaps {
    /// What keeps a map alive (its engine), whether letting it go touches
    /// Cairo's fonts (PangoCairo's map holds Cairo faces: under
    /// `CairoFontAccess`), and when it was retired.
    private struct Entry: Sendable {
        var owner: any AnyObject & Sendable
        var cairo: Bool
        var at: UInt64
    }
    private static let entries = Locked<[Entry]>([])
    static let grace: UInt64 = 2_000_000_000

    /// Maps retired and not yet finalised (tests).
    static var count: Int { entries.withLock { $0.count } }

    static func retire(_ owner: any AnyObject & Sendable, cairo: Bool) {
        let now = monotonicNanoseconds()
        var (cairoOwned, others): ([any AnyObject & Sendable], [any AnyObject & Sendable]) = entries.withLock { list in
            let expired = list.filter { now &- $0.at >= grace }
            list.removeAll { now &- $0.at >= grace }
            list.append(Entry(owner: owner, cairo: cairo, at: now))
            return (expired.filter(\.cairo).map(\.owner), expired.filter { !$0.cairo }.map(\.owner))
        }
        // Finalised here, outside the table's lock; PangoCairo's under Cairo's.
        if !cairoOwned.isEmpty { CairoFontAccess.withLock { cairoOwned.removeAll() } }
        others.removeAll()
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
