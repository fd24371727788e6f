"""Statistics against known values: Wilson intervals, means, paired differences, tallies."""
import math

import numpy as np
import pytest

from toolkit.stats import (
    Tally,
    hist_summary,
    mean_interval,
    merge_all,
    paired_difference,
    wilson,
)


def test_wilson_40_of_100():
    iv = wilson(40, 100)
    assert iv.estimate == pytest.approx(0.4)
    assert iv.low == pytest.approx(0.3094, abs=1e-4)
    assert iv.high == pytest.approx(0.4980, abs=1e-4)


def test_wilson_0_of_10_and_10_of_10():
    zero = wilson(0, 10)
    assert zero.low == 0.0
    assert zero.high == pytest.approx(0.2775, abs=1e-4)
    full = wilson(10, 10)
    assert full.low == pytest.approx(0.7225, abs=1e-4)
    assert full.high == 1.0


def test_wilson_is_symmetric_and_empty_sample_has_no_interval():
    a, b = wilson(13, 57), wilson(44, 57)
    assert a.low == pytest.approx(1 - b.high)
    assert a.high == pytest.approx(1 - b.low)
    assert wilson(0, 0).estimate is None
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_mean_interval_by_hand():
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    n, s, s2 = len(values), sum(values), sum(v * v for v in values)
    iv = mean_interval(n, s, s2)
    sd = math.sqrt(sum((v - 5) ** 2 for v in values) / (n - 1))  # 2.138
    assert iv.estimate == 5
    assert iv.high - 5 == pytest.approx(1.959964 * sd / math.sqrt(n), rel=1e-6)
    assert iv.low == pytest.approx(10 - iv.high)
    single = mean_interval(1, 3, 9)
    assert single.estimate == 3 and single.low is None


def test_paired_difference_by_hand():
    d = [1, -1, 2, 0, 3]
    pd = paired_difference(len(d), sum(d), sum(x * x for x in d))
    # mean 1, sample variance 2.5, se = sqrt(2.5 / 5) = 0.7071
    assert pd.mean == pytest.approx(1.0)
    assert pd.se == pytest.approx(math.sqrt(0.5))
    assert pd.low == pytest.approx(1 - 1.959964 * math.sqrt(0.5), rel=1e-6)
    assert pd.high == pytest.approx(1 + 1.959964 * math.sqrt(0.5), rel=1e-6)
    assert pd.p_value == pytest.approx(math.erfc(1 / math.sqrt(0.5) / math.sqrt(2)))
    assert not pd.significant


def test_paired_difference_significance_and_scale():
    d = [2, 3, 2, 4, 3, 2, 3, 3, 2, 4]
    pd = paired_difference(len(d), sum(d), sum(x * x for x in d), scale=0.5)
    assert pd.mean == pytest.approx(np.mean(d) / 2)
    assert pd.se == pytest.approx(np.std(d, ddof=1) / math.sqrt(len(d)) / 2)
    assert pd.significant and pd.low > 0
    constant = paired_difference(4, 8, 16)
    assert constant.significant and constant.se == 0.0
    none = paired_difference(4, 0, 0)
    assert not none.significant


def test_paired_beats_independent_when_outcomes_are_correlated():
    rng = np.random.default_rng(1)
    base = rng.integers(-20, 20, 200)
    variant = base + rng.integers(0, 3, 200)  # +1 on average, strongly correlated
    d = variant - base
    pd = paired_difference(200, int(d.sum()), int((d * d).sum()))
    independent_se = math.sqrt(base.var(ddof=1) / 200 + variant.var(ddof=1) / 200)
    assert pd.se < independent_se / 5
    assert pd.significant


def test_tally_merge_equals_one_tally_of_everything():
    rng = np.random.default_rng(7)
    values = rng.integers(-50, 50, size=(90, 2))
    whole = Tally()
    whole.add("sum", values.sum(axis=0))
    whole.count("hist", values[:, 0])
    parts = []
    for chunk in np.array_split(values, 7):
        t = Tally()
        t.add("sum", chunk.sum(axis=0))
        t.count("hist", chunk[:, 0])
        parts.append(t)
    assert merge_all(parts).equals(whole)
    assert merge_all(reversed(parts)).equals(whole)
    with pytest.raises(ValueError):
        whole.add("sum", [1, 2, 3])


def test_hist_summary_quartiles():
    pairs = [(1, 1), (2, 1), (3, 1), (4, 1), (10, 4)]
    s = hist_summary(pairs)
    assert (s["n"], s["min"], s["max"], s["median"], s["q1"], s["q3"]) == (8, 1, 10, 4, 2, 10)
    assert s["mean"] == pytest.approx(50 / 8)
    assert hist_summary([])["n"] == 0
