"""From the turn loops' per-game arrays to mergeable tallies and per-deal outcomes.

`tally_time_track` / `tally_doodle` reduce one shard's result arrays to a `Tally` (integer sums
and histograms), so a shard returns a few kilobytes whatever its size and a long run keeps no
per-game data. `deal_outcomes` gives the per-deal integers that balance experiments pair between
the base edition and a variant (a deal is the two seat-swapped games, or one game without swap).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toolkit.sim.stats import Tally


# ----- time-track --------------------------------------------------------------------------------


def tally_time_track(out: dict[str, np.ndarray], swap: np.ndarray) -> Tally:
    """Sums and histograms of a batch of time-track games.

    Seat s of game g is played by bot s ^ swap[g]; figures are kept per seat (seat 0 moves first)
    and per bot (the order of --bots).
    """
    t = Tally()
    n = out["winner"].shape[0]
    swap = swap.astype(np.int64)
    score = out["score"].astype(np.int64)
    winner = out["winner"].astype(np.int64)
    bonus = out["bonus_owner"].astype(np.int64)
    plies = out["plies"].astype(np.int64)
    # Bot b sits in seat b ^ swap[g].
    bot_seat = np.stack([swap, 1 - swap], axis=1)
    score_bot = np.take_along_axis(score, bot_seat, axis=1)
    t.add("games", n)
    t.add("seat.wins", [(winner == 0).sum(), (winner == 1).sum()])
    t.add("bot.wins", [(winner == bot_seat[:, 0]).sum(), (winner == bot_seat[:, 1]).sum()])
    t.add("seat.score", score.sum(axis=0))
    t.add("seat.score_sq", (score * score).sum(axis=0))
    t.add("bot.score", score_bot.sum(axis=0))
    t.add("bot.score_sq", (score_bot * score_bot).sum(axis=0))
    margin = score[:, 0] - score[:, 1]
    bot_margin = score_bot[:, 0] - score_bot[:, 1]
    t.add("seat.margin", margin.sum())
    t.add("seat.margin_sq", (margin * margin).sum())
    t.add("bot.margin", bot_margin.sum())
    t.add("bot.margin_sq", (bot_margin * bot_margin).sum())
    t.add("ties", (margin == 0).sum())
    t.add("plies", plies.sum())
    t.add("plies_sq", (plies * plies).sum())
    t.add("seat.first_finisher", [(out["first_finisher"] == 0).sum(), (out["first_finisher"] == 1).sum()])
    t.add("seat.bonus", [(bonus == 0).sum(), (bonus == 1).sum()])
    t.add("bot.bonus", [(bonus == bot_seat[:, 0]).sum(), (bonus == bot_seat[:, 1]).sum()])
    for key in ("buttons", "empty", "leather", "income"):
        values = out[key].astype(np.int64)
        t.add(f"seat.{key}", values.sum(axis=0))
        t.add(f"seat.{key}_sq", (values * values).sum(axis=0))
        per_bot = np.take_along_axis(values, bot_seat, axis=1)
        t.add(f"bot.{key}", per_bot.sum(axis=0))
    for seat in range(2):
        t.count(f"score.seat{seat}", score[:, seat])
        t.count(f"score.bot{seat}", score_bot[:, seat])
    t.count("margin.seat", margin)
    t.count("margin.bot", bot_margin)
    t.count("plies", plies)

    buy_seat = out["buy_seat"].astype(np.int64)
    buy_ply = out["buy_ply"].astype(np.int64)
    bought = buy_seat >= 0
    buy_bot = np.where(bought, buy_seat ^ swap[:, None], -1)
    t.add("patch.bought", bought.sum(axis=0))
    t.add("patch.by_seat", np.stack([(buy_seat == 0).sum(axis=0), (buy_seat == 1).sum(axis=0)], axis=1))
    t.add("patch.by_bot", np.stack([(buy_bot == 0).sum(axis=0), (buy_bot == 1).sum(axis=0)], axis=1))
    ply = np.where(bought, buy_ply, 0)
    t.add("patch.ply", ply.sum(axis=0))
    t.add("patch.ply_sq", (ply * ply).sum(axis=0))
    t.add("patch.buyer_won", (bought & (buy_seat == winner[:, None])).sum(axis=0))
    return t


def time_track_outcomes(out: dict[str, np.ndarray], per_deal: int) -> dict[str, np.ndarray]:
    """Per-deal integer outcomes (summed over the deal's games) that balance pairs."""
    score = out["score"].astype(np.int64)
    deals = score.shape[0] // per_deal

    def by_deal(values: np.ndarray) -> np.ndarray:
        return values.reshape(deals, per_deal).sum(axis=1)

    return {
        "seat0_win": by_deal((out["winner"] == 0).astype(np.int64)),
        "score_seat0": by_deal(score[:, 0]),
        "score_seat1": by_deal(score[:, 1]),
        "margin": by_deal(score[:, 0] - score[:, 1]),
        "plies": by_deal(out["plies"].astype(np.int64)),
        "bonus": by_deal((out["bonus_owner"] >= 0).astype(np.int64)),
    }


# ----- Doodle ------------------------------------------------------------------------------------


def tally_doodle(out: dict[str, np.ndarray], start_cards: int) -> Tally:
    """Sums and histograms of a batch of Doodle games (every player of every game)."""
    t = Tally()
    score = out["score"].astype(np.int64)
    n, players = score.shape
    rounds = out["round_scores"].shape[2]
    flat = score.ravel()
    t.add("games", n)
    t.add("player_games", n * players)
    t.add("score", flat.sum())
    t.add("score_sq", (flat * flat).sum())
    t.add("seat.score", score.sum(axis=0))
    t.add("seat.score_sq", (score * score).sum(axis=0))
    if players > 1:
        top = score == score.max(axis=1, keepdims=True)
        t.add("seat.top", top.sum(axis=0))
        t.add("shared_top", (top.sum(axis=1) > 1).sum())
    t.count("score", flat)
    cards = out["start_card"].astype(np.int64).ravel()
    t.add("card.games", np.bincount(cards, minlength=start_cards)[:start_cards])
    t.add("card.score", np.bincount(cards, weights=flat, minlength=start_cards)[:start_cards].round().astype(np.int64))
    t.add("card.score_sq", np.bincount(cards, weights=flat * flat, minlength=start_cards)[:start_cards].round().astype(np.int64))
    specials = out["specials"].astype(np.int64).reshape(n * players, -1)
    t.add("special.uses", specials.sum(axis=0))
    t.add("special.used", (specials > 0).sum(axis=0))
    rs = out["round_scores"].astype(np.int64).reshape(n * players, rounds)
    t.add("round.score", rs.sum(axis=0))
    t.add("round.score_sq", (rs * rs).sum(axis=0))
    for r in range(rounds):
        t.count(f"round{r + 1}", rs[:, r])
    empty = out["empty"].astype(np.int64).ravel()
    t.add("empty", empty.sum())
    t.add("empty_sq", (empty * empty).sum())
    t.count("empty", empty)
    drawn = out["drawn"].astype(np.int64).ravel()
    t.add("drawn", drawn.sum())
    t.add("drawn_sq", (drawn * drawn).sum())
    return t


def doodle_outcomes(out: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per-deal (= per game) outcomes summed over the players, for balance pairing."""
    score = out["score"].astype(np.int64)
    rs = out["round_scores"].astype(np.int64)
    result = {"score": score.sum(axis=1), "empty": out["empty"].astype(np.int64).sum(axis=1)}
    for r in range(rs.shape[2]):
        result[f"round{r + 1}"] = rs[:, :, r].sum(axis=1)
    return result


# ----- balance metrics ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """A per-deal outcome that balance pairs, and how to report it."""

    key: str
    label: str
    scale: float
    """Per-deal sum -> reported unit (1 / games or players per deal)."""


def time_track_metrics(per_deal: int) -> list[Metric]:
    scale = 1.0 / per_deal
    return [
        Metric("seat0_win", "seat 0 win rate", scale),
        Metric("score_seat0", "mean score, seat 0", scale),
        Metric("score_seat1", "mean score, seat 1", scale),
        Metric("margin", "margin (seat 0 - seat 1)", scale),
        Metric("plies", "game length (plies)", scale),
        Metric("bonus", "bonus taken (rate)", scale),
    ]


def doodle_metrics(players: int, rounds: int) -> list[Metric]:
    scale = 1.0 / players
    metrics = [Metric("score", "mean score", scale), Metric("empty", "empty cells", scale)]
    metrics += [Metric(f"round{r + 1}", f"round {r + 1} rectangle", scale) for r in range(rounds)]
    return metrics


def pair_tally(base: dict[str, np.ndarray], variant: dict[str, np.ndarray], keys: list[str]) -> Tally:
    """Sums of the per-deal differences (variant - base) and their squares, per metric."""
    t = Tally()
    for key in keys:
        d = variant[key] - base[key]
        t.add(f"n.{key}", d.shape[0])
        t.add(f"d.{key}", d.sum())
        t.add(f"d2.{key}", (d * d).sum())
        t.add(f"base.{key}", base[key].sum())
        t.add(f"base2.{key}", (base[key] * base[key]).sum())
        t.add(f"var.{key}", variant[key].sum())
        t.add(f"var2.{key}", (variant[key] * variant[key]).sum())
    return t
