"""The report of `patchwork deck check`: the verdicts first (the patches the designer changed apart
from the base's own mispricing), then the matchups, the per-patch table and what tuning did.

It reads only the JSON document (`CheckReport.as_dict`, what --out writes as results.json), and the
terminal prints the same lines, so terminal, results.json and report say the same thing.
"""
from __future__ import annotations

from toolkit.sections import Bullets, Paragraph, Report, ReportTable, Section
from toolkit.stats import Z95

Z90 = 1.6448536269514722
"""Two-sided 90% quantile of the standard normal distribution."""

PATCH_HEADER = ("patch", "origin", "cost", "buy rate (95%)", "base buys", "buyer wins (95%)", "advantage (95%)",
                "Holm p out / in", "verdict", "suggested")
UNJUDGED = ("rarely bought", "too few buys")
"""Verdicts of patches whose advantage is not judged."""
CHANGED = ("changed", "new")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _ends(ends: list | None) -> str:
    return "" if not ends else f" [{100 * ends[0]:.1f}, {100 * ends[1]:.1f}]"


def why(p: dict, band: float) -> str:
    """One patch's significant verdict in words: what was measured and the suggested cost."""
    if p["basis"] == "buy_rate":
        base = p["base"]
        measured = (f"bought in {_pct(p['buy_rate'])} of games against {_pct(base['buy_rate'])} "
                    f"at the base's cost {base['cost']} ({p['buy_shift']['buttons']:+.1f} buttons of buy rate)")
    else:
        measured = (f"buyer advantage {p['advantage']:+.3f} [{p['low']:+.3f}, {p['high']:+.3f}] "
                    f"outside ±{band:.2f}")
    return f"{p['id']} {p['verdict']} at cost {p['cost']}: {measured}; suggested cost {p['suggested_cost']}"


def games_needed(factor: float | None) -> str:
    """A games factor in words: how many times these games would decide a patch."""
    if factor is None:
        return "on the band's edge"
    if factor > 100:
        return "over 100x the games"
    return f"~{factor:.0f}x the games" if factor >= 10 else f"~{factor:.1f}x the games"


def verdict_text(p: dict) -> str:
    """A patch's verdict as printed: an undecided or leaning one says what would decide it."""
    if p["verdict"] == "undecided" or p["verdict"].startswith("leans"):
        return f"{p['verdict']}: {games_needed(p['games_factor'])}"
    return p["verdict"]


