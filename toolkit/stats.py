"""Statistics of simulation results: intervals, paired differences and mergeable integer tallies.

Every figure the simulator reports is computed from a `Tally`: named int64 sums and integer
histograms. Games produce integers (scores, plies, wins), so a tally's sums are exact and adding
two tallies gives bit for bit what one run over both seed ranges would give, in any order. That
is what makes results independent of the number of workers and of the backend.

Intervals are 95% two-sided: Wilson's score interval for proportions, and the normal
approximation (sample standard deviation, z = 1.96) for means and paired mean differences; the
simulator's sample sizes (hundreds of games and more) make the normal approximation sound.

The deal is the sampling unit. With seats swapped a deal is two games on the same cards, which are
often nearly the same game, so they are one cluster, not two independent games: `deal_rate` and
`deal_mean` take per-deal sums of squares and give the cluster (ratio-estimator) variance. A rate's
interval is Wilson's at the effective number of games (games / design effect); the design effect is
the cluster variance over the variance of games counted one by one, reported beside the interval
and never taken below 1 (a deal whose two games cancel, such as the seat-0 win of a swapped deal
between unequal bots, would otherwise narrow the interval on the strength of a noisy estimate).
So the deal intervals are never narrower than the games-as-units ones: their bias is towards
covering more than 95 %, not less.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads where tallies are made or read: the command line reads Z95 and wilson without it
    import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""

SEQUENTIAL_INTERVALS = ("the sequential test stopped early: intervals and p-values are the fixed-sample ones at the "
                        "stopping point, not adjusted for the looks: the intervals are too narrow, and a difference "
                        "found early tends to be overstated")
"""What a run's intervals are after a sequential stop (its reports and results.json say it)."""


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval (low/high None when the sample cannot give one)."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    """Sample size the estimate rests on."""
    design_effect: float | None = None
    """Variance over the deals divided by the variance counting games one by one (None when the
    interval counts independent units)."""
    deals: int | None = None
    """Independent units (deals) the interval rests on, when they are not the n games."""

    def as_dict(self, digits: int = 6) -> dict:
        out = {
            "estimate": _round(self.estimate, digits),
            "low": _round(self.low, digits),
            "high": _round(self.high, digits),
            "n": int(self.n),
        }
        if self.deals is not None:
            out["deals"] = int(self.deals)
            out["design_effect"] = _round(self.design_effect, 4)
        return out


@dataclass(frozen=True)
class PairedDifference:
    """Mean of paired differences (variant minus base), its standard error and 95% interval."""

    mean: float | None
    se: float | None
    low: float | None
    high: float | None
    p_value: float | None
    """Two-sided p-value of 'no difference' under the normal approximation."""
    significant: bool
    """True when the 95% interval excludes 0."""
    n: int
    """Number of pairs (deals)."""

    def as_dict(self, digits: int = 6) -> dict:
        return {
            "mean": _round(self.mean, digits),
            "se": _round(self.se, digits),
            "low": _round(self.low, digits),
            "high": _round(self.high, digits),
            "p_value": _round(self.p_value, digits),
            "significant": bool(self.significant),
            "n": int(self.n),
        }


def _round(value: float | None, digits: int) -> float | None:
    if value is None:
        return None
    # -0.0 and 0.0 must print the same for byte-identical reports.
    return round(float(value), digits) + 0.0


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson score interval of a proportion `successes / n`."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return Interval(None, None, None, 0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    # The exact end points at 0 and n: floating error must not push them past [0, 1].
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high, n)


def ratio_variance(deals: int, sy: float, sx: float, syy: float, sxy: float, sxx: float) -> float | None:
    """Variance of the ratio sum(y) / sum(x) over `deals` clusters (delta method, with the D/(D-1)
    small-sample factor), from the sums of y, x, y^2, x*y and x^2 over the clusters."""
    if deals < 2 or sx == 0:
        return None
    r = sy / sx
    resid = syy - 2.0 * r * sxy + r * r * sxx
    return max(resid, 0.0) * deals / (deals - 1) / (sx * sx)


def deal_ratio(deals: int, sy: float, sx: float, syy: float, sxy: float, sxx: float, rate: bool = True,
               game_sq: float | None = None, z: float = Z95) -> Interval:
    """sum(y) / sum(x) with the deal as the unit, from the sums over deals of y, x, y^2, xy, x^2.

    `rate`: y counts successes among x games (Wilson's interval at the effective sample size
    x / design effect); else y sums a value over x games (normal interval, cluster standard error;
    `game_sq`, the sum of the value's squares over the games, gives the games-as-units variance
    the design effect is measured against). The design effect is never taken below 1."""
    n = int(round(sx))
    if n <= 0:
        return Interval(None, None, None, 0, None, int(deals))
    r = sy / sx
    var = ratio_variance(int(deals), sy, sx, syy, sxy, sxx)
    if rate:
        binomial = r * (1.0 - r) / n
        if var is None or binomial <= 0:
            iv = wilson(int(round(sy)), n, z)
            return Interval(iv.estimate, iv.low, iv.high, n, 1.0, int(deals))
        effect = max(1.0, var / binomial)
        low, high = _wilson_float(r, n / effect, z)
        return Interval(r, low, high, n, effect, int(deals))
    if var is None:
        return Interval(r, None, None, n, None, int(deals))
    deff: float | None = None
    if game_sq is not None and n > 1:
        single = max(game_sq - sy * sy / n, 0.0) / (n - 1) / n
        if single > 0:
            deff = max(1.0, var / single)
            var = max(var, single)
    se = math.sqrt(var)
    return Interval(r, r - z * se, r + z * se, n, deff, int(deals))


def deal_rate(successes: int, games: int, per_deal: int, deal_sq: int, z: float = Z95) -> Interval:
    """A rate over games played `per_deal` to a deal: `deal_sq` is the sum over deals of the
    squared successes in the deal. One game a deal: Wilson's interval, as for independent games."""
    deals = games // per_deal if per_deal else 0
    if per_deal <= 1:
        iv = wilson(successes, games, z)
        return iv
    return deal_ratio(deals, successes, games, deal_sq, per_deal * successes, deals * per_deal * per_deal, True, z=z)


