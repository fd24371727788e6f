"""How often the test suite's shortened statistical tests would fail on a correct toolkit, over seeds.

Two of the suite's tests play fewer games than they once did; each docstring states its error rate
from the figures this script prints:

`tune`: tests/test_deck_generate.py's tune test. Classic's patches with P21 and P09 made three
buttons cheaper (greedy bots), tuned for up to five rounds. Per seed it records whether each of the
test's checks holds:

- recovered: both planted patches end within one button of their printed cost;
- only out of band moved: every change was of a patch significantly out of band before its round;
- others stay: no other patch's cost moved;
- not worse: the patches significantly out of band in some check of the tuning (a base patch out
  from round 0 left out: tuning may not move it) are no further outside the band at the end than
  at the start, each measured in both checks (the tuner's judgement of a round, over the whole
  tuning; it used to count the patches out at the end against round 0, and one base patch reaching
  significance at the end failed a seed whose planted patches had come back);

and, for each planted patch in round 0, its Holm-adjusted p and its z beyond the band edge (the
stronger of its tests): how far from a miss its detection was.

`twin`: tests/test_workbench_price.py's twin test. P05 with income 1 against classic's P05,
priced over its cost: how often the better twin's fair value does not come out higher, and the
spread of the two estimates.

`crossing`: tests/test_workbench_price.py's crossing-above test. P16 (printed at 0) priced over
cost 0..2 with greedy bots: the run must find the buyer still gaining at 2 and add values above
the range. Per seed: the values it played, the fair cost's status, and whether the test's checks
hold.

Each prints one row a seed and, per game count, how many seeds failed:

    .venv/bin/python benchmarks/audit_test_error_rates.py tune --games 800,1600 --seeds 0..7
    .venv/bin/python benchmarks/audit_test_error_rates.py twin --games 600 --seeds 0..19
    .venv/bin/python benchmarks/audit_test_error_rates.py crossing --games 400 --seeds 0..19
"""
from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from pathlib import Path

PLANTED = {"P21": -3, "P09": -3}


def _moved_deck(folder: Path, moves: dict[str, int]) -> Path:
    """Classic's patches as a patch set with some costs moved, and a variant that uses it (as the test's)."""
    from toolkit.decks.generate import patch_set_text
    from toolkit.specs import load_edition

    classic = load_edition("classic")
    patches = [replace(p, cost=p.cost + moves.get(p.id, 0)) for p in classic.patches]
    (folder / "moved.yaml").write_text(patch_set_text("moved", "moved", "classic, costs moved", patches))
    variant = folder / "moved-variant.yaml"
    variant.write_text("kind: variant\nname: moved-variant\ntitle: moved\nextends: classic\npatches: moved.yaml\n")
    return variant


def one(games: int, seed: int) -> dict:
    from toolkit.specs import load_edition
    from toolkit.workbench import deckcheck as chk

    printed = {p.id: p.cost for p in load_edition("classic").patches}
    with tempfile.TemporaryDirectory() as folder:
        variant = _moved_deck(Path(folder), PLANTED)
        judged, first_p, first_z, first = [], {}, {}, []

        def on_round(number, report):
            judged.append({p.id for p in report.out_of_band()})
            if number == 0:
                first.append(report)
                v = report.verdicts()
                first_p.update({pid: v[pid]["p_adjusted"] for pid in PLANTED})
                for p in report.patches:
                    if p.id in PLANTED:
                        zs = [(p.advantage - report.band) / p.se] if p.se else []
                        shift = p.buy_shift()
                        if shift is not None:
                            zs.append((shift[0] - chk.buy_band(report.band)) / shift[1])
                        first_z[p.id] = round(max(zs), 2) if zs else None

        started = time.perf_counter()
        report = chk.tune(variant, "classic", [("greedy,greedy", games)], seed, rounds=5, on_round=on_round)
        seconds = time.perf_counter() - started
        edition = load_edition(str(variant))
        touched = {c["id"] for c in report.changes}
        found = set().union(*judged, {p.id for p in report.out_of_band()})
        ids = {pid for pid in found if pid in PLANTED or pid not in judged[0]}
        start, end = chk._distance(first[0], ids), chk._distance(report, ids)
        return {
            "seed": seed, "seconds": seconds, "rounds": report.rounds,
            "final": {pid: edition.patch(pid).cost - printed[pid] for pid in PLANTED},
            "first_p": first_p, "first_z": first_z,
            "recovered": all(abs(edition.patch(pid).cost - printed[pid]) <= 1 for pid in PLANTED),
            "only_out_of_band": all(c["id"] in judged[c["round"] - 1] for c in report.changes),
            "others_stay": all(edition.patch(pid).cost == cost for pid, cost in printed.items()
                               if pid not in touched and pid not in PLANTED),
            "not_worse": end <= start,
            "stopped": report.stopped,
        }


CHECKS = ("recovered", "only_out_of_band", "others_stay", "not_worse")


