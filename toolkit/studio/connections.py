"""The studio's connections: each served socket sends at once (TCP_NODELAY), and idle ones, such
as a request whose headers never finish, cannot crowd out the requests that come after them.

uvicorn counts every open connection towards its concurrency limit and waits for a request's
headers without a deadline, so a few dozen half-sent requests would make every later request a
503. Here a connection is *busy* while a request it carried is being answered and *idle*
otherwise (before its request's headers are complete, and between keep-alive requests). An idle
connection is closed after IDLE_SECONDS; a client holds at most MAX_IDLE_PER_CLIENT idle ones and
the server MAX_CONNECTIONS in all, and a new connection closes the oldest idle one instead of
being turned away. A busy request is never interrupted.
"""
from __future__ import annotations

import asyncio
import socket
import time

from uvicorn.protocols.http.h11_impl import H11Protocol

IDLE_SECONDS = 10.0
"""Longest a connection may stay open without a request being answered on it (a request's
headers must arrive within this time)."""
MAX_IDLE_PER_CLIENT = 16
"""Idle connections one client address may hold (a browser opens about six per site)."""
MAX_CONNECTIONS = 128
"""Open connections in all before a new one closes the oldest idle one."""
BUSY_LIMIT = 64
"""Requests answered at once before the next one gets 503 (the studio's own work is bounded
further: runs, games and long polls have their own limits)."""
SWEEP_SECONDS = 0.5


def set_nodelay(sock: socket.socket | None) -> None:
    """Send small writes at once: without it a response's head and body wait on the client's
    delayed acknowledgement (about 40 ms per request on a reused connection)."""
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except OSError:
        pass


class Connections:
    """The open connections of one server, when each last became idle, and the closing rules."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS, per_client: int = MAX_IDLE_PER_CLIENT,
                 total: int = MAX_CONNECTIONS):
        self.idle_seconds = idle_seconds
        self.per_client = per_client
        self.total = total
        self.idle_since: dict[StudioProtocol, float] = {}
        self._sweeper: asyncio.TimerHandle | None = None

    def opened(self, connection: StudioProtocol) -> None:
        client = connection.client[0] if connection.client else None
        idle = sorted((since, id(c), c) for c, since in self.idle_since.items() if not c.busy())
        same = [c for _, _, c in idle if (c.client[0] if c.client else None) == client]
        for old in same[:max(0, len(same) - self.per_client + 1)]:
            self._close(old)
        crowded = len(self.idle_since) - self.total + 1
        for _, _, old in idle:
            if crowded <= 0:
                break
            if old in self.idle_since:
                self._close(old)
                crowded -= 1
        self.idle_since[connection] = time.monotonic()
        if self._sweeper is None:
            self._sweeper = connection.loop.call_later(SWEEP_SECONDS, self._sweep, connection.loop)

    def became_idle(self, connection: StudioProtocol) -> None:
        if connection in self.idle_since:
            self.idle_since[connection] = time.monotonic()

    def closed(self, connection: StudioProtocol) -> None:
        self.idle_since.pop(connection, None)

    def _close(self, connection: StudioProtocol) -> None:
        self.idle_since.pop(connection, None)
        if not connection.transport.is_closing():
            connection.transport.close()

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        self._sweeper = None
        now = time.monotonic()
        for connection, since in list(self.idle_since.items()):
            if not connection.busy() and now - since > self.idle_seconds:
                self._close(connection)
        if self.idle_since:
            self._sweeper = loop.call_later(SWEEP_SECONDS, self._sweep, loop)


class StudioProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, with TCP_NODELAY and the idle-connection rules."""

    idle_rules: Connections  # set on the subclass made for each server (uvicorn owns `connections`)

    def connection_made(self, transport) -> None:  # type: ignore[override]
        set_nodelay(transport.get_extra_info("socket"))
        super().connection_made(transport)
        self.idle_rules.opened(self)

    def connection_lost(self, exc) -> None:
        self.idle_rules.closed(self)
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self.idle_rules.became_idle(self)
        super().on_response_complete()

    def busy(self) -> bool:
        """True while a request of this connection is being answered."""
        return self.cycle is not None and not self.cycle.response_complete


def protocol_for(connections: Connections) -> type[StudioProtocol]:
    """The protocol class uvicorn is given for one server (its connections are that server's)."""
    return type("StudioServerProtocol", (StudioProtocol,), {"idle_rules": connections})
