"""`deck fit` against known answers: decks whose true prices are known, the t distribution and
Holm's correction against closed forms, the studentised residual against a refit by hand."""
import json
import math

import numpy as np
import pytest

from cli_helpers import ok
from toolkit.decks.deck import load_deck
from toolkit.decks.model import ALPHA, features, fit_deck, fit_prices, holm, t_two_sided
from toolkit.geometry.board import Board
from toolkit.geometry.enumerate import free_polyominoes

BOARD = Board(9, 9)
SHAPES = free_polyominoes(4) + free_polyominoes(5) + free_polyominoes(6)[:14]  # 5 + 12 + 14 = 31 patches


def _stats(i: int) -> tuple[int, int]:
    return 1 + (i * 7) % 6, (i * 5) % 4  # time 1..6, income 0..3, spread over the deck


def _linear(i: int, shape) -> int:
    time, income = _stats(i)
    return 2 + 2 * shape.size - time + 3 * income


def _rows(costs) -> list:
    return [(f"T{i:02d}", shape, int(cost), *_stats(i)) for i, (shape, cost) in enumerate(zip(SHAPES, costs))]


def test_t_distribution_and_holm_match_closed_forms():
    for t in (0.3, 1.0, 3.0, 12.0):
        assert t_two_sided(t, 1) == pytest.approx(1 - 2 / math.pi * math.atan(t), rel=1e-10)  # Cauchy
        assert t_two_sided(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-10)
    assert t_two_sided(2.0639, 24) == pytest.approx(0.05, abs=1e-5)  # the tabled 97.5 % point
    assert t_two_sided(1.96, 10**6) == pytest.approx(0.05, abs=1e-4)  # towards the normal
    assert t_two_sided(0.0, 5) == 1.0 and t_two_sided(math.inf, 5) == 0.0
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])


def test_exactly_linear_costs_flag_only_the_planted_offset():
    costs = [_linear(i, s) for i, s in enumerate(SHAPES)]
    exact = fit_prices("exact", _rows(costs), BOARD)
    assert exact.off_model() == [] and exact.cv_error == pytest.approx(0.0, abs=1e-9)
    assert (exact.cv.low, exact.cv.high) == (exact.cv_error, exact.cv_error)
    costs[9] += 6
    fit = fit_prices("planted", _rows(costs), BOARD)
    assert [p.id for p in fit.off_model()] == ["T09"]
    planted = fit.patches[9]
    assert planted.residual > 0 and planted.p_adjusted < 1e-6
    assert all(p.p_adjusted > ALPHA for p in fit.patches if p.id != "T09")
    assert json.loads(json.dumps(fit.as_dict()))["off_model"] == {"dearer": ["T09"], "cheaper": []}


def _noisy(seed: int) -> list[int]:
    """Classic-like noise (SD 1.2 buttons, rounded) around the linear rule."""
    rng = np.random.default_rng(seed)
    return [_linear(i, s) + round(float(rng.normal(0, 1.2))) for i, s in enumerate(SHAPES)]


@pytest.mark.parametrize("seed", range(5))
def test_noise_around_a_linear_rule_finds_a_large_offset_and_drags_no_other_patch(seed):
    base = _noisy(seed)
    before = {p.id for p in fit_prices("noise", _rows(base), BOARD).off_model()}
    moved = list(base)
    moved[seed] -= 9  # 7.5 standard deviations cheaper, on a tetromino (the deck's most leveraged)
    found = fit_prices("moved", _rows(moved), BOARD).off_model()
    assert (f"T{seed:02d}", True) in [(p.id, p.residual < 0) for p in found]
    # whatever else it finds it found without the offset (a noise draw past 3 SD): the moved patch
    # pulls the fit towards itself, and the step-down refits without it before judging the others
    assert {p.id for p in found} - {f"T{seed:02d}"} <= before


def test_false_flags_stay_near_five_percent_of_decks():
    # 150 decks with no patch off the rule: each flags one with chance at most 5 %, 7.5 decks
    # expected (these seeds: 6); 15 or more has chance about 1 %, and a test without the
    # correction over 31 patches would flag most decks
    flagged = sum(bool(fit_prices("noise", _rows(_noisy(seed)), BOARD).off_model()) for seed in range(150))
    assert flagged <= 14


@pytest.mark.parametrize("seed", range(5))
def test_costs_unrelated_to_the_patches_flag_nothing(seed):
    rng = np.random.default_rng(100 + seed)
    fit = fit_prices("noise", _rows(rng.integers(0, 11, len(SHAPES))), BOARD)
    assert fit.off_model() == []
    assert all(p.p_adjusted is not None for p in fit.patches)
    # nothing to learn: predicting a new patch misses by about the spread of the costs
    assert fit.cv.low < fit.cv_error < fit.cv.high
    assert fit.cv_error > 0.9 * float(np.std(rng.integers(0, 11, 10_000)))


