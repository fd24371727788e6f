"""The studio's guards: who may ask (the access token), from where (the Host and Origin headers),
how much (request size), and which paths a request may name (relative ones inside FOLDER; the
files themselves are reached by toolkit.studio.files).

The studio is a local tool, but a web page in the same browser can reach 127.0.0.1: a foreign
page may send requests (no token, a cross-site Origin), or a rebinding DNS name may point at the
loopback address (a foreign Host). Every request passes `Guard` before any handler runs.

The token never travels in a cookie: browsers send a cookie to every port of a host, so any other
local server the browser visits would receive it. The page keeps the token it was opened with
(per tab and origin) and sends it as a header on API calls, or in the address of an image or a
download. The page's own scripts and styles are served under `/static/<key>/`, where the key is
derived from the token and opens only those public files: ES modules import each other by
relative address, which keeps the key and so needs no cookie.

A player's sheet at a Doodle table (toolkit.studio.table) is opened from a phone by a link of its
own: its key, derived from the token, the table and the seat, opens that sheet's page and API
and nothing else (`sheet_key`, SHEET_PATH).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, urlsplit

from toolkit.errors import UsageError

TOKEN_HEADER = "x-studio-token"
SHEET_HEADER = "x-sheet-key"
SHEET_PATH = re.compile(r"^/(?:api/)?sheet/(t\d{1,9})/(\d{1,2})$")
"""A player's sheet at a table (its page and its API): opened by that player's key alone."""
MAX_BODY_BYTES = 256 * 1024
"""Largest request body accepted: a posted patch or run is a few hundred bytes."""
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
SECURITY_HEADERS = (
    # the pages load only the studio's own scripts and styles, show images of the studio or data:
    # URLs (the printed pieces), talk only to the studio, and may not be framed by another page
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; script-src 'self'; "
                                 b"style-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
                                 b"base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def host_name(host_header: str) -> str:
    """The host name of a Host header without its port (`[::1]:8000` -> `::1`)."""
    text = host_header.strip().lower()
    if text.startswith("["):
        return text[1:text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text


def static_key(token: str) -> str:
    """The path key of the page's scripts and styles: derived from the token, so that it changes
    with every studio, and useless for anything but those files."""
    digest = hmac.new(token.encode(), b"patchwork studio static files", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode("ascii").rstrip("=")


def sheet_key(token: str, table: str, seat: int) -> str:
    """The secret of one player's link at one table: derived from the token, so it opens that
    sheet only, changes with every studio, and cannot be told from another player's."""
    digest = hmac.new(token.encode(), f"patchwork studio sheet {table} {seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


def same_address(name: str, local: str | None) -> bool:
    """True when a Host name is the address the connection arrived on (`::ffff:10.0.0.5` is
    10.0.0.5 on a dual-stack socket): a page opened by that address, not a rebinding DNS name."""
    if not local:
        return False
    local = local.lower()
    return name == local or (local.startswith("::ffff:") and name == local[7:])


class Refusal(Exception):
    """A request refused before any handler: HTTP status and one line saying why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Guard:
    """Pure ASGI middleware: Host, token, Origin and body-size checks on every HTTP request."""

    def __init__(self, app, token: str, allowed_hosts: frozenset[str] = LOOPBACK_NAMES,
                 max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.token = token
        self.allowed_hosts = frozenset(h.lower() for h in allowed_hosts)
        self.max_body = max_body
        self.static_prefix = f"/static/{static_key(token)}/"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            self.check(scope, headers)
        except Refusal as refusal:
            return await _refuse(send, refusal)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *SECURITY_HEADERS])
            await send(message)

        return await self.app(scope, receive, send_with_headers)

    def check(self, scope, headers: dict[str, str]) -> None:
        """Refusal unless the request may pass."""
        host = headers.get("host", "")
        name = host_name(host)
        local = scope.get("server")
        if name not in self.allowed_hosts and not same_address(name, local[0] if local else None):
            raise Refusal(403, f"refused: the Host header {host!r} is not this studio's address "
                               "(open the address the studio printed)")
        origin = headers.get("origin")
        if origin is not None and origin != "null":
            parts = urlsplit(origin)
            if parts.netloc.lower() != host.lower() or parts.scheme != scope.get("scheme", "http"):
                raise Refusal(403, f"refused: a request from another site ({origin})")
        elif origin == "null":
            raise Refusal(403, "refused: a request from an opaque origin")
        if headers.get("sec-fetch-site") == "cross-site":
            raise Refusal(403, "refused: a cross-site request")
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():
                raise Refusal(400, "refused: a bad Content-Length")
            if int(length) > self.max_body:
                raise Refusal(413, f"refused: the request is larger than {self.max_body} bytes")
        if scope.get("method") in ("GET", "HEAD") and scope.get("path", "").startswith(self.static_prefix):
            return
        given = headers.get(TOKEN_HEADER)
        if given is not None and self._same(given):
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        sheet = SHEET_PATH.match(scope.get("path", ""))
        if sheet is not None:
            key = sheet_key(self.token, sheet.group(1), int(sheet.group(2))).encode()
            offered = [headers.get(SHEET_HEADER, ""), *query.get("key", [])]
            if any(value and hmac.compare_digest(value.encode(), key) for value in offered):
                return
        if any(self._same(value) for value in query.get("token", [])):
            return
        raise Refusal(401, "refused: no valid access token (open the address with ?token=... that "
                           "`patchwork studio` printed)")

    def _same(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())


async def _refuse(send, refusal: Refusal) -> None:
    import json

    body = json.dumps({"error": refusal.message}).encode()
    await send({"type": "http.response.start", "status": refusal.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


# ----- paths inside FOLDER --------------------------------------------------------------------

MAX_PATH_TEXT = 400


def relative_parts(text: str) -> tuple[str, ...]:
    """The parts of a path relative to FOLDER, or UsageError: no absolute path, no `..`, no
    empty or control characters."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError("no file named: give a path inside the studio's folder")
    if len(text) > MAX_PATH_TEXT:
        raise UsageError(f"the path is longer than {MAX_PATH_TEXT} characters")
    if any(ord(ch) < 32 or ch == "\\" for ch in text):
        raise UsageError(f"{text!r}: a path may not hold control characters or backslashes")
    path = PurePosixPath(text)
    if path.is_absolute():
        raise UsageError(f"{text}: give a path inside the studio's folder, not an absolute one")
    parts = tuple(p for p in path.parts if p != ".")
    if ".." in parts:
        raise UsageError(f"{text}: '..' may not leave the studio's folder")
    if not parts:
        raise UsageError("no file named: give a path inside the studio's folder")
    return parts


def shown(root: Path, path: str | Path) -> str:
    """A path as the page shows it: relative to FOLDER when inside it."""
    text = str(path)
    base = str(root.resolve())
    if text.startswith(base + os.sep):
        return text[len(base) + 1:]
    return text
