"""Timings of the geometry the engines lean on: placement tables, legality, filled squares and
the Doodle best rectangle. Prints figures; run with `python benchmarks/bench_geometry.py`."""
from __future__ import annotations

import random
import time
from pathlib import Path

import yaml

from toolkit.geometry import Board, Shape, best_rectangle, has_filled_square, legal_placements, placements
from toolkit.geometry.board import placement_array

REFERENCE = Path("/work/shared/reference/patchwork-classic.yaml")


def per_second(label: str, fn, items) -> None:
    start = time.perf_counter()
    for item in items:
        fn(item)
    elapsed = time.perf_counter() - start
    print(f"{label:<48} {len(items) / elapsed:>12,.0f} /s   ({elapsed * 1e6 / len(items):8.1f} us each)")


def random_masks(board: Board, count: int, density: float, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [
        sum(1 << i for i in range(board.cells) if rng.random() < density) for _ in range(count)
    ]


def main() -> None:
    board = Board(9, 9)
    shapes = [Shape.parse(p["shape"]) for p in yaml.safe_load(REFERENCE.read_text())["patches"]]

    start = time.perf_counter()
    total = sum(len(placements(s, board)) for s in shapes)
    for s in shapes:
        placement_array(s, board)
    print(f"classic placement tables (33 patches, 9x9): {total} placements,"
          f" built in {(time.perf_counter() - start) * 1e3:.1f} ms")

    masks = random_masks(board, 2000, 0.6, seed=1)
    per_second("legal_placements (all 33 patches, 60% full)",
               lambda m: [legal_placements(s, board, m) for s in shapes], masks[:200])
    per_second("has_filled_square k=7 (random 9x9)", lambda m: has_filled_square(m, board, 7), masks)
    for density in (0.5, 0.8, 0.95):
        dense = random_masks(board, 2000, density, seed=2)
        per_second(f"best_rectangle 9x9, {int(density * 100)}% covered",
                   lambda m: best_rectangle(m, board), dense)
    big = Board(16, 16)
    per_second("best_rectangle 16x16, 80% covered",
               lambda m: best_rectangle(m, big), random_masks(big, 500, 0.8, seed=3))
    per_second("best_rectangle 9x9 full board", lambda m: best_rectangle(m, board), [board.full_mask] * 2000)


if __name__ == "__main__":
    main()
