"""`patchwork simulate` and `patchwork balance`: many bot games, statistics and reports.

Each command validates every option first (toolkit.sim.experiment.prepare), so the first-compile
note is printed only for a run that will happen; then it runs the shards with a progress bar,
prints a summary table, and with --out writes results.json, report.md and report.pdf, all
rendered in memory first and written atomically, so a failed run leaves no files.
"""
from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import List, Optional

import typer

from toolkit.cli.console import json_option, print_document, print_table
from toolkit.cli.errors import reporting_errors
from toolkit.cli.waiting import note_compile_for
from toolkit.cli.typed import add_typed
from toolkit.cli.options import (MAX_SEED, bot_list, capped_workers, check_fraction, check_run, distinct_names,
                                 output_folder, path_text, threaded_bots, threads_option)
from toolkit.errors import UsageError
from toolkit.fileio import check_targets, write_files

OUT_FILES = ("results.json", "report.md", "report.pdf")


def _check_out(out: Optional[Path]) -> None:
    if out is None:
        return
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out '{out}' is a file; expected a directory for {', '.join(OUT_FILES)}")
    check_targets(out / name for name in OUT_FILES)  # before the run, not after it


def _command(name: str, refs: list[str], request, bots_text: str, automa_level: int, automa_deck: str,
             games: int | None = None) -> str:
    # Execution options (--workers, --scheduler, --out) never change the results, so they are not
    # recorded: the same experiment gives byte-identical files wherever it ran. `games` is the
    # number typed, when the run played fewer (a sequential test that stopped early).
    parts = ["patchwork", name, *refs, "--bots", bots_text, "--games", str(request.games if games is None else games),
             "--seed", str(request.seed)]
    if any(b.automa_level for b in request.bots):
        parts += ["--automa-level", str(automa_level), "--automa-deck", automa_deck]
    return shlex.join(parts)


def _run_with_progress(request, show: bool):
    from rich.console import Console  # the progress bar loads when a run starts, not with the command line
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from toolkit.sim import experiment

    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not show,
    ) as progress:
        task = progress.add_task("games", total=request.games * len(request.editions))

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done)

        return experiment.run(request, update)


def _reports(sections) -> tuple[str, bytes]:
    """report.md and report.pdf; the PDF library loads only for a run that writes them (it costs a
    fifth of a second of start-up, more than a short run plays)."""
    from toolkit.reports.markdown import render_markdown
    from toolkit.reports.pdf import render_pdf

    return render_markdown(sections), render_pdf(sections)


def _print_summary(title: str, rows: list[tuple[str, str]]) -> None:
    print_table(title, ("figure", "value (95% interval)"), rows)


def _speed_line(request, outcome) -> str:
    games = request.games * len(request.editions)
    rate = games / outcome.elapsed if outcome.elapsed > 0 else float("inf")
    where = f"scheduler {request.scheduler}" if request.scheduler else f"{request.workers} worker(s)"
    return f"{games} games in {outcome.elapsed:.1f} s ({rate:,.0f} games/s, {where}, {outcome.shards} shards)"


def _write(out: Path, doc: dict, md: str, pdf: bytes) -> None:
    text = json.dumps(doc, indent=2, sort_keys=False) + "\n"
    write_files({out / "results.json": text.encode(), out / "report.md": md.encode(), out / "report.pdf": pdf})


def _default_bots(edition_ref: str, bots: Optional[str]) -> str:
    if bots is not None:
        return bots
    from toolkit.families import family_of
    from toolkit.specs import load_edition

    edition = load_edition(edition_ref)
    return family_of(edition).default_bots(edition)


def _check_bots(bots_text: str, refs: list[str], automa_level: int, automa_deck: str) -> None:
    """The editions and their bots, checked before the simulator (and numba) is imported; prepare
    checks them again, as the library does for any caller."""
    from toolkit.sim.botspec import seat_bots
    from toolkit.specs import load_edition

    from toolkit.families import family_of

    editions = [load_edition(ref) for ref in refs]
    for ref, edition in zip(refs[1:], editions[1:]):
        if family_of(edition) is not family_of(editions[0]):
            raise UsageError(
                f"variant '{ref}' is a {family_of(edition).info.title} edition but the base '{refs[0]}' "
                f"is {family_of(editions[0]).info.title}: balance compares editions of one rules family")
    seat_bots(bots_text, editions[0], automa_level, automa_deck)


def _balance_bots(edition_ref: str, bots: Optional[str]) -> str:
    """The bots `balance` plays when none are named: the family's balance bots (greedy), since
    random bots' figures (mean scores near -12, no 7x7 bonus) say little about a rule change."""
    if bots is not None:
        return bots
    from toolkit.families import family_of
    from toolkit.specs import load_edition

    return family_of(load_edition(edition_ref)).info.balance_bots


