"""Shell completion of what the commands take: editions and variants (bundled, and the spec files
in the folder), bot names, patch ids of the edition already on the line, records and the fixed
words of some options.

Each completer is `(ctx, param, incomplete) -> [str]`; toolkit.cli.habits attaches them to the
parameters by their metavar or option name when the app is built. They never raise: a completer
that fails offers nothing.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Callable, Iterable

Completer = Callable[[object, object, str], list]

SPEC_SUFFIXES = (".yaml", ".yml")


def _safe(completer: Completer) -> Completer:
    @functools.wraps(completer)
    def wrapper(ctx, param, incomplete: str) -> list:
        try:
            return completer(ctx, param, incomplete or "")
        except Exception:  # a completion must never print a traceback into the shell
            return []

    return wrapper


def _files(incomplete: str, suffixes: tuple[str, ...]) -> list[str]:
    """Files (and folders, to go on into) whose path starts with `incomplete`."""
    folder, _, stem = incomplete.rpartition("/")
    base = Path(folder) if folder else Path(".")
    if not base.is_dir():
        return []
    out = []
    for child in sorted(base.iterdir()):
        if not child.name.startswith(stem) or (child.name.startswith(".") and not stem.startswith(".")):
            continue
        text = f"{folder}/{child.name}" if folder else child.name
        if child.is_dir():
            out.append(text + "/")
        elif child.name.lower().endswith(suffixes):
            out.append(text)
    return out


def _starting(words: Iterable[str], incomplete: str) -> list[str]:
    return [w for w in words if w.startswith(incomplete)]


@_safe
def editions(ctx, param, incomplete: str) -> list[str]:
    """Bundled editions and variants, and the spec files of the folder."""
    from toolkit.specs.catalogue import list_editions, list_variants

    names = [] if "/" in incomplete else _starting(list_editions() + list_variants(), incomplete)
    return names + _files(incomplete, SPEC_SUFFIXES)


@_safe
def decks(ctx, param, incomplete: str) -> list[str]:
    """What `deck pack` packs: an edition, a spec file or `polyominoes:N`."""
    more = _starting([f"polyominoes:{n}" for n in range(1, 9)], incomplete)
    return editions(ctx, param, incomplete) + more


@_safe
def spec_files(ctx, param, incomplete: str) -> list[str]:
    """Spec files and folders (validate)."""
    return _files(incomplete, SPEC_SUFFIXES)


@_safe
def records(ctx, param, incomplete: str) -> list[str]:
    """Game records (JSON files)."""
    return _files(incomplete, (".json",))


def bot_words(with_human: bool = False) -> list[str]:
    """Every bot as it may be written, over all families (`mcts` and `mcts:200` for a bot that
    takes a budget)."""
    from toolkit.bots.registry import HUMAN, bot_names
    from toolkit.specs.models import Family

    words: list[str] = [HUMAN] if with_human else []
    for family in Family:
        for written in bot_names(family):
            name, _, argument = written.partition(":")
            for word in (name, f"{name}:200" if argument == "N" else None):
                if word and word not in words:
                    words.append(word)
    return words


def _listed(incomplete: str, words: list[str]) -> list[str]:
    """Complete the last item of a comma list (`greedy,mc` -> `greedy,mcts`)."""
    head, comma, last = incomplete.rpartition(",")
    prefix = head + comma
    return [prefix + w for w in words if w.startswith(last)]


@_safe
def bots(ctx, param, incomplete: str) -> list[str]:
    """Bot names; a comma list is completed item by item; `play` also seats `human`."""
    command = getattr(getattr(ctx, "command", None), "name", "")
    return _listed(incomplete, bot_words(with_human=command == "play"))


@_safe
def bot_names(ctx, param, incomplete: str) -> list[str]:
    """One bot per word (ladder)."""
    return _starting(bot_words(), incomplete)


EDITION_PARAMS = ("edition", "variant", "deck", "base")
"""Names of the parameters that say which edition's patches a patch id belongs to."""


def _edition_on_line(ctx) -> str | None:
    params = getattr(ctx, "params", None) or {}
    for name in EDITION_PARAMS:
        value = params.get(name)
        if value:
            return str(value)
    return None


def _patch_ids(ctx) -> list[str]:
    from toolkit.specs import load_edition

    ref = _edition_on_line(ctx)
    if ref is None:
        return []
    edition = load_edition(ref)
    return [patch.id for patch in edition.all_patches()]


@_safe
def patch_ids(ctx, param, incomplete: str) -> list[str]:
    """Ids of the patches of the edition named earlier on the line."""
    return _starting(_patch_ids(ctx), incomplete)


@_safe
def patch_id_list(ctx, param, incomplete: str) -> list[str]:
    """A comma list of patch ids."""
    return _listed(incomplete, _patch_ids(ctx))


def words(*choices: str) -> Completer:
    """A completer of fixed words."""

    @_safe
    def complete(ctx, param, incomplete: str) -> list[str]:
        return _starting(choices, incomplete)

    return complete


# ----- what the shell hands over ---------------------------------------------------------------

SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")
"""The shells `--show-completion` and `--install-completion` write a script for."""
COMPLETE_VAR = "_PATCHWORK_COMPLETE"
"""Set by the completion script when the shell asks for completions (`complete_bash`, ...)."""
MAX_LINE_WORDS = 10_000
"""Most words a command line being completed may hold (COMP_CWORD counts up to it)."""


def _shell_option(args: list[str]) -> tuple[str, str] | None:
    """(option, shell) of `--show-completion SHELL` / `--install-completion SHELL` on the line."""
    for at, word in enumerate(args):
        name, equals, value = word.partition("=")
        if name not in ("--show-completion", "--install-completion"):
            if not word.startswith("-"):
                return None  # a command: the options of `patchwork` itself come before it
            continue
        if equals:
            return name, value
        following = args[at + 1] if at + 1 < len(args) else None
        if following is not None and not following.startswith("-"):
            return name, following
        return None
    return None


def completion_problem(args: list[str], environ) -> str | None:
    """What is wrong with a completion request, or None: a shell name that is not one of SHELLS
    (typer would write a bash script for any word), or completion variables that are not what
    the completion script sets (a COMP_CWORD that is not a word's index). Checked before typer
    reads them, so a bad request is one line, never a traceback or a script for another shell."""
    asked = _shell_option(args)
    if asked is not None and asked[1] not in SHELLS:
        shown = repr(asked[1][:40]) if asked[1] else "an empty name"
        return f"{asked[0]}: {shown} is not a shell this command completes in; expected one of {', '.join(SHELLS)}"
    instruction = environ.get(COMPLETE_VAR)
    if not instruction:
        return None
    action, _, shell = instruction.partition("_")
    if action not in ("source", "complete") or shell not in ("bash", "zsh", "fish", "powershell"):
        return (f"{COMPLETE_VAR} {instruction[:40]!r}: expected source_SHELL or complete_SHELL with SHELL one of "
                "bash, zsh, fish, powershell (what the completion script sets)")
    if action == "complete" and shell == "bash":
        if "COMP_WORDS" not in environ:
            return "COMP_WORDS is not set: the bash completion script sets it to the words of the line"
        cword = environ.get("COMP_CWORD", "")
        if not (cword.isascii() and cword.isdigit() and int(cword) <= MAX_LINE_WORDS):
            return (f"COMP_CWORD {cword[:40]!r}: expected the index of the word being completed, a whole number "
                    f"0..{MAX_LINE_WORDS}")
    return None
