"""Independent checks of Easel's platform asset sets, with Pillow and the
platforms' own rules typed out here (not read from Easel):

  check_assets.py appiconset SET [ios,macos]
  check_assets.py container FILE.icns|FILE.ico REFERENCE_DIR
  check_assets.py android RES ICON_NAME [SCENE_NAME:WIDTHxHEIGHT ...]
  check_assets.py outside-circle PNG
  check_assets.py link RES
  check_assets.py icon-bundle NAME.icon
  check_assets.py icon-fill NAME.icon PNG [dark|tinted]

Each prints one JSON object; "errors" lists what is wrong.
"""
import json
import re
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from PIL import Image, ImageChops

DENSITIES = {"mdpi": 1, "hdpi": 1.5, "xhdpi": 2, "xxhdpi": 3, "xxxhdpi": 4}
MAC = {(16, 1), (16, 2), (32, 1), (32, 2), (128, 1), (128, 2), (256, 1), (256, 2), (512, 1), (512, 2)}


def min_alpha(im):
    if im.mode in ("RGB", "L"):
        return 255
    return im.convert("RGBA").getchannel("A").getextrema()[0]


def max_difference(a, b):
    a, b = a.convert("RGBA"), b.convert("RGBA")
    if a.size != b.size:
        return 999
    return max(high for _, high in ImageChops.difference(a, b).getextrema())


def appiconset(folder, platforms):
    errors, entries = [], []
    contents = json.load(open(os.path.join(folder, "Contents.json")))
    mac = set()
    for image in contents["images"]:
        side = int(image["size"].split("x")[0])
        scale = int(image.get("scale", "1x")[:-1])
        path = os.path.join(folder, image["filename"])
        if not os.path.exists(path):
            errors.append(f"{image['filename']} is missing")
            continue
        im = Image.open(path)
        im.load()
        if im.size != (side * scale, side * scale):
            errors.append(f"{image['filename']} is {im.size}, expected {side * scale}")
        appearance = [a["value"] for a in image.get("appearances", []) if a["appearance"] == "luminosity"]
        if image["idiom"] == "universal":
            if image.get("platform") != "ios" or image["size"] != "1024x1024" or "scale" in image:
                errors.append(f"iOS entry {image}")
            if not appearance and min_alpha(im) < 255:
                errors.append(f"{image['filename']}: the iOS icon has alpha {min_alpha(im)}")
            if appearance == ["tinted"]:
                r, g, b = im.convert("RGB").split()
                if max(ImageChops.difference(r, g).getextrema()[1], ImageChops.difference(g, b).getextrema()[1]) > 1:
                    errors.append(f"{image['filename']}: a tinted icon is greyscale")
        elif image["idiom"] == "mac":
            mac.add((side, scale))
        entries.append({"file": image["filename"], "pixels": side * scale, "appearance": appearance[0] if appearance else None,
                        "idiom": image["idiom"]})
    if "macos" in platforms and mac != MAC:
        errors.append(f"macOS sizes {sorted(mac)}")
    if "macos" not in platforms and mac:
        errors.append("macOS entries without --platforms macos")
    return {"errors": errors, "entries": entries, "author": contents["info"]["author"]}


def container(path, references):
    """Every entry of an ICNS or ICO, decoded by Pillow, against Easel's own
    render of the scene at that size (REFERENCE_DIR/PIXELS.png)."""
    errors, sizes = [], []
    im = Image.open(path)
    if path.endswith(".icns"):
        for w, h, scale in sorted(im.info["sizes"]):
            im = Image.open(path)
            im.size = (w, h)
            im.load(scale=scale)
            sizes.append(im.size[0])
            ref = Image.open(os.path.join(references, f"{im.size[0]}.png"))
            d = max_difference(im, ref)
            if d > 1:
                errors.append(f"{key}: differs from the render by {d}/255")
    else:
        for key in sorted(im.info["sizes"]):
            im.size = key
            im.load()
            sizes.append(im.size[0])
            ref = Image.open(os.path.join(references, f"{im.size[0]}.png"))
            d = max_difference(im, ref)
            if d > 1:
                errors.append(f"{key}: differs from the render by {d}/255")
    return {"errors": errors, "sizes": sizes}


