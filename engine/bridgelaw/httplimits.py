"""The desk's guard rails, below the routes: what a request must be before the desk looks at it.

Two layers, each doing what the other cannot:

- :func:`protocol_class` — uvicorn's h11 protocol with three additions: a connection over the desk's limit is
  answered 503 and closed; a client must deliver a request's head (request line and headers) within a total
  deadline from the moment the desk waits for it — a client dribbling bytes is dropped, not kept alive by each
  byte; and a request h11 refuses (HTTP/0.9, two Content-Length headers, a head over the size limit) is answered
  with the desk's one-line JSON error, logged in one line.
- :class:`Guard` — ASGI middleware: only origin-form request targets (``GET http://evil.example/codes`` is
  refused), a Host header naming this desk (no DNS rebinding), the token when the desk has one (a header or the
  page's cookie; compared in constant time), security headers on every answer, a deadline for each request,
  a client that goes away logged in one line, and any unexpected exception answered 500 and logged in one line.

Every refusal is ``{"error": {"field": ..., "message": ...}}`` with a 4xx (503 when the desk is busy).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import socket
import traceback
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import parse_qsl

import anyio
import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .openapi import MAX_BODY

__all__ = ["Limits", "Guard", "HttpError", "protocol_class", "allowed_hosts", "is_loopback", "error_body",
           "TOKEN_COOKIE", "TOKEN_PATTERN", "log"]

log = logging.getLogger("bridgelaw.desk")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_COOKIE = "bridgelaw_token"
_REQUEST_LINE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [^ ]+ HTTP/[0-9]\.[0-9]")
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{16,256}")  # URL- and cookie-safe, long enough not to be guessed


@dataclass(frozen=True)
class Limits:
    """What one desk allows. Seconds and bytes; every limit is a refusal with a JSON error, never a hang."""

    max_body: int = MAX_BODY  # bytes in a request body (413 beyond)
    max_head: int = 16 * 1024  # bytes in a request line and its headers (431 beyond)
    max_connections: int = 512  # open connections (503 beyond, and closed)
    backlog: int = 2048  # connections the kernel may queue before the desk accepts them
    head_timeout: float = 10.0  # total time to deliver a request's head, from when the desk waits for it
    request_timeout: float = 30.0  # total time to deliver a body and be answered
    keep_alive: float = 5.0  # an idle kept-alive connection is closed after this
    workers: int = 4  # threads that run the engine and the log


class HttpError(Exception):
    """A refusal the HTTP layer makes itself (the engine's refusals are :class:`~bridgelaw.errors.InputError`)."""

    def __init__(self, status: int, field: str | None, message: str, headers: dict[str, str] | None = None,
                 close: bool = False) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.status, self.field, self.message = status, field, message
        self.headers, self.close = dict(headers or {}), close


def error_body(field: str | None, message: str) -> bytes:
    return json.dumps({"error": {"field": field, "message": message}}, ensure_ascii=False).encode("utf-8")


def _raw_response(status: int, reason: str, field: str | None, message: str, extra: str = "") -> bytes:
    """A whole JSON error response, for the protocol layer to write where h11 can no longer frame one."""
    body = error_body(field, message)
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"x-content-type-options: nosniff\r\ncache-control: no-store\r\n{extra}connection: close\r\n\r\n"
            ).encode("latin-1") + body


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request's Host header may give for a desk bound to ``host``: the loopback names for a
    loopback bind; the address itself for a specific address; for a wildcard bind (0.0.0.0, ::) the machine's
    names and addresses. ``extra``: more names (``--allow-host``)."""
    names = {host.lower().strip("[]"), *(e.lower().strip("[]") for e in extra)}
    if is_loopback(host):
        return frozenset(names | {"localhost", "127.0.0.1", "::1"})
    if host in ("0.0.0.0", "::", ""):
        names |= {"localhost", "127.0.0.1", "::1"}
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name.lower())
            try:
                names |= {str(info[4][0]).lower() for info in socket.getaddrinfo(name, None)}
            except OSError:
                pass
    return frozenset(names)


def _host_name(value: str) -> str:
    """The name in a Host header, without its port (``[::1]:8913`` gives ``::1``)."""
    if value.startswith("["):
        return value[1:].split("]", 1)[0].lower()
    return value.rsplit(":", 1)[0].lower() if value.count(":") == 1 else value.lower()


# ------------------------------------------------------------------ ASGI


class Guard:
    """The ASGI middleware in front of the desk's routes (see the module's docstring)."""

    SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                        (b"cross-origin-resource-policy", b"same-origin")]

    def __init__(self, app: ASGIApp, limits: Limits, hosts: frozenset[str], token: str | None) -> None:
        self.app, self.limits, self.hosts = app, limits, hosts
        self.token = token.encode("ascii") if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan is off; websockets are not served
            return
        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = list(message.get("headers", [])) + self.SECURITY_HEADERS
            await send(message)

        where = f"{scope.get('method')} {scope.get('path')}"
        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                await _send_error(guarded_send, refusal)
                return
            scope.setdefault("state", {})["deadline"] = anyio.current_time() + self.limits.request_timeout
            await self.app(scope, receive, guarded_send)
        except HttpError as e:  # raised by a route after its answer could have begun: answer if it has not
            if not started:
                await _send_error(guarded_send, e)
        except OSError as e:  # the client went away while the desk answered
            log.info("%s: the client went away (%s)", where, e.strerror or type(e).__name__)
        except Exception as e:  # a bug: one line here, a JSON 500 to the client, never a traceback
            log.error("%s: internal error: %s", where, one_line(e))
            if not started:
                await _send_error(guarded_send, HttpError(500, None, f"internal error ({type(e).__name__}); "
                                                                      "see the desk's log", close=True))

    def _refusal(self, scope: Scope) -> HttpError | None:
        raw = scope.get("raw_path") or b""
        if not raw.startswith(b"/"):
            return HttpError(400, "request-target", f"{raw[:80].decode('latin-1')!r}: send the path alone "
                             "(origin form, e.g. GET /codes); absolute and authority forms are not taken", close=True)
        headers = scope["headers"]
        host = [v for k, v in headers if k == b"host"]
        if len(host) != 1:
            return HttpError(400, "Host", "expected one Host header naming this desk", close=True)
        name = _host_name(host[0].decode("latin-1"))
        if name not in self.hosts:
            shown = ", ".join(sorted(self.hosts)[:6])
            return HttpError(403, "Host", f"{host[0].decode('latin-1')!r} is not this desk (it answers to {shown}; "
                             "serve --allow-host NAME adds a name)", close=True)
        if self.token is not None and (refused := self._auth(scope, headers)) is not None:
            return refused
        if any(k == b"transfer-encoding" for k, _ in headers):  # h11 drops a Content-Length beside it
            return HttpError(411, "Transfer-Encoding", "send the body with a Content-Length (chunked bodies are "
                             "not taken)", close=True)
        return None

    def _auth(self, scope: Scope, headers: list[tuple[bytes, bytes]]) -> HttpError | None:
        if self.token is None:  # no token set: the desk is open
            return None
        given = b""
        for k, v in headers:
            if k == b"authorization" and v[:7].lower() == b"bearer ":
                given = v[7:].strip()
            elif k == b"cookie" and not given:
                from starlette.requests import cookie_parser

                given = cookie_parser(v.decode("latin-1")).get(TOKEN_COOKIE, "").encode("latin-1")
        if given and hmac.compare_digest(given, self.token):
            return None
        if scope["path"] == "/" and scope["method"] in ("GET", "HEAD"):  # the page, opened with ?token=…
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
            offered = query.get("token", "").encode("latin-1")
            if offered and hmac.compare_digest(offered, self.token):
                cookie = f"{TOKEN_COOKIE}={self.token.decode('ascii')}; Path=/; HttpOnly; SameSite=Strict"
                return HttpError(303, None, "the token is taken: go to /",
                                 {"Location": "/", "Set-Cookie": cookie}, close=False)
        return HttpError(401, "Authorization", "this desk takes requests with its token only: send "
                         "'Authorization: Bearer TOKEN' (or open the page as /?token=TOKEN)",
                         {"WWW-Authenticate": 'Bearer realm="bridgelaw desk"'}, close=True)


async def _send_error(send: Send, e: HttpError) -> None:
    body = error_body(e.field, e.message)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store")]
    headers += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in e.headers.items()]
    if e.close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": e.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def one_line(e: BaseException) -> str:
    """An exception in one line: its type, message and the innermost place it was raised."""
    tb = traceback.extract_tb(e.__traceback__)
    at = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
    return f"{type(e).__name__}: {' '.join(str(e).split())[:300]}{at}"


# ------------------------------------------------------------------ the protocol


class _Connection(h11.Connection):
    """h11's connection, remembering why it refused the client's bytes."""

    refusal: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as e:
            self.refusal = e
            raise


async def _busy(scope: Scope, receive: Receive, send: Send) -> None:
    await _send_error(send, HttpError(503, None, "the desk has all the connections it takes; try again shortly",
                                      {"Retry-After": "1"}, close=True))


class _LingeringClose:
    """The connection's transport, closed as an HTTP server closes after an answer: what was written is sent and
    the desk's side half-closed first, and what the client still sends is read and thrown away until it closes
    or :data:`LINGER` seconds pass. A client still sending when the desk answers and closes (a body dribbled
    past the request's deadline, answered 408) would otherwise be sent a reset, which can throw the answer
    away before the client reads it."""

    def __init__(self, transport: Any, loop: Any) -> None:
        self._transport, self._loop, self._closing = transport, loop, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)

    def is_closing(self) -> bool:
        return self._closing or self._transport.is_closing()

    def close(self) -> None:
        t = self._transport
        if self._closing or t.is_closing():
            self._closing = True
            return
        self._closing = True
        try:
            if not t.can_write_eof():
                t.close()
                return
            t.write_eof()
        except (OSError, RuntimeError):
            t.close()
            return
        self._loop.call_later(LINGER, t.close)


#: Seconds a closed connection goes on reading (and throwing away) what its client still sends.
LINGER = 1.0


class DeskProtocol(H11Protocol):
    """uvicorn's h11 protocol with the desk's connection limit, head deadline and JSON refusals."""

    limits: Limits = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = _Connection(h11.SERVER, self.limits.max_head)
        self._deadline: Any = None
        self._heard = False  # bytes have come since the desk began waiting for a request's head
        self._head = b""  # the first bytes of that head, to look at before h11 has it whole

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(_LingeringClose(transport, self.loop))
        if len(self.connections) > self.limits.max_connections and self._open() > self.limits.max_connections:
            self.app = _busy
            log.warning("%s: over the desk's %d connections: answered 503", _peer(self.client),
                        self.limits.max_connections)
        self._arm()

    def _open(self) -> int:
        """The connections the desk holds open: one answered and closing (lingering, :class:`_LingeringClose`) is
        no longer the desk's to count against its limit."""
        return sum(1 for c in self.connections if c.transport is None or not c.transport.is_closing())

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # answered and closing: what the client still sends is thrown away
        try:
            if data:
                self._heard = True
            if not self._handling() and self.conn.their_state is h11.IDLE and self._head_refused(data):
                return
            super().data_received(data)
            if self._handling() or self.transport.is_closing():
                self._disarm()
                self._head = b""
        except Exception as e:  # never a traceback from the event loop: one line, and the connection closed
            log.error("%s: internal error in the protocol: %s", _peer(self.client), one_line(e))
            self.transport.close()

    def _head_refused(self, data: bytes) -> bool:
        """Look at a request's head as it comes, before h11 has it whole: a request line that is not HTTP/1.x
        (HTTP/0.9 has no version; h11 would wait for headers that never come), or a head over the limit (h11
        checks only a head it has not yet got whole)."""
        limit = self.limits.max_head
        self._head += data[: limit + 4 - len(self._head)]
        head = self._head
        eol = head.find(b"\n")
        if eol >= 0 and not _REQUEST_LINE.fullmatch(head[:eol].rstrip(b"\r")) and head[:eol].strip():
            shown = head[:eol].rstrip(b"\r")[:60].decode("latin-1")
            self._refuse(400, f"request line {shown!r}: expected METHOD /path HTTP/1.1")
            return True
        end = min((i + n for i, n in ((head.find(b"\r\n\r\n"), 4), (head.find(b"\n\n"), 2)) if i >= 0), default=-1)
        if (end if end >= 0 else len(head)) > limit:
            self._refuse(431, f"the request line and headers are over {limit} bytes")
            return True
        return False

    def _refuse(self, status: int, why: str) -> None:
        log.warning("%s: refused: %s", _peer(self.client), why)
        reason = {400: "Bad Request", 431: "Request Header Fields Too Large"}.get(status, "Bad Request")
        if not self.transport.is_closing():
            self.transport.write(_raw_response(status, reason, "request", why))
            self.transport.close()
        self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            self._disarm()
        elif not self._handling():  # waiting for the next request's head (or the rest of an unread body)
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        e = getattr(self.conn, "refusal", None)
        status = getattr(e, "error_status_hint", 400) or 400
        if status == 431:
            self._refuse(431, f"the request line and headers are over {self.limits.max_head} bytes")
        else:
            self._refuse(400, f"not an HTTP/1.1 request the desk takes ({' '.join(str(e or msg).split())[:200]})")

    def _handling(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._heard, self._head = False, b""
        self._deadline = self.loop.call_later(self.limits.head_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self._handling():
            return
        if self._heard:  # a head begun and never finished: say why before closing
            log.warning("%s: dropped: no complete request head within %g s", _peer(self.client),
                        self.limits.head_timeout)
            self.transport.write(_raw_response(408, "Request Timeout", "request",
                                               f"the request's head did not arrive within {self.limits.head_timeout:g} s"))
        self.transport.close()


def _peer(client: Any) -> str:
    return f"{client[0]}:{client[1]}" if client else "a client"


def protocol_class(limits: Limits) -> type[DeskProtocol]:
    """The protocol class uvicorn runs for a desk with these limits."""
    return type("DeskProtocol", (DeskProtocol,), {"limits": limits})
