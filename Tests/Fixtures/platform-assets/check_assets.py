"""Independent checks of Easel's platform asset sets, with Pillow and the
platforms' own rules typed out here (not read from Easel):

  check_assets.py appiconset SET [ios,macos]
  check_assets.py container FILE.icns|FILE.ico REFERENCE_DIR
  check_assets.py android RES ICON_NAME [SCENE_NAME:WIDTHxHEIGHT ...]
  check_assets.py outside-circle PNG
  check_assets.py link RES

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
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result))
