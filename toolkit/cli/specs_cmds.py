"""`patchwork validate` and `patchwork schema`: check spec files, print the JSON Schema."""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from toolkit.cli.errors import fail
from toolkit.cli.options import output_file, path_text
from toolkit.errors import ToolkitError, UsageError


def register(app: typer.Typer) -> None:
    app.command("validate")(validate)
    app.command("schema")(schema)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # e.g. a name longer than the system allows
        return False


def validate(
    paths: Optional[List[Path]] = typer.Argument(
        None, metavar="PATH", help="Spec files or folders (folders are searched for *.yaml and *.yml). Default: all bundled specs."),
    watch: bool = typer.Option(False, "--watch", help="Keep running: check again whenever one of the files, or a file "
                                                      "they refer to, changes (Ctrl-C stops)."),
) -> None:
    """Validate spec files: every problem as file:line:col: key.path: message.

    A file without `kind:` is checked as the kind its keys say, and the guess is reported."""
    try:
        if watch:
            _watch(paths)
        else:
            _validate(paths)
    except ToolkitError as error:
        fail(error)


def _watch(paths: Optional[List[Path]]) -> None:
    from toolkit.cli.watch import spec_files_of, watch
    from toolkit.specs import bundled_specs_dir

    targets = list(paths) if paths else [bundled_specs_dir()]
    _check_paths(paths, targets)  # a wrong name on the command line is a mistake, not a bad save
    watch(lambda again: _validate(paths), lambda: spec_files_of(targets))


def _check_paths(paths: Optional[List[Path]], targets: List[Path]) -> None:
    from toolkit.fileio import path_kind
    from toolkit.specs.loader import SPEC_SUFFIXES, spec_files

    missing = [str(p) for p in targets if not _exists(p) and path_kind(p) is None]
    if missing:
        from toolkit.errors import shortened

        raise UsageError(f"no such file or folder: {shortened(m if len(m) <= 80 else m[:77] + '...' for m in missing)}")
    # only spec files are read, so no other file's content ever shows up in a message
    named = [str(p) for p in targets if path_kind(p) != "a directory" and not str(p).lower().endswith(SPEC_SUFFIXES)]
    if named:
        raise UsageError(f"not a spec file name (spec files end in .yaml or .yml): {', '.join(named)}")
    if paths:
        # an explicit folder that holds nothing to check is a mistake (wrong folder, wrong
        # extension), not a pass
        empty = [str(p) for p in targets if p.is_dir() and not spec_files([p])]
        if empty:
            raise UsageError(f"no spec files (*.yaml, *.yml) in folder: {', '.join(empty)}")


def _validate(paths: Optional[List[Path]]) -> None:
    from toolkit.specs import bundled_specs_dir, validate_report

    targets = list(paths) if paths else [bundled_specs_dir()]
    _check_paths(paths, targets)
    report = validate_report(targets)
    for problem in report.problems:
        typer.echo(_problem_line(problem))
    summary = (f"{report.files} file(s), {report.editions} edition(s), {report.patches} patch(es) "
               f"checked: {len(report.errors)} error(s), {len(report.warnings)} warning(s)")
    if report.errors:
        typer.echo(summary, err=True)
        raise typer.Exit(1)
    typer.echo(summary)


def _problem_line(problem) -> str:
    """`file:line:col: key.path: message`, the place in bold and a warning in yellow on a terminal."""
    from toolkit.cli.console import BOLD, RED, YELLOW, paint

    place = f"{problem.file}:{problem.line}:{problem.column}:"
    text = str(problem)
    if not text.startswith(place):
        return text
    rest = text[len(place):]
    label = "warning:" if problem.severity == "warning" else ""
    if label and f" {label} " in rest:
        head, _, tail = rest.partition(f" {label} ")
        rest = f"{head} {paint(label, YELLOW)} {tail}"
    return paint(place, BOLD, *(() if label else (RED,))) + rest


def schema(
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", parser=path_text, callback=output_file,
                                     help="Write the schema to this file instead of printing it."),
) -> None:
    """Print the JSON Schema (draft 2020-12) of the spec files, for editors."""
    try:
        _schema(out)
    except ToolkitError as error:
        fail(error)


def _schema(out: Optional[Path]) -> None:
    from toolkit.fileio import atomic_write_text
    from toolkit.specs import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    if out.is_dir():
        raise UsageError(f"--out {out} is a folder; give a file name")
    atomic_write_text(out, text)
    typer.echo(f"wrote {out}")
