"""`patchwork deal`, `replay`, `play` and `show`: one game of any edition in the terminal, and
records looked at move by move.

The commands read their options, call toolkit.play (seating, the play loop, undo, the hint) and
toolkit.records, and do the prompt's input and printing. The board is the family's Position
(toolkit.families.view) drawn by toolkit.render.prompt_board; pictures of a record come from
toolkit.render.record_view. Nothing here asks which family a game belongs to.

The prompt never waits in silence: compiles say so (toolkit.cli.waiting), what a game's bots and
hint will need compiles in the background while the person thinks at the first prompt, and a bot
that thinks shows it.
"""
from __future__ import annotations

import dataclasses
import difflib
import json
import secrets
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import typer

from toolkit.cli import waiting
from toolkit.cli.lazy import lazy
from toolkit.cli.waiting import note_compile_for
from toolkit.cli.options import (MAX_SEATS, MAX_SEED, bot_list, output_file, players_range, path_text, threaded_bots,
                                 threads_option)
from toolkit.errors import Interrupted, RecordError, ToolkitError, UsageError

if TYPE_CHECKING:
    from toolkit.games.base import Game
    from toolkit.geometry import Shape
    from toolkit.specs.models import Edition

# The library loads when a command first calls it, not when the command line starts (toolkit.cli.lazy).
playing = lazy("toolkit.play")
records = lazy("toolkit.records")
board_view = lazy("toolkit.render.prompt_board")


def position_text(position: Any, colour: str | None = "auto", compact: bool = False) -> str:
    """The position drawn as text, in the terminal's colours when `colour` is `auto`."""
    if colour == "auto":
        from toolkit.cli.console import colour_enabled, console

        colour = console().color_system if colour_enabled() else None
    return board_view.position_text(position, colour=colour, compact=compact)


def family_of(edition):
    from toolkit.families import family_of as of

    return of(edition)


def load_edition(name_or_path):
    from toolkit.specs import load_edition as load

    return load(name_or_path)


def people_text(text: str) -> str:
    """An action as a person reads it: squares named as on the printed boards (`C5`)."""
    from toolkit.games.squares import people_text as people

    return people(str(text))


def machine_text(text: str) -> str:
    """What a person typed, in the notation the rules and records read (`C5` -> `r4 c2`)."""
    from toolkit.games.squares import machine_text as machine

    return machine(text)


def draw_side_by_side(*args, **kwargs):
    from toolkit.games.text import draw_side_by_side as draw

    return draw(*args, **kwargs)

RANDOM_SEEDS = 1_000_000
"""A game without --seed gets a seed below this (short enough to type again)."""


def deal_game(edition_ref: str, seed: int, players: int | None) -> Any:
    """The game right after the deal."""
    edition = load_edition(edition_ref)
    family_of(edition).seats(edition, players)  # a bad --players is refused before the compile note, not after it
    waiting.watch_compiles()
    note_compile_for(edition)
    waiting.announced()
    return playing.new_game(edition, seed, players)


PROMPT_HELP = """\
prompt commands:
  shapes [ID ...]    every orientation of a patch or card with its number (o0, o1,
                     ...); without an ID: the shapes in play now
  legal [WORDS]      the legal actions, grouped when many, e.g. 'legal {example}'
  preview ACTION     the board as ACTION would leave it ('ACTION ?' too); 'ok' plays it
  board              the whole board with every detail (each turn shows a short one)
  hint               what the strongest bot of the edition would do and why
  undo               take back your last action and the bots' replies after it (not
                     once chance has shown what comes next: a roll, a card, a shuffle)
  help               this text
  quit               stop the game (Ctrl-D too); with --record the game is kept and
                     'patchwork play --resume FILE' continues it"""

PROMPT_WORDS = ("shapes", "shape", "orient", "legal", "preview", "ok", "board", "hint", "undo", "help", "quit", "exit")


def _notation_help(game: Game) -> str:
    base = game.notation_help
    example = family_of(game.edition).action_example
    return base + "\n" + PROMPT_HELP.format(example=example)


