#!/usr/bin/env python3
"""Shaping time against a label's length: it must grow linearly, pathological
text included (docs/security.md; EaselParse/StreamSafeText.swift).

For each kind of text, one <text> label of L characters for several L is
compiled with `easel check` (parse, layout, shaping — no painting); the
time per character should stay flat as L doubles. Kinds: Latin words; one
letter with every combining mark after it (a pathological cluster, 135 s
at 100,000 marks before marks per character were bounded); bidirectional
control runs (RLE/LRE/RLO/PDF nesting with Hebrew and Latin); scripts that
need font fallback (CJK, Devanagari, Arabic, Thai — glyphs the scene's font
lacks); and Zalgo-style text (each letter with 40 marks) — each wrapped at
400 points (a text without a width may have 10,000 characters on a line:
Pango 1.50 lays out a line's runs in quadratic time). Prints a table;
`--markdown` writes it for the README. Usage:
  bench/shaping.py [--easel PATH] [--runs 3]
"""
import argparse, os, random, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LENGTHS = [20_000, 40_000, 80_000, 160_000]


def text(kind, n):
    rnd = random.Random(7)
    if kind.startswith("latin words"):
        words = ["gradient", "stripes", "card", "angle", "easel", "scene", "render", "the", "of", "a"]
        out = []
        while sum(map(len, out)) + len(out) < n:
            out.append(rnd.choice(words))
        return " ".join(out)[:n]
    if kind == "one letter, every mark on it":
        return "a" + "\u0301" * (n - 1)
    if kind == "zalgo (40 marks a letter)":
        marks = [chr(c) for c in range(0x300, 0x370)]
        unit = lambda: "z" + "".join(rnd.choice(marks) for _ in range(40))
        return "".join(unit() for _ in range(n // 41))
    if kind == "bidi control runs":
        pieces = ["\u202b", "\u202a", "\u202e", "\u202d", "\u202c", "\u200f", "\u200e", "שלום", "abc", " "]
        out = "".join(rnd.choice(pieces) for _ in range(n))
        return out[:n]
    if kind == "font fallback (CJK, Devanagari, Arabic, Thai)":
        pool = "漢字かなカナ한글नमस्तेمرحباสวัสดี"
        return "".join(rnd.choice(pool) for _ in range(n))
    raise ValueError(kind)


KINDS = ["latin words", "one letter, every mark on it", "zalgo (40 marks a letter)", "bidi control runs",
         "font fallback (CJK, Devanagari, Arabic, Thai)"]


def best(easel, path, runs):
    t = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([easel, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t = min(t, time.perf_counter() - start)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--easel", default=os.path.join(ROOT, ".build", "release", "easel"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.scene.xml")
        with open(path, "w") as f:
            f.write('<scene width="10" height="10"/>')
        empty = best(args.easel, path, args.runs)
        header = "| text | " + " | ".join(f"{n // 1000}k chars" for n in LENGTHS) + " | growth, 8× the text |"
        print(f"start-up (empty scene): {empty * 1000:.0f} ms; time in ms, then µs per character")
        print(header)
        print("|---" * (len(LENGTHS) + 2) + "|")
        for kind in KINDS:
            cells, times = [], []
            for n in LENGTHS:
                body = text(kind, n).replace("&", "&amp;").replace("<", "&lt;")
                with open(path, "w", encoding="utf-8") as f:
                    # One cluster cannot wrap; everything else wraps at 400 pt, as
                    # a text longer than 10,000 characters on a line must.
                    width = "" if kind.startswith("one letter") else ' width="400"'
                    f.write(f'<scene width="400" height="100"><text{width} font="DejaVu Sans 12">{body}</text></scene>')
                t = best(args.easel, path, args.runs) - empty
                times.append(t)
                cells.append(f"{t * 1000:.0f} ms ({t / n * 1e6:.2f} µs)")
            print(f"| {kind} | " + " | ".join(cells) + f" | {times[-1] / max(times[0], 1e-9):.1f}× |", flush=True)


if __name__ == "__main__":
    main()