def simulate(
    edition: str = typer.Argument(..., metavar="EDITION", help="Edition name (classic, doodle, ...) or a VARIANT.yaml file."),
    bots: Optional[str] = typer.Option(None, "--bots", callback=bot_list, help="Bots, comma-separated: random, greedy, mcts:N, automa. Doodle: one per player. Default: random,random (Doodle: random)."),
    games: int = typer.Option(1000, "--games", help="Games to play (even when seats are swapped)."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="Master seed: deal i is seeded by derive_seed(seed, i)."),
    workers: int = typer.Option(1, "--workers", callback=capped_workers,
                                 help="Local worker processes (1: in this process); more than the machine's cores are capped, with a note."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FOLDER", parser=path_text, callback=output_folder, help="Directory for results.json, report.md, report.pdf."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT (needs the cluster extra)."),
    automa_level: int = typer.Option(1, "--automa-level", min=1, max=5, help="Automa difficulty 1..5."),
    automa_deck: str = typer.Option("normal", "--automa-deck", help="Automa deck: normal or tactical."),
    threads: int = threads_option(),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    as_json: bool = json_option(),
) -> None:
    """Play many seeded bot games of one edition and report seat, bot, score, bonus and patch figures."""
    check_run(games, workers, scheduler, max_games=10**9)  # the options first, before anything heavy is imported
    _check_out(out)
    bots_text = _default_bots(edition, threaded_bots(bots, threads, workers))
    _check_bots(bots_text, [edition], automa_level, automa_deck)
    from toolkit.reports import simulation as report
    from toolkit.sim import experiment

    request = experiment.prepare([edition], bots_text, games, seed, workers, scheduler, automa_level, automa_deck)
    note_compile_for(request.editions[0], simulate=True)  # prepare compiles nothing
    outcome = _run_with_progress(request, progress)
    command = _command("simulate", [edition], request, bots_text, automa_level, automa_deck)
    doc = add_typed(experiment.simulation_document(request, outcome, command))
    family = doc["edition"]["family"]
    md, pdf = _reports(report.simulation_report(doc)) if out else ("", b"")
    if as_json:
        print_document(doc)
    _print_summary(
        f"{doc['edition']['title']} ({doc['edition']['name']}): {request.games} games, seed {seed}",
        report.summary_rows(doc["figures"], family),
    )
    typer.echo(f"time track: {report.track_line(doc['edition'])}")
    typer.echo(_speed_line(request, outcome))
    if out:
        _write(out, doc, md, pdf)
        typer.echo(f"wrote {', '.join(str(out / name) for name in OUT_FILES)}")


SEQUENTIAL_CAP = 20000
"""Most games per edition `balance` plays by default, while its sequential test is undecided."""


