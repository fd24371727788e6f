"""`patchwork price`: the cost to print on a patch, from games where only its price differs.

The patch's cost (or, with `--over`, its time or income) is set to each value, and every value is
played on the same deal seeds as a reference edition in which the patch is priced out of reach
(cost REFERENCE_COST, which no player can afford, so it is never bought).

Buyer's advantage at a value: over the games in which somebody bought the patch, the buyer's
final margin (own score minus the opponent's) minus the margin of the same seat in the same deal
and seat order of the reference games; its win-rate twin is the buyer's win minus the same seat's
win in the reference game. The deal is the sampling unit (its seat-swapped games are one
cluster): the estimate is the ratio (sum of the deals' advantages) / (number of purchases), its
standard error the cluster (delta-method) one, and the bootstrap below resamples deals.

The fair value is where the advantage falls through 0 as the patch gets dearer (rises through 0
as it gets richer, with `--over income`). The curve need not be monotone: a selective bot buys a
dear patch only when it pays, so past the crossing the advantage flattens near 0 and may rise
again, and a rise through 0 is no price. So the crossing is found in three steps:

1. Signs. Each value's advantage is tested against 0 at the level of a look (below): positive
   (`+`), negative (`-`) or not told from 0 (`0`); a value bought fewer than MIN_PURCHASES times
   is not tested.
2. Windows. A crossing lies after the last `+` of a run of `+`: up to the first `-` that follows,
   or, when the advantage turns positive again (or the values end) before any `-`, up to the
   value with the lowest advantage in between if that is below 0 (the curve reaches 0 and
   flattens there); with no such value the window is open above. A `-` before any `+` opens a
   window below it. Each further window closed by a `-` is a further crossing: several crossings
   are reported as such, and the first (the lowest cost at which buying stops paying) is the one
   to print.
3. Inside its window the curve is modelled as monotone: the purchase-weighted isotonic
   (non-increasing) fit, whose zero, interpolated between neighbouring values, is the estimate
   (where the fit levels off above 0 but within TOLERANCE of it, where it levels off).
   Every whole value inside a window is played (the run adds the missing ones), so the answer
   does not depend on the step of `--values`; a buyer who still gains at the largest value (or
   already loses at the smallest) adds values beyond it, so it does not depend on the range.

The interval redoes step 3 on BOOTSTRAP resamples of the deals (seeded from --seed) and takes
percentiles; an end beyond a window end that a significant sign closes is clipped to it, and a
resample whose fit does not cross leaves that end open. The price to print is the whole value
nearest the estimate; it is *decided* when the interval lies within WITHIN button of it.

Looks. By default deals are played in at most MAX_LOOKS looks (FIRST_LOOK deals, then growing
geometrically, at least doubling, to the cap), only the values of the windows are played further,
and play stops at the first look at which the price is decided. Every look's tests and interval are at the level alpha / looks (Bonferroni over the
looks the cap allows), so the chance that the reported interval misses, whenever play stops, is
at most alpha. A fixed `--games` run is one look at alpha and says how many more games would
decide it.

Bias, stated in every result: the bots choose when to buy, so the advantage is measured in the
positions where a bot of this strength found the patch worth buying (selection), not at a random
moment; and the reference game drifts away from the priced game after the purchase, so the
comparison is of whole games that share only their deal. The estimate is the price at which this
bot pair is indifferent, which is what a designer asks, but a stronger bot may disagree.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

from toolkit.errors import UsageError
from toolkit.families import Seating, family_of, require
from toolkit.specs.models import Edition
from toolkit.workbench import setpath

# The simulator's modules (toolkit.workbench.runner, .advantage, toolkit.games.rng) load numba; they
# are imported where games are played or summed, so `check` can refuse options before numba loads.
if TYPE_CHECKING:  # numpy too loads where figures are computed, so check() refuses options without it
    import numpy as np

    from toolkit.sim.shards import Games
    from toolkit.stats import Tally
    from toolkit.workbench.advantage import Advantage

REFERENCE_COST = 999
"""The cost that puts a patch out of reach (the schema's largest cost)."""
OVER = ("cost", "time", "income")
RICHER = {"cost": False, "time": False, "income": True}
"""Whether a larger value makes the patch better for its buyer (the advantage then rises with it)."""
ALPHA = 0.05
"""Chance that the reported interval misses the fair value, over all the looks of a run."""
WITHIN = 1
"""A price is decided when the fair value's interval lies within this many buttons of it."""
BOOTSTRAP = 2000
"""Resamples of the deals behind an interval (enough for the tails of a Bonferroni level)."""
TOLERANCE = 0.5
"""Points of the buyer's margin that count as no advantage where the curve levels off: past its
crossing a selective bot buys a dear patch only when it pays, so the advantage can settle just
above 0 for good; half a point is less than the button by which a price moves."""
MIN_PURCHASES = 30
"""Fewer purchases at a value and its advantage's sign is not tested."""
FIRST_LOOK = 250
"""Deals of the first look."""
MAX_LOOKS = 5
"""Most looks of a run: the later ones grow geometrically (at least doubling) up to the cap."""
MAX_GAMES = 20000
"""Default cap of a run that plays until the price is decided: games per value (as `balance`)."""
MAX_EXTENSIONS = 3
"""Times a run may widen the range (each doubles it) to find a crossing beyond it."""

MODEL = (
    "signs of each value's advantage (two-sided tests at the look's level); the crossing's window runs "
    "from the last significantly positive value to the first significantly negative one after it (or to "
    "the lowest advantage below 0 before it rises again); inside it a purchase-weighted isotonic fit, "
    "whose zero interpolated between neighbouring whole values is the fair value (where the fit levels off "
    f"above 0 within {TOLERANCE:g} points, where it levels off); interval: percentiles "
    f"of that zero over {BOOTSTRAP} bootstrap resamples of the deals at the look's level (Bonferroni over looks)"
)
ESTIMATOR = (
    "buyer's advantage = mean over the games where the patch was bought of (buyer's margin) minus "
    "(same seat's margin in the same deal and seat order with the patch priced out of reach); "
    "deals are the sampling unit (ratio estimator, cluster standard error, bootstrap over deals); fair value: " + MODEL
)
BIAS = (
    "the bots choose when to buy, so the advantage is measured where a bot of this strength buys "
    "the patch (selection) and the price is the one at which this bot pair is indifferent; the "
    "priced and the reference game share only the deal, so the estimate carries the whole game's "
    "noise; past the crossing a selective bot buys only when it pays, so the advantage there stays "
    "near 0 or rises again, which is no price"
)


@dataclass(frozen=True)
class PriceRequest:
    edition: Edition
    patch_id: str
    over: str
    values: tuple[int, ...]
    seating: Seating
    """The bots as seated from the `--bots` text (toolkit.sim.botspec.seat_bots)."""
    deals: int
    """Deals per value: all of them with `fixed`, else the most a run plays (its cap)."""
    seed: int
    fixed: bool = False
    """Play exactly `deals` deals a value in one look (no early stop)."""
    width: float | None = None
    """Stop at the first look where the interval is no wider than this, instead of at a decided price."""

    @property
    def games(self) -> int:
        return self.deals * self.seating.games_per_deal

    @property
    def looks(self) -> list[int]:
        """Deals played by each look (cumulative): at most MAX_LOOKS, growing geometrically (at
        least doubling) from FIRST_LOOK deals to the cap."""
        first = min(FIRST_LOOK, self.deals)
        if self.fixed or first == self.deals:
            return [self.deals]
        ratio = max(2.0, (self.deals / first) ** (1 / (MAX_LOOKS - 1)))
        out: list[int] = []
        for k in range(MAX_LOOKS):
            n = min(self.deals, round(first * ratio ** k))
            if n >= self.deals or k == MAX_LOOKS - 1:
                return [*out, self.deals]
            out.append(n)
        return out


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
    return tuple(sorted(values))


def bounds(edition: Edition, patch_id: str, over: str) -> tuple[int, int]:
    """The values the stat can take (a cost stops below the out-of-reach reference)."""
    key, _ = setpath.find_key(f"patches.{patch_id}.{over}", edition)
    high = min(key.high, REFERENCE_COST - 1) if over == "cost" else key.high
    return int(key.low), int(high)


def reference(request: PriceRequest) -> Edition:
    return setpath.apply(request.edition, f"patches.{request.patch_id}.cost", REFERENCE_COST)


def at(request: PriceRequest, value: int) -> Edition:
    return setpath.apply(request.edition, f"patches.{request.patch_id}.{request.over}", value)


# ----- the estimator --------------------------------------------------------------------------


def ratio(y: np.ndarray, x: np.ndarray, z: float | None = None) -> dict:
    """Ratio estimate sum(y)/sum(x) over clusters, with its delta-method interval (95% unless `z`)
    and standard error."""
    from toolkit.stats import Z95

    z = Z95 if z is None else z
    n, total = y.shape[0], int(x.sum())
    if total == 0:
        return {"estimate": None, "low": None, "high": None, "se": None, "n": 0}
    r = float(y.sum()) / total
    if n < 2:
        return {"estimate": round(r, 6) + 0.0, "low": None, "high": None, "se": None, "n": total}
    resid = y - r * x
    se = math.sqrt(n / (n - 1) * float((resid * resid).sum())) / total
    return {"estimate": round(r, 6) + 0.0, "low": round(r - z * se, 6) + 0.0, "high": round(r + z * se, 6) + 0.0,
            "se": round(se, 6) + 0.0, "n": total}


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
    return np.array([b[0] for b in blocks for _ in range(int(b[2]))], dtype=float)


def zero(values: np.ndarray, fitted: np.ndarray) -> float:
    """Where a non-increasing fitted curve at `values` reaches 0, interpolated linearly between
    neighbouring values (the middle of a plateau at exactly 0); -inf / +inf when it is below 0 at
    the first value / above 0 at the last."""
    import numpy as np

    nonpos = np.nonzero(fitted <= 0)[0]
    if not nonpos.size:
        return math.inf
    j = int(nonpos[0])
    if j == 0:
        return -math.inf if fitted[0] < 0 else float(values[0])
    if fitted[j] == 0:
        last = j
        while last + 1 < len(values) and fitted[last + 1] == 0:
            last += 1
        return (float(values[j]) + float(values[last])) / 2
    v0, v1, a0, a1 = float(values[j - 1]), float(values[j]), float(fitted[j - 1]), float(fitted[j])
    return v0 + (v1 - v0) * a0 / (a0 - a1)


def settles(values: np.ndarray, fitted: np.ndarray) -> float:
    """The fair value of a non-increasing fitted curve: its zero (see `zero`), or, when from some
    value on it stays within TOLERANCE of 0 to the end, that value if it comes first."""
    found = zero(values, fitted)
    if fitted[-1] >= -TOLERANCE:
        inside = [k for k in range(len(fitted)) if fitted[k] <= TOLERANCE]
        if inside:
            return min(found, float(values[inside[0]]))
    return found


@dataclass(frozen=True)
class Window:
    """Where one crossing lies: between two swept values (indices into the values)."""

    first: int
    last: int
    low_closed: bool
    """The value at `first` is significantly positive: the crossing lies above it."""
    high_closed: bool
    """The value at `last` is significantly negative: the crossing lies below it."""
    how: str
    """"negative" (closed by a significantly negative value), "lowest" (by the lowest advantage below
    0 before the curve rises again), "open" (no value above shows the crossing), "below" (a negative
    value with no positive one before it)."""


def windows(signs: list[str], estimates: list[float | None]) -> list[Window]:
    """The crossings' windows from each value's sign and (oriented) estimate, first the lowest.
    Every window after the first is closed by a significantly negative value."""
    n = len(signs)
    out: list[Window] = []
    told = [i for i in range(n) if signs[i] in "+-"]
    if not told:
        return out
    i = told[0]
    if signs[i] == "-":
        out.append(Window(0, i, False, True, "below"))
    while True:
        plus = next((k for k in range(i, n) if signs[k] == "+"), None)
        if plus is None:
            return out
        last_plus, j = plus, plus + 1
        while j < n:
            if signs[j] == "-":
                out.append(Window(last_plus, j, True, True, "negative"))
                break
            if signs[j] == "+":
                dip = _lowest(estimates, signs, last_plus + 1, j)
                if dip is not None and not out:
                    out.append(Window(last_plus, dip, True, False, "lowest"))
                    break
                last_plus = j
            j += 1
        else:
            if not out:
                dip = _lowest(estimates, signs, last_plus + 1, n)
                if dip is not None:
                    out.append(Window(last_plus, dip, True, False, "lowest"))
                else:
                    out.append(Window(last_plus, n - 1, True, False, "open"))
            return out
        i = j


def _lowest(estimates: list[float | None], signs: list[str], start: int, stop: int) -> int | None:
    """The index in start..stop-1 of the lowest estimate below 0 among tested values, if any."""
    best, lowest = None, 0.0
    for k in range(start, stop):
        estimate = estimates[k]
        if signs[k] == "0" and estimate is not None and estimate < 0:
            if best is None or estimate < lowest:
                best, lowest = k, estimate
    return best


def level_z(alpha: float) -> float:
    """Two-sided normal quantile of a level."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def fair_value(values: np.ndarray, per_value: list[Advantage], seed: int, over: str = "cost",
               alpha: float = ALPHA, resamples: int = BOOTSTRAP, span: tuple[int, int] = (0, REFERENCE_COST - 1),
               looks: int = 1) -> dict:
    """The fair value of a swept stat and the price to print, from each value's per-deal purchases
    and advantages (arrays over the same deals; a deal a value did not play counts 0 and 0).

    `alpha` is the level of this look (the run's level over its looks), `span` the values the stat
    can take, `looks` the looks the run allows (reported). The result's private key `_window`
    (the values of the first crossing's window, or every value while none is found) tells the run
    which values to play on."""
    import numpy as np

    sign = -1.0 if RICHER[over] else 1.0  # oriented: the advantage falls as the value rises
    bought = np.stack([a.bought for a in per_value]).astype(float)  # (values, deals)
    margin = sign * np.stack([a.margin for a in per_value]).astype(float)
    counts = bought.sum(axis=1)
    z = level_z(alpha)
    level = {"level": round(1 - alpha * looks, 6), "looks": looks, "alpha_per_look": round(alpha, 6),
             "decided": f"the interval lies within {WITHIN} button of the price to print"}
    base: dict[str, Any] = {"estimate": None, "low": None, "high": None, "print": None, "decided": False, "within": WITHIN,
            "crossings": [], "signs": [], "fitted": [], "try": None, "inside_range": False,
            "resamples_used": 0, "confidence": level, "model": MODEL, "_window": None}
    if counts.sum() == 0:
        return {**base, "status": "never bought"}
    estimates, signs = [], []
    for k in range(len(values)):
        r = ratio(margin[k], bought[k], z)
        est = r["estimate"]
        estimates.append(est)
        if counts[k] == 0:
            signs.append("none")
        elif counts[k] < MIN_PURCHASES or r["low"] is None:
            signs.append("few")
        else:
            signs.append("+" if r["low"] > 0 else "-" if r["high"] < 0 else "0")
    base["signs"] = [{"value": int(v), "sign": s if s in ("none", "few") else
                      {"+": "gains", "-": "loses", "0": "unclear"}[s]} for v, s in zip(values, signs)]
    found = windows(signs, estimates)
    if not found:
        return {**base, "status": "undecided", "_window": [int(v) for v in values]}
    rng = np.random.Generator(np.random.PCG64(_bootstrap_seed(seed)))
    crossings = []
    for w in found:
        crossings.append(_crossing(values, bought, margin, w, rng, resamples, alpha))
    first = crossings[0]
    w = found[0]
    estimate, low, high = first["estimate"], first["low"], first["high"]
    if estimate is None:
        status = "below" if w.how == "below" else "above"
    elif len(crossings) > 1:
        status = "several"
    elif low is None or high is None:
        status = "open"
    else:
        status = "bracketed"
    price = None if estimate is None else min(max(int(math.floor(estimate + 0.5)), span[0]), span[1])
    decided = (price is not None and low is not None and high is not None
               and low >= price - WITHIN and high <= price + WITHIN)
    side = None
    if status == "above" or (status == "open" and high is None):
        side = "above"
    elif status == "below" or (status == "open" and low is None):
        side = "below"
    tried = None
    if side is not None:
        tried = {"side": side, "value": suggestion(values, side, span)}
    return {
        **base,
        "estimate": estimate,
        "low": low,
        "high": high,
        "print": price,
        "decided": bool(decided),
        "status": status,
        "crossings": [{k: c[k] for k in ("estimate", "low", "high", "between", "closed_by")} for c in crossings],
        "fitted": first["fitted"],
        "try": tried,
        "inside_range": status == "bracketed",
        "resamples_used": resamples,
        "_window": [int(values[k]) for k in range(w.first, w.last + 1)],
    }


def _bootstrap_seed(seed: int) -> int:
    from toolkit.games.rng import derive_seed

    return derive_seed(seed, 2**31 - 7)


def _crossing(values: np.ndarray, bought: np.ndarray, margin: np.ndarray, w: Window, rng, resamples: int,
              alpha: float) -> dict:
    """The zero of the isotonic fit on one window and its bootstrap interval (see the module)."""
    import numpy as np

    rows = slice(w.first, w.last + 1)
    xs, b, m = values[rows].astype(float), bought[rows], margin[rows]
    c = b.sum(axis=1)
    keep = c > 0
    xs, b, m, c = xs[keep], b[keep], m[keep], c[keep]

    def cross(bs: np.ndarray, ms: np.ndarray) -> float:
        cs = bs
        adv = np.where(cs > 0, ms / np.maximum(cs, 1), 0.0)
        return settles(xs, isotonic(adv, cs))

    fitted = isotonic(m.sum(axis=1) / c, c)
    point = settles(xs, fitted)
    deals = b.shape[1]
    found = np.empty(resamples)
    chunk = max(1, min(resamples, 2_000_000 // max(1, deals * len(xs))))
    done = 0
    while done < resamples:
        size = min(chunk, resamples - done)
        idx = rng.integers(0, deals, (size, deals))
        bs, ms = b[:, idx].sum(axis=2), m[:, idx].sum(axis=2)  # (values, size)
        for r in range(size):
            found[done + r] = cross(bs[:, r], ms[:, r])
        done += size
    lo_edge, hi_edge = float(values[w.first]), float(values[w.last])
    if w.low_closed:
        found = np.maximum(found, lo_edge)
        point = max(point, lo_edge)
    if w.high_closed:
        found = np.minimum(found, hi_edge)
        point = min(point, hi_edge)
    low = float(np.percentile(found, 100 * alpha / 2, method="lower"))
    high = float(np.percentile(found, 100 * (1 - alpha / 2), method="higher"))
    rnd = lambda x: None if not math.isfinite(x) else round(x, 4) + 0.0  # noqa: E731
    return {"estimate": rnd(point), "low": rnd(low), "high": rnd(high),
            "between": [int(values[w.first]), int(values[w.last])], "closed_by": w.how,
            "fitted": [{"value": int(v), "advantage": rnd(float(a))} for v, a in zip(xs, fitted)]}


def suggestion(values: np.ndarray, side: str, span: tuple[int, int] = (0, REFERENCE_COST - 1)) -> int:
    """The values to try next when the crossing lies beyond the range: the range doubled on that side."""
    width = int(values.max() - values.min()) or 1
    if side == "above":
        return min(int(values.max()) + max(width, 2), span[1])
    return max(span[0], int(values.min()) - max(width, 2))


def more_games(fair: dict, games: int) -> int | None:
    """About how many more games a value would decide the price, were the interval to shrink as
    1/sqrt(games) around its estimate; None when it has no finite interval or is decided."""
    est, low, high, price = fair["estimate"], fair["low"], fair["high"], fair["print"]
    if fair["decided"] or est is None or low is None or high is None or price is None:
        return None
    factor = 1.0
    if high > price + WITHIN:
        room = price + WITHIN - est
        factor = max(factor, (high - est) / room if room > 0 else math.inf)
    if low < price - WITHIN:
        room = est - (price - WITHIN)
        factor = max(factor, (est - low) / room if room > 0 else math.inf)
    if not math.isfinite(factor):
        return None
    return int(math.ceil(games * (factor * factor - 1) / 100.0)) * 100


# ----- playing ---------------------------------------------------------------------------------


@dataclass
class _Played:
    """One value's (or the reference's) games so far: deals 0..deals, in deal order."""

    edition: Edition
    deals: int = 0
    parts: list = field(default_factory=list)
    tally: Tally | None = None

    def games(self) -> Games:
        from toolkit.sim.shards import Games

        return Games.concat(self.parts)


class Plays:
    """Everything a price run has played: the reference on deals 0..n and each value on its own
    deals 0..n_v <= n (values join a run late and leave it once their sign is known)."""

    def __init__(self, request: PriceRequest, workers: int, scheduler: str | None,
                 progress: Callable[[int], None] | None):
        self.request, self.workers, self.scheduler, self.progress = request, workers, scheduler, progress
        self.reference = _Played(reference(request))
        self.values: dict[int, _Played] = {}
        self.per_deal = request.seating.games_per_deal

    def add(self, values) -> None:
        for v in values:
            if v not in self.values:
                self.values[v] = _Played(at(self.request, v))

    def play(self, values, upto: int) -> None:
        """Play every named value (and the reference) up to deal `upto`, each from where it stands."""
        from toolkit.workbench import runner

        starts: dict[int, list[int]] = {}
        for v in sorted(values):
            if self.values[v].deals < upto:
                starts.setdefault(self.values[v].deals, []).append(v)
        if self.reference.deals < upto:
            starts.setdefault(self.reference.deals, [])
        for start in sorted(starts):
            members = [self.reference] if self.reference.deals == start < upto else []
            members += [self.values[v] for v in starts[start]]
            played = runner.play(tuple(m.edition for m in members), self.request.seating, self.request.seed, start, upto,
                                 self.workers, self.scheduler, watch=self.request.patch_id, progress=self.progress)
            for m, games, tally in zip(members, played.per_game, played.tallies):
                m.parts.append(games)
                m.tally = tally if m.tally is None else m.tally.merge(tally)
                m.deals = upto

    @property
    def deals(self) -> int:
        return self.reference.deals

    def advantages(self) -> tuple[list[int], list[Advantage]]:
        """Each value's per-deal purchases and advantages over the reference's deals (0 past its own)."""
        import numpy as np

        from toolkit.sim.shards import Games
        from toolkit.workbench.advantage import Advantage, advantage_by_deal

        ref = self.reference.games()
        out_values, out = [], []
        for v in sorted(self.values):
            p = self.values[v]
            if p.deals == 0:
                continue
            n = p.deals * self.per_deal
            head = Games(*(getattr(ref, f)[:n] for f in Games.__dataclass_fields__))
            adv = advantage_by_deal(p.games(), head, self.per_deal)
            pad = lambda x: np.concatenate([x, np.zeros(self.deals - p.deals, dtype=x.dtype)])  # noqa: E731
            out_values.append(v)
            out.append(Advantage(pad(adv.bought), pad(adv.margin), pad(adv.win)))
        return out_values, out


def run(request: PriceRequest, workers: int, scheduler: str | None,
        progress: Callable[[int], None] | None = None) -> tuple[dict, Plays]:
    """Play the reference and the values on the same deals, look by look; the `values`/`fair`/
    `stopping` part of the result (see the module for the looks, the added values and the stop)."""
    import numpy as np

    looks = request.looks
    alpha = ALPHA / len(looks)
    span = bounds(request.edition, request.patch_id, request.over)
    plays = Plays(request, workers, scheduler, progress)
    plays.add(request.values)
    active = set(request.values)
    extended = 0
    fair: dict = {}
    reached = False
    for look, upto in enumerate(looks, start=1):
        plays.play(active, upto)
        while True:
            values, per_value = plays.advantages()
            fair = fair_value(np.array(values), per_value, request.seed, request.over, alpha,
                              span=span, looks=len(looks))
            new, extended = _wanted(fair, values, span, extended)
            if not new:
                break
            plays.add(new)
            plays.play(new, upto)
        window = fair["_window"]
        reached = _reached(fair, request.width)
        if reached or look == len(looks):
            break
        active = set(window) if window else set(values)
    body = summarise(request, plays, fair)
    games = plays.deals * plays.per_deal
    if request.fixed:
        rule = "one look: every value plays the same number of games"
    else:
        target = (f"the fair value's interval is no wider than {request.width:g}" if request.width is not None
                  else f"the price is decided within {WITHIN} button")
        rule = (f"looks after {', '.join(f'{n:,}' for n in looks)} deals, each at level {ALPHA:g}/{len(looks)} "
                f"(Bonferroni over the looks); only the values of the crossing's window play on; stop at the "
                f"first look where {target}")
    body["stopping"] = {"width": request.width, "reached": reached, "decided": fair["decided"], "games": games,
                        "looks": len(looks), "cap": request.games, "fixed": request.fixed, "rule": rule,
                        "more_games": None if reached else more_games(fair, games),
                        "why": None if fair["decided"] else _why(fair)}
    return body, plays


def _why(fair: dict) -> str | None:
    """Why the price is not decided, when more games are not simply the answer."""
    status = fair["status"]
    if status == "several":
        return "the advantage falls through 0 more than once"
    if status == "never bought":
        return "the patch was never bought"
    if status == "undecided":
        return "no value's advantage is told from 0"
    if status == "above":
        return "the buyer's advantage has not fallen to 0 at the largest value played"
    if status == "below":
        return "the buyer loses already at the smallest value played"
    if fair["high"] is None:
        return (f"the interval is open above: past the crossing the advantage is not shown to stay below "
                f"{TOLERANCE:g} points (a selective bot buys it there only when it pays)")
    if fair["low"] is None:
        return "the interval is open below"
    return None


def _reached(fair: dict, width: float | None) -> bool:
    if width is None:
        return bool(fair["decided"]) and fair["status"] != "several"
    return fair["low"] is not None and fair["high"] is not None and fair["high"] - fair["low"] <= width


def _wanted(fair: dict, values: list[int], span: tuple[int, int], extended: int) -> tuple[list[int], int]:
    """Values to add before the next look: every whole value inside a crossing's window, and
    values beyond the range when the crossing lies beyond it."""
    have = set(values)
    new: set[int] = set()
    for c in fair["crossings"]:
        a, b = c["between"]
        new |= set(range(a + 1, b)) - have
    width = max(max(values) - min(values), 2)  # each widening doubles the range played
    step = max(1, width // 4)  # a coarse look beyond it; the crossing's window is filled in once found
    if fair["status"] == "above" and extended < MAX_EXTENSIONS and max(values) < span[1]:
        top = max(values)
        new |= set(range(top + step, min(top + width, span[1]) + 1, step)) | {min(top + width, span[1])}
        extended += 1
    elif fair["status"] == "below" and extended < MAX_EXTENSIONS and min(values) > span[0]:
        bottom = min(values)
        new |= set(range(bottom - step, max(bottom - width, span[0]) - 1, -step)) | {max(bottom - width, span[0])}
        extended += 1
    new -= have
    room = setpath.MAX_VALUES - len(have)
    return sorted(new)[:max(room, 0)], extended


def summarise(request: PriceRequest, plays: Plays, fair: dict) -> dict:
    """The per-value rows and the fair value of what was played."""
    from toolkit.stats import deal_rate, wilson

    ref_games = plays.reference.games()
    if int((ref_games.buy_seat >= 0).sum()):
        raise UsageError(f"price: {request.patch_id} was bought at cost {REFERENCE_COST}; the out-of-reach reference failed")
    values, per_value = plays.advantages()
    index = [p.id for p in request.edition.all_patches()].index(request.patch_id)
    rows = []
    for value, adv in zip(values, per_value):
        played = plays.values[value]
        games = played.deals * plays.per_deal
        bought = adv.bought[:played.deals]
        n_bought = int(bought.sum())
        figures = family_of(played.edition).figures(played.tally, played.edition, request.seating)
        patch_row = figures["patches"][index]
        if plays.per_deal > 1:
            buy_rate = deal_rate(n_bought, games, plays.per_deal, int((bought * bought).sum())).as_dict()
        else:
            buy_rate = wilson(n_bought, games).as_dict()
        rows.append({
            "value": value,
            "games": games,
            "deals": played.deals,
            "buy_rate": buy_rate,
            "bought": n_bought,
            "mean_ply": patch_row["mean_ply"],
            "by_bot": patch_row["by_bot"],
            "advantage": _public(ratio(adv.margin[:played.deals], bought)),
            "win_advantage": _public(ratio(adv.win[:played.deals], bought)),
            "buyer_win_rate": patch_row["buyer_win_rate"],
        })
    public = {k: v for k, v in fair.items() if not k.startswith("_")}
    if RICHER[request.over]:  # the fit was made on the advantage turned round; report it as measured
        for f in public["fitted"]:
            f["advantage"] = None if f["advantage"] is None else -f["advantage"] + 0.0
    return {"values": rows, "fair": public}


def _public(r: dict) -> dict:
    return {k: v for k, v in r.items() if k != "se"}


def _span(fair: dict) -> tuple[float, float] | None:
    """The fair value's interval as numbers (open ends infinite); None when there is no value."""
    if fair["status"] in ("never bought", "undecided"):
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
                        "rule": "disagree when the two intervals do not overlap"})
    return out
