"""The reports of `patchwork simulate` and `patchwork balance`, and their terminal summary rows.

Both read only the JSON document (toolkit.sim.experiment), so a report can always be rebuilt from
results.json and says nothing the JSON does not; the rules family of the edition builds the
sections of its own figures (summary_rows, report_sections, comparison_chart).
"""
from __future__ import annotations

from toolkit.families import RulesFamily, family_of
from toolkit.sections import (Bullets, Difference, DifferenceChart, Heading, Paragraph, Report,
                                   ReportTable, Section)
from toolkit.specs.models import Family
from toolkit.stats import SEQUENTIAL_INTERVALS, num, pct

RATE_METRICS = {"seat0_win", "bonus"}
"""Balance metrics that are shares of games: their differences are shown in percentage points."""
DIFFERENCE_CAPTION = "Paired differences (variant - base), 95% intervals, each row on its own scale:"
DIFFERENCE_TITLE = "Paired differences, variant - base (95% intervals, each row on its own scale)"


def diff(d: dict, is_rate: bool) -> str:
    """A paired difference with its interval, in points or percentage points."""
    if d.get("mean") is None:
        return "n/a"
    k, unit = (100.0, " pp") if is_rate else (1.0, "")
    text = f"{k * d['mean']:+.2f}{unit}"
    if d.get("low") is not None:
        text += f" [{k * d['low']:+.2f}, {k * d['high']:+.2f}]"
    return text


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


RANDOM_WARNING = ("made with random bots, which play far below people (mean scores far below 0, the 7x7 bonus "
                  "rarely taken): read these figures as a check of the rules, not of balance; use greedy or mcts:N")


def random_warning(doc: dict) -> str:
    """The warning every report made with a random bot carries ("" when none played)."""
    return RANDOM_WARNING if any(b["name"] == "random" for b in doc.get("bots", [])) else ""


def run_items(doc: dict, per: str = "per edition") -> list[str]:
    """How a run was made: command, bots, games, seats, seed, intervals and toolkit."""
    bots = ", ".join(f"{b['index']}: {b['label']}" for b in doc["bots"])
    typed = [f"Typed: `{doc['typed']}`"] if doc.get("typed") and doc["typed"] != doc["command"] else []
    return [
        *typed,
        f"Command: `{doc['command']}`" + (" (the same run, every option spelled out)" if typed else ""),
        f"Bots: {bots}",
        f"Games: {doc['games']} {per} ({doc['deals']} deals x {doc['games_per_deal']})",
        f"Seats: {doc['seats']}",
        f"Seed: {doc['seed']} ({doc['seeding']})",
        f"Intervals: {doc['intervals']}",
        f"Toolkit: {doc['toolkit']['name']} {doc['toolkit']['version']}",
    ]


def edition_items(edition: dict) -> list[str]:
    return [
        f"Edition: {edition['title']} (`{edition['name']}`, {edition['family']}, board {edition['board']})",
        f"Spec: `{edition['source']}`, content hash `{edition['content_hash'][:16]}`",
        f"Time track: {track_line(edition)}",
    ]


def _family(family: str) -> RulesFamily:
    return family_of(Family(family))


def summary_rows(figures: dict, family: str) -> list[tuple[str, str]]:
    """The headline figures as (label, value) rows, for the terminal and the report."""
    return _family(family).summary_rows(figures)


def figure_sections(figures: dict, family: str) -> list[Section]:
    """The summary table, then the family's own tables and charts."""
    summary = ReportTable("Summary", ("figure", "value (95% interval)"), tuple(summary_rows(figures, family)))
    return [summary, *_family(family).report_sections(figures)]


def warning_sections(doc: dict) -> list[Section]:
    warning = random_warning(doc)
    return [Paragraph(f"**Warning: {warning}.**")] if warning else []


def simulation_report(doc: dict) -> Report:
    edition = doc["edition"]
    sections: list[Section] = [*warning_sections(doc), Bullets(tuple(edition_items(edition) + run_items(doc)))]
    sections += figure_sections(doc["figures"], edition["family"])
    return Report(f"Simulation: {edition['title']}", tuple(sections))


