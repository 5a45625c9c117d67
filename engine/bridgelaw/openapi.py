"""The OpenAPI 3.1 document of the referee's desk (``GET /openapi.json``).

Request and response bodies reuse the published JSON Schemas in ``schema/``
(incident, ruling, score, interview): each is copied into ``components/schemas``
with its ``$defs`` hoisted beside it and its ``$ref`` pointers rewritten (a
pointer to another published file names that file's component), and the
code and kind ids are narrowed to those this server has loaded.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any, Mapping

from . import __version__
from .limits import NOTE_PATTERN
from .rulinglog import MAX_NOTE, MAX_PAGE

__all__ = ["document", "for_loaded_codes", "Checker", "MAX_BODY", "ERRORS"]

MAX_BODY = 64 * 1024

_REF = "#/components/schemas/"
_SEAT = {"enum": ["N", "E", "S", "W"]}
_STR_OR_NULL = {"type": ["string", "null"]}
_MAX_ID = 2 ** 63 - 1  # SQLite's largest rowid: a larger id can name no entry


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _REF + name}


#: The published files hoisted as components, by the name a ``$ref`` in another file gives them.
_FILES = {"incident.schema.json": "Incident", "ruling.schema.json": "Ruling"}


def _hoist(file: str, name: str, out: dict[str, Any], raw: dict[str, Any] | None = None) -> dict[str, Any]:
    """Copy ``schema/<file>`` (or ``raw``, a schema made from it) into ``out`` as ``name``; its ``$defs`` become
    ``name`` + Def."""
    from .resources import schema_dir

    if raw is None:
        raw = json.loads((schema_dir() / file).read_text(encoding="utf-8"))
    defs = raw.pop("$defs", {})
    names = {d: name + d.title().replace("_", "") for d in defs}

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            new = {k: rewrite(v) for k, v in node.items() if k not in ("$schema", "$id", "version")}
            ref = node.get("$ref")
            if ref == "#":
                new["$ref"] = _REF + name
            elif isinstance(ref, str) and ref.startswith("#/$defs/"):
                new["$ref"] = _REF + names[ref[len("#/$defs/"):]]
            elif isinstance(ref, str) and ref in _FILES:
                new["$ref"] = _REF + _FILES[ref]
            return new
        if isinstance(node, list):
            return [rewrite(x) for x in node]
        return node

    for d, body in defs.items():
        out[names[d]] = rewrite(body)
    hoisted: dict[str, Any] = rewrite(raw)
    out[name] = hoisted
    return hoisted


def _obj(props: dict[str, Any], required: list[str] | None = None, extra: bool = False) -> dict[str, Any]:
    s: dict[str, Any] = {"type": "object", "properties": props, "required": required or list(props)}
    if not extra:
        s["additionalProperties"] = False
    return s


def _arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _schemas(code_ids: list[str], kind_ids: list[str]) -> dict[str, Any]:
    s: dict[str, Any] = {}
    from .incident import incident_schema  # the codes and kinds by name, each kind's facts typed and bounded

    incident = _hoist("incident.schema.json", "Incident", s, incident_schema(code_ids, kind_ids))
    _hoist("ruling.schema.json", "Ruling", s)
    _hoist("score.schema.json", "Score", s)
    for name in ("ScoreResult", "ScoreRubber"):
        s[name]["properties"]["code"] = {"type": "string", "enum": code_ids}
    # a rubber's deals take their code from the rubber (as the engine and the casebook have them)
    deal = copy.deepcopy(s["ScoreResult"])
    for branch in ("then", "else"):  # a deal played, or one ended without play (new_deal)
        deal[branch]["required"] = [r for r in deal[branch]["required"] if r != "code"]
    deal["description"] = "one deal of a rubber: the code may be left to the rubber"
    s["ScoreRubberDeal"] = deal
    s["ScoreRubber"]["properties"]["deals"]["items"] = _ref("ScoreRubberDeal")
    s["ScoreRequest"] = {"description": "one deal, or a rubber", "anyOf": [_ref("ScoreResult"), _ref("ScoreRubber")]}
    s["Error"] = _obj({"error": _obj({
        "field": {"type": ["string", "null"], "description": "the field, parameter or header at fault "
                                                             "(null: the request as a whole)"},
        "message": {"type": "string", "description": "one line: what is wrong and what would be right"}})})
    s["Code"] = _obj({"id": {"type": "string"}, "title": {"type": "string"}, "authority": {"type": "string"},
                      "year": {"type": "integer"}, "game": {"type": "string"}, "extends": _STR_OR_NULL,
                      "laws": {"type": "integer"}, "provisions": {"type": "integer"}})
    detail = copy.deepcopy(s["Code"])
    detail["properties"]["kinds"] = _arr({"type": "string"})
    detail["properties"]["index"] = _arr(_obj({"number": {"type": "string"}, "heading": _STR_OR_NULL,
                                               "missing": {"type": "boolean"}, "binding": {"type": "boolean"}}))
    detail["required"] = list(detail["properties"])
    s["CodeDetail"] = detail
    s["Law"] = _obj({
        "code": {"type": "string"}, "number": {"type": "string"}, "printed_number": _STR_OR_NULL,
        "heading": _STR_OR_NULL, "text": _STR_OR_NULL, "missing": {"type": "boolean"},
        "binding": {"type": "boolean"}, "topics": _arr({"type": "string"}),
        "footnotes": _arr(_obj({"number": {"type": "string"}, "text": {"type": "string"}})),
        "note": _STR_OR_NULL, "source": {"type": "string"},
        "provisions": _arr(_obj({"id": {"type": "string"}, "kinds": _arr({"type": "string"}),
                                 "when": {"type": "string"}}))})
    s["SearchHit"] = _obj({"code": {"type": "string"}, "number": {"type": "string"}, "heading": _STR_OR_NULL,
                           "text": _STR_OR_NULL})
    fact = _obj({"type": {"type": "string"}, "ask": {"type": "string"}, "choices": _arr({"type": "string"}),
                 "derived": {"type": "string"}, "derive": {"type": "string"}, "default": {}}, ["type", "ask"])
    s["Kinds"] = _obj({
        "common": {"type": "object", "additionalProperties": fact},
        "kinds": {"type": "object", "additionalProperties": _obj({
            "name": {"type": "string", "description": "the kind in words"},
            "phase": {"type": "string"}, "summary": {"type": "string"},
            "facts": {"type": "object", "additionalProperties": fact}})}})
    s["AuctionRequest"] = _obj({
        "code": {"type": "string", "enum": code_ids}, "dealer": _SEAT,
        "calls": {**_arr({"type": "string", "description": "1S 2NT P X XX, or SEAT:CALL"}), "minItems": 1,
                  "maxItems": 100}})
    s["Auction"] = _obj({
        "code": {"type": "string"}, "dealer": _SEAT,
        "calls": _arr(_obj({"seat": _SEAT, "call": {"type": "string"}, "legal": {"type": "boolean"},
                            "irregularity": {"type": "string"}, "ruling": _ref("Ruling")},
                           ["seat", "call", "legal"])),
        "phase": {"type": "string"}, "final_declaration": _STR_OR_NULL, "doubled": {"type": "integer"},
        "declarer": {"enum": ["N", "E", "S", "W", None]}, "dummy": {"enum": ["N", "E", "S", "W", None]},
        "leader": {"enum": ["N", "E", "S", "W", None]},
        "seating": {"type": ["object", "null"], "description": "three-hand, once the declaration is final (T8): "
                    "position -> the player who sits there (his seat in the auction) or \"dummy\"",
                    "additionalProperties": {"enum": ["N", "E", "S", "W", "dummy"]}},
        "not_run": {**_arr({"type": "string"}), "description": "the calls given after the irregularity, as given: "
                    "not run, for the auction waits on the ruling"}})
    _hoist("diff.schema.json", "Diff", s)  # the diff JSON contract: schema/diff.schema.json
    _hoist("interview.schema.json", "Interview", s)  # a round of the interview, and its reply (InterviewState)
    answers = s["InterviewAnswers"]["properties"]
    answers["code"], answers["irregularity"] = (copy.deepcopy(incident["properties"][k]) for k in ("code",
                                                                                                  "irregularity"))
    s["CasebookEntry"] = _obj({
        "path": {"type": "string"}, "name": {"type": "string"}, "story": {"type": "string"},
        "kind": {"enum": ["ruling", "score"]}, "code": {"type": "string"},
        "incident": {"type": "object"}, "result": {"type": "object"}}, ["path", "name", "story", "kind", "code"])
    entry = {"id": {"type": "integer"}, "time": {"type": "string"}, "code": {"type": "string"},
             "irregularity": {"type": "string"}, "incident": {"type": "object"}, "choice": _STR_OR_NULL,
             "note": _STR_OR_NULL, "noted_at": _STR_OR_NULL}
    s["LogEntry"] = _obj({**entry, "ruling": _ref("Ruling")})
    s["LogSummary"] = _obj({**entry, "laws": _arr({"type": "string"}),
                            "options": _arr(_obj({"id": {"type": "string"}, "chooser": {"oneOf": [{"type": "string"}, _arr({"type": "string"})]},
                                                  "law": {"type": "string"}})),
                            "effects": _arr({"type": "string"}),
                            "heading": {"type": ["string", "null"], "description": "the ruling's heading in words"}})
    s["Log"] = _obj({"count": {"type": "integer", "description": "rulings in the log"},
                     "next_before": {"type": ["integer", "null"],
                                     "description": "the `before` of the page of older entries (null: none)"},
                     "entries": _arr(_ref("LogSummary"))})
    note = {"type": ["string", "null"], "maxLength": MAX_NOTE, "pattern": NOTE_PATTERN,
            "description": "the referee's note (no control characters but tab and line breaks)"}
    choice = {"type": ["string", "null"], "description": "the option chosen: an option id of the ruling"}
    s["LogRequest"] = {
        "description": "with `id`: record the option chosen and the note on a logged ruling; with `incident`: "
                       "rule on it and log the ruling with them",
        "oneOf": [_obj({"id": {"type": "integer", "minimum": 1, "maximum": _MAX_ID}, "choice": choice, "note": note}, ["id"]),
                  _obj({"incident": _ref("Incident"), "choice": choice, "note": note}, ["incident"])]}
    return s


ERRORS = {400: "bad request (malformed JSON, a missing or bad parameter or header, not an origin-form target)",
          401: "the desk's token is missing or wrong", 403: "the Host header does not name this desk",
          404: "no such code, law or entry", 405: "the method is not allowed on this path",
          409: "the Idempotency-Key was used before, with a different request",
          408: "the request was not received in time", 411: "a body must come with a Content-Length (not chunked)",
          413: "request body too large",
          415: "the body must be application/json, in UTF-8 (charset=utf-8 or none, no other parameter), with no "
               "Content-Encoding", 422: "the input is wrong: one line naming the field",
          431: "the request line and headers are too large",
          503: "the desk is busy (too many connections, or the answer took too long)"}
_EVERY = (400, 403, 405, 431, 503)  # any request may meet these (and 401 when the desk has a token)


def _err(*codes: int) -> dict[str, Any]:
    return {str(c): {"description": ERRORS[c], "content": {"application/json": {"schema": _ref("Error")}}}
            for c in sorted(set(codes) | set(_EVERY))}


def _ok(schema: dict[str, Any], what: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    r: dict[str, Any] = {"description": what, "content": {"application/json": {"schema": schema}}}
    if headers:
        r["headers"] = headers
    return {"200": r}


def _q(name: str, schema: dict[str, Any], required: bool = False, what: str = "") -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "schema": schema, "description": what}


def _path(name: str, schema: dict[str, Any], what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema, "description": what}


def _body(name: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
        "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,200}$"},
        "description": "a key the client makes for this request (a fresh UUID): sent again with a retry of the "
                       "same request, it is answered from the ruling log and nothing is logged twice; the same key "
                       "with a different request is a 409"}
_REPLAYED = {"X-Bridgelaw-Replayed": {"description": "`true`: answered from the log, for an Idempotency-Key "
                                                     "already used with this request", "schema": {"const": "true"}}}


#: A character that is not blank as the engine reads blanks (Python's ``str.strip``), written out so that the
#: schema's regular-expression dialect and Python's agree (``\S`` differs: Python counts U+001C-U+001F as
#: blanks, ECMA-262 does not).
_NOT_BLANK = ("[^\\t\\n\\u000b\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029"
              "\\u202f\\u205f\\u3000]")


@functools.lru_cache(maxsize=None)
def words_pattern() -> str:
    """The pattern of words to search: one character not blank (:data:`_NOT_BLANK`), and none that no law's text
    holds (:func:`bridgelaw.api.not_text`, over the Basic Multilingual Plane), as one pattern (a generator of
    requests reads one better than two), written as ranges the schema's dialect and Python's read alike."""
    from .api import not_text

    ranges, start = [], None
    for i in range(0x10001):
        bad = i < 0x10000 and not 0xD800 <= i <= 0xDFFF and not_text(chr(i))  # (no surrogate is UTF-8's to send,
        # and a pattern naming them is one a Rust regex engine -- schemathesis's -- refuses)
        if bad and start is None:
            start = i
        elif not bad and start is not None:
            ranges.append(f"\\u{start:04x}" + (f"-\\u{i - 1:04x}" if i - 1 > start else ""))
            start = None
    odd = "".join(ranges)
    return f"^[^{odd}]*[^{_NOT_BLANK[2:-1]}{odd}][^{odd}]*$"


def _op(op_id: str, summary: str, responses: dict[str, Any], params: list[Any] | None = None,
        body: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": op_id, "summary": summary, "responses": responses}
    if params:
        op["parameters"] = params
    if body:
        op["requestBody"] = _body(body)
        responses.update(_err(408, 411, 413, 415, 422))
    return op


def for_loaded_codes(token: bool = False, max_body: int = MAX_BODY) -> dict[str, Any]:
    """The document of a desk serving the codes, kinds and topics this installation has."""
    from .loader import code_ids, load_kinds, load_topics
    from .resources import laws_dir

    return document(code_ids(), list(load_kinds()[1]), token, max_body, sorted(load_topics(str(laws_dir()))))


def document(code_ids: list[str], kind_ids: list[str], token: bool = False, max_body: int = MAX_BODY,
             topics: list[str] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document for a desk with these codes, kinds and topics loaded (``token``: one that takes
    requests with its token only; ``max_body``: the most bytes it takes in a body)."""
    code = {"type": "string", "enum": code_ids}
    topic = {"type": "string", "enum": topics} if topics is not None else {"type": "string", "maxLength": 100}
    log_id = {"X-Bridgelaw-Log-Id": {"description": "the ruling log entry recording this ruling (absent when the "
                                                    "ruling still asks questions, or with log=false)",
                                     "schema": {"type": "string", "pattern": "^[0-9]+$"}}, **_REPLAYED}
    page = {"200": {"description": "HTML", "content": {"text/html": {"schema": {"type": "string"}}}}, **_err()}
    page_params = []
    if token:
        page["303"] = {"description": "opened as /?token=TOKEN: the token is kept in a cookie, and the page is /"}
        page_params = [_q("token", {"type": "string"}, False, "the desk's token, to open the page with")]
    paths = {
        "/": {"get": _op("page", "the referee's web page (one self-contained HTML page)", page, page_params)},
        "/openapi.json": {"get": _op("openapi", "this document", {**_ok({"type": "object"}, "OpenAPI 3.1"),
                                                                   **_err()})},
        "/codes": {"get": _op("codes", "the codes (as `bridgelaw codes --json`)",
                              {**_ok(_arr(_ref("Code")), "one row per code"), **_err()})},
        "/codes/{id}": {"get": _op("code", "one code: its row, the kinds it answers, the index of its laws",
                                   {**_ok(_ref("CodeDetail"), "the code"), **_err(404)},
                                   [_path("id", {"type": "string"}, "a code id")])},
        "/codes/{id}/laws/{n}": {"get": _op(
            "law", "one law, verbatim, with its footnotes (as `bridgelaw law CODE N --json`)",
            {**_ok(_ref("Law"), "the law"), **_err(404)},
            [_path("id", {"type": "string"}, "a code id"), _path("n", {"type": "string"}, "a law number: 84, 50b, E1")])},
        "/search": {"get": _op("search", "every law whose text says it (as `bridgelaw search TEXT --json`)",
                               {**_ok(_arr(_ref("SearchHit")), "the laws"), **_err(400, 422)},
                               [_q("q", {"type": "string", "minLength": 1, "maxLength": 200,
                                         "pattern": words_pattern()},
                                   True, "words (not only blanks; no control or format characters)"),
                                _q("code", code, False, "only this code")])},
        "/rule": {"post": _op("rule", "rule on an incident (as `bridgelaw rule - --json`); a complete ruling "
                                      "is recorded in the ruling log",
                              {**_ok(_ref("Ruling"), "the ruling", log_id), **_err(409)},
                              [_q("log", {"type": "boolean", "default": True}, False,
                                  "false: do not record the ruling in the log"), _KEY], "Incident")},
        "/interview": {"post": _op("interview", "one round of the referee's interview (the flow of `bridgelaw "
                                                "ask`): the answers so far and an answer, or a key to change one; "
                                                "the step to ask now (asked again, with its problem, after a bad "
                                                "answer), or the ruling when nothing more is asked",
                                   {**_ok(_ref("InterviewState"), "the interview after this round"), **_err()},
                                   body="Interview")},
        "/score": {"post": _op("score", "score a deal or a rubber (as `bridgelaw score - --json`)",
                               {**_ok(_ref("Score"), "the score"), **_err()}, body="ScoreRequest")},
        "/auction": {"post": _op("auction", "run an auction; rule on the first irregularity "
                                            "(as `bridgelaw auction --json`)",
                                 {**_ok(_ref("Auction"), "the auction"), **_err()}, body="AuctionRequest")},
        "/diff": {"get": _op("diff", "compare two codes (as `bridgelaw diff A B --format json`)",
                             {**_ok(_ref("Diff"), "text, parameters and provisions compared"), **_err(400, 422)},
                             [_q("a", code, True, "a code id"), _q("b", code, True, "a code id, not a's (a 400 says so)"),
                              _q("topic", topic, False, "only laws on this topic")])},
        "/kinds": {"get": _op("kinds", "every irregularity kind and its facts (as `bridgelaw kinds --json`)",
                              {**_ok(_ref("Kinds"), "the catalogue"), **_err()})},
        "/casebook": {"get": _op("casebook", "the casebook: worked rulings and scores, with their stories",
                                 {**_ok(_arr(_ref("CasebookEntry")), "the cases"), **_err(400, 422)},
                                 [_q("code", code, False, "only this code")])},
        "/log": {
            "get": _op("log", "a page of the ruling log, oldest first: the last `limit` entries before `before`",
                       {**_ok(_ref("Log"), "the entries"), **_err(400)},
                       [_q("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 200}, False,
                           "how many entries"),
                        _q("before", {"type": "integer", "minimum": 1, "maximum": _MAX_ID}, False,
                           "only entries with ids below this (the `next_before` of the page after)")]),
            "post": _op("log_record", "record the option chosen and the referee's note",
                        {**_ok(_ref("LogEntry"), "the entry as recorded", _REPLAYED), **_err(404, 409)}, [_KEY],
                        body="LogRequest")},
        "/log/{id}": {"get": _op("log_entry", "one entry of the ruling log, with the whole ruling",
                                 {**_ok(_ref("LogEntry"), "the entry"), **_err(404)},
                                 [_path("id", {"type": "integer", "minimum": 1, "maximum": _MAX_ID}, "the entry id")])},
    }
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "bridgelaw: the referee's desk", "version": __version__,
                 "description": "The historic laws of bridge (1904-1913): the same contracts as the `bridgelaw` "
                                f"command, as JSON. Request bodies are at most {max_body} bytes. Every error is "
                                '`{"error": {"field": ..., "message": ...}}`.'},
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "paths": paths,
        "components": {"schemas": _schemas(code_ids, kind_ids)},
    }
    if token:
        doc["components"]["securitySchemes"] = {
            "token": {"type": "http", "scheme": "bearer", "description": "the token the desk was started with"},
            "page": {"type": "apiKey", "in": "cookie", "name": "bridgelaw_token",
                     "description": "set when the page is opened as /?token=TOKEN"}}
        doc["security"] = [{"token": []}, {"page": []}]
        for item in paths.values():
            for op in item.values():
                op["responses"].update(_err(401))
        paths["/"]["get"]["security"] = [{"token": []}, {"page": []}, {}]
    return doc