def test_studentised_residual_is_the_refit_without_the_patch():
    deck = load_deck("classic")
    fit = fit_deck(deck)
    x = np.array([[1.0, *features(p.shape, p.time, p.income, BOARD)] for p in deck.patches])
    y = np.array([p.cost for p in deck.patches], float)
    for i in (19, 16, 3):
        keep = np.arange(len(y)) != i
        beta, *_ = np.linalg.lstsq(x[keep], y[keep], rcond=None)
        rest = y[keep] - x[keep] @ beta
        spread = math.sqrt(rest @ rest / (keep.sum() - x.shape[1]))
        gap = x[i] @ np.linalg.inv(x[keep].T @ x[keep]) @ x[i]
        t = (y[i] - x[i] @ beta) / (spread * math.sqrt(1 + gap))
        assert fit.patches[i].studentised == pytest.approx(t, rel=1e-9)
        assert fit.patches[i].cv_predicted == pytest.approx(x[i] @ beta, rel=1e-9)
    p19 = next(p for p in fit.patches if p.id == "P19")
    assert p19.p_adjusted == pytest.approx(min(1.0, 33 * t_two_sided(p19.studentised, 33 - 7 - 1)), rel=1e-9)


def test_folds_are_averaged_over_seeded_splits_and_change_the_figure():
    deck = load_deck("classic")
    loo, five, again = fit_deck(deck), fit_deck(deck, 5), fit_deck(deck, 5)
    assert five.as_dict() == again.as_dict()  # seeded: the same deck prints the same figures
    assert (five.cv.folds, five.cv.repeats) == (5, 200) and (loo.cv.folds, loo.cv.repeats) == (33, 1)
    # k folds fit on fewer patches: on the high side of leave-one-out; 200 random 5-fold splits of
    # classic spread 1.22-1.48 with median 1.32
    assert loo.cv_error < five.cv_error and 1.30 < five.cv_error < 1.36
    assert fit_deck(deck, 33).as_dict() == loo.as_dict()


def test_a_leverage_one_patch_is_not_tested(tmp_path):
    # the only patch with any income: the fit passes through it whatever it costs
    costs = [_linear(i, s) + (i % 3) - 1 for i, s in enumerate(SHAPES)]
    rows = [(pid, shape, cost, time, 0) for pid, shape, cost, time, income in _rows(costs)]
    rows[4] = (rows[4][0], rows[4][1], rows[4][2] + 40, rows[4][3], 2)
    fit = fit_prices("lever", rows, BOARD)
    lone = fit.patches[4]
    assert lone.studentised is None and lone.p_adjusted is None and not lone.off_model
    assert lone.residual == pytest.approx(0.0, abs=1e-8) and fit.tested() == len(rows) - 1
    assert math.isfinite(lone.cv_predicted) and math.isfinite(fit.cv_error)
    assert json.loads(json.dumps(fit.as_dict()))["patches"][4]["studentised"] is None


def test_cli_names_a_planted_patch_and_says_what_the_model_fits(tmp_path):
    costs = [_linear(i, s) for i, s in enumerate(SHAPES)]
    costs[12] += 7
    lines = ["kind: patch-set", "name: planted", "patches:"]
    for (pid, shape, cost, time, income) in _rows(costs):
        lines.append(f"  - {{id: {pid}, cost: {cost}, time: {time}, income: {income}, "
                     f"shape: \"{shape.format()}\"}}")
    (tmp_path / "planted.yaml").write_text("\n".join(lines) + "\n")
    out = ok("deck", "fit", str(tmp_path / "planted.yaml"), "--top", "1").stdout
    assert "priced off the model (studentised residual, Holm over 31 patches at 5%):\n  T12 " in out
    assert "dearer" in out.split("T12", 1)[1].splitlines()[0]
    assert "largest other residuals, none told apart from the model's spread:" in out
    assert "It fits the printed prices, not what a patch is worth in play" in out
    doc = json.loads(ok("deck", "fit", str(tmp_path / "planted.yaml"), "--json").stdout)
    assert doc["off_model"]["dearer"] == ["T12"] and doc["cv_interval"][0] <= doc["cv_error"]
    five = ok("deck", "fit", str(tmp_path / "planted.yaml"), "--folds", "5").stdout
    assert "5-fold CV error" in five and "200 random splits" in five and five != out
