"""Games in the studio: playing against bots by clicks, and stepping through a record.

A position is shown from the Game protocol and the family's registered object only: the seats'
covered cells (`quilt_cells`), the shapes in play, the family's board text, scores and history.
What a person may do is read from the legal actions: an action written with an orientation,
row and column (`buy P17 o3 r2 c4`, `neighbour left draw o0 r1 c1`, `single r4 c4`) is placed
on the board, the rest (`advance`, `pass`, `score r0 c0 5x4`) are buttons. The cells a placement
covers are not computed here: each (piece, orientation) is applied once to a copy of the game
and the covered cells it adds are read back, so the ghost under the pointer is what the rules
would draw.

Whatever a person reads names squares as the printed boards and the play prompt do, column
letters and row numbers (`buy P17 o3 E3`, `score B1 5x4`: toolkit.games.squares.people_text);
an action the page sends back is the record's own text (`action` beside each shown `text`), and
a typed action may use either form, so records keep the machine form `r2 c4`.
"""
from __future__ import annotations

import itertools
import re
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from toolkit.errors import RecordError, ToolkitError, UsageError
from toolkit.fileio import MAX_RECORD_BYTES
from toolkit.games.squares import machine_text, people_text
from toolkit.studio import files

MAX_GAMES = 8
"""Games kept in memory; starting another forgets the one left alone longest."""
MAX_RECORDS = 4
MAX_SEATS = 6
MAX_SEED = 2**63 - 1
MAX_BUTTONS = 400
_PLACE_WORD = re.compile(r"^([orc])(\d+)$")
_RECTANGLE = re.compile(r"\br(\d+) c(\d+) (\d+)x(\d+)\b")
"""An action that names a rectangle: row, column, width x height."""
_counter = itertools.count(1)


def split_action(text: str) -> tuple[str, int | None, int | None, int | None]:
    """(label, orientation, row, column) of an action's text: the o/r/c words taken out."""
    label, found = [], {}
    for word in text.split():
        match = _PLACE_WORD.match(word)
        if match and match.group(1) not in found:
            found[match.group(1)] = int(match.group(2))
        else:
            label.append(word)
    return " ".join(label), found.get("o"), found.get("r"), found.get("c")


def _seat_label(game: Any, seat: int) -> str:
    return game.seat_name(seat)


def position(game: Any, players: list[str]) -> dict[str, Any]:
    """What the page draws of a position: boards, pieces in play, text, scores, history.

    The family's own view of the position (toolkit.families.view) gives what a person reads:
    each board's figures in the prompt's words (`5 buttons, income 0, 81 empty, score -157`,
    `rounds 25, -, -; 41 empty; score -18`), which piece covers each cell (so each drawing has
    a colour of its own) and the price printed on each piece on offer. The text panel is the
    prompt's own drawing of the position (toolkit.render.prompt_board, plain), squares lettered."""
    from toolkit.render.prompt_board import position_text
    from toolkit.families import family_of

    family = family_of(game.edition)
    edition = game.edition
    look = family.view(game)
    boards = []
    for seat in range(game.players):
        cells = family.quilt_cells(game, seat)
        seen = look.boards[seat] if seat < len(look.boards) else None
        placed = list(seen.placed) if seen is not None else []
        piece_of = {cell: index for index, piece in enumerate(placed) for cell in piece.cells}
        boards.append({"seat": seat, "name": _seat_label(game, seat),
                       "player": players[seat] if seat < len(players) else "",
                       "facts": [people_text(fact) for fact in seen.facts] if seen is not None else [],
                       "cells": [[r, c, label, piece_of.get((r, c), -1)] for (r, c), label in sorted(cells.items())],
                       "placed": [{"id": piece.id, "kind": piece.kind, "colour": piece.colour,
                                   "index": piece.colour_index} for piece in placed]})
    shapes = dict(family.shapes(edition))
    details = {offer.id: offer.details for offer in look.offers}
    pieces = [{"role": role, "id": pid, "rows": shapes[pid].rows() if pid in shapes else [],
               "details": people_text(details.get(pid, ""))} for role, pid in family.shapes_in_play(game)]
    view = {"edition": edition.name, "title": edition.title, "seed": game.seed,
            "width": edition.board_width, "height": edition.board_height,
            "boards": boards, "pieces": pieces, "text": position_text(look, colour=None),
            "over": game.is_over, "current": game.current_player, "scores": list(game.scores()),
            "status": people_text(look.status), "offers": {pid: people_text(text) for pid, text in details.items()},
            "history": [people_text(str(a)) for a in game.history], "event": people_text(game.last_event or "")}
    if game.is_over:
        view["winners"] = list(game.winners())
    return view


