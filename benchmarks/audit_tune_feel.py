"""Do `patchwork feel` and `patchwork tune` hold at their stated error rates? An audit over seeds.

    .venv/bin/python benchmarks/audit_tune_feel.py [--quick] [--feel-seeds N] [--feel-games N]
                                                  [--tune-seeds N] [--tune-games N] [--reference-games N]

1. feel's family-wise false-claim rate. The null variant is classic with one patch (P05) listed last:
   the same rules and patches, so the same game in distribution, but every seed deals a different
   circle (a literal copy would replay the base's games move for move and every paired difference
   would be 0). Each seed runs feel on classic and the null variant; a run that names any change
   is a false claim. Holm's adjustment over the run's measures should keep the rate at 5 % or less;
   the rule feel used before (each measure at 5 % alone) is counted beside it.
2. tune's verdict on the base edition at its own measured value: P28's buy rate at its printed
   cost is measured on --reference-games games of deals no tune run plays, then each seed tunes a
   one-point space (P28 at its printed cost) toward that value with the default tolerance and
   --tune-games fresh games. The verdict should be "meets" (or "undecided", never "misses"); the
   rule tune used before (the exact target inside a games-as-units 95 % interval) is counted beside
   it, with how often each interval covers the reference value.
3. tune's re-evaluation of the best point's neighbours: P28's cost and time (8 x 7 points) tuned
   toward the base edition's buy rate 0.496 with the same budget, once with no re-evaluation and
   once with tune's default (a quarter of the budget); both chosen points are measured on the same
   fresh deals, and the distance of each from the target is printed per seed.

Greedy bots throughout (the family's balance bots), one worker process.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from toolkit.specs import load_edition
from toolkit.stats import wilson
from toolkit.workbench import feel, ntbea, runner, setpath
from toolkit.sim.botspec import seat_bots

NULL_VARIANT = """kind: variant
name: classic-p05-last
title: Patchwork with P05 listed last (the same game)
extends: classic
remove_patches: [P05]
add_patches:
  - id: P05
    cost: 2
    time: 2
    income: 0
    shape:
      - "##."
      - "###"
"""
BOTS = "greedy,greedy"
WATCH = "P28"
REFERENCE_FIRST_DEAL = 10**7
"""The reference run's first deal: far beyond every deal a tune run of this audit plays."""


def share(hits: int, runs: int) -> str:
    iv = wilson(hits, runs)
    return f"{hits}/{runs} = {100 * iv.estimate:.1f} % [{100 * iv.low:.1f}, {100 * iv.high:.1f}]"


def audit_feel(seeds: range, games: int, folder: Path) -> None:
    base = load_edition("classic")
    path = folder / "classic-p05-last.yaml"
    path.write_text(NULL_VARIANT)
    null = load_edition(str(path))
    assert sorted(p.id for p in null.all_patches()) == sorted(p.id for p in base.all_patches())
    started = time.perf_counter()
    holm_claims = raw_claims = identical = 0
    named: dict[str, int] = {}
    for seed in seeds:
        a = feel.run(base, BOTS, seed, games)
        b = feel.run(null, BOTS, seed, games)
        identical += a == b
        diffs = feel.family_adjusted([feel.differences(a, b)])[0]
        raw_claims += any(d["p_value"] is not None and d["p_value"] < feel.ALPHA for d in diffs.values())
        survivors = [name for name, d in diffs.items() if d["significant"]]
        holm_claims += bool(survivors)
        for name in survivors:
            named[name] = named.get(name, 0) + 1
    print(f"feel on a null variant (classic with P05 listed last), seeds {seeds.start}..{seeds.stop - 1} x {games} "
          f"games per edition, greedy bots ({time.perf_counter() - started:.0f} s):")
    print(f"  runs that name any change, Holm over the run's {len(diffs)} measures: {share(holm_claims, len(seeds))}")
    print(f"  runs with any measure at p < 0.05 alone (the rule before): {share(raw_claims, len(seeds))}")
    print(f"  measures named: {named or 'none'}; runs whose games equal the base's: {identical} (should be 0)")


