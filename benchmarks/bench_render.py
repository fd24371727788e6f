"""Render benchmark: a 160-page Doodle pad, a week of Doodle challenges, PNG export and the whole
`patchwork build`: time and bytes.

Run: python benchmarks/bench_render.py [--repeat N] [--paper a4|letter]
Prints one line per measurement; each is the best of N runs (rendering is single-threaded).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from toolkit.render import RenderOptions, encode, parse_paper, render_component
from toolkit.render.build import build
from toolkit.specs import load_edition


def best_of(repeat: int, action):
    best = None
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = action()
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--paper", default="a4")
    args = parser.parse_args()
    paper = parse_paper(args.paper)
    doodle = load_edition("doodle")

    for sheets in (1, 2, 80, 160):
        options = RenderOptions(paper=paper, sheets=sheets, double_sided=True)
        seconds, data = best_of(args.repeat, lambda: encode(render_component("pad", doodle, options), "pdf", "long")[0])
        print(f"pad {sheets:>3} two-sided sheets ({2 * sheets:>3} pages): {seconds * 1000:8.1f} ms "
              f"{len(data):>9,} bytes  {len(data) / (2 * sheets):>8,.0f} bytes/page")

    week = RenderOptions(paper=paper, seed=1, count=7)
    seconds, data = best_of(args.repeat, lambda: encode(render_component("challenge", doodle, week), "pdf", "long")[0])
    print(f"challenge week (7 seeds, 14 pages, par included): {seconds:6.2f} s {len(data):>9,} bytes")

    sheet = render_component("sheet", doodle, RenderOptions(paper=paper))
    for dpi in (150, 300):
        seconds, pngs = best_of(args.repeat, lambda: encode(sheet, "png", dpi=dpi))
        print(f"score sheet as PNG at {dpi} dpi: {seconds * 1000:8.1f} ms {len(pngs[0]):>9,} bytes")

    with tempfile.TemporaryDirectory() as folder:
        seconds, written = best_of(args.repeat, lambda: build(Path(folder) / "output", paper))
        total = sum(w.size for w in written)
        pages = sum(w.pages for w in written)
        print(f"build ({args.paper}): {seconds:6.2f} s  {len(written)} files  {pages} pages  {total:,} bytes")
        for item in written:
            print(f"  {item.path.relative_to(Path(folder) / 'output')}: {item.pages} pages, {item.size:,} bytes")


if __name__ == "__main__":
    main()
