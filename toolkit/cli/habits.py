"""What every command gets once the app is built, written once instead of in each command module:
examples at the end of its --help, plain metavars (`EDITION`, `FILE`, `N`, `BOTS`) instead of
Python types, shell completion of editions, spec files, bots and patch ids, bold help headings
on a terminal, and `--watch` where a command reads specs (toolkit.cli.watch). A `--help`, or a
refusal made before any option's value is read, never imports pydantic (typer converts values
through it).

`apply` runs on each command as the app builds it (toolkit.cli.app._Commands: the root group, then
each command the first time it is looked up), so `--help`, completion, the tests and the generated
command reference all see the same commands.
typer prints an argument's Python type (`<list[Path]>`) whatever its metavar, so each parameter
and command gets, as its own, the few methods (of the _Plain* classes below) that print the plain
forms; the click objects keep their classes.
"""
from __future__ import annotations

from types import MethodType
from typing import Any, Callable, Iterator

from toolkit.cli import completion
from toolkit.cli.console import BOLD, colour_enabled, paint
from toolkit.cli.examples import EXAMPLES

OPTION_METAVARS: dict[str, str] = {
    "--seed": "N", "--games": "N", "--max-games": "N", "--players": "N", "--workers": "N", "--sheets": "N", "--count": "N",
    "--dpi": "N", "--page": "N", "--folds": "K", "--top": "N", "--search-games": "N", "--min-buys": "N",
    "--rounds": "N", "--per-round": "N", "--limit": "N", "--max-nodes": "N", "--port": "PORT",
    "--automa-level": "LEVEL", "--automa-deck": "DECK", "--bots": "BOTS", "--scheduler": "tcp://HOST:PORT",
    "--values": "VALUES", "--over": "cost|time|income", "--set": "KEY=VALUES", "--sprt": "FIGURE",
    "--sprt-delta": "X", "--sprt-alpha": "P", "--sprt-beta": "P", "--width": "X", "--band": "X",
    "--edition": "EDITION", "--base": "EDITION", "--like": "EDITION", "--from": "EDITION", "--deck": "EDITION",
    "--margin": "LENGTH", "--gutter": "LENGTH", "--layout": "sheet|single", "--card-size": "SIZE",
    "--sizes": "A..B", "--mode": "replace|extend", "--patches": "IDS", "--host": "ADDRESS",
    "--interval": "SECONDS",
}
"""Metavar of each option that takes a value, by its long name."""

TYPE_METAVARS = {"integer": "N", "integer range": "N", "float": "X", "float range": "X", "path": "FILE"}
"""Fallback by click type name for an option the table does not name."""

ARGUMENT_METAVARS = {"bots": "BOTS", "patch": "PATCH", "paths": "PATH", "kind": "KIND"}

COMPLETERS: dict[str, Callable] = {
    "EDITION": completion.editions, "BASE": completion.editions, "VARIANT": completion.editions,
    "DECK": completion.decks, "PATH": completion.spec_files, "RECORD": completion.records,
    "PATCH": completion.patch_ids, "IDS": completion.patch_id_list, "BOTS": completion.bots,
    "PAPER": completion.words("a4", "letter", "a5"), "pdf|svg|png": completion.words("pdf", "svg", "png"),
    "cost|time|income": completion.words("cost", "time", "income"),
    "FIGURE": completion.words("seat-win", "score", "margin"),
    "sheet|single": completion.words("sheet", "single"), "SIZE": completion.words("poker", "bridge", "mini", "tarot"),
    "long|short": completion.words("long", "short"), "replace|extend": completion.words("replace", "extend"),
    "KIND": completion.words("variant", "deck", "edition"),
}
"""Completer by metavar (after the plain metavars are set)."""

COMPLETER_BY_OPTION = {"--automa-deck": completion.words("normal", "tactical")}
COMPLETER_BY_PATH = {("ladder", "bots"): completion.bot_names}
"""Where the metavar alone does not say: (command path, parameter name) -> completer."""


