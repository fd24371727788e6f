"""The workbench's one seam into the simulator: play editions on a range of shared deal seeds.

A work shard is a simulator shard (same editions, bots, seed and deal range, so the simulator's
backends and warm-up run it unchanged) whose result keeps, besides the per-edition tallies, the
few per-game integers the workbench pairs by deal: scores, winner, length, bonus owner and who
bought the watched patch when. Deal i is seeded exactly as in `simulate` and `balance`
(toolkit.sim.shards), so a workbench run and a simulator run of the same seed play the same deals.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from toolkit.families import family_of
from toolkit.sim.backends import run_shards
from toolkit.sim.botspec import BotSpec, games_per_deal
from toolkit.sim.shards import ShardResult, deal_generators, merge_results, shard_size
from toolkit.stats import Tally, pair_tally
from toolkit.specs.models import Edition


@dataclass(frozen=True)
class WorkShard:
    """Deals start..stop of every edition (the fields the simulator's backends read, plus `watch`)."""

    index: int
    editions: tuple[Edition, ...]
    bots: tuple[BotSpec, ...]
    seed: int
    start: int
    stop: int
    watch: str | None = None
    """Id of the patch whose purchases are kept per game (price)."""

    @property
    def deals(self) -> int:
        return self.stop - self.start


@dataclass
class Games:
    """Per-game integers of one edition, games in deal order (a deal's games are consecutive)."""

    score: np.ndarray
    """(games, seats) final scores."""
    winner: np.ndarray
    """(games,) winning seat (time-track; -1 for Doodle)."""
    plies: np.ndarray
    bonus: np.ndarray
    """(games,) seat that took the bonus tile, -1 none."""
    buy_seat: np.ndarray
    """(games,) seat that bought the watched patch, -1 none or no patch watched."""
    buy_ply: np.ndarray

    @staticmethod
    def concat(parts: list["Games"]) -> "Games":
        return Games(*(np.concatenate([getattr(p, f) for p in parts]) for f in Games.__dataclass_fields__))


@dataclass
class WorkResult:
    index: int
    deals: int
    games: int
    """Games per edition in this shard."""
    tallies: list[Tally]
    """One per edition."""
    paired: list[Tally] = field(default_factory=list)
    """One per variant (editions[1:]), paired by deal against editions[0], as `balance` pairs them."""
    per_game: list[Games] = field(default_factory=list)


def run_work_shard(shard: WorkShard) -> WorkResult:
    """Play the shard's deals for every edition; pure: the result depends only on the shard."""
    base = shard.editions[0]
    per_deal = games_per_deal(shard.bots, base)
    game_rngs, bot_rngs, swap = deal_generators(shard.seed, shard.start, shard.stop, per_deal)
    n = game_rngs.shape[0]
    result = WorkResult(shard.index, shard.deals, n, [])
    base_outcomes = None
    for k, edition in enumerate(shard.editions):
        family = family_of(edition)
        out = family.play(edition, shard.bots, game_rngs, bot_rngs, swap)
        outcomes = family.outcomes(out, per_deal)
        if k == 0:
            base_outcomes = outcomes
        else:
            result.paired.append(pair_tally(base_outcomes, outcomes, [key for key in base_outcomes if key in outcomes]))
        result.tallies.append(family.tally(edition, out, swap))
        if "winner" in out:  # a race with a winner and patches bought (the time-track results)
            none = np.full(n, -1, dtype=np.int64)
            buy_seat, buy_ply = none, none
            if shard.watch is not None:
                i = [p.id for p in edition.all_patches()].index(shard.watch)
                buy_seat = out["buy_seat"][:, i].astype(np.int64)
                buy_ply = out["buy_ply"][:, i].astype(np.int64)
            games = Games(out["score"].astype(np.int64), out["winner"].astype(np.int64),
                          out["plies"].astype(np.int64), out["bonus_owner"].astype(np.int64), buy_seat, buy_ply)
        else:
            none = np.full(n, -1, dtype=np.int64)
            games = Games(out["score"].astype(np.int64), none, none, none, none, none)
        result.per_game.append(games)
    return result


@dataclass
class Played:
    """Everything a workbench run played: tallies and per-game integers per edition, in deal order."""

    deals: int
    games: int
    """Games per edition."""
    per_deal: int
    swap: np.ndarray
    """(games,) 1 when bots[1] sat in seat 0."""
    merged: ShardResult
    """Tallies per edition and paired tallies per variant, exactly as `simulate` / `balance` merge them."""
    per_game: list[Games]
    shards: int

    @property
    def tallies(self) -> list[Tally]:
        return self.merged.tallies


def play(
    editions: tuple[Edition, ...],
    bots: tuple[BotSpec, ...],
    seed: int,
    start: int,
    stop: int,
    workers: int = 1,
    scheduler: str | None = None,
    watch: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Played:
    """Play deals start..stop of every edition on the chosen backend; `progress(games)` per shard."""
    deals = stop - start
    size = shard_size(deals, bots)
    shards = [WorkShard(i, editions, bots, seed, a, min(a + size, stop), watch)
              for i, a in enumerate(range(start, stop, size))]

    def on_result(result: WorkResult) -> None:
        if progress:
            progress(result.games * len(editions))

    results = list(run_shards(shards, workers, scheduler, on_result, runner=run_work_shard))
    merged = merge_results(results)
    per_game = [Games.concat([r.per_game[k] for r in results]) for k in range(len(editions))]
    per_deal = games_per_deal(bots, editions[0])
    swap = np.tile(np.arange(per_deal, dtype=np.int64), deals) if per_deal == 2 else np.zeros(deals, dtype=np.int64)
    return Played(deals, deals * per_deal, per_deal, swap, merged, per_game, len(shards))


def combine(parts: list[Played]) -> Played:
    """Consecutive deal ranges of one experiment as one run (exact: sums and concatenation)."""
    merged = merge_results([p.merged for p in parts])
    per_game = [Games.concat([p.per_game[k] for p in parts]) for k in range(len(parts[0].per_game))]
    return Played(sum(p.deals for p in parts), sum(p.games for p in parts), parts[0].per_deal,
                  np.concatenate([p.swap for p in parts]), merged, per_game, sum(p.shards for p in parts))


def batches(first: int, most: int, growth: float = 1.5) -> list[tuple[int, int]]:
    """Deal ranges of a sequential run: `first` deals, then each look growing by `growth`, up to `most`."""
    ranges, start, size = [], 0, max(1, first)
    while start < most:
        stop = min(most, start + size)
        ranges.append((start, stop))
        start = stop
        size = max(1, math.ceil(size * growth))
    return ranges
