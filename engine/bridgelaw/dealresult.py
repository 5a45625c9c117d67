"""The end of a deal at the table, as the scoring module reads it (``schema/score.schema.json``).

Every result names its dealer (a game engine reads the next dealer from it, and a rubber's sheet holds its
deals' dealers to the rotation). Four-handed: the declarer, the contract as doubled, the tricks his side won, the deal (for honours), the
revokes established with the penalty chosen (a revoke ruled without a penalty costs nothing, and is left
out), and the penalties the rulings entered. Three-hand: the players are named by their seats in the
auction, the dummy by the seat its packet was dealt to; a partnership's score in the play goes to the
declarer, or to each of the two adversaries (T7, T12). A deal ended without play (a new deal, or all
passed) carries only the penalties exacted before it ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import InputError, OutOfTurnError
from .loader import Code

if TYPE_CHECKING:  # pragma: no cover
    from .table.state import PenaltyScore, TableState

__all__ = ["four_handed_result", "three_hand_result"]

_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def four_handed_result(code: Code, st: "TableState", contract: str | None, tricks: int | None = None) -> dict[str, Any]:
    """A finished four-handed deal (auction or straight bridge), or one ended without play; ``tricks``: the
    declarer's side's tricks as stated, for a deal whose play stopped (a claim) — see :func:`_played`."""
    if st.phase in ("new_deal", "passed_out"):
        return _without_play(code, st, lambda x: [x.player or x.side])  # type: ignore[list-item]
    res = _played(code, st, contract, tricks)
    revokes = [{"offender": r.seat, **({"choice": r.choice} if r.choice else {})} for r in st.revokes
               if r.established and r.penalized is not False]
    if revokes:
        res["revokes"] = revokes
    pens = [_penalty(code, x, x.side) for x in st.scores if x.kind != "revoke"]  # type: ignore[arg-type]
    if pens:
        res["penalties"] = pens
    return res


def three_hand_result(code: Code, st: "TableState", contract: str | None, tricks: int | None = None) -> dict[str, Any]:
    """The deal for the three-hand scorer: players named by their seats in the auction (the deal as
    dealt, the dummy packet's seat); a partnership's score in the play goes to the declarer, or to each
    of the two adversaries (T7: partners for that hand; T12)."""
    if st.phase in ("new_deal", "passed_out"):
        res = _without_play(code, st, lambda x: [x.player] if x.player else _auction_side(st, x))
        res["dummy"] = st.dummy_packet
        return res
    res = _played(code, st, contract, tricks)
    seating = st.seating or {}
    declarer = st.declarer
    if declarer is None or st.dummy_packet is None:  # pragma: no cover - a three-hand play has both
        raise OutOfTurnError("phase", "no declarer and dummy packet: the auction has not ended in a contract")
    res["dummy"] = st.dummy_packet
    lho = {"N": "E", "E": "S", "S": "W", "W": "N"}
    adversaries = [seating[lho[declarer]], seating[lho[lho[lho[declarer]]]]]

    def players(x: "PenaltyScore") -> list[str]:
        if x.player:
            return [x.player]
        side = x.side
        if side is None:  # pragma: no cover - a penalty score names a player or a side
            raise InputError("penalty", "a penalty score that names neither a player nor a side")
        if x.phase == "auction":  # no partnerships in the auction
            return _auction_side(st, x)
        return [declarer] if side == _SIDE[declarer] else adversaries

    def offender(position: str) -> str:  # a renounce from the dummy's hand is the dummy's (law 63)
        return st.dummy_packet if seating[position] == "dummy" else seating[position]  # type: ignore[return-value]

    revokes = [{"offender": offender(r.seat), **({"choice": r.choice} if r.choice else {})}
               for r in st.revokes if r.established and r.penalized is not False]
    if revokes:
        res["revokes"] = revokes
    pens = [_penalty(code, x, who) for x in st.scores if x.kind != "revoke" for who in players(x)]
    if pens:
        res["penalties"] = pens
    return res


def _played(code: Code, st: "TableState", contract: str | None, tricks: int | None = None) -> dict[str, Any]:
    """The contract played, with the tricks the declarer's side won — or, ``tricks`` given, as stated for a
    play that stopped before its end (a claim): what was played is ruled, and must leave room for them."""
    if tricks is None and st.phase != "done":
        raise OutOfTurnError("phase", f"the deal is not finished (phase {st.phase})")
    if tricks is not None and st.phase not in ("play", "done"):
        raise OutOfTurnError("tricks", f"no contract is being played (phase {st.phase})")
    declarer = st.declarer
    if declarer is None or contract is None:  # pragma: no cover - a contract played has its declarer
        raise OutOfTurnError("phase", "no contract and declarer: the auction has not ended in a contract")
    won = sum(1 for t in st.tricks if _SIDE[t.winner] == _SIDE[declarer])
    if tricks is not None:
        lost = len(st.tricks) - won
        if type(tricks) is not int:
            raise InputError("tricks", f"expected the declarer's side's tricks as a whole number, {won} to {13 - lost} "
                                       f"after the tricks played; got {tricks!r}")
        if not won <= tricks <= 13 - lost:
            raise InputError("tricks", f"the declarer's side won {won} and lost {lost} of the tricks played, so it "
                                       f"cannot end with {tricks!r}")
        won = tricks
    res: dict[str, Any] = {"code": code.id, "dealer": st.dealer, "declarer": declarer, "contract": contract,
                           "tricks": won}
    if _original_one_spade(code, st):
        res["original_one_spade"] = True
    if st.deal:
        res["deal"] = st.deal  # without the cards the honours are not known: the result leaves them out
    return res


def _original_one_spade(code: Code, st: "TableState") -> bool:
    """The dealer's original declaration of one spade, played by him: the contract the one-spade limit
    reaches, where the code has one."""
    return (st.contract == "1S" and st.declarer == st.dealer and bool(st.calls)
            and (st.calls[0].seat, st.calls[0].call) == (st.dealer, "1S") and "one_spade_limit" in code.params)


def _without_play(code: Code, st: "TableState", who: Any) -> dict[str, Any]:
    """A deal ended by a new deal (or passed out): the penalties exacted before it ended still score."""
    res: dict[str, Any] = {"code": code.id, "dealer": st.dealer, "new_deal": True}
    pens = [_penalty(code, x, w) for x in st.scores for w in who(x)]
    if pens:
        res["penalties"] = pens
    return res


def _penalty(code: Code, x: "PenaltyScore", who: str) -> dict[str, Any]:
    return {"side": who, "points": x.points, "column": x.column, "law": x.law or _law_of(code, x.kind)}


def _auction_side(st: "TableState", pen: "PenaltyScore") -> list[str]:
    """Three-hand, a score an inherited law gives a side in the auction: there are no partners there (T1,
    T4), so "the adverse score" is each of the offender's adversaries' (as T5, T9, T10 give it), and a
    score to the offender's own side is his."""
    players = [w for w in "NESW" if w != st.dummy_packet]
    off = pen.offender
    if off in players:
        return [off] if _SIDE[off] == pen.side else [w for w in players if w != off]  # type: ignore[list-item]
    return [w for w in "NESW" if _SIDE[w] == pen.side and w != st.dummy_packet]


def _law_of(code: Code, kind: str) -> str:
    """The first law a kind is ruled under (for a penalty recorded without its law)."""
    provs = code.by_kind.get(kind, ())
    return provs[0].law if provs else ""
