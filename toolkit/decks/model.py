"""A linear pricing model: a patch's button cost from its stats and its shape.

cost ~ b0 + b1 cells + b2 time + b3 income + b4 empty bounding-box cells + b5 orientations
       + b6 placements on an empty board / 100

fitted by least squares (numpy) on a real deck. Empty bounding-box cells measure how ragged
(concave) a patch is; orientations and placements measure how easy it is to fit in. The model
fits the printed prices: its R² and its errors say how well it reproduces them, not what a patch
is worth in play (`patchwork deck check` plays a deck to measure that).

Residual = cost - predicted: positive is a patch dearer than its stats and shape suggest, negative
a cheaper one. Each is tested, not just ranked: its externally studentised residual (the residual
over the spread of the fit made without that patch, times sqrt(1 - leverage)) follows Student's t
with n - p - 1 degrees of freedom when the costs are linear in the terms plus independent normal
noise of one spread; its two-sided p-value is adjusted by Holm's step-down over the deck's
patches (refitting without each patch found, so that one mispriced patch does not drag its
neighbours' residuals with it), and a patch whose adjusted p is below ALPHA is "priced off the
model". The others are at most the largest residuals, which some patch always has. The test
assumes normal noise: with heavier tails it finds more (benchmarks/audit_deck_fit.py).

Cross-validated error, without an arbitrary split: by default leave-one-out (each patch predicted
by the fit on the other n - 1; exact, by the hat-matrix identity e_i = r_i / (1 - h_i)), nearly
unbiased for the error on a new patch like the deck's; with `folds` = k < n, k-fold cross-
validation averaged over CV_REPEATS random splits drawn from a fixed seed, which fits on (k - 1)/k
of the deck and so overstates that error, more for small k. Its 95 % interval comes from a
residual bootstrap of the whole procedure (error_interval: BOOTSTRAP resamples, fixed seed);
benchmarks/audit_deck_fit.py measures how often it covers the true error of synthetic decks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from toolkit.decks.deck import MAX_CV_ROWS
from toolkit.errors import UsageError
from toolkit.geometry.board import Board, placements
from toolkit.geometry.shape import Shape

FEATURES = ("cells", "time", "income", "bbox_empty", "orientations", "placements")
"""Model terms, after the intercept."""
FEATURE_TEXT = {
    "cells": "cloth cells",
    "time": "time spaces",
    "income": "printed buttons",
    "bbox_empty": "empty cells of the bounding box (concavity)",
    "orientations": "distinct orientations (1-8)",
    "placements": "placements on an empty board, per 100",
}
MIN_PATCHES = len(FEATURES) + 3
"""Fewest priced patches that leave the fit some degrees of freedom."""
ALPHA = 0.05
"""Family-wise error rate of the "priced off the model" verdict, over all the deck's patches."""
CV_REPEATS = 200
"""Random splits k-fold cross-validation is averaged over (leave-one-out has only one)."""
CV_SEED = 0
"""Seed of those splits and of the bootstrap: the same deck always prints the same figures."""
BOOTSTRAP = 2000
"""Resamples of the patches behind the cross-validated error's interval."""
LEVERAGE_ONE = 1.0 - 1e-9
"""A patch at least this leveraged is fitted exactly whatever its cost: its residual is no test."""


def cv_rows(n: int, folds: int | None) -> int:
    """Rows the refits of cross-validation solve, summed (0 for leave-one-out by the identity)."""
    if folds is None:
        return 0
    return n * (folds - 1) * (1 if folds >= n else CV_REPEATS)


def features(shape: Shape, time: int, income: int, board: Board, allow_flip: bool = True) -> list[float]:
    """The model's terms for one patch, in FEATURES order."""
    return [
        float(shape.size),
        float(time),
        float(income),
        float(shape.width * shape.height - shape.size),
        float(len(shape.orientations(allow_flip))),
        len(placements(shape, board, allow_flip)) / 100.0,
    ]


