"""How long the workbench takes to answer a designer's questions, and the default bots' ladders.

    python benchmarks/bench_workbench.py [--only price,sweep,sprt,ladder] [--workers 1] [--seed 1]

- price: the cost to print on a new 5-cell patch (added by a variant), greedy bots, the default run:
  play until the price is decided within 1 button (at most 8,000 games per value);
- sweep: starting_buttons=3..8 with greedy bots, 400 games per point;
- sprt: `balance --sprt score` of +10 starting buttons and of an identical variant, greedy bots;
- ladder: random, greedy and mcts:200 on every time-track edition (the README's table).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from toolkit.bots.registry import parse_bot
from toolkit.sim.botspec import seat_bots
from toolkit.specs import load_edition
from toolkit.workbench import ladder, price, sprt, sweep

NEW_PATCH = ("kind: variant\nname: new-patch\ntitle: Patchwork with a new 5-cell patch\nextends: classic\n"
             "add_patches:\n  - {id: N01, shape: '##./.##/..#', cost: 3, time: 3, income: 1}\n")
EDITIONS = ("classic", "classic-revised", "christmas", "anniversary", "express")


def bench_price(folder: Path, seed: int, workers: int) -> None:
    path = folder / "new-patch.yaml"
    path.write_text(NEW_PATCH)
    edition = load_edition(str(path))
    values = price.check(edition, "N01", "cost", "0..10")
    request = price.PriceRequest(edition, "N01", "cost", values, seat_bots("greedy,greedy", edition), price.MAX_GAMES // 2,
                                 seed)
    started = time.perf_counter()
    body, plays = price.run(request, workers, None)
    elapsed = time.perf_counter() - started
    fair, stopping = body["fair"], body["stopping"]
    played = sum(v["games"] for v in body["values"]) + stopping["games"]
    print(f"price N01 (5 cells, printed cost 3, time 3, income 1), the default run: print {fair['print']} "
          f"(decided: {fair['decided']}), fair cost {fair['estimate']} [{fair['low']}, {fair['high']}] after "
          f"{stopping['games']} games per value; {elapsed:.1f} s for {played} games", flush=True)


def bench_sweep(seed: int, workers: int) -> None:
    base = load_edition("classic")
    points = [{"starting_buttons": b} for b in range(3, 9)]
    started = time.perf_counter()
    rows, played = sweep.run(base, points, seat_bots("greedy,greedy", base), seed, 200, workers, None)
    elapsed = time.perf_counter() - started
    from toolkit.stats import num

    margins = ", ".join(f"{r['set']['starting_buttons']}: {num(r['figures']['margin']['seat0_minus_seat1'])}"
                        for r in rows)
    print(f"sweep starting_buttons=3..8, greedy,greedy, 400 games per point: {elapsed:.1f} s; seat 0 margin "
          f"(95%, the deal as the unit) {margins}", flush=True)


def bench_sprt(folder: Path, seed: int, workers: int) -> None:
    rich = folder / "rich.yaml"
    rich.write_text("kind: variant\nname: rich\ntitle: 15 buttons\nextends: classic\nstarting_buttons: 15\n")
    same = folder / "same.yaml"
    same.write_text("kind: variant\nname: same\ntitle: 5 buttons\nextends: classic\nstarting_buttons: 5\n")
    for figure in ("score", "seat-win"):
        started = time.perf_counter()
        _, outcome, verdicts, _ = sprt.balance(["classic", str(rich), str(same)], "greedy,greedy", 4000, seed, workers,
                                               None, 1, "normal", figure, None, 0.05, 0.05)
        elapsed = time.perf_counter() - started
        calls = "; ".join(f"{name}: {v['decision']} after {v['games']} games" for name, v in zip(("+10 buttons", "identical"), verdicts))
        print(f"balance --sprt {figure}, greedy,greedy (at most 4000 games): {calls}; {elapsed:.1f} s", flush=True)


def bench_ladder(seed: int, workers: int, games: int, mcts: str) -> None:
    for name in EDITIONS:
        edition = load_edition(name)
        bots = [parse_bot(b, edition.family) for b in ("random", "greedy", mcts)]
        started = time.perf_counter()
        wins, _ = ladder.run(edition, bots, seed, games // 2, workers, None)
        rows = ladder.ratings([b.label for b in bots], wins)
        elapsed = time.perf_counter() - started
        text = " | ".join(f"{r['bot']} {r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]" for r in rows)
        print(f"ladder {name}, {games} games per pair: {text}; {elapsed:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="price,sweep,sprt,ladder")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ladder-games", type=int, default=200, help="games per pair (even)")
    parser.add_argument("--mcts", default="mcts:200")
    args = parser.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "sprt" in only:
            bench_sprt(folder, args.seed, args.workers)
        if "sweep" in only:
            bench_sweep(args.seed, args.workers)
        if "price" in only:
            bench_price(folder, args.seed, args.workers)
        if "ladder" in only:
            bench_ladder(args.seed, args.workers, args.ladder_games, args.mcts)


if __name__ == "__main__":
    main()
