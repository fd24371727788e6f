"""`patchwork deck ...`: fit a pricing model, generate, check and pack custom patch decks.

Errors are ToolkitErrors raised to the app's entry point, which prints one `error: ...` line.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import List, Optional

import typer

from toolkit.cli.options import MAX_SEED, check_fraction, distinct_ids, output_file, output_folder, path_text, seed_range
from toolkit.errors import SpecError, UsageError, shortened
from toolkit.fileio import write_files

deck_app = typer.Typer(
    help="Custom patch decks: fit a pricing model, generate new decks, play-test them, pack boards.",
    no_args_is_help=True,
)

DECK_ARG = typer.Argument(..., metavar="DECK",
                          help="Edition or variant (name or YAML file), a patch-set YAML file, "
                               "or polyominoes:N (every free N-omino once).")


def register(app: typer.Typer) -> None:
    app.add_typer(deck_app, name="deck")


class _GamesBar:
    """A progress bar on stderr, one line per simulator run (a matchup on base and deck)."""

    def __init__(self, show: bool):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                                 disable=not show)
        self.tasks: dict[str, int] = {}

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, label: str, done: int, total: int) -> None:
        if label not in self.tasks or self.progress.tasks[self.tasks[label]].finished:
            self.tasks[label] = self.progress.add_task(label, total=total)
        self.progress.update(self.tasks[label], completed=done)


# ----- fit -------------------------------------------------------------------------------------


@deck_app.command("fit")
def fit(
    deck: str = DECK_ARG,
    folds: Optional[int] = typer.Option(
        None, "--folds", metavar="K",
        help="Cross-validate by K folds, averaged over 200 random splits drawn from a fixed seed, instead of "
             "leave-one-out (the default, exact and split-free). K folds fit on (K-1)/K of the deck, so they "
             "overstate the error on a new patch, more for small K; K equal to the number of patches is "
             "leave-one-out."),
    top: int = typer.Option(5, "--top", help="How many of the largest residuals each way to list."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
) -> None:
    """Fit a linear pricing model (cost on cells, time, income and shape) to the deck's printed prices.

    Each residual is tested: a patch is "priced off the model" only when its externally studentised
    residual stays significant at 5 % after Holm's correction over all the deck's patches (assuming
    normal noise); the others are listed as the largest residuals, not as mispriced. The cross-
    validated error carries a 95 % interval from a residual bootstrap of the fit. The model
    reproduces the printed prices; what a patch is worth in play is measured by `patchwork deck check`."""
    from toolkit.decks.deck import load_deck

    if not 0 <= top <= MAX_LISTED:
        raise UsageError(f"--top must be 0..{MAX_LISTED}, got {top}")
    if folds is not None and not 2 <= folds <= MAX_LISTED:  # its bound is the deck's size, checked once it is read
        raise UsageError(f"--folds must be between 2 and the number of patches, got {folds}")
    from toolkit.decks.deck import MAX_CV_ROWS, patch_ids
    from toolkit.decks.model import cv_rows, too_many_folds

    ids = patch_ids(deck)  # a fold count too many for a big deck file is refused before it is read
    if ids and folds is not None and cv_rows(ids, min(folds, ids)) > MAX_CV_ROWS:
        raise UsageError(too_many_folds(ids, folds))
    the_deck = load_deck(deck)
    from toolkit.decks.model import FEATURE_TEXT, FEATURES, fit_deck  # the model loads once the deck is read

    result = fit_deck(the_deck, folds)
    if as_json:
        typer.echo(json.dumps(result.as_dict(top), indent=2))
        return
    typer.echo("\n".join(_fit_lines(result, top, FEATURES, FEATURE_TEXT)))


def _fit_lines(result, top: int, features: tuple[str, ...], feature_text: dict[str, str]) -> list[str]:
    """`deck fit` as text: the model, how well it reproduces the prices, and the tested residuals."""
    from toolkit.decks.model import ALPHA

    m = result.model
    se = m.standard_errors
    out = [f"pricing model fitted on {result.deck} ({len(result.patches)} patches, "
           f"board {m.board.width}x{m.board.height}), each coefficient with its standard error (SE)",
           f"  cost = {m.intercept:+.3f} (SE {se[0]:.3f})"]
    for name, coef, error in zip(features, m.coefficients, se[1:]):
        out.append(f"         {coef:+.3f} (SE {error:.3f}) x {name:<13} ({feature_text[name]})")
    cv = result.cv
    out.append(f"R2 {result.r2:.3f} (adjusted {result.adjusted_r2:.3f}), residual SD {result.residual_sd:.2f} buttons")
    how = "" if cv.leave_one_out else (f"; mean of {cv.repeats} random splits, each fitting on "
                                       f"{cv.folds - 1}/{cv.folds} of the deck, so on the high side")
    out.append(f"{cv.text()} (95% interval by residual bootstrap{how}; mean absolute {cv.mae:.2f})")
    out.append("It fits the printed prices, not what a patch is worth in play: `patchwork deck check` measures that.")
    off = result.off_model()
    percent = f"{ALPHA * 100:g}%"

    def line(p) -> str:
        t = "n/a (leverage 1)" if p.studentised is None else f"{p.studentised:+.2f}"
        adjusted = "n/a" if p.p_adjusted is None else f"{p.p_adjusted:.3g}"
        return (f"  {p.id:<6} cost {p.cost:>2}  predicted {p.predicted:5.2f}  residual {p.residual:+.2f}  "
                f"t {t}  adjusted p {adjusted}")

    tested = result.tested()
    out.append(f"priced off the model (studentised residual, Holm over {tested} patches at {percent}):"
               + ("" if off else " none"))
    out += [line(p) + ("  dearer" if p.residual > 0 else "  cheaper") for p in off]
    rest = [p for p in result.patches if not p.off_model]
    dearer = sorted((p for p in rest if p.residual > 0), key=lambda p: (-p.residual, p.id))[:top]
    cheaper = sorted((p for p in rest if p.residual < 0), key=lambda p: (p.residual, p.id))[:top]
    if top and (dearer or cheaper):
        out.append(("largest residuals" if not off else "largest other residuals")
                   + ", none told apart from the model's spread:")
        for label, rows in (("dearer than the model", dearer), ("cheaper than the model", cheaper)):
            out.append(f" {label}:")
            out += [line(p) for p in rows] or ["  none"]
    return out


# ----- generate --------------------------------------------------------------------------------


@deck_app.command("generate")
def generate(
    like: str = typer.Option("classic", "--like", help="Reference edition or variant: size mix, time/income and prices."),
    count: int = typer.Option(33, "--count", help="Number of new patches."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Seed of every random draw (same seed, same bytes)."),
    out: Path = typer.Option(..., "--out", "-o", metavar="FILE", parser=path_text, callback=output_file,
                             help="The patch-set file to write, e.g. drawn-patches.yaml (its variant is then "
                                  "drawn.yaml, as `init deck drawn` names them)."),
    variant: Optional[Path] = typer.Option(None, "--variant", metavar="FILE", parser=path_text, callback=output_file,
                                           help="The variant file to write, the one to play and print (default: "
                                                "NAME.yaml for --out NAME-patches.yaml, else <out>-variant.yaml)."),
    sizes: Optional[str] = typer.Option(None, "--sizes", help="Patch sizes to draw, e.g. 3..8 (default: the reference deck's mix)."),
    allow_holes: bool = typer.Option(False, "--allow-holes", help="Allow shapes that enclose empty cells."),
    allow_twins: bool = typer.Option(False, "--allow-twins", help="Allow a shape twice, or equal to a base patch."),
    mode: str = typer.Option("replace", "--mode", help="replace: the new patches are the whole deck; extend: they join the base patches."),
    check_after: bool = typer.Option(False, "--check", help="Then play-test the variant as `deck check` does (default bots and games)."),
    force: bool = typer.Option(False, "--force", help="Overwrite files that `deck generate` did not write."),
) -> None:
    """Draw new free polyominoes, give them time, income and a model price, write a patch set and a variant."""
    from toolkit.decks import generate as gen

    started = time.perf_counter()
    request = gen.Request(like, count, seed, gen.parse_sizes(sizes), allow_holes, allow_twins, mode)
    if out.suffix.lower() not in (".yaml", ".yml"):
        raise UsageError(f"--out {out}: expected a .yaml file name")
    variant_path = variant or _default_variant(out)
    if variant_path.suffix.lower() not in (".yaml", ".yml"):
        raise UsageError(f"--variant {variant_path}: expected a .yaml file name")
    if variant_path.resolve() == out.resolve():
        raise UsageError("--variant and --out must be different files")
    if variant is None:  # the default name is checked as --variant is, before anything is drawn
        from toolkit.fileio import check_target

        check_target(variant_path)
    for path in (out, variant_path):
        _refuse_other_file(path, force)
    generated = gen.generate(request)
    files = gen.render_files(generated, out, variant_path)
    # both files or neither: a variant that cannot be written leaves no orphan patch set
    write_files({files.deck_path: files.deck_text.encode("utf-8"), files.variant_path: files.variant_text.encode("utf-8")})
    sizes_seen: dict[int, int] = {}
    for p in generated.patches:
        sizes_seen[p.shape.size] = sizes_seen.get(p.shape.size, 0) + 1
    typer.echo(f"{len(generated.patches)} patches, sizes "
               + ", ".join(f"{n}:{k}" for n, k in sorted(sizes_seen.items()))
               + f"; cost {sum(p.cost for p in generated.patches)}, time "
               f"{sum(p.time for p in generated.patches)}, income {sum(p.income for p in generated.patches)}")
    if generated.reused:
        typer.echo(f"{len(generated.reused)} patches reuse a base patch's shape: no new free shape of their size is "
                   "left (named in the provenance)")
    elif generated.exhausted:
        typer.echo(f"note: no new shape of size {', '.join(map(str, generated.exhausted))} exists "
                   "(every one is a base patch or has holes), so the other sizes take their share; "
                   "--allow-twins or --allow-holes widen the choice")
    typer.echo(f"priced by the model fitted on {generated.base.name}'s printed prices: R2 {generated.fit.r2:.3f}, "
               f"{generated.fit.cv.text()}; not play value: `deck check` measures that")
    typer.echo(f"wrote {files.deck_path}: the patch set (the new patches, to edit) "
               f"({time.perf_counter() - started:.1f} s)")
    typer.echo(f"wrote {files.variant_path}: the variant that plays it, to play, check and print "
               f"(patchwork deck check {files.variant_path})")
    if check_after:
        from toolkit.workbench import deckcheck as chk

        matchups = _matchups(list(chk.DEFAULT_MATCHUPS), chk.DEFAULT_GAMES[0], chk.DEFAULT_GAMES[1])
        with _GamesBar(True) as bar:
            report = chk.check(str(variant_path), like, matchups, seed, progress=bar)
        _print_check(report)


def _default_variant(out: Path) -> Path:
    """NAME.yaml beside --out NAME-patches.yaml (the pair `init deck NAME` writes), else
    <out>-variant.yaml."""
    from toolkit.decks import generate as gen

    if out.stem.endswith("-patches") and len(out.stem) > len("-patches"):
        return out.with_name(out.stem[: -len("-patches")] + out.suffix)
    return gen.default_variant_path(out)


def _refuse_other_file(path: Path, force: bool) -> None:
    """UsageError when `path` holds a file that `deck generate` did not write (its first line says
    so), unless --force: a deck drawn again over its own files is the usual loop; a hand-edited
    deck or an `init deck` file is not overwritten by accident."""
    from toolkit.decks.generate import patch_set_text

    mark = patch_set_text("x", "x", "x", []).splitlines()[0]  # the first line of every file it writes
    if force or not path.is_file():
        return
    try:
        with path.open("rb") as handle:
            first = handle.readline(len(mark) + 2).decode("utf-8", "replace").strip()
    except OSError:
        return  # check_target has said what it could; the write will name any failure
    if first != mark:
        raise UsageError(f"{path} exists and was not written by deck generate; choose another --out "
                         "(or --variant) or add --force")


# ----- check -----------------------------------------------------------------------------------


MAX_GAMES = 10**8
"""The most games (or buys) a deck command's count may ask for."""
MAX_LISTED = 100_000
"""The bound of a deck command's small counts (folds, patches listed, rounds): no deck is bigger."""


