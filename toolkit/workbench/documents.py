"""The results document of each workbench command, built from a run's request.

`patchwork price`, `sweep`, `tune`, `ladder` and `feel` each check their options, build one of
the run descriptions below and call the function named after the command here: it plays the games
(reporting them through `progress`) and returns the document the command prints with `--json` and
writes as results.json, in the key order those files have always had. Its header is
toolkit.workbench.report.header; its `command` is the command line that replays the run with every
default spelled out (the execution options, which never change a figure, left out). The words the
user typed are the command line's to add (toolkit.cli.typed).

This module imports only the standard library at its top, so the command line can name it while
it reads its options; each function loads the simulator when it runs.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolkit.errors import UsageError

if TYPE_CHECKING:
    from toolkit.bots.registry import BotSpec
    from toolkit.families import Seating
    from toolkit.specs.models import Edition
    from toolkit.workbench.price import PriceRequest
    from toolkit.workbench.setpath import Setting

Progress = Callable[[int], AbstractContextManager[Callable[[int], None]]]
"""`progress(total)`: a context that yields `advance(games)`, told every game played (of `total`)."""


def deals_for(games: int, per_deal: int, option: str = "--games") -> int:
    """The deals that play `games` games, each deal played once per seat order (UsageError when
    `games` does not divide evenly)."""
    if games % per_deal:
        raise UsageError(f"{option} {games}: each deal is played twice with seats swapped, so the number of games "
                         f"must be even (e.g. {games + 1})")
    return games // per_deal


def _stamped(doc: dict, bots: Sequence[BotSpec]) -> dict:
    """The document with whether the same seed gives the same games, and why."""
    from toolkit.bots.registry import reproducibility

    reproducible, why = reproducibility(bots)
    doc["reproducible"] = reproducible
    doc["reproducibility"] = why
    return doc


# ----- price ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PriceRun:
    """A `patchwork price` run, its options checked."""

    ref: str
    """The edition as named on the command line (a name or a spec file)."""
    edition: Edition
    patch: str
    values: str
    """--values as typed (A..B[:STEP] or a,b,c)."""
    over: str
    bots: tuple[str, ...]
    """One text per skill tier."""
    games: int | None
    """--games when given (exactly this many games per value; with `width`, the most)."""
    cap: int
    """The most games per value: --games, --max-games or the default."""
    search_games: int
    seed: int
    width: float | None


@dataclass(frozen=True)
class PriceTier:
    """One skill tier of a price run."""

    bots: str
    request: PriceRequest
    """Its bots seated once, from `bots` (PriceRequest.seating)."""

    @property
    def specs(self) -> tuple[BotSpec, ...]:
        return self.request.seating.bots

    @property
    def per_deal(self) -> int:
        return self.request.seating.games_per_deal


def price_tiers(run: PriceRun, values: tuple[int, ...]) -> list[PriceTier]:
    """The tiers' requests: a tier with a search bot plays --search-games, the others the cap."""
    from toolkit.sim.botspec import seat_bots
    from toolkit.workbench import price

    fixed = run.games is not None and run.width is None
    tiers = []
    for text in run.bots:
        seating = seat_bots(text, run.edition)
        searching = any(b.iterations for b in seating.bots)
        tier_games = run.search_games if searching else run.cap
        option = "--search-games" if searching else ("--games" if run.games is not None else "--max-games")
        deals = deals_for(tier_games, seating.games_per_deal, option)
        tiers.append(PriceTier(text, price.PriceRequest(
            run.edition, run.patch, run.over, values, seating, deals, run.seed, fixed, run.width)))
    if len({tier.bots for tier in tiers}) < len(tiers):
        raise UsageError("--bots: each skill tier is named once")
    return tiers


def _price_command(run: PriceRun, tiers: list[PriceTier]) -> str:
    parts = ["patchwork", "price", run.ref, run.patch, "--values", run.values, "--over", run.over,
             *[a for text in run.bots for a in ("--bots", text)]]
    parts += ["--games", str(run.games)] if run.games is not None else ["--max-games", str(run.cap)]
    if len(tiers) > 1 or any(any(b.iterations for b in tier.specs) for tier in tiers):
        parts += ["--search-games", str(run.search_games)]
    parts += ["--seed", str(run.seed)]
    if run.width is not None:
        parts += ["--width", f"{run.width:g}"]
    return shlex.join(parts)


