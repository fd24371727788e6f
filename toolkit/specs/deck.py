"""Deck-level checks: undeclared duplicate patches and statistical outliers.

Duplicates: two patches with the same free shape (equal canonical key, so any rotation or
reflection) AND the same cost, time, income and tag are almost always a copy-paste slip, so they
are an error unless the later one says `duplicate_of: ID` (or the deck uses `copies:`). The same
shape with different stats is an ordinary design choice (classic P17/P18) and passes.

Outliers: for each of cost, time and income, a patch whose robust z-score exceeds 3.5 gets a
warning. The robust z-score is 0.6745 * (x - median) / MAD, MAD being the median absolute
deviation of the deck (Iglewicz and Hoaglin's rule). It is skipped for decks of fewer than 8
patches or when MAD is 0 (e.g. Doodle cards, which carry no stats), where it means nothing.
"""
from __future__ import annotations

from statistics import median
from typing import Callable

from toolkit.errors import Problem
from toolkit.geometry.shape import Shape
from toolkit.specs.source import LDict

OUTLIER_Z = 3.5
MIN_DECK_FOR_OUTLIERS = 8
STATS = ("cost", "time", "income")


def _stats(patch: LDict) -> tuple | None:
    """(cost, time, income, tag), or None when one of them is not a valid value."""
    values = tuple(patch.get(k, 0) for k in STATS)
    tag = patch.get("tag")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    if tag is not None and not isinstance(tag, str):
        return None
    return values + (tag,)


def deck_problems(items: list[LDict], by_id: dict[str, LDict],
                  shape_of: Callable[[LDict], Shape | None]) -> list[Problem]:
    """Problems of one deck (a patch list): duplicates as errors, outliers as warnings."""
    out: list[Problem] = []
    keyed: dict[tuple, list[LDict]] = {}
    canon: dict[int, str] = {}
    for patch in items:
        shape = shape_of(patch)
        stats = _stats(patch)
        if shape is None or stats is None or not isinstance(patch.get("id"), str):
            continue
        canon[id(patch)] = shape.canonical_key
        keyed.setdefault((shape.canonical_key,) + stats, []).append(patch)
    for patch in items:
        target = patch.get("duplicate_of")
        if not isinstance(target, str):
            continue
        other = by_id.get(target)
        if other is None or other is patch:
            out.append(patch.problem("duplicate_of", f"no other patch with id {target!r} in this deck"))
        elif id(patch) not in canon or canon.get(id(other)) != canon[id(patch)] \
                or _stats(other) != _stats(patch):
            out.append(patch.problem("duplicate_of", f"{target!r} differs in shape or stats, so "
                                                     "this patch is not a duplicate of it"))
    for group in keyed.values():
        first = group[0]
        for patch in group[1:]:
            if isinstance(patch.get("duplicate_of"), str):
                continue
            listed = ", ".join(f"{k} {first.get(k, 0)}" for k in STATS)
            out.append(patch.problem(
                "shape", f"same shape and stats as {first.get('id')} ({listed}); declare it with "
                f"`duplicate_of: {first.get('id')}` (or use `copies:`) if the deck really holds both"))
    out.extend(_outliers(items))
    return out


def _outliers(items: list[LDict]) -> list[Problem]:
    out: list[Problem] = []
    if len(items) < MIN_DECK_FOR_OUTLIERS:
        return out
    for key in STATS:
        values = [v for p in items if isinstance(v := p.get(key), int) and not isinstance(v, bool)]
        if len(values) < MIN_DECK_FOR_OUTLIERS:
            continue
        mid = median(values)
        mad = median(abs(v - mid) for v in values)
        if mad == 0:
            continue
        for patch in items:
            value = patch.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                continue
            z = 0.6745 * (value - mid) / mad
            if abs(z) > OUTLIER_Z:
                out.append(patch.problem(
                    key, f"{key} {value} lies far off the rest of the deck (median {mid:g}, "
                    f"robust z-score {z:.1f}, limit {OUTLIER_Z}); check it is not a typo",
                    severity="warning"))
    return out
