"""The JSON header every workbench command's results.json starts with (the reports that render
these documents are toolkit.reports.workbench)."""
from __future__ import annotations

import toolkit
from toolkit.games.rng import derive_seed
from toolkit.sim.experiment import SEEDING

INTERVALS = "95%: Wilson for proportions, normal approximation for means, as stated per figure otherwise"


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
        "intervals": INTERVALS,
    }
