"""The reports of the workbench's `price`, `sweep` and `ladder`, their terminal rows and charts.

They read only the JSON document (its header is toolkit.workbench.report.header), so a report can
always be rebuilt from results.json and says nothing the JSON does not.
"""
from __future__ import annotations

import math

from toolkit.reports import charts
from toolkit.reports.simulation import run_items, track_line, warning_sections
from toolkit.sections import (Bullets, Chart, HeatmapChart, IntervalChart, Paragraph, Report, ReportTable, Section,
                              SeriesChart)
from toolkit.stats import Z95, num, pct
from toolkit.workbench import setpath
from toolkit.workbench.sweep import headline


PER = {"price": "per value", "sweep": "per point", "tune": "on the chosen point", "ladder": "per pair",
       "feel": "per edition"}
"""What a workbench run's game count is counted by, per kind of run."""


def _run_items(doc: dict) -> list[str]:
    items = run_items(doc, per=PER.get(doc.get("kind", ""), "per edition"))
    if doc.get("reproducible") is False:
        items.append(f"Not reproducible: {doc['reproducibility']}")
    return items


def _edition_item(edition: dict) -> str:
    return (f"Edition: {edition['title']} (`{edition['name']}`, {edition['family']}, board {edition['board']}), "
            f"content hash `{edition['content_hash'][:16]}`; time track: {track_line(edition)}")


def _fmt(iv: dict, is_rate: bool) -> str:
    return pct(iv) if is_rate else num(iv)


# ----- price ----------------------------------------------------------------------------------


def price_rows(doc: dict) -> list[list[str]]:
    fitted = {f["value"]: f["advantage"] for f in doc["fair"].get("fitted", [])}
    signs = {s["value"]: s["sign"] for s in doc["fair"].get("signs", [])}
    rows = []
    for v in doc["values"]:
        ply = v["mean_ply"]["estimate"]
        fit = fitted.get(v["value"])
        rows.append([v["value"], f"{v['games']:,}", pct(v["buy_rate"]), "n/a" if ply is None else f"{ply:.1f}",
                     num(v["advantage"]), SIGN_WORDS.get(signs.get(v["value"], "none"), "n/a"),
                     "" if fit is None else f"{fit:.2f}",
                     pct(v["win_advantage"]) if v["win_advantage"]["estimate"] is not None else "n/a"])
    return rows


SIGN_WORDS = {"gains": "gains", "loses": "loses", "unclear": "not told from 0", "few": "too few buys",
              "none": "never bought"}


def _interval(fair: dict) -> str:
    low = "open" if fair["low"] is None else f"{fair['low']:.2f}"
    high = "open" if fair["high"] is None else f"{fair['high']:.2f}"
    return f"[{low}, {high}]"


def fair_text(fair: dict, over: str) -> str:
    """The price to print in one line: the whole value, whether it is decided, the fair value and its
    interval, or why there is none and what would give one."""
    status = fair.get("status")
    unit = "button" if over == "cost" else "space" if over == "time" else "button of income"
    if status == "never bought":
        return "no price: the patch was never bought at any value played"
    if status == "undecided":
        return "no price yet: the buyer's advantage is not told from 0 at any value played"
    tried = fair.get("try")
    if status == "above":
        largest = max(s["value"] for s in fair["signs"])
        return (f"no price: the buyer's advantage has not fallen to 0 by the largest value played ({largest})"
                + (f"; try values up to {tried['value']}" if tried and tried["value"] > largest else ""))
    if status == "below" and fair["estimate"] is None:
        if tried and tried["value"] < min(s["value"] for s in fair["signs"]):
            return f"no price: the buyer already loses at the smallest value played; try values down to {tried['value']}"
        return f"no price: the buyer loses even at the smallest {over} the patch can have"
    if fair["estimate"] is None:
        return f"no price yet: fair {over} {_interval(fair)}"
    verdict = (f"decided within {fair['within']} {unit}" if fair["decided"]
               else f"not decided within {fair['within']} {unit}")
    text = f"{fair['print']} ({verdict}; fair {over} {fair['estimate']:.2f} {_interval(fair)})"
    crossings = fair.get("crossings", [])
    if len(crossings) > 1:
        text += (f"; {len(crossings)} crossings: " + ", ".join(f"{c['estimate']:.2f}" if c["estimate"] is not None
                                                               else f"between {c['between'][0]} and {c['between'][1]}"
                                                               for c in crossings)
                 + " (the first is where buying first stops paying)")
    return text


def stopping_text(stopping: dict) -> str:
    """How the run ended: decided, or how many more games would decide it."""
    games = f"{stopping['games']:,} games per value"
    if stopping.get("width") is not None:
        verb = "reached" if stopping["reached"] else "not reached"
        head = f"interval width {stopping['width']:g} {verb} after {games}"
    elif stopping["decided"]:
        head = f"decided after {games}"
    else:
        head = f"not decided after {games}" + (" (the cap)" if not stopping["fixed"] else "")
    if stopping.get("more_games"):
        head += f"; about {stopping['more_games']:,} more games per value would decide it"
    elif stopping.get("why"):
        head += f": {stopping['why']}"
    return f"{head} ({stopping['rule']})"


