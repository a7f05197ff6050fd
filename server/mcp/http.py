"""The MCP server over streamable HTTP, closed by default.

- DNS-rebinding protection on every bind: only requests whose ``Host`` (and
  ``Origin``, when sent) name the loopback names, the bound address or an
  ``--allowed-host`` are served; a page on a foreign site that resolves its own
  name to this machine gets 421 from the SDK's transport security.
- A bearer token: read from ``--token-file``, else taken from ``SYMFUSE_MCP_TOKEN``,
  else generated at start-up and printed to stderr. It is required whenever the bind
  is not loopback; on loopback it is required only when one of the two gives it.
- A warning on stderr when binding beyond loopback.
- Bounded sessions (:class:`SessionLimits`): one idle for ten minutes is closed, its
  memory freed (a client then opens a new one, as the protocol asks), and at most 256
  are open at once (one more is refused with 503 until one ends), so what sessions
  hold stays bounded whatever clients do.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.transport_security import TransportSecuritySettings

from symfuse.indexer.errors import SymfuseError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

TOKEN_VARIABLE = "SYMFUSE_MCP_TOKEN"
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` serves this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """How long an idle session lives and how many may be open (see the module docstring)."""

    idle_seconds: float = 600.0
    most: int = 256


@dataclass(frozen=True, slots=True)
class HttpGuard:
    """What an HTTP bind lets in: the Host names, and the token (None: no token asked)."""

    security: TransportSecuritySettings
    token: str | None
    generated: bool  # the token was made here, so it must be shown to the user


def read_token(path: Path) -> str:
    """The token in the file at ``path`` (its first line, without surrounding spaces)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or "not UTF-8 text"
        raise SymfuseError(f"--token-file {path}: cannot be read ({reason})") from exc
    lines = text.strip().splitlines()
    token = lines[0].strip() if lines else ""
    if not token:
        raise SymfuseError(f"--token-file {path}: holds no token")
    return token


def guard_for(
    host: str, port: int, allowed_hosts: Sequence[str] = (), token: str | None = None
) -> HttpGuard:
    """The guard of a bind to ``host:port`` (see the module docstring); ``token``: the one
    ``--token-file`` gave."""
    names = [*_LOOPBACK_NAMES, *allowed_hosts]
    if not is_loopback(host) and host not in ("0.0.0.0", "::"):
        names.append(f"[{host}]" if ":" in host else host)
    hosts = sorted({f"{name}:{port}" for name in names} | set(names))
    origins = sorted({f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")})
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
    given = token or os.environ.get(TOKEN_VARIABLE) or None
    if given is not None:
        return HttpGuard(security, given, generated=False)
    if is_loopback(host):
        return HttpGuard(security, None, generated=False)
    return HttpGuard(security, secrets.token_urlsafe(32), generated=True)


def announce(guard: HttpGuard, host: str, port: int) -> None:
    """Tell the user (stderr) what the bind exposes and how to get in."""
    if not is_loopback(host):
        log.warning(
            "serving MCP on %s:%d, beyond this machine: anyone who can reach the port and "
            "holds the token can read the indexed code; choose the token yourself with "
            "--token-file or %s, and serve it over TLS (a reverse proxy) beyond a trusted network",
            host,
            port,
            TOKEN_VARIABLE,
        )
    if guard.generated and guard.token is not None:
        log.warning(
            "MCP bearer token (send 'Authorization: Bearer <token>'; --token-file or %s "
            "chooses one): %s",
            TOKEN_VARIABLE,
            guard.token,
        )


class BearerToken:
    """ASGI middleware: HTTP requests must carry ``Authorization: Bearer <token>``."""

    def __init__(self, app: App, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps(
            {"error": "unauthorized", "error_description": "a bearer token is required"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="symfuse"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _authorized(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", ()):
            if name.lower() == b"authorization":
                return hmac.compare_digest(bytes(value), self._expected)
        return False


def guarded_app(app: App, guard: HttpGuard) -> App:
    """``app`` behind the guard's token, when it has one."""
    return app if guard.token is None else BearerToken(app, guard.token)


def http_app(
    server: MCPServer[Any], guard: HttpGuard, host: str, limits: SessionLimits | None = None
) -> App:
    """``server``'s streamable HTTP app with bounded sessions, behind ``guard``."""
    limits = limits or SessionLimits()
    app = server.streamable_http_app(
        transport_security=guard.security,
        host=host,
        session_idle_timeout=limits.idle_seconds,
        max_sessions=limits.most,
    )
    return guarded_app(app, guard)