def android(res, icon, scenes):
    errors = []
    files = []
    for folder in sorted(os.listdir(res)):
        if folder.startswith("."):
            continue
        for name in sorted(os.listdir(os.path.join(res, folder))):
            files.append(f"{folder}/{name}")
    for density, scale in DENSITIES.items():
        for name in [icon] if icon else []:
            path = os.path.join(res, f"mipmap-{density}", f"{name}.png")
            if not os.path.exists(path):
                errors.append(f"missing {path}")
                continue
            if Image.open(path).size != (round(48 * scale),) * 2:
                errors.append(f"{path} is {Image.open(path).size}")
            for layer in ("background", "foreground", "monochrome"):
                lp = os.path.join(res, f"mipmap-{density}", f"{name}_{layer}.png")
                if os.path.exists(lp) and Image.open(lp).size != (round(108 * scale),) * 2:
                    errors.append(f"{lp} is {Image.open(lp).size}")
        for spec in scenes:
            name, size = spec.split(":")
            w, h = (int(v) for v in size.split("x"))
            path = os.path.join(res, f"drawable-{density}", f"{name}.png")
            if not os.path.exists(path):
                errors.append(f"missing {path}")
            elif Image.open(path).size != (round(w * scale), round(h * scale)):
                errors.append(f"{path} is {Image.open(path).size}, expected {w * scale}x{h * scale}")
    layers = []
    if icon:
        xml = os.path.join(res, "mipmap-anydpi-v26", f"{icon}.xml")
        if os.path.exists(xml):
            root = ET.parse(xml).getroot()
            if root.tag != "adaptive-icon":
                errors.append(f"root {root.tag}")
            for child in root:
                layers.append(child.tag)
                ref = child.get("{http://schemas.android.com/apk/res/android}drawable", "")
                if not ref.startswith("@mipmap/"):
                    errors.append(f"{child.tag} points at {ref}")
                    continue
                target = ref[len("@mipmap/"):]
                for density in DENSITIES:
                    if not os.path.exists(os.path.join(res, f"mipmap-{density}", f"{target}.png")):
                        errors.append(f"{child.tag}: no mipmap-{density}/{target}.png")
    return {"errors": errors, "files": files, "layers": layers}


def outside_circle(path):
    """Pixels with alpha of at least 1/16 whose centre lies more than a
    pixel outside the circle 66/108 of the side across."""
    im = Image.open(path).convert("RGBA")
    side = im.size[0]
    radius = side * 33 / 108
    count = 0
    alpha = im.getchannel("A")
    for y in range(side):
        for x in range(side):
            if alpha.getpixel((x, y)) >= 16:
                dx, dy = x + 0.5 - side / 2, y + 0.5 - side / 2
                if (dx * dx + dy * dy) ** 0.5 > radius + 1:
                    count += 1
    return {"errors": [], "outside": count}


# The framework attributes VectorDrawables and adaptive icons use, with the
# formats Android's attrs.xml gives them ("VectorDrawable", "Adaptive icons"
# in the platform docs): a stand-in for android.jar, which Debian does not
# ship, so that `aapt2 link` resolves and type-checks every android: value.
FRAMEWORK_ATTRS = {
    "width": "dimension", "height": "dimension", "viewportWidth": "float", "viewportHeight": "float",
    "alpha": "float", "name": "string", "tint": "color", "autoMirrored": "boolean",
    "pathData": "string", "fillColor": "color", "strokeColor": "color", "strokeWidth": "float",
    "strokeAlpha": "float", "fillAlpha": "float", "strokeMiterLimit": "float",
    "strokeLineCap": {"butt": 0, "round": 1, "square": 2},
    "strokeLineJoin": {"miter": 0, "round": 1, "bevel": 2},
    "fillType": {"nonZero": 0, "evenOdd": 1},
    "rotation": "float", "pivotX": "float", "pivotY": "float", "scaleX": "float", "scaleY": "float",
    "translateX": "float", "translateY": "float",
    "type": {"linear": 0, "radial": 1, "sweep": 2},
    "startX": "float", "startY": "float", "endX": "float", "endY": "float",
    "centerX": "float", "centerY": "float", "gradientRadius": "float",
    "tileMode": {"disabled": -1, "clamp": 0, "repeat": 1, "mirror": 2},
    "offset": "float", "color": "color", "startColor": "color", "centerColor": "color", "endColor": "color",
    "drawable": "reference", "inset": "fraction|dimension",
}


