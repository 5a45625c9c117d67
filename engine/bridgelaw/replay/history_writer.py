"""A table's history as a PBN game: what was done, where the standard places it, and every ruling's remedy.

Calls take their columns from the dealer on, a call out of rotation after ``^S`` for each player it
skipped; cards take their trick and column; an irregularity that stood as made carries its §3.9 marker
(``^I``, ``^L``, and ``^R`` for a revoke let pass); every ruling applied is a ``[BridgelawRemedy]`` at the
call or card that raised it (a revoke's at the revoking card); a call or card that did not stand, or a card
exposed, is a ``[BridgelawEvent]`` before the next call or card. Replaying what is written gives the same
auction, play, rulings and score.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..pbn.markers import LETS_PASS, MARKERS
from ..pbn.model import AUCTION, PLAY, Item, PbnGame, Section, Tag
from ..pbn.tags import EVENT_TAG, REMEDY_TAG, Event, Remedy, event_text, remedy_text
from ..pbn.writer import write_game
from ..values import Seat
from .table_adapter import Act, TableAdapter

__all__ = ["history_game", "record_game", "table_to_pbn"]


def _remedy(ref: str, a: Act) -> Remedy:
    return Remedy(ref, a.option, a.by, a.suit, a.card, tuple(sorted(a.facts.items())))


def _stood(a: Act) -> bool:
    """Whether the irregular call or card stood as made (the record's marker says so)."""
    r = a.ruling
    if r is None or not a.placed:
        return False
    spec = next((m for m in MARKERS.values() if a.kind in m.kinds), None)
    if spec is None or spec.stands is None:
        return False
    chosen = next((o for o in r.options if o.id == a.option), None)
    effects = list(r.effects) + (list(chosen.effects) if chosen else [])
    return any(e.kind.value == spec.stands for e in effects) and not any(
        e.kind.value == "amend_call" for e in effects)


def history_game(t: TableAdapter, history: list[Act] | None = None) -> PbnGame:
    st = t.state
    if t.three or t.straight:
        raise InputError("table", f"{t.code.id} cannot be written as PBN: "
                                  + ("PBN has no three-hand layout" if t.three else
                                     "PBN has no straight-bridge declarations"))
    acts = t.history if history is None else history
    tags = [Tag("BridgelawCode", t.code.id), Tag("Dealer", st["dealer"])]
    if st["deal"]:
        tags.append(Tag("Deal", st["deal"]))
    remedies: list[Remedy] = []
    events: list[Event] = []
    waiting: list[Act] = []   # acts the sections cannot place, for the next call or card

    def place(ref: str) -> None:
        for w in waiting:
            verb = {"call": "call", "card": "play", "expose": "expose", "claim": "claim"}.get(w.verb)
            if verb is None:
                raise InputError("table", f"a {w.verb} cannot be written to PBN yet (only replayed from JSON)")
            if w.verb == "card":
                verb = "lead" if w.kind == "lead_out_of_turn" else "play"
            events.append(Event(ref, w.seat or "", verb, w.what))
            if w.ruling is not None and w.applied:
                remedies.append(_remedy(f"E{len(events)}", w))
        waiting.clear()

    # where each card stands in the play section: trick by trick, columns from the opening leader
    tricks = [x["cards"] for x in st["tricks"]] + ([st["current"]] if st["current"] else [])
    lead = Seat(st["declarer"]).lho if st["declarer"] else None
    rows: list[list[Item]] = []
    where: dict[tuple[str, int], tuple[str, Item]] = {}
    if tricks and lead is not None:
        cols = {s: i for i, s in enumerate(lead.after(k).value for k in range(4))}
        rows = [[Item("-") for _ in range(4)] for _ in tricks]
        for k, cards in enumerate(tricks):
            for seat, card in cards:
                it = Item(card)
                rows[k][cols[seat]] = it
                where[(seat, k + 1)] = (f"P{4 * k + cols[seat] + 1}", it)

    def revoke_remedy(a: Act) -> None:
        oref, oit = where[a.origin]  # type: ignore[index]
        remedies.append(_remedy(oref, a))
        if not a.option and a.ruling is not None and all(e.kind.value in LETS_PASS for e in a.ruling.effects):
            oit.marker = "R"  # let pass: not noticed in time (§3.9 (C))

    items: list[Item] = []
    cursor = Seat(st["dealer"])
    n = 0
    for a in acts:  # in the order they were done
        if a.verb == "correct":
            raise InputError("table", "a revoke corrected in time cannot be written to PBN yet")
        if a.verb == "call" and a.placed:
            seat = Seat(a.seat)
            for _ in range((list(Seat).index(seat) - list(Seat).index(cursor)) % 4):
                items.append(Item("^S"))  # the players a call out of rotation skipped
            n += 1
            ref = f"A{n}"
            place(ref)
            items.append(Item(a.what or "", marker="I" if a.kind == "insufficient_bid" and _stood(a) else None))
            if a.ruling is not None and a.applied:
                remedies.append(_remedy(ref, a))
            cursor = seat.lho
        elif a.verb == "card" and a.placed and a.trick is not None and (a.seat, a.trick) in where:
            if any(w.verb == "call" for w in waiting):  # calls that did not stand, after the last that did
                place(f"A{n + 1}")
            ref, it = where[(a.seat or "", a.trick)]
            place(ref)
            if a.kind == "lead_out_of_turn" and _stood(a):
                it.marker = "L"
            if a.ruling is not None and a.applied:
                if a.origin is not None and a.origin in where:
                    revoke_remedy(a)
                else:
                    remedies.append(_remedy(ref, a))
        elif a.verb == "quit" and a.origin is not None and a.origin in where:
            if a.applied:
                revoke_remedy(a)
        else:
            waiting.append(a)
    if waiting and all(w.verb == "call" for w in waiting):
        place(f"A{n + 1}")
    if waiting and where:
        place(f"P{4 * len(rows) + 1}")
    if waiting:
        raise InputError("table", "the history ends with an act the sections cannot place: "
                                  + ", ".join(f"{w.seat} {w.verb} {w.what or ''}".strip() for w in waiting))
    if st["declarer"] and st["contract"]:
        tags.append(Tag("Declarer", st["declarer"]))
        tags.append(Tag("Contract", st["contract"] + "X" * st["doubled"]))
    if st["phase"] == "done":
        side = Seat(st["declarer"]).side
        tags.append(Tag("Result", str(sum(1 for x in st["tricks"] if Seat(x["winner"]).side is side))))
    tags.append(Tag("Auction", st["dealer"], section=Section(AUCTION, items)))
    if rows and lead is not None:
        tags.append(Tag("Play", lead.value, section=Section(PLAY, [it for row in rows for it in row])))
    tags += [Tag(REMEDY_TAG, remedy_text(r)) for r in remedies]
    tags += [Tag(EVENT_TAG, event_text(e)) for e in events]
    return PbnGame(tags=tags)


def record_game(t: TableAdapter) -> str:
    """A replayed JSON record, written as PBN."""
    return write_game(history_game(t))


def table_to_pbn(table: Any) -> str:
    """A :class:`~bridgelaw.table.Table` as a PBN game (``Table.to_pbn``). The table keeps no history of
    its own yet: a table that ruled nothing is written from its state; one that ruled must be driven
    through :class:`TableAdapter` (as ``bridgelaw replay`` does), whose history records every remedy."""
    if isinstance(table, TableAdapter):
        return write_game(history_game(table))
    st = table.state
    if st["log"]:
        raise InputError("table", "this table ruled on irregularities, and keeps no history of where and how "
                                  "they were remedied: drive it through bridgelaw.replay.table_adapter."
                                  "TableAdapter to write it as PBN")
    t = TableAdapter.__new__(TableAdapter)
    t.table, t.condoned_revokes = table, set()
    acts: list[Act] = [Act("call", s, c, placed=True) for s, c in st["calls"]]
    tricks = [x["cards"] for x in st["tricks"]] + ([st["current"]] if st["current"] else [])
    for k, cards in enumerate(tricks, start=1):
        acts += [Act("card", s, c, placed=True, trick=k) for s, c in cards]
    t.history = acts
    return write_game(history_game(t))
