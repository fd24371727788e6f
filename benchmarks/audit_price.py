"""Audit of `patchwork price`: is the price it prints right at its stated error rate?

    python benchmarks/audit_price.py                  # the coverage audit of P05 (about 25 CPU-minutes)
    python benchmarks/audit_price.py --quick          # a smaller one (about 6 CPU-minutes)
    python benchmarks/audit_price.py --defaults 4     # also 4 runs of the default command (about 3 CPU-minutes each)

1. Coverage over seeds. The patch's cost is played at every value of --values and the reference
   on one long block of deals (greedy bots, seed 0 of this audit). The first --truth-deals deals
   give the fair value to within a few tenths of a button (the "truth"); the rest are cut into
   --runs disjoint blocks of --deals-per-run deals, each a run of its own as `price --games`
   would play it (one look at 95 %; deals are independent whatever their seed). For each run: does
   its interval hold the truth (nominal 95 %), is its printed cost within 1 button of it, and is
   it decided.
2. Defaults. `patchwork price classic PATCH` exactly as the README shows it, on seeds 1..N: the
   price printed, whether it is decided, the games it took, and the same printed costs for a
   coarse step (0..12:3) and a narrow range (2..6), which must agree within 1 button.

Every rate is printed with its own 95 % Wilson interval over the runs.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from toolkit.sim.botspec import seat_bots
from toolkit.specs import load_edition
from toolkit.stats import wilson
from toolkit.workbench import price, runner
from toolkit.workbench.advantage import Advantage, advantage_by_deal

BOTS = "greedy,greedy"
AUDIT_SEED = 0


def play_block(patch: str, values: tuple[int, ...], deals: int, workers: int, cache: Path | None) -> dict:
    """Per value, the per-deal purchases and advantages of deals 0..deals (cached as .npz)."""
    if cache is not None and cache.exists():
        data = np.load(cache)
        if int(data["deals"]) >= deals and tuple(data["values"]) == values:
            return {int(v): Advantage(data[f"b{v}"][:deals], data[f"m{v}"][:deals], data[f"w{v}"][:deals]) for v in values}
    edition = load_edition("classic")
    seating = seat_bots(BOTS, edition)
    request = price.PriceRequest(edition, patch, "cost", values, seating, deals, AUDIT_SEED, True)
    eds = (price.reference(request), *(price.at(request, v) for v in values))
    played = runner.play(eds, seating, AUDIT_SEED, 0, deals, workers, None, watch=patch)
    out = {}
    for k, v in enumerate(values, start=1):
        out[v] = advantage_by_deal(played.per_game[k], played.per_game[0], played.per_deal)
    if cache is not None:
        np.savez_compressed(cache, deals=deals, values=np.array(values),
                            **{f"{p}{v}": getattr(a, f) for v, a in out.items()
                               for p, f in (("b", "bought"), ("m", "margin"), ("w", "win"))})
    return out


def block(advantages: dict, start: int, stop: int) -> list[Advantage]:
    return [Advantage(a.bought[start:stop], a.margin[start:stop], a.win[start:stop]) for a in advantages.values()]


def coverage(args) -> None:
    values = tuple(range(args.low, args.high + 1))
    total = args.truth_deals + args.runs * args.deals_per_run
    started = time.perf_counter()
    adv = play_block(args.patch, values, total, args.workers, Path(args.cache) if args.cache else None)
    print(f"played {len(values) + 1} editions x {2 * total:,} games in {time.perf_counter() - started:.0f} s")
    xs = np.array(values)
    truth = price.fair_value(xs, block(adv, 0, args.truth_deals), AUDIT_SEED)
    t = truth["estimate"]
    print(f"truth ({2 * args.truth_deals:,} games a value, deals 0..{args.truth_deals - 1}): fair cost {t} "
          f"[{truth['low']}, {truth['high']}], print {truth['print']}")
    hits = near = decided = decided_near = 0
    widths, prints = [], []
    for r in range(args.runs):
        start = args.truth_deals + r * args.deals_per_run
        run = block(adv, start, start + args.deals_per_run)
        fair = price.fair_value(xs, run, r)
        low = -np.inf if fair["low"] is None else fair["low"]
        high = np.inf if fair["high"] is None else fair["high"]
        hits += low <= t <= high
        ok = fair["print"] is not None and abs(fair["print"] - t) <= 1
        near += ok
        decided += fair["decided"]
        decided_near += fair["decided"] and ok
        widths.append(high - low)
        prints.append(fair["print"])
        print(f"  run {r:2d}: print {fair['print']}, fair {fair['estimate']} [{fair['low']}, {fair['high']}], "
              f"decided {fair['decided']}", flush=True)
    n = args.runs
    rate = lambda k, m: f"{k}/{m} = {100 * k / m:.0f} % [{100 * wilson(k, m).low:.0f}, {100 * wilson(k, m).high:.0f}]"  # noqa: E731
    print(f"\nP{args.patch[1:]} at {2 * args.deals_per_run:,} games a value (one look, values {args.low}..{args.high}), "
          f"{n} runs on disjoint deals:")
    print(f"  interval holds the truth ({t}):       {rate(hits, n)} (nominal 95 %)")
    print(f"  printed cost within 1 button of it:   {rate(near, n)}")
    print(f"  decided within 1 button:              {rate(decided, n)}; of those within 1 button: "
          f"{rate(decided_near, decided) if decided else 'n/a'}")
    finite = [w for w in widths if np.isfinite(w)]
    print(f"  interval width: median {statistics.median(finite) if finite else float('nan'):.2f} buttons "
          f"({len(finite)} of {n} finite); printed costs {sorted(p for p in prints if p is not None)}")


def defaults(args) -> None:
    rows = []
    for seed in range(1, args.defaults + 1):
        row = {"seed": seed}
        for label, values in (("default", None), ("0..12:3", "0..12:3"), ("2..6", "2..6")):
            if label != "default" and not args.grids:
                continue
            cmd = [sys.executable, "-m", "toolkit", "price", "classic", args.patch, "--seed", str(seed), "--json",
                   "--no-progress", "--workers", str(args.workers)]
            if values:
                cmd += ["--values", values]
            started = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            doc = _first_json(out)
            fair = doc["fair"]
            row[label] = {"print": fair["print"], "decided": fair["decided"], "estimate": fair["estimate"],
                          "low": fair["low"], "high": fair["high"], "games": doc["stopping"]["games"],
                          "seconds": round(time.perf_counter() - started)}
            print(f"  seed {seed} {label:8s}: print {fair['print']} decided {fair['decided']} fair {fair['estimate']} "
                  f"[{fair['low']}, {fair['high']}] after {doc['stopping']['games']:,} games a value "
                  f"({row[label]['seconds']} s)", flush=True)
        rows.append(row)
    prints = [[r[k]["print"] for k in ("default", "0..12:3", "2..6") if k in r] for r in rows]
    agree = sum(max(p) - min(p) <= 1 for p in prints if None not in p)
    print(f"\ndefault runs: decided {sum(r['default']['decided'] for r in rows)}/{len(rows)}, printed "
          f"{[r['default']['print'] for r in rows]}, games a value {[r['default']['games'] for r in rows]}")
    if args.grids:
        print(f"grids 0..10, 0..12:3 and 2..6 print within 1 button of each other in {agree}/{len(rows)} seeds")


def _first_json(text: str) -> dict:
    """The JSON document `--json` prints before the table."""
    depth, start = 0, text.index("{")
    for i, ch in enumerate(text[start:], start):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0:
            return json.loads(text[start:i + 1])
    raise ValueError("no JSON document in the output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--patch", default="P05")
    parser.add_argument("--low", type=int, default=0)
    parser.add_argument("--high", type=int, default=8)
    parser.add_argument("--runs", type=int, default=24)
    parser.add_argument("--deals-per-run", type=int, default=600, help="deals of one audited run (twice as many games)")
    parser.add_argument("--truth-deals", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cache", default=None, help="an .npz file keeping the played block between runs of the audit")
    parser.add_argument("--quick", action="store_true", help="10 runs and a 3,000-deal truth")
    parser.add_argument("--defaults", type=int, default=0, help="also run the default command on seeds 1..N")
    parser.add_argument("--grids", action="store_true", help="with --defaults: also the values 0..12:3 and 2..6")
    parser.add_argument("--no-coverage", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.truth_deals = 10, 3000
    if not args.no_coverage:
        coverage(args)
    if args.defaults:
        defaults(args)


if __name__ == "__main__":
    main()
