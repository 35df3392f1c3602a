"""d3's UTC time ticks, transcribed into Python from d3-time (src/interval.js,
millisecond.js, second.js, minute.js, hour.js, day.js's unixDay, week.js's
utcSunday, month.js, year.js, ticks.js's utcTicks/utcTickInterval), d3-scale
(src/nice.js, src/time.js's multi-scale tickFormat) and d3-time-format's
en-US names. The calendar is Python's datetime, not Easel's arithmetic: the
oracle the time-axis tests compare with.

stdin: a JSON list of [start, stop, count] in milliseconds since 1970 (UTC);
stdout: a JSON list of {"ticks": [...], "labels": [...], "nice": [a, b]}.
"""
import json
import math
import sys
from datetime import datetime, timedelta, timezone

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from d3_ticks import tick_step  # noqa: E402

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
SECOND, MINUTE, HOUR, DAY = 1000, 60000, 3600000, 86400000
WEEK, MONTH, YEAR = 7 * DAY, 30 * DAY, 365 * DAY


def to_dt(t):
    return EPOCH + timedelta(milliseconds=t)


def to_ms(dt):
    return (dt - EPOCH) // timedelta(milliseconds=1)


def add_months(dt, n):
    # setUTCMonth(month + n): the day kept, overflowing into the next month.
    m = dt.month - 1 + n
    y, m = dt.year + m // 12, m % 12 + 1
    first = dt.replace(year=y, month=m, day=1)
    return first + timedelta(days=dt.day - 1)


class Interval:
    def __init__(self, floor, offset, field=None):
        self.floori, self.offseti, self.field = floor, offset, field

    def floor(self, t):
        return self.floori(t)

    def ceil(self, t):
        return self.floori(self.offseti(self.floori(t - 1), 1))

    def range(self, start, stop):
        out = []
        start = self.ceil(start)
        if not start < stop:
            return out
        while True:
            out.append(start)
            previous = start
            start = self.floori(self.offseti(start, 1))
            if not (previous < start and start < stop):
                return out

    def every(self, step):
        step = math.floor(step)
        if not step > 0:
            return None
        if step == 1:
            return self
        test = (lambda t: self.field(t) % step == 0)

        def floor(t):
            t = self.floori(t)
            while not test(t):
                t = self.floori(t - 1)
            return t

        def offset(t, n):
            for _ in range(n):
                t = self.offseti(t, 1)
                while not test(t):
                    t = self.offseti(t, 1)
            return t
        return Interval(floor, offset)


def js_mod(a, b):
    # JavaScript's %: the sign of the dividend.
    return int(math.fmod(a, b))


second = Interval(lambda t: t - to_dt(t).microsecond // 1000,
                  lambda t, n: t + n * SECOND, lambda t: to_dt(t).second)
minute = Interval(lambda t: to_ms(to_dt(t).replace(second=0, microsecond=0)),
                  lambda t, n: t + n * MINUTE, lambda t: to_dt(t).minute)
hour = Interval(lambda t: to_ms(to_dt(t).replace(minute=0, second=0, microsecond=0)),
                lambda t, n: t + n * HOUR, lambda t: to_dt(t).hour)
day = Interval(lambda t: to_ms(to_dt(t).replace(hour=0, minute=0, second=0, microsecond=0)),
               lambda t, n: to_ms(to_dt(t) + timedelta(days=n)), lambda t: math.floor(t / DAY))
# isoweekday: Monday 1 … Sunday 7; utcSunday floors to the Sunday before.
week = Interval(lambda t: day.floor(t) - (to_dt(t).isoweekday() % 7) * DAY,
                lambda t, n: to_ms(to_dt(t) + timedelta(days=7 * n)))
month = Interval(lambda t: to_ms(to_dt(t).replace(day=1, hour=0, minute=0, second=0, microsecond=0)),
                 lambda t, n: to_ms(add_months(to_dt(t), n)), lambda t: to_dt(t).month - 1)
