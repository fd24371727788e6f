"""Hostile input against every command and every spec kind, run in-process.

Each case prepares a scratch folder (FIFOs, device nodes, symlink loops, nested and oversized
files, records naming files outside the specs, links named `*.yaml` to files that are not
specs), runs one `patchwork` command in it and checks the outcome: no traceback, a non-zero exit
code (2 for usage errors), one clear error line that names what was wrong (the option, for a
bad value) and quotes nothing of a file that is not a spec, no list of more than a screenful of
names, nothing left behind (no new or half-written files, no special file replaced, no process
still running), and a refusal that costs little (no compiled kernel loaded for it).

The cases are generated: every spec kind with every hostile mutation, every reader with every
kind of bad input, every writer with every kind of bad target, every whole-number and decimal
option of every command with values outside any range (seeds included), every range option with
ranges too big to build, every place a spec is named with links to what is not a spec, every
output with a name of another format. `benchmarks/bench_hostile.py` runs the same cases, each
in a forked child, and counts failures by kind (KINDS), including crashes, hangs and orphaned
processes that would take the test run down with them, and the refusals' CPU time.
"""
from __future__ import annotations

import errno
import gc
import json
import os
import re
import signal
import stat
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolkit.cli.app import app
from toolkit.errors import SpecError, ToolkitError

SPECS = Path(__file__).resolve().parent.parent / "specs"
HANG_SECONDS = 20
"""A case still running after this long is a hang (refusals take milliseconds)."""
REFUSAL_TARGET = 0.1
"""In-process refusal time the suite aims for, per case (measured, never asserted here)."""
SLOW_CPU = 2.0
"""CPU-seconds of its own past which an in-process refusal is `slow` in the test (a range built
before it is checked costs minutes; the cases measure 0.01 to 0.3); the benchmark holds forked
refusals to REFUSAL_CPU instead. A case's own: the CPU time of the thread that runs it, with the
objects made before it frozen out of the collector (see `_own_cpu`)."""
REFUSAL_CPU = 0.3
"""CPU-seconds a refusal may cost in a process that has the CLI loaded (benchmarks/bench_hostile.py)."""
MAX_LINE = 500
"""An error line longer than this lists too much (e.g. every patch id of a big deck): `unclear`."""
SECRET = "TOP-SECRET"
"""Planted in files that are not specs; an error that quotes it is `unclear` (and leaks)."""
NEVER_QUOTED = (SECRET, "root:x:0:", "root:*:0:")
"""Text of files that are not specs (the scratch secret, /etc/passwd), never to appear in a message."""
KINDS = ("traceback", "hang", "crash", "wrong exit", "unclear", "multi-line", "half-written", "orphan", "slow")
"""Every kind of failure a case can show, as the benchmark counts them."""

Setup = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One hostile command line and the scratch files it needs."""

    name: str
    args: tuple[str, ...]
    """Arguments; `{tmp}` is replaced by the scratch folder."""
    setup: tuple[Setup, ...] = ()
    code: int | None = None
    """The exit code expected; None: any non-zero code."""
    fault: str | None = None
    """An OS error (`ENOSPC`, `EROFS`, `EACCES`) every file write meets."""
    creates: tuple[str, ...] = ()
    """Files the command may create (for cases that are expected to succeed)."""
    expect: tuple[str, ...] = ()
    """Text the error line must hold (case-insensitive), e.g. the option refused; else `unclear`."""
    stdin: str | None = None
    """What is typed at the prompt (play)."""


@dataclass
class Outcome:
    """What a case did, and which kinds of failure it showed."""

    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    message: str = ""
    cpu: float = 0.0
    """CPU-seconds the command took (this process only)."""


# ----- scratch files ---------------------------------------------------------------------------

def fifo(name: str) -> Setup:
    return lambda tmp: os.mkfifo(tmp / name)


def device(name: str) -> Setup:
    """A character device like /dev/null, inside the scratch folder (so replacing it harms nothing)."""
    return lambda tmp: os.mknod(tmp / name, stat.S_IFCHR | 0o666, os.makedev(1, 3))


def folder(name: str) -> Setup:
    return lambda tmp: (tmp / name).mkdir(parents=True, exist_ok=True)


def loop(name: str) -> Setup:
    return lambda tmp: os.symlink(name, tmp / name)


def link(name: str, target: str) -> Setup:
    return lambda tmp: os.symlink(target, tmp / name)


def text(name: str, body: str | bytes | Callable[[], str]) -> Setup:
    """A file with this content (a callable is called when the case runs, so building the list of
    cases plays no game and loads no kernel)."""
    def make(tmp: Path) -> None:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        content = body() if callable(body) else body
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return make


def deep_flow(levels: int) -> str:
    return "[" * levels + "]" * levels


def deep_block(levels: int) -> str:
    return "".join(f"{' ' * i}k:\n" for i in range(levels)) + " " * levels + "1\n"


def record(**changes) -> str:
    from toolkit.specs import load_edition

    body = {
        "format": "patchwork-toolkit/game-record",
        "format_version": 1,
        "toolkit_version": "0",
        "edition": {"name": "classic", "content_hash": load_edition("classic").content_hash},
        "seed": 1,
        "players": ["random", "random"],
        "options": {},
        "actions": [],
        "final_scores": None,
    }
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(body.get(key), dict):
            body[key] = {**body[key], **value}
        else:
            body[key] = value
    return json.dumps(body)


def embedded(**spec_changes) -> str:
    """A record that embeds its edition's spec (the current format), with the spec changed."""
    from toolkit.bots import make_bot
    from toolkit import records
    from toolkit.games.rng import seed_state
    from toolkit.games.timetrack.game import TimeTrackGame
    from toolkit.specs import load_edition

    game = TimeTrackGame(load_edition("classic"), 1)
    bot, rng = make_bot("random", game.edition), seed_state(1, 3)
    for _ in range(6):
        game.apply(bot.choose(game, rng))
    body = records.make_record(game, ["random", "random"])
    body["edition"]["spec"].update(spec_changes)
    return json.dumps(body)


# ----- the cases -------------------------------------------------------------------------------

SPEC_KINDS = {
    "edition": "editions/classic.yaml",
    "variant": "variants/six-buttons.yaml",
    "patch-set": "patches/classic.yaml",
    "time-track": "tracks/classic-original.yaml",
    "automa": "automa/automa.yaml",
    "start-cards": "start-cards/doodle.yaml",
}
"""One bundled file of every spec kind, the seed of that kind's hostile copies."""


