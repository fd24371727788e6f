"""Markdown reports and the terminal summary rows of simulation and balance results.

Both render only the JSON document (toolkit.sim.experiment), so a report can always be rebuilt
from results.json and says nothing the JSON does not.
"""
from __future__ import annotations


def pct(iv: dict | None) -> str:
    """A proportion with its interval: `47.0% [40.2, 53.9]`."""
    if not iv or iv.get("estimate") is None:
        return "n/a"
    text = f"{100 * iv['estimate']:.1f}%"
    if iv.get("low") is not None:
        text += f" [{100 * iv['low']:.1f}, {100 * iv['high']:.1f}]"
    return text


def num(iv: dict | None, digits: int = 2) -> str:
    """A mean with its interval: `-12.30 [-13.99, -10.60]`."""
    if not iv or iv.get("estimate") is None:
        return "n/a"
    text = f"{iv['estimate']:.{digits}f}"
    if iv.get("low") is not None:
        text += f" [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]"
    return text


def diff(d: dict, is_rate: bool) -> str:
    """A paired difference with its interval, in points or percentage points."""
    if d.get("mean") is None:
        return "n/a"
    k, unit = (100.0, " pp") if is_rate else (1.0, "")
    text = f"{k * d['mean']:+.2f}{unit}"
    if d.get("low") is not None:
        text += f" [{k * d['low']:+.2f}, {k * d['high']:+.2f}]"
    return text


RATE_METRICS = {"seat0_win", "bonus"}


def p_text(p: float | None) -> str:
    if p is None:
        return "n/a"
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def track_line(edition: dict) -> str:
    track = edition.get("time_track")
    if not track:
        return "no time track (Doodle)"
    return (f"{track['layout']} (final space {track['final_space']}, leather at "
            f"{', '.join(map(str, track['leather_patches'])) or 'none'}, income marks at "
            f"{', '.join(map(str, track['income_marks']))})")


def _run_lines(doc: dict) -> list[str]:
    bots = ", ".join(f"{b['index']}: {b['label']}" for b in doc["bots"])
    return [
        f"- Command: `{doc['command']}`",
        f"- Bots: {bots}",
        f"- Games: {doc['games']} per edition ({doc['deals']} deals x {doc['games_per_deal']})",
        f"- Seats: {doc['seats']}",
        f"- Seed: {doc['seed']} ({doc['seeding']})",
        f"- Intervals: {doc['intervals']}",
        f"- Toolkit: {doc['toolkit']['name']} {doc['toolkit']['version']}",
    ]


def _edition_lines(edition: dict) -> list[str]:
    return [
        f"- Edition: {edition['title']} (`{edition['name']}`, {edition['family']}, board {edition['board']})",
        f"- Spec: `{edition['source']}`, content hash `{edition['content_hash'][:16]}`",
        f"- Time track: {track_line(edition)}",
    ]


def summary_rows(figures: dict, family: str) -> list[tuple[str, str]]:
    """The headline figures as (label, value) rows, for the terminal and the report."""
    rows: list[tuple[str, str]] = []
    if family == "time-track":
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
    else:
        rows.append(("mean score", num(figures["score"])))
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


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def _figures_markdown(figures: dict, family: str) -> list[str]:
    out = ["### Summary", ""]
    out += _table(["figure", "value (95% interval)"], [list(r) for r in summary_rows(figures, family)])
    if family == "time-track":
        out += ["", "### Scores", ""]
        rows = []
        for s in figures["seats"]:
            sm = s["score_summary"]
            rows.append([f"seat {s['seat']}", num(s["mean_score"]), sm["min"], sm["q1"], sm["median"], sm["q3"], sm["max"],
                         num(s["mean_buttons"]), num(s["mean_empty"])])
        for b, bot in enumerate(figures["bots"]):
            sm = bot["score_summary"]
            rows.append([f"bot {b} ({bot['bot']})", num(bot["mean_score"]), sm["min"], sm["q1"], sm["median"], sm["q3"], sm["max"], "", ""])
        out += _table(["who", "mean", "min", "q1", "median", "q3", "max", "buttons", "empty cells"], rows)
        gl = figures["game_length"]["summary"]
        out += ["", f"Game length: {num(figures['game_length']['plies'])} plies "
                f"(min {gl['min']}, median {gl['median']}, max {gl['max']}). Ties on score: {figures['margin']['ties']}."]
        out += ["", "### Patches", "",
                "How often each patch was bought, by whom, at which ply on average, and how often its buyer won.", ""]
        rows = []
        for p in figures["patches"]:
            rows.append([p["id"], p["cost"], p["time"], p["income"], p["size"], pct(p["buy_rate"]),
                         "/".join(map(str, p["by_seat"])), "/".join(map(str, p["by_bot"])),
                         num(p["mean_ply"], 1), pct(p["buyer_win_rate"])])
        out += _table(["patch", "cost", "time", "income", "cells", "bought", "by seat 0/1", "by bot 0/1",
                       "mean ply", "buyer wins"], rows)
    else:
        out += ["", "### Start cards", "", "Is any start card stronger?", ""]
        out += _table(["start card", "player-games", "mean score"],
                      [[c["id"], c["games"], num(c["mean_score"])] for c in figures["start_cards"]])
        out += ["", "### Special actions", ""]
        out += _table(["special", "in this edition", "used by (share of player-games)", "uses per game"],
                      [[s["special"], "yes" if s["enabled"] else "no", pct(s["used_rate"]),
                        f"{s['uses_per_game']:.3f}"] for s in figures["specials"]])
        out += ["", "### Rounds", ""]
        out += _table(["round", "mean rectangle score", "min", "median", "max"],
                      [[r["round"], num(r["mean_score"]), r["summary"]["min"], r["summary"]["median"], r["summary"]["max"]]
                       for r in figures["rounds"]])
        out += ["", "### Score distribution", ""]
        out += _table(["score", "player-games"], [[v, c] for v, c in figures["distributions"]["score"]])
    return out


