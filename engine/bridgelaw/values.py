"""Immutable value types: seats, sides, strains, calls, cards, effects, rulings.

Each has a ``repr`` you can paste back into Python::

    >>> Call("2NT")
    Call('2NT')
    >>> Seat.N.partner
    <Seat.N: 'N'>
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from .errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Mapping

__all__ = [
    "Seat",
    "Side",
    "Strain",
    "Suit",
    "CallKind",
    "Call",
    "Card",
    "EffectKind",
    "Effect",
    "Option",
    "Question",
    "TraceStep",
    "LawCitation",
    "Ruling",
]


class Seat(str, enum.Enum):
    """A seat at the table. Play and the auction go clockwise N, E, S, W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def lho(self) -> "Seat":
        """The player on this seat's left (next in rotation)."""
        return _AFTER[self][1]

    @property
    def rho(self) -> "Seat":
        """The player on this seat's right."""
        return _AFTER[self][3]

    @property
    def partner(self) -> "Seat":
        return _AFTER[self][2]

    @property
    def side(self) -> "Side":
        return _SIDE_OF[self]

    def after(self, steps: int) -> "Seat":
        return _AFTER[self][steps % 4]

    @classmethod
    def parse(cls, text: object, field_name: str = "seat") -> "Seat":
        if isinstance(text, Seat):
            return text
        seat = _SEAT_BY_TEXT.get(text.upper()) if isinstance(text, str) else None
        if seat is not None:
            return seat
        raise InputError(field_name, f"expected a seat N, E, S or W, got {text!r}")

    def __repr__(self) -> str:
        return f"<Seat.{self.value}: '{self.value}'>"

    def __str__(self) -> str:
        return self.value


_SEATS = [Seat.N, Seat.E, Seat.S, Seat.W]
_SEAT_BY_TEXT = {s.value: s for s in _SEATS}
_AFTER = {s: tuple(_SEATS[(i + k) % 4] for k in range(4)) for i, s in enumerate(_SEATS)}


class Side(str, enum.Enum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> "Side":
        return _OTHER_SIDE[self]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    def __str__(self) -> str:
        return self.value


_OTHER_SIDE = {Side.NS: Side.EW, Side.EW: Side.NS}
_SIDE_OF = {Seat.N: Side.NS, Seat.S: Side.NS, Seat.E: Side.EW, Seat.W: Side.EW}


class Strain(str, enum.Enum):
    """A denomination: clubs, diamonds, hearts, spades, royal spades, no trump."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"
    R = "R"
    NT = "NT"

    def __str__(self) -> str:
        return self.value


class Suit(str, enum.Enum):
    """A suit of cards."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"

    def __str__(self) -> str:
        return self.value


class CallKind(str, enum.Enum):
    BID = "bid"
    PASS = "pass"
    DOUBLE = "double"
    REDOUBLE = "redouble"


#: The highest level the call notation can write (1-7); a code's own limit is its ``max_level`` parameter.
MAX_CALL_LEVEL = 7
_CALL_RE = re.compile(r"^([1-7])(C|D|H|S|R|NT)$")
_CALLS: dict[str, "Call"] = {}  # calls are immutable: one object per spelling


class Call:
    """One call of an auction: ``Call('1S')``, ``Call('P')``, ``Call('X')``, ``Call('XX')``.

    Bids are a level 1-7 and a strain C D H S R (royal spades) or NT.
    """

    __slots__ = ("text", "kind", "level", "strain", "is_bid")

    text: str
    kind: CallKind
    level: int | None
    strain: Strain | None
    is_bid: bool  # a level and a strain (not a pass, a double or a redouble)

    def __new__(cls, text: str, field_name: str = "call") -> "Call":
        cached = _CALLS.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        if not isinstance(text, str):
            raise InputError(field_name, f"expected a call such as 1S, 2NT, P, X or XX, got {text!r}")
        t = text.strip().upper()
        aliases = {"PASS": "P", "DOUBLE": "X", "REDOUBLE": "XX", "N": "NT"}
        t = aliases.get(t, t)
        if t.endswith("N") and not t.endswith("NT") and len(t) == 2:
            t = t + "T"
        kind: CallKind
        level: int | None = None
        strain: Strain | None = None
        if t == "P":
            kind = CallKind.PASS
        elif t == "X":
            kind = CallKind.DOUBLE
        elif t == "XX":
            kind = CallKind.REDOUBLE
        else:
            m = _CALL_RE.match(t)
            if not m:
                raise InputError(
                    field_name,
                    f"{text!r} is not a call: expected a level 1-7 and a strain C D H S R NT "
                    "(e.g. 1S, 2NT), or P, X, XX",
                )
            kind = CallKind.BID
            level = int(m.group(1))
            strain = Strain(m.group(2))
        self = object.__new__(cls)
        object.__setattr__(self, "text", t)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "strain", strain)
        object.__setattr__(self, "is_bid", kind is CallKind.BID)
        if len(_CALLS) < 4096:
            _CALLS[text] = self
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Call, (self.text,))  # unpickled as the one object of its spelling

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Call is immutable")

    def __repr__(self) -> str:
        return f"Call({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Call) and other.text == self.text

    def __hash__(self) -> int:
        return hash(("Call", self.text))


