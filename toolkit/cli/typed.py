"""The command line as it was typed, kept with the results a command saves.

A results document carries two commands: `command`, rebuilt from the options with every default
spelled out (it replays the run whatever the defaults of a later version), and `typed`, the words
the user typed, in their order and spelling. Execution options (`--workers`, `--scheduler`,
`--out`, `--json`, `--progress`, `--force`) are left out of both: they never change a figure, and
leaving them out keeps the files byte-identical whichever machine or worker count made them.
"""
from __future__ import annotations

import shlex
from collections.abc import Sequence

EXECUTION_OPTIONS = {"--workers": True, "--scheduler": True, "--out": True, "--json": False, "--progress": False,
                     "--no-progress": False, "--force": False}
"""Options that say how a run is executed, not what it computes; True when the option takes a value."""
LEFT_OUT = "execution options (" + ", ".join(o for o in EXECUTION_OPTIONS if o != "--no-progress") + ") left out"

_typed: list[str] | None = None


def remember(args: Sequence[str]) -> None:
    """Called once by the command line with the arguments after `patchwork`."""
    global _typed
    _typed = [str(a) for a in args]


def typed_command() -> str | None:
    """`patchwork ...` as typed, without the execution options; None outside the command line."""
    if _typed is None:
        return None
    kept: list[str] = []
    words = iter(_typed)
    for word in words:
        name = word.split("=", 1)[0]
        if name in EXECUTION_OPTIONS:
            if EXECUTION_OPTIONS[name] and "=" not in word:
                next(words, None)
            continue
        kept.append(word)
    return shlex.join(["patchwork", *kept])


def add_typed(doc: dict) -> dict:
    """Put `typed` right after `command` in a results document (in place; returns it)."""
    typed = typed_command()
    if typed is None or "command" not in doc:
        return doc
    items = [(k, v) for k, v in doc.items() if k != "typed"]
    doc.clear()
    for key, value in items:
        doc[key] = value
        if key == "command":
            doc["typed"] = typed
    return doc
