"""Seeds and shards: the pure unit of work every backend runs.

Deal i of a run with master seed S is seeded by `derive_seed(S, i)`: its game generator (the
deal itself and every chance event of the game) is `seed_state(deal_seed)`, and the bots draw
from `seed_state(deal_seed, 1 + j)` in the deal's j-th game. With seat swap, a deal is played
twice, bots[0] in seat 0 then bots[1] in seat 0, on the very same deal; with Automa (the player
bot always moves first) and in Doodle a deal is one game.

A shard is (editions, seating, master seed, deal range) -> ShardResult: one Tally per edition and,
for balance experiments, one paired Tally per variant (differences against editions[0] on the
same deals); the workbench asks a shard to keep every game's integers as well (Games: scores,
winner, length, bonus owner, who bought a watched patch when), which it pairs by deal. A shard
reads nothing else, so any backend, any worker count and any scheduling give the same results;
the shard plan depends only on the deal range and the bots. `simulate`, `balance` and every
workbench tool run their games as these shards, on the backends of toolkit.sim.backends.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import overload
from dataclasses import dataclass, field

import numpy as np

from toolkit.bots.registry import EXPERT, GREEDY, MCTS, RANDOM, BotSpec
from toolkit.families import Seating, family_of
from toolkit.stats import Tally, pair_tally
from toolkit.specs.models import Edition


@dataclass(frozen=True)
class Shard:
    """A contiguous range of deals to play for every edition of an experiment."""

    index: int
    editions: tuple[Edition, ...]
    """editions[0] is the base; the others are variants paired against it."""
    seating: Seating
    """How the bots sit: the Seating their family made of the `--bots` text (toolkit.sim.botspec.seat_bots)."""
    seed: int
    start: int
    """First deal (inclusive)."""
    stop: int
    """Last deal (exclusive)."""
    keep_games: bool = False
    """Keep every game's integers (ShardResult.per_game) besides the tallies."""
    watch: str | None = None
    """Id of a patch whose buyer and purchase ply the kept games record (`patchwork price`)."""

    @property
    def deals(self) -> int:
        return self.stop - self.start

    @property
    def bots(self) -> tuple[BotSpec, ...]:
        """The bot of each seat, in the order the seating gives them."""
        return self.seating.bots

    @property
    def per_deal(self) -> int:
        """Games per deal: 2 when the seating swaps seats."""
        return self.seating.games_per_deal


@dataclass
class Games:
    """Per-game integers of one edition, games in deal order (a deal's games are consecutive)."""

    score: np.ndarray
    """(games, seats) final scores."""
    winner: np.ndarray
    """(games,) winning seat (-1 in a game without a winner, such as Doodle's)."""
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
class ShardResult:
    """Mergeable statistics of one shard."""

    index: int
    deals: int
    games: int
    """Games per edition."""
    tallies: list[Tally]
    """One per edition."""
    paired: list[Tally]
    """One per variant (editions[1:])."""
    per_game: list[Games] = field(default_factory=list)
    """One per edition when the shard keeps its games, else empty."""


try:  # CPython's own SHA-256: for a 30-byte text about half the cost of OpenSSL's, which allocates a context per call
    from _sha2 import sha256 as _sha256  # type: ignore[import-not-found]  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]  # Python 3.11
    except ImportError:
        from hashlib import sha256 as _sha256

_SEED_TEXT = b"patchwork-toolkit/seed/"
_STATE_TEXT = b"patchwork-toolkit/rng/"
"""The texts `derive_seed` and `seed_state` hash (toolkit.games.rng), whose numbers deal_generators
makes without a Python call per generator."""


