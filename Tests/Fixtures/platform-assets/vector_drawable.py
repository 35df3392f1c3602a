"""An Android VectorDrawable rasteriser for the tests, written from the
platform's documented semantics (developer.android.com, "VectorDrawable",
"Vector drawables overview"; the framework's VectorDrawable.cpp for the
order things happen in), not from Easel:

- `<vector>`: `android:width`/`height` in dp, a viewport mapped onto them.
- `<group>`: scale, then rotate (degrees, clockwise on screen), then
  translate, all about the pivot; its children drawn in order.
- `<clip-path>`: intersects the clip with its path (non-zero) for the
  group's later children.
- `<path>`: `fillColor` (#RGB, #ARGB, #RRGGBB, #AARRGGBB) times
  `fillAlpha`, `fillType` nonZero|evenOdd; the stroke drawn after the fill
  (`strokeColor`, `strokeWidth`, `strokeLineCap`, `strokeLineJoin`,
  `strokeMiterLimit`, `strokeAlpha`); either colour may be an
  `<aapt:attr>` `<gradient>`: linear (start, end), radial (center,
  gradientRadius), sweep (center, from 3 o'clock clockwise), with `<item>`
  offsets and colours (or start/center/end colours) and `tileMode`
  clamp|repeat|mirror.

Everything but the sweep gradient is translated into the SVG feature that
means the same and drawn by resvg; a sweep is evaluated here, as 1440
wedges each of the colour at its middle angle, masked by the path.

  vector_drawable.py render IN.xml OUT.png SCALE
  vector_drawable.py compare IN.xml EASEL.png SCALE

`compare` prints {"errors": [], "mean": M, "max": X, "block_max": B,
"fraction_over_16": F}: the mean and largest difference over premultiplied
RGBA channels (0-255), and the largest difference of 8×8-pixel block means.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from PIL import Image

A = "{http://schemas.android.com/apk/res/android}"
AAPT = "{http://schemas.android.com/aapt}"


def attr(e, name, default=None):
    return e.get(A + name, default)


def num(e, name, default=0.0):
    v = attr(e, name)
    return default if v is None else float(v)


def dp(value):
    return float(re.sub(r"dp$", "", value))


def color(text):
    """(r, g, b, a) in 0-1 from Android's colour forms."""
    h = text.lstrip("#")
    if len(h) in (3, 4):
        h = "".join(c * 2 for c in h)
    if len(h) == 6:
        h = "ff" + h
    v = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4, 6)]
    return (v[1], v[2], v[3], v[0])


def svg_color(c):
    return "rgb(%.4f%%,%.4f%%,%.4f%%)" % (c[0] * 100, c[1] * 100, c[2] * 100)


