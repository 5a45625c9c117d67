"""The referee's desk: the JSON API and the referee's web page, on localhost (``bridgelaw serve``).

Standard library only (:class:`http.server.ThreadingHTTPServer`). The API
answers with the documents of :mod:`bridgelaw.api` (the CLI's ``--json``
output), documented at ``/openapi.json``; the page is ``web/index.html``.
Every complete ruling given through ``POST /rule``, and every choice and note
sent to ``POST /log``, is written to the ruling log (:mod:`bridgelaw.rulinglog`)
before the request is answered.

Safety: bodies over :data:`MAX_BODY` get 413; POST bodies must be
``application/json`` (a cross-site form cannot post one without a CORS
preflight, which is never granted); code ids and law numbers are looked up
among the loaded codes, never used as paths; bound to a loopback address, the
desk answers only requests addressed to a loopback host name (no DNS
rebinding); errors are one JSON line, never a traceback.
"""

from __future__ import annotations

import errno
import ipaddress
import json
import socket
import sys
import traceback
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import parse_qsl, unquote, urlsplit

from . import api
from .errors import BridgelawError, InputError, LawFileError
from .openapi import MAX_BODY, Checker, document
from .rulinglog import RulingLog, summary

__all__ = ["DEFAULT_PORT", "MAX_BODY", "DeskServer", "make_server", "serve"]

DEFAULT_PORT = 8913
_BIND_ERRORS = (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPERM)
PAGE = Path(__file__).resolve().parent / "web" / "index.html"
_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class HttpError(Exception):
    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, dict(headers or {})


@dataclass
class Request:
    method: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any = None
    reply_headers: dict[str, str] = field(default_factory=dict)  # set by the route


class Html(bytes):
    """A reply that is the page, not JSON."""


Handler = Callable[["DeskServer", Request], Any]


# ------------------------------------------------------------------ the endpoints


def _q(req: Request, name: str, required: bool = False) -> str | None:
    v = req.query.get(name)
    if required and not v:
        raise HttpError(400, f"{name}: this query parameter is required")
    return v or None


def _bool(req: Request, name: str, default: bool) -> bool:
    v = req.query.get(name)
    if v is None:
        return default
    if v.lower() in ("true", "1", "yes"):
        return True
    if v.lower() in ("false", "0", "no"):
        return False
    raise HttpError(400, f"{name}: expected true or false, got {v!r}")


def _rule(desk: DeskServer, req: Request) -> Any:
    ruling = api.rule(req.body)
    if _bool(req, "log", True) and not ruling["questions"]:
        entry_id = desk.log.record(api.unwrap(req.body, "incident", "irregularity"), ruling)
        req.reply_headers["X-Bridgelaw-Log-Id"] = str(entry_id)
    return ruling


def _log_request(desk: DeskServer, req: Request) -> tuple[int | None, dict[str, Any] | None]:
    """Check a ``POST /log`` body: (the entry id, None) or (None, the ruling on its incident). Writes nothing."""
    body = req.body
    if not isinstance(body, dict):
        raise InputError("body", "expected an object: {id, choice, note} or {incident, choice, note}")
    for k in body:
        if k not in ("id", "incident", "choice", "note"):
            raise InputError(str(k), "unknown field; fields are id (or incident), choice, note")
    if ("id" in body) == ("incident" in body):
        raise InputError("id", "give the id of a logged ruling, or an incident to rule on (not both)")
    if "id" in body:
        entry_id = body["id"]
        if not isinstance(entry_id, int) or isinstance(entry_id, bool) or entry_id < 1:
            raise InputError("id", f"expected the id of a logged ruling, got {entry_id!r}")
        return entry_id, None
    ruling = api.rule(body["incident"])
    if ruling["questions"]:
        raise InputError("incident", "the ruling still asks: " + "; ".join(q["fact"] for q in ruling["questions"]))
    return None, ruling


def _log_post(desk: DeskServer, req: Request) -> Any:
    entry_id, ruling = _log_request(desk, req)
    choice, note = req.body.get("choice"), req.body.get("note")
    if entry_id is not None:
        return desk.log.annotate(entry_id, choice, note)
    assert ruling is not None
    return desk.log.get(desk.log.record(req.body["incident"], ruling, choice, note))


def _log_get(desk: DeskServer, req: Request) -> Any:
    limit = _q(req, "limit") or "200"
    if not limit.isdigit() or not 1 <= int(limit) <= 10000:
        raise HttpError(400, f"limit: expected a number from 1 to 10000, got {limit!r}")
    return {"path": str(desk.log.path), "count": desk.log.count(),
            "entries": [summary(e) for e in desk.log.entries(int(limit))]}


def _log_entry(desk: DeskServer, req: Request) -> Any:
    n = req.params["id"]
    if not n.isdigit() or not n.isascii():
        raise api.NotFoundError("id", f"no ruling {n!r} in the log")
    return desk.log.get(int(n))


