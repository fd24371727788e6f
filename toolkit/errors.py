"""The one exception family of the toolkit.

Every error a user can cause is a ToolkitError; the CLI turns it into one clear message and a
non-zero exit code, never a traceback. Messages say what was wrong and what is expected.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

LISTED = 12
"""Most names an error line lists before it says how many more there are."""
LONG_WORD = 120
"""Longest run of characters without a blank that an error line shows whole; a longer one (a
131 KB value given to an option, a path of a thousand folders) is cut to its two ends and its
length."""
WORD_ENDS = 40
"""Characters kept at each end of a cut word."""

_UNPRINTABLE = re.compile(r"[^\S ]|[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Characters an error line never shows raw: control characters (a NUL, an escape sequence that
retitles or clears the terminal, a newline that fakes a second line), invisible and
direction-changing marks, and the lone surrogates Python reads an undecodable file name into."""
_LONG = re.compile(r"\S{%d,}" % (LONG_WORD + 1))


def _escaped(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8: shown as that byte
        return f"\\x{code - 0xDC00:02x}"
    if char == "\n":
        return "\\n"
    if char == "\t":
        return "\\t"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cut(match: re.Match) -> str:
    word = match.group(0)
    return f"{word[:WORD_ENDS]}...{word[-WORD_ENDS:]} [{len(word):,} characters]"


def printable(text: str) -> str:
    """`text` as one line of a terminal shows it safely: control characters, invisible marks and
    undecodable bytes written as escapes (`\\x1b`, `\\n`, `\\xff`), and every run of more than
    LONG_WORD characters without a blank cut to its ends and its length. Applying it twice
    changes nothing more."""
    text = _UNPRINTABLE.sub(lambda m: _escaped(m.group(0)), text)
    return _LONG.sub(_cut, text)


def shortened(names: Iterable[object], limit: int = LISTED, sep: str = ", ") -> str:
    """`names` joined for an error line, cut after `limit`: `F001, F002, ... and 196 more`.

    An error that lists every patch id of a big deck (or every octomino) is a wall nobody reads;
    the first few say what kind of name is expected, the count says the rest exist."""
    items = [str(name) for name in names]
    if len(items) <= limit:
        return sep.join(items)
    return f"{sep.join(items[:limit])} ... and {len(items) - limit} more"


class ToolkitError(Exception):
    """Base of every error the toolkit raises on purpose."""

    exit_code: int = 1

    def render(self) -> str:
        """The message the CLI prints: one line, whatever values it quotes (see `printable`); a
        SpecError gives one line per problem."""
        return printable(str(self))


class UsageError(ToolkitError):
    """A bad command-line value (unknown paper size, negative count, ...)."""

    exit_code = 2


class ShapeError(ToolkitError):
    """A patch shape text that is not a valid polyomino description."""

    exit_code = 2


class UnknownEdition(ToolkitError):
    """An edition name that is not bundled and not a readable file."""

    exit_code = 2


@dataclass(frozen=True)
class Problem:
    """One problem found in a spec file."""

    file: str
    """Path of the file as the user gave it (or the bundled name)."""
    line: int
    """1-based line of the offending node (0 when unknown)."""
    column: int
    """1-based column of the offending node (0 when unknown)."""
    key_path: str
    """Dotted path to the key, e.g. `patches[3].shape`."""
    message: str
    """What is wrong and what is expected."""
    severity: str = "error"
    """`error` or `warning`."""

    def __str__(self) -> str:
        label = "warning: " if self.severity == "warning" else ""
        return f"{self.file}:{self.line}:{self.column}: {self.key_path}: {label}{self.message}"


class SpecError(ToolkitError):
    """One or more problems in spec files; all problems of a file are reported at once."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def render(self) -> str:
        return "\n".join(printable(str(p)) for p in self.problems)


class IllegalAction(ToolkitError):
    """An action the rules forbid; names the action and the rule it breaks."""

    def __init__(self, action: str, reason: str, rule: str | None = None):
        self.action = action
        self.reason = reason
        self.rule = rule
        text = f"illegal action '{action}': {reason}"
        if rule:
            text += f" (rule: {rule})"
        super().__init__(text)


class NotationError(ToolkitError):
    """Action text that cannot be parsed."""

    exit_code = 2


class RecordError(ToolkitError):
    """A game record that cannot be read or replayed."""


class InputError(ToolkitError):
    """An input file that cannot be read as asked: missing, not a regular file, too big, too
    deeply nested, not text. Says what the path is when it is not a file."""


class OutputError(ToolkitError):
    """An output file or folder that cannot be written."""


class Interrupted(ToolkitError):
    """The user pressed Ctrl-C; nothing half-done is left behind."""

    exit_code = 130