BALANCE_HEADER = ("figure", "base (per deal)", "variant (per deal)", "difference (paired by deal)", "p (Holm)",
                  "significant")
BALANCE_UNITS = ("Base and variant columns: the mean over deals, with a 95% normal interval over the deals, the unit "
                 "the difference is paired on. p (Holm): the p-value adjusted over every figure of every variant in "
                 "the run, so that all of them together call a difference that is not there at most 5% of the time.")


def balance_rows(variant: dict) -> list[list[str]]:
    rows = []
    for d in variant["differences"]:
        rate = d["metric"] in RATE_METRICS
        fmt = pct if rate else num
        diff_ = d["difference"]
        rows.append([d["label"], fmt(d["base"]), fmt(d["variant"]), diff(diff_, rate),
                     p_text(diff_.get("p_adjusted", diff_["p_value"])),
                     "**yes**" if diff_["significant"] else "no"])
    return rows


def _size(value: float, figure_is_rate: bool, signed: bool = True) -> str:
    if figure_is_rate:
        return f"{100 * value:+.1f} pp" if signed else f"{100 * value:.1f} pp"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


SPRT_RATES = {"seat-win"}


def sprt_line(verdict: dict) -> str:
    """One line of a variant's sequential test: the decision, in words a designer acts on."""
    rate = verdict["figure"] in SPRT_RATES
    label, games = verdict.get("label", verdict["figure"]), f"{verdict['games']:,}"
    delta = _size(verdict["delta"], rate, signed=False)
    errors = f"alpha {verdict['alpha']:.3g}, beta {verdict['beta']:.3g}"
    if verdict["decision"] == "different":
        est = ""
        if "difference" in verdict:
            est = f" by about {_size(verdict['difference'], rate)}"
        return f"sequential test: the variant changes the {label}{est} (decided after {games} games; {errors})"
    if verdict["decision"] == "same":
        return (f"sequential test: the variant does not change the {label} by {delta} or more (decided after "
                f"{games} games; {errors})")
    text = f"sequential test: undecided after {games} games whether the variant changes the {label} by {delta}"
    if "difference" in verdict:
        text += (f"; so far {_size(verdict['difference'], rate)}, and the smallest difference these games could "
                 f"detect is {_size(verdict['detectable'], rate, signed=False)}")
    if verdict.get("more_games"):
        text += f"; about {verdict['more_games']:,} more games per edition would resolve a difference of {delta}"
    elif "difference" in verdict:
        half = _size(abs(verdict["difference"]), rate, signed=False)
        text += (f"; the difference lies between none and {delta}, where this test decides slowly: "
                 f"--sprt-delta {abs(verdict['difference']):.3g} asks whether it reaches {half}")
    return text


def difference_chart(variant: dict) -> DifferenceChart:
    rows = []
    for d in variant["differences"]:
        diff_ = d["difference"]
        k, unit = (100.0, " pp") if d["metric"] in RATE_METRICS else (1.0, "")
        rows.append(Difference(d["label"], diff_.get("mean"), diff_.get("low"), diff_.get("high"),
                               bool(diff_.get("significant")), k, unit))
    return DifferenceChart(DIFFERENCE_TITLE, tuple(rows))


def _significant(variant: dict, metric_words: tuple[str, ...]) -> list[dict]:
    return [d for d in variant["differences"] if d["difference"]["significant"]
            and any(w in d["label"] for w in metric_words)]


def detectable_line(variant: dict) -> str:
    """A fixed run's reach: the smallest difference of each figure its games could detect (power 80 %
    at Holm's strictest level; from each paired difference's standard error)."""
    parts = []
    for d in variant["differences"]:
        size = d["difference"].get("detectable")
        if size is None:
            continue
        rate = d["metric"] in RATE_METRICS
        parts.append(f"{d['label']} {100 * size:.1f} pp" if rate else f"{d['label']} {size:.2f}")
    if not parts:
        return ""
    return (f"smallest differences these {variant['figures']['games']:,} games could detect (80 % power at Holm's "
            "strictest level): "
            + ", ".join(parts))


