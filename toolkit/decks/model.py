"""A linear pricing model: a patch's button cost from its stats and its shape.

cost ~ b0 + b1 cells + b2 time + b3 income + b4 empty bounding-box cells + b5 orientations
       + b6 placements on an empty board / 100

fitted by least squares (numpy) on a real deck. Empty bounding-box cells measure how ragged
(concave) a patch is; orientations and placements measure how easy it is to fit in. The fit is
judged by R² and by k-fold cross-validated error (folds taken in deck order, index mod k, so the
result does not depend on a seed); residual = cost - predicted, so a positive residual is a patch
dearer than its stats and shape suggest (over-priced) and a negative one a bargain.
"""
from __future__ import annotations

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
DEFAULT_FOLDS = 5
MIN_PATCHES = len(FEATURES) + 3
"""Fewest priced patches that leave the fit some degrees of freedom."""


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
    """cost - predicted: positive is over-priced for its stats and shape."""
    cv_predicted: float
    """Prediction by the model fitted without this patch's fold."""


@dataclass(frozen=True)
class Fit:
    """A model with its goodness of fit on the deck it was fitted on."""

    deck: str
    model: PriceModel
    r2: float
    adjusted_r2: float
    rmse: float
    """Root mean square residual on the fitting data."""
    cv_error: float
    """Root mean square error of k-fold cross-validated predictions."""
    cv_mae: float
    folds: int
    patches: tuple[PatchFit, ...]

    def over_priced(self, top: int) -> list[PatchFit]:
        return sorted((p for p in self.patches if p.residual > 0), key=lambda p: (-p.residual, p.id))[:top]

    def under_priced(self, top: int) -> list[PatchFit]:
        return sorted((p for p in self.patches if p.residual < 0), key=lambda p: (p.residual, p.id))[:top]

    def as_dict(self, top: int = 5) -> dict:
        def row(p: PatchFit) -> dict:
            return {"id": p.id, "cost": p.cost, "predicted": round(p.predicted, 3),
                    "residual": round(p.residual, 3), "cv_predicted": round(p.cv_predicted, 3)}

        return {
            "deck": self.deck,
            "n": len(self.patches),
            "model": {"terms": list(FEATURES), **self.model.as_dict(),
                      "board": f"{self.model.board.width}x{self.model.board.height}",
                      "allow_flip": self.model.allow_flip},
            "r2": round(self.r2, 4),
            "adjusted_r2": round(self.adjusted_r2, 4),
            "rmse": round(self.rmse, 4),
            "cv_error": round(self.cv_error, 4),
            "cv_mae": round(self.cv_mae, 4),
            "cv": f"{self.folds}-fold, fold of patch i = i mod {self.folds}, root mean square error",
            "patches": [row(p) for p in self.patches],
            "over_priced": [p.id for p in self.over_priced(top)],
            "under_priced": [p.id for p in self.under_priced(top)],
        }


def _solve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    design = np.column_stack([np.ones(len(x)), x])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    return beta


def fit_prices(deck_name: str, rows: list[tuple[str, Shape, int, int, int]], board: Board,
               allow_flip: bool = True, folds: int = DEFAULT_FOLDS) -> Fit:
    """Fit the model on (id, shape, cost, time, income) rows."""
    n = len(rows)
    if n < MIN_PATCHES:
        raise UsageError(f"deck '{deck_name}' has {n} patches; the pricing model needs at least "
                         f"{MIN_PATCHES} to fit {len(FEATURES) + 1} coefficients")
    costs = [r[2] for r in rows]
    if len(set(costs)) < 2:
        raise UsageError(f"deck '{deck_name}' has no cost to learn from (every patch costs {costs[0]})")
    if not 2 <= folds <= n:
        raise UsageError(f"--folds must be between 2 and the number of patches ({n}), got {folds}")
    if n * (folds - 1) > MAX_CV_ROWS:
        raise UsageError(f"--folds {folds} on {n:,} patches refits the model on {n * (folds - 1):,} rows (at most "
                         f"{MAX_CV_ROWS:,}); choose --folds {MAX_CV_ROWS // n + 1} or fewer")
    x = np.array([features(shape, t, inc, board, allow_flip) for _, shape, _, t, inc in rows])
    y = np.array(costs, dtype=float)
    beta = _solve(x, y)
    design = np.column_stack([np.ones(n), x])
    predicted = design @ beta
    residual = y - predicted
    ss_res = float(residual @ residual)
    ss_tot = float(((y - y.mean()) ** 2).sum())
    r2 = 1.0 - ss_res / ss_tot
    p = len(FEATURES)
    # pinv: a deck whose features are collinear still gets (large) finite standard errors
    covariance = ss_res / (n - p - 1) * np.linalg.pinv(design.T @ design)
    errors = tuple(float(v) for v in np.sqrt(np.clip(np.diag(covariance), 0.0, None)))
    model = PriceModel(float(beta[0]), tuple(float(b) for b in beta[1:]), board, allow_flip, errors)
    adjusted = 1.0 - (1.0 - r2) * (n - 1) / (n - p - 1)
    cv_pred = np.empty(n)
    index = np.arange(n)
    for k in range(folds):
        test = index % folds == k
        b = _solve(x[~test], y[~test])
        cv_pred[test] = np.column_stack([np.ones(int(test.sum())), x[test]]) @ b
    cv_err = y - cv_pred
    patches = tuple(
        PatchFit(rows[i][0], int(y[i]), float(predicted[i]), float(residual[i]), float(cv_pred[i]))
        for i in range(n))
    return Fit(deck_name, model, r2, adjusted, float(np.sqrt(ss_res / n)),
               float(np.sqrt((cv_err @ cv_err) / n)), float(np.abs(cv_err).mean()), folds, patches)


def fit_deck(deck, folds: int = DEFAULT_FOLDS) -> Fit:
    """Fit the model on a Deck (toolkit.decks.deck): an edition's patches when its family prices
    them, or a deck without an edition (read as the pricing edition's patches)."""
    if deck.edition is not None:
        from toolkit.families import require

        require(deck.edition, "prices_patches", "deck fit")
    rows = [(p.id, p.shape, p.cost, p.time, p.income) for p in deck.patches]
    return fit_prices(deck.name, rows, Board(deck.board_width, deck.board_height), deck.allow_flip, folds)
