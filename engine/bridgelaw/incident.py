"""The incident at the edge: its shape checked once, against ``schema/incident.schema.json``.

:func:`read_incident` refuses exactly what the published schema refuses, each
refusal an :class:`~bridgelaw.errors.InputError` naming the field
(``auction[3]``, ``facts.established``) with a did-you-mean where one helps, and
reads the rest into a typed :class:`Incident`. The bounds and patterns it holds
an incident to (the longest code id, the calls an auction may hold, how many
facts, ...) are read from the schema file itself, so the two cannot drift; a
property test (tests/test_incident_edge.py) feeds both the same mostly-valid
incidents and checks they agree.

What no schema of the incident alone can state — that the code and the kind
exist, that a fact is of its kind and type, that the seats exist in the code,
that the callers follow a rotation the laws allow — is checked against the
code afterwards (:mod:`bridgelaw.incidentcode`), and listed in the schema's
description. :func:`incident_schema` is the schema made as strict as the
codes and the catalogue allow, for the desk's OpenAPI document: the codes and
kinds by name, each kind's facts with their types and bounds, the seats
three-hand leaves empty.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import InputError, UnknownCodeError, did_you_mean
from .limits import control_in
from .incidentbounds import _Bounds, _bounds, schema
from .incidentcode import _is_int, fact_value
from .values import OVER_SEVEN_RE, Call, OverSeven, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

__all__ = ["Incident", "read_incident", "schema", "incident_schema", "CROSS_FIELD", "cross_field"]


@dataclass(frozen=True)
class Incident:
    """What happened, as the referee or the game engine reports it."""

    code: str
    irregularity: str
    dealer: Seat | None = None
    declarer: Seat | None = None
    offender: Seat | None = None
    auction: tuple[Call, ...] = ()
    offence_at: int | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    has_auction: bool = False
    callers: tuple[Seat, ...] = ()  # the seat of each call, where the auction left the rotation

    def __repr__(self) -> str:
        parts = [f"code={self.code!r}", f"irregularity={self.irregularity!r}"]
        for name in ("dealer", "declarer", "offender"):
            v = getattr(self, name)
            if v is not None:
                parts.append(f"{name}={v.value!r}")
        if self.has_auction:
            parts.append(f"auction={[c.text for c in self.auction]!r}")
        if self.offence_at is not None:
            parts.append(f"offence_at={self.offence_at}")
        if self.facts:
            parts.append(f"facts={dict(self.facts)!r}")
        return f"Incident({', '.join(parts)})"


#: The fields an incident the desk's schema takes (:func:`incident_schema`) may still be refused by, each for a
#: rule no JSON Schema can state (listed in the published schema's description): as many callers as calls, an
#: offence_at within the auction, the rotation, the offending call of the record, what the record shows against what
#: is given, the three-hand players' parts, the offender a kind names. Paths under them (``facts.call``,
#: ``auction[3]``, ``callers[1]``) count as theirs.
CROSS_FIELD = ("irregularity", "declarer", "offender", "auction", "callers", "offence_at", "facts")


def cross_field(field: str) -> bool:
    """Is ``field`` one a schema-valid incident may be refused by (:data:`CROSS_FIELD`, or a path under one)?"""
    return field.split(".")[0].split("[")[0] in CROSS_FIELD


def _seat(v: Any, where: str, b: _Bounds) -> Seat:
    if isinstance(v, Seat):
        return v
    if isinstance(v, str) and v in b.seats:
        return Seat(v)
    hint = did_you_mean(v.strip().upper(), b.seats) if isinstance(v, str) and len(v) < 20 else ""
    raise InputError(where, f"expected a seat N, E, S or W, got {v!r:.60}{hint}")


def _call(v: Any, where: str, b: _Bounds, impossible: bool = False) -> Call:
    """A call of the record; ``impossible``: the offending call of an impossible bid, which may be a bid of more
    than seven (an impossible declaration, :class:`OverSeven`)."""
    if isinstance(v, Call):
        return v
    if isinstance(v, str) and b.call_re.search(v):
        if OVER_SEVEN_RE.match(v):
            if impossible:
                return OverSeven(v, where)
            raise InputError(where, f"{v} is a bid of more than seven: an impossible declaration, which a record holds "
                             "only as the offending call of an impossible_bid (auction[offence_at], or its last call)")
        return Call(v, where)
    if not isinstance(v, str):
        raise InputError(where, f"expected a call such as 1S, 2NT, P, X or XX, got {v!r:.60}")
    hint = ""
    if len(v) <= 20:
        try:
            hint = f" (did you mean '{Call(v).text}'?)"  # a spelling the table takes, written as an incident has it
        except InputError:
            pass
    raise InputError(where, f"{v!r:.60} is not a call: expected a level 1-7 and a strain C D H S R NT (e.g. 1S, "
                     f"2NT), or P, X, XX{hint}")


def _known_codes() -> list[str]:
    from .loader import code_ids

    return code_ids()


def _code(v: Any, b: _Bounds) -> str:
    if not isinstance(v, str):
        raise InputError("code", f"expected a code id such as wcny-1913, got {v!r:.60}")
    if len(v) <= b.code_len and b.code_re.search(v):
        return v
    ids = _known_codes()
    shown = f"{v[:40]!r}…" if len(v) > 40 else repr(v)
    raise UnknownCodeError("code", f"unknown code {shown}: a code id is at most {b.code_len} lowercase letters, "
                           f"digits and hyphens" + did_you_mean(v[:b.code_len].lower(), ids)
                           + f"; codes are {', '.join(ids)}")


def _kind(v: Any, b: _Bounds) -> str:
    if not isinstance(v, str):
        raise InputError("irregularity", f"expected an irregularity kind such as insufficient_bid, got {v!r:.60}")
    if len(v) <= b.kind_len and b.kind_re.search(v):
        return v
    from .catalogue import load_kinds
    from .resources import laws_dir

    kinds = load_kinds(str(laws_dir()))[1]
    shown = f"{v[:40]!r}…" if len(v) > 40 else repr(v)
    raise InputError("irregularity", f"unknown kind {shown}" + did_you_mean(v[:b.kind_len].lower(), kinds)
                     + "; `bridgelaw kinds` lists them")


def read_incident(data: Any) -> Incident:
    """Check an incident mapping's shape against the published schema; every error names its field."""
    if isinstance(data, Incident):
        return data
    if not isinstance(data, Mapping):
        raise InputError("incident", f"expected a mapping with code, irregularity, ...; got {type(data).__name__}")
    b = _bounds()
    for k in data:
        if k not in b.fields:
            key = str(k)[:60]
            raise InputError(key, f"unknown field{did_you_mean(key, b.fields)}; fields are {', '.join(b.fields)}")
    for req in b.required:
        if data.get(req) is None:
            raise InputError(req, "is required")
    for k, v in data.items():
        if v is None:
            raise InputError(str(k), "is null: leave a field out when it is not known")
    code = _code(data["code"], b)
    kind = _kind(data["irregularity"], b)
    seats = {}
    for name in ("dealer", "declarer", "offender"):
        v = data.get(name)
        seats[name] = _seat(v, name, b) if v is not None else None
    for have, needs in b.needs:
        if data.get(have) is not None:
            for need in needs:
                if data.get(need) is None:
                    raise InputError(need, _NEEDS.get((have, need), f"is required with {have}"))
    auction_raw = data.get("auction")
    calls: tuple[Call, ...] = ()
    if auction_raw is not None:
        if not isinstance(auction_raw, (list, tuple)):
            raise InputError("auction", f"expected a list of calls, e.g. [1S, P, 1C]; got {auction_raw!r:.60}")
        if len(auction_raw) > b.auction_max:
            raise InputError("auction", f"{len(auction_raw)} calls: an auction record holds at most {b.auction_max}")
        at_raw = data.get("offence_at")
        offending = (at_raw if _is_int(at_raw) else len(auction_raw) - 1) if kind == "impossible_bid" else -1
        calls = tuple(_call(c, f"auction[{i}]", b, i == offending) for i, c in enumerate(auction_raw))
    who: tuple[Seat, ...] = ()
    callers_raw = data.get("callers")
    if callers_raw is not None:
        if not isinstance(callers_raw, (list, tuple)):
            raise InputError("callers", f"expected a list of seats, one for each call of auction; got "
                             f"{callers_raw!r:.60}")
        if len(callers_raw) > b.callers_max:
            raise InputError("callers", f"{len(callers_raw)} seats: at most {b.callers_max}")
        who = tuple(_seat(x, f"callers[{i}]", b) for i, x in enumerate(callers_raw))
    at = data.get("offence_at")
    if at is not None and (not _is_int(at) or not 0 <= at <= b.offence_max):
        raise InputError("offence_at", f"expected an index into auction (a whole number 0 to {b.offence_max}), got "
                         f"{at!r:.60}")
    facts_raw = data.get("facts")
    facts: dict[str, Any] = {}
    if facts_raw is not None:
        if not isinstance(facts_raw, Mapping):
            raise InputError("facts", f"expected a mapping of fact names to values (e.g. {{established: true}}), got "
                             f"{facts_raw!r:.60}")
        if len(facts_raw) > b.facts_max:
            raise InputError("facts", f"{len(facts_raw)} facts: at most {b.facts_max}")
        for name, v in facts_raw.items():
            if not isinstance(name, str) or not (0 < len(name) <= b.fact_name_len and b.fact_name_re.search(name)):
                raise InputError(f"facts.{str(name)[:40]}", "not a fact name: a fact is named in lowercase words "
                                 "joined by _ (e.g. established); `bridgelaw kinds` lists each kind's facts")
            facts[name] = fact_value(name, v, b.fact_int, b.fact_str)
    note = data.get("note")
    if note is not None and (not isinstance(note, str) or len(note) > b.note_max):
        raise InputError("note", f"expected text of at most {b.note_max:,} characters"
                         + (f", got {len(note):,}" if isinstance(note, str) else f", got {note!r:.60}"))
    said = control_in(note) if note is not None else None
    if said is not None:
        raise InputError("note", said)
    # the cross-field rules the schema cannot state, that need nothing but the incident
    if callers_raw is not None and len(who) != len(calls):
        raise InputError("callers", f"{len(who)} seat(s) for {len(calls)} call(s): callers has one seat for each call "
                         "of auction")
    if at is not None and at >= len(calls):
        raise InputError("offence_at", f"{at} is past the end of auction: an index 0 to {len(calls) - 1}"
                         if calls else "an index into auction, which has no calls")
    return Incident(code, kind, seats["dealer"], seats["declarer"], seats["offender"], calls, at, facts,
                    auction_raw is not None, who)


