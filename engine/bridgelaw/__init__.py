"""bridgelaw: the historic laws of bridge (1904-1913) as data, and an engine that rules with them.

    >>> import bridgelaw
    >>> r = bridgelaw.rule({"code": "wcny-1913", "irregularity": "insufficient_bid",
    ...                     "dealer": "S", "auction": ["1H", "1S"]})
    >>> [o.id for o in r.options]
    ['penalize', 'waive']

The front door is small: :func:`rule`, :func:`load_code`, :func:`codes`, the
value types and the errors.
"""

from __future__ import annotations

from .errors import BridgelawError, ConditionError, InputError, LawFileError, UnknownCodeError
from .facts import Incident
from .loader import Code, Law, Provision, code_ids, load_code
from .referee import rule
from .scoring import Contract, Score, ScoreEntry, score
from .values import (
    Call, CallKind, Card, Effect, EffectKind, LawCitation, Option, Question, Ruling, Seat, Side, Strain, Suit,
    TraceStep,
)

__version__ = "0.1.0"


def codes() -> list[str]:
    """The ids of every code bridgelaw has."""
    return code_ids()


__all__ = [
    "rule",
    "score",
    "Score",
    "ScoreEntry",
    "Contract",
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
