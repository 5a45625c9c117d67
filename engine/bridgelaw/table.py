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
from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import InputError
from .facts import auction_result, higher
from .loader import Code, load_code
from .referee import rule
from .scoring import Score, parse_deal, score
from .values import _SEAT_BY_TEXT, Call, CallKind, Card, Option, Ruling, Seat

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
            return "Answer(legal=True)"
        return f"Answer(legal=False, kind={self.kind!r}, facts={dict(self.facts)!r})"


_SUIT_ORDER = "CDHS"
_LEGAL = Answer(True)
_RANK_INDEX = {r: i for i, r in enumerate("23456789TJQKA")}


class Table:
    """One deal at one table under one code."""

    def __init__(self, code: str | Code, dealer: str | Seat = "S", deal: str | None = None,
                 detect: bool = True) -> None:
        self.code = code if isinstance(code, Code) else load_code(code)
        self.detect = detect  # False: record calls and cards without refereeing (the benchmark's baseline)
        dealer_seat = Seat.parse(dealer, "dealer")
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
        if deal is not None:
            hands = parse_deal(deal)
            self.state["hands"] = {s.value: [c.text for c in cards] for s, cards in hands.items()}
            self.state["original"] = {s.value: [c.text for c in cards] for s, cards in hands.items()}

    # ------------------------------------------------------------------ helpers

    @property
    def dealer(self) -> Seat:
        return Seat(self.state["dealer"])

    @property
    def straight(self) -> bool:
        return self.code.game == "straight-bridge"

    def _calls(self) -> tuple[Call, ...]:
        return tuple(Call(c) for _, c in self.state["calls"])

    def next_caller(self) -> Seat:
        calls = self.state["calls"]
        if not calls:
            return self.dealer
        return Seat(calls[-1][0]).lho

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
        self._refuse_while_pending()
        if self.state["phase"] not in ("auction", "doubling"):
            raise InputError("call", f"the auction is over (phase {self.state['phase']})")
        s = Seat.parse(seat, "seat")
        if self.straight:
            return self._straight_call(s, call)
        c = call if isinstance(call, Call) else Call(call, "call")
        if not self.detect:
            self._record_call(s, c)
            return Answer(True)
        turn = self.next_caller()
        if s is not turn:
            kind = "pass_out_of_turn" if c.kind is CallKind.PASS else "call_out_of_turn"
            facts = {} if kind == "pass_out_of_turn" else {"call": c.text}
            self.state["pending_call"] = [s.value, c.text]
            return self._ruled(kind, s, facts, auction=[x for _, x in self.state["calls"]])
        barred = self.state["barred"].get(s.value)
        if barred and c.kind is not CallKind.PASS:
            return self._in_turn_irregularity("call_while_barred", s, c)
        calls = self._calls()
        if c.is_bid:
            last = next((x for x in reversed(calls) if x.is_bid), None)
            if last is not None and not higher(self.code, c, last):
                return self._in_turn_irregularity("insufficient_bid", s, c)
        elif c.kind is CallKind.DOUBLE or c.kind is CallKind.REDOUBLE:
            kind = self._double_problem(s, c)
            if kind:
                return self._in_turn_irregularity(kind, s, c)
        self._record_call(s, c)
        return Answer(True)

    def _double_problem(self, s: Seat, c: Call) -> str | None:
        seq = [(Seat(x), Call(y)) for x, y in self.state["calls"]]
        last_bid_i = max((i for i, (_, x) in enumerate(seq) if x.is_bid), default=None)
        if last_bid_i is None:
            return "extra_redouble"
        bidder = seq[last_bid_i][0]
        after = [(who, x) for who, x in seq[last_bid_i + 1:] if x.kind is not CallKind.PASS]
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
        auction = [x for _, x in self.state["calls"]] + [c.text]
        self.state["pending_call"] = [s.value, c.text]
        return self._ruled(kind, s, {}, auction=auction)

    def _record_call(self, s: Seat, c: Call) -> None:
        self.state["calls"].append([s.value, c.text])
        # a bar "until an adverse call" ends when an adversary of the barred player bids or doubles
        if c.kind in (CallKind.BID, CallKind.DOUBLE):
            for seat, until in list(self.state["barred"].items()):
                if until == "adverse_call" and Seat(seat).side is not s.side:
                    del self.state["barred"][seat]
        res = auction_result(self.dealer, self._calls())
        calls = self._calls()
        if res.complete:
            self._end_auction(res.contract, res.doubled, res.declarer)
        elif len(calls) == 4 and all(x.kind is CallKind.PASS for x in calls):
            self.state["phase"] = "passed_out"

    def _end_auction(self, contract: Call | None, doubled: int, declarer: Seat | None) -> None:
        assert contract is not None and declarer is not None
        self.state.update(contract=contract.text, doubled=doubled, declarer=declarer.value, phase="play",
                          leader=declarer.lho.value, barred={})

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
            return self._ruled("double_out_of_turn", s, {"call": "X" if text != "P" else "P"})
        self.state["calls"].append([s.value, "X" if text != "P" else "P"])
        limit = self.code.params.get("doubling_limit")
        value = int(self.code.params["trick_values"][self.state["contract"]])
        if text in ("X", "XX"):
            if isinstance(limit, int) and value * self.state["doubled"] >= limit:
                raise InputError("call", f"the doubling has reached the limit of {limit} points a trick")
            self.state["doubled"] *= 2
            st["last"][s.side.value] = s.value
            st["declined"] = []
            other = s.side.other
            # the first right to continue: the player who last doubled for that side, else the trump maker
            st["turn"] = st["last"].get(other.value) or self.state["maker"]
            if isinstance(limit, int) and value * self.state["doubled"] >= limit:
                self._begin_straight_play()  # the limit is reached: no more doubling
            return Answer(True)
        st["declined"].append(s.value)
        if s.partner.value in st["declined"]:
            self._begin_straight_play()
        else:
            st["turn"] = s.partner.value
        return Answer(True)

    def _begin_straight_play(self) -> None:
        self.state["phase"] = "play"
        self.state["leader"] = self.dealer.lho.value
        self.state["straight"]["step"] = "done"

    # ------------------------------------------------------------------ the play

    def _trump(self) -> str | None:
        c = self.state["contract"]
        if c is None:
            return None
        strain = c if self.straight else Call(c).strain.value  # type: ignore[union-attr]
        return None if strain == "NT" else ("S" if strain == "R" else strain)

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
        s = seat if isinstance(seat, Seat) else (_SEAT_BY_TEXT.get(seat) or Seat.parse(seat, "seat"))  # type: ignore[arg-type]
        sv = s._value_
        c = card if isinstance(card, Card) else Card(card, "card")
        ct = c.text
        hands = st["hands"]
        if hands is not None and ct not in hands[sv]:
            raise InputError("card", f"{sv} does not hold {ct}")
        cur = st["current"]
        if not self.detect:
            self._lay(sv, ct)
            if len(cur) == 4:
                self._quit_trick()
            return _LEGAL
        expected = _SEAT_BY_TEXT[cur[-1][0]].lho if cur else _SEAT_BY_TEXT[st["leader"]]
        trick_no = len(st["tricks"]) + 1
        if s is not expected:
            st["pending_play"] = [sv, ct]
            if not cur:
                return self._ruled("lead_out_of_turn", s, {"card": ct, "proper_leader": expected.value,
                                                           "trick": trick_no, "accepted": False})
            position = "fourth_before_second" if s is expected.lho and len(cur) == 1 else "leads_before_partner_played"
            return self._ruled("premature_play", s, {"trick": trick_no, "position": position})
        # obligations from earlier penalties
        for con in st["constraints"]:
            if con["seat"] != sv:
                continue
            if con["kind"] == "forbid_lead" and not cur and ct[0] == con.get("suit"):
                if hands is None or any(x[0] != con["suit"] for x in hands[sv]):
                    raise InputError("card", f"{sv} may not lead {con['suit']} (a penalty): lead another suit")
            if con["kind"] == "call_lead" and not cur and con.get("suit") and ct[0] != con["suit"]:
                if hands is None or any(x[0] == con["suit"] for x in hands[sv]):
                    raise InputError("card", f"{sv} must lead {con['suit']} (a called lead)")
        revoke = False
        if cur and hands is not None:
            led = cur[0][1][0]
            if ct[0] != led and any(x[0] == led for x in hands[sv]):
                revoke = True
        self._lay(sv, ct)
        if revoke:
            st["revokes"].append({"seat": sv, "trick": trick_no, "established": False})
        if len(cur) == 4:
            self._quit_trick()
            if st["revokes"]:
                return self._established_revokes()
        return _LEGAL

    def _lay(self, sv: str | Seat, ct: str | Card) -> None:
        st = self.state
        sv = sv._value_ if isinstance(sv, Seat) else sv
        ct = ct.text if isinstance(ct, Card) else ct
        if st["hands"] is not None:
            st["hands"][sv].remove(ct)
        ex = st["exposed"].get(sv)
        if ex and ct in ex:
            ex.remove(ct)
        st["current"].append([sv, ct])
        if st["constraints"]:
            leading = len(st["current"]) == 1
            st["constraints"] = [x for x in st["constraints"] if x["seat"] != sv
                                 or (x["kind"] in ("forbid_lead", "call_lead") and not leading)]

    def _quit_trick(self) -> None:
        cur = self.state["current"]
        trump = self._trump()
        led = cur[0][1][0]

        def strength(sc: list[str]) -> tuple[int, int]:
            c = sc[1]
            return (2 if c[0] == trump else 1 if c[0] == led else 0, _RANK_INDEX[c[1]])

        winner = max(cur, key=strength)[0]
        self.state["tricks"].append({"leader": cur[0][0], "cards": cur, "winner": winner})
        self.state["current"] = []
        self.state["leader"] = winner
        if len(self.state["tricks"]) == 13:
            self.state["phase"] = "done"

    def _established_revokes(self) -> Answer:
        """A revoke is established when its trick is turned and quitted: rule on it now."""
        for rv in self.state["revokes"]:
            if not rv["established"]:
                rv["established"] = True
                side = Seat(rv["seat"]).side
                n = sum(1 for r in self.state["revokes"] if r["established"] and Seat(r["seat"]).side is side)
                both = len({Seat(r["seat"]).side for r in self.state["revokes"] if r["established"]}) == 2
                ans = self._ruled("revoke", Seat(rv["seat"]), {"established": True, "revokes_by_side": n,
                                                               "both_sides_revoked": both})
                self.state["pending"]["revoke"] = rv["trick"]
                return ans
        return Answer(True)

    def expose(self, seat: str | Seat, card: str | Card) -> Answer:
        """A card exposed (dropped face up, shown, named) — in the auction, before the lead, or in play."""
        self._refuse_while_pending()
        s = seat if isinstance(seat, Seat) else Seat.parse(seat, "seat")
        c = card if isinstance(card, Card) else Card(card, "card")
        hands = self.state["hands"]
        if hands is not None and c.text not in hands[s.value]:
            raise InputError("card", f"{s.value} does not hold {c.text}")
        phase = self.state["phase"]
        if phase in ("auction", "doubling"):
            return self._ruled("exposed_card_in_auction", s, {"card": c.text},
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
        return self._ruled("extra_card_played", s, {"simultaneous": True, "corrected": False})

    def check(self) -> None:
        """Assert the state is consistent (every card once; a trick of at most three; a known next actor)."""
        st = self.state
        assert st["phase"] in ("auction", "play", "done", "new_deal", "passed_out"), st["phase"]
        assert len(st["current"]) <= 3
        if st["hands"] is not None:
            played = [c for t in st["tricks"] for _, c in t["cards"]] + [c for _, c in st["current"]]
            held = [c for h in st["hands"].values() for c in h]
            assert sorted(played + held) == sorted(c for h in st["original"].values() for c in h)
            assert len(set(played + held)) == 52
        if st["phase"] == "play":
            assert st["declarer"] and st["leader"]
        assert st["pending"] is None or st["pending"]["kind"]

    # ------------------------------------------------------------------ remedies

    def apply(self, option: str | Option | None = None, suit: str | None = None) -> Ruling:
        """Carry out the pending ruling: its automatic effects and the chosen option (by id)."""
        p = self.state["pending"]
        if not p:
            raise InputError("option", "no ruling is waiting")
        r = rule(p["incident"])
        if r.questions:
            raise InputError("option", "the ruling still asks: " + "; ".join(q.ask for q in r.questions))
        chosen: Option | None = None
        if r.options:
            oid = option.id if isinstance(option, Option) else option
            ids = [o.id for o in r.options]
            if oid not in ids:
                raise InputError("option", f"choose one of {', '.join(ids)}; got {oid!r}")
            chosen = next(o for o in r.options if o.id == oid)
        elif option is not None:
            raise InputError("option", "this ruling has no options")
        effects = list(r.effects) + (list(chosen.effects) if chosen else [])
        pending_call = self.state.pop("pending_call", None)
        pending_play = self.state.pop("pending_play", None)
        self.state["pending"] = None
        # an irregular call or card that no effect disposes of is simply not made: the card stays in the
        # hand (exposed, if a remedy says so), and the turn stays where it was (law 49 for a pass)
        for e in effects:
            self._effect(e.to_dict(), pending_call, pending_play, suit, p)
        if p["kind"] == "revoke":
            for rv in self.state["revokes"]:
                if rv["trick"] == p.get("revoke") and rv["seat"] == p["offender"]:
                    rv["choice"] = chosen.id if chosen else None
        self.state["log"][-1]["applied"] = chosen.id if chosen else "effects"
        return r

    def _effect(self, e: dict[str, Any], pending_call: list[str] | None, pending_play: list[str] | None,
                suit: str | None, p: Mapping[str, Any]) -> None:
        kind = e["kind"]
        st = self.state
        if kind == "new_deal":
            st["phase"] = "new_deal"
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
            for i, c in enumerate(calls):
                who = Seat(st["calls"][i][0])
                if c.is_bid and c.strain is call.strain and (e.get("side") is None or who.side.value == e["side"]):
                    res_decl = who
                    break
            self._end_auction(call, 0, res_decl or Seat(st["calls"][-1][0]))
        elif kind == "bar":
            st["barred"][e["seat"]] = e["until"]
        elif kind == "exposed_card":
            card = e.get("card") or (pending_play[1] if pending_play else None)
            if card:
                st["exposed"].setdefault(e["seat"], []).append(card)
        elif kind in ("call_lead", "forbid_lead"):
            st["constraints"].append({"kind": kind, "seat": e.get("seat") or p.get("offender"),
                                      "suit": e.get("suit") or suit})
        elif kind in ("play_highest", "play_lowest", "win_trick", "lose_trick"):
            st["constraints"].append({"kind": kind, "seat": e["seat"]})
        elif kind == "trick_stands" and pending_play:
            s, c = Seat(pending_play[0]), Card(pending_play[1])
            st["leader"] = s.value if not st["current"] else st["leader"]
            self._lay(s, c)
            if len(st["current"]) == 4:
                self._quit_trick()
        elif kind == "score":
            st["penalties"].append({"side": e["side"], "column": e["column"], "points": e["points"],
                                    "law": p["incident"].get("irregularity", "")})

    def _straight_stands(self, pending_call: list[str]) -> None:
        s, text = Seat(pending_call[0]), pending_call[1]
        st = self.state["straight"]
        if st["step"] in ("declare", "partner") and text != "P":
            self.state["calls"].append([s.value, text])
            self.state.update(contract=text, maker=s.value, declarer=self.dealer.value, doubled=1)
            st.update(step="double", turn=self.dealer.lho.value, last={}, declined=[])

    # ------------------------------------------------------------------ the end

    def result(self) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``)."""
        st = self.state
        if st["phase"] != "done":
            raise InputError("phase", f"the deal is not finished (phase {st['phase']})")
        declarer = Seat(st["declarer"])
        won = sum(1 for t in st["tricks"] if Seat(t["winner"]).side is declarer.side)
        if self.straight:
            contract = st["contract"] + (f" x{st['doubled']}" if st["doubled"] > 1 else "")
        else:
            contract = st["contract"] + {0: "", 1: "X", 2: "XX"}[st["doubled"]]
        res: dict[str, Any] = {"code": self.code.id, "declarer": declarer.value, "contract": contract, "tricks": won}
        if not self.straight and st["contract"] == "1S" and declarer is self.dealer and st["calls"] \
                and st["calls"][0] == [self.dealer.value, "1S"] and "one_spade_limit" in self.code.params:
            res["original_one_spade"] = True
        if st["deal"]:
            res["deal"] = st["deal"]
        else:
            res["honours"] = "none"
        revokes = [{"offender": r["seat"], **({"choice": r["choice"]} if r.get("choice") else {})}
                   for r in st["revokes"] if r["established"]]
        if revokes:
            res["revokes"] = revokes
        pens = [x for x in st["penalties"] if x["law"] != "revoke"]
        if pens:
            res["penalties"] = [{"side": x["side"], "points": x["points"], "column": x["column"],
                                 "law": self._law_of(x["law"])} for x in pens]
        return res

    def _law_of(self, kind: str) -> str:
        provs = self.code.by_kind.get(kind, ())
        return provs[0].law if provs else ""

    def score(self) -> Score:
        return score(self.result())

    # ------------------------------------------------------------------ state

    def to_json(self) -> str:
        return json.dumps(self.state, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Table":
        data = json.loads(text)
        t = cls(data["code"], data["dealer"])
        t.state = data
        return t

    def __repr__(self) -> str:
        return f"Table({self.code.id!r}, dealer={self.state['dealer']!r}, phase={self.state['phase']!r})"

