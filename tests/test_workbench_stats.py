"""The workbench's statistics against values known by hand or by construction."""
from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.errors import UsageError
from toolkit.specs import load_edition
from toolkit.workbench import ladder, setpath, sprt


# ----- Bradley-Terry ---------------------------------------------------------------------------


def test_bradley_terry_recovers_strengths_4_2_1_from_a_consistent_table():
    # A beats B 2:1, B beats C 2:1, A beats C 4:1: strengths 4, 2, 1 satisfy the likelihood
    # equations exactly (e.g. A: 3 * 4/6 + 5 * 4/5 = 2 + 4 wins).
    wins = np.array([[0, 2, 4], [1, 0, 2], [1, 1, 0]])
    theta = ladder.fit(wins, prior=0.0)
    expected = np.log([4.0, 2.0, 1.0])
    assert theta == pytest.approx(expected - expected.mean(), abs=1e-9)
    rows = {r["bot"]: r for r in ladder.ratings(["a", "b", "c"], wins, prior=0.0)}
    assert rows["a"]["elo"] - rows["b"]["elo"] == pytest.approx(400 * math.log10(2), abs=0.02)
    assert rows["b"]["elo"] - rows["c"]["elo"] == pytest.approx(400 * math.log10(2), abs=0.02)


def test_two_bots_75_to_25_are_400_log10_3_apart_with_the_binomial_standard_error():
    wins = np.array([[0, 75], [25, 0]])
    rows = {r["bot"]: r for r in ladder.ratings(["x", "y"], wins, prior=0.0)}
    assert rows["x"]["elo"] == pytest.approx(200 * math.log10(3), abs=0.01)
    assert rows["y"]["elo"] == pytest.approx(-200 * math.log10(3), abs=0.01)
    # centred rating = half the log-odds; its variance is 1 / (4 n p (1 - p)) in log-odds units
    se = ladder.ELO * math.sqrt(1 / (4 * 100 * 0.75 * 0.25))
    theta = ladder.fit(wins, prior=0.0)
    assert ladder.ELO * math.sqrt(ladder.covariance(wins, theta, prior=0.0)[0, 0]) == pytest.approx(se, abs=0.02)
    # the printed interval is the likelihood's: at 75 to 25 close to the normal one, a little
    # longer on the side away from the middle
    low, high = rows["x"]["low"], rows["x"]["high"]
    assert 0.9 * 1.959964 * se < rows["x"]["elo"] - low < high - rows["x"]["elo"] < 1.1 * 1.959964 * se


def test_a_bot_that_wins_every_game_gets_a_finite_rating_from_the_prior():
    rows = ladder.ratings(["strong", "weak"], np.array([[0, 200], [0, 0]]))
    assert all(math.isfinite(r["elo"]) for r in rows)
    assert rows[0]["bot"] == "strong" and rows[0]["elo"] > 400


# ----- GSPRT ---------------------------------------------------------------------------------


def _sequential(stream: np.ndarray, p: sprt.SprtPlan, first: int = 50) -> tuple[str, int]:
    for start, stop in [(0, 0), *__import__("toolkit.workbench.runner", fromlist=["batches"]).batches(first, stream.size)]:
        if stop == 0:
            continue
        decision, _, _ = sprt.decide(stream[:stop], p)
        if decision != sprt.UNDECIDED:
            return decision, stop
    return sprt.UNDECIDED, stream.size


CLASSIC, DOODLE = load_edition("classic"), load_edition("doodle")
PLAN = sprt.plan("score", 2.0, 0.05, 0.05, CLASSIC)


def test_gsprt_calls_a_shift_of_twice_delta_different_and_stops_early():
    calls = [_sequential(np.random.default_rng(k).normal(4.0, 10.0, 5000), PLAN) for k in range(100)]
    assert all(d == sprt.DIFFERENT for d, _ in calls)
    assert np.median([n for _, n in calls]) < 400


def test_gsprt_false_different_rate_under_no_difference_stays_near_alpha():
    calls = [_sequential(np.random.default_rng(1000 + k).normal(0.0, 10.0, 5000), PLAN)[0] for k in range(300)]
    false_rate = calls.count(sprt.DIFFERENT) / len(calls)
    assert false_rate <= 0.09  # alpha 0.05; a binomial 300-sample upper band
    assert calls.count(sprt.SAME) / len(calls) > 0.85