def _matchups(bots: list[str], games: int, search_games: int) -> list[tuple[str, int]]:
    if games < 2 or search_games < 2:
        raise UsageError("--games and --search-games must be at least 2 (seats are swapped)")
    if games > MAX_GAMES or search_games > MAX_GAMES:
        raise UsageError(f"--games and --search-games must be at most {MAX_GAMES}, got {games} and {search_games}")
    out = []
    for text in bots:
        n = search_games if "mcts" in text else games
        out.append((text, n))
    return out


def _base_of(variant: Path) -> str:
    """The `extends:` of a variant file, as a name or a path relative to the working folder (read
    by the spec reader: its limits hold and a mistake is one file:line:col line)."""
    from toolkit.specs.source import UnreadableSpec, read_tree

    try:
        tree, _ = read_tree(variant)
    except UnreadableSpec as error:
        raise SpecError([error.problem]) from None
    ref = tree.get("extends") if isinstance(tree, dict) else None
    if not isinstance(ref, str):
        raise UsageError(f"{variant} has no `extends:`; name the base with --base")
    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        return str(variant.parent / ref)
    return ref


def _print_check(report, out: Optional[Path] = None) -> None:
    """The check's matchups, per-patch table, verdicts and tuning, from the document results.json
    holds (the report reads the same lines); with `out`, write results.json, report.md and report.pdf."""
    from rich.table import Table
    from rich.text import Text

    from toolkit.cli.console import console as make_console
    from toolkit.reports import deckcheck as text

    doc = report.as_dict()
    console = make_console()  # colour only on a terminal without NO_COLOR; piped, as wide as it needs
    for line in text.matchup_lines(doc):
        typer.echo(line)
    table = Table(title=f"{report.variant}: per-patch buy rate and buyer advantage, 95% intervals over deals "
                        f"(band ±{report.band:.2f}, at least {report.min_buys} buys; Holm's correction over "
                        f"the deck's {doc['tests']} tests for outside the band, and separately over its tests "
                        f"for inside)", header_style="bold")
    for column in text.PATCH_HEADER:
        table.add_column(column, no_wrap=column == "patch")  # the id that names the row is never cut
    for row in text.patch_rows(doc):
        table.add_row(*(Text(str(cell)) for cell in row))  # plain text: a bracketed cell is no rich markup
    console.print(table)
    for line in text.verdict_lines(doc) + text.tune_lines(doc):
        typer.echo(line)
    if out is not None:
        _write_check(doc, out, err=False)


