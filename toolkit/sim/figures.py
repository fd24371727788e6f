"""Merged tallies -> the figures a designer reads: plain dicts, ready for JSON and the reports.

Proportions carry Wilson 95% intervals, means carry normal 95% intervals, balance differences
are paired estimates (toolkit.sim.stats). Every number is rounded to 6 digits so the JSON is
byte-identical for identical tallies.
"""
from __future__ import annotations

from toolkit.sim.botspec import BotSpec
from toolkit.sim.stats import Tally, hist_summary, mean_interval, paired_difference, wilson
from toolkit.sim.tallies import Metric
from toolkit.specs.models import Edition


def _i(x) -> int:
    return int(x)


def _hist(t: Tally, name: str) -> list[list[int]]:
    return [[v, c] for v, c in t.hist(name)]


def _mean(t: Tally, key: str, n: int, index=None, sq: str | None = None) -> dict:
    total = t.get(key) if index is None else t.get(key)[index]
    total_sq = t.get(sq or f"{key}_sq") if index is None else t.get(sq or f"{key}_sq")[index]
    return mean_interval(n, int(total), int(total_sq)).as_dict()


def edition_facts(edition: Edition) -> dict:
    """Which edition and time-track layout a result belongs to."""
    facts = {
        "name": edition.name,
        "title": edition.title,
        "family": edition.family.value,
        "content_hash": edition.content_hash,
        "source": edition.source,
        "board": f"{edition.board_width}x{edition.board_height}",
    }
    if edition.time_track is not None:
        track = edition.time_track
        facts["time_track"] = {
            "layout": edition.track_layout or track.id,
            "final_space": track.final_space,
            "income_marks": list(track.income_marks),
            "leather_patches": list(track.leather_patches),
        }
    else:
        facts["time_track"] = None
    return facts