@dataclass(frozen=True)
class PriceModel:
    """Fitted coefficients: cost = intercept + sum(coefficients[f] * feature f)."""

    intercept: float
    coefficients: tuple[float, ...]
    board: Board
    allow_flip: bool
    standard_errors: tuple[float, ...] = ()
    """Of the intercept and then each coefficient (ordinary least squares, homoscedastic)."""

    def predict_row(self, row: list[float]) -> float:
        return self.intercept + float(np.dot(self.coefficients, row))

    def predict(self, shape: Shape, time: int, income: int) -> float:
        return self.predict_row(features(shape, time, income, self.board, self.allow_flip))

    def as_dict(self) -> dict:
        out = {"intercept": round(self.intercept, 4),
               "coefficients": {f: round(c, 4) for f, c in zip(FEATURES, self.coefficients)}}
        if self.standard_errors:
            out["standard_errors"] = {name: round(se, 4) for name, se
                                      in zip(("intercept",) + FEATURES, self.standard_errors)}
        return out


@dataclass(frozen=True)
class PatchFit:
    id: str
    cost: int
    predicted: float
    residual: float
    """cost - predicted: positive is dearer than its stats and shape suggest."""
    cv_predicted: float
    """Prediction by the model fitted without this patch (leave-one-out), or the mean over the
    random splits of the prediction by the fit without its fold."""
    studentised: float | None = None
    """Externally studentised residual (Student's t under the model) of the fit without the patches
    found priced off the model before it (see _test_residuals); None at leverage 1."""
    p_adjusted: float | None = None
    """Holm-adjusted two-sided p of the studentised residual over the deck's testable patches."""

    @property
    def off_model(self) -> bool:
        """Priced off the model: the residual is told apart from the fit's spread at ALPHA."""
        return self.p_adjusted is not None and self.p_adjusted < ALPHA


@dataclass(frozen=True)
class CrossValidation:
    """Cross-validated error of the model on the deck, with its bootstrap interval."""

    folds: int
    """Folds; equal to the number of patches for leave-one-out."""
    repeats: int
    """Random splits averaged (1 for leave-one-out)."""
    error: float
    """Root mean square of the cross-validated prediction errors, in buttons."""
    low: float
    high: float
    """95 % interval of the model's error on a new patch (error_interval)."""
    mae: float
    """Mean absolute cross-validated error."""

    @property
    def leave_one_out(self) -> bool:
        return self.repeats == 1

    def method(self) -> str:
        if self.leave_one_out:
            return "leave-one-out (each patch predicted by the fit on the others)"
        return (f"{self.folds}-fold, averaged over {self.repeats} random splits (seed {CV_SEED}); "
                f"fits on {self.folds - 1}/{self.folds} of the deck, so it overstates the error")

    def label(self) -> str:
        return "leave-one-out CV error" if self.leave_one_out else f"{self.folds}-fold CV error"

    def text(self) -> str:
        """E.g. `leave-one-out CV error 1.28 buttons [0.96, 1.58]`."""
        return f"{self.label()} {self.error:.2f} buttons [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True)
