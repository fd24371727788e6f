"""The JSON header every workbench command's results.json starts with (the reports that render
these documents are toolkit.reports.workbench)."""
from __future__ import annotations

import toolkit
from toolkit.games.rng import derive_seed
from toolkit.sim.experiment import SEEDING

INTERVALS = "95%: Wilson for proportions, normal approximation for means, as stated per figure otherwise"
"""What a run's intervals are when every game is its own deal (its games are independent)."""
CLUSTERED = ("95%, the deal as the unit (a deal's {n} seat-swapped games are one cluster): Wilson for proportions "
             "at the effective number of games (games / design effect, never below 1), normal approximation with "
             "the cluster standard error for means, as stated per figure otherwise")
"""What they are when a deal is played more than once with the seats swapped."""


def header(kind: str, command: str, bots, games: int, deals: int, per_deal: int, seed: int, seats: str) -> dict:
    return {
        "kind": kind,
        "toolkit": {"name": "patchwork-toolkit", "version": toolkit.__version__},
        "command": command,
        "bots": [{"index": i, "name": b.name, "label": b.label} for i, b in enumerate(bots)],
        "games": games,
        "deals": deals,
        "games_per_deal": per_deal,
        "seed": seed,
        "seeding": SEEDING,
        "first_deal_seeds": [derive_seed(seed, i) for i in range(min(deals, 5))],
        "seats": seats,
        "intervals": INTERVALS if per_deal == 1 else CLUSTERED.format(n=per_deal),
    }