def simulation_markdown(doc: dict) -> str:
    edition = doc["edition"]
    lines = [f"# Simulation: {edition['title']}", ""]
    lines += _edition_lines(edition) + _run_lines(doc) + [""]
    lines += _figures_markdown(doc["figures"], edition["family"])
    return "\n".join(lines) + "\n"


def balance_rows(variant: dict) -> list[list[str]]:
    rows = []
    for d in variant["differences"]:
        rate = d["metric"] in RATE_METRICS
        fmt = pct if rate else num
        diff_ = d["difference"]
        rows.append([d["label"], fmt(d["base"]), fmt(d["variant"]), diff(diff_, rate),
                     p_text(diff_["p_value"]),
                     "**yes**" if diff_["significant"] else "no"])
    return rows


def sprt_line(verdict: dict) -> str:
    """One line of a variant's sequential test."""
    return (f"sequential test on {verdict['figure']}: {verdict['decision']} after {verdict['games']} games "
            f"(difference that matters {verdict['delta']:g}, alpha {verdict['alpha']:g}, beta {verdict['beta']:g})")


def difference_chart(variant: dict, width: int = 41) -> list[str]:
    """The paired differences as a text chart: each figure's 95% interval scaled to its own largest end.

    `|` is zero, `=` the interval, `o` the estimate; figures are scaled separately (their units differ).
    """
    lines = ["```"]
    for d in variant["differences"]:
        diff_ = d["difference"]
        if diff_.get("mean") is None or diff_.get("low") is None:
            lines.append(f"{d['label'][:26]:<26} n/a")
            continue
        reach = max(abs(diff_["low"]), abs(diff_["high"])) or 1.0
        half = width // 2
        col = lambda x: half + round(x / reach * half)  # noqa: E731
        row = [" "] * (width + 1)
        for c in range(col(diff_["low"]), col(diff_["high"]) + 1):
            row[c] = "="
        row[half] = "|"
        row[col(diff_["mean"])] = "o"
        k, unit = (100.0, " pp") if d["metric"] in RATE_METRICS else (1.0, "")
        lines.append(f"{d['label'][:26]:<26} {''.join(row)} {k * diff_['mean']:+.2f}{unit}")
    lines.append("```")
    return lines


def balance_markdown(doc: dict) -> str:
    base = doc["base"]
    lines = [f"# Balance: variants of {base['edition']['title']}", ""]
    lines += [f"Base `{base['ref']}`:"] + _edition_lines(base["edition"]) + [""]
    lines += _run_lines(doc) + [f"- Pairing: {doc['pairing']}"]
    if "sequential" in doc:
        lines += [f"- Sequential test: {doc['sequential']['test']}; at most {doc['sequential']['games_cap']} games"]
    lines += [""]
    family = base["edition"]["family"]
    for variant in doc["variants"]:
        lines += [f"## Variant `{variant['ref']}`: {variant['edition']['title']}", ""]
        lines += _edition_lines(variant["edition"]) + [""]
        if "sprt" in variant:
            lines += [f"**{sprt_line(variant['sprt'])}**", ""]
        lines += _table(["figure", "base", "variant", "difference (95% interval)", "p", "significant"], balance_rows(variant))
        lines += ["", "Paired differences (variant - base), 95% intervals, each row on its own scale:", ""]
        lines += difference_chart(variant) + [""]
    lines += ["## Base figures", ""] + _figures_markdown(base["figures"], family) + [""]
    for variant in doc["variants"]:
        lines += [f"## Figures of `{variant['ref']}`", ""] + _figures_markdown(variant["figures"], family) + [""]
    return "\n".join(lines)
