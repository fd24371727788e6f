"""Time-track simulation results: the loop's per-game arrays -> tallies, per-deal outcomes, figures
and report sections (the seat-swap aware figures of classic, Christmas, anniversary and Express).

`tally` reduces one shard's result arrays to a Tally (integer sums and histograms), so a shard
returns a few kilobytes whatever its size; `outcomes` gives the per-deal integers balance pairs (a
deal is the two seat-swapped games, or one game without swap).
"""
from __future__ import annotations

import numpy as np

from toolkit.sections import ReportChart, ReportTable
from toolkit.stats import (Metric, Tally, deal_mean, deal_rate, deal_ratio, hist_pairs as _hist, hist_summary, num,
                           pct, per_deal_sq)
from toolkit.specs.models import Edition


def tally_time_track(out: dict[str, np.ndarray], swap: np.ndarray) -> Tally:
    """Sums and histograms of a batch of time-track games.

    Seat s of game g is played by bot s ^ swap[g]; figures are kept per seat (seat 0 moves first)
    and per bot (the order of --bots). A deal's games are consecutive (swap 0, 1 with seat swap),
    and every `*_dsq` sum is over deals of the squared per-deal total, for deal-clustered intervals.

    Written for speed, since it runs once per shard of games that take microseconds each: every
    array is turned to (what, games), so each sum runs along contiguous memory; per-deal totals
    add the deal's strided game columns; histograms are counted with bincount. The sums are the
    same integers as adding game by game.
    """
    t = Tally()
    n = out["winner"].shape[0]
    swap = swap.astype(np.int64)
    per_deal = int(swap.max()) + 1 if n else 1
    deals = n // per_deal

    def games_last(key: str) -> np.ndarray:
        return np.ascontiguousarray(out[key].T, dtype=np.int64)

    def by_deal(values: np.ndarray) -> np.ndarray:
        """Per-deal totals (..., deals) of per-game values (..., games)."""
        total = values[..., 0::per_deal].astype(np.int64)
        for j in range(1, per_deal):
            total += values[..., j::per_deal]
        return total

    def square_sum(values: np.ndarray):
        return (values * values).sum(axis=-1)

    t.add("deals", deals)
    score = games_last("score")
    winner = games_last("winner")
    bonus = games_last("bonus_owner")
    plies = games_last("plies")
    # Bot b sits in seat b ^ swap[g].
    bot_seat = np.stack([swap, 1 - swap])
    score_bot = np.take_along_axis(score, bot_seat, axis=0)
    t.add("games", n)

    def moments(name: str, values: np.ndarray, squares: bool = True) -> None:
        """Sum of `values` over the games, with the sum of squares over the games (`_sq`, means
        only) and over the deals of the per-deal totals (`_dsq`)."""
        deal_totals = by_deal(values)
        t.add(name, deal_totals.sum(axis=-1))
        if squares:
            t.add(f"{name}_sq", square_sum(values))
        t.add(f"{name}_dsq", square_sum(deal_totals))

    def per_seat(flags: list[np.ndarray]) -> np.ndarray:
        return np.stack(flags).astype(np.int64)

    moments("seat.wins", per_seat([winner == 0, winner == 1]), squares=False)
    moments("bot.wins", per_seat([winner == bot_seat[0], winner == bot_seat[1]]), squares=False)
    moments("seat.score", score)
    moments("bot.score", score_bot)
    margin = score[0] - score[1]
    bot_margin = score_bot[0] - score_bot[1]
    moments("seat.margin", margin)
    moments("bot.margin", bot_margin)
    t.add("ties", np.count_nonzero(margin == 0))
    moments("plies", plies)
    first = out["first_finisher"]
    moments("seat.first_finisher", per_seat([first == 0, first == 1]), squares=False)
    moments("seat.bonus", per_seat([bonus == 0, bonus == 1]), squares=False)
    moments("bot.bonus", per_seat([bonus == bot_seat[0], bonus == bot_seat[1]]), squares=False)
    t.add("bonus_dsq", square_sum(by_deal(bonus >= 0)))
    for key in ("buttons", "empty", "leather", "income"):
        values = games_last(key)
        moments(f"seat.{key}", values)
        t.add(f"bot.{key}", np.take_along_axis(values, bot_seat, axis=0).sum(axis=-1))
    for seat in range(2):
        _count(t, f"score.seat{seat}", score[seat])
        _count(t, f"score.bot{seat}", score_bot[seat])
    _count(t, "margin.seat", margin)
    _count(t, "margin.bot", bot_margin)
    _count(t, "plies", plies)

    # Per patch (patches x games): a buyer is seat 0 or 1 (-1: not bought), so the second seat's
    # and the second bot's counts are the rest of the purchases.
    buy_seat = np.ascontiguousarray(out["buy_seat"].T)
    bought = buy_seat >= 0
    bought_deal = by_deal(bought)
    bought_total = bought_deal.sum(axis=-1)
    t.add("patch.bought", bought_total)
    t.add("patch.bought_dsq", square_sum(bought_deal))
    seat0 = np.count_nonzero(buy_seat == 0, axis=-1).astype(np.int64)
    t.add("patch.by_seat", np.stack([seat0, bought_total - seat0], axis=1))
    bot0 = np.count_nonzero(buy_seat == swap.astype(buy_seat.dtype), axis=-1).astype(np.int64)  # bot 0 sits in seat swap[g]
    t.add("patch.by_bot", np.stack([bot0, bought_total - bot0], axis=1))
    ply = np.ascontiguousarray(out["buy_ply"].T).astype(np.int64) * bought
    ply_deal = by_deal(ply)
    t.add("patch.ply", ply_deal.sum(axis=-1))
    t.add("patch.ply_sq", square_sum(ply))
    # a game without a winner (-1) has no winning buyer: compare with -2, which no buyer is
    won_deal = by_deal(buy_seat == np.where(winner >= 0, winner, -2).astype(buy_seat.dtype))
    t.add("patch.buyer_won", won_deal.sum(axis=-1))
    # the buyer's win rate is a ratio over deals (wins of buyers / purchases): its cross sum too
    t.add("patch.buyer_won_dsq", square_sum(won_deal))
    t.add("patch.buyer_won_bought", (won_deal * bought_deal).sum(axis=-1))
    t.add("patch.ply_dsq", square_sum(ply_deal))
    t.add("patch.ply_bought", (ply_deal * bought_deal).sum(axis=-1))
    return t