def _code_ok(desk: DeskServer, code_id: str) -> str:
    if code_id not in desk.code_ids:  # never a path: only the loaded codes' ids get through
        raise api.NotFoundError("id", f"unknown code {code_id!r}; codes are {', '.join(desk.code_ids)}")
    return code_id


ROUTES: list[tuple[str, tuple[str, ...], Handler]] = [  # (method, path, handler); a POST that writes has a DRY twin
    ("GET", (), lambda d, r: Html(d.page)),
    ("GET", ("openapi.json",), lambda d, r: d.openapi),
    ("GET", ("codes",), lambda d, r: api.codes()),
    ("GET", ("codes", "{id}"), lambda d, r: api.code_detail(_code_ok(d, r.params["id"]))),
    ("GET", ("codes", "{id}", "laws", "{n}"), lambda d, r: api.law(_code_ok(d, r.params["id"]), r.params["n"])),
    ("GET", ("search",), lambda d, r: api.search(_q(r, "q", True) or "", _q(r, "code"), "q")),
    ("GET", ("diff",), lambda d, r: api.diff(_q(r, "a", True) or "", _q(r, "b", True) or "", _q(r, "topic"),
                                             ("a", "b"))),
    ("GET", ("kinds",), lambda d, r: api.kinds()),
    ("GET", ("casebook",), lambda d, r: api.casebook(_q(r, "code"))),
    ("GET", ("log",), _log_get),
    ("GET", ("log", "{id}"), _log_entry),
    ("POST", ("rule",), _rule),
    ("POST", ("score",), lambda d, r: api.score(r.body)),
    ("POST", ("auction",), lambda d, r: api.auction(r.body)),
    ("POST", ("log",), _log_post),
]
DRY: dict[Handler, Handler] = {_rule: lambda d, r: api.rule(r.body), _log_post: _log_request}


def _match(segments: list[str]) -> list[tuple[str, Handler, dict[str, str], str]]:
    found = []
    for method, pattern, fn in ROUTES:
        if len(pattern) != len(segments):
            continue
        params = {}
        for p, s in zip(pattern, segments):
            if p.startswith("{"):
                params[p[1:-1]] = s
            elif p != s:
                break
        else:
            found.append((method, fn, params, "/" + "/".join(pattern)))
    return found


# ------------------------------------------------------------------ HTTP


class DeskServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    page: bytes
    openapi: dict[str, Any]

    def __init__(self, host: str, port: int, log: RulingLog, quiet: bool = False) -> None:
        from .loader import code_ids, load_all, load_kinds

        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.log, self.quiet = log, quiet
        load_all()  # load every code before the first request (and before threads share the caches)
        self.code_ids = code_ids()
        self.openapi = document(self.code_ids, list(load_kinds()[1]))
        self.checker = Checker(self.openapi)
        self.page = PAGE.read_bytes()
        self.allowed_hosts = _allowed_hosts(host)
        super().__init__((host, port), DeskHandler)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


