"""`patchwork deck check`: play a custom deck against its base with bots: per-patch buy rate and
buyer advantage, verdicts with a suggested cost, and an optional re-pricing loop. Only editions
whose family prices patches are checked.

The deal is the sampling unit. With seats swapped a deal is two games on the same cards, often
nearly the same game, so every standard error here is over deals (a deal's games are one cluster),
from the simulator's per-deal sums (toolkit.families.timetrack.results: the squared per-deal
purchases and buyer wins of every patch and their cross sum).

Two measures per patch, each with a test:

- Buyer advantage (toolkit.workbench.advantage) = the win rate of the players who bought it minus
  the win rate of all buyers of all patches in the same games (the deck's baseline), pooled over
  the matchups, weighted by purchases. Its standard error is the ratio estimator's over deals of
  the buyers' win rate (design effect never below 1, as in toolkit.stats), pooled over the
  matchups; the baseline is treated as known. That leaves out its variance and its covariance with
  the patch: on classic with greedy bots (3 x 1,000 deals) the standard error with them is 0.97 to
  1.02 times the one used (mean 0.998), so the bias is under 3 % either way.
- Buy rate against the base: for a patch the designer changed (the base edition has a patch with
  the same id and another cost, time, income or shape), the variant's buy rate is compared with
  the base's on the same deals, on the logit scale (a continuity correction of half a purchase
  keeps it finite), where one button moves a greedy bot's buy rate by about BUY_LOGIT_PER_BUTTON
  whatever the rate. The variance is the sum of the two deal-clustered variances: the pairing on
  deals is not used, which only widens the test (the games of one deal buy alike in both editions).
  This finds a patch made too dear, which bots buy only where it suits them, so its advantage
  barely moves while its buy rate collapses (P03 7 -> 10 on classic: 83 % -> 38 %). Patches as the base prints them are not compared: a change elsewhere moves their buy
  rates (bots buy the changed patch instead), which says nothing of their own price.

Both tests ask "outside the band?": the advantage beyond +-band, the buy rate's logit shift beyond
the same band in buttons (band / ADVANTAGE_PER_BUTTON buttons), each a two-sided z-test against the
nearer band edge; every test of the deck is corrected together by Holm's step-down method
(family-wise error 5 %, counting every test run). The other question, "inside the band?", is an
equivalence test per patch: each of its measures is inside the band by two one-sided z-tests (its
estimate's distance from the farther edge), a patch is inside only when every measure is (its p is
the largest of theirs), and these patches' p are corrected together by Holm's method too
(family-wise error 5 % over the deck's in-band claims). A word claims only what a test showed
(VERDICTS): `cheap` or `dear` when a test finds the patch significantly outside (the smaller adjusted
p decides), `rarely bought at this cost` when it is dear and bought in fewer than LOW_BUY_RATE of
games; otherwise `rarely bought` under LOW_BUY_RATE (its advantage, measured only where a bot chose
it, says little), `too few buys` with fewer than `min_buys` purchases, `in band` when the
equivalence test shows it inside, `leans cheap` / `leans dear` when an estimate is outside but not
significantly, and `undecided` when the estimates are inside but the intervals are wider than the
band. A leaning or undecided patch gets `games_factor`: how many times the games of every matchup
would decide it (80 % power, at the Bonferroni level that bounds Holm's) if its estimates are the
truth. A cheap or dear patch gets a suggested cost: the cost at which its advantage
is 0 (ADVANTAGE_PER_BUTTON a button), or, when the buy rate decided, the base's cost where the cost
moved the way that explains the shift (there the buy rate was the base's), else the cost that
brings the buy rate back to the base's (BUY_LOGIT_PER_BUTTON a button).

benchmarks/audit_deckcheck.py measures all this over seeds: on the untouched classic deck no
patch inside the band flagged in 20 seeds, z spread across seeds 1.04 (advantage) and 1.01 (buy
rate), planted P03 7 -> 10 and P28 7 -> 4 found 20/20 with suggested cost 7. At 400 games no patch
is shown in band (intervals +-0.06 to +-0.13); at 4,000, 6 to 10 a seed on untouched classic, none of
them outside the band on the advantage pooled over the seeds, and no planted patch in any seed.

Every patch has an origin against the base edition: `changed` (same id, another cost, time,
income or shape), `new` (no such id in the base) or `base` (as the base prints it), so a report
separates what the designer changed from the base's own mispricing.

Re-pricing (`tune`) moves the significantly out-of-band patches (by default only the changed and
new ones) round by round. A patch's target is its suggested cost, with the deck-wide slope of
advantage against cost fitted over the rounds when it is steeper than the prior (a steeper slope
means a shorter step); the step is damped (DAMPING of the way, at least one button, at most
MAX_STEP) and bracketed: a cost where the patch was found cheap and one where it was found dear
bound every later move, so a patch never jumps past its target. A round whose deck is worse than
the one before is undone and tuning stops, saying so: worse means the patches significantly out of
band before or after the round are, together, further outside the band after it, each measured
in both decks (`round_distances`; a patch tuning may not move that was out before as well is left
out), so a patch that was as far out before but only now reaches significance is not blamed on the
round.

Everything this module needs from the simulator goes through `play` below.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from toolkit.errors import UsageError
from toolkit.stats import Z95, deal_ratio, holm, ratio_variance
from toolkit.workbench.advantage import buyer_advantage

DEFAULT_MATCHUPS = ("greedy,greedy", "greedy,mcts:200")
DEFAULT_GAMES = (400, 40)
"""Games per matchup, by default: greedy games are ~100x faster than MCTS ones."""
DEFAULT_BAND = 0.05
"""About one button for greedy bots on classic (P12 3->6 moved its advantage by -0.145, P21 5->2 by +0.157)."""
DEFAULT_MIN_BUYS = 20
LOW_BUY_RATE = 0.15
FAMILY_ERROR = 0.05
"""Holm's family-wise error over every test of the deck."""
ADVANTAGE_PER_BUTTON = 0.05
"""How much one button moves a patch's buyer advantage, greedy bots on classic (1,000 games a cost:
P03 0.034, P28 0.045, P21 0.056, P12 0.066 a button); the band's unit and the prior slope."""
BUY_LOGIT_PER_BUTTON = 0.8
"""How much one button moves a patch's buy rate on the logit scale, greedy bots on classic (1,000
games a cost: P03 0.70, P32 0.86, P28 0.95, P21 0.96, P12 1.14 a button)."""
DAMPING = 0.75
"""Share of the way to its target a tuning step goes (rounded, at least one button)."""
MAX_STEP = 4
"""Most buttons one round moves a patch."""
ORIGINS = ("changed", "new", "base")
POWER = 0.8
"""The chance with which a patch's `games_factor` games would decide it, its estimates holding."""
VERDICTS = {
    "cheap": "significantly outside the band, cheap (Holm-adjusted p below 0.05)",
    "dear": "significantly outside the band, dear (Holm-adjusted p below 0.05)",
    "rarely bought at this cost": f"significantly dear, and bought in under {LOW_BUY_RATE:.0%} of games",
    "rarely bought": f"bought in under {LOW_BUY_RATE:.0%} of games, not found outside the band: its advantage is "
                     "not judged",
    "too few buys": "bought fewer times than --min-buys: its advantage is not judged",
    "in band": "shown inside the band: every interval of the patch lies inside it (equivalence test, Holm-adjusted "
               "p below 0.05)",
    "leans cheap": "estimate above the band, not significantly: more games would decide it",
    "leans dear": "estimate below the band, not significantly: more games would decide it",
    "undecided": "estimate inside the band but its interval wider than the band: neither shown in nor out; more "
                 "games would decide it",
}
"""Every verdict word and what it claims (the JSON `verdict` strings)."""
IN_BAND_TEST = ("per patch, two one-sided z-tests that each measure (the advantage; for a patch changed from the "
                "base, the buy rate's logit shift too) lies inside the band, the patch's p the largest of its "
                "measures'; Holm step-down over the deck's judged patches (family-wise error 5%)")
