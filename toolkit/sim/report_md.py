"""Markdown reports and the terminal summary rows of simulation and balance results.

Both render only the JSON document (toolkit.sim.experiment), so a report can always be rebuilt
from results.json and says nothing the JSON does not.
"""
from __future__ import annotations

from toolkit.stats import num, pct  # noqa: F401  (re-exported for scripts)




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


def _family(family: str):
    from toolkit.families import family_of
    from toolkit.specs.models import Family

    return family_of(Family(family))


def summary_rows(figures: dict, family: str) -> list[tuple[str, str]]:
    """The headline figures as (label, value) rows, for the terminal and the report."""
    return _family(family).summary_rows(figures)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def _figures_markdown(figures: dict, family: str) -> list[str]:
    from toolkit.reports.model import ReportTable

    out = ["### Summary", ""]
    out += _table(["figure", "value (95% interval)"], [list(r) for r in summary_rows(figures, family)])
    for section in _family(family).report_sections(figures):
        if not isinstance(section, ReportTable):
            continue  # charts are drawn in the PDF; the markdown keeps the tables
        out += ["", f"### {section.title}", ""]
        if section.intro:
            out += [section.intro, ""]
        out += _table(list(section.header), [list(row) for row in section.rows])
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
