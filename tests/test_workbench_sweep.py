"""`patchwork sweep`: every sweepable key changes games, the grid, files and refusals."""
from __future__ import annotations

import json

import numpy as np
import pytest
from pypdf import PdfReader

from cli_helpers import ok
from toolkit.sim.botspec import seat_bots
from toolkit.families import all_families, family_of
from toolkit.specs import load_edition
from toolkit.workbench import runner, setpath
from workbench_helpers import refused

# One value per sweepable key that differs from the bundled edition's.
CHANGES = {
    "starting_buttons": 9,
    "market_window": 1,
    "empty_penalty": 0,
    "bonus.points": 30,
    "bonus.square_size": 5,
    "time_track.income_marks": (3, 9, 15, 53),
    "time_track.leather_patches": (2, 4, 6),
    "patches.*.cost": 0,
    "patches.*.time": 9,
    "patches.*.income": 3,
    "rounds": 1,
    "turns_per_round": 4,
    "circle_size": 10,
    "refill": 8,
    "allow_flip": False,
    "tie_break": "shared",
    "final_free_choice": False,
}
DEALS = {"tie_break": 200}
"""Deals a key needs before some game changes (12 otherwise): tie_break changes only tied games."""


SWEEPABLE = [(family.info.default_edition, key) for family in all_families() for key in family.info.sweepable]
"""(an edition of the family, key) of every family's sweepable keys."""


def test_every_sweepable_key_is_covered_here():
    assert {k.path for _, k in SWEEPABLE} == set(CHANGES)


@pytest.mark.parametrize("edition,key", SWEEPABLE, ids=lambda k: getattr(k, "path", k))
@pytest.mark.slow
def test_every_sweepable_key_changes_the_games(edition, key):
    base = load_edition(edition)
    path = key.path.replace("*", "P11")  # a 6-cell patch with income the greedy bot buys
    value = CHANGES[key.path]
    assert setpath.get_value(base, path) != value
    edited = setpath.apply(base, path, value)
    seating = seat_bots(family_of(base).info.balance_bots, base)
    played = runner.play((base, edited), seating, 11, 0, DEALS.get(key.path, 12))
    before, after = played.per_game
    same = np.array_equal(before.score, after.score) and np.array_equal(before.winner, after.winner)
    assert not same, f"{path}={value} left every game unchanged"


@pytest.mark.slow
def test_sweep_cli_writes_a_grid_with_figures_charts_and_the_same_bytes_for_any_worker_count(tmp_path):
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        result = ok("sweep", "classic", "--set", "starting_buttons=3..5", "--set", "patches.P05.cost=0,4",
                    "--bots", "random,random", "--games", "20", "--seed", "2", "--workers", workers,
                    "--out", str(out), "--no-progress")
        assert "sweep of classic: 20 games per point" in result.output
        outs.append(out)
    names = sorted(p.name for p in outs[0].iterdir())
    assert {"results.json", "report.md", "report.pdf"} <= set(names)
    pngs = [n for n in names if n.endswith(".png")]
    assert "chart-P05-buy-rate.png" in pngs and "chart-player-1-win-rate.png" in pngs
    for name in names:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    doc = json.loads((outs[0] / "results.json").read_text())
    assert doc["kind"] == "sweep"
    assert [p["set"] for p in doc["points"]] == [
        {"starting_buttons": b, "patches.P05.cost": c} for b in (3, 4, 5) for c in (0, 4)]
    for point in doc["points"]:
        figures = point["figures"]
        assert figures["games"] == 20 and "seats" in figures and "patches" in figures
    p05 = [next(p for p in point["figures"]["patches"] if p["id"] == "P05") for point in doc["points"]]
    assert [p["cost"] for p in p05] == [0, 4] * 3
    text = "".join(page.extract_text() for page in PdfReader(outs[0] / "report.pdf").pages)
    assert "Sweep of" in text and "P05 buy rate" in text