def link(res):
    """`aapt2 compile` of every file in RES, then `aapt2 link` of them all
    into an APK against the stand-in framework."""
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        values = os.path.join(tmp, "fw", "res", "values")
        os.makedirs(values)
        attrs, public = ["<resources>"], ["<resources>"]
        for name, kind in FRAMEWORK_ATTRS.items():
            if isinstance(kind, dict):
                attrs.append('<attr name="%s">%s</attr>' % (name, "".join('<enum name="%s" value="%d"/>' % e for e in kind.items())))
            else:
                attrs.append('<attr name="%s" format="%s"/>' % (name, kind))
            public.append('<public type="attr" name="%s"/>' % name)
        for name, lines in (("attrs.xml", attrs), ("public.xml", public)):
            with open(os.path.join(values, name), "w") as f:
                f.write("\n".join(lines + ["</resources>"]))
        with open(os.path.join(tmp, "fw", "AndroidManifest.xml"), "w") as f:
            f.write('<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="android"/>')
        with open(os.path.join(tmp, "AndroidManifest.xml"), "w") as f:
            f.write('<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="org.easel.check"/>')
        fw_flat = os.path.join(tmp, "fw-flat")
        os.makedirs(fw_flat)
        subprocess.run(["aapt2", "compile", "-o", fw_flat, os.path.join(values, "attrs.xml"), os.path.join(values, "public.xml")], check=True)
        framework = os.path.join(tmp, "android.apk")
        subprocess.run(["aapt2", "link", "-o", framework, "--manifest", os.path.join(tmp, "fw", "AndroidManifest.xml")]
                       + [os.path.join(fw_flat, f) for f in sorted(os.listdir(fw_flat))], check=True)
        flat = os.path.join(tmp, "flat")
        os.makedirs(flat)
        files = []
        for folder in sorted(os.listdir(res)):
            if not os.path.isdir(os.path.join(res, folder)):
                continue
            for name in sorted(os.listdir(os.path.join(res, folder))):
                files.append(folder + "/" + name)
                r = subprocess.run(["aapt2", "compile", "-o", flat, os.path.join(res, folder, name)], capture_output=True, text=True)
                if r.returncode != 0:
                    errors.append("aapt2 compile %s: %s" % (name, r.stderr.strip()))
        apk = os.path.join(tmp, "app.apk")
        r = subprocess.run(["aapt2", "link", "-o", apk, "--manifest", os.path.join(tmp, "AndroidManifest.xml"), "-I", framework,
                            "--package-id", "0x80"] + [os.path.join(flat, f) for f in sorted(os.listdir(flat))],
                           capture_output=True, text=True)
        if r.returncode != 0:
            errors.append("aapt2 link: " + r.stderr.strip())
        dump = subprocess.run(["aapt2", "dump", "resources", apk], capture_output=True, text=True).stdout if r.returncode == 0 else ""
    return {"errors": errors, "files": files, "resources": sorted(set(re.findall(r"resource 0x[0-9a-f]+ (\S+)", dump)))}


COLOR = re.compile(r"^(srgb|display-p3):([0-9.]+),([0-9.]+),([0-9.]+),([0-9.]+)$")
APPEARANCES = {"dark", "tinted", "light"}


def parse_color(text, errors):
    m = COLOR.match(text) if isinstance(text, str) else None
    if not m:
        errors.append("not a colour string: %r" % (text,))
        return (0, 0, 0, 0)
    parts = [float(v) for v in m.groups()[1:]]
    if not all(0 <= v <= 1 for v in parts):
        errors.append("colour components outside 0-1: %r" % text)
    return tuple(parts)


def check_fill(fill, errors):
    if not isinstance(fill, dict) or len(set(fill) & {"solid", "linear-gradient", "automatic-gradient"}) != 1:
        errors.append("a fill is one of solid, linear-gradient, automatic-gradient: %r" % (fill,))
        return
    if "solid" in fill:
        parse_color(fill["solid"], errors)
    if "linear-gradient" in fill:
        stops = fill["linear-gradient"]
        if not isinstance(stops, list) or len(stops) != 2:
            errors.append("a linear-gradient fill has two colours")
        for c in stops or []:
            parse_color(c, errors)
        o = fill.get("orientation", {})
        for end in ("start", "stop"):
            point = o.get(end)
            if not (isinstance(point, dict) and set(point) == {"x", "y"} and all(isinstance(v, (int, float)) for v in point.values())):
                errors.append("orientation.%s is {x, y}: %r" % (end, point))


def check_specializations(values, check, errors):
    if not isinstance(values, list) or not values:
        errors.append("specializations are a list of {appearance, value}")
        return
    for v in values:
        extra = set(v) - {"appearance", "value", "idiom"}
        if extra or "value" not in v:
            errors.append("a specialization has appearance and value: %r" % (v,))
        if "appearance" in v and v["appearance"] not in APPEARANCES:
            errors.append("unknown appearance %r" % v["appearance"])
        if "value" in v:
            check(v["value"])


