"""`patchwork studio [FOLDER]`: serve the local web app over FOLDER's specs (toolkit.studio).

The command checks its options, binds the socket (a free port by default), prints the address
with its access token and serves until Ctrl-C, which stops the runs the studio started too.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from toolkit.cli.errors import INTERRUPT_EXIT, fail
from toolkit.errors import ToolkitError, UsageError

TOKEN_ENV = "PATCHWORK_STUDIO_TOKEN"
"""An access token to use instead of a random one (for scripts that open the studio)."""


def studio(
    folder: Path = typer.Argument(Path("."), metavar="FOLDER", help="Folder of your spec files and records (default: the current folder)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (loopback by default; anything else lets other machines in)."),
    port: int = typer.Option(0, "--port", min=0, max=65535, help="Port to listen on (default: a free one)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the address in the default web browser."),
) -> None:
    """Serve the studio, a local web app: draw patches, browse decks, play, step records, start runs."""
    try:
        _serve(folder, host, port, open_browser)
    except ToolkitError as error:
        fail(error)


def _serve(folder: Path, host: str, port: int, open_browser: bool) -> None:
    from toolkit import studio as studio_mod

    if not folder.is_dir():
        raise UsageError(f"FOLDER {folder}: not a folder (give the folder of your spec files)")
    token = os.environ.get(TOKEN_ENV) or studio_mod.new_token()
    if len(token) < 16:
        raise UsageError(f"{TOKEN_ENV} must be at least 16 characters")
    sock = studio_mod.bind(host, port)
    bound = sock.getsockname()[1]
    server = studio_mod.server(folder, sock, token)
    urls = studio_mod.links(host, bound, token)
    url = urls[0]
    typer.echo(f"patchwork studio: serving {folder.resolve()}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"note: listening on {host}, not only this machine: anyone on the network with the "
                   "token can use the studio (docs/studio.md says what it exposes)")
    for link in urls:
        typer.echo(f"open {link}")
        if _network_link(link) and sys.stdout.isatty():  # for a phone's camera; a log gets the link alone
            typer.echo(studio_mod.qr.terminal(link))
    typer.echo("(Ctrl-C stops the studio and its runs)")
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly on Ctrl-C, then raises it again: exit as every command does
        from toolkit.cli.interrupts import reported

        typer.echo("studio stopped")
        reported()  # said in its own words: no error line after it
        raise typer.Exit(INTERRUPT_EXIT) from None
    typer.echo("studio stopped")


def _network_link(link: str) -> bool:
    """True for a link another device may open (not a loopback address)."""
    host = link.split("//", 1)[1].rsplit(":", 1)[0].strip("[]")
    return not (host.startswith("127.") or host in ("localhost", "::1"))


def register(app: typer.Typer) -> None:
    app.command("studio")(studio)
