"""Carrying a ruling out: :meth:`Table.apply` (a mixin of the table core).

The chosen option (or the automatic effects) is checked whole before anything moves — the option and who
chooses it, a suit or card the chooser must name, the card that replaces a renounce corrected in time —
then each effect is carried out by the one handler registered for its kind (:mod:`.effects`). Should an
effect still fail, the state is put back from the history, exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import (
    BridgelawError, IllegalActionError, MalformedActionError, OutOfTurnError, RulingPendingError, TableStateError,
)
from ..obligations import RANK_INDEX
from ..values import Option, Ruling
from .effects import HANDLERS, Act
from .state import HistoryEntry, Pending

if TYPE_CHECKING:  # pragma: no cover
    from .core import Table

__all__ = ["apply", "Fix"]

_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


@dataclass(frozen=True)
class Fix:
    """A revoke corrected in time: the card played in error, and the card of the suit led that replaces it."""

    seat: str
    trick: int
    index: int
    wrong: tuple[str, str]
    right: str


def apply(t: "Table", option: str | Option | None, suit: str | None, by: str | None,
          card: str | None) -> Ruling:
    """``Table.apply``: check the choice whole, then carry it out."""
    st = t._st
    p = st.pending
    if p is None:
        raise OutOfTurnError("option", "no ruling is waiting")
    if suit is not None and suit not in ("C", "D", "H", "S"):
        raise MalformedActionError("suit", f"expected a suit C, D, H or S, got {suit!r}")
    if card is not None:
        card = t._card(card)
    if isinstance(by, (tuple, list)):  # the chooser as the ruling gives it: "either of these players"
        if not by or not all(isinstance(x, str) and x in _SIDE for x in by):
            raise MalformedActionError("by", f"expected the chooser's seat N, E, S or W (or side NS, EW), got {by!r}")
        by = tuple(by)  # type: ignore[assignment]
    elif by is not None and by not in _SIDE and by not in ("NS", "EW"):
        raise MalformedActionError("by", f"expected the chooser's seat N, E, S or W (or side NS, EW), got {by!r}")
    r = t._ruling_of(p)
    if r.questions and option is None and st.phase == "auction" \
            and all(q.fact == "declarer" for q in r.questions):
        return _defer(t, r, p)
    if r.questions:
        raise RulingPendingError("option", "the ruling still asks: " + "; ".join(q.ask for q in r.questions)
                                 + " (answer(...) first)")
    oid = option.id if isinstance(option, Option) else option
    if oid is not None and not isinstance(oid, str):
        raise MalformedActionError("option", f"expected an option id, got {oid!r}")
    key = (id(r), oid, by)
    hit = _CHOICES.get(key)
    if hit is None or hit[0] is not r:
        hit = _choice(r, oid, by)
        if len(_CHOICES) >= 4096:
            _CHOICES.clear()
        _CHOICES[key] = hit
    _, chosen, declined, plain, asks_suit = hit
    if p.done:  # a deferred ruling's effects carried out in the auction
        left = list(plain)
        for done in p.done:
            if done in left:
                left.remove(done)
        plain = tuple(left)
        asks_suit = next((e["kind"] for e in plain if e["kind"] in ("call_lead", "forbid_lead")
                          and not e.get("suit")), None)
    if asks_suit and not suit:  # what the chooser must name, asked before anything moves
        raise MalformedActionError("suit", f"the remedy {'calls' if asks_suit == 'call_lead' else 'forbids'} "
                                   "a suit the chooser names: apply(..., suit=...)")
    if suit is not None and not asks_suit:  # else the suit named would be dropped unsaid
        raise MalformedActionError("suit", f"{suit!r}, but {oid or 'this remedy'!r} names no suit (a suit is named "
                                   "where the remedy calls or forbids a lead the chooser picks): leave suit out")
    if card is not None and p.correction is None and not p.together \
            and not any(e["kind"] == "play_card" and not e.get("card") for e in plain):
        raise MalformedActionError("card", f"{card}, but {oid or 'this remedy'!r} names no card (a "
                                   "card is named for a renounce corrected, cards played together, or a card "
                                   "called): leave card out")
    fix = _correction(t, p, plain, card) if p.correction is not None else None
    remedy = chosen.id if chosen else "declined" if declined else "effects"
    # who chose: the seat named, else the option's chooser where it is one seat or side (of "either other
    # player", unnamed, the history says no one)
    who = by if isinstance(by, str) else chosen.chooser if chosen and isinstance(chosen.chooser, str) else None
    try:  # from here the state moves; should an effect fail, the history puts it back
        _carry_out(t, p, r, chosen, declined, plain, fix, suit, card, remedy, who)
    except BridgelawError:
        t._restore()
        raise
    args = {k: v for k, v in (("option", oid), ("suit", suit), ("card", card)) if v is not None}
    due = st.pending.kind if st.pending is not None else None
    st.history.append(HistoryEntry("apply", who, args, True, p.kind, p.offender, remedy=remedy, due=due))
    return r


_CHOICES: dict[tuple[int, str | None, Any], tuple[Ruling, Option | None, bool, tuple[dict[str, Any], ...], str | None]] = {}


def _choice(r: Ruling, oid: str | None, by: Any) -> tuple[Ruling, Option | None, bool, tuple[dict[str, Any], ...],
                                                         str | None]:
    """The option ``oid`` chosen by ``by`` under ruling ``r``, checked: (the ruling, the option or None, whether
    the one remedy offered is declined, the effects to carry out as plain data, the kind of an effect whose suit
    the chooser must name). Remembered by :func:`apply`: a ruling is immutable, so is what a choice of it gives."""
    ids = list(dict.fromkeys(o.id for o in r.options))
    # the one remedy a law offers ("may demand ...") may be declined: the irregular call or card stands
    declined = bool(r.options) and oid is None and len(ids) == 1
    chosen: Option | None = None
    if r.options and not declined:
        if oid not in ids:
            raise MalformedActionError("option", f"choose one of {', '.join(ids)}; got {oid!r}")
        chosen = next((o for o in r.options if o.id == oid and (by is None or o.may_choose(by))), None)
        if chosen is None:
            whom = sorted({o.chooser if isinstance(o.chooser, str) else " or ".join(o.chooser)
                           for o in r.options if o.id == oid})
            raise IllegalActionError("by", f"{oid!r} is chosen by {', '.join(whom)}; got {by!r}")
    elif oid is not None:
        raise MalformedActionError("option", "this ruling has no options")
    plain = tuple(e.to_dict() for e in (*r.effects, *(chosen.effects if chosen else ())))
    asks = next((e["kind"] for e in plain if e["kind"] in ("call_lead", "forbid_lead") and not e.get("suit")), None)
    return r, chosen, declined, plain, asks


def _carry_out(t: "Table", p: Pending, r: Ruling, chosen: Option | None, declined: bool,
               effects: Sequence[dict[str, Any]], fix: Fix | None, suit: str | None, card: str | None,
               remedy: str, who: str | None) -> None:
    st = t._st
    st.pending = None
    # an irregular call or card that no effect disposes of is simply not made: the card stays in the
    # hand (exposed, if a remedy says so), and the turn stays where it was (law 49 for a pass)
    law = chosen.law if chosen and chosen.law else (r.laws[0].number if r.laws else "")
    act = Act(p, p.call, fix.wrong if fix else p.card, suit, card, law, remedy, who, fix is not None)
    if declined:
        if p.call:
            HANDLERS["call_stands"](t, {"kind": "call_stands"}, act)
        elif p.card:
            HANDLERS["trick_stands"](t, {"kind": "trick_stands"}, act)
    if fix:  # the card played in error back in his hand (exposed, if a remedy says so), the right one played
        _substitute(t, fix)
    for e in effects:
        HANDLERS[e["kind"]](t, e, act)
    if p.kind == "revoke" and p.revoke is not None:
        for rv in st.revokes:
            if rv.trick == p.revoke and rv.seat == p.offender:
                # the scorer counts the revoke's penalty; a revoke ruled without one costs nothing
                rv.choice, rv.penalized = (chosen.id if chosen else None), act.to_scorer
    t._next_deferred()


def _correction(t: "Table", p: Pending, effects: Sequence[dict[str, Any]], card: str | None) -> Fix:
    """Work out a revoke corrected in time (checked before anything moves): the card played in error,
    and the card of the suit led that replaces it."""
    st = t._st
    seat, trick_no = p.offender, p.correction
    if trick_no is None:  # pragma: no cover - a correction is pending with its trick
        raise TableStateError("pending", "a revoke to correct with no trick named")
    cards = st.current if trick_no == len(st.tricks) + 1 else st.tricks[-1].cards
    i = next(i for i, (w, _) in enumerate(cards) if w == seat)
    wrong, led = cards[i][1], cards[0][1][0]
    suit = [c for c in st.hands[seat] if c[0] == led] if st.hands is not None else []
    how = next((e["kind"] for e in effects if e["kind"] in ("play_highest", "play_lowest")), None)
    if how and suit:
        right = (max if how == "play_highest" else min)(suit, key=lambda c: RANK_INDEX[c[1]])
    else:
        if card is None:
            raise MalformedActionError("card", f"name the card of the suit led ({led}) that {seat} plays instead "
                                       f"of {wrong}: apply(..., card=...)")
        right = card
        if st.hands is not None and right not in suit:
            raise IllegalActionError("card", f"{seat} must play a card of the suit led ({led}) that he holds: "
                                     + ", ".join(suit))
    return Fix(seat, trick_no, i, (seat, wrong), right)


def _substitute(t: "Table", fix: Fix) -> None:
    """Reopen the trick if it was gathered, take the card played in error back, play the right one."""
    st = t._st
    if fix.trick == len(st.tricks):  # gathered, and no card played since: it lies open again
        gathered = st.tricks.pop()
        st.current, st.leader, st.phase = list(gathered.cards), gathered.leader, "play"
    seat, wrong = fix.wrong
    if st.hands is not None:
        st.hands[seat].append(wrong)
        st.hands[seat].remove(fix.right)
    ex = st.exposed.get(seat)
    if ex and fix.right in ex:  # an exposed card played in the correction leaves the table's view
        ex.remove(fix.right)
        if not ex:
            del st.exposed[seat]
    st.current[fix.index] = (seat, fix.right)
    st.revokes = [rv for rv in st.revokes if not (rv.seat == seat and rv.trick == fix.trick)]
    if len(st.current) == 4:
        t._quit_trick()


def _defer(t: "Table", r: Ruling, p: Pending) -> Ruling:
    """An irregularity in the auction whose remedy turns on who becomes the declarer (a card exposed
    in the auction, law 65): carry out now what the law already gives, and rule the rest when the
    auction ends (the call that ends it answers with the ruling due)."""
    st = t._st
    law = r.laws[0].number if r.laws else ""
    done = [e.to_dict() for e in r.effects]
    try:
        st.pending = None
        act = Act(p, None, None, None, None, law, "deferred", None)
        for e in done:
            HANDLERS[e["kind"]](t, e, act)
        p.done = done
        st.deferred.append(p)
    except BridgelawError:
        t._restore()
        raise
    st.history.append(HistoryEntry("apply", None, {}, True, p.kind, p.offender, remedy="deferred"))
    return r