def agreement_lines(doc: dict) -> list[str]:
    """One line per pair of bot tiers whose fair values were compared."""
    lines = []
    for a in doc.get("agreement", []):
        first, second = a["tiers"]
        if a["verdict"] == "disagree":
            lines.append(f"DISAGREE: {first} and {second} price {doc['patch']['id']} differently "
                         "(their 95% intervals do not overlap): the fair value depends on the players' skill")
        elif a["verdict"] == "agree":
            lines.append(f"{first} and {second} agree within their intervals")
        else:
            lines.append(f"{first} and {second}: no comparison (a tier has no fair value)")
    return lines


PRICE_HEADER = ["value", "games", "bought in (95%)", "mean ply of purchase", "buyer's margin advantage (95%)", "buyer",
                "fit", "buyer's win advantage (95%)"]


def price_verdict(doc: dict) -> str:
    """The report's first sentence: the fair value, per bot tier when there are several."""
    over, pid = doc["over"], doc["patch"]["id"]
    if "tiers" not in doc:
        return f"{over.capitalize()} to print on {pid}: {fair_text(doc['fair'], over)}."
    parts = [f"{t['bots']} {fair_text(t['fair'], over)}" for t in doc["tiers"]]
    disagree = [a for a in doc["agreement"] if a["verdict"] == "disagree"]
    tail = ("; the tiers disagree beyond their intervals (" +
            "; ".join(" and ".join(a["tiers"]) for a in disagree) + ")") if disagree else "; the tiers agree within their intervals"
    return f"{over.capitalize()} to print on {pid} by bot skill: " + "; ".join(parts) + tail + "."


def price_chart(doc: dict) -> IntervalChart:
    vals = doc["values"]
    fair = doc["fair"]
    return IntervalChart(
        f"Buyer's margin advantage against {doc['over']} of {doc['patch']['id']}",
        tuple(str(v["value"]) for v in vals),
        tuple(v["advantage"]["estimate"] for v in vals), tuple(v["advantage"]["low"] for v in vals),
        tuple(v["advantage"]["high"] for v in vals), "points", xs=tuple(float(v["value"]) for v in vals),
        mark=fair["estimate"])


def buy_chart(doc: dict) -> IntervalChart:
    vals = doc["values"]
    return IntervalChart(
        f"Games in which {doc['patch']['id']} is bought, by {doc['over']}", tuple(str(v["value"]) for v in vals),
        tuple(v["buy_rate"]["estimate"] for v in vals), tuple(v["buy_rate"]["low"] for v in vals),
        tuple(v["buy_rate"]["high"] for v in vals), "share of games", zero=True)


def price_report(doc: dict) -> Report:
    p = doc["patch"]
    facts = [_edition_item(doc["edition"]),
             f"Patch {p['id']}: cost {p['cost']}, time {p['time']}, income {p['income']}, {p['size']} cells (as printed)",
             *_run_items(doc), f"Reference: {doc['reference']}", f"Estimator: {doc['estimator']}", f"Bias: {doc['bias']}"]
    sections: list[Section] = [Paragraph(f"**{price_verdict(doc)}**"), *warning_sections(doc), Bullets(tuple(facts))]
    sections.append(Paragraph(f"Stopping: {stopping_text(doc['stopping'])}"))
    sections.append(Paragraph(f"Model: {doc['fair']['model']}"))
    sections += [price_chart(doc), buy_chart(doc),
                 ReportTable("", tuple(PRICE_HEADER), tuple(tuple(r) for r in price_rows(doc)), small=True)]
    for tier in doc.get("tiers", [])[1:]:
        tier_doc = {**doc, **tier}
        sections += [Paragraph(f"**{tier['bots']}**: {doc['over']} to print {fair_text(tier['fair'], doc['over'])}; "
                               f"{stopping_text(tier['stopping'])}"),
                     price_chart(tier_doc),
                     ReportTable("", tuple(PRICE_HEADER), tuple(tuple(r) for r in price_rows(tier_doc)), small=True)]
    return Report(f"Fair {doc['over']} of {p['id']} in {doc['edition']['title']}", tuple(sections))


# ----- sweep ----------------------------------------------------------------------------------


def point_label(point: dict) -> str:
    return ", ".join(f"{k}={setpath.value_text(tuple(v) if isinstance(v, list) else v)}" for k, v in point["set"].items())


def _stem(label: str) -> str:
    stem = "".join(ch if ch.isalnum() else "-" for ch in label).strip("-")
    while "--" in stem:
        stem = stem.replace("--", "-")
    return f"chart-{stem}"


