"""What every part of the table shares: the answer to an action, a trick played, the outcome, the texts of
cards and calls, the seats around the table, the irregularities the table detects for itself."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from ..errors import MalformedActionError
from ..facts import callers
from ..values import _SEAT_BY_TEXT, Ruling, Seat
from .state import Phase

if TYPE_CHECKING:  # pragma: no cover
    from typing import Sequence

    from ..loader import Code
    from ..scoring import Score
    from ..values import Ruling
    from .core import Table
    from .model import Rules
    from .state import TableState

__all__ = ["Answer", "PlayedTrick", "Outcome", "DETECTED", "TableParts"]


@dataclass(frozen=True)
class Answer:
    """What the table says to one action: legal, or the irregularity detected (kind and facts) with its
    ruling. A legal answer may carry a ruling now due (a revoke the card just played established)."""

    legal: bool
    kind: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    ruling: Ruling | None = None
    note: str = ""

    def __repr__(self) -> str:
        if self.legal:
            return "Answer(legal=True)" if self.ruling is None else f"Answer(legal=True, kind={self.kind!r}, ruling due)"
        return f"Answer(legal=False, kind={self.kind!r}, facts={dict(self.facts)!r})"


class PlayedTrick(NamedTuple):
    """A trick turned and quitted (read-only): who led, the cards as played, who won it."""

    leader: Seat
    cards: tuple[tuple[Seat, str], ...]
    winner: Seat


@dataclass(frozen=True)
class Outcome:
    """How the deal ended (``Table.outcome()``): played out, a new deal, or passed out; the contract as
    doubled, the declarer, the tricks his side won, and the score."""

    phase: Phase
    contract: str | None
    doubled: int
    declarer: Seat | None
    tricks: int | None
    score: "Score"


def answer_of(legal: bool, kind: str | None, facts: Mapping[str, Any], ruling: "Ruling | None", note: str = ""
              ) -> Answer:
    """``Answer(legal, kind, facts, ruling, note)``, made without the frozen dataclass's ``__init__`` (one
    ``object.__setattr__`` call a field, the dearest part of an answer): its fields are written once into the new
    object's own dictionary, which ``frozen`` leaves writable. The same object (tests/test_tablescore.py)."""
    a = _new(Answer)
    d = a.__dict__
    d["legal"] = legal
    d["kind"] = kind
    d["facts"] = facts
    d["ruling"] = ruling
    d["note"] = note
    return a


def outcome_of(phase: Phase, contract: str | None, doubled: int, declarer: Seat | None, tricks: int | None,
               score: "Score") -> Outcome:
    """``Outcome(...)`` made as :func:`answer_of` makes an answer: the same object, without its frozen ``__init__``."""
    o = _new(Outcome)
    d = o.__dict__
    d["phase"] = phase
    d["contract"] = contract
    d["doubled"] = doubled
    d["declarer"] = declarer
    d["tricks"] = tricks
    d["score"] = score
    return o


_new = object.__new__
_LEGAL = Answer(True)
_CARD_TEXTS = frozenset(s + r for s in "SHDC" for r in "23456789TJQKA")
_CALL_TEXTS = frozenset(["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "R", "NT")])
_LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
_SEAT = _SEAT_BY_TEXT
_BID_TEXT = re.compile(r"^(\d+)(C|D|H|S|R|NT|N)$")
_DEAL_ORDER = {"N": "NESW", "E": "ESWN", "S": "SWNE", "W": "WNES"}
_HIGHER: dict[tuple[str, str, str], bool] = {}  # (code, bid, than) -> is bid higher
_VARIANTS: list[type["Table"]] = []
_CLAIM_FACTS = ("after_declarer_claim", "after_dealer_claim")

#: the irregularities the table detects for itself (``report`` rules any other kind the table cannot see)
DETECTED = frozenset({
    "call_out_of_turn", "pass_out_of_turn", "insufficient_bid", "impossible_bid", "call_while_barred",
    "double_of_partner", "redouble_of_partner_double", "extra_redouble", "declaration_out_of_turn",
    "declaration_passed_back", "double_out_of_turn", "exposed_card_in_auction", "lead_out_of_turn",
    "premature_play", "failure_to_play_as_directed", "revoke", "exposed_card_before_lead", "exposed_card", "claim",
    "extra_card_played",
})


_ROTATIONS: dict[tuple[str, int], tuple[str, ...]] = {}


def _rotation(dealer: str, players: int) -> tuple[str, ...]:
    """The seats that call, in rotation from the dealer (the referee's own ``callers``), as texts."""
    hit = _ROTATIONS.get((dealer, players))
    if hit is None:
        hit = _ROTATIONS[(dealer, players)] = tuple(s.value for s in callers(_SEAT[dealer], players))
    return hit


def _kind_facts(kind: str) -> Mapping[str, Any]:
    """The facts the kinds catalogue gives ``kind`` (laws/kinds.yaml and kinds.d)."""
    from ..loader import load_kinds
    from ..resources import laws_dir

    _, kinds = load_kinds(str(laws_dir()))
    k = kinds.get(kind)
    return k.facts if k is not None else {}

def _plain_facts(facts: Mapping[str, Any]) -> None:
    """Facts given to the table are JSON data (they are kept in its state)."""
    for k, v in facts.items():
        if not _is_plain(v):
            raise MalformedActionError(f"facts.{k}", f"expected a JSON value (text, number, true/false, a list), "
                                       f"got {type(v).__name__}")


def _is_plain(v: Any) -> bool:
    if v is None or isinstance(v, (str, bool, int, float)):
        return True
    if isinstance(v, (list, tuple)):
        return all(_is_plain(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _is_plain(x) for k, x in v.items())
    return False


class TableParts:
    """What the table core gives every part of it (the auction, the play, the history): its state, code and
    rules, and the helpers each part calls. A base of each mixin, with nothing in it at run time."""

    if TYPE_CHECKING:  # declared once for the type checker; the core (core.Table) defines them
        _st: TableState
        code: Code
        rules: Rules
        _quick_calls: bool

        def _ruled(self, kind: str, offender: str, facts: dict[str, Any], call: tuple[str, str] | None = None,
                   card: tuple[str, str] | None = None, **extra: Any) -> Answer: ...
        def _incident(self, kind: str, offender: str, facts: dict[str, Any], extra: Any) -> dict[str, Any]: ...
        def _pend(self, r: Ruling, incident: dict[str, Any], offender: str, facts: dict[str, Any],
                  call: tuple[str, str] | None, card: tuple[str, str] | None, legal: bool = False, note: str = "",
                  revoke: int | None = None) -> Answer: ...
        def _entry(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> Any: ...
        def _log(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> None: ...
        def _seat(self, seat: Any, field_name: str = "seat") -> str: ...
        def _card(self, card: Any, field_name: str = "card") -> str: ...
        def _refuse_seat(self, seat: str, action: str) -> None: ...
        def _refuse_while_pending(self) -> None: ...
        def _next_caller(self) -> str: ...
        def _next_player(self) -> str: ...
        def _adverse(self, a: str, b: str) -> bool: ...
        def _barred_from(self, s: str, text: str) -> bool: ...
        def _auction_record(self, extra: Sequence[tuple[str, str]] = ()) -> dict[str, Any]: ...
        def _deal_facts(self) -> dict[str, Any]: ...
        def _ruling_of(self, p: Any) -> Ruling: ...
        def _due(self) -> Answer: ...