def time_track_figures(t: Tally, edition: Edition, bots: tuple[BotSpec, ...], swap: bool) -> dict:
    n = _i(t.get("games"))
    seats = []
    for s in range(2):
        seats.append({
            "seat": s,
            "win_rate": wilson(_i(t.get("seat.wins")[s]), n).as_dict(),
            "mean_score": _mean(t, "seat.score", n, s),
            "first_to_finish": wilson(_i(t.get("seat.first_finisher")[s]), n).as_dict(),
            "bonus_rate": wilson(_i(t.get("seat.bonus")[s]), n).as_dict(),
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
            "win_rate": wilson(_i(t.get("bot.wins")[b]), n).as_dict(),
            "mean_score": _mean(t, "bot.score", n, b),
            "bonus_rate": wilson(_i(t.get("bot.bonus")[b]), n).as_dict(),
            "leather_per_game": round(_i(t.get("bot.leather")[b]) / n, 6) if n else None,
            "income_per_game": round(_i(t.get("bot.income")[b]) / n, 6) if n else None,
            "score_summary": hist_summary(t.hist(f"score.bot{b}")),
        })
    bonus_total = _i(t.get("seat.bonus").sum())
    patches = []
    bought = t.get("patch.bought")
    for i, patch in enumerate(edition.all_patches()):
        k = _i(bought[i])
        patches.append({
            "id": patch.id,
            "cost": patch.cost,
            "time": patch.time,
            "income": patch.income,
            "size": patch.shape.size,
            "bought": k,
            "buy_rate": wilson(k, n).as_dict(),
            "by_seat": [_i(x) for x in t.get("patch.by_seat")[i]],
            "by_bot": [_i(x) for x in t.get("patch.by_bot")[i]],
            "mean_ply": mean_interval(k, _i(t.get("patch.ply")[i]), _i(t.get("patch.ply_sq")[i])).as_dict(),
            "buyer_win_rate": wilson(_i(t.get("patch.buyer_won")[i]), k).as_dict(),
        })
    return {
        "games": n,
        "seat_swap": swap,
        "seats": seats,
        "bots": bot_rows,
        "margin": {
            "seat0_minus_seat1": _mean(t, "seat.margin", n),
            "bot0_minus_bot1": _mean(t, "bot.margin", n),
            "ties": _i(t.get("ties")),
        },
        "game_length": {"plies": _mean(t, "plies", n), "summary": hist_summary(t.hist("plies"))},
        "bonus": {
            "available": edition.bonus is not None,
            "taken": wilson(bonus_total, n).as_dict(),
            "by_seat": [_i(x) for x in t.get("seat.bonus")],
            "by_bot": [_i(x) for x in t.get("bot.bonus")],
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


def doodle_figures(t: Tally, edition: Edition, bots: tuple[BotSpec, ...]) -> dict:
    games = _i(t.get("games"))
    n = _i(t.get("player_games"))
    players = len(bots)
    cards = []
    for c, card in enumerate(edition.start_cards):
        k = _i(t.get("card.games")[c])
        cards.append({
            "id": card.id,
            "games": k,
            "mean_score": mean_interval(k, _i(t.get("card.score")[c]), _i(t.get("card.score_sq")[c])).as_dict(),
        })
    specials = []
    names = ("neighbour", "single", "cut", "again")
    for sp, name in enumerate(names):
        specials.append({
            "special": name,
            "enabled": name in edition.special_actions,
            "uses_per_game": round(_i(t.get("special.uses")[sp]) / n, 6) if n else None,
            "used_rate": wilson(_i(t.get("special.used")[sp]), n).as_dict(),
        })
    rounds = []
    for r in range(edition.rounds):
        rounds.append({
            "round": r + 1,
            "mean_score": mean_interval(n, _i(t.get("round.score")[r]), _i(t.get("round.score_sq")[r])).as_dict(),
            "summary": hist_summary(t.hist(f"round{r + 1}")),
            "distribution": _hist(t, f"round{r + 1}"),
        })
    seats = []
    for k, bot in enumerate(bots):
        row = {"seat": k, "bot": bot.label, "mean_score": _mean(t, "seat.score", games, k)}
        if players > 1:
            row["top_score_rate"] = wilson(_i(t.get("seat.top")[k]), games).as_dict()
        seats.append(row)
    return {
        "games": games,
        "players": players,
        "seats": seats,
        "score": mean_interval(n, _i(t.get("score")), _i(t.get("score_sq"))).as_dict(),
        "score_summary": hist_summary(t.hist("score")),
        "score_100_or_more": wilson(sum(c for v, c in t.hist("score") if v >= 100), n).as_dict(),
        "start_cards": cards,
        "specials": specials,
        "rounds": rounds,
        "empty": mean_interval(n, _i(t.get("empty")), _i(t.get("empty_sq"))).as_dict(),
        "drawn": mean_interval(n, _i(t.get("drawn")), _i(t.get("drawn_sq"))).as_dict(),
        "shared_top": _i(t.get("shared_top")) if players > 1 else None,
        "distributions": {"score": _hist(t, "score"), "empty": _hist(t, "empty")},
    }


def paired_figures(t: Tally, metrics: list[Metric]) -> list[dict]:
    """Per metric: base mean, variant mean and the paired difference (variant - base)."""
    rows = []
    for m in metrics:
        if f"n.{m.key}" not in t.sums:
            continue
        n = _i(t.get(f"n.{m.key}"))
        rows.append({
            "metric": m.key,
            "label": m.label,
            "base": mean_interval(n, _i(t.get(f"base.{m.key}")), _i(t.get(f"base2.{m.key}")), scale=m.scale).as_dict(),
            "variant": mean_interval(n, _i(t.get(f"var.{m.key}")), _i(t.get(f"var2.{m.key}")), scale=m.scale).as_dict(),
            "difference": paired_difference(n, _i(t.get(f"d.{m.key}")), _i(t.get(f"d2.{m.key}")), scale=m.scale).as_dict(),
        })
    return rows