@pytest.mark.slow
def test_sweep_of_leather_layouts_names_the_layout_of_each_point(tmp_path):
    out = tmp_path / "leather"
    ok("sweep", "classic", "--set", "time_track.leather_patches=[20,26,32,44,50],[26,32,38,44,50]", "--bots", "random,random",
       "--games", "10", "--out", str(out), "--no-progress")
    doc = json.loads((out / "results.json").read_text())
    layouts = [p["edition"]["time_track"]["leather_patches"] for p in doc["points"]]
    assert layouts == [[20, 26, 32, 44, 50], [26, 32, 38, 44, 50]]


@pytest.mark.slow
def test_doodle_sweep_reports_doodle_figures(tmp_path):
    out = tmp_path / "doodle"
    ok("sweep", "doodle", "--set", "rounds=2,3", "--games", "6", "--out", str(out), "--no-progress")
    doc = json.loads((out / "results.json").read_text())
    assert [len(p["figures"]["rounds"]) for p in doc["points"]] == [2, 3]


@pytest.mark.parametrize("args, message", [
    (("classic", "--set", "tie_break=1"), "'1' is not one of: first-to-finish, shared"),
    (("doodle", "--set", "market_window=1,2"), "not a key the Doodle engine reads"),
    (("classic", "--set", "neutral_token_after=P01"), "not swept (its values are patch ids"),
    (("classic", "--set", "starting_buttons=3..5", "--set", "starting_buttons=1"), "set twice"),
    (("classic", "--set", "starting_buttons=0..199", "--set", "market_window=1..3"), "at most"),
    (("classic", "--set", "time_track.income_marks=[5,70]"), "past the final space"),
    (("classic", "--set", "starting_buttons=3", "--games", "0"), "--games"),
    (("classic", "--set", "starting_buttons=3", "--bots", "mcts:abc,greedy"), "mcts:abc"),
    (("nowhere-edition", "--set", "starting_buttons=3"), "nowhere-edition"),
])
@pytest.mark.slow
def test_sweep_refuses_bad_input_with_one_line(args, message):
    assert message in refused("sweep", *args)


@pytest.mark.slow
def test_a_point_the_rules_or_the_engine_cannot_play_is_refused_before_any_game():
    assert "rounds need" in refused("sweep", "doodle", "--set", "rounds=3,9")
    assert "turns per round" in refused("sweep", "doodle", "--set", "turns_per_round=9")
    many = ",".join(str(s) for s in range(1, 18))
    assert "at most 16 leather patches" in refused("sweep", "classic", "--set", f"time_track.leather_patches=[{many}]")


@pytest.mark.slow
def test_sequential_sweep_stops_when_every_point_is_decided_against_the_first(tmp_path):
    out = tmp_path / "seq"
    result = ok("sweep", "classic", "--set", "starting_buttons=5,15", "--set", "bonus.points=7", "--bots", "greedy,greedy",
                "--games", "2000", "--seed", "4", "--sprt", "score", "--out", str(out), "--no-progress")
    doc = json.loads((out / "results.json").read_text())
    first, rich = doc["points"]
    assert "sprt" not in first and rich["sprt"]["decision"] == "different"
    # the call comes with the difference it saw, and the caveat of a test that stopped early
    d, half = rich["sprt"]["difference"], 1.959964 * rich["sprt"]["se"]
    assert (f"different on mean score per player after {rich['sprt']['games']} games: {d:+.2f} "
            f"[{d - half:+.2f}, {d + half:+.2f}]") in result.output
    assert "not adjusted for the looks" in result.output and "not adjusted for the looks" in doc["sequential"]["intervals"]
    assert doc["games"] < 2000 and rich["figures"]["games"] == doc["games"]
    assert "sequential test vs the first point" in (out / "report.md").read_text()
    assert "needs 2 or more points" in refused("sweep", "classic", "--set", "starting_buttons=5", "--sprt", "score")


# ----- charts of a 2-key grid ---------------------------------------------------------------------


