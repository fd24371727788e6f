"""`patchwork sweep`: the base edition with keys set to a grid of values, all on the same deals.

Each grid point is the base edition edited by key path (toolkit.workbench.setpath); every point
plays the same deal seeds, so neighbouring points differ only by the change. Each point carries
exactly the figures `simulate` writes, and the headline rows below pick from them.
"""
from __future__ import annotations

from collections.abc import Callable

from toolkit.families import Seating, family_of
from toolkit.sim import figures as fig
from toolkit.specs.models import Edition, Family
from toolkit.workbench import runner, setpath


def editions(base: Edition, points: list[dict]) -> tuple[Edition, ...]:
    return tuple(setpath.apply_all(base, point) for point in points)


def touched_patches(settings: list[setpath.Setting]) -> list[str]:
    return sorted({s.patch_id for s in settings if s.patch_id})


def run(base: Edition, points: list[dict], seating: Seating, seed: int, deals: int, workers: int,
        scheduler: str | None, progress: Callable[[int], None] | None = None) -> tuple[list[dict], runner.Played]:
    eds = editions(base, points)
    played = runner.play(eds, seating, seed, 0, deals, workers, scheduler, progress=progress)
    return point_rows(points, eds, seating, played), played


def run_sequential(base: Edition, points: list[dict], seating: Seating, seed: int, deals: int, workers: int,
                   scheduler: str | None, plan, progress: Callable[[int], None] | None = None):
    """Like `run`, but stop once every point's GSPRT against the first point is decisive.

    Returns (rows, played, verdicts): verdicts[k] tests point k + 1 against point 0.
    """
    from toolkit.workbench import sprt

    eds = editions(base, points)
    played, verdicts = sprt.run_sequential(eds, seating, seed, deals, plan, workers, scheduler, progress)
    rows = point_rows(points, eds, seating, played)
    for row, verdict in zip(rows[1:], verdicts):
        row["sprt"] = verdict
    return rows, played, verdicts


def point_rows(points: list[dict], eds: tuple[Edition, ...], seating: Seating, played: runner.Played) -> list[dict]:
    """Each point's settings, edition facts and figures (every point's bots sit as `seating` says)."""
    rows = []
    for point, edition, tally in zip(points, eds, played.tallies):
        figures = family_of(edition).figures(tally, edition, seating)
        rows.append({"set": {k: setpath.json_value(v) for k, v in point.items()},
                     "edition": fig.edition_facts(edition), "figures": figures})
    return rows


def headline(point: dict, family: str, patches: list[str]) -> list[tuple[str, dict, bool]]:
    """(label, interval, is_rate) of the figures a sweep table and its charts show: the family's
    headline figures (`family` is the spec's family value a document records)."""
    return family_of(Family(family)).headline(point["figures"], patches)