_RANKS = "23456789TJQKA"
_CARDS: dict[str, "Card"] = {}  # cards are immutable: one object per spelling


class Card:
    """A card: suit letter then rank, ``Card('SA')``, ``Card('HT')`` (``H10`` is read as ``HT``)."""

    __slots__ = ("text", "suit", "rank")

    text: str
    suit: Suit
    rank: str

    def __new__(cls, text: str, field_name: str = "card") -> "Card":
        hit = _CARDS.get(text) if isinstance(text, str) else None
        if hit is not None:
            return hit
        if not isinstance(text, str):
            raise InputError(field_name, f"expected a card such as SA, HT, C2, got {text!r}")
        t = text.strip().upper().replace("10", "T")
        if len(t) != 2 or t[0] not in "CDHS" or t[1] not in _RANKS:
            raise InputError(field_name, f"{text!r} is not a card: expected suit C D H S then rank 2-9 T J Q K A (e.g. SA, HT)")
        self = object.__new__(cls)
        object.__setattr__(self, "text", t)
        object.__setattr__(self, "suit", Suit(t[0]))
        object.__setattr__(self, "rank", t[1])
        if len(_CARDS) < 512:
            _CARDS[text] = self
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card, (self.text,))  # unpickled as the one object of its spelling

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    @property
    def rank_index(self) -> int:
        return _RANKS.index(self.rank)

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.text == self.text

    def __hash__(self) -> int:
        return hash(("Card", self.text))


class EffectKind(str, enum.Enum):
    """What a remedy does: the kinds of ``schema/effects.yaml`` (their fields, wordings and clashes are there).
    The members are written from it, as literals for start-up speed; a test checks they agree."""

    # written by `python -m bridgelaw.vocabulary --write` from schema/effects.yaml: do not edit
    NEW_DEAL = "new_deal"
    SCORE = "score"
    NO_TRICK_SCORE = "no_trick_score"
    TRANSFER_TRICKS = "transfer_tricks"
    BAR = "bar"
    AMEND_CALL = "amend_call"
    FINAL_DECLARATION = "final_declaration"
    CALL_STANDS = "call_stands"
    CANCEL_CALL = "cancel_call"
    EXPOSED_CARD = "exposed_card"
    CALL_LEAD = "call_lead"
    FORBID_LEAD = "forbid_lead"
    PLAY_HIGHEST = "play_highest"
    PLAY_LOWEST = "play_lowest"
    WIN_TRICK = "win_trick"
    LOSE_TRICK = "lose_trick"
    RETRACT = "retract"
    TRICK_STANDS = "trick_stands"
    NO_PENALTY = "no_penalty"
    NO_PROVISION = "no_provision"
    DEAL_STANDS = "deal_stands"
    RESHUFFLE = "reshuffle"
    RIGHT_LOST = "right_lost"
    REVOKE_PENALTY = "revoke_penalty"
    PLAY_CARD = "play_card"
    LEAD_FROM = "lead_from"
    CORRECT_SCORE = "correct_score"
    PLACE_CARDS = "place_cards"
    DISCRETION = "discretion"
    PROCEDURE = "procedure"
    PAY_STAKES = "pay_stakes"
    AVERAGE_SCORE = "average_score"
    HONOURS_ONLY = "honours_only"
    NO_DOUBLE = "no_double"
    # end of the members written from schema/effects.yaml

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Effect:
    """One consequence: ``Effect(EffectKind.SCORE, (('side', 'EW'), ('column', 'honour'), ('points', 100)))``."""

    kind: EffectKind
    args: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == name:
                return v
        return default

    def to_dict(self) -> dict[str, Any]:
        return _effect_dict(self)


