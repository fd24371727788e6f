"""Merged tallies -> the figures a designer reads: plain dicts, ready for JSON and the reports.

Proportions carry Wilson 95% intervals, means carry normal 95% intervals, balance differences
are paired estimates (toolkit.stats). Every number is rounded to 6 digits so the JSON is
byte-identical for identical tallies.
"""
from __future__ import annotations

from typing import Any

from toolkit.stats import Metric, Tally, holm, mean_interval, minimum_detectable, paired_difference
from toolkit.families import family_of
from toolkit.specs.models import Edition


def _i(x) -> int:
    return int(x)


def edition_facts(edition: Edition) -> dict:
    """Which edition and time-track layout a result belongs to."""
    facts: dict[str, Any] = {
        "name": edition.name,
        "title": edition.title,
        "family": edition.family.value,
        "content_hash": edition.content_hash,
        "source": edition.source,
        "board": f"{edition.board_width}x{edition.board_height}",
    }
    facts["time_track"] = family_of(edition).track_facts(edition)
    return facts


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


def adjust(variants: list[dict]) -> None:
    """Holm's adjustment over every paired difference of every variant (in place): each difference
    gains `p_adjusted` and the smallest difference its run could detect (`detectable`: power 80% at
    Holm's strictest level, two-sided 5% over the number of tests, from its standard error: what
    the run finds with that power whatever the other tests show), and is `significant` only when
    its adjusted p is below 0.05."""
    keys = {f"{i}:{d['metric']}": d["difference"] for i, v in enumerate(variants) for d in v["differences"]}
    adjusted = holm({k: d["p_value"] for k, d in keys.items()})
    strictest = 0.05 / max(1, sum(d["p_value"] is not None for d in keys.values()))
    for k, d in keys.items():
        p = adjusted[k]
        d["p_adjusted"] = None if p is None else round(p, 6) + 0.0
        d["significant"] = bool(p is not None and p < 0.05)
        mde = minimum_detectable(d["se"], strictest)
        d["detectable"] = None if mde is None else round(mde, 6) + 0.0
