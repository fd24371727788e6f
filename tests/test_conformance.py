"""One conformance suite for every bundled edition and variant, both rules families, through the
Game protocol: seeded random playouts terminate, keep the invariants, replay exactly from their
records; golden playthroughs pin each edition's behaviour (rewrite with `pytest --regen-golden`).
The time-track kernel also plays a full game with the JIT disabled and gives the same result."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from toolkit import records
from toolkit.families import engine_for
from toolkit.games.rng import seed_state
from toolkit.play import BOT_RNG_SALT, seat
from toolkit.specs import list_editions, list_variants, load_edition
from toolkit.specs.models import Family

from positions import bought, late_patches_entered

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEED = 2026
MAX_ACTIONS = 20_000
"""Far beyond any real game; a playout that reaches it does not terminate."""


def game_setups(name: str) -> list[tuple[str, int | None, dict]]:
    """(bots, players, Automa options) to run an edition with: two random players and Automa if
    the edition has one; Doodle solo and with three players."""
    edition = load_edition(name)
    if edition.family == Family.DOODLE:
        return [("random", 1, {}), ("random,random,random", 3, {})]
    setups: list[tuple[str, int | None, dict]] = [("random,random", None, {})]
    if edition.rules.automa is not None:
        setups.append(("random,automa", None, {"automa_level": 3, "automa_deck": "tactical"}))
    return setups


def start(name: str, seed: int, bots: str, players: int | None, automa: dict):
    edition = load_edition(name)
    seats = seat(edition, bots, players, automa.get("automa_level"), automa.get("automa_deck"))
    game = engine_for(edition).new_game(edition, seed, players, **seats.options)
    return game, list(seats.bots), seats.options


def play_out(game, seat_bots, seed: int, each=None) -> None:
    rngs = [seed_state(seed, BOT_RNG_SALT, seat) for seat in range(len(seat_bots))]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        seat = game.current_player
        assert seat is not None
        action = seat_bots[seat].choose(game, rngs[seat])
        game.apply(action)
        if each is not None:
            each(game)
    pytest.fail(f"{game.edition.name} seed {game.seed}: no end after {MAX_ACTIONS} actions")


class TimeTrackInvariants:
    """Checked after every action of a time-track game."""

    def __init__(self, game):
        self.positions = game.positions
        self.final = game.edition.rules.time_track.final_space
        self.ids = {p.id for p in game.edition.all_patches()}

    def __call__(self, game) -> None:
        assert min(game.buttons) >= 0, "buttons never go negative"
        for seat in (0, 1):
            assert self.positions[seat] <= game.positions[seat] <= self.final, "time never goes back"
            covered = bin(game.quilt_mask(seat)).count("1")
            assert covered + game.empty_cells[seat] == game.tables.board.cells, "patches never overlap"
        self.positions = game.positions
        circle = game.circle
        assert len(set(circle)) == len(circle) and set(circle) <= self.ids, "the circle holds each patch once"
        taken = bought(game)
        assert not set(circle) & set(taken), "bought patches leave the circle"
        assert game.window == circle[: min(game.edition.rules.market_window, len(circle))], "neutral token on the circle"
        entered = len(game.edition.patches) + (len(game.edition.rules.late_patches) if late_patches_entered(game) else 0)
        assert len(taken) + len(circle) == entered
        if not game.is_over:
            assert game.legal_actions(), "a player to move always has an action"


def generic_invariants(game) -> None:
    assert (game.current_player is None) == game.is_over
    if not game.is_over:
        assert game.legal_actions()


ALL = list_editions() + list_variants()


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.slow if name.startswith("doodle") else ())
    for name in ALL])  # a Doodle table of four plays for seconds: the whole suite plays those
def test_random_playouts_terminate_keep_invariants_and_replay(name):
    for bots, players, automa in game_setups(name):
        for seed in (1, 2):
            game, seat_bots, options = start(name, seed, bots, players, automa)
            check = TimeTrackInvariants(game) if game.edition.family == Family.TIME_TRACK else generic_invariants
            play_out(game, seat_bots, seed, check)
            scores = game.scores()
            assert len(scores) == game.players and len(game.winners()) >= 1
            record = records.make_record(game, [getattr(b, "name", "human") for b in seat_bots], options)
            again = records.replay(json.loads(records.dumps(record)))
            assert again.scores() == scores
            assert [str(a) for a in again.history] == [str(a) for a in game.history]
            assert again.render_text() == game.render_text()


def golden_of(name: str) -> dict:
    bots, players, automa = game_setups(name)[-1]
    game, seat_bots, options = start(name, GOLDEN_SEED, bots, players, automa)
    play_out(game, seat_bots, GOLDEN_SEED)
    record = records.make_record(game, [getattr(b, "name", "human") for b in seat_bots], options)
    record.pop("toolkit_version")
    return record


@pytest.mark.parametrize("name", list_editions())
def test_golden_playthrough(name, regen_golden):
    path = GOLDEN / f"{name}.json"
    actual = golden_of(name)
    if regen_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(records.dumps(actual))
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run `pytest tests/test_conformance.py --regen-golden` and review it")
    expected = json.loads(path.read_text())
    if expected["edition"]["content_hash"] != actual["edition"]["content_hash"]:
        pytest.fail(
            f"the {name} spec changed since {path.name} was written: regenerate with --regen-golden"
            " and review the diff"
        )
    assert actual["actions"] == expected["actions"]
    assert actual["final_scores"] == expected["final_scores"]
    assert actual == expected


_NO_JIT_SCRIPT = """
import json, numpy as np
from toolkit.specs import load_edition
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.tables import tables_for
from toolkit.games.rng import seed_state
assert not hasattr(k.apply, "py_func"), "the JIT is still on"
out = {}
for name, level in (("classic", 0), ("express", 0), ("anniversary", 4)):
    t = tables_for(load_edition(name)).arrays
    scores = np.zeros((2, 2), dtype=np.int64)
    plies = k.play_random_games(t, seed_state(31), 2, level, 0, scores)
    out[name] = [int(plies), scores.tolist()]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_kernel_plays_the_same_games_with_the_jit_disabled():
    from toolkit.games.timetrack import kernel as k
    from toolkit.games.timetrack.tables import tables_for

    expected = {}
    for name, level in (("classic", 0), ("express", 0), ("anniversary", 4)):
        t = tables_for(load_edition(name)).arrays
        scores = np.zeros((2, 2), dtype=np.int64)
        plies = k.play_random_games(t, seed_state(31), 2, level, 0, scores)
        expected[name] = [int(plies), scores.tolist()]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run(
        [sys.executable, "-c", _NO_JIT_SCRIPT], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == expected
