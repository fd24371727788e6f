"""The bots' strength ladder through the simulator, with Wilson 95% intervals.

    python benchmarks/bench_ladder.py [--games 400] [--mcts mcts:200] [--edition classic] [--seed 1]

Rungs: greedy vs random and mcts vs greedy on the time-track edition (seat-swapped games), and
the Doodle greedy bot's solo score against the rulebook's "100+ is a good score". Targets from
the bots issue: greedy wins >= 75% against random, mcts >= 80% against greedy.
"""
from __future__ import annotations

import argparse
import time

from toolkit.sim import experiment
from toolkit.stats import num, pct


def rung(edition: str, bots: str, games: int, seed: int, workers: int) -> tuple[dict, float]:
    request = experiment.prepare([edition], bots, games, seed, workers)
    outcome = experiment.run(request)
    doc = experiment.simulation_document(request, outcome, "bench")
    return doc["figures"], outcome.elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="seat-swapped games per rung (even)")
    parser.add_argument("--mcts", default="mcts:200", help="the MCTS bot of the top rung")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--doodle-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--automa-games", type=int, default=200)
    parser.add_argument("--skip", default="", help="comma-separated rungs to skip: greedy,mcts,automa,doodle")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    targets = {"greedy": ("greedy,random", 0.75), "mcts": (f"{args.mcts},greedy", 0.80)}
    for name, (bots, target) in targets.items():
        if name in skip:
            continue
        fig, elapsed = rung(args.edition, bots, args.games, args.seed, args.workers)
        top, other = fig["bots"]
        verdict = "meets" if top["win_rate"]["estimate"] >= target else "MISSES"
        print(f"{args.edition}: {top['bot']} vs {other['bot']}, {fig['games']} seat-swapped games: "
              f"{top['bot']} wins {pct(top['win_rate'])} ({verdict} the {target:.0%} target); "
              f"mean score {num(top['mean_score'])} vs {num(other['mean_score'])}; "
              f"seat 0 wins {pct(fig['seats'][0]['win_rate'])}; {elapsed:.1f} s ({fig['games'] / elapsed:.1f} games/s)",
              flush=True)
    if "automa" not in skip:
        # The solo game: the player bot moves first against Automa at each difficulty level.
        for level in range(1, 6):
            request = experiment.prepare(["anniversary"], "greedy,automa", args.automa_games, args.seed, args.workers, None, level, "normal")
            outcome = experiment.run(request)
            fig = experiment.simulation_document(request, outcome, "bench")["figures"]
            player, automa = fig["bots"]
            print(f"anniversary: greedy vs automa level {level} (normal deck), {fig['games']} games: greedy wins "
                  f"{pct(player['win_rate'])}; mean score {num(player['mean_score'])} vs {num(automa['mean_score'])}",
                  flush=True)
    if "doodle" not in skip:
        fig, elapsed = rung("doodle", "greedy", args.doodle_games, args.seed, args.workers)
        s = fig["score_summary"]
        print(f"doodle: greedy solo, {fig['games']} games: mean score {num(fig['score'])}, "
              f"min {s['min']} q1 {s['q1']} median {s['median']} q3 {s['q3']} max {s['max']}; "
              f"100 or more in {pct(fig['score_100_or_more'])}; {elapsed:.1f} s ({fig['games'] / elapsed:.1f} games/s)",
              flush=True)


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - started:.1f} s")