CORRECTION = ("Holm step-down over every test of the deck (family-wise error 5%): per patch, a two-sided z-test of "
              "the advantage against the nearer band edge, and, for a patch changed from the base, of the buy "
              "rate's logit shift from the base's against the band in buttons")
ESTIMATORS = ("deal-clustered: a deal's seat-swapped games are one unit. Advantage: buyers' win rate minus the "
              "deck's baseline; its standard error is the ratio estimator's over deals (design effect at least 1), "
              "the baseline taken as known (with its variance and covariance the error is 0.97-1.02 times this one "
              "on classic). Buy rate against the base: logit shift, variance the sum of the two deal-clustered "
              "variances (the pairing on deals is not used, so the test is if anything too wide)")


@dataclass(frozen=True)
class Played:
    """What one simulator run of a deck check gives."""

    document: dict
    """The balance document (base figures, variant figures and paired differences)."""
    deal_sums: tuple[dict[str, dict], ...]
    """Per edition played, per patch id: the integer sums over deals its intervals need."""


def play(refs: Sequence[str], bots: str, games: int, seed: int,
         progress: Callable[[int, int], None] | None = None) -> Played:
    """Play every edition in `refs` on the same deal seeds with the simulator: the balance
    document and each edition's per-patch sums over deals. The one use of sim."""
    from toolkit.sim import experiment

    request = experiment.prepare(list(refs), bots, games, seed)
    outcome = experiment.run(request, progress)
    document = experiment.balance_document(request, outcome, f"deck check ({bots})")
    sums = tuple(_deal_sums(tally, edition, request.per_deal)
                 for tally, edition in zip(outcome.merged.tallies, request.editions))
    return Played(document, sums)


def _deal_sums(tally, edition, per_deal: int) -> dict[str, dict]:
    """Each patch's purchases and buyer wins with their sums over deals of squares and cross products."""
    keys = {"bought": "patch.bought", "bought_dsq": "patch.bought_dsq", "won": "patch.buyer_won",
            "won_dsq": "patch.buyer_won_dsq", "won_bought": "patch.buyer_won_bought"}
    columns = {name: tally.get(key) for name, key in keys.items()}
    deals, games = int(tally.get("deals")), int(tally.get("games"))
    return {p.id: {"deals": deals, "per_deal": per_deal, "games": games,
                   **{name: int(values[i]) for name, values in columns.items()}}
            for i, p in enumerate(edition.all_patches())}


def _sums_of(row: dict, games: int) -> dict:
    """A figures row's deal sums; a row without them counts each game as its own deal."""
    if "deal_sums" in row:
        return row["deal_sums"]
    bought, won = int(row["bought"]), _buyer_wins(row)
    return {"deals": games, "per_deal": 1, "games": games, "bought": bought, "bought_dsq": bought,
            "won": won, "won_dsq": won, "won_bought": won}


@dataclass(frozen=True)
class BasePlay:
    """How the base edition's patch of the same id fared on the same deals."""

    cost: int
    bought: int
    games: int
    buy_se: float | None = None
    """Deal-clustered standard error of its buy rate."""


