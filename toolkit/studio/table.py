"""Doodle at the table: the studio deals the cards and rolls the die for a group playing on
printed pads, and each player may keep a sheet on a phone that scores itself.

The table is a game of the Doodle engine (toolkit.games.doodle) with one seat per player, dealt
from its seed: its circle, token, pile, start cards and die rolls are the engine's own, so a table
is the same for everyone who deals that seed for that many players. What the players draw does
not change what chance brings in Doodle (the rolls and the cards come from the seeded deal alone),
so the table moves on by letting every seat of its own game pass (or name the first rectangle at
a scoring): one tap is one announcement (the start cards, each rolled turn, each scoring, the
final free choice, the end).

A player's sheet is what they have shaded on paper, copied by taps. It is scored by the rules'
functions (toolkit.geometry.board.best_rectangle and rectangle_score): at each intermediate
scoring the best fully shaded rectangle is proposed, and it is written down when the table moves
on; at the end the empty cells count against it (the edition's empty_penalty each).

Each player's link carries a secret of its own (`?key=`), derived from the studio's token, the
table and the seat: it opens that one sheet and nothing else of the studio (security.Guard).
"""
from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from toolkit.errors import ToolkitError, UsageError

MAX_TABLES = 4
"""Tables kept in memory; dealing another forgets the oldest."""
MAX_PLAYERS = 12
_counter = itertools.count(1)


class Sheet:
    """One player's sheet: the shaded cells, the rectangle written down at each scoring."""

    def __init__(self, rounds: int):
        self.cells: set[tuple[int, int]] = set()
        self.round_scores: list[int | None] = [None] * rounds
        self.version = 0


