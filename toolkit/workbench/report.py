"""The workbench's results: the JSON header every command shares, and its markdown and PDF reports.

Reports render only the JSON document, so a report can always be rebuilt from results.json and
says nothing the JSON does not.
"""
from __future__ import annotations

import toolkit
from toolkit.games.rng import derive_seed
from toolkit.sim.experiment import SEEDING
from toolkit.sim.report_md import num, pct
from toolkit.workbench import charts, setpath

INTERVALS = "95%: Wilson for proportions, normal approximation for means, as stated per figure otherwise"


def header(kind: str, command: str, bots, games: int, deals: int, per_deal: int, seed: int, seats: str) -> dict:
    return {
        "kind": kind,
        "toolkit": {"name": "patchwork-toolkit", "version": toolkit.__version__},
        "command": command,
        "bots": [{"index": i, "name": b.name, "label": b.label} for i, b in enumerate(bots)],
        "games": games,
        "deals": deals,
        "games_per_deal": per_deal,
        "seed": seed,
        "seeding": SEEDING,
        "first_deal_seeds": [derive_seed(seed, i) for i in range(min(deals, 5))],
        "seats": seats,
        "intervals": INTERVALS,
    }


def _run_lines(doc: dict) -> list[str]:
    bots = ", ".join(f"{b['index']}: {b['label']}" for b in doc["bots"])
    lines = [
        f"- Command: `{doc['command']}`",
        f"- Bots: {bots}",
        f"- Games: {doc['games']} per edition or pair ({doc['deals']} deals x {doc['games_per_deal']})",
        f"- Seats: {doc['seats']}",
        f"- Seed: {doc['seed']} ({doc['seeding']})",
        f"- Intervals: {doc['intervals']}",
        f"- Toolkit: {doc['toolkit']['name']} {doc['toolkit']['version']}",
    ]
    if doc.get("reproducible") is False:
        lines.append(f"- Not reproducible: {doc['reproducibility']}")
    return lines


def _edition_line(edition: dict) -> str:
    from toolkit.sim.report_md import track_line

    return (f"- Edition: {edition['title']} (`{edition['name']}`, {edition['family']}, board {edition['board']}), "
            f"content hash `{edition['content_hash'][:16]}`; time track: {track_line(edition)}")