def _effect_dict(e: Effect) -> dict[str, Any]:
    """:meth:`Effect.to_dict` (called once an effect by the views that hold effects)."""
    s = e.__dict__
    j = s.get("_json")
    if j is not None:  # an effect made once and shared (its values are strings): its view, copied
        return dict(j)
    d: dict[str, Any] = {"kind": s["kind"]._value_}
    for k, v in s["args"]:
        d[k] = v if type(v) is str else _plain(v)
    return d


_PLAIN = frozenset((str, bool, int))  # the types of value a JSON view takes as they are


def _plain(v: Any) -> Any:
    t = type(v)
    if t is str or t is bool or t is int:
        return v
    if t is Seat or t is Side:
        return v._value_
    if t is Call or t is Card:
        return v.text
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, (Call, Card)):
        return v.text
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


@dataclass(frozen=True)
class Option:
    """A remedy the innocent side may choose.

    ``chooser`` is a seat (``"N"``), a side meaning either of its players (``"NS"``), or a tuple of seats
    meaning either of those players (``("E", "W")``: three-hand's "either other player"); its JSON view is
    the string, or a list of seats. :attr:`choosers` names the seats that may choose, :meth:`may_choose`
    asks about one.
    """

    id: str
    chooser: str | tuple[str, ...]
    law: str
    effects: tuple[Effect, ...]
    provision: str = ""
    label: str = ""
    awaits: tuple[str, ...] = ()  # facts still to be answered: the option is stated (label) but not yet priced

    @property
    def choosers(self) -> tuple[str, ...]:
        """Every seat that may choose this option."""
        c = self.chooser
        if isinstance(c, tuple):
            return c
        if c in ("NS", "EW"):
            return tuple(s.value for s in Side(c).seats)
        return (c,)

    def may_choose(self, seat: Any) -> bool:
        """May the player at ``seat`` choose this option? (``seat`` may also be the chooser itself: a side.)"""
        if seat == self.chooser:
            return True
        return isinstance(seat, str) and seat in self.choosers

    def to_dict(self) -> dict[str, Any]:
        return _option_dict(self)

    def _view(self) -> dict[str, Any]:
        """:meth:`to_dict` made from the fields."""
        s = self.__dict__
        c = s["chooser"]
        d: dict[str, Any] = {
            "id": s["id"],
            "chooser": c if type(c) is str else list(c) if isinstance(c, tuple) else c,
            "law": s["law"],
            "effects": [_effect_dict(e) for e in s["effects"]],
        }
        if s["label"]:
            d["label"] = s["label"]
        if s["provision"]:
            d["provision"] = s["provision"]
        if s["awaits"]:
            d["awaits"] = list(s["awaits"])
        return d


def _option_dict(o: Option) -> dict[str, Any]:
    """:meth:`Option.to_dict` (called once an option by the views that hold options)."""
    j = o.__dict__.get("_json")
    if j is None:
        return o._view()
    view = dict(j)  # an option made once and shared: its view, copied
    view["effects"] = list(map(dict, j["effects"]))
    return view


@dataclass(frozen=True)
class Question:
    """A fact a matching provision needs and nobody gave."""

    fact: str
    ask: str
    provisions: tuple[str, ...]
    type: str = "bool"
    choices: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"fact": self.fact, "ask": self.ask, "type": self.type, "provisions": list(self.provisions)}
        if self.choices:
            d["choices"] = list(self.choices)
        return d


