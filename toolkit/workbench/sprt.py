"""Sequential tests: stop a paired comparison as soon as it is decisive.

The test is a generalized sequential probability ratio test (GSPRT) on the per-deal differences
d (variant minus base, same deal seeds). With the unknown variance replaced by its estimate from
the data so far, the log-likelihood ratio of "mean difference = delta" against "mean difference =
0" under the normal model is

    LLR(delta) = (delta * sum(d) - n * delta^2 / 2) / var(d).

Two one-sided tests run side by side, for +delta and -delta. Wald's bounds with error rates
alpha/2 each and beta: the variant is called *different* as soon as either LLR reaches
log((1 - beta) / (alpha / 2)); it is called *same* once both LLRs fall to log(beta / (1 - alpha / 2)).
So, up to the normal approximation: when the true difference is 0 the test calls "different" with
probability at most alpha; when it is at least delta in size it calls "same" with probability at
most beta. Looks happen after batches of deals (the overshoot only makes the bounds more
conservative); when --games runs out first, the result is *undecided*.

A variance of 0 (every deal gave the same difference) is certainty: a constant difference of 0
means "same", a nonzero constant at least delta/2 means "different".

Several variants tested in one run share the error rates (Bonferroni): each variant's test runs at
alpha / k and beta / k, so the chance of any wrong call over the k variants stays within alpha
(or beta). A verdict carries the difference's estimate and standard error at the stopping look,
the smallest difference a fixed test of that many deals could detect (two-sided alpha, power
1 - beta), and, when undecided, about how many more games a fixed test would need to tell a
difference of delta from none.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from toolkit.errors import UsageError
from toolkit.families import family_of
from toolkit.sim.shards import Games
from toolkit.specs.models import Edition
from toolkit.workbench import runner

FIGURES = {
    "seat-win": ("player 1 win rate", 0.05),
    "score": ("mean score per player", 2.0),
    "margin": ("margin player 1 - player 2", 2.0),
}
"""--sprt figure -> (label, default smallest difference that matters)."""
MIN_DEALS = 50
"""Deals before the first look, so the variance estimate means something."""
DIFFERENT, SAME, UNDECIDED = "different", "same", "undecided"


@dataclass(frozen=True)
class SprtPlan:
    """A validated sequential test."""

    figure: str
    delta: float
    """Smallest difference that matters, in the figure's unit (per game)."""
    alpha: float
    """Bound on calling an identical variant different."""
    beta: float
    """Bound on calling a variant `delta` away the same."""

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / (self.alpha / 2))

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha / 2))

    def statement(self) -> str:
        label = FIGURES[self.figure][0]
        return (f"GSPRT on the per-deal paired difference of the {label}: H0 difference 0 against H1 |difference| "
                f">= {self.delta:g}; P(call different | no difference) <= {self.alpha:g}, P(call same | "
                f"|difference| >= {self.delta:g}) <= {self.beta:g} (normal approximation, variance estimated); "
                f"looks after batches of deals, the first after {MIN_DEALS}")


def for_variants(p: SprtPlan, variants: int) -> SprtPlan:
    """The plan each of `variants` tests runs at: alpha and beta shared among them (Bonferroni)."""
    if variants <= 1:
        return p
    return SprtPlan(p.figure, p.delta, p.alpha / variants, p.beta / variants)


def plan(figure: str, delta: float | None, alpha: float, beta: float, edition: Edition) -> SprtPlan:
    if figure not in FIGURES:
        raise UsageError(f"--sprt '{figure}': expected one of {', '.join(FIGURES)}")
    info = family_of(edition).info
    if figure not in info.test_figures:
        raise UsageError(f"--sprt '{figure}': {info.title} has no seats to compare; use --sprt "
                         f"{' or '.join(info.test_figures)}")
    if not 0 < alpha < 0.5:
        raise UsageError(f"--sprt-alpha must lie strictly between 0 and 0.5, got {alpha:g}")
    if not 0 < beta < 0.5:
        raise UsageError(f"--sprt-beta must lie strictly between 0 and 0.5, got {beta:g}")
    if delta is None:
        delta = FIGURES[figure][1]
    if not (delta > 0 and math.isfinite(delta)):
        raise UsageError(f"--sprt-delta must be a positive difference, got {delta:g}")
    if figure == "seat-win" and delta >= 1:
        raise UsageError(f"--sprt-delta {delta:g}: the player 1 win rate is a share of games, so its difference lies "
                         "below 1 (0.05 is 5 percentage points)")
    return SprtPlan(figure, float(delta), float(alpha), float(beta))


def per_deal(games: Games, figure: str, per_deal_games: int) -> np.ndarray:
    """The figure per deal, in its per-game unit (win rate, points per player, margin)."""
    if figure == "seat-win":
        x = (games.winner == 0).astype(float)
    elif figure == "margin":
        x = (games.score[:, 0] - games.score[:, 1]).astype(float)
    else:
        x = games.score.mean(axis=1).astype(float)
    return x.reshape(-1, per_deal_games).mean(axis=1)


def llrs(d: np.ndarray, delta: float) -> tuple[float, float]:
    """(LLR for +delta, LLR for -delta) against 0, variance estimated (inf/-inf when it is 0)."""
    n = d.shape[0]
    total = float(d.sum())
    var = float(d.var(ddof=1)) if n > 1 else 0.0
    if var <= 1e-12:
        mean = total / n if n else 0.0
        def sure(sign: float) -> float:
            gap = sign * mean - delta / 2
            return math.inf if gap >= 0 and mean != 0 else -math.inf
        return sure(1.0), sure(-1.0)
    half = n * delta * delta / 2
    return (delta * total - half) / var, (-delta * total - half) / var


