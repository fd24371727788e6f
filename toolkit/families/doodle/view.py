"""What a view of a Doodle position shows (toolkit.families.view): each sheet with its start patch,
every drawing by the card it came from, the seat's latest drawing, each round's scored rectangle
and the special actions used, and the circle of cards with the token.

The drawings are found by replaying the game's actions from the deal and reading the cells each
action shaded.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolkit.families.view import DRAWING, SINGLE, START, Board, Offer, Placed, Position, Scored, new_cells
from toolkit.games.doodle.game import DoodleGame
from toolkit.geometry.board import rectangle_score


class _Replay:
    def __init__(self, game: DoodleGame):
        self.game = DoodleGame(game.edition, game.seed, game.players)
        self.placed: list[list[Placed]] = [[] for _ in range(game.players)]
        self.scored: list[list[Scored]] = [[] for _ in range(game.players)]
        self.last_action = ""

    def step(self, action: Any) -> None:
        game = self.game
        seat = game.seat_to_act
        before = game.sheet(seat).shaded
        turns = len(game.chance_log())
        round_ = game.round
        ply = len(game.history)
        game.apply(action)
        self.last_action = f"player {seat + 1}: {action}"
        sheet = game.sheet(seat)
        cells = new_cells(before, sheet.shaded)
        kind = action.kind
        if kind == "score" and action.width is not None:
            # The sheet shows a round's score once every seat has scored; the rectangle's own
            # score is the rules' (toolkit.geometry.board.rectangle_score).
            self.scored[seat].append(Scored(round_ + 1, action.row, action.col, action.width, action.height,
                                            rectangle_score(action.width, action.height)))
        if not cells:
            return
        if kind == "start":
            self.placed[seat].append(Placed(cells, sheet.start_card, START, ply))
        elif kind == "single":
            self.placed[seat].append(Placed(cells, "single", SINGLE, ply))
        else:
            card = game.chance_log()[turns - 1]["drawn"][seat] if turns else None
            self.placed[seat].append(Placed(cells, card or "?", DRAWING, ply))

    def position(self) -> Position:
        return _position(self.game, self.placed, self.scored, self.last_action)


def view(game: DoodleGame) -> Position:
    replay = _Replay(game)
    for action in game.history:
        replay.step(action)
    return replay.position()


def views(game: DoodleGame) -> Iterator[Position]:
    replay = _Replay(game)
    yield replay.position()
    for action in game.history:
        replay.step(action)
        yield replay.position()


def _status(game: DoodleGame) -> str:
    if game.is_over:
        scores = game.scores()
        return "game over: " + ", ".join(f"player {k + 1} {v}" for k, v in enumerate(scores))
    where = {
        "start": "start: draw your start card",
        "turn": f"round {game.round + 1}, turn {game.turn + 1}, roll {game.roll}",
        "free-choice": f"round {game.round + 1}, final turn: free choice",
        "scoring": f"intermediate scoring {game.round + 1}: name a fully shaded rectangle",
    }[game.phase]
    return f"{where}; player {game.seat_to_act + 1} to act"


def _position(game: DoodleGame, placed, scored, last_action: str) -> Position:
    from toolkit.families import family_of

    edition = game.edition
    specials = tuple(name for name in edition.doodle_rules.special_actions)
    boards = []
    for seat in range(game.players):
        sheet = game.sheet(seat)
        rounds = ", ".join("-" if s is None else str(s) for s in sheet.round_scores)
        facts = (f"start card {sheet.start_card}; rounds {rounds}; {sheet.empty} empty; score {sheet.score}",)
        pieces = tuple(placed[seat])
        boards.append(Board(seat, f"player {seat + 1}", edition.board_width, edition.board_height, pieces,
                            len(pieces) - 1 if pieces else None, tuple(scored[seat]), facts,
                            tuple((name, sheet.specials_used.get(name, 0)) for name in specials),
                            to_move=game.current_player == seat))
    takeable = {pid for _, pid in family_of(edition).shapes_in_play(game)} if not game.is_over else set()
    circle = game.circle()
    token = game.token_card
    offers = []
    shapes = {p.id: p for p in edition.patches}
    n = len(circle)
    for i, pid in enumerate(circle):
        role = "circle"
        if token is not None:
            if i == token:
                role = "token card"
            elif n >= 2 and i == (token - 1) % n:
                role = "neighbour left"
            elif n >= 3 and i == (token + 1) % n:
                role = "neighbour right"
        elif game.phase == "free-choice":
            role = "free choice"
        patch = shapes[pid]
        offers.append(Offer(pid, patch.shape, role, f"{patch.shape.size} cells",
                            pid in takeable and game.phase in ("turn", "free-choice")))
    notes = []
    if token is None and circle and not game.is_over and game.phase != "free-choice":
        notes.append(f"the token lies before {circle[game.next_card]}")
    return Position(
        title=f"{edition.title} ({edition.name}), seed {game.seed}, {game.players} player(s)",
        ply=len(game.history),
        status=_status(game),
        boards=tuple(boards),
        last_action=last_action,
        offers=tuple(offers),
        offers_title="circle of cards",
        notes=tuple(notes),
        over=game.is_over,
        extra={"token_card": token, "next_card": game.next_card, "round": game.round, "rounds": edition.doodle_rules.rounds},
    )