def _count(t: Tally, name: str, values: np.ndarray) -> None:
    """Tally.count with bincount instead of sorting: the values are small integers (scores,
    margins, plies), so counting them over their range is the faster way to the same histogram."""
    hist = t.hists.setdefault(name, {})
    if values.size == 0:
        return
    low = int(values.min())
    counts = np.bincount(values - low)
    for k in np.flatnonzero(counts).tolist():
        hist[k + low] = hist.get(k + low, 0) + int(counts[k])


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
        Metric("seat0_win", "player 1 win rate", scale),
        Metric("score_seat0", "mean score, player 1", scale),
        Metric("score_seat1", "mean score, player 2", scale),
        Metric("margin", "margin (player 1 - player 2)", scale),
        Metric("plies", "game length (plies)", scale),
        Metric("bonus", "bonus taken (rate)", scale),
    ]


def _per_deal(t: Tally, n: int) -> int:
    """Games per deal of a tally (1 for a tally without deals, as from an empty run)."""
    deals = int(t.get("deals")) if "deals" in t.sums else n
    return n // deals if deals else 1


def _rate(t: Tally, key: str, n: int, per_deal: int, index=None) -> dict:
    """A rate over the games with the deal as the unit (Wilson at the effective sample size)."""
    pick = (lambda name: int(t.get(name))) if index is None else (lambda name: int(t.get(name)[index]))  # noqa: E731
    return deal_rate(pick(key), n, per_deal, pick(f"{key}_dsq")).as_dict()


