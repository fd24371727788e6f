"""`patchwork shape`: everything the geometry knows about one patch shape.

The command parses the shape and the board, asks toolkit.geometry for the facts, optionally
compares against the patches of an edition, and prints them as text or as one JSON object.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

import typer

from toolkit.cli.options import shape_text as shape_text_check
from toolkit.errors import ShapeError, ToolkitError, UsageError
from toolkit.geometry import Board, Cut, Shape, placements

DEFAULT_BOARD = "9x9"

_BOARD_TEXT = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_board(text: str) -> Board:
    """Read `WxH` (width x height), e.g. `9x9` or `7X7`."""
    match = _BOARD_TEXT.match(text)
    if not match:
        raise UsageError(f"--board {text!r}: expected WIDTHxHEIGHT, e.g. 9x9")
    width, height = int(match.group(1)), int(match.group(2))
    try:
        return Board(width, height)
    except ShapeError as error:
        raise UsageError(f"--board {text!r}: {error}") from None


def draw_cut(shape: Shape, cut: Cut) -> list[str]:
    """The parent grid with the first piece as `A`, the second as `B` and the cut line drawn."""
    first, _ = cut.piece_cells
    grid = [
        ["." if (r, c) not in shape.cells else ("A" if (r, c) in first else "B") for c in range(shape.width)]
        for r in range(shape.height)
    ]
    if cut.axis == "v":
        return ["".join(row[: cut.index]) + "|" + "".join(row[cut.index :]) for row in grid]
    lines = ["".join(row) for row in grid]
    return lines[: cut.index] + ["-" * shape.width] + lines[cut.index :]


def same_shape_ids(shape: Shape, edition: Any) -> list[str]:
    """Ids of the edition's patches and start cards whose free shape equals `shape`'s."""
    key = shape.canonical_key
    ids = [p.id for p in edition.all_patches() if p.shape.canonical_key == key]
    ids += [card.id for card in getattr(edition, "start_cards", ()) if card.shape.canonical_key == key]
    return ids


def describe_shape(shape: Shape, board: Board, allow_flip: bool = True) -> dict[str, Any]:
    """The facts reported by `patchwork shape`, as a JSON-ready dict."""
    cuts = shape.straight_cuts()
    return {
        "shape": shape.format(),
        "size": shape.size,
        "width": shape.width,
        "height": shape.height,
        "canonical": shape.canonical_key,
        "orientations": len(shape.orientations(allow_flip=True)),
        "rotations": len(shape.orientations(allow_flip=False)),
        "chiral": shape.is_chiral,
        "connected": shape.is_connected,
        "holes": shape.holes,
        "hole_cells": [list(cell) for cell in sorted(shape.hole_cells)],
        "cuts": [[piece.format() for piece in cut.pieces] for cut in cuts],
        "cut_lines": [
            {"axis": cut.axis, "index": cut.index, "pieces": [piece.format() for piece in cut.pieces]}
            for cut in cuts
        ],
        "board": str(board),
        "allow_flip": allow_flip,
        "placements": len(placements(shape, board, allow_flip)),
    }


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def render_text(shape: Shape, facts: dict[str, Any], deck: str | None) -> str:
    """The human-readable report."""
    out = [f"shape         {facts['shape']}"]
    out += [f"  {row}" for row in shape.rows()]
    out.append(f"size          {facts['size']} cells, {facts['width']}x{facts['height']} bounding box")
    out.append(f"canonical     {facts['canonical']}")
    out.append(
        f"orientations  {facts['orientations']} with reflections, {facts['rotations']} by rotation only"
    )
    out.append(f"chiral        {_yes(facts['chiral'])}")
    out.append(f"connected     {_yes(facts['connected'])}")
    out.append(f"holes         {facts['holes']}")
    flip = "" if facts["allow_flip"] else ", rotations only"
    out.append(f"placements    {facts['placements']} on an empty {facts['board']} board{flip}")
    cuts = shape.straight_cuts()
    if not facts["connected"]:
        out.append("cuts          none (the shape is not one connected patch)")
    elif not cuts:
        out.append("cuts          none (no straight line leaves exactly two connected pieces)")
    else:
        out.append(f"cuts          {len(cuts)}")
        for cut in cuts:
            a, b = cut.pieces
            out.append(f"  {cut.describe()}: A = {a.format()}, B = {b.format()}")
            out += [f"    {line}" for line in draw_cut(shape, cut)]
    if deck is not None:
        ids = facts["same_shape"]
        out.append(f"same shape    {', '.join(ids) if ids else 'none'} (in {deck})")
    return "\n".join(out)


def shape_command(
    shape_text: str = typer.Argument(..., metavar="SHAPE", callback=shape_text_check, help="Rows of '#' and '.' joined by '/', e.g. '##./.##'."),
    board_text: Optional[str] = typer.Option(
        None, "--board", metavar="WxH", help="Board for counting placements (default 9x9, or the deck's board)."
    ),
    deck: Optional[str] = typer.Option(
        None, "--deck", metavar="EDITION", help="Edition name or spec path whose patches are compared."
    ),
    no_flip: bool = typer.Option(
        False, "--no-flip", help="Count placements by rotation only (implied by a deck that forbids flipping)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
) -> None:
    """Size, canonical form, orientations, chirality, holes, straight cuts and placements of a shape."""
    from toolkit.cli.app import fail  # the app module imports this one; resolve at call time

    try:
        shape = Shape.parse(shape_text)
        edition = None
        if deck is not None:
            from toolkit.specs import load_edition

            edition = load_edition(deck)
        if board_text is not None:
            board = parse_board(board_text)
        elif edition is not None:
            board = Board(edition.board_width, edition.board_height)
        else:
            board = parse_board(DEFAULT_BOARD)
        allow_flip = not no_flip and (edition is None or edition.allow_flip)
        facts = describe_shape(shape, board, allow_flip)
        facts["deck"] = edition.name if edition is not None else None
        facts["same_shape"] = same_shape_ids(shape, edition) if edition is not None else []
    except ToolkitError as error:
        fail(error)
        return
    if as_json:
        typer.echo(json.dumps(facts, indent=2))
    else:
        typer.echo(render_text(shape, facts, facts["deck"]))


def register(app: typer.Typer) -> None:
    app.command("shape")(shape_command)
