"""Audit of `patchwork deck check` over many seeds: its error on the untouched classic deck,
how often it finds misprices planted both ways, and whether its standard errors match the spread
of the estimates across seeds.

Run: python benchmarks/audit_deckcheck.py [--seeds N] [--games G] [--quick] [--tune] [--default-matchups]
     [--cases p03-dear,...]

Every check plays classic and a variant on the same deals (greedy vs greedy, G games, seed s) as
`patchwork deck check VARIANT --bots greedy,greedy --games G --seed s` does (with
--default-matchups, as `patchwork deck check VARIANT --seed s` does). Printed:

- null: the variant is classic itself (an untouched copy). The family-wise error is the share of
  seeds that flag a patch whose advantage, pooled over all the seeds, lies inside the band (classic's
  own mispricing, a patch truly outside the band, is a right flag, not an error); also the share
  flagging any patch at all, and which patches are flagged how often;
- z spread: per patch, the variance of its advantage (and buy rate) across seeds over the mean of
  the squared standard errors the check reported, as an sd of z (1 when the errors are right), for
  the errors over deals and for the binomial ones counting games one by one;
- planted misprices (P03 7->10, P12 3->5, P32 10->13 dear; P28 7->4, P21 5->1 cheap; with --cases,
  one button off: P21 5->4, P28 7->6): the share
  of seeds that find the planted patch on its side, and that suggest a cost within one button of
  the printed one, and the share that flag an untouched patch inside the band;
- verdict words: on the untouched deck, each word's count per seed (lowest-highest) in the words
  the check prints and in its earlier ones ("ok" for every patch not shown outside the band, now
  "in band" or "undecided"); how many patches change word between seeds; how many decided claims
  (in band, cheap, dear) another seed contradicts; and how often "in band" is given to a patch whose
  advantage pooled over the seeds lies outside the band; for each planted patch, its words over
  the seeds and how often it is called "in band" (a mis-priced patch should never be);
- with --tune, `deck check --tune` on the planted decks (a few seeds): where each planted patch
  ends, and the path it took.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from toolkit.decks.generate import patch_set_text
from toolkit.specs import load_edition
from toolkit.workbench import deckcheck as chk

PLANTED = {"p03-dear": ("P03", 10, "dear"), "p12-dear": ("P12", 5, "dear"), "p32-dear": ("P32", 13, "dear"),
           "p28-cheap": ("P28", 4, "cheap"), "p21-cheap": ("P21", 1, "cheap"),
           "p21-one-cheap": ("P21", 4, "cheap"), "p28-one-cheap": ("P28", 6, "cheap")}
ONE_BUTTON = ("p21-one-cheap", "p28-one-cheap")
"""One button off, near the band's edge: run only when named in --cases (is it ever called in band?)."""
QUICK = ("p03-dear", "p28-cheap", "p21-cheap")
DEAR = ("dear", "rarely bought at this cost")
CLAIMS = {"in band": "in", "cheap": "cheap", "dear": "dear", "rarely bought at this cost": "dear"}
"""The words that claim something of a patch's price, and what; the others say what is not known."""
EARLIER_CLAIMS = {**CLAIMS, "ok": "in"}
"""The same in the earlier words, where "ok" said a patch was fairly priced."""


def earlier_word(word: str) -> str:
    """A verdict in the words the check used before "in band" and "undecided": "ok" for both."""
    return {"in band": "ok", "undecided": "ok", "too few buys": "unsure"}.get(word, word)


def word_counts(words: dict[int, dict[str, str]], rename=lambda w: w) -> str:
    """Each word's count per seed, lowest-highest."""
    seen = sorted({rename(w) for per in words.values() for w in per.values()})
    spans = []
    for word in seen:
        counts = [sum(rename(w) == word for w in per.values()) for per in words.values()]
        spans.append(f"{word} {min(counts)}-{max(counts)}" if min(counts) != max(counts) else f"{word} {min(counts)}")
    return ", ".join(spans)


def word_flips(words: dict[int, dict[str, str]], rename=lambda w: w, claims=CLAIMS) -> tuple[int, int, int]:
    """(patches whose word changes between seeds, claims made, claims another seed contradicts)."""
    ids = next(iter(words.values())).keys()
    changing = made = contradicted = 0
    for pid in ids:
        said = [rename(per[pid]) for per in words.values()]
        changing += len(set(said)) > 1
        sides = [claims[w] for w in said if w in claims]
        made += len(sides)
        contradicted += sum(any(o != side for o in sides) for side in sides)
    return changing, made, contradicted


