"""How long a designer's realistic questions take on this machine.

    .venv/bin/python benchmarks/bench_designer.py [--quick]

Prints wall and CPU seconds per question (every run is in this process: CPU seconds are one core's).

1. a new patch's fair value with both bot tiers (greedy 1000 games per value, mcts:200 200 games
   per value, values 0..8:2);
2. a 33-patch classic-like deck generated, checked and tuned (greedy, 4000 games a check);
3. an NTBEA search over 3 keys of classic (starting buttons, empty penalty, bonus points: 693
   points) toward seat 0 winning half the games and the bonus taken in 60 % of them (100
   evaluations of 100 greedy games, the best point measured on 2000 fresh games).
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from toolkit.cli.app import app

NEW_PATCH = ("kind: variant\nname: new-patch\ntitle: Patchwork with a new patch\nextends: classic\n"
             "add_patches:\n  - {id: N01, shape: '###/.#./.#.', cost: 3, time: 2, income: 0}\n")


def timed(label: str, *args: str) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    tail = [line for line in result.output.splitlines() if line.startswith(("fair", "DISAGREE", "tuning", "0 of", "greedy", "Best", "│"))]
    print(f"{label}: {time.perf_counter() - started:.1f} s wall, {time.process_time() - cpu:.1f} CPU-s")
    for line in tail[-4:]:
        print("   ", line)


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"load average at the start: {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (wall times are upper "
          "bounds on a busy machine; the runs are in this one process, so CPU seconds are one core's)")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "new.yaml").write_text(NEW_PATCH)
        timed("fair value of a new patch, greedy and mcts:200 tiers", "price", str(root / "new.yaml"), "N01",
              "--values", "0..8:2", "--bots", "greedy,greedy", "--bots", "mcts:200,mcts:200",
              "--games", "200" if quick else "1000", "--search-games", "20" if quick else "200", "--no-progress")
        started, cpu = time.perf_counter(), time.process_time()
        timed("  generate", "deck", "generate", "--like", "classic", "--count", "33", "--seed", "0",
              "--out", str(root / "deck.yaml"))
        timed("  check and tune", "deck", "check", str(root / "deck-variant.yaml"), "--bots", "greedy,greedy",
              "--games", "400" if quick else "4000", "--tune", "--no-progress")
        print(f"33-patch deck generated, checked and tuned: {time.perf_counter() - started:.1f} s wall, "
              f"{time.process_time() - cpu:.1f} CPU-s")
        timed("NTBEA over 3 keys", "tune", "classic", "--set", "starting_buttons=0..10", "--set", "empty_penalty=0..2",
              "--set", "bonus.points=0..20", "--target", "seat-win=0.5", "--target", "bonus=0.6",
              "--budget", "20" if quick else "100", "--games", "100", "--final-games", "400" if quick else "2000",
              "--no-progress")


if __name__ == "__main__":
    main()