def _table(header: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def _fmt(iv: dict, is_rate: bool) -> str:
    return pct(iv) if is_rate else num(iv)


# ----- price ----------------------------------------------------------------------------------


def price_rows(doc: dict) -> list[list[str]]:
    rows = []
    for v in doc["values"]:
        ply = v["mean_ply"]["estimate"]
        rows.append([v["value"], pct(v["buy_rate"]), "n/a" if ply is None else f"{ply:.1f}",
                     num(v["advantage"]), pct(v["win_advantage"]) if v["win_advantage"]["estimate"] is not None else "n/a"])
    return rows


def fair_text(fair: dict, over: str) -> str:
    if fair["estimate"] is None:
        return "no fair value: the advantage does not change with the value, or too few purchases"
    text = f"{fair['estimate']:.2f}"
    if fair["low"] is not None:
        text += f" [{fair['low']:.2f}, {fair['high']:.2f}]"
    else:
        text += " (no interval: too few bootstrap resamples gave a crossing)"
    if not fair["inside_range"]:
        text += " (outside the swept values: an extrapolation)"
    return text


def stopping_text(stopping: dict) -> str:
    verb = "reached" if stopping["reached"] else "not reached"
    return f"interval width {stopping['width']:g} {verb} after {stopping['games']} games per value ({stopping['rule']})"


PRICE_HEADER = ["value", "bought in (95%)", "mean ply of purchase", "buyer's margin advantage (95%)", "buyer's win advantage (95%)"]


def price_chart(doc: dict) -> charts.IntervalChart:
    vals = doc["values"]
    fair = doc["fair"]
    line = fair["line"]
    return charts.IntervalChart(
        f"Buyer's margin advantage against {doc['over']} of {doc['patch']['id']}",
        tuple(str(v["value"]) for v in vals),
        tuple(v["advantage"]["estimate"] for v in vals), tuple(v["advantage"]["low"] for v in vals),
        tuple(v["advantage"]["high"] for v in vals), "points", xs=tuple(float(v["value"]) for v in vals),
        line=None if line is None else (line["intercept"], line["slope"]), mark=fair["estimate"])


def buy_chart(doc: dict) -> charts.IntervalChart:
    vals = doc["values"]
    return charts.IntervalChart(
        f"Games in which {doc['patch']['id']} is bought, by {doc['over']}", tuple(str(v["value"]) for v in vals),
        tuple(v["buy_rate"]["estimate"] for v in vals), tuple(v["buy_rate"]["low"] for v in vals),
        tuple(v["buy_rate"]["high"] for v in vals), "share of games", zero=True)


def price_markdown(doc: dict) -> str:
    p = doc["patch"]
    lines = [f"# Fair {doc['over']} of {p['id']} in {doc['edition']['title']}", "",
             _edition_line(doc["edition"]),
             f"- Patch {p['id']}: cost {p['cost']}, time {p['time']}, income {p['income']}, {p['size']} cells (as printed)",
             ] + _run_lines(doc) + [f"- Reference: {doc['reference']}", f"- Estimator: {doc['estimator']}",
                                    f"- Bias: {doc['bias']}", "",
                                    f"**Fair {doc['over']}: {fair_text(doc['fair'], doc['over'])}**", ""]
    if "stopping" in doc:
        lines += [f"Stopping: {stopping_text(doc['stopping'])}", ""]
    line = doc["fair"]["line"]
    if line:
        lines += [f"Fitted line: advantage = {line['intercept']:.3f} {'-' if line['slope'] < 0 else '+'} "
                  f"{abs(line['slope']):.3f} x {doc['over']}", ""]
    lines += _table(PRICE_HEADER, price_rows(doc))
    return "\n".join(lines) + "\n"


def price_pdf(doc: dict) -> bytes:
    from toolkit.sim.report_pdf import _Doc  # noqa: PLC2701  (the simulator's report page setup)

    d = _Doc()
    p = doc["patch"]
    d.heading(f"Fair {doc['over']} of {p['id']} in {doc['edition']['title']}")
    d.para(_edition_line(doc["edition"])[2:].replace("`", ""))
    d.para(f"Patch {p['id']} as printed: cost {p['cost']}, time {p['time']}, income {p['income']}, {p['size']} cells.")
    for line in _run_lines(doc):
        d.para(line[2:].replace("`", ""))
    d.para(f"Fair {doc['over']}: {fair_text(doc['fair'], doc['over'])}.")
    if "stopping" in doc:
        d.para(f"Stopping: {stopping_text(doc['stopping'])}.")
    d.add(charts.drawing(price_chart(doc)))
    d.add(charts.drawing(buy_chart(doc)))
    d.table(PRICE_HEADER, price_rows(doc), small=True)
    d.para(f"Reference: {doc['reference']}.")
    d.para(f"Estimator: {doc['estimator']}.")
    d.para(f"Bias: {doc['bias']}.")
    return d.build(f"Fair {doc['over']} of {p['id']}")


# ----- sweep ----------------------------------------------------------------------------------


def point_label(point: dict) -> str:
    from toolkit.workbench.setpath import value_text

    return ", ".join(f"{k}={value_text(tuple(v) if isinstance(v, list) else v)}" for k, v in point["set"].items())


def sweep_charts(doc: dict) -> list[tuple[str, charts.IntervalChart]]:
    """(file stem, chart) per headline figure."""
    from toolkit.workbench.sweep import headline

    points = doc["points"]
    family = doc["edition"]["family"]
    rows = [headline(p, family, doc["touched_patches"]) for p in points]
    keys = list(points[0]["set"])
    labels = tuple("/".join(setpath.value_text(tuple(v) if isinstance(v, list) else v) for v in p["set"].values())
                   for p in points)
    numeric = len(keys) == 1 and all(isinstance(p["set"][keys[0]], int) for p in points)
    out = []
    for f, (label, _, is_rate) in enumerate(rows[0]):
        ivs = [r[f][1] for r in rows]
        chart = charts.IntervalChart(
            f"{label} by {' / '.join(keys)}", labels, tuple(iv["estimate"] for iv in ivs),
            tuple(iv["low"] for iv in ivs), tuple(iv["high"] for iv in ivs), "share" if is_rate else "",
            xs=tuple(float(p["set"][keys[0]]) for p in points) if numeric else None, zero=is_rate or "margin" in label)
        stem = "".join(ch if ch.isalnum() else "-" for ch in label).strip("-")
        while "--" in stem:
            stem = stem.replace("--", "-")
        out.append((f"chart-{stem}", chart))
    return out


def sweep_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    from toolkit.workbench.sweep import headline

    family = doc["edition"]["family"]
    points = doc["points"]
    first = headline(points[0], family, doc["touched_patches"])
    header = ["set"] + [label for label, _, _ in first]
    rows = [[point_label(p)] + [_fmt(iv, rate) for _, iv, rate in headline(p, family, doc["touched_patches"])]
            for p in points]
    if "sequential" in doc:
        header.append("sequential test vs the first point")
        for row, p in zip(rows, points):
            v = p.get("sprt")
            row.append("(reference)" if v is None else f"{v['decision']} after {v['games']} games")
    return header, rows


def sweep_markdown(doc: dict) -> str:
    lines = [f"# Sweep of {doc['edition']['title']}", "", _edition_line(doc["edition"])] + _run_lines(doc)
    lines += [f"- Grid: {doc['grid']}"]
    if "sequential" in doc:
        lines += [f"- Sequential test: {doc['sequential']['test']}; at most {doc['sequential']['games_cap']} games per point"]
    lines += [""]
    header, rows = sweep_rows(doc)
    lines += _table(header, rows)
    lines += ["", "Charts: " + ", ".join(f"`{stem}.png`" for stem, _ in sweep_charts(doc)) + " (and in report.pdf)"]
    return "\n".join(lines) + "\n"


def sweep_pdf(doc: dict) -> bytes:
    from toolkit.sim.report_pdf import _Doc  # noqa: PLC2701

    d = _Doc()
    d.heading(f"Sweep of {doc['edition']['title']}")
    d.para(_edition_line(doc["edition"])[2:].replace("`", ""))
    for line in _run_lines(doc):
        d.para(line[2:].replace("`", ""))
    d.para(f"Grid: {doc['grid']}.")
    if "sequential" in doc:
        d.para(f"Sequential test: {doc['sequential']['test']}; at most {doc['sequential']['games_cap']} games per point.")
    header, rows = sweep_rows(doc)
    d.table(header, rows, small=True)
    for _, chart in sweep_charts(doc):
        d.add(charts.drawing(chart))
    return d.build(f"Sweep of {doc['edition']['title']}")


# ----- ladder ---------------------------------------------------------------------------------


LADDER_HEADER = ["bot", "Elo (95%)", "games"]


def ladder_rows(doc: dict) -> list[list[str]]:
    return [[r["bot"], f"{r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]", r["games"]] for r in doc["ratings"]]


def pair_rows(doc: dict) -> list[list[str]]:
    return [[f"{p['bots'][0]} vs {p['bots'][1]}", p["games"], pct(p["first_wins"])] for p in doc["pairs"]]


def ladder_chart(doc: dict) -> charts.IntervalChart:
    r = doc["ratings"]
    return charts.IntervalChart("Bradley-Terry ratings (Elo scale, mean 0)", tuple(x["bot"] for x in r),
                                tuple(x["elo"] for x in r), tuple(x["low"] for x in r), tuple(x["high"] for x in r), "Elo")


def ladder_markdown(doc: dict) -> str:
    lines = [f"# Ladder on {doc['edition']['title']}", "", _edition_line(doc["edition"])] + _run_lines(doc)
    lines += [f"- Model: {doc['model']}", ""]
    lines += _table(LADDER_HEADER, ladder_rows(doc)) + ["", "Pairs:", ""]
    lines += _table(["pair", "games", "first bot wins (95%)"], pair_rows(doc))
    return "\n".join(lines) + "\n"


def ladder_pdf(doc: dict) -> bytes:
    from toolkit.sim.report_pdf import _Doc  # noqa: PLC2701

    d = _Doc()
    d.heading(f"Ladder on {doc['edition']['title']}")
    d.para(_edition_line(doc["edition"])[2:].replace("`", ""))
    for line in _run_lines(doc):
        d.para(line[2:].replace("`", ""))
    d.para(f"Model: {doc['model']}.")
    d.table(LADDER_HEADER, ladder_rows(doc))
    d.add(charts.drawing(ladder_chart(doc)))
    d.table(["pair", "games", "first bot wins (95%)"], pair_rows(doc))
    return d.build(f"Ladder on {doc['edition']['title']}")