class Fit:
    """A model with its goodness of fit on the deck it was fitted on."""

    deck: str
    model: PriceModel
    r2: float
    adjusted_r2: float
    rmse: float
    """Root mean square residual on the fitting data."""
    residual_sd: float
    """Residual standard deviation, sqrt(SSE / (n - rank)): the spread the residuals are judged by."""
    cv: CrossValidation
    patches: tuple[PatchFit, ...]

    @property
    def cv_error(self) -> float:
        return self.cv.error

    @property
    def cv_mae(self) -> float:
        return self.cv.mae

    @property
    def folds(self) -> int:
        return self.cv.folds

    def tested(self) -> int:
        """Patches whose residual is tested (those not fitted exactly by leverage 1)."""
        return sum(p.p_adjusted is not None for p in self.patches)

    def off_model(self) -> list[PatchFit]:
        """Patches priced off the model (adjusted p < ALPHA), largest |studentised| first."""
        return sorted((p for p in self.patches if p.off_model), key=lambda p: (-abs(p.studentised or 0.0), p.id))

    def over_priced(self, top: int) -> list[PatchFit]:
        """The `top` largest positive residuals: a ranking, not a test (see off_model)."""
        return sorted((p for p in self.patches if p.residual > 0), key=lambda p: (-p.residual, p.id))[:top]

    def under_priced(self, top: int) -> list[PatchFit]:
        """The `top` largest negative residuals: a ranking, not a test (see off_model)."""
        return sorted((p for p in self.patches if p.residual < 0), key=lambda p: (p.residual, p.id))[:top]

    def as_dict(self, top: int = 5) -> dict:
        def row(p: PatchFit) -> dict:
            return {"id": p.id, "cost": p.cost, "predicted": round(p.predicted, 3),
                    "residual": round(p.residual, 3), "cv_predicted": round(p.cv_predicted, 3),
                    "studentised": None if p.studentised is None else _rounded(p.studentised, 3),
                    "p_adjusted": None if p.p_adjusted is None else round(p.p_adjusted, 4),
                    "off_model": p.off_model}

        off = self.off_model()
        return {
            "deck": self.deck,
            "n": len(self.patches),
            "model": {"terms": list(FEATURES), **self.model.as_dict(),
                      "board": f"{self.model.board.width}x{self.model.board.height}",
                      "allow_flip": self.model.allow_flip},
            "fits": "the printed prices, not a patch's value in play (patchwork deck check measures that)",
            "r2": round(self.r2, 4),
            "adjusted_r2": round(self.adjusted_r2, 4),
            "rmse": round(self.rmse, 4),
            "residual_sd": round(self.residual_sd, 4),
            "cv_error": round(self.cv.error, 4),
            "cv_interval": [round(self.cv.low, 4), round(self.cv.high, 4)],
            "cv_mae": round(self.cv.mae, 4),
            "cv": (f"{self.cv.method()}; root mean square error; 95% interval by a residual bootstrap "
                   f"of the fit and its cross-validation ({BOOTSTRAP} resamples, seed {CV_SEED})"),
            "folds": self.cv.folds,
            "cv_repeats": self.cv.repeats,
            "test": (f"externally studentised residual, two-sided Student t p-value, Holm step-down over "
                     f"{self.tested()} patches refitting without each patch found; priced off the model "
                     f"when below {ALPHA}; assumes normal noise"),
            "alpha": ALPHA,
            "patches": [row(p) for p in self.patches],
            "off_model": {"dearer": [p.id for p in off if p.residual > 0],
                          "cheaper": [p.id for p in off if p.residual < 0]},
            "largest_residuals": {"dearer": [p.id for p in self.over_priced(top)],
                                  "cheaper": [p.id for p in self.under_priced(top)]},
        }


def _rounded(value: float, digits: int) -> float | str:
    """JSON has no infinity: a residual the others fit exactly is studentised to "inf"/"-inf"."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return round(value, digits)


def _solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    design = np.column_stack([np.ones(len(x)), x])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    return beta


# ----- Student's t ---------------------------------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz),
    for x < (a + 1) / (a + b + 2), where it converges fast."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 400):
        # the even step d_2m, then the odd step d_2m+1 (Abramowitz and Stegun 26.5.8)
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return min(1.0, _incomplete_beta(df / 2.0, 0.5, df / (df + t * t)))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error over all of them), in input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


# ----- the fit -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Arrays:
    """The fit's figures on a design (x: n x terms) and costs y, before they are named."""

    beta: np.ndarray
    predicted: np.ndarray
    residual: np.ndarray
    leverage: np.ndarray
    rank: int
    covariance: np.ndarray
    studentised: list[float | None]
    p_adjusted: list[float | None]
    cv_predicted: np.ndarray
    cv_squared: np.ndarray
    """Per patch: squared cross-validated error (mean over the random splits for k folds)."""
    cv_absolute: np.ndarray