def _spec_mutations(kind: str, source: str) -> dict[str, str | bytes]:
    """Hostile copies of a spec file of `kind`: name -> file content."""
    header = f"kind: {kind}\n"
    absolute = str(SPECS / source)
    return {
        "deep-flow": header + "name: " + deep_flow(100_000) + "\n",
        "deep-block": header + deep_block(2_000),
        "just-too-deep": header + "name: " + deep_flow(80) + "\n",
        "deep-mapping": header + "name: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n",
        "huge-number": Path(absolute).read_text().replace(": 1\n", ": 1" + "0" * 5_000 + "\n", 1) + "x: 1e99999\n",
        "long-line": header + "name: " + "x" * 1_500_000 + "\n",
        "nul-bytes": (header + "name: a\x00b\n").encode(),
        "latin-1": (header + "name: caf\xe9\n").encode("latin-1"),
        "top-list": "- " + header,
        "tab-soup": "\t" * 10_000 + "\n",
        "python-tag": header + "name: !!python/object/apply:os.system ['true']\n",
        "alias-bomb": header + "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
            f"{n}: &{n} [{','.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefgh", "bcdefghi")),
        "extends-passwd": header + "extends: /etc/passwd\n",
        "extends-devzero": header + "extends: /dev/zero\n",
        "patches-passwd": header + "patches: /etc/passwd\n",
        "time-track-shadow": header + "time_track: ../../../../../../etc/shadow\n",
        "extends-folder": header + "extends: ./sub.yaml\n",
        "extends-fifo": header + "extends: ./fifo.yaml\n",
        "extends-loop": header + "extends: ./loop.yaml\n",
        "extends-self": header + "extends: ./self.yaml\n",
        "extends-huge-name": header + "extends: " + "a" * 5_000 + ".yaml\n",
    }


def spec_cases() -> list[Case]:
    """Every hostile copy of every spec kind, through `validate` (and `deal` for editions)."""
    cases = []
    shared = (folder("sub.yaml"), fifo("fifo.yaml"), loop("loop.yaml"))
    for kind, source in SPEC_KINDS.items():
        for name, body in _spec_mutations(kind, source).items():
            setup = shared + (text("self.yaml", "kind: variant\nextends: ./self.yaml\n"), text("spec.yaml", body))
            cases.append(Case(f"validate-{kind}-{name}", ("validate", "spec.yaml"), setup, code=1))
            if kind in ("edition", "variant"):
                cases.append(Case(f"deal-{kind}-{name}", ("deal", "spec.yaml", "--seed", "1"), setup))
                cases.append(Case(f"shape-deck-{kind}-{name}", ("shape", "#", "--deck", "spec.yaml"), setup))
    return cases


BAD_INPUTS: dict[str, tuple[Setup, ...]] = {
    "missing": (),
    "folder": (folder("target"),),
    "fifo": (fifo("target"),),
    "device": (device("target"),),
    "symlink-loop": (loop("target"),),
    "dangling-link": (link("target", "nowhere/at/all"),),
    "empty": (text("target", ""),),
    "binary": (text("target", bytes(range(256)) * 64),),
}
"""Things that are not a readable regular file of the expected kind, all named `target`."""


def read_cases() -> list[Case]:
    cases = []
    readers = {
        "validate": ("validate", "target"),
        "deal": ("deal", "target", "--seed", "1"),
        "render-boards": ("render", "boards", "target", "--out", "x.pdf"),
        "replay": ("replay", "target"),
        "simulate": ("simulate", "target", "--games", "2", "--no-progress"),
        "balance": ("balance", "classic", "target", "--games", "2", "--no-progress"),
        "shape-deck": ("shape", "#", "--deck", "target"),
        "deck-fit": ("deck", "fit", "target"),
        "deck-pack": ("deck", "pack", "target"),
        "deck-check": ("deck", "check", "target", "--games", "2", "--search-games", "2", "--no-progress"),
        "deck-generate-like": ("deck", "generate", "--like", "target", "--count", "3", "--out", "new.yaml"),
        "price": ("price", "target", "P05", "--values", "0,3", "--games", "2", "--no-progress"),
        "sweep": ("sweep", "target", "--set", "starting_buttons=4,5", "--games", "2", "--no-progress"),
        "ladder": ("ladder", "random", "greedy", "--edition", "target", "--games", "2", "--no-progress"),
    }
    for reader, args in readers.items():
        for what, setup in BAD_INPUTS.items():
            cases.append(Case(f"{reader}-{what}", args, setup))
        cases.append(Case(f"{reader}-dev-zero", tuple("/dev/zero" if a == "target" else a for a in args)))
        cases.append(Case(f"{reader}-etc-passwd", tuple("/etc/passwd" if a == "target" else a for a in args)))
    return cases


def record_cases() -> list[Case]:
    """Records that are too big, too deep, too many seats, or name files that are not specs."""
    bodies = {
        "deep-json": "[" * 1_000 + "]" * 1_000,
        "very-deep-json": "[" * 200_000 + "]" * 200_000,
        "deep-object": '{"a":' * 5_000 + "1" + "}" * 5_000,
        "huge": record(actions=["advance"] * 2_000_000),
        "seats-billion": record(seats=10**9, edition={"name": "doodle"}),
        "seats-huge": record(seats=10**400, edition={"name": "doodle"}),
        "seats-negative": record(seats=-3),
        "edition-passwd": record(edition={"name": "/etc/passwd"}),
        "edition-path-passwd": record(edition={"name": "x", "path": "/etc/passwd"}),
        "edition-relative-passwd": record(edition={"name": "x", "relative_path": "../../../../../etc/passwd"}),
        "edition-path-devzero": record(edition={"name": "x", "path": "/dev/zero"}),
        "edition-path-fifo": record(edition={"name": "x", "path": "fifo.yaml"}),
        "edition-name-dotdot": record(edition={"name": "../../../../etc/hostname"}),
        "edition-nul": record(edition={"name": "clas\x00sic"}),
        "actions-not-text": record(actions=[[[[1]]]]),
        "options-hostile": record(options={"players": 10**9}),
        "nan": record(seed=float("nan")).replace("NaN", "NaN"),
        "not-json": "{\"format\": ",
        "spec-patches-passwd": lambda: embedded(patches="/etc/passwd"),
        "spec-extends-passwd": lambda: embedded(kind="variant", extends="/etc/passwd"),
        "spec-track-path": lambda: embedded(time_track="../../../../etc/hosts.yaml"),
        "spec-board-huge": lambda: embedded(board={"width": 10**9, "height": 10**9}),
        "spec-deep": lambda: embedded(name=json.loads("[" * 60 + "]" * 60)),
        "spec-shape-huge": lambda: embedded(patches=[{"id": "P1", "shape": "#" * 100_000}]),
    }
    return [Case(f"replay-{name}", ("replay", "rec.json"), (text("rec.json", body), fifo("fifo.yaml")))
            for name, body in bodies.items()]