def commands(root: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command under `root` with its path (`()` for the root, `("render", "pad")`)."""
    yield path, root
    for name, command in sorted(getattr(root, "commands", {}).items()):
        yield from commands(command, path + (name,))


def apply(root: Any, at: tuple[str, ...] = ()) -> None:
    """Give `root` (the command at path `at`) and every command under it its examples, plain
    metavars, completion and help headings."""
    from toolkit.cli import watch

    for path, command in commands(root, at):
        key = " ".join(path)
        _override(command, _PlainCommand)
        command.context_class = _context_class(command.context_class)
        command.patchwork_examples = EXAMPLES.get(key, ())
        command.epilog = "\n".join(command.patchwork_examples) or None
        watch.attach(key, command)
        for param in command.params:
            _plain_param(key, param)


# ----- parameters ---------------------------------------------------------------------------------

def _plain_param(path: str, param: Any) -> None:
    kind = getattr(param, "param_type_name", "")
    if kind == "argument":
        _override(param, _PlainArgument)
        if param.metavar is None:
            param.metavar = ARGUMENT_METAVARS.get(param.name, param.name.upper())
    elif kind == "option":
        _override(param, _PlainOption)
        if param.metavar is None and not getattr(param, "is_flag", False) and not getattr(param, "count", False):
            long = next((o for o in param.opts if o.startswith("--")), param.opts[0])
            type_name = getattr(getattr(param, "type", None), "name", "")
            param.metavar = OPTION_METAVARS.get(long) or TYPE_METAVARS.get(type_name) or long.lstrip("-").upper()
    else:
        return
    if getattr(param, "_custom_shell_complete", None) is None:
        long = next((o for o in getattr(param, "opts", ()) if o.startswith("--")), "")
        completer = (COMPLETER_BY_PATH.get((path, param.name)) or COMPLETER_BY_OPTION.get(long)
                     or COMPLETERS.get(param.metavar or ""))
        if completer is not None:
            param._custom_shell_complete = completer


def plain_range(low: Any, high: Any) -> str | None:
    """A number range as people write it: `1..100`, `at least 1`, `at most 5`."""
    if low is None and high is None:
        return None
    if low is None:
        return f"at most {high}"
    if high is None:
        return f"at least {low}"
    return f"{low}..{high}"


class _PlainParam:
    def _get_number_range_help_str(self) -> str | None:
        return plain_range(getattr(self, "min", None), getattr(self, "max", None))


class _PlainArgument(_PlainParam):
    """An argument shown as `EDITION` (optional: `[EDITION]`, several: `BOTS...`), never with its
    Python type."""

    def display_type_rich(self, ctx: Any) -> None:
        return None

    def display_type(self, ctx: Any) -> str:
        return ""

    def _display(self) -> str:
        return self.metavar or self.name.upper()

    def _rich_display_name(self) -> str:
        return self._display() + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        name = self._display()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def make_metavar(self, ctx: Any = None) -> str:
        return self._usage_display_name()


class _PlainOption(_PlainParam):
    """An option whose value is named by its metavar (`--seed N`), never by a Python type."""


# ----- commands and help --------------------------------------------------------------------------

_CALLBACK_FLAGS = ("help", "install_completion", "show_completion")
"""click's --help and typer's completion flags: each only calls back, and does nothing unless set."""


class _PlainCommand:
    """A command whose help ends with its examples, under an `Examples` heading, and whose
    --help and completion flags, when not given, read False instead of None."""

    def get_params(self, ctx: Any) -> list:
        # typer converts a flag's None through pydantic, whose import is 0.1-0.2 CPU-seconds, most
        # of a `--help` or a refusal; a flag's False it lets through as it is. These flags' callbacks
        # do nothing for either. A command whose own options are read still imports it.
        params = type(self).get_params(self, ctx)
        for param in params:
            if param.name in _CALLBACK_FLAGS and param.default is None:
                param.default = False
        return params

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        examples = getattr(self, "patchwork_examples", ())
        if not examples:
            return
        with formatter.section("Examples"):
            for line in examples:
                formatter.write_text(f"\b\n{line}")


def _override(obj: Any, plain: type) -> None:
    """Give `obj` the methods of `plain` (and of its bases) as its own. They are set on the object,
    not by changing its class: click's classes may not take another class's layout."""
    for cls in reversed(plain.__mro__[:-1]):
        for name, value in vars(cls).items():
            if callable(value) and not name.startswith("__"):
                setattr(obj, name, MethodType(value, obj))


_CLASSES: dict[tuple[type, object], type] = {}


def _context_class(cls: type) -> type:
    """The command's context class, making help formatters that print headings in bold on a
    terminal (click strips styles from help sent to a pipe; NO_COLOR turns them off here)."""
    if getattr(cls, "patchwork_plain", False):
        return cls
    key = (cls, _context_class)
    if key not in _CLASSES:
        base_formatter = cls.formatter_class

        class Formatter(base_formatter):  # type: ignore[misc, valid-type]
            def write_heading(self, heading: str) -> None:
                self.write(f"{'':>{self.current_indent}}{paint(heading + ':', BOLD)}\n")

            def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
                if prefix is None and colour_enabled():
                    prefix = paint("Usage:", BOLD) + " "  # click measures it without the codes
                super().write_usage(prog, args, prefix)

        _CLASSES[key] = type(f"Plain{cls.__name__}", (cls,), {"formatter_class": Formatter, "patchwork_plain": True})
    return _CLASSES[key]