def _allowed_hosts(host: str) -> frozenset[str] | None:
    """Bound to a loopback address: only loopback names in the Host header. Bound elsewhere: any."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    return frozenset({"localhost", "127.0.0.1", "::1", host.lower()}) if loopback else None


class DeskHandler(BaseHTTPRequestHandler):
    server: DeskServer
    protocol_version = "HTTP/1.1"
    timeout = 60  # seconds a connection may sit idle: a stalled client does not hold a thread for ever
    server_version = "bridgelaw-desk"

    def version_string(self) -> str:
        return self.server_version

    def __getattr__(self, name: str) -> Any:
        """``do_GET``, ``do_POST`` … for every method: the routes say which are allowed (405 otherwise)."""
        if name.startswith("do_"):
            return lambda: self._handle(name[3:])
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The errors http.server itself finds (a malformed request line, headers too long): JSON too."""
        self.close_connection = True
        body = json.dumps({"error": message or HTTPStatus(code).phrase}).encode("utf-8")
        self._send(code, body, "application/json", {}, self.command or "GET")

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)

    def _handle(self, method: str) -> None:
        self._unread = self.headers.get("Content-Length", "0") not in ("", "0") or \
            "Transfer-Encoding" in self.headers
        try:
            status, data, headers = self._dispatch(method)
        except HttpError as e:
            status, data, headers = e.status, {"error": e.message}, e.headers
        except api.NotFoundError as e:
            status, data, headers = 404, {"error": str(e), "field": e.field}, {}
        except InputError as e:
            status, data, headers = (422 if method == "POST" else 400), {"error": str(e), "field": e.field}, {}
        except LawFileError as e:
            status, data, headers = 500, {"error": str(e).splitlines()[0]}, {}
        except BridgelawError as e:  # pragma: no cover - every refusal is one of the above
            status, data, headers = 422, {"error": str(e).splitlines()[0]}, {}
        except Exception as e:  # a bug: the traceback goes to the server's stderr, never to the client
            traceback.print_exc(file=sys.stderr)
            status, data, headers = 500, {"error": f"internal error ({type(e).__name__}); see the server's log"}, {}
        if self._unread:  # an error before the body was read: do not parse the rest as the next request
            self.close_connection = True
        if isinstance(data, Html):
            self._send(200, data, "text/html; charset=utf-8",
                       {"Content-Security-Policy": _CSP, "Cache-Control": "no-cache"}, method)
            return
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json", {"Cache-Control": "no-store", **headers}, method)

    def _dispatch(self, method: str) -> tuple[int, Any, dict[str, str]]:
        self._check_host()
        parts = urlsplit(self.path)
        raw = parts.path.lstrip("/")
        try:
            segments = [unquote(s, errors="strict") for s in raw.split("/")] if raw else []
            query = dict(parse_qsl(parts.query, keep_blank_values=True, max_num_fields=20, errors="strict"))
        except (UnicodeDecodeError, ValueError) as e:
            raise HttpError(400, f"request: malformed path or query ({e})") from None
        routes = _match(segments)
        if not routes:
            raise HttpError(404, f"no such resource: {parts.path}")
        chosen = next(((fn, params, path) for m, fn, params, path in routes
                       if m == method or (m == "GET" and method == "HEAD")), None)
        if chosen is None:
            methods = {r[0] for r in routes}
            allow = ", ".join(sorted(methods | ({"HEAD"} if "GET" in methods else set())))
            raise HttpError(405, f"method {method} not allowed here; allowed: {allow}", {"Allow": allow})
        fn, params, path = chosen
        op_method = "GET" if method == "HEAD" else method
        req = Request(method, params, query, self._read_body() if method == "POST" else None)
        problem = self.server.checker.parameters(op_method, path, params, query)
        if problem:
            raise api.NotFoundError(*problem.split(": ", 1)) if path == "/log/{id}" else HttpError(400, problem)
        if method == "POST":
            wrong = self.server.checker.body(op_method, path, req.body)
            if wrong:  # the engine's own message if it has one (did you mean …), else the document's
                try:
                    DRY.get(fn, fn)(self.server, req)
                except BridgelawError:
                    raise
                except Exception:
                    pass
                raise InputError(*wrong)
        data = fn(self.server, req)
        return 200, data, req.reply_headers

    def _check_host(self) -> None:
        allowed = self.server.allowed_hosts
        host = self.headers.get("Host")
        if allowed is None or host is None:
            return
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        name = name.strip("[]").lower()
        if name not in allowed:
            raise HttpError(403, f"Host: {host!r} is not this desk (it answers localhost only)")

    def _read_body(self) -> Any:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self.close_connection = True
            raise HttpError(411, "body: send a Content-Length (chunked bodies are not taken)")
        length_text = self.headers.get("Content-Length", "0")
        if not length_text.isdigit() or not length_text.isascii():
            self.close_connection = True
            raise HttpError(400, f"Content-Length: expected a number, got {length_text!r}")
        length = int(length_text)
        if length > MAX_BODY:
            self.close_connection = True  # the body is never read
            raise HttpError(413, f"body: {length} bytes; at most {MAX_BODY} are taken")
        data = self.rfile.read(length) if length else b""
        self._unread = False
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise HttpError(415, f"Content-Type: expected application/json, got {ctype or 'none'!r}")
        if not data.strip():
            raise HttpError(400, "body: expected a JSON document")
        try:
            return json.loads(data.decode("utf-8"), parse_constant=_no_constant)
        except (UnicodeDecodeError, ValueError, RecursionError) as e:
            raise HttpError(400, f"body: not valid JSON: {str(e).splitlines()[0]}") from None

    def _send(self, status: int, body: bytes, ctype: str, headers: Mapping[str, str], method: str) -> None:
        self.send_response(status, HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "")
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for k, v in headers.items():
            self.send_header(k, v)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# ------------------------------------------------------------------ running


def make_server(host: str = "127.0.0.1", port: int = DEFAULT_PORT, log: RulingLog | str | Path | None = None,
                quiet: bool = False) -> DeskServer:
    """A desk ready to ``serve_forever()`` (port 0: an ephemeral port; ``server.url`` says which)."""
    from .rulinglog import default_path

    book = log if isinstance(log, RulingLog) else RulingLog(log or default_path())
    return DeskServer(host, port, book, quiet)


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, log: str | Path | None = None,
          quiet: bool = False) -> None:
    """Run the desk until interrupted."""
    try:
        server = make_server(host, port, log, quiet)
    except OSError as e:
        if not isinstance(e, socket.gaierror) and e.errno not in _BIND_ERRORS:
            raise
        raise InputError("--port", f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    print(f"bridgelaw: the referee's desk at {server.url} (ruling log {server.log.path}; Ctrl-C to stop)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.log.close()