def write_cases() -> list[Case]:
    """Every output option aimed at things that must not be written or replaced."""
    writers = {
        "schema": ("schema", "--out", "TARGET"),
        "render-sheet": ("render", "sheet", "--out", "TARGET"),
        "render-pad": ("render", "pad", "--sheets", "2", "--out", "TARGET"),
        "render-svg": ("render", "sheet", "--format", "svg", "--out", "TARGET"),
        "build": ("build", "--out", "TARGET"),
        "play": ("play", "classic", "--seed", "1", "--bots", "random,random", "--record", "TARGET"),
        "simulate": ("simulate", "classic", "--games", "2", "--no-progress", "--out", "TARGET"),
        "balance": ("balance", "classic", "six-buttons", "--games", "2", "--no-progress", "--out", "TARGET"),
        "deck-generate": ("deck", "generate", "--count", "3", "--out", "TARGET"),
        "deck-generate-variant": ("deck", "generate", "--count", "3", "--out", "new.yaml", "--variant", "TARGET"),
        "deck-pack": ("deck", "pack", "polyominoes:3", "--board", "3x4", "--out", "TARGET"),
        "price": ("price", "classic", "P05", "--values", "0,3", "--bots", "random,random", "--games", "2",
                  "--no-progress", "--out", "TARGET"),
        "sweep": ("sweep", "classic", "--set", "starting_buttons=4,5", "--bots", "random,random", "--games", "2",
                  "--no-progress", "--out", "TARGET"),
        "ladder": ("ladder", "random", "greedy", "--games", "2", "--no-progress", "--out", "TARGET"),
    }
    targets = {
        "empty-name": ("", ()),
        "fifo": ("target", (fifo("target"),)),
        "device": ("target", (device("target"),)),
        "under-a-file": ("file/target", (text("file", "x"),)),
        "under-a-fifo": ("pipe/target", (fifo("pipe"),)),
        "symlink-loop": ("target", (loop("target"),)),
        "proc": ("/proc/self/nothing/target", ()),
        "long-name": ("x" * 300, ()),
    }
    folder_outputs = {"build": "doodle-pad.pdf", "simulate": "results.json", "balance": "results.json",
                      "price": "results.json", "sweep": "results.json", "ladder": "results.json"}
    cases = []
    for writer, args in writers.items():
        for what, (target, setup) in targets.items():
            if writer in folder_outputs and what in ("fifo", "device"):
                # a folder output: the special file sits where one of its files goes
                inner = f"out/{folder_outputs[writer]}"
                target, setup = "out", (folder("out"), fifo(inner) if what == "fifo" else device(inner))
            cases.append(Case(f"{writer}-out-{what}", tuple(target if a == "TARGET" else a for a in args), setup))
        for fault in ("ENOSPC", "EROFS", "EACCES"):
            cases.append(Case(f"{writer}-{fault.lower()}", tuple("out/target" if a == "TARGET" else a for a in args),
                              fault=fault))
    # a deck is two files: the second one unwritable must leave neither behind
    generate = ("deck", "generate", "--count", "3", "--out", "new.yaml")
    cases += [
        Case("deck-generate-default-variant-fifo", generate, (fifo("new-variant.yaml"),)),
        Case("deck-generate-variant-device", (*generate, "--variant", "v.yaml"), (device("v.yaml"),)),
        Case("deck-generate-out-fifo-yaml", ("deck", "generate", "--count", "3", "--out", "p.yaml"), (fifo("p.yaml"),)),
        Case("deck-generate-second-file-enospc", (*generate, "--variant", "v.yaml"), fault="ENOSPC"),
    ]
    return cases


def usage_cases() -> list[Case]:
    """Bad option values and counts: exit 2 with one line, before any work."""
    lines = [
        ("no-such-option", "deal", "classic", "--seed", "1", "--bogus"),
        ("no-such-command", "frobnicate"),
        ("missing-argument", "deal"),
        ("seed-not-a-number", "deal", "classic", "--seed", "x"),
        ("players-zero", "deal", "doodle", "--seed", "1", "--players", "0"),
        ("players-billion", "deal", "doodle", "--seed", "1", "--players", "1000000000"),
        ("players-huge", "deal", "doodle", "--seed", "1", "--players", "9" * 40),
        ("play-players-billion", "play", "doodle", "--seed", "1", "--players", "1000000000", "--bots", "random"),
        ("play-bots-empty-mcts", "play", "classic", "--seed", "1", "--bots", "mcts:,random"),
        ("play-bots-comma", "play", "classic", "--seed", "1", "--bots", ","),
        ("play-bots-long", "play", "classic", "--seed", "1", "--bots", "r" * 100_000),
        ("play-mcts-huge", "play", "classic", "--seed", "1", "--bots", "mcts:99999999999999999999,random"),
        ("play-automa-level", "play", "anniversary", "--seed", "1", "--automa-level", "99"),
        ("seed-negative", "deal", "classic", "--seed", "-1"),
        ("seed-huge", "deal", "classic", "--seed", "9" * 40),
        ("simulate-bots-empty-mcts", "simulate", "classic", "--bots", "mcts:,random", "--games", "2"),
        ("simulate-bots-commas", "simulate", "classic", "--bots", ",,,", "--games", "2"),
        ("simulate-games-zero", "simulate", "classic", "--games", "0"),
        ("simulate-games-huge", "simulate", "classic", "--games", "9" * 30),
        ("simulate-workers-zero", "simulate", "classic", "--games", "2", "--workers", "0"),
        ("simulate-seed-huge", "simulate", "classic", "--games", "2", "--seed", "9" * 30),
        ("simulate-automa-level", "simulate", "anniversary", "--bots", "greedy,automa", "--automa-level", "0"),
        ("simulate-scheduler", "simulate", "classic", "--games", "2", "--scheduler", "nowhere"),
        ("balance-no-variant", "balance", "classic"),
        ("balance-doodle-vs-classic", "balance", "classic", "doodle", "--games", "2"),
        ("shape-space-hash-space", "shape", " # "),
        ("shape-empty", "shape", ""),
        ("shape-slashes", "shape", "/" * 1_000),
        ("shape-huge", "shape", "/".join(["#" * 400] * 400)),
        ("shape-nul", "shape", "#\x00#"),
        ("shape-board-zero", "shape", "#", "--board", "0x0"),
        ("shape-board-huge", "shape", "#", "--board", "100000x100000"),
        ("shape-board-digits", "shape", "#", "--board", "9" * 50 + "x9"),
        ("render-paper-zero", "render", "sheet", "--paper", "0x0mm"),
        ("render-paper-huge", "render", "sheet", "--paper", "1e9x1e9mm"),
        ("render-paper-nan", "render", "sheet", "--paper", "nanxnanmm"),
        ("render-format", "render", "sheet", "--format", "exe"),
        ("render-flip", "render", "cards", "--backs", "--flip", "diagonal"),
        ("render-offset-nan", "render", "cards", "--back-offset", "nanx1mm"),
        ("render-sheets-zero", "render", "pad", "--sheets", "0"),
        ("render-sheets-huge", "render", "pad", "--sheets", "1000000000"),
        ("build-paper", "build", "--paper", "a3"),
        ("export-edition-empty", "export", "tts", ""),
        ("export-solo-without-automa", "export", "tts", "classic", "--solo", "--out", "tts"),
        ("validate-nul-name", "validate", "a\x00b"),
        ("validate-long-name", "validate", "x" * 5_000),
        ("edition-nul-name", "deal", "clas\x00sic", "--seed", "1"),
        ("edition-long-name", "deal", "c" * 5_000, "--seed", "1"),
        ("deck-generate-count-huge", "deck", "generate", "--count", "1000000000", "--out", "d.yaml"),
        ("deck-generate-count-zero", "deck", "generate", "--count", "0", "--out", "d.yaml"),
        ("deck-generate-sizes", "deck", "generate", "--sizes", "3..100000", "--out", "d.yaml"),
        ("deck-fit-folds-zero", "deck", "fit", "classic", "--folds", "0"),
        ("deck-fit-folds-huge", "deck", "fit", "classic", "--folds", "1000000000"),
        ("deck-pack-board-huge", "deck", "pack", "classic", "--board", "100000x100000"),
        ("deck-pack-polyominoes-huge", "deck", "pack", "polyominoes:100000"),
        ("deck-pack-nodes-negative", "deck", "pack", "classic", "--max-nodes", "-1"),
        ("deck-check-games-zero", "deck", "check", "six-buttons", "--games", "0", "--no-progress"),
        ("deck-check-bots-empty", "deck", "check", "six-buttons", "--bots", ",", "--no-progress"),
    ]
    cases = [Case(name, tuple(args), code=2) for name, *args in lines]
    # more workers than cores are capped (with a note), not refused: the run must succeed
    cases.append(Case("simulate-workers-huge", ("simulate", "classic", "--games", "2", "--no-progress",
                                                "--workers", "9" * 30), code=0))
    return cases