@dataclass(frozen=True)
class PatchPlay:
    """How one patch fared over the games of every matchup."""

    id: str
    cost: int
    bought: int
    games: int
    buyer_wins: int
    advantage: float | None
    """Buys-weighted mean over matchups of (buyer win rate - baseline); None if never bought."""
    se: float | None = None
    """Standard error of `advantage`, over deals, pooled over matchups."""
    buy_se: float | None = None
    """Standard error of the buy rate over deals (None: counted as binomial)."""
    deals: int = 0
    """Deals behind the figures (all matchups)."""
    design_effect: float | None = None
    """Deal-clustered variance of the buyers' win rate over its binomial variance (at least 1)."""
    base: BasePlay | None = None
    """The base's patch of the same id, when the base was played and has one."""
    buy_interval: tuple[float, float] | None = None
    """95% interval of the buy rate over deals (Wilson at the effective number of games)."""
    win_interval: tuple[float, float] | None = None
    """95% interval of the buyers' win rate over deals."""

    @property
    def buy_rate(self) -> float:
        return self.bought / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float] | None:
        if self.advantage is None or self.se is None:
            return None
        return self.advantage - Z95 * self.se, self.advantage + Z95 * self.se

    def p_value(self, band: float) -> float | None:
        """Two-sided p of "inside the band" against the nearer band edge; None when not judged."""
        if self.advantage is None or self.se is None:
            return None
        return _edge_p(self.advantage, self.se, band)

    def buy_shift(self) -> tuple[float, float] | None:
        """(logit of the buy rate minus the base's, its standard error); None without a base."""
        if self.base is None or not self.games or not self.base.games:
            return None
        mine, mine_se = _logit(self.bought, self.games, self.buy_se)
        theirs, theirs_se = _logit(self.base.bought, self.base.games, self.base.buy_se)
        return mine - theirs, math.hypot(mine_se, theirs_se)


def _logit(bought: int, games: int, se: float | None) -> tuple[float, float]:
    """Logit of a buy rate (half a purchase added either side) and its delta-method standard error,
    never below the binomial one."""
    q = (bought + 0.5) / (games + 1)
    se = max(se or 0.0, math.sqrt(q * (1 - q) / games))
    return math.log(q / (1 - q)), se / (q * (1 - q))


def _edge_p(estimate: float, se: float, band: float) -> float:
    excess = max(estimate - band, -band - estimate, 0.0)
    if excess == 0.0:
        return 1.0
    if se == 0:
        return 0.0
    return min(1.0, math.erfc(excess / se / math.sqrt(2)))


def buy_band(band: float) -> float:
    """The band in buttons, on the buy rate's logit scale."""
    return band / ADVANTAGE_PER_BUTTON * BUY_LOGIT_PER_BUTTON


def _cost(x: float) -> int:
    return max(0, math.floor(x + 0.5))


def _tests(p: PatchPlay, band: float, min_buys: int, compared: bool) -> dict[str, dict]:
    """The patch's tests: side ("cheap", "dear" or None inside the band), p, distance outside the
    band in buttons and the cost the test suggests."""
    out = {}
    if p.buy_rate >= LOW_BUY_RATE and p.bought >= min_buys and p.advantage is not None and p.se is not None:
        side = "cheap" if p.advantage > band else "dear" if p.advantage < -band else None
        out["advantage"] = {"side": side, "p": p.p_value(band), "estimate": p.advantage, "se": p.se, "edge": band,
                            "buttons": (abs(p.advantage) - band) / ADVANTAGE_PER_BUTTON if side else 0.0,
                            "suggested": _cost(p.cost + p.advantage / ADVANTAGE_PER_BUTTON)}
    shift = p.buy_shift() if compared else None
    if shift is not None and p.base is not None:  # buy_shift is None without a base
        logit, se = shift
        edge = buy_band(band)
        side = "cheap" if logit > edge else "dear" if logit < -edge else None
        if p.base.cost != p.cost and (logit > 0) == (p.cost < p.base.cost):
            suggested = p.base.cost  # only the cost can explain it: where the base's rate was
        else:
            suggested = _cost(p.cost + logit / BUY_LOGIT_PER_BUTTON)
        out["buy_rate"] = {"side": side, "p": _edge_p(logit, se, edge), "estimate": logit, "se": se, "edge": edge,
                           "buttons": (abs(logit) - edge) / BUY_LOGIT_PER_BUTTON if side else 0.0,
                           "suggested": suggested}
    return out


def _inside_p(estimate: float, se: float, edge: float) -> float:
    """p of "inside +-edge" by two one-sided z-tests: the larger of the two, the one against the
    farther edge (below 0.05: the estimate's 90% interval lies inside)."""
    room = edge - abs(estimate)
    if se == 0:
        return 0.0 if room > 0 else 1.0
    return 0.5 * math.erfc(room / se / math.sqrt(2))


def _z(one_sided: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - one_sided)


def _games_factor(distance: float, se: float, z: float) -> float | None:
    """How many times the games would, with POWER chance, carry an estimate `distance` from the
    band edge past `z` standard errors, if it is the truth (standard errors shrink as one over the
    root of the games); None when it cannot (on the edge, or no spread)."""
    if distance <= 0 or se <= 0:
        return None
    return max(1.0, ((z + _z(1 - POWER)) * se / distance) ** 2)


