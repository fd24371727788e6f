"""`patchwork price`, `sweep`, `ladder`, `tune` and `feel`: the designer's workbench.

Each command checks its options (what they alone can refuse, before the simulator loads), then
asks toolkit.workbench.documents for the run's results document, playing on local workers or a
Dask scheduler with a progress bar; it prints a short table, and with --out writes results.json,
report.md and report.pdf (sweep also one PNG chart per figure), rendered in memory first and
written atomically.
"""
from __future__ import annotations

import contextlib
import json
import math
import time
from functools import partial
from pathlib import Path
from typing import List, Optional

import typer

from toolkit.errors import UsageError
from toolkit.cli.console import json_option, print_document, print_table
from toolkit.cli.errors import reporting_errors
from toolkit.cli.lazy import lazy
from toolkit.cli.typed import add_typed
from toolkit.cli.options import (bot_list, bot_lists, check_fraction, distinct_names, output_folder, path_text, seed_range,
                                 settings_text, threaded_lists, threads_option, values_text)
from toolkit.fileio import check_targets, write_files
from toolkit.sections import Report

OUT_FILES = ("results.json", "report.md", "report.pdf")
MAX_WIDTH = 100.0
"""Widest interval --width may ask for, in buttons: wider than any price a patch has (an
interval 1e300 wide is met before the first game and decides nothing)."""
MAX_DELTA = 1000.0
"""Largest --sprt-delta: no figure of a game differs by more from one setting to another."""

documents = lazy("toolkit.workbench.documents")  # the run descriptions and results documents, loaded on first use

WORKERS_OPT = typer.Option(1, "--workers", help="Local worker processes (1: in this process).")
SCHEDULER_OPT = typer.Option(None, "--scheduler", help="Dask scheduler address tcp://HOST:PORT.")
OUT_OPT = typer.Option(None, "--out", metavar="FOLDER", parser=path_text, callback=output_folder,
                       help="Directory for results.json, report.md, report.pdf.")
PROGRESS_OPT = typer.Option(True, "--progress/--no-progress", help="Show a progress bar.")


def check_run_options(games: int, seed: int, workers: int, scheduler: Optional[str], out: Optional[Path]) -> None:
    if games <= 0:
        raise UsageError(f"--games must be a positive number of games, got {games}")
    if games > 10**8:
        raise UsageError(f"--games must be at most {10**8}, got {games}")
    if seed < 0:
        raise UsageError(f"--seed must be a non-negative integer, got {seed}")
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if scheduler is not None and "://" not in scheduler:
        raise UsageError(f"--scheduler '{scheduler}': expected an address like tcp://HOST:PORT")
    if out is not None:
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out '{out}' is a file; expected a directory for {', '.join(OUT_FILES)}")
        check_targets(out / name for name in OUT_FILES)  # before the run, not after it


@contextlib.contextmanager
def progress_bar(total: int, show: bool, label: str = "games"):
    """Yields `advance(games)`; the bar is drawn on stderr and disappears when done."""
    from rich.console import Console  # the progress bar loads when a run starts, not with the command line
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True, disable=not show) as bar:
        task = bar.add_task(label, total=total)
        yield lambda games: bar.advance(task, games)


def write_out(out: Path, doc: dict, report: Report, extra: dict[str, bytes] | None = None) -> None:
    """Write results.json, `report` as report.md and report.pdf, and the `extra` files as one
    step: all of them, or none (with one error line)."""
    from toolkit.reports.markdown import render_markdown
    from toolkit.reports.pdf import render_pdf

    files = {out / "results.json": (json.dumps(doc, indent=2) + "\n").encode(),
             out / "report.md": render_markdown(report).encode(), out / "report.pdf": render_pdf(report)}
    files.update({out / name: data for name, data in (extra or {}).items()})
    write_files(files)
    names = [*OUT_FILES, *(extra or {})]
    typer.echo(f"wrote {', '.join(str(out / n) for n in names)}")


def speed_line(games: int, elapsed: float, workers: int, scheduler: Optional[str]) -> str:
    where = f"scheduler {scheduler}" if scheduler else f"{workers} worker(s)"
    rate = games / elapsed if elapsed > 0 else float("inf")
    return f"{games} games in {elapsed:.1f} s ({rate:,.0f} games/s, {where})"