def decide(d: np.ndarray, p: SprtPlan) -> tuple[str, float, float]:
    up, down = llrs(d, p.delta)
    if max(up, down) >= p.upper:
        return DIFFERENT, up, down
    if up <= p.lower and down <= p.lower:
        return SAME, up, down
    return UNDECIDED, up, down


def z_sum(alpha: float, beta: float) -> float:
    """z of a two-sided test at alpha plus z of power 1 - beta."""
    from statistics import NormalDist

    nd = NormalDist()
    return nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(1 - beta)


def verdict(decision: str, games: int, p: SprtPlan, up: float, down: float, d: np.ndarray | None = None,
            per_deal_games: int = 1) -> dict:
    """A variant's decision, with the estimate at the stopping look, the smallest difference this
    many deals could detect and, when undecided, about how many more games would decide."""
    def finite(x: float):
        return round(x, 4) + 0.0 if math.isfinite(x) else ("inf" if x > 0 else "-inf")

    out = {"figure": p.figure, "label": FIGURES[p.figure][0], "decision": decision, "games": games,
           "delta": p.delta, "alpha": p.alpha, "beta": p.beta, "llr_plus": finite(up), "llr_minus": finite(down),
           "bounds": {"different": round(p.upper, 4), "same": round(p.lower, 4)}}
    if d is None or d.shape[0] < 2:
        return out
    deals = int(d.shape[0])
    sd = float(d.std(ddof=1))
    se = sd / math.sqrt(deals)
    z = z_sum(p.alpha, p.beta)
    out["difference"] = round(float(d.mean()), 6) + 0.0
    out["se"] = round(se, 6) + 0.0
    out["detectable"] = round(z * se, 6) + 0.0
    if decision == UNDECIDED:
        needed = math.ceil((z * sd / p.delta) ** 2) if sd > 0 else deals
        out["more_games"] = max(needed - deals, 0) * per_deal_games
        out["fixed_games"] = needed * per_deal_games
    return out


def run_sequential(editions, seating, seed: int, max_deals: int, p: SprtPlan, workers: int = 1,
                   scheduler: str | None = None, progress=None) -> tuple[runner.Played, list[dict]]:
    """Play deals in growing batches until every variant is decided or `max_deals` are played.

    Each variant keeps the decision of the first look at which it was decisive; play goes on while
    any variant is undecided (the base and every variant always share the same deals).
    """
    parts: list[runner.Played] = []
    verdicts: list[dict | None] = [None] * (len(editions) - 1)
    p = for_variants(p, len(editions) - 1)
    last: list[tuple[str, float, float]] = []
    for start, stop in runner.batches(min(MIN_DEALS, max_deals), max_deals):
        parts.append(runner.play(editions, seating, seed, start, stop, workers, scheduler, progress=progress))
        played = runner.combine(parts)
        base = per_deal(played.per_game[0], p.figure, played.per_deal)
        last = []
        for k in range(1, len(editions)):
            d = per_deal(played.per_game[k], p.figure, played.per_deal) - base
            decision, up, down = decide(d, p)
            last.append((decision, up, down))
            if verdicts[k - 1] is None and decision != UNDECIDED:
                verdicts[k - 1] = verdict(decision, played.games, p, up, down, d, played.per_deal)
        if all(v is not None for v in verdicts):
            break
    played = runner.combine(parts)
    base = per_deal(played.per_game[0], p.figure, played.per_deal)
    decided = [v if v is not None else
               verdict(UNDECIDED, played.games, p, last[k][1], last[k][2],
                       per_deal(played.per_game[k + 1], p.figure, played.per_deal) - base, played.per_deal)
               for k, v in enumerate(verdicts)]
    return played, decided


def balance(refs: list[str], bots_text: str, games: int, seed: int, workers: int, scheduler: str | None,
            automa_level: int, automa_deck: str, figure: str, delta: float | None, alpha: float, beta: float,
            progress=None):
    """`balance --sprt`: the balance experiment, stopped when every variant's test is decisive.

    Returns (request, outcome, verdicts, statement): the request and outcome of the games actually
    played (so the balance document and reports are the usual ones) and one verdict per variant.
    """
    from toolkit.sim import experiment

    request = experiment.prepare(refs, bots_text, games, seed, workers, scheduler, automa_level, automa_deck)
    return run_balance(request, plan(figure, delta, alpha, beta, request.editions[0]), progress)


def run_balance(request, p: SprtPlan, progress=None):
    """The games of `balance` for a prepared request and a checked plan (the CLI checks both, then
    says whether the kernels compile, then plays); returns what `balance` returns."""
    import dataclasses
    import time

    from toolkit.sim import experiment

    started = time.perf_counter()
    played, verdicts = run_sequential(request.editions, request.seating, request.seed, request.deals, p, request.workers,
                                      request.scheduler, progress)
    request = dataclasses.replace(request, games=played.games)
    outcome = experiment.Outcome(played.merged, played.shards, time.perf_counter() - started)
    statement = p.statement()
    k = len(request.editions) - 1
    if k > 1:
        statement += (f"; {k} variants share these error rates (Bonferroni: each test runs at alpha {p.alpha / k:.4g} "
                      f"and beta {p.beta / k:.4g})")
    return request, outcome, verdicts, statement
