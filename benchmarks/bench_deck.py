"""Custom-deck benchmark: polyomino enumeration, the classic pricing fit, generating and checking
a 33-patch deck, and the pentomino packing counts.

Run: python benchmarks/bench_deck.py [--skip-check] [--seed S]
Prints one line per measurement with wall and CPU seconds (the machine may be shared, so CPU
time is the steadier figure). The check uses the default matchups of `patchwork deck check`:
greedy vs greedy (400 games) and greedy vs mcts:200 (40 games), each on the base and the deck.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from toolkit.decks.deck import load_deck, polyomino_deck
from toolkit.decks.generate import Request, generate, render_files
from toolkit.decks.model import fit_deck
from toolkit.geometry.cover import Packer, Piece
from toolkit.geometry import enumerate as enum
from toolkit.workbench.deckcheck import DEFAULT_GAMES, DEFAULT_MATCHUPS, check


def timed(action):
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-check", action="store_true", help="Leave out the bot play-test.")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    for n in range(1, 11):
        wall, cpu, shapes = timed(lambda: enum.free_polyominoes(n))
        print(f"free {n:>2}-ominoes: {len(shapes):>5} in {wall:6.2f} s wall, {cpu:6.2f} s CPU "
              f"(fixed {enum.fixed_count(n)}, one-sided {enum.one_sided_count(n)})")

    wall, cpu, fit = timed(lambda: fit_deck(load_deck("classic")))
    print(f"classic fit: R2 {fit.r2:.3f} (adjusted {fit.adjusted_r2:.3f}), residual SD {fit.residual_sd:.2f}, "
          f"{fit.cv.text()} (MAE {fit.cv_mae:.2f}); {cpu:.2f} s CPU")
    off = fit.off_model()
    print("  priced off the model (Holm, 5 %): " + (", ".join(f"{p.id} t {p.studentised:+.2f}" for p in off) or "none"))
    print("  largest residuals (a ranking, not a test): "
          + ", ".join(f"{p.id} {p.residual:+.2f}" for p in fit.over_priced(3) + fit.under_priced(3)))

    with tempfile.TemporaryDirectory() as folder:
        out, variant = Path(folder) / "bench-deck.yaml", Path(folder) / "bench-deck-variant.yaml"

        def make():
            files = render_files(generate(Request("classic", 33, args.seed)), out, variant)
            out.write_text(files.deck_text)
            variant.write_text(files.variant_text)
            return files

        wall, cpu, _ = timed(make)
        print(f"generate 33 patches like classic (seed {args.seed}): {wall:.2f} s wall, {cpu:.2f} s CPU")
        if not args.skip_check:
            matchups = list(zip(DEFAULT_MATCHUPS, DEFAULT_GAMES))
            wall, cpu, report = timed(lambda: check(str(variant), "classic", matchups, args.seed))
            print(f"check it ({', '.join(f'{b} x{g}' for b, g in matchups)}, base and deck): "
                  f"{wall:.1f} s wall, {cpu:.1f} s CPU; {len(report.out_of_band())} of 33 patches "
                  f"outside ±{report.band}")

    pieces = [Piece(p.id, p.shape) for p in polyomino_deck(5).patches]
    for width, height in ((20, 3), (15, 4), (12, 5), (10, 6)):
        wall, cpu, result = timed(lambda: Packer(pieces, width, height).count())
        print(f"pentominoes on {width}x{height}: {result.total} fills, {result.up_to_symmetry} up to "
              f"symmetry; {wall:.2f} s wall, {cpu:.2f} s CPU")
    wall, cpu, result = timed(lambda: Packer(pieces, 10, 6).count(symmetry=False))
    print(f"pentominoes on 10x6 without symmetry breaking: {result.total} fills; {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
