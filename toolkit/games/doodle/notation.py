"""The text notation of Doodle actions: one frozen value per action, `parse(str(a)) == a`.

Grammar (tokens separated by spaces, case-insensitive; o/r/c numbers are 0-based):

    start oO rR cC                         draw the start card's patch
    [free ID] [[again] neighbour left|right] [[again] cut hN|vN a|b] draw oO rR cC
    pass
    [again] single rR cC                   SINGLE: shade one empty cell
    score rR cC WxH | score none           intermediate scoring (W columns by H rows)

`oO` indexes the distinct orientations of the shape being drawn (the printed patch, or the cut
piece), in toolkit.geometry's order. `cut h2 a` cuts the printed patch along the line between its
rows 1 and 2 (`v`: columns) and draws piece `a` (top or left) or `b`. `free ID` names the card
picked on the final, un-rolled turn. `again` marks the special action AGAIN repeats.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.errors import NotationError

KINDS = ("start", "draw", "pass", "single", "score")
NEIGHBOURS = ("left", "right")
PIECES = ("a", "b")
AGAIN_TARGETS = ("neighbour", "single", "cut")

# at most 9 digits: no board or deck is bigger, and a 5000-digit number is past int()'s limit
_INT = re.compile(r"^([orc])(\d{1,9})$")
_CUT = re.compile(r"^([hv])(\d{1,9})$")
_RECT = re.compile(r"^(\d{1,9})x(\d{1,9})$")
_CARD = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class DoodleAction:
    """One Doodle action; `str()` is its notation."""

    kind: str
    """start, draw, pass, single or score."""
    orientation: int | None = None
    """Orientation index of the drawn shape (start, draw)."""
    row: int | None = None
    """Top row of the drawing / the cell / the rectangle."""
    col: int | None = None
    """Left column of the drawing / the cell / the rectangle."""
    card: str | None = None
    """Patch id picked on the final free-choice turn."""
    neighbour: str | None = None
    """NEIGHBOUR: `left` (the card before the token) or `right` (the card after it)."""
    cut: str | None = None
    """CUT line, e.g. `h2` or `v1`."""
    piece: str | None = None
    """CUT piece drawn: `a` (top/left) or `b`."""
    again: str | None = None
    """The special action AGAIN repeats: neighbour, single or cut."""
    width: int | None = None
    """Scored rectangle columns (None with height None: `score none`)."""
    height: int | None = None
    """Scored rectangle rows."""

    def numbers(self, *names: str) -> tuple[int, ...]:
        """The named number fields (`row`, `col`, `height`, ...), which this kind of action
        carries; a NotationError names any it lacks (an action built by hand, not parsed)."""
        values = tuple(getattr(self, name) for name in names)
        missing = [name for name, value in zip(names, values) if value is None]
        if missing:
            raise NotationError(f"a {self.kind} action needs {' and '.join(missing)}, got none")
        return values

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind == "start":
            return f"start o{self.orientation} r{self.row} c{self.col}"
        if self.kind == "single":
            prefix = "again " if self.again == "single" else ""
            return f"{prefix}single r{self.row} c{self.col}"
        if self.kind == "score":
            if self.width is None:
                return "score none"
            return f"score r{self.row} c{self.col} {self.width}x{self.height}"
        parts = []
        if self.card is not None:
            parts.append(f"free {self.card}")
        if self.neighbour is not None:
            parts.append(("again " if self.again == "neighbour" else "") + f"neighbour {self.neighbour}")
        if self.cut is not None:
            parts.append(("again " if self.again == "cut" else "") + f"cut {self.cut} {self.piece}")
        parts.append(f"draw o{self.orientation} r{self.row} c{self.col}")
        return " ".join(parts)


def _numbers(tokens: list[str], text: str, letters: str) -> list[int]:
    if len(tokens) != len(letters):
        raise NotationError(
            f"'{text}': expected {' '.join(f'{x}N' for x in letters)} after the action word"
        )
    values = []
    for token, letter in zip(tokens, letters):
        match = _INT.match(token)
        if not match or match.group(1) != letter:
            raise NotationError(f"'{text}': expected '{letter}' and a number, got '{token}'")
        values.append(int(match.group(2)))
    return values


def parse_action(text: str) -> DoodleAction:
    """Read one action; NotationError names what is wrong and what is expected."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, got {type(text).__name__}")
    tokens = text.strip().lower().split()
    if not tokens:
        raise NotationError("empty action: expected e.g. 'draw o0 r0 c0', 'pass' or 'score r0 c0 3x3'")
    shown = " ".join(tokens)
    head = tokens[0]
    if head == "pass":
        if len(tokens) != 1:
            raise NotationError(f"'{shown}': 'pass' takes nothing after it")
        return DoodleAction("pass")
    if head == "start":
        o, r, c = _numbers(tokens[1:], shown, "orc")
        return DoodleAction("start", o, r, c)
    if head == "score":
        if tokens[1:] == ["none"]:
            return DoodleAction("score")
        if len(tokens) != 4:
            raise NotationError(f"'{shown}': expected 'score rR cC WxH' or 'score none'")
        r, c = _numbers(tokens[1:3], shown, "rc")
        match = _RECT.match(tokens[3])
        if not match:
            raise NotationError(f"'{shown}': expected the rectangle as WxH (columns x rows), got '{tokens[3]}'")
        return DoodleAction("score", row=r, col=c, width=int(match.group(1)), height=int(match.group(2)))
    again = None
    i = 0
    card = neighbour = cut = piece = None
    if head == "free":
        if len(tokens) < 2 or not _CARD.match(tokens[1]):
            raise NotationError(f"'{shown}': expected a card id after 'free', e.g. 'free D07 draw o0 r0 c0'")
        card = text.split()[1]
        i = 2
    while i < len(tokens):
        word = tokens[i]
        repeat = False
        if word == "again":
            if again is not None:
                raise NotationError(f"'{shown}': 'again' may appear only once")
            repeat = True
            i += 1
            if i == len(tokens):
                raise NotationError(f"'{shown}': 'again' must be followed by neighbour, single or cut")
            word = tokens[i]
            if word not in AGAIN_TARGETS:
                raise NotationError(f"'{shown}': 'again' must be followed by neighbour, single or cut, got '{word}'")
            again = word
        if word == "single":
            if card is not None or neighbour is not None or cut is not None:
                raise NotationError(f"'{shown}': 'single' is an action of its own, not part of a draw")
            r, c = _numbers(tokens[i + 1:], shown, "rc")
            return DoodleAction("single", row=r, col=c, again=again)
        if word == "neighbour":
            if neighbour is not None or cut is not None:
                raise NotationError(f"'{shown}': 'neighbour' comes once, before 'cut' and 'draw'")
            if i + 1 >= len(tokens) or tokens[i + 1] not in NEIGHBOURS:
                raise NotationError(f"'{shown}': expected 'neighbour left' or 'neighbour right'")
            neighbour = tokens[i + 1]
            i += 2
            continue
        if word == "cut":
            if cut is not None:
                raise NotationError(f"'{shown}': only one 'cut' per action (a cut is one straight line)")
            if i + 2 >= len(tokens) or not _CUT.match(tokens[i + 1]) or tokens[i + 2] not in PIECES:
                raise NotationError(f"'{shown}': expected 'cut hN a|b' or 'cut vN a|b'")
            cut = tokens[i + 1]
            piece = tokens[i + 2]
            i += 3
            continue
        if word == "draw":
            if repeat:
                raise NotationError(f"'{shown}': 'again' must be followed by neighbour, single or cut")
            o, r, c = _numbers(tokens[i + 1:], shown, "orc")
            return DoodleAction("draw", o, r, c, card=card, neighbour=neighbour, cut=cut, piece=piece,
                                again=again)
        raise NotationError(
            f"'{shown}': unknown word '{word}'; expected start, draw, pass, single, score, free,"
            " neighbour, cut or again"
        )
    raise NotationError(f"'{shown}': missing 'draw oO rR cC' at the end")
