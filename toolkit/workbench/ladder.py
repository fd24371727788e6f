"""`patchwork ladder`: a paired round robin of bots and their Bradley-Terry ratings on the Elo scale.

Every pair of bots plays the same deal seeds, each deal twice with the seats swapped. The
Bradley-Terry model says bot i beats bot j with probability p_i / (p_i + p_j); the ratings are the
maximum-likelihood strengths as Elo points, 400 * log10(p_i), centred so that they average 0.
A tie (the time-track games break ties, so there are none today) would count half a win each.

PRIOR virtual games per pair, drawn (half a win each way), keep the ratings finite when a bot wins
every game against another; their pull (`prior_pull`: the most they move any rating, or that
without them a rating is infinite) is stated in the result. Intervals are 95% profile-likelihood
intervals of the centred ratings (`profile_interval`), with the deal as the unit: a pair's two
seat-swapped games of one deal are one cluster, so each pair's games count divided by the design
effect of its first bot's win rate (never below 1; see toolkit.stats). Wald intervals from the
observed information (`covariance`) held a lopsided ladder's end ratings 90-92% of the time,
these 92-97% (benchmarks/audit_ladder.py synthetic).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations

import numpy as np

from toolkit.errors import UsageError
from toolkit.bots.registry import AUTOMA, BotSpec
from toolkit.stats import Z95, deal_rate, per_deal_sq
from toolkit.families import Seating, family_of, require
from toolkit.specs.models import Edition
from toolkit.workbench import runner

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength."""
PRIOR = 1.0


def check(edition: Edition, bots: list[BotSpec]) -> None:
    require(edition, "head_to_head", "ladder", "the ladder rates bots by head-to-head wins")
    if len(bots) < 2:
        raise UsageError("ladder: name at least 2 bots, e.g. patchwork ladder random greedy mcts:200")
    if any(b.kind == AUTOMA for b in bots):
        raise UsageError("ladder: automa is a solo opponent with its own rules, not a seat-swappable bot")
    names = [b.name for b in bots]
    if len(set(names)) != len(names):
        raise UsageError(f"ladder: a bot is named twice ({', '.join(names)})")


def pair_seating(edition: Edition, first: BotSpec, second: BotSpec) -> Seating:
    """How one pair of the ladder sits: as its family seats `--bots FIRST,SECOND` (seats swapped)."""
    return family_of(edition).seating((first, second), edition, f"{first.name},{second.name}")


def fit(wins: np.ndarray, prior: float = PRIOR, iterations: int = 10_000, tol: float = 1e-12) -> np.ndarray:
    """Bradley-Terry log-strengths (mean 0) from wins[i, j] = games i won against j (MM algorithm)."""
    w = wins.astype(float) + prior / 2 * (1 - np.eye(wins.shape[0]))
    n = w + w.T
    total = w.sum(axis=1)
    if np.any(total <= 0):
        raise ValueError("every bot needs at least one win (or a prior) for a finite rating")
    p = np.ones(w.shape[0])
    for _ in range(iterations):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    theta = np.log(p)
    return theta - theta.mean()


def finite_without_prior(wins: np.ndarray) -> bool:
    """Whether the ratings have a finite maximum without the prior: every bot beat, through some
    chain of wins, every other (the win graph is strongly connected)."""
    k = wins.shape[0]
    beat = wins > 0
    for start in range(k):
        for graph in (beat, beat.T):  # reaches every bot by wins, and is reached by every bot
            seen, todo = {start}, [start]
            while todo:
                i = todo.pop()
                for j in np.flatnonzero(graph[i]):
                    if int(j) not in seen:
                        seen.add(int(j))
                        todo.append(int(j))
            if len(seen) < k:
                return False
    return True


def prior_pull(wins: np.ndarray, prior: float = PRIOR) -> float | None:
    """The most the prior's virtual games move any rating, in Elo points; None when without them
    some rating would be infinite (a bot that won, or lost, every game of its pairs)."""
    if prior == 0:
        return 0.0
    if not finite_without_prior(wins):
        return None
    return float(ELO * np.max(np.abs(fit(wins, prior) - fit(wins, 0.0))))


def covariance(wins: np.ndarray, theta: np.ndarray, prior: float = PRIOR,
               design: np.ndarray | None = None) -> np.ndarray:
    """Covariance of the centred log-strengths: pseudo-inverse of the observed information, each
    pair's games divided by its design effect `design[i, j]` (None: games counted one by one)."""
    w = wins.astype(float) + prior / 2 * (1 - np.eye(wins.shape[0]))
    n = w + w.T
    if design is not None:
        n = n / np.maximum(design, 1.0)
    pr = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    info = -n * pr * (1 - pr)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    return np.linalg.pinv(info)


LR95 = 3.841458820694124
"""The chi-square (1 degree of freedom) 95% point: a rating inside its interval when twice the
log-likelihood it costs is below this."""