@dataclass(frozen=True)
class TraceStep:
    """One provision the referee considered, and why it did or did not apply.

    ``because`` is worked out when first read (a game engine that never asks
    why does not pay for the words).
    """

    provision: str
    law: str
    applied: bool
    reason: Any = field(repr=False, compare=False)

    @property
    def because(self) -> str:
        r = self.reason
        if callable(r):
            r = r()
            object.__setattr__(self, "reason", r)
        return str(r)

    def __repr__(self) -> str:
        return f"TraceStep({self.provision!r}, {self.law!r}, {self.applied!r}, {self.because!r})"

    def to_dict(self) -> dict[str, Any]:
        return {"provision": self.provision, "law": self.law, "applied": self.applied, "because": self.because}


@dataclass(frozen=True)
class LawCitation:
    """A law quoted in a ruling, with the footnotes the ruling rests on."""

    number: str
    text: str
    heading: str = ""
    clause: str = ""
    footnotes: tuple[tuple[str, str], ...] = ()
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"number": self.number, "text": self.text}
        if self.heading:
            d["heading"] = self.heading
        if self.clause:
            d["clause"] = self.clause
        if self.footnotes:
            d["footnotes"] = [{"number": n, "text": t} for n, t in self.footnotes]
        if self.source:
            d["source"] = self.source
        return d

    def _dict(self) -> dict[str, Any]:
        """:meth:`to_dict`, made once and copied (the citation is immutable; each copy is the caller's own)."""
        return _law_dict(self)


def _law_dict(c: LawCitation) -> dict[str, Any]:
    """:meth:`LawCitation._dict` (called once a citation by the views that hold citations)."""
    d = c.__dict__.get("_json")
    if d is None:
        d = c.to_dict()
        object.__setattr__(c, "_json", d)
    out = dict(d)
    if "footnotes" in out:
        out["footnotes"] = list(map(dict, out["footnotes"]))
    return out


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to an incident."""

    code: str
    irregularity: str
    laws: tuple[LawCitation, ...] = ()
    effects: tuple[Effect, ...] = ()
    options: tuple[Option, ...] = ()
    questions: tuple[Question, ...] = ()
    notes: tuple[str, ...] = ()
    _trace: Any = field(default=(), repr=False, compare=False, hash=False)
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    presumed: tuple[tuple[str, Any], ...] = ()  # (fact, value): defaults a provision read, the incident not giving them

    @property
    def trace(self) -> tuple[TraceStep, ...]:
        """Every provision considered, in printed law order, applied or not and why.

        Built on first access: a game engine that never asks why does not pay for it.
        """
        t = self._trace
        if callable(t):
            t = tuple(t())
            object.__setattr__(self, "_trace", t)
        return t  # type: ignore[no-any-return]

    @property
    def complete(self) -> bool:
        """True when no question is left open."""
        return not self.questions

    def to_dict(self) -> dict[str, Any]:
        s = self.__dict__
        t = s["_trace"]
        laws, effects, options, questions, presumed = s["laws"], s["effects"], s["options"], s["questions"], \
            s["presumed"]
        # (each list made by map over the tuple, and an empty one without a call: this runs for every ruling)
        return {
            "code": s["code"],
            "irregularity": s["irregularity"],
            "laws": list(map(_law_dict, laws)) if laws else [],
            "effects": list(map(_effect_dict, effects)) if effects else [],
            "options": list(map(_option_dict, options)) if options else [],
            "questions": [q.to_dict() for q in questions] if questions else [],
            "notes": list(s["notes"]),
            # a trace not yet read is written from its record, without making its steps
            "trace": t.dicts() if hasattr(t, "dicts") else [s.to_dict() for s in self.trace],
            "facts": _facts_dict(s["facts"]),
            "presumed": [{"fact": n, "value": v if type(v) in _PLAIN else _plain(v)} for n, v in presumed]
            if presumed else [],
        }


def _facts_dict(facts: Mapping[str, Any]) -> dict[str, Any]:
    """A ruling's facts as its JSON view: a copy, each seat, side, call and card as its text."""
    d = dict(facts)
    for k, v in d.items():  # (values replaced in place: the keys do not change; the commonest types first)
        t = type(v)
        if t is bool:
            continue
        if t is Call or t is Card:
            d[k] = v.text
        elif t is Seat or t is Side:
            d[k] = v._value_
        elif t is not str and t is not int:
            d[k] = _plain(v)
    return d


