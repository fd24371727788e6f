"""`patchwork deal`, `patchwork replay` and `patchwork play`: one game of any edition in the terminal.

The commands read their options, call toolkit.play (seating, the play loop, the hint) and
toolkit.records, and do the prompt's input and printing; they work for both rules families
through the Game protocol (toolkit.games.base) and the family objects (toolkit.families).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from toolkit import play as playing
from toolkit import records
from toolkit.cli.notes import note_compile, note_compile_for
from toolkit.cli.options import MAX_SEATS, MAX_SEED, bot_list, output_file, players_range, path_text
from toolkit.errors import ToolkitError, UsageError
from toolkit.families import family_of
from toolkit.games.text import draw_side_by_side
from toolkit.geometry import Shape
from toolkit.specs import load_edition
from toolkit.specs.models import Edition


def deal_game(edition_ref: str, seed: int, players: int | None) -> Any:
    """The game right after the deal."""
    edition = load_edition(edition_ref)
    family_of(edition).seats(edition, players)  # a bad --players is refused before the compile note, not after it
    note_compile_for(edition)
    return playing.new_game(edition, seed, players)


PROMPT_HELP = """\
prompt commands:
  shapes [ID ...]      draw every orientation of a patch or card with its number (o0, o1, ...);
                       without an ID: the shapes in play now
  legal [PREFIX]       list the legal actions, e.g. 'legal {example}'
  board                show the board again
  hint                 what the strongest bot of the edition would do and why
  help                 this text
  quit                 stop the game"""


def _notation_help(game: Any) -> str:
    module = sys.modules.get(type(game).__module__)
    text = getattr(game, "notation_help", None) or getattr(module, "NOTATION_HELP", None)
    base = text or "type an action in the edition's notation"
    example = family_of(game.edition).action_example
    return base + "\n" + PROMPT_HELP.format(example=example)


LEGAL_SHOWN = 60


def _show_legal(game: Any, prefix: str) -> str:
    actions = [str(a) for a in game.legal_actions()]
    if prefix:
        actions = [a for a in actions if a.lower().startswith(prefix.lower())]
    shown = actions[:LEGAL_SHOWN]
    more = ""
    if len(actions) > len(shown):
        # The hint narrows by the start of an action that was left out, so it suits any notation.
        words = actions[len(shown)].split()
        hint = " ".join(words[:2]) if len(words) > 2 else words[0]
        more = f"\n... and {len(actions) - len(shown)} more (narrow with e.g. 'legal {hint}')"
    return f"{len(actions)} legal action(s):\n  " + "\n  ".join(shown) + more


def _find_shape(edition: Edition, ident: str) -> tuple[str, Shape] | None:
    """The patch or card with this id (any case)."""
    wanted = ident.strip().upper()
    return next(((pid, shape) for pid, shape in family_of(edition).shapes(edition) if pid.upper() == wanted), None)


def _shapes_in_play(game: Any) -> list[tuple[str, str]]:
    """(role, id) of the shapes a player chooses among now: the market, or the Doodle cards."""
    return family_of(game.edition).shapes_in_play(game)


def _shapes_text(game: Any, args: list[str]) -> str:
    """Every orientation of the named shapes (or of the shapes in play), numbered as the notation."""
    edition = game.edition
    example = family_of(edition).shapes(edition)[0][0]
    ids = args or [pid for _, pid in _shapes_in_play(game)]
    if not ids:
        return f"no shapes in play now; name one, e.g. 'shapes {example}'"
    parts = []
    for ident in ids:
        found = _find_shape(edition, ident)
        if found is None:
            parts.append(f"no patch or card '{ident}' in {edition.name} (ids look like {example})")
            continue
        pid, shape = found
        images = shape.orientations(edition.allow_flip)
        flip = "rotations and mirror images" if edition.allow_flip else "rotations only"
        parts.append(f"{pid}: {len(images)} orientation(s) ({flip}); o0 is the shape as printed")
        parts.extend(draw_side_by_side([(f"o{i}", image.rows()) for i, image in enumerate(images)]))
    return "\n".join(parts)


def _board_text(game: Any) -> str:
    return family_of(game.edition).board_text(game)


def _note_compile(edition: Edition, seats: playing.Seats) -> None:
    modules = list(family_of(edition).kernel_modules)
    modules += sorted({type(bot).__module__ for bot in seats.bots if bot is not None})
    note_compile(modules)


def play_game(game: Any, seats: playing.Seats, seed: int, echo=typer.echo, read_line=None) -> bool:
    """Play to the end (True) or until a person quits (False): the bots move through the library's
    play loop (toolkit.play.Session), people type at the prompt."""
    read_line = read_line or _read_line
    interactive = seats.people

    def said(seat: int, bot: Any, action: Any) -> None:
        if bot is not None:
            event = getattr(game, "last_event", "")
            detail = f" ({event})" if event and event != f"{_seat_label(game, seat)}: {action}" else ""
            echo(f"{_seat_label(game, seat)} ({bot.name}): {action}{detail}")
            if not interactive:
                return
        echo(_board_text(game))

    session = playing.Session(game, seats, seed, on_action=said)
    if interactive:
        echo(_board_text(game))
        echo("type 'help' for the notation, 'legal' for the legal actions, 'shapes' for the orientations")
    while True:
        session.run_bots()
        if game.is_over:
            break
        seat = game.current_player
        line = read_line(f"{_seat_label(game, seat)}> ")
        if line is None:
            raise UsageError("input ended before the game did (type 'quit' to stop a game)")
        text = line.strip()
        if not text:
            continue
        word = text.split()[0].lower()
        if word == "help":
            echo(_notation_help(game))
        elif word == "legal":
            echo(_show_legal(game, text[len("legal"):].strip()))
        elif word == "board":
            echo(_board_text(game))
        elif word == "hint":
            echo(playing.hint(game))
        elif word in ("shapes", "shape", "orient"):
            echo(_shapes_text(game, text.split()[1:]))
        elif word in ("quit", "exit"):
            echo("game stopped")
            return False
        else:
            try:
                session.move(text)
            except ToolkitError as error:
                echo(f"error: {error.render()}")
    if not interactive:
        echo(game.render_text())
    return True


def _seat_label(game: Any, seat: int) -> str:
    name = getattr(game, "seat_name", None)
    return name(seat) if name else f"player {seat + 1}"


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def register(app: typer.Typer) -> None:
    @app.command("deal")
    def deal_cmd(
        edition: str = typer.Argument(..., metavar="EDITION", help="Edition name (e.g. classic, express) or a variant YAML file."),
        seed: int = typer.Option(..., "--seed", min=0, max=MAX_SEED, help="Seed of the deal; the same seed gives the same deal."),
        players: Optional[int] = typer.Option(None, "--players", **players_range(),
                                              help=f"Players, 1..{MAX_SEATS} (Doodle; default 1; time-track games are 2)."),
        as_json: bool = typer.Option(False, "--json", help="Print the deal as JSON."),
    ) -> None:
        """Deal a game as the rules prescribe and show the setup."""
        if players is not None and players < 1:
            raise UsageError(f"--players must be at least 1, got {players}")
        game = deal_game(edition, seed, players)
        if as_json:
            typer.echo(json.dumps(game.deal(), indent=2, sort_keys=True))
        else:
            typer.echo(game.render_text())

    @app.command("replay")
    def replay_cmd(
        record: Path = typer.Argument(..., metavar="RECORD", help="A game record written by `patchwork play --record`."),
    ) -> None:
        """Replay a game record through the rules and print the final state and scores."""
        data = records.read_record(record)
        note_compile_for(records.replay_edition(data, base_dir=record.parent))
        game = records.replay(data, base_dir=record.parent)
        typer.echo(game.render_text())
        scores = game.scores()
        summary = ", ".join(f"{_seat_label(game, i)} {s}" for i, s in enumerate(scores))
        state = "final scores" if game.is_over else "scores so far (game not finished)"
        typer.echo(f"{len(data['actions'])} actions replayed; {state}: {summary}")

    @app.command("play")
    def play_cmd(
        edition: str = typer.Argument(..., metavar="EDITION", help="Edition name or variant YAML file."),
        seed: int = typer.Option(..., "--seed", min=0, max=MAX_SEED, help="Seed of the game (deal, chance and bots)."),
        bots: Optional[str] = typer.Option(
            None, "--bots", callback=bot_list, help="Comma list of bots for the seats, e.g. random,random; 'human' for"
            " a person. Fewer names than seats: humans take the first seats. Default: a human in every seat."
        ),
        record: Optional[Path] = typer.Option(None, "--record", metavar="FILE", parser=path_text, callback=output_file,
                                              help="Write the game record (JSON) here."),
        automa_level: Optional[int] = typer.Option(None, "--automa-level", min=1, max=5, help="Automa difficulty 1..5 (implies an Automa seat)."),
        automa_deck: Optional[str] = typer.Option(None, "--automa-deck", help="Automa deck: normal or tactical."),
        players: Optional[int] = typer.Option(None, "--players", **players_range(),
                                              help=f"Players, 1..{MAX_SEATS} (Doodle; default 1)."),
    ) -> None:
        """Play one game in the terminal; with a bot in every seat it plays itself to the end."""
        if players is not None and players < 1:
            raise UsageError(f"--players must be at least 1, got {players}")
        spec = load_edition(edition)
        seats = playing.seat(spec, bots, players, automa_level, automa_deck)
        if record is not None:
            records.check_record_path(record)
        _note_compile(spec, seats)
        game = playing.new_game(spec, seed, players, seats)
        finished = play_game(game, seats, seed)
        if record is not None:
            records.write_record(record, records.make_record(game, seats.names, seats.options))
            typer.echo(f"record written to {record}")
        if finished:
            scores = game.scores()
            typer.echo("final scores: " + ", ".join(f"{_seat_label(game, i)} {s}" for i, s in enumerate(scores)))