def deal_mean(games: int, total: int, per_deal: int, deal_sq: int, game_sq: int, z: float = Z95,
              scale: float = 1.0) -> Interval:
    """A mean over games played `per_deal` to a deal (`deal_sq`: sum over deals of the squared deal
    total; `game_sq`: sum over games of the squared value); values times `scale`."""
    if per_deal <= 1:
        return mean_interval(games, total, game_sq, z, scale)
    deals = games // per_deal
    iv = deal_ratio(deals, total, games, deal_sq, per_deal * total, deals * per_deal * per_deal, False, game_sq, z)
    if iv.estimate is None or scale == 1.0:
        return iv
    lo, hi = (None, None) if iv.low is None or iv.high is None else sorted((iv.low * scale, iv.high * scale))
    return Interval(iv.estimate * scale, lo, hi, iv.n, iv.design_effect, iv.deals)


def per_deal_sq(values, per_deal: int):
    """Sum over deals of the squared per-deal totals of `values` (games in deal order, consecutive
    per deal; the last axis is summed per column when `values` is 2-D)."""
    import numpy as np

    v = np.asarray(values, dtype=np.int64)
    if v.ndim == 1:
        d = v.reshape(-1, per_deal).sum(axis=1)
        return int((d * d).sum())
    d = v.reshape(-1, per_deal, *v.shape[1:]).sum(axis=1)
    return (d * d).sum(axis=0)


def minimum_detectable(se: float | None, alpha: float = 0.05, power: float = 0.8) -> float | None:
    """The smallest true difference a two-sided test at `alpha` finds with probability `power`,
    given the estimate's standard error: (z_(1-alpha/2) + z_power) * se."""
    if se is None:
        return None
    from statistics import NormalDist

    nd = NormalDist()
    return (nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(power)) * se


def holm(p_values: dict[str, float | None]) -> dict[str, float | None]:
    """Holm's step-down adjusted p-values (family-wise error over the given tests); None stays None."""
    known = sorted(((p, k) for k, p in p_values.items() if p is not None), key=lambda pk: (pk[0], pk[1]))
    m = len(known)
    out: dict[str, float | None] = {k: None for k, p in p_values.items() if p is None}
    running = 0.0
    for i, (p, k) in enumerate(known):
        running = max(running, min(1.0, (m - i) * p))
        out[k] = running
    return {k: out[k] for k in p_values}