def deal_generators(seed: int, start: int, stop: int, per_deal: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game generator states, bot generator states, seat swap) for the games of deals start..stop.

    The numbers of `derive_seed(seed, deal)`, `seed_state(deal_seed)` and `seed_state(deal_seed,
    1 + j)` (tested equal): made here in a few loops and read as words all at once, since seeding
    the generators one call at a time took a fifth of the time of playing random games."""
    seed_text = _SEED_TEXT + b"%d," % seed
    frombytes = int.from_bytes
    deal_seeds = [frombytes(_sha256(seed_text + b"%d" % deal).digest()[:8], "little") >> 1
                  for deal in range(start, stop)]
    texts = [_STATE_TEXT + b"%d" % deal_seed for deal_seed in deal_seeds]
    digests = [b"".join([_sha256(text).digest() for text in texts])]
    for j in range(1, per_deal + 1):
        salt = b",%d" % j
        digests.append(b"".join([_sha256(text + salt).digest() for text in texts]))
    deals = stop - start
    # words[k, d] are the 8 little-endian words of digest k of deal d; a state is the first 4
    words = np.frombuffer(b"".join(digests), dtype="<u4").reshape(1 + per_deal, deals, 8)[:, :, :4].astype(np.int64)
    words[~words.any(axis=2), 0] = 1  # an all-zero state would stay zero: seed_state's rule
    game_rngs = np.repeat(words[0], per_deal, axis=0)
    bot_rngs = np.ascontiguousarray(words[1:].transpose(1, 0, 2)).reshape(deals * per_deal, 4)
    swap = np.tile(np.arange(per_deal, dtype=np.int64), deals)
    return game_rngs, bot_rngs, swap


COST_UNIT_SECONDS = 0.0002
"""About how long one unit of `_deal_cost` plays on one core: deals of classic with random, greedy
and mcts:100 bots took 0.14, 0.20 and 0.25 ms per unit."""
SHARD_COST = 4000
"""Most cost units in one shard (about a second of play), unless a single deal costs more."""
MOVES_PER_SEAT = 21
"""Moves of one seat in a time-track game: a classic game lasts 42 plies on average with random,
greedy and MCTS bots alike (Express is shorter)."""
EXPERT_SEAT_SECONDS = 3.5
"""One seat of a Doodle game played by the expert: its last-round search over every die sequence
takes about 3.5 s of one core a game (benchmarks/bench_doodle_bots.py: 1,000 solo games in 3,507
CPU-seconds), against milliseconds for every other bot."""


def _deal_cost(bots: tuple[BotSpec, ...]) -> int:
    """Rough relative cost of one deal, to keep shards of similar duration.

    A time budget (`mcts:0.5s`) is costed by the time it spends: seconds per move x MOVES_PER_SEAT
    x the 2 games of a seat-swapped deal. Like every other cost it is a fixed estimate from the
    bots, never a measurement of this machine or its workers, so the plan stays the same for any
    worker count and any backend.
    """
    cost = 1
    for bot in bots:
        if bot.kind == GREEDY:
            cost += 10
        elif bot.timed:
            seconds = -bot.iterations / 1_000_000  # the budget's code is negative microseconds
            cost += math.ceil(seconds * MOVES_PER_SEAT * 2 / COST_UNIT_SECONDS)
        elif bot.kind == MCTS:
            cost += bot.iterations * 10
        elif bot.kind == EXPERT:
            cost += math.ceil(EXPERT_SEAT_SECONDS / COST_UNIT_SECONDS)
    return cost


def shard_size(deals: int, bots: tuple[BotSpec, ...], max_shards: int = 64) -> int:
    """Deals per shard: about `max_shards` shards, none too long to run (depends on nothing else)."""
    cap = max(1, SHARD_COST // _deal_cost(bots))
    return max(1, min(cap, math.ceil(max(deals, 1) / max_shards)))


def plan_shards(deals: int, bots: tuple[BotSpec, ...], max_shards: int = 64) -> list[tuple[int, int]]:
    """Deal ranges covering 0..deals in order (the ranges of a ShardPlan's shards)."""
    size = shard_size(deals, bots, max_shards)
    return [(start, min(start + size, deals)) for start in range(0, deals, size)]


class ShardPlan(Sequence[Shard]):
    """The shards of deals first..first+deals, made on demand so a run of any length holds only
    the ones in flight."""

    def __init__(self, editions: tuple[Edition, ...], seating: Seating, seed: int, deals: int,
                 max_shards: int = 64, *, first: int = 0, keep_games: bool = False, watch: str | None = None):
        self.editions = editions
        self.seating = seating
        self.seed = seed
        self.deals = deals
        self.first = first
        self.keep_games = keep_games
        self.watch = watch
        self.size = shard_size(deals, seating.bots, max_shards)

    def __len__(self) -> int:
        return math.ceil(self.deals / self.size) if self.deals > 0 else 0

    @overload
    def __getitem__(self, index: int) -> Shard: ...
    @overload
    def __getitem__(self, index: slice) -> list[Shard]: ...

    def __getitem__(self, index: int | slice) -> Shard | list[Shard]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        start = self.first + index * self.size
        stop = min(start + self.size, self.first + self.deals)
        return Shard(index, self.editions, self.seating, self.seed, start, stop, self.keep_games, self.watch)


def make_shards(editions: tuple[Edition, ...], seating: Seating, seed: int, deals: int, *,
                first: int = 0, keep_games: bool = False, watch: str | None = None) -> ShardPlan:
    """The shards of deals first..first+deals (a sequential run plays consecutive ranges), every
    one carrying the seating it was given."""
    return ShardPlan(editions, seating, seed, deals, first=first, keep_games=keep_games, watch=watch)


# ----- playing a shard ---------------------------------------------------------------------------


def _play(edition: Edition, bots: tuple[BotSpec, ...], game_rngs, bot_rngs, swap) -> dict[str, np.ndarray]:
    return family_of(edition).play(edition, bots, game_rngs, bot_rngs, swap)


def warm_up(shard: Shard) -> None:
    """Compile or load the shard's turn loop in this process, playing one throw-away game.

    Worker processes then load the loop from numba's on-disk cache instead of each compiling it.
    The bot kinds are runtime values of the one compiled loop, so random bots warm it fully.
    """
    edition = shard.editions[0]
    bots = tuple(BotSpec("random", RANDOM) for _ in shard.bots)
    game_rngs, bot_rngs, swap = deal_generators(shard.seed, 0, 1, 1)
    _play(edition, bots, game_rngs, bot_rngs, swap)


def _games(edition: Edition, out: dict[str, np.ndarray], watch: str | None) -> Games:
    """The integers the workbench keeps of each game the turn loop played."""
    n = out["score"].shape[0]
    none = np.full(n, -1, dtype=np.int64)
    if "winner" not in out:  # a game without a race: only the scores
        return Games(out["score"].astype(np.int64), none, none, none, none, none)
    buy_seat, buy_ply = none, none
    if watch is not None:
        i = [p.id for p in edition.all_patches()].index(watch)
        buy_seat = out["buy_seat"][:, i].astype(np.int64)
        buy_ply = out["buy_ply"][:, i].astype(np.int64)
    return Games(out["score"].astype(np.int64), out["winner"].astype(np.int64), out["plies"].astype(np.int64),
                 out["bonus_owner"].astype(np.int64), buy_seat, buy_ply)


def run_shard(shard: Shard) -> ShardResult:
    """Play the shard's deals for every edition; pure: the result depends only on the shard."""
    per_deal = shard.per_deal
    game_rngs, bot_rngs, swap = deal_generators(shard.seed, shard.start, shard.stop, per_deal)
    result = ShardResult(shard.index, shard.deals, shard.deals * per_deal, [], [])
    base_outcomes: dict[str, np.ndarray] | None = None
    for k, edition in enumerate(shard.editions):
        family = family_of(edition)
        out = family.play(edition, shard.bots, game_rngs, bot_rngs, swap)
        result.tallies.append(family.tally(edition, out, swap))
        if len(shard.editions) > 1:  # per-deal outcomes are for pairing variants with the base
            outcomes = family.outcomes(out, per_deal)
            if base_outcomes is None:  # the base, editions[0]
                base_outcomes = outcomes
            else:
                keys = [key for key in base_outcomes if key in outcomes]
                result.paired.append(pair_tally(base_outcomes, outcomes, keys))
        if shard.keep_games:
            result.per_game.append(_games(edition, out, shard.watch))
        del out
    return result


def merge_results(results: Iterable[ShardResult]) -> ShardResult:
    """Merge shard results given in shard order into one (exact: integer sums; kept games in order)."""
    merged: ShardResult | None = None
    kept: list[list[Games]] = []
    for result in results:
        if merged is None:
            merged = ShardResult(-1, 0, 0, [Tally() for _ in result.tallies], [Tally() for _ in result.paired])
            kept = [[] for _ in result.per_game]
        merged.deals += result.deals
        merged.games += result.games
        for mine, theirs in zip(merged.tallies, result.tallies):
            mine.merge(theirs)
        for mine, theirs in zip(merged.paired, result.paired):
            mine.merge(theirs)
        for parts, games in zip(kept, result.per_game):
            parts.append(games)
    if merged is None:
        raise ValueError("no shard results to merge")
    merged.per_game = [Games.concat(parts) for parts in kept]
    return merged