def _doc_of_grid(firsts, seconds):
    """A sweep document of seat 0's win rate on a firsts x seconds grid, the estimate being f + s/100."""
    def iv(x):
        return {"estimate": x, "low": x - 0.05, "high": x + 0.05, "n": 100}

    points = [{"set": {"starting_buttons": f, "bonus.points": s},
               "figures": {"seats": [{"win_rate": iv(f / 10 + s / 100)}]}} for f in firsts for s in seconds]
    return {"points": points, "edition": {"family": "time-track"}, "touched_patches": []}


def test_a_2_key_sweep_draws_one_line_per_value_of_the_second_key(monkeypatch):
    from toolkit.reports import charts, workbench as report

    monkeypatch.setattr(report, "headline", lambda p, family, patches: [("player 1 win rate", p["figures"]["seats"][0]["win_rate"], True)])
    (stem, chart), = report.sweep_charts(_doc_of_grid((3, 4, 5), (0, 7)))
    assert isinstance(chart, charts.SeriesChart) and stem == "chart-player-1-win-rate"
    assert chart.labels == ("3", "4", "5") and chart.names == ("bonus.points=0", "bonus.points=7")
    assert chart.estimates == tuple(tuple(pytest.approx(f / 10 + s / 100) for f in (3, 4, 5)) for s in (0, 7))
    marks = charts.layout(chart)
    assert len(marks.dots) == 6
    assert charts.png(chart)[:4] == b"\x89PNG" and charts.png(chart) == charts.png(chart)


def test_a_1_key_sweep_puts_numbers_on_an_axis_and_true_false_on_labels(monkeypatch):
    from toolkit.reports import workbench as report

    monkeypatch.setattr(report, "headline", lambda p, family, patches: [("player 1 win rate", p["figures"]["seats"][0]["win_rate"], True)])

    def doc(values):
        grid = _doc_of_grid(values, (0,))
        for p in grid["points"]:
            p["set"] = {"allow_flip": p["set"]["starting_buttons"]}
        return grid

    (_, numbers), = report.sweep_charts(doc((3, 5)))
    assert numbers.xs == (3.0, 5.0)
    (_, words), = report.sweep_charts(doc((False, True)))
    assert words.xs is None and words.labels == ("false", "true")


def test_a_2_key_sweep_with_many_values_of_the_second_key_is_a_heatmap(monkeypatch):
    from toolkit.reports import charts, workbench as report

    monkeypatch.setattr(report, "headline", lambda p, family, patches: [("player 1 win rate", p["figures"]["seats"][0]["win_rate"], True)])
    seconds = tuple(range(charts.MAX_LINES + 1))
    (_, chart), = report.sweep_charts(_doc_of_grid((3, 4), seconds))
    assert isinstance(chart, charts.HeatmapChart)
    assert chart.values[2] == (pytest.approx(0.32), pytest.approx(0.42)) and chart.rows == tuple(map(str, seconds))
    marks = charts.layout(chart)
    assert len(marks.rects) == 2 * len(seconds)
    assert "42%" in [t[2] for t in marks.texts]
    # the darkest cell is the largest value
    darkest = min(marks.rects, key=lambda r: sum(r[4]))
    assert darkest[4] == charts.shade(0.4 + seconds[-1] / 100, 0.3, 0.4 + seconds[-1] / 100)


