"""The plain score sheet, read fast: a four-hand deal with only its declarer, contract, tricks and its honours,
stated or from its deal (and perhaps its dealer, ``original_one_spade``, a note and its revokes) — the sheet a
duplicate table, a rubber or a game engine's table sends most.

:func:`score_plain` reads such a sheet in one pass, checking each field as the edge does (:mod:`.sheet`), and
scores it with the deal core's own :func:`.core.play` and :func:`.core.premium` (each play's rows remembered by its
contract plan: :attr:`.plan.ContractPlan.played`) and the code's :class:`.plan.Plan`
(a deal with revokes, under a code that does not cap a revoking side's score toward game, with the deal core's
:func:`.core.score_core` itself, from a :class:`.sheet.Sheet` made here).
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
from .core import PARTNERSHIPS, play, premium, score_core, score_sheet
from .deal import honours_of, read_card_hands, read_hands, voids
from .model import Row, Score, new_score
from .plan import ContractPlan, Plan
from .sheet import _MAX_TEXT as _MAX_NOTE  # the edge's bound on a note
from .sheet import FEWEST, MAX_LIST, Revoke, Sheet, none_possible, original_one_spade, tricks_against_holding

__all__ = ["PLAIN_KEYS", "score_plain", "plain_rows", "score_dealt"]

# the keys score_plain reads, and takes no sheet with any other (its count of the keys given says so)
PLAIN_KEYS = frozenset(("code", "declarer", "contract", "tricks", "honours", "dealer", "original_one_spade", "note",
                        "deal", "revokes"))
_SEATS = {s._value_: s for s in Seat}
# the declarer's seat, his side (who scores for the declaring side) and the adversaries
_DECLARING = {s._value_: (s, (s.side._value_,), (s.side.other._value_,)) for s in Seat}
_NO_ONE: frozenset[Any] = frozenset()


def score_plain(plan: Plan, result: Mapping[str, Any], hands: Mapping[str, Any] | None = None) -> Score | None:
    """The score of a plain four-hand sheet, or ``None``: the sheet is not plain, or is wrong (the general path
    then says where). ``result``'s ``code``, if it has one (a deal of a rubber need not), is the plan's; ``hands``
    (card texts by seat) stand for its deal."""
    got = plain_rows(plan, result, hands)
    if got is None:
        return None
    s = _new(Score)  # as model.new_score makes it
    s._code = plan.id
    s._rows = got[0]
    s._entries = None
    s._more = {"notes": got[1]} if got[1] else None
    return s


def plain_rows(plan: Plan, result: Mapping[str, Any], hands: Mapping[str, Any] | None = None
               ) -> tuple[tuple[Row, ...], tuple[str, ...]] | None:
    """:func:`score_plain`'s rows and notes, before a Score is made of them (a rubber keeps its deals so, and
    makes their Scores when they are read)."""
    d = result.get("declarer")
    c = result.get("contract")
    t = result.get("tricks")
    if type(d) is not str or type(c) is not str or type(t) is not int or not 0 <= t <= 13:
        return None
    seated = _DECLARING.get(d)
    if seated is None:
        return None
    cp = plan.contracts.get(c)
    if cp is None:
        try:
            cp = plan.contract(c)
        except InputError:
            return None
    h = result.get("honours")
    # the keys are those read here and no others, each with a value (a null is refused by the general path):
    # declarer, contract and tricks, then code, honours, dealer, original_one_spade, note and deal where given
    extra = len(result) - 3 - (h is not None) - ("code" in result)
    dealer_seat = flag = deal = None
    revoked: tuple[Revoke, ...] | None = ()
    if extra:
        dealer = result.get("dealer")
        flag = result.get("original_one_spade")
        note = result.get("note")
        deal = result.get("deal")
        revokes = result.get("revokes")
        if extra != (dealer is not None) + (flag is not None) + (note is not None) + (deal is not None) + \
                (revokes is not None):
            return None
        if dealer is not None:
            dealer_seat = _SEATS.get(dealer) if type(dealer) is str else None
            if dealer_seat is None or dealer_seat is not seated[0] and not plan.rules.auction:
                return None  # (straight bridge: the dealer plays the combined hands; the general path says so)
        if note is not None and (type(note) is not str or len(note) > _MAX_NOTE or not note.isprintable()):
            return None
        if revokes is not None:
            revoked = _revokes(revokes)
            if revoked is None or revoked and plan.rules.revoking_cap is not None:
                return None  # a revoke the general path names as wrong; a code that caps a revoking side's score
    row: Row | tuple[()] = ()
    held = None
    unstated = ""  # the note on a sheet giving neither honours nor the deal (as the edge says it)
    if deal is not None or hands is not None:  # honours from the cards (stated as well, they are compared)
        if h is not None or (deal is not None and hands is not None):
            return None
        try:
            dealt = read_hands(deal, "deal") if hands is None else read_card_hands(hands)
        except InputError:
            return None
        strain = cp.contract.strain
        if plan.rules.chicane is not None and voids(dealt, strain):
            return None  # chicane: the general path scores it
        held = honours_of(dealt, strain)
        if held is not None:
            least = FEWEST.get(held[1])
            if least and not cp.nt and (t if held[0]._value_ == seated[1][0] else 13 - t) < least:
                return None  # tricks the honours dealt cannot leave in play: the general path scores them, noted
            row = cp.honours.get((held[0]._value_, held[1]), ())  # a holding the code does not score: none
    elif type(h) is dict:
        side, held_key = h.get("side"), h.get("held")
        if len(h) != 2 or type(side) is not str or type(held_key) is not str:
            return None
        got = cp.honours.get((side, held_key))
        least = FEWEST.get(held_key)
        if got is None or least and not cp.nt and (t if side == seated[1][0] else 13 - t) < least:
            return None  # a holding the code lacks (the general path refuses it), or tricks it cannot leave in play
            # (the general path scores them, with its note)
        row = got
        if revoked:  # the deal core reads the holding (a side and its key)
            held = (_SIDES[side], held_key)
    elif h is None:
        unstated = cp.unstated
    elif h != "none" or not none_possible(plan.rules, cp.contract.strain):
        return None  # 'none' where the code's table always scores a side's honours: the general path refuses it
    original, spade_note = False, ""
    if flag is not None or cp.level == 1:
        try:
            original, spade_note = original_one_spade(plan.rules, result, cp.contract, seated[0], dealer_seat, "")
        except InputError:
            return None
    if revoked:  # the deal core scores the revokes (through the code's provisions) and the rest
        if held is not None and (held[0]._value_, held[1]) not in cp.honours:
            held = None  # a holding this code does not score
        sheet = Sheet(seated[0], dealer_seat, cp.contract, t, held, None, (), revoked, (), original, None, spade_note,
                      unstated)
        try:
            rows, notes, _ = score_core(plan.rules, sheet, PARTNERSHIPS, "")
        except InputError:
            return None
        return tuple(rows), tuple(notes)
    return _plain(plan, cp, seated, t, row, original, spade_note, unstated)


def score_dealt(plan: Plan, declarer: str, contract: str, tricks: int, deal: str | None, original: bool,
                revokes: tuple[Revoke, ...] = ()) -> Score:
    """The table's entry: a four-hand deal played out at a table, from the facts the table has itself checked — the
    declarer's seat (``N`` ... ``W``), the contract as doubled in the code's spelling (``4SX``; straight bridge
    ``H x2``), the tricks his side won, the deal it dealt (a PBN string of the 52 cards; None: none was given, and
    honours are not scored), whether the contract is the dealer's original one spade, and the revokes
    established with the penalty chosen. Nothing is read from a sheet: the honours, the chicane and the note on a
    one spade are derived here as :func:`.sheet.read_sheet` derives them, and the deal is scored by the same core —
    a plain deal as :func:`score_plain` scores it, any other through :func:`.core.score_sheet` — so the score, its
    reasons and its citations are those of the deal's score sheet (tests/test_tablescore.py).
    A contract the code does not have is refused as the sheet's would be."""
    rules = plan.rules
    cp = plan.contracts.get(contract) or plan.contract(contract)
    seated = _DECLARING[declarer]
    row: Row | tuple[()] = ()
    held = None
    chicane: tuple[Seat, ...] = ()
    unstated = cp.unstated if deal is None else ""  # no deal: no honours scored, and said as a sheet's edge says it
    tricks_note = ""  # fewer tricks than the honours dealt win in play (a concession in error): said
    if deal is not None:
        dealt = read_hands(deal)
        strain = cp.contract.strain
        held = honours_of(dealt, strain)
        if held is not None:
            if not cp.nt:  # (the holding as dealt, scored by the code or not, as the sheet reader checks it)
                tricks_note = tricks_against_holding(held[0]._value_, held[1], seated[1][0], tricks)
            got = cp.honours.get((held[0]._value_, held[1]))
            if got is None:
                held = None  # a holding this code does not score
            else:
                row = got
        if rules.chicane is not None:
            chicane = voids(dealt, strain)
    spade_note = ""
    if original or cp.level == 1:
        original, spade_note = original_one_spade(rules, _STATED if original else _UNSTATED, cp.contract, seated[0],
                                                  None, "")
    if revokes or chicane or tricks_note:  # the deal core, remembered by the contract plan (cp.dealt)
        key = (seated[0], tricks, held, chicane, revokes, original, spade_note, unstated, tricks_note)
        got = cp.dealt.get(key)
        if got is None:
            sheet = Sheet(seated[0], None, cp.contract, tricks, held, None, chicane, revokes, (), original, None,
                          spade_note, unstated, tricks_note)
            s = score_sheet(rules, sheet)
            got = (s._rows, s.notes, s.capped)
            if len(cp.dealt) < _PLAYED_MAX:
                cp.dealt[key] = got
        return new_score(plan.id, *got)
    rows, notes = _plain(plan, cp, seated, tricks, row, original, spade_note, unstated)
    s = _new(Score)  # as model.new_score makes it
    s._code = plan.id
    s._rows = rows
    s._entries = None
    s._more = {"notes": notes} if notes else None
    return s


