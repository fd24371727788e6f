"""`patchwork tune`: NTBEA finds a known optimum of a noisy synthetic objective; the game objective,
its targets, its fresh-deal validation and its refusals."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cli_helpers import ok
from toolkit.errors import UsageError
from toolkit.specs import load_edition
from toolkit.workbench import ntbea
from workbench_helpers import refused

OPTIMUM = (7, 2, 11)
SIZES = (15, 10, 20)


def _noisy_bowl(point, i):
    """A bowl with its top at OPTIMUM (fitness 0) and unit Gaussian noise on every evaluation."""
    noise = np.random.default_rng(1000 + i).normal(0.0, 1.0)
    return -sum((a - b) ** 2 for a, b in zip(point, OPTIMUM)) / 10 + noise


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_ntbea_finds_the_top_of_a_noisy_bowl_in_a_3000_point_space(seed):
    result = ntbea.search(SIZES, _noisy_bowl, budget=300, seed=seed)
    assert len({p for p, _ in result.history}) < 300 < np.prod(SIZES)
    assert all(abs(a - b) <= 2 for a, b in zip(result.best, OPTIMUM)), result.best
    # the point found is far better than a point drawn at random
    assert -sum((a - b) ** 2 for a, b in zip(result.best, OPTIMUM)) / 10 > -1.5


def test_ntbea_without_noise_on_a_separable_objective_finds_the_exact_optimum():
    exact = lambda p, i: -abs(p[0] - 3) - abs(p[1] - 8)  # noqa: E731
    assert ntbea.search((10, 10), exact, budget=120, seed=0).best == (3, 8)


def test_ntbea_is_seeded():
    a = ntbea.search(SIZES, _noisy_bowl, budget=40, seed=5)
    b = ntbea.search(SIZES, _noisy_bowl, budget=40, seed=5)
    assert a == b


def test_the_fitness_is_zero_on_target_and_scaled_squared_distance_off_it():
    targets = [ntbea.parse_target("seat-win=0.5"), ntbea.parse_target("length=40~4")]
    assert ntbea.fitness({"seat-win": 0.5, "length": 40}, targets) == 0
    assert ntbea.fitness({"seat-win": 0.6, "length": 48}, targets) == pytest.approx(-(2.0 ** 2) - 2.0 ** 2)


@pytest.mark.parametrize("text,message", [
    ("seat-wins=0.5", "FIGURE one of"), ("seat-win=1.5", "between 0 and 1"), ("length=abc", "not a number"),
    ("length=40~0", "scale positive"), ("length", "FIGURE one of"),
])
def test_a_bad_target_is_one_clear_error(text, message):
    with pytest.raises(UsageError, match=message):
        ntbea.parse_target(text)


@pytest.mark.slow
def test_tune_cli_searches_two_keys_and_measures_the_best_on_fresh_deals(tmp_path):
    out = tmp_path / "tuned"
    ok("tune", "express", "--set", "starting_buttons=2..8", "--set", "empty_penalty=1..2", "--target", "seat-win=0.5",
       "--target", "length=40", "--budget", "6", "--games", "10", "--final-games", "20", "--no-progress", "--out", str(out))
    doc = json.loads((out / "results.json").read_text())
    assert doc["kind"] == "tune" and doc["space"] == 14 and len(doc["history"]) == 6
    assert set(doc["best"]["set"]) == {"starting_buttons", "empty_penalty"}
    assert doc["validation"]["games"] == 20 and "fresh" in doc["validation"]["deals"]
    fig = doc["validation"]["figures"]["seat-win"]
    assert fig["low"] <= fig["estimate"] <= fig["high"] and fig["target"] == 0.5
    assert fig["deals"] == 10 and fig["verdict"] in ("meets", "misses", "undecided") and fig["band"] == [0.45, 0.55]
    assert doc["refinement"]["evaluations"] == 1 and [h["phase"] for h in doc["history"]][-2:] == ["search", "neighbours"]
    assert doc["best"]["set"] in [q["set"] for q in doc["refinement"]["points"]]
    md = (out / "report.md").read_text()
    assert md.splitlines()[2].startswith("**Chosen settings:")
    assert "--budget 6" in doc["command"]


@pytest.mark.slow
def test_tune_refusals():
    assert "--watch" in refused("tune", "classic", "--set", "patches.P05.cost=0..8", "--target", "buy-rate=0.5")
    assert "no patch" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "buy-rate=0.5",
                                 "--watch", "Q99")
    assert "head to head" in refused("tune", "doodle", "--set", "rounds=2..4", "--target", "seat-win=0.5")
    assert "named once" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "length=40",
                                   "--target", "length=41")
    assert "--budget" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "length=40",
                                 "--budget", "0")
    assert "not a key" in refused("tune", "classic", "--set", "rounds=1", "--target", "length=40")
    assert "not one of: first-to-finish, shared" in refused("tune", "classic", "--set", "tie_break=1", "--target", "length=40")
    assert "--refine must be 0..5" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target",
                                              "length=40", "--budget", "6", "--refine", "6")


@pytest.mark.slow
def test_a_bonus_target_is_refused_where_no_game_can_take_a_bonus_tile():
    express = refused("tune", "express", "--set", "starting_buttons=3..5", "--target", "bonus=0.5")
    assert "no bonus tile" in express and "targets that work: seat-win, length, score, margin, buy-rate" in express
    doodle = refused("tune", "doodle", "--set", "rounds=2..4", "--target", "bonus=0.5")
    assert "no bonus tile" in doodle and "targets that work: length, score, buy-rate" in doodle
    assert "targets that work: length, score, buy-rate" in refused(
        "tune", "doodle", "--set", "rounds=2..4", "--target", "margin=3")


def test_each_figure_is_read_from_the_games_and_measured_with_its_interval():
    from toolkit.sim.shards import Games

    games = Games(score=np.array([[10, 4], [3, 9], [7, 7], [0, -2]]), winner=np.array([0, 1, 1, 0]),
                  plies=np.array([40, 42, 38, 44]), bonus=np.array([0, -1, 1, -1]),
                  buy_seat=np.array([-1, 0, 1, -1]), buy_ply=np.array([-1, 5, 9, -1]))
    targets = [ntbea.parse_target(t) for t in ("seat-win=0.5", "length=40", "score=5", "margin=0", "bonus=0.5",
                                                 "buy-rate=0.5")]
    got = ntbea.measured(games, targets)
    assert {k: v["estimate"] for k, v in got.items()} == {"seat-win": 0.5, "length": 41, "score": 4.75, "margin": 0.5,
                                                          "bonus": 0.5, "buy-rate": 0.5}
    assert all(v["low"] <= v["estimate"] <= v["high"] for v in got.values())


def _iv(estimate, low, high, n=1000):
    return {"estimate": estimate, "low": low, "high": high, "n": n}


def test_a_target_is_met_when_the_interval_lies_within_its_tolerance_not_when_it_covers_the_exact_value():
    target = ntbea.parse_target("buy-rate=0.496")  # the default tolerance: 0.05
    # the base edition's own buy rate of P28 (the interval excludes 0.496 exactly, yet lies within 0.496 +- 0.05)
    assert ntbea.judge(_iv(0.471, 0.449, 0.493), target)["verdict"] == "meets"
    assert ntbea.judge(_iv(0.40, 0.38, 0.42), target)["verdict"] == "misses"
    assert ntbea.judge(_iv(0.496, 0.40, 0.59), target)["verdict"] == "undecided"
    assert ntbea.judge(_iv(0.471, 0.449, 0.493), ntbea.parse_target("buy-rate=0.52~0.02"))["verdict"] == "misses"


def test_an_undecided_target_says_how_many_more_games_would_decide_it():
    target = ntbea.parse_target("length=40~2")
    # estimate 41, interval half-width 2, the nearer edge 1 away: four times the games, so 3,000 more
    got = ntbea.judge(_iv(41.0, 39.0, 43.0), target, per_deal=2)
    assert got["verdict"] == "undecided" and got["more_games"] == 3000 and got["band"] == [38, 42]
    outside = ntbea.judge(_iv(43.0, 41.5, 44.5), target)  # 1 beyond the edge, half-width 1.5: 2.25x
    assert outside["more_games"] == 1250


def test_the_validation_interval_takes_the_deal_as_the_unit():
    from toolkit.sim.shards import Games
    from toolkit.stats import wilson

    bought = np.repeat(np.array([0, -1, 0, 0, -1, -1, 0, -1, 0, 0] * 20), 2)  # both games of a deal alike
    n = len(bought)
    games = Games(score=np.zeros((n, 2), dtype=np.int64), winner=np.zeros(n, dtype=np.int64),
                  plies=np.full(n, 40), bonus=np.full(n, -1), buy_seat=bought, buy_ply=np.full(n, -1))
    target = ntbea.parse_target("buy-rate=0.6")
    clustered = ntbea.measured(games, [target], per_deal=2)["buy-rate"]
    one_by_one = wilson(int((bought >= 0).sum()), n)
    assert clustered["deals"] == n // 2 and clustered["design_effect"] == pytest.approx(2.0, rel=0.02)
    assert clustered["high"] - clustered["low"] > 1.3 * (one_by_one.high - one_by_one.low)
    assert clustered["verdict"] in ("meets", "misses", "undecided") and clustered["tolerance"] == 0.05


def test_the_last_evaluations_replay_the_best_point_and_every_neighbour_and_choose_by_their_own_mean():
    sizes = (10, 10)
    start = ntbea.search(sizes, lambda p, i: 0.0, budget=1, seed=1).best  # the point a one-evaluation search plays
    assert all(0 < v < 9 for v in start)
    optimum = (start[0] + 1, start[1] - 1)  # a diagonal neighbour, as (5, 5) was of (4, 6)
    exact = lambda p, i: -abs(p[0] - optimum[0]) - abs(p[1] - optimum[1])  # noqa: E731
    result = ntbea.search(sizes, exact, budget=10, seed=1, refine=9)
    replayed = [p for p, _ in result.history[-9:]]
    assert result.centre == start and set(replayed) == {(start[0] + a, start[1] + b) for a in (-1, 0, 1)
                                                       for b in (-1, 0, 1)}
    assert result.best == optimum and result.refine_evaluations == 9
    assert ntbea.search(sizes, exact, budget=1, seed=1).best == start != optimum  # without re-evaluation: the start
    with pytest.raises(UsageError, match="--refine"):
        ntbea.search(sizes, exact, budget=5, seed=1, refine=5)


def test_a_short_refinement_plays_the_axis_neighbours_before_the_diagonals():
    model = ntbea.Model.for_keys(2)
    ring = ntbea.neighbourhood((0, 4), (3, 9), model)
    assert ring[0] == (0, 4) and set(ring[1:4]) == {(0, 3), (0, 5), (1, 4)} and set(ring[4:]) == {(1, 3), (1, 5)}