@pytest.mark.slow
def test_the_2_key_sweep_cli_writes_line_charts(tmp_path):
    out = tmp_path / "lines"
    ok("sweep", "express", "--set", "starting_buttons=3,5", "--set", "empty_penalty=1,2", "--games", "4",
       "--out", str(out), "--no-progress")
    assert (out / "chart-player-1-win-rate.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_a_sweep_opens_with_a_verdict_naming_what_moves_and_what_does_not(tmp_path):
    result = ok("sweep", "classic", "--set", "starting_buttons=2..8:6", "--games", "200", "--no-progress",
                "--out", str(tmp_path / "s"))
    verdict = next(line for line in result.output.splitlines() if line.startswith("Over starting_buttons = 2, 8:"))
    # two more buttons each make the game shorter (fewer passes) by far more than 200 games' noise
    assert "game length (plies) goes from" in verdict and "at starting_buttons=8 to" in verdict
    assert "player 1 win rate is " in verdict and "told apart from 50%" in verdict and "nearest" not in verdict
    report = (tmp_path / "s" / "report.md").read_text()
    assert report.splitlines()[2] == f"**{verdict}**"
    doc = json.loads((tmp_path / "s" / "results.json").read_text())
    assert doc["verdict"] == verdict and "Bonferroni" in doc["verdict_rule"]


def test_the_sweep_verdict_widens_its_intervals_for_every_pair_it_compares():
    from toolkit.reports.workbench import sweep_widening

    assert sweep_widening(2, 3) == 1.0  # 3 comparisons: apart 95 % intervals are already a stricter test
    # 6 points x 6 figures = 90 pairs: each pair at 0.05 / 90 two-sided, z 3.45, half-width z / sqrt(2)
    assert sweep_widening(6, 6) == pytest.approx(3.4524 / 2 ** 0.5 / 1.95996, abs=2e-3)
    assert sweep_widening(8, 6) > sweep_widening(6, 6)


def test_the_sweep_verdict_names_where_the_win_rate_is_told_apart_from_even_never_a_fairest_point():
    """A grid whose points are all near even has no fairest point (the nearest estimate is the
    noise's choice, and another seed or grid picks another): the verdict says where 50% is outside
    the corrected interval, and nothing else."""
    from toolkit.reports.workbench import _even_clause, even_widening, sweep_widening

    def iv(estimate, half):
        return {"estimate": estimate, "low": estimate - half, "high": estimate + half}

    labels = ["b=3", "b=4", "b=5", "b=6"]
    by = even_widening(4, 5, 4)
    # 4 points x 5 figures: 30 pairs and 4 points against 50%, each at 0.05 / 34 two-sided (z 3.18)
    assert by == pytest.approx(3.1803 / 1.95996, abs=2e-3) and by > sweep_widening(4, 5, 4)
    near = [iv(0.49, 0.035), iv(0.515, 0.035), iv(0.505, 0.035), iv(0.52, 0.035)]
    assert _even_clause(near, labels, [0, 1, 2, 3], by).startswith("player 1 win rate is not told apart from 50% "
                                                                   "at any point")
    # 0.55 +- 0.035 leaves out 50% at 95 %, not at the corrected level: not named
    assert "any point" in _even_clause([*near[:3], iv(0.55, 0.035)], labels, [0, 1, 2, 3], by)
    apart = [iv(0.40, 0.03), iv(0.47, 0.03), iv(0.53, 0.03), iv(0.62, 0.03)]
    assert _even_clause(apart, labels, [0, 1, 2, 3], by) == (
        "player 1 win rate is not told apart from 50% at b=4, b=5 (99.85% intervals); above 50% at b=6; "
        "below 50% at b=3")
    far = [iv(0.60, 0.02), iv(0.65, 0.02)]
    assert "told apart from 50% at every point" in _even_clause(far, labels[:2], [0, 1], by)


def test_a_figure_that_does_not_move_comes_with_the_smallest_move_the_run_would_find():
    """"No move found" says how large a move the games could see: two intervals apart at half-width
    z / sqrt(2) standard errors each are a test at z on the difference, found 4 times in 5 when the
    move is sqrt(2) (z + 0.84) standard errors."""
    from toolkit.reports.workbench import _smallest_move

    one_se = {"estimate": 0.0, "low": -1.959964, "high": 1.959964}
    assert _smallest_move([one_se, one_se, one_se], 3.0) == pytest.approx(2 ** 0.5 * (3.0 + 0.841621), rel=1e-5)
    # a simulation of the rule at that size: the widened intervals come apart about 80 % of the time
    import numpy as np

    z = 3.0
    move = _smallest_move([one_se], z)
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.0, 1.0, 20_000), rng.normal(move, 1.0, 20_000)
    apart = (b - z / 2 ** 0.5) > (a + z / 2 ** 0.5)
    assert 0.78 < apart.mean() < 0.82
