"""The type checker over the library: mypy, normal mode with `check_untyped_defs` (the settings are
pyproject.toml's [tool.mypy]), over all of toolkit/.

Checked here: every layer below the command line, that is toolkit/ except toolkit/cli/ and
toolkit/studio/ (the two front ends, which parse options and requests and call the same library
functions; they are checked too, but their errors do not fail this test). A type error in those
layers fails the test, naming file, line and message.

Errors that were there when the check was introduced are listed, as a count per file, in
tests/mypy_known_errors.txt; the test fails when a file has more errors than listed there (or any
error in a file not listed), so no new one gets in, and the list only shrinks: fix a file's
errors and lower (or remove) its line. Zero lines is the goal.

The cache is .mypy_cache/ at the top of the checkout (git-ignored): cold, a run takes about
35 CPU-seconds here; warm, with few files changed, a few seconds.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent
KNOWN = Path(__file__).with_name("mypy_known_errors.txt")
FRONT_ENDS = ("toolkit/cli/", "toolkit/studio/")
"""Checked but not held to: the command line and the browser studio."""
ERROR = re.compile(r"^(toolkit/[^:]+\.py):(\d+)(?::\d+)?: error: (.*)$")


def mypy_errors() -> list[tuple[str, int, str]]:
    """(file, line, message) of each error mypy finds with the project's settings."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache"),
                           "--no-color-output", "--no-error-summary"],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    errors = [(m.group(1), int(m.group(2)), m.group(3)) for m in map(ERROR.match, done.stdout.splitlines()) if m]
    # exit 1 means "type errors found"; anything else (2: bad config or a crash) is a failure of the check itself
    assert done.returncode in (0, 1) and (done.returncode == 0) == (not errors), done.stdout[-2000:] + done.stderr[-2000:]
    return errors


def known_counts() -> dict[str, int]:
    counts = {}
    for number, line in enumerate(KNOWN.read_text().splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            count, path = line.split()
            assert path not in counts, f"{KNOWN.name}:{number}: {path} listed twice"
            counts[path] = int(count)
    return counts


@pytest.mark.slow
def test_no_new_type_errors_below_the_command_line():
    errors = [e for e in mypy_errors() if not e[0].startswith(FRONT_ENDS)]
    found = Counter(path for path, _, _ in errors)
    known = known_counts()
    over = {path: n for path, n in found.items() if n > known.get(path, 0)}
    lines = [f"{path}:{line}: {message}" for path, line, message in errors if path in over]
    assert not over, (f"type errors beyond {KNOWN.name} in {len(over)} file(s) "
                      f"({', '.join(f'{p}: {n} > {known.get(p, 0)}' for p, n in sorted(over.items()))}):\n"
                      + "\n".join(lines))


def test_known_errors_list_only_checked_files():
    """The list names files of the checked layers that exist, once each, with a positive count."""
    for path, count in known_counts().items():
        assert (ROOT / path).is_file() and path.startswith("toolkit/") and not path.startswith(FRONT_ENDS), path
        assert count > 0, path


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