def price(run: PriceRun, workers: int, scheduler: str | None, progress: Progress) -> dict:
    """Play every tier at every value and return the `price` document (with `tiers` and their
    `agreement` when there are several)."""
    from toolkit.sim.figures import edition_facts
    from toolkit.workbench import price as pr
    from toolkit.workbench.report import header

    values = pr.check(run.edition, run.patch, run.over, run.values)
    tiers = price_tiers(run, values)
    with progress(sum(tier.request.games for tier in tiers) * (len(values) + 1)) as advance:
        results = [pr.run(tier.request, workers, scheduler, advance) for tier in tiers]
    first = tiers[0]
    body, plays = results[0]
    doc = header("price", _price_command(run, tiers), first.specs, plays.deals * first.per_deal, plays.deals,
                 first.per_deal, run.seed, first.request.seating.rule)
    p = run.edition.patch(run.patch)
    doc.update({"edition": edition_facts(run.edition), "over": run.over,
                "patch": {"id": p.id, "cost": p.cost, "time": p.time, "income": p.income, "size": p.shape.size},
                "reference": f"the same deals with {run.patch} at cost {pr.REFERENCE_COST} (out of reach: never bought)",
                "estimator": pr.ESTIMATOR, "bias": pr.BIAS, **body})
    if len(tiers) > 1:
        doc["tiers"] = [{"bots": tier.bots, "games": tier_plays.deals * tier.per_deal, "deals": tier_plays.deals,
                         **tier_body} for tier, (tier_body, tier_plays) in zip(tiers, results)]
        doc["agreement"] = pr.agreement(doc["tiers"])
    return _stamped(doc, [b for tier in tiers for b in tier.specs])


def price_games(doc: dict) -> int:
    """Games a price document's run played, the reference's included, over every tier."""
    bodies = doc["tiers"] if "tiers" in doc else [doc]
    return sum(sum(v["games"] for v in body["values"]) + body["stopping"]["games"] for body in bodies)


# ----- sweep ----------------------------------------------------------------------------------


class _Seated:
    """What a run reads of the bots it holds, seated once (its `seating`)."""

    seating: Seating

    @property
    def specs(self) -> tuple[BotSpec, ...]:
        return self.seating.bots

    @property
    def per_deal(self) -> int:
        return self.seating.games_per_deal


@dataclass(frozen=True)
class SweepRun(_Seated):
    """A `patchwork sweep` run, its options and settings checked."""

    ref: str
    edition: Edition
    settings: tuple[str, ...]
    """The --set texts as typed."""
    parsed: tuple[Setting, ...]
    points: tuple[dict, ...]
    bots: str
    seating: Seating
    """The bots seated once, from `bots` (toolkit.sim.botspec.seat_bots)."""
    games: int
    """Games per point (with a sequential test, the most)."""
    seed: int
    sprt: str | None = None
    sprt_delta: float | None = None
    sprt_alpha: float = 0.05
    sprt_beta: float = 0.05

    @property
    def deals(self) -> int:
        return self.games // self.per_deal


def _check_playable(editions, points) -> None:
    """Build every point's kernel tables now, so a point the engine cannot play fails before any game."""
    from toolkit.errors import SpecError
    from toolkit.families import family_of
    from toolkit.workbench.setpath import value_text

    for edition, point in zip(editions, points):
        try:
            family_of(edition).check_tables(edition)
        except SpecError as error:
            where = ", ".join(f"{k}={value_text(v)}" for k, v in point.items())
            problems = "; ".join(f"{p.key_path}: {p.message}" for p in error.problems)
            raise UsageError(f"--set {where}: the engine cannot play this point ({problems})") from None