def verdicts(patches: Sequence[PatchPlay], band: float, min_buys: int,
             compared: set[str] | None = None) -> dict[str, dict]:
    """The one rule (see the module's docstring): verdict, Holm-adjusted p, deciding test and
    suggested cost of every patch, its in-band test and, when undecided or leaning, the games that
    would decide it. The buy rate is compared with the base's for the patches in `compared` (the
    changed ones; None: every patch the base has)."""
    tests = {p.id: _tests(p, band, min_buys, compared is None or p.id in compared) for p in patches}
    adjusted = holm({f"{pid} {name}": t["p"] for pid, ts in tests.items() for name, t in ts.items()})
    inside = {pid: max(_inside_p(t["estimate"], t["se"], t["edge"]) for t in ts.values())
              for pid, ts in tests.items() if "advantage" in ts}
    inside_adjusted = holm(dict(inside))
    z_out = _z(FAMILY_ERROR / 2 / max(1, len(adjusted)))  # Bonferroni's level, which bounds Holm's steps
    z_in = _z(FAMILY_ERROR / max(1, len(inside)))
    out: dict[str, dict] = {}
    for p in patches:
        ts = tests[p.id]
        for name, t in ts.items():
            value = adjusted[f"{p.id} {name}"]
            t["p_adjusted"] = None if value is None else round(value, 6)
        found = sorted((t["p_adjusted"], name) for name, t in ts.items()
                       if t["side"] and t["p_adjusted"] < FAMILY_ERROR)
        leaning = sorted((-t["buttons"], name) for name, t in ts.items() if t["side"])
        basis, suggested, factor = None, None, None
        shown_inside = inside_adjusted.get(p.id)
        if found:
            basis = found[0][1]
            side = ts[basis]["side"]
            verdict = "rarely bought at this cost" if side == "dear" and p.buy_rate < LOW_BUY_RATE else side
            suggested = ts[basis]["suggested"]
        elif p.buy_rate < LOW_BUY_RATE:
            verdict = "rarely bought"
        elif "advantage" not in ts:
            verdict = "too few buys"
        elif shown_inside is not None and shown_inside < FAMILY_ERROR:
            verdict = "in band"
        elif leaning:
            basis = leaning[0][1]
            verdict = f"leans {ts[basis]['side']}"
            factors = [_games_factor(abs(t["estimate"]) - t["edge"], t["se"], z_out) for t in ts.values() if t["side"]]
            factor = min((f for f in factors if f is not None), default=None)
        else:
            verdict = "undecided"
            factors = [_games_factor(t["edge"] - abs(t["estimate"]), t["se"], z_in) for t in ts.values()]
            known = [f for f in factors if f is not None]
            factor = max(known) if known and len(known) == len(factors) else None
        q = min((t["p_adjusted"] for t in ts.values()), default=None)
        out[p.id] = {"verdict": verdict, "p_adjusted": q, "basis": basis, "suggested_cost": suggested,
                     "tests": {name: {"p": round(t["p"], 6), "p_adjusted": t["p_adjusted"],
                                      "buttons_outside": round(t["buttons"], 3)} for name, t in ts.items()},
                     "in_band": None if shown_inside is None else {
                         "p": round(inside[p.id], 6), "p_adjusted": round(shown_inside, 6)},
                     "games_factor": None if factor is None else round(factor, 1)}
    return out


SIGNIFICANT = ("cheap", "dear", "rarely bought at this cost")
"""The verdicts of a patch significantly outside the band."""


@dataclass(frozen=True)
class Matchup:
    bots: str
    games: int
    base: dict
    """The base edition's headline figures (bot win rates, mean scores, game length)."""
    variant: dict
    differences: list[dict]
    """Paired differences variant - base (empty when the base was not played)."""


@dataclass(frozen=True)
class CheckReport:
    variant: str
    base: str
    seed: int
    band: float
    min_buys: int
    matchups: tuple[Matchup, ...]
    patches: tuple[PatchPlay, ...]
    changes: tuple[dict, ...] = field(default=())
    rounds: int = 0
    stopped: str = ""
    """Why tuning stopped."""
    origins: dict[str, str] = field(default_factory=dict)
    """Patch id -> "changed", "new" or "base" (against the base edition; empty when unknown)."""
    tuned: str = ""
    """Which patches tuning could move: "changed" (changed and new ones) or "all"; "" untuned."""

    def verdicts(self) -> dict[str, dict]:
        compared = {pid for pid, o in self.origins.items() if o == "changed"} if self.origins else None
        return verdicts(self.patches, self.band, self.min_buys, compared)

    def out_of_band(self) -> list[PatchPlay]:
        """The patches significantly outside the band (after the correction)."""
        v = self.verdicts()
        return [p for p in self.patches if v[p.id]["verdict"] in SIGNIFICANT]

    def origin(self, pid: str) -> str | None:
        return self.origins.get(pid)

    def patch_dict(self, p: PatchPlay, verdict: dict) -> dict:
        iv = p.interval()
        shift = p.buy_shift()
        return {"id": p.id, "origin": self.origin(p.id), "cost": p.cost, "bought": p.bought, "games": p.games,
                "deals": p.deals, "buy_rate": round(p.buy_rate, 4),
                "buy_rate_interval": _ends(p.buy_interval),
                "buyer_win_rate": round(p.buyer_wins / p.bought, 4) if p.bought else None,
                "buyer_win_rate_interval": _ends(p.win_interval),
                "design_effect": None if p.design_effect is None else round(p.design_effect, 3),
                "advantage": None if p.advantage is None else round(p.advantage, 4),
                "advantage_se": None if p.se is None else round(p.se, 4),
                "low": None if iv is None else round(iv[0], 4), "high": None if iv is None else round(iv[1], 4),
                "base": None if p.base is None else {
                    "cost": p.base.cost, "bought": p.base.bought, "games": p.base.games,
                    "buy_rate": round(p.base.bought / p.base.games, 4) if p.base.games else None},
                "buy_shift": None if shift is None else {
                    "logit": round(shift[0], 4), "se": round(shift[1], 4),
                    "buttons": round(shift[0] / BUY_LOGIT_PER_BUTTON, 2)},
                "tests": verdict["tests"], "p_adjusted": verdict["p_adjusted"], "verdict": verdict["verdict"],
                "basis": verdict["basis"], "suggested_cost": verdict["suggested_cost"],
                "in_band": verdict["in_band"], "games_factor": verdict["games_factor"]}

    def as_dict(self) -> dict:
        v = self.verdicts()
        out = self.out_of_band()
        return {
            "variant": self.variant, "base": self.base, "seed": self.seed,
            "band": self.band, "band_buttons": round(self.band / ADVANTAGE_PER_BUTTON, 3),
            "buy_band_logit": round(buy_band(self.band), 4), "min_buys": self.min_buys,
            "low_buy_rate": LOW_BUY_RATE,
            "advantage": "buyer win rate minus the win rate of all buyers in the same games, 95% interval over deals",
            "estimators": ESTIMATORS,
            "correction": CORRECTION,
            "in_band_test": IN_BAND_TEST,
            "verdicts": VERDICTS,
            "tests": sum(len(x["tests"]) for x in v.values()),
            "matchups": [{"bots": m.bots, "games": m.games, "base": m.base, "variant": m.variant,
                          "differences": m.differences} for m in self.matchups],
            "patches": [self.patch_dict(p, v[p.id]) for p in self.patches],
            "out_of_band": [p.id for p in out],
            "out_of_band_changed": [p.id for p in out if self.origin(p.id) in ("changed", "new")],
            "out_of_band_base": [p.id for p in out if self.origin(p.id) == "base"],
            "in_band": [p.id for p in self.patches if v[p.id]["verdict"] == "in band"],
            "tune": {"rounds": self.rounds, "patches": self.tuned or None, "changes": list(self.changes),
                     "stopped": self.stopped},
        }


