"""What the published incident schema (``schema/incident.schema.json``) holds an incident to — its fields, the
lengths and patterns of its words, the most calls and facts it may give — read from the schema itself: what the
edge (:mod:`bridgelaw.incident`) reads, in a module of its own so that the quick path needs nothing else of the
edge. The quick path reads the few bounds it checks as plain values its record of a code keeps
(:data:`bridgelaw.quick.BOUNDS_READ`, taken from :func:`_bounds` when the record is made: a ruling kit carries
them, so a warm start builds no :class:`_Bounds`), and checks a fact's value by
:func:`bridgelaw.incidentcode.fact_value`, as the edge does."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

__all__ = ["schema"]


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The published incident schema (``schema/incident.schema.json``), read once."""
    import os

    from .resources import schema_path

    with open(os.path.join(schema_path(), "incident.schema.json"), encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Bounds:
    """What the schema holds an incident to, read from it."""

    fields: tuple[str, ...]
    required: tuple[str, ...]
    needs: tuple[tuple[str, tuple[str, ...]], ...]  # dependentRequired
    code_len: int
    code_re: re.Pattern[str]
    kind_len: int
    kind_re: re.Pattern[str]
    seats: frozenset[str]
    call_re: re.Pattern[str]
    auction_max: int
    callers_max: int
    offence_max: int
    facts_max: int
    fact_name_len: int
    fact_name_re: re.Pattern[str]
    fact_int: tuple[int, int]
    fact_str: tuple[int, int]
    note_max: int


@lru_cache(maxsize=1)
def _bounds() -> _Bounds:
    s = schema()
    p, defs = s["properties"], s["$defs"]
    fact = {b["type"]: b for b in defs["fact"]["oneOf"]}
    names = p["facts"]["propertyNames"]
    return _Bounds(
        fields=tuple(p), required=tuple(s["required"]),
        needs=tuple((k, tuple(v)) for k, v in s.get("dependentRequired", {}).items()),
        code_len=p["code"]["maxLength"], code_re=re.compile(p["code"]["pattern"]),
        kind_len=p["irregularity"]["maxLength"], kind_re=re.compile(p["irregularity"]["pattern"]),
        seats=frozenset(defs["seat"]["enum"]), call_re=re.compile(defs["call"]["pattern"]),
        auction_max=p["auction"]["maxItems"], callers_max=p["callers"]["maxItems"],
        offence_max=p["offence_at"]["maximum"], facts_max=p["facts"]["maxProperties"],
        fact_name_len=names["maxLength"], fact_name_re=re.compile(names["pattern"]),
        fact_int=(fact["integer"]["minimum"], fact["integer"]["maximum"]),
        fact_str=(fact["string"]["minLength"], fact["string"]["maxLength"]),
        note_max=p["note"]["maxLength"],
    )
