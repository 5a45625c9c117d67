"""Rulings at the table, remembered: the same incident under the same code is ruled once.

A ruling is a pure function of the code and the incident; a game engine meets the same incidents again and
again (every insufficient one spade over one heart), and a takeback replays the rulings it undoes. The
memory is bounded, and a reloaded code is ruled afresh. The facts an answer shows (the ruling's facts as
plain data) are worked out once per ruling too.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..loader import Code
from ..referee import rule
from ..values import Ruling

__all__ = ["rule_cached", "shown_facts", "named", "clear"]

_MEMORY: dict[str, tuple[Code, Ruling]] = {}
_SHOWN: dict[int, tuple[Ruling, dict[str, Any]]] = {}
_NAMED: dict[int, tuple[Ruling, tuple[str, ...], tuple[str, ...]]] = {}
_LIMIT = 4096
_HIDDEN = ("dealer", "eldest", "offender")


def _key(incident: Mapping[str, Any]) -> str:
    """The incident as a key: its repr. The table's incidents hold only JSON data (it refuses facts that are
    not), whose repr tells ``True`` from ``1`` and ``"1"`` as the referee does; the same incident written in
    another order is merely ruled again."""
    return repr(incident)


def rule_cached(code: Code, incident: Mapping[str, Any]) -> Ruling:
    """``rule(incident)``, remembered (the incident names ``code``)."""
    key = _key(incident)
    hit = _MEMORY.get(key)
    if hit is not None and hit[0] is code:
        return hit[1]
    r = rule(incident)
    if len(_MEMORY) >= _LIMIT:
        _MEMORY.clear()
        _SHOWN.clear()
        _NAMED.clear()
    _MEMORY[key] = (code, r)
    return r


def shown_facts(r: Ruling) -> dict[str, Any]:
    """The facts a ruling turned on, as plain data (seats and calls as their texts), without the dealer,
    eldest hand and offender the incident named. A copy: the caller may keep it."""
    hit = _SHOWN.get(id(r))
    if hit is None or hit[0] is not r:
        shown = {k: getattr(v, "value", getattr(v, "text", v)) for k, v in r.facts.items() if k not in _HIDDEN}
        hit = _SHOWN[id(r)] = (r, shown)
    return dict(hit[1])


def named(r: Ruling) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ruling's option ids (each once, in order) and the numbers of its laws, as the history records them."""
    hit = _NAMED.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_NAMED) >= _LIMIT:
            _NAMED.clear()
        hit = _NAMED[id(r)] = (r, tuple(dict.fromkeys(o.id for o in r.options)), tuple(law.number for law in r.laws))
    return hit[1], hit[2]


def clear() -> None:
    _MEMORY.clear()
    _SHOWN.clear()
    _NAMED.clear()
