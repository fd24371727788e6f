"""The studio: a local web app over the toolkit (`patchwork studio [FOLDER]`).

Designers draw patches and see their facts and printed card, browse a deck that follows their
edits, start balance runs and read their reports; players play and step through records. The
pages (static/, plain ES modules, nothing fetched from outside the machine) call an HTTP API
(toolkit.studio.app) that calls the same library functions as the CLI. It listens on loopback,
and every request needs the access token printed with the address (toolkit.studio.security).
"""
from __future__ import annotations

import secrets
import socket
from pathlib import Path

from toolkit.errors import UsageError

DEFAULT_HOST = "127.0.0.1"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one), or UsageError saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.listen(64)
    sock.set_inheritable(False)
    return sock


def address(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def _wildcard_names(host: str) -> frozenset[str]:
    """The names this machine answers to, when listening on every address (0.0.0.0 or ::)."""
    if host not in ("0.0.0.0", "::"):
        return frozenset()
    names = {socket.gethostname(), socket.getfqdn()}
    try:
        names.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None))
    except OSError:
        pass
    return frozenset(name.lower() for name in names if name)


def server(folder: Path, sock: socket.socket, token: str, allowed_hosts: frozenset[str] | None = None,
           max_running: int | None = None, log_level: str = "warning"):
    """A uvicorn Server for the studio on a bound socket (run it with `server.run(sockets=[sock])`)."""
    import uvicorn

    from toolkit.studio.app import create_app
    from toolkit.studio.security import LOOPBACK_NAMES

    host = sock.getsockname()[0]
    hosts = allowed_hosts or (LOOPBACK_NAMES | {host.lower()} | _wildcard_names(host))
    app = create_app(folder, token, hosts, max_running)
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", access_log=False,
                            timeout_graceful_shutdown=3, limit_concurrency=64, h11_max_incomplete_event_size=64 * 1024)

    class StudioServer(uvicorn.Server):
        async def shutdown(self, sockets=None):
            app.studio.closing = True  # long-polling pages answer now instead of holding the shutdown
            await super().shutdown(sockets=sockets)

    return StudioServer(config)
