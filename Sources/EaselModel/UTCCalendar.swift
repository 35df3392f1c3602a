/// Dates as a graph's time axis holds them: milliseconds since
/// 1970-01-01T00:00:00Z, as JavaScript's `Date` (so d3's time intervals
/// carry over step for step), in the proleptic Gregorian calendar, UTC.
/// Written out rather than taken from Foundation's `Calendar`: the few
/// lines of civil-date arithmetic (H. Hinnant's `days_from_civil`) keep
/// ICU out of layout and give the same answer on every machine.
public enum UTCCalendar {
    public static let second = 1_000.0, minute = 60_000.0, hour = 3_600_000.0, day = 86_400_000.0

    /// A moment's calendar fields. `month` is 1…12, `weekday` 0 (Sunday)…6.
    public struct Fields: Hashable, Sendable {
        public var year: Int, month: Int, day: Int
        public var hour = 0, minute = 0, second = 0, millisecond = 0
        public var weekday: Int { Int(UTCCalendar.floorMod(UTCCalendar.daysFromCivil(year, month, day) + 4, 7)) }
        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second, self.millisecond) = (year, month, day, hour, minute, second, millisecond)
        }
    }

    public static func floorMod(_ a: Int, _ b: Int) -> Int { let r = a % b; return r < 0 ? r + b : r }

    /// Days from 1970-01-01 to year-month-day; `month` may run past 1…12
    /// (as `Date.UTC`'s does) and `day` past the month's end.
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let m0 = month - 1
        let y = year + (m0 >= 0 ? m0 / 12 : (m0 - 11) / 12)
        let m = floorMod(m0, 12) + 1
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468 + (day - 1)
    }

    /// The calendar date `days` after 1970-01-01.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func time(_ f: Fields) -> Double {
        Double(daysFromCivil(f.year, f.month, f.day)) * day
            + Double(f.hour) * hour + Double(f.minute) * minute + Double(f.second) * second + Double(f.millisecond)
    }

    public static func fields(_ t: Double) -> Fields {
        let days = (t / day).rounded(.down)
        let (y, m, d) = civil(fromDays: Int(days))
        var rest = Int(t - days * day)
        let ms = rest % 1_000; rest /= 1_000
        return Fields(year: y, month: m, day: d, hour: rest / 3_600, minute: rest / 60 % 60, second: rest % 60, millisecond: ms)
    }

    /// An ISO 8601 date or date-time: `2026-11`, `2026-11-02`,
    /// `2026-11-02T08:00`, `2026-11-02 08:00:00.250`, each with an optional
    /// zone (`Z`, `+01:00`, `-0530`). Without a zone it is UTC (as
    /// JavaScript reads a date alone; unlike JavaScript, a date-time too:
    /// the picture must not depend on the machine's time zone). Years
    /// 0000–9999. Nil for anything else, or a field out of range.
    public static func parseISO8601(_ text: Substring) -> Double? {
        var s = text.utf8[...]
        func digits(_ n: Int) -> Int? {
            guard s.count >= n else { return nil }
            var v = 0
            for c in s.prefix(n) {
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            s = s.dropFirst(n)
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard s.first == c else { return false }
            s = s.dropFirst()
            return true
        }
        guard let year = digits(4), take(45), let month = digits(2), (1...12).contains(month) else { return nil }
        var f = Fields(year: year, month: month, day: 1)
        if take(45) {
            guard let d = digits(2), d >= 1, d <= daysIn(year, month) else { return nil }
            f.day = d
            if take(84) || take(32) {   // "T" or a space
                guard let h = digits(2), h <= 23, take(58), let mi = digits(2), mi <= 59 else { return nil }
                (f.hour, f.minute) = (h, mi)
                if take(58) {
                    guard let sec = digits(2), sec <= 59 else { return nil }
                    f.second = sec
                    if take(46) {
                        // Milliseconds: the first three digits of the fraction.
                        var ms = 0, n = 0
                        while let c = s.first, c >= 48, c <= 57 {
                            if n < 3 { ms = ms * 10 + Int(c - 48) }
                            n += 1
                            s = s.dropFirst()
                        }
                        guard n > 0 else { return nil }
                        if n < 3 { for _ in n..<3 { ms *= 10 } }
                        f.millisecond = ms
                    }
                }
                var offset = 0.0
                if take(90) {   // "Z"
                } else if let sign = s.first, sign == 43 || sign == 45 {
                    s = s.dropFirst()
                    guard let oh = digits(2), oh <= 23 else { return nil }
                    _ = take(58)
                    guard let om = digits(2), om <= 59 else { return nil }
                    offset = (sign == 43 ? 1 : -1) * (Double(oh) * hour + Double(om) * minute)
                }
                guard s.isEmpty else { return nil }
                return time(f) - offset
            }
        }
        guard s.isEmpty else { return nil }
        return time(f)
    }

    public static func daysIn(_ year: Int, _ month: Int) -> Int {
        daysFromCivil(year, month + 1, 1) - daysFromCivil(year, month, 1)
    }
}
