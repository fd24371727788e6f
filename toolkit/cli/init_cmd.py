"""`patchwork init variant|deck|edition NAME`: write a commented starting spec that validates.

Every key written carries the schema's own description of it as a comment (toolkit.specs.schema),
so the file explains itself and cannot drift from what the loader accepts. The written files are
validated before the command says it is done; the README's examples use them.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import typer

from toolkit.cli.errors import fail
from toolkit.errors import ToolkitError, UsageError

KINDS = ("variant", "deck", "edition")
NEW_PATCH_ID = "N01"
NEW_PATCH_SHAPES = ("##./.##/..#", "###/.#./.#.", "#../###/..#", "##../.###", "###./..##")
"""First candidates for the new patch of `init variant`; the first the deck lacks is used (then
any free pentomino or hexomino)."""
NEW_PATCH_PRICE = {"cost": 3, "time": 3, "income": 1}
"""Its printed stats, where the family prices patches: a start for `patchwork price`."""
REFERENCE_KEYS = ("patches", "time_track", "automa", "start_cards")
"""Keys whose value may be the name of a bundled file; `init edition` keeps such a name."""
PROVENANCE_KEYS = ("confidence", "provenance", "source")
ID_FIRST = ("id", "shape", "cost", "time", "income", "copies", "tag", "name", "colour", "duplicate_of")


def register(app: typer.Typer) -> None:
    app.command("init")(init)


def init(
    kind: str = typer.Argument(..., metavar="KIND", help="variant, deck or edition."),
    name: str = typer.Argument(..., metavar="NAME",
                               help="Name of the new spec (lower-case letters, digits, dashes); the file is NAME.yaml. "
                                    "A path ending in .yaml names the file itself."),
    source: str = typer.Option("classic", "--from", metavar="EDITION",
                               help="The bundled edition or variant (or spec file) to start from."),
    with_patch: bool = typer.Option(False, "--with-patch",
                                    help=f"variant: also add a new patch, {NEW_PATCH_ID}, to draw and price."),
    force: bool = typer.Option(False, "--force", help="Overwrite files that exist."),
) -> None:
    """Write a commented starting file: a variant (its rules to uncomment; --with-patch adds a new
    patch to price), a deck (its own patch set and a variant that plays it) or a whole edition;
    `validate` accepts it as written."""
    try:
        written, summary = write_init(kind, name, source, force, with_patch)
    except ToolkitError as error:
        fail(error)
        return
    for path, role in written:
        typer.echo(f"wrote {path}: {role}")
    typer.echo(summary)
    main = written[0][0]
    typer.echo(f"next: patchwork validate {main} --watch   (edit it; each save is checked)")


def target_of(name: str) -> tuple[str, Path]:
    """(spec name, file) for NAME or a path ending in .yaml/.yml."""
    from toolkit.specs.schema import NAME_PATTERN

    path = Path(name)
    if path.suffix.lower() in (".yaml", ".yml"):
        stem = path.stem
    else:
        stem, path = name, Path(f"{name}.yaml")
    if not re.match(NAME_PATTERN, stem) or len(stem) > 64:
        raise UsageError(f"{name!r}: a spec name is lower-case letters, digits and dashes, starting with a letter "
                         "or digit, e.g. my-variant")
    return stem, path


def write_init(kind: str, name: str, source: str, force: bool = False,
               with_patch: bool = False) -> tuple[list[tuple[Path, str]], str]:
    """Write the starting files of `kind`; returns ((file, what it is for) for each file written,
    a summary). Every target is checked before anything is written, and the files are written
    together: a refusal or a failure leaves what was there before."""
    from toolkit.fileio import write_files
    from toolkit.specs import load_edition

    if kind not in KINDS:
        raise UsageError(f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")
    if with_patch and kind != "variant":
        raise UsageError(f"--with-patch: a new patch is added to a variant; a {kind} copies its patches already")
    stem, path = target_of(name)
    parent = load_edition(source)
    play = f"the variant to edit, play and print (patchwork play {path})"
    if kind == "variant":
        files = {path: (variant_text(stem, source, parent, with_patch), play)}
        summary = (f"a variant of {parent.name} with a new patch {NEW_PATCH_ID}; nothing else changes until you "
                   "uncomment a rule" if with_patch else
                   f"a variant of {parent.name} that changes nothing yet: uncomment the rules to change"
                   f" (--with-patch also adds a new patch to price)")
    elif kind == "deck":
        patches = path.with_name(f"{stem}-patches.yaml")
        files = {path: (deck_variant_text(stem, source, parent, patches.name),
                        "the variant that plays the deck: play, check and print this one"),
                 patches: (patch_set_text(f"{stem}-patches", source, parent),
                           f"the patch set: {len(parent.all_patches())} patches copied from {parent.name}, to edit")}
        summary = (f"a deck of your own: edit {patches}, then play-test it with patchwork deck check {path}"
                   if _prices_patches(parent) else f"a deck of your own: edit {patches}, then play it with "
                   f"patchwork play {path}")
    else:
        files = {path: (edition_text(stem, source, parent), "the edition to edit, play and print")}
        summary = f"an edition of the {parent.family.value} family, starting from {parent.name}"
    for target in files:
        _check_init_target(target, force)
    before = {target: target.read_bytes() for target in files if target.exists()}
    write_files({target: text.encode("utf-8") for target, (text, _) in files.items()})
    problems = _validation_errors(path)
    if problems:  # a bug of this command, not of the user: put back what was there and say it plainly
        for target in files:
            if target in before:
                write_files({target: before[target]})
            else:
                target.unlink(missing_ok=True)
        raise UsageError("the written file does not validate: " + problems)
    return [(target, role) for target, (_, role) in files.items()], summary


def _check_init_target(target: Path, force: bool) -> None:
    """UsageError/OutputError before anything is written: an existing file without --force, and
    (with --force too) anything that is not a plain file: a link is not followed, since writing
    through it would change a file of another name."""
    from toolkit.fileio import check_target, path_kind

    if os.path.islink(target):
        raise UsageError(f"{target} is a symbolic link; init writes only plain files: "
                         "remove it or choose another name")
    kind = path_kind(target)
    if kind is not None:
        raise UsageError(f"{target} is {kind}, not a file; choose another name")
    if target.exists() and not force:
        raise UsageError(f"{target} exists; choose another name or add --force")
    check_target(target)


def _validation_errors(path: Path) -> str:
    from toolkit.specs.loader import validate_report

    report = validate_report([path])
    return "; ".join(str(p) for p in report.errors)


# ----- writing YAML with the schema's words ----------------------------------------------------------

def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)) and value and all(isinstance(row, str) for row in value) \
            and all(set(row) <= {"#", "."} for row in value):
        value = "/".join(value)  # a shape, as one line
    import yaml  # loaded when a spec is written, not with the command line

    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=10**6, allow_unicode=True).strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    return text


def _doc(kind: str, key: str) -> str:
    from toolkit.specs.schema import FILE_KINDS

    spec = FILE_KINDS[kind].fields.get(key)
    return spec.doc if spec is not None else ""


def _key(kind: str, key: str, value: Any, commented: bool = False) -> list[str]:
    lead = "# " if commented else ""
    doc = _doc(kind, key)
    return ([f"# {doc}"] if doc else []) + [f"{lead}{key}: {_value(value)}", ""]


def _header(lines: list[str]) -> list[str]:
    return [f"# {line}".rstrip() for line in lines] + [""]


def _opening(kind: str, name: str, title: str) -> list[str]:
    """The keys every file `init` writes starts with: its kind, name and title."""
    return [f"kind: {kind}", "", *_key(kind, "name", name), *_key(kind, "title", title)]


def _patch_line(patch: dict) -> str:
    keys = [k for k in ID_FIRST if k in patch] + [k for k in patch if k not in ID_FIRST and k not in PROVENANCE_KEYS]
    inner = ", ".join(f"{k}: {_value(patch[k])}" for k in keys)
    return f"  - {{{inner}}}"


def _patch_keys_help(kind: str, family_prices: bool) -> list[str]:
    from toolkit.specs.schema import PATCH

    keys = ["id", "shape"] + (["cost", "time", "income"] if family_prices else ["copies"]) + ["tag"]
    return [f"  {key}: {PATCH.fields[key].doc}" for key in keys if key in PATCH.fields]


def _prices_patches(edition) -> bool:
    from toolkit.families import family_of

    return family_of(edition).info.prices_patches


def new_patch(edition) -> dict:
    """A patch the edition's deck does not hold (5 cells when one is free), with a price where
    the family prices patches."""
    from toolkit.geometry import Shape
    from toolkit.geometry.enumerate import free_polyominoes

    held = {p.shape.canonical_key for p in edition.all_patches()}
    candidates = [Shape.parse(s) for s in NEW_PATCH_SHAPES] + [s for n in (5, 6) for s in free_polyominoes(n)]
    fits = [s for s in candidates if s.width <= edition.board_width and s.height <= edition.board_height]
    shape = next((s for s in fits if s.canonical_key not in held), fits[0]).format()
    patch: dict[str, Any] = {"id": NEW_PATCH_ID, "shape": shape}
    if _prices_patches(edition):
        patch.update(NEW_PATCH_PRICE)
    return patch


def _rule_keys(source: str) -> list[tuple[str, Any]]:
    """The whole-number and yes/no rules of the edition `source` names, with their values (what
    a variant most often changes), in the schema's order."""
    from toolkit.specs.loader import resolved_spec
    from toolkit.specs.schema import FILE_KINDS

    spec = resolved_spec(source)
    fields = FILE_KINDS["edition"].fields
    return [(key, spec[key]) for key, field in fields.items()
            if key in spec and not field.cosmetic and isinstance(spec[key], (int, bool)) and key != "players"]