def _ends(iv: tuple[float, float] | None) -> list[float] | None:
    return None if iv is None else [round(iv[0], 4), round(iv[1], 4)]


def _headline(figures: dict) -> dict:
    """A matchup's headline figures, by bot; a bot playing itself (greedy,greedy: one name for
    both) is told apart by seat instead, as player 1 and player 2, whose rates are the ones
    that differ."""
    def ends(iv: dict) -> list:
        return [iv["low"], iv["high"]]

    names = [b["bot"] for b in figures["bots"]]
    if len(set(names)) == len(names):
        who = {b["bot"]: b for b in figures["bots"]}
    else:
        who = {f"player {s['seat'] + 1}": s for s in figures["seats"]}
    return {
        "win_rate": {name: f["win_rate"]["estimate"] for name, f in who.items()},
        "mean_score": {name: f["mean_score"]["estimate"] for name, f in who.items()},
        "plies": figures["game_length"]["plies"]["estimate"],
        "bonus_taken": figures["bonus"]["taken"]["estimate"],
        "intervals": {  # 95%, the simulator's own: over deals where a deal is two games
            "win_rate": {name: ends(f["win_rate"]) for name, f in who.items()},
            "mean_score": {name: ends(f["mean_score"]) for name, f in who.items()},
            "plies": ends(figures["game_length"]["plies"]),
            "bonus_taken": ends(figures["bonus"]["taken"]),
        },
    }


def _buyer_wins(row: dict) -> int:
    """Games the buyers of a patch won: the simulator gives the rate (to 6 decimals) and the
    number of buys, which recover the count exactly."""
    return round(row["buyer_win_rate"]["estimate"] * row["bought"]) if row["bought"] else 0


_POOLED_KEYS = ("deals", "games", "bought", "won", "bought_dsq", "bought_x", "games_sq", "won_dsq", "won_bought")


def _pool(acc: dict, s: dict) -> None:
    """Add one matchup's deal sums of a patch to its pooled sums (the deals of all matchups are
    independent units; x, a deal's games, is per_deal for every deal)."""
    per = s["per_deal"]
    for key in ("deals", "games", "bought", "won", "bought_dsq", "won_dsq", "won_bought"):
        acc[key] = acc.get(key, 0) + s[key]
    acc["bought_x"] = acc.get("bought_x", 0) + per * s["bought"]
    acc["games_sq"] = acc.get("games_sq", 0) + s["deals"] * per * per


def _rate_se(k: int, n: int, sums: dict | None) -> float | None:
    """Standard error over deals of the rate k / n, never below the binomial one."""
    if not n:
        return None
    q = k / n
    binomial = q * (1 - q) / n
    var = None if sums is None else ratio_variance(sums["deals"], k, n, sums["bought_dsq"], sums["bought_x"],
                                                   sums["games_sq"])
    return math.sqrt(max(binomial, var or 0.0))


