"""Time-track simulation results: the loop's per-game arrays -> tallies, per-deal outcomes, figures
and report sections (the seat-swap aware figures of classic, Christmas, anniversary and Express).

`tally` reduces one shard's result arrays to a Tally (integer sums and histograms), so a shard
returns a few kilobytes whatever its size; `outcomes` gives the per-deal integers balance pairs (a
deal is the two seat-swapped games, or one game without swap).
"""
from __future__ import annotations

import numpy as np

from toolkit.reports.model import ReportChart, ReportTable
from toolkit.stats import Metric, Tally, hist_pairs as _hist, hist_summary, mean_interval, mean_of as _mean, num, pct, wilson
from toolkit.specs.models import Edition


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


def time_track_figures(t: Tally, edition: Edition, bots: tuple, swap: bool) -> dict:
    n = int(t.get("games"))
    seats = []
    for s in range(2):
        seats.append({
            "seat": s,
            "win_rate": wilson(int(t.get("seat.wins")[s]), n).as_dict(),
            "mean_score": _mean(t, "seat.score", n, s),
            "first_to_finish": wilson(int(t.get("seat.first_finisher")[s]), n).as_dict(),
            "bonus_rate": wilson(int(t.get("seat.bonus")[s]), n).as_dict(),
            "mean_buttons": _mean(t, "seat.buttons", n, s),
            "mean_empty": _mean(t, "seat.empty", n, s),
            "mean_leather": _mean(t, "seat.leather", n, s),
            "mean_income": _mean(t, "seat.income", n, s),
            "score_summary": hist_summary(t.hist(f"score.seat{s}")),
        })
    bot_rows = []
    for b, bot in enumerate(bots):
        bot_rows.append({
            "bot": bot.label,
            "win_rate": wilson(int(t.get("bot.wins")[b]), n).as_dict(),
            "mean_score": _mean(t, "bot.score", n, b),
            "bonus_rate": wilson(int(t.get("bot.bonus")[b]), n).as_dict(),
            "leather_per_game": round(int(t.get("bot.leather")[b]) / n, 6) if n else None,
            "income_per_game": round(int(t.get("bot.income")[b]) / n, 6) if n else None,
            "score_summary": hist_summary(t.hist(f"score.bot{b}")),
        })
    bonus_total = int(t.get("seat.bonus").sum())
    patches = []
    bought = t.get("patch.bought")
    for i, patch in enumerate(edition.all_patches()):
        k = int(bought[i])
        patches.append({
            "id": patch.id,
            "cost": patch.cost,
            "time": patch.time,
            "income": patch.income,
            "size": patch.shape.size,
            "bought": k,
            "buy_rate": wilson(k, n).as_dict(),
            "by_seat": [int(x) for x in t.get("patch.by_seat")[i]],
            "by_bot": [int(x) for x in t.get("patch.by_bot")[i]],
            "mean_ply": mean_interval(k, int(t.get("patch.ply")[i]), int(t.get("patch.ply_sq")[i])).as_dict(),
            "buyer_win_rate": wilson(int(t.get("patch.buyer_won")[i]), k).as_dict(),
        })
    return {
        "games": n,
        "seat_swap": swap,
        "seats": seats,
        "bots": bot_rows,
        "margin": {
            "seat0_minus_seat1": _mean(t, "seat.margin", n),
            "bot0_minus_bot1": _mean(t, "bot.margin", n),
            "ties": int(t.get("ties")),
        },
        "game_length": {"plies": _mean(t, "plies", n), "summary": hist_summary(t.hist("plies"))},
        "bonus": {
            "available": edition.bonus is not None,
            "taken": wilson(bonus_total, n).as_dict(),
            "by_seat": [int(x) for x in t.get("seat.bonus")],
            "by_bot": [int(x) for x in t.get("bot.bonus")],
        },
        "distributions": {
            "score_seat0": _hist(t, "score.seat0"),
            "score_seat1": _hist(t, "score.seat1"),
            "score_bot0": _hist(t, "score.bot0"),
            "score_bot1": _hist(t, "score.bot1"),
            "margin_seat": _hist(t, "margin.seat"),
            "margin_bot": _hist(t, "margin.bot"),
            "plies": _hist(t, "plies"),
        },
        "patches": patches,
    }


