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
from toolkit.studio import qr  # noqa: F401  (the command draws its network links' QR codes)

DEFAULT_HOST = "127.0.0.1"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one), or UsageError saying why not."""
    from toolkit.studio.connections import set_nodelay

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, so that asyncio sets TCP_NODELAY on every accepted socket too
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    set_nodelay(sock)
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


WILDCARDS = ("0.0.0.0", "::")


def _wildcard_names(host: str) -> frozenset[str]:
    """The names this machine answers to, when listening on every address (0.0.0.0 or ::)."""
    if host not in WILDCARDS:
        return frozenset()
    names = {socket.gethostname(), socket.getfqdn()}
    try:
        names.update(info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None))
    except OSError:
        pass
    return frozenset(name.lower() for name in names if name)


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (the ones another device may reach),
    best first: the address of the default route, then every interface's."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:  # a datagram socket's connect sends nothing: it only picks the outgoing address
        probe.connect(("192.0.2.1", 9))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        import fcntl
        import struct

        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                try:  # SIOCGIFADDR: the interface's IPv4 address
                    raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue
                found.append(socket.inet_ntoa(raw[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    seen: list[str] = []
    for item in found:
        if item not in seen and not item.startswith("127.") and item != "0.0.0.0":
            seen.append(item)
    return seen


def links(host: str, port: int, token: str) -> list[str]:
    """The addresses to open: the bound one, or for 0.0.0.0 / :: this machine's loopback and
    network addresses (the Host check accepts the address a connection arrives on)."""
    if host not in WILDCARDS:
        return [address(host, port, token)]
    loopback = "::1" if host == "::" and not local_addresses() else "127.0.0.1"
    return [address(loopback, port, token), *(address(a, port, token) for a in local_addresses())]


def _loopback_link(link: str) -> bool:
    name = link.split("//", 1)[1].rsplit(":", 1)[0].strip("[]")
    return name.startswith("127.") or name in ("localhost", "::1")


def server(folder: Path, sock: socket.socket, token: str, allowed_hosts: frozenset[str] | None = None,
           max_running: int | None = None, log_level: str = "warning", idle_seconds: float | None = None,
           network_links: tuple[str, ...] | None = None):
    """A uvicorn Server for the studio on a bound socket (run it with `server.run(sockets=[sock])`).
    The page shows `network_links` (by default the machine's network addresses when listening on
    every address) with their QR codes, for another device."""
    import uvicorn

    from toolkit.studio.app import create_app
    from toolkit.studio.connections import BUSY_LIMIT, IDLE_SECONDS, MAX_CONNECTIONS, Connections, protocol_for
    from toolkit.studio.security import LOOPBACK_NAMES

    host = sock.getsockname()[0]
    hosts = allowed_hosts or (LOOPBACK_NAMES | {host.lower()} | _wildcard_names(host))
    network = network_links if network_links is not None else tuple(
        link for link in links(host, sock.getsockname()[1], token) if not _loopback_link(link))
    app = create_app(folder, token, hosts, max_running, network_links=network)
    connections = Connections(idle_seconds or IDLE_SECONDS)
    # uvicorn's limit counts open connections; ours keep at most MAX_CONNECTIONS idle ones, so its
    # 503 answers only when BUSY_LIMIT requests are being answered beyond them
    config = uvicorn.Config(app, log_level=log_level, lifespan="on", access_log=False, http=protocol_for(connections),
                            timeout_graceful_shutdown=3, limit_concurrency=MAX_CONNECTIONS + BUSY_LIMIT,
                            h11_max_incomplete_event_size=64 * 1024)

    class StudioServer(uvicorn.Server):
        async def shutdown(self, sockets=None):
            app.studio.closing = True  # long-polling pages answer now instead of holding the shutdown
            await super().shutdown(sockets=sockets)

    return StudioServer(config)
