"""A table's history as a PBN game: what was done, where the standard places it, and every ruling's remedy.

The one source is :attr:`Table.history`: it is replayed onto a fresh table, action by action, and what each
action did is read from the table as it goes — whether a call took its place in the auction, which trick a
card went to and whether it stayed there, which revoke a ruling is about. Calls take their columns from the
dealer on, a call out of rotation after ``^S`` for each player it skipped; cards take their trick and
column. An irregularity that stood as made carries its §3.9 marker (``^I``, ``^L``, and ``^R`` for a revoke
the table ruled without penalty); every ruling applied is a ``[BridgelawRemedy]`` at the call or card that
raised it (a revoke's at the revoking card); a call or card that did not stand, a card exposed, a claim, a
renounce corrected in time are ``[BridgelawEvent]`` tags before the next call or card. A renounce corrected
in time (§3.9's "solved" irregularity) leaves the card that replaced it in the play section, in the
renouncer's column: the renounce is an event at that card, and the correction an event before the card
played after it. Replaying what is written gives the same auction, play, rulings and score.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..pbn.markers import MARKERS
from ..pbn.model import AUCTION, PLAY, Item, PbnGame, Section, Tag
from ..pbn.tags import EVENT_TAG, REMEDY_TAG, Event, Remedy, event_text, remedy_text
from ..pbn.writer import write_game
from ..table import HistoryEntry, Table
from ..values import Ruling, Seat
from .table_adapter import TableAdapter, chooser_named

__all__ = ["history_game", "record_game", "table_to_pbn"]

_EVENT_VERBS = {"call": "call", "expose": "expose", "claim": "claim", "correct_revoke": "correct"}


@dataclass(slots=True)
class _Ruling:
    kind: str
    facts: dict[str, Any] = field(default_factory=dict)
    entry: HistoryEntry | None = None     # the apply that carried it out
    ruling: Ruling | None = None          # the ruling as carried out
    origin: tuple[str, int] | None = None  # an established revoke: its revoker and trick
    correction: tuple[str, int] | None = None  # a renounce corrected in time: its renouncer and trick

    def remedy(self, ref: str) -> Remedy:
        e = self.entry
        assert e is not None
        return Remedy(ref, e.args.get("option"), chooser_named(e, self.ruling), e.args.get("suit"), e.args.get("card"),
                      tuple(sorted(self.facts.items())))

    def stood(self, marker: str) -> bool:
        """Whether the irregular call or card stood as made (the record's marker says so)."""
        r = self.ruling
        spec = MARKERS[marker]
        if r is None or self.entry is None or spec.stands is None:
            return False
        option = self.entry.args.get("option")
        chosen = next((o for o in r.options if o.id == option), None)
        effects = list(r.effects) + (list(chosen.effects) if chosen else [])
        return any(e.kind.value == spec.stands for e in effects) and not any(
            e.kind.value == "amend_call" for e in effects)


@dataclass(slots=True)
class _Act:
    action: str
    seat: str | None
    what: str | None
    rulings: list[_Ruling] = field(default_factory=list)
    placed: bool = False
    trick: int | None = None       # a card: the trick it was played to
    calls_before: int = 0          # a call: the calls that counted before it
    corrected: bool = False        # a card: a renounce corrected in time (another card stands in its place)
    between: int | None = None     # done between two tricks, before the first card of this one


def _laid(t: Table, seat: str, card: str, trick: int) -> bool:
    """Does ``seat``'s ``card`` lie in trick ``trick`` (in progress, or turned and quitted)?"""
    tricks = t.tricks
    cards = tricks[trick - 1].cards if trick <= len(tricks) else t.current_trick if trick == len(tricks) + 1 else ()
    return (seat, card) in cards


def _acts_of(table: Table) -> list[_Act]:
    """The table's history replayed onto a fresh table: each action, what became of it, and its rulings."""
    fresh = Table(table.code, table.dealer, table.deal)
    acts: list[_Act] = []
    by_slot: dict[tuple[str, int], _Act] = {}   # the card act lying in each (seat, trick)
    open_: tuple[_Act, _Ruling] | None = None
    for e in table.history:
        if e.action == "answer":
            fresh.push(e)
            if open_ is not None:
                open_[1].facts.update(e.args.get("facts") or {})
            continue
        if e.action == "apply":
            r = fresh.push(e)
            assert open_ is not None
            act, rul = open_
            rul.entry, rul.ruling = e, r
            _resolve(fresh, act, by_slot)
            if rul.correction is not None:  # the renounce's card left the trick: the substitute lies there now
                renounce = by_slot.get(rul.correction)
                seat, trick = rul.correction
                if renounce is not None and not _laid(fresh, seat, renounce.what or "", trick):
                    renounce.placed, renounce.corrected = False, True
            open_ = None
            if e.due:
                raise InputError("table", f"the remedy for the {e.irregularity} made a ruling on {e.due} due at once; "
                                          "a record cannot place two remedies at one call or card yet (replay it "
                                          "from JSON)")
            continue
        if e.action in ("play_together", "report", "call_card"):
            raise InputError("table", f"a {e.action.replace('_', ' ')} cannot be written to PBN yet (only replayed "
                                      "from JSON)")
        what = e.args.get("call") or e.args.get("card")
        act = _Act(e.action, e.seat, what, calls_before=len(fresh.calls), trick=len(fresh.tricks) + 1)
        if fresh.phase == "play" and not fresh.current_trick:
            act.between = act.trick
        ans = fresh.push(e)
        acts.append(act)
        if ans.ruling is not None:
            rul = _Ruling(ans.kind or "")
            rv = fresh.pending_revoke
            if rv is not None:
                if rv.established:
                    rul.origin = (rv.seat, rv.trick)
                else:
                    rul.correction = (rv.seat, rv.trick)
            act.rulings.append(rul)
            open_ = (act, rul)
        _resolve(fresh, act, by_slot)
    return acts


def _resolve(t: Table, act: _Act, by_slot: dict[tuple[str, int], _Act]) -> None:
    """Whether the call or card now stands where it was made (once any ruling on it is carried out)."""
    if t.pending_ruling is not None and act.rulings and act.rulings[-1].entry is None:
        return  # its ruling waits: it stands or not by the remedy
    if act.action == "call":
        calls = t.calls
        act.placed = len(calls) > act.calls_before and calls[act.calls_before].seat == act.seat
    elif act.action == "play" and act.trick is not None and act.seat and act.what:
        act.placed = _laid(t, act.seat, act.what, act.trick)
        if act.placed:
            by_slot[(act.seat, act.trick)] = act


def history_game(table: Table | TableAdapter) -> PbnGame:
    """The table (or the table a replay drove) as a PBN game, from its history."""
    t = table.table if isinstance(table, TableAdapter) else table
    if t.variant != "auction":
        raise InputError("table", f"{t.code.id} cannot be written as PBN: "
                                  + ("PBN has no three-hand layout" if t.variant == "three-hand" else
                                     "PBN has no straight-bridge declarations"))
    acts = _acts_of(t)
    dealer = t.dealer
    tags = [Tag("BridgelawCode", t.code.id), Tag("Dealer", dealer.value)]
    if t.deal:
        tags.append(Tag("Deal", t.deal))
    remedies: list[Remedy] = []
    events: list[Event] = []
    waiting: list[_Act] = []   # acts the sections cannot place, for the next call or card

    def event(ref: str, w: _Act) -> None:
        verb = _EVENT_VERBS.get(w.action)
        if w.action == "play":
            verb = "lead" if any(r.kind == "lead_out_of_turn" for r in w.rulings) else "play"
        if verb is None:  # pragma: no cover - every other action is refused above or placed
            raise InputError("table", f"a {w.action} cannot be written to PBN yet")
        events.append(Event(ref, w.seat or "", verb, w.what))
        for r in w.rulings:
            if r.entry is not None:
                remedies.append(r.remedy(f"E{len(events)}"))

    def place(ref: str, trick: int | None = None) -> None:
        """The acts waiting, before the card at ``ref`` (of trick ``trick``): what was done between two tricks
        — a lead that did not stand, a renounce corrected after its trick was quitted — goes before the
        trick's first card (``T<n>``), whoever leads it once they are done."""
        for w in waiting:
            event(f"T{trick}" if trick is not None and trick > 1 and w.between == trick else ref, w)
        waiting.clear()

    # where each card stands in the play section: trick by trick, columns from the opening leader
    tricks = [x.cards for x in t.tricks] + ([t.current_trick] if t.current_trick else [])
    declarer = t.declarer
    lead = declarer.lho if declarer else None
    rows: list[list[Item]] = []
    where: dict[tuple[str, int], tuple[str, Item]] = {}
    if tricks and lead is not None:
        cols = {lead.after(k).value: k for k in range(4)}
        rows = [[Item("-") for _ in range(4)] for _ in tricks]
        for k, cards in enumerate(tricks):
            for seat, card in cards:
                it = Item(card)
                rows[k][cols[seat.value]] = it
                where[(seat.value, k + 1)] = (f"P{4 * k + cols[seat.value] + 1}", it)

    def ruled(a: _Act, ref: str) -> None:
        for r in a.rulings:
            if r.entry is None:
                continue
            if r.origin is not None:  # a revoke: answered at the revoking card
                if r.origin not in where:
                    raise InputError("table", f"the revoke by {r.origin[0]} in trick {r.origin[1]} is not in the play")
                oref, oit = where[r.origin]
                remedies.append(r.remedy(oref))
                if _let_pass(t, r.origin):
                    oit.marker = "R"  # ruled without penalty: not noticed in time (§3.9 (C))
            else:
                remedies.append(r.remedy(ref))

    items: list[Item] = []
    cursor = dealer
    n = 0
    for a in acts:  # in the order they were done
        if a.action == "call" and a.placed:
            seat = Seat(a.seat)
            for _ in range((list(Seat).index(seat) - list(Seat).index(cursor)) % 4):
                items.append(Item("^S"))  # the players a call out of rotation skipped
            n += 1
            ref = f"A{n}"
            place(ref)
            stood = any(r.kind == "insufficient_bid" and r.stood("I") for r in a.rulings)
            items.append(Item(a.what or "", marker="I" if stood else None))
            ruled(a, ref)
            cursor = seat.lho
        elif a.action == "play" and (a.placed or a.corrected) and (a.seat, a.trick) in where:
            if any(w.action == "call" for w in waiting):  # calls that did not stand, after the last that did
                place(f"A{n + 1}")
            ref, it = where[(a.seat or "", a.trick or 0)]
            place(ref, a.trick)
            if a.corrected:  # the renounce, corrected in time: the card in its column replaced it
                event(ref, a)
                continue
            if any(r.kind == "lead_out_of_turn" and r.stood("L") for r in a.rulings):
                it.marker = "L"
            ruled(a, ref)
        elif a.action == "quit_trick":
            ruled(a, "")
        else:
            waiting.append(a)
    if waiting and all(w.action == "call" for w in waiting):
        place(f"A{n + 1}")
    if waiting and where:
        place(f"P{4 * len(rows) + 1}")
    if waiting:
        raise InputError("table", "the history ends with an act the sections cannot place: "
                                  + ", ".join(f"{w.seat} {w.action} {w.what or ''}".strip() for w in waiting))
    contract = t.contract
    if declarer is not None and contract is not None:
        tags.append(Tag("Declarer", declarer.value))
        tags.append(Tag("Contract", contract.text))
    if t.phase == "done" and declarer is not None:
        tags.append(Tag("Result", str(sum(1 for x in t.tricks if x.winner.side is declarer.side))))
    tags.append(Tag("Auction", dealer.value, section=Section(AUCTION, items)))
    if rows and lead is not None:
        tags.append(Tag("Play", lead.value, section=Section(PLAY, [it for row in rows for it in row])))
    tags += [Tag(REMEDY_TAG, remedy_text(r)) for r in remedies]
    tags += [Tag(EVENT_TAG, event_text(e)) for e in events]
    return PbnGame(tags=tags)


def _let_pass(t: Table, origin: tuple[str, int]) -> bool:
    """Did the table rule the revoke without a penalty (it costs nothing when the deal is scored)?"""
    return any((r.seat, r.trick) == origin and r.penalized is False for r in t.revokes)


def record_game(t: TableAdapter) -> str:
    """A replayed JSON record, written as PBN."""
    return write_game(history_game(t))


def table_to_pbn(table: Table) -> str:
    """A :class:`~bridgelaw.table.Table` as a PBN game (``Table.to_pbn``): its history, with every ruling and
    the remedy chosen."""
    return write_game(history_game(table))