def _studentised(residual: np.ndarray, leverage: np.ndarray, df: int, scale: float) -> list[float | None]:
    """Externally studentised residuals; None where the leverage is 1 or no spread is left."""
    n = len(residual)
    out: list[float | None] = [None] * n
    if df < 2:
        return out
    tolerance = 1e-9 * scale  # below this a residual is rounding: the costs are fitted exactly
    r = np.where(np.abs(residual) < tolerance, 0.0, residual)
    sse = float(r @ r)
    for i in range(n):
        if leverage[i] >= LEVERAGE_ONE:
            continue
        left = sse - r[i] ** 2 / (1.0 - leverage[i])  # the SSE of the fit without patch i
        if left <= (tolerance ** 2) * n:
            out[i] = 0.0 if r[i] == 0.0 else math.copysign(math.inf, r[i])
            continue
        out[i] = float(r[i] / math.sqrt(left / (df - 1) * (1.0 - leverage[i])))
    return out


def _test_residuals(design: np.ndarray, y: np.ndarray,
                    scale: float) -> tuple[list[float | None], list[float | None]]:
    """Holm's step-down over the patches' externally studentised residuals, refitting without each
    patch found: a mispriced patch pulls the fit towards itself, and would lend its pull to its
    neighbours' residuals if it stayed in. Step j (from 0) finds the most extreme residual of the
    fit without the j patches found so far and calls it priced off the model when m - j times its
    p-value (m: patches tested at step 0), raised to the previous step's, is below ALPHA; at the
    first step that finds nothing, the rest get Holm's adjustment of that fit's p-values in
    order. With no patch found this is Holm's procedure on the one fit."""
    n = len(y)
    studentised: list[float | None] = [None] * n
    adjusted: list[float | None] = [None] * n
    active = np.ones(n, dtype=bool)
    running, found, tested = 0.0, 0, None
    while True:
        index = np.flatnonzero(active)
        part = design[index]
        beta, *_ = np.linalg.lstsq(part, y[index], rcond=None)
        residual = y[index] - part @ beta
        leverage = np.clip(np.einsum("ij,jk,ik->i", part, np.linalg.pinv(part.T @ part), part), 0.0, 1.0)
        df = len(index) - int(np.linalg.matrix_rank(part))
        t = _studentised(residual, leverage, df, scale)
        p = {k: t_two_sided(value, df - 1) for k, value in enumerate(t) if value is not None}
        if tested is None:
            tested = len(p)
        if not p:
            return studentised, adjusted
        order = sorted(p, key=lambda k: (p[k], index[k]))
        best = order[0]
        step = max(running, min(1.0, max(1, tested - found) * p[best]))
        if step < ALPHA:
            studentised[index[best]], adjusted[index[best]] = t[best], step
            running, found = step, found + 1
            active[index[best]] = False
            continue
        for rank, k in enumerate(order):
            running = max(running, min(1.0, max(1, tested - found - rank) * p[k]))
            studentised[index[k]], adjusted[index[k]] = t[k], running
        return studentised, adjusted