LEGAL_SHOWN = 40
"""More matching actions than this are grouped instead of listed one a line."""


def _split_action(text: str) -> tuple[str, str, str]:
    """(what, orientation, square) of an action as a person reads it: `buy P17`, `o3`, `E3`;
    `single`, ``, `E5`; `advance`, ``, ``."""
    from toolkit.games.squares import parse_square

    words = text.split()
    at = next((i for i, w in enumerate(words) if i and w[:1].lower() == "o" and w[1:].isdigit()), None)
    if at is not None:
        return " ".join(words[:at]), words[at], " ".join(words[at + 1:])
    if len(words) > 1 and parse_square(words[1]) is not None:
        return words[0], "", " ".join(words[1:])
    return text, "", ""


def _wrapped(head: str, items: list[str], width: int = 79) -> list[str]:
    lines, line = [], head
    for item in items:
        if len(line) + 1 + len(item) > width:
            lines.append(line)
            line = " " * len(head)
        line += " " + item
    return lines + [line]


def _show_legal(game: Any, prefix: str) -> str:
    """The legal actions starting with `prefix`: one a line when few; else grouped by what they
    take or draw (`legal buy P17` then lists its squares, one line per orientation)."""
    actions = [people_text(a) for a in game.legal_actions()]
    if prefix:
        wanted = " ".join(prefix.lower().split())
        actions = [a for a in actions if a.lower() == wanted or a.lower().startswith(wanted + " ")
                   or a.lower().startswith(wanted)]
    head = f"{len(actions)} legal action(s)" + (f" start with '{prefix}'" if prefix else "")
    if len(actions) <= LEGAL_SHOWN:
        return f"{head}:\n  " + "\n  ".join(actions) if actions else head
    groups: dict[str, list[str]] = {}
    for action in actions:
        what, orientation, square = _split_action(action)
        groups.setdefault(what, []).append(f"{orientation} {square}".strip())
    if len(groups) > 1:
        width = max(len(what) for what in groups)
        lines = [f"{head}, by what they take or draw ('legal WORDS' lists one group's squares):"]
        for what, rest in groups.items():
            turns = sorted({r.split()[0] for r in rest if r.startswith("o")}, key=lambda o: int(o[1:]))
            spread = f" in {len(turns)} orientation(s)" if turns else ""
            lines.append(f"  {what.ljust(width)}  {len(rest)} placement(s){spread}" if rest != [""] else f"  {what}")
        return "\n".join(lines)
    (what, rest), = groups.items()
    by_turn: dict[str, list[str]] = {}
    for r in rest:
        orientation, _, square = r.partition(" ") if r.startswith("o") else ("", "", r)
        by_turn.setdefault(orientation, []).append(square)
    lines = [f"{head}; per orientation, the squares of the top-left cell ('shapes' draws them):"
             if len(head) < 24 else f"{head};\n  per orientation, the squares of the top-left cell ('shapes' draws them):"]
    for orientation, squares in by_turn.items():
        lines += _wrapped(f"  {what} {orientation}".rstrip(), squares)
    return "\n".join(lines)


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


def board_text(game: Any, colour: str | None = "auto", compact: bool = False) -> str:
    """The board as the prompt shows it: `compact` fits 80 x 24 (each turn), else everything
    (the `board` command, `deal`, `replay`)."""
    position = family_of(game.edition).view(game)
    text = position_text(position, colour=colour, compact=compact)
    return text + "".join(f"\n{line}" for line in _unoffered_shapes(game, position))


def _unoffered_shapes(game: Any, position: Any) -> list[str]:
    """Drawings of the shapes the player chooses among now that the position does not offer (the
    Doodle start card, in play before any card is offered)."""
    offered = {o.id for o in position.offers}
    blocks = []
    for role, pid in _shapes_in_play(game):
        found = _find_shape(game.edition, pid)
        if pid not in offered and found is not None:
            blocks.append((f"{role} {pid}", found[1].rows()))
    return draw_side_by_side(blocks) if blocks else []


