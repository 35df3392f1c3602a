"""Independent checks of Easel's WebP and AVIF output: decoders that are
not Easel's encoders (Pillow, libwebp's dwebp, libavif's avifdec), an AVIF
box walk typed out here from ISO/IEC 14496-12 and 23008-12 (HEIF), and
LittleCMS (through ctypes, and Pillow's ImageCms) for colour.

  check_web_raster.py compare PNG FILE DECODER   FILE decoded by DECODER (pillow, dwebp or avifdec) against
                                                 PNG (Pillow): size, exact, mean and max channel difference,
                                                 PSNR over RGBA
  check_web_raster.py animation APNG WEBP        both animations as Pillow plays them: frames, durations
                                                 (ms), loop count, how many composed frames differ and
                                                 each frame's mean channel difference (RGBA premultiplied, /255)
  check_web_raster.py colr AVIF                  the colr box of the primary item's properties
  check_web_raster.py p3-to-srgb AVIF PNG X,Y…   AVIF (decoded by avifdec) converted to sRGB by LittleCMS with
                                                 a profile built from its colr primaries and transfer (ITU-T
                                                 H.273), and PNG converted by LittleCMS with its own iCCP;
                                                 "raw": the AVIF's decoded numbers, unconverted

Each prints one JSON object; "errors" lists what is wrong.
"""
import ctypes
import ctypes.util
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

from PIL import Image, ImageCms


def decoded(path, decoder):
    """RGBA pixels of path as the decoder gives them."""
    if decoder == "pillow":
        return Image.open(path).convert("RGBA")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.png")
        if decoder == "dwebp":
            subprocess.run(["dwebp", path, "-o", out], check=True, capture_output=True)
        elif decoder == "avifdec":
            subprocess.run(["avifdec", path, out], check=True, capture_output=True)
        else:
            raise SystemExit(f"unknown decoder {decoder}")
        im = Image.open(out).convert("RGBA")
        im.load()
        return im


def compare(png, path, decoder):
    a = Image.open(png).convert("RGBA")
    b = decoded(path, decoder)
    if a.size != b.size:
        return {"errors": [f"size {b.size} is not the PNG's {a.size}"]}
    pa, pb = a.tobytes(), b.tobytes()
    total, peak, squares = 0, 0, 0
    for x, y in zip(pa, pb):
        d = abs(x - y)
        total += d
        squares += d * d
        peak = max(peak, d)
    n = len(pa)
    mse = squares / n
    return {"errors": [], "size": list(a.size), "exact": pa == pb, "mean": total / n, "max": peak,
            "psnr": None if mse == 0 else 10 * math.log10(255 ** 2 / mse)}


def frames(path):
    im = Image.open(path)
    out = []
    for k in range(im.n_frames):
        im.seek(k)
        im.load()
        out.append((im.info.get("duration"), im.convert("RGBA").tobytes()))
    return im.format, im.info.get("loop"), out


def animation(apng, webp):
    fa, la, a = frames(apng)
    fw, lw, w = frames(webp)
    errors = []
    if fw != "WEBP":
        errors.append(f"{webp} is {fw}")
    return {"errors": errors, "apng": {"format": fa, "frames": len(a), "loop": la, "durations": [d for d, _ in a]},
            "webp": {"format": fw, "frames": len(w), "loop": lw, "durations": [d for d, _ in w]},
            "differing": sum(1 for (_, x), (_, y) in zip(a, w) if x != y),
            "frame_means": [premultiplied_mean(x, y) for (_, x), (_, y) in zip(a, w)]}


def premultiplied_mean(x, y):
    """Mean channel difference of two RGBA buffers with colour premultiplied
    by alpha (/255): the colour of a clear pixel, which lossy WebP does not
    keep, does not count."""
    total = 0.0
    for i in range(0, len(x), 4):
        ax, ay = x[i + 3], y[i + 3]
        total += abs(ax - ay)
        for c in range(3):
            total += abs(x[i + c] * ax - y[i + c] * ay) / 255
    return total / len(x)


def boxes(data, start, end):
    """(type, payload start, payload end) of the boxes in data[start:end]."""
    i = start
    while i + 8 <= end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[i + 8:i + 16])[0]
            header = 16
        elif size == 0:
            size = end - i
        if size < header or i + size > end:
            raise ValueError(f"box {kind!r} at {i} overruns its parent")
        yield kind.decode("latin-1"), i + header, i + size
        i += size


