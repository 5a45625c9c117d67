"""The straight-bridge table: what differs from the auction table, and nothing else.

The dealer names the trump (``H``, ``NT``) or passes (``P``) and his partner must name it; then the eldest
hand and his partner may double (``X``) or not (``P``: "May I lead?" and "Yes"), and the doubling goes on by
turns (``XX`` … ``P``: satisfied) while a trick is worth no more than the code's limit. The dealer plays the
combined hands whoever named the trump; the contract is the trump and the multiplier (``H x4``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError, MalformedActionError
from ..values import Call
from .base import _LEGAL, _LHO, _PARTNER, _SIDE, Answer
from .core import Table
from .state import CallRecord, Doubling

if TYPE_CHECKING:  # pragma: no cover
    from .effects import Act

__all__ = ["StraightBridgeTable"]

_DECLARATIONS = ("P", "C", "D", "H", "S", "NT", "N")


class StraightBridgeTable(Table):
    """Straight bridge (portland-1904, american-1905, american-1907)."""

    variant = "straight-bridge"
    game = "straight-bridge"
    players = 4

    def _setup(self) -> None:
        self._st.doubling = Doubling()

    @property
    def _dbl(self) -> Doubling:
        d = self._st.doubling
        assert d is not None
        return d

    def _next_caller(self) -> str:
        d, dealer = self._dbl, self._st.dealer
        if d.step == "declare":
            return dealer
        if d.step == "partner":
            return _PARTNER[dealer]
        return d.turn or _LHO[dealer]

    def _trick_value(self) -> int:
        """What one trick of the contract is worth as doubled, as the scorer counts it (the scorer's own
        trick-value function: the doubling limit caps it, never below the undoubled value)."""
        from ..scoring import trick_value

        return trick_value(self.code, self._st.contract, self._st.doubled)  # type: ignore[arg-type]

    def _doubling_open(self) -> bool:
        """May the doubling go on: is a trick worth less than the code's limit?"""
        from ..scoring import can_double

        return can_double(self.code, self._st.contract, self._st.doubled)  # type: ignore[arg-type]

    def _deal_facts(self) -> dict[str, Any]:
        facts = super()._deal_facts()
        if self._st.contract:
            facts["trick_value"] = self._trick_value()
        return facts

    def _strain(self) -> str:
        return self._st.contract  # type: ignore[return-value]

    def _contract_text(self) -> str | None:
        st = self._st
        if st.contract is None:
            return None
        return st.contract + (f" x{st.doubled}" if st.doubled > 1 else "")

    def _report_extra(self) -> dict[str, Any]:
        return {}

    def _call_ok(self, text: str) -> bool:
        return text in ("P", "X") or text in self.rules.trick_values

    # ------------------------------------------------------------------ declaring and doubling

    def _call(self, s: str, call: Any) -> tuple[str, Answer]:
        st, d = self._st, self._dbl
        if isinstance(call, Call):
            text = call.text
        elif isinstance(call, str):
            text = call.strip().upper()
        else:
            raise MalformedActionError("call", f"expected a declaration (C, D, H, S, NT or P) or, while doubling, "
                                       f"X or P; got {call!r}")
        dealer = st.dealer
        if d.step in ("declare", "partner"):
            if text not in _DECLARATIONS or (text not in ("P", "N") and text not in self.rules.trick_values):
                raise MalformedActionError("call", f"{text!r}: in straight bridge the declaration is "
                                           + ", ".join(self.rules.strains) + " or P (pass the declaration to partner)")
            text = "NT" if text == "N" else text
            entitled = dealer if d.step == "declare" else _PARTNER[dealer]
            if s != entitled and st.detect:
                return text, self._ruled("declaration_out_of_turn", s, {"passed": text == "P"}, call=(s, text))
            if text == "P":
                if d.step == "partner" and st.detect:
                    return text, self._ruled("declaration_passed_back", s, {}, call=(s, text))
                d.step = "partner"
                st.calls.append(CallRecord(s, "P"))
                return text, _LEGAL
            self._declare(s, text)
            return text, _LEGAL
        # doubling: X doubles (or re-doubles), P declines ("May I lead?", "Yes", "Satisfied")
        if text not in ("X", "XX", "P"):
            raise MalformedActionError("call", f"{text!r}: while doubling, X (double or re-double) or P (no)")
        if s != d.turn and st.detect:
            facts: dict[str, Any] = {"call": "P" if text == "P" else "XX" if st.doubled > 1 else "X",
                                     "maker": st.maker}
            if st.contract != "S":  # the spade convention is about a spade make only
                facts["spade_convention"] = False
            last = d.last.get("EW" if _SIDE[s] == "NS" else "NS")
            if last:
                facts["last_doubler"] = last
            return text, self._ruled("double_out_of_turn", s, facts, call=(s, text))
        self._double(s, text)
        return text, _LEGAL

    def _declare(self, s: str, text: str, irregularity: str | None = None, remedy: str | None = None,
                 by: str | None = None) -> None:
        st, d = self._st, self._dbl
        st.calls.append(CallRecord(s, text, None, irregularity, remedy, by) if irregularity else CallRecord(s, text))
        st.contract, st.maker, st.declarer, st.doubled = text, s, st.dealer, 1
        d.step, d.turn, d.last, d.declined = "double", _LHO[st.dealer], {}, []  # the eldest hand first

    def _double(self, s: str, text: str, irregularity: str | None = None, remedy: str | None = None,
                by: str | None = None) -> None:
        """A double (X or XX: each doubles the trick's value) or a "no" (P) in straight bridge's doubling."""
        st, d = self._st, self._dbl
        call = "P" if text == "P" else "X"
        if call == "X" and not self._doubling_open():
            law = self.rules.doubling_limit_law
            raise IllegalActionError("call", f"the doubling has reached the limit of {self.rules.doubling_limit} "
                                     "points a trick" + (f" (law {law})" if law else "") + ": pass")
        st.calls.append(CallRecord(s, call, text if text != call else None, irregularity, remedy, by)
                        if irregularity else CallRecord(s, call))
        if call == "X":
            st.doubled *= 2
            d.last[_SIDE[s]] = s
            d.declined = []
            other = "EW" if _SIDE[s] == "NS" else "NS"
            # the first right to continue: the player who last doubled for that side, else the trump maker
            d.turn = d.last.get(other) or st.maker
            if not self._doubling_open():
                self._begin_play()  # the limit is reached: no more doubling
            return
        d.declined.append(s)
        if _PARTNER[s] in d.declined:
            self._begin_play()
        else:
            d.turn = _PARTNER[s]

    def _begin_play(self) -> None:
        st = self._st
        st.phase, st.leader = "play", _LHO[st.dealer]
        self._dbl.step = "done"
        self._next_deferred()

    def _call_stands(self, seat: str, text: str, act: "Act") -> None:
        """A double out of turn allowed to stand: the doubling goes on from it; a declaration out of turn
        allowed to stand is the declaration."""
        d = self._dbl
        if d.step == "double":
            self._double(seat, text, act.pending.kind, act.remedy, act.by)
        elif d.step in ("declare", "partner") and text != "P":
            self._declare(seat, text, act.pending.kind, act.remedy, act.by)

    def _no_double(self, e: dict[str, Any]) -> None:
        if e["scope"] == "hand" and self._dbl.step == "double":
            self._begin_play()  # no further doubling in that hand: the play begins
        else:
            super()._no_double(e)

    def legal_calls(self) -> list[str]:
        st = self._st
        if st.phase != "auction" or st.pending is not None:
            return []
        step = self._dbl.step
        if step == "declare":
            return ["P"] + list(self.rules.strains)
        if step == "partner":
            return list(self.rules.strains)
        return ["P"] + (["X", "XX"] if self._doubling_open() else [])
