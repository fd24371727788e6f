"""How the CLI writes to a terminal: colour only for a person, tables that keep their row labels,
and `--json` documents on stdout.

Colour (through rich, and ANSI headings in the help) is used only when the stream is a terminal
and `NO_COLOR` is unset (https://no-color.org); piped or redirected output, and any output with
`NO_COLOR` set, holds no escape code at all.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Any, Iterable, Sequence, TextIO

import typer

BOLD, RED, YELLOW, DIM, RESET = "\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[2m", "\x1b[0m"


def colour_enabled(stream: TextIO | None = None) -> bool:
    """Colour for this stream (stdout by default): a terminal, `NO_COLOR` unset or empty, and
    `TERM` not `dumb`."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def paint(text: str, *codes: str, stream: TextIO | None = None) -> str:
    """`text` in these ANSI styles when the stream gets colour, else unchanged."""
    if not codes or not colour_enabled(stream):
        return text
    return "".join(codes) + text + RESET


def error_text(line: str) -> str:
    """An error line as stderr shows it: the `patchwork: error:` prefix in bold red on a terminal."""
    prefix, sep, rest = line.partition(": error: ")
    if not sep:
        return line
    return paint(f"{prefix}: error:", BOLD, RED, stream=sys.stderr) + " " + rest


def echo_error(line: str) -> None:
    """Print one error line (already prefixed) on stderr (after Ctrl-C, only the first one).

    Every error passes here, the command line's own (a bad option value) and the toolkit's, so
    here nothing a user typed or a file held reaches the terminal raw: control characters and
    undecodable bytes are escaped and a value too long to read is cut (toolkit.errors.printable);
    the lines of a spec's problems stay one per line."""
    from toolkit.cli.interrupts import print_error_line
    from toolkit.errors import printable

    line = "\n".join(printable(part) for part in line.split("\n"))
    print_error_line(lambda: typer.echo(error_text(line), err=True))


def console(stderr: bool = False):
    """A rich Console for stdout (or stderr) with colour only where `colour_enabled` says; piped,
    it is as wide as the text needs, so nothing is cut to fit 80 columns."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    colour = colour_enabled(stream)
    kwargs: dict[str, Any] = {"stderr": stderr, "highlight": False}
    if not colour:
        kwargs["color_system"] = None  # no style is rendered at all, so no escape code
    try:
        terminal = bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        terminal = False
    if not terminal and not os.environ.get("COLUMNS"):
        kwargs["width"] = 200
    return Console(**kwargs)


def table(title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]):
    """A rich Table whose first column (the label that identifies a row) is never wrapped or cut:
    on a narrow terminal the figures fold onto more lines instead (never an ellipsis). Cells are
    plain text, never rich markup: an interval such as `[no lower bound, -79]` or a name in
    brackets is printed as it is, not taken for a style and dropped."""
    from rich.table import Table
    from rich.text import Text

    rows = [[str(cell) for cell in row] for row in rows]
    labels = [row[0] for row in rows if row] + ([str(header[0])] if header else [])
    widest = max((len(line) for label in labels for line in label.splitlines()), default=0)
    out = Table(title=title or None, header_style="bold")
    for index, name in enumerate(header):
        if index == 0:
            out.add_column(str(name), no_wrap=True, min_width=widest, overflow="fold")
        else:
            out.add_column(str(name), overflow="fold")
    for row in rows:
        out.add_row(*(Text(cell) for cell in row))
    return out


def print_table(title: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Print a table on stdout (see `table`)."""
    console().print(table(title, header, rows))


# ----- --json: one document on stdout -----------------------------------------------------------

_DOCUMENT_STREAMS: list[TextIO] = []
"""stdout as it was when `--json` was parsed (the summary then goes to stderr)."""


def json_mode(ctx: typer.Context, value: bool) -> bool:
    """Callback of a `--json` option: from here to the end of the command, what the command prints
    for a person goes to stderr, and stdout carries only the document (`print_document`)."""
    if value:
        _DOCUMENT_STREAMS.append(sys.stdout)
        ctx.call_on_close(_DOCUMENT_STREAMS.pop)
        ctx.with_resource(contextlib.redirect_stdout(sys.stderr))
    return value


JSON_HELP = "Print the results document (what --out writes as results.json) on stdout; the summary goes to stderr."


def json_option(help: str = JSON_HELP):
    """The `--json` option of a command that computes figures."""
    return typer.Option(False, "--json", callback=json_mode, help=help)


def print_document(doc: Any) -> None:
    """The document of a `--json` run, as results.json holds it, on the real stdout."""
    stream = _DOCUMENT_STREAMS[-1] if _DOCUMENT_STREAMS else sys.stdout
    stream.write(json.dumps(doc, indent=2) + "\n")
    stream.flush()
