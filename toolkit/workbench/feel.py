"""`patchwork feel`: how a game feels, measured from seeded bot games (the kinds of measures Ludii
and Browne's design work use: lead changes, when the result was settled, comebacks, close games,
decisive moves).

Every game is played through the library play loop (toolkit.play: seat, new_game, Session), and
after every action each seat's *standing* is recorded: the score it would have if the game ended
now, plus, in a game with a time track, the buttons its quilt will still pay at the income marks
ahead of its time token (income x marks ahead). The measures of one game are computed from that
sequence of standings (`game_measures`, which the tests check on hand-made sequences); a run's
figures are their means and shares with 95% intervals, and for a variant the paired difference
from the base on the same seeds.

Every game is its own deal (SAMPLING_UNIT): game k is dealt from its own seed and the seats are never
swapped, so the games are independent and the intervals count them one by one. The paired tests of
one run (every measure of every variant) form one family: `family_adjusted` applies Holm's
adjustment over all of them, so the chance that a run claims any change where there is none is at
most ALPHA, however many measures and variants it tests.

Bias of the standing: it counts what is certain (buttons, income still to be paid, the bonus tile
held) and charges every empty cell now, so a seat that has just turned buttons into a large patch
gains at once, and buttons not yet spent look worth one point each although they will buy cells
worth two. Both seats start equal, so the lead (one standing minus another) is fairer than the
standings themselves, but a lead early in the game is a noisy guess of the result.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from toolkit.families import family_of
from toolkit.games.rng import derive_seed
from toolkit.specs.models import Edition
from toolkit.stats import holm, mean_interval, minimum_detectable, paired_difference, wilson

COMEBACK = 5
"""Points the winner must have trailed by (at the worst moment) for a game to count as a comeback."""
CLOSE = 3
"""Final margins (winner minus the best other seat) up to this many points make a close game."""
DECISIVE = 5
"""A decision is decisive when its best choice beats the second best by at least this many points."""

DEFINITIONS = {
    "standing": ("each seat's score if the game ended now; in a game with a time track, plus its quilt's income "
                 "times the income marks still ahead of its time token"),
    "lead_changes": ("times the strict leader (the one seat with the highest standing) becomes another seat, counted "
                     "after every action; moments with a tie for the lead keep the last leader"),
    "decided_at": ("share of the game's actions played before the winner's lead became permanent: the first action "
                   "after which the winner's standing is never below another seat's (0: never behind; games "
                   "without a single winner are left out)"),
    "winner_deficit": "the winner's largest deficit: most points the winner's standing trailed the best other seat by",
    "comeback": f"share of games in which the winner trailed by {COMEBACK} or more points at some moment",
    "close": f"share of games whose final margin (winner minus the best other seat) is {CLOSE} points or less",
    "decisive": (f"decisions per game (of a seat with two or more legal actions) whose best choice beats the "
                 f"second best by {DECISIVE} or more points, each choice valued one action ahead by the mover's "
                 "standing minus the best other seat's; a one-action look misses plans, so it undercounts "
                 "decisions that pay off later"),
    "choice_gap": "mean over decisions of the points between the best and second-best choice (as for decisive)",
}


def standing(game, edition: Edition) -> list[float]:
    """Each seat's standing now (see DEFINITIONS)."""
    scores = [float(s) for s in game.scores()]
    if family_of(edition).info.has_time_track and not game.is_over:
        marks = edition.timetrack_rules.track.income_marks
        for at, (pos, income) in enumerate(zip(game.positions, game.income)):
            scores[at] += income * sum(1 for m in marks if m > pos)
    return scores


@dataclass(frozen=True)
class GameMeasures:
    """The feel measures of one game."""

    lead_changes: int
    decided_at: float | None
    """None when the game has no single winner."""
    winner_deficit: float | None
    margin: float
    decisive: int | None
    """None when decisive moves were not measured."""
    gaps: tuple[float, ...] = ()


def _strict_leader(row: Sequence[float]) -> int | None:
    top = max(row)
    leaders = [i for i, v in enumerate(row) if v == top]
    return leaders[0] if len(leaders) == 1 else None


