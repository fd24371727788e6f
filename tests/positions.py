"""Test positions written in a text notation: the one module of the tests (the kernel unit tests
aside) that knows where the compiled kernels keep each part of a game's state.

A test deals a game through the validated Game API and then arranges the parts its rule is about;
everything it does not name keeps the value the deal (or the play so far) gave it:

    game = timetrack('''
        track: 10 10
        on top: 1
        market: P01 P13 P00 P05
        quilts:
          #######.. .........
          ......... .........
          ...                              (one line per row, both quilts side by side)
        to move: 1
    ''', edition="anniversary", automa_level=3)

Lines are `key: value`; a value per seat lists seat 0 first; `-` is "nobody". Time-track keys:

    track: 19 30               each token's space on the time track
    on top: 1                  on a shared space, the token that arrived last (it moves first)
    buttons: 5 12              buttons in each player's supply
    income: 2 0                buttons printed on each quilt (paid at each income mark)
    market: P01 P02 P05 P13    the circle clockwise from the neutral token (the window first)
    bonus: 0                   who holds the 7x7 bonus tile
    first to finish: -         who reached the final space first
    pending leather: 1 0       leather patches a seat must place now (at most one seat)
    leather left: 26 32 44 50  spaces of the time track still holding their leather patch
    automa patches: 3 with 9 buttons, 4 without    Automa's two piles of taken patches
    next card: 12              the printed number of the Automa card on top of the draw pile
                               (- : the draw pile is empty, its cards discarded)
    quilts:                    then one line per row, the quilts side by side: # covered, . empty
    empty: 5 2                 instead of quilts: cover each quilt row by row, leaving this many
                               cells empty (for scoring, where only the count matters)
    to move: 1                 not set but checked: the seat this position gives the move (- over)

Doodle keys (`doodle(text, players=2)`; rounds and turns count from 1, as the game prints them):

    at: round 3, turn 2        the step, reached through the Game API: each seat draws its start
                               card's first legal drawing, then every seat passes (and scores its
                               best rectangle) until the step begins; also `start`,
                               `round 2, free choice`, `round 1, scoring`, `over`
    circle: D03 [D07] D12      the circle clockwise from position 0; [D07] the token card of a
                               rolled turn, `|` the token between turns (D03 | D07: D07 is next)
    roll: 2                    the last die roll
    start cards: S01 S04       each seat's start card
    specials used: single,again -     per seat, the special actions spent (a name twice: used
                                      twice, once through AGAIN)
    sheets:                    then one line per row, the sheets side by side: # shaded, . empty

`describe(game)` writes a position in the same notation: arranged on a fresh deal of the same
edition (any seed), it reads back the same and allows the same actions. `set_cells` arranges a
quilt or sheet from a list of cells, for the tests that compute them.
"""
from __future__ import annotations

import re
import textwrap
from typing import Iterable

import numpy as np

from toolkit.families import family_of
from toolkit.games.doodle import DoodleGame
from toolkit.games.doodle import kernel as dk
from toolkit.games.timetrack import kernel as tk
from toolkit.games.timetrack.game import TimeTrackGame
from toolkit.geometry.board import Board
from toolkit.specs import load_edition
from toolkit.specs.models import Edition

Cell = tuple[int, int]
WORD = 64


# ----- entry points ---------------------------------------------------------------------------

def timetrack(text: str = "", edition: str | Edition = "classic", seed: int = 1, **options) -> TimeTrackGame:
    """A time-track game dealt from `seed` (options: automa_level, automa_deck), then arranged."""
    edition = _edition(edition)
    return arrange(family_of(edition).new_game(edition, seed, **options), text)


def doodle(text: str = "", edition: str | Edition = "doodle", seed: int = 1, players: int = 1) -> DoodleGame:
    """A Doodle game dealt from `seed` for `players`, then arranged."""
    edition = _edition(edition)
    return arrange(family_of(edition).new_game(edition, seed, players), text)