def _cross_validate(x: np.ndarray, y: np.ndarray, design: np.ndarray, residual: np.ndarray,
                    leverage: np.ndarray, folds: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(prediction, squared error, absolute error) per patch, out of sample (means over the splits)."""
    n = len(y)
    if folds is None or folds >= n:
        pred = y - np.divide(residual, 1.0 - leverage, out=np.zeros(n), where=leverage < LEVERAGE_ONE)
        for i in np.flatnonzero(leverage >= LEVERAGE_ONE):  # the identity fails: refit without it
            keep = np.arange(n) != i
            pred[i] = design[i] @ _solve(x[keep], y[keep])
        return pred, (y - pred) ** 2, np.abs(y - pred)
    rng = np.random.default_rng(CV_SEED)
    total = np.zeros(n)
    squared = np.zeros(n)
    absolute = np.zeros(n)
    fold_of = np.arange(n) % folds  # balanced folds, shuffled afresh for every split
    for _ in range(CV_REPEATS):
        fold = rng.permutation(fold_of)
        pred = np.empty(n)
        for k in range(folds):
            test = fold == k
            pred[test] = design[test] @ _solve(x[~test], y[~test])
        total += pred
        squared += (y - pred) ** 2
        absolute += np.abs(y - pred)
    return total / CV_REPEATS, squared / CV_REPEATS, absolute / CV_REPEATS


def fit_arrays(x: np.ndarray, y: np.ndarray, folds: int | None = None) -> _Arrays:
    """Least squares of y on [1, x], tested residuals and cross-validated errors."""
    n = len(y)
    design = np.column_stack([np.ones(n), x])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    predicted = design @ beta
    residual = y - predicted
    # pinv: a deck whose terms are collinear still gets its projection and (large) finite errors
    inverse = np.linalg.pinv(design.T @ design)
    leverage = np.clip(np.einsum("ij,jk,ik->i", design, inverse, design), 0.0, 1.0)
    rank = int(np.linalg.matrix_rank(design))
    df = n - rank
    sse = float(residual @ residual)
    covariance = sse / max(df, 1) * inverse
    scale = max(1.0, float(np.abs(y).max())) * math.sqrt(n)
    studentised, p_adjusted = _test_residuals(design, y, scale)
    cv_predicted, cv_squared, cv_absolute = _cross_validate(x, y, design, residual, leverage, folds)
    return _Arrays(beta, predicted, residual, leverage, rank, covariance, studentised, p_adjusted,
                   cv_predicted, cv_squared, cv_absolute)


def error_interval(x: np.ndarray, y: np.ndarray, leverage: np.ndarray, estimate: float,
                   folds: int | None = None, resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """95 % interval of the fitted model's root mean square error on a new patch, from the cross-
    validated `estimate`: a residual bootstrap of the whole procedure. Each resample prices the
    deck by the fit plus residuals drawn again (rescaled by sqrt(1 - leverage), centred), refits,
    cross-validates as the deck was (leave-one-out, or `folds` folds of one random split, drawn
    afresh for every 50 resamples), and knows its true error: the noise plus the refit's squared
    miss of the fit, inflated by 1 / (1 - leverage) as at a patch it was not fitted on. The estimate over that truth is the
    pivot; its 2.5 and 97.5 percentiles divide `estimate`. (Resampling the per-patch errors
    alone ignores how much the fit itself varies: that interval covered the truth in 80 % of
    synthetic decks, this one in about 95 %; benchmarks/audit_deck_fit.py.)"""
    n = len(y)
    design = np.column_stack([np.ones(n), x])
    solve = np.linalg.pinv(design)
    beta = solve @ y
    fitted = design @ beta
    inside = leverage < LEVERAGE_ONE  # a leverage-1 patch is fitted exactly: it has no residual to draw
    slack = np.where(inside, 1.0 - leverage, 1.0)
    drawn = ((y - fitted) / np.sqrt(slack))[inside]
    drawn = drawn - drawn.mean()
    noise = float(drawn @ drawn) / len(drawn)
    if noise <= 1e-18 * max(1.0, float(y @ y) / n):
        return estimate, estimate  # the costs are linear in the terms: every resample is the deck itself
    rng = np.random.default_rng(CV_SEED)
    chunk = max(1, min(50, 200_000 // n))  # resamples at a time (one random split each when folded)
    ratios = np.empty(resamples)
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        costs = fitted[:, None] + drawn[rng.integers(0, len(drawn), size=(n, stop - start))]
        refit = solve @ costs
        miss = design @ (refit - beta[:, None])
        truth = noise + (miss[inside] ** 2 / slack[inside, None]).mean(axis=0)
        if folds is None or folds >= n:
            loo = (costs - design @ refit)[inside] / slack[inside, None]
            guess = (loo ** 2).mean(axis=0)
        else:
            fold = rng.permutation(np.arange(n) % folds)
            predicted = np.empty_like(costs)
            for k in range(folds):
                test = fold == k
                predicted[test] = design[test] @ (np.linalg.pinv(design[~test]) @ costs[~test])
            guess = ((costs - predicted) ** 2).mean(axis=0)
        ratios[start:stop] = np.sqrt(guess / truth)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(estimate / high), float(estimate / low)


def fit_prices(deck_name: str, rows: list[tuple[str, Shape, int, int, int]], board: Board,
               allow_flip: bool = True, folds: int | None = None) -> Fit:
    """Fit the model on (id, shape, cost, time, income) rows; cross-validate leave-one-out, or by
    `folds`-fold cross-validation over CV_REPEATS random splits."""
    n = len(rows)
    if n < MIN_PATCHES:
        raise UsageError(f"deck '{deck_name}' has {n} patches; the pricing model needs at least "
                         f"{MIN_PATCHES} to fit {len(FEATURES) + 1} coefficients")
    costs = [r[2] for r in rows]
    if len(set(costs)) < 2:
        raise UsageError(f"deck '{deck_name}' has no cost to learn from (every patch costs {costs[0]})")
    if folds is not None:
        if not 2 <= folds <= n:
            raise UsageError(f"--folds must be between 2 and the number of patches ({n}), got {folds}")
        if cv_rows(n, folds) > MAX_CV_ROWS:
            raise UsageError(too_many_folds(n, folds))
    x = np.array([features(shape, t, inc, board, allow_flip) for _, shape, _, t, inc in rows])
    y = np.array(costs, dtype=float)
    a = fit_arrays(x, y, folds)
    sse = float(a.residual @ a.residual)
    ss_tot = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - sse / ss_tot
    p = len(FEATURES)
    errors = tuple(float(v) for v in np.sqrt(np.clip(np.diag(a.covariance), 0.0, None)))
    model = PriceModel(float(a.beta[0]), tuple(float(b) for b in a.beta[1:]), board, allow_flip, errors)
    adjusted = 1.0 - (1.0 - r2) * (n - 1) / (n - p - 1)
    estimate = float(np.sqrt(a.cv_squared.mean()))
    low, high = error_interval(x, y, a.leverage, estimate, folds)
    cv = CrossValidation(n if folds is None else folds, 1 if folds is None or folds >= n else CV_REPEATS,
                         estimate, low, high, float(a.cv_absolute.mean()))
    patches = tuple(
        PatchFit(rows[i][0], int(y[i]), float(a.predicted[i]), float(a.residual[i]), float(a.cv_predicted[i]),
                 a.studentised[i], a.p_adjusted[i])
        for i in range(n))
    return Fit(deck_name, model, r2, adjusted, float(np.sqrt(sse / n)),
               float(np.sqrt(sse / max(n - a.rank, 1))), cv, patches)


def too_many_folds(n: int, folds: int) -> str:
    """The refusal of a fold count whose refits would solve more than MAX_CV_ROWS rows."""
    largest = min(n - 1, 1 + MAX_CV_ROWS // (n * CV_REPEATS))
    advice = f"choose --folds {largest} or fewer, or " if largest >= 2 else ""
    return (f"--folds {folds} on {n:,} patches refits the model on {cv_rows(n, folds):,} rows (at most "
            f"{MAX_CV_ROWS:,}); {advice}leave --folds out for leave-one-out, which needs no refit")


def fit_deck(deck, folds: int | None = None) -> Fit:
    """Fit the model on a Deck (toolkit.decks.deck): an edition's patches when its family prices
    them, or a deck without an edition (read as the pricing edition's patches)."""
    if deck.edition is not None:
        from toolkit.families import require

        require(deck.edition, "prices_patches", "deck fit")
    rows = [(p.id, p.shape, p.cost, p.time, p.income) for p in deck.patches]
    return fit_prices(deck.name, rows, Board(deck.board_width, deck.board_height), deck.allow_flip, folds)