_CUT = re.compile(r"\bcut (\S+) (\S+) ")
"""The part of an action that cuts the card before drawing it (Doodle's CUT: `cut h1 a draw`)."""


def moves(game: Any, offers: dict[str, str] | None = None) -> dict[str, Any]:
    """The legal actions of the seat to act, as placements grouped by piece and orientation
    (each with the covered cells relative to its row and column) and as buttons, each button
    `{"action": the record's text, "text": as a person reads it}`."""
    from toolkit.families import family_of

    family = family_of(game.edition)
    seat = game.current_player
    before = set(family.quilt_cells(game, seat))
    groups: dict[str, dict[int, list]] = {}
    buttons: list[str] = []
    actions = game.legal_actions()
    for action in actions:
        text = str(action)
        label, o, r, c = split_action(text)
        if r is None or c is None:
            buttons.append(text)
            continue
        groups.setdefault(label, {}).setdefault(o or 0, []).append((r, c, text, action))
    if offers is None:
        offers = {offer.id: offer.details for offer in family.view(game).offers}
    pieces = []
    for label, orientations in groups.items():
        entries = []
        for o, placed in sorted(orientations.items()):
            r0, c0, _, action = placed[0]
            trial = game.copy()
            trial.apply(action)
            added = sorted(set(family.quilt_cells(trial, seat)) - before)
            if not added:  # e.g. `score r0 c0 5x4`: a row and column, but nothing is drawn
                buttons.extend(text for _, _, text, _ in placed)
                continue
            entries.append({"o": o, "cells": [[r - r0, c - c0] for r, c in added],
                            "at": [[r, c, text] for r, c, text, _ in placed]})
        if entries:
            # the same card drawn whole or cut is one choice with variants (not a button each)
            cut = _CUT.search(label + " ")
            group = _CUT.sub("", label + " ").strip() if cut else label
            ids = [word for word in label.split() if word in offers]
            pieces.append({"label": label, "orientations": entries, "group": group,
                           "variant": f"cut {cut.group(1)} {cut.group(2)}" if cut else "whole",
                           "details": offers[ids[0]] if ids else ""})
    shown = [{"action": text, "text": people_text(text)} for text in buttons[:MAX_BUTTONS]]
    return {"pieces": pieces, "buttons": shown, "more_buttons": max(0, len(buttons) - MAX_BUTTONS),
            "count": len(actions)}


def hinted_action(game: Any, text: str) -> str | None:
    """The legal action a hint names on its first line (`hint for player 1: buy P17 o3 r2 c4`),
    or None when it names none (the game is over, it is Automa's turn)."""
    first = text.split("\n", 1)[0]
    if game.is_over or not first.startswith("hint for ") or ": " not in first:
        return None
    try:
        return str(game.parse_action(first.split(": ", 1)[1].strip()))
    except ToolkitError:
        return None


# ----- playing ------------------------------------------------------------------------------------