class Writer:
    def __init__(self):
        self.defs = []
        self.count = 0

    def new_id(self, prefix):
        self.count += 1
        return "%s%d" % (prefix, self.count)

    def gradient_items(self, g):
        items = [(float(attr(i, "offset")), color(attr(i, "color"))) for i in g.findall("item")]
        if not items:
            start, end = color(attr(g, "startColor", "#0000")), color(attr(g, "endColor", "#0000"))
            items = [(0.0, start)]
            if attr(g, "centerColor"):
                items.append((0.5, color(attr(g, "centerColor"))))
            items.append((1.0, end))
        return items

    def stops(self, items, alpha):
        return "".join(
            '<stop offset="%r" stop-color="%s" stop-opacity="%r"/>' % (o, svg_color(c), c[3] * alpha) for o, c in items)

    def paint(self, path, which, alpha):
        """An SVG paint value for fillColor/strokeColor, or ("sweep", g)."""
        direct = attr(path, which)
        if direct is not None:
            c = color(direct)
            return svg_color(c), c[3] * alpha
        for a in path.findall(AAPT + "attr"):
            if a.get("name") != "android:" + which:
                continue
            g = a.find("gradient")
            kind = attr(g, "type", "linear")
            spread = {"clamp": "pad", "repeat": "repeat", "mirror": "reflect"}[attr(g, "tileMode", "clamp")]
            gid = self.new_id("g")
            items = self.gradient_items(g)
            if kind == "linear":
                self.defs.append(
                    '<linearGradient id="%s" gradientUnits="userSpaceOnUse" x1="%r" y1="%r" x2="%r" y2="%r" spreadMethod="%s">%s</linearGradient>'
                    % (gid, num(g, "startX"), num(g, "startY"), num(g, "endX"), num(g, "endY"), spread, self.stops(items, alpha)))
            elif kind == "radial":
                self.defs.append(
                    '<radialGradient id="%s" gradientUnits="userSpaceOnUse" cx="%r" cy="%r" r="%r" spreadMethod="%s">%s</radialGradient>'
                    % (gid, num(g, "centerX"), num(g, "centerY"), num(g, "gradientRadius"), spread, self.stops(items, alpha)))
            else:
                return ("sweep", (num(g, "centerX"), num(g, "centerY"), items)), alpha
            return "url(#%s)" % gid, 1.0
        return None, 0

    def sweep(self, center, items, alpha, reach):
        """Wedges around the centre, each the colour at its middle angle,
        drawn without anti-aliasing (each pixel in exactly one wedge; the
        mask gives the shape's edge)."""
        cx, cy = center
        n = 1440
        out = []
        for k in range(n):
            a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n
            t = (k + 0.5) / n
            c = interpolate(items, t)
            p = [(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)),
                 (cx + reach * math.cos(a1), cy + reach * math.sin(a1))]
            out.append('<path d="M%r %rL%r %rL%r %rZ" fill="%s" fill-opacity="%r" shape-rendering="crispEdges"/>'
                       % (p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1], svg_color(c), c[3] * alpha))
        return "".join(out)

    def element(self, e, reach):
        tag = e.tag
        if tag == "group":
            px, py = num(e, "pivotX"), num(e, "pivotY")
            t = "translate(%r %r) rotate(%r) scale(%r %r) translate(%r %r)" % (
                num(e, "translateX") + px, num(e, "translateY") + py, num(e, "rotation"),
                num(e, "scaleX", 1.0), num(e, "scaleY", 1.0), -px, -py)
            scale = min(abs(num(e, "scaleX", 1.0)), abs(num(e, "scaleY", 1.0))) or 1e-9
            return '<g transform="%s">%s</g>' % (t, self.children(list(e), reach / scale))
        if tag == "path":
            return self.path(e, reach)
        return ""

    def children(self, elements, reach):
        out = ""
        for k, e in enumerate(elements):
            if e.tag == "clip-path":
                cid = self.new_id("c")
                self.defs.append('<clipPath id="%s"><path d="%s"/></clipPath>' % (cid, attr(e, "pathData")))
                return out + '<g clip-path="url(#%s)">%s</g>' % (cid, self.children(elements[k + 1:], reach))
            out += self.element(e, reach)
        return out

    def path(self, e, reach):
        d = attr(e, "pathData")
        out = ""
        fill, fill_alpha = self.paint(e, "fillColor", num(e, "fillAlpha", 1.0))
        rule = "evenodd" if attr(e, "fillType") == "evenOdd" else "nonzero"
        if fill is not None:
            if isinstance(fill, tuple):
                out += self.masked(d, 'fill="white" fill-rule="%s"' % rule, fill[1], fill_alpha, reach)
            else:
                out += '<path d="%s" fill="%s" fill-opacity="%r" fill-rule="%s"/>' % (d, fill, fill_alpha, rule)
        stroke, stroke_alpha = self.paint(e, "strokeColor", num(e, "strokeAlpha", 1.0))
        width = num(e, "strokeWidth", 0.0)
        if stroke is not None and width > 0:
            style = 'fill="none" stroke-width="%r" stroke-linecap="%s" stroke-linejoin="%s" stroke-miterlimit="%r"' % (
                width, attr(e, "strokeLineCap", "butt"), attr(e, "strokeLineJoin", "miter"), num(e, "strokeMiterLimit", 4.0))
            if isinstance(stroke, tuple):
                out += self.masked(d, style + ' stroke="white"', stroke[1], stroke_alpha, reach)
            else:
                out += '<path d="%s" %s stroke="%s" stroke-opacity="%r"/>' % (d, style, stroke, stroke_alpha)
        return out

    def masked(self, d, style, sweep, alpha, reach):
        mid = self.new_id("m")
        self.defs.append('<mask id="%s" maskUnits="userSpaceOnUse" x="-1e6" y="-1e6" width="2e6" height="2e6"><path d="%s" %s/></mask>'
                         % (mid, d, style))
        cx, cy, items = sweep
        return '<g mask="url(#%s)">%s</g>' % (mid, self.sweep((cx, cy), items, alpha, reach))


