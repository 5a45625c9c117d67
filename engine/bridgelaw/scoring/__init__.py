"""Score deals and rubbers under a code, every number from its parameters, every entry citing its law.

A *result* (``schema/score.schema.json``) names the code, the declarer, the contract, the tricks the declaring
side won, and the honours — from a PBN ``deal`` or stated — plus revokes (with the penalty the innocent side
chose) and other penalty points. A *rubber* is ``{code, deals: [result, ...], unfinished: bool}``.

The package, one job a module:

- :mod:`.rules` — a code's scoring numbers bound once, and :func:`trick_value` (shared with the table);
- :mod:`.sheet` — the score sheet checked at the edge, with the facts it determines derived;
- :mod:`.deal` — PBN deals read as rank strings; honours and chicane counted from them;
- :mod:`.plan` — a code's scoring plan: each contract's numbers, laws and reason templates resolved once;
- :mod:`.core` — the one deal scorer, with the who-scores hook (:class:`.core.Partnerships`, :class:`.core.Players`);
- :mod:`.fast` — the plain four-hand sheet read in one pass and scored by the core, each play's rows remembered by
  its contract plan (anything else: the general path); and the table's entry, :func:`score_dealt`, a deal played out
  at a table scored from the facts the table checked itself (nothing re-read: the same core, the same score);
- :mod:`.revokes` — revokes through the code's own revoke provisions (the referee);
- :mod:`.rubber` — the one rubber scorer (a plain deal kept as its rows, its Score made when the deals are read),
  and the three-hand settlement;
- :mod:`.model` — :class:`ScoreEntry` (its reason formatted when read), :class:`Score` (its entries kept as plain
  rows, made into ScoreEntry objects when first read), :class:`Contract`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..loader import Code, load_code
from ..values import Seat
from .core import score_sheet
from .deal import honours_of, parse_deal, read_hands
from .fast import score_dealt as _score_dealt
from .fast import score_plain
from .model import Contract, Score, ScoreEntry, new_score
from .plan import Plan, plan_of
from .rubber import score_rubber, settle
from .rules import Rules, can_double, rules_of, trick_value
from .sheet import NO_PLAY_KEYS, Revoke, _text, check_keys, read_penalties, read_sheet
from .sheet import parse_contract as _parse_contract

__all__ = ["ScoreEntry", "Score", "Contract", "score", "settle", "parse_contract", "parse_deal", "honours_of",
           "trick_value", "can_double", "rules_of", "read_hands", "score_dealt", "Revoke"]


def parse_contract(code: Any, text: Any, field_name: str = "contract") -> Contract:
    """A contract as the code reads it (``'2HX'``; straight bridge ``'H x4'``)."""
    return _parse_contract(rules_of(code), text, field_name)


_PLANS: dict[str, Plan] = {}  # by code id: the plan of the code load_code gives


def score(result: Mapping[str, Any], hands: Mapping[str, Any] | None = None) -> Score:
    """Score one deal, or a rubber (``deals: [...]``).

    ``hands`` (one deal) are the four hands as card texts by seat (``{"N": ["SA", "HT", ...], ...}``, as a table
    holds them), given instead of the result's ``deal`` string: honours and chicane are counted from them."""
    if type(result) is dict:  # the plain four-hand sheet, if it is one (else the general path)
        code_id = result.get("code")
        plan = _PLANS.get(code_id) if type(code_id) is str else None
        if plan is not None and plan.code is load_code(code_id):  # type: ignore[arg-type]
            if "deals" not in result:
                if plan.four_hand:
                    s = score_plain(plan, result, hands)
                    if s is not None:
                        return s
            elif hands is None and plan.rules.rubbers:  # a rubber, as score_general would send it on
                return score_rubber(plan.rules, result, fast=True)
    return score_general(result, hands, fast_deals=True)


