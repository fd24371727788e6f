"""Every command of every guide page runs as the page writes it: the README, then docs/*.md, each
page in a fresh folder of its own and its commands in order, as a newcomer who opens that page
types them; a page that uses a file another page makes (the variant `init variant` writes, a
theme) first gets the commands that page names for it (PREREQUISITES). A page that shows a
command's output beside it (the lines after the command in its code block) gets that output.

A command fails the test when it exits non-zero, prints a traceback, or prints other than what its
page shows. A few things a test cannot do are left out and said so (SKIPPED), and long statistical
runs get a cap (CAPPED): they are checked for running here, and their answers at the defaults by
the audits in benchmarks/. A `--workers N` runs one worker here (WORKERS_CAP): the output is the
same bytes for any count.
"""
from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolkit.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

SKIPPED = {
    "--install-completion": "changes the shell's start-up file",
    "--scheduler": "needs a Dask cluster",
    "studio": "serves until stopped (tests/test_studio_*.py run it)",
    "compile": "the test command runs it before the tests (tests/test_jit_cache.py checks it)",
}
"""A word in a command that leaves it out of the run, and why."""

SEQUENTIAL = ("balance", "price")
"""Commands that play until their answer is decided (minutes): capped at MAX_GAMES."""
MAX_GAMES = 20
GAMES_CAP = 10
"""A `--games N` (or `--final-games`, `--search-games`) above this plays this many here (even).
A capped command is checked for running, not for its answer: ten games
run every step a thousand do."""
BUDGET_CAP = 4
"""`tune --budget N` evaluates at most this many points here."""
DEFAULTS_CAPPED = {("deck", "check"): ["--games", "10", "--search-games", "4", "--rounds", "1"],
                   ("price",): ["--search-games", "4"], ("ladder",): ["--games", "10"],
                   ("feel",): ["--games", "10"], ("tune",): ["--games", "10", "--final-games", "10"],
                   ("sweep",): ["--games", "10"]}
"""Commands whose default counts play for long, and the counts they play here (unless given)."""
PAGE_ORDER = ("design.md", "play.md", "balance.md", "decks.md", "print.md", "print-shops.md", "studio.md")
"""The order the pages run in (each in its own folder); the rest follow in the index's order."""
PREREQUISITES = {
    "balance.md": ["patchwork init variant my-variant --with-patch"],
    "print.md": ["patchwork init variant my-variant", "patchwork init deck my-deck --from classic"],
    "print-shops.md": ["patchwork init deck my-deck --from classic"],
}
"""The files a page uses that another page makes, as the commands that make them."""
PREREQUISITES["virtual-table.md"] = ["patchwork init deck my-deck --from doodle", "patchwork render theme --out my-look.yaml"]
KNOWN_BROKEN: dict[tuple[str, str], str] = {}
"""Guide commands that fail for a reason of their page's own, still to be mended there: reported
each run, not failed on, so the rest of the guide stays checked meanwhile. Keep this short."""
FLAG_WATCH = ("validate", "render", "build")
"""Commands whose `--watch` waits for edits for ever (tune's --watch names a patch, and stays)."""
WORKERS_CAP = 1
"""`--workers N` runs with this many here: each worker process loads the compiled rules anew (some
seconds of CPU a worker, most of a capped command's cost). The output is the same bytes for any
worker count (tests/test_sim_shards.py and tests/test_cli_sim.py check that), so a capped worker
count alone still has its shown output compared."""
SEARCH_CAP = {"mcts": 10}
"""Search bots think less here: `mcts:200` plays as `mcts:10`."""
RUN_ONCE = {"patchwork render challenge --seed 2024 --count 7":
            "reads nothing but the bundled Doodle edition: a second run plays the same seven pars again"}
"""Commands a page repeats word for word (a later section recalls them) that run once per page: the
first run's result stands for the repeat (its shown output is still compared), and why."""


@dataclass
class Command:
    page: str
    line: int
    text: str
    expected: list[str] = field(default_factory=list)
    """The output the page shows under the command, if any."""


