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
    md = (out / "report.md").read_text()
    assert md.splitlines()[2].startswith("**Best settings found:")
    assert "--budget 6" in doc["command"]


def test_tune_refusals():
    assert "--watch" in refused("tune", "classic", "--set", "patches.P05.cost=0..8", "--target", "buy-rate=0.5")
    assert "no patch" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "buy-rate=0.5",
                                 "--watch", "Q99")
    assert "head to head" in refused("tune", "doodle", "--set", "rounds=2..4", "--target", "seat-win=0.5")
    assert "named once" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "length=40",
                                   "--target", "length=41")
    assert "--budget" in refused("tune", "classic", "--set", "starting_buttons=3..5", "--target", "length=40",
                                 "--budget", "0")
    assert "not a key" in refused("tune", "classic", "--set", "tie_break=1", "--target", "length=40")


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
