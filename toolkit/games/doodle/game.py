"""One validated game of Patchwork Doodle: the Game protocol over the compiled kernel.

The kernel (toolkit.games.doodle.kernel) holds every rule; this layer turns its integer rows into
DoodleAction values and back, names the broken rule when an action is refused, and gives typed
views of the sheets, the circle and the deal.

The simultaneous game is serialised: in each step (start drawing, each turn, the final free
choice, each intermediate scoring) seats act in order 0, 1, ...; SINGLE may be used at any point
of a seat's step and does not end it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from toolkit.errors import IllegalAction, NotationError, UsageError
from toolkit.games.base import Game
from toolkit.games.doodle import kernel as K
from toolkit.games.doodle.notation import DoodleAction, parse_action
from toolkit.games.rng import seed_state
from toolkit.geometry.shape import Shape
from toolkit.specs.models import Edition, Family

PHASE_NAMES = {
    K.PH_START: "start",
    K.PH_TURN: "turn",
    K.PH_FREE: "free-choice",
    K.PH_SCORE: "scoring",
    K.PH_OVER: "over",
}

NOTATION_HELP = """Doodle actions: o = orientation ('shapes' draws them), then the square of the
top-left cell as the sheet names it, column letter and row number:
  start o2 A1                  draw your start card's patch
  draw o1 E4                   draw the current patch
  pass                         draw nothing this turn
  neighbour left draw o0 B2    NEIGHBOUR: card before the token (or right)
  cut h2 a draw o0 F6          CUT between the patch's rows 1, 2 (v: columns)
                               and draw piece a (top/left) or b
  neighbour right cut v1 a draw o0 F6       both on one turn
  single E5                    SINGLE: shade one empty cell (step goes on)
  again single C3              AGAIN: a special action once more
  free D07 draw o0 A1          final turn: pick any card left
  score A1 5x4                 score 5 columns x 4 rows from A1; 'score none'
  (the record's form, 'draw o1 r3 c4', rows and columns from 0, is read too)
'legal draw', 'legal cut', 'legal score' list the matching legal actions."""

@dataclass(frozen=True)
class Sheet:
    """One player's sheet, as a typed view."""

    seat: int
    start_card: str
    shaded: frozenset[tuple[int, int]]
    """Shaded cells (row, col)."""
    round_scores: tuple[int | None, ...]
    """Score of each intermediate scoring so far (None: not yet scored)."""
    specials_used: dict[str, int]
    """Times each special action was used (neighbour, single, cut, again)."""
    drawn: int
    """Patch cards drawn (the start card not counted)."""
    empty: int
    """Empty cells."""
    score: int
    """Intermediate scores so far minus empty_penalty per empty cell."""


class DoodleGame(Game):
    """A Doodle game for any number of players (1 = solo), driven action by action."""

    def __init__(self, edition: Edition, seed: int, players: int = 1):
        if not isinstance(players, int) or isinstance(players, bool) or players < 1:
            raise UsageError(f"Doodle needs at least 1 player, got {players!r}")
        if players < edition.players_min or (edition.players_max is not None and players > edition.players_max):
            top = "no limit" if edition.players_max is None else str(edition.players_max)
            raise UsageError(
                f"{edition.name} is for {edition.players_min} to {top} players, got {players}"
            )
        if not edition.doodle_rules.start_cards:
            raise UsageError(f"{edition.name} has no start cards; a Doodle edition needs at least one")
        if not edition.doodle_rules.die:
            raise UsageError(f"{edition.name} has no die faces")
        self.edition = edition
        self.seed = int(seed)
        self.players = players
        self.history: list[DoodleAction] = []
        self._info = K.tables_info(edition)
        self._tables = self._info.tables
        self._st, self._occ = K.new_state(self._tables, players, seed_state(self.seed))
        self._deal = self._snapshot_deal()
        self._index: dict[int, dict[tuple[int, int, int], int]] = {}
        self._chance: list[dict] = []
        self.last_event = ""
        """What followed the last action (a roll, a score), in words; the CLI prints it."""
        self.options: dict[str, Any] = {}
        """Doodle games take no options besides the players (toolkit.games.base.Game)."""

    # ----- state views ---------------------------------------------------------------------

    @property
    def notation_help(self) -> str:
        """The action notation, for the prompt's help."""
        return NOTATION_HELP

    def seat_name(self, seat: int) -> str:
        return f"player {seat + 1}"

    @property
    def phase(self) -> str:
        """start, turn, free-choice, scoring or over."""
        return PHASE_NAMES[int(self._st[K.S_PHASE])]

    @property
    def round(self) -> int:
        """0-based round (equal to the number of rounds once the game is over)."""
        return int(self._st[K.S_ROUND])

    @property
    def turn(self) -> int:
        """0-based rolled turn within the round."""
        return int(self._st[K.S_TURN])

    @property
    def roll(self) -> int:
        """The last die roll (0 before the first)."""
        return int(self._st[K.S_ROLL])

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else int(self._st[K.S_SEAT])

    @property
    def is_over(self) -> bool:
        return int(self._st[K.S_PHASE]) == K.PH_OVER

    def circle(self) -> list[str]:
        """Patch ids of the circle, clockwise from position 0."""
        st = self._st
        oc = int(st[K.S_CIRCLE_AT])
        return [self._info.patch_ids[int(st[oc + i])] for i in range(int(st[K.S_CIRCLE_LEN]))]

    @property
    def token_card(self) -> int | None:
        """Circle position of the token card during a rolled turn, else None."""
        cur = int(self._st[K.S_CUR])
        return None if cur < 0 else cur

    @property
    def next_card(self) -> int:
        """Circle position of the first card clockwise after the token."""
        return int(self._st[K.S_NEXT])

    def pile(self) -> list[str]:
        """Patch ids still face down, top first."""
        st = self._st
        op = int(st[K.S_PILE_AT])
        return [self._info.patch_ids[int(st[op + i])] for i in range(int(st[K.S_PILE_POS]), len(self._info.tables.deck_card))]

    def sheet(self, seat: int) -> Sheet:
        """A typed view of one player's sheet."""
        st, players = self._st, self.players
        if not 0 <= seat < players:
            raise UsageError(f"seat {seat} does not exist (seats 0..{players - 1})")
        board = self._info.board
        shaded = frozenset(board.cells_of(self._mask(seat)))
        rounds = self.edition.doodle_rules.rounds
        done = self.round if not self.is_over else rounds
        scores = tuple(
            int(st[int(st[K.S_ROUND_SCORES_AT]) + r * players + seat]) if r < done else None for r in range(rounds)
        )
        used = {name: int(st[int(st[K.S_USED_AT]) + 4 * seat + s]) for s, name in enumerate(K.SPECIAL_NAMES)}
        empty = board.cells - len(shaded)
        return Sheet(
            seat=seat,
            start_card=self._info.start_ids[int(st[int(st[K.S_START_AT]) + seat])],
            shaded=shaded,
            round_scores=scores,
            specials_used=used,
            drawn=int(st[int(st[K.S_DRAWN_AT]) + seat]),
            empty=empty,
            score=sum(s for s in scores if s is not None) - self.edition.empty_penalty * empty,
        )

    def _mask(self, seat: int) -> int:
        mask = 0
        for i, word in enumerate(self._occ[seat].tolist()):
            mask |= (int(word) & 0xFFFF_FFFF_FFFF_FFFF) << (64 * i)
        return mask

    def scores(self) -> list[int]:
        """Per seat: the intermediate scores so far minus empty_penalty per empty cell (final once over)."""
        return [int(x) for x in K.final_scores(self._tables, self._st, self._occ)]

    def winners(self) -> list[int]:
        """Every seat with the highest score (ties are shared)."""
        scores = self.scores()
        top = max(scores)
        return [seat for seat, score in enumerate(scores) if score == top]

    def best_rectangle(self, seat: int) -> DoodleAction:
        """The scoring action of the best fully shaded rectangle of a sheet (`score none` if empty)."""
        score, row, col, height, width = K.best_rectangle(self._tables, self._occ[seat])
        if height == 0:
            return DoodleAction("score")
        return DoodleAction("score", row=int(row), col=int(col), width=int(width), height=int(height))

    def deal(self) -> dict:
        """The random setup: circle order, token, pile order, each player's start card."""
        return dict(self._deal)

    def _snapshot_deal(self) -> dict:
        circle = self.circle()
        nxt = self.next_card
        return {
            "edition": self.edition.name,
            "seed": self.seed,
            "players": self.players,
            "circle": circle,
            # The token lies between two adjacent cards: the card at `next` is the first clockwise.
            "token": {
                "between": [circle[nxt - 1], circle[nxt]] if circle else [],
                "next": nxt,
            },
            "pile": self.pile(),
            "start_cards": [self._info.start_ids[int(self._st[int(self._st[K.S_START_AT]) + k])] for k in range(self.players)],
        }

    # ----- actions ---------------------------------------------------------------------------

    def parse_action(self, text: str) -> DoodleAction:
        return parse_action(text)

    def legal_actions(self) -> list[DoodleAction]:
        """Every legal action of the seat to act, in the kernel's canonical order."""
        rows = K.list_actions(self._tables, self._st, self._occ)
        return [self._from_row(row) for row in rows.tolist()]

    def apply(self, action: DoodleAction | str) -> None:
        """Apply one action of the seat to act; IllegalAction names the rule it breaks."""
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, DoodleAction):
            raise NotationError(f"not a Doodle action: {action!r}")
        row = self._to_row(action)
        code = int(K.check_action(self._tables, self._st, self._occ, row))
        if code != K.R_OK:
            message, rule = K.REASONS[code]
            raise IllegalAction(str(action), message.format_map(_Explain(self, action, row)), rule)
        st = self._st
        seat = self.seat_to_act
        before = (int(st[K.S_ROUND]), int(st[K.S_TURN]), int(st[K.S_PHASE]))
        if action.kind in ("draw", "pass") and before[2] in (K.PH_TURN, K.PH_FREE):
            self._chance[-1]["drawn"][seat] = None if action.kind == "pass" else self._card_id(int(row[K.A_CARD]))
        K.apply_action(self._tables, st, self._occ, row)
        self.history.append(action)
        events = []
        if action.kind == "score":
            score = int(st[int(st[K.S_ROUND_SCORES_AT]) + before[0] * self.players + seat])
            events.append(f"player {seat + 1} scores {score}")
        after = (self.round, self.turn, int(st[K.S_PHASE]))
        if after != before and after[2] in (K.PH_TURN, K.PH_FREE):
            self._open_chance_entry()
        token = self.token_card
        if self.phase == "turn" and before != after and token is not None:
            events.append(f"roll {self.roll}: the current patch is {self.circle()[token]}")
        elif self.phase == "free-choice" and before[2] != K.PH_FREE:
            events.append(f"final turn: pick any of {', '.join(self.circle())}")
        elif self.phase == "scoring" and before[2] != K.PH_SCORE:
            events.append(f"intermediate scoring {self.round + 1}: name a fully shaded rectangle")
        elif self.is_over:
            events.append("game over: " + ", ".join(f"player {k + 1} {v}" for k, v in enumerate(self.scores())))
        self.last_event = "; ".join(events)

    def chance_log(self) -> list[dict]:
        """What chance and the players' picks made of each turn so far, in order: one dict per
        rolled turn and for the final free choice, with `round` and `turn` (1-based; `turn` is
        "final" for the free choice), `roll` (the die face; None on the free choice), `card` (the
        token card's patch id, the current patch; None on the free choice) and `drawn` (per seat,
        the patch id of the card drawn, which differs from `card` after NEIGHBOUR or on the free
        choice; None for a pass or a seat that has not acted yet). With the deal (`deal()`) this
        lets anyone re-check a game without this engine."""
        return [dict(entry, drawn=list(entry["drawn"])) for entry in self._chance]

    def _open_chance_entry(self) -> None:
        if int(self._st[K.S_PHASE]) == K.PH_TURN:
            entry = {"round": self.round + 1, "turn": self.turn + 1, "roll": self.roll,
                     "card": self._card_id(int(self._st[K.S_CUR]))}
        else:
            entry = {"round": self.round + 1, "turn": "final", "roll": None, "card": None}
        entry["drawn"] = [None] * self.players
        self._chance.append(entry)

    def _card_id(self, pos: int) -> str:
        return self._info.patch_ids[int(self._st[int(self._st[K.S_CIRCLE_AT]) + pos])]

    def kernel_state(self) -> tuple[K.DoodleTables, np.ndarray, np.ndarray]:
        """(tables, st, occ): the live kernel arrays, for compiled choosers; do not modify them."""
        return self._tables, self._st, self._occ

    def action_of_row(self, row) -> DoodleAction:
        """The DoodleAction of a kernel action row (int64[NA]) of the seat to act."""
        return self._from_row([int(x) for x in row])

    def copy(self) -> DoodleGame:
        """An independent copy (for look-ahead)."""
        other = object.__new__(DoodleGame)
        other.__dict__.update(self.__dict__)
        other._st = self._st.copy()
        other._occ = self._occ.copy()
        other.history = list(self.history)
        other.options = dict(self.options)
        other._chance = self.chance_log()
        return other

    # ----- conversions -------------------------------------------------------------------------

    def _shape_lookup(self, shape: int) -> dict[tuple[int, int, int], int]:
        table = self._index.get(shape)
        if table is None:
            start = self._info.shape_start[shape]
            table = {(p.orientation, p.row, p.col): start + i for i, p in enumerate(self._info.placements[shape])}
            self._index[shape] = table
        return table

    def _from_row(self, row: list[int]) -> DoodleAction:
        kind = row[K.A_KIND]
        again = K.SPECIAL_NAMES[row[K.A_AGAIN] - 1] if row[K.A_AGAIN] else None
        width = self._info.board.width
        if kind == K.K_PASS:
            return DoodleAction("pass")
        if kind == K.K_SINGLE:
            return DoodleAction("single", row=row[K.A_PLACE] // width, col=row[K.A_PLACE] % width, again=again)
        if kind == K.K_SCORE:
            if row[K.A_H] == 0:
                return DoodleAction("score")
            return DoodleAction("score", row=row[K.A_PLACE], col=row[K.A_COL], width=row[K.A_W], height=row[K.A_H])
        _, placement = self._info.placement_of(row[K.A_PLACE])
        if kind == K.K_START:
            return DoodleAction("start", placement.orientation, placement.row, placement.col)
        card = None
        if int(self._st[K.S_PHASE]) == K.PH_FREE:
            card = self.circle()[row[K.A_CARD]]
        cut = piece = None
        if row[K.A_CUT] >= 0:
            patch = int(self._st[int(self._st[K.S_CIRCLE_AT]) + row[K.A_CARD]])
            c = self._info.cuts[patch][row[K.A_CUT]]
            cut = f"{c.axis}{c.index}"
            piece = "ab"[row[K.A_PIECE]]
        return DoodleAction(
            "draw", placement.orientation, placement.row, placement.col, card=card,
            neighbour=(None, "left", "right")[row[K.A_NB]], cut=cut, piece=piece, again=again,
        )

    def _to_row(self, action: DoodleAction) -> np.ndarray:
        """The kernel row of an action. What the notation cannot place (a card not in the circle,
        a line that is not a cut, a drawing off the board) gets a value the kernel refuses with
        the matching reason; the kernel alone decides legality."""
        st = self._st
        row = np.zeros(K.NA, dtype=np.int64)
        row[K.A_CUT] = -1
        row[K.A_CARD] = -1
        row[K.A_PLACE] = -1
        if action.again is not None:
            row[K.A_AGAIN] = 1 + K.SPECIAL_NAMES.index(action.again)
        board = self._info.board
        seat = self.current_player
        if action.kind == "pass":
            row[K.A_KIND] = K.K_PASS
            return row
        if action.kind == "single":
            row[K.A_KIND] = K.K_SINGLE
            r, c = action.numbers("row", "col")
            if board.contains(r, c):
                row[K.A_PLACE] = r * board.width + c
            return row
        if action.kind == "score":
            row[K.A_KIND] = K.K_SCORE
            if action.width is not None:
                row[K.A_PLACE], row[K.A_COL], row[K.A_H], row[K.A_W] = action.numbers("row", "col", "height", "width")
            return row
        if action.kind == "start":
            row[K.A_KIND] = K.K_START
            if seat is not None:
                shape = int(self._tables.start_shape[int(st[int(st[K.S_START_AT]) + seat])])
                row[K.A_PLACE] = self._placement(shape, action)
            return row
        row[K.A_KIND] = K.K_DRAW
        row[K.A_NB] = 0 if action.neighbour is None else 1 + ("left", "right").index(action.neighbour)
        phase = int(st[K.S_PHASE])
        circle = self.circle()
        n = len(circle)
        if phase == K.PH_FREE:
            if action.card is not None:
                wanted = action.card.upper()
                positions = [i for i, pid in enumerate(circle) if pid.upper() == wanted]
                row[K.A_CARD] = positions[0] if positions else n
        elif phase == K.PH_TURN:
            if action.card is not None:
                # Notation, not a rule of the position: 'free' names the final turn's pick.
                raise IllegalAction(str(action), "'free' picks a card only on the final, un-rolled turn",
                                    K.REASONS[K.R_NOT_TOKEN_CARD][1])
            cur = int(st[K.S_CUR])
            if action.neighbour is None:
                row[K.A_CARD] = cur
            elif n >= 2:
                row[K.A_CARD] = (cur - 1) % n if action.neighbour == "left" else (cur + 1) % n
        if not 0 <= row[K.A_CARD] < n:
            return row
        patch = int(st[int(st[K.S_CIRCLE_AT]) + int(row[K.A_CARD])])
        if action.cut is None:
            shape = int(self._tables.patch_shape[patch])
        else:
            axis, index = action.cut[0], int(action.cut[1:])
            cuts = self._info.cuts[patch]
            found = [i for i, c in enumerate(cuts) if c.axis == axis and c.index == index]
            row[K.A_CUT] = found[0] if found else len(cuts)
            if action.piece is None:
                raise NotationError(f"'{action}': a cut drawing names its piece, a or b")
            row[K.A_PIECE] = "ab".index(action.piece)
            if not found:
                return row
            shape = int(self._tables.cut_piece[patch, found[0], row[K.A_PIECE]])
        row[K.A_PLACE] = self._placement(shape, action)
        return row

    def _placement(self, shape: int, action: DoodleAction) -> int:
        """The global placement row, or -1 when the drawing does not lie on the board."""
        if action.orientation is None or action.row is None or action.col is None:
            return -1
        return self._shape_lookup(shape).get((action.orientation, action.row, action.col), -1)

    # ----- text -------------------------------------------------------------------------------

    def render_text(self) -> str:
        """The sheets as text: the circle, then per seat the board, score rows and specials."""
        lines = [f"{self.edition.title} - seed {self.seed} - {self.players} player(s)"]
        if self.is_over:
            lines.append("Game over.")
        else:
            where = {
                "start": "start: draw your start card",
                "turn": f"round {self.round + 1}, turn {self.turn + 1}, roll {self.roll}",
                "free-choice": f"round {self.round + 1}, final turn: free choice",
                "scoring": f"intermediate scoring {self.round + 1}",
            }[self.phase]
            lines.append(f"{where}; player {self.seat_to_act + 1} to act")
        circle = self.circle()
        if circle:
            tok = self.token_card
            shown = []
            for i, pid in enumerate(circle):
                if tok is None and i == self.next_card:
                    shown.append("|")
                shown.append(f"[{pid}]" if i == tok else pid)
            lines.append("circle: " + " ".join(shown) + ("  ([x] token card)" if tok is not None else "  (| token)"))
            if tok is not None:
                patch = self.edition.patches[int(self._st[int(self._st[K.S_CIRCLE_AT]) + tok])]
                lines.append(f"current patch {patch.id}: {patch.shape.format()}")
        board = self._info.board
        for seat in range(self.players):
            sheet = self.sheet(seat)
            marker = "  <- to act" if seat == self.current_player else ""
            lines.append("")
            lines.append(f"player {seat + 1} (start card {sheet.start_card}){marker}")
            lines.append("    " + " ".join(str(c % 10) for c in range(board.width)))
            rows = board.text(self._mask(seat), fill="#", empty=".").split("\n")
            for r, text in enumerate(rows):
                lines.append(f"{r:>3} " + " ".join(text))
            for r, value in enumerate(sheet.round_scores):
                lines.append(f"  {r + 1}: {'-' if value is None else value}")
            lines.append(f"  -: {sheet.empty}")
            lines.append(f"  = {sheet.score}")
            specials = []
            for name in self._info.specials:
                count = sheet.specials_used[name]
                mark = "x" * count if count else " "
                specials.append(f"{name.upper()} [{mark}]")
            lines.append("  specials: " + "  ".join(specials))
        return "\n".join(lines)


class _Explain(dict):
    """The {fields} of a REASONS message for one refused action, each worked out only when the
    message asks for it (where the overlap is, which cell of a rectangle is empty...)."""

    def __init__(self, game: DoodleGame, action: DoodleAction, row: np.ndarray):
        super().__init__()
        self.game = game
        self.action = action
        self.row = row

    def __missing__(self, key: str) -> Any:
        value = getattr(self, "_" + key)()
        self[key] = value
        return value

    def _player(self):
        return self.game.seat_to_act + 1

    def _round(self):
        return self.game.round + 1

    def _edition(self):
        return self.game.edition.name

    def _board(self):
        return self.game._info.board

    def _row(self):
        return self.action.row

    def _col(self):
        return self.action.col

    def _width(self):
        return self.action.width

    def _height(self):
        return self.action.height

    def _orientation(self):
        return self.action.orientation

    def _step(self):
        game = self.game
        if game.phase == "turn":
            return f"turn {game.turn + 1} of round {game.round + 1}"
        if game.phase == "free-choice":
            return f"the final turn of round {game.round + 1}"
        return f"{game.phase} of round {game.round + 1}"

    def _special_name(self) -> str:
        action = self.action
        if action.again is not None:
            return action.again
        if action.kind == "single":
            return "single"
        if action.neighbour is not None:
            return "neighbour"
        return "cut"

    def _special(self):
        return self._special_name().upper()

    def _again_hint(self):
        special = self._special_name()
        used = self.game.sheet(self.game.seat_to_act).specials_used
        if used[special] == 1 and used["again"] == 0 and "again" in self.game._info.specials:
            return f"; write 'again {special} ...' to use it a second time with AGAIN"
        return ""

    def _what(self):
        action = self.action
        if action.kind == "start":
            return f"start card {self.game.sheet(self.game.seat_to_act).start_card}"
        patch = self._patch()
        return f"patch {patch}" if action.cut is None else f"piece {action.piece} of {patch} cut {action.cut}"

    def _shape(self) -> Shape:
        game, row = self.game, self.row
        if self.action.kind == "start":
            index = int(game._tables.start_shape[int(game._st[int(game._st[K.S_START_AT]) + game.seat_to_act])])
        elif row[K.A_CUT] >= 0:
            index = int(game._tables.cut_piece[self._patch_index(), row[K.A_CUT], row[K.A_PIECE]])
        else:
            index = int(game._tables.patch_shape[self._patch_index()])
        return game._info.shapes[index]

    def _orientations(self):
        return len(self._shape().orientations(self.game.edition.allow_flip))

    def _last(self):
        return self["orientations"] - 1

    def _patch_index(self) -> int:
        st = self.game._st
        return int(st[int(st[K.S_CIRCLE_AT]) + int(self.row[K.A_CARD])])

    def _patch(self):
        return self.game._info.patch_ids[self._patch_index()]

    def _cut(self):
        return f"cut {self.action.cut}"

    def _cuts(self):
        cuts = self.game._info.cuts[self._patch_index()]
        return ", ".join(f"{c.axis}{c.index}" for c in cuts) or "none"

    def _circle(self):
        return ", ".join(self.game.circle())

    def _card(self):
        return self.action.card

    def _overlap_cell(self) -> tuple[int, int]:
        game = self.game
        _, placement = game._info.placement_of(int(self.row[K.A_PLACE]))
        return game._info.board.cells_of(placement.mask & game._mask(game.seat_to_act))[0]

    def _overlap_row(self):
        return self._overlap_cell()[0]

    def _overlap_col(self):
        return self._overlap_cell()[1]

    def _empty_cell(self) -> tuple[int, int]:
        game, a = self.game, self.action
        shaded = game.sheet(game.seat_to_act).shaded
        top, left, height, width = a.numbers("row", "col", "height", "width")
        return next((r, c) for r in range(top, top + height) for c in range(left, left + width)
                    if (r, c) not in shaded)

    def _empty_row(self):
        return self._empty_cell()[0]

    def _empty_col(self):
        return self._empty_cell()[1]

    def _best(self):
        return self.game.best_rectangle(self.game.seat_to_act)


class DoodleEngine:
    """The Doodle rules family: any number of players, parameterised by the edition spec."""

    family = Family.DOODLE

    def new_game(self, edition: Edition, seed: int, players: int | None = None, **options: Any) -> DoodleGame:
        unknown = sorted(name for name, value in options.items() if value is not None)
        if unknown:
            raise UsageError(f"Doodle games take no options besides players, got {', '.join(unknown)}")
        return DoodleGame(edition, seed, players if players is not None else max(1, edition.players_min))