def _mean(t: Tally, key: str, n: int, per_deal: int, index=None) -> dict:
    """A mean over the games with the deal as the unit (cluster standard error)."""
    pick = (lambda name: int(t.get(name))) if index is None else (lambda name: int(t.get(name)[index]))  # noqa: E731
    return deal_mean(n, pick(key), per_deal, pick(f"{key}_dsq"), pick(f"{key}_sq")).as_dict()


def _over_purchases(t: Tally, key: str, i: int, rate: bool, per_deal: int) -> dict:
    """Patch i's `key` per purchase (a ratio over the deals: sum of key / purchases)."""
    k = int(t.get("patch.bought")[i])
    deals = int(t.get("deals"))
    cross = "patch.buyer_won_bought" if key == "patch.buyer_won" else "patch.ply_bought"
    if per_deal <= 1:  # one game a deal: each purchase is its own unit, as before
        from toolkit.stats import mean_interval, wilson

        if rate:
            return wilson(int(t.get(key)[i]), k).as_dict()
        return mean_interval(k, int(t.get(key)[i]), int(t.get(f"{key}_sq")[i])).as_dict()
    iv = deal_ratio(deals, int(t.get(key)[i]), k, int(t.get(f"{key}_dsq")[i]), int(t.get(cross)[i]),
                    int(t.get("patch.bought_dsq")[i]), rate=rate,
                    game_sq=None if rate else int(t.get(f"{key}_sq")[i]))
    return iv.as_dict()