# ----- round three: every option of every command, ranges, links, formats, order of work --------

BASE_LINES: dict[str, tuple[str, ...]] = {
    "deal": ("deal", "classic", "--seed", "1"),
    "play": ("play", "classic", "--seed", "1", "--bots", "random,random"),
    "simulate": ("simulate", "classic", "--games", "2", "--no-progress"),
    "balance": ("balance", "classic", "six-buttons", "--games", "2", "--no-progress"),
    "price": ("price", "classic", "P05", "--values", "0,3", "--bots", "random,random", "--games", "2", "--no-progress"),
    "sweep": ("sweep", "classic", "--set", "starting_buttons=4,5", "--bots", "random,random", "--games", "2",
              "--no-progress"),
    "ladder": ("ladder", "random", "greedy", "--games", "2", "--no-progress"),
    "studio": ("studio", "."),
    "compile": ("compile",),
    "deck fit": ("deck", "fit", "classic"),
    "deck generate": ("deck", "generate", "--count", "3", "--out", "d.yaml"),
    "deck check": ("deck", "check", "six-buttons", "--games", "2", "--search-games", "2", "--no-progress"),
    "deck pack": ("deck", "pack", "classic", "--board", "3x3"),
    "render challenge": ("render", "challenge", "--seed", "1", "--out", "x.pdf"),
    "show": ("show", "rec.json", "--out", "x.svg"),
    "tune": ("tune", "classic", "--set", "starting_buttons=4,5", "--target", "seat-win=0.5", "--budget", "2", "--games",
             "2", "--final-games", "2", "--bots", "random,random", "--no-progress"),
    "feel": ("feel", "classic", "--games", "2", "--bots", "random,random", "--no-progress"),
}
"""A command line that works, per command with a number option (render X: `render X --out x.pdf`);
a hostile number is added to it. A refusal must come before any of its work."""
BASE_SETUP: dict[str, tuple[Setup, ...]] = {"show": (text("rec.json", lambda: embedded()),)}
"""Files a base line needs (show reads a record)."""

WHOLE_NUMBERS = {"minus-one": "-1", "two-to-63": str(2**63), "two-to-64": str(2**64), "forty-digits": "9" * 40}
"""Values outside any stated range of a whole number: below 0, past 2^63-1 (the seeds' bound), huge."""
DECIMALS = {"nan": "nan", "inf": "inf", "minus-one": "-1", "overflow": "1e999"}
"""Values outside any stated range of a decimal option."""


def _number_options() -> list[tuple[tuple[str, ...], str, type]]:
    """(command path, option, int or float) for every number option of every command."""
    import typer.main

    found = []

    def walk(command, path):
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, (*path, name))
            return
        for param in command.params:
            kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            if param.param_type_name == "option" and not param.is_flag and kind in (int, float):
                found.append((path, param.opts[0], kind))

    walk(typer.main.get_command(app), ())
    return found


def number_cases() -> list[Case]:
    """Every whole-number and decimal option of every command, given values outside any range:
    refused with exit 2, in a line that names the option, before any work."""
    cases = []
    for path, option, kind in _number_options():
        name = " ".join(path)
        base = BASE_LINES.get(name) or (("render", path[1], "--out", "x.pdf") if path[0] == "render" else path)
        values = WHOLE_NUMBERS if kind is int else DECIMALS
        for label, value in values.items():
            if option == "--workers" and label != "minus-one":
                continue  # more workers than cores are capped with a note (simulate-workers-huge)
            args = [*base]
            if option in args:  # replace the base line's own value
                args[args.index(option) + 1] = value
            else:
                args += [option, value]
            cases.append(Case(f"number-{name.replace(' ', '-')}{option}-{label}", tuple(args), BASE_SETUP.get(name, ()),
                              code=2, expect=(option,)))
    return cases


BIG_RANGES = {
    "billion": "0..1000000000",
    "billion-step": "0..1000000000:1",
    "negative-billion": "-1000000000..1000000000",
    "thirty-digits": "0..999999999999999999999999999999",
    "coarse-step": "0..1000000000:1000000",
    "many-commas": ",".join(["1"] * 100_000),
}
"""Ranges that would build millions of values (or a list far past the cap) if expanded first."""


