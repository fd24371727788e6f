"""The match of two trees' `mcts` at equal CPU time per move, which bench_search.py and
bench_throughput.py both play: each side's search runs in its own child process of its tree
(SearchServer), the game itself is played by this tree's kernel, seat-swapped deal by deal.

    servers = (SearchServer(new_tree, new_env, edition), SearchServer(old_tree, old_env, edition))
    wins, played = equal_cpu_match(servers, edition, games, seed, iterations, budget_ms, "bench_x")
    low, high = wilson(wins / played, played)

Both sides start at the given iterations; after every pair of games each side's iterations are
scaled by `budget_ms` over its CPU time per move in that pair (a new estimate, not a correction
that compounds), so the two spend the same CPU time per move on average, whatever the positions
cost.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

# Runs in a child process with PYTHONPATH = one tree; its edition is argv[1]. One search per
# request line {"s", "q", "rng", "iterations"}; answers {"action", "rng", "cpu"}.
SERVER = r'''
import json, sys, time
import numpy as np
from toolkit.bots import mcts
from toolkit.games.timetrack.tables import tables_for
from toolkit.specs import load_edition
t = tables_for(load_edition(sys.argv[1])).arrays
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    msg = json.loads(line)
    s = np.array(msg["s"], dtype=np.int64)
    q = np.array([[int(w) for w in row] for row in msg["q"]], dtype=np.uint64)
    rng = np.array(msg["rng"], dtype=np.int64)
    start = time.process_time()
    action = int(mcts.choose(t, s, q, rng, msg["iterations"]))
    cpu = time.process_time() - start
    print(json.dumps({"action": action, "rng": rng.tolist(), "cpu": cpu}), flush=True)
'''


def load() -> str:
    """The load averages, for printing beside a figure measured on a shared machine."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a share p of n games (ties counted half)."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class SearchServer:
    """One tree's MCTS search in a child process (env: its PYTHONPATH and kernel cache)."""

    def __init__(self, tree: Path, env: dict[str, str], edition: str):
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, edition], cwd=tree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        json.loads(self.proc.stdout.readline())
        self.moves = self.pair_moves = 0
        self.cpu = self.pair_cpu = 0.0

    def choose(self, s: np.ndarray, q: np.ndarray, rng: np.ndarray, iterations: int) -> int:
        """The search's action; rng advances as the child's did."""
        msg = {"s": s.tolist(), "q": [[str(int(w)) for w in row] for row in q], "rng": rng.tolist(),
               "iterations": iterations}
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        rng[:] = answer["rng"]
        self.moves += 1
        self.cpu += answer["cpu"]
        return answer["action"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def equal_cpu_match(servers: tuple[SearchServer, SearchServer], edition: str, games: int, seed: int,
                    iterations: list[int], budget_ms: float, program: str) -> tuple[float, int]:
    """Seat-swapped games of servers[0] (new) against servers[1] (old): (new wins, ties counting
    half; games played). `iterations` (new, old) are rescaled in place after every pair of games;
    progress is printed every 20 games. The servers are closed at the end."""
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack import kernel as k
    from toolkit.games.timetrack.tables import tables_for
    from toolkit.specs import load_edition

    t = tables_for(load_edition(edition)).arrays
    wins = 0.0
    deals = games // 2
    try:
        for deal in range(deals):
            for new_seat in (0, 1):
                rng = seed_state(seed, deal)
                bot_rngs = (seed_state(seed, deal, 1 + new_seat), seed_state(seed, deal, 3 + new_seat))
                s, q = k.new_state(t, rng)
                while not k.is_over(t, s):
                    side = 0 if k.current_player(t, s) == new_seat else 1
                    action = servers[side].choose(s, q, bot_rngs[side], iterations[side])
                    if k.check_action(t, s, q, action) != k.R_OK:
                        sys.exit(f"{program}: illegal action {action} from the {('new', 'old')[side]} mcts")
                    k.apply(t, s, q, action, rng)
                result = k.seat0_result(t, s)
                wins += result if new_seat == 0 else 1.0 - result
            played = 2 * (deal + 1)
            for side, server in enumerate(servers):
                recent = 1000 * (server.cpu - server.pair_cpu) / max(server.moves - server.pair_moves, 1)
                iterations[side] = max(1, round(iterations[side] * budget_ms / recent))
                server.pair_cpu, server.pair_moves = server.cpu, server.moves
            if played % 20 == 0 or played == 2 * deals:
                per_move = [1000 * x.cpu / max(x.moves, 1) for x in servers]
                print(f"  {played} games: new wins {wins / played:.1%}; CPU ms per move new {per_move[0]:.2f}, "
                      f"old {per_move[1]:.2f}; iterations now new {iterations[0]}, old {iterations[1]} "
                      f"(load {load()})", flush=True)
    finally:
        for server in servers:
            server.close()
    return wins, 2 * deals