def score_dealt(code: Code, declarer: str, contract: str, tricks: int, deal: str | None, original: bool,
                revokes: tuple[Revoke, ...] = ()) -> Score | None:
    """Score a four-hand deal played out at a table from the facts the table has itself checked (see
    :func:`.fast.score_dealt`: the same core, the same score as the deal's score sheet), or ``None`` where ``code``
    is not the code :func:`score` would read for its id (the caller then scores the sheet)."""
    plan = _PLANS.get(code.id)
    if plan is None or plan.code is not code:
        if load_code(code.id) is not code:
            return None
        plan = _PLANS[code.id] = plan_of(rules_of(code))
    if not plan.four_hand:
        return None
    return _score_dealt(plan, declarer, contract, tricks, deal, original, revokes)


def score_general(result: Mapping[str, Any], hands: Mapping[str, Any] | None = None, fast_deals: bool = False
                  ) -> Score:
    """:func:`score` without the fast path for the plain sheet: every sheet (and, unless ``fast_deals``, every
    deal of a rubber) through the edge's checks (:mod:`.sheet`) and the deal core. It scores what :func:`score`
    scores, the same, and refuses the rest with the same error (tests/test_scorefast.py)."""
    if type(result) is not dict and not isinstance(result, Mapping):
        raise InputError("result", "expected a mapping with code, declarer, contract, tricks, ...")
    code_id = result.get("code")
    if code_id is None:
        raise InputError("code", "is required")
    if type(code_id) is not str or not 0 < len(code_id) <= 40:
        raise InputError("code", f"expected a code id such as wcny-1913, got {code_id!r:.60}")
    plan = _PLANS.get(code_id)
    if plan is None or plan.code is not load_code(code_id):
        plan = _PLANS[code_id] = plan_of(rules_of(load_code(code_id)))
    if "deals" in result:
        if hands is not None:
            raise InputError("hands", "a rubber's deals each carry their own deal: hands are given with one deal")
        if not plan.rules.rubbers:
            raise InputError("deals", f"{plan.id} has neither games nor rubbers: score each deal by itself")
        return score_rubber(plan.rules, result, fast=fast_deals)
    return score_one(plan.rules, result, hands=hands)


def score_one(rules: Rules, result: Mapping[str, Any], where: str = "",
              capped_below: Mapping[Any, int] | None = None, hands: Mapping[str, Any] | None = None) -> Score:
    """One deal: played, or ended without play. ``capped_below`` is each side's score toward game so far (in a
    rubber, by the text of the side), which a revoking side's cap counts from."""
    if result.get("new_deal") is not None:
        if hands is not None:
            raise InputError("hands", "a deal ended without play scores no honours: give no hands")
        return _without_play(rules, result, where)
    return score_sheet(rules, read_sheet(rules, result, where, hands), where, capped_below)


def _without_play(rules: Rules, result: Mapping[str, Any], where: str) -> Score:
    """A deal that ends without play (a new deal demanded, or every player passed): only the penalties exacted
    before it ended score."""
    check_keys(result, NO_PLAY_KEYS, where, "a deal without play has")
    if result["new_deal"] is not True:
        raise InputError(f"{where}new_deal", f"expected true (the deal ended without play), got {result['new_deal']!r}")
    players = None
    if rules.three:
        if "dummy" not in result:
            raise InputError(f"{where}dummy", "is required in three-hand: the seat of the dummy hand")
        dummy = Seat.parse(result["dummy"], f"{where}dummy") if isinstance(result["dummy"], str) else None
        if dummy is None:
            raise InputError(f"{where}dummy", f"expected a seat N, E, S or W, got {result['dummy']!r}")
        players = tuple(s for s in Seat if s is not dummy)
    if result.get("dealer") is not None and (not isinstance(result["dealer"], str) or result["dealer"] not in "NESW"
                                             or len(result["dealer"]) != 1):
        raise InputError(f"{where}dealer", f"expected a seat N, E, S or W, got {result['dealer']!r}")
    if "note" in result:
        _text(result["note"], f"{where}note")
    pens = read_penalties(rules, result, where, players)
    rows = tuple((p.who._value_, p.column, p.points, p.reason, p.law, "penalty") for p in pens if p.points)
    note = ("the deal ended without play: only the penalties exacted in it score",)
    return new_score(rules.id, rows, note, (), players or ())  # type: ignore[arg-type]