def colr(path):
    data = open(path, "rb").read()
    top = {k: (s, e) for k, s, e in boxes(data, 0, len(data))}
    errors = []
    ftyp = top.get("ftyp")
    brands = []
    if ftyp:
        s, e = ftyp
        brands = [data[s:s + 4].decode("latin-1")] + [data[j:j + 4].decode("latin-1") for j in range(s + 8, e, 4)]
    if "avif" not in brands:
        errors.append(f"ftyp brands {brands} lack avif")
    if "meta" not in top:
        return {"errors": errors + ["no meta box"]}
    s, e = top["meta"]
    meta = {k: (a, b) for k, a, b in boxes(data, s + 4, e)}  # meta is a full box: version and flags first
    if "iprp" not in meta:
        return {"errors": errors + ["no iprp box"]}
    iprp = {k: (a, b) for k, a, b in boxes(data, *meta["iprp"])}
    found = []
    for kind, a, b in boxes(data, *iprp["ipco"]):
        if kind != "colr":
            continue
        colour_type = data[a:a + 4].decode("latin-1")
        if colour_type == "nclx":
            p, t, m = struct.unpack(">HHH", data[a + 4:a + 10])
            found.append({"type": "nclx", "primaries": p, "transfer": t, "matrix": m, "full_range": data[a + 10] >> 7 == 1})
        else:
            found.append({"type": colour_type, "bytes": b - a - 4})
    if not found:
        errors.append("no colr box among the item properties")
    return {"errors": errors, "brands": brands, "colr": found}


# ITU-T H.273 colour primaries (x, y of red, green, blue; white) by code.
H273_PRIMARIES = {
    1: ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060), (0.3127, 0.3290)),
    12: ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)),
}


class CIExyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


def lcms_profile(primaries, transfer):
    """A LittleCMS RGB profile from H.273 codes (transfer 13: sRGB's curve, IEC 61966-2-1)."""
    if transfer != 13 or primaries not in H273_PRIMARIES:
        raise SystemExit(f"no profile for primaries {primaries}, transfer {transfer}")
    lcms = ctypes.CDLL(ctypes.util.find_library("lcms2") or "liblcms2.so.2")
    lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    params = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lcms.cmsBuildParametricToneCurve(None, 4, params)
    r, g, b, w = H273_PRIMARIES[primaries]
    white = CIExyY(w[0], w[1], 1.0)
    triple = (CIExyY * 3)(CIExyY(r[0], r[1], 1.0), CIExyY(g[0], g[1], 1.0), CIExyY(b[0], b[1], 1.0))
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(CIExyY), ctypes.POINTER(CIExyY), ctypes.c_void_p]
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(white), triple, curves)
    lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(profile, buffer, ctypes.byref(size))
    return ImageCms.ImageCmsProfile(io.BytesIO(buffer.raw[:size.value]))


def to_srgb(im, profile, points):
    out = ImageCms.profileToProfile(im.convert("RGB"), profile, ImageCms.createProfile("sRGB"),
                                    renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    return [list(out.getpixel(p)) for p in points]


def p3_to_srgb(avif, png, points):
    tag = colr(avif)
    nclx = next((c for c in tag.get("colr", []) if c["type"] == "nclx"), None)
    if nclx is None:
        return {"errors": tag["errors"] + ["no nclx colr"]}
    avif_profile = lcms_profile(nclx["primaries"], nclx["transfer"])
    ref = Image.open(png)
    png_profile = ImageCms.ImageCmsProfile(io.BytesIO(ref.info["icc_profile"]))
    pixels = decoded(avif, "avifdec")
    return {"errors": [], "avif": to_srgb(pixels, avif_profile, points), "png": to_srgb(ref, png_profile, points),
            "raw": [list(pixels.getpixel(p)[:3]) for p in points]}


def main(argv):
    if len(argv) == 4 and argv[0] == "compare":
        result = compare(argv[1], argv[2], argv[3])
    elif len(argv) == 3 and argv[0] == "animation":
        result = animation(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "colr":
        result = colr(argv[1])
    elif len(argv) >= 4 and argv[0] == "p3-to-srgb":
        result = p3_to_srgb(argv[1], argv[2], [tuple(int(v) for v in p.split(",")) for p in argv[3:]])
    else:
        raise SystemExit(__doc__)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