def write_variant(folder: Path, name: str, moves: dict[str, int]) -> Path:
    """Classic's patches as a patch set with some costs set, and a variant that plays it."""
    classic = load_edition("classic")
    patches = [replace(p, cost=moves.get(p.id, p.cost)) for p in classic.patches]
    (folder / f"{name}.yaml").write_text(patch_set_text(name, name, f"classic with {moves or 'nothing'} changed",
                                                        patches))
    variant = folder / f"{name}-variant.yaml"
    variant.write_text(f"kind: variant\nname: {name}-variant\ntitle: classic {name}\nextends: classic\n"
                       f"patches: {name}.yaml\n")
    return variant


def spread(values: list[list[float]], errors: list[list[float]]) -> float | None:
    """sd of z: per patch, variance across seeds over the mean squared reported error, pooled."""
    ratios = []
    for xs, ses in zip(values, errors):
        if len(xs) >= 3 and all(s > 0 for s in ses):
            ratios.append(statistics.variance(xs) / statistics.fmean(s * s for s in ses))
    return math.sqrt(statistics.fmean(ratios)) if ratios else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="Seeds per case (default 20; --quick 6).")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=400, help="Greedy games per check (default 400, the default).")
    parser.add_argument("--quick", action="store_true", help="6 seeds and three planted cases (P03, P28, P21).")
    parser.add_argument("--tune", action="store_true", help="Also tune the planted decks (2 seeds, --quick 1).")
    parser.add_argument("--default-matchups", action="store_true",
                        help="Play the check's default matchups (greedy,greedy 400 games and greedy,mcts:200 40 "
                             "games, about 25 s a check) instead of greedy,greedy alone.")
    parser.add_argument("--cases", help="Planted cases to run, comma-separated (default all; --quick: "
                                        + ", ".join(QUICK) + "): " + ", ".join(PLANTED))
    args = parser.parse_args()
    if args.quick and "--seeds" not in sys.argv:
        args.seeds = 6
    if args.seeds < 3 or args.games < 2 or args.games % 2:
        parser.error("--seeds must be at least 3 and --games an even number of at least 2")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    matchups = (list(zip(chk.DEFAULT_MATCHUPS, chk.DEFAULT_GAMES)) if args.default_matchups
                else [("greedy,greedy", args.games)])
    cases = (tuple(args.cases.split(",")) if args.cases is not None else QUICK if args.quick
             else tuple(c for c in PLANTED if c not in ONE_BUTTON))
    unknown = [c for c in cases if c and c not in PLANTED]
    if unknown:
        parser.error(f"--cases: no case {', '.join(unknown)}; the cases are {', '.join(PLANTED)}")
    cases = tuple(c for c in cases if c)
    band = chk.DEFAULT_BAND
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        null = write_variant(folder, "null", {})
        reports = {s: chk.check(str(null), "classic", matchups, s) for s in seeds}
        ids = [p.id for p in reports[args.first_seed].patches]
        pooled = {}
        for pid in ids:
            plays = [next(p for p in r.patches if p.id == pid) for r in reports.values()]
            bought = sum(p.bought for p in plays)
            pooled[pid] = (sum(p.advantage * p.bought for p in plays if p.advantage is not None) / bought
                           if bought else None)
        inside = {pid for pid, a in pooled.items() if a is not None and abs(a) <= band}
        flagged = {s: [p.id for p in r.out_of_band()] for s, r in reports.items()}
        any_rate = sum(bool(f) for f in flagged.values()) / len(seeds)
        false_rate = sum(any(pid in inside for pid in f) for f in flagged.values()) / len(seeds)
        counts: dict[str, int] = {}
        for f in flagged.values():
            for pid in f:
                counts[pid] = counts.get(pid, 0) + 1
        played = ", ".join(f"{bots} {games} games" for bots, games in matchups)
        print(f"null (classic untouched), {len(seeds)} seeds x ({played}), band ±{band}: "
              f"{reports[args.first_seed].as_dict()['tests']} tests a check")
        print(f"  family-wise error (a patch inside the band flagged): {false_rate:.1%} of seeds "
              f"({round(false_rate * len(seeds))}/{len(seeds)}); any patch flagged: {any_rate:.1%}")
        print("  flagged: " + (", ".join(f"{pid} {n}/{len(seeds)} (pooled advantage {pooled[pid]:+.3f})"
                                         for pid, n in sorted(counts.items())) or "none"))
        print("  patches outside the band on the pooled estimate: "
              + (", ".join(f"{pid} {a:+.3f}" for pid, a in pooled.items() if a is not None and abs(a) > band)
                 or "none"))
        adv, adv_se, adv_bin, buy, buy_se, buy_bin = [], [], [], [], [], []
        for pid in ids:
            plays = [next(p for p in r.patches if p.id == pid) for r in reports.values()]
            if any(p.se is None for p in plays) or any(p.buy_rate < chk.LOW_BUY_RATE for p in plays):
                continue
            adv.append([p.advantage for p in plays])
            adv_se.append([p.se for p in plays])
            adv_bin.append([math.sqrt(r * (1 - r) / p.bought) for p in plays for r in [p.buyer_wins / p.bought]])
            if all(0 < p.bought < p.games for p in plays):
                buy.append([p.buy_rate for p in plays])
                buy_se.append([p.buy_se for p in plays])
                buy_bin.append([math.sqrt(p.buy_rate * (1 - p.buy_rate) / p.games) for p in plays])
        words = {s: {pid: v["verdict"] for pid, v in r.verdicts().items()} for s, r in reports.items()}
        print(f"  verdict words per seed: {word_counts(words)}; in the earlier words: "
              f"{word_counts(words, earlier_word)}")
        changing, claims, contradicted = word_flips(words)
        before = word_flips(words, earlier_word, EARLIER_CLAIMS)
        print(f"  {changing} of {len(ids)} patches change word between seeds ({before[0]} in the earlier words); "
              f"claims (in band, cheap, dear) {claims}, {contradicted} contradicted by another seed; in the "
              f"earlier words (ok, cheap, dear) {before[1]}, {before[2]} contradicted")
        outside = [pid for pid, a in pooled.items() if a is not None and abs(a) > band]
        wrong = sum(words[s][pid] == "in band" for s in seeds for pid in outside)
        wrong_before = sum(earlier_word(words[s][pid]) == "ok" for s in seeds for pid in outside)
        print(f"  'in band' given to a patch outside the band on the pooled estimate ({', '.join(outside) or 'none'}): "
              f"{wrong} of {len(outside) * len(seeds)} (earlier 'ok': {wrong_before}); to any patch: "
              f"{sum(w == 'in band' for per in words.values() for w in per.values())} of {len(ids) * len(seeds)}")
        print(f"  z spread across seeds (sd of z, 1 when the errors are right), {len(adv)} patches: advantage "
              f"{spread(adv, adv_se):.2f} over deals, {spread(adv, adv_bin):.2f} counting games one by one; "
              f"buy rate ({len(buy)} patches) {spread(buy, buy_se):.2f} over deals, "
              f"{spread(buy, buy_bin):.2f} one by one")
        for case in cases:
            pid, cost, side = PLANTED[case]
            printed = load_edition("classic").patch(pid).cost
            variant = write_variant(folder, case, {pid: cost})
            found = near = others = 0
            suggested = []
            said: dict[str, int] = {}
            for s in seeds:
                report = chk.check(str(variant), "classic", matchups, s)
                v = report.verdicts()
                verdict = v[pid]["verdict"]
                said[verdict] = said.get(verdict, 0) + 1
                if verdict in (DEAR if side == "dear" else ("cheap",)):
                    found += 1
                    suggested.append(v[pid]["suggested_cost"])
                    near += abs(v[pid]["suggested_cost"] - printed) <= 1
                others += any(p.id in inside and p.id != pid for p in report.out_of_band())
            n = len(seeds)
            print(f"{pid} {printed} -> {cost} ({side}): found {found}/{n} ({found / n:.0%}); suggested cost within one "
                  f"button of {printed} in {near}/{n} (suggested {sorted(suggested)}); an untouched in-band patch "
                  f"flagged in {others}/{n}")
            print(f"  its words: {', '.join(f'{w} {k}' for w, k in sorted(said.items()))}; called 'in band' in "
                  f"{said.get('in band', 0)}/{n} (earlier 'ok' in "
                  f"{sum(k for w, k in said.items() if earlier_word(w) == 'ok')}/{n})")
            if args.tune:
                for s in list(seeds)[:1 if args.quick else 2]:
                    variant = write_variant(folder, f"{case}-tuned", {pid: cost})
                    report = chk.tune(variant, "classic", matchups, s)
                    path = [f"{c['from']}->{c['to']}" for c in report.changes if c["id"] == pid]
                    moved = sorted({c["id"] for c in report.changes} - {pid})
                    print(f"  tune seed {s}: {pid} {cost} -> {load_edition(str(variant)).patch(pid).cost} "
                          f"(path {', '.join(path) or 'none'}; other patches moved: {', '.join(moved) or 'none'}; "
                          f"stopped: {report.stopped})")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
