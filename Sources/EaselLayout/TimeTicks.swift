import EaselModel

/// A time axis's ticks and labels as d3 makes them for a UTC scale
/// (`d3.scaleUtc`): the intervals of d3-time (src/interval.js, second.js …
/// year.js; `utcTicks` and `utcTickInterval` in src/ticks.js), d3-scale's
/// `nice` over an interval (src/nice.js) and its multi-scale tick format
/// (src/time.js) with d3-time-format's en-US names. Times are milliseconds
/// since 1970 (`UTCCalendar`), as JavaScript's.
public enum TimeTicks {
    /// A calendar unit: how d3-time floors to it, steps by it and numbers it.
    public enum Unit: Sendable, CaseIterable {
        case millisecond, second, minute, hour, day, week, month, year

        public func floor(_ t: Double) -> Double {
            switch self {
            case .millisecond: return t
            case .second: return t - Self.mod(t, UTCCalendar.second)
            case .minute: return t - Self.mod(t, UTCCalendar.minute)
            case .hour: return t - Self.mod(t, UTCCalendar.hour)
            case .day: return t - Self.mod(t, UTCCalendar.day)
            case .week:
                // Sundays (utcSunday).
                let d = Unit.day.floor(t)
                let weekday = UTCCalendar.fields(d).weekday
                return d - Double(weekday) * UTCCalendar.day
            case .month:
                let f = UTCCalendar.fields(t)
                return UTCCalendar.time(.init(year: f.year, month: f.month, day: 1))
            case .year:
                return UTCCalendar.time(.init(year: UTCCalendar.fields(t).year, month: 1, day: 1))
            }
        }

        /// `t` moved by `step` units (months and years by the calendar, the
        /// day of the month kept as `setUTCMonth` keeps it).
        public func offset(_ t: Double, _ step: Int) -> Double {
            switch self {
            case .millisecond: return t + Double(step)
            case .second: return t + Double(step) * UTCCalendar.second
            case .minute: return t + Double(step) * UTCCalendar.minute
            case .hour: return t + Double(step) * UTCCalendar.hour
            case .day: return t + Double(step) * UTCCalendar.day
            case .week: return t + Double(step) * 7 * UTCCalendar.day
            case .month, .year:
                var f = UTCCalendar.fields(t)
                if self == .month { f.month += step } else { f.year += step }
                let days = UTCCalendar.daysFromCivil(f.year, f.month, f.day)
                return Double(days) * UTCCalendar.day + (t - Unit.day.floor(t))
            }
        }

        /// The number `every(k)` keeps multiples of (d3-time's `field`; the
        /// day counts from 1970, as `unixDay`'s). Weeks have none.
        func field(_ t: Double) -> Int? {
            let f = UTCCalendar.fields(t)
            switch self {
            case .millisecond, .week: return nil
            case .second: return f.second
            case .minute: return f.minute
            case .hour: return f.hour
            case .day: return Int((t / UTCCalendar.day).rounded(.down))
            case .month: return f.month - 1
            case .year: return f.year
            }
        }

        static func mod(_ a: Double, _ b: Double) -> Double {
            let r = a.truncatingRemainder(dividingBy: b)
            return r < 0 ? r + b : r
        }
    }

    /// `unit.every(step)`: the unit's moments whose number is a multiple of
    /// `step` (for milliseconds and years, multiples of the moment itself).
    public struct Interval: Hashable, Sendable {
        public var unit: Unit
        public var step: Int

        public func floor(_ t: Double) -> Double {
            switch unit {
            case .millisecond:
                return (t / Double(step)).rounded(.down) * Double(step)
            case .year:
                let y = UTCCalendar.fields(t).year
                return UTCCalendar.time(.init(year: Int((Double(y) / Double(step)).rounded(.down)) * step, month: 1, day: 1))
            default:
                var d = unit.floor(t)
                while !keeps(d) { d = unit.floor(d - 1) }
                return d
            }
        }

        public func offset(_ t: Double, _ n: Int) -> Double {
            switch unit {
            case .millisecond, .year: return unit.offset(t, n * step)
            default:
                var d = t
                for _ in 0..<n {
                    repeat { d = unit.offset(d, 1) } while !keeps(d)
                }
                return d
            }
        }

        func keeps(_ t: Double) -> Bool {
            guard step > 1, let n = unit.field(t) else { return true }
            return n % step == 0
        }

        public func ceil(_ t: Double) -> Double { floor(offset(floor(t - 1), 1)) }

