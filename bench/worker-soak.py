#!/usr/bin/env python3
"""A persistent worker serving many distinct render requests, one at a time,
as WorkerSoakTests does (Tests/EaselCLITests/WorkerSoakTests.swift), with
the figures: the heap in use, resident memory, open descriptors and threads
after each response (EASEL_WORKER_MEMORY=1), summarised as the least value
of each quarter after a warm-up (the lower envelope) and a per-request slope.

    bench/worker-soak.py [--requests 3000] [--worker .build/release/easel-worker]
                         [--formats png,pdf,svg] [--same-text] [--same-weight]
                         [--no-fresh-scenes] [--no-locales]

The switches take one kind of variety away at a time: what grows with what.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def request(args):
    m = b"".join(b"\x0a" + varint(len(a.encode())) + a.encode() for a in args)
    return varint(len(m)) + m


def read_response(stream):
    length, shift = 0, 0
    while True:
        b = stream.read(1)
        if not b:
            raise SystemExit("the worker ended")
        length |= (b[0] & 0x7F) << shift
        shift += 7
        if not b[0] & 0x80:
            break
    body = stream.read(length)
    code = 0
    if body[:1] == b"\x08":  # exit_code, a varint
        i, shift = 1, 0
        while True:
            code |= (body[i] & 0x7F) << shift
            shift += 7
            if not body[i] & 0x80:
                break
            i += 1
    return code


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--requests", type=int, default=3000)
    p.add_argument("--worker", default=os.path.join(ROOT, ".build/release/easel-worker"))
    p.add_argument("--formats", default="png,pdf,svg")
    p.add_argument("--same-text", action="store_true")
    p.add_argument("--same-weight", action="store_true")
    p.add_argument("--no-fresh-scenes", action="store_true")
    p.add_argument("--no-locales", action="store_true")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    a = p.parse_args()
    formats = a.formats.split(",")
    work = tempfile.mkdtemp(prefix="easel-worker-soak-")
    try:
        shutil.copy(os.path.join(ROOT, "Tests/Fixtures/fonts/InterVariable-Latin.ttf"), os.path.join(work, "Inter.ttf"))
        for i, colour in enumerate(["#4158d0", "#c850c0", "#ffcc70"]):
            scene = os.path.join(work, f"img{i}.scene.xml")
            with open(scene, "w") as f:
                f.write(f'<scene width="16" height="16" background="{colour}"><circle cx="8" cy="8" r="5" fill="white"/></scene>')
            # easel-worker given a command line runs it, as `easel worker` does.
            subprocess.run([a.worker, "render", scene, "-o", os.path.join(work, f"img{i}.png")], check=True)
        with open(os.path.join(work, "strings.json"), "w") as f:
            json.dump({"en": {"title": "Progress"}, "de": {"title": "Fortschritt"}, "fr": {"title": "Progrès"}}, f)

        def scene_text(image):
            return f"""<scene width="160" height="48" background="white">
  <defs><font src="Inter.ttf"/><param name="title" type="string" default="Title"/><param name="weight" type="number" default="400"/></defs>
  <image href="img{image}.png" x="4" y="8" width="32" height="32"/>
  <text x="40" y="6" width="116" font-size="14" font-family="Inter" font-variation="wght {{weight}}">{{title}}</text>
</scene>"""

        for image in range(3):
            with open(os.path.join(work, f"card{image}.scene.xml"), "w") as f:
                f.write(scene_text(image))
        log = open(os.path.join(work, "worker.log"), "w")
        env = dict(os.environ, EASEL_WORKER_MEMORY="1")
        worker = subprocess.Popen([a.worker, "--persistent_worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env)
        outside = []
        for i in range(a.requests):
            scene = f"card{i % 3}.scene.xml"
            fresh = not a.no_fresh_scenes and i % 10 == 9
            if fresh:
                scene = f"fresh{i}.scene.xml"
                with open(os.path.join(work, scene), "w") as f:
                    f.write(scene_text(i % 3))
            out = os.path.join(work, f"out{i}.{formats[i % len(formats)]}")
            weight = 500 if a.same_weight else 100 + (i * 7) % 800
            title = "Request" if a.same_text else f"Request {i} · {i:x}"
            args = ["render", os.path.join(work, scene), "-o", out, "--set", f"weight={weight}", "--set", f"title={title}"]
            if not a.no_locales and i % 4 == 1:
                args += ["--strings", os.path.join(work, "strings.json"), "--locale", "de"]
            worker.stdin.write(request(args))
            worker.stdin.flush()
            if read_response(worker.stdout) != 0:
                raise SystemExit(f"request {i} failed: see {log.name}")
            # Read from outside too, so that a worker without the report
            # (an older Easel) is measured the same way.
            with open(f"/proc/{worker.pid}/status") as status:
                rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
            outside.append((rss * 1024, len(os.listdir(f"/proc/{worker.pid}/fd")), len(os.listdir(f"/proc/{worker.pid}/task"))))
            os.remove(out)
            if fresh:
                os.remove(os.path.join(work, scene))
        worker.stdin.close()
        if os.environ.get("KEEP_LOG"): shutil.copy(log.name, os.environ["KEEP_LOG"])
        worker.wait()
        log.close()
        heap = []
        for line in open(os.path.join(work, "worker.log")):
            words = line.split()
            if "heap" in words and words[words.index("heap") + 1].lstrip("-").isdigit():
                heap.append(int(words[words.index("heap") + 1]))
        resident = [r for r, _, _ in outside]
        fds = [f for _, f, _ in outside]
        threads = [t for _, _, t in outside]
        n = len(resident)
        warm = max(n // 10, min(200, n // 2))
        quarter = (n - warm) // 4

        def floors(values):
            return [min(values[warm + q * quarter: warm + (q + 1) * quarter]) for q in range(4)] if len(values) == n else None

        hfloors, rfloors = floors(heap), floors(resident)
        slope = round((hfloors[3] - hfloors[0]) / (3 * quarter)) if hfloors and quarter else None
        figures = {"requests": a.requests, "heap_floors_kb": hfloors and [round(f / 1024) for f in hfloors],
                   "resident_floors_kb": [round(f / 1024) for f in rfloors], "heap_slope_bytes_per_request": slope,
                   "descriptors": [fds[warm], max(fds[warm:])], "threads_max": max(threads)}
        if a.json:
            print(json.dumps(figures))
        else:
            heap_text = f"heap floors {figures['heap_floors_kb']} KB (slope {slope} B a request), " if hfloors else "no heap report (an older worker), "
            print(f"{a.requests} requests: {heap_text}resident floors {figures['resident_floors_kb']} KB, "
                  f"descriptors {fds[warm]} → {max(fds[warm:])}, threads at most {max(threads)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