def time_track_figures(t: Tally, edition: Edition, bots: tuple, swap: bool) -> dict:
    """Every figure of a time-track run; rates and means carry 95% intervals over the deals (a
    deal's seat-swapped games are one unit), with the design effect against counting games."""
    n = int(t.get("games"))
    per = _per_deal(t, n)
    seats = []
    for s in range(2):
        seats.append({
            "seat": s,
            "win_rate": _rate(t, "seat.wins", n, per, s),
            "mean_score": _mean(t, "seat.score", n, per, s),
            "first_to_finish": _rate(t, "seat.first_finisher", n, per, s),
            "bonus_rate": _rate(t, "seat.bonus", n, per, s),
            "mean_buttons": _mean(t, "seat.buttons", n, per, s),
            "mean_empty": _mean(t, "seat.empty", n, per, s),
            "mean_leather": _mean(t, "seat.leather", n, per, s),
            "mean_income": _mean(t, "seat.income", n, per, s),
            "score_summary": hist_summary(t.hist(f"score.seat{s}")),
        })
    bot_rows = []
    for b, bot in enumerate(bots):
        bot_rows.append({
            "bot": bot.label,
            "win_rate": _rate(t, "bot.wins", n, per, b),
            "mean_score": _mean(t, "bot.score", n, per, b),
            "bonus_rate": _rate(t, "bot.bonus", n, per, b),
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
            "buy_rate": deal_rate(k, n, per, int(t.get("patch.bought_dsq")[i])).as_dict(),
            "by_seat": [int(x) for x in t.get("patch.by_seat")[i]],
            "by_bot": [int(x) for x in t.get("patch.by_bot")[i]],
            "mean_ply": _over_purchases(t, "patch.ply", i, False, per),
            "buyer_win_rate": _over_purchases(t, "patch.buyer_won", i, True, per),
        })
    return {
        "games": n,
        "seat_swap": swap,
        "seats": seats,
        "bots": bot_rows,
        "margin": {
            "seat0_minus_seat1": _mean(t, "seat.margin", n, per),
            "bot0_minus_bot1": _mean(t, "bot.margin", n, per),
            "ties": int(t.get("ties")),
        },
        "game_length": {"plies": _mean(t, "plies", n, per), "summary": hist_summary(t.hist("plies"))},
        "bonus": {
            "available": edition.timetrack_rules.bonus is not None,
            "taken": deal_rate(bonus_total, n, per, int(t.get("bonus_dsq"))).as_dict(),
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
        rows.append((f"player {s['seat'] + 1} win rate", pct(s["win_rate"])))
    for b, bot in enumerate(figures["bots"]):
        rows.append((f"bot {b} ({bot['bot']}) win rate", pct(bot["win_rate"])))
    for s in figures["seats"]:
        rows.append((f"player {s['seat'] + 1} mean score", num(s["mean_score"])))
    for b, bot in enumerate(figures["bots"]):
        rows.append((f"bot {b} ({bot['bot']}) mean score", num(bot["mean_score"])))
    rows.append(("margin player 1 - player 2", num(figures["margin"]["seat0_minus_seat1"])))
    rows.append(("margin bot 0 - bot 1", num(figures["margin"]["bot0_minus_bot1"])))
    rows.append(("game length (plies)", num(figures["game_length"]["plies"])))
    bonus = figures["bonus"]
    if bonus["available"]:
        rows.append(("bonus taken", f"{pct(bonus['taken'])}; by player 1/2 {'/'.join(map(str, bonus['by_seat']))}, "
                                     f"by bot 0/1 {'/'.join(map(str, bonus['by_bot']))}"))
    else:
        rows.append(("bonus taken", "no bonus tile in this edition"))
    for s in figures["seats"]:
        rows.append((f"player {s['seat'] + 1} leather / income", f"{num(s['mean_leather'])} / {num(s['mean_income'])}"))
    rows.append(("intervals over", unit_text(figures)))
    return rows


def unit_text(figures: dict) -> str:
    """What the intervals rest on: the deals, and how far the seat-swapped games of a deal are
    from independent (player 1's win rate's design effect)."""
    win = figures["seats"][0]["win_rate"]
    if win.get("deals") is None or not figures["seat_swap"]:
        return f"{figures['games']} games, each its own deal"
    deff = win.get("design_effect")
    text = f"{win['deals']} deals x 2 seat-swapped games"
    if deff is not None:
        text += f"; player 1 win design effect {deff:.2f} (interval {deff ** 0.5:.2f}x wider than counting games)"
    return text


def report_sections(figures: dict) -> list:
    """Score and patch tables and the distributions, for the markdown and PDF reports."""
    rows = []
    for s in figures["seats"]:
        sm = s["score_summary"]
        rows.append((f"player {s['seat'] + 1}", num(s["mean_score"]), sm["min"], sm["q1"], sm["median"], sm["q3"],
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
        "Patches", ("patch", "cost", "time", "income", "cells", "bought", "by player 1/2", "by bot 0/1",
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
        ReportChart("histogram", "Score distribution per player", (dist["score_seat0"], dist["score_seat1"]),
                    ("player 1", "player 2")),
        ReportChart("histogram", "Margin: bot 0 - bot 1", (dist["margin_bot"],), ("margin",)),
        ReportChart("histogram", "Game length (plies)", (dist["plies"],), ("plies",)),
        patches,
    ]


def comparison_chart(base: dict, variant: dict) -> ReportChart:
    series = (base["distributions"]["margin_seat"], variant["distributions"]["margin_seat"])
    return ReportChart("histogram", "Margin player 1 - player 2: base and variant", series, ("base", "variant"))


def headline(f: dict, patches: list[str]) -> list[tuple[str, dict, bool]]:
    """(label, interval, is_rate) a sweep shows per point: seats, length, bonus, touched patches."""
    rows = [("player 1 win rate", f["seats"][0]["win_rate"], True),
            ("margin player 1 - player 2", f["margin"]["seat0_minus_seat1"], False),
            ("game length (plies)", f["game_length"]["plies"], False),
            ("bonus taken", f["bonus"]["taken"], True)]
    for pid in patches:
        row = next(p for p in f["patches"] if p["id"] == pid)
        rows.append((f"{pid} buy rate", row["buy_rate"], True))
        rows.append((f"{pid} buyer win rate", row["buyer_win_rate"], True))
    return rows
