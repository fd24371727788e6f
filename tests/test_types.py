"""The type checker over the library: mypy, normal mode with `check_untyped_defs` (the settings are
pyproject.toml's [tool.mypy]), over all of toolkit/.

Held to no error at all: every layer below the command line, that is toolkit/ except toolkit/cli/
and toolkit/studio/ (the two front ends, which parse options and requests and call the same
library functions; they are checked too, but their errors do not fail this test). A type error in
those layers fails the test, naming file, line and message.

Where a library's type information is wrong or missing, the fix is narrow and says why: numba's
settings and `intrinsic` are typed once in toolkit/jit.py; a `# type: ignore` names its error
codes (warn_unused_ignores drops it once it is no longer needed); no toolkit module is excused as a
whole (no `ignore_errors` override, no file-wide `# mypy: ignore-errors`).

The cache is .mypy_cache/ at the top of the checkout (git-ignored): cold, a run takes about
35 CPU-seconds here; warm, with few files changed, a few seconds.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent
FRONT_ENDS = ("toolkit/cli/", "toolkit/studio/")
"""Checked but not held to: the command line and the browser studio."""
ERROR = re.compile(r"^(toolkit/[^:]+\.py):(\d+)(?::\d+)?: error: (.*)$")
IGNORE = re.compile(r"#\s*type:\s*ignore(?!\[[a-z-]+(?:,\s*[a-z-]+)*\])")
"""A `# type: ignore` that names no error code (it would silence any error on its line)."""
FILE_WIDE = re.compile(r"^#\s*mypy:.*\bignore-errors\b", re.M)
"""An inline setting that excuses the whole module."""


def mypy_errors() -> list[tuple[str, int, str]]:
    """(file, line, message) of each error mypy finds with the project's settings."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache"),
                           "--no-color-output", "--no-error-summary"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    errors = [(m.group(1), int(m.group(2)), m.group(3)) for m in map(ERROR.match, done.stdout.splitlines()) if m]
    # exit 1 means "type errors found"; anything else (2: bad config or a crash) is a failure of the check itself
    assert done.returncode in (0, 1) and (done.returncode == 0) == (not errors), done.stdout[-2000:] + done.stderr[-2000:]
    return errors


@pytest.mark.slow
def test_no_type_errors_below_the_command_line():
    errors = [e for e in mypy_errors() if not e[0].startswith(FRONT_ENDS)]
    assert not errors, (f"{len(errors)} type error(s) below the command line:\n"
                        + "\n".join(f"{path}:{line}: {message}" for path, line, message in errors))


def test_no_module_below_the_command_line_is_excused():
    """The check cannot be passed by switching it off: pyproject.toml excuses no toolkit module
    (`ignore_errors`, `follow_imports = skip`), no module opts out as a whole, and each
    `# type: ignore` names the error codes it silences."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    for override in config.get("overrides", []):
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        ours = [m for m in modules if m == "toolkit" or m.startswith("toolkit.")]
        assert not ours or not (override.get("ignore_errors") or override.get("follow_imports") in ("skip", "silent")), ours
    found = []
    for path in sorted((ROOT / "toolkit").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith(FRONT_ENDS):
            continue
        text = path.read_text(encoding="utf-8")
        if FILE_WIDE.search(text):
            found.append(f"{name}: excused as a whole")
        found += [f"{name}:{number}: a `# type: ignore` without error codes"
                  for number, line in enumerate(text.splitlines(), 1) if IGNORE.search(line)]
    assert not found, "\n".join(found)


@pytest.mark.slow
def test_every_game_and_bot_declares_its_protocol():
    """What the checker cannot see (bots are built by name from the registry): every registered bot,
    built for an edition of its family, and every engine's game have each member of their protocol,
    and the hint bots answer `hint` (toolkit.bots.base.Hinter)."""
    from toolkit.bots.base import Bot, Hinter
    from toolkit.bots.registry import bot_for, bot_names, build_bot
    from toolkit.families import all_families
    from toolkit.games.base import Game
    from toolkit.specs import load_edition

    for family in all_families():
        edition = load_edition("anniversary" if family.info.has_solo_opponent else family.info.default_edition)
        game = family.new_game(edition, 1)
        assert isinstance(game, Game) and isinstance(game.copy(), Game), edition.name
        assert isinstance(game.seat_name(0), str) and isinstance(game.notation_help, str)
        for name in bot_names(edition.family):
            bot = build_bot(bot_for(name.replace(":N", ":10"), edition), edition)
            assert isinstance(bot, Bot), (family.info.name, name)
            assert bot.seat is None or 0 <= bot.seat < game.players
        assert isinstance(family.hinter(edition), Hinter), family.info.name
