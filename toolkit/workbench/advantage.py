"""A patch buyer's advantage: what buying the patch was worth, measured over the games in which
somebody bought it, as the buyer's result minus a reference result.

One definition, `buyer_advantage`, and two references:
- `patchwork price` (toolkit.workbench.price) pairs games: the reference is the same seat, in the
  same deal and seat order, of a game where the patch is priced out of reach (`advantage_by_deal`,
  results are margins and wins, summed per deal, the sampling unit of its estimator);
- `patchwork deck check` (toolkit.workbench.deckcheck) plays the deck as it is: the reference is
  the deck's baseline, the win rate of all buyers of all patches in the same games, so a strong
  bot that buys more patches does not make every patch look good.
Either way the mean advantage of a purchase is the summed advantage divided by the purchases.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toolkit.sim.shards import Games


def buyer_advantage(bought, buyer_result, reference_result):
    """The buyer's advantage summed over `bought` purchases, each worth the buyer's result minus
    the reference result (numbers, or numpy arrays element by element)."""
    return bought * (buyer_result - reference_result)


@dataclass(frozen=True)
class Advantage:
    """Per-deal totals of one value: purchases and the buyer's advantage summed over them."""

    bought: np.ndarray
    """(deals,) games of the deal in which the patch was bought."""
    margin: np.ndarray
    """(deals,) sum of the buyer's margin advantage over those games."""
    win: np.ndarray
    """(deals,) sum of the buyer's win advantage (-1, 0 or 1 per game)."""


def advantage_by_deal(priced: Games, reference: Games, per_deal: int) -> Advantage:
    """Buyer's advantage per deal: priced game against the reference game of the same deal and seats."""
    seat = priced.buy_seat
    bought = seat >= 0
    rows = np.arange(seat.shape[0])
    buyer = np.where(bought, seat, 0)
    other = 1 - buyer
    margin_priced = priced.score[rows, buyer] - priced.score[rows, other]
    margin_reference = reference.score[rows, buyer] - reference.score[rows, other]
    margin = buyer_advantage(bought, margin_priced, margin_reference)
    win = buyer_advantage(bought, (priced.winner == buyer).astype(np.int64),
                          (reference.winner == buyer).astype(np.int64))
    per = lambda x: x.reshape(-1, per_deal).sum(axis=1)  # noqa: E731
    return Advantage(per(bought.astype(seat.dtype)), per(margin), per(win))
