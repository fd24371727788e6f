"""The `patchwork` command: a thin typer app; each command module registers its commands, and a
run builds only the command it runs (_Commands).

Every error a user can cause ends as one line on stderr, `patchwork: error: ...`, and a non-zero
exit code, never a traceback: a ToolkitError with its own code, a command-line mistake (unknown
option, bad value, missing argument) with 2, Ctrl-C with 130. `patchwork` alone, like
`patchwork render` alone, prints the help and exits 0.
"""
from __future__ import annotations

import errno
import gc
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any

import typer
import typer.main
from typer.core import TyperGroup
from typer.models import CommandInfo, TyperInfo

from toolkit.cli import waiting
from toolkit.cli.console import echo_error
from toolkit.cli.errors import (INTERRUPT_EXIT, PROG, USAGE_EXIT, ClickException, ClickUsageError, error_line,
                                usage_message)
from toolkit.errors import Interrupted, ToolkitError


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the flush at exit cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured in a test)
        pass


class _Commands(MutableMapping[str, Any]):
    """The app's commands by name, in the order they were registered (the order of --help), each
    built the first time it is looked up, with its habits (toolkit.cli.habits). A run builds only
    the command it runs, where typer would build all of them first (0.1 CPU-seconds of every run).
    The names alone (listing, `in`, the suggestion for a mistyped command) build nothing."""

    def __init__(self, registry: typer.Typer) -> None:
        self._commands: dict[str, Any] = {}  # name -> what typer registered, then its click command
        infos: list[CommandInfo | TyperInfo] = [*registry.registered_commands, *registry.registered_groups]
        for info in infos:
            assert info.name, "register every command with its name: app.command(NAME), app.add_typer(..., name=NAME)"
            self._commands[info.name] = info

    def __getitem__(self, name: str) -> Any:
        command = self._commands[name]  # a KeyError for a name never registered, as with a dict
        if isinstance(command, (CommandInfo, TyperInfo)):
            from toolkit.cli.habits import apply

            command = _build(command)
            apply(command, (name,))
            self._commands[name] = command
        return command

    def __setitem__(self, name: str, command: Any) -> None:  # click's add_command
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)

    def __contains__(self, name: object) -> bool:
        return name in self._commands


def _build(info: CommandInfo | TyperInfo) -> Any:
    """The click command typer makes of one registered command or group, as it would inside the
    whole app. Only the public typer.main.get_command is called (as toolkit.cli.watch does): on a
    Typer holding just this command it returns the command itself; holding just this group, a
    group around it. The holder has the app's settings that typer passes down to each command."""
    holder = typer.Typer(add_completion=False, rich_markup_mode=app.rich_markup_mode,
                         pretty_exceptions_short=app.pretty_exceptions_short, suggest_commands=app.suggest_commands)
    if isinstance(info, CommandInfo):
        holder.registered_commands.append(info)
        return typer.main.get_command(holder)
    holder.registered_groups.append(info)
    return typer.main.get_command(holder).commands[info.name]  # type: ignore[attr-defined]