def _patch_plays(per_matchup: list[dict], only: set[str] | None,
                 base_per_matchup: list[dict] | None = None) -> tuple[PatchPlay, ...]:
    """Pool each patch over the matchups' figures (rows with their `deal_sums`, see `play`; a row
    without them counts games as deals), with the base's rows of the same matchups when given."""
    acc: dict[str, dict] = {}
    order: list[str] = []
    for figures in per_matchup:
        rows = figures["patches"]
        bought_all = sum(r["bought"] for r in rows)
        won_all = sum(_buyer_wins(r) for r in rows)
        baseline = won_all / bought_all if bought_all else 0.0
        for r in rows:
            if only is not None and r["id"] not in only:
                continue
            a = acc.get(r["id"])
            if a is None:
                a = acc[r["id"]] = {"cost": r["cost"], "adv": 0.0, "var": 0.0, "binomial": 0.0, "sums": {}}
                order.append(r["id"])
            s = _sums_of(r, figures["games"])
            _pool(a["sums"], s)
            k, w = s["bought"], s["won"]
            if k:
                rate = w / k
                a["adv"] += buyer_advantage(k, rate, baseline)
                binomial = rate * (1 - rate) / k
                var = ratio_variance(s["deals"], w, k, s["won_dsq"], s["won_bought"], s["bought_dsq"])
                a["var"] += k * k * max(binomial, var if var is not None else binomial)
                a["binomial"] += k * k * binomial
    bases = _base_plays(base_per_matchup or [])
    out = []
    for pid in order:
        a = acc[pid]
        s = a["sums"]
        k, n, w = s["bought"], s["games"], s["won"]
        buys = deal_ratio(s["deals"], k, n, s["bought_dsq"], s["bought_x"], s["games_sq"]) if n else None
        wins = deal_ratio(s["deals"], w, k, s["won_dsq"], s["won_bought"], s["bought_dsq"]) if k else None
        base = bases.get(pid)
        out.append(PatchPlay(
            pid, a["cost"], k, n, w, a["adv"] / k if k else None,
            math.sqrt(a["var"]) / k if k >= 2 else None,
            _rate_se(k, n, s), s["deals"],
            max(1.0, a["var"] / a["binomial"]) if a["binomial"] > 0 else None, base,
            None if buys is None or buys.low is None or buys.high is None else (buys.low, buys.high),
            None if wins is None or wins.low is None or wins.high is None else (wins.low, wins.high)))
    return tuple(out)


def _base_plays(base_per_matchup: list[dict]) -> dict[str, BasePlay]:
    """The base's patches pooled over the matchups' rows (with their deal sums)."""
    pooled: dict[str, dict] = {}
    costs: dict[str, int] = {}
    for figures in base_per_matchup:
        for r in figures["patches"]:
            costs[r["id"]] = r["cost"]
            _pool(pooled.setdefault(r["id"], {}), _sums_of(r, figures["games"]))
    return {pid: BasePlay(costs[pid], s["bought"], s["games"], _rate_se(s["bought"], s["games"], s))
            for pid, s in pooled.items()}


def origins(variant, base) -> dict[str, str]:
    """Each of the variant's patches against the base edition: "changed" (same id, another cost,
    time, income or shape), "new" (an id the base has not) or "base" (as the base prints it)."""
    theirs = {p.id: p for p in base.all_patches()}
    out = {}
    for p in variant.all_patches():
        b = theirs.get(p.id)
        if b is None:
            out[p.id] = "new"
        elif (p.cost, p.time, p.income, p.shape.canonical_key) != (b.cost, b.time, b.income,
                                                                      b.shape.canonical_key):
            out[p.id] = "changed"
        else:
            out[p.id] = "base"
    return out


Progress = Callable[[str, int, int], None]
"""progress(what is playing, games done, games in that run)."""


def _rows(figures: dict, sums: dict[str, dict]) -> dict:
    """A matchup's figures with each patch row carrying its deal sums."""
    return {"games": figures["games"], "patches": [{**r, "deal_sums": sums[r["id"]]} for r in figures["patches"]]}


def _validate(band: float, min_buys: int) -> None:
    if not 0 < band < 0.5:
        raise UsageError(f"--band must lie between 0 and 0.5 (a win-rate difference), got {band}")
    if min_buys < 1:
        raise UsageError(f"--min-buys must be at least 1, got {min_buys}")


def check(variant: str, base: str, matchups: Sequence[tuple[str, int]], seed: int,
          band: float = DEFAULT_BAND, min_buys: int = DEFAULT_MIN_BUYS, with_base: bool = True,
          only: set[str] | None = None, progress: Progress | None = None) -> CheckReport:
    """Play the variant (and the base, on the same deals) in every matchup."""
    _validate(band, min_buys)
    from toolkit.families import require
    from toolkit.specs import load_edition

    editions = []
    for ref in (variant, base):
        editions.append(load_edition(ref))
        require(editions[-1], "prices_patches", "deck check")
    results = []
    variant_rows, base_rows = [], []
    for bots, games in matchups:
        refs = [base, variant] if with_base else [variant]
        label = f"{bots} ({'base and deck' if with_base else 'deck'})"
        played = play(refs, bots, games, seed, partial(progress, label) if progress else None)
        doc = played.document
        if with_base:
            v = doc["variants"][0]
            results.append(Matchup(bots, games, _headline(doc["base"]["figures"]),
                                   _headline(v["figures"]), v["differences"]))
            variant_rows.append(_rows(v["figures"], played.deal_sums[1]))
            base_rows.append(_rows(doc["base"]["figures"], played.deal_sums[0]))
        else:
            results.append(Matchup(bots, games, {}, _headline(doc["base"]["figures"]), []))
            variant_rows.append(_rows(doc["base"]["figures"], played.deal_sums[0]))
    return CheckReport(variant, base, seed, band, min_buys, tuple(results),
                       _patch_plays(variant_rows, only, base_rows if with_base else None),
                       origins=origins(*editions))


# ----- re-pricing -----------------------------------------------------------------------------


