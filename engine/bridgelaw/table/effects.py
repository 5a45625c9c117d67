"""One handler per effect kind: what the table does when a remedy says so.

``HANDLERS`` maps every :class:`~bridgelaw.values.EffectKind` to the one function that carries it out at
the table (a test fails if a kind has none). A handler takes the table, the effect as plain data
(``{"kind": "bar", "seat": "E", "until": "adverse_call"}``) and the :class:`Act` it belongs to (the ruling
waiting, the irregular call or card, the suit or card the chooser named, the law, the remedy and who chose).
What differs between tables (straight bridge's doubling, three-hand's players) is asked of the table's own
methods, never tested here. A kind the table cannot carry out — a procedure, a discretion, a score to
correct, the code silent — has a handler too: it records the effect (``Table.recorded``).

Adding an effect kind: its entry in the effect vocabulary, and one ``@handles`` function here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..errors import IllegalActionError
from ..facts import callers
from ..values import EffectKind
from .state import NoDouble, Obligation, PenaltyScore, Pending, RecordedEffect, Revoke

if TYPE_CHECKING:  # pragma: no cover
    from .core import Table

__all__ = ["HANDLERS", "ENFORCED", "Act", "handles"]


@dataclass(slots=True)
class Act:
    """The remedy being carried out: the ruling that waited, the irregular call and card it acts on, the
    suit and card the chooser named, the law of the option, the remedy (option id, ``declined``,
    ``effects``, ``deferred``) and who chose it."""

    pending: Pending
    call: tuple[str, str] | None
    card: tuple[str, str] | None
    suit: str | None
    named_card: str | None
    law: str
    remedy: str
    by: str | None
    correction: bool = False  # a renounce corrected in time: the card of the suit led is already substituted
    to_scorer: bool = False   # an established revoke's penalty, left to the scorer (its record says so)


Handler = Callable[["Table", dict[str, Any], Act], None]
HANDLERS: dict[str, Handler] = {}
#: the kinds the table carries out itself (the rest it records, or they ask nothing of it)
ENFORCED: set[str] = set()


def handles(*kinds: EffectKind, enforced: bool = True) -> Callable[[Handler], Handler]:
    """Register the handler of ``kinds`` (each kind has exactly one); ``enforced``: the table carries the
    kind out (a penalty it enforces), rather than recording it or having nothing to do."""

    def register(fn: Handler) -> Handler:
        for k in kinds:
            if k.value in HANDLERS:
                raise RuntimeError(f"effect kind {k.value} has two handlers: {HANDLERS[k.value].__name__}, {fn.__name__}")
            HANDLERS[k.value] = fn
            if enforced:
                ENFORCED.add(k.value)
        return fn

    return register


# ---------------------------------------------------------------------------------------------- the auction


@handles(EffectKind.NEW_DEAL)
def _new_deal(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The deal is annulled; the same dealer deals again where the law says so, else the next in rotation."""
    st = t._st
    st.phase = "new_deal"
    st.next_dealer = st.dealer if e.get("dealer") == "same" else callers(t.dealer, t.code.players)[1].value


