"""Audit of balance and simulate's answers: are they right at their stated error rates?

    python benchmarks/audit_balance.py            # the full audit (about 40 minutes on one core)
    python benchmarks/audit_balance.py --quick    # a smaller one (about 6 minutes)

1. balance at its defaults on a null variant. The null variant is classic with one patch (P05)
   listed last: the same rules and patches, so the same game in distribution, but every seed deals
   another circle. Each seed runs `balance classic NULL` as a user would, with no --games: the
   sequential test on the seat 0 win rate (alpha 0.05) plays until it decides. A "different" call
   is false; so is any other figure flagged significant after Holm's adjustment.
2. The old fixed runs on the same null (200 games, the README's example before): how often a figure
   is flagged at p < 0.05 alone (the rule before) and after Holm's adjustment (the rule now).
3. Coverage of simulate's seat 0 win rate interval. A reference run on far-away deals gives the
   rate to within about +-0.5 pp; each seed's interval (a few hundred games) is checked against it,
   with the deal as the unit (now) and with games counted one by one (before). The nominal
   coverage is 95 %.

Every count is printed with its own 95 % Wilson interval over the seeds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_tune_feel import NULL_VARIANT  # noqa: E402  (the same null variant as the tune/feel audit)

from toolkit.sim import experiment  # noqa: E402
from toolkit.stats import wilson  # noqa: E402
from toolkit.workbench import sprt  # noqa: E402

BOTS = "greedy,greedy"
REFERENCE_SEED = 10**6
"""Master seed of the reference run (its deals are not any audited seed's)."""


def share(hits: int, runs: int) -> str:
    iv = wilson(hits, runs)
    return f"{hits}/{runs} = {100 * iv.estimate:.1f} % [{100 * iv.low:.1f}, {100 * iv.high:.1f}]"


def audit_sequential(null: str, seeds: int, cap: int, start: int = 0) -> None:
    started = time.perf_counter()
    calls = {"different": 0, "same": 0, "undecided": 0}
    others, games = 0, []
    for seed in range(start, start + seeds):
        request = experiment.prepare(["classic", null], BOTS, cap, seed)
        plan = sprt.plan("seat-win", None, 0.05, 0.05, request.editions[0])
        request, outcome, verdicts, _ = sprt.run_balance(request, plan)
        doc = experiment.balance_document(request, outcome, "audit")
        calls[verdicts[0]["decision"]] += 1
        games.append(request.games)
        others += any(d["difference"]["significant"] for d in doc["variants"][0]["differences"]
                      if d["metric"] != "seat0_win")
    print(f"1. balance classic NULL at the defaults (sequential, seat-win, delta 5 pp, alpha 0.05, at most {cap} "
          f"games), seeds {start}..{start + seeds - 1} ({time.perf_counter() - started:.0f} s):")
    print(f"   'different' (false): {share(calls['different'], seeds)}; 'same': {share(calls['same'], seeds)}; "
          f"undecided: {share(calls['undecided'], seeds)}")
    print(f"   another figure flagged after Holm (false): {share(others, seeds)}")
    print(f"   games per edition to decide: median {statistics.median(games):.0f}, min {min(games)}, max {max(games)}")


def audit_fixed(null: str, seeds: int, games: int) -> None:
    started = time.perf_counter()
    raw = adjusted = 0
    for seed in range(seeds):
        request = experiment.prepare(["classic", null], BOTS, games, seed)
        doc = experiment.balance_document(request, experiment.run(request), "audit")
        diffs = [d["difference"] for d in doc["variants"][0]["differences"]]
        raw += any(d["p_value"] is not None and d["p_value"] < 0.05 for d in diffs)
        adjusted += any(d["significant"] for d in diffs)
    print(f"2. balance classic NULL --games {games}, {seeds} seeds ({time.perf_counter() - started:.0f} s): "
          "a run that flags any of its 6 figures")
    print(f"   each figure at p < 0.05 alone (before): {share(raw, seeds)}")
    print(f"   Holm-adjusted over the figures (now):   {share(adjusted, seeds)}")


def seat0_interval(games: int, seed: int) -> dict:
    request = experiment.prepare(["classic"], BOTS, games, seed)
    return experiment.simulation_document(request, experiment.run(request), "audit")["figures"]["seats"][0]["win_rate"]


def audit_coverage(seeds: int, games: int, reference_games: int) -> None:
    from toolkit.stats import wilson as games_as_units

    started = time.perf_counter()
    truth = seat0_interval(reference_games, REFERENCE_SEED)
    deal = one_by_one = 0
    deffs = []
    for seed in range(seeds):
        iv = seat0_interval(games, seed)
        deal += iv["low"] <= truth["estimate"] <= iv["high"]
        old = games_as_units(round(iv["estimate"] * games), games)
        one_by_one += old.low <= truth["estimate"] <= old.high
        deffs.append(iv["design_effect"])
    print(f"3. simulate classic --bots {BOTS}: seat 0 win rate, {seeds} seeds x {games} games against a reference of "
          f"{reference_games} games ({100 * truth['estimate']:.2f} % [{100 * truth['low']:.2f}, {100 * truth['high']:.2f}]; "
          f"{time.perf_counter() - started:.0f} s):")
    print(f"   coverage, the deal as the unit (now):      {share(deal, seeds)}")
    print(f"   coverage, games one by one (before):       {share(one_by_one, seeds)}")
    print(f"   design effect: median {statistics.median(deffs):.2f}, min {min(deffs):.2f}, max {max(deffs):.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and games (about 6 minutes)")
    parser.add_argument("--only", choices=("sequential", "fixed", "coverage"), help="run one part only")
    parser.add_argument("--seeds", type=int, help="seeds of each part run (default: 40, 200 and 100; quick 8, 40, 30)")
    parser.add_argument("--start", type=int, default=0, help="first seed of the sequential part (to split it "
                        "between processes; the counts of the parts add up)")
    args = parser.parse_args(argv)
    sizes = dict(seq=8, fixed=40, cov=30, cov_games=400, ref=8000) if args.quick else \
        dict(seq=40, fixed=200, cov=100, cov_games=400, ref=40000)
    if args.seeds is not None:
        if args.seeds < 1:
            parser.error("--seeds must be at least 1")
        sizes.update(seq=args.seeds, fixed=args.seeds, cov=args.seeds)
    with tempfile.TemporaryDirectory() as folder:
        null = Path(folder) / "classic-p05-last.yaml"
        null.write_text(NULL_VARIANT)
        if args.only in (None, "sequential"):
            audit_sequential(str(null), sizes["seq"], 20000, args.start)
        if args.only in (None, "fixed"):
            audit_fixed(str(null), sizes["fixed"], 200)
        if args.only in (None, "coverage"):
            audit_coverage(sizes["cov"], sizes["cov_games"], sizes["ref"])


if __name__ == "__main__":
    main()