def band_lines(doc: dict) -> list[str]:
    """What was shown inside the band, what is undecided, and what more games would decide."""
    judged = [p for p in doc["patches"] if p["verdict"] not in UNJUDGED and p["low"] is not None]
    if not judged:
        return []
    shown = [p["id"] for p in judged if p["verdict"] == "in band"]
    widths = [(p["high"] - p["low"]) / 2 for p in judged]
    first = (f"{len(shown)} of {len(judged)} judged patches shown inside the band ±{doc['band']:.2f}"
             + (f" ({', '.join(shown[:12])}{', ...' if len(shown) > 12 else ''})" if shown else "")
             + f": every interval of the patch inside it, equivalence tests, Holm's correction over the "
             f"{len(judged)}, family-wise error 5%. Advantage intervals here are ±{min(widths):.3f} to "
             f"±{max(widths):.3f} (95%)")
    if min(widths) * Z90 / Z95 > doc["band"]:  # the least Holm asks is one-sided 5%: the 90% interval
        first += ", so wide that no patch could be shown inside the band at these games"
    elif min(widths) > doc["band"]:
        first += ", wider than the band"
    lines = [first + "."]
    open_ = [p for p in judged if p["verdict"] == "undecided" or p["verdict"].startswith("leans")]
    factors = sorted(p["games_factor"] for p in open_ if p["games_factor"] is not None)
    if open_:
        median = factors[(len(factors) - 1) // 2] if factors else None
        half = ("" if median is None else "over 100x the games" if median > 100
                else f"at most {games_needed(median).lstrip('~')}")
        spread = f"; half of them need {half}, the nearest {games_needed(factors[0]).lstrip('~')}" if factors else ""
        lines.append(f"Undecided or leaning: {len(open_)}, shown neither inside nor outside the band. Each is decided "
                     f"with 80% chance, if its estimates hold, by the games its verdict names (every matchup's "
                     f"games times that){spread}.")
    return lines


def verdict_lines(doc: dict) -> list[str]:
    """The answer: the changed patches' verdicts, then the base's own, each with its suggested cost."""
    by_id = {p["id"]: p for p in doc["patches"]}
    changed = [by_id[i] for i in doc["out_of_band"] if by_id[i]["origin"] in CHANGED]
    base = [by_id[i] for i in doc["out_of_band"] if by_id[i]["origin"] not in CHANGED]
    edited = [p["id"] for p in doc["patches"] if p["origin"] in CHANGED]
    tests = (f"{doc['tests']} tests, Holm's correction, family-wise error 5%")
    lines = []
    if not doc["out_of_band"]:
        lines.append(f"No patch is significantly outside the band ±{doc['band']:.2f} ({tests}).")
    else:
        named = ", ".join(f"{by_id[i]['id']} {by_id[i]['verdict']} (suggested cost {by_id[i]['suggested_cost']})"
                          for i in doc["out_of_band"])
        lines.append(f"{len(doc['out_of_band'])} of {len(doc['patches'])} patches significantly outside the band "
                     f"±{doc['band']:.2f}: {named} ({tests}).")
    if edited:
        kinds = {p["origin"] for p in doc["patches"] if p["origin"] in CHANGED}
        label = {frozenset({"changed"}): "Changed from the base", frozenset({"new"}): "New (not in the base)"}.get(
            frozenset(kinds), "Changed from the base or new")
        lines.append(f"{label} ({len(edited)}: {', '.join(edited[:12])}{', ...' if len(edited) > 12 else ''}): "
                     + ("; ".join(why(p, doc["band"]) for p in changed) if changed
                        else "none significantly outside the band") + ".")
    if base:
        label = "The base's own pricing" if any(p["origin"] == "base" for p in base) else "Other patches"
        lines.append(f"{label} (as the base prints it): " + "; ".join(why(p, doc["band"]) for p in base) + ".")
    counts: dict[str, int] = {}
    for p in doc["patches"]:
        counts[p["verdict"]] = counts.get(p["verdict"], 0) + 1
    lines.append("Verdicts: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) + ".")
    return lines + band_lines(doc)


def tune_lines(doc: dict) -> list[str]:
    """What tuning moved, round by round, and why it stopped."""
    tune = doc["tune"]
    if not tune["patches"]:
        return []
    scope = ("only the patches changed from the base (--all-patches re-prices every one)"
             if tune["patches"] == "changed" else "every patch, the base's own too")
    lines = [f"Tuning re-priced {scope}: {len(tune['changes'])} move(s) in {tune['rounds']} round(s)."]
    for c in tune["changes"]:
        if c["basis"] == "buy_rate":
            how = f"bought {_pct(c['buy_rate'])} against the base's {_pct(c['base_buy_rate'])}"
        else:
            how = f"advantage {c['advantage']:+.3f}"
        damped = ", damped" if abs(c["to"] - c["from"]) < round(abs(c["target"] - c["from"])) else ""
        lines.append(f"round {c['round']}: {c['id']} ({c['origin']}) cost {c['from']} -> {c['to']} "
                     f"({c['verdict']}: {how}; target {c['target']:.1f}{damped})")
    lines.append(f"Tuning stopped: {tune['stopped']}.")
    return lines


def matchup_lines(doc: dict) -> list[str]:
    lines = []
    for m in doc["matchups"]:
        parts = []
        for label, f in (("base", m["base"]), ("variant", m["variant"])):
            if f:
                ivs = f["intervals"]
                wins = ", ".join(f"{who} wins {_pct(rate)}{_ends(ivs['win_rate'][who])}"
                                 for who, rate in f["win_rate"].items())
                bonus = ("" if f["bonus_taken"] is None else
                         f", bonus taken {_pct(f['bonus_taken'])}{_ends(ivs['bonus_taken'])}")
                plies = ivs["plies"]
                ply_ends = "" if plies[0] is None else f" [{plies[0]:.1f}, {plies[1]:.1f}]"
                parts.append(f"{label}: {wins}, {f['plies']:.1f}{ply_ends} plies{bonus}")
        lines.append(f"{m['bots']}, {m['games']} games on the same deals: " + "; ".join(parts))
        if m["differences"]:
            notable = [d for d in m["differences"] if d["difference"]["significant"]]
            lines.append(f"  variant - base (the deal as the unit, paired per deal), significant after Holm's "
                         f"correction over the matchup's {len(m['differences'])} figures (family-wise error 5%; "
                         f"unadjusted 95% intervals): " + (", ".join(
                f"{d['label']} {d['difference']['mean']:+.3f} [{d['difference']['low']:+.3f}, "
                f"{d['difference']['high']:+.3f}]" for d in notable) or "none"))
    return lines


def _holm(p: dict) -> str:
    """The Holm-adjusted p of "outside the band" and of "inside the band"."""
    def shown(value: float | None) -> str:
        return "-" if value is None else "<0.001" if value < 0.001 else f"{value:.3f}"

    return f"{shown(p['p_adjusted'])} / {shown(None if p['in_band'] is None else p['in_band']['p_adjusted'])}"


def patch_rows(doc: dict) -> list[tuple[str, ...]]:
    rows: list[tuple[str, ...]] = []
    for p in doc["patches"]:
        adv = "-" if p["advantage"] is None else (f"{p['advantage']:+.3f}" if p["low"] is None else
                                                  f"{p['advantage']:+.3f} [{p['low']:+.3f}, {p['high']:+.3f}]")
        base = "-" if p["base"] is None else f"{_pct(p['base']['buy_rate'])} at {p['base']['cost']}"
        rows.append((p["id"], p["origin"] or "-", str(p["cost"]),
                     f"{_pct(p['buy_rate'])}{_ends(p['buy_rate_interval'])}", base, "-" if p["buyer_win_rate"] is None else
                     f"{_pct(p['buyer_win_rate'])}{_ends(p['buyer_win_rate_interval'])}", adv,
                     _holm(p), verdict_text(p),
                     "-" if p["suggested_cost"] is None else str(p["suggested_cost"])))
    return rows


def check_report(doc: dict) -> Report:
    lines = verdict_lines(doc)
    sections: list[Section] = [Paragraph(f"**{lines[0]}**"), *(Paragraph(line) for line in lines[1:])]
    tuned = tune_lines(doc)
    if tuned:
        sections += [Bullets(tuple(tuned[1:-1]), lead=tuned[0]), Paragraph(tuned[-1])]
    matchups: list[str] = []
    for line in matchup_lines(doc):  # a matchup's differences join its line
        if line.startswith("  ") and matchups:
            matchups[-1] += ";" + line[1:]
        else:
            matchups.append(line)
    sections.append(Bullets((f"Variant `{doc['variant']}` against base `{doc['base']}`, seed {doc['seed']}, "
                             f"band ±{doc['band']:.2f} (about {doc['band_buttons']:.1f} button), at least "
                             f"{doc['min_buys']} buys to judge an advantage, rarely bought under "
                             f"{100 * doc['low_buy_rate']:.0f}% of games",
                             f"Estimators: {doc['estimators']}", f"Tests of outside the band: {doc['correction']}",
                             f"Tests of inside the band: {doc['in_band_test']}",
                             *matchups)))
    sections.append(Bullets(tuple(f"{word}: {meaning}" for word, meaning in doc["verdicts"].items()),
                            lead="What each verdict claims (an undecided or leaning patch names the games that would "
                                 "decide it if its estimates hold, 80% chance: every matchup's games times that):"))
    sections.append(ReportTable("Patches", PATCH_HEADER, tuple(patch_rows(doc)), small=True,
                                intro="Buy rate, the base's buy rate of the same patch on the same deals, the "
                                      "buyers' win rate and their advantage over all buyers, with 95% intervals "
                                      "over deals; Holm-adjusted p of outside the band and of inside it."))
    return Report(f"Deck check of {doc['variant']}", tuple(sections))