_NEEDS = {
    ("auction", "dealer"): "is required with an auction record (calls are read from the dealer on)",
    ("callers", "auction"): "is required with callers (callers names the seat of each call of auction)",
    ("offence_at", "auction"): "is required with offence_at (offence_at is an index into auction)",
}


# --------------------------------------------------------------------------
# The schema as strict as the codes and the catalogue allow (the desk's OpenAPI document)


def incident_schema(code_ids: list[str], kind_ids: list[str] | None = None) -> dict[str, Any]:
    """The published schema with the codes and kinds named, the facts typed and bounded, the kinds no player
    commits given no offender, and three-hand's kinds and seats of the auction where no player sits refused: as
    much about an incident as a JSON Schema can state and a generator (schemathesis) can still draw from.

    Each fact is typed by its name, across the kinds (a name the kinds type differently, such as ``call``, takes
    any fact's value): one conditional per kind makes a schema no generator can draw from. What is left to the
    engine, each refusal naming a field of :data:`CROSS_FIELD`, is listed at the end of its description."""
    from .catalogue import load_kinds
    from .loader import load_code
    from .resources import laws_dir

    common, kinds = load_kinds(str(laws_dir()))
    s = copy.deepcopy(schema())
    s["properties"]["code"] = {"type": "string", "enum": list(code_ids)}
    kind_ids = list(kind_ids if kind_ids is not None else kinds)
    s["properties"]["irregularity"] = {"type": "string", "enum": kind_ids}
    typed: dict[str, dict[str, Any]] = {}
    loose: set[str] = set()
    for kid in kind_ids:
        for n, spec in {**common, **kinds[kid].facts}.items():
            if n in ("offender", "dealer", "declarer"):
                continue
            one = _fact_schema(spec)
            if typed.setdefault(n, one) != one:
                loose.add(n)
    for n in loose:
        typed[n] = {"$ref": "#/$defs/fact"}
    s["properties"]["facts"] = {**s["properties"]["facts"], "properties": dict(sorted(typed.items())),
                                "additionalProperties": False}
    s["properties"]["facts"].pop("propertyNames", None)
    rules: list[dict[str, Any]] = []
    lone = [kid for kid in kind_ids if kinds[kid].no_offender]
    if lone:
        rules.append({"if": {"properties": {"irregularity": {"enum": lone}}, "required": ["irregularity"]},
                      "then": {"not": {"required": ["offender"]}}})
    from .incidentcode import RECORD_KINDS
    unrecorded = [kid for kid in kind_ids if kid not in RECORD_KINDS]  # their record holds no offending call
    if unrecorded:
        rules.append({"if": {"properties": {"irregularity": {"enum": unrecorded}}, "required": ["irregularity"]},
                      "then": {"not": {"required": ["offence_at"]}}})
    for cid in code_ids:
        rules.extend(load_code(cid).seats.schema_rules(cid, kinds))
    if rules:
        s["allOf"] = rules
    left = [
        "which facts are facts of the kind (each fact is typed here by its name, over all kinds)",
        *(f"the {n} fact's type by kind (the kinds type it differently)" for n in sorted(loose)),
        "as many callers as calls, and offence_at an index into auction",
        "the callers following a rotation the laws allow",
        "the offending call of a kind whose record holds it being that kind of call",
        "a bid of more than seven only as the offending call of an impossible_bid",
        "what the auction record shows (the offender, the declarer, the requisite bid) agreeing with what is given",
        "three-hand: in the play, the dummy opposite the declarer is no player; the parts of the players distinct",
    ]
    s["description"] = (s["description"].split(" This document leaves")[0] + " This document leaves to the engine: "
                        + "; ".join(left) + ".")
    return s


