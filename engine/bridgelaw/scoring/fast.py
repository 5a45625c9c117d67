"""The plain score sheet, read fast: a four-hand deal with only its declarer, contract, tricks and stated honours
(and perhaps its dealer, ``original_one_spade`` and a note) — the sheet a duplicate table or a rubber sends most.

:func:`score_plain` reads such a sheet in one pass, checking each field as the edge does (:mod:`.sheet`), and
scores it with the deal core's own :func:`.core.play` and :func:`.core.premium` and the code's :class:`.plan.Plan`.
It never refuses a sheet: on anything it does not take — another key, a value of another type or out of range,
a contract or honours the code does not have, a null — it returns ``None`` and :func:`bridgelaw.scoring.score`
takes the general path, which scores the sheet or names what is wrong. So the fast path can only score sheets the
general path scores the same (tests/test_scorefast.py fuzzes both, and the JSON Schema, against each other).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..values import Seat, Side
from .core import PARTNERSHIPS, play, premium
from .model import Row, Score
from .plan import Plan
from .sheet import original_one_spade

__all__ = ["PLAIN_KEYS", "score_plain"]

PLAIN_KEYS = frozenset(("code", "declarer", "contract", "tricks", "honours", "dealer", "original_one_spade", "note"))
_SEATS = {s._value_: s for s in Seat}
# the declarer's seat, his side (who scores for the declaring side) and the adversaries
_DECLARING = {s._value_: (s, (s.side,), (s.side.other,)) for s in Seat}
_NO_ONE: frozenset[Any] = frozenset()
_MAX_NOTE = 500  # as schema/score.schema.json and the edge (.sheet) allow


def score_plain(plan: Plan, result: Mapping[str, Any]) -> Score | None:
    """The score of a plain four-hand sheet, or ``None``: the sheet is not plain, or is wrong (the general path
    then says where)."""
    if not PLAIN_KEYS.issuperset(result):
        return None
    d = result.get("declarer")
    c = result.get("contract")
    t = result.get("tricks")
    if type(d) is not str or type(c) is not str or type(t) is not int or not 0 <= t <= 13:
        return None
    seated = _DECLARING.get(d)
    cp = plan.contracts.get(c)
    if cp is None:
        try:
            cp = plan.contract(c)
        except InputError:
            return None
    if seated is None:
        return None
    h = result.get("honours")
    dealer_seat = None
    extra = len(result) - 4 - (h is not None)
    if extra:  # dealer, original_one_spade, note: each given has a value (a null is refused by the general path)
        dealer = result.get("dealer")
        flag = result.get("original_one_spade")
        note = result.get("note")
        if extra != (dealer is not None) + (flag is not None) + (note is not None):
            return None
        if dealer is not None:
            dealer_seat = _SEATS.get(dealer) if type(dealer) is str else None
            if dealer_seat is None:
                return None
        if note is not None and (type(note) is not str or len(note) > _MAX_NOTE):
            return None
    else:
        flag = None
    row: Row | tuple[()] = ()
    if h is not None and h != "none":
        if type(h) is not dict or len(h) != 2:
            return None
        side, held = h.get("side"), h.get("held")
        if type(side) is not str or type(held) is not str:
            return None
        got = cp.honours.get((side, held))
        if got is None:
            return None
        row = got
    original, spade_note = False, ""
    if flag is not None or cp.level == 1:
        try:
            original, spade_note = original_one_spade(plan.rules, result, cp.contract, seated[0], dealer_seat, "")
        except InputError:
            return None
    out: list[Row] = []
    notes: list[str] = []
    declaring, defending = seated[1], seated[2]
    play(plan.rules, cp, PARTNERSHIPS, declaring, defending, t, 0, original, spade_note, _NO_ONE, out, notes)
    if row:
        out.append(row)  # type: ignore[arg-type]
    if plan.rules.premium is not None:
        premium(plan.rules, _BOTH[declaring[0]], out)
    s = _new(Score)  # as model.new_score makes it
    d = s.__dict__
    d["code"] = plan.id
    d["_rows"] = tuple(out)
    if notes:
        d["notes"] = tuple(notes)
    return s


_new = object.__new__
_BOTH = {Side.NS: (Side.NS, Side.EW), Side.EW: (Side.EW, Side.NS)}  # the declaring side, then the adversaries
