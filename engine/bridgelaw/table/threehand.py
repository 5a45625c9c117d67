"""The three-hand table: what differs from the auction table, and nothing else.

The code's seat model (``table:`` in its code.yaml) says where the dummy packet lies — opposite the dealer —
and the laws for it: no player sits at the packet, and the rotation passes over it; each player bids on his
own account, so every other player is his adversary in the auction and only the player doubled may
redouble; the player who made the final declaration plays it; then the table is reseated, the dummy
opposite the declarer and the two adversaries opposite each other (the player opposite the declarer moves
to the packet's place). In the play seats are positions; :meth:`ThreeHandTable.seating` maps each to its
player.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError, InputError, MalformedActionError, TableStateError, UnmodelledActionError
from ..facts import other_players, three_hand_players
from ..values import Call
from .base import _PARTNER
from .core import Table

if TYPE_CHECKING:  # pragma: no cover
    from ..scoring import Score

__all__ = ["ThreeHandTable"]


class ThreeHandTable(Table):
    """Three-hand auction (wcny-1913-three-hand)."""

    variant = "three-hand"
    game = "auction"
    players = 3

    def _setup(self) -> None:
        packet = self.rules.seats.get("dummy_packet")
        if packet is None or packet.opposite != "dealer":
            raise InputError("code", f"{self.code.id} is played by three, but its code.yaml gives no seat model for "
                             "the dummy packet (table: dummy_packet: {opposite: dealer, law: ...})")
        self._st.dummy_packet = _PARTNER[self._st.dealer]

    @property
    def dummy_packet(self) -> str:
        """The seat the dummy packet was dealt to (opposite the dealer): no player sits there in the auction."""
        return self._st.dummy_packet  # type: ignore[return-value]

    def _refuse_seat(self, seat: str, action: str) -> None:
        if self._st.phase == "auction" and seat == self._st.dummy_packet:
            raise MalformedActionError("seat", f"{seat} is the dummy packet in three-hand ({self.rules.law('dummy_packet')}): "
                                       "no player sits there" + (", and the dummy hand is not touched until the final "
                                                                 "declaration" if action == "expose" else ""))
        seating = self._st.seating
        if self._st.phase == "play" and action in ("expose", "claim") and seating and seating.get(seat) == "dummy":
            raise IllegalActionError("seat", f"{seat} is the dummy, opposite the declarer {self._st.declarer}, who "
                                     "plays its cards: in three-hand no player sits there to "
                                     + ("expose a card (the dummy's cards lie face up)" if action == "expose"
                                        else "claim"))

    def _next_caller(self) -> str:
        calls = self._st.calls
        if not calls:
            return self._st.dealer
        return other_players(self.dealer, self._seat_of(calls[-1].seat))[0].value

    def _seat_of(self, s: str) -> Any:
        from ..values import Seat

        return Seat(s)

    def _adverse(self, a: str, b: str) -> bool:
        """Each player bids on his own account: every other player is an adversary in the auction."""
        return a != b

    def _double_problem(self, s: str, text: str) -> str | None:
        """Each bids on his own account: a player doubles another's declaration. A redouble of another's
        declaration doubled by the third player the laws do not forbid (the Auction laws bar a redouble only
        between partners, and there are none in the auction), but its score turns on whether "he or his
        partner has redoubled", which the scorer cannot yet be told: it is refused as the engine's limit."""
        law = self.rules.law("own_account")
        declaration, after = self._doubled_declaration(s, text)
        bidder = declaration.seat
        if text == "XX" and not any(c.call == "X" for c in after):
            raise IllegalActionError("call", f"XX redoubles {declaration.call}, which has not been doubled")
        if text == "X" and bidder == s:
            raise IllegalActionError("call", f"{s} cannot double his own declaration (three-hand, {law})")
        if text == "XX" and after and after[-1].call == "X" and bidder != s:
            if after[-1].seat == s:
                raise IllegalActionError("call", f"{s} cannot redouble his own double")
            partners = next((p.law for p in self.code.provisions if "redouble_of_partner_double" in p.kinds), "")
            bonus = self.code.params.entry("doubled_bonus.redoubled")
            raise UnmodelledActionError(
                "call", f"the laws do not forbid {s} to redouble {bidder}'s declaration doubled by "
                f"{after[-1].seat}: law {partners} bars a redouble only between partners, and each player bids on "
                f"his own account ({law}); but the bonus of law {bonus.law if bonus else ''} is the redoubled one "
                "only \"when he or his partner has redoubled\", and a score sheet cannot yet say who redoubled: "
                "this engine cannot yet play the call")
        if text == "X":
            return "extra_redouble" if after else None
        return None if after and after[-1].call == "X" else "extra_redouble"

    def _out_of_turn(self, s: str, text: str) -> Any:
        """A call out of turn, ruled; but a double of his own declaration no player may make, in turn or out of
        it (each bids on his own account: no law would rule it, he would choose his own penalty)."""
        if text == "X":
            bid = next((c for c in reversed(self._st.calls) if c.call[0].isdigit()), None)
            if bid is not None and bid.seat == s:
                raise IllegalActionError("call", f"{s} cannot double his own declaration (three-hand, "
                                         f"{self.rules.law('own_account')})")
        return super()._out_of_turn(s, text)

    def _out_of_turn_facts(self, kind: str, facts: dict[str, Any]) -> None:
        if kind == "call_out_of_turn":
            facts["succeeding_player_called"] = False  # detected at once: nobody has called over it

    def _over_seven_facts(self, s: str, bids: list[tuple[str, str]], facts: dict[str, Any]) -> None:
        # the other two players and their last bids, as the referee reads them from a record
        known: dict[str, Any] = {"offender": self._seat_of(s)}
        three_hand_players(self.dealer, tuple(Call(c) for _, c in bids), "impossible_bid", known,
                           tuple(self._seat_of(w) for w, _ in bids))
        facts.update({k: getattr(v, "text", getattr(v, "value", v)) for k, v in known.items() if k != "offender"})

    def _exposed_in_auction_facts(self, s: str, facts: dict[str, Any]) -> None:
        nxt, third = other_players(self.dealer, self._seat_of(s))
        facts.update(succeeding_player=nxt.value, third_player=third.value)

    def _declarer_of(self, bidder: str, final: str) -> str:
        """The player who made the final declaration plays it."""
        return bidder

    def _final_declaration(self, call: str, side: str | None) -> str:
        for c in reversed(self._st.calls):
            if c.call == call:
                return c.seat
        return super()._final_declaration(call, side)

    def _after_auction(self, declarer: str) -> None:
        """The reseating: the dummy opposite the declarer, the two adversaries opposite each other. The
        declarer keeps his seat; the player opposite him moves to the dummy packet's place and the dummy hand
        to his. The order of play is the round table's: declarer, the player on his left, dummy, the player
        on his right."""
        st = self._st
        packet = st.dummy_packet
        if packet is None:  # pragma: no cover - a three-hand table has its packet from the deal
            raise TableStateError("dummy_packet", "a three-hand table without its dummy packet")
        opposite = _PARTNER[declarer]
        seating = {s: s for s in "NESW"}
        seating[packet] = opposite if opposite != packet else "dummy"
        seating[opposite] = "dummy"
        st.seating = seating
        if opposite != packet:
            swap = {opposite: packet, packet: opposite}
            for m in (st.hands, st.exposed):
                if m:
                    a, b = m.pop(opposite, None), m.pop(packet, None)
                    if a is not None:
                        m[packet] = a
                    if b is not None:
                        m[opposite] = b
            if st.hands is not None:
                st.hands = {s: st.hands[s] for s in "NESW"}
            st.obligations = [replace(o, seat=swap.get(o.seat, o.seat)) for o in st.obligations]

    def _position_of(self, player: str) -> str:
        seating = self._st.seating
        if not seating:
            return player
        where = {who: pos for pos, who in seating.items()}
        return where.get(player, player)

    def seating(self) -> dict[str, str]:
        """After the final declaration: position -> the player sitting there (his seat in the auction) or
        "dummy". Before it: each seat its own player."""
        return dict(self._st.seating) if self._st.seating else super().seating()

    def result(self, tricks: int | None = None) -> dict[str, Any]:
        """The deal for the three-hand scorer, player by player (:mod:`bridgelaw.dealresult`)."""
        from ..dealresult import three_hand_result

        return three_hand_result(self.code, self._st, self._contract_text(), tricks)

    def _scored(self, won: int) -> "Score":
        """Three-hand scores player by player: the deal's sheet (:meth:`result`)."""
        from ..scoring import score

        return score(self.result())

    def check(self) -> None:
        super().check()
        st = self._st
        if st.phase == "play":  # the dummy opposite the declarer, the three players seated once each
            seating = st.seating or {}
            players = sorted([s for s in "NESW" if s != st.dummy_packet] + ["dummy"])
            if seating.get(_PARTNER[st.declarer]) != "dummy" or sorted(seating.values()) != players:  # type: ignore[index]
                raise TableStateError("state.seating", f"the reseating ({self.rules.law('reseat')}) puts the dummy "
                                      f"opposite the declarer and each player in one place; got {seating}")
