"""`patchwork export tts EDITION`: an edition, variant or custom deck on a virtual table."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from toolkit.cli.options import output_folder, path_text
from toolkit.errors import UsageError

export_app = typer.Typer(help="Put an edition on a virtual table (Tabletop Simulator).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")


@export_app.command("tts")
def tts(
    edition: str = typer.Argument(..., metavar="EDITION", help="Bundled edition name, or a variant or custom deck "
                                                               "YAML file."),
    out: Path = typer.Option(Path("output/tts"), "--out", "-o", metavar="FOLDER", parser=path_text,
                             callback=output_folder, help="Folder for the saved object (JSON) and its images/."),
    theme: Optional[Path] = typer.Option(None, "--theme", metavar="FILE", parser=path_text,
                                         help="A theme file (kind: theme), as for render and build."),
    solo: bool = typer.Option(False, "--solo", help="Set up a solo game against the Automa (one quilt board)."),
    relative: bool = typer.Option(False, "--relative", help="Name the images by paths relative to the JSON instead "
                                                            "of file:/// URLs (to move the folder, then re-link)."),
    force: bool = typer.Option(False, "--force", help="Overwrite files this toolkit did not write."),
) -> None:
    """Write a Tabletop Simulator saved object: patches as tokens cut to their shape, the boards,
    buttons and time tokens, the card decks as card sheets, set up to start a game; plus images/."""
    from toolkit.render.theme import DEFAULT_THEME
    from toolkit.render.tts import export_tts
    from toolkit.specs import load_edition

    if not edition.strip():
        raise UsageError("EDITION '': an empty value; give a bundled name or a .yaml file")
    look = DEFAULT_THEME
    if theme is not None:
        from toolkit.render.theme_file import check_names, load_theme

        look = load_theme(theme)
    spec = load_edition(edition)
    if theme is not None:
        check_names(look, spec)
    if solo:
        from toolkit.render.components import require_solo_opponent

        require_solo_opponent(spec, "--solo sets up")
    target, files = export_tts(spec, out, look, relative=relative, force=force, solo=solo)
    images = [f for f in files if f.suffix == ".png"]
    typer.echo(f"wrote {target}: a Tabletop Simulator saved object, and {len(images)} images in {target.parent / 'images'}")
    typer.echo("load it in Tabletop Simulator: copy the JSON into its Saves/Saved Objects folder and spawn it "
               "from Objects > Saved Objects (the images are file:/// paths on this machine"
               f"{'; relative paths with --relative' if not relative else ''})")
