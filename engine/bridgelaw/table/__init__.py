"""A table that referees itself: what a game engine embeds.

``Table(code, dealer=..., deal=...)`` takes calls and cards, each with the seat that made it, and answers
each with :class:`Answer`: legal, or the irregularity detected (kind and facts) with its ruling. While a
ruling waits, the table takes nothing else: :meth:`Table.apply` carries out the chosen option (or the
automatic effects) and moves the state on. ``turn``, ``phase``, ``is_over()``, ``outcome()``,
``legal_calls()``, ``legal_cards()``, ``history``, ``pop()`` and ``copy()`` are what a game engine builds on;
the state is typed data (:mod:`.state`) with a published JSON Schema (``schema/table-state.schema.json``),
and :meth:`Table.to_json` / :meth:`Table.from_json` round-trip it exactly. ``docs/table.md`` has the API.

The table for a code is chosen from the code's data (:func:`find_variant`): the auction table
(:mod:`.core`), straight bridge (:mod:`.straight`) and three-hand (:mod:`.threehand`) — subclasses that
change only what differs.
"""

from __future__ import annotations

from .core import Answer, Outcome, PlayedTrick, Table, find_variant
from .state import CallRecord, HistoryEntry, Obligation, Phase, Revoke, RulingRecord
from .straight import StraightBridgeTable
from .threehand import ThreeHandTable

__all__ = ["Table", "Answer", "Outcome", "PlayedTrick", "Phase", "CallRecord", "HistoryEntry", "Obligation",
           "Revoke", "RulingRecord", "StraightBridgeTable", "ThreeHandTable", "find_variant"]
