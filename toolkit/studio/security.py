"""The studio's guards: who may ask (the access token), from where (the Host and Origin headers),
how much (request size), and which files a request may name (only regular files inside FOLDER).

The studio is a local tool, but a web page in the same browser can reach 127.0.0.1: a foreign
page may send requests (no token, a cross-site Origin), or a rebinding DNS name may point at the
loopback address (a foreign Host). Every request passes `Guard` before any handler runs.
"""
from __future__ import annotations

import hmac
import os
import stat
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, urlsplit

from toolkit.errors import UsageError

TOKEN_COOKIE = "patchwork_studio_token"
TOKEN_HEADER = "x-studio-token"
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

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            cookie_token = self.check(scope, headers)
        except Refusal as refusal:
            return await _refuse(send, refusal)
        extra = list(SECURITY_HEADERS)
        if not cookie_token:
            # the first visit carries the token in the URL; later requests (scripts, styles,
            # API calls) carry it as a same-site cookie the page's scripts cannot read
            cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
            extra.append((b"set-cookie", cookie.encode()))

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=[*message.get("headers", []), *extra])
            await send(message)

        return await self.app(scope, receive, send_with_headers)

    def check(self, scope, headers: dict[str, str]) -> bool:
        """Refusal unless the request may pass; True when the token came in the cookie."""
        host = headers.get("host", "")
        if host_name(host) not in self.allowed_hosts:
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
        given = headers.get(TOKEN_HEADER)
        if given is not None and self._same(given):
            return True
        cookies = _cookies(headers.get("cookie", ""))
        if self._same(cookies.get(TOKEN_COOKIE, "")):
            return True
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if any(self._same(value) for value in query.get("token", [])):
            return False
        raise Refusal(401, "refused: no valid access token (open the address with ?token=... that "
                           "`patchwork studio` printed)")

    def _same(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())


def _cookies(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            out[name] = value
    return out


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


def inside(root: Path, text: str, suffixes: tuple[str, ...], must_exist: bool = True) -> Path:
    """The file `text` names inside `root`, resolved: only the given suffixes, no `..`, no
    symlink that leads out of `root`, only a regular file (or, with must_exist=False, a file
    not created yet in a folder inside `root`). UsageError otherwise, naming what is wrong."""
    parts = relative_parts(text)
    if not parts[-1].lower().endswith(suffixes):
        raise UsageError(f"{text}: expected a {' or '.join(suffixes)} file")
    root = root.resolve()
    target = root.joinpath(*parts)
    try:
        resolved = target.resolve(strict=False)
    except (OSError, RuntimeError):
        raise UsageError(f"{text}: the path cannot be resolved (a symlink loop?)") from None
    if resolved != root and root not in resolved.parents:
        raise UsageError(f"{text}: leads out of the studio's folder (through a symlink)")
    try:
        mode = os.stat(resolved).st_mode
    except FileNotFoundError:
        if must_exist:
            raise UsageError(f"{text}: no such file in the studio's folder") from None
        if not resolved.parent.is_dir():
            raise UsageError(f"{text}: its folder does not exist") from None
        return resolved
    except OSError as error:
        raise UsageError(f"{text}: {error.strerror or error}") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{text}: not a regular file")
    return resolved


def shown(root: Path, path: str | Path) -> str:
    """A path as the page shows it: relative to FOLDER when inside it."""
    text = str(path)
    base = str(root.resolve())
    if text.startswith(base + os.sep):
        return text[len(base) + 1:]
    return text
