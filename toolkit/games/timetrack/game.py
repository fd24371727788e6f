"""One validated time-track game, action by action: typed views, notation, messages, drawing.

A thin layer over the compiled kernel (toolkit.games.timetrack.kernel), which alone decides what
is legal and what an action does. This module owns the action notation

    advance                 action A: move in front of the opponent, 1 button per space moved
    buy P17 o3 r2 c4        action B: patch P17 in orientation 3 (index into
                            shape.orientations(allow_flip)), its bounding box's top-left corner
                            on row 2, column 4 (rows and columns count from 0, top-left)
    leather r4 c5           place a pending leather patch on row 4, column 5
    automa                  Automa's turn (solo games; the engine plays it)

and turns the kernel's reason codes into messages that name the rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from toolkit.errors import IllegalAction, NotationError, UsageError
from toolkit.games.base import Game
from toolkit.games.rng import seed_state
from toolkit.games.text import draw_side_by_side
from toolkit.games.timetrack import kernel as k
from toolkit.games.timetrack.tables import (
    P_ACTION_AUTOMA,
    P_ACTION_LEATHER,
    P_ACTIONS,
    P_CELLS,
    P_FINAL,
    P_WINDOW,
    TrackTables,
    tables_for,
)
from toolkit.specs.models import Automa, Edition, Family

SEAT_NAMES = ("player 1", "player 2")


@dataclass(frozen=True)
class Advance:
    """Action A."""

    def __str__(self) -> str:
        return "advance"


@dataclass(frozen=True)
class Buy:
    """Action B: buy `patch` and place it in `orientation` with its top-left at (row, col)."""

    patch: str
    orientation: int
    row: int
    col: int

    def __str__(self) -> str:
        return f"buy {self.patch} o{self.orientation} r{self.row} c{self.col}"


@dataclass(frozen=True)
class PlaceLeather:
    """Place the pending leather patch on cell (row, col)."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"leather r{self.row} c{self.col}"


@dataclass(frozen=True)
class AutomaTurn:
    """Automa draws a card and buys or passes."""

    def __str__(self) -> str:
        return "automa"


TrackAction = Union[Advance, Buy, PlaceLeather, AutomaTurn]

NOTATION_HELP = """\
actions (a square is named as the board shows it: column letter, row number):
  advance           move in front of the other token, 1 button per space moved
  buy P17 o3 E3     buy P17 in orientation 3, its top-left cell on E3
                    ('shapes P17' draws P17 in each orientation o0, o1, ...)
  leather F5        place the leather patch you just collected on square F5
  (the record's form, 'buy P17 o3 r2 c4', rows and columns from 0, is read too)"""

AUTOMA_HELP = "  automa            let Automa take its turn"
"""The help line of the `automa` action, shown only in games against Automa."""

MARKET_WIDTH = 78
"""Text columns the drawn market may use before it wraps."""

# at most 9 digits: no board or deck is bigger, and a 5000-digit number is past int()'s limit
_BUY = re.compile(r"^buy\s+(\S+)\s+o(\d{1,9})\s+r(\d{1,9})\s+c(\d{1,9})$", re.IGNORECASE)
_LEATHER = re.compile(r"^leather\s+r(\d{1,9})\s+c(\d{1,9})$", re.IGNORECASE)


def parse_action(text: str) -> TrackAction:
    """Read an action in the notation above; `parse_action(str(a)) == a`."""
    words = " ".join(str(text).split())
    low = words.lower()
    if low == "advance":
        return Advance()
    if low == "automa":
        return AutomaTurn()
    match = _BUY.match(words)
    if match:
        return Buy(match.group(1).upper(), int(match.group(2)), int(match.group(3)), int(match.group(4)))
    match = _LEATHER.match(words)
    if match:
        return PlaceLeather(int(match.group(1)), int(match.group(2)))
    raise NotationError(
        f"cannot read action '{text}': expected 'advance', 'buy P17 o3 r2 c4', 'leather r4 c5' or 'automa'"
    )