_STATED = {"original_one_spade": True}  # what a sheet says of a one spade the dealer declared first and plays
_UNSTATED: dict[str, Any] = {}


def _plain(plan: Plan, cp: ContractPlan, seated: tuple[Seat, tuple[str, ...], tuple[str, ...]], t: int,
           row: Row | tuple[()], original: bool, spade_note: str,
           unstated: str) -> tuple[tuple[Row, ...], tuple[str, ...]]:
    """A plain deal's rows and notes (no revokes, penalties or chicane), its play remembered by its contract plan:
    the play's rows, the honours row (``row``, or ``()``), the premium's rows; ``unstated``, the note on honours
    neither given nor dealt (or ``""``), follows the play's notes."""
    _, declaring, defending = seated
    key = (declaring[0], t, original, spade_note)
    hit = cp.played.get(key) or _played(plan, cp, key, declaring, defending)
    return ((hit[0] + (row, *hit[1]) if row else hit[0] + hit[1] if hit[1] else hit[0]),  # type: ignore[operator]
            (*hit[2], unstated) if unstated else hit[2])


def _played(plan: Plan, cp: ContractPlan, key: tuple[str, int, bool, str], declaring: tuple[str, ...],
            defending: tuple[str, ...]) -> tuple[tuple[Row, ...], tuple[Row, ...], tuple[str, ...]]:
    """A plain deal's play as the deal core scores it, and the premium on it (:attr:`.plan.ContractPlan.played`;
    ``key``: the declaring side, the tricks it won, the original one spade and the note on it)."""
    out: list[Row] = []
    notes: list[str] = []
    play(plan.rules, cp, PARTNERSHIPS, declaring, defending, key[1], 0, key[2], key[3], _NO_ONE, out, notes)
    rows = tuple(out)
    prem: tuple[Row, ...] = ()
    if plan.premium:  # (counts the trick points only: the honours row, scored between them, is not counted)
        premium(plan.rules, _BOTH[declaring[0]], out)
        prem = tuple(out[len(rows):])
    hit = (rows, prem, tuple(notes) if notes else ())
    if len(cp.played) < _PLAYED_MAX:
        cp.played[key] = hit
    return hit


#: At most this many plays kept by each contract plan (two sides, fourteen counts of tricks, ...: far fewer arise).
_PLAYED_MAX = 512


def _revokes(revokes: Any) -> tuple[Revoke, ...] | None:
    """The sheet's revokes as :func:`.sheet.read_sheet` reads them, or None where it would refuse them (or read a
    seat spelt otherwise than ``N`` ``E`` ``S`` ``W``)."""
    if type(revokes) is not list or len(revokes) > MAX_LIST:
        return None
    out = []
    for r in revokes:
        if type(r) is not dict:
            return None
        named = r.get("offender")
        offender = _SEATS.get(named) if type(named) is str else None
        choice = r.get("choice")
        if offender is None or len(r) != 1 + ("choice" in r) or \
                "choice" in r and (type(choice) is not str or len(choice) > 40):
            return None
        out.append(Revoke(offender, choice))
    return tuple(out)


_SIDES = {s._value_: s for s in (Side.NS, Side.EW)}
_new = object.__new__
_BOTH = {"NS": ("NS", "EW"), "EW": ("EW", "NS")}  # the declaring side, then the adversaries