def icon_bundle(bundle):
    """The structure Icon Composer bundles have (see docs/platform-assets.md):
    every referenced picture in Assets/, the colour strings, fills and
    specializations well formed, layers in one group."""
    errors = []
    doc = json.load(open(os.path.join(bundle, "icon.json")))
    assets = set(os.listdir(os.path.join(bundle, "Assets")))
    referenced = set()
    if "fill" in doc and "fill-specializations" in doc:
        errors.append("fill and fill-specializations both given")
    if "fill" in doc:
        check_fill(doc["fill"], errors)
    if "fill-specializations" in doc:
        check_specializations(doc["fill-specializations"], lambda v: check_fill(v, errors), errors)
    if doc.get("supported-platforms", {}).get("squares") != "shared":
        errors.append("supported-platforms.squares is shared")
    groups = doc.get("groups", [])
    if len(groups) != 1:
        errors.append("one group, not %d" % len(groups))
    layers = []
    for group in groups:
        for key in set(group) - {"layers", "shadow", "translucency"}:
            errors.append("unexpected group key %r" % key)
        if "shadow" in group and group["shadow"].get("kind") not in ("neutral", "layer-color", "none"):
            errors.append("shadow kind %r" % group["shadow"].get("kind"))
        if "translucency" in group:
            t = group["translucency"]
            if not (isinstance(t.get("enabled"), bool) and 0 <= t.get("value", -1) <= 1):
                errors.append("translucency is {enabled, value 0-1}: %r" % t)
        for layer in group.get("layers", []):
            names = [layer.get("image-name")]
            if "image-name-specializations" in layer:
                check_specializations(layer["image-name-specializations"], lambda v: names.append(v), errors)
            for n in names:
                referenced.add(n)
                if n not in assets:
                    errors.append("layer %r names %r, which Assets/ lacks" % (layer.get("name"), n))
            if "glass" in layer and not isinstance(layer["glass"], bool):
                errors.append("glass is true or false")
            layers.append(layer.get("name"))
    for unused in sorted(assets - referenced):
        errors.append("Assets/%s is not referenced" % unused)
    return {"errors": errors, "layers": layers, "assets": sorted(assets), "json": doc}


def icon_fill(bundle, png, appearance=None):
    """The bundle's fill (in the appearance asked) evaluated at sample
    pixels of an image of the canvas, against that image: a solid colour,
    or a linear gradient whose offset is the projection onto start→stop in
    unit coordinates, colours mixed in straight sRGB components."""
    doc = json.load(open(os.path.join(bundle, "icon.json")))
    fill = doc.get("fill")
    specs = doc.get("fill-specializations", [])
    if specs:
        default = next(v["value"] for v in specs if "appearance" not in v)
        fill = next((v["value"] for v in specs if v.get("appearance") == appearance), default)
    errors = []
    im = Image.open(png).convert("RGBA")
    w, h = im.size
    px = im.load()
    worst = 0
    for j in range(8):
        for i in range(8):
            x, y = (i + 0.5) / 8, (j + 0.5) / 8
            if "solid" in fill:
                c = parse_color(fill["solid"], errors)
            else:
                a = parse_color(fill["linear-gradient"][0], errors)
                b = parse_color(fill["linear-gradient"][1], errors)
                s, e = fill["orientation"]["start"], fill["orientation"]["stop"]
                dx, dy = e["x"] - s["x"], e["y"] - s["y"]
                t = ((x - s["x"]) * dx + (y - s["y"]) * dy) / (dx * dx + dy * dy)
                t = min(1, max(0, t))
                c = tuple(p + (q - p) * t for p, q in zip(a, b))
            got = px[int(x * w), int(y * h)]
            worst = max(worst, max(abs(c[k] * 255 - got[k]) for k in range(4)))
    return {"errors": errors, "max": worst}


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "appiconset":
        platforms = args[1].split(",") if len(args) > 1 else ["ios"]
        result = appiconset(args[0], platforms)
    elif command == "container":
        result = container(args[0], args[1])
    elif command == "android":
        result = android(args[0], args[1] or None, args[2:])
    elif command == "outside-circle":
        result = outside_circle(args[0])
    elif command == "link":
        result = link(args[0])
    elif command == "icon-bundle":
        result = icon_bundle(args[0])
    elif command == "icon-fill":
        result = icon_fill(args[0], args[1], args[2] if len(args) > 2 else None)
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))
