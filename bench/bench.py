#!/usr/bin/env python3
"""Easel beside resvg and rsvg-convert, in one run, on the same pictures.

For each example scene, Easel renders the PNG from the scene, and resvg and
rsvg-convert render the SVG Easel wrote for it (the same picture). The
million-point graph is also written as a plain SVG polyline for the two SVG
renderers. Each command runs `--runs` times; the median wall time and the
peak resident memory (from wait4) are reported, and Easel's time as a ratio
of each reference's. Figures depend on the machine: compare ratios.
"""
import argparse, os, random, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")


def run(cmd):
    """Wall time (s) and peak RSS (MB) of one run of cmd. GNU time reports
    the RSS of the command alone (not of this Python process, whose pages
    a forked child would otherwise count)."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0:
        first = err.strip().splitlines()[0] if err.strip() else f"exit {proc.returncode}"
        raise RuntimeError(first[:100])
    return elapsed, int(err.strip().splitlines()[-1]) / 1024


def measure(cmd, runs):
    results = [run(cmd) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def million_point_inputs():
    """The same random walk as inline values, as CSV, and as an SVG polyline."""
    random.seed(1)
    v, values = 0.0, []
    for _ in range(1_000_000):
        v += random.uniform(-1, 1)
        values.append(round(v, 3))
    lo, hi = min(0.0, min(values)), max(values)
    scene = os.path.join(OUT, "million.scene.xml")
    with open(scene, "w") as f:
        f.write('<scene width="1000" height="500" background="white"><lineGraph values="')
        f.write(" ".join(f"{x:.3f}" for x in values))
        f.write('" padding="10"><line stroke="black" stroke-width="1" line-join="round" line-cap="round"/></lineGraph></scene>')
    with open(os.path.join(OUT, "million.csv"), "w") as f:
        f.write("i,value\n")
        f.writelines(f"{i},{x:.3f}\n" for i, x in enumerate(values))
    csv_scene = os.path.join(OUT, "million-csv.scene.xml")
    with open(csv_scene, "w") as f:
        f.write('<scene width="1000" height="500" background="white"><lineGraph src="million.csv" column="value" padding="10">'
                '<line stroke="black" stroke-width="1" line-join="round" line-cap="round"/></lineGraph></scene>')
    # The contract's geometry, for the SVG renderers: plot (10, 10, 980, 480).
    # librsvg's XML parser refuses attributes over 10 MB, so the line is
    # written as polylines of 10,000 points that share their end points.
    n = len(values)
    points = [f"{10 + i * 980 / (n - 1):.3f},{490 - (x - lo) / (hi - lo) * 480:.3f}" for i, x in enumerate(values)]
    svg = os.path.join(OUT, "million.svg")
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500"><rect width="1000" height="500" fill="white"/>'
                '<g fill="none" stroke="black" stroke-width="1" stroke-linejoin="round" stroke-linecap="round">')
        for start in range(0, n - 1, 10_000):
            f.write('<polyline points="' + " ".join(points[start:start + 10_001]) + '"/>\n')
        f.write('</g></svg>')
    return scene, csv_scene, svg


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--easel", default=os.path.join(ROOT, ".build", "release", "easel"))
    parser.add_argument("--only", choices=["animation", "build"], help="run one part of the benchmark")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    if args.only == "animation":
        return animation(args)
    if args.only == "build":
        return build_tree(args)
    resvg, rsvg = shutil.which("resvg"), shutil.which("rsvg-convert")
    if not resvg or not rsvg:
        sys.exit("resvg and rsvg-convert are needed (scripts/install-deps installs both)")

    cases = []
    examples = sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".scene.xml"))
    for name in examples:
        scene = os.path.join(ROOT, "examples", name)
        base = name[: -len(".scene.xml")]
        svg = os.path.join(OUT, base + ".svg")
        subprocess.run([args.easel, "render", scene, "-o", svg, "--scale", "1"], check=True)
        cases.append((base, [args.easel, "render", scene, "-o", os.path.join(OUT, base + ".png"), "--scale", "1"], svg))
    scene, csv_scene, svg = million_point_inputs()
    cases.append(("million points (values)", [args.easel, "render", scene, "-o", os.path.join(OUT, "million.png")], svg))
    cases.append(("million points (CSV)", [args.easel, "render", csv_scene, "-o", os.path.join(OUT, "million-csv.png")], svg))

    # Every example in one Easel run (startup paid once) against one run of
    # each reference per SVG, as a build step would call them.
    batch_out = os.path.join(OUT, "batch")
    os.makedirs(batch_out, exist_ok=True)
    example_svgs = [c[2] for c in cases[: len(examples)]]

    print(f"median of {args.runs} runs; ratio = Easel's time / the reference's (lower is faster); memory = peak RSS\n")
    print("| scene | Easel | resvg | rsvg-convert | Easel/resvg | Easel/rsvg | memory Easel / resvg / rsvg |")
    print("|---|---|---|---|---|---|---|")
    def cells(cmd):
        try:
            t, m = measure(cmd, args.runs)
            return t, m, f"{t * 1000:.0f} ms", f"{m:.0f}"
        except RuntimeError as failure:
            return None, None, "fails" + (" (over 10 MB of XML)" if "XML parse error" in str(failure) else f": {failure}"), "–"

    for name, easel_cmd, svg in cases:
        e, em = measure(easel_cmd, args.runs)
        r, _, rt, rm = cells([resvg, svg, os.path.join(OUT, "resvg.png")])
        s, _, st, sm = cells([rsvg, svg, "-o", os.path.join(OUT, "rsvg.png")])
        ratio = lambda ref: f"{e / ref:.2f}" if ref else "–"
        print(f"| {name} | {e * 1000:.0f} ms | {rt} | {st} | {ratio(r)} | {ratio(s)} | {em:.0f} / {rm} / {sm} MB |", flush=True)

    scenes = [os.path.join(ROOT, "examples", n) for n in examples]
    e, em = measure([args.easel, "render", *scenes, "--out-dir", batch_out, "--scale", "1"], args.runs)
    r = sum(measure([resvg, svg, os.path.join(OUT, "resvg.png")], args.runs)[0] for svg in example_svgs)
    s = sum(measure([rsvg, svg, "-o", os.path.join(OUT, "rsvg.png")], args.runs)[0] for svg in example_svgs)
    print(f"| all {len(examples)} examples, one Easel run | {e * 1000:.0f} ms | {r * 1000:.0f} ms | {s * 1000:.0f} ms "
          f"| {e / r:.2f} | {e / s:.2f} | {em:.0f} MB (Easel) |")
    animation(args)
    build_tree(args)


def animation(args):
    """A 400×400 animated gradient at @2x, 60 frames to an animated PNG:
    Easel from the scene, beside ffmpeg assembling the same 60 PNG frames
    (written beforehand by Easel) into an APNG."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        print("\n(ffmpeg missing: no animation benchmark)")
        return
    scene = os.path.join(OUT, "animation.scene.xml")
    with open(scene, "w") as f:
        # Two keyframes 59/30 s apart: floor(59/30 · 30) + 1 = 60 frames at 30 fps.
        f.write('<scene width="400" height="400" scale="2"><defs>'
                '<animatedGradient id="a" duration="1.9666666667" timing="ease-in-out">'
                '<linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>'
                '<linearGradient direction="right"><stop color="#ff9f0a"/><stop color="#30d158"/><stop color="#1d2b53"/></linearGradient>'
                '</animatedGradient></defs><rect width="400" height="400" corner-radius="40" fill="url(#a)"/></scene>')
    frames = os.path.join(OUT, "frames")
    shutil.rmtree(frames, ignore_errors=True)
    subprocess.run([args.easel, "render", scene, "--out-dir", frames, "--fps", "30"], check=True)
    count = len(os.listdir(frames))
    e, em = measure([args.easel, "render", scene, "-o", os.path.join(OUT, "animation.png"), "--fps", "30"], args.runs)
    f, fm = measure([ffmpeg, "-v", "error", "-y", "-framerate", "30", "-i", os.path.join(frames, "animation-%04d.png"),
                     "-plays", "0", "-f", "apng", os.path.join(OUT, "ffmpeg.apng")], args.runs)
    print(f"\n| 400×400 @2x, {count} frames → APNG | Easel (render + encode) | ffmpeg (encode only) | Easel/ffmpeg | memory Easel / ffmpeg |")
    print("|---|---|---|---|---|")
    print(f"| animated gradient | {e * 1000:.0f} ms | {f * 1000:.0f} ms | {e / f:.2f} | {em:.0f} / {fm:.0f} MB |")
    sizes = (os.path.getsize(os.path.join(OUT, "animation.png")), os.path.getsize(os.path.join(OUT, "ffmpeg.apng")))
    print(f"| file size | {sizes[0] / 1e6:.1f} MB | {sizes[1] / 1e6:.1f} MB | {sizes[0] / sizes[1]:.2f} | |")


