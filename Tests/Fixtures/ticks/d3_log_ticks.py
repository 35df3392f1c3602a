"""d3's base-10 log scale, transcribed into Python from d3-scale's
src/log.js (ticks, nice, tickFormat) and d3-format's "s" type with the
trim d3-scale asks for (src/formatPrefixAuto.js, src/formatTrim.js,
src/formatDecimal.js), the linear ticks it falls back to from d3_ticks.py.
Independent of Easel's Swift code: the oracle the log axis tests compare
with.

stdin: a JSON list of [start, stop, count]; stdout: a JSON list of
{"ticks": [...], "nice": [a, b], "labels": [...]} ("" where d3 leaves a
tick unlabelled).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import d3_ticks  # noqa: E402


def pow10(x):
    # log.js: +("1e" + x)
    if not math.isfinite(x):
        return 0.0 if x < 0 else x
    return float("1e%d" % int(x))


def log_ticks(u, v, count):
    # log.js `ticks` for base 10, both ends above 0.
    r = v < u
    if r:
        u, v = v, u
    i, j = math.log10(u), math.log10(v)
    n = count
    z = []
    if j - i < n:
        i, j = math.floor(i), math.ceil(j)
        done = False
        while i <= j and not done:
            for k in range(1, 10):
                t = k / pow10(-i) if i < 0 else k * pow10(i)
                if t < u:
                    continue
                if t > v:
                    done = True
                    break
                z.append(t)
            i += 1
        if len(z) * 2 < n:
            z = d3_ticks.ticks(u, v, n)
    else:
        z = [pow10(e) for e in d3_ticks.ticks(i, j, min(j - i, n))]
    return z[::-1] if r else z


def log_nice(a, b):
    # log.js `nice` with floor/ceil to powers of ten (nice.js).
    lo, hi = (b, a) if b < a else (a, b)
    lo, hi = pow10(math.floor(math.log10(lo))), pow10(math.ceil(math.log10(hi)))
    return [hi, lo] if b < a else [lo, hi]


PREFIXES = ["y", "z", "a", "f", "p", "n", "\u00b5", "m", "", "k", "M", "G", "T", "P", "E", "Z", "Y"]


def format_trim(s):
    # formatTrim.js, as written.
    n, i0, i1 = len(s), -1, None
    i = 1
    while i < n:
        c = s[i]
        if c == ".":
            i0 = i1 = i
        elif c == "0":
            if i0 == 0:
                i0 = i
            i1 = i
        else:
            if not c.isdigit() or c == "0":
                break
            if i0 > 0:
                i0 = 0
        i += 1
    return s[:i0] + s[i1 + 1:] if i0 > 0 else s


def format_s(x):
    # d3-format "~s" (precision 6): formatPrefixAuto, then trimmed, then the prefix.
    coefficient, exponent = ("%.5e" % abs(x)).split("e")
    digits = coefficient.replace(".", "")
    exponent = int(exponent)
    prefix_exponent = max(-8, min(8, math.floor(exponent / 3))) * 3
    i = exponent - prefix_exponent + 1
    n = len(digits)
    if i == n:
        value = digits
    elif i > n:
        value = digits + "0" * (i - n)
    elif i > 0:
        value = digits[:i] + "." + digits[i:]
    else:
        value = "0." + "0" * (-i) + digits
    value = format_trim(value)
    suffix = PREFIXES[8 + prefix_exponent // 3] if x != 0 else ""
    return ("\u2212" if x < 0 else "") + value + suffix


def log_labels(ticks, start, stop, count):
    # log.js `tickFormat(count)`: only ticks whose leading digit is at most k
    # keep a label, k = max(1, base * count / scale.ticks().length) — the
    # scale's ticks at their default count, 10.
    if not ticks:
        return []
    k = max(1, 10 * count / len(log_ticks(start, stop, 10)))
    out = []
    for d in ticks:
        i = d / pow10(d3_ticks.js_round(math.log10(d)))
        if i * 10 < 10 - 0.5:
            i *= 10
        out.append(format_s(d) if i <= k else "")
    return out


if __name__ == "__main__":
    out = []
    for start, stop, count in json.load(sys.stdin):
        t = log_ticks(start, stop, count)
        out.append({"ticks": t, "nice": log_nice(start, stop), "labels": log_labels(t, start, stop, count)})
    print(json.dumps(out, ensure_ascii=False))