def _read_line(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


# ----- what a person typed --------------------------------------------------------------------


def suggestion(game: Any, text: str) -> str:
    """` (did you mean '...'?)` for a mistyped word, '' when nothing close is known."""
    words = text.split()
    if not words:
        return ""
    legal = [people_text(a) for a in game.legal_actions()] if not game.is_over else []
    heads = sorted({a.split()[0].lower() for a in legal} | set(PROMPT_WORDS))
    vocabulary = {w.lower(): w for a in legal for w in a.split()}
    fixed = []
    for i, word in enumerate(words):
        low = word.lower()
        pool = heads if i == 0 else list(vocabulary)
        if low in pool or (i > 0 and low in vocabulary):
            fixed.append(word)
            continue
        close = difflib.get_close_matches(low, pool, n=1, cutoff=0.6)
        fixed.append(vocabulary.get(close[0], close[0]) if close else word)
    guess = " ".join(fixed)
    if guess.lower() == text.lower():
        starting = [a for a in legal if a.lower().startswith(text.lower() + " ")]
        if starting:
            return (f" ({len(starting)} legal action(s) start with '{text}', e.g. '{starting[0]}'; "
                    f"'legal {text}' lists them, 'preview {starting[0]}' shows one)")
        return ""
    legal_lower = {a.lower() for a in legal}
    if guess.lower() in legal_lower or fixed[0].lower() in PROMPT_WORDS:
        return f" (did you mean '{guess}'?)"
    if fixed[0].lower() != words[0].lower():
        return f" (did you mean '{fixed[0]}'?)"
    close = difflib.get_close_matches(text.lower(), list(legal_lower), n=1, cutoff=0.75) if len(legal) < 5000 else []
    if close:
        return f" (did you mean '{next(a for a in legal if a.lower() == close[0])}'?)"
    return " ('legal' lists what you can do now)" if legal else ""


# ----- the prompt -----------------------------------------------------------------------------


def _play_one(game: Any) -> None:
    """Play one legal action on `game` (a copy) and look at the result: what the prompt calls for
    each action compiles now (run in a thread while the person thinks)."""
    try:
        actions = game.legal_actions()
        if actions:
            game.apply(actions[0])
            game.scores()
            family_of(game.edition).view(game)
    except Exception:  # only a warm-up: the real action reports its own errors
        pass


class Prompt:
    """One game at the prompt: bots through the library's Session, people typing."""

    def __init__(self, game: Any, seats: playing.Seats, seed: int, echo: Callable[[str], None] = typer.echo,
                 read_line: Callable[[str], str | None] | None = None, background: bool = True):
        self.seats = seats
        self.echo = echo
        self.read_line = read_line or _read_line
        self.session = playing.Session(game, seats, seed, on_action=self._said)
        self.interactive = seats.people
        self.shown_at: int | None = None
        self.pending_preview: str | None = None
        self.warmer: waiting.Warmer | None = None
        self.background = background
        self.rules_warm: threading.Thread | None = None
        self.stopped = ""
        self._lines: list[str] = []

    @property
    def game(self) -> Any:
        return self.session.game

    def _said(self, seat: int, bot: Any, action: Any) -> None:
        if bot is None:
            return
        game = self.game
        event = game.last_event
        label = game.seat_name(seat)
        detail = f" ({people_text(event)})" if event and event != f"{label}: {action}" else ""
        self._lines.append(f"{label} ({bot.name}): {people_text(action)}{detail}")

    def _run_bots(self) -> None:
        while True:
            bot = self.session.bot_to_move()
            if bot is None:
                return
            label = f"{self.game.seat_name(self.game.current_player)} ({bot.name})"
            if self.warmer is not None:
                self.warmer.wait("bots", f"{label}'s move")
            self._rules_ready()
            self._lines = []
            with waiting.thinking(label) as timer:
                self.session.bot_move()
            # Said once the status line is gone, with the time when it was long.
            for line in self._lines:
                self.echo(line + waiting.took(timer.seconds))

    def _show_board(self, full: bool = False) -> None:
        self.echo(board_text(self.game, compact=not full))
        self.shown_at = len(self.game.history)

    def _start_background(self) -> None:
        if not self.background or self.warmer is not None or not waiting.background_allowed():
            return
        game = self.game
        family = family_of(game.edition)
        modules = list(family.kernel_modules) + sorted({type(b).__module__ for b in self.seats.bots if b is not None})
        try:
            hinter = family.hinter(game.edition)
            modules.append(type(hinter).__module__)
        except ToolkitError:
            pass
        self.warmer = waiting.Warmer(waiting.warm_payload(game, self.seats.names, self.seats.options), modules)
        if self.warmer.start():
            waiting.STATUS.line("compiling the bots and the hint in the background while you think "
                                f"({waiting.COMPILE_HINT})...")
            # What playing an action calls compiles here meanwhile, in a thread (the prompt only
            # waits for input): the person's first action then finds it ready.
            self.rules_warm = threading.Thread(target=_play_one, args=(game.copy(),), name="patchwork-rules",
                                               daemon=True)
            self.rules_warm.start()

    def _rules_ready(self) -> None:
        """Wait for the rules' compile started at the first prompt, saying so if it takes time."""
        thread = self.rules_warm
        if thread is None or not thread.is_alive():
            return
        waiting.STATUS.line(f"finishing the rules kernel's compile ({waiting.COMPILE_HINT})...")
        with waiting.activity("compiling"):
            while thread.is_alive():
                thread.join(waiting.TICK)

    def stop_background(self) -> None:
        if self.warmer is not None:
            self.warmer.stop()

    def run(self) -> bool:
        """Play to the end (True) or until a person stops (False; `stopped` says how)."""
        if self.interactive:
            self._show_board()
            self.echo("'help': the notation and commands, 'legal': what you can do, 'hint': advice")
            # From the first board on: the bots' and the hint's compile overlaps the person's
            # thinking (and a bot that moves first waits for it rather than compiling twice).
            self._start_background()
        while True:
            self._run_bots()
            if self.game.is_over:
                break
            if self.shown_at != len(self.game.history):
                self._show_board()
            seat = self.game.current_player
            line = self.read_line(f"{self.game.seat_name(seat)}> ")
            if line is None:
                self.echo("")
                self.echo("game stopped (end of input)")
                self.stopped = "end of input"
                return False
            if not self._command(line.strip()):
                self.stopped = "quit"
                return False
        if self.interactive:
            self._show_board()
        else:
            self.echo(board_text(self.game))
        return True

    def _command(self, text: str) -> bool:
        """Do what a person typed; False to stop the game."""
        if not text:
            return True
        self._rules_ready()
        game = self.game
        word = text.split()[0].lower()
        rest = text[len(text.split()[0]):].strip()
        if text.endswith("?") and word not in PROMPT_WORDS:
            word, rest = "preview", text[:-1].strip()
        if word == "help":
            self.echo(_notation_help(game))
        elif word == "legal":
            self.echo(_show_legal(game, rest))
        elif word == "board":
            self._show_board(full=True)
        elif word == "hint":
            if self.warmer is not None:
                self.warmer.wait("hint", "the hint")
            with waiting.activity("the hint is thinking"):
                said = people_text(playing.hint(game))
            self.echo(said)
        elif word in ("shapes", "shape", "orient"):
            self.echo(_shapes_text(game, text.split()[1:]))
        elif word == "preview":
            self._preview(rest)
        elif word == "ok":
            if self.pending_preview is None:
                self.echo("nothing to confirm: 'preview ACTION' first")
            else:
                self._play(self.pending_preview)
        elif word == "undo":
            self._undo()
        elif word in ("quit", "exit"):
            self.echo("game stopped")
            return False
        else:
            self._play(text)
        return True

    def _play(self, text: str) -> None:
        self.pending_preview = None
        try:
            self.session.move(machine_text(text))
        except ToolkitError as error:
            self.echo(f"error: {people_text(error.render())}{suggestion(self.game, text)}")

    def _preview(self, text: str) -> None:
        if not text:
            self.echo("preview what? e.g. 'preview " + family_of(self.game.edition).action_example + " ...' "
                      "(an action as you would type it)")
            return
        trial = self.game.copy()
        try:
            trial.apply(trial.parse_action(machine_text(text)))
        except ToolkitError as error:
            self.echo(f"error: {people_text(error.render())}{suggestion(self.game, text)}")
            return
        family = family_of(trial.edition)
        seat = self.game.current_player
        before = family.view(self.game)
        after = family.view(trial)
        # What chance does after the action (a roll, a card, a shuffle) stays hidden until the
        # action is played: a preview shows the boards, not what comes next.
        chance = len(trial.chance_log()) > len(self.game.chance_log())
        if chance:
            after = dataclasses.replace(after, status="what chance brings next shows once the action is played",
                                        offers=(), notes=())
        self.echo(position_text(after, compact=True))
        changes = [f"  {b.name}: {x}  ->  {y}" for b, a in zip(before.boards, after.boards)
                   for x, y in zip(b.facts, a.facts) if x != y and b.seat == seat]
        self.echo(f"PREVIEW of '{text}' (not played): the board as it would be, its cells marked *")
        if changes:
            self.echo("\n".join(changes))
        event = trial.last_event
        if event and not chance and people_text(event) != f"{trial.seat_name(seat)}: {people_text(machine_text(text))}":
            self.echo(f"  then: {people_text(event)}")
        self.echo("type 'ok' to play it, or another action")
        self.pending_preview = text

    def _undo(self) -> None:
        try:
            taken = self.session.undo()
        except UsageError as error:
            self.echo(f"error: {error}")
            return
        self.pending_preview = None
        self.echo(f"took back '{people_text(taken.action)}' and the bots' replies after it")
        self._show_board()


def _resume_data(record: dict[str, Any]) -> dict[str, Any]:
    """The bots' generators a stopped game was left with (as `keep` writes them)."""
    resume = record.get("resume")
    return resume if isinstance(resume, dict) else {}


def keep(path: Path, prompt: Prompt, names: list[str], options: dict[str, Any]) -> None:
    """Write the game record; a game not finished also keeps the bots' generators, so
    `play --resume` goes on exactly as the game would have."""
    game = prompt.game
    record = records.make_record(game, names, options)
    if not game.is_over:
        record["resume"] = {"bot_rngs": [[int(x) for x in rng] for rng in prompt.session.rngs]}
    records.write_record(path, record)


def _replayed(record: Path) -> tuple[dict, Any]:
    """A record read and replayed through the rules (saying so first when that compiles)."""
    data = records.read_record(record)
    edition = records.replay_edition(data, base_dir=record.parent)
    waiting.watch_compiles()
    note_compile_for(edition)
    waiting.announced()
    return data, records.replay(data, base_dir=record.parent)


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
            typer.echo(board_text(game))

    @app.command("replay")
    def replay_cmd(
        record: Path = typer.Argument(..., metavar="RECORD", help="A game record written by `patchwork play --record`."),
        step: bool = typer.Option(False, "--step", help="Walk through the game move by move at a prompt "
                                  "(Enter: next, 'b': back, a number: that move, 'q': quit)."),
    ) -> None:
        """Replay a game record through the rules and print the final state and scores."""
        data, game = _replayed(record)
        if step:
            walk(game)
            return
        typer.echo(board_text(game))
        scores = game.scores()
        summary = ", ".join(f"{game.seat_name(i)} {s}" for i, s in enumerate(scores))
        state = "final scores" if game.is_over else "scores so far (game not finished)"
        typer.echo(f"{len(data['actions'])} actions replayed; {state}: {summary}")

    @app.command("play")
    def play_cmd(
        edition: Optional[str] = typer.Argument(None, metavar="EDITION", help="Edition name or variant YAML file "
                                                "(not with --resume)."),
        seed: Optional[int] = typer.Option(None, "--seed", min=0, max=MAX_SEED,
                                           help="Seed of the game (deal, chance and bots); default: a random one, "
                                                "printed so the game can be played again."),
        bots: Optional[str] = typer.Option(
            None, "--bots", callback=bot_list, help="Comma list of bots for the seats, e.g. random,random; 'human' for"
            " a person. Fewer names than seats: humans take the first seats. Default: a human in every seat."
        ),
        record: Optional[Path] = typer.Option(None, "--record", metavar="FILE", parser=path_text, callback=output_file,
                                              help="Write the game record (JSON) here, also when the game is stopped."),
        resume: Optional[Path] = typer.Option(None, "--resume", metavar="RECORD", parser=path_text,
                                              help="Continue a stopped game from its record (and keep recording there, "
                                                   "unless --record names another file)."),
        automa_level: Optional[int] = typer.Option(None, "--automa-level", min=1, max=5, help="Automa difficulty 1..5 (implies an Automa seat)."),
        automa_deck: Optional[str] = typer.Option(None, "--automa-deck", help="Automa deck: normal or tactical."),
        players: Optional[int] = typer.Option(None, "--players", **players_range(),
                                              help=f"Players, 1..{MAX_SEATS} (Doodle; default 1)."),
        threads: int = threads_option(),
    ) -> None:
        """Play one game in the terminal; with a bot in every seat it plays itself to the end."""
        if players is not None and players < 1:
            raise UsageError(f"--players must be at least 1, got {players}")
        actions: list[str] = []
        rngs = None
        if resume is not None:
            given = [name for name, value in (("EDITION", edition), ("--seed", seed), ("--bots", bots),
                                              ("--automa-level", automa_level), ("--automa-deck", automa_deck),
                                              ("--players", players), ("--threads", threads if threads > 1 else None))
                     if value is not None]
            if given:
                raise UsageError(f"--resume continues the recorded game as it was set up: leave out {', '.join(given)}")
            data = records.read_record(resume)
            spec = records.replay_edition(data, base_dir=resume.parent)
            seed = int(data["seed"])
            options = dict(data["options"])
            players = data.get("seats") if family_of(spec).info.fixed_seats is None else None
            seats = playing.seat(spec, ",".join(data["players"]), players, options.get("automa_level"),
                                 options.get("automa_deck"))
            if seats.options != options:
                raise RecordError(f"{resume}: the record's players {', '.join(data['players'])} do not match its "
                                  f"options {options}")
            actions = list(data["actions"])
            rngs = _resume_data(data).get("bot_rngs")
            record = record or resume
        else:
            if edition is None:
                raise UsageError("name an EDITION to play (e.g. classic, doodle), or --resume RECORD")
            spec = load_edition(edition)
            seats = playing.seat(spec, threaded_bots(bots, threads), players, automa_level, automa_deck)
        if record is not None:
            records.check_record_path(record)
        if seed is None:
            seed = secrets.randbelow(RANDOM_SEEDS)
            typer.echo(f"seed {seed} (play this deal again with --seed {seed})")
        waiting.watch_compiles()
        note_compile_for(spec)
        if resume is not None:
            game = records.replay(data, base_dir=resume.parent, check_scores=False)
            if game.is_over:
                raise UsageError(f"the game in {resume} is finished; 'patchwork replay --step {resume}' walks through it")
        else:
            game = playing.new_game(spec, seed, players, seats)
        prompt = Prompt(game, seats, seed)
        if rngs is not None:
            import numpy as np

            if len(rngs) == len(prompt.session.rngs):
                prompt.session.rngs = [np.array(r, dtype=prompt.session.rngs[0].dtype) for r in rngs]
        if resume is not None:
            typer.echo(f"resuming {resume}: {len(actions)} action(s) played so far")
        try:
            finished = prompt.run()
        except KeyboardInterrupt:
            prompt.stop_background()
            if record is not None:
                keep(record, prompt, seats.names, seats.options)
                typer.echo(f"\nrecord written to {record} (continue with: patchwork play --resume {record})")
            raise Interrupted("interrupted") from None
        finally:
            prompt.stop_background()
        if record is not None:
            keep(record, prompt, seats.names, seats.options)
            typer.echo(f"record written to {record}")
            if not finished:
                typer.echo(f"continue this game with: patchwork play --resume {record}")
        elif not finished and prompt.game.history:
            typer.echo("(not kept: play with --record FILE to stop a game and --resume it later)")
        if finished:
            game = prompt.game
            scores = game.scores()
            typer.echo("final scores: " + ", ".join(f"{game.seat_name(i)} {s}" for i, s in enumerate(scores)))

    @app.command("show")
    def show_cmd(
        record: Path = typer.Argument(..., metavar="RECORD", help="A game record written by `patchwork play --record`."),
        move: Optional[int] = typer.Option(None, "--move", min=0, help="Show the game after this many actions "
                                           "(0: the deal; default: the last)."),
        out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", parser=path_text, callback=output_file,
                                           help="Draw the position to FILE.svg, .pdf or .png; FILE.gif steps "
                                                "through the whole game. Without --out: the board as text."),
        dpi: int = typer.Option(0, "--dpi", help="Resolution of a PNG or GIF (default 150 for PNG, 120 for GIF)."),
        force: bool = typer.Option(False, "--force", help="Overwrite FILE if it exists."),
    ) -> None:
        """Draw a recorded game at any move, from the same scene the print kit uses."""
        if dpi:  # before the renderer loads and the record is replayed
            from toolkit.render.png import check_dpi

            check_dpi(dpi)
        from toolkit.render import record_view

        suffix = out.suffix.lower().lstrip(".") if out is not None else ""
        if out is not None and suffix not in record_view.FORMATS:
            raise UsageError(f"--out {out}: the file name must end in {', '.join('.' + f for f in record_view.FORMATS)}")
        if out is not None and out.exists() and not force:
            raise UsageError(f"{out} already exists; use --force to overwrite or --out to choose another name")
        if suffix == "gif":  # too many pixels for the record's length: refused before it is replayed
            record_view.check_gif_record(record, dpi or None)
        _, game = _replayed(record)
        total = len(game.history)
        if move is not None and move > total:
            raise UsageError(f"--move {move}: the record has {total} action(s) (0..{total})")
        family = family_of(game.edition)
        if out is None:
            views = list(family.views(game))
            typer.echo(position_text(views[total if move is None else move]))
            return
        written = record_view.write(game, out, suffix, move, dpi or None)
        typer.echo(f"wrote {written}")


