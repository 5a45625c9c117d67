"""The table core: one deal at one table, refereed as it is played.

:class:`Table` is the four-handed auction table; the straight-bridge and three-hand tables
(:mod:`.straight`, :mod:`.threehand`) are subclasses that change only what differs, and
``Table(code, ...)`` builds the one :func:`find_variant` chooses from the code's data (its ``game`` and
``players``). Calls and cards are taken with the seat that made them and answered with an
:class:`Answer`: legal, or the irregularity detected with its ruling; :meth:`Table.apply`
(:mod:`.remedies`) carries the remedy out. Every action is kept in :attr:`Table.history`; :meth:`Table.pop`
takes the last one back, and the history replayed onto a fresh table gives the same state.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping, NamedTuple, Sequence

from ..errors import (
    BridgelawError, IllegalActionError, InputError, MalformedActionError, OutOfTurnError, RulingPendingError,
    TableStateError,
)
from ..facts import callers, higher, seven_call
from ..loader import Code, load_code
from ..obligations import broken, obliged, trick_winner
from ..values import _SEAT_BY_TEXT, Call, Card, EffectKind, Option, Ruling, Seat
from .model import Rules, rules_of
from .effects import _no_double_entry
from . import remedies
from .rulings import rule_cached, shown_facts
from .state import (
    ACTION_ARGS, OVER, CallRecord, entry_of, HistoryEntry, Obligation, Pending, Phase, Revoke, TableState, Trick, legacy_view,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..scoring import Contract, Score
    from .effects import Act

__all__ = ["Table", "Answer", "Outcome", "PlayedTrick", "find_variant", "DETECTED"]


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


def find_variant(code: Code) -> type["Table"]:
    """The table class for ``code``, chosen from its data (``game`` and ``players`` in code.yaml), as
    python-chess's ``find_variant`` chooses a board."""
    for cls in _VARIANTS:
        if cls.matches(code):
            return cls
    raise InputError("code", f"{code.id} is a {code.players}-handed {code.game} code, and no table plays one "
                     "(tables: " + ", ".join(f"{c.variant} ({c.players}-handed {c.game})" for c in _VARIANTS) + ")")


def _hands_of(deal: str) -> dict[str, list[str]]:
    """A PBN deal as card texts by seat. The common well-formed case is read here; anything else goes to
    :func:`bridgelaw.scoring.parse_deal`, which reads every spelling and names what is wrong."""
    first, _, rest = deal.partition(":")
    order = _DEAL_ORDER.get(first)
    parts = rest.split()
    if order is not None and len(parts) == 4:
        hands: dict[str, list[str]] = {}
        for seat, hand in zip(order, parts):
            suits = hand.split(".")
            cards = [s + r for s, ranks in zip("SHDC", suits) for r in ranks]
            if len(cards) != 13 or len(suits) != 4:
                break
            hands[seat] = cards
        else:
            h = list(hands.values())
            if _CARD_TEXTS.issubset([*h[0], *h[1], *h[2], *h[3]]):  # 52 cards, each of the deck once
                return {s: hands[s] for s in "NESW"}
    from ..scoring import parse_deal

    parsed = parse_deal(deal)
    return {s: [c.text for c in parsed[_SEAT[s]]] for s in "NESW"}


