"""Seeded bot-vs-bot games through the library's play loop (toolkit.play), pinned as golden files:
the greedy and the strong bot of each family, the Automa's seat, and a bundled variant. A change
to a bot, its seeding or the loop that moves a single action shows here as a diff of
tests/golden/bots/*.json; rewrite them with `pytest tests/test_bot_goldens.py --regen-golden`
and review the diff."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolkit.play import play_bots
from toolkit.specs import load_edition

GOLDEN = Path(__file__).parent / "golden" / "bots"

GAMES = [
    # (edition, bots, seed): cheap on purpose (the strong time-track bot with a small budget).
    ("classic", "greedy,greedy", 1),
    ("classic", "greedy,greedy", 2),
    ("classic", "mcts:50,greedy", 1),
    ("anniversary", "greedy,automa:3", 1),
    ("doodle", "greedy", 1),
    ("doodle", "greedy", 2),
    ("doodle", "expert", 1),
    ("six-buttons", "greedy,greedy", 1),
]


def golden_path(edition: str, bots: str, seed: int) -> Path:
    return GOLDEN / f"{edition}__{bots.replace(',', '+').replace(':', '-')}__seed{seed}.json"


def played(name: str, bots: str, seed: int) -> dict:
    edition = load_edition(name)
    seen: list[tuple[int, str]] = []
    game = play_bots(edition, bots, seed, on_action=lambda seat, bot, action: seen.append((seat, str(action))))
    actions = [str(a) for a in game.history]
    assert [text for _, text in seen] == actions, "the loop reports every action it plays, in order"
    return {
        "edition": name,
        "content_hash": edition.content_hash,
        "bots": bots,
        "seed": seed,
        "actions": actions,
        "scores": game.scores(),
    }


@pytest.mark.parametrize("name, bots, seed", [
    pytest.param(e, b, s, id=f"{e}-{b}-{s}", marks=pytest.mark.slow if b == "expert" else ())
    for e, b, s in GAMES])  # the expert's game costs seconds: the whole suite plays it
def test_seeded_bot_game_matches_its_golden(name, bots, seed, regen_golden):
    path = golden_path(name, bots, seed)
    actual = played(name, bots, seed)
    if regen_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, indent=1) + "\n")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: run `pytest tests/test_bot_goldens.py --regen-golden` and review it")
    expected = json.loads(path.read_text())
    if expected["content_hash"] != actual["content_hash"]:
        pytest.fail(f"the {name} spec changed since {path.name} was written: regenerate with --regen-golden"
                    " and review the diff")
    assert actual["actions"] == expected["actions"]
    assert actual["scores"] == expected["scores"]
    assert actual == expected


def test_the_same_seed_plays_the_same_game_twice():
    assert played("classic", "mcts:20,random", 3) == played("classic", "mcts:20,random", 3)
