"""The studio's server on real sockets: idle and half-sent connections cannot shut out a good
request, served sockets send at once (TCP_NODELAY), and a studio listening on every address
answers requests addressed to this machine's own addresses while it still refuses foreign Host
names."""
from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from toolkit import studio

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "studio-server-token-0123456789"
IDLE = 100
AT_ONCE_SECONDS = 5.0
"""A good request is answered within this while the idle connections stay open (generous: the
machine may be busy; without the guard it never is)."""


def serve(folder, host="127.0.0.1", **kwargs):
    sock = studio.bind(host, 0)
    server = studio.server(folder, sock, TOKEN, **kwargs)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the studio did not start"
        time.sleep(0.02)
    return server, thread, sock.getsockname()[1]


@pytest.fixture
def running(tmp_path):
    server, thread, port = serve(tmp_path)
    yield server, port
    server.should_exit = True
    thread.join(15)
    assert not thread.is_alive()


def get(host: str, port: int, path: str = "/api/info", host_header: str | None = None,
        timeout: float = AT_ONCE_SECONDS) -> int:
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        headers = {"x-studio-token": TOKEN}
        if host_header is not None:
            headers["host"] = host_header
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def half_sent(port: int, count: int) -> list[socket.socket]:
    """Connections that send a request line and one header, then nothing more."""
    out = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=AT_ONCE_SECONDS)
        sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        out.append(sock)
    return out


def closed_by_server(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:  # reset
        return True


def test_idle_half_sent_connections_do_not_shut_out_a_good_request(running):
    server, port = running
    idle = half_sent(port, IDLE)
    try:
        time.sleep(0.3)  # let the server accept them all
        for _ in range(3):
            started = time.monotonic()
            assert get("127.0.0.1", port) == 200
            assert time.monotonic() - started < AT_ONCE_SECONDS
        # the oldest idle ones were closed to make room; the newest are still open
        assert closed_by_server(idle[0], AT_ONCE_SECONDS)
    finally:
        for sock in idle:
            sock.close()


@pytest.mark.slow
def test_a_request_whose_headers_never_finish_is_closed(tmp_path):
    server, thread, port = serve(tmp_path, idle_seconds=0.5)
    try:
        (sock,) = half_sent(port, 1)
        assert closed_by_server(sock, AT_ONCE_SECONDS)
        sock.close()
        # a keep-alive connection that has been answered is idle again, and closed the same way
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=AT_ONCE_SECONDS)
        conn.request("GET", "/api/info", headers={"x-studio-token": TOKEN})
        assert conn.getresponse().read() and conn.sock is not None
        assert closed_by_server(conn.sock, AT_ONCE_SECONDS)
        conn.close()
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.mark.slow
def test_a_long_request_is_not_taken_for_an_idle_one(tmp_path):
    server, thread, port = serve(tmp_path, idle_seconds=0.3)
    try:
        started = time.monotonic()
        # /api/changes waits up to `wait` seconds for a change in FOLDER: busy, never idle
        assert get("127.0.0.1", port, "/api/changes?since=0&wait=2") == 200
        assert time.monotonic() - started >= 1.5
    finally:
        server.should_exit = True
        thread.join(15)


def test_served_sockets_send_at_once(running):
    server, port = running
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=AT_ONCE_SECONDS)
    conn.request("GET", "/api/info", headers={"x-studio-token": TOKEN})
    assert conn.getresponse().read()
    served = [c.transport.get_extra_info("socket") for c in server.config.http_protocol_class.idle_rules.idle_since]
    assert served and all(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in served)
    conn.close()


