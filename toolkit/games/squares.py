"""How a person names a square: column letters and row numbers, `C5` (column C, row 5), as the
printed quilt boards, the Doodle pad and `patchwork show` label them.

Game records keep the machine form of an action, zero-based `r4 c2` (stored records and the
golden traces replay unchanged); what a person reads is that text with each `rR cC` pair written
as a square (`people_text`), and what a person types is read back into it (`machine_text`), the
old `r4 c2` form still accepted. Both work on the text of any family's notation, which always
writes a position as an `rR cC` pair, so no family is asked about here.
"""
from __future__ import annotations

import re

_PAIR = re.compile(r"\br(\d{1,9}) c(\d{1,9})\b")
_WORDS = re.compile(r"\brow (\d{1,9}), col(?:umn)? (\d{1,9})\b")
"""How the rules' messages name a cell (`at row 0, col 25`)."""
_SQUARE = re.compile(r"^([A-Za-z]{1,2})(\d{1,3})$")
_ROW = re.compile(r"^r\d{1,9}$", re.IGNORECASE)
_COL = re.compile(r"^c\d{1,9}$", re.IGNORECASE)
_ORIENTATION = re.compile(r"^o\d{1,9}$", re.IGNORECASE)
SQUARE_AFTER = ("leather", "single", "score")
"""Action words followed directly by a square; elsewhere a square follows an orientation `oN`."""


def column_name(col: int) -> str:
    """`A` for column 0, ..., `Z`, then `AA` (no board is that wide, but every column has a name)."""
    letters = ""
    index = col + 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """Inverse of column_name (any case)."""
    index = 0
    for letter in letters.upper():
        index = index * 26 + ord(letter) - 64
    return index - 1


def square_name(row: int, col: int) -> str:
    """`C5` for row 4, column 2 (zero-based)."""
    return f"{column_name(col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """(row, col) zero-based for a square such as `C5` or `c5`, None when `text` is not one."""
    match = _SQUARE.match(text.strip())
    if not match or int(match.group(2)) < 1:
        return None
    return int(match.group(2)) - 1, column_index(match.group(1))


def people_text(text: str) -> str:
    """An action (or a sentence holding actions) with every `rR cC` written as its square:
    `buy P17 o3 r2 c4` -> `buy P17 o3 E3`."""
    text = _PAIR.sub(lambda m: square_name(int(m.group(1)), int(m.group(2))), text)
    return _WORDS.sub(lambda m: "square " + square_name(int(m.group(1)), int(m.group(2))), text)


def machine_text(text: str) -> str:
    """What a person typed, with a square where the notation puts a position written as the
    machine's `rR cC` (the inverse of people_text; text already in that form is left as it is).
    A square is read only where a position goes: right after an orientation `oN` or after
    `leather`, `single` or `score`, so a patch id such as `P17` or a cut `h2` is never taken for one."""
    words = text.split()
    out: list[str] = []
    for i, word in enumerate(words):
        before = words[i - 1].lower() if i else ""
        at_position = bool(i) and (_ORIENTATION.match(before) or before in SQUARE_AFTER)
        old_form = _ROW.match(word) and i + 1 < len(words) and _COL.match(words[i + 1])
        square = parse_square(word) if at_position and not old_form else None
        out.append(f"r{square[0]} c{square[1]}" if square is not None else word)
    return " ".join(out)