class _Group(TyperGroup):
    """typer's group with plain one-line errors instead of its boxed multi-line ones, whose
    commands are built one at a time, when first looked up (see _Commands)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from toolkit.cli.habits import apply

        assert not self.commands, "register commands on _registry (below), not on app"
        apply(self)  # the root's own examples and options; each command gets its own when built
        self.commands = _Commands(_registry)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names alone: typer's own builds every command to list them

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C anywhere in a command: one line and exit 130
            raise Interrupted("interrupted") from None

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        from toolkit.cli import typed

        typed.remember(sys.argv[1:] if args is None else args)
        from toolkit.cli.completion import completion_problem

        problem = completion_problem([str(a) for a in (sys.argv[1:] if args is None else args)], os.environ)
        if problem is not None:  # before typer reads the completion variables or writes a script
            echo_error(error_line(problem))
            sys.exit(USAGE_EXIT)
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except ClickUsageError as error:
            if type(error).__name__ == "NoArgsIsHelpError":  # `patchwork`, `patchwork render`
                typer.echo(error.ctx.get_help())
                sys.exit(0)
            echo_error(error_line(usage_message(error)))
            sys.exit(USAGE_EXIT)
        except ClickException as error:  # e.g. a file argument click could not open
            echo_error(error_line(" ".join(error.format_message().split())))
            sys.exit(error.exit_code)
        except (typer.Abort, KeyboardInterrupt):
            echo_error(error_line("interrupted"))
            sys.exit(INTERRUPT_EXIT)
        except MemoryError:  # the last guard: the options that size memory are bounded before it is taken
            echo_error(error_line("out of memory: the machine (or the process's address-space limit, ulimit -v) "
                                  "cannot hold this run; ask for less (fewer threads, iterations or games per point)"))
            sys.exit(1)
        except OSError as error:  # the terminal or pipe we print to failed (full disk, closed reader)
            _silence_stdout()
            if error.errno != errno.EPIPE:  # a closed reader (`| head`) wants no message
                where = f": {error.filename}" if error.filename else " (while printing the output)"
                echo_error(error_line(f"{error.strerror or error}{where}"))
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name=PROG,
    cls=_Group,
    help="Specs, print kits, rules engines, bots and balance simulation for the Patchwork games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"max_content_width": 100},
)


def version_text() -> str:
    """`patchwork 0.1.0` with the git commit when it is known (see toolkit.source_commit)."""
    from toolkit import __version__, source_commit

    commit = source_commit()
    return f"{PROG} {__version__}" + (f" (commit {commit})" if commit else "")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit(0)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, expose_value=False, callback=_show_version,
                                 help="Print the version (and the git commit when known) and exit."),
) -> None:
    """Specs, print kits, rules engines, bots and balance simulation for the Patchwork games."""
    waiting.watch_compiles()  # any compile of any command says so first (numba is imported only if one runs)


_registry = typer.Typer()
"""The commands as the command modules register them; _Commands builds each one from here."""

# Each module defines register(app), called with the registry. Order = order in --help.
from toolkit.cli import specs_cmds, init_cmd, shape_cmd, render_cmds, game_cmds, sim_cmds, deck_cmds, workbench_cmds, studio_cmd, compile_cmd  # noqa: E402
from toolkit.cli import export_cmd  # noqa: E402

for _module in (specs_cmds, init_cmd, shape_cmd, render_cmds, export_cmd, game_cmds, sim_cmds, workbench_cmds, deck_cmds,
                studio_cmd, compile_cmd):
    _module.register(_registry)


def main() -> None:
    """Console-script entry point."""
    from toolkit.cli import interrupts

    interrupts.install()  # Ctrl-C at any moment, compiles included: one line and 130 (see the module)
    if interrupts.is_console_script():
        # Most of what a command allocates lives as long as it does (modules, numba's types), so
        # the collector runs every 20,000 allocations rather than 700: the default spent 0.25
        # CPU-seconds of a `simulate` start-up in 300 collections that freed next to nothing.
        gc.set_threshold(20_000, 20, 20)
    try:
        app()
    except ToolkitError as error:  # errors raised outside a command body (e.g. option callbacks)
        echo_error(error_line(error.render()))
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        echo_error(error_line("interrupted"))
        sys.exit(INTERRUPT_EXIT)
    finally:
        if interrupts.is_console_script():
            interrupts.finishing()
            # The command is done: what it leaves is freed with the process. Without this the
            # interpreter's last garbage collection walks every object numba and the libraries
            # made, 0.6 CPU-seconds after a `simulate` (atexit handlers and flushing still run).
            gc.freeze()
        else:  # called as a function (a test): the process goes on with its own Ctrl-C
            interrupts.uninstall()