def variant_patch_set(variant_path: Path) -> Path:
    """The patch-set file a variant names in `patches:` (as `deck generate` writes it)."""
    import yaml

    try:
        tree = yaml.safe_load(variant_path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise UsageError(f"cannot read variant {variant_path}: {error}") from None
    ref = tree.get("patches") if isinstance(tree, dict) else None
    if not isinstance(ref, str) or not ref.endswith((".yaml", ".yml")):
        raise UsageError(f"--tune rewrites the patch-set file the variant names in `patches:`; "
                         f"{variant_path} names none (write one with `patchwork deck generate`)")
    path = (variant_path.parent / ref)
    if not path.is_file():
        raise UsageError(f"{variant_path}: patches file {ref} does not exist")
    return path


def rewrite_costs(deck_path: Path, costs: dict[str, int], note: str) -> None:
    """Set new costs in a patch-set file and append a note to its provenance."""
    import yaml

    from toolkit.decks.generate import patch_set_text
    from toolkit.fileio import atomic_write_text
    from toolkit.geometry.shape import Shape
    from toolkit.specs.models import Patch

    tree = yaml.safe_load(deck_path.read_text(encoding="utf-8"))
    patches = []
    duplicates = {}
    for p in tree["patches"]:
        patch = Patch(id=p["id"], shape=Shape.parse(p["shape"]), cost=p.get("cost", 0),
                      time=p.get("time", 0), income=p.get("income", 0), name=p.get("name"),
                      colour=p.get("colour"), tag=p.get("tag"))
        if patch.id in costs:
            patch = replace(patch, cost=costs[patch.id])
        if p.get("duplicate_of"):
            duplicates[patch.id] = p["duplicate_of"]
        patches.append(patch)
    provenance = (tree.get("provenance") or "").rstrip() + " " + note
    atomic_write_text(deck_path, patch_set_text(tree["name"], tree.get("title") or tree["name"],
                                                provenance.strip(), patches, duplicates))


def _distance(report: CheckReport, ids: set[str]) -> float:
    """The summed distance outside the band, in buttons, of the patches `ids`, each by its farthest
    test, significant or not (0 for a patch inside the band)."""
    v = report.verdicts()
    return round(sum(max((t["buttons_outside"] for t in v[pid]["tests"].values()), default=0.0)
                     for pid in ids if pid in v), 6)


def round_distances(before: CheckReport, after: CheckReport, scope: set[str] | None = None) -> tuple[float, float]:
    """How far outside the band, in buttons, the patches significantly out of band before a round
    or after it were (before, after), each measured in both decks whether or not its test reached
    significance there. A round made the deck worse when the second is larger: a patch the round
    did not move but that is only now found (as far out before, short of significance) does not
    count against it; a patch it pushed out, or past its band, does. A patch tuning may not move
    (outside `scope`; None: every patch may move) that was out of band before the round as well
    is left out: its estimate moves with the deck from round to round, and no round can fix it."""
    out_before = {p.id for p in before.out_of_band()}
    ids = {pid for pid in out_before | {p.id for p in after.out_of_band()}
           if scope is None or pid in scope or pid not in out_before}
    return _distance(before, ids), _distance(after, ids)


def joint_slope(history: dict[str, list[tuple[int, float]]]) -> float | None:
    """The deck-wide slope of advantage against cost: least squares with one intercept per patch
    over every (cost, advantage) a patch was played at; None until some patch has two prices, or
    when the fit does not fall with the cost."""
    sxy = sxx = 0.0
    for points in history.values():
        costs = {c for c, _ in points}
        if len(costs) < 2:
            continue
        mc = sum(c for c, _ in points) / len(points)
        ma = sum(a for _, a in points) / len(points)
        sxy += sum((c - mc) * (a - ma) for c, a in points)
        sxx += sum((c - mc) ** 2 for c, _ in points)
    if sxx == 0 or sxy >= 0:
        return None
    return sxy / sxx


@dataclass(frozen=True)
class Bracket:
    """What earlier rounds found of a patch's fair cost: above a cost where it was cheap, below
    one where it was dear."""

    above: int | None = None
    """Highest cost at which the patch was significantly cheap."""
    below: int | None = None
    """Lowest cost at which it was significantly dear."""

    def learn(self, cost: int, verdict: str) -> "Bracket":
        if verdict == "cheap":
            return replace(self, above=cost if self.above is None else max(self.above, cost))
        if verdict in ("dear", "rarely bought at this cost"):
            return replace(self, below=cost if self.below is None else min(self.below, cost))
        return self


def step_to(cost: int, target: float, up: bool, bracket: Bracket = Bracket()) -> int:
    """The next cost of a patch on its way to `target`: DAMPING of the way, rounded, at least one
    button towards it (`up`: the patch is cheap) and at most MAX_STEP, never past a cost the
    bracket rules out (a cheap patch stays below any cost where it was dear, and the other way)."""
    full = abs(target - cost)
    step = min(MAX_STEP, max(1, math.floor(full * DAMPING + 0.5)))
    new = cost + step if up else cost - step
    if up and bracket.below is not None:
        new = min(new, bracket.below - 1)
    if not up and bracket.above is not None:
        new = max(new, bracket.above + 1)
    new = max(0, new)
    return new if (new > cost if up else new < cost) else cost


def repricing(report: CheckReport, slope: float | None, per_round: int, scope: set[str] | None = None,
              brackets: dict[str, Bracket] | None = None) -> dict[str, tuple[int, float]]:
    """New costs (and the targets they head for) of the significantly out-of-band patches in
    `scope` (None: all), the furthest outside first, at most `per_round`. A target from the
    advantage uses the fitted deck-wide slope where it is steeper than ADVANTAGE_PER_BUTTON (a
    shorter step), else that prior."""
    v = report.verdicts()
    brackets = brackets or {}
    candidates = [p for p in report.out_of_band() if scope is None or p.id in scope]
    candidates.sort(key=lambda p: (-v[p.id]["tests"][v[p.id]["basis"]]["buttons_outside"], p.id))
    moves = {}
    for p in candidates[:per_round]:
        verdict = v[p.id]
        up = verdict["verdict"] == "cheap"
        target = float(verdict["suggested_cost"])
        if verdict["basis"] == "advantage" and slope is not None and slope < -ADVANTAGE_PER_BUTTON \
                and p.advantage is not None:  # an advantage verdict has one
            target = p.cost - p.advantage / slope
        new = step_to(p.cost, target, up, brackets.get(p.id, Bracket()))
        if new != p.cost:
            moves[p.id] = (new, target)
    return moves


def _base_rows(base: str, matchups: Sequence[tuple[str, int]], seed: int,
               progress: Progress | None) -> list[dict]:
    """The base edition's patch rows in every matchup, on the deals the variant plays."""
    rows = []
    for bots, games in matchups:
        label = f"{bots} (base)"
        played = play([base], bots, games, seed, partial(progress, label) if progress else None)
        rows.append(_rows(played.document["base"]["figures"], played.deal_sums[0]))
    return rows


def _against_base(report: CheckReport, base_rows: list[dict], found: dict[str, str]) -> CheckReport:
    """A variant-only report with the base's buy rates (same deals) and the patches' origins."""
    bases = _base_plays(base_rows)
    return replace(report, patches=tuple(replace(p, base=bases.get(p.id)) for p in report.patches),
                   origins=found)


def tune(variant_path: Path, base: str, matchups: Sequence[tuple[str, int]], seed: int,
         band: float = DEFAULT_BAND, min_buys: int = DEFAULT_MIN_BUYS, rounds: int = 5,
         per_round: int = 33, only: set[str] | None = None,
         on_round: Callable[[int, CheckReport], None] | None = None,
         progress: Progress | None = None, changed_only: bool = True) -> CheckReport:
    """Re-price the significantly out-of-band patches (with `changed_only`, only those that differ
    from the base edition), rewriting the variant's patch set round by round; undo a round that
    makes the deck worse and stop; then check the result against the base."""
    if rounds < 1 or per_round < 1:
        raise UsageError("--rounds and --per-round must be at least 1")
    _validate(band, min_buys)
    from toolkit.specs import load_edition

    deck_path = variant_patch_set(variant_path)
    ref = str(variant_path)
    found = origins(load_edition(ref), load_edition(base))
    scope = {pid for pid, o in found.items() if o != "base"} if changed_only else None
    base_rows = _base_rows(base, matchups, seed, progress)
    changes: list[dict] = []
    history: dict[str, list[tuple[int, float]]] = {}
    brackets: dict[str, Bracket] = {}

    def judged(report: CheckReport) -> CheckReport:
        report = _against_base(report, base_rows, found)
        v = report.verdicts()
        for p in report.patches:
            if p.advantage is not None and p.buy_rate >= LOW_BUY_RATE:
                history.setdefault(p.id, []).append((p.cost, p.advantage))
            brackets[p.id] = brackets.get(p.id, Bracket()).learn(p.cost, v[p.id]["verdict"])
        return report

    report = judged(check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only, progress=progress))
    if on_round:
        on_round(0, report)
    done, stopped = 0, f"after {rounds} round(s), the most asked for"
    for number in range(1, rounds + 1):
        slope = joint_slope(history)
        moves = repricing(report, slope, per_round, scope, brackets)
        if not moves:
            outside = report.out_of_band()
            in_scope = [p for p in outside if scope is None or p.id in scope]
            left = [p.id for p in outside if p not in in_scope]
            if in_scope:
                stopped = ("the out-of-band patches cannot move (cost 0, or between a cost found cheap and one "
                           "found dear)")
            elif left:
                stopped = (f"no changed patch is significantly outside the band; {len(left)} of the base's own "
                           f"{'is' if len(left) == 1 else 'are'} ({', '.join(left)}): --all-patches re-prices "
                           f"{'it' if len(left) == 1 else 'them'} too")
            else:
                stopped = "no patch is significantly outside the band"
            break
        verdict = report.verdicts()
        by_id = {p.id: p for p in report.patches}
        rewrite_costs(deck_path, {pid: new for pid, (new, _) in moves.items()},
                      f"Re-priced by `patchwork deck check --tune` round {number} (seed {seed}, band {band}): "
                      + ", ".join(f"{pid} {by_id[pid].cost}->{new}" for pid, (new, _) in moves.items()) + ".")
        after = judged(check(ref, base, matchups, seed, band, min_buys, with_base=False, only=only,
                             progress=progress))
        if on_round:
            on_round(number, after)
        distance_before, distance_after = round_distances(report, after, scope)
        if distance_after > distance_before:
            rewrite_costs(deck_path, {pid: by_id[pid].cost for pid in moves},
                          f"Round {number} undone: it left the deck further from the band.")
            stopped = (f"round {number} made the deck worse (the patches found out of band were {distance_after:g} "
                       f"buttons outside it, against {distance_before:g}): its moves were undone and tuning stopped")
            break
        for pid, (new, target) in moves.items():
            p = by_id[pid]
            changes.append({"round": number, "id": pid, "origin": found.get(pid), "from": p.cost, "to": new,
                            "target": round(target, 2), "verdict": verdict[pid]["verdict"],
                            "basis": verdict[pid]["basis"], "buy_rate": round(p.buy_rate, 4),
                            "base_buy_rate": None if p.base is None or not p.base.games else
                            round(p.base.bought / p.base.games, 4),
                            "advantage": None if p.advantage is None else round(p.advantage, 4),
                            "slope": None if slope is None else round(slope, 4)})
        report, done = after, number
    final = check(ref, base, matchups, seed, band, min_buys, with_base=True, only=only, progress=progress)
    return replace(final, changes=tuple(changes), rounds=done, stopped=stopped, origins=found,
                   tuned="changed" if changed_only else "all")