class PlaySession:
    """One game in the studio: the seats (a person or a bot each, seated by toolkit.play as at
    `patchwork play`), the library's play session, and an undo stack."""

    def __init__(self, edition, seed: int, names: list[str]):
        from toolkit import play
        from toolkit.families import family_of

        players = len(names) if family_of(edition).info.fixed_seats is None else None
        seats = play.seat(edition, ",".join(names), players)
        if not seats.people:
            raise UsageError("seat a person ('human') in at least one seat to play here; a game of bots "
                             "alone is a run (simulate), or a record to step through")
        self.id = f"g{next(_counter)}"
        self.names = seats.names
        self.bots = seats.bots
        self.options = dict(seats.options)
        self.bot_moves: list[str] = []
        self.session = play.Session(play.new_game(edition, seed, players, seats), seats, seed, self._note)
        self.undo_stack: list[tuple[Any, list]] = []
        self.lock = threading.Lock()
        self.used = time.monotonic()

    @property
    def game(self) -> Any:
        return self.session.game

    def _note(self, seat: int, bot: Any, action: Any) -> None:
        if bot is not None:
            self.bot_moves.append(f"{_seat_label(self.game, seat)} ({bot.name}): {people_text(str(action))}")

    def run_bots(self) -> None:
        """Bots play until a person is to act or the game ends."""
        self.session.run_bots()

    def act(self, text: str) -> None:
        if self.game.is_over:
            raise UsageError("the game is over")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise UsageError("action: the action's text, e.g. the one a button shows")
        snapshot = (self.game.copy(), [rng.copy() for rng in self.session.rngs])
        try:  # typed as the page shows it (`single E5`) or as records hold it (`single r4 c4`)
            self.session.move(machine_text(text.strip()))
        except ToolkitError as error:
            raise UsageError(people_text(error.render())) from None
        self.undo_stack.append(snapshot)
        del self.undo_stack[:-200]
        self.bot_moves = []
        self.session.run_bots()

    def undo(self) -> None:
        if not self.undo_stack:
            raise UsageError("nothing to undo: no move of yours yet")
        self.session.game, self.session.rngs = self.undo_stack.pop()
        self.bot_moves = []

    def hint(self) -> dict[str, Any]:
        """The prompt's hint (toolkit.play.hint: the move and why, squares lettered as the prompt
        shows it), and the move it names, which the page offers to play: `action` to send back,
        `action_text` to show."""
        from toolkit import play

        text = play.hint(self.game)
        action = hinted_action(self.game, text)
        return {"text": people_text(text), "action": action,
                "action_text": people_text(action) if action is not None else None}

    def view(self) -> dict[str, Any]:
        view = position(self.game, self.names)
        view["id"] = self.id
        view["players"] = self.names
        view["bot_moves"] = list(self.bot_moves)
        view["can_undo"] = bool(self.undo_stack)
        human = not self.game.is_over and self.bots[self.game.current_player] is None
        view["your_turn"] = human
        view["moves"] = moves(self.game, view["offers"]) if human else None
        return view

    def record(self) -> dict[str, Any]:
        from toolkit import records

        return records.make_record(self.game, self.names, self.options)


class Games:
    """The studio's games in play, at most MAX_GAMES."""

    def __init__(self):
        self.sessions: OrderedDict[str, PlaySession] = OrderedDict()
        self.lock = threading.Lock()

    def start(self, root: Path, body: dict[str, Any]) -> PlaySession:
        from toolkit.studio.design import load

        if not isinstance(body, dict):
            raise UsageError("expected {edition, seed, seats}")
        seats = body.get("seats")
        if (not isinstance(seats, list) or not 1 <= len(seats) <= MAX_SEATS
                or not all(isinstance(s, str) and 0 < len(s) <= 40 for s in seats)):
            raise UsageError(f"seats: a list of 1..{MAX_SEATS} names, 'human' or a bot such as greedy")
        seed = body.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise UsageError(f"seed: a whole number 0..{MAX_SEED}")
        edition = load(root, body.get("edition"))
        session = PlaySession(edition, seed, [s.strip() for s in seats])
        session.run_bots()
        with self.lock:
            self.sessions[session.id] = session
            while len(self.sessions) > MAX_GAMES:
                self.sessions.popitem(last=False)
        return session

    def get(self, game_id: str) -> PlaySession:
        with self.lock:
            session = self.sessions.get(game_id)
            if session is None:
                raise UsageError(f"no game {game_id!r} here (the studio keeps the last {MAX_GAMES} games)")
            self.sessions.move_to_end(game_id)
        session.used = time.monotonic()
        return session