def variant_verdict(variant: dict) -> str:
    """One sentence: what the variant changes. With a sequential test, its decision leads; the other
    figures follow only where they differ after Holm's adjustment, and 'who wins' is said only
    from a seat or bot win rate that does."""
    ref = variant["ref"]
    moved = [d for d in variant["differences"] if d["difference"]["significant"]]
    lead = ""
    if "sprt" in variant:
        lead = sprt_line(variant["sprt"]).replace("sequential test: the variant ", "").replace("sequential test: ", "")
        tested = {"seat-win": "seat0_win", "score": ("score_seat0", "score_seat1", "score"), "margin": "margin"}
        key = tested.get(variant["sprt"]["figure"], ())
        moved = [d for d in moved if d["metric"] not in (key if isinstance(key, tuple) else (key,))]
        if not moved:
            return f"{ref}: {lead}; no other figure differs after Holm's adjustment."
    if not moved:
        detect = [d for d in variant["differences"] if d["metric"] == "seat0_win" and d["difference"].get("detectable")]
        hint = ""
        if detect:
            hint = (f" (the smallest player 1 win rate difference these {variant['figures']['games']:,} games could "
                    f"detect: {100 * detect[0]['difference']['detectable']:.1f} pp)")
        return f"{ref}: no figure differs significantly from the base after Holm's adjustment{hint}."
    parts = []
    for d in moved[:4]:
        rate = d["metric"] in RATE_METRICS
        mean = d["difference"]["mean"]
        size = f"{abs(mean) * 100:.1f} percentage points" if rate else f"{abs(mean):.2f}"
        parts.append(f"{d['label']} {'up' if mean > 0 else 'down'} by about {size}")
    more = f" (and {len(moved) - 4} more)" if len(moved) > 4 else ""
    if lead:
        return f"{ref}: {lead}; also " + ", ".join(parts) + more + "."
    who = _significant(variant, ("win rate",))
    wins = "and changes who wins"
    if not who:
        reach = [d["difference"].get("detectable") for d in variant["differences"] if d["metric"] == "seat0_win"]
        wins = "and no change in who wins is found"
        if reach and reach[0] is not None:
            wins += f" (these games would find one of about {100 * reach[0]:.1f} pp or more)"
    return f"{ref}: " + ", ".join(parts) + more + f", {wins}."


def balance_report(doc: dict) -> Report:
    base = doc["base"]
    family = base["edition"]["family"]
    run = run_items(doc) + [f"Pairing: {doc['pairing']}"]
    if "sequential" in doc:
        seq = doc["sequential"]
        run.append(f"Sequential test: {seq['test']}; at most {seq['games_cap']} games")
        if seq.get("games_played", seq["games_cap"]) < seq["games_cap"]:
            run.append(f"Intervals after the early stop: {SEQUENTIAL_INTERVALS}")
    sections: list[Section] = [Paragraph("**" + " ".join(variant_verdict(v) for v in doc["variants"]) + "**"),
                               *warning_sections(doc),
                               Bullets(tuple(edition_items(base["edition"])), lead=f"Base `{base['ref']}`:"),
                               Bullets(tuple(run))]
    for variant in doc["variants"]:
        sections += [Heading(f"Variant `{variant['ref']}`: {variant['edition']['title']}"),
                     Paragraph(variant_verdict(variant)),
                     Bullets(tuple(edition_items(variant["edition"])))]
        if "sprt" in variant:
            sections.append(Paragraph(f"**{sprt_line(variant['sprt'])}**"))
        elif detectable_line(variant):
            sections.append(Paragraph(detectable_line(variant).capitalize() + "."))
        sections += [ReportTable("", BALANCE_HEADER, tuple(tuple(r) for r in balance_rows(variant)), small=True),
                     Paragraph(BALANCE_UNITS),
                     Paragraph(DIFFERENCE_CAPTION, pdf=False),
                     difference_chart(variant),
                     _family(family).comparison_chart(base["figures"], variant["figures"])]
    sections += [Heading("Base figures"), *figure_sections(base["figures"], family)]
    for variant in doc["variants"]:
        sections += [Heading(f"Figures of `{variant['ref']}`"), *figure_sections(variant["figures"], family)]
    return Report(f"Balance: variants of {base['edition']['title']}", tuple(sections))
