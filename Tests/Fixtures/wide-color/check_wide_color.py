"""Independent checks of Easel's wide-colour output, with LittleCMS (through
Pillow's ImageCms) and the file formats' own rules typed out here:

  check_wide_color.py profile PNG            the embedded profile: primaries and white (xy, D65) (or of a WebP)
  check_wide_color.py to-srgb PNG X,Y ...    pixels converted to sRGB by LittleCMS with the embedded profile
  check_wide_color.py catalog XCASSETS       a --display-gamut both catalog
  check_wide_color.py gamut-map L C H ...    CSS Color 4 §13.2.2 gamut mapping to sRGB of OKLCh colours
  check_wide_color.py versus PNG PAGE        PNG (over white) converted to sRGB by LittleCMS against PAGE
                                             (another renderer's sRGB picture): mean channel differences,
                                             and the same with PNG's numbers read as sRGB
  check_wide_color.py pages PDF PREFIX       page 1 at 72 dpi as PDFium (PREFIX-pdfium.png) and MuPDF
                                             (PREFIX-mupdf.png) paint it

The colour math here is CSS Color 4's sample code (§18, conversions.js and
the gamut-mapping pseudo-code of §13.2.2), with OKLab through XYZ as the
specification composes it (Easel folds those matrices into Ottosson's).

Each prints one JSON object; "errors" lists what is wrong.
"""
import io
import json
import os
import struct
import sys

from PIL import Image, ImageCms


def chunks(path):
    data = open(path, "rb").read()
    out, i = [], 8
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        out.append((data[i + 4:i + 8].decode("latin-1"), data[i + 8:i + 8 + n]))
        i += 12 + n
    return out