def _write_check(doc: dict, out: Path, err: bool) -> None:
    """results.json, report.md and report.pdf of a check, all of them or none."""
    from toolkit.reports import deckcheck as text
    from toolkit.reports.markdown import render_markdown
    from toolkit.reports.pdf import render_pdf

    report = text.check_report(doc)
    files = {out / "results.json": (json.dumps(doc, indent=2) + "\n").encode(),
             out / "report.md": render_markdown(report).encode(), out / "report.pdf": render_pdf(report)}
    write_files(files)
    typer.echo(f"wrote {', '.join(str(name) for name in files)}", err=err)


@deck_app.command("check")
def check(
    variant: Path = typer.Argument(..., help="The variant file to play (as `deck generate` writes it)."),
    base: Optional[str] = typer.Option(None, "--base", help="Edition to compare with (default: the variant's `extends:`)."),
    bots: List[str] = typer.Option(list(("greedy,greedy", "greedy,mcts:200")), "--bots",
                                   help="A matchup of two bots; repeat for several (default greedy,greedy and greedy,mcts:200)."),
    games: int = typer.Option(400, "--games", help="Games per matchup without an MCTS bot."),
    search_games: int = typer.Option(40, "--search-games", help="Games per matchup with an MCTS bot."),
    seed: int = typer.Option(0, "--seed", **seed_range(), help="Master seed: the variant and the base play the same deals."),
    band: float = typer.Option(0.05, "--band", help="Half-width of the fair-price band: a patch's buyer advantage (its "
                               "buyers' win rate minus all buyers') within ±band (0.05: about one button for greedy "
                               "bots) and, if you changed it, its buy rate within as many buttons of the base's. A "
                               "patch is cheap or dear when a test shows it outside, in band when its intervals are "
                               "shown inside (each with Holm's correction over the deck, family-wise error 5%); "
                               "otherwise it leans cheap/dear or is undecided, with the games that would decide it."),
    min_buys: int = typer.Option(20, "--min-buys", help="Buys a patch needs before its advantage is judged."),
    patches: Optional[str] = typer.Option(None, "--patches", help="Only report (and re-price) these ids, comma-separated."),
    tune_prices: bool = typer.Option(False, "--tune", help="Re-price the significantly out-of-band patches round by round "
                                     "towards their suggested costs (damped steps, never past a cost where the patch was "
                                     "found priced the other way), rewriting the variant's patch set; a round that makes the "
                                     "deck worse is undone."),
    changed_only: bool = typer.Option(True, "--only-changed/--all-patches",
                                      help="With --tune: re-price only the patches you changed from the base (another "
                                           "cost, time, income or shape, or new; the default), or every out-of-band "
                                           "patch, the base's own mispricing too."),
    rounds: int = typer.Option(5, "--rounds", help="With --tune: at most this many re-pricing rounds."),
    per_round: int = typer.Option(33, "--per-round", help="With --tune: most patches re-priced per round (the worst first)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FOLDER", parser=path_text, callback=output_folder,
                                       help="Directory for results.json, report.md, report.pdf."),
    as_json: bool = typer.Option(False, "--json", help="Print the results document (what --out writes as results.json) "
                                 "instead of text."),
    show_progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
) -> None:
    """Play a custom deck against its base with greedy and MCTS bots: per-patch buy rate, buy rate against the base's
    and buyer advantage, verdicts with a suggested cost, the patches you changed apart from the base's own."""
    from toolkit.specs.catalogue import bundled_specs_dir
    from toolkit.specs.loader import spec_path

    # every option first, before the variant is read and before the simulator (and numba) loads
    matchups = _matchups(bots, games, search_games)
    check_fraction(band, "--band", 0, 0.5, open_high=True)
    if not 1 <= min_buys <= MAX_GAMES:
        raise UsageError(f"--min-buys must be 1..{MAX_GAMES}, got {min_buys}")
    if not (1 <= rounds <= MAX_LISTED and 1 <= per_round <= MAX_LISTED):
        raise UsageError(f"--rounds and --per-round must be 1..{MAX_LISTED}, got {rounds} and {per_round}")
    only = set(distinct_ids(patches, "--patches")) if patches is not None else None
    if out is not None:
        from toolkit.fileio import check_targets

        if out.exists() and not out.is_dir():
            raise UsageError(f"--out '{out}' is a file; expected a directory for results.json, report.md, report.pdf")
        check_targets(out / name for name in ("results.json", "report.md", "report.pdf"))  # before the run
    path = spec_path(str(variant))  # a bundled variant by name, or a file, judged as every spec is
    if tune_prices and path.resolve().is_relative_to(bundled_specs_dir().resolve()):
        raise UsageError(f"--tune rewrites the variant's patch set: copy the bundled '{variant}' to a file of your "
                         "own (patchwork init variant) and tune that")
    base_ref = base or _base_of(path)
    from toolkit.specs import load_edition

    from toolkit.sim.botspec import seat_bots

    for edition in (load_edition(base_ref), load_edition(str(variant))):  # judged before the simulator loads
        for text, _ in matchups:
            seat_bots(text, edition)
    if only is not None:
        unknown = sorted(only - {p.id for p in load_edition(str(variant)).all_patches()})
        if unknown:
            raise UsageError(f"--patches: no patch {shortened(unknown)} in {variant}")
    from toolkit.workbench import deckcheck as chk

    started = time.perf_counter()
    with _GamesBar(show_progress) as bar:
        if tune_prices:
            def on_round(number, report):
                outside = report.out_of_band()
                changed = [p.id for p in outside if report.origin(p.id) != "base"]
                bar.progress.console.print(
                    f"{'before tuning' if number == 0 else f'after round {number}'}: "
                    f"{len(outside)} patch(es) significantly outside the band "
                    f"({len(changed)} changed from the base{': ' + ', '.join(changed) if changed else ''}; "
                    f"{len(outside) - len(changed)} of the base's own)")

            report = chk.tune(variant, base_ref, matchups, seed, band, min_buys, rounds, per_round,
                              only, on_round, bar, changed_only)
        else:
            report = chk.check(str(variant), base_ref, matchups, seed, band, min_buys, only=only,
                               progress=bar)
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=2))
        if out is not None:
            _write_check(report.as_dict(), out, err=True)
    else:
        _print_check(report, out)
        typer.echo(f"played in {time.perf_counter() - started:.1f} s")