def sweep(run: SweepRun, workers: int, scheduler: str | None, progress: Progress) -> dict:
    """Play every point of the grid on the same deals (with `sprt`, until every point's test
    against the first is decisive) and return the `sweep` document."""
    from toolkit.sim.figures import edition_facts
    from toolkit.workbench import setpath
    from toolkit.workbench import sweep as sw
    from toolkit.workbench.report import header
    from toolkit.stats import SEQUENTIAL_INTERVALS

    points = list(run.points)
    _check_playable(sw.editions(run.edition, points), points)
    plan = None
    sequential: list[str] = []  # the test's options as the replaying command spells them
    if run.sprt is not None:
        from toolkit.workbench import sprt as sq

        plan = sq.plan(run.sprt, run.sprt_delta, run.sprt_alpha, run.sprt_beta, run.edition)
        if len(points) < 2:
            raise UsageError("--sprt: a sequential sweep compares every point with the first, so it needs 2 or more points")
        sequential = ["--sprt", run.sprt, "--sprt-delta", f"{plan.delta:g}", "--sprt-alpha", f"{plan.alpha:g}",
                      "--sprt-beta", f"{plan.beta:g}"]
    with progress(run.deals * run.per_deal * len(points)) as advance:
        if plan is None:
            rows, played = sw.run(run.edition, points, run.seating, run.seed, run.deals, workers, scheduler, advance)
        else:
            rows, played, _ = sw.run_sequential(run.edition, points, run.seating, run.seed, run.deals, workers, scheduler,
                                                plan, advance)
    parts = ["patchwork", "sweep", run.ref, *[a for s in run.settings for a in ("--set", s)], "--bots", run.bots,
             "--games", str(run.games), "--seed", str(run.seed), *sequential]
    doc = header("sweep", shlex.join(parts), run.specs, played.games, played.deals, run.per_deal, run.seed,
                 run.seating.rule)
    if plan is not None:
        tests = len(run.points) - 1
        shared = "" if tests <= 1 else (f", the {tests} tests sharing those error rates (each at alpha {plan.alpha / tests:g} and "
                                        f"beta {plan.beta / tests:g}: Bonferroni)")
        doc["sequential"] = {"test": plan.statement() + "; every point against the first" + shared,
                             "games_cap": run.games, "intervals": SEQUENTIAL_INTERVALS}
    doc.update({"edition": edition_facts(run.edition),
                "grid": "; ".join(f"{s.path} = {', '.join(setpath.value_text(v) for v in s.values)}" for s in run.parsed),
                "touched_patches": sw.touched_patches(list(run.parsed)), "points": rows})
    return _stamped(doc, run.specs)


# ----- tune -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneRun(_Seated):
    """A `patchwork tune` run, its options and settings checked."""

    ref: str
    edition: Edition
    settings: tuple[str, ...]
    parsed: tuple[Setting, ...]
    targets: tuple[str, ...]
    """The --target texts as typed."""
    budget: int
    refine: int | None
    """None: the default share of the budget (toolkit.workbench.ntbea.default_refine)."""
    games: int
    final_games: int
    watch: str | None
    bots: str
    seating: Seating
    """The bots seated once, from `bots` (toolkit.sim.botspec.seat_bots)."""
    seed: int


def tune(run: TuneRun, workers: int, scheduler: str | None, progress: Progress) -> dict:
    """Search the settings toward the targets, measure the chosen point on fresh deals and return
    the `tune` document."""
    from toolkit.sim.figures import edition_facts
    from toolkit.workbench import ntbea
    from toolkit.workbench.report import header

    search_deals = deals_for(run.games, run.per_deal)
    final_deals = deals_for(run.final_games, run.per_deal, "--final-games")
    targets = tuple(ntbea.parse_target(t) for t in run.targets)
    ntbea.check(run.edition, run.parsed, targets, run.watch)
    refine = ntbea.default_refine(run.budget) if run.refine is None else run.refine
    request = ntbea.TuneRequest(run.edition, run.parsed, targets, run.seating, run.seed, run.budget, search_deals,
                                final_deals, run.watch, refine)
    with progress(tune_games(run)) as advance:
        body = ntbea.tune(request, workers, scheduler, advance)
    parts = ["patchwork", "tune", run.ref, *[a for s in run.settings for a in ("--set", s)],
             *[a for t in run.targets for a in ("--target", t)], "--budget", str(run.budget), "--refine", str(refine),
             "--games", str(run.games), "--final-games", str(run.final_games)]
    if run.watch:
        parts += ["--watch", run.watch]
    parts += ["--bots", run.bots, "--seed", str(run.seed)]
    doc = header("tune", shlex.join(parts), run.specs, run.final_games, run.final_games // run.per_deal, run.per_deal,
                 run.seed, run.seating.rule)
    doc.update({"edition": edition_facts(run.edition), **body})
    return _stamped(doc, run.specs)