def audit_tune(seeds: int, games: int, reference_games: int) -> None:
    base = load_edition("classic")
    seating = seat_bots(BOTS, base)
    per_deal = seating.games_per_deal
    printed = next(p.cost for p in base.all_patches() if p.id == WATCH)
    started = time.perf_counter()
    deals = reference_games // per_deal
    played = runner.play((base,), seating, 0, REFERENCE_FIRST_DEAL, REFERENCE_FIRST_DEAL + deals, watch=WATCH)
    reference = ntbea.measured(played.per_game[0], [ntbea.parse_target("buy-rate=0.5")], per_deal)["buy-rate"]
    value = reference["estimate"]
    print(f"\ntune on the base edition: {WATCH} bought in {100 * value:.2f} % [{100 * reference['low']:.2f}, "
          f"{100 * reference['high']:.2f}] of {played.games} reference games at its printed cost {printed} "
          f"(deals {REFERENCE_FIRST_DEAL}.., design effect {reference['design_effect']:.2f})")
    target = ntbea.parse_target(f"buy-rate={value:.6f}")
    setting = setpath.parse_setting(f"patches.{WATCH}.cost={printed}", base)
    verdicts: dict[str, int] = {}
    old_misses = covered = covered_old = 0
    for seed in range(seeds):
        request = ntbea.TuneRequest(base, (setting,), (target,), seating, seed, budget=1, eval_deals=50 // per_deal,
                                    final_deals=games // per_deal, watch=WATCH, refine=0)
        figure = ntbea.tune(request)["validation"]["figures"]["buy-rate"]
        verdicts[figure["verdict"]] = verdicts.get(figure["verdict"], 0) + 1
        old = wilson(round(figure["estimate"] * figure["n"]), figure["n"])
        old_misses += not old.low <= value <= old.high
        covered += figure["low"] <= value <= figure["high"]
        covered_old += old.low <= value <= old.high
    print(f"  {seeds} tune runs of {games} fresh games each, target {value:.4f} +- {target.scale:g} "
          f"({time.perf_counter() - started:.0f} s with the reference):")
    print(f"  verdicts: {', '.join(f'{k} {v}' for k, v in sorted(verdicts.items()))} (misses should be 0)")
    print(f"  the rule before (exact target inside a games-as-units interval) says misses in {share(old_misses, seeds)}")
    print(f"  the reference value inside the deal-clustered interval: {share(covered, seeds)}; "
          f"inside the games-as-units interval: {share(covered_old, seeds)}")


def audit_refine(seeds: int, budget: int, games: int) -> None:
    base = load_edition("classic")
    seating = seat_bots(BOTS, base)
    per_deal = seating.games_per_deal
    settings = tuple(setpath.parse_setting(text, base) for text in (f"patches.{WATCH}.cost=3..10",
                                                                     f"patches.{WATCH}.time=3..9"))
    target = ntbea.parse_target("buy-rate=0.496")
    started = time.perf_counter()
    print(f"\ntune of {WATCH}'s cost 3..10 and time 3..9 toward a buy rate of 0.496, {budget} evaluations of 100 "
          f"games, the chosen point on {games} fresh games (the same deals for both):")
    distance = {0: [], ntbea.default_refine(budget): []}
    for seed in range(seeds):
        line = []
        for refine in distance:
            request = ntbea.TuneRequest(base, settings, (target,), seating, seed, budget, eval_deals=100 // per_deal,
                                        final_deals=games // per_deal, watch=WATCH, refine=refine)
            body = ntbea.tune(request)
            figure = body["validation"]["figures"]["buy-rate"]
            chosen = tuple(body["best"]["set"].values())
            distance[refine].append(abs(figure["estimate"] - target.value))
            line.append(f"refine {refine}: {chosen} {100 * figure['estimate']:.1f} % ({figure['verdict']})")
        print(f"  seed {seed}: " + "; ".join(line))
    for refine, d in distance.items():
        print(f"  refine {refine}: mean distance from the target {100 * sum(d) / len(d):.2f} pp, "
              f"largest {100 * max(d):.2f} pp")
    print(f"  ({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seeds and games: a smoke run, not an audit")
    parser.add_argument("--feel-seeds", type=int, help="feel runs on the null variant (default 60; quick 8)")
    parser.add_argument("--feel-games", type=int, help="games per edition of a feel run (default 200; quick 60)")
    parser.add_argument("--tune-seeds", type=int, help="tune runs on the base edition (default 10; quick 2)")
    parser.add_argument("--tune-games", type=int, help="fresh games of a tune run (default 4000, tune's own; quick 400)")
    parser.add_argument("--reference-games", type=int, help="games measuring the reference buy rate (default 20000; "
                        "quick 2000)")
    parser.add_argument("--refine-seeds", type=int, help="seeds of the re-evaluation comparison (default 4; quick 1)")
    parser.add_argument("--refine-budget", type=int, help="evaluations of each of its searches (default 60; quick 8)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first feel seed (to extend an earlier audit)")
    parser.add_argument("--only", choices=("feel", "tune", "refine"), help="run one part of the audit")
    args = parser.parse_args()
    feel_seeds = args.feel_seeds or (8 if args.quick else 60)
    feel_games = args.feel_games or (60 if args.quick else 200)
    tune_seeds = args.tune_seeds or (2 if args.quick else 10)
    tune_games = args.tune_games or (400 if args.quick else 4000)
    reference_games = args.reference_games or (2000 if args.quick else 20000)
    refine_seeds = args.refine_seeds or (1 if args.quick else 4)
    refine_budget = args.refine_budget or (8 if args.quick else 60)
    if args.first_seed < 0:
        parser.error(f"--first-seed must be 0 or more, got {args.first_seed}")
    for name, n in (("--feel-seeds", feel_seeds), ("--feel-games", feel_games), ("--tune-seeds", tune_seeds),
                    ("--tune-games", tune_games), ("--reference-games", reference_games),
                    ("--refine-seeds", refine_seeds), ("--refine-budget", refine_budget)):
        if n < 1:
            parser.error(f"{name} must be a positive number, got {n}")
    for name, n in (("--tune-games", tune_games), ("--reference-games", reference_games)):
        if n % 2:
            parser.error(f"{name}: each deal is played twice with seats swapped, so the number must be even, got {n}")
    print(f"load average at the start: {' / '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.only in (None, "feel"):
        with tempfile.TemporaryDirectory() as folder:
            audit_feel(range(args.first_seed, args.first_seed + feel_seeds), feel_games, Path(folder))
    if args.only in (None, "tune"):
        audit_tune(tune_seeds, tune_games, reference_games)
    if args.only in (None, "refine"):
        audit_refine(refine_seeds, refine_budget, tune_games)


if __name__ == "__main__":
    main()