def arrange(game, text: str):
    """Put the parts of `game` that `text` names into the position it describes; returns the game."""
    fields, rows = _parse(text)
    if isinstance(game, TimeTrackGame):
        _arrange_timetrack(game, fields, rows)
    elif isinstance(game, DoodleGame):
        _arrange_doodle(game, fields, rows)
    else:
        raise TypeError(f"no position notation for {type(game).__name__}")
    return game


def describe(game) -> str:
    """The position of `game` in the notation above."""
    if isinstance(game, TimeTrackGame):
        return _describe_timetrack(game)
    if isinstance(game, DoodleGame):
        return _describe_doodle(game)
    raise TypeError(f"no position notation for {type(game).__name__}")


def set_cells(game, seat: int, cells: Iterable[Cell]) -> None:
    """Make exactly `cells` covered on a seat's quilt (time track) or shaded on its sheet (Doodle)."""
    mask = _board(game).mask_of(cells)
    if isinstance(game, TimeTrackGame):
        _set_quilt(game, seat, mask)
    else:
        _set_sheet(game, seat, mask)


# ----- reading what the Game API does not show -------------------------------------------------

def automa_patches(game: TimeTrackGame) -> tuple[int, int, int]:
    """Automa's taken patches: (with buttons, buttons on them, without buttons)."""
    s = game.state
    return (int(s[tk.S_AUTOMA_WITH_BUTTONS]), int(s[tk.S_AUTOMA_BUTTONS_ON_PATCHES]),
            int(s[tk.S_AUTOMA_WITHOUT_BUTTONS]))


def automa_piles(game: TimeTrackGame) -> tuple[list[int], list[int]]:
    """The printed numbers of the Automa cards in the draw pile (top first) and the discard pile."""
    s, deck = game.state, _automa_deck(game)
    draw = [deck[int(i)].number for i in s[tk.S_DRAW: tk.S_DRAW + int(s[tk.S_DRAW_LEN])]][::-1]
    discarded = [deck[int(i)].number for i in s[tk.S_DISCARD: tk.S_DISCARD + int(s[tk.S_DISCARD_LEN])]]
    return draw, discarded


def bought(game: TimeTrackGame) -> dict[str, int]:
    """The seat that bought each patch bought so far, as the kernel records it."""
    seats = timetrack_kernel_buy_seats(game.state, len(game.tables.patch_ids))
    return {pid: seat for pid, seat in zip(game.tables.patch_ids, seats) if seat >= 0}


def timetrack_kernel_buy_seats(s: np.ndarray, patches: int) -> list[int]:
    """Per patch index, the seat that bought it (-1: not bought), of a time-track kernel state
    (driven with or without the Game API)."""
    return [int(seat) for seat in s[tk.S_BUY_SEAT: tk.S_BUY_SEAT + patches]]


def late_patches_entered(game: TimeTrackGame) -> bool:
    """Whether the late patches (Express) have joined the circle."""
    return bool(game.state[tk.S_LATE_ENTERED])


def doodle_kernel_over(st: np.ndarray) -> bool:
    """Whether a Doodle kernel state (driven without the Game API) has reached the end."""
    return int(st[dk.S_PHASE]) == dk.PH_OVER


def doodle_kernel_round_scores(st: np.ndarray, seat: int, rounds: int) -> list[int]:
    """The intermediate scores of one seat of a Doodle kernel state, round by round."""
    at, players = int(st[dk.S_ROUND_SCORES_AT]), int(st[dk.S_PLAYERS])
    return [int(st[at + r * players + seat]) for r in range(rounds)]


# ----- parsing ----------------------------------------------------------------------------------

_ROWS_KEYS = ("quilts", "sheets")


