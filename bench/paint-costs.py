#!/usr/bin/env python3
"""What each kind of painting costs per device pixel, for the paint budget.

For each kind of operation, a scene of SIDE×SIDE points at scale 1 with N
full-canvas layers of that kind is rendered with the budget off, for two
values of N; the difference in time divided by the difference in layers
and by the pixels is the cost of one layer's pixel (start-up, parsing and
PNG encoding cancel out). Times are the minimum of several runs (the
fastest is the least disturbed). Printed as nanoseconds per pixel and as a
weight relative to a translucent solid fill — the weights
`EaselRender/PaintCost.swift` charges. Usage:
  bench/paint-costs.py [--easel PATH] [--side 2000] [--runs 5]
"""
import argparse, os, shutil, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILE = os.path.join(ROOT, "docs", "scenes", "assets", "tile.png")

DEFS = """
<linearGradient id="lin" angle="30"><stop color="#ff375f"/><stop color="#0a84ff" opacity="0.6"/></linearGradient>
<radialGradient id="rad"><stop color="#ff375f"/><stop color="#0a84ff" opacity="0.6"/></radialGradient>
<conicGradient id="con"><stop color="#ff375f"/><stop color="#0a84ff" opacity="0.6"/><stop color="#ff375f"/></conicGradient>
<pattern id="pat" width="24" height="24"><circle cx="12" cy="12" r="7" fill="#0a84ff" fill-opacity="0.7"/></pattern>
<stripes id="str" spacing="12" line-width="4" angle="45" color="#ff375f"/>
<clipPath id="two"><circle cx="50%" cy="50%" r="800"/><rect width="50%" height="50%"/></clipPath>
"""

# One layer of each kind, over the whole canvas.
KINDS = {
    "solid (opaque)": '<rect width="100%" height="100%" fill="#336699"/>',
    "solid (translucent)": '<rect width="100%" height="100%" fill="#336699" fill-opacity="0.5"/>',
    "linear gradient": '<rect width="100%" height="100%" fill="url(#lin)"/>',
    "radial gradient": '<rect width="100%" height="100%" fill="url(#rad)"/>',
    "conic gradient": '<rect width="100%" height="100%" fill="url(#con)"/>',
    "pattern tile": '<rect width="100%" height="100%" fill="url(#pat)"/>',
    "stripes": '<rect width="100%" height="100%" fill="url(#str)"/>',
    "group (opacity)": '<group opacity="0.5"><rect width="100%" height="100%" fill="#336699" fill-opacity="0.5"/></group>',
    "clip mask (two shapes)": '<rect width="100%" height="100%" fill="#336699" fill-opacity="0.5" clip-path="url(#two)"/>',
    "image": '<image href="{tile}" width="100%" height="100%" fit="fill"/>',
    "text": '<text width="100%" height="100%" font="DejaVu Sans 120" fill="#336699" fill-opacity="0.5" paint-bounds="frame">{text}</text>',
}


def scene(kind, layers, side):
    body = KINDS[kind].replace("{tile}", "tile.png")
    if "{text}" in body:
        line = "Easel paints text " * 12
        body = body.replace("{text}", "\n".join([line] * (side // 140)))
    # An opaque background: every render is opaque, so the PNG encoder
    # does the same work whatever the number of layers.
    return (f'<scene width="{side}" height="{side}" background="white"><defs>{DEFS}</defs>'
            + body * layers + "</scene>")


def best_time(easel, path, out, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([easel, "render", path, "-o", out, "--max-paint", str(10**15), "--png-compression", "fast"],
                       check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--easel", default=os.path.join(ROOT, ".build", "release", "easel"))
    ap.add_argument("--side", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--low", type=int, default=2)
    ap.add_argument("--high", type=int, default=10)
    args = ap.parse_args()
    pixels = args.side * args.side
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(TILE, os.path.join(tmp, "tile.png"))
        for kind in KINDS:
            times = []
            for n in (args.low, args.high):
                path = os.path.join(tmp, "s.scene.xml")
                with open(path, "w") as f:
                    f.write(scene(kind, n, args.side))
                times.append(best_time(args.easel, path, os.path.join(tmp, "s.png"), args.runs))
            ns = (times[1] - times[0]) / (args.high - args.low) / pixels * 1e9
            results[kind] = ns
            print(f"{kind:26s} {ns:7.2f} ns/pixel", flush=True)
    base = results["solid (translucent)"]
    print(f"\nweights relative to a translucent solid fill ({base:.2f} ns/pixel):")
    for kind, ns in results.items():
        print(f"  {kind:26s} {ns / base:6.2f}")


if __name__ == "__main__":
    main()
