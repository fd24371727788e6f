"""The deal as the unit: clustered intervals against hand-computed values and, over many seeds of
clustered data whose answer is known, their coverage (and the coverage the games-as-units interval
would have had, to show the check can fail)."""
import math

import numpy as np
import pytest

from toolkit.stats import (deal_mean, deal_rate, deal_ratio, holm, minimum_detectable, per_deal_sq, wilson)


def _clustered_games(rng, deals: int, p: float, same: float) -> np.ndarray:
    """Games in deal order, two a deal: the second game repeats the first with probability `same`."""
    first = rng.random(deals) < p
    second = np.where(rng.random(deals) < same, first, rng.random(deals) < p)
    return np.stack([first, second], axis=1).ravel().astype(np.int64)


def test_deal_rate_by_hand():
    # 4 deals of 2 games: successes per deal 2, 0, 2, 0 -> p = 0.5; between-deal variance is maximal
    games = np.array([1, 1, 0, 0, 1, 1, 0, 0])
    iv = deal_rate(int(games.sum()), 8, 2, per_deal_sq(games, 2))
    # ratio variance: D/(D-1) * sum((y - p x)^2) / X^2 = 4/3 * 4 / 64; binomial p(1-p)/n = 1/32
    assert iv.design_effect == pytest.approx((4 / 3 * 4 / 64) / (1 / 32))
    assert iv.deals == 4 and iv.n == 8 and iv.estimate == 0.5
    assert iv.high - iv.low > wilson(4, 8).high - wilson(4, 8).low
    assert iv.as_dict()["deals"] == 4 and "design_effect" in iv.as_dict()


def test_one_game_a_deal_is_wilson_and_the_design_effect_never_narrows():
    assert deal_rate(40, 100, 1, 40) == wilson(40, 100)
    # every deal splits 1-1: no between-deal variance, but the interval stays Wilson's
    games = np.array([1, 0] * 50)
    iv = deal_rate(50, 100, 2, per_deal_sq(games, 2))
    assert iv.design_effect == 1.0
    assert (iv.low, iv.high) == pytest.approx((wilson(50, 100).low, wilson(50, 100).high))


@pytest.mark.parametrize("p,same", [(0.55, 0.9), (0.3, 0.6), (0.5, 0.0)])
def test_deal_rate_covers_95_percent_over_many_seeds(p, same):
    rng = np.random.default_rng(11)
    runs, deals = 1500, 120
    hits = old_hits = 0
    for _ in range(runs):
        games = _clustered_games(rng, deals, p, same)
        iv = deal_rate(int(games.sum()), games.size, 2, per_deal_sq(games, 2))
        hits += iv.low <= p <= iv.high
        old = wilson(int(games.sum()), games.size)
        old_hits += old.low <= p <= old.high
    # 1500 runs: a true 95 % coverage lies in [93.4, 96.4] % with 99.9 % probability
    assert 0.934 <= hits / runs <= 0.97
    if same >= 0.6:  # alike games: counting them one by one covers far less (the check can fail)
        assert old_hits / runs < 0.92


def test_deal_mean_covers_95_percent_and_matches_the_plain_mean_for_one_game_a_deal():
    rng = np.random.default_rng(5)
    runs, deals, hits = 1500, 100, 0
    for _ in range(runs):
        first = rng.normal(20, 8, deals)
        values = np.round(np.stack([first, first + rng.normal(0, 2, deals)], axis=1).ravel()).astype(np.int64)
        iv = deal_mean(values.size, int(values.sum()), 2, per_deal_sq(values, 2), int((values * values).sum()))
        hits += iv.low <= 20 <= iv.high
    assert 0.934 <= hits / runs <= 0.97
    one = deal_mean(3, 6, 1, 0, 14)
    assert (one.estimate, one.deals) == (2.0, None)


def test_deal_ratio_of_purchases_by_hand():
    # a buyer's win rate: y wins over x purchases per deal
    y, x = np.array([1, 0, 2, 1]), np.array([1, 1, 2, 2])
    iv = deal_ratio(4, y.sum(), x.sum(), (y * y).sum(), (x * y).sum(), (x * x).sum(), rate=True)
    r = 4 / 6
    var = 4 / 3 * ((y - r * x) ** 2).sum() / 36
    assert iv.estimate == pytest.approx(r)
    assert iv.design_effect == pytest.approx(max(1.0, var / (r * (1 - r) / 6)))


def test_holm_and_the_detectable_difference():
    assert holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": None}) == pytest.approx(
        {"a": 0.03, "b": 0.06, "c": 0.06, "d": None})
    # two-sided 5 %, power 80 %: 1.96 + 0.84 standard errors
    assert minimum_detectable(1.0) == pytest.approx(2.8016, abs=1e-4)
    assert minimum_detectable(None) is None
    assert math.isclose(minimum_detectable(0.5, 0.05, 0.5), 1.959964 * 0.5, rel_tol=1e-5)