def _parse(text: str) -> tuple[dict[str, str], list[list[str]]]:
    """`key: value` fields, and the board rows after `quilts:` / `sheets:` (one word per seat)."""
    fields: dict[str, str] = {}
    rows: list[list[str]] = []
    in_rows = False
    for number, line in enumerate(textwrap.dedent(text).splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        if colon and re.fullmatch(r"[a-z][a-z ]*", key.strip()):
            key = key.strip()
            if key in fields:
                raise ValueError(f"position line {number}: '{key}' given twice")
            fields[key] = value.strip()
            in_rows = key in _ROWS_KEYS
            if in_rows and fields[key]:
                raise ValueError(f"position line {number}: the rows of '{key}' go on the lines after it")
        elif in_rows and re.fullmatch(r"[#.]+(\s+[#.]+)*", line):
            rows.append(line.split())
        else:
            raise ValueError(f"position line {number}: cannot read '{line}' (expected 'key: value' or board rows)")
    return fields, rows


def _per_seat(fields: dict, key: str, seats: int, seat_value: bool = False) -> list[int] | None:
    if key not in fields:
        return None
    words = fields[key].split()
    if len(words) != seats:
        raise ValueError(f"'{key}' needs {seats} value(s), one per seat, got '{fields[key]}'")
    return [_number(key, w, seat_value) for w in words]


def _one(fields: dict, key: str, seat_value: bool = False) -> int | None:
    if key not in fields:
        return None
    return _number(key, fields[key], seat_value)


def _number(key: str, word: str, seat_value: bool) -> int:
    if seat_value and word == "-":
        return -1
    if not re.fullmatch(r"\d+", word):
        raise ValueError(f"'{key}': expected a whole number{' or -' if seat_value else ''}, got '{word}'")
    return int(word)


def _masks(game, rows: list[list[str]], seats: int, what: str) -> list[int]:
    """One mask per seat from rows of side-by-side boards."""
    board = _board(game)
    if len(rows) != board.height or any(len(row) != seats or {len(w) for w in row} != {board.width} for row in rows):
        raise ValueError(f"{what}: expected {board.height} rows of {seats} board(s) {board.width} cells wide")
    return [board.mask_of((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row[seat]) if ch == "#")
            for seat in range(seats)]


def _rows(game, masks: list[int]) -> list[str]:
    board = _board(game)
    texts = [board.text(mask).split("\n") for mask in masks]
    return ["  " + " ".join(text[r] for text in texts) for r in range(board.height)]


def _seat_text(value: int | None) -> str:
    return "-" if value is None or value < 0 else str(value)


# ----- time-track games ---------------------------------------------------------------------------

_AUTOMA_PATCHES = re.compile(r"^(\d+) with (\d+) buttons?, (\d+) without$")


def _arrange_timetrack(game: TimeTrackGame, fields: dict, rows: list) -> None:
    s, keys = game.state, set(fields)
    known = {"track", "on top", "buttons", "income", "market", "bonus", "first to finish", "pending leather",
             "leather left", "automa patches", "next card", "quilts", "empty", "to move"}
    if keys - known:
        raise ValueError(f"unknown time-track position key(s): {', '.join(sorted(keys - known))}")
    for key, slot in (("track", tk.S_POS), ("buttons", tk.S_BUTTONS), ("income", tk.S_INCOME)):
        values = _per_seat(fields, key, 2)
        if values is not None:
            s[slot: slot + 2] = values
    for key, slot in (("on top", tk.S_TOP), ("bonus", tk.S_BONUS_OWNER), ("first to finish", tk.S_FIRST_FINISHER)):
        value = _one(fields, key, seat_value=True)
        if value is not None:
            s[slot] = value
    if "market" in fields:
        ids = fields["market"].split()
        unknown = [pid for pid in ids if pid not in game.tables.patch_index]
        if unknown:
            raise ValueError(f"market: no patch {', '.join(unknown)} in {game.edition.name}")
        s[tk.S_CIRCLE: tk.S_CIRCLE + len(ids)] = [game.tables.patch_index[pid] for pid in ids]
        s[tk.S_CIRCLE_LEN] = len(ids)
    pending = _per_seat(fields, "pending leather", 2)
    if pending is not None:
        if min(pending) > 0:
            raise ValueError("pending leather: only one seat at a time has leather patches to place")
        s[tk.S_PENDING_LEATHER] = max(pending)
        s[tk.S_PENDING_PLAYER] = pending.index(max(pending)) if max(pending) else -1
    if "leather left" in fields:
        spaces = {_number("leather left", w, False) for w in fields["leather left"].split()}
        if spaces - set(game.tables.leather_spaces):
            raise ValueError(f"leather left: leather patches lie on spaces {list(game.tables.leather_spaces)} only")
        for i, space in enumerate(game.tables.leather_spaces):
            s[tk.S_LEATHER_LEFT + i] = int(space in spaces)
    if "automa patches" in fields:
        match = _AUTOMA_PATCHES.match(fields["automa patches"])
        if not match:
            raise ValueError("automa patches: expected 'N with B buttons, M without'")
        s[tk.S_AUTOMA_WITH_BUTTONS], s[tk.S_AUTOMA_BUTTONS_ON_PATCHES], s[tk.S_AUTOMA_WITHOUT_BUTTONS] = (
            int(group) for group in match.groups())
    if "next card" in fields:
        _put_on_top(game, _number("next card", fields["next card"], True))
    if "quilts" in fields and "empty" in fields:
        raise ValueError("give the quilts or the empty cells, not both")
    if "quilts" in fields:
        for seat, mask in enumerate(_masks(game, rows, 2, "quilts")):
            _set_quilt(game, seat, mask)
    empty = _per_seat(fields, "empty", 2)
    if empty is not None:
        board = game.tables.board
        for seat, count in enumerate(empty):
            if count > board.cells:
                raise ValueError(f"empty: a {board} quilt has {board.cells} cells")
            _set_quilt(game, seat, (1 << (board.cells - count)) - 1)
    wanted = _one(fields, "to move", seat_value=True)
    if wanted is not None:
        seat = game.current_player
        if (-1 if seat is None else seat) != wanted:
            raise ValueError(f"to move: the position gives the move to {_seat_text(seat)}, not {_seat_text(wanted)}")


def _set_quilt(game: TimeTrackGame, seat: int, mask: int) -> None:
    for i in range(game.quilts.shape[1]):
        game.quilts[seat, i] = np.uint64((mask >> (WORD * i)) & (2 ** WORD - 1))
    game.state[tk.S_FILLED + seat] = mask.bit_count()
    # The drawing of the quilt (quilt_text, render_text) marks arranged cells with X.
    game._cover[seat] = ["X" if (mask >> bit) & 1 else "" for bit in range(len(game._cover[seat]))]


def _automa_deck(game: TimeTrackGame):
    if not game.automa_level:
        raise ValueError(f"{game.edition.name} is not being played against Automa")
    return game.edition.rules.automa.deck(game.options["automa_deck"])


def _put_on_top(game: TimeTrackGame, number: int) -> None:
    """Swap the card printed `number` onto the top of the draw pile, or (-1) discard the draw pile;
    the deck's cards stay the same."""
    s, deck = game.state, _automa_deck(game)
    if number < 0:
        drawn, discarded = int(s[tk.S_DRAW_LEN]), int(s[tk.S_DISCARD_LEN])
        s[tk.S_DISCARD + discarded: tk.S_DISCARD + discarded + drawn] = s[tk.S_DRAW: tk.S_DRAW + drawn]
        s[tk.S_DISCARD_LEN], s[tk.S_DRAW_LEN] = discarded + drawn, 0
        return
    index = next((i for i, card in enumerate(deck) if card.number == number), None)
    if index is None:
        raise ValueError(f"next card: the {game.options['automa_deck']} Automa deck has no card {number}")
    top = tk.S_DRAW + int(s[tk.S_DRAW_LEN]) - 1
    if top < tk.S_DRAW:
        raise ValueError("next card: the Automa draw pile is empty")
    piles = list(range(tk.S_DRAW, top + 1)) + list(range(tk.S_DISCARD, tk.S_DISCARD + int(s[tk.S_DISCARD_LEN])))
    where = next((slot for slot in piles if s[slot] == index), None)
    if where is None:
        raise ValueError(f"next card: card {number} is in play, in neither pile")
    s[where], s[top] = s[top], index


def _describe_timetrack(game: TimeTrackGame) -> str:
    s = game.state

    def pair(slot: int) -> str:
        return f"{int(s[slot])} {int(s[slot + 1])}"

    pending = [0, 0]
    if game.pending_leather:
        pending[int(s[tk.S_PENDING_PLAYER])] = game.pending_leather
    lines = [
        f"track: {pair(tk.S_POS)}",
        f"on top: {int(s[tk.S_TOP])}",
        f"buttons: {pair(tk.S_BUTTONS)}",
        f"income: {pair(tk.S_INCOME)}",
        f"market: {' '.join(game.circle)}".rstrip(),
        f"bonus: {_seat_text(game.bonus_owner)}",
        f"first to finish: {_seat_text(game.first_finisher)}",
        f"pending leather: {pending[0]} {pending[1]}",
        f"leather left: {' '.join(map(str, game.leather_left))}".rstrip(),
    ]
    if game.automa_level:
        with_buttons, on_them, without = automa_patches(game)
        lines.append(f"automa patches: {with_buttons} with {on_them} buttons, {without} without")
        draw, _ = automa_piles(game)
        lines.append(f"next card: {draw[0] if draw else '-'}")
    lines.append("quilts:")
    lines.extend(_rows(game, [game.quilt_mask(0), game.quilt_mask(1)]))
    lines.append(f"to move: {_seat_text(game.current_player)}")
    return "\n".join(lines)


# ----- Doodle games ------------------------------------------------------------------------------

_AT = re.compile(r"^(?:(start)|(over)|round (\d+), (?:turn (\d+)|(free choice)|(scoring)))$")
_PHASE_OF = {dk.PH_TURN: "turn", dk.PH_FREE: "free-choice", dk.PH_SCORE: "scoring"}


def _arrange_doodle(game: DoodleGame, fields: dict, rows: list) -> None:
    keys = set(fields)
    known = {"at", "circle", "roll", "start cards", "specials used", "sheets"}
    if keys - known:
        raise ValueError(f"unknown Doodle position key(s): {', '.join(sorted(keys - known))}")
    if "at" in fields:
        _play_to(game, fields["at"])
    _, st, _ = game.kernel_state()
    if "circle" in fields:
        _set_circle(game, fields["circle"])
    if "roll" in fields:
        st[dk.S_ROLL] = _number("roll", fields["roll"], False)
    if "start cards" in fields:
        ids, words = [card.id for card in game.edition.rules.start_cards], fields["start cards"].split()
        if len(words) != game.players or set(words) - set(ids):
            raise ValueError(f"start cards: one per seat ({game.players}) of {', '.join(ids)}")
        for seat, card in enumerate(words):
            st[int(st[dk.S_START_AT]) + seat] = ids.index(card)
    if "specials used" in fields:
        words = fields["specials used"].split()
        if len(words) != game.players:
            raise ValueError(f"specials used: one word per seat ({game.players}), e.g. 'single,again' or '-'")
        for seat, word in enumerate(words):
            names = [] if word == "-" else word.split(",")
            unknown = set(names) - set(dk.SPECIAL_NAMES)
            if unknown:
                raise ValueError(f"specials used: no special action {', '.join(sorted(unknown))}")
            for s, name in enumerate(dk.SPECIAL_NAMES):
                st[int(st[dk.S_USED_AT]) + 4 * seat + s] = names.count(name)
    if "sheets" in fields:
        for seat, mask in enumerate(_masks(game, rows, game.players, "sheets")):
            _set_sheet(game, seat, mask)


def _step(game: DoodleGame) -> tuple:
    return game.phase, game.round, game.turn if game.phase == "turn" else None


def _play_to(game: DoodleGame, at: str) -> None:
    """Play on (first start drawing, passes, best rectangles) until the step `at` begins."""
    match = _AT.match(at)
    if not match:
        raise ValueError(f"at: expected 'start', 'over' or 'round R, turn T | free choice | scoring', got '{at}'")
    start, over, rnd, turn, free, scoring = match.groups()
    if start or over:
        target = ("start" if start else "over", game.edition.rules.rounds if over else 0, None)
    else:
        phase = "turn" if turn else "free-choice" if free else "scoring"
        target = (phase, int(rnd) - 1, int(turn) - 1 if turn else None)
    while _step(game) != target:
        if game.is_over:
            raise ValueError(f"at: the game ended before reaching '{at}'")
        if game.phase == "start":
            game.apply(next(a for a in game.legal_actions() if a.kind == "start"))
        elif game.phase == "scoring":
            game.apply(game.best_rectangle(game.current_player))
        else:
            game.apply("pass")


def _set_circle(game: DoodleGame, text: str) -> None:
    _, st, _ = game.kernel_state()
    ids = [p.id for p in game.edition.patches]
    words = text.split()
    token = [i for i, w in enumerate(words) if w.startswith("[")]
    between = [i for i, w in enumerate(words) if w == "|"]
    cards = [w.strip("[]") for w in words if w != "|"]
    unknown = [pid for pid in cards if pid not in ids]
    if unknown:
        raise ValueError(f"circle: no patch {', '.join(unknown)} in {game.edition.name}")
    rolled = game.phase == "turn"
    if rolled and (len(token) != 1 or between):
        raise ValueError("circle: on a rolled turn, mark the token card once, as [D07]")
    if not rolled and (token or len(between) > 1):
        raise ValueError("circle: there is no token card now; mark the token between cards with | (or leave it out)")
    at = int(st[dk.S_CIRCLE_AT])
    for i, pid in enumerate(cards):
        st[at + i] = ids.index(pid)
    n = len(cards)
    st[dk.S_CIRCLE_LEN] = n
    if rolled:
        cur = token[0]
        st[dk.S_CUR] = cur
        st[dk.S_NEXT] = (cur - int(st[dk.S_ROLL]) + 1) % n  # where the token stood before the roll
    else:
        st[dk.S_CUR] = -1
        st[dk.S_NEXT] = between[0] % n if between and n else 0


def _set_sheet(game: DoodleGame, seat: int, mask: int) -> None:
    _, st, occ = game.kernel_state()
    for i in range(occ.shape[1]):
        occ[seat, i] = np.uint64((mask >> (WORD * i)) & (2 ** WORD - 1)).view(np.int64)
    st[int(st[dk.S_FILLED_AT]) + seat] = mask.bit_count()


def _describe_doodle(game: DoodleGame) -> str:
    phase = game.phase
    if phase in ("start", "over"):
        at = phase
    elif phase == "turn":
        at = f"round {game.round + 1}, turn {game.turn + 1}"
    else:
        at = f"round {game.round + 1}, {'free choice' if phase == 'free-choice' else 'scoring'}"
    circle = game.circle()
    shown = []
    for i, pid in enumerate(circle):
        if game.token_card is None and i == game.next_card:
            shown.append("|")
        shown.append(f"[{pid}]" if i == game.token_card else pid)
    used = []
    for seat in range(game.players):
        names = [name for name, count in game.sheet(seat).specials_used.items() for _ in range(count)]
        used.append(",".join(names) or "-")
    lines = [f"at: {at}", f"circle: {' '.join(shown)}".rstrip(), f"roll: {game.roll}",
             f"start cards: {' '.join(game.sheet(seat).start_card for seat in range(game.players))}",
             f"specials used: {' '.join(used)}", "sheets:"]
    board = _board(game)
    lines.extend(_rows(game, [board.mask_of(sorted(game.sheet(seat).shaded)) for seat in range(game.players)]))
    return "\n".join(lines)


# ----- common ------------------------------------------------------------------------------------

def _edition(edition: str | Edition) -> Edition:
    return load_edition(edition) if isinstance(edition, str) else edition


def _board(game) -> Board:
    return Board(game.edition.board_width, game.edition.board_height)