def range_cases() -> list[Case]:
    """Every option that takes a range, with ranges too big to build: refused from their numbers."""
    cases = []
    for label, value in BIG_RANGES.items():
        cases.append(Case(f"range-sweep-buttons-{label}", ("sweep", "classic", "--set", f"starting_buttons={value}",
                                                           "--games", "2", "--no-progress"), code=2,
                          expect=("--set",)))
        cases.append(Case(f"range-sweep-patch-cost-{label}", ("sweep", "classic", "--set", f"patches.P05.cost={value}",
                                                              "--games", "2", "--no-progress"), code=2,
                          expect=("--set",)))
        cases.append(Case(f"range-price-values-{label}", ("price", "classic", "P05", "--values", value, "--games", "2",
                                                          "--no-progress"), code=2, expect=("--values",)))
        cases.append(Case(f"range-deck-generate-sizes-{label}", ("deck", "generate", "--sizes", value, "--out", "d.yaml"),
                          code=2, expect=("--sizes",)))
    cases += [
        Case("range-sweep-step-zero", ("sweep", "classic", "--set", "starting_buttons=0..8:0", "--no-progress"), code=2,
             expect=("--set",)),
        Case("range-sweep-marks-huge", ("sweep", "classic", "--set",
                                        "time_track.leather_patches=[" + ",".join(map(str, range(100_000))) + "]",
                                        "--no-progress"), code=2, expect=("--set",)),
        Case("range-sweep-grid-huge", ("sweep", "classic", "--set", "starting_buttons=0..150", "--set",
                                       "patches.P05.cost=0..150", "--no-progress"), code=2, expect=("--set",)),
        Case("range-shape-board-billion", ("shape", "#", "--board", "1000000000x1000000000"), code=2,
             expect=("--board",)),
        Case("range-deck-pack-board-billion", ("deck", "pack", "classic", "--board", "1000000000x1000000000"), code=2,
             expect=("--board",)),
        Case("range-render-paper-billion", ("render", "sheet", "--paper", "1000000000x1000000000mm", "--out", "x.pdf"),
             code=2, expect=("--paper",)),
        Case("range-render-gutter-huge", ("render", "cards", "--gutter", "1e308mm", "--out", "x.pdf"), code=2,
             expect=("--gutter",)),
        Case("range-render-margin-huge", ("render", "cards", "--margin", "99999999999mm", "--out", "x.pdf"), code=2,
             expect=("--margin",)),
    ]
    return cases


SECRET_FILE = f"{SECRET}-LINE: the first line of a file that is not a spec\nkind: edition\n"


def _links() -> tuple[Setup, ...]:
    """Links named like specs to what is not one: a text file, /etc/passwd, a folder, a FIFO, a
    device, a missing file; and a link to a real spec (which is fine)."""
    return (
        text("secret.txt", SECRET_FILE), link("secret.yaml", "secret.txt"),
        link("passwd.yaml", "/etc/passwd"), folder("dir"), link("dir.yaml", "dir"),
        fifo("pipe"), link("pipe.yaml", "pipe"), link("zero.yaml", "/dev/zero"),
        link("gone.yaml", "nowhere.txt"), text("chain.txt", SECRET_FILE), link("chain2.yaml", "chain.txt"),
        link("chain.yaml", "chain2.yaml"),
    )


LINK_NAMES = ("secret.yaml", "passwd.yaml", "dir.yaml", "pipe.yaml", "zero.yaml", "gone.yaml", "chain.yaml")


def link_cases() -> list[Case]:
    """Every place a spec is named, given a link named `*.yaml` to what is not a spec: refused,
    judged by what the link points to, and nothing of the target is quoted."""
    cases = []
    keys = {"extends": "variant", "patches": "edition", "time_track": "edition", "automa": "edition",
            "start_cards": "edition"}
    for target in LINK_NAMES:
        stem = target.split(".")[0]
        for key, kind in keys.items():
            head = "kind: variant\nextends: classic\n" if key != "extends" else "kind: variant\n"
            body = head + f"{key}: {target}\n"
            cases.append(Case(f"link-{stem}-{key.replace('_', '-')}-validate", ("validate", "spec.yaml"),
                              (*_links(), text("spec.yaml", body)), code=1))
            if key in ("extends", "patches"):
                cases.append(Case(f"link-{stem}-{key}-deal", ("deal", "spec.yaml", "--seed", "1"),
                                  (*_links(), text("spec.yaml", body))))
        lines = {
            "deal": ("deal", target, "--seed", "1"),
            "play": ("play", target, "--seed", "1", "--bots", "random,random"),
            "simulate": ("simulate", target, "--games", "2", "--no-progress"),
            "balance": ("balance", "classic", target, "--games", "2", "--no-progress"),
            "price": ("price", target, "P05", "--values", "0,3", "--games", "2", "--no-progress"),
            "sweep": ("sweep", target, "--set", "starting_buttons=4,5", "--games", "2", "--no-progress"),
            "ladder": ("ladder", "random", "greedy", "--edition", target, "--games", "2", "--no-progress"),
            "shape-deck": ("shape", "#", "--deck", target),
            "deck-fit": ("deck", "fit", target),
            "deck-pack": ("deck", "pack", target),
            "deck-check": ("deck", "check", target, "--games", "2", "--search-games", "2", "--no-progress"),
            "deck-check-base": ("deck", "check", "six.yaml", "--base", target, "--games", "2", "--no-progress"),
            "deck-generate-like": ("deck", "generate", "--like", target, "--count", "3", "--out", "d.yaml"),
            "render-tiles": ("render", "tiles", target, "--out", "x.pdf"),
            "build-edition": ("build", "--edition", target, "--out", "kit"),
            "validate": ("validate", target),
        }
        six = text("six.yaml", "kind: variant\nextends: classic\nname: six\nstarting_buttons: 6\n")
        for reader, args in lines.items():
            cases.append(Case(f"link-{stem}-{reader}", args, (*_links(), six)))
        record_v1 = record(edition={"name": "x", "path": target})
        cases.append(Case(f"link-{stem}-replay-v1", ("replay", "rec.json"), (*_links(), text("rec.json", record_v1))))
    # a link to a real spec is read as that spec
    good = (text("real/mine.yaml", "kind: variant\nextends: classic\nname: mine\nstarting_buttons: 6\n"),
            link("mine.yaml", "real/mine.yaml"))
    cases.append(Case("link-to-a-spec-validates", ("validate", "mine.yaml"), good, code=0))
    return cases


def format_cases() -> list[Case]:
    """Output names that disagree with the format written: refused before any work."""
    cases = []
    names = {"pdf": ("x.png", "x.svg", "x"), "svg": ("x.pdf", "x.png"), "png": ("x.pdf", "x.svg", "x.PDF")}
    for component in ("tiles", "sheet", "challenge"):
        extra = ("--seed", "1") if component == "challenge" else ()
        for fmt, outs in names.items():
            for out in outs:
                cases.append(Case(f"format-{component}-{fmt}-as-{out.replace('.', '-') or 'none'}",
                                  ("render", component, "--format", fmt, "--out", out, *extra), code=2,
                                  expect=("--out",)))
    for out in ("x.txt", "x", "x.yaml"):
        cases.append(Case(f"format-deck-pack-as-{out.replace('.', '-')}", ("deck", "pack", "classic", "--board", "3x3",
                                                                            "--out", out), code=2, expect=("--out",)))
    return cases


def _big_deck(count: int) -> str:
    lines = ["kind: patch-set", "name: big", "patches:"]
    lines += [f"  - {{id: B{i:05d}, shape: '##', cost: 1, time: 1, income: 0}}" for i in range(count)]
    return "\n".join(lines) + "\n"


