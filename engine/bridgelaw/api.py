"""The JSON contracts, shared by the CLI's ``--json`` output and the HTTP server.

Each function takes plain values and returns plain JSON-ready data, so that
``bridgelaw rule --json`` and ``POST /rule`` answer with the same document by
construction. Errors are the engine's: :class:`~bridgelaw.errors.InputError`
(bad input, one line naming the field) and :class:`NotFoundError` (no such
code or law: HTTP 404).
"""

from __future__ import annotations

import functools
import json
import os
import re

from .errors import InputError, UnknownCodeError, did_you_mean

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable, Sequence

__all__ = [
    "NotFoundError", "check_code", "codes", "code_detail", "find_law", "law_range", "law_dict", "law", "search", "kinds", "ruling_dict", "rule",
    "score", "auction", "auction_run", "diff", "casebook", "interview",
]


class NotFoundError(InputError):
    """The thing asked for (a code, a law) does not exist."""


def check_code(code_id: Any, field: str = "code") -> str:
    """A code id checked against the codes there are (:class:`UnknownCodeError` naming ``field``, with the ids
    and "did you mean")."""
    from .loader import code_ids

    ids = code_ids()
    if not isinstance(code_id, str) or code_id not in ids:
        raise UnknownCodeError(field, f"unknown code {code_id!r}{did_you_mean(str(code_id), ids)}; codes are "
                               f"{', '.join(ids)}")
    return code_id


def _code(code_id: Any, field: str = "code") -> Any:
    """Load a code by an id checked against the loaded codes' ids (nothing else reaches the file system)."""
    from .loader import load_code

    return load_code(check_code(code_id, field))


def codes() -> list[dict[str, Any]]:
    """``bridgelaw codes --json``: one row per code."""
    from .loader import code_ids, load_code

    rows = []
    for cid in code_ids():
        code = load_code(cid)
        rows.append({"id": code.id, "title": code.title, "authority": code.authority, "year": code.year,
                     "game": code.game, "extends": code.extends, "laws": len(code.laws),
                     "provisions": len(code.provisions)})
    return rows


def code_detail(code_id: str) -> dict[str, Any]:
    """One code: its row, the irregularity kinds it answers, and the index of its laws."""
    code = _code(code_id)
    row = next(r for r in codes() if r["id"] == code.id)
    from .loader import load_kinds

    _, all_kinds = load_kinds()
    return {**row, "kinds": [k for k, kind in all_kinds.items() if k in code.by_kind and code.seats.allows(kind)],
            "index": [{"number": lw.number, "heading": lw.heading, "missing": lw.missing, "binding": lw.binding}
                      for lw in code.laws]}


def find_law(code: Any, number: str, field: str = "n") -> Any:
    """The law ``number`` of a loaded code, as ``bridgelaw law`` finds it (a number past the last law of a
    code whose tail is missing gives that missing law); :class:`NotFoundError` naming ``field``, with the
    code's range, if it has none."""
    law = code.law(number)
    if law is None and number.isdigit() is False:  # e1 is E1, 50B is 50b: the printed number's case is not asked
        law = code.law(number.upper()) or code.law(number.lower())
    if law is not None:
        return law
    nums = [lw.number for lw in code.laws]
    if number in code.omitted:
        raise NotFoundError(field, f"law {number} of {code.extends} is omitted from {code.id}")
    last_missing = [lw for lw in code.laws if lw.missing]
    if last_missing and number.isdigit() and last_missing[-1].number.isdigit() \
            and int(number) >= int(last_missing[-1].number):
        return last_missing[-1]
    raise NotFoundError(field, f"{code.id} has no law {number!r}{did_you_mean(number, nums)}; "
                        f"its laws run {law_range(nums)}")


def law_range(numbers: Sequence[str]) -> str:
    """A code's law numbers as ranges, a range for each series in the order printed: ``1 … 97, E1 … E12``."""
    series: list[list[str]] = []
    for n in numbers:
        prefix = re.match(r"[A-Za-z]*(?=\d)", n)
        key = prefix.group(0) if prefix else "letters"
        if not series or series[-1][0] != key:
            series.append([key])
        series[-1].append(n)
    return ", ".join(s[1] if len(s) == 2 else f"{s[1]} … {s[-1]}" for s in series)


def law_dict(code: Any, law: Any) -> dict[str, Any]:
    """``bridgelaw law CODE N --json``."""
    return {
        "code": code.id, "number": law.number, "printed_number": law.printed_number, "heading": law.heading,
        "text": law.text, "missing": law.missing, "binding": law.binding, "topics": list(law.topics),
        "footnotes": [{"number": n, "text": t} for n, t in law.footnotes], "note": law.note or None,
        "source": law.file,
        "provisions": [{"id": p.full_id, "kinds": list(p.kinds), "when": p.when_text} for p in law.provisions],
    }


