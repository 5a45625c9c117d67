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
import warnings
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping, Sequence

from ..dealresult import _original_one_spade, four_handed_result
from ..errors import (
    IllegalActionError, InputError, MalformedActionError, OutOfTurnError, RulingPendingError, TableStateError,
)
from ..loader import EFFECT_FIELDS, Code, load_code
from ..scoring import Revoke as _ScoredRevoke
from ..scoring import score as _score
from ..scoring import score_dealt as _score_dealt
from ..scoring.deal import remember
from ..values import Card, EffectKind, Option, Ruling, Seat
from . import remedies
from .auction import Auction
from .base import (
    _CALL_TEXTS, _CARD_TEXTS, _DEAL_ORDER, _LHO, _PARTNER, _SEAT, _SIDE, _VARIANTS, DETECTED, Answer, Outcome,
    PlayedTrick, _plain_facts, _rotation, answer_of, outcome_of,
)
from .model import Rules, rules_of
from .persist import Persistence
from .play import Play
from .rulings import named, rule_cached, shown_facts
from .state import (
    OVER, CallRecord, HistoryEntry, Obligation, Pending, Phase, Revoke, RulingRecord, TableState, entry_of, legacy_view,
    rulings_of,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..scoring import Contract, Score

__all__ = ["Table", "Answer", "Outcome", "PlayedTrick", "find_variant", "DETECTED"]

_PHASES = {p.value: p for p in Phase}
_BAR_CALLS = frozenset(getattr(EFFECT_FIELDS[EffectKind.BAR]["calls"][0], "choices"))  # the bar effect's `calls`
_CONTRACTS: dict[tuple[str, str], tuple[Code, "Contract"]] = {}  # (code, contract text) -> its Contract
_VARIANT_OF: dict[str, tuple[Code, type["Table"]]] = {}  # code id -> (the code, the table class find_variant gives)
# (offender, choice) -> the revoke as the scorer reads it (immutable: made once; a code's choices are few)
_SCORED_REVOKES: dict[tuple[str, str | None], _ScoredRevoke] = {}


def _bar_kinds() -> frozenset[str]:
    """The irregularity kinds of the catalogue: a bar comes from the ruling on one of them."""
    from ..catalogue import load_kinds

    return frozenset(load_kinds()[1])


def find_variant(code: Code) -> type["Table"]:
    """The table class for ``code``, chosen from its data (``game`` and ``players`` in code.yaml), as
    python-chess's ``find_variant`` chooses a board."""
    for cls in _VARIANTS:
        if cls.matches(code):
            return cls
    raise InputError("code", f"{code.id} is a {code.players}-handed {code.game} code, and no table plays one "
                     "(tables: " + ", ".join(f"{c.variant} ({c.players}-handed {c.game})" for c in _VARIANTS) + ")")


# each suit's cards by rank, the card's text kept once (spades, hearts, diamonds, clubs: a PBN hand's order)
_CARD_OF = tuple({r: s + r for r in "23456789TJQKA"} for s in "SHDC")


def _hands_of(deal: str) -> dict[str, list[str]]:
    """A PBN deal as card texts by seat. The common well-formed case is read here; anything else goes to
    :func:`bridgelaw.scoring.parse_deal`, which reads every spelling and names what is wrong."""
    first, _, rest = deal.partition(":")
    order = _DEAL_ORDER.get(first)
    parts = rest.split()
    if order is not None and len(parts) == 4:
        hands: dict[str, list[str]] = {}
        dealt: dict[Seat, tuple[str, str, str, str]] = {}
        for seat, hand in zip(order, parts):
            suits = hand.split(".")
            try:  # each card the one text of it (_CARD_OF): no new string a card
                cards = [held[r] for held, ranks in zip(_CARD_OF, suits) for r in ranks]
            except KeyError:
                break  # not a rank as written
            if len(cards) != 13 or len(suits) != 4:
                break
            hands[seat] = cards
            dealt[_SEAT[seat]] = (suits[0], suits[1], suits[2], suits[3])
        else:
            h = list(hands.values())
            if len({*h[0], *h[1], *h[2], *h[3]}) == 52:  # 52 cards of the deck (each read from _CARD_OF), each once
                remember(deal, dealt)  # read and checked: the scorer need not read it again
                return {s: hands[s] for s in "NESW"}
    from ..scoring import parse_deal

    parsed = parse_deal(deal)
    return {s: [c.text for c in parsed[_SEAT[s]]] for s in "NESW"}


class Table(Auction, Play, Persistence):
    """One deal at one table under one code: ``Table("wcny-1913", dealer="S", deal="N:...")``.

    ``detect=False`` records calls and cards without refereeing them (the benchmark's baseline);
    ``history`` replays a list of actions (as :attr:`history` gives them, or their JSON) onto the new table.
    """

    variant: ClassVar[str] = "auction"
    game: ClassVar[str] = "auction"
    players: ClassVar[int] = 4

    # call() makes the common call inline, standing for these methods: a variant that changes any of them
    # (straight bridge's declarations, three-hand's turn) has every call go through them
    _QUICK_CALL_PARTS: ClassVar[tuple[str, ...]] = ("_call", "_call_text", "_admit", "_refuse_seat", "_next_caller",
                                                    "_last_bid", "_higher", "_record_call", "_in_turn_irregularity")
    _quick_calls: ClassVar[bool] = True

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _VARIANTS.insert(0, cls)  # the more particular tables first; the core table last
        cls._quick_calls = all(getattr(cls, m) is getattr(Table, m) for m in Table._QUICK_CALL_PARTS)

    @classmethod
    def matches(cls, code: Code) -> bool:
        """Does this table play ``code``?"""
        return code.game == cls.game and code.players == cls.players

    def __new__(cls, code: str | Code = "wcny-1913", dealer: str | Seat = "S", deal: str | None = None,
                detect: bool = True, history: Iterable[Any] | None = None) -> "Table":
        if cls is Table:
            c = code if isinstance(code, Code) else load_code(code)
            hit = _VARIANT_OF.get(c.id)
            if hit is None or hit[0] is not c:
                hit = _VARIANT_OF[c.id] = (c, find_variant(c))
            cls = hit[1]
        return object.__new__(cls)

    def __init__(self, code: str | Code, dealer: str | Seat = "S", deal: str | None = None,
                 detect: bool = True, history: Iterable[Any] | None = None) -> None:
        c = code if isinstance(code, Code) else load_code(code)
        if not self.matches(c):
            raise InputError("code", f"{c.id} is a {c.players}-handed {c.game} code; {type(self).__name__} plays "
                             f"{self.players}-handed {self.game}: build Table({c.id!r}, ...)")
        self.code: Code = c
        self.rules: Rules = rules_of(c)
        d = dealer if type(dealer) is str and dealer in _LHO else Seat.parse(dealer, "dealer").value
        if deal is not None and not isinstance(deal, str):
            raise InputError("deal", f"expected a PBN deal such as 'N:AKQ2.K53.J84.A92 ...', got {deal!r}")
        if not isinstance(detect, bool):
            raise InputError("detect", f"expected true or false, got {detect!r}")
        self._st = TableState(c.id, self.variant, d, deal, detect)
        if deal is not None:
            self._st.hands = _hands_of(deal)
        self._legacy: tuple[Any, ...] | None = None
        self._tc: tuple[str | None, str | None] = (None, None)  # (contract, its trump), remembered
        self._contract: tuple[str, Contract] | None = None   # (contract text, the Contract), remembered
        self._setup()
        if history is not None:
            self._replay(history, "history")

    def _setup(self) -> None:
        """A variant's own part of a new table's state."""

    # ------------------------------------------------------------------ reading the table

    @property
    def state(self) -> dict[str, Any]:
        """Deprecated: the state in its old dict shape (a copy; use the properties, or :meth:`to_json`)."""
        warnings.warn("Table.state is deprecated: read the table's properties (turn, phase, hand(), tricks, "
                      "calls, ...) or to_dict()", DeprecationWarning, stacklevel=2)
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
        return _PHASES[self._st.phase]

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
        if st.phase == "done" and st.declarer:
            declarer = st.declarer
            winners = [t.winner for t in st.tricks]
            won = winners.count(declarer) + winners.count(_PARTNER[declarer])
            return outcome_of(_PHASES[st.phase], self._contract_text(), st.doubled, _SEAT[declarer], won,
                              self._scored(won))
        return outcome_of(_PHASES[st.phase], self._contract_text(), st.doubled, None, None, _score(self.result()))

    def _scored(self, won: int) -> "Score":
        """The deal played out, scored from what the table has checked itself (the declarer, the contract as
        doubled, the tricks his side won, the deal it dealt, the dealer's original one spade, the revokes
        established with their penalty: :func:`bridgelaw.scoring.score_dealt`) — the score of :meth:`result`'s
        sheet, which is scored instead where the deal carries penalty points (its sheet's checks read them)."""
        st = self._st
        revokes: list[_ScoredRevoke] | tuple[()] = ()
        if st.revokes:
            revokes = []
            for r in st.revokes:
                if r.established and r.penalized is not False:
                    named, choice = r.seat, r.choice or None
                    if choice is None and st.pending is not None and st.pending.kind == "revoke" and \
                            self._ruling_of(st.pending).options:  # its penalty is still to be chosen
                        raise RulingPendingError("pending", f"the ruling on {named}'s revoke waits: its penalty is "
                                                 "chosen when it is applied (one of " + ", ".join(
                                                     o.id for o in self._ruling_of(st.pending).options) + "); "
                                                 "apply it, then read the outcome")
                    got = _SCORED_REVOKES.get((named, choice)) if type(named) is str and (
                        choice is None or type(choice) is str and len(choice) <= 40) else None
                    if got is None:
                        seat = _SEAT.get(named) if type(named) is str else None
                        if seat is None or choice is not None and (type(choice) is not str or len(choice) > 40):
                            return _score(self.result())  # (a state read from JSON: the sheet's checks name it)
                        got = _ScoredRevoke(seat, choice)
                        if len(_SCORED_REVOKES) < 256:
                            _SCORED_REVOKES[(named, choice)] = got
                    revokes.append(got)
        if not st.scores or all(x.kind == "revoke" for x in st.scores):
            got = _score_dealt(self.code, st.declarer, self._contract_text(), won, st.deal,  # type: ignore[arg-type]
                               _original_one_spade(self.code, st), tuple(revokes))
            if got is not None:
                return got
        return _score(self.result())

    @property
    def contract(self) -> "Contract | None":
        """The contract as doubled (``Contract('4SX')``; straight bridge ``Contract('H x2')``), once the
        auction has made one; None before."""
        text = self._contract_text()
        if text is None:
            return None
        hit = self._contract
        if hit is None or hit[0] != text:
            known = _CONTRACTS.get((self.code.id, text))
            if known is None or known[0] is not self.code:
                from ..scoring import parse_contract

                known = (self.code, parse_contract(self.code, text))
                if len(_CONTRACTS) < 4096:
                    _CONTRACTS[(self.code.id, text)] = known
            hit = self._contract = (text, known[1])
        return hit[1]

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
    def bar_calls(self) -> dict[str, str]:
        """Each barred seat: the calls his bar reaches (the bar effect's ``calls``: ``bids``, a code that sets
        doubling apart from declaring; ``bids_and_doubles``; ``all``, every call but a pass)."""
        return dict(self._st.bar_calls)

    @property
    def bar_from(self) -> dict[str, str]:
        """Each barred seat: the irregularity whose ruling barred him (``insufficient_bid``,
        ``exposed_card_in_auction``, ...), which a ruling on a call he makes while barred may turn on."""
        return dict(self._st.bar_from)

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
        return tuple(Revoke(r.seat, r.trick, r.established, r.choice, r.penalized) for r in self._st.revokes)

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

    def rulings(self) -> list[RulingRecord]:
        """Every ruling made, as :attr:`history` tells it: the entry that raised it, the facts answered, and the
        ``apply`` that carried it out (and who chose the remedy), in order."""
        return rulings_of(self._st.history)

    @property
    def pending_ruling(self) -> Ruling | None:
        """The ruling that waits to be applied (or answered), if any."""
        return self.pending()

    def pending(self) -> Ruling | None:
        p = self._st.pending
        return self._ruling_of(p) if p else None

    @property
    def pending_revoke(self) -> Revoke | None:
        """The revoke the waiting ruling is about — established (its penalty), or being corrected in time —
        as :attr:`revokes` holds it; None when no ruling on a revoke waits."""
        p = self._st.pending
        if p is None or p.kind != "revoke":
            return None
        trick = p.revoke if p.revoke is not None else p.correction
        rv = next((r for r in self._st.revokes if r.seat == p.offender and r.trick == trick), None)
        return Revoke(rv.seat, rv.trick, rv.established, rv.choice, rv.penalized) if rv is not None else None

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
              call: tuple[str, str] | None, card: tuple[str, str] | None, legal: bool = False, note: str = "",
              revoke: int | None = None) -> Answer:
        """The ruling waits (``revoke``: the trick of the established revoke it is about); the answer says so
        (``legal``: the action stands and the ruling is due, as an established revoke's)."""
        self._st.pending = Pending(r.irregularity, offender, facts, incident, call, card, revoke=revoke, ruling=r)
        return answer_of(legal, r.irregularity, shown_facts(r), r, note)

    def _due(self) -> Answer:
        """A ruling deferred until the declarer was known, now due (the call was legal; apply the ruling)."""
        p = self._st.pending
        if p is None:  # pragma: no cover - due only while a ruling is pending
            raise TableStateError("pending", "no ruling deferred until the declarer was known")
        r = self._ruling_of(p)
        return answer_of(True, r.irregularity, p.facts, r, "a ruling deferred until the declarer was known "
                         "is now due: apply it before the play")

    def _deal_facts(self) -> dict[str, Any]:
        """What the table knows of the deal that a revoke's ruling may turn on: the deal is still being played
        (no score recorded)."""
        return {"scores_recorded": False}

    def _auction_record(self, extra: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
        """The calls so far (and ``extra`` (seat, call) pairs) as an incident's auction; with ``callers``
        where a call out of turn allowed to stand took the auction out of its rotation."""
        pairs = [(c.seat, c.call) for c in self._st.calls]
        if extra:
            pairs += extra
        out: dict[str, Any] = {"auction": [c for _, c in pairs]}
        order = _rotation(self._st.dealer, self.code.players)
        n = len(order)
        for i, (w, _) in enumerate(pairs):
            if w != order[i % n]:
                out["callers"] = [w for w, _ in pairs]
                break
        return out

    def _report_extra(self) -> dict[str, Any]:
        """What a reported irregularity is ruled with besides its facts: the auction so far."""
        st = self._st
        return self._auction_record() if st.phase == "auction" and st.calls else {}

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
        self._refuse_before_its_phase(kind)
        self._refuse_what_the_table_detects(kind, s)
        try:
            ans = self._ruled(kind, s, dict(facts), **self._report_extra())
        except TableStateError:
            raise
        except InputError as e:
            raise MalformedActionError(e.field, e.message) from None
        self._log("report", s, {"kind": kind, "facts": dict(facts)}, ans)
        return ans

    def _refuse_before_its_phase(self, kind: str) -> None:
        """An irregularity of the play (its phase in the catalogue) cannot have happened while the auction is on:
        the declarer, the dummy and the leader it is ruled by are not yet known."""
        from ..catalogue import load_kinds
        from ..wording import kind_name

        k = load_kinds()[1].get(kind)
        if k is not None and k.phase == "play" and self._st.phase == "auction":
            raise OutOfTurnError("kind", f"{kind_name(kind)} is an irregularity of the play, and the auction "
                                         "is not over (report it when the play has begun)")

    def _refuse_what_the_table_detects(self, kind: str, seat: str) -> None:
        """An irregularity the table detects itself (:data:`DETECTED`) is ruled when the call or card is made:
        reported besides, it would be ruled on a call or card the table saw to be proper (a revoke by a player
        who followed suit, a lead out of turn by the leader). Only a revoke, where the table does not know the
        hands, is the caller's to report."""
        from ..wording import kind_name

        st = self._st
        if kind == "revoke" and not st.tricks and not st.current:
            raise IllegalActionError("kind", f"a revoke by {seat}: no card has been played yet, so no one can have "
                                             "failed to follow suit")
        if kind not in DETECTED or not st.detect or kind == "revoke" and st.deal is None:
            return

        raise IllegalActionError("kind", f"{kind_name(kind)} by {seat}: the table detects it itself from the calls "
                                 "and cards it is given" + (" and the hands it knows" if kind == "revoke" else "")
                                 + ", and found none; make the call or play the card (call(), play(), expose(), "
                                 "claim(), play_together()) and the table rules it — report() is for what the "
                                 "table cannot see")

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
            refused = e.field.removeprefix("facts.")  # a fact the table saw, refused by the referee: said as seen
            self._refuse_what_the_table_saw(p, {refused: facts[refused]} if refused in facts else {}, None)
            raise MalformedActionError(e.field, e.message) from None
        self._refuse_what_the_table_saw(p, facts, r)
        p.incident, p.ruling = inc, r
        self._st.history.append(HistoryEntry("answer", None, {"facts": dict(facts)}))
        return r

    def _refuse_what_the_table_saw(self, p: Pending, facts: Mapping[str, Any], r: Ruling | None) -> None:
        """``answer()`` gives the facts the table cannot see; a fact it found itself (the card led, the trick,
        who should have led) or one the referee derives from the table's own auction is not the caller's to
        change: an answer that says otherwise is refused, naming what the table saw. A fact the catalogue
        presumes (``default:``: no one played to the lead, no adversary called over the bid) stays answerable:
        it is what happened after the table stopped, which it did not see."""
        from ..catalogue import load_kinds

        last = next((h for h in reversed(self._st.history) if h.action != "answer"), None)
        seen = set() if last is not None and last.action == "report" else set(p.facts)  # a report's facts are given
        kind = load_kinds()[1].get(p.kind)
        if kind is not None:
            if "auction" in p.incident:
                seen.update(n for n, spec in kind.facts.items() if spec.derived)
            # what happened after the table stopped at the offence (a card played to the lead, a call over the
            # bid) is a presumption of the catalogue's, which an answer may overturn
            seen.difference_update(n for n, spec in kind.facts.items() if spec.default is not None)
        if not seen.intersection(facts):
            return
        before = self._ruling_of(p).to_dict()["facts"]
        after = r.to_dict()["facts"] if r is not None else {}  # (None: the referee refused the answer given)
        for name in facts:
            if name in seen and name in before and after.get(name) != before[name]:
                raise MalformedActionError(
                    f"facts.{name}", f"{json.dumps(facts[name])}: the table saw {name} = {json.dumps(before[name])}; "
                    "answer() gives only the facts the table cannot see (the ruling's questions, or what happened "
                    "away from the table); to change what was played or called, pop() it and act again")

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

    def result(self, tricks: int | None = None) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``): see :mod:`bridgelaw.dealresult`.
        ``tricks``: the declarer's side's tricks as stated, for a play that stopped before its end (a claim
        conceded); the tricks played must leave room for them."""
        return four_handed_result(self.code, self._st, self._contract_text(), tricks)

    def score(self, tricks: int | None = None) -> "Score":
        """The deal scored (``tricks``: as :meth:`result`)."""
        return _score(self.result(tricks))

    # ------------------------------------------------------------------ history, undo, copy

    def _entry(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> HistoryEntry:
        r = ans.ruling
        if r is None:
            return HistoryEntry(action, seat, args, ans.legal)
        p = self._st.pending
        options, laws = named(r)
        return HistoryEntry(action, seat, args, ans.legal, r.irregularity, p.offender if p else None, options, laws)

    def _log(self, action: str, seat: str | None, args: dict[str, Any], ans: Answer) -> None:
        self._st.history.append(self._entry(action, seat, args, ans))

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
        if set(st.bar_calls) != set(st.bars) or not set(st.bar_calls.values()) <= _BAR_CALLS:
            bad("bar_calls", f"each barred seat, and no other, with the calls he is barred from "
                             f"({', '.join(sorted(_BAR_CALLS))})")
        if set(st.bar_from) != set(st.bars) or not set(st.bar_from.values()) <= _bar_kinds():
            bad("bar_from", "each barred seat, and no other, with the irregularity whose ruling barred him")
        if st.phase == "play" and not (st.declarer and st.leader):
            bad("phase", "the play without a declarer and a leader")
        if st.pending is not None and not st.pending.kind:
            bad("pending", "a ruling without an irregularity")

    def _call_ok(self, text: str) -> bool:
        return text in _CALL_TEXTS


_VARIANTS.append(Table)