def game_measures(standings: Sequence[Sequence[float]], winner: int | None,
                  gaps: Sequence[float] | None = None) -> GameMeasures:
    """Measures from the standings after each action (row 0: before the first action; the last row:
    the final scores) and the winning seat (None: no single winner)."""
    changes, last = 0, None
    for row in standings:
        leader = _strict_leader(row)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    final = standings[-1]
    ordered = sorted(final, reverse=True)
    margin = float(ordered[0] - ordered[1]) if len(final) > 1 else 0.0
    decided_at = deficit = None
    if winner is not None and len(final) > 1:
        behind = [max(v for i, v in enumerate(row) if i != winner) - row[winner] for row in standings]
        deficit = float(max(0.0, max(behind)))
        later = [t for t, d in enumerate(behind) if d > 0]
        first = later[-1] + 1 if later else 0
        decided_at = first / max(1, len(standings) - 1)
        margin = float(final[winner] - max(v for i, v in enumerate(final) if i != winner))
    decisive = None if gaps is None else sum(1 for g in gaps if g >= DECISIVE)
    return GameMeasures(changes, decided_at, deficit, margin, decisive, tuple(gaps or ()))


def choice_gap(game, edition: Edition) -> float | None:
    """Points between the best and second-best legal action now, one action ahead (None: one choice)."""
    actions = game.legal_actions()
    if len(actions) < 2:
        return None
    mover = game.current_player
    values = []
    for action in actions:
        after = game.copy()
        after.apply(action)
        row = standing(after, edition)
        values.append(row[mover] - max(v for i, v in enumerate(row) if i != mover))
    values.sort(reverse=True)
    return float(values[0] - values[1])


def play_game(edition: Edition, bots: str, seed: int, decisive: bool = False) -> GameMeasures:
    """One seeded bot game through the library play loop, measured."""
    from toolkit.play import Session, new_game, seat
    from toolkit.bots.registry import split_bots

    players = len(split_bots(bots)) if family_of(edition).info.fixed_seats is None else None
    seats = seat(edition, bots, players)
    game = new_game(edition, seed, players, seats)
    session = Session(game, seats, seed)
    standings = [standing(game, edition)]
    gaps: list[float] | None = [] if decisive else None
    while session.bot_to_move() is not None:
        if gaps is not None:
            gap = choice_gap(session.game, edition)
            if gap is not None:
                gaps.append(gap)
        session.bot_move()
        standings.append(standing(session.game, edition))
    standings[-1] = [float(s) for s in session.game.scores()]
    winners = session.game.winners()
    winner = winners[0] if len(winners) == 1 else None
    return game_measures(standings, winner, gaps)


def seeds(seed: int, games: int) -> list[int]:
    """Game k plays seed derive_seed(seed, k): the seed `patchwork deal` shows for deal k of a run."""
    return [derive_seed(seed, k) for k in range(games)]


CHUNK = 25
"""Games per task handed to a worker: small enough for a live progress bar and an even spread."""


@dataclass(frozen=True)
class Chunk:
    """Consecutive games of one edition's run: one task for a worker process."""

    edition: Edition
    bots: str
    seeds: tuple[int, ...]
    decisive: bool


def play_chunk(chunk: Chunk) -> list[GameMeasures]:
    return [play_game(chunk.edition, chunk.bots, s, chunk.decisive) for s in chunk.seeds]


def run(edition: Edition, bots: str, seed: int, games: int, decisive: bool = False,
        progress: Callable[[int], None] | None = None, workers: int = 1) -> list[GameMeasures]:
    """Games 0..games-1 of one edition, in game order whatever the number of worker processes (each
    game depends on its own seed only, so the measures are identical for any `workers`)."""
    from toolkit.sim.backends import run_calls

    every = seeds(seed, games)
    chunks = [Chunk(edition, bots, tuple(every[i:i + CHUNK]), decisive) for i in range(0, games, CHUNK)]
    out: list[GameMeasures] = []
    for measures in run_calls(play_chunk, chunks, workers, lambda done: progress(len(done)) if progress else None):
        out.extend(measures)
    return out


def _mean(values: Sequence[float]) -> dict:
    x = np.asarray(values, dtype=float)
    return mean_interval(len(x), float(x.sum()), float((x * x).sum())).as_dict()