# --------------------------------------------------------------------------
# The compiled referee makes thousands of these a second: each made here as its dataclass would make it, its
# fields in order, without the frozen ``__init__``'s call per field (tests/test_refspeed.py checks that each
# equals the dataclass's own, field for field).

_NEW = object.__new__
_SET = object.__setattr__


def _effect(kind: EffectKind, args: tuple[tuple[str, Any], ...]) -> Effect:
    e = _NEW(Effect)
    _SET(e, "__dict__", {"kind": kind, "args": args})
    return e


#: At most this many effects are kept by each place in a compiled ruler that makes them.
_SHARED_MAX = 1024


def _shared_effect(made: dict[tuple[tuple[str, Any], ...], Effect], kind: EffectKind,
                   args: tuple[tuple[str, Any], ...]) -> Effect:
    """An effect of ``kind`` with ``args`` as the compiled referee makes it at one place: where every value is a
    string (a seat, a call, a word), the one such effect that place has made (effects are immutable), which keeps
    its JSON view; otherwise made afresh."""
    try:
        e = made.get(args)
    except TypeError:  # a list among the values
        return _effect(kind, args)
    if e is None:
        e = _effect(kind, args)
        if len(made) < _SHARED_MAX:
            for _, v in args:
                if type(v) is not str:
                    return e
            e.__dict__["_json"] = {"kind": kind._value_, **dict(args)}
            made[args] = e
    return e


def _constant_effect(kind: EffectKind, args: tuple[tuple[str, Any], ...]) -> Effect:
    """An effect whose values are all literal (strings, numbers, truth values), made once for every ruling that
    has it, with its JSON view."""
    e = _effect(kind, args)
    if all(type(v) in _PLAIN or v is None for _, v in args):
        e.__dict__["_json"] = {"kind": kind._value_, **dict(args)}
    return e


def _option(id: str, chooser: str | tuple[str, ...], law: str, effects: tuple[Effect, ...], provision: str,
            label: str, awaits: tuple[str, ...] = ()) -> Option:
    o = _NEW(Option)
    _SET(o, "__dict__", {"id": id, "chooser": chooser, "law": law, "effects": effects, "provision": provision,
                         "label": label, "awaits": awaits})
    return o


_id = id


def _shared_option(made: dict[tuple[Any, ...], Option], id: str, chooser: str | tuple[str, ...], law: str,
                   effects: tuple[Effect, ...], provision: str, label: str) -> Option:
    """An option as the compiled referee makes it at one place: where its chooser is a seat or a side and each of
    its effects one made once and kept (:func:`_shared_effect`, :func:`_constant_effect`: each is known by its
    identity while it is kept), the one such option that place has made, which keeps its JSON view; otherwise
    made afresh."""
    if type(chooser) is not str:
        return _option(id, chooser, law, effects, provision, label)
    key = (chooser, *map(_id, effects))
    o = made.get(key)
    if o is None:
        o = _option(id, chooser, law, effects, provision, label)
        if len(made) < _SHARED_MAX:
            views = []
            for e in effects:
                j = e.__dict__.get("_json")
                if j is None:
                    return o
                views.append(j)
            j = o.to_dict()
            j["effects"] = tuple(views)
            o.__dict__["_json"] = j
            made[key] = o
    return o


def _ruling(code: str, irregularity: str, laws: tuple[LawCitation, ...], effects: tuple[Effect, ...],
            options: tuple[Option, ...], questions: tuple[Question, ...], notes: tuple[str, ...], trace: Any,
            facts: Mapping[str, Any], presumed: tuple[tuple[str, Any], ...]) -> Ruling:
    r = _NEW(Ruling)
    _SET(r, "__dict__", {"code": code, "irregularity": irregularity, "laws": laws, "effects": effects,
                         "options": options, "questions": questions, "notes": notes, "_trace": trace,
                         "facts": facts, "presumed": presumed})
    return r
