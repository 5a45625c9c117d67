"""bridgelaw: the historic laws of bridge (1904-1913) as data, and an engine that rules with them.

    >>> import bridgelaw
    >>> r = bridgelaw.rule({"code": "wcny-1913", "irregularity": "insufficient_bid",
    ...                     "dealer": "S", "auction": ["1H", "1S"]})
    >>> [o.id for o in r.options]
    ['penalize', 'waive']

The front door is small: :func:`rule`, :func:`score`, :class:`Table`,
:func:`load_code`, :func:`codes`, the value types and the errors.
"""

from __future__ import annotations

from .errors import BridgelawError, ConditionError, InputError, LawFileError, UnknownCodeError

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - the names as type checkers see them (typing is not imported to start)
    from typing import Any

    from .facts import Incident
    from .loader import Code, Law, Provision, load_code
    from .referee import rule
    from .scoring import Contract, Score, ScoreEntry, score
    from .table import Answer, Table
    from .values import (
        Call, CallKind, Card, Effect, EffectKind, LawCitation, Option, Question, Ruling, Seat, Side, Strain,
        Suit, TraceStep,
    )

# Imported on first use (PEP 562), so that `bridgelaw rule` starts quickly.
_LAZY = {
    "rule": "referee", "score": "scoring", "Score": "scoring", "ScoreEntry": "scoring", "Contract": "scoring",
    "Table": "table", "Answer": "table", "load_code": "loader", "Code": "loader", "Law": "loader", "Provision": "loader", "Incident": "facts",
    **{n: "values" for n in ("Call", "CallKind", "Card", "Effect", "EffectKind", "LawCitation", "Option",
                             "Question", "Ruling", "Seat", "Side", "Strain", "Suit", "TraceStep")},
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bridgelaw' has no attribute {name!r}")


__version__ = "0.1.0"


def codes() -> list[str]:
    """The ids of every code bridgelaw has."""
    from .loader import code_ids

    return code_ids()


__all__ = [
    "rule",
    "score",
    "Score",
    "ScoreEntry",
    "Contract",
    "Table",
    "Answer",
    "load_code",
    "codes",
    "Code",
    "Law",
    "Provision",
    "Incident",
    "Ruling",
    "Option",
    "Effect",
    "EffectKind",
    "Question",
    "TraceStep",
    "LawCitation",
    "Call",
    "CallKind",
    "Card",
    "Seat",
    "Side",
    "Strain",
    "Suit",
    "BridgelawError",
    "LawFileError",
    "ConditionError",
    "InputError",
    "UnknownCodeError",
]