def order_cases() -> list[Case]:
    """Options refused before the work they describe: a pixel count before 2000 sheets are laid
    out, a board size before a big deck is read and fitted, counts before anything is built."""
    big = text("big.yaml", lambda: _big_deck(10_000))
    return [
        Case("order-pad-pixels-before-layout", ("render", "pad", "--sheets", "2000", "--format", "png", "--dpi", "1200",
                                                "--paper", "1000x1000mm", "--out", "x.png"), code=2, expect=("--dpi",)),
        Case("order-pad-page-before-layout", ("render", "pad", "--sheets", "2000", "--page", "5000", "--out", "x.pdf"),
             code=2, expect=("--page",)),
        Case("order-challenge-count-huge", ("render", "challenge", "--seed", "1", "--count", "100000000",
                                            "--out", "x.pdf"), code=2, expect=("--count",)),
        Case("order-challenge-seed-past-range", ("render", "challenge", "--seed", str(2**63 - 1), "--count", "2",
                                                 "--out", "x.pdf"), code=2, expect=("--seed",)),
        Case("order-deck-pack-board-before-deck", ("deck", "pack", "big.yaml", "--board", "100000x100000"), (big,),
             code=2, expect=("--board",)),
        Case("order-deck-fit-folds-before-deck", ("deck", "fit", "big.yaml", "--folds", "0"), (big,), code=2,
             expect=("--folds",)),
        Case("order-shape-board-before-deck", ("shape", "#", "--deck", "big.yaml", "--board", "0x0"), (big,), code=2,
             expect=("--board",)),
        Case("order-deck-pack-limit-before-deck", ("deck", "pack", "big.yaml", "--count", "--limit", "0"), (big,),
             code=2, expect=("--limit",)),
        Case("order-price-width-before-edition", ("price", "big.yaml", "P05", "--width", "-1"), (big,), code=2,
             expect=("--width",)),
        Case("order-sweep-sprt-before-edition", ("sweep", "big.yaml", "--set", "x=1", "--sprt-alpha", "2"), (big,),
             code=2, expect=("--sprt-alpha",)),
    ]


def consistency_cases() -> list[Case]:
    """The same thing said the same way everywhere: bundled names accepted wherever a file is,
    a YAML mistake as one line, ids in a list distinct, an empty name refused, long lists cut."""
    bad_yaml = text("bad.yaml", "kind: variant\nextends: classic\nstarting_buttons: [1, 2\n")
    many = text("many.yaml", "kind: variant\nextends: classic\nname: many\nadd_patches:\n" + "".join(
        f"  - {{id: M{i:03d}, shape: '#', cost: {i % 10}, time: {i // 10 % 6}, income: {i // 60}}}\n"
        for i in range(300)))
    return [
        Case("same-deck-check-bundled-variant", ("deck", "check", "six-buttons", "--games", "0", "--no-progress"),
             code=2, expect=("--games",)),
        Case("same-deck-check-yaml-error", ("deck", "check", "bad.yaml", "--games", "2", "--no-progress"), (bad_yaml,)),
        Case("same-deck-check-missing", ("deck", "check", "nothing.yaml", "--no-progress"), expect=("nothing.yaml",)),
        Case("same-deck-pack-patches-twice", ("deck", "pack", "classic", "--patches", "P01,P01"), code=2,
             expect=("P01",)),
        Case("same-deck-check-patches-twice", ("deck", "check", "six-buttons", "--patches", "P01,P01", "--games", "2",
                                               "--no-progress"), code=2, expect=("P01",)),
        Case("same-deck-pack-patches-empty", ("deck", "pack", "classic", "--patches", ","), code=2,
             expect=("--patches",)),
        Case("same-ladder-bots-twice", ("ladder", "greedy", "greedy", "--games", "2", "--no-progress"), code=2,
             expect=("greedy",)),
        Case("same-balance-variant-twice", ("balance", "classic", "six-buttons", "six-buttons", "--games", "2",
                                            "--no-progress"), code=2, expect=("six-buttons",)),
        Case("same-sweep-key-twice", ("sweep", "classic", "--set", "starting_buttons=4,5", "--set",
                                      "starting_buttons=6,7", "--no-progress"), code=2, expect=("starting_buttons",)),
        Case("same-sweep-values-twice", ("sweep", "classic", "--set", "starting_buttons=4,4", "--no-progress"), code=2,
             expect=("--set",)),
        Case("same-price-values-twice", ("price", "classic", "P05", "--values", "3,3", "--no-progress"), code=2,
             expect=("--values",)),
        Case("same-render-pad-empty-edition", ("render", "pad", "", "--out", "x.pdf"), code=2),
        Case("same-render-tiles-empty-edition", ("render", "tiles", "", "--out", "x.pdf"), code=2),
        Case("same-deal-empty-edition", ("deal", "", "--seed", "1"), code=2),
        Case("same-ladder-empty-edition", ("ladder", "random", "greedy", "--edition", "", "--no-progress"), code=2),
        Case("same-price-empty-patch", ("price", "classic", "", "--no-progress"), code=2),
        Case("long-deck-pack-patches-unknown", ("deck", "pack", "polyominoes:8", "--patches", "NOPE"), code=2,
             expect=("NOPE", "F01, F02, ...")),  # the ids' pattern, not 369 of them
        Case("long-deck-check-patches-unknown", ("deck", "check", "many.yaml", "--patches",
                                                 ",".join(f"X{i}" for i in range(300)), "--no-progress"), (many,),
             code=2, expect=("X0", "more")),
        Case("long-sweep-patch-unknown", ("sweep", "many.yaml", "--set", "patches.NOPE.cost=1,2", "--no-progress"),
             (many,), code=2, expect=("NOPE",)),
        Case("long-price-patch-unknown", ("price", "many.yaml", "NOPE", "--no-progress"), (many,), code=2,
             expect=("NOPE",)),
        Case("same-init-empty-name", ("init", "variant", ""), code=2),
        Case("same-init-long-name", ("init", "variant", "x" * 300), code=2),
        Case("same-init-kind", ("init", "nonsense", "mine"), code=2),
        Case("same-init-from-link", ("init", "variant", "mine", "--from", "secret.yaml"), _links()),
        Case("same-init-onto-fifo", ("init", "variant", "mine.yaml"), (fifo("mine.yaml"),)),
    ]


BUDGETS = {"zero": "mcts:0", "zero-seconds": "mcts:0s", "negative-seconds": "mcts:-1s", "nan-seconds": "mcts:nans",
           "inf-seconds": "mcts:infs", "huge-seconds": "mcts:1e300s", "tiny-seconds": "mcts:1e-300s",
           "huge-playouts": "mcts:" + "9" * 30, "two-colons": "mcts:1:2", "unit-only": "mcts:s"}
"""Search budgets of a bot that are out of range: playouts and time budgets (`mcts:Xs`)."""