def interpolate(items, t):
    if t <= items[0][0]:
        return items[0][1]
    for (o0, c0), (o1, c1) in zip(items, items[1:]):
        if o0 <= t <= o1:
            f = 0 if o1 == o0 else (t - o0) / (o1 - o0)
            return tuple(a + (b - a) * f for a, b in zip(c0, c1))
    return items[-1][1]


def to_svg(path, scale):
    root = ET.parse(path).getroot()
    assert root.tag == "vector", root.tag
    w, h = dp(attr(root, "width")), dp(attr(root, "height"))
    vw, vh = num(root, "viewportWidth"), num(root, "viewportHeight")
    writer = Writer()
    body = writer.children(list(root), 4 * (vw + vh))
    opacity = num(root, "alpha", 1.0)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %r %r" preserveAspectRatio="none">'
            '<defs>%s</defs><g opacity="%r">%s</g></svg>'
            % (math.ceil(w * scale - 1e-9), math.ceil(h * scale - 1e-9), vw, vh, "".join(writer.defs), opacity, body))


def render(path, out, scale):
    with tempfile.TemporaryDirectory() as tmp:
        svg = os.path.join(tmp, "vd.svg")
        with open(svg, "w") as f:
            f.write(to_svg(path, scale))
        subprocess.run(["resvg", svg, out], check=True)


def premultiplied(im):
    im = im.convert("RGBA")
    px = im.load()
    w, h = im.size
    return [(r * a / 255, g * a / 255, b * a / 255, a) for y in range(h) for x in range(w) for (r, g, b, a) in [px[x, y]]]


def compare(path, png, scale):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "vd.png")
        render(path, out, scale)
        ours, theirs = Image.open(out), Image.open(png)
        if ours.size != theirs.size:
            return {"errors": ["sizes differ: %s vs %s" % (ours.size, theirs.size)]}
        a, b = premultiplied(ours), premultiplied(theirs)
        diffs = [abs(x - y) for p, q in zip(a, b) for x, y in zip(p, q)]
        keep = os.environ.get("VD_KEEP")
        if keep:
            ours.save(keep)
        w, h = ours.size
        # The largest difference of 8-pixel block means, channel by channel:
        # an element missing or misplaced moves its blocks far, anti-aliasing does not.
        blocks = 0.0
        for by in range(0, h - 7, 8):
            for bx in range(0, w - 7, 8):
                for c in range(4):
                    sa = sum(a[(by + j) * w + bx + i][c] for j in range(8) for i in range(8))
                    sb = sum(b[(by + j) * w + bx + i][c] for j in range(8) for i in range(8))
                    blocks = max(blocks, abs(sa - sb) / 64)
        mean = sum(diffs) / len(diffs)
        return {"errors": [], "mean": mean, "max": max(diffs), "block_max": blocks,
                "verdict": "agree" if mean <= 3 and blocks <= 32 else "differ (the tests allow a mean of 3 and 8-pixel blocks of 32)",
                "fraction_over_16": sum(1 for p, q in zip(a, b) if max(abs(x - y) for x, y in zip(p, q)) > 16) / len(a)}


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "render":
        render(args[0], args[1], float(args[2]))
        print(json.dumps({"errors": []}))
    elif command == "compare":
        print(json.dumps(compare(args[0], args[1], float(args[2]))))
    else:
        raise SystemExit("unknown command " + command)
