"""`patchwork ladder`, `balance --sprt` and time budgets end to end."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cli_helpers import ok
from toolkit.bots import mcts
from toolkit.errors import UsageError
from toolkit.bots.registry import parse_bot, reproducibility
from toolkit.specs import load_edition
from toolkit.specs.models import Family
from workbench_helpers import refused


@pytest.mark.slow
def test_ladder_ranks_greedy_above_random_and_writes_the_contract(tmp_path):
    out = tmp_path / "ladder"
    result = ok("ladder", "random", "greedy", "--games", "40", "--seed", "4", "--out", str(out), "--no-progress")
    assert "greedy" in result.output
    doc = json.loads((out / "results.json").read_text())
    assert doc["kind"] == "ladder" and doc["reproducible"] is True
    ratings = doc["ratings"]
    assert [r["bot"] for r in ratings] == ["greedy", "random"]
    for r in ratings:
        assert r["low"] < r["elo"] < r["high"]
    assert sum(r["elo"] for r in ratings) == pytest.approx(0.0, abs=0.02)
    assert doc["wins"]["matrix"][0][1] + doc["wins"]["matrix"][1][0] == 40
    for name in ("report.md", "report.pdf"):
        assert (out / name).stat().st_size > 0


@pytest.mark.slow
def test_ladder_results_do_not_depend_on_workers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ok("ladder", "random", "greedy", "--games", "20", "--workers", "1", "--out", str(a), "--no-progress")
    ok("ladder", "random", "greedy", "--games", "20", "--workers", "2", "--out", str(b), "--no-progress")
    for name in ("results.json", "report.md", "report.pdf"):
        assert (a / name).read_bytes() == (b / name).read_bytes()


@pytest.mark.parametrize("args, message", [
    (("greedy",), "at least 2 bots"),
    (("greedy", "greedy"), "named twice"),
    (("greedy", "random", "--edition", "doodle"), "time-track"),
    (("greedy", "automa", "--edition", "anniversary"), "automa"),
    (("greedy", "wizard"), "unknown bot 'wizard'"),
    (("greedy", "random", "--games", "9"), "even"),
])
def test_ladder_refuses_bad_input_with_one_line(args, message):
    assert message in refused("ladder", *args)


# ----- balance --sprt --------------------------------------------------------------------------


def _variant(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"kind: variant\nname: {name}\ntitle: {name}\nextends: classic\n{body}")
    return str(path)


@pytest.mark.slow
def test_ten_more_buttons_is_called_different_and_an_identical_variant_same(tmp_path):
    rich = _variant(tmp_path, "rich", "starting_buttons: 15\n")
    same = _variant(tmp_path, "same", "starting_buttons: 5\n")
    out = tmp_path / "sprt"
    result = ok("balance", "classic", rich, same, "--bots", "greedy,greedy", "--games", "2000", "--seed", "9",
                "--sprt", "score", "--out", str(out), "--no-progress")
    assert "rich.yaml: changes the mean score per player by about +" in result.output
    assert "same.yaml: does not change the mean score per player by 2.00 or more" in result.output
    doc = json.loads((out / "results.json").read_text())
    rich_v, same_v = doc["variants"]
    assert rich_v["sprt"]["decision"] == "different" and rich_v["sprt"]["games"] <= 400
    assert same_v["sprt"]["decision"] == "same"
    assert set(rich_v["sprt"]) >= {"figure", "decision", "games"} and rich_v["sprt"]["figure"] == "score"
    assert doc["games"] < 2000 and "GSPRT" in doc["sequential"]["test"]
    md = (out / "report.md").read_text()
    assert "Paired differences" in md and "changes the mean score per player" in md and "decided after" in md
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(out / "report.pdf").pages)
    assert "Paired differences, variant - base" in text and "changes the mean score per player" in text


@pytest.mark.parametrize("figure", ["seat-win", "margin"])
@pytest.mark.slow
def test_an_identical_variant_is_never_called_different_on_any_figure(tmp_path, figure):
    same = _variant(tmp_path, "same", "starting_buttons: 5\n")
    out = tmp_path / figure
    ok("balance", "classic", same, "--bots", "random,random", "--games", "400", "--seed", "1", "--sprt", figure,
       "--out", str(out), "--no-progress")
    assert json.loads((out / "results.json").read_text())["variants"][0]["sprt"]["decision"] == "same"


@pytest.mark.parametrize("args, message", [
    (("--sprt", "wins"), "--sprt 'wins'"),
    (("--sprt", "score", "--sprt-alpha", "0.9"), "--sprt-alpha"),
    (("--sprt", "score", "--sprt-delta", "0"), "--sprt-delta"),
])
def test_balance_sprt_refuses_bad_options_with_one_line(args, message):
    assert message in refused("balance", "classic", "six-buttons", "--games", "100", *args)


def test_balance_sprt_refuses_a_seat_figure_for_doodle_before_any_game():
    assert "Doodle has no seats to compare" in refused("balance", "doodle", "doodle-4-rounds", "--games", "100",
                                                       "--sprt", "margin")


# ----- time budgets ----------------------------------------------------------------------------


def test_time_budgets_parse_and_say_they_are_not_reproducible():
    bot = parse_bot("mcts:0.5s", Family.TIME_TRACK)
    assert bot.name == "mcts:0.5s" and bot.iterations == -500_000 and bot.timed
    assert "not reproducible" in bot.label
    assert reproducibility([bot])[0] is False
    assert reproducibility([parse_bot("mcts:200", Family.TIME_TRACK)])[0] is True
    for text in ("mcts:0s", "mcts:99s", "mcts:xs", "mcts:-3"):
        with pytest.raises(UsageError):
            parse_bot(text, Family.TIME_TRACK)


def test_a_timed_search_stops_by_the_clock_and_plays_a_legal_move():
    from toolkit.games.timetrack.game import TimeTrackGame

    game = TimeTrackGame(load_edition("classic"), seed=3)
    visits = np.zeros(64, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.int64)
    action = mcts.search(game.tables.arrays, game.state, game.quilts, rng, mcts.time_budget(0.02),
                         mcts.GREEDY_WEIGHTS, mcts.PARAMS, visits)
    assert action >= 0
    assert 0 < visits.sum() < mcts.MAX_TIMED_ITERATIONS  # stopped by the clock, not by the cap
    assert mcts.MctsBot(mcts.time_budget(0.01)).name == "mcts:0.01s"


@pytest.mark.slow
def test_sequential_options_without_sprt_are_refused():
    assert "add --sprt FIGURE" in refused("balance", "classic", "six-buttons", "--games", "100", "--sprt-delta", "1")
    assert "add --sprt FIGURE" in refused("sweep", "classic", "--set", "starting_buttons=3,4", "--sprt-alpha", "0.01")


def test_the_prior_pull_is_measured_or_said_to_be_unbounded():
    """The virtual drawn games' effect on the ratings is stated: how far they move any rating when
    the ratings are finite without them, and that they are not when a bot won every game."""
    import numpy as np

    from toolkit.workbench import ladder as ld

    even = np.array([[0, 60, 70], [40, 0, 55], [30, 45, 0]])
    pull = ld.prior_pull(even)
    assert pull is not None and 0 < pull < 5  # one drawn game among 100 a pair hardly moves them
    # against a hand computation: the prior pulls the strongest down and the weakest up
    with_prior, without = ld.fit(even), ld.fit(even, 0.0)
    assert with_prior[0] < without[0] and with_prior[2] > without[2]
    assert pull == pytest.approx(ld.ELO * np.max(np.abs(with_prior - without)))
    swept = np.array([[0, 10, 10], [0, 0, 6], [0, 4, 0]])  # the first bot won every game
    assert not ld.finite_without_prior(swept) and ld.prior_pull(swept) is None
    chain = np.array([[0, 5, 0], [0, 0, 5], [5, 0, 0]])  # a beat b, b beat c, c beat a: finite
    assert ld.finite_without_prior(chain)


def test_the_interval_is_the_likelihood_ratio_one():
    """With two bots the centred rating is half the log-odds of the first winning, so its profile-
    likelihood interval is the binomial's likelihood-ratio interval, found here by bisection on
    the binomial itself; it is skewed away from a lopsided estimate, as a Wald interval is not."""
    import math

    import numpy as np

    from toolkit.workbench import ladder as ld

    won, games = 3, 200  # one game in 67: where a Wald interval is too narrow on the near side

    def loglik(p):
        return won * math.log(p) + (games - won) * math.log(1 - p)

    best = loglik(won / games)

    def edge(inside, outside):
        for _ in range(100):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if 2 * (best - loglik(middle)) < ld.LR95 else (inside, middle)
        return inside

    expected = [ld.ELO * math.log(p / (1 - p)) / 2 for p in (edge(won / games, 1e-9), edge(won / games, 1 - 1e-9))]
    wins = np.array([[0, won], [games - won, 0]])
    low, high = ld.profile_interval(wins, 0, prior=0.0)
    assert ld.ELO * low == pytest.approx(expected[0], abs=0.05) and ld.ELO * high == pytest.approx(expected[1], abs=0.05)
    estimate = ld.ELO * math.log(won / (games - won)) / 2
    assert estimate - ld.ELO * low > ld.ELO * high - estimate  # longer on the side away from the middle