def _code_blocks(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, lines) of each fenced or indented code block."""
    blocks: list[tuple[int, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            start, i = i + 1, i + 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            blocks.append((start + 1, lines[start:i]))
        elif line.startswith("    ") and (i == 0 or not lines[i - 1].strip()) and not line.lstrip().startswith(("-", "*")):
            start = i
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                i += 1
            block = [ln[4:] for ln in lines[start:i]]
            while block and not block[-1].strip():
                block.pop()
            blocks.append((start + 1, block))
            continue
        i += 1
    return blocks


def page_commands(path: Path) -> list[Command]:
    """The `patchwork ...` commands of a page's code blocks, in order, with a trailing `# comment`
    dropped, `\\` continuations joined, and the lines after a command that are not commands taken as
    the output the page shows for it. In a set-up line, only the `.venv/bin/patchwork ...` parts."""
    commands: list[Command] = []
    for start, block in _code_blocks(path.read_text()):
        current: Command | None = None
        pending = ""
        for offset, raw in enumerate(block):
            line = pending + " ".join(raw.split(" #")[0].split()) if not raw.lstrip().startswith("#") else ""
            if line.endswith("\\"):
                pending = line[:-1].rstrip() + " "
                continue
            pending = ""
            parts = [p.strip() for p in line.split("&&")]
            found = []
            for part in parts:
                if part.startswith(".venv/bin/patchwork "):
                    part = part[len(".venv/bin/"):]
                if part.startswith("patchwork "):
                    found.append(part)
            if found:
                for text in found:
                    current = Command(path.name, start + offset, text)
                    commands.append(current)
            elif current is not None and raw.strip() and not raw.lstrip().startswith(("#", "$", "python", "source")):
                current.expected.append(raw.rstrip())
            elif not raw.strip():
                current = None
    return commands


def guide_pages() -> list[Path]:
    """README, then the pages docs/index.md links to, in its order (then any page it does not)."""
    index = (DOCS / "index.md").read_text()
    linked = [DOCS / name for name in PAGE_ORDER if (DOCS / name).is_file()]
    for name in re.findall(r"\]\(([a-z-]+\.md)\)", index):
        if (DOCS / name).is_file() and DOCS / name not in linked:
            linked.append(DOCS / name)
    rest = [p for p in sorted(DOCS.glob("*.md")) if p not in linked and p.name != "index.md"]
    return [ROOT / "README.md", DOCS / "index.md", *linked, *rest]


def skip_reason(words: list[str]) -> str | None:
    if words[:1] == ["studio"] and "--help" in words:
        return None
    return next((why for word, why in SKIPPED.items() if word in words), None)


def capped(words: list[str]) -> tuple[list[str], bool]:
    """The words to run and whether a cap or a dropped option changed them."""
    out: list[str] = []
    changed = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--watch" and words[0] in FLAG_WATCH:
            changed = True  # it would wait for edits for ever; the command runs once without it
        elif word in ("--games", "--final-games", "--search-games") and i + 1 < len(words) \
                and words[i + 1].isdigit() and int(words[i + 1]) > GAMES_CAP:
            out += [word, str(GAMES_CAP)]
            changed = True
            i += 1
        elif word == "--workers" and i + 1 < len(words) and words[i + 1].isdigit() \
                and int(words[i + 1]) > WORKERS_CAP:
            out += [word, str(WORKERS_CAP)]  # same output: not counted as a change
            i += 1
        elif word == "--budget" and i + 1 < len(words) and words[i + 1].isdigit() and int(words[i + 1]) > BUDGET_CAP:
            out += [word, str(BUDGET_CAP)]
            changed = True
            i += 1
        else:
            bots = re.sub(r"mcts:(\d+)", lambda m: f"mcts:{min(int(m.group(1)), SEARCH_CAP['mcts'])}", word)
            changed |= bots != word
            out.append(bots)
        i += 1
    if out and out[0] in SEQUENTIAL and not {"--games", "--max-games"} & set(out):
        out += ["--max-games", str(MAX_GAMES)]
        changed = True
    extra = DEFAULTS_CAPPED.get(tuple(out[:2]), DEFAULTS_CAPPED.get(tuple(out[:1]), []))
    for option, value in zip(extra[::2], extra[1::2]):
        if option not in out:
            out += [option, value]
            changed = True
    return out, changed


def _same(shown: list[str], printed: str) -> bool:
    """The page's lines appear in the output in order (spaces compared loosely; `...` on a line of
    its own stands for lines the page leaves out)."""
    got = [" ".join(line.split()) for line in printed.splitlines()]
    at = 0
    for line in shown:
        want = " ".join(line.split())
        if want == "...":
            continue
        while at < len(got) and got[at] != want:
            at += 1
        if at == len(got):
            return False
        at += 1
    return True


def test_the_parser_finds_commands_continuations_and_shown_output(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n    patchwork shape '##'   # a comment\n    shape: 2 cells\n\n"
                    "```\npatchwork balance classic \\\n  six-buttons\n```\n\n"
                    "    python3 -m venv .venv && .venv/bin/patchwork compile\n")
    found = page_commands(page)
    assert [(c.text, c.expected) for c in found] == [
        ("patchwork shape '##'", ["shape: 2 cells"]),
        ("patchwork balance classic six-buttons", []),
        ("patchwork compile", []),
    ]
    assert capped(["balance", "classic", "x.yaml"])[0][-2:] == ["--max-games", str(MAX_GAMES)]
    assert capped(["simulate", "classic", "--games", "2000", "--bots", "greedy,mcts:200"])[0] == \
        ["simulate", "classic", "--games", str(GAMES_CAP), "--bots", f"greedy,mcts:{SEARCH_CAP['mcts']}"]
    assert capped(["tune", "classic", "--watch", "P05"])[0][2:4] == ["--watch", "P05"]
    assert capped(["validate", "x.yaml", "--watch"])[0] == ["validate", "x.yaml"]
    assert capped(["balance", "classic", "x.yaml", "--workers", "2", "--games", "8"]) == \
        (["balance", "classic", "x.yaml", "--workers", str(WORKERS_CAP), "--games", "8"], False)
    assert _same(["a  b", "...", "d"], "x\na b\nc\nd\n") and not _same(["d", "a b"], "a b\nd\n")


def test_every_page_has_commands_and_none_is_left_out_unsaid():
    pages = guide_pages()
    assert [p.name for p in pages[:2]] == ["README.md", "index.md"]
    counts = {p.name: len(page_commands(p)) for p in pages}
    for name in ("README.md", "play.md", "design.md", "balance.md", "decks.md", "print.md"):
        assert counts[name] >= 5, counts


@pytest.mark.slow
@pytest.mark.parametrize("page", guide_pages(), ids=lambda page: page.name)
def test_every_guide_command_runs_as_written_in_a_fresh_folder(page, tmp_path, monkeypatch):
    """One page at a time (each in its fresh folder, after what it takes from other pages), so
    the test suite's workers share the pages."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()
    failures, timings, skipped = [], [], []
    results = {}
    for page in [page]:
        folder = tmp_path / page.stem
        folder.mkdir()
        monkeypatch.chdir(folder)
        setup = [Command(f"{page.name} (made on another page)", 0, text) for text in PREREQUISITES.get(page.name, [])]
        for command in setup + page_commands(page):
            words = shlex.split(command.text)[1:]
            why = skip_reason(words)
            if why:
                skipped.append(f"{command.page}:{command.line}: {command.text} ({why})")
                continue
            run, changed = capped(words)
            started = time.perf_counter()
            if command.text in RUN_ONCE and command.text in results:
                result = results[command.text]
            else:
                result = results[command.text] = runner.invoke(app, run, input="quit\nq\n")
            where = f"{command.page}:{command.line}: {command.text}"
            timings.append((time.perf_counter() - started, where))
            known = KNOWN_BROKEN.get((page.name, command.text))
            if known and (result.exit_code != 0 or "Traceback" in result.output):
                skipped.append(f"{where} (fails, known: {known})")
            elif result.exit_code != 0 or "Traceback" in result.output:
                detail = (result.stderr or result.output or repr(result.exception)).strip().splitlines()[-3:]
                failures.append(f"{where}\n    exit {result.exit_code}: " + "\n    ".join(detail))
            elif command.expected and not changed and not _same(command.expected, result.output):
                failures.append(f"{where}\n    the page shows:\n      " + "\n      ".join(command.expected) +
                                "\n    it printed:\n      " + "\n      ".join(result.output.splitlines()[:20]))
    slowest = "\n".join(f"  {s:6.1f} s  {what}" for s, what in sorted(timings, reverse=True)[:8])
    print(f"{len(timings)} commands run, {len(skipped)} left out:\n  " + "\n  ".join(skipped) + f"\nslowest:\n{slowest}")
    assert not failures, f"{len(failures)} of {len(timings)} guide commands fail:\n" + "\n".join(failures)
