"""The auction: calls made in turn or out of it, bars and doubling limits, the end of the auction and the
final declaration, the rulings deferred until the declarer is known (a mixin of the table core)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..errors import IllegalActionError, InputError, MalformedActionError, OutOfTurnError, UnmodelledActionError
from ..facts import higher, seven_call, sufficient
from ..values import Call, OverSeven, Ruling, Seat
from .base import TableParts, _BID_TEXT, _CALL_TEXTS, _HIGHER, _LEGAL, _LHO, _PARTNER, _SIDE, Answer
from .effects import _no_double_entry
from .state import CallRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..loader import Code
    from .effects import Act
    from .model import Rules
    from .state import TableState

__all__ = ["Auction"]


class Auction(TableParts):
    """The table's auction: :meth:`call` and :meth:`legal_calls`, and what a call sets in motion."""


    def call(self, seat: str | Seat, call: str | Call) -> Answer:
        """A call (auction) or a declaration (straight bridge) by ``seat``."""
        st = self._st
        if st.pending is not None:
            self._refuse_while_pending()
        if st.phase != "auction":
            raise OutOfTurnError("call", f"the auction is over (phase {st.phase})")
        if self._quick_calls and type(seat) is str and type(call) is str and st.detect:
            # the common case, inline (as _call and _admit make it): the seat in turn passes after the first call,
            # or, no player barred, bids in a strain of the code (sufficiently, or insufficiently: ruled); anything
            # else takes the path below
            calls = st.calls
            if seat == (_LHO[calls[-1].seat] if calls else st.dealer) and (
                    call == "P" and calls or not st.bars and call in _CALL_TEXTS and call[0].isdigit()
                    and call[1:] in self.rules.trick_values):
                if call == "P" or (last := self._last_bid()) is None or self._higher(call, last):
                    self._record_call(seat, call)
                    ans = self._due() if st.pending is not None else _LEGAL
                else:  # an insufficient bid in turn, nobody barred: ruled as _admit rules it
                    ans = self._in_turn_irregularity("insufficient_bid", seat, call)
                st.history.append(("call", seat, call) if ans is _LEGAL else
                                  self._entry("call", seat, {"call": call}, ans))
                return ans
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
        st = self._st
        if st.calls and st.calls[-1].seat == s:  # the record would show him calling twice running
            raise OutOfTurnError("seat", f"{s} has just called ({st.calls[-1].call}): after any call, even one out "
                                 "of turn, it is another player's turn; a player who would alter his own call "
                                 "changes it (report change_of_call)")
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
            elif until and self._barred_from(s, text):
                return self._ruled("call_while_barred", s, self._barred_facts(s), call=(s, text),
                                   **self._auction_record([(s, text)]))
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

    def _barred_facts(self, s: str) -> dict[str, Any]:
        """What the table knows of ``s``'s bar that a ruling on his call may turn on: the irregularity whose
        ruling barred him (``barred_by``, where the catalogue's fact names it)."""
        from ..catalogue import load_kinds

        src = self._st.bar_from.get(s)
        spec = load_kinds()[1]["call_while_barred"].facts.get("barred_by")
        return {"barred_by": src} if src is not None and spec is not None and src in spec.type.choices else {}

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

    def _doubled_declaration(self, s: str, text: str) -> tuple[CallRecord, list[CallRecord]]:
        """The declaration a double or redouble by ``s`` would be made on, and the doubles and redoubles since
        (a double a penalty in force forbids, or one of nothing, is refused)."""
        if text == "X":
            what = self._no_double_in_force(s)
            if what:
                raise IllegalActionError("call", f"{s} may not double {what} (a penalty in force)")
        calls = self._st.calls
        last_i = next((i for i in range(len(calls) - 1, -1, -1) if calls[i].call[0].isdigit()), None)
        if last_i is None:
            raise IllegalActionError("call", f"{text} {'doubles' if text == 'X' else 'redoubles'} nothing: no "
                                     "declaration has been made")
        return calls[last_i], [c for c in calls[last_i + 1:] if c.call != "P"]

    def _double_problem(self, s: str, text: str) -> str | None:
        """The irregularity a double or redouble by ``s`` would be, if any (a penalty in force is refused)."""
        declaration, after = self._doubled_declaration(s, text)
        bidder = declaration.seat
        if text == "X":
            if bidder == s:  # the laws rule a double of a partner's declaration, and know no double of one's own
                raise IllegalActionError("call", f"{s} cannot double his own declaration ({declaration.call})")
            if _SIDE[bidder] == _SIDE[s]:
                return "double_of_partner"
            return "extra_redouble" if after else None
        if not any(c.call == "X" for c in after):
            raise IllegalActionError("call", f"XX redoubles {declaration.call}, which has not been doubled")
        if after[-1].call != "X":
            return "extra_redouble"
        if after[-1].seat == s:
            raise IllegalActionError("call", f"{s} cannot redouble his own double")
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
                    st.bar_calls.pop(seat, None)
                    st.bar_from.pop(seat, None)
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
        last = len(calls) - 1
        while last > 0 and not calls[last].call[0].isdigit():  # the last bid (the auction closes only on one)
            last -= 1
        bidder, final = calls[last].seat, calls[last].call
        after = [c.call for c in calls[last + 1:]]
        doubled = 2 if "XX" in after else 1 if "X" in after else 0
        self._end_auction(final, doubled, self._declarer_of(bidder, final))

    def _barred_from(self, s: str, text: str) -> bool:
        """Whether ``s``'s bar reaches the call ``text`` (not a pass): every bar reaches a bid; a double or
        redouble only where the bar effect's ``calls`` names it (a code that sets doubling apart from
        declaring bars "any further declaration", or "any further bid or double")."""
        calls = self._st.bar_calls.get(s, "all")
        return calls == "all" or text[0].isdigit() or calls == "bids_and_doubles" and text == "X"

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
        st.bars, st.bar_calls, st.bar_from = {}, {}, {}
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
                inc.pop("auction", None)  # (and the dealer, whose packet opposite is the seat he now plays from:
                inc.pop("callers", None)  # the incident is in the play's seats, the dummy opposite the declarer)
                inc.pop("dealer", None)
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
        facts["sufficient"] = sufficient(self.code, OverSeven(text), Call(bids[-1][1]) if bids else None)
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
        barred = st.bars.get(seat) is not None and st.bars.get(seat) != "overbid_or_doubled"
        if st.bars.get(seat) and not barred or barred and self._barred_from(seat, "X") and self._barred_from(seat, "XX"):
            return ["P"]  # a barred player may only pass (a barred dealer too: he may not bid)
        out = [] if not st.calls and self.rules.dealer_must_declare and not barred else ["P"]
        last = self._last_bid()
        for level in range(1, self.rules.max_level + 1 if not barred else 1):
            for strain in self.rules.strains:
                c = f"{level}{strain}"
                if last is None or self._higher(c, last):
                    out.append(c)
        for x in ("X", "XX"):
            try:
                if last is not None and not (barred and self._barred_from(seat, x)) and self._double_problem(seat, x) is None:
                    out.append(x)
            except (IllegalActionError, UnmodelledActionError):  # not open to him, or not yet playable here
                pass
        return out

