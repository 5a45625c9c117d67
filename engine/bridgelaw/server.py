"""The referee's desk: the JSON API and the referee's web page (``bridgelaw serve``).

An ASGI application (Starlette routing, requests and responses) served by uvicorn. The API answers with the
documents of :mod:`bridgelaw.api` (the CLI's ``--json`` output), documented at ``/openapi.json`` (generated
from the published schemas, :mod:`bridgelaw.openapi`); the page is ``web/index.html``. Every complete ruling
given through ``POST /rule``, and every choice and note sent to ``POST /log``, is written to the ruling log
(:mod:`bridgelaw.rulinglog`) and committed before the request is answered; both take an ``Idempotency-Key``
header, so that a client retrying after a lost reply is answered from the log, not logged twice.

The engine is synchronous: rulings, scores and the log run on a small pool of worker threads
(:attr:`Limits.workers`), never on the event loop. What a request must be before it reaches a route (its form,
its Host, the token, the size and time limits) is :mod:`bridgelaw.httplimits`. Code ids and law numbers are
looked up among the loaded codes, never used as paths; POST bodies must be ``application/json`` (a cross-site
form cannot send one without a CORS preflight, which is never granted); the page is sent with a CSP that
allows its own inline script and style by their SHA-256 hashes and nothing else. Every error is one JSON
line, ``{"error": {"field": ..., "message": ...}}``, never a traceback.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import json
import re
import socket
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable, Mapping

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route, Router

from . import api
from .errors import BridgelawError, InputError, RequestConflictError
from .httplimits import Guard, HttpError, Limits, allowed_hosts, error_body, is_loopback, log, one_line, protocol_class
from .httplimits import TOKEN_PATTERN
from .openapi import MAX_BODY, Checker, for_loaded_codes
from .rulinglog import LogEntry, RequestKey, RulingLog, check_annotation

__all__ = ["DEFAULT_PORT", "MAX_BODY", "Limits", "Desk", "DeskServer", "make_app", "make_server", "serve"]

DEFAULT_PORT = 8913
PAGE = Path(__file__).resolve().parent / "web" / "index.html"
_BIND_ERRORS = (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPERM)
_MAX_DEPTH = 64  # JSON nesting a body may have (no document of the desk nests a tenth as deep)


# ------------------------------------------------------------------ the page and its CSP


def page_csp(page: bytes) -> str:
    """The page's Content-Security-Policy: its inline ``<script>`` and ``<style>`` blocks allowed by their
    SHA-256 hashes (no ``unsafe-inline``), nothing loaded from anywhere, fetches to this desk only."""
    text = page.decode("utf-8")

    def hashes(tag: str) -> str:
        blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", text, flags=re.S)
        return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode('utf-8')).digest()).decode()}'"
                        for b in blocks) or "'none'"

    return (f"default-src 'none'; script-src {hashes('script')}; style-src {hashes('style')}; img-src data:; "
            "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


# ------------------------------------------------------------------ the desk's state


@dataclass
class Desk:
    """What the routes share: the log, the loaded codes' document and checker, the page, the worker pool."""

    log: RulingLog
    limits: Limits = field(default_factory=Limits)
    token_required: bool = False

    def __post_init__(self) -> None:
        from .loader import code_ids, load_all

        load_all()  # every code loaded before the first request (and before the worker threads share the caches)
        self.code_ids = code_ids()
        self.openapi = for_loaded_codes(token=self.token_required, max_body=self.limits.max_body)
        self.checker = Checker(self.openapi)
        self.page = PAGE.read_bytes()
        self.csp = page_csp(self.page)
        self._limiter: anyio.CapacityLimiter | None = None
        self._writer: anyio.CapacityLimiter | None = None

    @property
    def limiter(self) -> anyio.CapacityLimiter:
        """The engine's (and the log's readers') worker threads."""
        if self._limiter is None:  # made in the event loop that uses it
            self._limiter = anyio.CapacityLimiter(self.limits.workers)
        return self._limiter

    @property
    def writer(self) -> anyio.CapacityLimiter:
        """The log's writer: one thread (writes are one at a time anyway), so a commit's sync never holds up
        the engine's workers."""
        if self._writer is None:
            self._writer = anyio.CapacityLimiter(1)
        return self._writer

    async def work(self, req: Req, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a worker thread within the request's deadline (the engine: it writes nothing, so a
        ruling past the deadline is abandoned and the client told so)."""
        try:
            with anyio.fail_after(max(req.deadline - anyio.current_time(), 0.001)):
                return await anyio.to_thread.run_sync(fn, *args, abandon_on_cancel=True, limiter=self.limiter)
        except TimeoutError:
            raise HttpError(503, None, f"not answered within the desk's {self.limits.request_timeout:g} s "
                                       "per request", {"Retry-After": "1"}, close=True) from None

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a worker thread, to the end: a write is committed or rolled back, never abandoned."""
        with anyio.CancelScope(shield=True):
            return await anyio.to_thread.run_sync(fn, *args, limiter=self.writer)