def _wilson_float(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's interval for a proportion p at a (possibly fractional) sample size n."""
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def _variance(n: int, total: float, total_sq: float) -> float | None:
    """Sample variance from the count, sum and sum of squares (exact integers in practice)."""
    import numpy as np

    if n < 2:
        return None
    if isinstance(total, (int, np.integer)) and isinstance(total_sq, (int, np.integer)):
        # Integer arithmetic first: n*sum_sq - sum^2 is exact, so no cancellation error.
        numerator = int(n) * int(total_sq) - int(total) * int(total)
        return max(numerator, 0) / (n * (n - 1))
    var = (total_sq - total * total / n) / (n - 1)
    return max(var, 0.0)


def mean_interval(n: int, total: float, total_sq: float, z: float = Z95, scale: float = 1.0) -> Interval:
    """Mean with its normal 95% interval from count, sum and sum of squares; values times `scale`."""
    if n <= 0:
        return Interval(None, None, None, 0)
    mean = total / n * scale
    var = _variance(int(n), total, total_sq)
    if var is None:
        return Interval(mean, None, None, int(n))
    se = math.sqrt(var / n) * abs(scale)
    return Interval(mean, mean - z * se, mean + z * se, int(n))


def paired_difference(n: int, sum_d: float, sum_d2: float, z: float = Z95, scale: float = 1.0) -> PairedDifference:
    """Paired estimate from the n per-pair differences d (their sum and sum of squares).

    `scale` converts a per-pair difference to the reported unit (e.g. 1/2 when a pair's outcome
    is the sum over its two seat-swapped games).
    """
    if n <= 0:
        return PairedDifference(None, None, None, None, None, False, 0)
    mean = sum_d / n * scale
    var = _variance(int(n), sum_d, sum_d2)
    if var is None:
        return PairedDifference(mean, None, None, None, None, False, int(n))
    se = math.sqrt(var / n) * abs(scale)
    if se == 0.0:
        # Every pair differs by the same amount: a nonzero constant difference is certain.
        significant = mean != 0
        return PairedDifference(mean, 0.0, mean, mean, 0.0 if significant else 1.0, significant, int(n))
    t = mean / se
    p = math.erfc(abs(t) / math.sqrt(2.0))
    low, high = mean - z * se, mean + z * se
    return PairedDifference(mean, se, low, high, p, bool(low > 0 or high < 0), int(n))


# ----- mergeable tallies ---------------------------------------------------------------------------


@dataclass
class Tally:
    """Mergeable statistics of some games: named int64 sums and integer histograms.

    `sums[name]` is an int64 array (any shape, fixed per name); `hists[name]` maps an integer value
    to how many times it occurred. Merging adds both, so it is exact and order-free.
    """

    sums: dict[str, np.ndarray] = field(default_factory=dict)
    hists: dict[str, dict[int, int]] = field(default_factory=dict)

    def add(self, name: str, value) -> None:
        """Add `value` (a number or an int array) to the sum `name`."""
        import numpy as np

        array = np.asarray(value, dtype=np.int64)
        current = self.sums.get(name)
        if current is None:
            self.sums[name] = array.copy()
        else:
            if current.shape != array.shape:
                raise ValueError(f"tally '{name}': shape {array.shape} does not match {current.shape}")
            current += array

    def count(self, name: str, values) -> None:
        """Add every integer of `values` to the histogram `name`."""
        import numpy as np

        flat = np.asarray(values, dtype=np.int64).ravel()
        hist = self.hists.setdefault(name, {})
        if flat.size == 0:
            return
        keys, counts = np.unique(flat, return_counts=True)
        for k, c in zip(keys.tolist(), counts.tolist()):
            hist[k] = hist.get(k, 0) + c

    def merge(self, other: Tally) -> Tally:
        """Add `other` into this tally and return self."""
        for name, array in other.sums.items():
            self.add(name, array)
        for name, hist in other.hists.items():
            mine = self.hists.setdefault(name, {})
            for k, c in hist.items():
                mine[k] = mine.get(k, 0) + c
        return self

    def get(self, name: str) -> np.ndarray:
        return self.sums[name]

    def hist(self, name: str) -> list[tuple[int, int]]:
        """Histogram `name` as sorted (value, count) pairs."""
        return sorted(self.hists.get(name, {}).items())

    def equals(self, other: Tally) -> bool:
        """Exact equality of every sum and histogram (for tests and checks)."""
        import numpy as np

        if set(self.sums) != set(other.sums) or set(self.hists) != set(other.hists):
            return False
        if any(not np.array_equal(self.sums[k], other.sums[k]) for k in self.sums):
            return False
        return all(self.hists[k] == other.hists[k] for k in self.hists)


def hist_pairs(t: Tally, name: str) -> list[list[int]]:
    """A tally's histogram as JSON-ready [value, count] pairs."""
    return [[v, c] for v, c in t.hist(name)]


def mean_of(t: Tally, key: str, n: int, index=None, sq: str | None = None) -> dict:
    """The mean (with its interval) of a summed tally key over n, optionally one item of an array key."""
    total = t.get(key) if index is None else t.get(key)[index]
    total_sq = t.get(sq or f"{key}_sq") if index is None else t.get(sq or f"{key}_sq")[index]
    return mean_interval(n, int(total), int(total_sq)).as_dict()


def merge_all(tallies) -> Tally:
    """Merge tallies in the given order into a fresh tally."""
    out = Tally()
    for tally in tallies:
        out.merge(tally)
    return out


def hist_summary(pairs: list[tuple[int, int]]) -> dict:
    """Count, mean, quartiles, min and max of a histogram given as (value, count) pairs."""
    total = sum(c for _, c in pairs)
    if total == 0:
        return {"n": 0, "mean": None, "min": None, "q1": None, "median": None, "q3": None, "max": None}

    def quantile(q: float) -> int:
        # The smallest value whose cumulative count reaches q of the total (nearest rank).
        rank = max(1, math.ceil(q * total))
        seen = 0
        for value, count in pairs:
            seen += count
            if seen >= rank:
                return value
        return pairs[-1][0]

    mean = sum(v * c for v, c in pairs) / total
    return {
        "n": total,
        "mean": _round(mean, 6),
        "min": pairs[0][0],
        "q1": quantile(0.25),
        "median": quantile(0.5),
        "q3": quantile(0.75),
        "max": pairs[-1][0],
    }


# ----- paired outcomes of balance experiments -------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """A per-deal outcome that balance pairs, and how to report it."""

    key: str
    label: str
    scale: float
    """Per-deal sum -> reported unit (1 / games or players per deal)."""



def pair_tally(base: dict[str, np.ndarray], variant: dict[str, np.ndarray], keys: list[str]) -> Tally:
    """Sums of the per-deal differences (variant - base) and their squares, per metric."""
    t = Tally()
    for key in keys:
        d = variant[key] - base[key]
        t.add(f"n.{key}", d.shape[0])
        t.add(f"d.{key}", d.sum())
        t.add(f"d2.{key}", (d * d).sum())
        t.add(f"base.{key}", base[key].sum())
        t.add(f"base2.{key}", (base[key] * base[key]).sum())
        t.add(f"var.{key}", variant[key].sum())
        t.add(f"var2.{key}", (variant[key] * variant[key]).sum())
    return t


# ----- text of intervals (terminal tables and reports) -----------------------------------------


def pct(iv: dict | None) -> str:
    """A proportion with its interval: `47.0% [40.2, 53.9]`."""
    if not iv or iv.get("estimate") is None:
        return "n/a"
    text = f"{100 * iv['estimate']:.1f}%"
    if iv.get("low") is not None:
        text += f" [{100 * iv['low']:.1f}, {100 * iv['high']:.1f}]"
    return text


def num(iv: dict | None, digits: int = 2) -> str:
    """A mean with its interval: `-12.30 [-13.99, -10.60]`."""
    if not iv or iv.get("estimate") is None:
        return "n/a"
    text = f"{iv['estimate']:.{digits}f}"
    if iv.get("low") is not None:
        text += f" [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]"
    return text