def bot_cases() -> list[Case]:
    """Every command that takes bots, with budgets out of range: exit 2, naming the bot."""
    lines = {
        "play": lambda b: ("play", "classic", "--seed", "1", "--bots", f"{b},random"),
        "simulate": lambda b: ("simulate", "classic", "--bots", f"{b},random", "--games", "2", "--no-progress"),
        "balance": lambda b: ("balance", "classic", "six-buttons", "--bots", f"{b},random", "--games", "2",
                              "--no-progress"),
        "price": lambda b: ("price", "classic", "P05", "--values", "0,3", "--bots", f"{b},random", "--games", "2",
                            "--no-progress"),
        "sweep": lambda b: ("sweep", "classic", "--set", "starting_buttons=4,5", "--bots", f"{b},random", "--games",
                            "2", "--no-progress"),
        "ladder": lambda b: ("ladder", b, "random", "--games", "2", "--no-progress"),
        "deck-check": lambda b: ("deck", "check", "six-buttons", "--bots", f"{b},random", "--games", "2",
                                 "--search-games", "2", "--no-progress"),
        "play-doodle": lambda b: ("play", "doodle", "--seed", "1", "--bots", b),
    }
    return [Case(f"bot-{command}-{label}", line(budget), code=2, expect=(budget.split(":")[0],))
            for command, line in lines.items() for label, budget in BUDGETS.items()]


def prompt_cases() -> list[Case]:
    """What a person types at the play prompt: never a traceback, the game goes on."""
    typed = ["", " ", "\x00", "legal " + "x" * 100_000, "shapes " + " ".join(["ZZ"] * 1_000), "hint", "hint",
             "buy P99 o99 r99 c99", "draw " + "9" * 400, "advance " * 1_000, "quit"]
    return [Case(f"prompt-{edition}", ("play", edition, "--seed", "1"), code=0, stdin="\n".join(typed) + "\n")
            for edition in ("classic", "doodle")]


def round_three_cases() -> list[Case]:
    return number_cases() + range_cases() + link_cases() + format_cases() + order_cases() + consistency_cases() + \
        bot_cases() + prompt_cases()


def all_cases() -> list[Case]:
    return spec_cases() + read_cases() + record_cases() + write_cases() + usage_cases() + round_three_cases()


# ----- running a case --------------------------------------------------------------------------

def _tree(tmp: Path) -> dict[str, str]:
    """Every entry under `tmp` with its type and (for regular files) size."""
    found = {}
    for root, dirs, files in os.walk(tmp):
        for name in dirs + files:
            path = Path(root) / name
            info = path.lstat()
            kind = stat.S_IFMT(info.st_mode)
            found[str(path.relative_to(tmp))] = f"{kind}:{info.st_size if stat.S_ISREG(info.st_mode) else ''}"
    return found


_PROBLEM = re.compile(r"^.+:\d+:\d+: ")
"""A spec problem line (file:line:col: ...); a SpecError prints one per line."""


@contextmanager
def _faulty_disk(fault: str | None):
    """Make every new file fail as on a full (ENOSPC), read-only (EROFS) or forbidden (EACCES) disk."""
    if fault is None:
        yield
        return
    import tempfile

    code = getattr(errno, fault)
    real_mkstemp, real_fsync, real_open = tempfile.mkstemp, os.fsync, os.open

    def mkstemp(*args, **kwargs):
        if code != errno.ENOSPC:
            raise OSError(code, os.strerror(code))
        return real_mkstemp(*args, **kwargs)

    def fsync(fd):
        raise OSError(code, os.strerror(code))

    def opener(path, flags, *args, **kwargs):
        if code != errno.ENOSPC and flags & os.O_CREAT:
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    tempfile.mkstemp, os.fsync, os.open = mkstemp, fsync, opener
    try:
        yield
    finally:
        tempfile.mkstemp, os.fsync, os.open = real_mkstemp, real_fsync, real_open


def children(pid: int | None = None) -> set[int]:
    """Running processes whose parent is `pid` (this process by default)."""
    pid = os.getpid() if pid is None else pid
    found = set()
    # plain os calls and bytes: every case reads every process's stat twice
    for name in os.listdir("/proc") if os.path.exists("/proc/self/stat") else ():
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as file:
                    fields = file.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] not in (b"Z", b"X"):
                found.add(int(name))
    return found


def _orphans(before: set[int], grace: float = 1.0) -> set[int]:
    """Processes this one started during a case that still run `grace` seconds after it ended."""
    deadline = time.monotonic() + grace
    while True:
        left = children() - before
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def classify(case: Case, code: int, message: str, output: str, error: BaseException | None) -> list[str]:
    """The failures of a refusal shown by its exit code and its message (see KINDS)."""
    if code == 0:
        return ["wrong exit"]  # it did the work instead: nothing else to judge
    failures = []
    if case.code is not None and code != case.code:
        failures.append("wrong exit")
    lines = message.splitlines()
    spans_lines = isinstance(error, SpecError) or all(_PROBLEM.match(line) for line in lines[1:])
    if case.args[:1] == ("validate",) and code == 1 and not isinstance(error, ToolkitError):
        # validate prints every problem on stdout and its summary on stderr
        listed = [line for line in output.splitlines() if _PROBLEM.match(line)]
        lines = ["patchwork: error: " + listed[0]] if listed and len(message.splitlines()) == 1 else ["(no problem)"]
        message = "\n".join([message, *listed])
    if not lines or not lines[0].startswith("patchwork: error: ") or (len(lines) > 1 and not spans_lines):
        failures.append("multi-line")
    shown = message + "\n" + output
    if any(secret in shown for secret in NEVER_QUOTED):
        failures.append("unclear")  # it quoted a file that is not a spec
    elif any(len(line) > MAX_LINE for line in message.splitlines()):
        failures.append("unclear")  # a list nobody reads
    elif any(word.lstrip("-").lower() not in message.lower() for word in case.expect):
        failures.append("unclear")  # it does not say what was wrong (the option, with or without its dashes)
    return failures


@contextmanager
def _own_cpu():
    """Yields a function that returns the CPU-seconds the calling thread spent since the block
    began. Other threads of the process (a test worker's message thread, a server thread an
    earlier test left idle) are not counted, and neither is the collector walking every object
    earlier tests left alive: those are frozen for the block (`gc.freeze`), so a collection
    during it scans only what the case made."""
    gc.freeze()
    started = time.thread_time()
    try:
        yield lambda: time.thread_time() - started
    finally:
        gc.unfreeze()