# ----- pack ------------------------------------------------------------------------------------


def _board(text: Optional[str], deck) -> tuple[int, int]:
    if text is None:
        return deck.board_width, deck.board_height
    from toolkit.geometry.facts import parse_board

    board = parse_board(text)
    return board.width, board.height


def _polyomino_ids(deck: str, wanted: Optional[list[str]]) -> None:
    """`polyominoes:N` numbers its patches F01, F02, ...: an id of another form is refused before
    the N-ominoes (thousands for large N) are enumerated."""
    import re

    from toolkit.decks.deck import POLYOMINO_PREFIX

    if wanted is None or not str(deck).startswith(POLYOMINO_PREFIX):
        return
    unknown = [pid for pid in wanted if not re.fullmatch(r"F(0[1-9]|[1-9][0-9]+)", pid)]
    if unknown:
        raise UsageError(f"--patches: no patch {shortened(unknown)} in {str(deck)[:40]}; its patches are "
                         f"F01, F02, ... (every free polyomino of the size once, numbered in canonical order)")


@deck_app.command("pack")
def pack(
    deck: str = DECK_ARG,
    board_text: Optional[str] = typer.Option(None, "--board", metavar="WxH", help="Board to fill (default: the deck's board)."),
    count: bool = typer.Option(False, "--count", help="Count every exact fill (and up to the board's symmetries)."),
    limit: Optional[int] = typer.Option(None, "--limit", help="With --count: stop once at least this many solutions are found (the number printed is then a lower bound)."),
    max_nodes: int = typer.Option(60_000_000, "--max-nodes", metavar="STEPS",
                                  help="Search budget of each search (the fill, the largest area, the count), in steps: "
                                       "a node or a placement tried, some 6 to 10 million a CPU-second. A search that "
                                       "runs out says so and reports what it found."),
    no_flip: bool = typer.Option(False, "--no-flip", help="Rotate patches only, never reflect them."),
    only: Optional[str] = typer.Option(None, "--patches", help="Pack only these patches, ids comma-separated (a patch with copies: ID.1, ID.2, ...)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", metavar="FILE", parser=path_text, callback=output_file,
                                       help="Draw a solution (or the largest packing) to FILE.svg, .pdf or .png."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
) -> None:
    """Can a subset of the patches fill the board exactly, the largest area they cover, the cells each reaches."""
    if limit is not None and not 1 <= limit <= MAX_SEED:
        raise UsageError(f"--limit must be 1..{MAX_SEED}, got {limit}")
    if not 1 <= max_nodes <= MAX_SEED:
        raise UsageError(f"--max-nodes must be 1..{MAX_SEED}, got {max_nodes}")
    wanted = distinct_ids(only, "--patches") if only is not None else None
    if board_text is not None:  # before a deck of thousands of patches is read
        _board(board_text, None)
    _polyomino_ids(deck, wanted)
    from toolkit.decks import drawing  # the options first, then the decks and the packer
    from toolkit.decks.deck import load_deck, pieces_of
    from toolkit.geometry.cover import Packer, Piece

    if out is not None and drawing.format_of(out) == "png":
        drawing.png_rasteriser()  # say so before a long search
    the_deck = load_deck(deck)
    width, height = _board(board_text, the_deck)
    pieces = [Piece(pid, shape) for pid, shape in pieces_of(the_deck)]
    if wanted is not None:
        known = {p.id for p in pieces}
        unknown = [p for p in wanted if p not in known]
        if unknown:
            raise UsageError(f"--patches: no patch {shortened(unknown)} in "
                             f"{the_deck.name}; its patches are {shortened(sorted(known))}")
        pieces = [p for p in pieces if p.id in set(wanted)]
    packer = Packer(pieces, width, height, the_deck.allow_flip and not no_flip)
    area = sum(p.shape.size for p in pieces)
    facts: dict = {"deck": the_deck.name, "board": f"{width}x{height}", "board_cells": width * height,
                   "patches": len(pieces), "patch_cells": area,
                   "allow_flip": packer.allow_flip,
                   "reach": [{"id": p.id, "cells": n} for p, n in zip(pieces, packer.reach())]}
    drawn = None
    if count:
        result = packer.count(limit, max_nodes=max_nodes)
        facts["count"] = {"total": result.total, "up_to_symmetry": result.up_to_symmetry,
                          "board_symmetries": result.symmetries, "fixed_by": result.fixed,
                          "stopped_at_limit": result.limited and not result.out_of_budget,
                          "stopped_at_budget": result.out_of_budget, "nodes": result.nodes,
                          "seconds": round(result.seconds, 2)}
        if out is not None and result.total:
            drawn = packer.fill(max_nodes).solution
    else:
        exact = packer.fill(max_nodes)
        best = packer.largest_area(max_nodes, exact)
        facts["fill"] = True if exact.solution else (False if exact.complete else None)
        facts["largest_area"] = best.area
        facts["largest_area_proven"] = best.complete
        facts["nodes"] = best.nodes
        facts["solution"] = [{"id": p.id, "cells": sorted(map(list, p.cells))} for p in best.solution or ()]
        drawn = best.solution
    if out is not None:
        if not drawn:
            raise UsageError(f"--out {out}: there is no packing to draw")
        index = {p.id: i for i, p in enumerate(pieces)}
        colours = {}
        for patch in the_deck.patches:
            colours[patch.id] = patch.colour
        title = f"{the_deck.name} on {width}x{height}"
        size = drawing.write(drawing.solution_document(title, width, height, drawn, index, colours), out)
        facts["drawing"] = {"path": str(out), "bytes": size}
    if as_json:
        typer.echo(json.dumps(facts, indent=2))
        return
    if count:
        c = facts["count"]
        typer.echo(str(c["total"]))
        budget = f"the search budget of {max_nodes:,} steps ran out; raise --max-nodes to count further"
        more = " (stopped at --limit: at least this many)" if c["stopped_at_limit"] else ""
        if c["stopped_at_budget"] and result.limited:
            more = f" (at least this many: {budget})"
        typer.echo(f"exact fills of {facts['board']} by {facts['deck']}{more}")
        if c["up_to_symmetry"] is not None:
            typer.echo(f"{c['up_to_symmetry']} up to the board's {c['board_symmetries']} symmetries "
                       f"(fixed solutions: {', '.join(f'{k} {v}' for k, v in c['fixed_by'].items())})")
        elif c["stopped_at_budget"] and not result.limited:
            typer.echo(f"up to the board's {c['board_symmetries']} symmetries: not counted ({budget})")
        typer.echo(f"counted in {c['seconds']:.1f} s")
    else:
        cells = facts["board_cells"]
        cut = f"the search budget of {max_nodes:,} steps ran out; raise --max-nodes to search further"
        fill = {True: "yes", False: "no", None: f"unknown ({cut})"}[facts["fill"]]
        typer.echo(f"{facts['deck']}: {facts['patches']} patches, {area} cells; board {facts['board']}, {cells} cells")
        typer.echo(f"exact fill by a subset of the patches: {fill}")
        proven = "" if facts["largest_area_proven"] else f" (at least; {cut})"
        typer.echo(f"largest area covered: {facts['largest_area']} of {cells} cells{proven}")
        typer.echo("cells each patch can reach: " + ", ".join(f"{r['id']} {r['cells']}" for r in facts["reach"]))
    if out is not None:
        typer.echo(f"wrote {out}")