def _fact_schema(spec: Any) -> dict[str, Any]:
    """A fact's value as the catalogue types it (the patterns are the ruling schema's, from the vocabulary)."""
    from .vocabulary import _JSON_TYPES

    t = spec.type
    if t.choices:
        return {"enum": list(t.choices)}
    b = _bounds()
    lo, hi = spec.bounds if spec.bounds else b.fact_int
    calls = {"bid": "[1-7](C|D|H|S|R|NT)", "pass": "P", "double": "X", "redouble": "XX"}
    simple: dict[str, dict[str, Any]] = {
        "bool": {"type": "boolean"},
        "int": {"type": "integer", "minimum": lo, "maximum": hi},
        "seat": {"enum": sorted(b.seats, key="NESW".index)},
        "side": {"enum": ["NS", "EW"]},
        "call": {"type": "string", "pattern": b.call_re.pattern if not spec.calls else
                 "^(" + "|".join(calls[c] for c in spec.calls) + ")$"},
        "bid": {"type": "string", "pattern": "^" + calls["bid"] + "$"},
        "card": dict(_JSON_TYPES["card"]),
        "suit": dict(_JSON_TYPES["suit"]),
        "str": {"type": "string", "minLength": b.fact_str[0], "maxLength": b.fact_str[1]},
    }
    return simple[t.name]