def test_listening_on_every_address_answers_this_machines_addresses(tmp_path):
    server, thread, port = serve(tmp_path, host="0.0.0.0")
    try:
        # a network address of this machine when it has one; 127.0.0.2 (a loopback address that is
        # not the studio's name) stands in for one otherwise
        address = (studio.local_addresses() or ["127.0.0.2"])[0]
        assert get(address, port) == 200
        assert get(address, port, host_header=f"{address}:{port}") == 200
        assert get("127.0.0.1", port) == 200
        # a name that is not this machine's stays refused (DNS rebinding), and so does another
        # address than the one the request arrived on
        assert get(address, port, host_header=f"evil.example:{port}") == 403
        assert get("127.0.0.1", port, host_header=f"10.11.12.13:{port}") == 403
        assert get(address, port, host_header="10.11.12.13") == 403
        links = studio.links("0.0.0.0", port, TOKEN)
        assert links[0] == f"http://127.0.0.1:{port}/?token={TOKEN}"
        assert all(f":{port}/?token={TOKEN}" in link for link in links)
        assert [link for link in links if link.startswith(f"http://{address}:")] or address == "127.0.0.2"
    finally:
        server.should_exit = True
        thread.join(15)


def test_a_studio_on_loopback_refuses_its_other_addresses(running):
    server, port = running
    assert get("127.0.0.1", port, host_header=f"127.0.0.2:{port}") == 403
    assert studio.links("127.0.0.1", port, TOKEN) == [f"http://127.0.0.1:{port}/?token={TOKEN}"]


class _FakeTransport:
    def __init__(self):
        self.closed = False

    def is_closing(self):
        return self.closed

    def close(self):
        self.closed = True


class _FakeLoop:
    def call_later(self, delay, callback, *args):
        return None


class _FakeConnection:
    """What Connections asks of a connection: its client, whether it is busy, its transport."""

    loop = _FakeLoop()

    def __init__(self, client: str, busy: bool = False):
        self.client = (client, 40000)
        self.transport = _FakeTransport()
        self._busy = busy

    def busy(self):
        return self._busy


def test_the_idle_rules_close_the_oldest_idle_connections_never_a_busy_one():
    from toolkit.studio.connections import Connections

    rules = Connections(idle_seconds=60, per_client=4, total=10)
    busy = [_FakeConnection("10.0.0.1", busy=True) for _ in range(3)]
    idle = [_FakeConnection("10.0.0.1") for _ in range(6)]
    for connection in [*busy, *idle]:
        rules.opened(connection)
    # one client keeps at most 4 idle connections: the two oldest were closed, the busy ones never
    assert [c.transport.closed for c in idle] == [True, True, False, False, False, False]
    assert not any(c.transport.closed for c in busy)
    others = [_FakeConnection(f"10.0.0.{n}") for n in range(2, 6)]
    for connection in others:
        rules.opened(connection)
    # 3 busy + 4 idle + 4 others = 11 > 10 in all: the oldest idle connection made room
    assert idle[2].transport.closed and not idle[3].transport.closed
    assert not any(c.transport.closed for c in [*busy, *others])
    assert len(rules.idle_since) == 10


@pytest.mark.slow
def test_a_body_that_trickles_in_is_refused_in_time(tmp_path, monkeypatch):
    """Headers sent, then the body a byte at a time: the studio answers 408 once BODY_SECONDS
    have passed, not whenever the sender is done (set to 1 s here; 10 s in use)."""
    from toolkit.studio import app

    monkeypatch.setattr(app, "BODY_SECONDS", 1.0)
    server, thread, port = serve(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(f"POST /api/shape HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nx-studio-token: {TOKEN}\r\n"
                         "content-type: application/json\r\ncontent-length: 60\r\n\r\n".encode())
            conn.settimeout(0.3)
            started = time.monotonic()
            answer = b""
            for _ in range(40):  # 12 s of one byte every 0.3 s at most, fewer than 60 bytes
                try:
                    conn.sendall(b" ")
                except OSError:
                    pass
                try:
                    answer += conn.recv(4096)
                except socket.timeout:
                    continue
                except OSError:
                    break
                if b"\r\n\r\n" in answer:
                    break
            took = time.monotonic() - started
            conn.settimeout(2)  # the answer's body may come in a later packet than its head
            while b"did not arrive" not in answer:
                try:
                    more = conn.recv(4096)
                except OSError:
                    break
                if not more:
                    break
                answer += more
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"did not arrive within 1 s" in answer
        assert took < 8
        assert get("127.0.0.1", port) == 200  # the studio answers others as before
    finally:
        server.should_exit = True
        thread.join(15)