def variant_text(name: str, source: str, parent, with_patch: bool = False) -> str:
    lines = _header([
        f"{name}: a variant of {parent.title} ({parent.name}), written by `patchwork init variant {name}`.",
        "",
        "A variant names what it builds on (`extends`) and sets only what it changes: any key of an",
        "edition may be set here. Every key is described in the guide's spec reference and in",
        "`patchwork schema`. Uncomment a line to change that rule.",
        "",
        f"  check it as you edit:  patchwork validate {name}.yaml --watch",
        f"  play it:               patchwork play {name}.yaml --seed 1",
        f"  compare it:            patchwork balance {parent.name} {name}.yaml --games 200",
    ])
    lines += _opening("variant", name, f"{parent.title} ({name})")
    lines += _key("variant", "extends", source)
    for key, value in _rule_keys(source):
        lines += _key("variant", key, value, commented=True)
    if with_patch:
        patch = new_patch(parent)
        lines += [f"# {_doc('variant', 'add_patches')} {NEW_PATCH_ID} is new; see it among the others with",
                  f"#   patchwork shape '{patch['shape']}' --deck {name}.yaml"]
        if "cost" in patch:
            lines += ["# and find its fair cost with", f"#   patchwork price {name}.yaml {NEW_PATCH_ID} --values 0..8:2"]
        lines += ["add_patches:", _patch_line(patch), ""]
    else:
        example_new = new_patch(parent)
        lines += [f"# {_doc('variant', 'add_patches')} (`init variant {name} --with-patch` writes one to start from)",
                  "# add_patches:", f"# {_patch_line(example_new)}", ""]
    example = parent.all_patches()[0]
    change = {"cost": example.cost} if _prices_patches(parent) else {"shape": example.shape.format()}
    lines += [f"# {_doc('variant', 'patch_changes')}", "# patch_changes:",
              f"#   {example.id}: {_value(change)}", ""]
    lines += [f"# {_doc('variant', 'remove_patches')}", f"# remove_patches: [{example.id}]", ""]
    return "\n".join(lines).rstrip() + "\n"