def _weighted(wins: np.ndarray, prior: float, design: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Wins with the prior's drawn games, each pair's divided by its design effect; and games a pair."""
    w = wins.astype(float) + prior / 2 * (1 - np.eye(wins.shape[0]))
    if design is not None:
        w = w / np.maximum(design, 1.0)
    return w, w + w.T


def _loglik(theta: np.ndarray, w: np.ndarray) -> float:
    return float(np.sum(w * -np.logaddexp(0.0, -(theta[:, None] - theta[None, :]))))


def _constrained_max(theta: np.ndarray, w: np.ndarray, n: np.ndarray, fixed: int | None, value: float) -> np.ndarray:
    """The log-strengths of highest likelihood with mean 0 and, when `fixed` is a bot, its rating
    held at `value` (Newton steps on the constrained problem, halved while they lower the likelihood)."""
    k = len(theta)
    rows = [np.ones(k)] + ([np.eye(k)[fixed]] if fixed is not None else [])
    constraints = np.array(rows)
    th = theta - theta.mean()
    if fixed is not None:  # a start that meets both constraints
        others = np.arange(k) != fixed
        th[fixed] = value
        th[others] -= (th[others].sum() + value) / others.sum()
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(th[:, None] - th[None, :])))
        grad = (w - n * p).sum(axis=1)
        curve = n * p * (1 - p)
        np.fill_diagonal(curve, 0.0)
        hessian = curve - np.diag(curve.sum(axis=1))
        m = len(constraints)
        system = np.block([[hessian, constraints.T], [constraints, np.zeros((m, m))]])
        step = np.linalg.lstsq(system, np.concatenate([-grad, np.zeros(m)]), rcond=None)[0][:k]
        base, t = _loglik(th, w), 1.0
        while t > 1e-8 and _loglik(th + t * step, w) < base - 1e-12:
            t /= 2
        th = th + t * step
        if np.max(np.abs(t * step)) < 1e-10:
            break
    return th


def profile_interval(wins: np.ndarray, i: int, prior: float = PRIOR, design: np.ndarray | None = None,
                     top: np.ndarray | None = None) -> tuple[float | None, float | None]:
    """The 95% profile-likelihood interval of bot i's centred log-strength: the ratings whose best
    likelihood (every other strength free) lies within LR95 / 2 of the maximum, each pair's games
    divided by its design effect. Unlike a Wald interval it follows the likelihood's skew, which a
    bot winning one game in a hundred makes strong. None at an end the search does not reach."""
    w, n = _weighted(wins, prior, design)
    if top is None:
        top = _constrained_max(np.zeros(wins.shape[0]), w, n, None, 0.0)
    best = _loglik(top, w)

    def short(value: float) -> float:  # > 0 inside the interval
        return LR95 / 2 - (best - _loglik(_constrained_max(top, w, n, i, value), w))

    def end(direction: float) -> float | None:
        inside, step = top[i], 0.25
        outside = inside + direction * step
        while short(outside) > 0:
            inside, step = outside, step * 2
            outside = inside + direction * step
            if step > 64:
                return None
        for _ in range(50):
            middle = (inside + outside) / 2
            inside, outside = (middle, outside) if short(middle) > 0 else (inside, middle)
        return (inside + outside) / 2

    return end(-1.0), end(1.0)


def ratings(labels: list[str], wins: np.ndarray, prior: float = PRIOR, design: np.ndarray | None = None) -> list[dict]:
    theta = fit(wins, prior)
    w, n = _weighted(wins, prior, design)
    top = _constrained_max(theta, w, n, None, 0.0)
    rows = []
    for i, label in enumerate(labels):
        elo = ELO * theta[i]
        low, high = profile_interval(wins, i, prior, design, top)
        won, lost = int(wins[i].sum()), int(wins[:, i].sum())
        rows.append({"bot": label, "elo": round(elo, 2) + 0.0,
                     "low": None if low is None else round(min(ELO * low, elo), 2) + 0.0,
                     "high": None if high is None else round(max(ELO * high, elo), 2) + 0.0, "games": won + lost,
                     # a bot that won (lost) every game has no upper (lower) bound without the prior: the
                     # interval's end there is the prior's, not the games'
                     "open": "high" if won and not lost else "low" if lost and not won else None})
    return sorted(rows, key=lambda r: -r["elo"])


def run(edition: Edition, bots: list[BotSpec], seed: int, deals: int, workers: int, scheduler: str | None,
        progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, list[dict]]:
    """Play every pair on deals 0..deals (the same deals for every pair); wins matrix and pair rows."""
    k = len(bots)
    wins = np.zeros((k, k), dtype=np.int64)
    pairs = []
    for i, j in combinations(range(k), 2):
        played = runner.play((edition,), pair_seating(edition, bots[i], bots[j]), seed, 0, deals, workers, scheduler,
                             progress=progress)
        g = played.per_game[0]
        bot_won = g.winner ^ played.swap  # 0: bots[i] won, 1: bots[j] won
        wins[i, j] += int((bot_won == 0).sum())
        wins[j, i] += int((bot_won == 1).sum())
        first = (bot_won == 0).astype(np.int64)
        pairs.append({"bots": [bots[i].label, bots[j].label], "games": played.games,
                      "first_wins": deal_rate(int(first.sum()), played.games, played.per_deal,
                                              per_deal_sq(first, played.per_deal)).as_dict()})
    return wins, pairs


def design_effects(labels: list[str], pairs: list[dict]) -> np.ndarray:
    """The k x k matrix of each pair's design effect (1 where a pair has none: one game a deal)."""
    index = {label: i for i, label in enumerate(labels)}
    design = np.ones((len(labels), len(labels)))
    for pair in pairs:
        i, j = (index[b] for b in pair["bots"])
        design[i, j] = design[j, i] = pair["first_wins"].get("design_effect") or 1.0
    return design