def run_case(case: Case, tmp: Path, slow_cpu: float = SLOW_CPU) -> Outcome:
    """Run `case` in-process in the empty folder `tmp`; returns its failures by kind (KINDS).

    A refusal is `slow` when it costs more than `slow_cpu` CPU-seconds, or loads numba (the
    compiled kernels) when it was not loaded before: an option is checked before any work."""
    for make in case.setup:
        make(tmp)
    before = _tree(tmp)
    args = [a.replace("{tmp}", str(tmp)) for a in case.args]
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(tmp)
    had_numba = "numba" in sys.modules
    processes = children()
    started = time.perf_counter()
    try:
        with _own_cpu() as spent, _faulty_disk(case.fault):
            result = runner.invoke(app, args, input=case.stdin)
            cpu = spent()
    finally:
        seconds = time.perf_counter() - started
        os.chdir(cwd)
    outcome = Outcome(seconds=seconds)
    outcome.cpu = cpu
    error = result.exception
    if isinstance(error, ToolkitError):  # the console script prints it as one line with its code
        code, message = error.exit_code, f"patchwork: error: {error.render()}"
    elif error is not None and not isinstance(error, SystemExit):
        outcome.failures.append("traceback")
        code, message = 1, f"{type(error).__name__}: {error}"
    else:
        code, message = result.exit_code, result.stderr.strip()
    outcome.message = message
    if _orphans(processes):
        outcome.failures.append("orphan")
    after = _tree(tmp)
    if case.code == 0:  # a case that must succeed (e.g. a capped count)
        if code != 0:
            outcome.failures.append("wrong exit")
        if set(after) - set(before) - set(case.creates):
            outcome.failures.append("half-written")
        if any(secret in result.output + message for secret in NEVER_QUOTED):
            outcome.failures.append("unclear")
        return outcome
    for kind in classify(case, code, message, result.stdout, error):
        if kind not in outcome.failures and not (kind == "multi-line" and "traceback" in outcome.failures):
            outcome.failures.append(kind)
    if after != before:
        outcome.failures.append("half-written")
        outcome.message += f" [left: {sorted(set(after.items()) ^ set(before.items()))[:4]}]"
    # a full or read-only disk is met when the files are written, after the work: not a refusal
    if case.fault is None and (cpu > slow_cpu or (not had_numba and "numba" in sys.modules)):
        outcome.failures.append("slow")
        outcome.message += f" [{cpu:.2f} CPU-s{', loaded numba' if not had_numba and 'numba' in sys.modules else ''}]"
    return outcome


CASES = all_cases()
EVERYDAY_SHARE = 10
"""The everyday tier (`-m "not slow"`) runs one case in this many, spread over every command as the
cases are listed; the whole suite (the README's test command, CI) runs them all."""


@contextmanager
def _deadline(seconds: int):
    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("case", [
    pytest.param(case, id=case.name, marks=() if i % EVERYDAY_SHARE == 0 else pytest.mark.slow)
    for i, case in enumerate(CASES)])
def test_hostile_case_is_refused_cleanly(case, tmp_path):
    with _deadline(HANG_SECONDS):
        outcome = run_case(case, tmp_path)
    assert not outcome.failures, (outcome.failures, outcome.message)


@pytest.mark.slow
def test_a_case_is_charged_only_its_own_cpu(tmp_path):
    """A busy thread elsewhere in the process (CI charged one refusal 2.17 CPU-s it did not spend)
    and a collector walking earlier tests' objects are not the case's cost."""
    import threading

    case = next(c for c in CASES if c.name == "validate-start-cards-deep-block")
    kept = [[i] for i in range(500_000)]  # what earlier tests may leave alive for the collector
    stop = threading.Event()
    spinner = threading.Thread(target=lambda: [None for _ in iter(stop.is_set, True)], daemon=True)
    spinner.start()
    try:
        outcome = run_case(case, tmp_path, slow_cpu=0.5)
    finally:
        stop.set()
        spinner.join()
    assert len(kept) == 500_000 and not outcome.failures, (outcome.failures, outcome.message)


def test_the_cases_cover_every_command_and_spec_kind():
    from toolkit.cli.app import app as root
    import typer.main

    commands = set(typer.main.get_command(root).commands)  # type: ignore[attr-defined]
    used = {c.args[0] for c in CASES if c.args}
    assert commands - {"render"} <= used, commands - used
    rendered = {c.args[1] for c in CASES if c.args[:1] == ("render",)}
    assert {"sheet", "pad", "boards", "cards"} <= rendered
    kinds = {name.split("-")[1] for name in (c.name for c in CASES) if name.startswith("validate-")}
    assert {k.split("-")[0] for k in SPEC_KINDS} <= kinds


# ----- usage, help and counts ------------------------------------------------------------------

def _commands() -> list[list[str]]:
    import typer.main

    root = typer.main.get_command(app)
    paths = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        subs = getattr(command, "commands", None)
        paths += [[name, sub] for sub in subs] if subs else [[name]]
    return paths


def test_no_arguments_prints_the_help_and_succeeds():
    for args in ([], ["render"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("Usage: patchwork")


@pytest.mark.slow
def test_usage_errors_are_one_line_with_exit_2():
    for args in (["deal", "--bogus"], ["frobnicate"], ["deal"], ["render", "pad", "--sheets", "x"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), result.stderr


@pytest.mark.slow
def test_help_shows_flags_without_values_defaults_and_whole_lines(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    texts = {" ".join(path): CliRunner().invoke(app, [*path, "--help"]).stdout for path in _commands()}
    for name, text in texts.items():
        assert "<bool>" not in text, name
        assert "Usage: patchwork" in text, name
    # click wraps at blanks and hyphens: the --out help must come out whole, with no word split
    assert "a file in output/ named after the edition, component, options and paper" in " ".join(
        texts["render sheet"].split())
    for name in ("play", "simulate", "balance"):
        assert "Default:" in texts[name], name
    assert "default 1" in texts["deal"] and "default 1" in texts["play"]  # --players
    root = CliRunner().invoke(app, ["--help"]).stdout
    assert "--install-completion" in root and "--show-completion" in root


def test_more_workers_than_cores_are_capped_with_a_note(tmp_path, monkeypatch):
    from toolkit.sim import backends

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["simulate", "classic", "--games", "2", "--no-progress", "--workers", "1000"])
    assert result.exit_code == 0, result.output
    cores = backends.usable_cores()
    assert f"--workers 1000 capped at {cores}" in result.stderr
    assert f"{cores} worker(s)" in result.stdout  # the run reports what it really used
    assert backends.useful_workers(1) == (1, "")


def test_record_and_spec_paths_name_only_spec_files(tmp_path):
    from toolkit.errors import RecordError
    from toolkit import records

    secret = tmp_path / "secret.yaml.txt"
    secret.write_text("kind: edition\nname: TOP-SECRET-CONTENT\n")
    path = tmp_path / "rec.json"
    path.write_text(record(edition={"name": str(secret)}))
    with pytest.raises(RecordError) as caught:
        records.replay(records.read_record(path), base_dir=tmp_path)
    assert "TOP-SECRET" not in caught.value.render()
    assert "not a spec file name" in caught.value.render()