def law(code_id: str, number: str) -> dict[str, Any]:
    """One law of one code; :class:`NotFoundError` for an unknown code or law."""
    try:
        code = _code(code_id)
    except UnknownCodeError as e:
        raise NotFoundError(e.field, e.message) from None
    return law_dict(code, find_law(code, number))


#: The Unicode categories no law's text holds, blanks apart: controls, format characters, surrogates, private use
#: (the desk's published pattern for a search is made from it: :func:`bridgelaw.openapi.not_text_pattern`).
NOT_TEXT = frozenset(("Cc", "Cf", "Cs", "Co"))


def not_text(c: str) -> bool:
    """Is character ``c`` one no law's text holds (and no word typed to search it)? Over the Basic Multilingual
    Plane, where every control is and the desk's pattern can name them (a pattern's dialect reads characters past
    it as pairs of surrogates)."""
    import unicodedata

    return ord(c) < 0x10000 and not c.isspace() and unicodedata.category(c) in NOT_TEXT


def not_text_says(text: str) -> str | None:
    """What is wrong with words to search with a character no law's text holds (None: nothing)."""
    import unicodedata

    odd = next((c for c in text if not_text(c)), None)
    if odd is None:
        return None
    name = unicodedata.name(odd, "a control character" if unicodedata.category(odd) == "Cc" else "no character")
    return f"U+{ord(odd):04X} ({name.lower()}) is no character of a law's text: give the words as they are printed"


def search_hits(text: str, code_id: str | None = None, field: str = "TEXT") -> list[tuple[str, Any]]:
    """(code id, law) for every law whose text or footnotes contain ``text``, or tagged with it as a topic."""
    from .loader import code_ids, load_code

    import unicodedata

    said = not_text_says(text)
    if said is not None:
        raise InputError(field, said)
    # compatibility forms (full-width letters and digits, ligatures) are read as the letters they stand for, in the
    # words and in the text alike
    needle = " ".join(unicodedata.normalize("NFKC", text).lower().split())  # (and any run of spaces as one)
    if not needle.strip():
        raise InputError(field, "give some words to search for")
    hits = []
    for cid in ([code_id] if code_id else code_ids()):
        code = load_code(cid) if not code_id else _code(cid)
        for lw in code.laws:
            hay = (lw.text or "") + " " + " ".join(t for _, t in lw.footnotes)
            if needle in " ".join((hay if hay.isascii() else unicodedata.normalize("NFKC", hay)).lower().split()) \
                    or needle in lw.topics:
                hits.append((code.id, lw))
    return hits


def search(text: str, code_id: str | None = None, field: str = "TEXT") -> list[dict[str, Any]]:
    """``bridgelaw search TEXT --json``."""
    return [{"code": c, "number": lw.number, "heading": lw.heading, "text": lw.text}
            for c, lw in search_hits(text, code_id, field)]


def topics() -> list[dict[str, Any]]:
    """The shared topic taxonomy (``laws/topics.yaml``): each topic with its description and the codes
    whose laws carry it."""
    from .resources import laws_dir
    from .yamlsrc import load_yaml

    src = load_yaml(laws_dir() / "topics.yaml", "laws/topics.yaml")
    described = src.data.get("topics") if isinstance(src.data, dict) else None
    if not isinstance(described, dict):
        raise src.error((), "expected a mapping 'topics:' of topic id to description")
    used: dict[str, list[str]] = {}
    for c in _all_codes():
        for t in sorted({t for law in c.laws for t in law.topics}):
            used.setdefault(t, []).append(c.id)
    return [{"topic": t, "description": d, "codes": used.get(t, [])} for t, d in described.items()]


def _all_codes() -> list[Any]:
    from .loader import load_all

    return load_all()


def _fact_dict(f: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"type": f.type.name, "ask": f.ask}
    if f.type.choices:
        d["choices"] = list(f.type.choices)
    if f.derived:
        d["derived"] = f.derived
    if f.derive:
        d["derive"] = f.derive
    if f.default is not None:
        d["default"] = f.default
    return d


def kinds() -> dict[str, Any]:
    """``bridgelaw kinds --json``: the facts every kind may use, and every kind with its facts."""
    from .loader import load_kinds
    from .wording import kind_name

    common, all_kinds = load_kinds()
    return {"common": {n: _fact_dict(f) for n, f in common.items()},
            "kinds": {k.id: {"name": kind_name(k.id), "phase": k.phase, "summary": k.summary,
                             "facts": {n: _fact_dict(f) for n, f in k.facts.items()}}
                      for k in all_kinds.values()}}


