"""A table that referees itself: what a game engine embeds.

``Table(code, dealer=..., deal=...)`` takes calls and cards, each with the seat
that made it, and answers each with :class:`Answer`: legal, or the
irregularity detected (kind and facts) with its ruling. While a ruling waits,
the table takes nothing else: :meth:`Table.apply` carries out the chosen
option (or the automatic effects) and moves the state on. At the end of play
the deal is scored by :mod:`bridgelaw.scoring`. The state is plain data and
round-trips through JSON exactly (:meth:`Table.to_json`, :meth:`Table.from_json`).

Auction codes: calls are bids (``1S``), ``P``, ``X``, ``XX``; the auction ends
after three passes following a bid; the declarer is the first of the
partnership to name the final strain. Straight bridge: the dealer names the
trump (``H``, ``NT``) or passes (``P``) and his partner must name it; then the
eldest hand and his partner may double (``X``) or not (``P``: "May I lead?"
and "Yes"), and the doubling goes on by turns (``XX`` … ``P``: satisfied)
while a trick is worth no more than the code's limit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import InputError
from .facts import callers, higher, other_players, seven_call, three_hand_players
from .loader import Code, load_code
from .dealresult import deal_result
from .obligations import RANK_INDEX, binds, broken, obliged, trick_winner
from .referee import rule
from .scoring import Score, parse_deal, score
from .values import _SEAT_BY_TEXT, MAX_CALL_LEVEL, Call, CallKind, Card, Option, Ruling, Seat

__all__ = ["Table", "Answer"]


@dataclass(frozen=True)
class Answer:
    """What the table says to one call or card."""

    legal: bool
    kind: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    ruling: Ruling | None = None
    note: str = ""

    def __repr__(self) -> str:
        if self.legal:
            return "Answer(legal=True)" if self.ruling is None else f"Answer(legal=True, kind={self.kind!r}, ruling due)"
        return f"Answer(legal=False, kind={self.kind!r}, facts={dict(self.facts)!r})"


_SUIT_ORDER = "CDHS"
_LEGAL = Answer(True)
_CARD_TEXTS = frozenset(s + r for s in "SHDC" for r in "23456789TJQKA")
_FULL_DECK = _CARD_TEXTS
_LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
_HIGHER: dict[tuple[str, str, str], bool] = {}  # (code, bid, than) -> is bid higher
_BID_TEXT = re.compile(r"^(\d+)(C|D|H|S|R|NT|N)$")
_TRUMP_OF: dict[tuple[bool, str], str] = {}  # (straight, contract) -> trump suit, "" at no trump
_DEAL_ORDER = {"N": "NESW", "E": "ESWN", "S": "SWNE", "W": "WNES"}


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
            if _FULL_DECK.issubset([*h[0], *h[1], *h[2], *h[3]]):  # 52 cards, each of the deck once
                return hands
    return {s.value: [c.text for c in cards] for s, cards in parse_deal(deal).items()}


class Table:
    """One deal at one table under one code."""

    def __init__(self, code: str | Code, dealer: str | Seat = "S", deal: str | None = None,
                 detect: bool = True) -> None:
        self.code = code if isinstance(code, Code) else load_code(code)
        self.detect = detect  # False: record calls and cards without refereeing (the benchmark's baseline)
        dealer_seat = Seat.parse(dealer, "dealer")
        self.three = self.code.players == 3
        self.straight = self.code.game == "straight-bridge"
        self.state: dict[str, Any] = {
            "code": self.code.id, "dealer": dealer_seat.value, "deal": deal,
            "hands": None, "phase": "auction",
            "calls": [],            # [seat, call]
            "barred": {},           # seat -> until
            "contract": None, "doubled": 0, "declarer": None, "maker": None,
            "straight": {"step": "declare", "last_doubler": None, "passes": 0},
            "tricks": [],           # completed: {"leader", "cards": [[seat, card]], "winner"}
            "current": [],          # [[seat, card]]
            "leader": None,
            "exposed": {},          # seat -> [card]
            "constraints": [],      # {"kind": call_lead|forbid_lead|play_highest|..., "seat", "suit"}
            "revokes": [],          # {"seat", "trick", "established", "choice"}
            "penalties": [],        # {"side", "column", "points", "law"}
            "pending": None,        # {"kind", "facts", "incident", "ruling"}
            "log": [],
        }
        if self.three:
            # T3, note 23: the dummy packet lies opposite the dealer; T8: after the final declaration the
            # table is reseated (``seating``: position -> the player who sits there, or "dummy")
            self.state["dummy_hand"] = dealer_seat.partner.value
            self.state["seating"] = None
        if deal is not None:
            hands = _hands_of(deal)
            self.state["hands"] = hands
            self.state["original"] = {s: h[:] for s, h in hands.items()}

    # ------------------------------------------------------------------ helpers

    @property
    def dealer(self) -> Seat:
        return Seat(self.state["dealer"])


    def _calls(self) -> tuple[Call, ...]:
        return tuple(Call(c) for _, c in self.state["calls"])

    def next_caller(self) -> Seat:
        """Whose turn it is to call (straight bridge: to declare, or to double or not)."""
        if self.straight:
            step = self.state["straight"]
            if step["step"] == "declare":
                return self.dealer
            if step["step"] == "partner":
                return self.dealer.partner
            return Seat(step.get("turn") or self.dealer.lho.value)
        calls = self.state["calls"]
        if not calls:
            return self.dealer
        if self.three:
            return other_players(self.dealer, Seat(calls[-1][0]))[0]
        return Seat(calls[-1][0]).lho

    def _adverse(self, a: Seat, b: Seat) -> bool:
        """Adversaries in the auction: the other partnership; in three-hand every other player (T1, T4)."""
        return a is not b if self.three else a.side is not b.side

    def seating(self) -> dict[str, str]:
        """Three-hand, after the final declaration: position -> the player sitting there (his seat in the
        auction) or "dummy" (T8: the adversaries sit opposite each other, the dummy opposite the declarer).
        Four-handed, and before the final declaration: each seat its own player."""
        if self.three and self.state.get("seating"):
            return dict(self.state["seating"])
        return {s.value: s.value for s in Seat}

    def _deal_facts(self) -> dict[str, Any]:
        """What the table knows of the deal that a revoke's ruling may turn on: the deal is still being played
        (no score recorded), and in straight bridge what a trick is worth as doubled."""
        facts: dict[str, Any] = {"scores_recorded": False}
        if self.straight and self.state["contract"]:
            value = int(self.code.params["trick_values"][self.state["contract"]])
            per_trick = value * self.state["doubled"]
            limit = self.code.params.get("doubling_limit")
            if isinstance(limit, int) and self.state["doubled"] > 1 and per_trick > limit:
                per_trick = max(limit, value)  # as the scorer counts it
            facts["trick_value"] = per_trick
        return facts

    def _auction_record(self, extra: list[list[str]] = ()) -> dict[str, Any]:  # type: ignore[assignment]
        """The calls so far (and ``extra`` [seat, call] pairs) as an incident's auction; with ``callers``
        where a call out of turn allowed to stand took the auction out of its rotation."""
        pairs = self.state["calls"] + list(extra)
        out: dict[str, Any] = {"auction": [c for _, c in pairs]}
        order = callers(self.dealer, self.code.players)
        if any(w != order[i % len(order)].value for i, (w, _) in enumerate(pairs)):
            out["callers"] = [w for w, _ in pairs]
        return out

    def _ruled(self, kind: str, offender: Seat, facts: dict[str, Any], **extra: Any) -> Answer:
        incident: dict[str, Any] = {"code": self.code.id, "irregularity": kind, "dealer": self.state["dealer"],
                                    "offender": offender.value, "facts": facts, **extra}
        if self.state["declarer"] and "declarer" not in extra and "auction" not in extra:
            incident["declarer"] = self.state["declarer"]
        r = rule(incident)
        self.state["pending"] = {"kind": r.irregularity, "facts": facts, "incident": incident,
                                 "offender": offender.value}
        self.state["log"].append({"irregularity": r.irregularity, "offender": offender.value})
        shown = {k: v for k, v in r.to_dict()["facts"].items() if k not in ("dealer", "eldest", "offender")}
        return Answer(False, r.irregularity, shown, r)

    def answer(self, **facts: Any) -> Ruling:
        """Answer the pending ruling's questions (facts the table cannot see); returns the ruling anew."""
        p = self.state["pending"]
        if not p:
            raise InputError("answer", "no ruling is waiting")
        p["incident"]["facts"] = {**p["incident"].get("facts", {}), **facts}
        return rule(p["incident"])

    def pending(self) -> Ruling | None:
        p = self.state["pending"]
        return rule(p["incident"]) if p else None

    def _refuse_while_pending(self) -> None:
        if self.state["pending"]:
            raise InputError("pending", f"a ruling on {self.state['pending']['kind']} waits: apply an option first")

    # ------------------------------------------------------------------ the auction

    def call(self, seat: str | Seat, call: str | Call) -> Answer:
        """A call (auction) or a declaration (straight bridge) by ``seat``."""
        st = self.state
        if st["pending"]:
            self._refuse_while_pending()
        if st["phase"] != "auction":
            raise InputError("call", f"the auction is over (phase {st['phase']})")
        s = _SEAT_BY_TEXT.get(seat) if type(seat) is str else None  # type: ignore[call-overload]
        if s is None:
            s = Seat.parse(seat, "seat")
        if self.three and s._value_ == st["dummy_hand"]:
            raise InputError("seat", f"{s.value} is the dummy packet in three-hand (T3): no player sits there")
        if self.straight:
            return self._straight_call(s, call)
        if self.detect and st["calls"] and st["calls"][-1][0] == s._value_:
            raise InputError("seat", f"{s.value} has just called ({st['calls'][-1][1]}): no player calls twice "
                             "running; a player who would alter his call changes it (report change_of_call)")
        if isinstance(call, str) and self.detect and call[:1].isdigit():
            bid = _BID_TEXT.match(call.strip().upper())  # a bid above the code's highest (law 50: seven)
            if bid and int(bid.group(1)) > int(self.code.params.get("max_level", MAX_CALL_LEVEL)):
                return self._over_seven(s, bid.group(1), bid.group(2))
        c = call if isinstance(call, Call) else Call(call, "call")
        if c.strain is not None and c.strain._value_ not in self.code.params["trick_values"]:
            raise InputError("call", f"{self.code.id} has no {c.strain._value_} declaration (its strains: "
                             + ", ".join(self.code.params["trick_values"]) + ")")
        if not self.detect:
            self._record_call(s, c)
            return Answer(True)
        calls = st["calls"]
        turn = self.next_caller() if self.three or not calls else _SEAT_BY_TEXT[_LHO[calls[-1][0]]]
        if s is not turn:
            kind = "pass_out_of_turn" if c.kind is CallKind.PASS else "call_out_of_turn"
            facts: dict[str, Any] = {} if kind == "pass_out_of_turn" else {"call": c.text}
            if self.three and kind == "call_out_of_turn":
                facts["succeeding_player_called"] = False  # detected at once: nobody has called over it
            self.state["pending_call"] = [s.value, c.text]
            return self._ruled(kind, s, facts, **self._auction_record())
        if not self.state["calls"] and c.kind is not CallKind.BID and self.code.params.get("dealer_must_declare") \
                and not st["barred"].get(s.value):  # a dealer barred from bidding (law 65) can only pass
            law = self.code.params.law("dealer_must_declare")
            raise InputError("call", f"the dealer must declare to win at least one odd trick (law {law}): "
                             f"{c.text} is not open to him; bid, e.g. 1S")
        if st["barred"] and st["barred"].get(s.value) and c.kind is not CallKind.PASS:
            if st["barred"][s.value] == "overbid_or_doubled":  # law 49: his pass out of turn holds him
                raise InputError("call", f"{s.value} passed out of turn: he may re-enter the bidding only when the "
                                 "declaration he passed is overbid or doubled; pass")
            return self._in_turn_irregularity("call_while_barred", s, c)
        if c.kind is CallKind.BID:
            last = next((x for _, x in reversed(calls) if x[0].isdigit()), None)
            if last is not None and not self._higher(c.text, last):
                return self._in_turn_irregularity("insufficient_bid", s, c)
        elif c.kind is CallKind.DOUBLE or c.kind is CallKind.REDOUBLE:
            problem = self._double_problem(s, c)
            if problem:
                return self._in_turn_irregularity(problem, s, c)
        self._record_call(s, c)
        return self._due() if self.state["pending"] else _LEGAL

    def _over_seven(self, s: Seat, level: str, strain: str) -> Answer:
        """A bid of more than seven: an impossible declaration (no such call can stand; law 50 makes it
        seven in the suit named, where the code says so)."""
        st = self.state
        if s is not self.next_caller():
            raise InputError("call", f"{level}{strain} is a bid of more than seven, and out of turn: rule the call "
                             "out of turn first (report it with the call it would have been)")
        strain = "NT" if strain in ("N", "NT") else strain
        if strain not in self.code.params["trick_values"]:
            raise InputError("call", f"{self.code.id} has no {strain} declaration")
        bids = [(_SEAT_BY_TEXT[w], Call(x)) for w, x in st["calls"] if x[0].isdigit()]
        facts: dict[str, Any] = {"seven_call": seven_call(self.code, strain).text}
        if bids:
            facts["previous_bid"] = bids[-1][1].text
        innocent = [c for w, c in bids if self._adverse(w, s)]
        facts["innocent_side_has_bid"] = bool(innocent)
        if innocent:
            facts["innocent_last_bid"] = innocent[-1].text
        if self.three:  # the other two players and their last bids, as the referee reads them from a record
            known: dict[str, Any] = {"offender": s}
            three_hand_players(self.dealer, tuple(c for _, c in bids), "impossible_bid", known,
                               tuple(w for w, _ in bids))
            facts.update({k: getattr(v, "text", getattr(v, "value", v)) for k, v in known.items() if k != "offender"})
        st["pending_call"] = [s.value, f"{level}{strain}"]
        return self._ruled("impossible_bid", s, facts)

    def _higher(self, bid: str, than: str) -> bool:
        """Is ``bid`` higher than ``than`` under this code (remembered: a code has few pairs of bids)?"""
        key = (self.code.id, bid, than)
        hit = _HIGHER.get(key)
        if hit is None:
            hit = _HIGHER[key] = higher(self.code, Call(bid), Call(than))
        return hit

    def _due(self) -> Answer:
        """A ruling deferred until the declarer was known, now due (the call was legal; apply the ruling)."""
        p = self.state["pending"]
        r = rule(p["incident"])
        return Answer(True, r.irregularity, p["facts"], r, note="a ruling deferred until the declarer was known "
                      "is now due: apply it before the play")

    def _double_problem(self, s: Seat, c: Call) -> str | None:
        if c.kind is CallKind.DOUBLE and self.state.get("no_double"):
            last_bid = max((i for i, (_, x) in enumerate(self.state["calls"]) if x[0].isdigit()), default=-1)
            for nd in self.state["no_double"]:
                if (nd["seat"] in (None, s.value)) and (nd["scope"] == "hand" or nd["bid"] == last_bid):
                    raise InputError("call", f"{s.value} may not double " + ("in this hand" if nd["scope"] == "hand"
                                     else "this declaration") + " (a penalty in force)")
        seq = [(Seat(x), Call(y)) for x, y in self.state["calls"]]
        last_bid_i = max((i for i, (_, x) in enumerate(seq) if x.is_bid), default=None)
        if last_bid_i is None:
            return "extra_redouble"
        bidder = seq[last_bid_i][0]
        after = [(who, x) for who, x in seq[last_bid_i + 1:] if x.kind is not CallKind.PASS]
        if self.three:
            # each bids on his own account (T4): a player doubles another's declaration and only the
            # player whose declaration was doubled may redouble; the laws name no penalty otherwise
            if c.kind is CallKind.DOUBLE and bidder is s:
                raise InputError("call", f"{s.value} cannot double his own declaration (three-hand, T4)")
            if c.kind is CallKind.REDOUBLE and after and after[-1][1].kind is CallKind.DOUBLE and bidder is not s:
                raise InputError("call", f"only {bidder.value}, whose declaration was doubled, may redouble "
                                 "(three-hand, T4)")
            if c.kind is CallKind.DOUBLE:
                return "extra_redouble" if after else None
            return None if after and after[-1][1].kind is CallKind.DOUBLE else "extra_redouble"
        if c.kind is CallKind.DOUBLE:
            if bidder.side is s.side:
                return "double_of_partner"
            if after:
                return "extra_redouble"
            return None
        if not after or after[-1][1].kind is not CallKind.DOUBLE:
            return "extra_redouble"
        doubler = after[-1][0]
        if doubler.side is s.side:
            return "redouble_of_partner_double"
        return None

    def _in_turn_irregularity(self, kind: str, s: Seat, c: Call) -> Answer:
        self.state["pending_call"] = [s.value, c.text]
        return self._ruled(kind, s, {}, **self._auction_record([[s.value, c.text]]))

    def _record_call(self, s: Seat, c: Call) -> None:
        st = self.state
        calls = st["calls"]
        calls.append([s._value_, c.text])
        # a bar "until an adverse call" ends when an adversary of the barred player bids or doubles
        if st["barred"] and c.kind in (CallKind.BID, CallKind.DOUBLE):
            for seat, until in list(st["barred"].items()):
                if until == "adverse_call" and self._adverse(Seat(seat), s) or until == "overbid_or_doubled":
                    del st["barred"][seat]
        if c.text != "P":
            return
        passes = 0  # the auction can only end on a pass: count the passes that close it
        for _, x in reversed(calls):
            if x != "P":
                break
            passes += 1
        players = self.code.players
        if passes == len(calls):
            if passes == players:
                st["phase"] = "passed_out"
        elif passes >= players - 1:  # a bid passed by the others: the final declaration
            self._close_auction(calls)

    def _close_auction(self, calls: list[list[str]]) -> None:
        """The last bid is final: doubled or redoubled by what followed it; the declarer is the first of the
        partnership to name its strain (three-hand, T7: the player who made it)."""
        last = max(i for i, (_, x) in enumerate(calls) if x[0].isdigit())
        bidder, final = calls[last]
        after = [x for _, x in calls[last + 1:]]
        doubled = 2 if "XX" in after else 1 if "X" in after else 0
        declarer = bidder
        if not self.three:
            strain, partner = final[1:], _LHO[_LHO[bidder]]
            declarer = next(w for w, x in calls if x[0].isdigit() and x[1:] == strain and w in (bidder, partner))
        self._end_auction(Call(final), doubled, _SEAT_BY_TEXT[declarer])

    def _end_auction(self, contract: Call | None, doubled: int, declarer: Seat | None) -> None:
        if contract is None or declarer is None:  # pragma: no cover - an auction ends on a bid, with its declarer
            raise InputError("auction", "the auction cannot end without a final declaration and its declarer")
        self.state.update(contract=contract.text, doubled=doubled, declarer=declarer.value, phase="play",
                          leader=declarer.lho.value, barred={})
        if self.three:
            self._reseat(declarer)
        if self.state.get("deferred"):
            p = self.state["deferred"].pop(0)
            if not self.state["deferred"]:
                del self.state["deferred"]
            inc = p["incident"]
            inc["declarer"] = declarer.value
            if self.three:  # the offender may have moved (T8): what is left is carried out where he now plays;
                # the auction's incident names him where he called from (no player sits at the dummy packet)
                where = {who: pos for pos, who in self.state["seating"].items()}
                p["offender"] = where.get(inc["offender"], inc["offender"])
            r = rule(inc)
            if r.options or r.questions or any(e.to_dict() not in p["done"] for e in r.effects):
                self.state["pending"] = p  # else the law gave nothing more once the declarer was known

    def _reseat(self, declarer: Seat) -> None:
        """T8: the dummy opposite the declarer, the two adversaries opposite each other. The declarer keeps
        his seat; the player opposite him moves to the dummy packet's place and the dummy hand to his. The
        order of play is the round table's: declarer, the player on his left, dummy, the player on his right."""
        st = self.state
        packet = st["dummy_hand"]
        opposite = declarer.partner.value
        seating = {s.value: s.value for s in Seat}
        seating[packet] = opposite if opposite != packet else "dummy"
        seating[opposite] = "dummy"
        st["seating"] = seating
        if opposite != packet:
            for key in ("hands", "original", "exposed"):
                m = st.get(key)
                if m:
                    a, b = m.get(opposite), m.get(packet)
                    m.pop(opposite, None)
                    m.pop(packet, None)
                    if a is not None:
                        m[packet] = a
                    if b is not None:
                        m[opposite] = b
            for con in st["constraints"]:
                con["seat"] = {opposite: packet, packet: opposite}.get(con["seat"], con["seat"])

    # ------------------------------------------------------------------ straight bridge

    def _straight_call(self, s: Seat, call: str | Call) -> Answer:
        st = self.state["straight"]
        text = call.text if isinstance(call, Call) else str(call).strip().upper()
        dealer = self.dealer
        if st["step"] in ("declare", "partner"):
            if text not in ("P", "C", "D", "H", "S", "NT", "N"):
                raise InputError("call", f"{text!r}: in straight bridge the declaration is C, D, H, S, NT or P "
                                 "(pass the declaration to partner)")
            text = "NT" if text == "N" else text
            entitled = dealer if st["step"] == "declare" else dealer.partner
            if s is not entitled:
                self.state["pending_call"] = [s.value, text]
                return self._ruled("declaration_out_of_turn", s, {"passed": text == "P"})
            if text == "P":
                if st["step"] == "partner":
                    self.state["pending_call"] = [s.value, text]
                    return self._ruled("declaration_passed_back", s, {})
                st["step"] = "partner"
                self.state["calls"].append([s.value, "P"])
                return Answer(True)
            self.state["calls"].append([s.value, text])
            self.state.update(contract=text, maker=s.value, declarer=dealer.value, doubled=1)
            st.update(step="double", turn=dealer.lho.value, last={}, declined=[])  # eldest hand first
            return Answer(True)
        # doubling: X doubles (or re-doubles), P declines ("May I lead?", "Yes", "Satisfied")
        if text not in ("X", "XX", "P"):
            raise InputError("call", f"{text!r}: while doubling, X (double or re-double) or P (no)")
        turn = Seat(st["turn"])
        if s is not turn:
            self.state["pending_call"] = [s.value, text]
            facts: dict[str, Any] = {"call": "P" if text == "P" else "XX" if self.state["doubled"] > 1 else "X",
                                     "maker": self.state["maker"]}
            if self.state["contract"] != "S":  # the spade convention is about a spade make only
                facts["spade_convention"] = False
            last = st["last"].get(s.side.other.value)
            if last:
                facts["last_doubler"] = last
            return self._ruled("double_out_of_turn", s, facts)
        return self._straight_double(s, text)

    def _straight_double(self, s: Seat, text: str) -> Answer:
        """A double (X or XX: each doubles the trick's value) or a "no" (P) in straight bridge's doubling."""
        st = self.state["straight"]
        self.state["calls"].append([s.value, "X" if text != "P" else "P"])
        limit = self.code.params.get("doubling_limit")
        value = int(self.code.params["trick_values"][self.state["contract"]])
        if text in ("X", "XX"):
            if isinstance(limit, int) and value * self.state["doubled"] >= limit:
                self.state["calls"].pop()
                raise InputError("call", f"the doubling has reached the limit of {limit} points a trick")
            self.state["doubled"] *= 2
            st["last"][s.side.value] = s.value
            st["declined"] = []
            other = s.side.other
            # the first right to continue: the player who last doubled for that side, else the trump maker
            st["turn"] = st["last"].get(other.value) or self.state["maker"]
            if isinstance(limit, int) and value * self.state["doubled"] >= limit:
                self._begin_straight_play()  # the limit is reached: no more doubling
            return _LEGAL
        st["declined"].append(s.value)
        if s.partner.value in st["declined"]:
            self._begin_straight_play()
        else:
            st["turn"] = s.partner.value
        return _LEGAL

    def _begin_straight_play(self) -> None:
        self.state["phase"] = "play"
        self.state["leader"] = self.dealer.lho.value
        self.state["straight"]["step"] = "done"

    # ------------------------------------------------------------------ the play

    def _trump(self) -> str | None:
        c = self.state["contract"]
        if c is None:
            return None
        hit = _TRUMP_OF.get((self.straight, c))
        if hit is not None:
            return hit or None
        strain = c if self.straight else Call(c).strain.value  # type: ignore[union-attr]
        trump = None if strain == "NT" else ("S" if strain == "R" else strain)
        _TRUMP_OF[(self.straight, c)] = trump or ""
        return trump

    def next_player(self) -> Seat:
        cur = self.state["current"]
        if not cur:
            return Seat(self.state["leader"])
        return Seat(cur[-1][0]).lho

    def play(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card played by ``seat`` (the declarer plays the dummy's cards as the dummy's seat)."""
        st = self.state
        if st["pending"]:
            self._refuse_while_pending()
        if st["phase"] != "play":
            raise InputError("card", f"no card can be played now (phase {st['phase']})")
        sv = seat if type(seat) is str and seat in _LHO else Seat.parse(seat, "seat")._value_
        ct = card if type(card) is str and card in _CARD_TEXTS else \
            card.text if isinstance(card, Card) else Card(card, "card").text
        hands = st["hands"]
        if hands is not None and ct not in hands[sv]:
            raise InputError("card", f"{sv} does not hold {ct}")
        cur = st["current"]
        if not self.detect:
            self._lay(sv, ct)
            if len(cur) == 4:
                self._quit_trick()
            return _LEGAL
        expected = _LHO[cur[-1][0]] if cur else st["leader"]
        if sv != expected:
            trick_no = len(st["tricks"]) + 1
            st["pending_play"] = [sv, ct]
            s = _SEAT_BY_TEXT[sv]
            if not cur:
                return self._ruled("lead_out_of_turn", s, {"card": ct, "proper_leader": expected,
                                                           "trick": trick_no, "accepted": False,
                                                           "followed_by": "nobody"})  # caught at once
            leader = cur[0][0]
            facts: dict[str, Any] = {"trick": trick_no}
            partner = _LHO[_LHO[sv]]
            if any(w == sv for w, _ in cur) and not any(w == partner for w, _ in cur):
                facts["position"] = "leads_before_partner_played"  # on to the next trick before his partner played
            elif len(cur) == 1 and sv == _LHO[_LHO[_LHO[leader]]]:  # the fourth hand before the second
                facts["position"] = "fourth_before_second"
            elif len(cur) == 1 and sv == _LHO[_LHO[leader]] and st["declarer"] and \
                    _SEAT_BY_TEXT[sv].side is _SEAT_BY_TEXT[st["declarer"]].side:  # the declarer third before second
                facts["position"] = "third_before_second"
            else:
                facts["position"] = "other"
            return self._ruled("premature_play", s, facts)
        # obligations from earlier penalties: a called or forbidden lead, a called card, highest or lowest,
        # win or lose the trick
        if st["constraints"] and hands is not None:
            allowed, why = self._obliged(sv, hands[sv], cur)
            if allowed is not None and ct not in allowed:
                st["pending_play"] = [sv, ct]
                ans = self._ruled("failure_to_play_as_directed", _SEAT_BY_TEXT[sv],
                                  {"corrected": False,
                                   "obligation": broken(st["constraints"], sv, ct, hands[sv], cur, self._trump())})
                return Answer(False, ans.kind, ans.facts, ans.ruling,
                              note=f"{sv} {why}: {' or '.join(allowed)}, not {ct}")
        if hands is None or st["exposed"] or st["constraints"]:
            if cur and hands is not None:
                self._note_revoke(sv, ct, cur, hands[sv])
            self._lay(sv, ct)
        else:  # the common case, inline: the card leaves the hand for the trick
            hand = hands[sv]
            if cur:
                led = cur[0][1][0]
                if ct[0] != led:
                    self._note_revoke(sv, ct, cur, hand)
            hand.remove(ct)
            cur.append([sv, ct])
        if len(cur) == 4:
            self._quit_trick()
            if st["revokes"] and st["phase"] == "done":  # the last trick quitted: the deal is over
                return self._established_revokes()
        elif st["revokes"] and len(cur) == 1:
            # the trick of a revoke was turned and quitted, and a card is played to the next: established
            return self._established_revokes()
        return _LEGAL

    def _note_revoke(self, sv: str, ct: str, cur: list[list[str]], hand: list[str]) -> None:
        """He renounces holding the suit led: a revoke, established when the trick is quitted."""
        led = cur[0][1][0]
        if ct[0] != led:
            for x in hand:
                if x[0] == led:
                    self.state["revokes"].append({"seat": sv, "trick": len(self.state["tricks"]) + 1,
                                                  "established": False})
                    break

    def _obliged(self, sv: str, hand: list[str], cur: list[list[str]]) -> tuple[list[str] | None, str]:
        return obliged(self.state["constraints"], sv, hand, cur, self._trump())

    def legal_cards(self) -> list[str]:
        """The cards the player to play may play without revoking or breaking a penalty in force (the
        declarer plays the dummy's as the dummy's seat); empty where the table does not hold the hands."""
        st = self.state
        if st["phase"] != "play" or st["hands"] is None or st["pending"]:
            return []
        sv = self.next_player().value
        hand, cur = st["hands"][sv], st["current"]
        led = cur[0][1][0] if cur else None
        follow = [c for c in hand if c[0] == led] if led else []
        allowed, _ = self._obliged(sv, hand, cur)
        return [c for c in (follow or hand) if allowed is None or c in allowed] or list(allowed or follow or hand)

    def legal_calls(self) -> list[str]:
        """The calls open to the player whose turn it is: a pass, every sufficient bid, a double or redouble
        within the limits (straight bridge: the trump declarations or a pass, then X and P)."""
        st = self.state
        if st["phase"] != "auction" or st["pending"]:
            return []
        if self.straight:
            step = st["straight"]["step"]
            if step == "declare":
                return ["P"] + list(self.code.params["trick_values"])
            if step == "partner":
                return list(self.code.params["trick_values"])
            limit = self.code.params.get("doubling_limit")
            value = int(self.code.params["trick_values"][st["contract"]])
            return ["P"] + ([] if isinstance(limit, int) and value * st["doubled"] >= limit else ["X", "XX"])
        seat = self.next_caller()
        calls = self._calls()
        if st["barred"].get(seat.value):
            return ["P"]  # a barred player may only pass (a barred dealer too: he may not bid)
        out = [] if not calls and self.code.params.get("dealer_must_declare") else ["P"]
        last = next((x for x in reversed(calls) if x.is_bid), None)
        for level in range(1, int(self.code.params.get("max_level", 7)) + 1):
            for strain in self.code.params["trick_values"]:
                c = Call(f"{level}{strain}")
                if last is None or higher(self.code, c, last):
                    out.append(c.text)
        for x in ("X", "XX"):
            try:
                if last is not None and self._double_problem(seat, Call(x)) is None:
                    out.append(x)
            except InputError:
                pass
        return out

    def call_card(self, seat: str | Seat, card: str | Card) -> None:
        """An adversary calls ``seat``'s exposed card: he must play it the next time he plays, if he can
        without revoking (an exposed card is "subject to call")."""
        self._refuse_while_pending()
        s = Seat.parse(seat, "seat")
        c = Card(card, "card") if not isinstance(card, Card) else card
        if c.text not in self.state["exposed"].get(s.value, []):
            raise InputError("card", f"{c.text} is not an exposed card of {s.value}'s; exposed: "
                             + (", ".join(self.state["exposed"].get(s.value, [])) or "none"))
        self.state["constraints"].append({"kind": "play_card", "seat": s.value, "card": c.text})

    def _lay(self, sv: str, ct: str) -> None:
        st = self.state
        if st["hands"] is not None:
            st["hands"][sv].remove(ct)
        if st["exposed"]:
            ex = st["exposed"].get(sv)
            if ex and ct in ex:
                ex.remove(ct)
        st["current"].append([sv, ct])
        if st["constraints"]:
            leading = len(st["current"]) == 1
            st["constraints"] = [x for x in st["constraints"] if not binds(x, sv)
                                 or (x["kind"] in ("forbid_lead", "call_lead") and not leading)]

    def _quit_trick(self) -> None:
        st = self.state
        cur = st["current"]
        trump = _TRUMP_OF.get((self.straight, st["contract"]))
        if trump is None:
            trump = self._trump() or ""
        win_seat = trick_winner(cur, trump)
        st["tricks"].append({"leader": cur[0][0], "cards": cur, "winner": win_seat})
        st["current"] = []
        st["leader"] = win_seat
        if len(st["tricks"]) == 13:
            st["phase"] = "done"

    def _established_revokes(self, now: bool = False) -> Answer:
        """A revoke is established when its trick is turned and quitted and a card is played to the next (or
        the deal ends): rule on it now. The card that establishes it stands; the ruling is due."""
        done = len(self.state["tricks"])
        for rv in self.state["revokes"]:
            if not rv["established"] and (now or rv["trick"] <= done):
                rv["established"] = True
                side = Seat(rv["seat"]).side
                # the dummy cannot revoke (law 63): a renounce from his hand counts toward no side's revokes
                dummy = Seat(self.state["declarer"]).partner.value if self.state["declarer"] else None
                real = [r for r in self.state["revokes"] if r["established"] and r["seat"] != dummy]
                n = max(1, sum(1 for r in real if Seat(r["seat"]).side is side))
                both = len({Seat(r["seat"]).side for r in real}) == 2
                ans = self._ruled("revoke", Seat(rv["seat"]), {"established": True, "revokes_by_side": n,
                                                               "both_sides_revoked": both, "quitted": True,
                                                               **self._deal_facts()})
                self.state["pending"]["revoke"] = rv["trick"]
                return Answer(True, ans.kind, ans.facts, ans.ruling,
                              note=f"{rv['seat']}'s revoke in trick {rv['trick']} is established: its trick was "
                                   "turned and quitted" + ("" if done == 13 else " and a card played to the next"))
        return _LEGAL

    def quit_trick(self) -> Answer:
        """The last trick is turned and quitted before anyone plays on (the table quits a trick of four
        cards at once, so this only establishes a revoke in it): its revoke, if any, is ruled."""
        self._refuse_while_pending()
        return self._established_revokes()

    def correct_revoke(self, seat: str | Seat) -> Answer:
        """``seat`` corrects his renounce in time to save a revoke: before his trick is turned and quitted
        and a card played to the next. The code's remedy for a revoke corrected in time is ruled; applying
        it takes the card played in error back (exposed, where the remedy says) and reopens the trick: the
        offender then plays a card of the suit led (``apply(..., card=...)``, or as the remedy directs)."""
        self._refuse_while_pending()
        st = self.state
        s = Seat.parse(seat, "seat")
        trick_now = len(st["tricks"]) + 1
        rv = next((r for r in st["revokes"] if r["seat"] == s.value and not r["established"]
                   and (r["trick"] == trick_now or (r["trick"] == trick_now - 1 and not st["current"]))), None)
        if rv is None:
            raise InputError("seat", f"{s.value} has no revoke that can still be corrected (a revoke is "
                             "established once its trick is quitted and a card played to the next)")
        cards = st["current"] if rv["trick"] == trick_now else st["tricks"][-1]["cards"]
        declarer = Seat(st["declarer"])
        facts = {"established": False, "quitted": False, **self._deal_facts(),
                 "offender_fourth_hand": [w for w, _ in cards].index(s.value) == 3,
                 "adversaries_both_played": {declarer.lho.value, declarer.rho.value} <= {w for w, _ in cards}}
        ans = self._ruled("revoke", s, facts)
        st["pending"]["correction"] = rv["trick"]
        return ans

    def expose(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card exposed (dropped face up, shown, named) — in the auction, before the lead, or in play."""
        self._refuse_while_pending()
        s = seat if isinstance(seat, Seat) else Seat.parse(seat, "seat")
        c = card if isinstance(card, Card) else Card(card, "card")
        if self.three and self.state["phase"] == "auction" and s.value == self.state["dummy_hand"]:
            raise InputError("seat", f"{s.value} is the dummy packet in three-hand (T3): no player sits there, "
                             "and the dummy hand is not touched until the final declaration")
        hands = self.state["hands"]
        if hands is not None and c.text not in hands[s.value]:
            raise InputError("card", f"{s.value} does not hold {c.text}")
        phase = self.state["phase"]
        if phase in ("auction", "doubling"):
            facts: dict[str, Any] = {"card": c.text}
            if self.three:
                nxt, third = other_players(self.dealer, s)
                facts.update(succeeding_player=nxt.value, third_player=third.value)
            return self._ruled("exposed_card_in_auction", s, facts,
                               **({"declarer": self.state["declarer"]} if self.state["declarer"] else {}))
        if phase != "play":
            raise InputError("card", f"no card can be exposed now (phase {phase})")
        if not self.state["tricks"] and not self.state["current"]:
            return self._ruled("exposed_card_before_lead", s, {"card": c.text})
        return self._ruled("exposed_card", s, {"card": c.text, "how": "dropped_face_up"})

    def claim(self, seat: str | Seat, threw_cards: bool = False) -> Answer:
        """A player claims the rest of the tricks (or throws his cards face up on the table)."""
        self._refuse_while_pending()
        if self.state["phase"] != "play":
            raise InputError("claim", f"no claim can be made now (phase {self.state['phase']})")
        s = Seat.parse(seat, "seat")
        return self._ruled("claim", s, {"threw_cards": threw_cards})

    def play_together(self, seat: str | Seat, cards: list[str]) -> Answer:
        """Two or more cards played at once to the current trick."""
        self._refuse_while_pending()
        s = Seat.parse(seat, "seat")
        if self.state["phase"] != "play" or len(cards) < 2:
            raise InputError("cards", "two or more cards, during the play")
        for c in cards:
            if self.state["hands"] is not None and Card(c).text not in self.state["hands"][s.value]:
                raise InputError("cards", f"{s.value} does not hold {c}")
        ans = self._ruled("extra_card_played", s, {"simultaneous": True, "corrected": False})
        self.state["pending"]["together"] = [Card(c).text for c in cards]
        return ans

    def report(self, kind: str, seat: str | Seat, **facts: Any) -> Answer:
        """An irregularity the table cannot see for itself — a remark by the dummy, a consultation, a
        quitted trick looked at, a card omitted from a trick, a claim of a revoke after the deal — reported
        by ``seat`` (the offender) with the facts of its kind (``bridgelaw kinds``), and ruled with what the
        table knows: the dealer, the auction, the declarer. Apply the ruling as any other."""
        self._refuse_while_pending()
        s = Seat.parse(seat, "seat")
        extra = self._auction_record() if self.state["phase"] == "auction" and not self.straight \
            and self.state["calls"] else {}
        return self._ruled(kind, s, dict(facts), **extra)

    def check(self) -> None:
        """Check the state is consistent (every card once; a trick of at most three; a known next actor); an
        :class:`InputError` on ``state`` says what is not."""
        st = self.state

        def ok(holds: Any, what: str) -> None:
            if not holds:
                raise InputError("state", f"the table's state is not consistent: {what}")

        ok(st["phase"] in ("auction", "play", "done", "new_deal", "passed_out"), f"an unknown phase {st['phase']!r}")
        ok(len(st["current"]) <= 3, "a trick in progress of more than three cards")
        if st["hands"] is not None:
            played = [c for t in st["tricks"] for _, c in t["cards"]] + [c for _, c in st["current"]]
            held = [c for h in st["hands"].values() for c in h]
            ok(sorted(played + held) == sorted(c for h in st["original"].values() for c in h),
               "the cards played and held are not the cards dealt")
            ok(len(set(played + held)) == 52, "not 52 different cards")
            for seat, hand in st["hands"].items():  # a hand is 13 less the cards it has played
                gone = sum(1 for t in st["tricks"] for w, _ in t["cards"] if w == seat) + \
                    sum(1 for w, _ in st["current"] if w == seat)
                ok(len(hand) == 13 - gone, f"{seat} holds {len(hand)} cards after playing {gone}")
            for seat, cards in st["exposed"].items():  # an exposed card lies face up, still his
                ok(set(cards) <= set(st["hands"][seat]), f"{seat} has exposed cards he does not hold")
        for t in st["tricks"]:  # four cards, one from each hand
            ok(len({w for w, _ in t["cards"]}) == 4 and t["winner"] in {w for w, _ in t["cards"]},
               "a trick not of one card from each hand, or won by none of them")
        ok(len({w for w, _ in st["current"]}) == len(st["current"]), "two cards from one hand in the trick")
        for w, c in st["calls"]:
            ok(w in _LHO and (self.straight or Call(c).text == c), f"a call {c!r} by {w!r}")
        ok(all(x["seat"] in _LHO for x in st["constraints"]) and set(st["barred"]) <= set(_LHO),
           "a constraint or a bar on no seat")
        if st["phase"] == "play":
            ok(st["declarer"] and st["leader"], "the play without a declarer or a leader")
            if self.three:  # T8: the dummy opposite the declarer, the three players seated once each
                seating = st["seating"]
                ok(seating[Seat(st["declarer"]).partner.value] == "dummy", "the dummy not opposite the declarer")
                ok(sorted(seating.values()) == sorted([x.value for x in Seat if x.value != st["dummy_hand"]]
                                                      + ["dummy"]), "the three players not seated once each")
        ok(st["pending"] is None or st["pending"]["kind"], "a pending ruling of no kind")

    # ------------------------------------------------------------------ remedies

    def apply(self, option: str | Option | None = None, suit: str | None = None, by: str | None = None,
              card: str | None = None) -> Ruling:
        """Carry out the pending ruling: its automatic effects and the chosen option (by id; ``by`` names the
        chooser where two players may each choose, as in three-hand law 50; ``suit`` and ``card`` name a suit
        called or forbidden, or a card called, where the chooser names it)."""
        p = self.state["pending"]
        if not p:
            raise InputError("option", "no ruling is waiting")
        if suit is not None and suit not in ("C", "D", "H", "S"):
            raise InputError("suit", f"expected a suit C, D, H or S, got {suit!r}")
        if card is not None:
            card = Card(card, "card").text
        r = rule(p["incident"])
        if r.questions and option is None and self.state["phase"] == "auction" \
                and all(q.fact == "declarer" for q in r.questions):
            return self._defer(r, p)
        if r.questions:
            raise InputError("option", "the ruling still asks: " + "; ".join(q.ask for q in r.questions))
        chosen: Option | None = None
        oid = option.id if isinstance(option, Option) else option
        # the one remedy a law offers ("may demand ...") may be declined: the irregular call or card stands
        declined = bool(r.options) and oid is None and len({o.id for o in r.options}) == 1
        if r.options and not declined:
            ids = [o.id for o in r.options]
            if oid not in ids:
                raise InputError("option", f"choose one of {', '.join(ids)}; got {oid!r}")
            chosen = next((o for o in r.options if o.id == oid and (by is None or o.may_choose(by))), None)
            if chosen is None:
                whom = sorted({o.chooser if isinstance(o.chooser, str) else " or ".join(o.chooser)
                               for o in r.options if o.id == oid})
                raise InputError("by", f"{oid!r} is chosen by {', '.join(whom)}"
                                 f"; got {by!r}")
        elif option is not None:
            raise InputError("option", "this ruling has no options")
        effects = list(r.effects) + (list(chosen.effects) if chosen else [])
        for done in p.get("done", ()):  # a deferred ruling's effects carried out in the auction
            same = next((e for e in effects if e.to_dict() == done), None)
            if same is not None:
                effects.remove(same)
        for e in effects:  # what the chooser must name, asked before anything moves
            if e.kind.value in ("call_lead", "forbid_lead") and not e.get("suit") and not suit:
                raise InputError("suit", f"the remedy {'calls' if e.kind.value == 'call_lead' else 'forbids'} a "
                                 "suit the chooser names: apply(..., suit=...)")
        fix = self._correction(p, effects, card) if p.get("correction") else None
        pending_call = self.state.pop("pending_call", None)
        pending_play = self.state.pop("pending_play", None)
        if fix:
            pending_play = fix["wrong"]
        self.state["pending"] = None
        # an irregular call or card that no effect disposes of is simply not made: the card stays in the
        # hand (exposed, if a remedy says so), and the turn stays where it was (law 49 for a pass)
        law = chosen.law if chosen and chosen.law else (r.laws[0].number if r.laws else "")
        entry = self.state["log"][-1]
        if declined:
            if pending_call:
                self._effect({"kind": "call_stands"}, pending_call, None, None, p)
            elif pending_play:
                self._effect({"kind": "trick_stands"}, None, pending_play, None, p)
        if fix:  # the card played in error back in his hand (exposed, if a remedy says so), the right one played
            self._substitute(fix)
        for e in effects:
            if fix and e.kind.value in ("play_highest", "play_lowest"):
                continue  # carried out by the correction: the card substituted is his highest or lowest
            self._effect(e.to_dict(), pending_call, pending_play, suit, p, law, card)
        if p["kind"] == "revoke":
            for rv in self.state["revokes"]:
                if rv["trick"] == p.get("revoke") and rv["seat"] == p["offender"]:
                    rv["choice"] = chosen.id if chosen else None
        entry["applied"] = chosen.id if chosen else "declined" if declined else "effects"
        return r

    def _correction(self, p: Mapping[str, Any], effects: list[Any], card: str | None) -> dict[str, Any]:
        """Work out a revoke corrected in time (checked before anything moves): the card played in error,
        and the card of the suit led that replaces it."""
        st = self.state
        seat, trick_no = p["offender"], p["correction"]
        cards = st["current"] if trick_no == len(st["tricks"]) + 1 else st["tricks"][-1]["cards"]
        i = next(i for i, (w, _) in enumerate(cards) if w == seat)
        wrong, led = cards[i][1], cards[0][1][0]
        suit = [c for c in st["hands"][seat] if c[0] == led] if st["hands"] is not None else []
        how = next((e.kind.value for e in effects if e.kind.value in ("play_highest", "play_lowest")), None)
        if how and suit:
            right = (max if how == "play_highest" else min)(suit, key=lambda c: RANK_INDEX[c[1]])
        else:
            if card is None:
                raise InputError("card", f"name the card of the suit led ({led}) that {seat} plays instead of "
                                 f"{wrong}: apply(..., card=...)")
            right = Card(card, "card").text
            if st["hands"] is not None and right not in suit:
                raise InputError("card", f"{seat} must play a card of the suit led ({led}) that he holds: "
                                 + ", ".join(suit))
        return {"seat": seat, "trick": trick_no, "index": i, "wrong": [seat, wrong], "right": right}

    def _substitute(self, fix: Mapping[str, Any]) -> None:
        """Reopen the trick if it was gathered, take the card played in error back, play the right one."""
        st = self.state
        if fix["trick"] == len(st["tricks"]):  # gathered, and no card played since: it lies open again
            t = st["tricks"].pop()
            st["current"], st["leader"], st["phase"] = t["cards"], t["leader"], "play"
        seat, wrong = fix["wrong"]
        if st["hands"] is not None:
            st["hands"][seat].append(wrong)
            st["hands"][seat].remove(fix["right"])
        ex = st["exposed"].get(seat)
        if ex and fix["right"] in ex:  # an exposed card played in the correction leaves the table's view
            ex.remove(fix["right"])
        st["current"][fix["index"]] = [seat, fix["right"]]
        st["revokes"] = [r for r in st["revokes"] if not (r["seat"] == seat and r["trick"] == fix["trick"])]
        if len(st["current"]) == 4:
            self._quit_trick()

    def _defer(self, r: Ruling, p: dict[str, Any]) -> Ruling:
        """An irregularity in the auction whose remedy turns on who becomes the declarer (a card exposed
        in the auction, law 65): carry out now what the law already gives, and rule the rest when the
        auction ends (the call that ends it answers with the ruling due)."""
        st = self.state
        st["pending"] = None
        st.pop("pending_call", None)
        law = r.laws[0].number if r.laws else ""
        for e in r.effects:
            self._effect(e.to_dict(), None, None, None, p, law)
        st.setdefault("deferred", []).append({**p, "done": [e.to_dict() for e in r.effects]})
        st["log"][-1]["applied"] = "deferred until the declarer is known"
        return r

    def _effect(self, e: dict[str, Any], pending_call: list[str] | None, pending_play: list[str] | None,
                suit: str | None, p: Mapping[str, Any], law: str = "", card: str | None = None) -> None:
        kind = e["kind"]
        st = self.state
        if kind == "new_deal":
            st["phase"] = "new_deal"
            # who deals it: the same dealer where the law says so, else the deal passes in rotation
            st["next_dealer"] = st["dealer"] if e.get("dealer") == "same" else \
                (callers(self.dealer, self.code.players)[1].value)
        elif kind == "amend_call" and pending_call:
            self._record_call(Seat(e["seat"]), Call(e["call"]))
        elif kind == "call_stands" and pending_call:
            if self.straight:
                self._straight_stands(pending_call)
            else:
                # law 49: the bidding continues as if the declaration had been in turn
                self._record_call(Seat(pending_call[0]), Call(pending_call[1]))
        elif kind == "final_declaration":
            res_decl = None
            call = Call(e["call"])
            calls = self._calls()
            if self.three:  # T7: the player who made the final declaration plays it
                res_decl = next((Seat(w) for w, x in reversed(st["calls"]) if x == call.text), None)
            for i, c in enumerate(calls):
                who = Seat(st["calls"][i][0])
                if res_decl is None and c.is_bid and c.strain is call.strain \
                        and (e.get("side") is None or who.side.value == e["side"]):
                    res_decl = who
                    break
            self._end_auction(call, 0, res_decl or Seat(st["calls"][-1][0]))
        elif kind == "bar":
            st["barred"][e["seat"]] = e["until"]
        elif kind == "exposed_card":
            # the card named, the card played in error, or (cards played together) all but the one called
            shown = [e["card"]] if e.get("card") else [pending_play[1]] if pending_play else \
                [c for c in p.get("together", ()) if c != card]
            hand = (st["hands"] or {}).get(e["seat"])
            for shown_card in shown:
                if shown_card not in st["exposed"].get(e["seat"], []) and (hand is None or shown_card in hand):
                    st["exposed"].setdefault(e["seat"], []).append(shown_card)
        elif kind in ("call_lead", "forbid_lead"):
            # a suit called after a lead out of turn, the law naming no one: "from the offender or his partner"
            # when either of them next leads (1904 law 80, 1913 law 76)
            either = kind == "call_lead" and not e.get("seat") and p["kind"] == "lead_out_of_turn"
            st["constraints"].append({"kind": kind, "seat": e.get("seat") or p.get("offender"),
                                      "suit": e.get("suit") or suit, **({"either": True} if either else {})})
        elif kind in ("play_highest", "play_lowest", "win_trick", "lose_trick"):
            st["constraints"].append({"kind": kind, "seat": e["seat"]})
        elif kind == "play_card":
            called = e.get("card") or card or (pending_play[1] if pending_play else None)
            if called:
                st["constraints"].append({"kind": "play_card" if e.get("must", True) else "forbid_card",
                                          "seat": e["seat"], "card": called})
        elif kind == "revoke_penalty" and pending_play:
            # he incurs the penalty of a revoke: the card stands, and the revoke is ruled as established
            # (the innocent side's choice of penalty is asked next)
            sv, ct = pending_play
            st["revokes"].append({"seat": e.get("seat") or sv, "trick": len(st["tricks"]) + 1, "established": False})
            self._lay(sv, ct)
            if len(st["current"]) == 4:
                self._quit_trick()
            self._established_revokes(now=True)
        elif kind == "trick_stands" and pending_play and any(w == pending_play[0] for w, _ in st["current"]):
            pass  # he has played to this trick already: his second card cannot stand in it (it stays in his hand)
        elif kind == "trick_stands" and pending_play:
            st["leader"] = pending_play[0] if not st["current"] else st["leader"]
            self._lay(pending_play[0], pending_play[1])
            if len(st["current"]) == 4:
                self._quit_trick()
        elif kind == "no_double":
            if e["scope"] == "hand" and self.straight and st["straight"]["step"] == "double":
                self._begin_straight_play()  # no further doubling in that hand: the play begins
            else:
                bids = [i for i, (_, x) in enumerate(st["calls"]) if x[0].isdigit()]
                st.setdefault("no_double", []).append({"seat": e.get("seat"), "scope": e["scope"],
                                                       "bid": bids[-1] if bids else -1})
        elif kind == "score":
            st["penalties"].append({**({"player": e["player"]} if "player" in e else {"side": e["side"]}),
                                    "column": e["column"], "points": e["points"], "cite": law,
                                    "offender": p.get("offender"),
                                    "law": p["incident"].get("irregularity", ""),
                                    "phase": "auction" if st["phase"] in ("auction", "new_deal", "passed_out") else "play"})

    def _straight_stands(self, pending_call: list[str]) -> None:
        s, text = Seat(pending_call[0]), pending_call[1]
        st = self.state["straight"]
        if st["step"] == "double":  # a double out of turn allowed to stand: the doubling goes on from it
            self._straight_double(s, text)
            return
        if st["step"] in ("declare", "partner") and text != "P":
            self.state["calls"].append([s.value, text])
            self.state.update(contract=text, maker=s.value, declarer=self.dealer.value, doubled=1)
            st.update(step="double", turn=self.dealer.lho.value, last={}, declined=[])

    # ------------------------------------------------------------------ the end

    def result(self) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``): see :mod:`bridgelaw.dealresult`."""
        return deal_result(self.code, self.state)

    def score(self) -> Score:
        return score(self.result())

    # ------------------------------------------------------------------ state

    def to_json(self) -> str:
        return json.dumps(self.state, sort_keys=True)

    def to_pbn(self) -> str:
        """The deal as a PBN 2.1 game (:func:`bridgelaw.replay.history_writer.table_to_pbn`)."""
        from .replay.history_writer import table_to_pbn

        return table_to_pbn(self)

    @classmethod
    def from_json(cls, text: str) -> "Table":
        """A table from its JSON state (as :meth:`to_json` writes it)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise InputError("state", f"not JSON: {e}") from None
        if not isinstance(data, dict):
            raise InputError("state", f"expected a table's state (an object), got {type(data).__name__}")
        if not isinstance(data.get("code"), str) or "dealer" not in data:
            raise InputError("state", "not a table's state: it lacks code or dealer")
        t = cls(data["code"], data["dealer"])
        missing = [k for k in t.state if k not in data]
        if missing:
            raise InputError("state", "not a table's state: it lacks " + ", ".join(missing))
        t.state = data
        return t

    def __repr__(self) -> str:
        return f"Table({self.code.id!r}, dealer={self.state['dealer']!r}, phase={self.state['phase']!r})"