class TimeTrackGame(Game):
    """A game of a time-track edition under the rules (two seats; seat 1 may be Automa)."""

    def __init__(self, edition: Edition, seed: int, automa_level: int = 0, automa_deck: str = "normal"):
        self.edition = edition
        self.seed = int(seed)
        self.players = 2
        self.tables: TrackTables = tables_for(edition)
        self.history: list[TrackAction] = []
        self.options: dict[str, Any] = {}
        self.last_event = ""
        """What the last action did, in words (for the terminal)."""
        self._chance: list[dict[str, Any]] = []
        t = self.tables.arrays
        self.rng = seed_state(self.seed)
        """The game's own chance: deal, Express late patches, the Automa deck."""
        if automa_level:
            if edition.timetrack_rules.automa is None:
                raise UsageError(f"edition '{edition.name}' has no Automa deck (try 'anniversary')")
            levels = sorted(level.level for level in edition.timetrack_rules.automa.levels)
            if automa_level not in levels:
                raise UsageError(f"Automa level must be one of {levels}, got {automa_level}")
            if automa_deck not in self.tables.deck_names:
                raise UsageError(
                    f"unknown Automa deck '{automa_deck}' (decks: {', '.join(self.tables.deck_names)})"
                )
            deck = self.tables.deck_names.index(automa_deck)
            self.state, self.quilts = k.new_state_automa(t, self.rng, automa_level, deck)
            self.options = {"automa_level": automa_level, "automa_deck": automa_deck}
        else:
            self.state, self.quilts = k.new_state(t, self.rng)
        self._scratch = np.zeros(int(t.params[P_ACTIONS]), dtype=np.int64)
        cells = int(t.params[P_CELLS])
        self._cover: list[list[str]] = [[""] * cells, [""] * cells]
        """Which patch covers each cell, per seat (for drawing only)."""

    def copy(self) -> "TimeTrackGame":
        """An independent game in the same position (same history, chance and quilts)."""
        other = object.__new__(TimeTrackGame)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.quilts = self.quilts.copy()
        other.rng = self.rng.copy()
        other.history = list(self.history)
        other.options = dict(self.options)
        other._scratch = np.zeros_like(self._scratch)
        other._cover = [list(row) for row in self._cover]
        other._chance = self.chance_log()
        return other

    def chance_log(self) -> list[dict[str, Any]]:
        """What chance did during the game, in order (the deal itself is `deal()`): one entry per
        Automa turn (`ply`, the Automa `card` number drawn, its `virtual_buttons`, and `did`:
        `took P17` or `passed 12->15`) and, in Express, the moment the late patches joined the
        circle (`ply`, `late_patches` in circle order). With the deal and the actions, anyone
        can re-check a game without this engine."""
        return [dict(entry) for entry in self._chance]

    # ----- views ----------------------------------------------------------------------------

    @property
    def notation_help(self) -> str:
        """The action notation, with the `automa` action only in games against Automa."""
        return NOTATION_HELP + ("\n" + AUTOMA_HELP if self.automa_level else "")

    @property
    def automa_level(self) -> int:
        return int(self.state[k.S_AUTOMA_LEVEL])

    @property
    def current_player(self) -> int | None:
        seat = int(k.current_player(self.tables.arrays, self.state))
        return None if seat < 0 else seat

    @property
    def _automa(self) -> Automa:
        """The edition's Automa (a game with an Automa level was refused without one)."""
        automa = self.edition.timetrack_rules.automa
        if automa is None:
            raise ValueError(f"edition '{self.edition.name}' has no Automa")
        return automa

    @property
    def is_over(self) -> bool:
        return bool(k.is_over(self.tables.arrays, self.state))

    @property
    def positions(self) -> tuple[int, int]:
        return int(self.state[k.S_POS]), int(self.state[k.S_POS + 1])

    @property
    def buttons(self) -> tuple[int, int]:
        return int(self.state[k.S_BUTTONS]), int(self.state[k.S_BUTTONS + 1])

    @property
    def income(self) -> tuple[int, int]:
        """Buttons printed on each quilt (paid at every income mark)."""
        return int(self.state[k.S_INCOME]), int(self.state[k.S_INCOME + 1])

    @property
    def empty_cells(self) -> tuple[int, int]:
        cells = int(self.tables.arrays.params[P_CELLS])
        return cells - int(self.state[k.S_FILLED]), cells - int(self.state[k.S_FILLED + 1])

    @property
    def bonus_owner(self) -> int | None:
        owner = int(self.state[k.S_BONUS_OWNER])
        return None if owner < 0 else owner

    @property
    def first_finisher(self) -> int | None:
        seat = int(self.state[k.S_FIRST_FINISHER])
        return None if seat < 0 else seat

    @property
    def next_card_buttons(self) -> int | None:
        """Tactical deck only: the virtual buttons printed on the back of Automa's next card
        (None when the deck is normal, or empty and about to be reshuffled)."""
        if not self.automa_level or self.options.get("automa_deck") != "tactical":
            return None
        left = int(self.state[k.S_DRAW_LEN])
        if left == 0:
            return None
        card = int(self.state[k.S_DRAW + left - 1])
        return self._automa.deck("tactical")[card].virtual_buttons

    @property
    def pending_leather(self) -> int:
        return int(self.state[k.S_PENDING_LEATHER])

    @property
    def circle(self) -> list[str]:
        """Patch ids clockwise, starting directly after the neutral token."""
        n = int(self.state[k.S_CIRCLE_LEN])
        return [self.tables.patch_ids[int(i)] for i in self.state[k.S_CIRCLE : k.S_CIRCLE + n]]

    @property
    def window(self) -> list[str]:
        """The patches that may be bought now (market window)."""
        return self.circle[: int(k.window_size(self.tables.arrays, self.state))]

    @property
    def leather_left(self) -> list[int]:
        """Spaces whose leather patch is still on the time board."""
        return [
            space
            for i, space in enumerate(self.tables.leather_spaces)
            if self.state[k.S_LEATHER_LEFT + i]
        ]

    def quilt_mask(self, seat: int) -> int:
        """Covered cells of a quilt as one integer mask (bit row * width + col)."""
        mask = 0
        for i, word in enumerate(self.quilts[seat].tolist()):
            mask |= int(word) << (64 * i)
        return mask

    def quilt_text(self, seat: int) -> list[str]:
        """The quilt as rows: `.` empty, a letter per patch in buying order, `L` leather."""
        width = self.edition.board_width
        cover = self._cover[seat]
        return ["".join(cover[r * width + c] or "." for c in range(width)) for r in range(self.edition.board_height)]

    # ----- actions --------------------------------------------------------------------------

    def parse_action(self, text: str) -> TrackAction:
        return parse_action(text)

    def decode(self, code: int) -> TrackAction:
        """The action object of a kernel action int."""
        params = self.tables.arrays.params
        if code == k.ADVANCE:
            return Advance()
        if code < params[P_ACTION_LEATHER]:
            patch, orientation, row, col = self.tables.placement_key[code - 1]
            return Buy(self.tables.patch_ids[patch], orientation, row, col)
        if code < params[P_ACTION_AUTOMA]:
            row, col = divmod(int(code - params[P_ACTION_LEATHER]), self.edition.board_width)
            return PlaceLeather(row, col)
        return AutomaTurn()

    def encode(self, action: TrackAction) -> int:
        """The kernel action int; raises IllegalAction for a placement that does not exist."""
        params = self.tables.arrays.params
        if isinstance(action, Advance):
            return k.ADVANCE
        if isinstance(action, AutomaTurn):
            return int(params[P_ACTION_AUTOMA])
        if isinstance(action, PlaceLeather):
            board = self.tables.board
            if not board.contains(action.row, action.col):
                raise IllegalAction(
                    str(action),
                    f"cell ({action.row},{action.col}) is not on the {board} quilt",
                    "patches never overhang the quilt",
                )
            return int(params[P_ACTION_LEATHER]) + action.row * board.width + action.col
        if isinstance(action, Buy):
            index = self.tables.patch_index.get(action.patch)
            if index is None:
                raise IllegalAction(str(action), f"there is no patch {action.patch} in {self.edition.name}")
            shape = self.edition.all_patches()[index].shape
            count = len(shape.orientations(self.edition.allow_flip))
            if not 0 <= action.orientation < count:
                raise IllegalAction(
                    str(action),
                    f"{action.patch} has {count} orientation{'s' if count != 1 else ''} (o0..o{count - 1})",
                )
            row = self.tables.placement_index.get((index, action.orientation, action.row, action.col))
            if row is None:
                raise IllegalAction(
                    str(action),
                    f"{action.patch} in orientation {action.orientation} at row {action.row}, column"
                    f" {action.col} does not lie inside the {self.tables.board} quilt",
                    "patches never overhang the quilt (RULINGS 23)",
                )
            return 1 + row
        raise NotationError(f"not a time-track action: {action!r}")

    def legal_codes(self) -> np.ndarray:
        n = k.legal_actions(self.tables.arrays, self.state, self.quilts, self._scratch)
        return self._scratch[:n].copy()

    def legal_actions(self) -> list[TrackAction]:
        """Every legal action, in kernel order."""
        return [self.decode(int(code)) for code in self.legal_codes()]

    def check(self, action: TrackAction | str) -> None:
        """Raise IllegalAction naming the rule if `action` is not legal now."""
        if isinstance(action, str):
            action = parse_action(action)
        self._checked_code(action)

    def _checked_code(self, action: TrackAction) -> int:
        code = self.encode(action)
        reason = int(k.check_action(self.tables.arrays, self.state, self.quilts, code))
        if reason != k.R_OK:
            raise self._illegal(action, code, reason)
        return code

    def apply(self, action: TrackAction | str) -> None:
        """Play one action for the current player, after checking it against the rules."""
        if isinstance(action, str):
            action = parse_action(action)
        code = self._checked_code(action)
        self._apply_code(code, action)

    def apply_code(self, code: int) -> None:
        """Play a kernel action int (checked like apply)."""
        action = self.decode(int(code))
        self.apply(action)

    def _apply_code(self, code: int, action: TrackAction) -> None:
        seat = self.current_player
        t = self.tables.arrays
        before = self.quilts[seat].copy() if seat is not None else None
        circle_before = self.circle
        position_before = self.positions[seat] if seat is not None else 0
        late_before = int(self.state[k.S_LATE_ENTERED])
        k.apply(t, self.state, self.quilts, code, self.rng)
        ply = len(self.history)
        self.history.append(action)
        if late_before == 0 and int(self.state[k.S_LATE_ENTERED]) == 1:
            late_ids = {p.id for p in self.edition.timetrack_rules.late_patches}
            self._chance.append({"ply": ply, "late_patches": [pid for pid in self.circle if pid in late_ids]})
        if seat is None or before is None:
            return
        if isinstance(action, AutomaTurn):
            card = self._automa.deck(self.options["automa_deck"])[int(self.state[k.S_CARD])]
            taken = [pid for pid in circle_before if pid not in self.circle]
            did = f"took {taken[0]}" if taken else f"passed from space {position_before} to {self.positions[seat]}"
            self._chance.append({"ply": ply, "card": card.number, "virtual_buttons": card.virtual_buttons,
                                 "did": f"took {taken[0]}" if taken else
                                 f"passed {position_before}->{self.positions[seat]}"})
            self.last_event = (
                f"Automa drew a card ({card.virtual_buttons} virtual buttons, income {card.income},"
                f" filters {', '.join(card.filters) or 'none'}) and {did}"
            )
        else:
            self.last_event = f"{self.seat_name(seat)}: {action}"
        if isinstance(action, Buy):
            label = _label(len([a for a in self.history if isinstance(a, Buy)]) - 1)
            self._mark(seat, before, label)
        elif isinstance(action, PlaceLeather):
            self._mark(seat, before, "L")

    def _mark(self, seat: int, before: np.ndarray, label: str) -> None:
        new = 0
        for i, (a, b) in enumerate(zip(before.tolist(), self.quilts[seat].tolist())):
            new |= (int(a) ^ int(b)) << (64 * i)
        while new:
            low = new & -new
            self._cover[seat][low.bit_length() - 1] = label
            new ^= low

    def _illegal(self, action: TrackAction, code: int, reason: int) -> IllegalAction:
        text = str(action)
        window = self.window
        if reason == k.R_GAME_OVER:
            return IllegalAction(text, "the game is over (both tokens are on the final space)", "RULINGS 7: game end")
        seat = self.seat_to_act
        if reason == k.R_LEATHER_PENDING:
            return IllegalAction(
                text,
                "a leather patch must be placed first ('leather rR cC' on an empty cell)",
                "RULINGS 5: a leather patch is placed at once",
            )
        if reason == k.R_NO_LEATHER:
            return IllegalAction(text, "there is no leather patch to place now", "RULINGS 4: leather patches are collected onto-or-past their space")
        if reason == k.R_CELL_COVERED:
            assert isinstance(action, PlaceLeather)
            return IllegalAction(text, f"cell ({action.row},{action.col}) is already covered", "RULINGS 23: patches never overlap")
        if reason == k.R_AUTOMA_TURN:
            return IllegalAction(text, "it is Automa's turn; play 'automa'", "RULINGS 13: Automa")
        if reason == k.R_NOT_AUTOMA_TURN:
            who = "this is not a game against Automa" if not self.automa_level else f"it is {SEAT_NAMES[seat]}'s turn, not Automa's"
            return IllegalAction(text, who, "RULINGS 13: Automa")
        if reason == k.R_BAD_ACTION:
            return IllegalAction(text, "not an action of this edition")
        assert isinstance(action, Buy)
        patch = self.edition.patch(action.patch)
        if reason == k.R_NOT_IN_CIRCLE:
            seat_bought = int(self.state[k.S_BUY_SEAT + self.tables.patch_index[action.patch]])
            if seat_bought >= 0:
                why = f"{action.patch} was already bought by {SEAT_NAMES[seat_bought]}"
            else:
                why = f"{action.patch} is not in the circle yet (it joins when only {self.edition.timetrack_rules.late_patches_enter_at} patches remain)"
            return IllegalAction(text, why, "RULINGS 3: the market window")
        if reason == k.R_NOT_IN_WINDOW:
            size = int(self.tables.arrays.params[P_WINDOW])
            return IllegalAction(
                text,
                f"only the {size} patches after the neutral token may be bought ({', '.join(window)});"
                f" {action.patch} is further round the circle",
                "RULINGS 3: the market window",
            )
        if reason == k.R_CANNOT_AFFORD:
            have = self.buttons[seat]
            return IllegalAction(
                text,
                f"{action.patch} costs {patch.cost} button{'s' if patch.cost != 1 else ''}, you have {have}",
                "RULINGS 3: a patch must be affordable",
            )
        if reason == k.R_OVERLAP:
            row = self.tables.placement_index[(self.tables.patch_index[action.patch], action.orientation, action.row, action.col)]
            covered = self.quilt_mask(seat)
            mask = 0
            for i, word in enumerate(self.tables.arrays.place_masks[row].tolist()):
                mask |= int(word) << (64 * i)
            clash = covered & mask
            r, c = divmod((clash & -clash).bit_length() - 1, self.edition.board_width)
            return IllegalAction(text, f"cell ({r},{c}) is already covered", "RULINGS 23: patches never overlap")
        return IllegalAction(text, f"rejected by the rules (reason code {reason})")

    # ----- results --------------------------------------------------------------------------

    def scores(self) -> list[int]:
        t = self.tables.arrays
        return [int(k.score(t, self.state, 0)), int(k.score(t, self.state, 1))]

    def winners(self) -> list[int]:
        """The winning seat, or both seats when equal scores share the victory (tie_break: shared);
        with the default tie_break a tie goes to who reached the final space first."""
        if not self.is_over:
            return []
        win = int(k.winner(self.tables.arrays, self.state))
        return [0, 1] if win == k.NO_WINNER else [win]

    # ----- drawing and the deal -------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        if self.automa_level and seat == k.AUTOMA_SEAT:
            return "Automa"
        return SEAT_NAMES[seat]

    def deal(self) -> dict:
        """The setup as data (what `patchwork deal --json` prints)."""
        track = self.edition.timetrack_rules.time_track
        assert track is not None
        info: dict[str, Any] = {
            "edition": self.edition.name,
            "content_hash": self.edition.content_hash,
            "seed": self.seed,
            "players": self.players,
            "first_player": 0,
            "circle": self.circle,
            "neutral_token": "before " + self.circle[0] if self.circle else "none",
            "window": self.window,
            "late_patches": [p.id for p in self.edition.timetrack_rules.late_patches],
            "late_patches_enter_at": self.edition.timetrack_rules.late_patches_enter_at,
            "starting_buttons": list(self.buttons),
            "time_track": {
                "layout": track.id,
                "final_space": track.final_space,
                "income_marks": list(track.income_marks),
                "leather_patches": list(self.tables.leather_spaces),
            },
            "bonus": None if self.edition.timetrack_rules.bonus is None else {
                "square_size": self.edition.timetrack_rules.bonus.square_size,
                "points": self.edition.timetrack_rules.bonus.points,
            },
        }
        if self.automa_level:
            info["automa"] = {
                "level": self.automa_level,
                "deck": self.options["automa_deck"],
                "cards_in_draw_pile": int(self.state[k.S_DRAW_LEN]),
                "cards_discarded_unseen": int(self.state[k.S_DISCARD_LEN]),
                "next_card_virtual_buttons": self.next_card_buttons,
            }
        return info

    def render_text(self) -> str:
        """Both quilts, the time track and the market window as plain text."""
        e = self.edition
        params = self.tables.arrays.params
        final = int(params[P_FINAL])
        lines = [f"{e.title} ({e.name}), seed {self.seed}, move {len(self.history) + 1}"]
        income = set(e.timetrack_rules.track.income_marks)
        leather = set(self.leather_left)
        track = "".join("L" if s in leather else "$" if s in income else "." for s in range(final + 1))
        lines.append(f"time track  {track}   ($ income, L leather)")
        for seat in (0, 1):
            pos = self.positions[seat]
            lines.append(f"{self.seat_name(seat):>10}  {' ' * pos}{seat + 1}   space {pos}/{final}")
        lines.append("")
        names = [self.seat_name(0), self.seat_name(1)]
        width = e.board_width
        cols = "".join(str(c % 10) for c in range(width))
        if self.automa_level:
            level = self.automa_level
            lines.append(f"   {names[0]:<{width}}")
            lines.append(f"   {cols}")
            for r, row in enumerate(self.quilt_text(0)):
                lines.append(f"{r:>2} {row}")
            lines.append(
                f"Automa (level {level}): {int(self.state[k.S_AUTOMA_WITH_BUTTONS])} patches with buttons"
                f" ({int(self.state[k.S_AUTOMA_BUTTONS_ON_PATCHES])} buttons on them),"
                f" {int(self.state[k.S_AUTOMA_WITHOUT_BUTTONS])} without"
            )
            ahead = self.next_card_buttons
            if ahead is not None:
                lines.append(f"Automa's next card (tactical deck, back shown): {ahead} virtual buttons")
        else:
            lines.append(f"   {names[0]:<{width}}    {names[1]:<{width}}")
            lines.append(f"   {cols}    {cols}")
            left, right = self.quilt_text(0), self.quilt_text(1)
            for r in range(e.board_height):
                lines.append(f"{r:>2} {left[r]} {r:>2} {right[r]}")
        lines.append("")
        for seat in (0, 1):
            extra = ""
            if not (self.automa_level and seat == k.AUTOMA_SEAT):
                extra = f", income {self.income[seat]}, empty {self.empty_cells[seat]}"
            bonus = ", bonus tile" if self.bonus_owner == seat else ""
            lines.append(f"{self.seat_name(seat)}: {self.buttons[seat]} buttons{extra}{bonus}")
        window = []
        for pid in self.window:
            p = e.patch(pid)
            window.append(f"{pid}(cost {p.cost}, time {p.time}, +{p.income}) {p.shape.format()}")
        lines.append("market: " + ("  |  ".join(window) if window else "empty"))
        if self.window:
            lines.extend(draw_side_by_side([(pid, e.patch(pid).shape.rows()) for pid in self.window]))
        rest = self.circle[len(self.window):]
        if rest:
            lines.append("then:   " + " ".join(rest))
        if self.is_over:
            sc = self.scores()
            winners = self.winners()
            if len(winners) == 2:
                verdict = "a shared victory (tie_break: shared)"
            else:
                verdict = f"{names[winners[0]]} wins" + (
                    " (tie broken: first to the final space)" if sc[0] == sc[1] else "")
            lines.append(f"game over: {names[0]} {sc[0]}, {names[1]} {sc[1]}; {verdict}")
        else:
            seat = self.seat_to_act
            todo = " (place the leather patch)" if self.pending_leather else ""
            lines.append(f"to move: {names[seat]}{todo}")
        return "\n".join(lines)


def _label(index: int) -> str:
    letters = "ABCDEFGHIJKMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"  # no L: that marks leather
    return letters[index % len(letters)]


class TimeTrackEngine:
    """The engine of the time-track family."""

    family = Family.TIME_TRACK

    def new_game(self, edition: Edition, seed: int, players: int | None = None, **options: Any) -> TimeTrackGame:
        if players not in (None, 2):
            raise UsageError(f"{edition.name} is a two-player game (Automa takes the second seat in solo play); got --players {players}")
        level = int(options.pop("automa_level", 0) or 0)
        deck = options.pop("automa_deck", None) or "normal"
        if options:
            raise UsageError(f"unknown game option(s) for {edition.name}: {', '.join(sorted(options))}")
        return TimeTrackGame(edition, seed, automa_level=level, automa_deck=deck)
