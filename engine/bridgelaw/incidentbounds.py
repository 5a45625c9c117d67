"""What the published incident schema (``schema/incident.schema.json``) holds an incident to — its fields, the
lengths and patterns of its words, the most calls and facts it may give — read from the schema itself, and the
check of one fact's value against it: what the edge (:mod:`bridgelaw.incident`) and the quick path
(:mod:`bridgelaw.quick`) both read, in a module of its own so that the quick path needs nothing else of the edge."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from .errors import InputError

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


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fact_value(name: str, v: Any, b: _Bounds) -> Any:
    where = f"facts.{name}"
    if isinstance(v, bool):
        return v
    if _is_int(v):
        lo, hi = b.fact_int
        if not lo <= v <= hi:
            raise InputError(where, f"{v} is out of bounds: a number given as a fact is {lo} to {hi:,}")
        return v
    if isinstance(v, str):
        lo, hi = b.fact_str
        if not lo <= len(v) <= hi:
            raise InputError(where, f"expected a word of {lo} to {hi} characters, got {len(v)}"
                             + (f": {v[:40]!r}…" if v else ""))
        return v
    raise InputError(where, f"expected true or false, a whole number, or a word (a seat, a call, a card, ...), got "
                     f"{v!r:.60}")
