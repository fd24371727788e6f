"""Tiny seeded workloads that compile every Doodle kernel a command calls (toolkit.warmup)."""
from __future__ import annotations


def simulator() -> None:
    from toolkit.sim import experiment

    experiment.run(experiment.prepare(["doodle"], "greedy,random", 1, 0))


def expert() -> None:
    from toolkit.play import Session, hint, new_game, seat
    from toolkit.sim import experiment
    from toolkit.specs import load_edition

    experiment.run(experiment.prepare(["doodle"], "expert", 1, 0))
    # A hint in each phase of each round (start card, the first rounds, the last round's search).
    edition = load_edition("doodle")
    seats = seat(edition, "greedy", 1)
    game = new_game(edition, 0, 1, seats)
    session = Session(game, seats, 0)
    hinted = set()
    while not game.is_over:
        if (game.phase, game.round) not in hinted:
            hinted.add((game.phase, game.round))
            hint(game)
        at = game.current_player
        game.apply(seats.bots[at].choose(game, session.rngs[at]))


def prompt() -> None:
    from toolkit.play import play_bots
    from toolkit.specs import load_edition

    play_bots(load_edition("doodle"), "greedy,random", 0)