def _value(v) -> str:
    return setpath.value_text(tuple(v) if isinstance(v, list) else v)


def sweep_charts(doc: dict) -> list[tuple[str, Chart]]:
    """(file stem, chart) per headline figure: intervals against the values of one key; for two keys
    one line per value of the second key (a heatmap when it has more values than lines can be told
    apart); for more keys intervals against every point."""
    points = doc["points"]
    family = doc["edition"]["family"]
    rows = [headline(p, family, doc["touched_patches"]) for p in points]
    keys = list(points[0]["set"])
    if len(keys) == 2:
        return _two_key_charts(doc, keys, rows)
    labels = tuple("/".join(_value(v) for v in p["set"].values()) for p in points)
    # A number axis for whole-number values only: true/false (a bool is an int to Python) are labels.
    numeric = len(keys) == 1 and all(type(p["set"][keys[0]]) is int for p in points)
    out: list[tuple[str, Chart]] = []
    for f, (label, _, is_rate) in enumerate(rows[0]):
        ivs = [r[f][1] for r in rows]
        chart = IntervalChart(
            f"{label} by {' / '.join(keys)}", labels, tuple(iv["estimate"] for iv in ivs),
            tuple(iv["low"] for iv in ivs), tuple(iv["high"] for iv in ivs), "share" if is_rate else "",
            xs=tuple(float(p["set"][keys[0]]) for p in points) if numeric else None, zero=is_rate or "margin" in label,
            level=0.5 if label == "player 1 win rate" else None)
        out.append((_stem(label), chart))
    return out


def _two_key_charts(doc: dict, keys: list[str], rows: list) -> list[tuple[str, Chart]]:
    points = doc["points"]
    firsts = list(dict.fromkeys(_value(p["set"][keys[0]]) for p in points))
    seconds = list(dict.fromkeys(_value(p["set"][keys[1]]) for p in points))
    at = {(_value(p["set"][keys[0]]), _value(p["set"][keys[1]])): i for i, p in enumerate(points)}
    out: list[tuple[str, Chart]] = []
    for f, (label, _, is_rate) in enumerate(rows[0]):
        def grid(field: str):
            return tuple(tuple(rows[at[(a, b)]][f][1][field] if (a, b) in at else None for a in firsts) for b in seconds)

        title = f"{label} by {keys[0]}, one line per {keys[1]}"
        if len(seconds) <= charts.MAX_LINES:
            chart: Chart = SeriesChart(title, tuple(firsts), tuple(f"{keys[1]}={b}" for b in seconds),
                                       grid("estimate"), grid("low"), grid("high"),
                                       "share" if is_rate else "", zero=is_rate or "margin" in label)
        else:
            chart = HeatmapChart(f"{label} by {keys[0]} and {keys[1]}", tuple(firsts), tuple(seconds),
                                 grid("estimate"), keys[0], keys[1], is_rate)
        out.append((_stem(label), chart))
    return out


def sweep_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
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
            row.append("(reference)" if v is None else sprt_text(v))
    return header, rows


def sprt_text(v: dict) -> str:
    """A point's sequential verdict against the first point, with the difference it saw (point -
    first, 95% at the stopping look: not adjusted for the looks)."""
    text = f"{v['decision']} on {v.get('label', v['figure'])} after {v['games']} games"
    if v.get("difference") is not None and v.get("se") is not None:
        d, half = v["difference"], Z95 * v["se"]
        text += f": {d:+.2f} [{d - half:+.2f}, {d + half:+.2f}]"
    return text


SWEEP_CORRECTION = ("a figure moves when the intervals of its lowest and highest point are apart, and player 1's win "
                    "rate is told apart from 50% at a point when 50% lies outside its interval; the intervals are "
                    "widened from 95% so that all these tests together (every pair of points of every figure, and "
                    "every point against 50%) name a move or an uneven point that is not there at most 5% of the "
                    "time (Bonferroni; two intervals apart at half-width z each are a test at z * sqrt(2); points "
                    "play the same deals, which makes the pairs' test conservative)")