        /// Every moment of the interval from `start` up to, not including, `stop`.
        public func range(_ start: Double, _ stop: Double, limit: Int = 10_000) -> [Double] {
            var out: [Double] = []
            var t = ceil(start)
            guard t < stop else { return out }
            var previous: Double
            repeat {
                out.append(t)
                previous = t
                t = floor(offset(t, 1))
            } while previous < t && t < stop && out.count < limit
            return out
        }
    }

    static let durationSecond = 1_000.0, durationMinute = 60_000.0, durationHour = 3_600_000.0
    static let durationDay = 86_400_000.0, durationWeek = 7 * 86_400_000.0
    static let durationMonth = 30 * 86_400_000.0, durationYear = 365 * 86_400_000.0

    static let tickIntervals: [(Unit, Int, Double)] = [
        (.second, 1, durationSecond), (.second, 5, 5 * durationSecond), (.second, 15, 15 * durationSecond), (.second, 30, 30 * durationSecond),
        (.minute, 1, durationMinute), (.minute, 5, 5 * durationMinute), (.minute, 15, 15 * durationMinute), (.minute, 30, 30 * durationMinute),
        (.hour, 1, durationHour), (.hour, 3, 3 * durationHour), (.hour, 6, 6 * durationHour), (.hour, 12, 12 * durationHour),
        (.day, 1, durationDay), (.day, 2, 2 * durationDay), (.week, 1, durationWeek),
        (.month, 1, durationMonth), (.month, 3, 3 * durationMonth), (.year, 1, durationYear),
    ]

    /// The interval d3's `utcTickInterval(start, stop, count)` picks: the
    /// one of its table nearest (by ratio) to the span over `count`.
    public static func tickInterval(_ start: Double, _ stop: Double, count: Double) -> Interval? {
        let target = abs(stop - start) / count
        // bisector(step).right: the first entry whose duration exceeds target.
        let i = tickIntervals.firstIndex { $0.2 > target } ?? tickIntervals.count
        func every(_ unit: Unit, _ k: Double) -> Interval? {
            let step = k.rounded(.down)
            guard step.isFinite, step > 0, step < 1e9 else { return nil }
            return Interval(unit: unit, step: Int(step))
        }
        if i == tickIntervals.count {
            return every(.year, NumericTicks.tickStep(start / durationYear, stop / durationYear, count: count))
        }
        if i == 0 { return every(.millisecond, max(NumericTicks.tickStep(start, stop, count: count), 1)) }
        let (unit, step, _) = tickIntervals[target / tickIntervals[i - 1].2 < tickIntervals[i].2 / target ? i - 1 : i]
        return Interval(unit: unit, step: step)
    }

    /// `utcTicks(start, stop, count)`: the interval's moments from start to
    /// stop inclusive, in the order of the two ends.
    public static func ticks(_ start: Double, _ stop: Double, count: Double) -> [Double] {
        let (a, b) = stop < start ? (stop, start) : (start, stop)
        guard let interval = tickInterval(a, b, count: count) else { return [] }
        let ticks = interval.range(a, b + 1)
        return stop < start ? ticks.reversed() : ticks
    }

    /// `scaleUtc().nice(count)`: the domain widened to the tick interval.
    public static func nice(_ start: Double, _ stop: Double, count: Double = 10) -> (Double, Double) {
        guard let interval = tickInterval(start, stop, count: count) else { return (start, stop) }
        if stop < start { return (interval.ceil(start), interval.floor(stop)) }
        return (interval.floor(start), interval.ceil(stop))
    }

    /// d3-scale's multi-scale format: each tick in the coarsest form that
    /// still tells it apart (`.250`, `:30`, `08:15`, `08 AM`, `Mon 02`,
    /// `Nov 02`, `November`, `2026`).
    public static func label(_ t: Double, locale: TimeLocale = .enUS) -> String {
        let specifier: String
        if Unit.second.floor(t) < t { specifier = ".%L" }
        else if Unit.minute.floor(t) < t { specifier = ":%S" }
        else if Unit.hour.floor(t) < t { specifier = "%I:%M" }
        else if Unit.day.floor(t) < t { specifier = "%I %p" }
        else if Unit.month.floor(t) < t { specifier = Unit.week.floor(t) < t ? "%a %d" : "%b %d" }
        else if Unit.year.floor(t) < t { specifier = "%B" }
        else { specifier = "%Y" }
        return TimeFormat.format(t, specifier, locale: locale)
    }
}