def invert(m):
    a, b, c = m[0]; d, e, f = m[1]; g, h, k = m[2]
    det = a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g)
    return [[(e * k - f * h) / det, (c * h - b * k) / det, (b * f - c * e) / det],
            [(f * g - d * k) / det, (a * k - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def apply(m, v):
    return [sum(m[i][j] * v[j] for j in range(3)) for i in range(3)]


def xy(v):
    s = sum(v)
    return [v[0] / s, v[1] / s]


def profile(path):
    im = Image.open(path)
    raw = im.info.get("icc_profile")
    if raw is None:
        return {"errors": ["no embedded ICC profile"]}
    p = ImageCms.ImageCmsProfile(io.BytesIO(raw)).profile
    # The colorants are adapted to D50; the profile's chad undoes that.
    chad = [list(r) for r in p.chromatic_adaptation[0]]
    undo = invert(chad)
    primaries = [xy(apply(undo, list(c[0]))) for c in (p.red_colorant, p.green_colorant, p.blue_colorant)]
    white = xy(apply(undo, list(p.media_white_point[0])))
    return {"errors": [], "description": p.profile_description, "version": p.version, "primaries": primaries,
            "white": white, "bytes": len(raw),
            "chunks": [t for t, _ in chunks(path)] if open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n" else []}


def to_srgb(path, points):
    im = Image.open(path)
    src = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"]))
    out = ImageCms.profileToProfile(im.convert("RGB"), src, ImageCms.createProfile("sRGB"),
                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    return {"errors": [], "pixels": [list(out.getpixel(p)) for p in points]}


def catalog(folder):
    errors, checked = [], {"images": 0, "p3": 0, "colors": 0}
    for root, dirs, files in sorted(os.walk(folder)):
        if root.endswith(".imageset"):
            contents = json.load(open(os.path.join(root, "Contents.json")))
            for image in contents["images"]:
                gamut = image.get("display-gamut")
                if gamut not in ("sRGB", "display-P3"):
                    errors.append(f"{image['filename']}: display-gamut {gamut!r}")
                    continue
                path = os.path.join(root, image["filename"])
                types = [t for t, _ in chunks(path)]
                checked["images"] += 1
                if gamut == "sRGB" and ("sRGB" not in types or "iCCP" in types):
                    errors.append(f"{image['filename']}: an sRGB entry's PNG has {types}")
                if gamut == "display-P3":
                    checked["p3"] += 1
                    p = profile(path)
                    if p["errors"]:
                        errors += [f"{image['filename']}: {e}" for e in p["errors"]]
                    elif max(abs(a - b) for got, want in zip(p["primaries"], P3) for a, b in zip(got, want)) > 0.001:
                        errors.append(f"{image['filename']}: primaries {p['primaries']}")
            scales = [(i.get("scale"), i.get("display-gamut")) for i in contents["images"]]
            for s in {i.get("scale") for i in contents["images"]}:
                if (s, "sRGB") not in scales or (s, "display-P3") not in scales:
                    errors.append(f"{root}: scale {s} lacks a gamut")
        if root.endswith(".colorset"):
            contents = json.load(open(os.path.join(root, "Contents.json")))
            for c in contents["colors"]:
                space = c["color"]["color-space"]
                comps = {k: float(v) for k, v in c["color"]["components"].items()}
                checked["colors"] += 1
                if space not in ("srgb", "display-p3") or set(comps) != {"red", "green", "blue", "alpha"}:
                    errors.append(f"{root}: {c}")
                checked.setdefault(os.path.basename(root), []).append([space] + [comps[k] for k in ("red", "green", "blue", "alpha")])
    return {"errors": errors, **checked}


XYZ_TO_LMS = [[0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
              [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
              [0.0481771893596242, 0.2642395317527308, 0.6335478284694309]]
LMS_TO_OKLAB = [[0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
                [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
                [0.0259040424655478, 0.7827717124575296, -0.8086757549230774]]
LIN_SRGB_TO_XYZ = [[0.41239079926595934, 0.357584339383878, 0.1804807884018343],
                   [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
                   [0.01933081871559182, 0.11919477979462598, 0.9505321522496607]]


def lin(c):
    a = abs(c)
    v = a / 12.92 if a <= 0.04045 else ((a + 0.055) / 1.055) ** 2.4
    return -v if c < 0 else v


def gam(c):
    a = abs(c)
    v = 12.92 * a if a <= 0.0031308 else 1.055 * a ** (1 / 2.4) - 0.055
    return -v if c < 0 else v


def srgb_to_oklab(rgb):
    lms = apply(XYZ_TO_LMS, apply(LIN_SRGB_TO_XYZ, [lin(c) for c in rgb]))
    return apply(LMS_TO_OKLAB, [abs(v) ** (1 / 3) * (1 if v >= 0 else -1) for v in lms])


def oklch_to_srgb(l, c, h):
    import math
    lab = [l, c * math.cos(math.radians(h)), c * math.sin(math.radians(h))]
    lms = [v ** 3 for v in apply(invert(LMS_TO_OKLAB), lab)]
    return [gam(v) for v in apply(invert(LIN_SRGB_TO_XYZ), apply(invert(XYZ_TO_LMS), lms))]


def gamut_map(l, c, h):
    """CSS Color 4 §13.2.2, binary search with local MINDE, to sRGB."""
    def in_gamut(rgb):
        return all(-1e-6 <= v <= 1 + 1e-6 for v in rgb)

    def clip(rgb):
        return [min(1, max(0, v)) for v in rgb]

    def delta(a, b):
        p, q = srgb_to_oklab(a), srgb_to_oklab(b)
        return sum((x - y) ** 2 for x, y in zip(p, q)) ** 0.5

    if l >= 1:
        return [1, 1, 1]
    if l <= 0:
        return [0, 0, 0]
    current = oklch_to_srgb(l, c, h)
    if in_gamut(current):
        return current
    jnd, eps = 0.02, 0.0001
    clipped = clip(current)
    if delta(clipped, current) < jnd:
        return clipped
    low, high, low_in = 0.0, c, True
    while high - low > eps:
        mid = (low + high) / 2
        current = oklch_to_srgb(l, mid, h)
        if low_in and in_gamut(current):
            low = mid
            continue
        clipped = clip(current)
        e = delta(clipped, current)
        if e < jnd:
            if jnd - e < eps:
                return clipped
            low_in, low = False, mid
        else:
            high = mid
    return clipped


# Display P3's primaries (SMPTE EG 432-1), as xy.
P3 = [[0.680, 0.320], [0.265, 0.690], [0.150, 0.060]]

if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "profile":
        print(json.dumps(profile(sys.argv[2])))
    elif mode == "to-srgb":
        print(json.dumps(to_srgb(sys.argv[2], [tuple(int(v) for v in a.split(",")) for a in sys.argv[3:]])))
    elif mode == "gamut-map":
        v = [float(a) for a in sys.argv[2:]]
        out = []
        for i in range(0, len(v), 3):
            rgb = gamut_map(v[i], v[i + 1], v[i + 2])
            lab = srgb_to_oklab(rgb)
            import math
            out.append({"srgb": rgb, "l": lab[0], "h": math.degrees(math.atan2(lab[2], lab[1])) % 360})
        print(json.dumps({"errors": [], "mapped": out}))
    elif mode == "versus":
        from PIL import ImageChops, ImageStat
        im = Image.open(sys.argv[2])
        white = Image.new("RGBA", im.size, "white")
        white.alpha_composite(im.convert("RGBA"))
        srgb = white.convert("RGB")   # an untagged or sRGB PNG is sRGB already
        if "icc_profile" in im.info:
            src = ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"]))
            srgb = ImageCms.profileToProfile(srgb, src, ImageCms.createProfile("sRGB"),
                                             renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        page = Image.open(sys.argv[3]).convert("RGB")
        if page.size != srgb.size:
            print(json.dumps({"errors": [f"sizes {page.size} and {srgb.size}"]}))
        else:
            print(json.dumps({"errors": [], "converted": ImageStat.Stat(ImageChops.difference(page, srgb)).mean,
                              "raw": ImageStat.Stat(ImageChops.difference(page, white.convert("RGB"))).mean}))
    elif mode == "pages":
        # The PDF's first page at 72 dpi as PDFium and MuPDF paint it.
        import pymupdf
        import pypdfium2
        pypdfium2.PdfDocument(sys.argv[2])[0].render(scale=1).to_pil().convert("RGB").save(sys.argv[3] + "-pdfium.png")
        pix = pymupdf.open(sys.argv[2])[0].get_pixmap(dpi=72, colorspace=pymupdf.csRGB)
        Image.frombytes("RGB", (pix.width, pix.height), pix.samples).save(sys.argv[3] + "-mupdf.png")
        print(json.dumps({"errors": []}))
    elif mode == "catalog":
        print(json.dumps(catalog(sys.argv[2])))
