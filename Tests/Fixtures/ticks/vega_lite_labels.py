"""Axis label texts as Vega-Lite draws them (vl-convert-python, offline):
the oracle the graph tests compare Easel's axes with.

stdin: a JSON list of {"x": [...], "y": [...], "temporal": bool, "ticks": n,
"locale": optional d3 locale name such as "de-DE"}; x values are numbers or
ISO dates (read as UTC, as Easel reads them). With a locale, Vega-Lite is
given d3's definitions by name (vl-convert's `format_locale` and
`time_format_locale`).
stdout: a JSON list of {"x": [labels], "y": [labels]}.

Both scales as Easel's defaults make them: x not widened (nice false, as
the tests ask of Easel), y from min(0, data) widened by nice; labels never
dropped for overlap (the tests give Easel room for all of them).
"""
import html
import json
import re
import sys

import vl_convert as vlc


def labels(case):
    values = [{"x": x, "y": y} for x, y in zip(case["x"], case["y"])]
    x = {"field": "x", "type": "temporal" if case["temporal"] else "quantitative",
         "scale": {"nice": False, "zero": False},
         "axis": {"tickCount": case["ticks"], "labelOverlap": False, "labelFlush": False}}
    if case["temporal"]:
        x["scale"]["type"] = "utc"
    y = {"field": "y", "type": "quantitative", "scale": {"nice": True, "zero": True},
         "axis": {"tickCount": case["ticks"], "labelOverlap": False}}
    spec = {"data": {"values": values}, "mark": "line", "width": 2000, "height": 2000,
            "encoding": {"x": x, "y": y}}
    locale = case.get("locale")
    # A time definition only for time axes: d3 has number definitions
    # (en-IN) that it has no date definitions for.
    time_locale = locale if case["temporal"] else None
    svg = vlc.vegalite_to_svg(spec, format_locale=locale, time_format_locale=time_locale) if locale else vlc.vegalite_to_svg(spec)
    # The axes' label groups, in the order Vega writes them: x, then y.
    groups = re.findall(r'<g class="mark-text role-axis-label"[^>]*>(.*?)</g>', svg, re.S)
    texts = [re.findall(r"<text[^>]*>(.*?)</text>", g) for g in groups]
    unescape = html.unescape
    return {"x": [unescape(t) for t in texts[0]], "y": [unescape(t) for t in texts[1]]}


if __name__ == "__main__":
    print(json.dumps([labels(c) for c in json.load(sys.stdin)]))