class Checker:
    """Requests checked against the document: query and path parameters (400) and bodies (422)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        import jsonschema

        self._ops: dict[tuple[str, str], tuple[list[dict[str, Any]], Any]] = {}
        root = {"components": doc["components"]}
        for path, item in doc["paths"].items():
            for method, op in item.items():
                body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
                validator = jsonschema.Draft202012Validator({**root, **body}) if body else None
                self._ops[(method.upper(), path)] = (op.get("parameters", []), validator)

    def parameters(self, method: str, path: str, params: dict[str, str], query: dict[str, str],
                   headers: Mapping[str, str] | None = None) -> str | None:
        """The first problem with the parameters (path, query and headers), or None."""
        import jsonschema

        from .errors import did_you_mean

        declared = [p for p in self._ops.get((method, path), ([], None))[0]]
        if path != "/":  # (the page takes what a browser adds; ?token= is the guard's)
            names = [p["name"] for p in declared if p["in"] == "query"]
            for name in query:
                if name not in names:  # else a misspelt parameter would be ignored and its default taken
                    takes = f"{method} {path} takes " + (", ".join(names) if names else "no query parameters")
                    return f"{name[:60]}: unknown query parameter{did_you_mean(name, names)}; {takes}"
        for p in declared:
            where = {"path": params, "query": query, "header": headers or {}}[p["in"]]
            given = where.get(p["name"].lower() if p["in"] == "header" else p["name"])
            if given is None:
                if p.get("required"):
                    return f"{p['name']}: this {p['in']} parameter is required"
                continue
            value: Any = given
            kind = p["schema"].get("type")
            if kind == "integer" and re.fullmatch(r"-?[0-9]{1,40}", given):  # the schema's bounds do the rest
                value = int(given)
            elif kind == "boolean" and given.lower() in ("true", "false"):
                value = given.lower() == "true"
            try:
                jsonschema.Draft202012Validator(p["schema"]).validate(value)
            except jsonschema.ValidationError as e:
                if e.validator == "pattern" and e.validator_value == words_pattern():
                    from .api import not_text_says  # (the engine's own words for it)

                    return f"{p['name']}: {not_text_says(given) or 'give some words to search for'}"
                return f"{p['name']}: {_short(e.message)}"
        return None

    def body(self, method: str, path: str, body: Any) -> tuple[str, str] | None:
        """(field, message) for the first way the body breaks its schema, or None."""
        from jsonschema.exceptions import best_match

        validator = self._ops.get((method, path), ([], None))[1]
        if validator is None:
            return None
        err = best_match(validator.iter_errors(body))
        if err is None:
            return None
        while err.validator in ("anyOf", "oneOf") and err.context:  # the branch the body comes nearest to
            err = _nearest_branch(err)
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".")
        return where or "body", _short(_bound_message(err) or err.message)


_BOUNDS = {"maxItems": ("items", "at most {} are taken"), "minItems": ("items", "at least {} are needed"),
           "maxLength": ("characters", "at most {} are taken"), "minLength": ("characters", "at least {} are needed"),
           "maxProperties": ("fields", "at most {} are taken"), "minProperties": ("fields", "at least {} are needed")}


def _bound_message(err: Any) -> str:
    """A size bound broken, said by its numbers (jsonschema's message begins with the whole value's repr)."""
    what = _BOUNDS.get(err.validator)
    if what is None or not hasattr(err.instance, "__len__"):
        return ""
    return f"{len(err.instance)} {what[0]}; {what[1].format(err.validator_value)}"


def _nearest_branch(err: Any) -> Any:
    """Of an ``anyOf``/``oneOf`` the body breaks every branch of, the first error of the branch it breaks least
    (fewest errors, then the one nearest the top): a rubber's sheet is told what its rubber lacks, not that it is no deal —
    and never the body's repr with "not valid under any of the given schemas"."""
    from jsonschema.exceptions import best_match

    by: dict[Any, list[Any]] = {}
    for e in err.context:
        by.setdefault(e.schema_path[0] if e.schema_path else 0, []).append(e)
    branch = min(by.values(), key=lambda es: (len(es), min(len(e.absolute_path) for e in es)))
    return best_match(branch)


def _short(message: str, limit: int = 200) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[:limit] + "…"
