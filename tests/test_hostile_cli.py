"""Hostile input against every command and every spec kind, run in-process.

Each case prepares a scratch folder (FIFOs, device nodes, symlink loops, nested and oversized
files, records naming files outside the specs), runs one `patchwork` command in it and checks
the outcome: no traceback, a non-zero exit code (2 for usage errors), one clear error line,
nothing left behind (no new or half-written files, no special file replaced), and an answer
in well under a second. `benchmarks/bench_hostile.py` runs the same cases, each in a forked
child, and counts failures by kind, including crashes and hangs that would take the test run
down with them.
"""
from __future__ import annotations

import errno
import json
import os
import re
import signal
import stat
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


@dataclass
class Outcome:
    """What a case did, and which kinds of failure it showed."""

    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    message: str = ""


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


def text(name: str, body: str | bytes) -> Setup:
    def make(tmp: Path) -> None:
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body)
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
        "spec-patches-passwd": embedded(patches="/etc/passwd"),
        "spec-extends-passwd": embedded(kind="variant", extends="/etc/passwd"),
        "spec-track-path": embedded(time_track="../../../../etc/hosts.yaml"),
        "spec-board-huge": embedded(board={"width": 10**9, "height": 10**9}),
        "spec-deep": embedded(name=json.loads("[" * 60 + "]" * 60)),
        "spec-shape-huge": embedded(patches=[{"id": "P1", "shape": "#" * 100_000}]),
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
        Case("deck-generate-variant-enospc", (*generate, "--variant", "v.yaml"), fault="ENOSPC"),
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


def all_cases() -> list[Case]:
    return spec_cases() + read_cases() + record_cases() + write_cases() + usage_cases()


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


def run_case(case: Case, tmp: Path) -> Outcome:
    """Run `case` in-process in the empty folder `tmp`; returns its failures by kind."""
    for make in case.setup:
        make(tmp)
    before = _tree(tmp)
    args = [a.replace("{tmp}", str(tmp)) for a in case.args]
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(tmp)
    started = time.perf_counter()
    try:
        with _faulty_disk(case.fault):
            result = runner.invoke(app, args)
    finally:
        seconds = time.perf_counter() - started
        os.chdir(cwd)
    outcome = Outcome(seconds=seconds)
    error = result.exception
    if isinstance(error, ToolkitError):  # the console script prints it as one line with its code
        code, message = error.exit_code, f"patchwork: error: {error.render()}"
    elif error is not None and not isinstance(error, SystemExit):
        outcome.failures.append("traceback")
        code, message = 1, f"{type(error).__name__}: {error}"
    else:
        code, message = result.exit_code, result.stderr.strip()
    outcome.message = message
    if case.code == 0:  # a case that must succeed (e.g. a capped count)
        if code != 0:
            outcome.failures.append("wrong exit code")
        after = _tree(tmp)
        if set(after) - set(before) - set(case.creates):
            outcome.failures.append("half-written output")
        return outcome
    if code == 0 or (case.code is not None and code != case.code):
        outcome.failures.append("wrong exit code")
    # validate prints every problem on stdout and its summary on stderr; a SpecError lists them all
    lines = message.splitlines()
    spans_lines = isinstance(error, SpecError) or all(_PROBLEM.match(line) for line in lines[1:])
    if case.args[:1] == ("validate",) and code == 1 and not isinstance(error, ToolkitError):
        listed = [line for line in result.stdout.splitlines() if re.match(r"^.+:\d+:\d+: ", line)]
        lines = ["patchwork: error: " + listed[0]] if listed and len(message.splitlines()) == 1 else ["(no problem)"]
    if not lines or not lines[0].startswith("patchwork: error: ") or (len(lines) > 1 and not spans_lines):
        if "traceback" not in outcome.failures:
            outcome.failures.append("not one error line")
    after = _tree(tmp)
    if after != before:
        outcome.failures.append("half-written output")
        outcome.message += f" [left: {sorted(set(after.items()) ^ set(before.items()))[:4]}]"
    return outcome


CASES = all_cases()


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


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case_is_refused_cleanly(case, tmp_path):
    with _deadline(HANG_SECONDS):
        outcome = run_case(case, tmp_path)
    assert not outcome.failures, (outcome.failures, outcome.message)


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


def test_usage_errors_are_one_line_with_exit_2():
    for args in (["deal", "--bogus"], ["frobnicate"], ["deal"], ["render", "pad", "--sheets", "x"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2, args
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("patchwork: error: "), result.stderr


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
