#!/usr/bin/env python3
"""Easel beside resvg and rsvg-convert, in one run, on the same pictures.

Easel renders each benchmark scene; resvg and rsvg-convert render an
equivalent SVG kept in bench/svg/ (written by hand) or generated here from
the same parameters as the scene (never Easel's own SVG export, whose glyph
outlines and embedded images would make the peers look slower). Every
command is timed whole-process with hyperfine and its instructions counted
with callgrind (repeatable on a noisy machine); peak memory comes from GNU
time. The table is printed and written to bench/out/results.md.
`--only curves` measures the scaling curves (bench/out/curves/).
`--only hostile` times issue 42's inputs that once grew work faster than themselves (bench/out/hostile.md).
`--only shared` measures definitions shared by 1,000 nodes (issue 57) and Display P3 PDF sizes.
"""
import argparse, glob, json, math, os, random, re, shutil, statistics, subprocess, sys, sysconfig, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
SVG = os.path.join(ROOT, "bench", "svg")


def elf(name):
    """The program itself, not a pyenv or pip shim in front of it (which adds ~10 ms)."""
    for candidate in [os.path.join(sysconfig.get_path("scripts"), name), shutil.which(name)]:
        if candidate and os.path.isfile(candidate):
            with open(candidate, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    return candidate
    found = shutil.which(name)
    if found:
        out = subprocess.run(["pyenv", "which", name], capture_output=True, text=True) if shutil.which("pyenv") else None
        if out and out.returncode == 0:
            return out.stdout.strip()
    return found


def run(cmd):
    """Wall time (s) and peak RSS (MB) of one run of cmd (GNU time: the
    command's own RSS, not this Python process's)."""
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


def hyperfine(cmd, runs):
    """Mean wall time (s) over `runs` runs after warm-up; None if it fails."""
    report = os.path.join(OUT, "hyperfine.json")
    proc = subprocess.run(["hyperfine", "-N", "--warmup", "3", "--runs", str(runs), "--export-json", report,
                           " ".join(cmd)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if proc.returncode != 0:
        return None
    with open(report) as f:
        return json.load(f)["results"][0]["mean"]


def instructions(cmd, failing=False):
    """Instructions the whole process retires (callgrind), or None if it
    fails (unless `failing`: a run that stops with an error is measured too)."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = re.search(r"Collected : (\d+)", proc.stderr)
    return int(match.group(1)) if match and (proc.returncode == 0 or failing) else None


def million_point_inputs(n=1_000_000, name="million"):
    """The same random walk as CSV (and its scene) and as SVG polylines."""
    random.seed(1)
    v, values = 0.0, []
    for _ in range(n):
        v += random.uniform(-1, 1)
        values.append(round(v, 3))
    lo, hi = min(0.0, min(values)), max(values)
    with open(os.path.join(OUT, name + ".csv"), "w") as f:
        f.write("i,value\n")
        f.writelines(f"{i},{x:.3f}\n" for i, x in enumerate(values))
    scene = os.path.join(OUT, name + ".scene.xml")
    with open(scene, "w") as f:
        f.write(f'<scene width="1000" height="500" scale="1" background="white"><lineGraph src="{name}.csv" column="value" padding="10">'
                '<line stroke="black" stroke-width="1" line-join="round" line-cap="round"/></lineGraph></scene>')
    # The contract's geometry, for the SVG renderers: plot (10, 10, 980, 480).
    # librsvg's XML parser refuses attributes over 10 MB, so the line is
    # written as polylines of 10,000 points that share their end points.
    points = [f"{10 + i * 980 / max(1, n - 1):.3f},{490 - (x - lo) / ((hi - lo) or 1) * 480:.3f}" for i, x in enumerate(values)]
    svg = os.path.join(OUT, name + ".svg")
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500"><rect width="1000" height="500" fill="white"/>'
                '<g fill="none" stroke="black" stroke-width="1" stroke-linejoin="round" stroke-linecap="round">')
        for start in range(0, max(1, n - 1), 10_000):
            f.write('<polyline points="' + " ".join(points[start:start + 10_001]) + '"/>\n')
        f.write('</g></svg>')
    return scene, svg


def series_inputs(n, series=10, name=None, svg=False, sawtooth=False):
    """`series` random walks of `n` rows each in one CSV, placed by a numeric
    x column (unsorted: Easel sorts it), drawn as ten lines with a y axis, an
    x axis and a legend: the multi-series graph at scale. With `svg`, also
    the same walks as ten SVG polylines over the same plot box, every row a
    point (what resvg and rsvg-convert draw: the full data, no axes), and
    (scene, svg) is returned. With `sawtooth`, each series rises across
    the whole plot over 20 to 65 rows and drops back (issue 58's worst case
    for a line: most device columns hold a full-height stroke)."""
    random.seed(2)
    name = name or f"series-{n}"
    walks = [0.0] * series
    order = list(range(n))
    random.shuffle(order)
    with open(os.path.join(OUT, name + ".csv"), "w") as f:
        f.write("x," + ",".join(f"s{k}" for k in range(series)) + "\n")
        rows = []
        periods = [20 + 5 * k for k in range(series)]
        for i in range(n):
            if sawtooth:
                walks = [100 * ((i + k) % p) / (p - 1) + random.uniform(-2, 2) for k, p in enumerate(periods)]
            else:
                walks = [w + random.uniform(-1, 1) for w in walks]
            rows.append(f"{i}," + ",".join(f"{w:.3f}" for w in walks) + "\n")
        f.writelines(rows[i] for i in order)
    scene = os.path.join(OUT, name + ".scene.xml")
    colours = ["#1570ef", "#d92d20", "#079455", "#f79009", "#7a5af8", "#0e9384", "#e31b54", "#667085", "#b54708", "#2e90fa"]
    with open(scene, "w") as f:
        # @2x beside the SVG renderers' --zoom 2; the curves' sizes at 1x.
        f.write(f'<scene width="1000" height="500" scale="{2 if svg else 1}" background="white">'
                f'<lineGraph width="1000" height="500" src="{name}.csv" x-column="x" padding="40 20 30 50">')
        f.writelines(f'<series column="s{k}" name="s{k}"><line stroke="{colours[k % len(colours)]}" stroke-width="1"/></series>'
                     for k in range(series))
        f.write('<yAxis font-size="10"/><xAxis font-size="10"/><legend font-size="10"/></lineGraph></scene>')
    if not svg:
        return scene
    values = [[float(v) for v in row.split(",")[1:]] for row in rows]
    low, high = min(min(r) for r in values), max(max(r) for r in values)
    left, top, width, height = 50, 40, 1000 - 50 - 20, 500 - 40 - 30
    path = os.path.join(OUT, name + ".svg")
    with open(path, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500"><rect width="1000" height="500" fill="white"/>')
        for k in range(series):
            points = " ".join(f"{left + i / (n - 1) * width:.2f},{top + (high - r[k]) / (high - low) * height:.2f}" for i, r in enumerate(values))
            f.write(f'<polyline fill="none" stroke="{colours[k % len(colours)]}" stroke-width="1" points="{points}"/>')
        f.write("</svg>")
    return scene, path


def node_inputs(count, name=None):
    """`count` rounded rectangles in a grid, each its own colour: scene and SVG."""
    side = max(1, int(count ** 0.5 + 0.999))
    cell = 8
    w = h = side * cell
    name = name or f"nodes-{count}"
    scene, svg = os.path.join(OUT, name + ".scene.xml"), os.path.join(OUT, name + ".svg")
    rects = [(i % side * cell + 1, i // side * cell + 1, f"#{(i * 2654435761) & 0xFFFFFF:06x}") for i in range(count)]
    with open(scene, "w") as f:
        f.write(f'<scene width="{w}" height="{h}" scale="1" background="white">')
        f.writelines(f'<rect x="{x}" y="{y}" width="6" height="6" corner-radius="1" fill="{c}"/>' for x, y, c in rects)
        f.write('</scene>')
    with open(svg, "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><rect width="{w}" height="{h}" fill="white"/>')
        f.writelines(f'<rect x="{x}" y="{y}" width="6" height="6" rx="1" fill="{c}"/>' for x, y, c in rects)
        f.write('</svg>')
    return scene, svg


def gradient_inputs():
    """A gallery of linear and radial gradients (SVG has no conic ones): 4×3 tiles."""
    scene, svg = os.path.join(OUT, "gradients.scene.xml"), os.path.join(OUT, "gradients.svg")
    colors = [("#4f6bed", "#e76f51"), ("#ff9f0a", "#30d158"), ("#1d2b53", "#ff77a8"), ("#00b4d8", "#f72585")]
    s_defs, v_defs, s_body, v_body = [], [], [], []
    for i in range(12):
        a, b = colors[i % 4]
        x, y = 20 + (i % 4) * 150, 20 + (i // 4) * 150
        if i % 3 == 2:
            s_defs.append(f'<radialGradient id="g{i}"><stop color="{a}"/><stop color="{b}" offset="60%"/><stop color="white"/></radialGradient>')
            v_defs.append(f'<radialGradient id="g{i}"><stop offset="0" stop-color="{a}"/><stop offset="0.6" stop-color="{b}"/><stop offset="1" stop-color="white"/></radialGradient>')
        else:
            horizontal = i % 3 == 0
            s_defs.append(f'<linearGradient id="g{i}" direction="{"right" if horizontal else "down"}"><stop color="{a}"/><stop color="{b}"/></linearGradient>')
            v_defs.append(f'<linearGradient id="g{i}" x2="{1 if horizontal else 0}" y2="{0 if horizontal else 1}"><stop offset="0" stop-color="{a}"/><stop offset="1" stop-color="{b}"/></linearGradient>')
        s_body.append(f'<rect x="{x}" y="{y}" width="130" height="130" corner-radius="16" fill="url(#g{i})"/>')
        v_body.append(f'<rect x="{x}" y="{y}" width="130" height="130" rx="16" fill="url(#g{i})"/>')
    with open(scene, "w") as f:
        f.write('<scene width="620" height="470" scale="2" background="#f4f5f7"><defs>' + "".join(s_defs) + '</defs>' + "".join(s_body) + '</scene>')
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="620" height="470"><defs>' + "".join(v_defs) + '</defs>'
                '<rect width="620" height="470" fill="#f4f5f7"/>' + "".join(v_body) + '</svg>')
    return scene, svg


def text_inputs():
    """A text-heavy card: a title and 16 lines of body text at fixed positions."""
    scene, svg = os.path.join(OUT, "text-card.scene.xml"), os.path.join(OUT, "text-card.svg")
    words = "the quick brown fox jumps over a lazy dog while seven wizards box and quietly judge every pixel".split()
    lines = [" ".join(words[(i * 3) % len(words):] + words[: (i * 3) % len(words)])[:52] for i in range(16)]
    s = ['<scene width="420" height="420" scale="2" background="white">',
         '<rect x="10" y="10" width="400" height="400" corner-radius="14" fill="#f7f8fa" stroke="#d0d5dd"/>',
         '<text x="28" y="24" font="DejaVu Sans Bold 22" fill="#1d2433">Release notes</text>']
    v = ['<svg xmlns="http://www.w3.org/2000/svg" width="420" height="420"><rect width="420" height="420" fill="white"/>',
         '<rect x="10.5" y="10.5" width="399" height="399" rx="14" fill="#f7f8fa" stroke="#d0d5dd"/>',
         '<text x="28" y="50" font-family="DejaVu Sans" font-weight="bold" font-size="22" fill="#1d2433">Release notes</text>']
    for i, line in enumerate(lines):
        y = 70 + i * 21
        s.append(f'<text x="28" y="{y}" font="DejaVu Sans 13" fill="#3b4556">{line}</text>')
        v.append(f'<text x="28" y="{y + 13}" font-family="DejaVu Sans" font-size="13" fill="#3b4556">{line}</text>')
    with open(scene, "w") as f:
        f.write("".join(s) + "</scene>")
    with open(svg, "w") as f:
        f.write("".join(v) + "</svg>")
    return scene, svg


def stacked_bars_inputs(n, series=10):
    """`series` stacked bar series of `n` random rows each in one CSV @2x
    (issue 58: bars narrower than a device pixel), with axes; and the same
    bars as an SVG for the peers, one path of rectangles per series (no
    axes), `(scene, svg)`."""
    random.seed(4)
    name = f"bars-{n}"
    rows = [[random.uniform(0, 10) for _ in range(series)] for _ in range(n)]
    with open(os.path.join(OUT, name + ".csv"), "w") as f:
        f.write("x," + ",".join(f"s{k}" for k in range(series)) + "\n")
        f.writelines(f"{i}," + ",".join(f"{v:.3f}" for v in row) + "\n" for i, row in enumerate(rows))
    colours = ["#1570ef", "#d92d20", "#079455", "#f79009", "#7a5af8", "#0e9384", "#e31b54", "#667085", "#b54708", "#2e90fa"]
    scene = os.path.join(OUT, name + ".scene.xml")
    with open(scene, "w") as f:
        f.write(f'<scene width="1000" height="500" scale="2" background="white">'
                f'<lineGraph width="1000" height="500" src="{name}.csv" x-column="x" stack="zero" padding="40 20 30 50">')
        f.writelines(f'<series column="s{k}"><bars fill="{colours[k]}"/></series>' for k in range(series))
        f.write('<yAxis font-size="10"/><xAxis font-size="10"/></lineGraph></scene>')
    left, top, width, height = 50, 40, 930, 430
    slot, top_value = width / n, max(sum(r) for r in rows)
    svg = os.path.join(OUT, name + ".svg")
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="500"><rect width="1000" height="500" fill="white"/>')
        base = [0.0] * n
        for k in range(series):
            parts = []
            for i, row in enumerate(rows):
                y0, y1 = top + height * (1 - base[i] / top_value), top + height * (1 - (base[i] + row[k]) / top_value)
                parts.append(f"M{left + (i + 0.1) * slot:.3f} {y1:.2f}h{0.8 * slot:.4f}V{y0:.2f}h{-0.8 * slot:.4f}z")
                base[i] += row[k]
            f.write(f'<path fill="{colours[k]}" d="{"".join(parts)}"/>')
        f.write("</svg>")
    return scene, svg


def empty_inputs():
    scene, svg = os.path.join(OUT, "empty.scene.xml"), os.path.join(OUT, "empty.svg")
    with open(scene, "w") as f:
        f.write('<scene width="10" height="10"/>')
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    return scene, svg


def svg_logo_inputs(copies=100):
    """The example's SVG logo placed `copies` times in a grid (`<image href>`),
    and for the SVG renderers the same picture with the logo's body in a
    nested `<svg>` per copy (what an SVG author would write without Easel)."""
    logo_path = os.path.join(ROOT, "examples", "svg-logo", "logo.svg")
    shutil.copy(logo_path, os.path.join(OUT, "logo.svg"))
    text = open(logo_path).read()
    body = text[text.index(">", text.index("<svg")) + 1:text.rindex("</svg>")]
    scene, svg = os.path.join(OUT, f"svg-logo-{copies}.scene.xml"), os.path.join(OUT, f"svg-logo-{copies}.svg")
    cells = [(i % 10 * 60, i // 10 * 60) for i in range(copies)]
    with open(scene, "w") as f:
        f.write('<scene width="600" height="600" background="white">\n')
        f.writelines(f'  <image href="logo.svg" x="{x + 4}" y="{y + 4}" width="52" height="52"/>\n' for x, y in cells)
        f.write("</scene>\n")
    with open(svg, "w") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><rect width="600" height="600" fill="white"/>')
        # Ids made unique per copy, as a hand-written file would need.
        f.writelines(f'<svg x="{x + 4}" y="{y + 4}" width="52" height="52" viewBox="0 0 64 64">'
                     + body.replace('id="petal"', f'id="petal{i}"').replace("url(#petal)", f"url(#petal{i})") + "</svg>"
                     for i, (x, y) in enumerate(cells))
        f.write("</svg>")
    return scene, svg


def cases(pictures_only=False, only=None):
    """(name, scene, svg, zoom): zoom is the scene's scale, which the SVG renderers are given.
    `pictures_only`: the first four (what the PNG encoders are measured on), without
    generating the large inputs. `only`: the cases whose names contain one of
    these words (`--cases`), the others' inputs not generated."""
    table = [("Flo graph @2x", lambda: (os.path.join(ROOT, "examples", "flo-graph.scene.xml"), os.path.join(SVG, "flo-graph.svg")), 2),
             ("card with clipped gradient @2x", lambda: (os.path.join(ROOT, "examples", "card.scene.xml"), os.path.join(SVG, "card.svg")), 2),
             ("gradient gallery @2x", gradient_inputs, 2),
             ("text-heavy card @2x", text_inputs, 2)]
    if not pictures_only:
        table += [("10,000 nodes", lambda: node_inputs(10_000), 1),
                  ("1,000,000-point graph from CSV", million_point_inputs, 1),
                  ("10 series × 100,000 rows @2x, with axes", lambda: series_inputs(100_000, name="series-2x-100000", svg=True), 2),
                  ("10 sawtooth series × 100,000 rows @2x, with axes",
                   lambda: series_inputs(100_000, name="sawtooth-2x-100000", svg=True, sawtooth=True), 2),
                  ("10 stacked bar series × 100,000 rows @2x, with axes", lambda: stacked_bars_inputs(100_000), 2),
                  ("100 copies of an SVG logo @2x", svg_logo_inputs, 2),
                  ("empty scene", empty_inputs, 1)]
    return [(name, *inputs(), zoom) for name, inputs, zoom in table
            if not only or any(word.lower() in name.lower() for word in only)]


def parallel_text(args):
    """Text in parallel: 48 text-heavy scenes rendered @3x (painting, issue
    43) and 40 @1x (shaping dominates, issue 57) with `easel render
    --out-dir` on 1 and 2 threads, by this binary and by --baseline (an
    earlier commit's: before issue 43 raster text held one process-wide
    font lock from a render's first glyph to its end; before issue 57
    every shaping took it)."""
    tree, out = os.path.join(OUT, "parallel-text"), os.path.join(OUT, "parallel-text-out")
    text_scene = open(text_inputs()[0]).read()
    binaries = [("this build", args.easel)] + ([("baseline", args.baseline)] if args.baseline else [])
    # Declared fonts only (a hermetic build): a whole set, shaped under the
    # process-wide lock before PangoFT2 was given the set's own substitution.
    hermetic = ["--system-fonts", "no", "--font-dir", "/usr/share/fonts/truetype/dejavu"]
    for count, scale, fonts in ((48, 3, []), (40, 1, []), (40, 1, hermetic)):
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        scenes = []
        for i in range(count):
            path = os.path.join(tree, f"{i:03d}.scene.xml")
            with open(path, "w") as f:
                f.write(text_scene.replace("Release notes", f"Release notes {i}").replace('scale="2"', f'scale="{scale}"'))
            scenes.append(path)
        kind = ", declared fonts only" if fonts else ""
        print(f"\n| {count} text-heavy scenes @{scale}x{kind}, easel render --out-dir | -j 1 | -j 2 | speed-up | best -j 1 | best -j 2 | speed-up of bests |")
        print("|---|---|---|---|---|---|---|")
        for name, easel in binaries:
            times = {"1": [], "2": []}
            # Interleaved, medians: the machine's load drifts between runs.
            for _ in range(max(5, min(args.runs, 15))):
                for jobs in ("1", "2"):
                    shutil.rmtree(out, ignore_errors=True)
                    start = time.perf_counter()
                    subprocess.run([easel, "render", *scenes, "--out-dir", out, "--scale", str(scale), "-j", jobs, *fonts],
                                   check=True, stdout=subprocess.DEVNULL)
                    times[jobs].append(time.perf_counter() - start)
            one, two = statistics.median(times["1"]), statistics.median(times["2"])
            # The bests too: noise here only adds time (on this VM, memory
            # reclaim evicts libraries and fonts between runs).
            best_one, best_two = min(times["1"]), min(times["2"])
            print(f"| {name} ({os.cpu_count()} cores) | {one:.2f} s | {two:.2f} s | {one / two:.2f}× "
                  f"| {best_one:.3f} s | {best_two:.3f} s | {best_one / best_two:.2f}× |", flush=True)
    worker_multiplex(args, binaries[:1], scenes, hermetic)


def worker_request(arguments, request_id):
    """A WorkRequest (Bazel 4.2: 1 arguments, 3 request_id), length-delimited."""
    def varint(v):
        out = bytearray()
        while True:
            out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
            v >>= 7
            if not v:
                return bytes(out)
    body = b"".join(b"\x0a" + varint(len(a.encode())) + a.encode() for a in arguments) + b"\x18" + varint(request_id)
    return varint(len(body)) + body


def read_varint(next_byte):
    """A protobuf varint, its bytes from `next_byte()`."""
    v, shift = 0, 0
    while True:
        b = next_byte()
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v


def read_worker_response(stream):
    """The next WorkResponse's request_id and exit code."""
    body = stream.read(read_varint(lambda: stream.read(1)[0]))
    position = [0]

    def next_byte():
        position[0] += 1
        return body[position[0] - 1]
    fields = {}
    while position[0] < len(body):
        key = next_byte()
        value = read_varint(next_byte)
        if key & 7 == 0:
            fields[key >> 3] = value
        else:   # length-delimited: skip it
            position[0] += value
    return fields.get(3, 0), fields.get(1, 0)


def worker_multiplex(args, binaries, scenes, hermetic):
    """Two multiplexed WorkRequests against the same two one after another,
    in one persistent worker (each renders 20 of `scenes`, the @1x text
    scenes, with -j 1), machine fonts and declared fonts only. This build
    only: an earlier commit's easel-worker is not beside --baseline."""
    print("\n| persistent worker, 2 requests × 20 text scenes @1x (-j 1 each) | one after another | multiplexed | speed-up | speed-up of bests |")
    print("|---|---|---|---|---|")
    out = os.path.join(OUT, "worker-out")
    for fonts, kind in (([], "machine fonts"), (hermetic, "declared fonts only")):
        for name, easel in binaries:
            worker = subprocess.Popen([easel, "worker", "--persistent_worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            halves = [scenes[:20], scenes[20:40]]
            next_id = [1]

            def send(k):
                command = ["render", *halves[k], "--out-dir", os.path.join(out, str(k)), "--scale", "1", "-j", "1", *fonts]
                worker.stdin.write(worker_request(command, next_id[0]))
                next_id[0] += 1
                worker.stdin.flush()

            def answered():
                request_id, code = read_worker_response(worker.stdout)
                if code != 0:
                    raise SystemExit(f"worker request {request_id} failed ({code})")

            times = {"serial": [], "multiplexed": []}
            try:
                send(0); answered(); send(1); answered()   # warm: fonts and libraries loaded
                for _ in range(max(5, min(args.runs, 15))):
                    start = time.perf_counter()
                    send(0); answered(); send(1); answered()
                    times["serial"].append(time.perf_counter() - start)
                    start = time.perf_counter()
                    send(0); send(1); answered(); answered()
                    times["multiplexed"].append(time.perf_counter() - start)
            finally:
                worker.stdin.close()
                worker.wait()
            serial, multiplexed = statistics.median(times["serial"]), statistics.median(times["multiplexed"])
            best = min(times["serial"]) / min(times["multiplexed"])
            print(f"| {name}, {kind} | {serial:.2f} s | {multiplexed:.2f} s | {serial / multiplexed:.2f}× | {best:.2f}× |", flush=True)


def shared_definitions(args):
    """Issue 57: 1,000 equal 16-point squares sharing one gradient, one
    pattern of 64 circles or one clip path, and the same squares flat.
    Easel's SVG output (its size and definitions), Easel's PNG beside
    resvg and rsvg-convert on a hand-written equivalent SVG (each square a
    translated <rect>, one definition), and Easel's instructions per case
    against the flat squares'. Then Display P3 against sRGB PDF sizes for
    an image-sized scene."""
    resvg, rsvg = elf("resvg"), shutil.which("rsvg-convert")
    folder = os.path.join(OUT, "shared")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    circles = "".join(f'<circle cx="{2 + (i % 8) * 4}" cy="{2 + (i // 8) * 4}" r="1.5" fill="#{(i * 37) % 256:02x}40c0"/>' for i in range(64))
    cases = {
        "flat": ('fill="#3366cc"', ""),
        "gradient": ('fill="url(#g)"', '<linearGradient id="g" angle="30"><stop color="#e63946"/><stop color="#1d3557"/></linearGradient>'),
        "pattern": ('fill="url(#p)"', f'<pattern id="p" width="32" height="32">{circles}</pattern>'),
        "clip": ('fill="#c33" clip-path="url(#c)"', '<clipPath id="c"><circle cx="8" cy="8" r="7"/></clipPath>'),
    }
    svg_defs = {
        "flat": ("", 'fill="#3366cc"'),
        "gradient": ('<linearGradient id="g" gradientUnits="userSpaceOnUse" x1="0" y1="16" x2="16" y2="0"><stop stop-color="#e63946"/>'
                     '<stop offset="1" stop-color="#1d3557"/></linearGradient>', 'fill="url(#g)"'),
        "pattern": (f'<pattern id="p" width="32" height="32" patternUnits="userSpaceOnUse">{circles}</pattern>', 'fill="url(#p)"'),
        "clip": ('<clipPath id="c"><circle cx="8" cy="8" r="7"/></clipPath>', 'fill="#cc3333" clip-path="url(#c)"'),
    }
    print("\n| 1,000 equal squares | Easel SVG bytes | definitions in it | Easel PNG | resvg | rsvg-convert | Easel/resvg | Easel instructions | ÷ flat |")
    print("|---|---|---|---|---|---|---|---|---|")
    flat = None
    for name, (attributes, defs) in cases.items():
        views = "".join(f'<view x="{(i % 40) * 20}" y="{(i // 40) * 20}" width="16" height="16" {attributes}/>' for i in range(1000))
        scene = os.path.join(folder, f"{name}.scene.xml")
        with open(scene, "w") as f:
            f.write(f'<scene width="800" height="500" background="white"><defs>{defs}</defs>{views}</scene>')
        d, use = svg_defs[name]
        svg = os.path.join(folder, f"{name}.svg")
        with open(svg, "w") as f:
            f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500"><rect width="800" height="500" fill="white"/><defs>{d}</defs>'
                    + "".join(f'<g transform="translate({(i % 40) * 20} {(i // 40) * 20})"><rect width="16" height="16" {use}/></g>' for i in range(1000))
                    + "</svg>")
        out_svg = os.path.join(folder, f"{name}.out.svg")
        subprocess.run([args.easel, "render", scene, "-o", out_svg], check=True)
        text = open(out_svg).read()
        definitions = sum(text.count(tag) for tag in ("<linearGradient", "<pattern", "<clipPath"))
        png = os.path.join(folder, f"{name}.png")
        easel = measure([args.easel, "render", scene, "-o", png], args.runs)[0]
        peers = [measure([resvg, svg, os.path.join(folder, "resvg.png")], args.runs)[0],
                 measure([rsvg, svg, "-o", os.path.join(folder, "rsvg.png")], args.runs)[0]]
        count = instructions([args.easel, "render", scene, "-o", png])
        flat = count if name == "flat" else flat
        print(f"| {name} | {os.path.getsize(out_svg):,} | {definitions} | {easel * 1000:.0f} ms | {peers[0] * 1000:.0f} ms | {peers[1] * 1000:.0f} ms "
              f"| {easel / peers[0]:.2f} | {count / 1e6:.0f} M | {count / flat:.2f}× |", flush=True)
    # Display P3 PDF: one 512×512 image whose pixels deflate poorly.
    random.seed(7)
    subprocess.run([sys.executable, "-c", "import random, sys; from PIL import Image; random.seed(7); "
                    "Image.frombytes('RGB', (512, 512), bytes(random.randrange(256) for _ in range(512 * 512 * 3))).save(sys.argv[1])",
                    os.path.join(folder, "photo.png")], check=True)
    scene = os.path.join(folder, "photo.scene.xml")
    with open(scene, "w") as f:
        f.write('<scene width="512" height="512" color-space="display-p3"><image width="512" height="512" href="photo.png"/></scene>')
    sizes = {}
    for space in ("display-p3", "srgb"):
        pdf = os.path.join(folder, f"photo-{space}.pdf")
        subprocess.run([args.easel, "render", scene, "-o", pdf, "--color-space", space], check=True)
        sizes[space] = os.path.getsize(pdf)
    print(f"\n| one 512×512 image, PDF | sRGB | Display P3 | P3 ÷ sRGB |\n|---|---|---|---|\n"
          f"| bytes | {sizes['srgb']:,} | {sizes['display-p3']:,} | {sizes['display-p3'] / sizes['srgb']:.3f} |", flush=True)


def bazel_worker(args):
    """Issue 47: the Bazel example grown to 48 targets (16 badges, 16 CSV
    graphs, 16 hermetic text labels with a declared font; 112 PNGs), built
    with the persistent worker and with one easel process per action
    (`--strategy=Easel=local`, unsandboxed, so only start-up differs), cold
    (a new Bazel server, its first build) and warm (server and worker up,
    `bazel clean` then build: every action runs again), and from an HTTP
    remote cache (examples/bazel/remote-cache/serve) after `bazel clean`.
    Wall time of the `bazel build` command (best of --runs, at most 3)
    and how many easel processes started."""
    example = os.path.join(ROOT, "examples", "bazel")
    work = os.path.join(OUT, "bazel-work")
    root = os.path.join(OUT, "bazel-root")
    for path in (work, root):
        subprocess.run(["chmod", "-R", "u+w", path], stderr=subprocess.DEVNULL)
        shutil.rmtree(path, ignore_errors=True)
    shutil.copytree(example, work, ignore=shutil.ignore_patterns("bazel-*", ".bazel", "easel", "easel-worker"))
    subprocess.run([os.path.join(work, "setup"), args.easel], check=True, stdout=subprocess.DEVNULL)
    targets = ['load(":easel.bzl", "easel_image")']
    for i in range(16):
        for name, extra in (("badge", ""), ("week", ', srcs = ["data/week.csv"], scales = ["1", "2"]'),
                            ("label", ', srcs = ["fonts/InterVariable-Letters.ttf"], scales = ["1", "2"]')):
            scene = f"{name}{i:02d}.scene.xml"
            text = open(os.path.join(example, f"{name}.scene.xml")).read()
            with open(os.path.join(work, scene), "w") as f:
                f.write(text.replace("Easel on Bazel", f"Easel on Bazel {i}").replace('r="22"', f'r="{12 + i % 10}"'))
            targets.append(f'easel_image(name = "{name}{i:02d}", scene = "{scene}"{extra})')
    with open(os.path.join(work, "BUILD"), "w") as f:
        f.write("\n".join(targets) + "\n")

    def bazel(*command, check=True):
        return subprocess.run(["bazel", f"--output_user_root={root}", *command], cwd=work, check=check,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def build(strategy, *flags):
        start = time.perf_counter()
        r = bazel("build", "//...", f"--strategy=Easel={strategy}", "--worker_verbose", *flags)
        elapsed = time.perf_counter() - start
        if strategy == "worker":
            starts = len({line.split("logging to ")[-1] for line in r.stderr.splitlines() if "Created new" in line and " Easel " in line})
        else:
            starts = next((int(m.group(1)) for m in [re.search(r"(\d+) local", line) for line in r.stderr.splitlines()] if m), 0)
        return elapsed, starts

    runs = max(1, min(args.runs, 3))
    rows = []
    for strategy, label in (("worker", "persistent worker"), ("local", "one process per action")):
        cold, warm = [], []
        for _ in range(runs):
            bazel("shutdown")
            bazel("clean")
            bazel("shutdown")
            cold.append(build(strategy))
            bazel("clean")
            warm.append(build(strategy))
        rows.append((label, min(cold), min(warm)))
    store = os.path.join(OUT, "bazel-cache")
    shutil.rmtree(store, ignore_errors=True)
    port = 20000 + os.getpid() % 20000
    server = subprocess.Popen([os.path.join(work, "remote-cache", "serve"), str(port), store],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/"]).returncode == 0:
                break
            time.sleep(0.05)
        remote = f"--remote_cache=http://127.0.0.1:{port}"
        bazel("clean")
        build("worker", remote)
        hits = []
        for _ in range(runs):
            bazel("clean")
            hits.append(build("worker", remote))
    finally:
        server.terminate()
        bazel("shutdown", check=False)
    print(f"\n| Bazel 4.2, 48 easel_image targets (112 PNGs), {os.cpu_count()} cores | cold build | easel start-ups | warm build (clean, server up) | easel start-ups |")
    print("|---|---|---|---|---|")
    for label, cold, warm in rows:
        print(f"| {label} | {cold[0]:.2f} s | {cold[1]} | {warm[0]:.2f} s | {warm[1]} |")
    best = min(hits)
    print(f"| every action a remote cache hit (nginx on 127.0.0.1) | – | – | {best[0]:.2f} s | {best[1]} |", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--easel", default=os.path.join(ROOT, ".build-install", "release", "easel"))
    parser.add_argument("--cases", nargs="+", metavar="WORD",
                        help="renders: only the cases whose names contain one of these words (e.g. Flo card gallery)")
    parser.add_argument("--baseline", help="another easel binary (an earlier commit's) for the fonts and layout parts' first column")
    parser.add_argument("--only", choices=["renders", "encoders", "animation", "build", "curves", "fonts", "layout", "dither", "hostile", "parallel", "bazel", "shared", "web"],
                        help="run one part of the benchmark")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    parts = {"renders": renders, "encoders": encoders, "animation": animation, "build": build_tree, "curves": curves, "fonts": fonts,
             "layout": layout_inputs, "dither": dither, "hostile": hostile_inputs, "parallel": parallel_text,
             "bazel": bazel_worker, "shared": shared_definitions, "web": web_formats}
    for name, part in parts.items():
        if args.only in (None, name):
            part(args)


def pixel_difference(png, other, decoder):
    """Mean channel difference (RGBA, /255) and PSNR (dB) of `other`, decoded
    by `decoder` (dwebp or avifdec), against the PNG (Pillow)."""
    from PIL import Image
    decoded = os.path.join(OUT, "decoded.png")
    subprocess.run([decoder, other, "-o", decoded] if decoder == "dwebp" else [decoder, other, decoded], check=True, capture_output=True)
    a = Image.open(png).convert("RGBA").tobytes()
    b = Image.open(decoded).convert("RGBA").tobytes()
    diffs = [abs(x - y) for x, y in zip(a, b)]
    mse = sum(d * d for d in diffs) / len(diffs)
    return sum(diffs) / len(diffs), (10 * math.log10(255 ** 2 / mse) if mse else float("inf"))


def web_formats(args):
    """WebP and AVIF: Easel's files beside cwebp's and avifenc's from Easel's
    own PNG of the same render (size, time, difference from the PNG), and
    the choices behind Easel's defaults (AVIF's speed and quality, 4:4:4)
    measured with avifenc, which drives the same libavif and libaom."""
    cwebp, avifenc = shutil.which("cwebp"), shutil.which("avifenc")
    if not cwebp or not avifenc:
        sys.exit("cwebp and avifenc are needed (scripts/install-deps installs webp and libavif-bin)")
    pictures = [("Flo graph @2x", os.path.join(ROOT, "examples", "flo-graph.scene.xml")),
                ("card @2x", os.path.join(ROOT, "examples", "card.scene.xml")),
                ("gradient gallery @2x", gradient_inputs()[0]),
                ("text-heavy card @2x", text_inputs()[0])]
    kb = lambda path: f"{os.path.getsize(path) / 1024:.1f} KB"
    ms = lambda t: f"{t * 1000:.0f} ms"
    print(f"\nWebP and AVIF; time = mean of {args.runs} hyperfine runs (Easel: the whole render; the tools: encoding Easel's PNG)\n")
    print("| picture | PNG (Easel) | WebP lossless: Easel / cwebp -lossless | WebP -q 80: Easel / cwebp, mean difference | "
          "AVIF q 80: Easel / avifenc, PSNR |")
    print("|---|---|---|---|---|")
    speeds = []
    for name, scene in pictures:
        png, webp, lossy, avif = (os.path.join(OUT, "web." + e) for e in ("png", "webp", "q80.webp", "avif"))
        tools_webp, tools_lossy, tools_avif = (os.path.join(OUT, "tool." + e) for e in ("webp", "q80.webp", "avif"))
        easel = lambda out, *extra: [args.easel, "render", scene, "-o", out, "--scale", "2", *extra]
        t_png = hyperfine(easel(png), args.runs)
        t_webp = hyperfine(easel(webp), args.runs)
        t_lossy = hyperfine(easel(lossy, "--quality", "80"), args.runs)
        t_avif = hyperfine(easel(avif), args.runs)
        # avifenc 0.11 takes quantizers: quality 80 is (100 - 80) * 63 / 100 = 13, as Easel maps it.
        c_webp = hyperfine([cwebp, "-quiet", "-lossless", "-exact", png, "-o", tools_webp], args.runs)
        c_lossy = hyperfine([cwebp, "-quiet", "-q", "80", png, "-o", tools_lossy], args.runs)
        c_avif = hyperfine([avifenc, "-j", "1", "-s", "6", "-y", "444", "--min", "13", "--max", "13", "--minalpha", "13",
                            "--maxalpha", "13", png, tools_avif], args.runs)
        d_lossy, _ = pixel_difference(png, lossy, "dwebp")
        d_tool, _ = pixel_difference(png, tools_lossy, "dwebp")
        _, p_avif = pixel_difference(png, avif, "avifdec")
        _, p_tool = pixel_difference(png, tools_avif, "avifdec")
        print(f"| {name} | {kb(png)}, {ms(t_png)} | {kb(webp)}, {ms(t_webp)} / {kb(tools_webp)}, {ms(c_webp)} "
              f"| {kb(lossy)}, {ms(t_lossy)}, {d_lossy:.2f} / {kb(tools_lossy)}, {ms(c_lossy)}, {d_tool:.2f} "
              f"| {kb(avif)}, {ms(t_avif)}, {p_avif:.1f} dB / {kb(tools_avif)}, {ms(c_avif)}, {p_tool:.1f} dB |", flush=True)
        # The choices: libaom speed and quality, 4:4:4 against 4:2:0 (avifenc, same library).
        for label, flags in [("speed 4", ["-s", "4"]), ("speed 6", ["-s", "6"]), ("speed 8", ["-s", "8"]),
                             ("speed 6, 4:2:0", ["-s", "6", "-y", "420"]),
                             ("quality 60", ["-s", "6", "--min", "25", "--max", "25"]), ("quality 90", ["-s", "6", "--min", "6", "--max", "6"])]:
            cmd = [avifenc, "-j", "1", "-y", "444", "--min", "13", "--max", "13", "--minalpha", "13", "--maxalpha", "13", *flags, png, tools_avif]
            t = hyperfine(cmd, max(3, args.runs // 3))
            _, p = pixel_difference(png, tools_avif, "avifdec")
            speeds.append(f"| {name} | {label} | {kb(tools_avif)} | {ms(t)} | {p:.1f} dB |")
    print("\nAVIF settings (avifenc on Easel's PNG, one thread; later flags override the defaults of 4:4:4, quantizer 13):\n")
    print("| picture | setting | size | time | PSNR |\n|---|---|---|---|---|")
    print("\n".join(speeds))


def binary_figures(easel):
    """What scripts/install installs (stripped, lazy-linked) and what starting it costs:
    size, Swift conformance records (each first dynamic cast scans them
    all), shared libraries the loader binds."""
    stripped = os.path.join(OUT, "easel-stripped")
    subprocess.run(["strip", "-o", stripped, easel], check=True)
    subprocess.run([os.path.join(ROOT, "scripts", "lazy-link"), stripped], check=True)
    sections = subprocess.run(["readelf", "-SW", easel], capture_output=True, text=True).stdout
    records = 0
    for line in sections.splitlines():
        if "swift5_protocol_conformances" in line:
            records = int(line.split("swift5_protocol_conformances")[1].split()[3], 16) // 4
    libraries = subprocess.run(["ldd", stripped], capture_output=True, text=True).stdout.count("=>")
    print(f"\ninstalled easel (stripped): {os.path.getsize(stripped) / 1e6:.1f} MB; {records} conformance records; "
          f"{libraries} shared libraries; empty scene: see the last row\n")
    return stripped


def renders(args):
    resvg, rsvg = elf("resvg"), shutil.which("rsvg-convert")
    if not resvg or not rsvg:
        sys.exit("resvg and rsvg-convert are needed (scripts/install-deps installs both)")
    args.easel = binary_figures(args.easel)
    rows = []
    head = ("| scene | Easel | resvg | rsvg-convert | Easel/resvg time | Easel/resvg instructions | instructions Easel / resvg / rsvg | peak memory Easel / resvg / rsvg |\n"
            "|---|---|---|---|---|---|---|---|")
    print(f"\nwhole process; time = mean of {args.runs} hyperfine runs; instructions = callgrind; ratio < 1: Easel is faster\n")
    print(head)
    for name, scene, svg, zoom in cases(only=args.cases):
        easel = [args.easel, "render", scene, "-o", os.path.join(OUT, "easel.png")]
        peers = [[resvg, "--zoom", str(zoom), svg, os.path.join(OUT, "resvg.png")],
                 [rsvg, "--zoom", str(zoom), svg, "-o", os.path.join(OUT, "rsvg.png")]]
        times = [hyperfine(c, args.runs) for c in [easel] + peers]
        counts = [instructions(c) for c in [easel] + peers]
        memory = []
        for c in [easel] + peers:
            try:
                memory.append(f"{measure(c, 1)[1]:.0f}")
            except RuntimeError:
                memory.append("–")
        t = lambda x: f"{x * 1000:.1f} ms" if x else "fails"
        m = lambda x: f"{x / 1e6:.0f} M" if x else "–"
        ratio = lambda a, b: f"{a / b:.2f}" if a and b else "–"
        row = (f"| {name} | {t(times[0])} | {t(times[1])} | {t(times[2])} | {ratio(times[0], times[1])} | {ratio(counts[0], counts[1])} "
               f"| {m(counts[0])} / {m(counts[1])} / {m(counts[2])} | {memory[0]} / {memory[1]} / {memory[2]} MB |")
        print(row, flush=True)
        rows.append(row)
    machine = subprocess.run(["sh", "-c", "nproc; grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.split("\n")
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write(f"Measured {time.strftime('%Y-%m-%d')} on {machine[0]} cores ({machine[1].strip()}).\n\n{head}\n" + "\n".join(rows) + "\n")


def encoders(args):
    """bench/png-encoders.c on the benchmark's frames (Easel's own renders):
    every candidate's time and size over all frames, then for each frame
    the file resvg writes for its SVG beside the size and the encoder's
    instructions (callgrind, beyond reading the frame) of the candidates
    Easel's settings were chosen among."""
    frames = os.path.join(OUT, "frames-png")
    shutil.rmtree(frames, ignore_errors=True)
    os.makedirs(frames)
    resvg_sizes = {}
    resvg = elf("resvg")
    for name, scene, svg, zoom in cases(pictures_only=True):
        frame = os.path.join(frames, os.path.basename(scene).replace(".scene.xml", ".png"))
        subprocess.run([args.easel, "render", scene, "-o", frame], check=True)
        if resvg:
            out = os.path.join(OUT, "resvg-size.png")
            subprocess.run([resvg, "-z", str(zoom), svg, out], check=True, capture_output=True)
            resvg_sizes[os.path.basename(frame)] = os.path.getsize(out)
    anim = os.path.join(OUT, "animation.scene.xml")
    write_animation_scene(anim)
    subprocess.run([args.easel, "render", anim, "--time", "0.5", "-o", os.path.join(frames, "animation-frame.png")], check=True)
    tool = os.path.join(OUT, "png-encoders")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "cairo", "libpng", "libdeflate", "spng", "zlib"],
                           capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", os.path.join(ROOT, "bench", "png-encoders.c"), *flags, "-o", tool], check=True)
    print("\nPNG encoders on the benchmark frames (" + ", ".join(sorted(os.listdir(frames))) + "):\n")
    subprocess.run([tool, *sorted(glob.glob(os.path.join(frames, "*.png")))], check=True)

    chosen = ["libdeflate 1, filter Up", "libdeflate 1, filter Paeth", "libdeflate 2, filter Paeth", "libdeflate 3, filter Up",
              "libdeflate 3, filter Paeth", "libdeflate 6, filter Paeth", "libdeflate 7, filter Paeth"]
    print("\nEach frame: resvg's file for the same picture, and each candidate's size (KB) / encoder instructions (M):\n")
    print("| frame | resvg | " + " | ".join(chosen) + " |")
    print("|---|---|" + "---|" * len(chosen))
    for frame in sorted(glob.glob(os.path.join(frames, "*.png"))):
        base = instructions([tool, "--one", "none", frame]) or 0
        cells = []
        for candidate in chosen:
            size = int(subprocess.run([tool, "--one", candidate, frame], capture_output=True, text=True, check=True).stdout)
            count = (instructions([tool, "--one", candidate, frame]) or 0) - base
            cells.append(f"{size / 1024:.0f} / {count / 1e6:.1f}")
        name = os.path.basename(frame)
        resvg_size = f"{resvg_sizes[name] / 1024:.0f}" if name in resvg_sizes else "–"
        print(f"| {name} | {resvg_size} | " + " | ".join(cells) + " |")


def animation(args):
    """A 400×400 animated gradient at @2x, 60 frames to an animated PNG:
    Easel from the scene, beside ffmpeg assembling the same 60 PNG frames
    (written beforehand by Easel) into an APNG."""
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        print("\n(ffmpeg missing: no animation benchmark)")
        return
    scene = os.path.join(OUT, "animation.scene.xml")
    write_animation_scene(scene)
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


def write_animation_scene(scene):
    with open(scene, "w") as f:
        # Two keyframes 59/30 s apart: floor(59/30 · 30) + 1 = 60 frames at 30 fps.
        f.write('<scene width="400" height="400" scale="2"><defs>'
                '<animatedGradient id="a" duration="1.9666666667" timing="ease-in-out">'
                '<linearGradient direction="up"><stop color="#4f6bed"/><stop color="#e76f51"/></linearGradient>'
                '<linearGradient direction="right"><stop color="#ff9f0a"/><stop color="#30d158"/><stop color="#1d2b53"/></linearGradient>'
                '</animatedGradient></defs><rect width="400" height="400" corner-radius="40" fill="url(#a)"/></scene>')


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
    shutil.copytree(os.path.join(ROOT, "examples", "fonts"), os.path.join(tree, "fonts"))
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


def fonts(args):
    """Fonts (issue 23): the instructions of one render with the machine's
    fonts (fontconfig reads /etc/fonts and every font folder's cache) and
    with the scene's fonts declared and --system-fonts no (a private
    configuration of those files only); then `easel build` of 200
    text-heavy scenes on 1 and 2 threads (text shapes without a process-wide
    lock, one Pango context per thread)."""
    dejavu = os.path.join(OUT, "dejavu")
    shutil.rmtree(dejavu, ignore_errors=True)
    os.makedirs(dejavu)
    for face in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        shutil.copy(os.path.join("/usr/share/fonts/truetype/dejavu", face), dejavu)
    rows = [("Flo graph @2x", os.path.join(ROOT, "examples", "flo-graph.scene.xml")),
            ("card with clipped gradient @2x", os.path.join(ROOT, "examples", "card.scene.xml")),
            ("text-heavy card @2x", text_inputs()[0]),
            ("hello-world (4 scripts, declared fonts) @2x", os.path.join(ROOT, "examples", "hello-world.scene.xml"))]
    print("\n| one render, whole process (callgrind) | baseline | system fonts | declared fonts, --system-fonts no | declared / baseline |")
    print("|---|---|---|---|---|")
    for name, scene in rows:
        cmd = [args.easel, "render", scene, "-o", os.path.join(OUT, "fonts.png")]
        own = "hello-world" in name
        before = instructions([args.baseline] + cmd[1:]) if args.baseline and not own else None
        system = instructions(cmd) if not own else None
        declared = instructions(cmd + ([] if own else ["--font-dir", dejavu, "--system-fonts", "no"]))
        m = lambda x: f"{x / 1e6:.1f} M" if x else "–"
        ratio = f"{declared / before:.2f}" if before and declared else "–"
        print(f"| {name} | {m(before)} | {m(system)} | {m(declared)} | {ratio} |", flush=True)

    tree, out = os.path.join(OUT, "text-tree"), os.path.join(OUT, "text-tree-out")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    text_scene = open(text_inputs()[0]).read()
    for i in range(200):
        # Each scene its own text: no two shape alike.
        with open(os.path.join(tree, f"{i:03d}.scene.xml"), "w") as f:
            f.write(text_scene.replace("Release notes", f"Release notes {i}"))
    times = {}
    for jobs in ("1", "2"):
        best = None
        for _ in range(3):
            shutil.rmtree(out, ignore_errors=True)
            start = time.perf_counter()
            subprocess.run([args.easel, "build", tree, "-o", out, "-j", jobs, "--font-dir", dejavu, "--system-fonts", "no"],
                           check=True, stdout=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        times[jobs] = best
    print(f"\n| 200 text-heavy scenes @2x, easel build | -j 1 | -j 2 | speed-up |")
    print("|---|---|---|---|")
    print(f"| {os.cpu_count()} cores | {times['1']:.2f} s | {times['2']:.2f} s | {times['1'] / times['2']:.2f}× |")


def curves(args):
    """Time and peak memory against output pixels, nodes, data points and
    batch size: a CSV per curve in bench/out/curves/, and a PNG of it drawn
    by Easel from that CSV. The sizes grow geometrically, so the evenly
    spaced points of a line graph make a log axis; what is plotted is the
    time and memory above an empty scene's (the process's fixed start-up),
    per unit (per megapixel, per 1,000 nodes…): linear scaling shows as a
    flat line, better as a falling one, worse as a rising one."""
    folder = os.path.join(OUT, "curves")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    flo = os.path.join(ROOT, "examples", "flo-graph.scene.xml")

    def nodes(n):
        return [args.easel, "render", node_inputs(n, f"curve-nodes-{n}")[0], "-o", os.path.join(OUT, "curve.png")]

    def points(n):
        return [args.easel, "render", million_point_inputs(n, f"curve-points-{n}")[0], "-o", os.path.join(OUT, "curve.png")]

    def batch(n):
        tree = os.path.join(OUT, f"curve-batch-{n}")
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        examples = sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".scene.xml") and "animated" not in f)
        shutil.copytree(os.path.join(ROOT, "examples", "data"), os.path.join(tree, "data"))
        shutil.copytree(os.path.join(ROOT, "examples", "fonts"), os.path.join(tree, "fonts"))
        for i in range(n):
            shutil.copy(os.path.join(ROOT, "examples", examples[i % len(examples)]), os.path.join(tree, f"{i:04d}-{examples[i % len(examples)]}"))
        scenes = sorted(glob.glob(os.path.join(tree, "*.scene.xml")))
        return [args.easel, "render", *scenes, "--out-dir", os.path.join(tree, "out"), "-j", "2"]

    specs = [
        ("scale", "output pixels: the Flo graph at scales 1–8", "scale", [1, 2, 3, 4, 6, 8], "ms per megapixel",
         lambda s: [args.easel, "render", flo, "-o", os.path.join(OUT, "curve.png"), "--scale", str(s)], lambda s: 340 * 260 * s * s / 1e6),
        ("nodes", "node count: rounded rectangles in a grid", "nodes", [10, 100, 1000, 10_000, 100_000], "ms per 1,000 nodes",
         nodes, lambda n: n / 1000),
        ("points", "data points: a line graph from CSV", "points", [10, 100, 1000, 10_000, 100_000, 1_000_000], "ms per 100,000 points",
         points, lambda n: n / 100_000),
        ("series", "ten series from one CSV, placed by x, with axes", "rows", [100, 1000, 10_000, 100_000], "ms per 100,000 points",
         lambda n: [args.easel, "render", series_inputs(n, name=f"curve-series-{n}"), "-o", os.path.join(OUT, "curve.png")],
         lambda n: 10 * n / 100_000),
        ("batch", "batch size: examples with -j 2 in one process", "scenes", [1, 10, 100, 1000], "ms per scene", batch, lambda n: n),
    ]
    base_t, base_m = measure([args.easel, "render", empty_inputs()[0], "-o", os.path.join(OUT, "curve.png")], 5)
    print(f"\nempty scene (start-up): {base_t * 1000:.1f} ms, {base_m:.0f} MB")
    print("\n| curve | size | time | peak memory | time above start-up, per unit | memory above start-up, per unit |\n|---|---|---|---|---|---|")
    for name, title, unit, sizes, per, command, units in specs:
        rows = []
        for size in sizes:
            t, m = measure(command(size), 3)
            pt, pm = max(0, t - base_t) * 1000 / units(size), max(0, m - base_m) / units(size)
            rows.append((size, t * 1000, m, pt, pm))
            print(f"| {name} | {size:,} {unit} | {t * 1000:.0f} ms | {m:.0f} MB | {pt:.2f} {per} | {pm:.3f} MB |", flush=True)
        csv = os.path.join(folder, name + ".csv")
        with open(csv, "w") as f:
            f.write("size,ms,mb,per_unit,mb_per_unit\n")
            f.writelines(f"{s},{ms:.2f},{mb:.1f},{pt:.4f},{pm:.5f}\n" for s, ms, mb, pt, pm in rows)
        plot = os.path.join(folder, name + ".scene.xml")
        label = "size"
        with open(plot, "w") as f:
            f.write(f'''<scene width="640" height="330" scale="2" background="white">
  <text x="20" y="12" font="DejaVu Sans Bold 15" fill="#1d2433">{title}</text>
  <text x="20" y="34" font-size="11" fill="#6b7687">x: {unit} (log scale); y: above an empty scene's start-up, per unit — flat is linear</text>
  <lineGraph x="10" y="60" width="310" height="260" src="{name}.csv" column="per_unit" label-column="{label}" padding="30 30 30 30">
    <line stroke="#4f6bed" stroke-width="2"/><points diameter="5" fill="#4f6bed"/>
    <grid count="3" stroke="#d0d5dd" stroke-width="1"/>
    <xLabels font="DejaVu Sans 9" fill="#3b4556"/><yLabels font="DejaVu Sans 9" fill="#3b4556" format="%.3g"/>
    <text x="30" y="4" font-size="10" fill="#4f6bed">time, {per}</text>
  </lineGraph>
  <lineGraph x="320" y="60" width="310" height="260" src="{name}.csv" column="mb_per_unit" label-column="{label}" padding="30 30 30 30">
    <line stroke="#e76f51" stroke-width="2"/><points diameter="5" fill="#e76f51"/>
    <grid count="3" stroke="#d0d5dd" stroke-width="1"/>
    <xLabels font="DejaVu Sans 9" fill="#3b4556"/><yLabels font="DejaVu Sans 9" fill="#3b4556" format="%.3g"/>
    <text x="30" y="4" font-size="10" fill="#e76f51">peak memory, MB {per.replace("ms ", "")}</text>
  </lineGraph>
</scene>
''')
        subprocess.run([args.easel, "render", plot, "-o", os.path.join(folder, name + ".png")], check=True)




def nested_scene(kinds, depth):
    inner = "<text>end</text>"
    for level in reversed(range(depth)):
        kind = kinds[level % len(kinds)]
        inner = f"<{kind}>{inner}</{kind}>"
    return f'<scene width="400" height="300">{inner}</scene>'


def write_random_walk(path, n=900_000):
    """A CSV column `v` of n steps of a random walk (the same every run)."""
    random.seed(1)
    v, rows = 0.0, ["v"]
    for _ in range(n):
        v += random.uniform(-1, 1)
        rows.append(f"{v:.3f}")
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def layout_inputs(args):
    """Input that once cost time or memory out of proportion (issue: a
    layout engine that scales): nested stacks, a value of lone braces, a
    one-line CSV, a points layer over 900,000 values, and the 10,000-node
    scene by phase. `easel check` parses, builds and lays out; `render`
    adds painting and encoding. Before = --baseline, capped at 60 s."""
    d = os.path.join(OUT, "layout")
    os.makedirs(d, exist_ok=True)
    cases = []
    for kinds, depth in [(["vstack"], 16), (["vstack"], 19), (["vstack"], 200), (["hstack", "zstack"], 32), (["hstack", "zstack"], 200)]:
        name = f"{'-'.join(kinds)}-{depth}"
        path = os.path.join(d, name + ".scene.xml")
        with open(path, "w") as f:
            f.write(nested_scene(kinds, depth))
        cases.append((f"<{'><'.join(kinds)}> nested {depth} deep (check)", ["check", path]))
    braces = os.path.join(d, "braces.scene.xml")
    with open(braces, "w") as f:
        f.write('<scene width="10" height="10"><defs><param name="a" type="string" default="x"/></defs>'
                f'<rect id="{"{a " * 160_000}" width="1" height="1"/></scene>')
    cases.append(("480 KB attribute of '{a {a …' (check)", ["check", braces]))
    with open(os.path.join(d, "one-line.csv"), "w") as f:
        f.write("v," * 30_000_000)
    line = os.path.join(d, "one-line.scene.xml")
    with open(line, "w") as f:
        f.write('<scene width="100" height="50"><lineGraph width="100" height="50" src="one-line.csv" column="v"/></scene>')
    cases.append(("60 MB CSV of one line (check)", ["check", line]))
    write_random_walk(os.path.join(d, "points.csv"))
    points = os.path.join(d, "points.scene.xml")
    with open(points, "w") as f:
        f.write('<scene width="600" height="300"><lineGraph width="600" height="300" src="points.csv" column="v">'
                '<points diameter="3" fill="#36c"/></lineGraph></scene>')
    cases.append(("<points> over 900,000 CSV values (check)", ["check", points]))
    nodes, _ = node_inputs(10_000)
    cases.append(("10,000 nodes: parse, build, layout (check)", ["check", nodes]))
    cases.append(("10,000 nodes: all, PNG (render)", ["render", nodes, "-o", os.path.join(d, "nodes.png")]))
    binaries = [b for b in [args.baseline, args.easel] if b]
    head = ("| input | " + " | ".join(["before", "after"][-len(binaries):]) + " | instructions " + " / ".join(["before", "after"][-len(binaries):]) + " |\n"
            "|---|" + "---|" * (2 * len(binaries) - 1) + "---|")
    print("\nwall time and peak memory of one run (GNU time), instructions (callgrind); 'stopped' = a located error, as intended\n")
    print(head)
    rows = []
    for name, cmd in cases:
        cells, counts = [], []
        for b in binaries:
            start = time.perf_counter()
            try:
                proc = subprocess.run(["timeout", "60", "/usr/bin/time", "-f", "%M", b] + cmd, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True)
            except OSError:
                cells.append("–"); counts.append(None); continue
            elapsed = time.perf_counter() - start
            last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
            rss = f"{int(last) / 1024:.0f} MB" if last.isdigit() else "?"
            if proc.returncode == 124:
                cells.append("> 60 s"); counts.append(None); continue
            note = "" if proc.returncode == 0 else ", stopped"
            cells.append(f"{elapsed:.2f} s, {rss}{note}")
            counts.append(instructions([b] + cmd, failing=True) if elapsed < 5 else None)
        m = lambda x: f"{x / 1e6:.0f} M" if x else "–"
        row = f"| {name} | " + " | ".join(cells) + " | " + " / ".join(m(c) for c in counts) + " |"
        print(row, flush=True)
        rows.append(row)
    with open(os.path.join(OUT, "layout.md"), "w") as f:
        f.write(head + "\n" + "\n".join(rows) + "\n")


def hostile_inputs(args):
    """Issue 42's table: input that grew work faster than itself. Each row
    must end within 2 s (3 s for the points layer) and 512 MB, with a
    picture or a located error ('stopped'). Wall time and peak memory of one
    run (GNU time); the tests count the work (bench/ only times it)."""
    d = os.path.join(OUT, "hostile")
    os.makedirs(d, exist_ok=True)
    cases = []
    def scene(name, body, width=400, height=200):
        path = os.path.join(d, name + ".scene.xml")
        with open(path, "w") as f:
            f.write(f'<scene width="{width}" height="{height}" background="white">{body}</scene>')
        return path
    for n in [20_000, 40_000, 100_000]:
        params = "".join(f'<param name="p{i}" type="number" default="{i}"/>' for i in range(n))
        cases.append((f"{n:,} <param> declarations (check)", ["check", scene(f"params-{n}", f"<defs>{params}</defs>")]))
    palette = "".join(f'<color name="c{i}" value="#{i % 0xffffff:06x}"/>' for i in range(60_000))
    cases.append(("60,000 palette colours (check)", ["check", scene("palette", f"<defs>{palette}</defs>")]))
    params = "".join(f'<param name="p{i}" type="number" default="{i}"/>' for i in range(2_000))
    cases.append(("200,000 {zq} among 2,000 parameters (check)",
                  ["check", scene("zq", f'<defs>{params}</defs><rect id="{"{zq}" * 200_000}" width="1" height="1"/>')]))
    for n in [2_000, 4_000, 8_000]:
        text = "abcdefghijkl" + "\u2060" * n
        cases.append((f"12 letters + {n:,} U+2060, width 40, max-lines 1 (render)",
                      ["render", scene(f"joiners-{n}", f'<text width="40" max-lines="1">{text}</text>'), "-o", os.path.join(d, f"joiners-{n}.png")]))
    cases.append(("16,000 'x' wrapped at width 40 (render)",
                  ["render", scene("run", f'<text width="40">{"x" * 16_000}</text>'), "-o", os.path.join(d, "run.png")]))
    write_random_walk(os.path.join(d, "walk.csv"))
    with open(os.path.join(d, "noise.csv"), "w") as f:
        f.write("v\n" + "\n".join(f"{random.uniform(0, 100):.3f}" for _ in range(900_000)) + "\n")
    for data in ["walk", "noise"]:
        points = scene(f"points-{data}", f'<lineGraph src="{data}.csv" column="v"><points diameter="3" fill="#3366cc"/></lineGraph>')
        for s in [1, 3]:
            cases.append((f"<points diameter=3> over 900,000 values ({data}), 400×200 @{s}x (render)",
                          ["render", points, "-o", os.path.join(d, f"points-{data}-{s}.png"), "--scale", str(s)]))
    inner = lambda i: f' clip-path="url(#c{i + 1})"' if i < 39 else ""
    clips = "".join(f'<clipPath id="c{i}"><rect width="90%" height="90%"{inner(i)}/></clipPath>' for i in range(40))
    rects = '<rect width="50" height="50" clip-path="url(#c0)"/>' * 100
    cases.append(("40 chained clip paths, 100 uses (render)", ["render", scene("clips", f"<defs>{clips}</defs>{rects}"), "-o", os.path.join(d, "clips.png")]))
    head = "| input | wall, peak memory |\n|---|---|"
    print("\nwall time and peak memory of one run (GNU time); 'stopped' = a located error, as intended\n")
    print(head)
    rows = []
    for name, cmd in cases:
        start = time.perf_counter()
        proc = subprocess.run(["timeout", "60", "/usr/bin/time", "-f", "%M", args.easel] + cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        rss = f"{int(last) / 1024:.0f} MB" if last.isdigit() else "?"
        cell = "> 60 s" if proc.returncode == 124 else f"{elapsed:.2f} s, {rss}" + ("" if proc.returncode == 0 else ", stopped")
        row = f"| {name} | {cell} |"
        print(row, flush=True)
        rows.append(row)
    with open(os.path.join(OUT, "hostile.md"), "w") as f:
        f.write(head + "\n" + "\n".join(rows) + "\n")


def slow_gradient_inputs(kind, size):
    """A slow gradient (#202020 → #303030) as a scene, an SVG (linear and
    radial) and a CSS page for Chromium, and the exact value (8-bit units,
    not rounded) at each pixel centre, for the block error."""
    w, h = size
    name = os.path.join(OUT, f"slow-{kind}-{w}x{h}")
    if kind == "linear":
        defs = '<linearGradient id="g" direction="right"><stop color="#202020"/><stop color="#303030"/></linearGradient>'
        svg_defs = '<linearGradient id="g"><stop offset="0" stop-color="#202020"/><stop offset="1" stop-color="#303030"/></linearGradient>'
        css = "linear-gradient(90deg, #202020, #303030)"
    elif kind == "radial":
        # Radius the box's width: offset 1 at the left and right edges' midpoints.
        defs = '<radialGradient id="g" radius="1"><stop color="#202020"/><stop color="#303030"/></radialGradient>'
        svg_defs = f'<radialGradient id="g" gradientUnits="userSpaceOnUse" cx="{w / 2}" cy="{h / 2}" r="{w}"><stop offset="0" stop-color="#202020"/><stop offset="1" stop-color="#303030"/></radialGradient>'
        css = f"radial-gradient(circle {w}px at 50% 50%, #202020, #303030)"
    else:
        defs = '<conicGradient id="g"><stop color="#202020"/><stop color="#303030"/><stop color="#202020"/></conicGradient>'
        svg_defs = None
        css = "conic-gradient(from 0deg at 50% 50%, #202020, #303030, #202020)"
    with open(name + ".scene.xml", "w") as f:
        f.write(f'<scene width="{w}" height="{h}"><defs>{defs}</defs><rect width="{w}" height="{h}" fill="url(#g)"/></scene>')
    svg = None
    if svg_defs:
        svg = name + ".svg"
        with open(svg, "w") as f:
            f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}"><defs>{svg_defs}</defs><rect width="{w}" height="{h}" fill="url(#g)"/></svg>')
    with open(name + ".html", "w") as f:
        f.write(f'<html><body style="margin:0"><div style="width:{w}px;height:{h}px;background:{css}"></div></body></html>')

    def exact(x, y):
        if kind == "linear":
            t = x / w
        elif kind == "radial":
            t = min(1.0, ((x - w / 2) ** 2 + (y - h / 2) ** 2) ** 0.5 / w)
        else:
            import math
            t = (math.atan2(y - h / 2, x - w / 2) + math.pi / 2) / (2 * math.pi)
            t -= math.floor(t)
            t = 2 * t if t <= 0.5 else 2 - 2 * t
        return 32 + 16 * t
    return name + ".scene.xml", svg, name + ".html", exact


def block_error(png, exact, skip_centre=0):
    """Mean and largest distance between an 8×8 block's mean (red channel)
    and the exact gradient's mean there, in 8-bit steps; blocks within
    `skip_centre` pixels of the centre are left out (a conic sweep is
    averaged over a pixel there)."""
    from PIL import Image
    image = Image.open(png).convert("RGB")
    w, h = image.size
    px = image.load()
    errors = []
    for by in range(0, h - h % 8, 8):
        for bx in range(0, w - w % 8, 8):
            if ((bx + 4 - w / 2) ** 2 + (by + 4 - h / 2) ** 2) ** 0.5 < skip_centre:
                continue
            got = sum(px[x, y][0] for y in range(by, by + 8) for x in range(bx, bx + 8))
            want = sum(exact(x + 0.5, y + 0.5) for y in range(by, by + 8) for x in range(bx, bx + 8))
            errors.append(abs(got - want) / 64)
    return statistics.mean(errors), max(errors)


def chromium_screenshot(html, size, out):
    """Headless Chromium's rendering of a CSS gradient (Skia dithers gradients)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        return None
    w, h = size
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                    f"--window-size={w},{h}", f"--screenshot={out}", "file://" + html],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    return out if os.path.exists(out) else None


def dither(args):
    """Band-free gradients: the block error of slow gradients beside
    Chromium's, and what dithering costs in time and PNG bytes."""
    resvg = elf("resvg")
    print("\nblock error of a slow gradient (#202020 → #303030), in 8-bit steps: mean / largest over 8×8 blocks\n")
    quality = ["| gradient | Easel dithered | Easel --dither no | Chromium (Skia) | resvg |", "|---|---|---|---|---|"]
    print("\n".join(quality))
    for kind, size in [("linear", (2048, 64)), ("radial", (512, 512)), ("conic", (1024, 1024))]:
        scene, svg, html, exact = slow_gradient_inputs(kind, size)
        skip = 128 if kind == "conic" else 0
        cells = []
        for extra, out in [([], "dithered"), (["--dither", "no"], "banded")]:
            png = os.path.join(OUT, f"slow-{kind}-{out}.png")
            subprocess.run([args.easel, "render", scene, "-o", png] + extra, check=True)
            cells.append(block_error(png, exact, skip))
        shot = chromium_screenshot(html, size, os.path.join(OUT, f"slow-{kind}-chromium.png"))
        cells.append(block_error(shot, exact, skip) if shot else None)
        if svg and resvg:
            png = os.path.join(OUT, f"slow-{kind}-resvg.png")
            subprocess.run([resvg, svg, png], check=True)
            cells.append(block_error(png, exact, skip))
        else:
            cells.append(None)
        f = lambda c: f"{c[0]:.3f} / {c[1]:.3f}" if c else "–"
        row = f"| {kind} {size[0]}×{size[1]} | " + " | ".join(f(c) for c in cells) + " |"
        print(row, flush=True)
        quality.append(row)

    print("\nwhat dithering costs: whole process, mean of hyperfine runs; PNG bytes\n")
    cost = ["| scene | time dithered / not | instructions dithered / not | PNG bytes dithered / not |", "|---|---|---|---|"]
    print("\n".join(cost))
    big, _, _, _ = slow_gradient_inputs("linear", (4096, 4096))
    gallery, _ = gradient_inputs()
    for name, scene in [("gradient gallery @2x", gallery), ("4096×4096 slow linear gradient", big),
                        ("dark background example (720×450)", os.path.join(ROOT, "examples", "dark-background.scene.xml"))]:
        row_t, row_i, row_b = [], [], []
        for extra in [[], ["--dither", "no"]]:
            png = os.path.join(OUT, "dither-cost.png")
            cmd = [args.easel, "render", scene, "-o", png] + extra
            row_t.append(hyperfine(cmd, args.runs))
            row_i.append(instructions(cmd))
            row_b.append(os.path.getsize(png))
        ms = lambda x: f"{x * 1000:.1f}" if x else "–"
        mi = lambda x: f"{x / 1e6:.0f} M" if x else "–"
        row = f"| {name} | {ms(row_t[0])} / {ms(row_t[1])} ms | {mi(row_i[0])} / {mi(row_i[1])} | {row_b[0]:,} / {row_b[1]:,} |"
        print(row, flush=True)
        cost.append(row)

    # Every example's PNG, dithered and not.
    totals = [0, 0]
    for scene in sorted(glob.glob(os.path.join(ROOT, "examples", "*.scene.xml"))):
        for i, extra in enumerate([[], ["--dither", "no"]]):
            png = os.path.join(OUT, "dither-example.png")
            subprocess.run([args.easel, "render", scene, "-o", png] + extra, check=True, stdout=subprocess.DEVNULL)
            totals[i] += os.path.getsize(png)
    row = f"| all {len(glob.glob(os.path.join(ROOT, 'examples', '*.scene.xml')))} examples (PNG) | | | {totals[0]:,} / {totals[1]:,} |"
    print(row)
    cost.append(row)
    with open(os.path.join(OUT, "dither.md"), "w") as f:
        f.write("\n".join(quality) + "\n\n" + "\n".join(cost) + "\n")


if __name__ == "__main__":
    main()