def test_gsprt_calls_a_shift_of_delta_same_at_most_beta_of_the_time():
    calls = [_sequential(np.random.default_rng(5000 + k).normal(2.0, 10.0, 20000), PLAN)[0] for k in range(200)]
    assert calls.count(sprt.SAME) / len(calls) <= 0.10


def test_identical_outcomes_are_same_and_a_constant_shift_is_different():
    assert sprt.decide(np.zeros(50), PLAN)[0] == sprt.SAME
    assert sprt.decide(np.full(50, 3.0), PLAN)[0] == sprt.DIFFERENT
    assert sprt.decide(np.full(50, -3.0), PLAN)[0] == sprt.DIFFERENT


def test_llr_matches_the_normal_formula():
    d = np.array([1.0, 3.0, 2.0, 4.0])
    up, down = sprt.llrs(d, 2.0)
    var = d.var(ddof=1)
    assert up == pytest.approx((2.0 * d.sum() - 4 * 2.0) / var)
    assert down == pytest.approx((-2.0 * d.sum() - 4 * 2.0) / var)


@pytest.mark.parametrize("args, message", [
    (("wins", None, 0.05, 0.05, CLASSIC), "expected one of"),
    (("margin", None, 0.05, 0.05, DOODLE), "Doodle"),
    (("score", -1.0, 0.05, 0.05, CLASSIC), "positive"),
    (("score", None, 0.7, 0.05, CLASSIC), "alpha"),
    (("score", None, 0.05, 0.0, CLASSIC), "beta"),
])
def test_bad_sequential_plans_are_refused(args, message):
    with pytest.raises(UsageError, match=message):
        sprt.plan(*args)


# ----- key paths -------------------------------------------------------------------------------


def test_value_grammar():
    classic = load_edition("classic")
    assert setpath.parse_setting("starting_buttons=3..8", classic).values == (3, 4, 5, 6, 7, 8)
    assert setpath.parse_setting("patches.P05.cost=0..6:2", classic).values == (0, 2, 4, 6)
    assert setpath.parse_setting("bonus.points=0,5,7,10", classic).values == (0, 5, 7, 10)
    marks = setpath.parse_setting("time_track.leather_patches=[20,26,32],[26, 32, 38]", classic)
    assert marks.values == ((20, 26, 32), (26, 32, 38))


@pytest.mark.parametrize("text, message", [
    ("starting_buttons", "KEY=VALUES"),
    ("tie_break=1,2", "'1' is not one of: first-to-finish, shared"),
    ("rounds=1", "not a key the time-track engine reads"),
    ("title=3", "not a key"),
    ("patches.P99.cost=1", "no patch P99"),
    ("starting_buttons=8..3", "empty"),
    ("starting_buttons=1..4:0", "step"),
    ("starting_buttons=a,b", "not a whole number"),
    ("starting_buttons=-1,2", "outside"),
    ("starting_buttons=2,2", "twice"),
    ("time_track.leather_patches=20,26", "bracketed"),
    ("time_track.leather_patches=[20,600]", "outside"),
])
def test_bad_settings_are_refused_with_one_line(text, message):
    with pytest.raises(UsageError, match=message) as info:
        setpath.parse_setting(text, load_edition("classic"))
    assert "\n" not in str(info.value)


def test_doodle_refuses_keys_its_engine_does_not_read():
    with pytest.raises(UsageError, match="Doodle engine"):
        setpath.parse_setting("market_window=1,2", load_edition("doodle"))


def test_an_edit_changes_the_content_hash_and_only_the_named_patch():
    classic = load_edition("classic")
    edited = setpath.apply(classic, "patches.P05.cost", 4)
    assert edited.patch("P05").cost == 4 and classic.patch("P05").cost == 2
    assert [p for p in edited.patches if p.id != "P05"] == [p for p in classic.patches if p.id != "P05"]
    assert edited.content_hash != classic.content_hash
    assert setpath.apply(classic, "patches.P05.cost", 2).content_hash == classic.content_hash


def test_a_mark_past_the_final_space_or_a_bonus_larger_than_the_board_is_refused():
    classic = load_edition("classic")
    with pytest.raises(UsageError, match="past the final space"):
        setpath.apply(classic, "time_track.income_marks", (5, 60))
    with pytest.raises(UsageError, match="does not fit"):
        setpath.apply(classic, "bonus.square_size", 10)
