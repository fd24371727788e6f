"""`patchwork price`: the fair price of one patch, from games where only its price differs.

The patch's cost (or, with `--over`, its time or income) is set to each value of a range, and
every value is played on the same deal seeds as a reference edition in which the patch is priced
out of reach (cost REFERENCE_COST, which no player can afford, so it is never bought).

Buyer's advantage at a value: over the games in which somebody bought the patch, the buyer's
final margin (own score minus the opponent's) minus the margin of the same seat in the same deal
and seat order of the reference games; its win-rate twin is the buyer's win minus the same seat's
win in the reference game. Games are paired by deal, and the deal is the sampling unit: the
estimate is the ratio (sum of the deals' advantages) / (number of purchases), its standard error
the cluster (delta-method) one.

The model of the curve is monotone: the advantage can only fall as the patch gets dearer, so the
per-value advantages (weighted by their purchases) are fitted by the closest non-increasing
sequence (isotonic regression), not by a straight line, which a plateau near 0 at high values
(the bot then buys only when the patch is worth it) would tilt towards wherever the range ends.
The fair value is where the fitted curve crosses 0, interpolated between the two neighbouring
values. Its 95% interval covers two kinds of uncertainty: the deals' (the fit is redone on
BOOTSTRAP resamples of the deals, seeded from --seed) and the model's (between two swept values
any monotone curve could cross, so each resample contributes the whole gap between the values
around its crossing, and the interval runs from the 2.5th percentile of the gaps' lower ends to
the 97.5th of their upper ends). When the fitted advantage never turns negative (or is never
positive) the crossing is not bracketed: no estimate is made and the result says which values to
try; when some resamples do not bracket it, that end of the interval is open.

Bias, stated in every result: the bots choose when to buy, so the advantage is measured in the
positions where a bot of this strength found the patch worth buying (selection), not at a random
moment; and the reference game drifts away from the priced game after the purchase, so the
comparison is of whole games that share only their deal. The estimate is the price at which this
bot pair is indifferent, which is what a designer asks, but a stronger bot may disagree. A value
never bought gives no advantage and is left out of the fit.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolkit.errors import UsageError
from toolkit.bots.registry import BotSpec
from toolkit.sim.botspec import games_per_deal
from toolkit.stats import Z95, wilson
from toolkit.families import family_of, require
from toolkit.specs.models import Edition
from toolkit.workbench import setpath

# The simulator's modules (toolkit.workbench.runner, .advantage, toolkit.games.rng) load numba; they
# are imported where games are played or summed, so `check` can refuse options before numba loads.
if TYPE_CHECKING:  # numpy too loads where figures are computed, so check() refuses options without it
    import numpy as np

    from toolkit.workbench import runner
    from toolkit.workbench.advantage import Advantage

REFERENCE_COST = 999
"""The cost that puts a patch out of reach (the schema's largest cost)."""
BOOTSTRAP = 400
OVER = ("cost", "time", "income")
MODEL = (
    "monotone: purchase-weighted isotonic (non-increasing) fit of the advantage against the value; "
    "fair value = its crossing of 0, interpolated between neighbouring values; interval = from the "
    f"2.5th percentile of the lower to the 97.5th percentile of the upper neighbouring value around "
    f"the crossing over {BOOTSTRAP} bootstrap resamples of the deals (sampling and model uncertainty)"
)
ESTIMATOR = (
    "buyer's advantage = mean over the games where the patch was bought of (buyer's margin) minus "
    "(same seat's margin in the same deal and seat order with the patch priced out of reach); "
    "deals are the sampling unit (ratio estimator, cluster standard error); fair value: " + MODEL
)
BIAS = (
    "the bots choose when to buy, so the advantage is measured where a bot of this strength buys "
    "the patch (selection) and the price is the one at which this bot pair is indifferent; the "
    "priced and the reference game share only the deal, so the estimate carries the whole game's "
    "noise; values never bought are left out of the fit; a crossing outside the swept range is not "
    "estimated (the result names the values to try)"
)


@dataclass(frozen=True)
class PriceRequest:
    edition: Edition
    patch_id: str
    over: str
    values: tuple[int, ...]
    bots: tuple[BotSpec, ...]
    deals: int
    seed: int

    @property
    def games(self) -> int:
        return self.deals * games_per_deal(self.bots, self.edition)


def check(edition: Edition, patch_id: str, over: str, values_text: str) -> tuple[int, ...]:
    require(edition, "prices_patches", "price")
    # Checked here rather than left to setpath.find_key, whose message speaks of `--set`, an option of sweep.
    if patch_id not in [p.id for p in edition.all_patches()]:
        raise UsageError(f"PATCH '{patch_id[:40]}' is not a patch of '{edition.name}' "
                         f"(patches: {setpath.patch_ids_text(edition)})")
    if over not in OVER:
        raise UsageError(f"--over '{over}': expected one of {', '.join(OVER)}")
    key, _ = setpath.find_key(f"patches.{patch_id}.{over}", edition)
    values = tuple(setpath.parse_values(values_text, key, "--values"))
    if len(values) < 2:
        raise UsageError("--values: a price curve needs at least 2 values, e.g. 0..8")
    if over == "cost" and REFERENCE_COST in values:
        raise UsageError(f"--values: cost {REFERENCE_COST} is the out-of-reach reference itself")
    return values


def editions(request: PriceRequest) -> tuple[Edition, ...]:
    """(reference, one edition per value)."""
    path = f"patches.{request.patch_id}"
    reference = setpath.apply(request.edition, f"{path}.cost", REFERENCE_COST)
    return (reference, *(setpath.apply(request.edition, f"{path}.{request.over}", v) for v in request.values))


# ----- the estimator --------------------------------------------------------------------------


def ratio(y: np.ndarray, x: np.ndarray) -> dict:
    """Ratio estimate sum(y)/sum(x) over clusters, with its delta-method 95% interval."""
    n, total = y.shape[0], int(x.sum())
    if total == 0:
        return {"estimate": None, "low": None, "high": None, "n": 0}
    r = float(y.sum()) / total
    if n < 2:
        return {"estimate": round(r, 6), "low": None, "high": None, "n": total}
    resid = y - r * x
    se = math.sqrt(n / (n - 1) * float((resid * resid).sum())) / total
    return {"estimate": round(r, 6) + 0.0, "low": round(r - Z95 * se, 6) + 0.0, "high": round(r + Z95 * se, 6) + 0.0, "n": total}


def fit_line(values: np.ndarray, advantages: np.ndarray, weights: np.ndarray) -> tuple[float, float] | None:
    """Weighted least squares `advantage = a + b * value`; None when it cannot be fitted."""
    keep = weights > 0
    if keep.sum() < 2:
        return None
    v, a, w = values[keep], advantages[keep], weights[keep]
    mv, ma = (w * v).sum() / w.sum(), (w * a).sum() / w.sum()
    sxx = (w * (v - mv) ** 2).sum()
    if sxx == 0:
        return None
    b = (w * (v - mv) * (a - ma)).sum() / sxx
    return float(ma - b * mv), float(b)


def crossing(line: tuple[float, float] | None) -> float | None:
    """The value where the line crosses 0 (None for a flat line)."""
    if line is None or line[1] == 0:
        return None
    return -line[0] / line[1]


def isotonic(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted least-squares fit of `values` (in order) by a non-increasing sequence: the
    pool-adjacent-violators algorithm. Entries of weight 0 take their block's value."""
    import numpy as np

    blocks: list[list[float]] = []  # [mean, weight, length]
    for y, w in zip(values.astype(float), weights.astype(float)):
        blocks.append([y, w, 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            y2, w2, n2 = blocks.pop()
            y1, w1, n1 = blocks[-1]
            total = w1 + w2
            blocks[-1] = [(y1 * w1 + y2 * w2) / total if total > 0 else (y1 + y2) / 2, total, n1 + n2]
    return np.array([b[0] for b in blocks for _ in range(b[2])], dtype=float)


def bracket(values: np.ndarray, fitted: np.ndarray) -> tuple[float, float, float]:
    """(estimate, lowest, highest) fair value of a non-increasing fitted curve at `values`:
    `lowest`/`highest` are the neighbouring values between which every monotone curve through
    the fitted points crosses 0, `estimate` the linear interpolation between them. -inf / +inf
    stand for "below the smallest value" / "above the largest" (the estimate is then that end)."""
    import numpy as np

    below = np.nonzero(fitted < 0)[0]
    first_neg = int(below[0]) if below.size else len(values)
    nonpos = np.nonzero(fitted <= 0)[0]
    first_nonpos = int(nonpos[0]) if nonpos.size else len(values)
    if first_neg == 0:
        return -math.inf, -math.inf, float(values[0])
    if first_nonpos == len(values):
        return math.inf, float(values[-1]), math.inf
    high = float(values[first_neg]) if first_neg < len(values) else math.inf
    if fitted[first_nonpos] == 0:  # a plateau at exactly 0: the middle of it
        last_zero = first_neg - 1
        estimate = (float(values[first_nonpos]) + float(values[last_zero])) / 2
        low = float(values[first_nonpos - 1]) if first_nonpos > 0 else float(values[first_nonpos])
        return estimate, low, high if math.isfinite(high) else float(values[last_zero])
    i = first_nonpos - 1
    v0, v1, a0, a1 = float(values[i]), float(values[first_nonpos]), fitted[i], fitted[first_nonpos]
    return v0 + (v1 - v0) * a0 / (a0 - a1), v0, v1


def suggestion(values: np.ndarray, side: str, over: str = "cost") -> int:
    """The values to try next when the crossing is not bracketed: the range doubled on that side."""
    span = int(values.max() - values.min()) or 1
    if side == "above":
        return int(values.max()) + max(span, 2)
    return max(0, int(values.min()) - max(span, 2))


def fair_value(values: np.ndarray, per_value: list[Advantage], seed: int, resamples: int = BOOTSTRAP) -> dict:
    """The fair value: where the monotone (non-increasing) fit of the advantage against the value
    crosses 0, and an interval covering both the deals' sampling noise and the model's freedom
    between the swept values (see MODEL)."""
    import numpy as np

    bought = np.stack([a.bought for a in per_value])  # (values, deals)
    margin = np.stack([a.margin for a in per_value])
    counts = bought.sum(axis=1).astype(float)
    keep = counts > 0
    xs = values.astype(float)[keep]
    rnd = lambda x: None if x is None or not math.isfinite(x) else round(x, 4) + 0.0  # noqa: E731
    if keep.sum() == 0:
        return {"estimate": None, "low": None, "high": None, "status": "never bought", "fitted": [],
                "try": None, "inside_range": False, "resamples_used": 0, "model": MODEL}

    def fit(b: np.ndarray, m: np.ndarray) -> np.ndarray:
        c = b.sum(axis=1).astype(float)
        adv = np.where(c > 0, m.sum(axis=1) / np.maximum(c, 1), 0.0)
        return isotonic(adv[keep], c[keep])

    fitted = fit(bought, margin)
    point, lowest, highest = bracket(xs, fitted)
    deals = bought.shape[1]
    from toolkit.games.rng import derive_seed

    rng = np.random.Generator(np.random.PCG64(derive_seed(seed, 2**31 - 7)))
    lows, highs = [], []
    for _ in range(resamples):
        idx = rng.integers(0, deals, deals)
        _, lo, hi = bracket(xs, fit(bought[:, idx], margin[:, idx]))
        lows.append(lo)
        highs.append(hi)
    low = min(float(np.percentile(np.array(lows), 2.5, method="lower")), lowest)
    high = max(float(np.percentile(np.array(highs), 97.5, method="higher")), highest)
    if math.isinf(point):
        status = "above" if point > 0 else "below"
    elif math.isinf(high) or math.isinf(low):
        status = "open"
    else:
        status = "bracketed"
    side = "above" if math.isinf(high) else "below" if math.isinf(low) else None
    return {
        "estimate": rnd(point),
        "low": rnd(low),
        "high": rnd(high),
        "status": status,
        "try": None if side is None else {"side": side, "value": suggestion(values, side)},
        "fitted": [{"value": int(v), "advantage": rnd(float(a))} for v, a in zip(values[keep], fitted)],
        "inside_range": status == "bracketed",
        "resamples_used": resamples,
        "model": MODEL,
    }


FIRST_LOOK = 200
"""Deals before a `--width` run first looks at the fair value's interval."""


def run(request: PriceRequest, workers: int, scheduler: str | None,
        progress: Callable[[int], None] | None = None, width: float | None = None) -> tuple[dict, runner.Played]:
    """Play the reference and every value on the same deals; the `values`/`fair` part of the result.

    With `width`, deals are played in growing batches (as the sequential tests do) and play stops at
    the first look where the fair value's 95% interval is no wider than `width`; `request.deals`
    is then the most to play, and `body["stopping"]` says where and whether the width was reached.
    """
    from toolkit.workbench import runner

    eds = editions(request)
    if width is None:
        played = runner.play(eds, request.bots, request.seed, 0, request.deals, workers, scheduler,
                             watch=request.patch_id, progress=progress)
        return summarise(request, played), played
    parts = []
    for start, stop in runner.batches(min(FIRST_LOOK, request.deals), request.deals):
        parts.append(runner.play(eds, request.bots, request.seed, start, stop, workers, scheduler,
                                 watch=request.patch_id, progress=progress))
        played = runner.combine(parts)
        body = summarise(request, played)
        fair = body["fair"]
        reached = fair["low"] is not None and fair["high"] is not None and fair["high"] - fair["low"] <= width
        if reached:
            break
    body["stopping"] = {"width": width, "reached": reached, "games": played.games,
                        "rule": f"looks after {min(FIRST_LOOK, request.deals)} deals, then batches growing by half; "
                                "stop at the first look where the fair value's 95% interval is no wider than the width"}
    return body, played


def summarise(request: PriceRequest, played: runner.Played) -> dict:
    import numpy as np

    from toolkit.workbench.advantage import advantage_by_deal

    reference = played.per_game[0]
    if int((reference.buy_seat >= 0).sum()):
        raise UsageError(f"price: {request.patch_id} was bought at cost {REFERENCE_COST}; the out-of-reach reference failed")
    rows, per_value = [], []
    for k, value in enumerate(request.values, start=1):
        games = played.per_game[k]
        adv = advantage_by_deal(games, reference, played.per_deal)
        per_value.append(adv)
        n_bought = int(adv.bought.sum())
        tally = played.tallies[k]
        index = [p.id for p in request.edition.all_patches()].index(request.patch_id)
        edition = setpath.apply(request.edition, f"patches.{request.patch_id}.{request.over}", value)
        family = family_of(edition)
        figures = family.figures(tally, edition, family.seating(tuple(request.bots), edition, ""))
        patch_row = figures["patches"][index]
        rows.append({
            "value": value,
            "buy_rate": wilson(n_bought, played.games).as_dict(),
            "bought": n_bought,
            "mean_ply": patch_row["mean_ply"],
            "by_bot": patch_row["by_bot"],
            "advantage": ratio(adv.margin, adv.bought),
            "win_advantage": ratio(adv.win, adv.bought),
            "buyer_win_rate": patch_row["buyer_win_rate"],
        })
    fair = fair_value(np.array(request.values), per_value, request.seed)
    return {"values": rows, "fair": fair}


def _span(fair: dict) -> tuple[float, float] | None:
    """The fair value's interval as numbers (open ends infinite); None when there is no value."""
    if fair["status"] == "never bought":
        return None
    low = -math.inf if fair["low"] is None else fair["low"]
    high = math.inf if fair["high"] is None else fair["high"]
    return low, high


def agreement(tiers: list[dict]) -> list[dict]:
    """Every pair of bot tiers: do their fair values' intervals overlap? Tiers that disagree beyond
    their intervals price the patch differently for players of those strengths."""
    out = []
    for i, a in enumerate(tiers):
        for b in tiers[i + 1:]:
            sa, sb = _span(a["fair"]), _span(b["fair"])
            if sa is None or sb is None:
                verdict = "unknown"
            else:
                verdict = "agree" if max(sa[0], sb[0]) <= min(sa[1], sb[1]) else "disagree"
            out.append({"tiers": [a["bots"], b["bots"]], "verdict": verdict,
                        "rule": "disagree when the two 95% intervals do not overlap"})
    return out