def deck_variant_text(name: str, source: str, parent, patches_file: str) -> str:
    lines = _header([
        f"{name}: {parent.title} played with a deck of your own, written by `patchwork init deck {name}`.",
        "",
        f"The deck is the patch set in {patches_file}; redraw, re-price, add or drop patches there.",
        "",
        f"  check both files:  patchwork validate {name}.yaml --watch",
        f"  print the deck:    patchwork build --edition {name}.yaml",
        f"  play-test it:      patchwork deck check {name}.yaml --games 200",
    ])
    lines += _opening("variant", name, f"{parent.title} ({name} deck)")
    lines += _key("variant", "extends", source)
    lines += _key("variant", "patches", patches_file)
    return "\n".join(lines).rstrip() + "\n"


def patch_set_text(name: str, source: str, parent) -> str:
    from toolkit.specs.loader import resolved_spec

    spec = resolved_spec(source)
    keys_help = _patch_keys_help("patch-set", _prices_patches(parent))
    lines = _header([
        f"{name}: a patch set, first copied from {parent.title} ({parent.name}) by `patchwork init deck`.",
        "",
        "One patch per line:",
        *keys_help,
        "A shape is rows of '#' (cloth) and '.' (gap) joined by '/', e.g. '##./.##'.",
    ])
    lines += _opening("patch-set", name, f"Patches of {name}")
    lines += _key("patch-set", "provenance", f"Copied from the {parent.name} patches by patchwork init; then edited.")
    lines += [f"# {_doc('patch-set', 'patches')}", "patches:"]
    lines += [_patch_line(patch) for patch in spec["patches"]]
    return "\n".join(lines).rstrip() + "\n"


