"""Simulation and balance experiments: validate the request, run the shards, build the result.

`prepare` checks everything a user can get wrong (editions, bots, counts, workers) before a single
game is played; `run` plays the shards on the chosen backend and merges them in shard order;
`simulation_document` / `balance_document` turn the merged tallies into the JSON result that the
reports render. Balance plays every variant on the same deal seeds as the base, so differences
are paired per deal.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import toolkit
from toolkit.errors import UsageError
from toolkit.games.rng import derive_seed
from toolkit.sim import figures as fig
from toolkit.sim.backends import run_shards
from toolkit.bots.registry import BotSpec
from toolkit.families import RulesFamily, Seating, family_of
from toolkit.sim.botspec import seat_bots
from toolkit.sim.shards import ShardResult, make_shards, merge_results
from toolkit.specs import load_edition
from toolkit.specs.models import Edition

SEEDING = (
    "deal i is seeded by derive_seed(seed, i): the deal and the game's chance come from "
    "seed_state(deal seed), the bots of the deal's j-th game draw from seed_state(deal seed, 1 + j); "
    "`patchwork deal EDITION --seed <deal seed>` shows deal i"
)
MAX_GAMES = 10**9
INTERVALS = ("95%, the deal as the unit (a deal's seat-swapped games are one cluster): Wilson for proportions at "
             "the effective number of games (games / design effect, the design effect never below 1), normal "
             "approximation with the cluster standard error for means, paired differences per deal")
CORRECTION = ("Holm's step-down adjustment over every figure of every variant in the run (family-wise error 5%): "
              "a difference is significant when its adjusted p is below 0.05; `p_value` is the unadjusted one")


@dataclass(frozen=True)
class Request:
    """A validated experiment: editions[0] is the base (the only one for `simulate`)."""

    refs: tuple[str, ...]
    """Editions as the user named them."""
    editions: tuple[Edition, ...]
    seating: Seating
    """The bots in seat order and how seats rotate (the family's rule)."""
    games: int
    """Games per edition."""
    seed: int
    workers: int
    scheduler: str | None

    @property
    def family(self) -> RulesFamily:
        return family_of(self.editions[0])

    @property
    def bots(self) -> tuple[BotSpec, ...]:
        return self.seating.bots

    @property
    def per_deal(self) -> int:
        return self.seating.games_per_deal

    @property
    def deals(self) -> int:
        return self.games // self.per_deal

    @property
    def seat_swap(self) -> bool:
        return self.seating.swaps


def prepare(
    edition_refs: Sequence[str],
    bots_text: str,
    games: int,
    seed: int,
    workers: int = 1,
    scheduler: str | None = None,
    automa_level: int = 1,
    automa_deck: str = "normal",
) -> Request:
    """Validate a request (raises UsageError, UnknownEdition or SpecError before any game)."""
    if games <= 0:
        raise UsageError(f"--games must be a positive number of games, got {games}")
    if games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES}, got {games}")
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed}")
    if scheduler is not None and "://" not in scheduler:
        raise UsageError(f"--scheduler '{scheduler}': expected an address like tcp://HOST:PORT")
    editions = tuple(load_edition(ref) for ref in edition_refs)
    base = editions[0]
    for ref, edition in zip(edition_refs[1:], editions[1:]):
        if family_of(edition) is not family_of(base):
            raise UsageError(
                f"variant '{ref}' is a {family_of(edition).info.title} edition but the base '{edition_refs[0]}' "
                f"is {family_of(base).info.title}: balance compares editions of one rules family")
    seating = seat_bots(bots_text, base, automa_level, automa_deck)
    for ref, edition in zip(edition_refs[1:], editions[1:]):
        if seat_bots(bots_text, edition, automa_level, automa_deck) != seating:
            raise UsageError(f"--bots '{bots_text}' cannot play '{ref}' the same way as the base")
    per_deal = seating.games_per_deal
    if games % per_deal:
        raise UsageError(
            f"--games {games}: each deal is played twice with seats swapped, so the number of "
            f"games must be even (e.g. {games + 1})")
    # Build the kernel tables here, so a spec the engine cannot play fails once, before any worker starts.
    for edition in editions:
        family_of(edition).check_tables(edition)
    return Request(tuple(edition_refs), editions, seating, games, seed, workers, scheduler)


@dataclass
class Outcome:
    """The merged statistics of a run."""

    merged: ShardResult
    shards: int
    elapsed: float
    """Wall-clock seconds (reported in the terminal, never in the result files)."""


def run(request: Request, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Play every shard of the request; `progress(done_games, total_games)` after each shard."""
    shards = make_shards(request.editions, request.seating, request.seed, request.deals)
    total = request.games * len(request.editions)
    done = 0

    def on_result(result: ShardResult) -> None:
        nonlocal done
        done += result.games * len(request.editions)
        if progress:
            progress(done, total)

    started = time.perf_counter()
    merged = merge_results(run_shards(shards, request.workers, request.scheduler, on_result))
    return Outcome(merged, len(shards), time.perf_counter() - started)


def _figures(request: Request, tally, edition: Edition) -> dict:
    return family_of(edition).figures(tally, edition, request.seating)


def _header(request: Request, command: str, kind: str) -> dict:
    return {
        "kind": kind,
        "toolkit": {"name": "patchwork-toolkit", "version": toolkit.__version__},
        "command": command,
        "bots": [{"index": i, "name": b.name, "label": b.label} for i, b in enumerate(request.bots)],
        "games": request.games,
        "deals": request.deals,
        "games_per_deal": request.per_deal,
        "seed": request.seed,
        "seeding": SEEDING,
        "first_deal_seeds": [derive_seed(request.seed, i) for i in range(min(request.deals, 5))],
        "seats": request.seating.rule,
        "intervals": INTERVALS,
    }


def simulation_document(request: Request, outcome: Outcome, command: str) -> dict:
    """The full JSON result of `patchwork simulate`."""
    edition = request.editions[0]
    doc = _header(request, command, "simulation")
    doc["edition"] = fig.edition_facts(edition)
    doc["figures"] = _figures(request, outcome.merged.tallies[0], edition)
    return doc


def balance_metrics(request: Request):
    return request.family.metrics(request.editions, request.bots, request.per_deal)


def balance_document(request: Request, outcome: Outcome, command: str) -> dict:
    """The full JSON result of `patchwork balance`: paired differences of each variant from the base."""
    doc = _header(request, command, "balance")
    base = request.editions[0]
    metrics = balance_metrics(request)
    doc["pairing"] = (
        "every variant plays the same deal seeds as the base; per deal, difference = variant "
        "outcome - base outcome; mean and standard error from the paired differences; "
        "each difference's own 95% interval; a difference is significant when its Holm-adjusted p is "
        "below 0.05 (Holm over every figure of every variant, family-wise 5%), so an interval that excludes 0 "
        "alone does not make it so")
    doc["base"] = {"ref": request.refs[0], "edition": fig.edition_facts(base),
                   "figures": _figures(request, outcome.merged.tallies[0], base)}
    doc["variants"] = []
    for k, edition in enumerate(request.editions[1:], start=1):
        doc["variants"].append({
            "ref": request.refs[k],
            "edition": fig.edition_facts(edition),
            "differences": fig.paired_figures(outcome.merged.paired[k - 1], metrics),
            "figures": _figures(request, outcome.merged.tallies[k], edition),
        })
    doc["correction"] = CORRECTION
    fig.adjust(doc["variants"])
    return doc