class Table:
    """A Doodle deal played on paper: the announcements, and the players' sheets."""

    def __init__(self, edition, seed: int, players: int, key_of):
        from toolkit.families import family_of

        family = family_of(edition)
        if family.info.has_time_track or family.info.head_to_head:
            raise UsageError(f"{edition.name}: the table deals a roll-and-write game played on paper "
                             "(a Doodle edition), not a game of bought patches")
        self.id = f"t{next(_counter)}"
        self.family = family
        self.edition = edition
        self.seed = seed
        self.game = family.new_game(edition, seed, players)
        self.players = players
        self.rounds = int(edition.rules.rounds)
        self.sheets = [Sheet(self.rounds) for _ in range(players)]
        self.keys = [key_of(self.id, seat) for seat in range(players)]
        self.taps = 0
        self._told: tuple[int, dict[str, Any]] | None = None
        self.lock = threading.Lock()

    # ----- the announcements --------------------------------------------------------------------
    def _moment(self) -> tuple[str, int, int]:
        game = self.game
        return game.phase, game.round, game.turn

    def next(self) -> None:
        """One tap: every seat of the table's game acts until the next announcement."""
        game = self.game
        if game.is_over:
            raise UsageError("the game is over: deal again for another")
        before = self._moment()
        scoring_round = game.round if game.phase == "scoring" else None
        while not game.is_over and self._moment() == before:
            game.apply(self._stand_in(game))
        if scoring_round is not None:
            for sheet in self.sheets:  # the rectangle each sheet shows now is written down
                sheet.round_scores[scoring_round] = self.best(sheet)[0]
                sheet.version += 1
        self.taps += 1

    @staticmethod
    def _stand_in(game) -> Any:
        """What the table's own seat does for a player on paper: pass a turn, name its best
        rectangle at a scoring, draw its start card at the first legal place (the whole list of
        legal drawings is asked for only then: a turn's runs to thousands)."""
        for action in ("pass", str(game.best_rectangle(game.current_player)) if game.phase == "scoring" else None):
            if action is None:
                continue
            try:
                trial = game.copy()
                trial.apply(action)
            except ToolkitError:
                continue
            return action
        return game.legal_actions()[0]

    def announcement(self) -> dict[str, Any]:
        """What the table shows now: the round, turn and roll, the cards in play, what to do
        (worked out once per tap: every player's phone asks for it every few seconds)."""
        if self._told is None or self._told[0] != self.taps:
            self._told = (self.taps, self._announce())
        return dict(self._told[1])

    def _announce(self) -> dict[str, Any]:
        game = self.game
        look = self.family.view(game)
        phase = game.phase
        shapes = {item.id: item.shape for item in (*self.edition.patches, *self.edition.rules.start_cards)}
        cards = [{"id": o.id, "role": o.role, "rows": list(o.shape.rows()), "details": o.details} for o in look.offers]
        current = next((c for c in cards if c["role"] == "token card"), None)
        if phase == "start":
            say = "Draw your start card"
        elif phase == "turn":
            say = f"Roll {game.roll}: draw {current['id']}" if current else f"Roll {game.roll}"
        elif phase == "free-choice":
            say = "Final turn: draw any card of the circle"
        elif phase == "scoring":
            say = f"Scoring {game.round + 1}: score one fully shaded rectangle"
        else:
            say = "Game over: count your empty cells and total your sheet"
        return {"id": self.id, "edition": self.edition.name, "title": self.edition.title, "seed": self.seed,
                "players": self.players, "phase": phase, "round": min(game.round + 1, self.rounds), "rounds": self.rounds,
                "turn": game.turn + 1 if phase == "turn" else None, "roll": game.roll if phase == "turn" else None,
                "say": say, "current": current, "cards": cards, "notes": list(look.notes), "over": game.is_over,
                "start_cards": [{"id": sid, "rows": list(shapes[sid].rows())} for sid in game.deal()["start_cards"]],
                "taps": self.taps, "width": self.edition.board_width, "height": self.edition.board_height}

    def view(self) -> dict[str, Any]:
        """The table's page: the announcement, each player's link secret and score so far."""
        view = self.announcement()
        view["seats"] = [{"seat": seat, "key": self.keys[seat], **self.score(seat)} for seat in range(self.players)]
        return view

    # ----- the sheets ---------------------------------------------------------------------------
    def best(self, sheet: Sheet) -> tuple[int, list[int] | None]:
        """(points, [row, col, width, height]) of the sheet's best fully shaded rectangle."""
        from toolkit.geometry.board import Board, best_rectangle

        board = Board(self.edition.board_width, self.edition.board_height)
        mask = 0
        for r, c in sheet.cells:
            mask |= 1 << (r * board.width + c)
        rect = best_rectangle(mask, board)
        if rect is None:
            return 0, None
        return rect.score, [rect.row, rect.col, rect.width, rect.height]

    def score(self, seat: int) -> dict[str, Any]:
        sheet = self.sheets[seat]
        cells = self.edition.board_width * self.edition.board_height
        empty = cells - len(sheet.cells)
        points, rect = self.best(sheet)
        penalty = empty * self.edition.empty_penalty if self.game.is_over else 0
        total = sum(s for s in sheet.round_scores if s is not None) - penalty
        return {"round_scores": list(sheet.round_scores), "empty": empty, "best": points, "best_rect": rect,
                "penalty": penalty, "total": total, "shaded": len(sheet.cells)}

    def sheet_view(self, seat: int) -> dict[str, Any]:
        self._seat(seat)
        view = self.announcement()
        view.update({"seat": seat, "name": f"player {seat + 1}", "cells": sorted(self.sheets[seat].cells),
                     "start_card": view["start_cards"][seat], "sheet_version": self.sheets[seat].version,
                     "empty_penalty": self.edition.empty_penalty, **self.score(seat)})
        return view

    def set_cells(self, seat: int, cells: Any) -> None:
        self._seat(seat)
        width, height = self.edition.board_width, self.edition.board_height
        if not isinstance(cells, list) or len(cells) > width * height:
            raise UsageError(f"cells: a list of at most {width * height} [row, column] pairs")
        found = set()
        for cell in cells:
            if (not isinstance(cell, list) or len(cell) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
                    or not (0 <= cell[0] < height and 0 <= cell[1] < width)):
                raise UsageError(f"cells: each a [row, column] on the {width}x{height} sheet, got {str(cell)[:40]}")
            found.add((cell[0], cell[1]))
        sheet = self.sheets[seat]
        sheet.cells = found
        sheet.version += 1

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self.players:
            raise UsageError(f"seat: 0..{self.players - 1}")


class Tables:
    """The studio's tables, at most MAX_TABLES."""

    def __init__(self, key_of):
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.lock = threading.Lock()
        self.key_of = key_of

    def deal(self, root: Path, body: dict[str, Any]) -> Table:
        from toolkit.studio.design import load

        if not isinstance(body, dict):
            raise UsageError("expected {edition, seed, players}")
        seed = body.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= 2**63 - 1:
            raise UsageError("seed: a whole number 0..2**63-1")
        players = body.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
            raise UsageError(f"players: a whole number 1..{MAX_PLAYERS}")
        edition = load(root, body.get("edition"))
        table = Table(edition, seed, players, self.key_of)
        with self.lock:
            self.tables[table.id] = table
            while len(self.tables) > MAX_TABLES:
                self.tables.popitem(last=False)
        return table

    def get(self, table_id: str) -> Table:
        with self.lock:
            table = self.tables.get(table_id)
        if table is None:
            raise UsageError(f"no table {str(table_id)[:20]!r} here (dealt again since, or the studio was restarted)")
        return table