def summary_rows(figures: dict) -> list[tuple[str, str]]:
    """The headline figures as (label, value) rows, for the terminal and the reports."""
    rows: list[tuple[str, str]] = []
    for s in figures["seats"]:
        rows.append((f"seat {s['seat']} win rate", pct(s["win_rate"])))
    for b, bot in enumerate(figures["bots"]):
        rows.append((f"bot {b} ({bot['bot']}) win rate", pct(bot["win_rate"])))
    for s in figures["seats"]:
        rows.append((f"seat {s['seat']} mean score", num(s["mean_score"])))
    for b, bot in enumerate(figures["bots"]):
        rows.append((f"bot {b} ({bot['bot']}) mean score", num(bot["mean_score"])))
    rows.append(("margin seat 0 - seat 1", num(figures["margin"]["seat0_minus_seat1"])))
    rows.append(("margin bot 0 - bot 1", num(figures["margin"]["bot0_minus_bot1"])))
    rows.append(("game length (plies)", num(figures["game_length"]["plies"])))
    bonus = figures["bonus"]
    if bonus["available"]:
        rows.append(("bonus taken", f"{pct(bonus['taken'])}; by seat {bonus['by_seat']}, by bot {bonus['by_bot']}"))
    else:
        rows.append(("bonus taken", "no bonus tile in this edition"))
    for s in figures["seats"]:
        rows.append((f"seat {s['seat']} leather / income", f"{num(s['mean_leather'])} / {num(s['mean_income'])}"))
    return rows


def report_sections(figures: dict) -> list:
    """Score and patch tables and the distributions, for the markdown and PDF reports."""
    rows = []
    for s in figures["seats"]:
        sm = s["score_summary"]
        rows.append((f"seat {s['seat']}", num(s["mean_score"]), sm["min"], sm["q1"], sm["median"], sm["q3"],
                     sm["max"], num(s["mean_buttons"]), num(s["mean_empty"])))
    for b, bot in enumerate(figures["bots"]):
        sm = bot["score_summary"]
        rows.append((f"bot {b} ({bot['bot']})", num(bot["mean_score"]), sm["min"], sm["q1"], sm["median"],
                     sm["q3"], sm["max"], "", ""))
    gl = figures["game_length"]["summary"]
    scores = ReportTable(
        "Scores", ("who", "mean", "min", "q1", "median", "q3", "max", "buttons", "empty cells"), tuple(rows),
        intro=(f"Game length: {num(figures['game_length']['plies'])} plies (min {gl['min']}, median "
               f"{gl['median']}, max {gl['max']}). Ties on score: {figures['margin']['ties']}."))
    patches = ReportTable(
        "Patches", ("patch", "cost", "time", "income", "cells", "bought", "by seat 0/1", "by bot 0/1",
                    "mean ply", "buyer wins"),
        tuple((p["id"], p["cost"], p["time"], p["income"], p["size"], pct(p["buy_rate"]),
               "/".join(map(str, p["by_seat"])), "/".join(map(str, p["by_bot"])), num(p["mean_ply"], 1),
               pct(p["buyer_win_rate"])) for p in figures["patches"]),
        intro="How often each patch was bought, by whom, at which ply on average, and how often its buyer won.",
        small=True)
    dist = figures["distributions"]
    names = tuple(f"bot {b} ({bot['bot']})" for b, bot in enumerate(figures["bots"]))
    return [
        scores,
        ReportChart("histogram", "Score distribution per bot", (dist["score_bot0"], dist["score_bot1"]), names),
        ReportChart("histogram", "Score distribution per seat", (dist["score_seat0"], dist["score_seat1"]),
                    ("seat 0", "seat 1")),
        ReportChart("histogram", "Margin: bot 0 - bot 1", (dist["margin_bot"],), ("margin",)),
        ReportChart("histogram", "Game length (plies)", (dist["plies"],), ("plies",)),
        patches,
    ]


def comparison_chart(base: dict, variant: dict) -> ReportChart:
    series = (base["distributions"]["margin_seat"], variant["distributions"]["margin_seat"])
    return ReportChart("histogram", "Margin seat 0 - seat 1: base and variant", series, ("base", "variant"))


def headline(f: dict, patches: list[str]) -> list[tuple[str, dict, bool]]:
    """(label, interval, is_rate) a sweep shows per point: seats, length, bonus, touched patches."""
    rows = [("seat 0 win rate", f["seats"][0]["win_rate"], True),
            ("margin seat 0 - seat 1", f["margin"]["seat0_minus_seat1"], False),
            ("game length (plies)", f["game_length"]["plies"], False),
            ("bonus taken", f["bonus"]["taken"], True)]
    for pid in patches:
        row = next(p for p in f["patches"] if p["id"] == pid)
        rows.append((f"{pid} buy rate", row["buy_rate"], True))
        rows.append((f"{pid} buyer win rate", row["buyer_win_rate"], True))
    return rows