def edition_text(name: str, source: str, parent) -> str:
    from toolkit.specs.catalogue import EDITIONS_DIR, bundled_specs_dir
    from toolkit.specs.loader import resolved_spec
    from toolkit.specs.schema import FILE_KINDS

    spec = dict(resolved_spec(source))
    raw_path = bundled_specs_dir() / EDITIONS_DIR / f"{source}.yaml"
    if raw_path.is_file():  # keep the bundled names of the parts it refers to, not 30 inlined patches
        import yaml

        raw = yaml.safe_load(raw_path.read_text(encoding="utf-8")) or {}
        for key in REFERENCE_KEYS:
            if isinstance(raw.get(key), str):
                spec[key] = raw[key]
    spec["name"] = name
    spec["title"] = f"{parent.title} ({name})"
    lines = _header([
        f"{name}: a whole edition, first copied from {parent.title} ({parent.name}) by `patchwork init edition`.",
        "",
        "An edition states every rule; a key it leaves out takes the default the spec reference names.",
        "A value that is a name (patches: classic) refers to a bundled file; give a path such as",
        "my-patches.yaml to use your own.",
        "",
        f"  check it as you edit:  patchwork validate {name}.yaml --watch",
        f"  print it:              patchwork build --edition {name}.yaml",
    ])
    lines += ["kind: edition", ""]
    for key in FILE_KINDS["edition"].fields:
        if key == "kind" or key in PROVENANCE_KEYS or key not in spec:
            continue
        if key == "patches" and isinstance(spec[key], list):
            lines += [f"# {_doc('edition', key)}", "patches:"] + [_patch_line(p) for p in spec[key]] + [""]
            continue
        lines += _key("edition", key, spec[key])
    lines += _key("edition", "provenance", f"Started from {parent.name} with patchwork init; say where your rules come from.")
    return "\n".join(lines).rstrip() + "\n"

