"""The strength ladder on a small sample (the full ladder is benchmarks/bench_ladder.py)."""
from __future__ import annotations

from toolkit.sim import experiment


def _figures(refs, bots, games, seed):
    request = experiment.prepare(refs, bots, games, seed)
    return experiment.simulation_document(request, experiment.run(request), "cmd")["figures"]


def test_greedy_beats_random_over_40_seat_swapped_games():
    fig = _figures(["classic"], "greedy,random", 40, 2024)
    greedy, random = fig["bots"]
    assert greedy["win_rate"]["estimate"] >= 0.75
    assert greedy["win_rate"]["low"] > 0.5  # significant, not just a lucky majority
    assert greedy["mean_score"]["low"] > random["mean_score"]["high"]


def test_doodle_greedy_scores_far_above_random():
    greedy = _figures(["doodle"], "greedy", 6, 7)["score"]
    random = _figures(["doodle"], "random", 6, 7)["score"]
    assert greedy["low"] > random["high"] + 30