def balance(
    base: str = typer.Argument(..., metavar="BASE", help="Base edition name or spec file."),
    variants: List[str] = typer.Argument(..., metavar="VARIANT", help="One or more variant names or VARIANT.yaml files."),
    bots: Optional[str] = typer.Option(None, "--bots", callback=bot_list, help="Bots, comma-separated: random, greedy, mcts:N, automa. Default: greedy,greedy (Doodle: greedy); random bots play far below people."),
    games: Optional[int] = typer.Option(None, "--games", help="Play exactly this many games per edition (a fixed test; "
                                        "the run then reports the smallest difference it could detect). With --sprt: "
                                        "the most to play. Default: play until the sequential test decides."),
    max_games: Optional[int] = typer.Option(None, "--max-games", help=f"Most games per edition the default sequential "
                                            f"test plays before it says it is undecided (default {SEQUENTIAL_CAP})."),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="Master seed shared by the base and every variant."),
    workers: int = typer.Option(1, "--workers", callback=capped_workers,
                                 help="Local worker processes (1: in this process); more than the machine's cores are capped, with a note."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FOLDER", parser=path_text, callback=output_folder, help="Directory for results.json, report.md, report.pdf."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT."),
    automa_level: int = typer.Option(1, "--automa-level", min=1, max=5, help="Automa difficulty 1..5."),
    automa_deck: str = typer.Option("normal", "--automa-deck", help="Automa deck: normal or tactical."),
    threads: int = threads_option(),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    sprt: Optional[str] = typer.Option(None, "--sprt", help="The figure the sequential test decides on: seat-win, score "
                                       "or margin (default: seat-win; Doodle: score). With --games, that is the most to play."),
    sprt_delta: Optional[float] = typer.Option(None, "--sprt-delta", help="Smallest difference that matters, per game "
                                               "(default 0.05 for seat-win, 2 points for score and margin)."),
    sprt_alpha: float = typer.Option(0.05, "--sprt-alpha", help="Bound on calling an identical variant different."),
    sprt_beta: float = typer.Option(0.05, "--sprt-beta", help="Bound on calling a variant --sprt-delta away the same."),
    as_json: bool = json_option(),
) -> None:
    """Play variants on the same deals as the base until it is decided whether they change it, and report the paired differences."""
    sequential = games is None or sprt is not None
    if games is not None and max_games is not None:
        raise UsageError("--max-games caps the default sequential run; --games sets the games itself (with --sprt, the most "
                         "to play): give one of them")
    if max_games is not None and not 0 < max_games <= 10**9:
        raise UsageError(f"--max-games must be a positive number of games, at most {10**9}, got {max_games}")
    cap = games if games is not None else (max_games if max_games is not None else SEQUENTIAL_CAP)
    check_run(cap, workers, scheduler, max_games=10**9)  # the options first, before anything heavy is imported
    distinct_names([base, *variants], "balance")
    if not sequential and (sprt_delta is not None or sprt_alpha != 0.05 or sprt_beta != 0.05):
        raise UsageError("--sprt-delta, --sprt-alpha and --sprt-beta set the sequential test, which --games alone turns "
                         "off: add --sprt FIGURE, or leave out --games")
    check_fraction(sprt_alpha, "--sprt-alpha", 0, 1, open_high=True)
    check_fraction(sprt_beta, "--sprt-beta", 0, 1, open_high=True)
    check_fraction(sprt_delta, "--sprt-delta")
    _check_out(out)
    bots_text = _balance_bots(base, threaded_bots(bots, threads, workers))
    refs = [base, *variants]
    _check_bots(bots_text, refs, automa_level, automa_deck)
    from toolkit.reports import simulation as report
    from toolkit.reports.markdown import render_markdown
    from toolkit.reports.pdf import render_pdf
    from toolkit.sim import experiment

    request = experiment.prepare(refs, bots_text, cap, seed, workers, scheduler, automa_level, automa_deck)
    plan = None
    if sequential:
        from toolkit.workbench import sprt as sq

        figure = sprt or request.family.info.test_figures[0]
        plan = sq.plan(figure, sprt_delta, sprt_alpha, sprt_beta, request.editions[0])
    note_compile_for(request.editions[0], simulate=True)  # every option is checked by now
    verdicts = None
    if plan is not None:
        request, outcome, verdicts, statement = _balance_sprt(request, plan, progress)
    else:
        outcome = _run_with_progress(request, progress)
    command = _command("balance", refs, request, bots_text, automa_level, automa_deck, cap)
    if sequential:
        command += " " + shlex.join(["--sprt", plan.figure, "--sprt-alpha", f"{sprt_alpha:g}", "--sprt-beta",
                                     f"{sprt_beta:g}", "--sprt-delta", f"{plan.delta:g}"])
    doc = add_typed(experiment.balance_document(request, outcome, command))
    if verdicts is not None:
        doc["sequential"] = {"test": statement, "games_cap": cap, "games_played": request.games,
                             "intervals": report.SEQUENTIAL_INTERVALS}
        for variant, verdict in zip(doc["variants"], verdicts):
            variant["sprt"] = verdict
    md = render_markdown(report.balance_report(doc)) if out else ""
    pdf = render_pdf(report.balance_report(doc)) if out else b""
    if as_json:
        print_document(doc)
    for variant in doc["variants"]:
        print_table(f"{variant['ref']} vs {base} ({request.games} games each, paired by deal)",
                    report.BALANCE_HEADER,
                    [[cell.replace("**", "") for cell in row] for row in report.balance_rows(variant)])
        typer.echo(f"time track: {report.track_line(variant['edition'])}")
        typer.echo(report.variant_verdict(variant))
        if "sprt" not in variant and report.detectable_line(variant):
            typer.echo(report.detectable_line(variant))
    if report.random_warning(doc):
        typer.echo(f"warning: {report.random_warning(doc)}")
    typer.echo(f"base time track: {report.track_line(doc['base']['edition'])}")
    typer.echo(_speed_line(request, outcome))
    if out:
        _write(out, doc, md, pdf)
        typer.echo(f"wrote {', '.join(str(out / name) for name in OUT_FILES)}")


def _balance_sprt(request, plan, show):
    from rich.console import Console  # the progress bar loads when a run starts, not with the command line
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from toolkit.workbench import sprt

    console = Console(stderr=True)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=not show) as bar:
        task = bar.add_task("games (at most)", total=request.games * len(request.editions))
        return sprt.run_balance(request, plan, lambda n: bar.advance(task, n))


def register(app: typer.Typer) -> None:
    app.command("simulate")(reporting_errors(simulate))
    app.command("balance")(reporting_errors(balance))