class Table:
    """One deal at one table under one code: ``Table("wcny-1913", dealer="S", deal="N:...")``.

    ``detect=False`` records calls and cards without refereeing them (the benchmark's baseline);
    ``history`` replays a list of actions (as :attr:`history` gives them, or their JSON) onto the new table.
    """

    variant: ClassVar[str] = "auction"
    game: ClassVar[str] = "auction"
    players: ClassVar[int] = 4

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _VARIANTS.insert(0, cls)  # the more particular tables first; the core table last

    @classmethod
    def matches(cls, code: Code) -> bool:
        """Does this table play ``code``?"""
        return code.game == cls.game and code.players == cls.players

    def __new__(cls, code: str | Code = "wcny-1913", dealer: str | Seat = "S", deal: str | None = None,
                detect: bool = True, history: Iterable[Any] | None = None) -> "Table":
        if cls is Table:
            cls = find_variant(code if isinstance(code, Code) else load_code(code))
        return object.__new__(cls)

    def __init__(self, code: str | Code, dealer: str | Seat = "S", deal: str | None = None,
                 detect: bool = True, history: Iterable[Any] | None = None) -> None:
        c = code if isinstance(code, Code) else load_code(code)
        if not self.matches(c):
            raise InputError("code", f"{c.id} is a {c.players}-handed {c.game} code; {type(self).__name__} plays "
                             f"{self.players}-handed {self.game}: build Table({c.id!r}, ...)")
        self.code: Code = c
        self.rules: Rules = rules_of(c)
        d = Seat.parse(dealer, "dealer").value
        if deal is not None and not isinstance(deal, str):
            raise InputError("deal", f"expected a PBN deal such as 'N:AKQ2.K53.J84.A92 ...', got {deal!r}")
        if not isinstance(detect, bool):
            raise InputError("detect", f"expected true or false, got {detect!r}")
        self._st = TableState(c.id, self.variant, d, deal, detect)
        if deal is not None:
            self._st.hands = _hands_of(deal)
        self._legacy: tuple[Any, ...] | None = None
        self._tc: tuple[str | None, str | None] = (None, None)  # (contract, its trump), remembered
        self._setup()
        if history is not None:
            self._replay(history, "history")

    def _setup(self) -> None:
        """A variant's own part of a new table's state."""

    # ------------------------------------------------------------------ reading the table

    @property
    def state(self) -> dict[str, Any]:
        """Deprecated: the state in its old dict shape (a copy; use the properties, or :meth:`to_json`)."""
        st = self._st
        h = st.history
        last = h[-1] if h else None
        hit = self._legacy
        # every action adds to the history; the view holds the last entry, so a new one is never mistaken for it
        if hit is None or hit[0] is not st or hit[1] != len(h) or hit[2] is not last:
            hit = self._legacy = (st, len(h), last, legacy_view(st))
        return hit[3]  # type: ignore[no-any-return]

    @property
    def dealer(self) -> Seat:
        return _SEAT[self._st.dealer]

    @property
    def deal(self) -> str | None:
        return self._st.deal

    @property
    def detect(self) -> bool:
        return self._st.detect

    @property
    def phase(self) -> Phase:
        return Phase(self._st.phase)

    @property
    def turn(self) -> Seat | None:
        """The seat to call or play now (the declarer plays the dummy's cards as the dummy's seat); None when
        the deal is over or a ruling waits (see :attr:`pending_ruling`)."""
        st = self._st
        if st.pending is not None:
            return None
        if st.phase == "auction":
            return _SEAT[self._next_caller()]
        if st.phase == "play":
            return _SEAT[self._next_player()]
        return None

    def is_over(self) -> bool:
        """Is the deal over: played out, annulled by a new deal, or passed out?"""
        return self._st.phase in OVER

    def outcome(self) -> Outcome | None:
        """How the deal ended, with its score; None while it goes on."""
        st = self._st
        if st.phase not in OVER:
            return None
        tricks = None
        if st.phase == "done" and st.declarer:
            side = _SIDE[st.declarer]
            tricks = sum(1 for t in st.tricks if _SIDE[t.winner] == side)
        return Outcome(Phase(st.phase), self._contract_text(), st.doubled,
                       _SEAT[st.declarer] if st.declarer and st.phase == "done" else None, tricks, self.score())

    @property
    def contract(self) -> "Contract | None":
        """The contract as doubled (``Contract('4SX')``; straight bridge ``Contract('H x2')``), once the
        auction has made one; None before."""
        text = self._contract_text()
        if text is None:
            return None
        from ..scoring import parse_contract

        return parse_contract(self.code, text)

    @property
    def declarer(self) -> Seat | None:
        return _SEAT[self._st.declarer] if self._st.declarer else None

    @property
    def dummy(self) -> Seat | None:
        """The dummy's seat (three-hand: the position the dummy hand lies in after the reseating)."""
        return _SEAT[_PARTNER[self._st.declarer]] if self._st.declarer else None

    def hand(self, seat: str | Seat) -> tuple[str, ...]:
        """The cards ``seat`` still holds (empty where the table was given no deal)."""
        s = self._seat(seat)
        hands = self._st.hands
        return tuple(hands[s]) if hands is not None else ()

    @property
    def current_trick(self) -> tuple[tuple[Seat, str], ...]:
        """The cards played to the trick in progress, the lead first."""
        return tuple((_SEAT[s], c) for s, c in self._st.current)

    @property
    def tricks(self) -> tuple[PlayedTrick, ...]:
        return tuple(PlayedTrick(_SEAT[t.leader], tuple((_SEAT[s], c) for s, c in t.cards), _SEAT[t.winner])
                     for t in self._st.tricks)

    @property
    def leader(self) -> Seat | None:
        """Who leads (or led) to the trick in progress."""
        return _SEAT[self._st.leader] if self._st.leader else None

    def exposed(self, seat: str | Seat) -> tuple[str, ...]:
        """``seat``'s exposed cards: face up on the table, still his, subject to call."""
        return tuple(self._st.exposed.get(self._seat(seat), ()))

    @property
    def penalties_in_force(self) -> tuple[Obligation, ...]:
        """The penalties that bind the play now: a lead called or forbidden, a card called, highest or lowest,
        win or lose the trick."""
        return tuple(self._st.obligations)

    @property
    def bars(self) -> dict[str, str]:
        """Seats barred in the auction, and until when (``adverse_call``, ``end_of_auction``, ...)."""
        return dict(self._st.bars)

    @property
    def calls(self) -> tuple[CallRecord, ...]:
        """The auction as it stands: each call that counts, with who made it and any irregularity and remedy
        (the calls as made, the irregular ones included, are in :attr:`history`)."""
        return tuple(CallRecord(c.seat, c.call, c.made, c.irregularity, c.remedy, c.by) for c in self._st.calls)

    @property
    def auction(self) -> tuple[str, ...]:
        """The calls that count, as texts."""
        return tuple(c.call for c in self._st.calls)

    @property
    def revokes(self) -> tuple[Revoke, ...]:
        return tuple(Revoke(r.seat, r.trick, r.established, r.choice) for r in self._st.revokes)

    @property
    def penalty_scores(self) -> tuple[dict[str, Any], ...]:
        """The points the rulings entered so far (side or player, column, points, law, kind, phase)."""
        return tuple(p.to_dict() for p in self._st.scores)

    @property
    def recorded(self) -> tuple[dict[str, Any], ...]:
        """The effects the table recorded but cannot carry out (a procedure, a discretion, the code silent)."""
        return tuple(r.to_dict() for r in self._st.recorded)

    @property
    def next_dealer(self) -> Seat | None:
        """After a new deal: who deals it."""
        return _SEAT[self._st.next_dealer] if self._st.next_dealer else None

    @property
    def history(self) -> tuple[HistoryEntry, ...]:
        """Every action in order, as made (the irregular ones included), with what the table made of it: each
        ruling, and each remedy chosen and by whom (``docs/table.md``)."""
        return tuple(entry_of(h) for h in self._st.history)

    @property
    def pending_ruling(self) -> Ruling | None:
        """The ruling that waits to be applied (or answered), if any."""
        return self.pending()

    def pending(self) -> Ruling | None:
        p = self._st.pending
        return self._ruling_of(p) if p else None

    def _ruling_of(self, p: Pending) -> Ruling:
        """The ruling a pending incident gives (remembered on it until an answer changes the incident)."""
        r = p.ruling
        if r is None:
            r = p.ruling = rule_cached(self.code, p.incident)
        return r  # type: ignore[no-any-return]

    def seating(self) -> dict[str, str]:
        """Position -> the player who sits there. Four-handed: each seat its own player."""
        return {s: s for s in "NESW"}

    # deprecated spellings of ``turn``, each for its own phase (and answering while a ruling waits)
    def next_caller(self) -> Seat:
        """Deprecated (use :attr:`turn`): whose turn it is to call; refused outside the auction."""
        if self._st.phase != "auction":
            raise OutOfTurnError("turn", f"no one calls now: the auction is over (phase {self._st.phase})")
        return _SEAT[self._next_caller()]

    def next_player(self) -> Seat:
        """Deprecated (use :attr:`turn`): whose turn it is to play; refused outside the play."""
        if self._st.phase != "play":
            raise OutOfTurnError("turn", f"no one plays now (phase {self._st.phase})")
        return _SEAT[self._next_player()]

    @property
    def straight(self) -> bool:
        """Deprecated: is this a straight-bridge table? Use :attr:`variant`."""
        return self.variant == "straight-bridge"

    @property
    def three(self) -> bool:
        """Deprecated: is this a three-hand table? Use :attr:`variant`."""
        return self.variant == "three-hand"

    # ------------------------------------------------------------------ seats, cards, turns

    def _seat(self, seat: Any, field_name: str = "seat") -> str:
        if type(seat) is str and seat in _LHO:
            return seat
        if isinstance(seat, Seat):
            return seat.value
        if isinstance(seat, str) and seat.strip().upper() in _LHO:
            return seat.strip().upper()
        raise MalformedActionError(field_name, f"expected a seat N, E, S or W, got {seat!r}")

    def _card(self, card: Any, field_name: str = "card") -> str:
        if type(card) is str and card in _CARD_TEXTS:
            return card
        if isinstance(card, Card):
            return card.text
        try:
            return Card(card, field_name).text
        except InputError as e:
            raise MalformedActionError(e.field, e.message) from None

    def _refuse_seat(self, seat: str, action: str) -> None:
        """A variant refuses a seat where no player sits (three-hand's dummy packet)."""

    def _next_caller(self) -> str:
        calls = self._st.calls
        return _LHO[calls[-1].seat] if calls else self._st.dealer

    def _next_player(self) -> str:
        st = self._st
        return _LHO[st.current[-1][0]] if st.current else st.leader  # type: ignore[return-value]

    def _adverse(self, a: str, b: str) -> bool:
        """Adversaries in the auction: the other partnership."""
        return _SIDE[a] != _SIDE[b]

    def _refuse_while_pending(self) -> None:
        p = self._st.pending
        if p is not None:
            raise RulingPendingError("pending", f"a ruling on {p.kind} waits: apply an option first")

    # ------------------------------------------------------------------ rulings

    def _ruled(self, kind: str, offender: str, facts: dict[str, Any], call: tuple[str, str] | None = None,
               card: tuple[str, str] | None = None, **extra: Any) -> Answer:
        incident = self._incident(kind, offender, facts, extra)
        return self._pend(rule_cached(self.code, incident), incident, offender, facts, call, card)

    def _incident(self, kind: str, offender: str, facts: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
        st = self._st
        incident: dict[str, Any] = {"code": self.code.id, "irregularity": kind, "dealer": st.dealer,
                                    "offender": offender, "facts": facts, **extra}
        if st.declarer and "declarer" not in extra and "auction" not in extra:
            incident["declarer"] = st.declarer
        return incident

    def _pend(self, r: Ruling, incident: dict[str, Any], offender: str, facts: dict[str, Any],
              call: tuple[str, str] | None, card: tuple[str, str] | None) -> Answer:
        self._st.pending = Pending(r.irregularity, offender, facts, incident, call, card, ruling=r)
        return Answer(False, r.irregularity, shown_facts(r), r)

    def _due(self) -> Answer:
        """A ruling deferred until the declarer was known, now due (the call was legal; apply the ruling)."""
        p = self._st.pending
        assert p is not None
        r = self._ruling_of(p)
        return Answer(True, r.irregularity, p.facts, r, note="a ruling deferred until the declarer was known "
                      "is now due: apply it before the play")

    def _deal_facts(self) -> dict[str, Any]:
        """What the table knows of the deal that a revoke's ruling may turn on: the deal is still being played
        (no score recorded)."""
        return {"scores_recorded": False}

    def _auction_record(self, extra: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
        """The calls so far (and ``extra`` (seat, call) pairs) as an incident's auction; with ``callers``
        where a call out of turn allowed to stand took the auction out of its rotation."""
        pairs = [(c.seat, c.call) for c in self._st.calls] + list(extra)
        out: dict[str, Any] = {"auction": [c for _, c in pairs]}
        order = _rotation(self._st.dealer, self.code.players)
        if any(w != order[i % len(order)] for i, (w, _) in enumerate(pairs)):
            out["callers"] = [w for w, _ in pairs]
        return out

    def _report_extra(self) -> dict[str, Any]:
        """What a reported irregularity is ruled with besides its facts: the auction so far."""
        st = self._st
        return self._auction_record() if st.phase == "auction" and st.calls else {}

    # ------------------------------------------------------------------ the auction

    def call(self, seat: str | Seat, call: str | Call) -> Answer:
        """A call (auction) or a declaration (straight bridge) by ``seat``."""
        st = self._st
        if st.pending is not None:
            self._refuse_while_pending()
        if st.phase != "auction":
            raise OutOfTurnError("call", f"the auction is over (phase {st.phase})")
        s = seat if type(seat) is str and seat in _LHO else self._seat(seat)
        self._refuse_seat(s, "call")
        text, ans = self._call(s, call)
        st.history.append(("call", s, text) if ans is _LEGAL else
                          self._entry("call", s, {"call": text}, ans))
        return ans

    def _call_text(self, call: Any) -> str:
        if type(call) is str and call in _CALL_TEXTS:
            return call
        if isinstance(call, Call):
            return call.text
        try:
            return Call(call, "call").text
        except InputError as e:
            raise MalformedActionError(e.field, e.message) from None

    def _call(self, s: str, call: Any) -> tuple[str, Answer]:
        st = self._st
        if type(call) is str and call not in _CALL_TEXTS:
            bid = _BID_TEXT.match(call.strip().upper())  # a bid above the code's highest (law 50: seven)
            if bid and int(bid.group(1)) > self.rules.max_level and st.detect:
                return self._over_seven(s, bid.group(1), bid.group(2))
        text = self._call_text(call)
        if text[0].isdigit() and text[1:] not in self.rules.trick_values:
            raise MalformedActionError("call", f"{self.code.id} has no {text[1:]} declaration (its strains: "
                                       + ", ".join(self.rules.strains) + ")")
        if not st.detect:
            self._record_call(s, text)
            return text, _LEGAL
        if s != self._next_caller():
            return text, self._out_of_turn(s, text)
        return text, self._admit(s, text)

    def _out_of_turn(self, s: str, text: str) -> Answer:
        kind = "pass_out_of_turn" if text == "P" else "call_out_of_turn"
        facts: dict[str, Any] = {} if kind == "pass_out_of_turn" else {"call": text}
        self._out_of_turn_facts(kind, facts)
        return self._ruled(kind, s, facts, call=(s, text), **self._auction_record())

    def _out_of_turn_facts(self, kind: str, facts: dict[str, Any]) -> None:
        """What a variant adds to the facts of a call out of turn."""

    def _admit(self, s: str, text: str, standing: str | None = None, made: str | None = None,
               remedy: str | None = None, by: str | None = None) -> Answer:
        """A call made in turn: the dealer who must declare, a barred player's call, an insufficient bid, a
        double or redouble not open to him. A call allowed to stand (``standing``: the irregularity whose
        remedy let it stand) is made as if in turn, and checked for every irregularity but that one."""
        st = self._st
        if standing is None:
            if not st.calls and not text[0].isdigit() and self.rules.dealer_must_declare and not st.bars.get(s):
                law = self.rules.dealer_must_declare_law
                raise IllegalActionError("call", f"the dealer must declare to win at least one odd trick (law {law}): "
                                         f"{text} is not open to him; bid, e.g. 1S")
        if st.bars and text != "P" and standing != "call_while_barred":
            until = st.bars.get(s)
            if until == "overbid_or_doubled":  # law 49: his pass out of turn holds him
                if standing is None:
                    raise IllegalActionError("call", f"{s} passed out of turn: he may re-enter the bidding only when "
                                             "the declaration he passed is overbid or doubled; pass")
            elif until:
                return self._in_turn_irregularity("call_while_barred", s, text)
        if text[0].isdigit():
            if standing != "insufficient_bid":
                last = self._last_bid()
                if last is not None and not self._higher(text, last):
                    return self._in_turn_irregularity("insufficient_bid", s, text)
        elif text != "P" and standing not in ("double_of_partner", "redouble_of_partner_double", "extra_redouble"):
            problem = self._double_problem(s, text)
            if problem:
                return self._in_turn_irregularity(problem, s, text)
        self._record_call(s, text, made, standing, remedy, by)
        return self._due() if st.pending is not None else _LEGAL

    def _call_stands(self, seat: str, text: str, act: "Act") -> None:
        """A call out of turn, or a barred player's, allowed to stand: law 49, "the bidding continues as if the
        declaration had been in turn" — so it is checked as a call in turn, for every irregularity but the
        one just ruled (a barred player's 4S let stand after 7S is an insufficient bid)."""
        self._admit(seat, text, standing=act.pending.kind, remedy=act.remedy, by=act.by)

    def _no_double(self, e: dict[str, Any]) -> None:
        """No further doubling, by a seat or by anyone, in the hand or of this declaration."""
        self._st.no_double.append(_no_double_entry(self, e))

    def _in_turn_irregularity(self, kind: str, s: str, text: str) -> Answer:
        return self._ruled(kind, s, {}, call=(s, text), **self._auction_record([(s, text)]))

    def _last_bid(self) -> str | None:
        for c in reversed(self._st.calls):
            if c.call[0].isdigit():
                return c.call
        return None

    def _higher(self, bid: str, than: str) -> bool:
        """Is ``bid`` higher than ``than`` under this code (remembered: a code has few pairs of bids)?"""
        key = (self.code.id, bid, than)
        hit = _HIGHER.get(key)
        if hit is None:
            hit = _HIGHER[key] = higher(self.code, Call(bid), Call(than))
        return hit

    def _no_double_in_force(self, s: str) -> str | None:
        """A penalty in force that forbids ``s`` to double now, in words (None: there is none)."""
        st = self._st
        if not st.no_double:
            return None
        last_bid = max((i for i, c in enumerate(st.calls) if c.call[0].isdigit()), default=-1)
        for nd in st.no_double:
            if nd.seat in (None, s) and (nd.scope == "hand" or nd.bid == last_bid):
                return "in this hand" if nd.scope == "hand" else "this declaration"
        return None

    def _double_problem(self, s: str, text: str) -> str | None:
        """The irregularity a double or redouble by ``s`` would be, if any (a penalty in force is refused)."""
        st = self._st
        if text == "X":
            what = self._no_double_in_force(s)
            if what:
                raise IllegalActionError("call", f"{s} may not double {what} (a penalty in force)")
        calls = st.calls
        last_i = next((i for i in range(len(calls) - 1, -1, -1) if calls[i].call[0].isdigit()), None)
        if last_i is None:
            return "extra_redouble"
        bidder = calls[last_i].seat
        after = [c for c in calls[last_i + 1:] if c.call != "P"]
        if text == "X":
            if _SIDE[bidder] == _SIDE[s]:
                return "double_of_partner"
            return "extra_redouble" if after else None
        if not after or after[-1].call != "X":
            return "extra_redouble"
        return "redouble_of_partner_double" if _SIDE[after[-1].seat] == _SIDE[s] else None

    def _record_call(self, s: str, text: str, made: str | None = None, irregularity: str | None = None,
                     remedy: str | None = None, by: str | None = None) -> None:
        st = self._st
        calls = st.calls
        calls.append(CallRecord(s, text) if irregularity is None else
                     CallRecord(s, text, made if made != text else None, irregularity, remedy, by))
        # a bar "until an adverse call" ends when an adversary of the barred player bids or doubles
        if st.bars and (text[0].isdigit() or text == "X"):
            for seat, until in list(st.bars.items()):
                if until == "adverse_call" and self._adverse(seat, s) or until == "overbid_or_doubled":
                    del st.bars[seat]
        if text != "P":
            return
        passes = 0  # the auction can only end on a pass: count the passes that close it
        for c in reversed(calls):
            if c.call != "P":
                break
            passes += 1
        players = self.code.players
        if passes == len(calls):
            if passes == players:
                st.phase = "passed_out"
        elif passes >= players - 1:  # a bid passed by the others: the final declaration
            self._close_auction()

    def _close_auction(self) -> None:
        """The last bid is final, doubled or redoubled by what followed it."""
        calls = self._st.calls
        last = max(i for i, c in enumerate(calls) if c.call[0].isdigit())
        bidder, final = calls[last].seat, calls[last].call
        after = [c.call for c in calls[last + 1:]]
        doubled = 2 if "XX" in after else 1 if "X" in after else 0
        self._end_auction(final, doubled, self._declarer_of(bidder, final))

    def _declarer_of(self, bidder: str, final: str) -> str:
        """The first of the partnership to name the final strain."""
        strain, partner = final[1:], _PARTNER[bidder]
        return next(c.seat for c in self._st.calls if c.call[0].isdigit() and c.call[1:] == strain
                    and c.seat in (bidder, partner))

    def _final_declaration(self, call: str, side: str | None) -> str:
        """The declarer of a final declaration a remedy makes (``side``: of that partnership)."""
        st = self._st
        strain = call[1:]
        for c in st.calls:
            if c.call[0].isdigit() and c.call[1:] == strain and (side is None or _SIDE[c.seat] == side):
                return c.seat
        return st.calls[-1].seat

    def _end_auction(self, contract: str, doubled: int, declarer: str) -> None:
        st = self._st
        st.contract, st.doubled, st.declarer, st.phase, st.leader = contract, doubled, declarer, "play", _LHO[declarer]
        st.bars = {}
        self._after_auction(declarer)
        self._next_deferred()

    def _after_auction(self, declarer: str) -> None:
        """What a variant does when the auction ends (three-hand reseats the table)."""

    def _position_of(self, player: str) -> str:
        """Where a player of the auction plays from (three-hand: after the reseating)."""
        return player

    def _next_deferred(self) -> None:
        """A ruling that waited for the declarer (a card exposed in the auction, law 65), now due, if the law
        gives more than was carried out in the auction."""
        st = self._st
        while st.phase == "play" and st.pending is None and st.deferred:
            p = st.deferred.pop(0)
            inc = dict(p.incident)
            inc["declarer"] = st.declarer
            moved = self._position_of(inc["offender"])
            if moved != inc["offender"]:  # he plays from another seat now: the record of the auction's seats is past
                inc.pop("auction", None)
                inc.pop("callers", None)
            p.offender = inc["offender"] = moved
            p.incident, p.ruling = inc, None
            r = self._ruling_of(p)
            if r.options or r.questions or any(e.to_dict() not in (p.done or []) for e in r.effects):
                st.pending = p

    def _over_seven(self, s: str, level: str, strain: str) -> tuple[str, Answer]:
        """A bid of more than seven: an impossible declaration (no such call can stand; law 50 makes it
        seven in the suit named, where the code says so)."""
        st = self._st
        if s != self._next_caller():
            raise IllegalActionError("call", f"{level}{strain} is a bid of more than seven, and out of turn: rule "
                                     "the call out of turn first (report it with the call it would have been)")
        strain = "NT" if strain in ("N", "NT") else strain
        if strain not in self.rules.trick_values:
            raise MalformedActionError("call", f"{self.code.id} has no {strain} declaration")
        text = f"{level}{strain}"
        bids = [(c.seat, c.call) for c in st.calls if c.call[0].isdigit()]
        facts: dict[str, Any] = {"seven_call": seven_call(self.code, strain).text}
        if bids:
            facts["previous_bid"] = bids[-1][1]
        innocent = [c for w, c in bids if self._adverse(w, s)]
        facts["innocent_side_has_bid"] = bool(innocent)
        if innocent:
            facts["innocent_last_bid"] = innocent[-1]
        self._over_seven_facts(s, bids, facts)
        return text, self._ruled("impossible_bid", s, facts, call=(s, text))

    def _over_seven_facts(self, s: str, bids: list[tuple[str, str]], facts: dict[str, Any]) -> None:
        """What a variant adds to the facts of a bid of more than seven."""

    def legal_calls(self) -> list[str]:
        """The calls open to the player whose turn it is: a pass, every sufficient bid, a double or redouble
        within the limits (straight bridge: the trump declarations or a pass, then X and P)."""
        st = self._st
        if st.phase != "auction" or st.pending is not None:
            return []
        seat = self._next_caller()
        if st.bars.get(seat):
            return ["P"]  # a barred player may only pass (a barred dealer too: he may not bid)
        out = [] if not st.calls and self.rules.dealer_must_declare else ["P"]
        last = self._last_bid()
        for level in range(1, self.rules.max_level + 1):
            for strain in self.rules.strains:
                c = f"{level}{strain}"
                if last is None or self._higher(c, last):
                    out.append(c)
        for x in ("X", "XX"):
            try:
                if last is not None and self._double_problem(seat, x) is None:
                    out.append(x)
            except IllegalActionError:
                pass
        return out

    # ------------------------------------------------------------------ the play

    def _strain(self) -> str:
        """The contract's strain (C D H S R NT)."""
        return self._st.contract[1:]  # type: ignore[index]

    def _trump(self) -> str | None:
        contract = self._st.contract
        tc = self._tc
        if tc[0] == contract:
            return tc[1]
        if contract is None:
            return None
        strain = self._strain()
        trump = None if strain == "NT" else "S" if strain == "R" else strain
        self._tc = (contract, trump)
        return trump

    def play(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card played by ``seat`` (the declarer plays the dummy's cards as the dummy's seat)."""
        st = self._st
        if st.pending is not None:
            self._refuse_while_pending()
        if st.phase != "play":
            raise OutOfTurnError("card", f"no card can be played now (phase {st.phase})")
        sv = seat if type(seat) is str and seat in _LHO else self._seat(seat)
        ct = card if type(card) is str and card in _CARD_TEXTS else self._card(card)
        hands = st.hands
        if hands is not None and ct not in hands[sv]:
            raise MalformedActionError("card", f"{sv} does not hold {ct}")
        cur = st.current
        if sv == (_LHO[cur[-1][0]] if cur else st.leader) and hands is not None and not st.exposed \
                and not st.obligations and st.detect:
            # the common case, inline: in turn, no penalty in force; the card leaves the hand for the trick
            hand = hands[sv]
            if cur and ct[0] != cur[0][1][0]:
                self._note_revoke(sv, ct, cur, hand)
            hand.remove(ct)
            cur.append((sv, ct))
            ans = _LEGAL
            if len(cur) == 4:
                self._quit_trick()
                if st.revokes and st.phase == "done":  # the last trick quitted: the deal is over
                    ans = self._established_revokes()
            elif st.revokes and len(cur) == 1:
                # the trick of a revoke was turned and quitted, and a card is played to the next: established
                ans = self._established_revokes()
        else:
            ans = self._play(sv, ct)
        st.history.append(("play", sv, ct) if ans is _LEGAL else self._entry("play", sv, {"card": ct}, ans))
        return ans

    def _play(self, sv: str, ct: str) -> Answer:
        """A card out of turn, under a penalty in force, beside an exposed card, or not refereed."""
        st = self._st
        hands = st.hands
        cur = st.current
        if not st.detect:
            self._lay(sv, ct)
            if len(cur) == 4:
                self._quit_trick()
            return _LEGAL
        expected = _LHO[cur[-1][0]] if cur else st.leader
        if sv != expected:
            return self._out_of_turn_card(sv, ct, expected)  # type: ignore[arg-type]
        # obligations from earlier penalties: a called or forbidden lead, a called card, highest or lowest,
        # win or lose the trick
        if st.obligations and hands is not None:
            allowed, why = obliged(st.obligations, sv, hands[sv], cur, self._trump())
            if allowed is not None and ct not in allowed:
                ans = self._ruled("failure_to_play_as_directed", sv,
                                  {"corrected": False,
                                   "obligation": broken(st.obligations, sv, ct, hands[sv], cur, self._trump())},
                                  card=(sv, ct))
                return Answer(False, ans.kind, ans.facts, ans.ruling, note=f"{sv} {why}: {' or '.join(allowed)}, not {ct}")
        if cur and hands is not None:
            self._note_revoke(sv, ct, cur, hands[sv])
        self._lay(sv, ct)
        if len(cur) == 4:
            self._quit_trick()
            if st.revokes and st.phase == "done":  # the last trick quitted: the deal is over
                return self._established_revokes()
        elif st.revokes and len(cur) == 1:
            # the trick of a revoke was turned and quitted, and a card is played to the next: established
            return self._established_revokes()
        return _LEGAL

    def _out_of_turn_card(self, sv: str, ct: str, expected: str) -> Answer:
        st = self._st
        cur = st.current
        trick_no = len(st.tricks) + 1
        if not cur:
            if trick_no == 1 and sv == _PARTNER[expected]:
                ans = self._before_the_opening_lead(sv, ct)
                if ans is not None:
                    return ans
            return self._ruled("lead_out_of_turn", sv, {"card": ct, "proper_leader": expected, "trick": trick_no,
                                                        "accepted": False, "followed_by": "nobody"},  # caught at once
                               card=(sv, ct))
        leader = cur[0][0]
        facts: dict[str, Any] = {"trick": trick_no}
        partner = _PARTNER[sv]
        if any(w == sv for w, _ in cur) and not any(w == partner for w, _ in cur):
            facts["position"] = "leads_before_partner_played"  # on to the next trick before his partner played
        elif len(cur) == 1 and sv == _LHO[_PARTNER[leader]]:  # the fourth hand before the second
            facts["position"] = "fourth_before_second"
        elif len(cur) == 1 and sv == _PARTNER[leader] and st.declarer and _SIDE[sv] == _SIDE[st.declarer]:
            facts["position"] = "third_before_second"  # the declarer third before the second
        else:
            facts["position"] = "other"
        second = _LHO[leader]
        if len(cur) == 1 and st.hands is not None and sv != second:  # the table sees whether he could follow
            facts["second_hand_void"] = not any(c[0] == cur[0][1][0] for c in st.hands[second])
        return self._ruled("premature_play", sv, facts, card=(sv, ct))

    def _before_the_opening_lead(self, sv: str, ct: str) -> Answer | None:
        """The opening lead made by the proper leader's partner: ruled first under the code's law for cards
        exposed or led after the final declaration and before the lead (1913 law 66 and its like), where the
        code has one that reaches him; else (None) as a lead out of turn."""
        kind = "exposed_card_before_lead"
        if kind not in self.code.by_kind:
            return None
        facts: dict[str, Any] = {"card": ct}
        incident = self._incident(kind, sv, facts, {})
        r = rule_cached(self.code, incident)
        if not r.options and not r.questions and all(e.kind is EffectKind.NO_PROVISION for e in r.effects):
            return None
        return self._pend(r, incident, sv, facts, None, (sv, ct))

    def _note_revoke(self, sv: str, ct: str, cur: list[tuple[str, str]], hand: list[str]) -> None:
        """He renounces holding the suit led: a revoke, established when the trick is quitted."""
        led = cur[0][1][0]
        if ct[0] != led:
            for x in hand:
                if x[0] == led:
                    self._st.revokes.append(Revoke(sv, len(self._st.tricks) + 1))
                    break

    def legal_cards(self) -> list[str]:
        """The cards the player to play may play without revoking or breaking a penalty in force (the
        declarer plays the dummy's as the dummy's seat); empty where the table does not hold the hands."""
        st = self._st
        if st.phase != "play" or st.hands is None or st.pending is not None:
            return []
        sv = self._next_player()
        hand, cur = st.hands[sv], st.current
        led = cur[0][1][0] if cur else None
        follow = [c for c in hand if c[0] == led] if led else []
        allowed, _ = obliged(st.obligations, sv, hand, cur, self._trump())
        return [c for c in (follow or hand) if allowed is None or c in allowed] or list(allowed or follow or hand)

    def call_card(self, seat: str | Seat, card: str | Card) -> None:
        """An adversary calls ``seat``'s exposed card: he must play it the next time he plays, if he can
        without revoking (an exposed card is "subject to call")."""
        self._refuse_while_pending()
        s, c = self._seat(seat), self._card(card)
        if self._st.phase != "play":
            raise OutOfTurnError("card", f"no card can be called now (phase {self._st.phase})")
        if c not in self._st.exposed.get(s, []):
            raise MalformedActionError("card", f"{c} is not an exposed card of {s}'s; exposed: "
                                       + (", ".join(self._st.exposed.get(s, [])) or "none"))
        self._st.obligations.append(Obligation("play_card", s, card=c))
        self._st.history.append(HistoryEntry("call_card", s, {"card": c}))

    def _lay(self, sv: str, ct: str) -> None:
        st = self._st
        if st.hands is not None:
            st.hands[sv].remove(ct)
        if st.exposed:
            ex = st.exposed.get(sv)
            if ex and ct in ex:
                ex.remove(ct)
                if not ex:
                    del st.exposed[sv]
        st.current.append((sv, ct))
        if st.obligations:
            leading = len(st.current) == 1
            st.obligations = [x for x in st.obligations if not (x.seat == sv or x.either and _PARTNER[x.seat] == sv)
                              or (x.kind in ("forbid_lead", "call_lead") and not leading)]

    def _quit_trick(self) -> None:
        st = self._st
        cur = st.current
        win = trick_winner(cur, self._trump())
        st.tricks.append(Trick(cur[0][0], cur, win))
        st.current = []
        st.leader = win
        if len(st.tricks) == 13:
            st.phase = "done"

    def _established_revokes(self, now: bool = False) -> Answer:
        """A revoke is established when its trick is turned and quitted and a card is played to the next (or
        the deal ends): rule on it now. The card that establishes it stands; the ruling is due."""
        st = self._st
        done = len(st.tricks)
        for rv in st.revokes:
            if not rv.established and (now or rv.trick <= done):
                rv.established = True
                side = _SIDE[rv.seat]
                # the dummy cannot revoke (law 63): a renounce from his hand counts toward no side's revokes
                dummy = _PARTNER[st.declarer] if st.declarer else None
                real = [r for r in st.revokes if r.established and r.seat != dummy]
                n = max(1, sum(1 for r in real if _SIDE[r.seat] == side))
                both = len({_SIDE[r.seat] for r in real}) == 2
                ans = self._ruled("revoke", rv.seat, {"established": True, "revokes_by_side": n,
                                                      "both_sides_revoked": both, "quitted": True,
                                                      **self._deal_facts()})
                st.pending.revoke = rv.trick  # type: ignore[union-attr]
                return Answer(True, ans.kind, ans.facts, ans.ruling,
                              note=f"{rv.seat}'s revoke in trick {rv.trick} is established: its trick was "
                                   "turned and quitted" + ("" if done == 13 else " and a card played to the next"))
        return _LEGAL

    def quit_trick(self) -> Answer:
        """The last trick is turned and quitted before anyone plays on (the table quits a trick of four
        cards at once, so this only establishes a revoke in it): its revoke, if any, is ruled."""
        self._refuse_while_pending()
        if self._st.phase not in ("play", "done"):
            raise OutOfTurnError("quit_trick", f"no trick has been played (phase {self._st.phase})")
        ans = self._established_revokes()
        self._log("quit_trick", None, {}, ans)
        return ans

    def correct_revoke(self, seat: str | Seat) -> Answer:
        """``seat`` corrects his renounce in time to save a revoke: before his trick is turned and quitted
        and a card played to the next. The code's remedy for a revoke corrected in time is ruled; applying
        it takes the card played in error back (exposed, where the remedy says) and reopens the trick: the
        offender then plays a card of the suit led (``apply(..., card=...)``, or as the remedy directs)."""
        self._refuse_while_pending()
        st = self._st
        s = self._seat(seat)
        trick_now = len(st.tricks) + 1
        rv = next((r for r in st.revokes if r.seat == s and not r.established
                   and (r.trick == trick_now or (r.trick == trick_now - 1 and not st.current))), None)
        if rv is None:
            raise IllegalActionError("seat", f"{s} has no revoke that can still be corrected (a revoke is "
                                     "established once its trick is quitted and a card played to the next)")
        cards = st.current if rv.trick == trick_now else st.tricks[-1].cards
        declarer = st.declarer
        assert declarer is not None
        facts = {"established": False, "quitted": False, **self._deal_facts(),
                 "offender_fourth_hand": [w for w, _ in cards].index(s) == 3,
                 "adversaries_both_played": {_LHO[declarer], _LHO[_PARTNER[declarer]]} <= {w for w, _ in cards}}
        ans = self._ruled("revoke", s, facts)
        st.pending.correction = rv.trick  # type: ignore[union-attr]
        self._log("correct_revoke", s, {}, ans)
        return ans

    def expose(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card exposed (dropped face up, shown, named) — in the auction, before the lead, or in play."""
        self._refuse_while_pending()
        st = self._st
        s, c = self._seat(seat), self._card(card)
        self._refuse_seat(s, "expose")
        if st.hands is not None and c not in st.hands[s]:
            raise MalformedActionError("card", f"{s} does not hold {c}")
        if st.phase == "auction":
            facts: dict[str, Any] = {"card": c}
            self._exposed_in_auction_facts(s, facts)
            ans = self._ruled("exposed_card_in_auction", s, facts)
        elif st.phase != "play":
            raise OutOfTurnError("card", f"no card can be exposed now (phase {st.phase})")
        elif not st.tricks and not st.current:
            ans = self._ruled("exposed_card_before_lead", s, {"card": c})
        else:
            ans = self._ruled("exposed_card", s, {"card": c, "how": "dropped_face_up"})
        self._log("expose", s, {"card": c}, ans)
        return ans

    def _exposed_in_auction_facts(self, s: str, facts: dict[str, Any]) -> None:
        """What a variant adds to the facts of a card exposed in the auction."""

    def claim(self, seat: str | Seat, threw_cards: bool = False) -> Answer:
        """A player claims the rest of the tricks (or throws his cards face up on the table). After the
        declarer's claim, an adversary's cards thrown face up are ruled as the code rules cards exposed then."""
        self._refuse_while_pending()
        st = self._st
        if st.phase != "play":
            raise OutOfTurnError("claim", f"no claim can be made now (phase {st.phase})")
        s = self._seat(seat)
        if not isinstance(threw_cards, bool):
            raise MalformedActionError("threw_cards", f"expected true or false, got {threw_cards!r}")
        facts: dict[str, Any] = {"threw_cards": threw_cards}
        after = st.claimed_by is not None and s != st.declarer
        for name in _CLAIM_FACTS:  # the catalogue's names for "after the declarer's (straight: dealer's) claim"
            if name in _kind_facts("claim"):
                facts[name] = after
        ans = self._ruled("claim", s, facts)
        if s == st.declarer and st.claimed_by is None:
            st.claimed_by = s
        self._log("claim", s, {"threw_cards": threw_cards}, ans)
        return ans

    def play_together(self, seat: str | Seat, cards: Sequence[str | Card]) -> Answer:
        """Two or more cards played at once to the current trick."""
        self._refuse_while_pending()
        st = self._st
        s = self._seat(seat)
        if st.phase != "play":
            raise OutOfTurnError("cards", f"no card can be played now (phase {st.phase})")
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence) or len(cards) < 2:
            raise MalformedActionError("cards", f"expected a list of two or more cards, got {cards!r}")
        texts = [self._card(c, "cards") for c in cards]
        if len(set(texts)) != len(texts):
            raise MalformedActionError("cards", f"a card twice: {', '.join(texts)}")
        for c in texts:
            if st.hands is not None and c not in st.hands[s]:
                raise MalformedActionError("cards", f"{s} does not hold {c}")
        ans = self._ruled("extra_card_played", s, {"simultaneous": True, "corrected": False})
        st.pending.together = texts  # type: ignore[union-attr]
        self._log("play_together", s, {"cards": texts}, ans)
        return ans

    def report(self, kind: str, seat: str | Seat, **facts: Any) -> Answer:
        """An irregularity the table cannot see for itself — a remark by the dummy, a consultation, a
        quitted trick looked at, a card omitted from a trick, a claim of a revoke after the deal — reported
        by ``seat`` (the offender) with the facts of its kind (``bridgelaw kinds``), and ruled with what the
        table knows: the dealer, the auction, the declarer. Apply the ruling as any other."""
        self._refuse_while_pending()
        s = self._seat(seat)
        if not isinstance(kind, str):
            raise MalformedActionError("kind", f"expected an irregularity kind (bridgelaw kinds), got {kind!r}")
        _plain_facts(facts)
        try:
            ans = self._ruled(kind, s, dict(facts), **self._report_extra())
        except TableStateError:
            raise
        except InputError as e:
            raise MalformedActionError(e.field, e.message) from None
        self._log("report", s, {"kind": kind, "facts": dict(facts)}, ans)
        return ans

    def answer(self, **facts: Any) -> Ruling:
        """Answer the pending ruling's questions (facts the table cannot see); returns the ruling anew."""
        p = self._st.pending
        if p is None:
            raise OutOfTurnError("answer", "no ruling is waiting")
        _plain_facts(facts)
        inc = {**p.incident, "facts": {**p.incident.get("facts", {}), **facts}}
        try:
            r = rule_cached(self.code, inc)
        except InputError as e:
            raise MalformedActionError(e.field, e.message) from None
        p.incident, p.ruling = inc, r
        self._st.history.append(HistoryEntry("answer", None, {"facts": dict(facts)}))
        return r

    # ------------------------------------------------------------------ remedies

    def apply(self, option: str | Option | None = None, suit: str | None = None, by: str | None = None,
              card: str | None = None) -> Ruling:
        """Carry out the pending ruling: its automatic effects and the chosen option (by id; ``by`` names the
        chooser where two players may each choose, as in three-hand law 50; ``suit`` and ``card`` name a suit
        called or forbidden, or a card called, where the chooser names it). Returns the ruling applied; a
        ruling the remedy makes due (a revoke penalty; a call let stand that is itself irregular) is then
        :attr:`pending_ruling` (:mod:`.remedies`)."""
        return remedies.apply(self, option, suit, by, card)

    # ------------------------------------------------------------------ the end

    def _contract_text(self) -> str | None:
        """The contract as the scorer writes it: ``4S``, ``4SX``, ``4SXX``."""
        st = self._st
        if st.contract is None:
            return None
        return st.contract + ("", "X", "XX")[st.doubled]

    def result(self) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``): see :mod:`bridgelaw.dealresult`."""
        from ..dealresult import four_handed_result

        return four_handed_result(self.code, self._st, self._contract_text())

    def score(self) -> "Score":
        from ..scoring import score

        return score(self.result())

    # ------------------------------------------------------------------ history, undo, copy

    def _entry(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> HistoryEntry:
        r = ans.ruling
        if r is None:
            return HistoryEntry(action, seat, args, ans.legal)
        p = self._st.pending
        return HistoryEntry(action, seat, args, ans.legal, r.irregularity, p.offender if p else None,
                            tuple(dict.fromkeys(o.id for o in r.options)), tuple(law.number for law in r.laws))

    def _log(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> None:
        self._st.history.append(self._entry(action, seat, args, ans))

    def push(self, action: Mapping[str, Any] | HistoryEntry) -> Any:
        """Make one action given as data (an entry of :attr:`history`, or its JSON view): ``{"action":
        "call", "seat": "W", "call": "1S"}``, ``{"action": "apply", "option": "penalize", "seat": "N"}``."""
        entry = action if isinstance(action, HistoryEntry) else _entry_from(action, "action")
        return self._do(entry)

    def pop(self) -> HistoryEntry:
        """Take back the last action (a call, a card, a remedy applied, an answer): the state is exactly
        what it was before it. Returns the action taken back."""
        hist = self._st.history
        if not hist:
            raise OutOfTurnError("pop", "nothing to take back: no action has been made")
        last = entry_of(hist[-1])
        self._rebuild(hist[:-1])
        return last

    undo = pop

    def copy(self) -> "Table":
        """An independent copy of the table (state and history)."""
        t = object.__new__(type(self))
        t.code, t.rules, t._legacy, t._tc = self.code, self.rules, None, (None, None)
        t._st = self._st.copy()
        return t

    def _rebuild(self, entries: Sequence[HistoryEntry]) -> None:
        """The state ``entries`` give, replayed onto a fresh table (undo; a failed remedy put right)."""
        st = self._st
        fresh = type(self)(self.code, st.dealer, st.deal, st.detect)
        fresh._replay(entries, "history", verify=False)
        self._st, self._legacy, self._tc = fresh._st, None, (None, None)

    def _restore(self) -> None:
        self._rebuild(list(self._st.history))

    def _do(self, e: HistoryEntry) -> Any:
        a, s, args = e.action, e.seat, e.args
        if a == "call":
            return self.call(s, args.get("call"))  # type: ignore[arg-type]
        if a == "play":
            return self.play(s, args.get("card"))  # type: ignore[arg-type]
        if a == "expose":
            return self.expose(s, args.get("card"))  # type: ignore[arg-type]
        if a == "call_card":
            return self.call_card(s, args.get("card"))  # type: ignore[arg-type]
        if a == "claim":
            return self.claim(s, args.get("threw_cards", False))  # type: ignore[arg-type]
        if a == "play_together":
            return self.play_together(s, args.get("cards"))  # type: ignore[arg-type]
        if a == "report":
            facts = args.get("facts") or {}
            if not isinstance(facts, dict):
                raise MalformedActionError("facts", f"expected an object of facts, got {facts!r}")
            return self.report(args.get("kind"), s, **facts)  # type: ignore[arg-type]
        if a == "correct_revoke":
            return self.correct_revoke(s)  # type: ignore[arg-type]
        if a == "quit_trick":
            return self.quit_trick()
        if a == "answer":
            facts = args.get("facts")
            if not isinstance(facts, dict):
                raise MalformedActionError("facts", f"expected an object of facts, got {facts!r}")
            return self.answer(**facts)
        if a == "apply":
            return self.apply(args.get("option"), suit=args.get("suit"), by=s, card=args.get("card"))
        raise MalformedActionError("action", f"unknown action {a!r}; actions: {', '.join(ACTION_ARGS)}")

    def _replay(self, entries: Iterable[Any], where: str, verify: bool = True) -> None:
        if isinstance(entries, (str, bytes, Mapping)) or not isinstance(entries, Iterable):
            raise TableStateError(where, f"expected a list of actions, got {type(entries).__name__}")
        for i, raw in enumerate(entries):
            at = f"{where}[{i}]"
            e = raw if isinstance(raw, HistoryEntry) else entry_of(raw) if type(raw) is tuple else _entry_from(raw, at)
            try:
                self._do(e)
            except TableStateError:
                raise
            except BridgelawError as err:
                field_name = getattr(err, "field", "")
                raise TableStateError(at, f"{e.action} is refused: {field_name}: {getattr(err, 'message', err)}") from None
            if verify and isinstance(raw, Mapping):
                got = entry_of(self._st.history[-1]).to_dict()
                for k in ("legal", "irregularity", "offender", "options", "remedy"):
                    if k in raw and raw[k] != got.get(k):
                        raise TableStateError(f"{at}.{k}", f"the table gives {got.get(k)!r} here, the history says "
                                              f"{raw[k]!r}")

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The state as JSON (``schema/table-state.schema.json``); :meth:`from_json` reads it back exactly."""
        return json.dumps(self._st.to_dict(), sort_keys=True)

    def to_dict(self) -> dict[str, Any]:
        return self._st.to_dict()

    def to_pbn(self) -> str:
        """The deal as a PBN 2.1 game, with its rulings and the remedies chosen
        (:func:`bridgelaw.replay.history_writer.table_to_pbn`)."""
        from ..replay.history_writer import table_to_pbn

        return table_to_pbn(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> "Table":
        """A table from its JSON state (as :meth:`to_json` writes it): validated against the schema, then
        its history replayed, and every field checked against what the history gives."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise TableStateError("state", f"not JSON: {e}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> "Table":
        from .schema import validate_state

        validate_state(data)
        t = Table(data["code"], data["dealer"], data["deal"], data["detect"])
        if not isinstance(t, cls):
            raise TableStateError("state.code", f"{data['code']} is played at a {t.variant} table, not {cls.__name__}")
        if data["variant"] != t.variant:
            raise TableStateError("state.variant", f"{data['code']} is played at a {t.variant} table, the state says "
                                  f"{data['variant']!r}")
        t._replay(data["history"], "state.history")
        mine = t._st.to_dict()
        for k in mine:
            if mine[k] != data.get(k):
                raise TableStateError(f"state.{k}", f"the history gives {_short(mine[k])}, the state says "
                                      f"{_short(data.get(k))}")
        return t

    def __repr__(self) -> str:
        st = self._st
        args = [repr(self.code.id), f"dealer={st.dealer!r}"]
        if st.deal is not None:
            args.append(f"deal={st.deal!r}")
        if not st.detect:
            args.append("detect=False")
        if st.history:
            args.append("history=" + repr([{k: v for k, v in h.to_dict().items()
                                            if k in ("action", "seat") or k in ACTION_ARGS[h.action]}
                                           for h in map(entry_of, st.history)]))
        return f"Table({', '.join(args)})"

    # ------------------------------------------------------------------ consistency

    def check(self) -> None:
        """Raise :class:`~bridgelaw.errors.TableStateError` unless the state is consistent: every card once,
        a hand 13 less what it played, four cards a trick won by one of them, a known next actor."""
        st = self._st

        def bad(where: str, message: str) -> None:
            raise TableStateError(f"state.{where}", message)

        if st.phase not in Phase._value2member_map_:
            bad("phase", f"unknown phase {st.phase!r}")
        if len(st.current) > 3:
            bad("current", f"{len(st.current)} cards in a trick not yet quitted")
        if st.hands is not None:
            played = [c for t in st.tricks for _, c in t.cards] + [c for _, c in st.current]
            held = [c for h in st.hands.values() for c in h]
            if sorted(played + held) != sorted(_CARD_TEXTS) or len(set(played + held)) != 52:
                bad("hands", "the cards held and played are not the 52 cards of the deal, each once")
            for seat, hand in st.hands.items():  # a hand is 13 less the cards it has played
                gone = sum(1 for t in st.tricks for w, _ in t.cards if w == seat) + \
                    sum(1 for w, _ in st.current if w == seat)
                if len(hand) != 13 - gone:
                    bad(f"hands.{seat}", f"{len(hand)} cards held, {gone} played")
            for seat, cards in st.exposed.items():  # an exposed card lies face up, still his
                if not set(cards) <= set(st.hands[seat]):
                    bad(f"exposed.{seat}", f"exposed cards {cards} not all in his hand")
        for i, t in enumerate(st.tricks):  # four cards, one from each hand
            if len({w for w, _ in t.cards}) != 4 or t.winner not in {w for w, _ in t.cards}:
                bad(f"tricks[{i}]", "a trick is four cards, one from each hand, won by one of them")
        if len({w for w, _ in st.current}) != len(st.current):
            bad("current", "two cards from one hand in the trick")
        for i, c in enumerate(st.calls):
            if c.seat not in _LHO or not self._call_ok(c.call):
                bad(f"calls[{i}]", f"not a call: {c.seat} {c.call}")
        if not all(x.seat in _LHO for x in st.obligations) or not set(st.bars) <= set(_LHO):
            bad("penalties_in_force", "a penalty binding no seat")
        if st.phase == "play" and not (st.declarer and st.leader):
            bad("phase", "the play without a declarer and a leader")
        if st.pending is not None and not st.pending.kind:
            bad("pending", "a ruling without an irregularity")

    def _call_ok(self, text: str) -> bool:
        return text in _CALL_TEXTS


_VARIANTS.append(Table)


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


def _entry_from(raw: Any, where: str) -> HistoryEntry:
    """An action given as data, checked: a known action, its own arguments, a seat where one acts."""
    if not isinstance(raw, Mapping):
        raise MalformedActionError(where, f"expected an action such as {{\"action\": \"call\", \"seat\": \"S\", "
                                   f"\"call\": \"1H\"}}, got {raw!r}")
    action = raw.get("action")
    if action not in ACTION_ARGS:
        from ..errors import did_you_mean

        raise MalformedActionError(f"{where}.action", f"unknown action {action!r}; actions: {', '.join(ACTION_ARGS)}"
                                   + (did_you_mean(action, ACTION_ARGS) if isinstance(action, str) else ""))
    known = {"action", "seat", *ACTION_ARGS[action], "legal", "irregularity", "offender", "options", "laws", "remedy",
             "due"}
    for k in raw:
        if k not in known:
            raise MalformedActionError(f"{where}.{k}", f"{action} takes no {k!r}; it takes "
                                       + ", ".join(["seat", *ACTION_ARGS[action]]))
    try:
        return HistoryEntry.from_dict(raw)
    except (KeyError, TypeError, ValueError) as e:
        raise MalformedActionError(where, f"not an action: {e}") from None


def _short(v: Any) -> str:
    text = json.dumps(v, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."