def audit_tune(games: int, seeds: range) -> None:
    import statistics

    rows = []
    for seed in seeds:
        r = one(games, seed)
        rows.append(r)
        print(f"games {games} seed {seed:3d}: {r['seconds']:6.1f} s, rounds {r['rounds']}, "
              f"final offsets {r['final']}, round-0 p_adj {r['first_p']} z {r['first_z']}, "
              + ", ".join(f"{c} {'yes' if r[c] else 'NO'}" for c in CHECKS) + f"; {r['stopped']}", flush=True)
    for pid in PLANTED:
        zs = [r["first_z"][pid] for r in rows if r["first_z"].get(pid) is not None]
        if zs:
            print(f"games {games}: {pid}'s round-0 z beyond the band edge: smallest {min(zs):.2f}, "
                  f"mean {statistics.mean(zs):.2f}, spread {statistics.pstdev(zs):.2f}", flush=True)
    failed = [r for r in rows if not all(r[c] for c in CHECKS)]
    worst = max((p for r in rows for p in r["first_p"].values() if p is not None), default=float("nan"))
    print(f"games {games}: {len(failed)} of {len(rows)} seeds failed a check ("
          + ", ".join(f"{c} {sum(not r[c] for r in rows)}" for c in CHECKS)
          + f"); largest round-0 adjusted p of a planted patch {worst:.2g}; "
          f"mean {sum(r['seconds'] for r in rows) / len(rows):.1f} s a run", flush=True)


def audit_twin(games: int, seeds: range, bots: str) -> None:
    """The twin test's income pair, priced over cost 0..12:3 (the test's `_run` and `_higher`)."""
    import statistics
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_workbench_price import _higher, _run

    from toolkit.specs import load_edition
    from toolkit.workbench import setpath

    classic = load_edition("classic")
    richer = setpath.apply(classic, "patches.P05.income", 1)
    wrong, gaps = 0, []
    for seed in seeds:
        started = time.process_time()
        better = _run(richer, values="0..12:3", bots=bots, games=games, seed=seed)["fair"]
        worse = _run(classic, values="0..12:3", bots=bots, games=games, seed=seed)["fair"]
        higher = _higher(better, worse)
        wrong += not higher
        if better["estimate"] is not None and worse["estimate"] is not None:
            gaps.append(better["estimate"] - worse["estimate"])
        print(f"games {games} seed {seed:3d}: income 1 {better['status']} {better['estimate']} "
              f"[{better['low']}, {better['high']}], income 0 {worse['status']} {worse['estimate']} "
              f"[{worse['low']}, {worse['high']}]: {'higher' if higher else 'NOT HIGHER'} "
              f"({time.process_time() - started:.1f} CPU-s)", flush=True)
    spread = f", spread {statistics.pstdev(gaps):.2f}" if len(gaps) > 1 else ""
    print(f"games {games} ({bots}): the better twin not higher in {wrong} of {len(seeds)} seeds; gap between "
          f"the estimates where both exist: mean {statistics.mean(gaps) if gaps else float('nan'):.2f}{spread} "
          f"over {len(gaps)} seeds", flush=True)


def audit_crossing(games: int, seeds: range) -> None:
    """The crossing-above test's run (its `_run`: P16 over cost 0..2, greedy bots) on other seeds."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from test_workbench_price import _run

    from toolkit.specs import load_edition

    classic = load_edition("classic")
    failed = 0
    for seed in seeds:
        started = time.process_time()
        body = _run(classic, patch="P16", values="0..2", bots="greedy,greedy", games=games, seed=seed)
        values = [v["value"] for v in body["values"]]
        fair = body["fair"]
        widened = max(values) > 2
        consistent = fair["status"] != "above" or max(values) >= 16
        failed += not (widened and consistent)
        at_two = next(v for v in body["values"] if v["value"] == 2)["advantage"]
        print(f"games {games} seed {seed:3d}: advantage at cost 2 {at_two['estimate']:+.3f} "
              f"[{at_two['low']:+.3f}, {at_two['high']:+.3f}], values {values}, fair {fair['status']} "
              f"{fair['estimate']} [{fair['low']}, {fair['high']}]: "
              f"{'holds' if widened and consistent else 'FAILS'} ({time.process_time() - started:.1f} CPU-s)",
              flush=True)
    print(f"games {games}: the test would fail in {failed} of {len(seeds)} seeds", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("audit", choices=("tune", "twin", "crossing"))
    parser.add_argument("--games", default="800", help="game counts, comma-separated (default 800)")
    parser.add_argument("--seeds", default="0..9", help="seeds as A..B (default 0..9)")
    parser.add_argument("--bots", default="random,random", help="twin: the bots (default random,random)")
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split(".."))
    for games in (int(g) for g in args.games.split(",")):
        if args.audit == "tune":
            audit_tune(games, range(first, last + 1))
        elif args.audit == "crossing":
            audit_crossing(games, range(first, last + 1))
        else:
            audit_twin(games, range(first, last + 1), args.bots)


if __name__ == "__main__":
    main()
