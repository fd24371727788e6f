"""`patchwork shape`: everything the geometry knows about one patch shape.

The command parses the shape and the board, asks toolkit.geometry for the facts, optionally
compares against the patches of an edition, and prints them as text or as one JSON object.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional

import typer

from toolkit.cli.options import shape_text as shape_text_check
from toolkit.cli.errors import fail
from toolkit.errors import ToolkitError

if TYPE_CHECKING:
    from toolkit.geometry import Shape

DEFAULT_BOARD = "9x9"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def render_text(shape: Shape, facts: dict[str, Any], deck: str | None) -> str:
    """The human-readable report."""
    from toolkit.geometry.facts import draw_cut

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
    problems = facts["problems"]
    out.append("verdict       " + ("a deck can use this shape" if not problems else
                                   "a deck cannot use this shape: " + "; ".join(problems)))
    return "\n".join(out)


def shape_problems(facts: dict[str, Any]) -> list[str]:
    """Why no deck can use the shape (empty when one can): what a spec's validation would refuse."""
    problems = []
    if not facts["connected"]:
        problems.append("it is not connected (every cloth cell must touch another along a side)")
    if facts["placements"] == 0:
        problems.append(f"it fits nowhere on an empty {facts['board']} board")
    return problems


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
    """Size, canonical form, orientations, chirality, holes, straight cuts and placements of a shape, and whether a deck can use it (exit 1 when not)."""
    from toolkit.families import twin_ids  # the geometry loads when the command runs, not at start-up
    from toolkit.geometry import Board, Shape
    from toolkit.geometry.facts import describe_shape, parse_board

    try:
        shape = Shape.parse(shape_text)
        board = parse_board(board_text) if board_text is not None else None  # before a deck is read
        edition = None
        if deck is not None:
            from toolkit.specs import load_edition

            edition = load_edition(deck)
        if board is not None:
            pass
        elif edition is not None:
            board = Board(edition.board_width, edition.board_height)
        else:
            board = parse_board(DEFAULT_BOARD)
        allow_flip = not no_flip and (edition is None or edition.allow_flip)
        facts = describe_shape(shape, board, allow_flip)
        facts["deck"] = edition.name if edition is not None else None
        facts["same_shape"] = twin_ids(shape, edition) if edition is not None else []
        facts["problems"] = shape_problems(facts)
        facts["usable"] = not facts["problems"]
    except ToolkitError as error:
        fail(error)
        return
    if as_json:
        typer.echo(json.dumps(facts, indent=2))
    else:
        typer.echo(render_text(shape, facts, facts["deck"]))
    if facts["problems"]:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("shape")(shape_command)