@dataclass
class Req:
    """A request as the routes see it: its parameters, the JSON body (POST), and its deadline."""

    request: Request
    method: str
    route: str
    params: dict[str, str]
    query: dict[str, str]
    deadline: float
    body: Any = None

    def flag(self, name: str, default: bool) -> bool:
        v = self.query.get(name)
        return default if v is None else v.lower() == "true"  # the checker has let only true or false through

    def request_key(self, operation: str, query: Mapping[str, Any]) -> RequestKey | None:
        values = self.request.headers.getlist("idempotency-key")
        if not values:
            return None
        if len(values) > 1:  # its form the document's pattern has checked
            raise HttpError(400, "Idempotency-Key", "expected one key (a fresh UUID for each new request)")
        return RequestKey.of(values[0], operation, self.body, query)


@dataclass
class Reply:
    """A route's answer: a JSON document (or the page), its status and extra headers."""

    data: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Desk, Req], Awaitable[Any]]


# ------------------------------------------------------------------ the routes


async def _page(desk: Desk, req: Req) -> Response:
    return Response(desk.page, media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": desk.csp, "Cache-Control": "no-cache"})


def _q(req: Req, name: str) -> str | None:
    return req.query.get(name) or None


def _code_ok(desk: Desk, code_id: str) -> str:
    if code_id not in desk.code_ids:  # never a path: only the loaded codes' ids get through
        raise api.NotFoundError("id", f"unknown code {code_id!r}; codes are {', '.join(desk.code_ids)}")
    return code_id


def _read(fn: Callable[..., Any], *names: str) -> Handler:
    """A GET route answered by an engine function of the query (or path) parameters ``names``."""
    async def handler(desk: Desk, req: Req) -> Any:
        values = [req.params.get(n) if n in req.params else _q(req, n) for n in names]
        return await desk.work(req, fn, *values)
    return handler


async def _codes_id(desk: Desk, req: Req) -> Any:
    return await desk.work(req, api.code_detail, _code_ok(desk, req.params["id"]))


async def _law(desk: Desk, req: Req) -> Any:
    return await desk.work(req, api.law, _code_ok(desk, req.params["id"]), req.params["n"])


async def _rule(desk: Desk, req: Req) -> Reply:
    logged = req.flag("log", True)
    key = req.request_key("rule", {"log": logged}) if logged else None
    if key is not None and (done := await desk.work(req, desk.log.replay, key)) is not None:
        return Reply(done.entry.ruling, headers={"X-Bridgelaw-Log-Id": str(done.entry.id),
                                                 "X-Bridgelaw-Replayed": "true"})
    ruling = await desk.work(req, api.rule, req.body)
    if not logged or ruling["questions"]:
        return Reply(ruling)
    written = await desk.write(desk.log.record, api.unwrap(req.body, "incident", "irregularity"), ruling, None, None,
                               key)
    headers = {"X-Bridgelaw-Log-Id": str(written.entry.id)}
    if written.replayed:
        headers["X-Bridgelaw-Replayed"] = "true"
    await _delivered(req, written.entry)
    return Reply(written.entry.ruling if written.replayed else ruling, headers=headers)


def _log_request(body: Any) -> tuple[int | None, dict[str, Any] | None]:
    """Check a ``POST /log`` body: (the entry id, None) or (None, the ruling on its incident). Writes nothing."""
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
        check_annotation(None, body.get("choice"), body.get("note"))
        return entry_id, None
    ruling = api.rule(body["incident"])
    if ruling["questions"]:
        raise InputError("incident", "the ruling still asks: " + "; ".join(q["fact"] for q in ruling["questions"]))
    check_annotation(ruling, body.get("choice"), body.get("note"))
    return None, ruling


async def _log_post(desk: Desk, req: Req) -> Reply:
    key = req.request_key("log", {})
    if key is not None and (done := await desk.work(req, desk.log.replay, key)) is not None:
        return Reply(done.entry.to_dict(), headers={"X-Bridgelaw-Replayed": "true"})
    entry_id, ruling = await desk.work(req, _log_request, req.body)
    choice, note = req.body.get("choice"), req.body.get("note")
    if entry_id is not None:
        written = await desk.write(desk.log.annotate, entry_id, choice, note, key)
    else:
        written = await desk.write(desk.log.record, req.body["incident"], ruling, choice, note, key)
    await _delivered(req, written.entry)
    return Reply(written.entry.to_dict(), headers={"X-Bridgelaw-Replayed": "true"} if written.replayed else {})


async def _delivered(req: Req, entry: LogEntry) -> None:
    """A write is committed; if the client has gone, say so in the desk's log (its retry, with the same key, is
    answered from the ruling log)."""
    if await req.request.is_disconnected():
        log.info("%s %s: ruling #%d logged; the client went away before the answer", req.method, req.route, entry.id)


async def _log_get(desk: Desk, req: Req) -> Response:
    limit = int(req.query.get("limit") or 200)
    before = int(req.query["before"]) if req.query.get("before") else None
    page = await desk.work(req, desk.log.page, limit, before)

    async def stream() -> AsyncIterator[bytes]:
        yield (f'{{"count": {page.count}, "next_before": {json.dumps(page.next_before)}, "entries": ['
               ).encode("utf-8")
        after, sep = (page.first or 1) - 1, ""
        while page.last is not None and after < page.last:
            rows = await anyio.to_thread.run_sync(desk.log.batch, after, page.last, limiter=desk.limiter)
            if not rows:
                break
            chunk = sep + ", ".join(json.dumps(e.summary(), ensure_ascii=False) for e in rows)
            sep, after = ", ", rows[-1].id
            yield chunk.encode("utf-8")
        yield b"]}"

    return StreamingResponse(stream(), media_type="application/json", headers={"Cache-Control": "no-store"})


async def _log_entry(desk: Desk, req: Req) -> Any:
    entry = await desk.work(req, desk.log.get, int(req.params["id"]))
    return entry.to_dict()


# (path, {method: handler}); a POST's DRY twin runs the engine without writing, for its message on a bad body
ROUTES: list[tuple[str, dict[str, Handler]]] = [
    ("/", {"GET": _page}),
    ("/openapi.json", {"GET": lambda d, r: _now(d.openapi)}),
    ("/codes", {"GET": _read(api.codes)}),
    ("/codes/{id}", {"GET": _codes_id}),
    ("/codes/{id}/laws/{n}", {"GET": _law}),
    ("/search", {"GET": _read(lambda q, code: api.search(q or "", code, "q"), "q", "code")}),
    ("/diff", {"GET": _read(lambda a, b, topic: _as_query(api.diff, a or "", b or "", topic, ("a", "b")),
                            "a", "b", "topic")}),
    ("/kinds", {"GET": _read(api.kinds)}),
    ("/casebook", {"GET": _read(api.casebook, "code")}),
    ("/log", {"GET": _log_get, "POST": _log_post}),
    ("/log/{id}", {"GET": _log_entry}),
    ("/rule", {"POST": _rule}),
    ("/interview", {"POST": lambda d, r: d.work(r, api.interview, r.body)}),
    ("/score", {"POST": lambda d, r: d.work(r, api.score, r.body)}),
    ("/auction", {"POST": lambda d, r: d.work(r, api.auction, r.body)}),
]
#: The routes whose body is the field a casebook entry wraps (the CLI reads the entry; the desk, the field itself).
WRAPPED = {"/rule": "incident", "/score": "result"}
DRY: dict[str, Callable[[Any], Any]] = {"/rule": api.rule, "/log": _log_request, "/score": api.score,
                                        "/auction": api.auction, "/interview": api.interview}


def _utf8_query(raw: bytes, close: bool) -> None:
    """A query string's values are UTF-8 text, percent-encoded: bytes that are not would be read as U+FFFD and
    answered as if typed (a search for it finds nothing), so they are refused, naming the parameter."""
    from urllib.parse import parse_qsl

    for name, value in parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="latin-1"):
        try:
            value.encode("latin-1").decode("utf-8")
        except UnicodeDecodeError as e:
            bad = value.encode("latin-1")[e.start:e.end]
            raise HttpError(400, name.encode("latin-1").decode("utf-8", "replace")[:60],
                            f"not UTF-8 text: {'the bytes' if len(bad) > 1 else 'the byte'} "
                            f"{''.join(f'%{b:02X}' for b in bad)} {'are' if len(bad) > 1 else 'is'} no character; "
                            "percent-encode the words as UTF-8", close=close) from None


