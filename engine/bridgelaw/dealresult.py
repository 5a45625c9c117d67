"""The end of a deal at the table, as the scoring module reads it (``schema/score.schema.json``).

Four-handed: the declarer, the contract as doubled, the tricks his side won, the deal (for honours), the
revokes established with the penalty chosen, and the penalties the rulings entered. Three-hand: the players
are named by their seats in the auction, the dummy by the seat its packet was dealt to; a partnership's
score in the play goes to the declarer, or to each of the two adversaries (T7, T12). A deal ended without
play (a new deal, or all passed) carries only the penalties exacted before it ended.
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import InputError
from .loader import Code
from .values import Seat

__all__ = ["deal_result"]


def deal_result(code: Code, st: Mapping[str, Any]) -> dict[str, Any]:
    """A finished deal, or one ended without play, as a scoring result (``schema/score.schema.json``)."""
    three, straight, dealer = code.players == 3, code.game == "straight-bridge", Seat(st["dealer"])
    if st["phase"] in ("new_deal", "passed_out"):
        return _without_play(code, st, three)
    if st["phase"] != "done":
        raise InputError("phase", f"the deal is not finished (phase {st['phase']})")
    declarer = Seat(st["declarer"])
    won = sum(1 for t in st["tricks"] if Seat(t["winner"]).side is declarer.side)
    if straight:
        contract = st["contract"] + (f" x{st['doubled']}" if st["doubled"] > 1 else "")
    else:
        contract = st["contract"] + {0: "", 1: "X", 2: "XX"}[st["doubled"]]
    res: dict[str, Any] = {"code": code.id, "declarer": declarer.value, "contract": contract, "tricks": won}
    if three:
        return _three_hand(code, st, res, dealer)
    if not straight and st["contract"] == "1S" and declarer is dealer and st["calls"] \
            and st["calls"][0] == [dealer.value, "1S"] and "one_spade_limit" in code.params:
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
                             "law": x.get("cite") or _law_of(code, x["law"])} for x in pens]
    return res

def _without_play(code: Code, st: Mapping[str, Any], three: bool) -> dict[str, Any]:
    """A deal ended by a new deal (or passed out): the penalties exacted before it ended still score."""
    res: dict[str, Any] = {"code": code.id, "new_deal": True}
    if three:
        res["dummy"] = st["dummy_hand"]
    pens = []
    for x in st["penalties"]:
        if "player" in x:
            who = [x["player"]]
        elif three:
            who = _auction_side(st, x)
        else:
            who = [x["side"]]
        pens += [{"side": w, "points": x["points"], "column": x["column"],
                  "law": x.get("cite") or _law_of(code, x["law"])} for w in who]
    if pens:
        res["penalties"] = pens
    return res

def _three_hand(code: Code, st: Mapping[str, Any], res: dict[str, Any], dealer: Seat) -> dict[str, Any]:
    """The deal for the three-hand scorer: players named by their seats in the auction (the deal as
    dealt, the dummy packet's seat); a partnership's score in the play goes to the declarer, or to each
    of the two adversaries (T7: partners for that hand; T12)."""
    seating = st["seating"]
    declarer = Seat(st["declarer"])
    res["dummy"] = st["dummy_hand"]
    if st["calls"] and st["contract"] == "1S" and st["calls"][0] == [dealer.value, "1S"] \
            and "one_spade_limit" in code.params and declarer is dealer:
        res["original_one_spade"] = True
    if st["deal"]:
        res["deal"] = st["deal"]
    adversaries = [seating[declarer.lho.value], seating[declarer.rho.value]]

    def players(position_or_side: str, phase: str = "play", off: str | None = None) -> list[str]:
        if position_or_side in ("NS", "EW") and phase == "auction":  # no partnerships in the auction
            return _auction_side(st, {"side": position_or_side, "offender": off})
        if position_or_side in ("NS", "EW"):
            return [declarer.value] if position_or_side == declarer.side.value else adversaries
        who = seating[position_or_side]
        return [declarer.value] if who == "dummy" else [who]

    def offender(position: str) -> str:  # a renounce from the dummy's hand is the dummy's (law 63)
        return st["dummy_hand"] if seating[position] == "dummy" else seating[position]

    revokes = [{"offender": offender(r["seat"]), **({"choice": r["choice"]} if r.get("choice") else {})}
               for r in st["revokes"] if r["established"]]
    if revokes:
        res["revokes"] = revokes
    pens = []
    for x in st["penalties"]:
        if x["law"] == "revoke":
            continue
        for who in ([x["player"]] if "player" in x else players(x["side"], x.get("phase", "play"), x.get("offender"))):
            pens.append({"side": who, "points": x["points"], "column": x["column"],
                         "law": x.get("cite") or _law_of(code, x["law"])})
    if pens:
        res["penalties"] = pens
    return res

def _auction_side(st: Mapping[str, Any], pen: Mapping[str, Any]) -> list[str]:
    """Three-hand, a score an inherited law gives a side in the auction: there are no partners there (T1,
    T4), so "the adverse score" is each of the offender's adversaries' (as T5, T9, T10 give it), and a
    score to the offender's own side is his."""
    players = [w.value for w in Seat if w.value != st["dummy_hand"]]
    off = pen.get("offender")
    if off in players:
        return [off] if Seat(off).side.value == pen["side"] else [w for w in players if w != off]
    return [w.value for w in Seat if w.side.value == pen["side"] and w.value != st["dummy_hand"]]


def _law_of(code: Code, kind: str) -> str:
    """The first law a kind is ruled under (for a penalty recorded without its law)."""
    provs = code.by_kind.get(kind, ())
    return provs[0].law if provs else ""
