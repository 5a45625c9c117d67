"""The one place the replay drives the :class:`~bridgelaw.table.Table`.

Everything the replay asks of a table goes through :class:`TableAdapter`: the calls, cards and other acts
(``call``, ``play``, ``expose``, ``claim``, ``correct_revoke``, ``quit_trick``), the answers and remedies
(``answer``, ``apply``), what the table knows (whose turn, the contract, the hands), and the end (the
result and its score). What was done, each ruling and each remedy chosen and by whom, is the table's own
:attr:`~bridgelaw.table.Table.history`; the adapter adds to each ruling only what a record knows and the
table cannot: where the record has it (``A2``, ``P14``, ``E1``), where the record answers for it, and how
the remedy was come by (recorded, accepted under a §3.9 marker, the first option). :meth:`rulings` reads
them together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..facts import higher
from ..scoring import score
from ..table import Answer, HistoryEntry, Table
from ..values import Call, Ruling

__all__ = ["TableAdapter", "Ruled", "chooser_named"]

# the order of play from each leader, clockwise
_ORDERS = {s: "NESWNES"["NESW".index(s):"NESW".index(s) + 4] for s in "NESW"}
_LHO = {s: o[1] for s, o in _ORDERS.items()}  # each seat's left-hand opponent, the next to call
# for each order of a play section's columns, and each leader: the seats in the order they play, each with
# its column
_PLANS = {cols: {lead: tuple((s, cols.index(s)) for s in _ORDERS[lead]) for lead in "NESW"}
          for cols in _ORDERS.values()}
# the same, each column as where its card begins in a usual line of four ("SA HK D2 C9")
_SLICES = {cols: {lead: tuple((s, 3 * o) for s, o in plan) for lead, plan in plans.items()}
           for cols, plans in _PLANS.items()}


@dataclass(slots=True)
class _Note:
    """What the record adds to one ruling: its place, where it answers for it, how the remedy was come by,
    and the ruling as carried out (``Table.apply`` returns it)."""

    ref: str | None
    at: str | None = None
    how: str = ""
    ruling: Ruling | None = None


@dataclass(slots=True)
class Ruled:
    """One ruling of a replay: the table's history and the record's notes read together."""

    at: str | None                    # where the record answers for it (a revoke: the revoking card)
    ref: str | None                   # the act that raised it
    kind: str
    offender: str | None
    applied: bool
    option: str | None = None
    by: str | None = None             # who chose, where the option does not say (a side's player, two choosers)
    suit: str | None = None
    card: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    how: str = ""
    laws: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"at": self.at, "kind": self.kind, "offender": self.offender,
                             "remedy": self.option or ("-" if self.applied else None), "how": self.how,
                             "laws": list(self.laws)}
        for k in ("by", "suit", "card"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.facts:
            d["facts"] = dict(self.facts)
        return d


def chooser_named(entry: HistoryEntry, ruling: Ruling | None) -> str | None:
    """Who chose, where the option chosen does not already say: the history keeps the chooser of every
    remedy, and a record names him only where it must (a side chooses and one of its players named it, or
    two players may each choose the same option)."""
    option = entry.args.get("option")
    if entry.seat is None:
        return None
    if ruling is not None and option is not None:
        first = next((o for o in ruling.options if o.id == option), None)
        if first is not None and first.chooser == entry.seat:
            return None
    elif ruling is not None and option is None:
        return None
    return entry.seat


class TableAdapter:
    """A :class:`Table` driven by a record, each ruling noted with the record's place for it."""

    __slots__ = ("table", "_notes")

    def __init__(self, code: Any, dealer: str, deal: str | None) -> None:  # a code id, or the loaded Code
        self.table = Table(code, dealer, deal)
        self._notes: list[_Note] = []

    # ------------------------------------------------------------- what the table knows

    @property
    def code(self) -> Any:  # the loaded Code
        return self.table.code

    @property
    def phase(self) -> str:
        return self.table.phase  # a Phase: a str, "play" and the rest

    @property
    def variant(self) -> str:
        return self.table.variant

    def next_caller(self) -> str:
        turn = self.table.turn
        return turn.value if turn is not None else "?"

    def next_player(self) -> str:
        turn = self.table.turn
        return turn.value if turn is not None else "?"

    @property
    def declarer(self) -> str | None:
        d = self.table.declarer
        return d.value if d is not None else None

    @property
    def contract(self) -> str | None:
        """The contract as the scorer writes it, doubled: ``4SX`` (straight bridge ``H x2``)."""
        c = self.table.contract
        return c.text if c is not None else None

    @property
    def bid(self) -> str | None:
        """The final declaration, without its doubling (``4S``)."""
        c = self.table.contract
        return f"{c.level or ''}{c.strain.value}" if c is not None else None

    @property
    def doubled(self) -> int:
        c = self.table.contract
        return c.doubled if c is not None else 0

    @property
    def tricks_played(self) -> int:
        return len(self.table.tricks)

    @property
    def trick_number(self) -> int:
        return len(self.table.tricks) + 1

    @property
    def cards_in_trick(self) -> int:
        return len(self.table.current_trick)

    def holds(self, seat: str, card: str) -> bool:
        return self.table.deal is None or card in self.table.hand(seat)

    def hands_known(self) -> bool:
        return self.table.deal is not None

    def last_bid(self) -> str | None:
        return next((c for c in reversed(self.table.auction) if c[:1].isdigit()), None)

    def insufficient(self, call: str, than: str | None) -> bool:
        """Whether bid ``call`` is not higher than ``than`` under the code (its own ranking)."""
        if than is None or not call[:1].isdigit():
            return False
        return not higher(self.code, Call(call), Call(than))

    def pending_revoke(self) -> tuple[str, int] | None:
        """The established revoke the waiting ruling penalizes: its revoker and trick."""
        rv = self.table.pending_revoke
        return (rv.seat, rv.trick) if rv is not None and rv.established else None

    def pending_ruling(self) -> Ruling | None:
        return self.table.pending_ruling

    # ------------------------------------------------------------- acts

    def _noted(self, ans: Answer, ref: str | None) -> Answer:
        if ans.ruling is not None:
            self._notes.append(_Note(ref))
        return ans

    def call(self, seat: str, call: str, ref: str | None = None) -> Answer:
        ans = self.table.call(seat, call)
        if ans.ruling is not None:
            self._notes.append(_Note(ref))
        return ans

    def play(self, seat: str, card: str, ref: str | None = None) -> Answer:
        ans = self.table.play(seat, card)
        if ans.ruling is not None:
            self._notes.append(_Note(ref))
        return ans

    def call_run(self, seat: str, calls: list[str], k: int, refs: tuple[str, ...]
                 ) -> tuple[int, str, Answer | InputError | None]:
        """The record's plain calls from ``calls[k]`` on, the first by ``seat`` and each by the next player in
        rotation (call ``i`` is the record's ``refs[i + 1]``), made while the table rules on none. Returns how
        many were made, the seat of the next, and — where the table ruled on that one or refused it — the
        table's answer (or error): that call is the caller's to settle."""
        call = self.table.call
        lho = _LHO
        for i in range(k, len(calls)):
            try:
                ans = call(seat, calls[i])
            except InputError as e:
                return i - k, seat, e
            if ans.ruling is not None:
                self._notes.append(_Note(refs[i + 1] if i + 1 < len(refs) else f"A{i + 1}"))
                return i - k, seat, ans
            seat = lho[seat]
        return len(calls) - k, seat, None

    def play_plain(self, order: str, j: int, cards: list[Any], base: dict[str, int], refs: tuple[str, ...]
                   ) -> tuple[int, Answer | InputError] | None:
        """A row of the record's plain cards (``(card, ...)`` entries), played in ``order`` from its ``j``-th
        seat, each seat's card at ``cards[base[seat]]`` (its reference ``refs[base[seat] + 1]``), until the
        table rules on one or refuses it: then its place in ``order`` and the table's answer (or error)."""
        play = self.table.play
        for jj in range(j, len(order)):
            s = order[jj]
            i = base[s]
            try:
                ans = play(s, cards[i][0])
            except InputError as e:
                return jj, e
            if ans.ruling is not None:
                self._notes.append(_Note(refs[i + 1]))
                return jj, ans
        return None

    def play_rows(self, cards: list[Any], k: int, columns: str, refs: tuple[str, ...]
                  ) -> tuple[int, str | None, int, Answer | InputError | None]:
        """The record's rows of four plain cards (``(card, ...)`` entries) from ``cards[k]``, in the play
        section's ``columns``, each trick played from its leader: played while the rows are plain and the
        table rules on nothing. Returns where it stopped: the row; and — where the table ruled on a card or
        refused it — the row's order of play, the card's place in it and the table's answer (or error): the
        rest of that row is the caller's (:meth:`play_plain`). The plain cards go to the table a trick at a
        time (:meth:`Table.play_tricks`); the card it leaves, and the rest, one at a time."""
        table = self.table
        n = len(cards) - 3
        if table.turn is None or table.current_trick:
            return k, None, 0, None
        rows = []
        e = k
        while e < n and type(cards[e]) is tuple and type(cards[e + 1]) is tuple and type(cards[e + 2]) is tuple \
                and type(cards[e + 3]) is tuple:
            rows.append((cards[e][0], cards[e + 1][0], cards[e + 2][0], cards[e + 3][0]))
            e += 4
        done = table.play_tricks(columns, rows)
        k += done - done % 4
        j = done % 4
        play = table.play
        plans = _PLANS[columns]
        while k < n and type(cards[k]) is tuple and type(cards[k + 1]) is tuple and type(cards[k + 2]) is tuple \
                and type(cards[k + 3]) is tuple and table.phase == "play":
            # a trick begins (or goes on, where the table left it): its leader (the last trick's winner) leads,
            # each seat's card in its column
            lead = table.leader
            for s, o in plans[lead][j:]:  # type: ignore[index]
                try:
                    ans = play(s, cards[k + o][0])
                except InputError as e:
                    return k, _ORDERS[lead], _ORDERS[lead].index(s), e  # type: ignore[index]
                if ans.ruling is not None:
                    self._notes.append(_Note(refs[k + o + 1]))
                    return k, _ORDERS[lead], _ORDERS[lead].index(s), ans  # type: ignore[index]
            j = 0
            k += 4
        return k, None, 0, None

    def play_lines(self, lines: list[str], columns: str, refs: tuple[str, ...]
                   ) -> tuple[int, str | None, int, Answer | InputError | None]:
        """The play section's usual lines (four plain cards one space apart, in ``columns``), each trick played
        from its leader: played while the table rules on nothing. Returns where it stopped as
        :meth:`play_rows` does, the row counted in lines. The plain cards go to the table a trick at a time
        (:meth:`Table.play_tricks`); the card it leaves, and the rest, one at a time."""
        table = self.table
        if table.turn is None or table.current_trick:
            return 0, None, 0, None
        done = table.play_tricks(columns, list(map(str.split, lines)))  # (four cards one space apart: split alike)
        r, j = divmod(done, 4)
        if r == len(lines) or table.phase != "play":
            return r, None, 0, None
        play = table.play
        plans = _SLICES[columns]
        # a line is a whole trick, and the play goes on until the thirteenth unless the table rules (then this
        # returns): the lines after the last trick are the caller's
        for ln in lines[r:r + 13 - len(table.tricks)]:
            lead = table.leader
            for s, a in plans[lead][j:]:  # type: ignore[index]
                try:
                    ans = play(s, ln[a:a + 2])
                except InputError as e:
                    return r, _ORDERS[lead], _ORDERS[lead].index(s), e  # type: ignore[index]
                if ans.ruling is not None:
                    self._notes.append(_Note(refs[4 * r + a // 3 + 1]))
                    return r, _ORDERS[lead], _ORDERS[lead].index(s), ans  # type: ignore[index]
            j = 0
            r += 1
        return r, None, 0, None

    def expose(self, seat: str, card: str, ref: str | None = None) -> Answer:
        return self._noted(self.table.expose(seat, card), ref)

    def claim(self, seat: str, ref: str | None = None) -> Answer:
        return self._noted(self.table.claim(seat), ref)

    def correct_revoke(self, seat: str, ref: str | None = None) -> Answer:
        return self._noted(self.table.correct_revoke(seat), ref)

    def quit_trick(self, ref: str | None = None) -> Answer:
        return self._noted(self.table.quit_trick(), ref)

    def answer(self, **facts: Any) -> Ruling:
        return self.table.answer(**facts)

    def apply(self, option: str | None = None, by: str | None = None, suit: str | None = None,
              card: str | None = None, how: str = "") -> Ruling:
        r = self.table.apply(option, by=by, suit=suit, card=card)
        note = self._notes[-1]
        note.how, note.ruling = how, r
        if self.table.pending_ruling is not None:  # a ruling the remedy made due
            self._notes.append(_Note(note.ref))
        return r

    def answer_at(self, ref: str) -> None:
        """Say where the record answers for the pending ruling (its remedy's reference)."""
        if self._notes:
            self._notes[-1].at = ref

    # ------------------------------------------------------------- what was ruled

    def rulings(self) -> list[Ruled]:
        """Every ruling made, in order: the table's history of it with the record's notes."""
        if not self._notes:
            return []
        records = self.table.rulings()
        if len(records) != len(self._notes):  # pragma: no cover - a note is kept for each ruling the table makes
            raise InputError("history", f"the table made {len(records)} ruling(s) and the record noted "
                             f"{len(self._notes)}")
        out = []
        for rec, note in zip(records, self._notes):
            e = rec.applied
            ruling = note.ruling if note.ruling is not None else self.table.pending_ruling if e is None else None
            args = e.args if e is not None else {}
            out.append(Ruled(note.at or note.ref, note.ref, rec.kind, rec.offender, e is not None, args.get("option"),
                             chooser_named(e, note.ruling) if e is not None else None, args.get("suit"),
                             args.get("card"), dict(rec.facts), note.how,
                             tuple(x.number for x in ruling.laws) if ruling is not None else ()))
        return out

    # ------------------------------------------------------------- the end

    def result(self, tricks: int | None = None) -> dict[str, Any]:
        """The deal as a scoring result (``schema/score.schema.json``); ``tricks``: as the record states them
        (a claim, or a record whose play stops): what was played is ruled, the rest comes from ``[Result]``."""
        return self.table.result(tricks)

    def score(self, result: dict[str, Any]) -> dict[str, Any]:
        return score(result).to_dict()

    def totals(self, result: dict[str, Any]) -> dict[str, int]:
        """The points each side (or player) scores in all."""
        return {k: v["total"] for k, v in score(result).totals().items()}

    def to_json(self) -> str:
        return self.table.to_json()
