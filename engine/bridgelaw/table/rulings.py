"""Rulings at the table, remembered: the same incident under the same code is ruled once.

A ruling is a pure function of the code and the incident; a game engine meets the same incidents again and
again (every insufficient one spade over one heart), and a takeback replays the rulings it undoes. The
memory is bounded, and a reloaded code is ruled afresh.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..loader import Code
from ..referee import rule
from ..values import Ruling

__all__ = ["rule_cached", "clear"]

_MEMORY: dict[str, tuple[Code, Ruling]] = {}
_LIMIT = 4096


def rule_cached(code: Code, incident: Mapping[str, Any]) -> Ruling:
    """``rule(incident)``, remembered by the incident's JSON (the incident names ``code``)."""
    key = json.dumps(incident, sort_keys=True, separators=(",", ":"), default=repr)
    hit = _MEMORY.get(key)
    if hit is not None and hit[0] is code:
        return hit[1]
    r = rule(incident)
    if len(_MEMORY) >= _LIMIT:
        _MEMORY.clear()
    _MEMORY[key] = (code, r)
    return r


def clear() -> None:
    _MEMORY.clear()