def _sweep_z(points: int, figures: int, even_tests: int) -> float:
    """The two-sided z of each of the sweep verdict's tests: every pair of points of each of
    `figures` figures, and `even_tests` points against 50%, at 5% over all of them (Bonferroni)."""
    from statistics import NormalDist

    tests = max(1, figures * points * (points - 1) // 2 + even_tests)
    return NormalDist().inv_cdf(1 - 0.05 / tests / 2)


def sweep_widening(points: int, figures: int, even_tests: int = 0) -> float:
    """How much the 95% half-widths grow for the pairs of the sweep's verdict (SWEEP_CORRECTION):
    two intervals apart at half-width z each are a test at z * sqrt(2). Never below 1."""
    return max(1.0, _sweep_z(points, figures, even_tests) / math.sqrt(2) / Z95)


def even_widening(points: int, figures: int, even_tests: int) -> float:
    """How much the 95% half-widths grow to test one point against 50% in the sweep's verdict."""
    return max(1.0, _sweep_z(points, figures, even_tests) / Z95)


def _widened(iv: dict, by: float) -> dict:
    """`iv` with its half-widths (each side its own) grown `by` times."""
    e = iv["estimate"]
    return {**iv, "low": e - by * (e - iv["low"]), "high": e + by * (iv["high"] - e)}


def _level(by: float) -> str:
    """The confidence of a 95% interval widened `by` times, as the verdict names it."""
    from statistics import NormalDist

    return f"{100 * (2 * NormalDist().cdf(by * Z95) - 1):.2f}".rstrip("0").rstrip(".") + "%"


def _names(labels: list[str], most: int = 6, sep: str = ", ") -> str:
    return sep.join(labels[:most]) + (f" and {len(labels) - most} more" if len(labels) > most else "")


def _even_clause(ivs: list[dict], labels: list[str], known: list[int], by: float) -> str:
    """Where player 1's win rate is told apart from 50%, each point's interval widened `by`."""
    wide = {i: _widened(ivs[i], by) for i in known}
    above = [labels[i] for i in known if wide[i]["low"] > 0.5]
    below = [labels[i] for i in known if wide[i]["high"] < 0.5]
    even = [labels[i] for i in known if wide[i]["low"] <= 0.5 <= wide[i]["high"]]
    level = f"{_level(by)} intervals"
    if not above and not below:
        return f"player 1 win rate is not told apart from 50% at any point ({level})"
    sides = "; ".join(f"{word} 50% at {_names(names)}" for word, names in (("above", above), ("below", below)) if names)
    if not even:
        return f"player 1 win rate is told apart from 50% at every point ({level}): {sides}"
    return f"player 1 win rate is not told apart from 50% at {_names(even)} ({level}); {sides}"


def sweep_verdict(doc: dict) -> str:
    """One sentence over the grid: where player 1's win rate is told apart from 50% (no point is
    picked as the fairest: on a grid whose points are all near even, the nearest one is the noise's
    choice), and which figures move beyond their intervals between their lowest and highest point
    (the rest named as not moving), every test corrected for all of them together."""
    points = doc["points"]
    family = doc["edition"]["family"]
    rows = [headline(p, family, doc["touched_patches"]) for p in points]
    labels = [point_label(p) for p in points]
    even_tests = len(points) if any(label == "player 1 win rate" for label, _, _ in rows[0]) else 0
    widen = sweep_widening(len(points), len(rows[0]), even_tests)
    parts, still, reach = [], [], []
    z_move = _sweep_z(len(points), len(rows[0]), even_tests)
    for f, (label, _, rate) in enumerate(rows[0]):
        ivs = [r[f][1] for r in rows]
        known = [i for i, iv in enumerate(ivs) if iv and iv.get("estimate") is not None and iv.get("low") is not None]
        if len(known) < 2:
            continue
        if label == "player 1 win rate":
            parts.append(_even_clause(ivs, labels, known, even_widening(len(points), len(rows[0]), even_tests)))
        lo = min(known, key=lambda i: ivs[i]["estimate"])
        hi = max(known, key=lambda i: ivs[i]["estimate"])
        low, high = _widened(ivs[lo], widen), _widened(ivs[hi], widen)
        if low["high"] < high["low"]:
            show = pct if rate else num
            parts.append(f"{label} goes from {show(low)} at {labels[lo]} to {show(high)} at {labels[hi]} "
                         f"({_level(widen)} intervals, apart)")
        else:
            still.append(label)
            size = _smallest_move([ivs[i] for i in known], z_move)
            reach.append(f"{100 * size:.1f} pp in {label}" if rate else f"{size:.2f} in {label}")
    if still:
        parts.append(f"no move found in {', '.join(still)} (the smallest moves these games would find 4 times in 5, "
                     f"points counted as independent: {', '.join(reach)})")
    return f"Over {doc['grid']}: " + "; ".join(parts) + "."


def _smallest_move(ivs: list[dict], z: float) -> float:
    """The move between two points the verdict's test finds 4 times in 5: two intervals apart at
    half-width z / sqrt(2) standard errors each are a test at z on the difference; with the points'
    middle standard error, as if the points were independent (they share deals, which only makes
    a move easier to find)."""
    from statistics import NormalDist, median

    se = median((iv["high"] - iv["low"]) / (2 * Z95) for iv in ivs)
    return math.sqrt(2) * se * (z + NormalDist().inv_cdf(0.8))


def sweep_report(doc: dict) -> Report:
    facts = [_edition_item(doc["edition"]), *_run_items(doc), f"Grid: {doc['grid']}",
             f"Verdict: {SWEEP_CORRECTION}"]
    if "sequential" in doc:
        facts.append(f"Sequential test: {doc['sequential']['test']}; at most {doc['sequential']['games_cap']} games per point")
        if doc["sequential"].get("intervals"):
            facts.append(f"Intervals after the test: {doc['sequential']['intervals']}")
    header, rows = sweep_rows(doc)
    charts = sweep_charts(doc)
    sections: list[Section] = [Paragraph(f"**{sweep_verdict(doc)}**"), *warning_sections(doc), Bullets(tuple(facts)),
                               ReportTable("", tuple(header), tuple(tuple(r) for r in rows), small=True),
                               *(chart for _, chart in charts),
                               Paragraph("Charts: " + ", ".join(f"`{stem}.png`" for stem, _ in charts) + " (and in report.pdf)",
                                         pdf=False)]
    return Report(f"Sweep of {doc['edition']['title']}", tuple(sections))


# ----- ladder ---------------------------------------------------------------------------------


LADDER_HEADER = ["bot", "Elo (95%)", "games"]
PAIR_HEADER = ("pair", "games", "first bot wins (95%)")


def ladder_rows(doc: dict) -> list[list[str]]:
    """Each bot's rating and interval; the end of a bot that won (lost) every game is open."""
    def ends(r: dict) -> str:
        low = "no lower bound" if r.get("open") == "low" else f"{r['low']:+.0f}"
        high = "no upper bound" if r.get("open") == "high" else f"{r['high']:+.0f}"
        return f"[{low}, {high}]"

    return [[r["bot"], f"{r['elo']:+.0f} {ends(r)}", r["games"]] for r in doc["ratings"]]


def pair_rows(doc: dict) -> list[list[str]]:
    return [[f"{p['bots'][0]} vs {p['bots'][1]}", p["games"], pct(p["first_wins"])] for p in doc["pairs"]]


def ladder_chart(doc: dict) -> IntervalChart:
    r = doc["ratings"]
    return IntervalChart("Bradley-Terry ratings (Elo scale, mean 0)", tuple(x["bot"] for x in r),
                         tuple(x["elo"] for x in r), tuple(None if x.get("open") == "low" else x["low"] for x in r),
                         tuple(None if x.get("open") == "high" else x["high"] for x in r), "Elo")


def prior_text(doc: dict) -> str:
    """What the virtual drawn games do to the ratings."""
    pull = doc.get("prior_pull")
    if pull is None:
        return ("Prior: without the virtual drawn games a rating would be infinite (a bot won or lost every game of "
                "its pairs): the ratings at the ends say 'at least this far apart', not how far")
    return f"Prior: the virtual drawn games move no rating by more than {pull:.1f} Elo"


def ladder_report(doc: dict) -> Report:
    facts = [_edition_item(doc["edition"]), *_run_items(doc), f"Model: {doc['model']}", prior_text(doc)]
    sections: list[Section] = [Bullets(tuple(facts)),
                               ReportTable("", tuple(LADDER_HEADER), tuple(tuple(r) for r in ladder_rows(doc))),
                               ladder_chart(doc), Paragraph("Pairs:"),
                               ReportTable("", PAIR_HEADER, tuple(tuple(r) for r in pair_rows(doc)))]
    return Report(f"Ladder on {doc['edition']['title']}", tuple(sections))


# ----- tune -----------------------------------------------------------------------------------


TUNE_HEADER = ["figure", "target +- tolerance", "measured on fresh deals ({level}, deal as unit)", "verdict"]


def tune_header(doc: dict) -> list[str]:
    """The table's header, naming the intervals' level (95% for one target, wider for several)."""
    levels = {iv.get("level", 95.0) for iv in doc["validation"]["figures"].values()}
    level = f"{min(levels):g}%"
    return [h.format(level=level) for h in TUNE_HEADER]
TUNE_RATES = ("seat-win", "bonus", "buy-rate")


def _tune_digits(t: dict, iv: dict) -> int:
    """Decimals at which the printed interval ends and the printed band edges (and the target)
    compare as the exact figures do, so that what the reader sees agrees with the verdict (53.1%
    [45.0, 56.2] beside a band from 45.0% would hide that the low end lies below the edge)."""
    rate = t["figure"] in TUNE_RATES
    factor, digits = (100.0, 1) if rate else (1.0, 2)
    ends = [iv[k] for k in ("low", "high") if iv.get(k) is not None]
    marks = [t["value"] - t["scale"], t["value"], t["value"] + t["scale"]]
    for places in range(digits, digits + 5):
        shown = lambda x: round(factor * x, places)  # noqa: E731 -- as the f-string below rounds
        if all((shown(a) > shown(b)) == (a > b) and (shown(a) < shown(b)) == (a < b) for a in ends for b in marks):
            return places
    return digits + 4


def _tune_interval(t: dict, iv: dict) -> str:
    if iv.get("estimate") is None:
        return "n/a"
    places = _tune_digits(t, iv)
    rate = t["figure"] in TUNE_RATES
    factor = 100.0 if rate else 1.0
    text = f"{factor * iv['estimate']:.{places}f}" + ("%" if rate else "")
    if iv.get("low") is not None:
        text += f" [{factor * iv['low']:.{places}f}, {factor * iv['high']:.{places}f}]"
    return text


def _target_text(t: dict, iv: dict | None = None) -> str:
    places = _tune_digits(t, iv or {})
    if t["figure"] in TUNE_RATES:
        return f"{100 * t['value']:.{places}f}% +- {100 * t['scale']:.{places}f} pp"
    if iv is None:
        return f"{t['value']:g} +- {t['scale']:g}"
    return f"{t['value']:.{places}f} +- {t['scale']:.{places}f}"


def _rounded(n: int) -> int:
    """A games estimate to two significant figures (it is a guess, good to some tens of per cent)."""
    return n if n < 100 else int(round(n, 2 - len(str(n))))


def _verdict_cell(iv: dict) -> str:
    if iv["verdict"] != "undecided":
        return iv["verdict"]
    return "undecided" + (f" (about {_rounded(iv['more_games']):,} more games)" if iv["more_games"] is not None else "")


def tune_rows(doc: dict) -> list[list[str]]:
    rows = []
    for t in doc["targets"]:
        iv = doc["validation"]["figures"][t["figure"]]
        rows.append([t["figure"], _target_text(t, iv), _tune_interval(t, iv), _verdict_cell(iv)])
    return rows


def _target_clause(t: dict, iv: dict) -> str:
    measured = _tune_interval(t, iv)
    band = _target_text(t, iv)
    if iv["verdict"] == "meets":
        return f"{t['figure']} meets its target ({measured} lies within {band})"
    if iv["verdict"] == "misses":
        return f"{t['figure']} misses its target ({measured} lies outside {band})"
    more = (f"; about {_rounded(iv['more_games']):,} more games would decide, if the estimate holds"
            if iv["more_games"] is not None else "; the estimate sits on the tolerance's edge")
    low_edge, high_edge = iv.get("band") or (t["value"] - t["scale"], t["value"] + t["scale"])
    edges = [name for name, crossed in (("lower", iv["low"] < low_edge <= iv["high"]),
                                         ("upper", iv["low"] <= high_edge < iv["high"])) if crossed]
    where = "both edges" if len(edges) == 2 else f"the {edges[0]} edge" if edges else "an edge"
    return f"{t['figure']} is undecided ({measured} reaches past {where} of {band}{more})"


def tune_verdict(doc: dict) -> str:
    """The report's first sentence: the chosen settings and whether the fresh games meet the targets."""
    best = ", ".join(f"{k}={setpath.value_text(tuple(v) if isinstance(v, list) else v)}" for k, v in doc["best"]["set"].items())
    clauses = [_target_clause(t, doc["validation"]["figures"][t["figure"]]) for t in doc["targets"]]
    targets = len(doc["targets"])
    together = "" if targets == 1 else f", the {targets} verdicts judged together,"
    return (f"Chosen settings: {best} ({doc['points_tried']} of {doc['space']} points tried, each on a few noisy "
            f"evaluations: the fresh games are the measure); on {doc['validation']['games']:,} fresh games{together} "
            f"{'; '.join(clauses)}.")


def tune_refinement_lines(doc: dict) -> list[str]:
    """Which points the last evaluations re-played and how the chosen point was picked."""
    r = doc["refinement"]
    if not r["evaluations"]:
        return [f"Chosen point: {r['rule']} (no evaluation re-played a neighbourhood)."]
    def label(point: dict) -> str:
        return ", ".join(f"{k}={setpath.value_text(tuple(v) if isinstance(v, list) else v)}" for k, v in point.items())
    replayed = [label(q["set"]) for q in r["points"]]
    n = r["evaluations"]
    lines = [f"The last {_count(n, 'evaluation')} re-played {'this point' if len(replayed) == 1 else 'these points'} "
             f"around the model's best ({label(r['centre'])}): {_names(replayed, 4, '; ')}; chosen: {r['rule']}. Their "
             "figures are means of a few short evaluations each (a buy rate over 100 games is known to about 7 "
             "percentage points): they rank the points, the fresh games measure the chosen one."]
    for point in sorted(r["points"], key=lambda q: -q["mean_fitness"]):
        figs = ", ".join(f"{k} {100 * v:.1f}%" if k in TUNE_RATES else f"{k} {v:.2f}" for k, v in point["figures"].items())
        lines.append(f"{label(point['set'])}: mean fitness {point['mean_fitness']:g} over "
                     f"{_count(point['evaluations'], 'evaluation')}; {figs}")
    return lines


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def tune_chart(doc: dict) -> IntervalChart:
    fits = [h["fitness"] for h in doc["history"]]
    return IntervalChart("Fitness of each evaluation (0 meets every target)", tuple(str(i + 1) for i in range(len(fits))),
                         tuple(fits), tuple(None for _ in fits), tuple(None for _ in fits), "fitness", zero=True)


def tune_report(doc: dict) -> Report:
    facts = [_edition_item(doc["edition"]), *_run_items(doc),
             "Keys: " + "; ".join(f"{k['path']} = {', '.join(setpath.value_text(tuple(v) if isinstance(v, list) else v) for v in k['values'])}"
                                  for k in doc["keys"]),
             "Targets: " + "; ".join(f"{t['figure']} = {t['value']:g} (scale {t['scale']:g}: {t['meaning']})" for t in doc["targets"]),
             f"Fitness: {doc['fitness_rule']}", f"Search: {doc['algorithm']}",
             f"Validation: deals {doc['validation']['deals']}, fitness {doc['validation']['fitness']:g}",
             f"Verdict: {doc['verdict_rule']}",
             "Validation intervals: the deal as the unit (" + "; ".join(
                 f"{k}: {v['deals']} deals, design effect {v['design_effect']:g}" if v.get("design_effect") is not None
                 else f"{k}: {v['n']} games, one a deal" for k, v in doc["validation"]["figures"].items()) + ")"]
    sections: list[Section] = [Paragraph(f"**{tune_verdict(doc)}**"), *warning_sections(doc), Bullets(tuple(facts)),
                               ReportTable("", tuple(tune_header(doc)), tuple(tuple(r) for r in tune_rows(doc))),
                               Bullets(tuple(tune_refinement_lines(doc)), lead="Re-evaluated points:"),
                               tune_chart(doc)]
    return Report(f"Tuning {doc['edition']['title']} toward targets", tuple(sections))


# ----- feel -----------------------------------------------------------------------------------


FEEL_FIGURES = (("lead_changes", "lead changes", False), ("decided_at", "lead permanent after (share of game)", False),
                ("winner_deficit", "winner's worst deficit", False), ("comeback", "comebacks", True),
                ("close", "close games", True), ("decisive", "decisive moves per game", False),
                ("choice_gap", "best-second choice gap", False))


def feel_rows(doc: dict) -> tuple[list[str], list[list[str]]]:
    present = [(key, label, rate) for key, label, rate in FEEL_FIGURES if key in doc["editions"][0]["figures"]]
    header = ["edition"] + [label for _, label, _ in present]
    rows = []
    for e in doc["editions"]:
        row = [e["ref"]]
        for key, _, rate in present:
            cell = _fmt(e["figures"][key], rate)
            d = e.get("differences", {}).get(key)
            if d and d["significant"]:
                k, unit = (100.0, " pp") if rate else (1.0, "")
                cell += f" ({k * d['mean']:+.2f}{unit} [{k * d['low']:+.2f}, {k * d['high']:+.2f}] vs base)"
            row.append(cell)
        rows.append(row)
    return header, rows


def _family_text(doc: dict) -> str:
    mt = doc["multiple_testing"]
    return f"family-wise {mt['alpha']:.0%}, Holm over {mt['tests']} test{'s' if mt['tests'] != 1 else ''}"


FEEL_NAMES = {"decided_at": "when the lead became permanent", "winner_deficit": "the winner's worst deficit",
              "decisive": "decisive moves per game", "choice_gap": "the best-second choice gap"}
"""How a sentence names the figures whose table label does not read in one."""


def _feel_size(key: str, value: float, rate: bool) -> str:
    """A feel difference in the units of the run's table: rates (comebacks, close games) in
    percentage points, when the lead became permanent as a share of the game, the rest in their own
    units."""
    if rate:
        return f"{abs(value) * 100:.1f} pp"
    return f"{abs(value):.2f} of the game" if key == "decided_at" else f"{abs(value):.2f}"


def _detectable_text(differences: dict, keys: list[str]) -> str:
    """What the run could have found: the smallest difference each test finds with 80% power at
    Holm's strictest level (the differences' `detectable`)."""
    labels = {key: (FEEL_NAMES.get(key, label), rate) for key, label, rate in FEEL_FIGURES}
    sizes = [f"{_feel_size(k, differences[k]['detectable'], labels[k][1])} in {labels[k][0]}" for k in keys
             if differences[k].get("detectable") is not None]
    return f"the smallest changes these games would find 4 times in 5: {', '.join(sizes)}" if sizes else ""


def feel_verdict(doc: dict) -> str:
    """One sentence per variant: which feel figures its paired differences from the base move, after
    Holm's adjustment over every measure of every variant. A measure not moved is "no difference
    found", with the smallest change the run would have found: a run too short to see a change
    does not say there is none."""
    labels = {key: (label, rate) for key, label, rate in FEEL_FIGURES}
    base = doc["editions"][0]["ref"]
    if len(doc["editions"]) == 1:
        f = doc["editions"][0]["figures"]
        lead, settled, close = f["lead_changes"], f["decided_at"], f["close"]
        return (f"{base}: {lead['estimate']:.1f} [{lead['low']:.1f}, {lead['high']:.1f}] lead changes a game, the "
                f"lead settled after {settled['estimate']:.0%} [{settled['low']:.0%}, {settled['high']:.0%}] of the "
                f"game, {close['estimate']:.0%} [{close['low']:.0%}, {close['high']:.0%}] close games (95% "
                "intervals, the deal as the unit).")
    out = []
    family = _family_text(doc)
    for e in doc["editions"][1:]:
        differences = {key: d for key, d in e.get("differences", {}).items() if key in labels}
        moved = [(key, d) for key, d in differences.items() if d["significant"]]
        rest = [key for key in differences if not differences[key]["significant"]]
        power = _detectable_text(differences, rest)
        if not moved:
            out.append(f"{e['ref']}: no feel difference from {base} found on the same seeds ({family})"
                       + (f"; {power}." if power else "."))
            continue
        parts = []
        for key, d in moved:
            label, rate = labels[key]
            k, unit = (100.0, " pp") if rate else (1.0, "")
            interval = "" if d.get("low") is None else f" [{k * d['low']:+.2f}{unit}, {k * d['high']:+.2f}{unit}]"
            parts.append(f"{label} {'up' if d['mean'] > 0 else 'down'} by about {_feel_size(key, d['mean'], rate)}"
                         f"{interval} (Holm p {d['p_adjusted']:.3g})")
        tail = "" if not rest else "; no other difference found" + (f": {power}" if power else "")
        out.append(f"{e['ref']}: " + ", ".join(parts) + f" against {base} on the same seeds ({family}){tail}.")
    return " ".join(out)


FEEL_TEST_HEADER = ["variant", "figure", "difference from base (95%)", "p", "Holm p", "named",
                    "detectable (80% power)"]


def feel_test_rows(doc: dict) -> list[list[str]]:
    """Every paired test of the run with its own and its Holm-adjusted p-value."""
    labels = {key: (label, rate) for key, label, rate in FEEL_FIGURES}
    rows = []
    for e in doc["editions"][1:]:
        for key, d in e.get("differences", {}).items():
            label, rate = labels[key]
            k, unit = (100.0, " pp") if rate else (1.0, "")
            diff = "n/a" if d["mean"] is None else f"{k * d['mean']:+.2f}{unit}"
            if d["low"] is not None:
                diff += f" [{k * d['low']:+.2f}, {k * d['high']:+.2f}]"
            p_raw = "n/a" if d["p_value"] is None else f"{d['p_value']:.3g}"
            p_adj = "n/a" if d["p_adjusted"] is None else f"{d['p_adjusted']:.3g}"
            detectable = "n/a" if d.get("detectable") is None else f"{k * d['detectable']:.2f}{unit}"
            rows.append([e["ref"], label, diff, p_raw, p_adj, "yes" if d["significant"] else "no", detectable])
    return rows


def feel_report(doc: dict) -> Report:
    facts = [*_run_items(doc), f"Sampling unit: {doc['sampling_unit']}"]
    if len(doc["editions"]) > 1:
        facts.append(f"Claims: {doc['multiple_testing']['rule']}")
    names = {key: label for key, label, _ in FEEL_FIGURES}  # each measure by the name its table column gives it
    defs = tuple(f"**{names.get(k, k.replace('_', ' '))}**: {v}" for k, v in doc["definitions"].items())
    header, rows = feel_rows(doc)
    sections: list[Section] = [Paragraph(f"**{feel_verdict(doc)}**"), *warning_sections(doc), Bullets(tuple(facts)),
                               ReportTable("", tuple(header), tuple(tuple(r) for r in rows), small=True,
                                           intro="Means and shares with 95% intervals; in brackets, a variant's "
                                                 "paired difference from the base (same seeds) with its 95% interval, "
                                                 "where it is named after Holm's adjustment.")]
    if len(doc["editions"]) > 1:
        sections.append(ReportTable("", tuple(FEEL_TEST_HEADER), tuple(tuple(r) for r in feel_test_rows(doc)),
                                    small=True, intro=f"Every paired test of the run ({_family_text(doc)}): a "
                                                      "difference is named when its Holm p is below 0.05; the last "
                                                      "column is the smallest difference the test finds with 80% "
                                                      "power at Holm's strictest level."))
    sections.append(Bullets(defs, lead="Definitions:"))
    for key, label, rate in FEEL_FIGURES:
        if key not in doc["editions"][0]["figures"]:
            continue
        ivs = [e["figures"][key] for e in doc["editions"]]
        sections.append(IntervalChart(label, tuple(e["ref"] for e in doc["editions"]),
                                      tuple(iv["estimate"] for iv in ivs), tuple(iv["low"] for iv in ivs),
                                      tuple(iv["high"] for iv in ivs), "share" if rate else "", zero=rate))
    return Report("How the game feels", tuple(sections))
