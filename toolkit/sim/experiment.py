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
from toolkit.sim.botspec import AUTOMA, BotSpec, games_per_deal, parse_bots, swaps_seats
from toolkit.sim.shards import ShardResult, make_shards, merge_results
from toolkit.sim.tallies import doodle_metrics, time_track_metrics
from toolkit.specs import load_edition
from toolkit.specs.models import Edition, Family

SEEDING = (
    "deal i is seeded by derive_seed(seed, i): the deal and the game's chance come from "
    "seed_state(deal seed), the bots of the deal's j-th game draw from seed_state(deal seed, 1 + j); "
    "`patchwork deal EDITION --seed <deal seed>` shows deal i"
)
MAX_GAMES = 10**9


@dataclass(frozen=True)
class Request:
    """A validated experiment: editions[0] is the base (the only one for `simulate`)."""

    refs: tuple[str, ...]
    """Editions as the user named them."""
    editions: tuple[Edition, ...]
    bots: tuple[BotSpec, ...]
    games: int
    """Games per edition."""
    seed: int
    workers: int
    scheduler: str | None

    @property
    def family(self) -> Family:
        return self.editions[0].family

    @property
    def per_deal(self) -> int:
        return games_per_deal(self.bots, self.editions[0])

    @property
    def deals(self) -> int:
        return self.games // self.per_deal

    @property
    def seat_swap(self) -> bool:
        return swaps_seats(self.bots, self.editions[0])


def seat_rule(bots: tuple[BotSpec, ...], edition: Edition) -> str:
    if edition.family == Family.DOODLE:
        if len(bots) == 1:
            return "Doodle solo: one seat, no swap"
        return "Doodle with several players: seat k is played by bot k in every game, nothing rotates"
    if any(b.kind == AUTOMA for b in bots):
        return "Automa: the player bot sits in seat 0 and always moves first (Automa rules); no swap"
    return "each deal is played twice with seats swapped: bot 0 in seat 0, then bot 1 in seat 0"


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
    from toolkit.sim import loops

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
        if edition.family != base.family:
            raise UsageError(
                f"variant '{ref}' is a {edition.family.value} edition but the base '{edition_refs[0]}' "
                f"is {base.family.value}: balance compares editions of one rules family")
    bots = parse_bots(bots_text, base, automa_level, automa_deck)
    for ref, edition in zip(edition_refs[1:], editions[1:]):
        if parse_bots(bots_text, edition, automa_level, automa_deck) != bots:
            raise UsageError(f"--bots '{bots_text}' cannot play '{ref}' the same way as the base")
    if base.family == Family.TIME_TRACK:
        loops.check_available(bots, loops.TIME_TRACK_KINDS, "time-track")
    else:
        loops.check_available(bots, loops.DOODLE_KINDS, "Doodle")
    per_deal = games_per_deal(bots, base)
    if games % per_deal:
        raise UsageError(
            f"--games {games}: each deal is played twice with seats swapped, so the number of "
            f"games must be even (e.g. {games + 1})")
    # Build the kernel tables here, so a spec the engine cannot play fails once, before any worker starts.
    for edition in editions:
        if edition.family == Family.TIME_TRACK:
            from toolkit.games.timetrack.tables import tables_for

            tables_for(edition)
        else:
            from toolkit.games.doodle.kernel import build_tables

            build_tables(edition)
    return Request(tuple(edition_refs), editions, bots, games, seed, workers, scheduler)


@dataclass
class Outcome:
    """The merged statistics of a run."""

    merged: ShardResult
    shards: int
    elapsed: float
    """Wall-clock seconds (reported in the terminal, never in the result files)."""


def run(request: Request, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Play every shard of the request; `progress(done_games, total_games)` after each shard."""
    shards = make_shards(request.editions, request.bots, request.seed, request.deals)
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
    if edition.family == Family.TIME_TRACK:
        return fig.time_track_figures(tally, edition, request.bots, request.seat_swap)
    return fig.doodle_figures(tally, edition, request.bots)


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
        "seats": seat_rule(request.bots, request.editions[0]),
        "intervals": "95%: Wilson for proportions, normal approximation for means and paired differences",
    }


def simulation_document(request: Request, outcome: Outcome, command: str) -> dict:
    """The full JSON result of `patchwork simulate`."""
    edition = request.editions[0]
    doc = _header(request, command, "simulation")
    doc["edition"] = fig.edition_facts(edition)
    doc["figures"] = _figures(request, outcome.merged.tallies[0], edition)
    return doc


def balance_metrics(request: Request):
    if request.family == Family.TIME_TRACK:
        return time_track_metrics(request.per_deal)
    rounds = max(e.rounds for e in request.editions)
    return doodle_metrics(len(request.bots), rounds)


def balance_document(request: Request, outcome: Outcome, command: str) -> dict:
    """The full JSON result of `patchwork balance`: paired differences of each variant from the base."""
    doc = _header(request, command, "balance")
    base = request.editions[0]
    metrics = balance_metrics(request)
    doc["pairing"] = (
        "every variant plays the same deal seeds as the base; per deal, difference = variant "
        "outcome - base outcome; mean and standard error from the paired differences; "
        "significant when the 95% interval excludes 0")
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
    return doc