# ----- walking a record -----------------------------------------------------------------------


STEP_HELP = "Enter or 'n': next   'b': back   a number: that move   'first', 'last'   'q': quit"


def walk(game: Any, echo: Callable[[str], None] = typer.echo, read_line=None) -> None:
    """Step through a replayed game at a prompt."""
    read_line = read_line or _read_line
    positions = list(family_of(game.edition).views(game))
    last = len(positions) - 1
    at = 0
    echo(STEP_HELP)
    while True:
        echo(position_text(positions[at]))
        line = read_line(f"move {at}/{last}> ")
        if line is None:
            echo("")
            return
        text = line.strip().lower()
        if text in ("", "n", "next"):
            if at == last:
                echo("that was the last move ('b' goes back, 'q' quits)")
                continue
            at += 1
        elif text in ("b", "back", "p", "prev"):
            at = max(0, at - 1)
        elif text == "first":
            at = 0
        elif text in ("last", "end"):
            at = last
        elif text.isdigit():
            if int(text) > last:
                echo(f"the record has moves 0..{last}")
                continue
            at = int(text)
        elif text in ("q", "quit", "exit"):
            return
        else:
            close = difflib.get_close_matches(text, ["next", "back", "first", "last", "quit"], n=1)
            echo(f"unknown '{text}'" + (f" (did you mean '{close[0]}'?)" if close else "") + f"; {STEP_HELP}")
