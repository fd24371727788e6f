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