@handles(EffectKind.AMEND_CALL)
def _amend_call(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The irregular call is made the call the law names (an insufficient bid made sufficient)."""
    if act.call is None:
        return _record(t, e, act)
    t._record_call(e["seat"], e["call"], act.call[1], act.pending.kind, act.remedy, act.by)


@handles(EffectKind.CALL_STANDS)
def _call_stands(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The irregular call stands, as if made in turn (and is checked as such). A call no player could make
    in turn either (a double of his own declaration, beyond the doubling limit) cannot stand: it is not
    entered, and the effect is recorded with the reason."""
    if act.call is None:
        return _record(t, e, act)
    try:
        t._call_stands(act.call[0], act.call[1], act)
    except IllegalActionError as err:
        _record(t, {**e, "seat": act.call[0], "call": act.call[1], "not_entered": err.message}, act)


@handles(EffectKind.CANCEL_CALL, enforced=False)
def _cancel_call(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The irregular call is void: the table never entered it in the auction, so nothing moves."""


@handles(EffectKind.FINAL_DECLARATION)
def _final_declaration(t: "Table", e: dict[str, Any], act: Act) -> None:
    """A declaration made final by the remedy: the auction ends with it."""
    call = e["call"]
    t._end_auction(call, 0, t._final_declaration(call, e.get("side")))


@handles(EffectKind.BAR)
def _bar(t: "Table", e: dict[str, Any], act: Act) -> None:
    """A player barred from the auction from the calls the law names, until the time it names."""
    t._st.bars[e["seat"]] = e["until"]
    t._st.bar_calls[e["seat"]] = e["calls"]
    t._st.bar_from[e["seat"]] = act.pending.kind


@handles(EffectKind.NO_DOUBLE)
def _no_double(t: "Table", e: dict[str, Any], act: Act) -> None:
    """No further doubling, in the hand or of the declaration."""
    t._no_double(e)


# ---------------------------------------------------------------------------------------------- the play


@handles(EffectKind.EXPOSED_CARD)
def _exposed_card(t: "Table", e: dict[str, Any], act: Act) -> None:
    """Cards face up on the table, subject to call: the card named, the card played in error, all but the
    card called of cards played together, or — an adversary's cards thrown face up after a claim — his hand."""
    st = t._st
    seat = e["seat"]
    hand = (st.hands or {}).get(seat)
    if e.get("card"):
        shown = [e["card"]]
    elif act.card:
        shown = [act.card[1]]
    elif act.pending.together is not None:
        shown = [c for c in act.pending.together if c != act.named_card]
    elif act.pending.kind == "claim" and hand is not None:
        shown = list(hand)
    else:
        return _record(t, e, act)
    for c in shown:
        if c not in st.exposed.get(seat, []) and (hand is None or c in hand):
            st.exposed.setdefault(seat, []).append(c)


@handles(EffectKind.CALL_LEAD, EffectKind.FORBID_LEAD)
def _lead(t: "Table", e: dict[str, Any], act: Act) -> None:
    """A suit called or forbidden at the next lead. A suit called after a lead out of turn, the law naming
    no one, binds "the offender or his partner", whichever leads next (1904 law 80, 1913 law 76)."""
    kind = e["kind"]
    either = kind == "call_lead" and not e.get("seat") and act.pending.kind == "lead_out_of_turn"
    t._st.obligations.append(Obligation(kind, e.get("seat") or act.pending.offender, suit=e.get("suit") or act.suit,
                                        either=either))


@handles(EffectKind.PLAY_HIGHEST, EffectKind.PLAY_LOWEST, EffectKind.WIN_TRICK, EffectKind.LOSE_TRICK)
def _how_to_play(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The highest or lowest of the suit led, or the trick won or lost, the next time he plays. In a renounce
    corrected in time, the card substituted for it is already his highest or lowest."""
    if act.correction and e["kind"] in ("play_highest", "play_lowest"):
        return
    t._st.obligations.append(Obligation(e["kind"], e["seat"]))


@handles(EffectKind.PLAY_CARD)
def _play_card(t: "Table", e: dict[str, Any], act: Act) -> None:
    """A card he must play (or, ``must: false``, may not play) the next time he plays."""
    called = e.get("card") or act.named_card or (act.card[1] if act.card else None)
    if called is None:
        return _record(t, e, act)
    t._st.obligations.append(Obligation("play_card" if e.get("must", True) else "forbid_card", e["seat"], card=called))


@handles(EffectKind.TRICK_STANDS)
def _trick_stands(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The card played irregularly stands in the trick (a second card to one trick cannot: it stays in his
    hand)."""
    st = t._st
    if act.card is None or any(w == act.card[0] for w, _ in st.current):
        return
    seat, card = act.card
    if not st.current:
        st.leader = seat
    t._lay(seat, card)
    if len(st.current) == 4:
        t._quit_trick()


@handles(EffectKind.REVOKE_PENALTY)
def _revoke_penalty(t: "Table", e: dict[str, Any], act: Act) -> None:
    """He incurs the penalty of a revoke: the card stands, and the revoke is ruled as established (the
    innocent side's choice of penalty is asked next)."""
    st = t._st
    if act.card is None:
        return _record(t, e, act)
    seat, card = act.card
    st.revokes.append(Revoke(e.get("seat") or seat, len(st.tricks) + 1))
    t._lay(seat, card)
    if len(st.current) == 4:
        t._quit_trick()
    t._established_revokes(now=True)


@handles(EffectKind.RETRACT, enforced=False)
def _retract(t: "Table", e: dict[str, Any], act: Act) -> None:
    """The cards played irregularly are taken back: the table caught the irregularity before anyone played
    to it, so they never left the hand."""


# ---------------------------------------------------------------------------------------------- scores


@handles(EffectKind.SCORE)
def _score(t: "Table", e: dict[str, Any], act: Act) -> None:
    """Points to a side (or a three-hand player) in a column, entered now and scored with the deal. An
    established revoke's points are the scorer's to count, through the code's revoke provisions: its record
    says it was penalized."""
    st = t._st
    if act.pending.kind == "revoke" and act.pending.revoke is not None:
        act.to_scorer = True
    st.scores.append(PenaltyScore(e["column"], e["points"], act.law, act.pending.kind,
                                  "auction" if st.phase in ("auction", "new_deal", "passed_out") else "play",
                                  side=e.get("side") if "player" not in e else None, player=e.get("player"),
                                  offender=act.pending.offender))


@handles(EffectKind.TRANSFER_TRICKS, EffectKind.NO_TRICK_SCORE, EffectKind.HONOURS_ONLY)
def _revoke_score(t: "Table", e: dict[str, Any], act: Act) -> None:
    """A revoke's penalty in the score: the revoke's record carries the choice to the scorer, which scores
    it through the code's revoke provisions. Elsewhere it is recorded."""
    if act.pending.kind != "revoke" or act.pending.revoke is None:
        _record(t, e, act)
    else:
        act.to_scorer = True


# ---------------------------------------------------------------------------------------------- no action


@handles(EffectKind.NO_PENALTY, EffectKind.DEAL_STANDS, enforced=False)
def _nothing(t: "Table", e: dict[str, Any], act: Act) -> None:
    """No penalty; the deal stands: the play goes on as it was."""


@handles(EffectKind.NO_PROVISION, EffectKind.PROCEDURE, EffectKind.DISCRETION, EffectKind.RESHUFFLE,
         EffectKind.RIGHT_LOST, EffectKind.LEAD_FROM, EffectKind.CORRECT_SCORE, EffectKind.PLACE_CARDS,
         EffectKind.PAY_STAKES, EffectKind.AVERAGE_SCORE, enforced=False)
def _record_effect(t: "Table", e: dict[str, Any], act: Act) -> None:
    """What the table cannot carry out itself (the players, a referee or the scorer do): recorded."""
    _record(t, e, act)


def _record(t: "Table", e: dict[str, Any], act: Act) -> None:
    # a copy, its lists too: the effect's plain data is the ruling's, shared by every table that applies it
    t._st.recorded.append(RecordedEffect({k: list(v) if type(v) is list else v for k, v in e.items()}, act.law,
                                         act.pending.kind))


def _no_double_entry(t: "Table", e: dict[str, Any]) -> NoDouble:
    """The auction's "no further doubling" (the table's ``_no_double`` records it; straight bridge may end
    the doubling instead)."""
    bids = [i for i, c in enumerate(t._st.calls) if c.call[0].isdigit()]
    return NoDouble(e.get("seat"), e["scope"], bids[-1] if bids else -1)
