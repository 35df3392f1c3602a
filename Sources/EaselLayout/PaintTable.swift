import EaselModel

/// An index into the scene's `PaintTable`.
public struct PaintID: Hashable, Sendable {
    public var index: Int
}

/// The paints of one laid-out scene, shared by every drawing that uses
/// them. An entry is a function of time: static paints ignore it; an
/// animated gradient (see the contract's Animation section) is resolved at
/// the painted time without laying the scene out again.
public struct PaintTable: Sendable {
    public enum Entry: Sendable {
        case fixed(ResolvedPaint)
        case animated(AnimatedPaint)
    }
    public private(set) var entries: [Entry] = []
    public init() {}
    /// Every paint's id, in the table's order.
    public var ids: [PaintID] { entries.indices.map { PaintID(index: $0) } }

    public mutating func add(_ entry: Entry) -> PaintID {
        entries.append(entry)
        return PaintID(index: entries.count - 1)
    }

    /// The paint as it is at `time` seconds.
    public func paint(_ id: PaintID, at time: Double) -> ResolvedPaint {
        switch entries[id.index] {
        case .fixed(let p): return p
        case .animated(let a): return a.paint(at: time)
        }
    }

    /// How many times the animations play (an animated PNG's loop count):
    /// 0, forever, when any repeats forever; else the most passes of any.
    public var plays: Int {
        var most = 1
        for case .animated(let a) in entries {
            switch a.clock.repeatMode {
            case .forever: return 0
            case .times(let n): most = max(most, n)
            }
        }
        return most
    }

    /// The longest pass among the animated paints; nil when nothing animates.
    public var longestPass: Double? {
        entries.compactMap { entry -> Double? in
            if case .animated(let a) = entry { return a.clock.passDuration }
            return nil
        }.max()
    }
}
