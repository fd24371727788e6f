"""Tiny seeded workloads that compile every time-track kernel a command calls (toolkit.warmup)."""
from __future__ import annotations


def simulator() -> None:
    from toolkit.sim import experiment

    for editions, bots in ((["classic"], "mcts:5,greedy"), (["anniversary"], "greedy,automa"),
                           (["express"], "random,random")):
        experiment.run(experiment.prepare(editions, bots, 2 if "automa" not in bots else 1, 0))


def prompt() -> None:
    from toolkit.play import hint, new_game, play_bots
    from toolkit.specs import load_edition

    play_bots(load_edition("classic"), "greedy,mcts:5", 0)
    play_bots(load_edition("anniversary"), "random,automa", 0)
    game = new_game(load_edition("classic"), 0)
    hint(game)