def unwrap(data: Any, key: str, marker: str) -> Any:
    """A casebook entry stands for its incident (``key='incident'``) or its result (``key='result'``)."""
    if isinstance(data, dict) and key in data and marker not in data:
        from .casebook import _KEYS as entry_keys

        for k in data:  # else a field set beside the incident (facts, dealer, ...) would be dropped unsaid
            if k not in entry_keys:
                raise InputError(str(k)[:60], f"beside {key} in a casebook entry: "
                                 f"an entry has {', '.join(entry_keys)}: put the {key}'s own fields inside {key}")
        return data[key]
    if isinstance(data, dict) and marker not in data and "code" not in data:  # a casebook entry, its key misspelt?
        from .errors import did_you_mean

        for k in data:
            hint = did_you_mean(k, [key]) if isinstance(k, str) else ""
            if hint:
                raise InputError(k[:60], f"unknown field{hint}: a casebook entry gives its {key} under {key!r}")
    return data


def ruling_dict(ruling: Any) -> dict[str, Any]:
    """A ruling as JSON, with its ``words`` (:mod:`bridgelaw.wording`: what a page or a program shows people)."""
    from .wording import words_json

    return {**ruling.to_dict(), "words": words_json(ruling)}


def rule(incident: Any) -> dict[str, Any]:
    """``bridgelaw rule - --json``: the ruling on an incident (or on a casebook entry's incident), with its words."""
    from .referee import rule as _rule

    return ruling_dict(_rule(unwrap(incident, "incident", "irregularity")))


def score(result: Any) -> dict[str, Any]:
    """``bridgelaw score - --json``: a deal or a rubber scored."""
    from .scoring import score as _score

    return _score(unwrap(result, "result", "code")).to_dict()


def auction_run(code_id: str, dealer: str, calls: Sequence[Any],
                call_field: Callable[[int], str] = lambda i: f"calls[{i}]") -> tuple[dict[str, Any], Any, Any]:
    """Run an auction call by call; stop at the first irregularity, which is ruled. A call refused is named by
    ``call_field(i)`` (``calls[1]`` over HTTP, ``CALL 2`` on the command line).

    Returns ``bridgelaw auction --json``'s document, the ruling (or None) and the table."""
    from .table import Table

    if not isinstance(code_id, str):
        raise InputError("code", f"expected a code id, got {code_id!r}")
    t = Table(code_id, dealer)
    events = []
    ruling = None
    for i, item in enumerate(calls):
        if not isinstance(item, str):
            raise InputError(call_field(i), f"expected a call such as 1S, P, X or N:1S; got {item!r}")
        seat_text, _, call = item.rpartition(":")
        if t.phase != "auction":
            raise InputError(call_field(i), f"{item!r}: the auction is already over")
        seat = seat_text or (t.turn.value if t.turn is not None else "")
        try:
            a = t.call(seat, call)
        except InputError as e:  # the call (or its seat) refused: named as the caller gave it
            raise type(e)(call_field(i), e.message) from None
        made = t.history[-1] if t.history else None  # the seat and call as the table read them (s: S)
        ev: dict[str, Any] = {"seat": made.seat if made is not None and made.action == "call" else seat.upper(),
                              "call": call.upper(), "legal": a.legal}
        if not a.legal:
            if a.ruling is None:  # pragma: no cover - the table rules on every irregular call
                raise InputError(call_field(i), f"{item!r}: the table refused it without a ruling")
            ev["irregularity"] = a.kind
            ev["ruling"] = ruling_dict(a.ruling)
            ruling = a.ruling
            events.append(ev)
            not_run = [str(x) for x in calls[i + 1:]]  # the ruling waits on the innocent side's choice: said
            break
        events.append(ev)
    else:
        not_run = []
    c, declarer, leader = t.contract, t.declarer, t.leader
    out = {"code": t.code.id, "dealer": t.dealer.value, "calls": events, "phase": t.phase.value,
           "final_declaration": f"{c.level or ''}{c.strain.value}" if c is not None else None,
           "doubled": c.doubled if c is not None else 0, "declarer": declarer.value if declarer else None,
           "dummy": declarer.partner.value if declarer else None, "leader": leader.value if leader else None,
           "seating": t.seating() if t.variant == "three-hand" and declarer else None, "not_run": not_run}
    return out, ruling, t


def auction(request: Any) -> dict[str, Any]:
    """``POST /auction``: ``{code, dealer, calls}`` → ``bridgelaw auction --json``."""
    if not isinstance(request, dict):
        raise InputError("body", "expected an object with code, dealer and calls")
    for k in request:
        if k not in ("code", "dealer", "calls"):
            raise InputError(str(k), "unknown field; fields are code, dealer, calls")
    for k in ("code", "dealer", "calls"):
        if k not in request:
            raise InputError(k, "is required")
    calls = request["calls"]
    if not isinstance(calls, list) or not calls:
        raise InputError("calls", "expected a non-empty list of calls, e.g. [\"1H\", \"2C\", \"P\"]")
    _code(request["code"])
    return auction_run(request["code"], request["dealer"], calls)[0]