def build_tree(args):
    """500 scenes (the examples, cycled) at scales 1, 2 and 3: `easel build
    -j 2` from a clean output, and a no-change rebuild, against the loop a
    Makefile runs: resvg once per equivalent SVG per scale."""
    resvg = shutil.which("resvg")
    tree, out, svgs = os.path.join(OUT, "tree"), os.path.join(OUT, "tree-out"), os.path.join(OUT, "tree-svg")
    for d in (tree, out, svgs):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    examples = sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".scene.xml"))
    shutil.copytree(os.path.join(ROOT, "examples", "data"), os.path.join(tree, "data"))
    for i in range(500):
        name = examples[i % len(examples)]
        shutil.copy(os.path.join(ROOT, "examples", name), os.path.join(tree, f"{i:03d}-{name}"))
    subprocess.run([args.easel, "render", *[os.path.join(ROOT, "examples", n) for n in examples], "--out-dir", svgs,
                    "--format", "svg"], check=True)
    start = time.perf_counter()
    subprocess.run([args.easel, "build", tree, "-o", out, "--scales", "1,2,3", "-j", "2"], check=True, stdout=subprocess.DEVNULL)
    easel = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([args.easel, "build", tree, "-o", out, "--scales", "1,2,3", "-j", "2"], check=True, stdout=subprocess.DEVNULL)
    rebuild = time.perf_counter() - start
    start = time.perf_counter()
    for i in range(500):
        svg = os.path.join(svgs, examples[i % len(examples)][: -len(".scene.xml")] + ".svg")
        for zoom in ("1", "2", "3"):
            subprocess.run([resvg, "--zoom", zoom, svg, os.path.join(OUT, "resvg-tree.png")], check=True)
    reference = time.perf_counter() - start
    print(f"\n| 500 scenes × scales 1,2,3 | easel build -j 2 | resvg per SVG per scale | resvg/Easel | no-change rebuild |")
    print("|---|---|---|---|---|")
    print(f"| examples, cycled | {easel:.1f} s | {reference:.1f} s | {reference / easel:.1f}× faster | {rebuild * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