year = Interval(lambda t: to_ms(to_dt(t).replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)),
                lambda t, n: to_ms(add_months(to_dt(t), 12 * n)), lambda t: to_dt(t).year)


def year_every(k):
    k = math.floor(k)
    if not k > 0:
        return None

    def floor(t):
        y = to_dt(t).year
        return to_ms(datetime(math.floor(y / k) * k, 1, 1, tzinfo=timezone.utc))
    return Interval(floor, lambda t, n: to_ms(add_months(to_dt(t), 12 * n * k)))


def millisecond_every(k):
    k = math.floor(k)
    if not k > 0:
        return None
    return Interval(lambda t: math.floor(t / k) * k, lambda t, n: t + n * k)


TICK_INTERVALS = [
    (second, 1, SECOND), (second, 5, 5 * SECOND), (second, 15, 15 * SECOND), (second, 30, 30 * SECOND),
    (minute, 1, MINUTE), (minute, 5, 5 * MINUTE), (minute, 15, 15 * MINUTE), (minute, 30, 30 * MINUTE),
    (hour, 1, HOUR), (hour, 3, 3 * HOUR), (hour, 6, 6 * HOUR), (hour, 12, 12 * HOUR),
    (day, 1, DAY), (day, 2, 2 * DAY), (week, 1, WEEK),
    (month, 1, MONTH), (month, 3, 3 * MONTH), (year, 1, YEAR),
]


def tick_interval(start, stop, count):
    target = abs(stop - start) / count
    i = 0
    while i < len(TICK_INTERVALS) and TICK_INTERVALS[i][2] <= target:
        i += 1
    if i == len(TICK_INTERVALS):
        return year_every(tick_step(start / YEAR, stop / YEAR, count))
    if i == 0:
        return millisecond_every(max(tick_step(start, stop, count), 1))
    unit, step, _ = TICK_INTERVALS[i - 1 if target / TICK_INTERVALS[i - 1][2] < TICK_INTERVALS[i][2] / target else i]
    return unit.every(step)


def ticks(start, stop, count):
    reverse = stop < start
    if reverse:
        start, stop = stop, start
    interval = tick_interval(start, stop, count)
    out = interval.range(start, stop + 1) if interval else []
    return out[::-1] if reverse else out


def nice(start, stop, count=10):
    interval = tick_interval(start, stop, count)
    if not interval:
        return [start, stop]
    if stop < start:
        return [interval.ceil(start), interval.floor(stop)]
    return [interval.floor(start), interval.ceil(stop)]


def fmt(t, spec):
    d = to_dt(t)
    names = {
        "a": d.strftime("%a"), "b": d.strftime("%b"), "B": d.strftime("%B"),
        "d": f"{d.day:02d}", "I": f"{(d.hour % 12) or 12:02d}", "L": f"{d.microsecond // 1000:03d}",
        "M": f"{d.minute:02d}", "p": "PM" if d.hour >= 12 else "AM", "S": f"{d.second:02d}", "Y": f"{d.year:04d}",
    }
    out, i = "", 0
    while i < len(spec):
        if spec[i] == "%":
            out += names[spec[i + 1]]
            i += 2
        else:
            out += spec[i]
            i += 1
    return out


def label(t):
    if second.floor(t) < t:
        spec = ".%L"
    elif minute.floor(t) < t:
        spec = ":%S"
    elif hour.floor(t) < t:
        spec = "%I:%M"
    elif day.floor(t) < t:
        spec = "%I %p"
    elif month.floor(t) < t:
        spec = "%a %d" if week.floor(t) < t else "%b %d"
    elif year.floor(t) < t:
        spec = "%B"
    else:
        spec = "%Y"
    return fmt(t, spec)


if __name__ == "__main__":
    out = []
    for start, stop, count in json.load(sys.stdin):
        t = ticks(start, stop, count)
        out.append({"ticks": t, "labels": [label(v) for v in t], "nice": nice(start, stop, 10)})
    print(json.dumps(out))