def _share(flags: Sequence[bool]) -> dict:
    return wilson(int(sum(flags)), len(flags)).as_dict()


def figures(measures: Sequence[GameMeasures]) -> dict:
    """The run's feel figures with 95% intervals (normal for means, Wilson for shares)."""
    # (when, deficit) of the games with a single winner: game_measures sets both or neither
    won = [(m.decided_at, m.winner_deficit) for m in measures
           if m.decided_at is not None and m.winner_deficit is not None]
    out = {
        "games": len(measures),
        "lead_changes": _mean([m.lead_changes for m in measures]),
        "decided_at": _mean([at for at, _ in won]),
        "winner_deficit": _mean([deficit for _, deficit in won]),
        "comeback": _share([deficit >= COMEBACK for _, deficit in won]),
        "close": _share([abs(m.margin) <= CLOSE for m in measures]),
    }
    if measures and measures[0].decisive is not None:
        # a run measures decisive moves in every game or in none
        out["decisive"] = _mean([m.decisive for m in measures if m.decisive is not None])
        out["choice_gap"] = _mean([g for m in measures for g in m.gaps])
    return out


PAIRED = ("lead_changes", "decided_at", "winner_deficit", "comeback", "close", "decisive")


def _per_game(m: GameMeasures, name: str) -> float | None:
    if name == "comeback":
        return None if m.winner_deficit is None else float(m.winner_deficit >= COMEBACK)
    if name == "close":
        return float(abs(m.margin) <= CLOSE)
    value = getattr(m, name)
    return None if value is None else float(value)


def differences(base: Sequence[GameMeasures], variant: Sequence[GameMeasures]) -> dict:
    """Paired differences (variant - base) per measure over games with the same seed where both
    have the measure."""
    out = {}
    for name in PAIRED:
        d = [b2 - b1 for m1, m2 in zip(base, variant)
             if (b1 := _per_game(m1, name)) is not None and (b2 := _per_game(m2, name)) is not None]
        if not d:
            continue
        x = np.asarray(d)
        out[name] = paired_difference(len(x), float(x.sum()), float((x * x).sum())).as_dict()
    return out


ALPHA = 0.05
"""Family-wise error of one run's claims: the chance of naming any change where there is none."""
CORRECTION = "holm"
SAMPLING_UNIT = ("the game: every game is its own deal (game k is dealt from seed derive_seed(seed, k), the seats as "
                 "named and never swapped), so the games are independent and the intervals count them one by one; "
                 "a variant's game k is paired with the base's game k")


def family_adjusted(per_variant: Sequence[dict]) -> list[dict]:
    """Every variant's `differences` with Holm's adjustment over all the paired tests of the run (each
    measure of each variant): `p_value` stays the test's own, `p_adjusted` is Holm's, `significant`
    says p_adjusted < ALPHA, and `detectable` is the smallest difference the test finds with 80%
    power at the strictest Holm level (ALPHA / number of tests)."""
    raw = {f"{k}/{name}": d["p_value"] for k, diffs in enumerate(per_variant) for name, d in diffs.items()}
    adjusted = holm(raw)
    tests = sum(1 for p in raw.values() if p is not None)
    out = []
    for k, diffs in enumerate(per_variant):
        variant = {}
        for name, d in diffs.items():
            p = adjusted[f"{k}/{name}"]
            detectable = minimum_detectable(d["se"], ALPHA / max(1, tests)) if d["se"] else None
            variant[name] = {**d, "p_adjusted": None if p is None else round(p, 6) + 0.0,
                             "significant": p is not None and p < ALPHA,
                             "detectable": None if detectable is None else round(detectable, 6)}
        out.append(variant)
    return out


def multiple_testing(per_variant: Sequence[dict]) -> dict:
    """How the run's claims are corrected, for results.json."""
    tests = sum(1 for diffs in per_variant for d in diffs.values() if d["p_value"] is not None)
    return {"correction": CORRECTION, "alpha": ALPHA, "tests": tests,
            "family": "every measure of every variant, each paired with the base on the same seeds",
            "rule": (f"Holm's step-down adjustment over the {tests} paired tests; a difference is named when its "
                     f"adjusted p-value is below {ALPHA:g}, so the chance of naming any change where none exists "
                     f"is at most {ALPHA:.0%}")}

