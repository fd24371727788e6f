"""How often the sweep's verdict names a move or an uneven point that is not there.

A null grid, drawn rather than played: every point's figures have the same true value (a win rate
of exactly 50 % and F - 1 other figures), each estimate normal around it with a 95 % interval of
the stated half-width, the points' errors correlated as points that share deals are. The
verdict's own rules (toolkit.reports.workbench: the widened intervals of the lowest and highest
point apart, 50 % outside a point's widened interval) are applied to each draw; a run is wrong when
it names anything. The stated rate is at most 5 %.

    .venv/bin/python benchmarks/audit_sweep.py --draws 4000
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def wrong_rate(points: int, figures: int, correlation: float, draws: int, seed: int) -> float:
    from toolkit.reports.workbench import even_widening, sweep_widening
    from toolkit.stats import Z95

    rng = np.random.default_rng(seed)
    pairs, even = sweep_widening(points, figures, points), even_widening(points, figures, points)
    cov = np.full((points, points), correlation) + (1 - correlation) * np.eye(points)
    wrong = 0
    for _ in range(draws):
        errors = rng.multivariate_normal(np.zeros(points), cov, size=figures)  # one row a figure, in SEs
        half = Z95  # a 95 % interval is estimate +- 1.96 SE
        moved = any(row.max() - pairs * half > row.min() + pairs * half for row in errors)
        uneven = bool(np.any(np.abs(errors[0]) > even * half))  # figure 0: the win rate, true value 50 %
        wrong += moved or uneven
    return wrong / draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from toolkit.stats import wilson

    for points, figures in ((2, 4), (4, 4), (6, 4), (10, 4), (6, 6)):
        for correlation in (0.0, 0.3):
            rate = wrong_rate(points, figures, correlation, args.draws, args.seed)
            iv = wilson(round(rate * args.draws), args.draws)
            print(f"{points} points, {figures} figures, points' errors correlated {correlation}: a move or an "
                  f"uneven point named in {100 * rate:.2f} % [{100 * iv.low:.2f}, {100 * iv.high:.2f}] of null grids",
                  flush=True)


if __name__ == "__main__":
    main()
