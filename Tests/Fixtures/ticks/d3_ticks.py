"""d3's numeric ticks, transcribed into Python from d3-array's src/ticks.js
(ticks, tickIncrement, tickStep), d3-scale's src/linear.js (nice) and
src/tickFormat.js with d3-format's ",f" (precisionFixed, toFixed, comma
grouping, the minus sign U+2212). Independent of Easel's Swift code: the
oracle the axis tests compare with.

stdin: a JSON list of [start, stop, count]; stdout: a JSON list of
{"ticks": [...], "nice": [a, b], "labels": [...]}.
"""
import json
import math
import sys

E10, E5, E2 = math.sqrt(50), math.sqrt(10), math.sqrt(2)


# JavaScript's Math functions on infinities and NaN (an empty range makes them).
def floor(x):
    if not math.isfinite(x):
        return x
    r = float(math.floor(x))
    return math.copysign(r, x) if r == 0 else r


def ceil(x):
    if not math.isfinite(x):
        return x
    r = float(math.ceil(x))
    return math.copysign(r, x) if r == 0 else r


def log10(x):
    return -math.inf if x == 0 else math.nan if not x > 0 else math.log10(x)


def div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * math.copysign(1, b)


def js_round(x):
    # Math.round: the nearest integer, halves towards +infinity.
    f = floor(x)
    return f + 1 if math.isfinite(x) and x - f >= 0.5 else f


def tick_spec(start, stop, count):
    step = div(stop - start, max(0, count))
    power = floor(log10(step))
    error = div(step, math.pow(10, power))
    factor = 10 if error >= E10 else 5 if error >= E5 else 2 if error >= E2 else 1
    if power < 0:
        inc = math.pow(10, -power) / factor if -power < 400 else math.inf
        i1 = js_round(start * inc)
        i2 = js_round(stop * inc)
        if div(i1, inc) < start:
            i1 += 1
        if div(i2, inc) > stop:
            i2 -= 1
        inc = -inc
    else:
        inc = math.pow(10, power) * factor
        i1 = js_round(start / inc)
        i2 = js_round(stop / inc)
        if i1 * inc < start:
            i1 += 1
        if i2 * inc > stop:
            i2 -= 1
    if i2 < i1 and 0.5 <= count < 2:
        return tick_spec(start, stop, count * 2)
    return i1, i2, inc


def ticks(start, stop, count):
    if not count > 0:
        return []
    if start == stop:
        return [start]
    reverse = stop < start
    i1, i2, inc = tick_spec(stop, start, count) if reverse else tick_spec(start, stop, count)
    if not i2 >= i1:
        return []
    n = int(i2 - i1 + 1)
    out = []
    for i in range(n):
        k = (i2 - i) if reverse else (i1 + i)
        out.append(k / -inc if inc < 0 else k * inc)
    return out


def tick_increment(start, stop, count):
    return tick_spec(start, stop, count)[2]


def tick_step(start, stop, count):
    reverse = stop < start
    inc = tick_increment(stop, start, count) if reverse else tick_increment(start, stop, count)
    return (-1 if reverse else 1) * (1 / -inc if inc < 0 else inc)


def nice(start, stop, count=10):
    d0, d1 = start, stop
    if stop < start:
        start, stop = stop, start
    prestep = None
    for _ in range(10):
        step = tick_increment(start, stop, count)
        if step == prestep:
            return [stop, start] if d1 < d0 else [start, stop]
        elif step > 0:
            start = floor(start / step) * step
            stop = ceil(stop / step) * step
        elif step < 0:
            start = div(ceil(start * step), step)
            stop = div(floor(stop * step), step)
        else:
            break
        prestep = step
    return [d0, d1]


def exponent(x):
    # d3-format's formatDecimal: the exponent of x.toExponential().
    return int(repr(float(x)).lower().split("e")[1]) if "e" in repr(float(x)).lower() else \
        int(math.floor(math.log10(abs(x)))) if x != 0 else 0


def precision_fixed(step):
    return max(0, -exponent(abs(step)))


def fixed(value, precision):
    text = f"{abs(value):,.{precision}f}"
    negative = (value < 0 or math.copysign(1, value) < 0) and float(text.replace(",", "")) != 0
    return ("\u2212" if negative else "") + text


def labels(values, start, stop, count):
    p = precision_fixed(tick_step(start, stop, count))
    return [fixed(v, p) for v in values]


if __name__ == "__main__":
    out = []
    for start, stop, count in json.load(sys.stdin):
        t = ticks(start, stop, count)
        out.append({"ticks": t, "nice": nice(start, stop, 10), "labels": labels(t, start, stop, count)})
    print(json.dumps(out))