def _as_query(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, its refusals naming the query parameter where the engine names the CLI's option."""
    try:
        return fn(*args)
    except InputError as e:
        if e.field.startswith("--"):
            raise type(e)(e.field[2:], e.message) from None
        raise


async def _now(value: Any) -> Any:
    return value


# ------------------------------------------------------------------ requests in, answers out


class Endpoint:
    """The ASGI endpoint of one path: the method dispatched, the parameters and body checked, the answer sent,
    every refusal a JSON error."""

    def __init__(self, desk: Desk, path: str, methods: dict[str, Handler]) -> None:
        self.desk, self.path, self.methods = desk, path, methods
        allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())
        self.allow = ", ".join(sorted(allowed))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        try:
            response = await self._answer(request)
        except ClientDisconnect:
            log.info("%s %s: the client went away before sending its body", request.method, self.path)
            return
        except HttpError as e:
            response = _error(e.status, e.field, e.message, e.headers, e.close)
        except api.NotFoundError as e:
            response = _error(404, e.field, e.message)
        except RequestConflictError as e:
            response = _error(409, e.field, e.message)
        except InputError as e:
            response = _error(422 if request.method == "POST" else 400, e.field, e.message)
        except BridgelawError as e:  # a law file is wrong: the desk's installation, not the request
            log.error("%s %s: %s", request.method, self.path, str(e).splitlines()[0])
            response = _error(500, None, "the desk's law files are wrong: " + str(e).splitlines()[0])
        except Exception as e:  # a bug: one line in the desk's log, a JSON 500 to the client, never a traceback
            log.error("%s %s: internal error: %s", request.method, self.path, one_line(e))
            response = _error(500, None, f"internal error ({type(e).__name__}); see the desk's log", close=True)
        await response(scope, receive, send)

    async def _answer(self, request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        handler = self.methods.get(method)
        if handler is None:
            raise HttpError(405, "method", f"{request.method} is not allowed here; allowed: {self.allow}",
                            {"Allow": self.allow}, close=self._body_unread(request))
        desk = self.desk
        params = {k: str(v) for k, v in request.path_params.items()}
        query = dict(request.query_params)
        if len(query) != len(request.query_params.multi_items()):  # else one of the values would be taken unsaid
            twice = next(k for k in query if len(request.query_params.getlist(k)) > 1)
            raise HttpError(400, twice[:60], f"given {len(request.query_params.getlist(twice))} times; give a query "
                            "parameter once", close=self._body_unread(request))
        if "\ufffd" in request.scope.get("query_string", b"").decode("latin-1") or any(
                "\ufffd" in v for v in query.values()):
            _utf8_query(request.scope.get("query_string", b""), self._body_unread(request))
        problem = desk.checker.parameters(method, self.path, params, query, request.headers)
        if problem:
            name, message = problem.split(": ", 1)
            if self.path == "/log/{id}":
                raise api.NotFoundError(name, message)
            raise HttpError(400, name, message, close=self._body_unread(request))
        req = Req(request, request.method, self.path, params, query, request.scope["state"]["deadline"])
        if method == "POST":
            req.body = await self._body(request, req.deadline)
            wrong = desk.checker.body(method, self.path, req.body)
            if wrong and isinstance(req.body, dict) and WRAPPED.get(self.path) in req.body:
                key = WRAPPED[self.path]
                raise InputError(key, f"a casebook entry: the desk takes the {key} itself, not the entry around it "
                                 f"(send the value of {key})")
            if wrong:  # the engine's own message if it has one (did you mean …), else the document's
                try:
                    await desk.work(req, DRY[self.path], req.body)
                except (BridgelawError, HttpError):
                    raise
                except Exception:
                    pass
                raise InputError(*wrong)
        elif self._body_unread(request):
            raise HttpError(400, "body", f"a {request.method} request takes no body", close=True)
        reply = await handler(desk, req)
        if isinstance(reply, Response):
            return reply
        if not isinstance(reply, Reply):
            reply = Reply(reply)
        body = json.dumps(reply.data, ensure_ascii=False).encode("utf-8")
        return Response(body, reply.status, {"Cache-Control": "no-store", **reply.headers},
                        media_type="application/json")

    @staticmethod
    def _body_unread(request: Request) -> bool:
        h = request.headers
        return h.get("content-length", "0") != "0" or "transfer-encoding" in h

    async def _body(self, request: Request, deadline: float) -> Any:
        limit = self.desk.limits.max_body
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            raise HttpError(413, "body", f"{length} bytes; at most {limit} are taken", close=True)
        if ctype != "application/json":
            raise HttpError(415, "Content-Type", f"expected application/json, got {ctype or 'none'!r}",
                            close=self._body_unread(request))
        _check_media_type(request.headers, close=self._body_unread(request))
        chunks, size = [], 0
        try:
            with anyio.fail_after(max(deadline - anyio.current_time(), 0.001)):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:
                        raise HttpError(413, "body", f"over {limit} bytes; at most {limit} are taken", close=True)
                    chunks.append(chunk)
        except TimeoutError:
            raise HttpError(408, "body", f"not received within the desk's {self.desk.limits.request_timeout:g} s "
                                         "per request", close=True) from None
        return parse_json(b"".join(chunks))


def _error(status: int, field_name: str | None, message: str, headers: Mapping[str, str] | None = None,
           close: bool = False) -> Response:
    extra = {"Cache-Control": "no-store", **(headers or {})}
    if close:
        extra["Connection"] = "close"
    return Response(error_body(field_name, message), status, extra, media_type="application/json")


def parse_json(data: bytes) -> Any:
    """A request body as JSON: UTF-8, no NaN or Infinity, nested at most 64 deep, every string Unicode text
    (a lone surrogate such as ``"\\ud800"`` is refused, naming its field)."""
    if not data.strip():
        raise HttpError(400, "body", "expected a JSON document")
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant, object_pairs_hook=_once,
                         parse_int=_whole)
    except _Twice as e:
        raise HttpError(400, "body", f"duplicate key {e.args[0][:60]!r} in one object: a later value would silently "
                                     "replace the first; give each field once") from None
    except _Long as e:
        raise HttpError(400, "body", f"a number of {e.args[0]} digits: no field takes a number past "
                                     f"{_MAX_DIGITS} digits") from None
    except UnicodeDecodeError as e:
        bom = data.startswith(b"\xef\xbb\xbf") or data[:2] in (b"\xff\xfe", b"\xfe\xff")
        raise HttpError(400, "body", "not UTF-8: " + ("a byte-order mark begins the body; send JSON as UTF-8 without "
                                     "one (RFC 8259 §8.1)" if bom else f"{e.reason} at byte {e.start}")) from None
    except (ValueError, RecursionError) as e:
        if data.startswith(b"\xef\xbb\xbf"):
            raise HttpError(400, "body", "a byte-order mark begins the body; send JSON as UTF-8 without one "
                                         "(RFC 8259 §8.1)") from None
        raise HttpError(400, "body", f"not valid JSON: {str(e).splitlines()[0][:200]}") from None
    stack: list[tuple[Any, str, int]] = [(doc, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        if depth > _MAX_DEPTH:
            raise HttpError(400, "body", f"nested over {_MAX_DEPTH} deep (at {where[:60]}…)")
        if isinstance(node, dict):
            for k, v in node.items():
                _text(k, f"{where}.{k}".lstrip(".") if _is_text(k) else where or "body")
                stack.append((v, f"{where}.{k}".lstrip("."), depth + 1))
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(node))
        elif isinstance(node, str):
            _text(node, where or "body")
    return doc


def _is_text(s: str) -> bool:
    try:
        s.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def _text(s: str, where: str) -> None:
    if not _is_text(s):
        bad = next(c for c in s if 0xD800 <= ord(c) <= 0xDFFF)
        raise HttpError(400, where, f"not Unicode text: a lone surrogate \\u{ord(bad):04x} (JSON escapes must pair "
                                    "surrogates into one character)")


class _Twice(Exception):
    pass


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (as the CLI's reader holds incidents and sheets)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        raise _Twice(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return obj


_MAX_DIGITS = 40  # a number a body may write (the largest any field takes, a log id, has 19 digits)


class _Long(Exception):
    pass


def _whole(text: str) -> int:
    """A JSON integer, read only if it is of a length some field could take (Python's own limit, 4,300 digits,
    would answer with advice on the interpreter)."""
    if len(text) > _MAX_DIGITS + (text[0] == "-"):
        raise _Long(len(text.lstrip("-")))
    return int(text)


def _check_media_type(headers: Any, close: bool) -> None:
    """A JSON body as the desk reads it: UTF-8 (a ``charset`` may say so, RFC 8259 §8.1, and say nothing else),
    with no other media-type parameter and no content coding — else the body would be read otherwise than the
    client says it is."""
    params = headers.get("content-type", "").split(";")[1:]
    for p in params:
        name, _, value = p.strip().partition("=")
        name, value = name.strip().lower(), value.strip().strip('"').lower()
        if name == "charset" and value not in ("utf-8", "utf8"):
            raise HttpError(415, "Content-Type", f"charset {value!r}: JSON is UTF-8 (RFC 8259 §8.1); send the body "
                            "as UTF-8, with charset=utf-8 or none", close=close)
        if name and name != "charset":
            raise HttpError(415, "Content-Type", f"application/json takes no parameter {name!r} (only charset=utf-8)",
                            close=close)
    coding = headers.get("content-encoding", "identity").strip().lower()
    if coding not in ("", "identity"):
        raise HttpError(415, "Content-Encoding", f"{coding!r}: the desk reads bodies as sent, not encoded; send the "
                        "JSON itself (no Content-Encoding)", close=close)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


async def _not_found(scope: Any, receive: Any, send: Any) -> None:
    await _error(404, "path", f"no such resource: {scope.get('path', '')}; see /openapi.json",
                 close=Endpoint._body_unread(Request(scope)))(scope, receive, send)


def make_app(desk: Desk, hosts: frozenset[str], token: str | None = None) -> Guard:
    """The desk as an ASGI application: the routes, behind the guard."""
    router = Router([Route(path, Endpoint(desk, path, methods), methods=None) for path, methods in ROUTES],
                    default=_not_found, redirect_slashes=False)
    return Guard(router, desk.limits, hosts, token)


# ------------------------------------------------------------------ running


class DeskServer:
    """A desk listening on its socket (bound, and listening, when this returns), served by uvicorn:
    :meth:`serve_forever` runs it (in this thread), :meth:`shutdown` stops it from another."""

    def __init__(self, host: str, port: int, log_book: RulingLog, quiet: bool = False, token: str | None = None,
                 allow_remote: bool = False, extra_hosts: tuple[str, ...] = (), limits: Limits | None = None) -> None:
        import logging

        import uvicorn

        loopback = _loopback(host)
        if not loopback and not allow_remote:
            raise InputError("--host", f"{host} is not a loopback address: anyone who can reach it could rule and "
                                       "write the log; give --allow-remote, and a token, to serve it")
        if not loopback and token is None:
            raise InputError("--token-file", f"serving {host} needs a token every request must present: "
                                             "--token-file PATH or $BRIDGELAW_TOKEN")
        if token is not None and not TOKEN_PATTERN.fullmatch(token):
            raise InputError("--token-file", "the token must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ - "
                                             "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe())')")
        self.limits = limits or Limits()
        self.log = log_book
        self.socket = _bind(host, port, self.limits.backlog)
        self.desk = Desk(log_book, self.limits, token_required=token is not None)
        self.app = make_app(self.desk, allowed_hosts(host, extra_hosts), token)
        addr = self.socket.getsockname()
        self.server_address = (addr[0], addr[1])
        self.host = host
        logging.getLogger("uvicorn.error").setLevel(logging.ERROR)  # the desk says in one line what uvicorn would
        config = uvicorn.Config(self.app, http=protocol_class(self.limits), lifespan="off", log_config=None,
                                access_log=not quiet, server_header=False, proxy_headers=False,
                                timeout_keep_alive=int(self.limits.keep_alive), backlog=self.limits.backlog,
                                h11_max_incomplete_event_size=self.limits.max_head, timeout_graceful_shutdown=5)
        self.uvicorn = uvicorn.Server(config)
        self._done = threading.Event()

    @property
    def url(self) -> str:
        host, port = self.host, self.server_address[1]
        return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"

    def serve_forever(self) -> None:
        try:
            self.uvicorn.run(sockets=[self.socket])
        finally:
            self._done.set()

    def shutdown(self) -> None:
        self.uvicorn.should_exit = True
        self._done.wait(30)

    def server_close(self) -> None:
        self.socket.close()


def _addresses(host: str, port: int) -> list[Any]:
    if not 0 <= port <= 65535:
        raise InputError("--port", f"expected a port from 0 to 65535, got {port}")
    try:
        return socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise InputError("--host", f"cannot listen on {host!r}: {getattr(e, 'strerror', None) or e}") from None


def _loopback(host: str) -> bool:
    """Is ``host`` (an address or a name) loopback only?"""
    return is_loopback(host) or all(is_loopback(str(a[4][0])) for a in _addresses(host, 0))


def _bind(host: str, port: int, backlog: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one); an :class:`InputError` if there cannot be one."""
    family, kind, proto, _, address = _addresses(host, port)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as e:
        sock.close()
        if e.errno not in _BIND_ERRORS:
            raise
        raise InputError("--port", f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def make_server(host: str = "127.0.0.1", port: int = DEFAULT_PORT, log: RulingLog | str | Path | None = None,
                quiet: bool = False, token: str | None = None, allow_remote: bool = False,
                extra_hosts: tuple[str, ...] = (), limits: Limits | None = None) -> DeskServer:
    """A desk ready to ``serve_forever()`` (port 0: an ephemeral port; ``server.url`` says which)."""
    from .rulinglog import default_path

    book = log if isinstance(log, RulingLog) else RulingLog(log or default_path())
    return DeskServer(host, port, book, quiet, token, allow_remote, extra_hosts, limits)


def serve(host: str = "127.0.0.1", port: int = DEFAULT_PORT, log_path: str | Path | None = None,
          quiet: bool = False, token: str | None = None, allow_remote: bool = False,
          extra_hosts: tuple[str, ...] = (), limits: Limits | None = None,
          ready: Callable[[DeskServer], None] | None = None) -> None:
    """Run the desk until interrupted (Ctrl-C or SIGTERM: it finishes the requests in hand, then stops).
    ``ready`` is called once the desk listens (``bridgelaw serve --json`` says so in one JSON line); by default
    a line saying where the desk is goes to standard output."""
    import logging
    import signal

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("bridgelaw desk: %(message)s"))
    for name in ("bridgelaw.desk", "uvicorn.access", "uvicorn.error"):
        lg = logging.getLogger(name)
        lg.addHandler(handler)
        lg.propagate = False
    logging.getLogger("bridgelaw.desk").setLevel(logging.INFO)
    if quiet:
        logging.getLogger("uvicorn.access").disabled = True
    else:
        logging.getLogger("uvicorn.access").setLevel(logging.INFO)
    server = make_server(host, port, log_path, quiet, token, allow_remote, extra_hosts, limits)
    if ready is not None:
        ready(server)
    else:
        print(f"bridgelaw: the referee's desk at {server.url} (ruling log {server.log.path}; Ctrl-C to stop)",
              flush=True)
    previous = signal.signal(signal.SIGTERM, _stop)  # uvicorn handles the signal, then raises it again for us
    try:
        server.serve_forever()
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
        server.log.close()


class _Stopped(Exception):
    pass


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped()
