/// d3-time-format's `utcFormat` with a locale's names (`TimeLocale`,
/// en-US by default), for the directives a graph's time axis takes
/// (`format` on `<xAxis>`): labels read as d3's and Vega-Lite's do.
public enum TimeFormat {
    /// The directives `format` understands: d3-time-format's `%a %A %b %B
    /// %c %d %e %H %I %j %L %m %M %p %S %x %X %y %Y %%` (`%c`, `%x`, `%X`: the
    /// locale's date and time, date, and time formats), each number with
    /// d3's padding modifiers (`%-d` none, `%_d` spaces, `%0e` zeros).
    public static let directives: Set<Character> = ["a", "A", "b", "B", "c", "d", "e", "H", "I", "j", "L", "m", "M", "p", "S", "x", "X", "y", "Y", "%"]

    /// Whether `specifier` uses only those directives.
    public static func isValidFormat(_ specifier: String) -> Bool {
        var percent = false, padded = false
        for c in specifier {
            if percent {
                // d3's padding modifiers: `%-d` none, `%_d` spaces, `%0d` zeros.
                if !padded, "-_0".contains(c) { padded = true; continue }
                guard directives.contains(c) else { return false }
                percent = false
            } else if c == "%" { percent = true; padded = false }
        }
        return !percent
    }

    /// `utcFormat(specifier)(t)`.
    public static func format(_ t: Double, _ specifier: String, locale: TimeLocale = .enUS) -> String {
        let f = UTCCalendar.fields(t)
        // A modifier (d3-time-format's `pads`) replaces the directive's own
        // fill: "" pads nothing.
        var modifier: String?
        func pad(_ v: Int, _ width: Int, _ fill: String = "0") -> String {
            let s = String(abs(v))
            let with = modifier ?? fill
            return (v < 0 ? "-" : "") + (with.isEmpty ? "" : String(repeating: with, count: max(0, width - s.count))) + s
        }
        var out = "", percent = false
        for c in specifier {
            guard percent else {
                if c == "%" { percent = true; modifier = nil } else { out.append(c) }
                continue
            }
            if modifier == nil, let m = ["-": "", "_": " ", "0": "0"][c] { modifier = m; continue }
            percent = false
            switch c {
            case "a": out += locale.shortDays[f.weekday]
            case "A": out += locale.days[f.weekday]
            case "b": out += locale.shortMonths[f.month - 1]
            case "B": out += locale.months[f.month - 1]
            // `dateTime` may name the date and time formats (de-DE's
            // "%A, der %e. %B %Y, %X"); those two name neither, so this
            // cannot recurse further.
            case "c": out += format(t, locale.dateTime.replacing("%c", with: ""), locale: locale)
            case "x": out += format(t, Self.plain(locale.date), locale: locale)
            case "X": out += format(t, Self.plain(locale.time), locale: locale)
            case "d": out += pad(f.day, 2)
            case "e": out += pad(f.day, 2, " ")
            case "H": out += pad(f.hour, 2)
            case "I": out += pad(f.hour % 12 == 0 ? 12 : f.hour % 12, 2)
            case "j": out += pad(UTCCalendar.daysFromCivil(f.year, f.month, f.day) - UTCCalendar.daysFromCivil(f.year, 1, 1) + 1, 3)
            case "L": out += pad(f.millisecond, 3)
            case "m": out += pad(f.month, 2)
            case "M": out += pad(f.minute, 2)
            case "p": out += locale.periods[f.hour >= 12 ? 1 : 0]
            case "S": out += pad(f.second, 2)
            case "y": out += pad(UTCCalendar.floorMod(f.year, 100), 2)
            case "Y": out += pad(f.year % 10_000, 4)
            default: out.append(c)   // "%%"
            }
        }
        return out
    }

    private static func plain(_ f: String) -> String {
        f.replacing("%c", with: "").replacing("%x", with: "").replacing("%X", with: "")
    }
}
