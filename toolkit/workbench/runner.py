"""The workbench's one seam into the simulator: play editions on a range of shared deal seeds.

A workbench run is a run of the simulator's own shards (toolkit.sim.shards) on its backends
(toolkit.sim.backends), asked to keep every game's integers, which the workbench pairs by deal
(Games: scores, winner, length, bonus owner and who bought the watched patch when). Deal i is
seeded exactly as in `simulate` and `balance`, so a workbench run and a simulator run of the same
seed play the same deals; a sequential run plays consecutive deal ranges and combines them.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toolkit.families import Seating
from toolkit.sim.backends import run_shards
from toolkit.sim.shards import Games, ShardResult, make_shards, merge_results
from toolkit.specs.models import Edition
from toolkit.stats import Tally


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
    """Tallies per edition and paired tallies per variant, exactly as `simulate` / `balance` merge
    them, and every game's integers per edition."""
    shards: int

    @property
    def tallies(self) -> list[Tally]:
        return self.merged.tallies

    @property
    def per_game(self) -> list[Games]:
        return self.merged.per_game


def play(
    editions: tuple[Edition, ...],
    seating: Seating,
    seed: int,
    start: int,
    stop: int,
    workers: int = 1,
    scheduler: str | None = None,
    watch: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Played:
    """Play deals start..stop of every edition on the chosen backend, the bots sat as `seating`
    says (toolkit.sim.botspec.seat_bots); `progress(games)` per shard."""
    deals = stop - start
    shards = make_shards(editions, seating, seed, deals, first=start, keep_games=True, watch=watch)

    def on_result(result: ShardResult) -> None:
        if progress:
            progress(result.games * len(editions))

    merged = merge_results(run_shards(shards, workers, scheduler, on_result))
    per_deal = seating.games_per_deal
    swap = np.tile(np.arange(per_deal, dtype=np.int64), deals) if per_deal == 2 else np.zeros(deals, dtype=np.int64)
    return Played(deals, merged.games, per_deal, swap, merged, len(shards))


def combine(parts: list[Played]) -> Played:
    """Consecutive deal ranges of one experiment as one run (exact: sums and concatenation)."""
    merged = merge_results([p.merged for p in parts])
    return Played(sum(p.deals for p in parts), sum(p.games for p in parts), parts[0].per_deal,
                  np.concatenate([p.swap for p in parts]), merged, sum(p.shards for p in parts))


def batches(first: int, most: int, growth: float = 1.5) -> list[tuple[int, int]]:
    """Deal ranges of a sequential run: `first` deals, then each look growing by `growth`, up to `most`."""
    ranges, start, size = [], 0, max(1, first)
    while start < most:
        stop = min(most, start + size)
        ranges.append((start, stop))
        start = stop
        size = max(1, math.ceil(size * growth))
    return ranges