def _played(play, show_progress: bool, as_json: bool, verdict=None):
    """Run `play(progress)` under a progress bar: its results document (typed; with `verdict`, the
    report's verdict sentence under "verdict"; printed with --json), the seconds it took and the
    workbench reports module (loaded once the run is done)."""
    started = time.perf_counter()
    doc = add_typed(play(lambda total: progress_bar(total, show_progress)))
    elapsed = time.perf_counter() - started
    from toolkit.reports import workbench as report

    if verdict is not None:
        verdict(doc, report)
    if as_json:
        print_document(doc)
    return doc, elapsed, report


def _seating(text: str, edition, automa_level: int = 1, automa_deck: str = "normal"):
    """The `--bots` text seated for `edition` (toolkit.sim.botspec.seat_bots): the run carries it."""
    from toolkit.sim.botspec import seat_bots

    return seat_bots(text, edition, automa_level, automa_deck)


# ----- price ----------------------------------------------------------------------------------


def price(
    edition: str = typer.Argument(..., help="Edition name or a VARIANT.yaml file (e.g. one that adds your new patch)."),
    patch: str = typer.Argument(..., help="Id of the patch to price, e.g. P05."),
    values: str = typer.Option("0..10", "--values", callback=values_text, help="Values to start from: A..B[:STEP] or a,b,c "
                               "(the run adds every whole value around the crossing, and values beyond the range when "
                               "the crossing lies beyond it)."),
    over: str = typer.Option("cost", "--over", help="The stat to price: cost, time or income."),
    bots: List[str] = typer.Option(["greedy,greedy"], "--bots", callback=bot_lists, help="Two bots: random, greedy, mcts:N, mcts:Xs; repeat "
                                   "for several skill tiers (e.g. --bots greedy,greedy --bots mcts:200,mcts:200), each priced "
                                   "on the same deals and compared."),
    games: Optional[int] = typer.Option(None, "--games", help="Play exactly this many games per value (even; one look, "
                                        "no early stop; with --width, the most to play). Default: play until the "
                                        "price is decided within 1 button."),
    max_games: Optional[int] = typer.Option(None, "--max-games", help="Most games per value the default run plays before "
                                            "it says the price is undecided (default 20000)."),
    search_games: int = typer.Option(200, "--search-games", help="Games per value (the most, unless --games fixes them) of "
                                     "a tier with a search bot (mcts)."),
    threads: int = threads_option(),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed: every value plays the same deals."),
    workers: int = WORKERS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    out: Optional[Path] = OUT_OPT,
    show_progress: bool = PROGRESS_OPT,
    width: Optional[float] = typer.Option(None, "--width", help="Stop as soon as the fair value's interval is no wider "
                                          "than this, instead of when the price is decided within 1 button."),
    as_json: bool = json_option(),
) -> None:
    """The cost to print on a patch: where the buyer's advantage falls through 0, decided within 1 button."""
    from toolkit.workbench.price import MAX_GAMES

    if games is not None and max_games is not None:
        raise UsageError("--max-games caps the default run; --games sets the games itself (with --width, the most to "
                         "play): give one of them")
    if max_games is not None and not 0 < max_games <= 10**8:
        raise UsageError(f"--max-games must be a positive number of games, at most {10**8}, got {max_games}")
    cap = games if games is not None else (max_games if max_games is not None else MAX_GAMES)
    check_run_options(cap, seed, workers, scheduler, out)  # the options first, before anything heavy is imported
    if not 0 < search_games <= 10**8:
        raise UsageError(f"--search-games must be a positive number of games, at most {10**8}, got {search_games}")
    check_fraction(width, "--width", 0, MAX_WIDTH)  # a positive interval width, in buttons (or time spaces)
    bots = threaded_lists(list(bots), threads, workers)
    from toolkit.specs import load_edition

    ed = load_edition(edition)
    for text in bots:  # each tier's bots, refused before the simulator (and numba) loads
        _seating(text, ed)
    run = documents.PriceRun(edition, ed, patch, values, over, tuple(bots), games, cap, search_games, seed, width)
    doc, elapsed, report = _played(partial(documents.price, run, workers, scheduler), show_progress, as_json)
    for tier in doc.get("tiers") or [{**doc, "bots": bots[0]}]:
        print_table(f"{patch} in {ed.name}, {tier['bots']}: seed {seed}", report.PRICE_HEADER, report.price_rows(tier))
        typer.echo(f"{over} to print ({tier['bots']}): {report.fair_text(tier['fair'], over)}")
        typer.echo(report.stopping_text(tier["stopping"]))
    for line in report.agreement_lines(doc):
        typer.echo(line)
    typer.echo(speed_line(documents.price_games(doc), elapsed, workers, scheduler))
    if out:
        write_out(out, doc, report.price_report(doc))