def tune_games(run: TuneRun) -> int:
    """Games a tune run plays: every evaluation of the budget, then the chosen point's fresh games."""
    return run.budget * run.games + run.final_games


# ----- ladder ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class LadderRun:
    """A `patchwork ladder` run, its options checked."""

    bots: tuple[str, ...]
    """The bots as typed (threaded)."""
    ref: str
    edition: Edition
    specs: tuple[BotSpec, ...]
    games: int
    """Games per pair."""
    seed: int

    @property
    def pairs(self) -> int:
        return len(self.specs) * (len(self.specs) - 1) // 2


def ladder(run: LadderRun, workers: int, scheduler: str | None, progress: Progress) -> dict:
    """Play every pair of bots on the same deals and return the `ladder` document."""
    from toolkit.sim.figures import edition_facts
    from toolkit.workbench import ladder as ld
    from toolkit.workbench.report import header

    specs = list(run.specs)
    deals = deals_for(run.games, 2)
    with progress(run.games * run.pairs) as advance:
        wins, pair_rows = ld.run(run.edition, specs, run.seed, deals, workers, scheduler, advance)
    command = shlex.join(["patchwork", "ladder", *run.bots, "--edition", run.ref, "--games", str(run.games),
                          "--seed", str(run.seed)])
    doc = header("ladder", command, specs, run.games, deals, 2, run.seed,
                 ld.pair_seating(run.edition, specs[0], specs[1]).rule)
    labels = [s.label for s in specs]
    doc.update({"edition": edition_facts(run.edition),
                "model": (f"Bradley-Terry maximum likelihood on the wins of every pair; Elo = 400 log10(strength), mean 0; "
                          f"{ld.PRIOR:g} virtual drawn game per pair keeps ratings finite; 95% profile-likelihood "
                          "intervals (every other rating free), each pair's games divided by its design effect (the "
                          "deal as the unit)"),
                "prior_pull": None if (pull := ld.prior_pull(wins)) is None else round(pull, 2) + 0.0,
                "wins": {"bots": labels, "matrix": wins.tolist()},
                "ratings": ld.ratings(labels, wins, design=ld.design_effects(labels, pair_rows)),
                "pairs": pair_rows})
    return _stamped(doc, specs)


# ----- feel -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FeelRun:
    """A `patchwork feel` run, its options checked."""

    refs: tuple[str, ...]
    """The base edition, then the variants, as named."""
    editions: tuple[Edition, ...]
    bots: str
    specs: tuple[BotSpec, ...]
    games: int
    """Games per edition."""
    seed: int
    decisive: bool


def feel(run: FeelRun, workers: int, progress: Progress) -> dict:
    """Play every edition's games and return the `feel` document (each variant's differences from the base)."""
    from toolkit.sim.figures import edition_facts
    from toolkit.workbench import feel as fl
    from toolkit.workbench.report import header

    with progress(run.games * len(run.editions)) as advance:
        runs = [fl.run(ed, run.bots, run.seed, run.games, run.decisive, advance, workers) for ed in run.editions]
    parts = ["patchwork", "feel", *run.refs, "--bots", run.bots, "--games", str(run.games), "--seed", str(run.seed)]
    if run.decisive:
        parts.append("--decisive")
    doc = header("feel", shlex.join(parts), run.specs, run.games, run.games, 1, run.seed, "as named, one bot per seat")
    doc["seeding"] = "game k of every edition is play_bots(edition, bots, derive_seed(seed, k)) (toolkit.play)"
    doc["sampling_unit"] = fl.SAMPLING_UNIT
    doc["definitions"] = dict(fl.DEFINITIONS)
    adjusted = fl.family_adjusted([fl.differences(runs[0], ms) for ms in runs[1:]])
    doc["multiple_testing"] = fl.multiple_testing(adjusted)
    doc["editions"] = [{"ref": ref, "edition": edition_facts(ed), "figures": fl.figures(ms),
                        **({"differences": adjusted[k - 1]} if k else {})}
                       for k, (ref, ed, ms) in enumerate(zip(run.refs, run.editions, runs))]
    return _stamped(doc, run.specs)