def diff(a: str, b: str, topic: str | None = None, fields: tuple[str, str] = ("code", "code")) -> dict[str, Any]:
    """``bridgelaw diff A B --format json``: text, parameters and provisions of two codes compared."""
    from .compare import diff_codes

    _code(a, fields[0])
    _code(b, fields[1])
    same_code(a, b, fields[1])
    return diff_codes(a, b, topic or None).to_dict()


def same_code(a: str, b: str, field: str) -> None:
    """Two codes compared must be two: a code against itself differs in nothing, and says so only by mistake."""
    if a == b:
        raise InputError(field, f"{b} is the code it is compared with: name two different codes (e.g. wcny-1912 "
                         "and wcny-1913)")


_casebook_cache: dict[str, Any] = {}


def casebook(code_id: str | None = None) -> list[dict[str, Any]]:
    """The casebook (``rulings/``, shipped in the wheel too): every worked
    ruling and scoring case with its story, and the incident or result to rule on."""
    from .casebook import load_cases
    from .resources import rulings_dir

    if code_id is not None:
        _code(code_id)
    root = rulings_dir()
    if root is None:
        return []
    files = sorted(root.glob("*/*.yaml")) + sorted(root.glob("*/scores/*.yaml"))
    stamp = json.dumps([(str(p), _mtime(p)) for p in files])
    if _casebook_cache.get("stamp") != stamp:  # reloaded when a case is added or edited
        rows = []
        for scores in (False, True):
            for c in load_cases(root, scores=scores):
                body = "incident" if c.kind == "ruling" else "result"
                rows.append({"path": c.path, "name": c.name, "story": c.story, "kind": c.kind,
                             "code": c.incident.get("code"), body: _plain(c.incident)})
        _casebook_cache.update(stamp=stamp, rows=rows)
    rows = _casebook_cache["rows"]
    return [r for r in rows if code_id is None or r["code"] == code_id]


def _mtime(path: Any) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:  # removed while we looked: the next look reloads
        return -1


def _plain(v: Any) -> Any:
    """YAML data as JSON data (dates and the like as strings)."""
    return json.loads(json.dumps(v, default=str))


@functools.lru_cache(maxsize=1)
def _interview_schema() -> dict[str, Any]:
    """``schema/interview.schema.json``, read once: the bounds the desk's document states, held here too."""
    from .resources import schema_dir

    return json.loads((schema_dir() / "interview.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def interview(request: Any) -> dict[str, Any]:
    """``POST /interview``: one round of the referee's interview (:mod:`bridgelaw.interview`, the flow of
    ``bridgelaw ask``). The request is ``{answers, answer, key}`` (``schema/interview.schema.json``): the answers so
    far, and the answer typed to the step asked, or to ``key`` (an earlier answer changed: the interview resumes
    from there), or ``key`` alone (that answer taken back, with those after it). The reply has the answers as they
    now stand, every answer in the order asked with its question and its words, and either the step to ask now
    (asked again with its ``problem`` after a bad answer: that is the flow, not an error) or, when nothing more is
    asked, the incident the answers make and its ruling with its words (as ``POST /rule`` gives it). A request
    that cannot be answered (answers that do not hold, a key never asked) is an :class:`InputError` naming the field."""
    from .interview import Interview

    if not isinstance(request, dict):
        raise InputError("body", "expected an object: {answers, answer, key}")
    for k in request:
        if k not in ("answers", "answer", "key"):
            raise InputError(str(k), "unknown field; fields are answers, answer, key")
    for name in ("answer", "key"):
        if request.get(name) is not None and not isinstance(request[name], str):
            raise InputError(name, f"expected text, got {request[name]!r:.60}")
    longest = _interview_schema()["properties"]["answer"]["maxLength"]
    if isinstance(request.get("answer"), str) and len(request["answer"]) > longest:
        raise InputError("answer", f"{len(request['answer']):,} characters: an answer is at most {longest:,}")
    answers = request.get("answers")
    try:
        iv = Interview.from_dict({} if answers is None else answers)
    except InputError as e:
        raise InputError(e.field if e.field.startswith("answers") else f"answers.{e.field}", e.message) from None
    step = iv.take(request.get("answer"), request.get("key"))
    if step is not None:
        return {"answers": iv.to_dict(), "asked": [a.to_dict() for a in iv.asked()], "step": step.to_dict(),
                "incident": None, "ruling": None}
    return {"answers": iv.to_dict(), "asked": [a.to_dict() for a in iv.asked()], "step": None,
            "incident": iv.incident(), "ruling": ruling_dict(iv.ruling())}