# ----- sweep ----------------------------------------------------------------------------------


def sweep(
    base: str = typer.Argument(..., help="Base edition name or spec file."),
    settings: List[str] = typer.Option(..., "--set", callback=settings_text, help="KEY=VALUES, e.g. starting_buttons=3..8, patches.P05.cost=0..6:2, "
                                       "bonus.points=0,5,7, time_track.leather_patches=[20,26],[26,32]; several make a grid."),
    bots: Optional[str] = typer.Option(None, "--bots", callback=bot_list, help="Bots: random, greedy, mcts:N, mcts:Xs (Doodle: one per player)."),
    threads: int = threads_option(),
    games: int = typer.Option(1000, "--games", help="Games per grid point (even when seats are swapped)."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed: every point plays the same deals."),
    workers: int = WORKERS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    out: Optional[Path] = typer.Option(None, "--out", metavar="FOLDER", parser=path_text, callback=output_folder, help="Directory for results.json, report.md, report.pdf and PNG charts."),
    show_progress: bool = PROGRESS_OPT,
    sprt: Optional[str] = typer.Option(None, "--sprt", help="Stop once a GSPRT of every point against the first point is "
                                       "decisive on this figure: seat-win, score or margin; --games is then the most to play."),
    sprt_delta: Optional[float] = typer.Option(None, "--sprt-delta", help="Smallest difference that matters, per game."),
    sprt_alpha: float = typer.Option(0.05, "--sprt-alpha", help="Bound on calling a point that changes nothing different."),
    sprt_beta: float = typer.Option(0.05, "--sprt-beta", help="Bound on calling a point --sprt-delta away the same."),
    as_json: bool = json_option(),
) -> None:
    """Play the base with keys set to each value (a grid for several --set) on the same deals."""
    check_run_options(games, seed, workers, scheduler, out)  # the options first, before anything heavy is imported
    if sprt is None and (sprt_delta is not None or sprt_alpha != 0.05 or sprt_beta != 0.05):
        raise UsageError("--sprt-delta, --sprt-alpha and --sprt-beta set the sequential test: add --sprt FIGURE")
    check_fraction(sprt_alpha, "--sprt-alpha", 0, 1, open_high=True)
    check_fraction(sprt_beta, "--sprt-beta", 0, 1, open_high=True)
    check_fraction(sprt_delta, "--sprt-delta", 0, MAX_DELTA)
    from toolkit.specs import load_edition
    from toolkit.families import family_of
    from toolkit.workbench import setpath

    ed = load_edition(base)
    parsed = [setpath.parse_setting(text, ed) for text in settings]
    points = setpath.grid(parsed)
    bots_text = threaded_lists([bots], threads, workers)[0] or family_of(ed).info.balance_bots
    seating = _seating(bots_text, ed)
    documents.deals_for(games, seating.games_per_deal)
    run = documents.SweepRun(base, ed, tuple(settings), tuple(parsed), tuple(points), bots_text, seating,
                             games, seed, sprt, sprt_delta, sprt_alpha, sprt_beta)
    def verdict(doc: dict, report) -> None:  # the sentence and its rule, so results.json can be checked against them
        doc["verdict"] = report.sweep_verdict(doc)
        doc["verdict_rule"] = report.SWEEP_CORRECTION

    doc, elapsed, report = _played(partial(documents.sweep, run, workers, scheduler), show_progress, as_json, verdict)
    header, table_rows = report.sweep_rows(doc)
    print_table(f"sweep of {ed.name}: {doc['games']} games per point, seed {seed}", header, table_rows)
    typer.echo(doc["verdict"])
    rows = doc["points"]
    for row in rows[1:]:
        if "sprt" in row:
            v = row["sprt"]
            typer.echo(f"{report.point_label(row)} against {report.point_label(rows[0])}: {report.sprt_text(v)}")
    if "sequential" in doc:
        typer.echo(f"Sequential test: {doc['sequential']['test']}. Intervals: {doc['sequential']['intervals']}.")
    typer.echo(speed_line(doc["games"] * len(points), elapsed, workers, scheduler))
    if out:
        from toolkit.reports import charts

        pngs = {f"{stem}.png": charts.png(chart) for stem, chart in report.sweep_charts(doc)}
        write_out(out, doc, report.sweep_report(doc), pngs)


# ----- ladder ---------------------------------------------------------------------------------


def ladder(
    bots: List[str] = typer.Argument(..., help="Two or more bots: random, greedy, mcts:N, mcts:Xs, mcts:Xs:2t."),
    edition: str = typer.Option("classic", "--edition", help="Edition name or spec file (time-track games)."),
    threads: int = threads_option(),
    games: int = typer.Option(400, "--games", help="Games per pair of bots (even: each deal is played with seats swapped)."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed: every pair plays the same deals."),
    workers: int = WORKERS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    out: Optional[Path] = OUT_OPT,
    show_progress: bool = PROGRESS_OPT,
    as_json: bool = json_option(),
) -> None:
    """Paired round robin of bots and their Bradley-Terry ratings on the Elo scale, with 95% intervals."""
    check_run_options(games, seed, workers, scheduler, out)  # the options first, before anything heavy is imported
    bots = threaded_lists(list(bots), threads, workers)
    distinct_names([b.strip().lower() for b in bots], "ladder")
    documents.deals_for(games, 2)
    from toolkit.bots.registry import parse_bot
    from toolkit.specs import load_edition

    ed = load_edition(edition)
    specs = [parse_bot(b, ed.family) for b in bots]
    from toolkit.workbench import ladder as ld  # the simulator (and numba) loads once the names are read

    ld.check(ed, specs)
    for spec in specs:
        _seating(f"{spec.name},{spec.name}", ed)
    run = documents.LadderRun(tuple(bots), edition, ed, tuple(specs), games, seed)
    doc, elapsed, report = _played(partial(documents.ladder, run, workers, scheduler), show_progress, as_json)
    print_table(f"ladder on {ed.name}: {games} games per pair, seed {seed}", report.LADDER_HEADER, report.ladder_rows(doc))
    typer.echo(report.prior_text(doc) + ".")
    typer.echo(speed_line(games * run.pairs, elapsed, workers, scheduler))
    if out:
        write_out(out, doc, report.ladder_report(doc))


# ----- tune -----------------------------------------------------------------------------------

TARGET_FIGURES = ("seat-win", "length", "score", "margin", "bonus", "buy-rate")
"""The figures a --target may name: those of toolkit.workbench.ntbea.FIGURES, named here so that a
misspelt figure is refused while the command line is read, before the simulator loads (a test
keeps the two lists equal)."""
TARGET_LIMIT = 10_000.0
"""Largest size of a target's VALUE and SCALE: no figure of a game (a share, a length in actions,
a score, a margin) comes near it, so a value past it is a typing mistake, not a target."""
SMALLEST_SCALE = 1e-6
"""Smallest SCALE: a figure is measured from games, so it is never known closer than this."""


def target_text(text: str) -> str:
    """One --target: FIGURE=VALUE[~SCALE] with a known figure, a finite value of a size a game's
    figure can have and a scale between SMALLEST_SCALE and TARGET_LIMIT (UsageError otherwise)."""
    shown = repr(text[:60])
    name, sep, rest = text.partition("=")
    if not sep or name.strip() not in TARGET_FIGURES:
        raise UsageError(f"--target {shown}: expected FIGURE=VALUE[~SCALE] with FIGURE one of "
                         f"{', '.join(TARGET_FIGURES)}, e.g. seat-win=0.5")
    value_text, tilde, scale_text = rest.partition("~")
    try:
        value = float(value_text)
        scale = float(scale_text) if tilde else 1.0
    except ValueError:
        raise UsageError(f"--target {shown}: VALUE and SCALE are numbers, e.g. margin=0 or margin=0~2") from None
    if not (math.isfinite(value) and abs(value) <= TARGET_LIMIT):
        raise UsageError(f"--target {shown}: the value must be a finite number of at most {TARGET_LIMIT:,.0f} in size "
                         "(a share of games is 0..1; lengths, scores and margins are far smaller)")
    if not (math.isfinite(scale) and SMALLEST_SCALE <= scale <= TARGET_LIMIT):
        raise UsageError(f"--target {shown}: the scale (the distance that costs 1) must be {SMALLEST_SCALE:g}.."
                         f"{TARGET_LIMIT:,.0f}, got {scale_text.strip()[:20]}")
    return text


def target_texts(values: Optional[list]) -> Optional[list]:
    """Callback of --target: each one checked while the command line is read."""
    for text in values or ():
        try:
            target_text(text)
        except UsageError as error:
            raise typer.BadParameter(str(error).split(": ", 1)[1]) from None
    return values



def tune(
    base: str = typer.Argument(..., help="Base edition name or spec file."),
    settings: List[str] = typer.Option(..., "--set", callback=settings_text, help="KEY=VALUES to search, as for sweep (e.g. starting_buttons=0..10, "
                                       "patches.P05.cost=0..8); the space is every combination."),
    targets: List[str] = typer.Option(..., "--target", callback=target_texts, help="FIGURE=VALUE[~SCALE]: seat-win, length, score, margin, bonus or "
                                      "buy-rate (with --watch); SCALE is the distance that costs 1 (squared) in the fitness."),
    budget: int = typer.Option(100, "--budget", help="Evaluations of the search (each plays --games games)."),
    refine: Optional[int] = typer.Option(None, "--refine", metavar="N", help="The last evaluations of the budget, spent re-playing the "
                                         "best point and its neighbours (every key within one step); the chosen point is "
                                         "the one of them with the best mean fitness. Default: a quarter of --budget."),
    games: int = typer.Option(100, "--games", help="Games per evaluation (even when seats are swapped)."),
    final_games: int = typer.Option(4000, "--final-games", help="Games playing the chosen point on fresh deals (the "
                                    "verdict's interval; too few leave a target undecided)."),
    watch: Optional[str] = typer.Option(None, "--watch", metavar="PATCH", help="Patch whose buy rate --target buy-rate reads."),
    bots: Optional[str] = typer.Option(None, "--bots", callback=bot_list, help="Bots: random, greedy, mcts:N, mcts:Xs (Doodle: one per player)."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed of the deals and the search."),
    workers: int = WORKERS_OPT,
    scheduler: Optional[str] = SCHEDULER_OPT,
    out: Optional[Path] = OUT_OPT,
    show_progress: bool = PROGRESS_OPT,
    as_json: bool = json_option(),
) -> None:
    """Search many keys at once toward target figures (NTBEA), then measure the best settings on fresh deals."""
    check_run_options(games, seed, workers, scheduler, out)  # the options first, before anything heavy is imported
    if not 0 < final_games <= 10**8:
        raise UsageError(f"--final-games must be a positive number of games, at most {10**8}, got {final_games}")
    if not 1 <= budget <= 100000:
        raise UsageError(f"--budget must be 1..100000 evaluations, got {budget}")
    if refine is not None and not 0 <= refine < budget:
        raise UsageError(f"--refine must be 0..{budget - 1} (at least one of the {budget} evaluations searches), "
                         f"got {refine}")
    from toolkit.families import family_of
    from toolkit.specs import load_edition
    from toolkit.workbench import setpath

    ed = load_edition(base)  # what the edition alone can refuse, before the simulator (and numba) loads
    parsed = tuple(setpath.parse_setting(text, ed) for text in settings)
    if watch is not None and watch not in [p.id for p in ed.all_patches()]:
        raise UsageError(f"--watch {watch[:40]}: '{ed.name}' has no patch {watch[:40]} "
                         f"(patches: {setpath.patch_ids_text(ed)})")
    bots_text = bots or family_of(ed).info.balance_bots
    seating = _seating(bots_text, ed)
    per_deal = seating.games_per_deal
    documents.deals_for(games, per_deal), documents.deals_for(final_games, per_deal, "--final-games")
    run = documents.TuneRun(base, ed, tuple(settings), parsed, tuple(targets), budget, refine, games, final_games, watch,
                            bots_text, seating, seed)
    doc, elapsed, report = _played(partial(documents.tune, run, workers, scheduler), show_progress, as_json)
    print_table(f"tune of {ed.name}: chosen from {doc['points_tried']} points tried ({doc['space']} in the space), "
                f"{final_games} fresh games", report.tune_header(doc), report.tune_rows(doc))
    typer.echo(report.tune_verdict(doc))
    typer.echo(report.tune_refinement_lines(doc)[0])
    typer.echo(speed_line(documents.tune_games(run), elapsed, workers, scheduler))
    if out:
        write_out(out, doc, report.tune_report(doc))


# ----- feel -----------------------------------------------------------------------------------


def feel(
    editions: List[str] = typer.Argument(..., help="The base edition, then variants to compare with it on the same seeds."),
    bots: Optional[str] = typer.Option(None, "--bots", callback=bot_list, help="Bots, one per seat: greedy, mcts:N, ... (default: the family's balance bots)."),
    games: int = typer.Option(200, "--games", help="Games per edition."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed: game k plays seed derive_seed(seed, k) in every edition."),
    decisive: bool = typer.Option(False, "--decisive/--no-decisive", help="Also count decisive moves (values every legal "
                                  "action one action ahead: about 10x slower)."),
    workers: int = typer.Option(1, "--workers", help="Local worker processes (1: in this process); the figures are "
                                "identical for any count."),
    out: Optional[Path] = OUT_OPT,
    show_progress: bool = PROGRESS_OPT,
    as_json: bool = json_option(),
) -> None:
    """How the game feels: lead changes, when the lead became permanent, comebacks, close games, decisive moves."""
    check_run_options(games, seed, workers, None, out)  # the options first, before anything heavy is imported
    if games > 100000:
        raise UsageError(f"--games must be at most 100000 for feel (games are played one by one), got {games}")
    from toolkit.families import family_of
    from toolkit.specs import load_edition

    eds = [load_edition(ref) for ref in editions]  # what the editions alone can refuse, before the simulator loads
    for ref, ed in zip(editions[1:], eds[1:]):
        if family_of(ed) is not family_of(eds[0]):
            raise UsageError(f"variant '{ref}' is a {family_of(ed).info.title} edition but the base '{editions[0]}' is "
                             f"{family_of(eds[0]).info.title}: feel compares editions of one rules family")
    bots_text = bots or family_of(eds[0]).info.balance_bots
    bot_specs = _seating(bots_text, eds[0]).bots
    if len(bot_specs) < 2:
        if bots is None:
            raise UsageError(f"feel measures leads between seats, and {family_of(eds[0]).info.title}'s default bots "
                             f"('{bots_text}') seat one player: name a bot for each of two or more seats with --bots "
                             f"(e.g. --bots {bots_text},{bots_text})")
        raise UsageError(f"--bots '{bots_text}': feel measures leads between seats, so name a bot for two or more seats "
                         "(e.g. --bots greedy,greedy)")
    run = documents.FeelRun(tuple(editions), tuple(eds), bots_text, bot_specs, games, seed, decisive)
    doc, elapsed, report = _played(partial(documents.feel, run, workers), show_progress, as_json)
    header_row, rows = report.feel_rows(doc)
    print_table(f"feel: {games} games per edition, seed {seed}", header_row, rows)
    typer.echo(report.feel_verdict(doc))
    typer.echo(speed_line(games * len(eds), elapsed, workers, None))
    if out:
        write_out(out, doc, report.feel_report(doc))


def register(app: typer.Typer) -> None:
    app.command("price")(reporting_errors(price))
    app.command("sweep")(reporting_errors(sweep))
    app.command("ladder")(reporting_errors(ladder))
    app.command("tune")(reporting_errors(tune))
    app.command("feel")(reporting_errors(feel))
