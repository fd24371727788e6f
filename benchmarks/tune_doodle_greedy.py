"""Tune the Doodle fast tier's weights on seeded solo games, without recompiling per trial.

    .venv/bin/python benchmarks/tune_doodle_greedy.py [--games 400] [--seed 7]
        [--set G_NAME=value ...] [--try G_NAME=v1,v2,... | --try G_A=x+G_B=y] [--repeat N]

The compiled turn loop (toolkit.families.doodle.loop) runs `choose_greedy`, whose weights are a
compile-time constant; editing them recompiles every kernel. Here the weights are an argument of
a small loop of its own, so each trial only plays. `--set` changes the base weights (by G_* name);
each `--try` value (or `+`-joined group of changes) is one trial against that base, on the same deals (game i seeded by
derive_seed(seed, i), as bench_doodle_bots.py does). Tune on seeds other than 1 and confirm with
bench_doodle_bots.py on seed 1, so the published figure is not fitted to its own games.
Figures only; nothing here is asserted.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from toolkit.bots.doodle import greedy as G
from toolkit.games.doodle import kernel as dk
from toolkit.games.rng import derive_seed
from toolkit.jit import njit
from toolkit.specs import load_edition


@njit(cache=True)
def _solo_loop(tables, aux, game_rngs, gw, score, round_scores, empty):
    act = np.zeros(dk.NA, dtype=np.int64)
    bot_rng = np.zeros(4, dtype=np.int64)
    for g in range(game_rngs.shape[0]):
        st, occ = dk.new_state(tables, 1, game_rngs[g])
        while st[dk.S_PHASE] != dk.PH_OVER:
            G.choose_greedy_weighted(tables, aux, st, occ, bot_rng, act, gw)
            dk.apply_action(tables, st, occ, act)
        final = dk.final_scores(tables, st, occ)
        score[g] = final[0]
        for r in range(round_scores.shape[1]):
            round_scores[g, r] = st[st[dk.S_ROUND_SCORES_AT] + r]
        empty[g] = dk.empty_cells(tables, st, occ, 0)


def trial(tables, aux, words, gw):
    n = words.shape[0]
    score = np.zeros(n, dtype=np.int64)
    rounds = np.zeros((n, 3), dtype=np.int64)
    empty = np.zeros(n, dtype=np.int64)
    cpu = time.process_time()
    _solo_loop(tables, aux, words, gw, score, rounds, empty)
    cpu = time.process_time() - cpu
    return score, rounds, empty, cpu


def weight_index(name: str) -> int:
    index = getattr(G, name if name.startswith("G_") else "G_" + name.upper(), None)
    if not isinstance(index, int):
        raise SystemExit(f"no weight named {name}")
    return index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--set", action="append", default=[], help="G_NAME=value: change the base weights")
    parser.add_argument("--try", dest="trials", action="append", default=[], help="G_NAME=v1,v2,...: one trial per value")
    parser.add_argument("--repeat", type=int, default=1,
                        help="play every trial this many times, interleaved, and report the median and best rate"
                             " (the machine's load moves single timings by a third)")
    args = parser.parse_args()
    tables = dk.build_tables(load_edition("doodle"))
    aux = G.greedy_tables(tables)
    base = G.GREEDY_WEIGHTS.copy()
    for item in args.set:
        name, value = item.split("=")
        base[weight_index(name)] = float(value)
    words = dk.game_rng_words([derive_seed(args.seed, i) for i in range(args.games)])
    trial(tables, aux, words[:1], base)  # load (or compile) before timing
    runs = [("base", base)]
    for item in args.trials:
        if "+" in item:
            # One trial changing several weights together: A=1+B=2.
            gw = base.copy()
            for part in item.split("+"):
                name, value = part.split("=")
                gw[weight_index(name)] = float(value)
            runs.append((item, gw))
            continue
        name, values = item.split("=")
        for value in values.split(","):
            gw = base.copy()
            gw[weight_index(name)] = float(value)
            runs.append((f"{name}={value}", gw))
    cpus = [[] for _ in runs]
    results = [None] * len(runs)
    for _ in range(args.repeat):
        for i, (_, gw) in enumerate(runs):
            results[i] = trial(tables, aux, words, gw)
            cpus[i].append(results[i][3])
    ref = None
    for (label, gw), (score, rounds, empty, _), cpu in zip(runs, results, cpus):
        diff = "" if ref is None else f", paired diff {np.mean(score - ref):+.2f} (se {np.std(score - ref, ddof=1) / len(score) ** 0.5:.2f})"
        if ref is None:
            ref = score
        rs = " / ".join(f"{x:.1f}" for x in rounds.mean(axis=0))
        print(f"{label}: mean {score.mean():.2f}{diff}; rounds {rs}, empty {empty.mean():.2f};"
              f" {len(score) / np.median(cpu):,.0f} games per CPU-second (best {len(score) / min(cpu):,.0f})",
              flush=True)


if __name__ == "__main__":
    main()
