"""Doodle simulation results: the loop's per-game arrays -> tallies, per-deal outcomes, figures and
report sections (every player of every game; start cards, special actions, rounds)."""
from __future__ import annotations

import numpy as np

from toolkit.sections import ReportChart, ReportTable
from toolkit.stats import Metric, Tally, hist_pairs as _hist, hist_summary, mean_interval, mean_of as _mean, num, pct, wilson
from toolkit.specs.models import Edition


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


def doodle_metrics(players: int, rounds: int) -> list[Metric]:
    scale = 1.0 / players
    metrics = [Metric("score", "mean score", scale), Metric("empty", "empty cells", scale)]
    metrics += [Metric(f"round{r + 1}", f"round {r + 1} rectangle", scale) for r in range(rounds)]
    return metrics


def doodle_figures(t: Tally, edition: Edition, bots: tuple) -> dict:
    games = int(t.get("games"))
    n = int(t.get("player_games"))
    players = len(bots)
    cards = []
    for c, card in enumerate(edition.doodle_rules.start_cards):
        k = int(t.get("card.games")[c])
        cards.append({
            "id": card.id,
            "games": k,
            "mean_score": mean_interval(k, int(t.get("card.score")[c]), int(t.get("card.score_sq")[c])).as_dict(),
        })
    specials = []
    names = ("neighbour", "single", "cut", "again")
    for sp, name in enumerate(names):
        specials.append({
            "special": name,
            "enabled": name in edition.doodle_rules.special_actions,
            "uses_per_game": round(int(t.get("special.uses")[sp]) / n, 6) if n else None,
            "used_rate": wilson(int(t.get("special.used")[sp]), n).as_dict(),
        })
    rounds = []
    for r in range(edition.doodle_rules.rounds):
        rounds.append({
            "round": r + 1,
            "mean_score": mean_interval(n, int(t.get("round.score")[r]), int(t.get("round.score_sq")[r])).as_dict(),
            "summary": hist_summary(t.hist(f"round{r + 1}")),
            "distribution": _hist(t, f"round{r + 1}"),
        })
    seats = []
    for k, bot in enumerate(bots):
        row = {"seat": k, "bot": bot.label, "mean_score": _mean(t, "seat.score", games, k)}
        if players > 1:
            row["top_score_rate"] = wilson(int(t.get("seat.top")[k]), games).as_dict()
        seats.append(row)
    return {
        "games": games,
        "players": players,
        "seats": seats,
        "score": mean_interval(n, int(t.get("score")), int(t.get("score_sq"))).as_dict(),
        "score_summary": hist_summary(t.hist("score")),
        "score_100_or_more": wilson(sum(c for v, c in t.hist("score") if v >= 100), n).as_dict(),
        "start_cards": cards,
        "specials": specials,
        "rounds": rounds,
        "empty": mean_interval(n, int(t.get("empty")), int(t.get("empty_sq"))).as_dict(),
        "drawn": mean_interval(n, int(t.get("drawn")), int(t.get("drawn_sq"))).as_dict(),
        "shared_top": int(t.get("shared_top")) if players > 1 else None,
        "distributions": {"score": _hist(t, "score"), "empty": _hist(t, "empty")},
    }


def summary_rows(figures: dict) -> list[tuple[str, str]]:
    """The headline figures as (label, value) rows, for the terminal and the reports."""
    rows: list[tuple[str, str]] = [("mean score", num(figures["score"]))]
    sm = figures["score_summary"]
    rows.append(("score min / median / max", f"{sm['min']} / {sm['median']} / {sm['max']}"))
    rows.append(("score of 100 or more", pct(figures["score_100_or_more"])))
    for r in figures["rounds"]:
        rows.append((f"round {r['round']} rectangle", num(r["mean_score"])))
    rows.append(("empty cells", num(figures["empty"])))
    for sp in figures["specials"]:
        if sp["enabled"]:
            rows.append((f"{sp['special']} used", f"{pct(sp['used_rate'])}, {sp['uses_per_game']:.2f} per game"))
    if figures["players"] > 1:
        for s in figures["seats"]:
            rows.append((f"seat {s['seat']} ({s['bot']}) top score", pct(s["top_score_rate"])))
    return rows


def report_sections(figures: dict) -> list:
    """Start cards, special actions, rounds and the distributions, for the reports."""
    dist = figures["distributions"]
    cards = figures["start_cards"]
    rounds = figures["rounds"]
    return [
        ReportTable("Start cards", ("start card", "player-games", "mean score"),
                    tuple((c["id"], c["games"], num(c["mean_score"])) for c in cards),
                    intro="Is any start card stronger?"),
        ReportChart("bars", "Mean score per start card", ([c["mean_score"]["estimate"] or 0.0 for c in cards],),
                    ("mean score",), tuple(c["id"] for c in cards)),
        ReportTable("Special actions", ("special", "in this edition", "used by (share of player-games)",
                                        "uses per game"),
                    tuple((s["special"], "yes" if s["enabled"] else "no", pct(s["used_rate"]),
                           f"{s['uses_per_game']:.3f}") for s in figures["specials"])),
        ReportTable("Rounds", ("round", "mean rectangle score", "min", "median", "max"),
                    tuple((r["round"], num(r["mean_score"]), r["summary"]["min"], r["summary"]["median"],
                           r["summary"]["max"]) for r in rounds)),
        ReportChart("bars", "Mean rectangle score per round", ([r["mean_score"]["estimate"] or 0.0 for r in rounds],),
                    ("rectangle",), tuple(f"round {r['round']}" for r in rounds)),
        ReportChart("histogram", "Score distribution (all players)", (dist["score"],), ("score",)),
        ReportChart("histogram", "Empty cells at the end", (dist["empty"],), ("empty cells",)),
    ]


def comparison_chart(base: dict, variant: dict) -> ReportChart:
    series = (base["distributions"]["score"], variant["distributions"]["score"])
    return ReportChart("histogram", "Score distribution: base and variant", series, ("base", "variant"))


def headline(f: dict, patches: list[str]) -> list[tuple[str, dict, bool]]:
    """(label, interval, is_rate) a sweep shows per point (Doodle patches have no price to touch)."""
    return [("mean score", f["score"], False), ("empty cells", f["empty"], False)]