# ----- records ------------------------------------------------------------------------------------

class RecordSteps:
    """A replayed record: the position after every action."""

    def __init__(self, data: dict[str, Any], name: str):
        from toolkit import records
        from toolkit.families import engine_for

        records.replay(data)  # the whole record checked first: deal, actions, chance, scores
        edition = records.replay_edition(data)
        game = engine_for(edition).new_game(edition, int(data["seed"]), data.get("seats"), **dict(data["options"]))
        self.name = name
        self.players = [str(p) for p in data.get("players", [])]
        self.actions = list(data["actions"])
        self.positions = [game.copy()]
        self.seats: list[int | None] = []
        """The seat that played each action."""
        for text in self.actions:
            self.seats.append(game.current_player)
            game.apply(game.parse_action(text))
            self.positions.append(game.copy())

    def view(self, step: int) -> dict[str, Any]:
        if not 0 <= step < len(self.positions):
            raise UsageError(f"step: 0..{len(self.positions) - 1}, got {step}")
        game = self.positions[step]
        view = position(game, self.players)
        # rectangles named so far (a Doodle scoring: `score r0 c1 5x4`), drawn on their seat's sheet
        for text, seat in zip(self.actions[:step], self.seats):
            match = _RECTANGLE.search(text)
            if match and seat is not None and seat < len(view["boards"]):
                row, col, width, height = (int(g) for g in match.groups())
                view["boards"][seat].setdefault("rectangles", []).append([row, col, width, height])
        action = self.actions[step - 1] if step else None
        view.update({"record": self.name, "step": step, "steps": len(self.positions) - 1,
                     "action": people_text(action) if action is not None else None, "record_action": action,
                     "players": self.players,
                     "chance": game.chance_log()})
        return view


class Records:
    """Records of FOLDER opened for stepping (the last few, re-read when the file changes)."""

    def __init__(self):
        self.cache: OrderedDict[tuple[str, int, int], RecordSteps] = OrderedDict()
        self.lock = threading.Lock()

    def open(self, root: Path, path: str) -> RecordSteps:
        from toolkit import records

        if not isinstance(path, str) or not path.lower().endswith(".json"):
            raise UsageError(f"{str(path)[:60]}: expected a .json file (a game record of the folder)")
        raw, rel = files.read_bytes(root, path, MAX_RECORD_BYTES)
        key = (rel, hash(raw), len(raw))
        with self.lock:
            hit = self.cache.get(key)
        if hit is not None:
            return hit
        mirror = files.mirror_of(root)
        with mirror.lock:
            copy = mirror.put(rel, raw)
            try:
                data = records.read_record(copy)
            except RecordError as error:
                raise RecordError(mirror.shown(error.render())) from None
        ref = data.get("edition")
        if isinstance(ref, dict) and not isinstance(ref.get("spec"), dict) and (ref.get("path") or ref.get("relative_path")):
            # a record of the first format names its variant by a path, which may lie anywhere
            raise RecordError(f"{rel}: this record names its variant by a file path (an old record format); "
                              "the studio opens only records that hold their edition; replay it with `patchwork replay`")
        steps = RecordSteps(data, rel)
        with self.lock:
            self.cache[key] = steps
            while len(self.cache) > MAX_RECORDS:
                self.cache.popitem(last=False)
        return steps


def record_listing(root: Path) -> list[str]:
    """JSON files of FOLDER that look like game records (by their first bytes)."""
    from toolkit.studio.design import walk

    found = []
    for rel in walk(root, (".json",)):
        head = files.read_head(root, rel, 2048)
        if b"game-record" in head or b'"actions"' in head:
            found.append(rel)
    return found


def check_error(error: Exception) -> str:
    """The one line a page shows for a library error."""
    if isinstance(error, ToolkitError):
        return error.render()
    return str(error)
