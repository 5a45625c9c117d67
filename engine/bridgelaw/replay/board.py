"""Replay one PBN game through the table (via :mod:`.table_adapter`), as the record means it.

The auction's calls take their seats from the ``[Auction]`` tag on, ``-`` standing for the players before
the dealer and ``^S`` for a player skipped by a call out of rotation (§3.5, §3.9); the play's cards take
their seats from the ``[Play]`` tag's column, which must be the opening leader's, and each trick is played
from its leader — or from the card marked ``^L`` — clockwise (§3.6, §3.9). An irregularity the table finds
is ruled with the remedy a ``[BridgelawRemedy]`` tag records; failing that, where a §3.9 marker stands, as
accepted under the code being replayed (:mod:`bridgelaw.pbn.markers`); an irregularity that the record
neither marks nor remedies refuses the board, with the options the law gives. A play ending in ``*`` is a
claim, ruled under the code's claim law and scored from ``[Result]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, repeat
from typing import Any

from ..errors import BridgelawError, InputError, did_you_mean
from ..loader import code_ids, load_code, load_kinds
from ..pbn.markers import LETS_PASS, MARKERS, Marker
from ..pbn.model import Item, PbnGame, Section, Tag
from ..pbn.values import SCORE_TAGS
from ..pbn.tags import (CODE_TAGS, EVENT_TAG, REMEDY_TAG, Event, Remedy, contract_of, deal_of, declarer_of,
                        events_of, items_of, remedies_of, remedy_text, result_of, seat_of)
from ..values import Call, Seat
from ..wording import kind_name
from .result import DEALT, REFUSED, SCORED, UNFINISHED, BoardResult
from ..table import Answer, find_variant
from .table_adapter import TableAdapter

__all__ = ["replay_game", "Refused", "Unfinished", "resolve_code", "written_game"]


class _Unfolded:
    """A play section's entries, unfolded only if something asks for them (a replay whose usual lines of four
    cards were played as they stand needs them only to answer for a revoke)."""

    def __init__(self, section: Section) -> None:
        self.section = section

    def __len__(self) -> int:
        return len(self.section.entries)

    def __getitem__(self, i: int) -> Any:
        return self.section.entries[i]

    def __setitem__(self, i: int, v: Any) -> None:
        self.section.entries[i] = v

    def __iter__(self) -> Any:
        return iter(self.section.entries)


class Refused(InputError):
    """The record cannot be replayed as it stands (it breaks the standard, or contradicts the table)."""


class Unfinished(InputError):
    """The record stops before the deal is over (``+``, an auction or play that ends early)."""


class Dealt(InputError):
    """The record is a hand record: a deal that was not played (no auction, play, contract or result)."""


#: The note on a board ruled under :func:`presumed_code`.
PRESUMED_CODE = "the record names no code ([BridgelawCode]) and none was given"


def presumed_code() -> str:
    """The code a deal file is ruled under when neither the record ([BridgelawCode]) nor the caller names one:
    the latest code of the four-player auction game that revises no other (a deal file from the wild is a
    four-player auction; a variant code such as duplicate or three-hand is never presumed). Chosen from the
    codes' own data (``game``, ``players``, ``year``, ``extends``), so a new code of that kind takes its place."""
    import os

    from ..loader import load_code

    key = os.environ.get("BRIDGELAW_DATA")  # chosen once a process, as the code ids are (_code_ids)
    if key in _PRESUMED:
        return _PRESUMED[key]
    best: tuple[int, str] | None = None
    for code_id in _code_ids():
        c = load_code(code_id)
        if c.game == "auction" and c.players == 4 and not c.extends:
            if best is None or (c.year, code_id) > best:
                best = (c.year, code_id)
    if best is None:
        raise Refused("--code", "no four-player auction code to presume: name the code with --code")
    _PRESUMED[key] = best[1]
    return best[1]


def resolve_code(game_code: str | None, default: str | None, where: str) -> str:
    code = game_code or default
    if not code:
        raise Refused(where, 'name the code: a [BridgelawCode "wcny-1913"] tag, or --code')
    ids = _code_ids()
    if code not in ids:
        shown = code if len(code) <= 40 else code[:40] + "…"
        raise Refused(where, f"no code {shown!r}{did_you_mean(code[:60], ids)}; the codes: {', '.join(ids)}")
    return code


@dataclass(slots=True)
class _Run:
    game: PbnGame
    t: TableAdapter
    remedies: dict[str, Remedy]
    events: dict[str, list[tuple[int, Event, str]]]
    used: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    columns: str = "NESW"           # the play section's columns, from the [Play] tag's seat
    card_items: Any = None          # the play section's entries (or what unfolds them when asked)
    revokes_ruled: set[tuple[str, int]] = field(default_factory=set)
    r_marks: bool = False
    substitutes: dict[str, tuple[Item, str]] = field(default_factory=dict)  # seat -> the card replacing his renounce

    def at(self, item: Item | tuple[str, str, int, int]) -> str:
        if type(item) is tuple:
            return f"{self.game.path}:{item[2]}:{item[3]}"
        return f"{self.game.path}:{item.line}:{item.col}"  # type: ignore[union-attr]

    # ------------------------------------------------------------ rulings

    def settle(self, ref: str, marker: Marker | None, where: str, what: str, card: str | None = None,
               then: Marker | None = None) -> None:
        """The pending ruling: the recorded remedy, else the marker's acceptance, else refuse. ``card``: the
        card the remedy plays where the recorded remedy names none (a renounce corrected in time: the card the
        play section has in its place). ``then``: the marker that accepts the ruling the remedy makes due (a
        call out of rotation let stand, then found insufficient: ``^S ^I``)."""
        t = self.t
        r = t.pending_ruling()
        if r is None:  # pragma: no cover - settled only while a ruling is pending
            raise Refused(where, f"{what}: the table has no ruling pending to settle")
        kind = r.irregularity
        t.answer_at(ref)
        if marker is not None and kind not in marker.kinds:
            raise Refused(where, f"the record marks ^{marker.letter} — {marker.meaning} — on {what}, but the "
                                 f"table finds {kind_name(kind)}")
        rem = self.remedies.get(ref)
        try:
            if rem is not None:
                self.used.add(ref)
                if rem.facts:
                    r = t.answer(**dict(rem.facts))
                if r.questions:
                    raise Refused(where, f"{what}: the ruling on the {kind_name(kind)} still asks: "
                                         + "; ".join(q.ask for q in r.questions))
                t.apply(rem.option, by=rem.by, suit=rem.suit, card=rem.card or card, how="recorded")
                self.settle_due(ref, then, where, what)
                return
            if marker is not None:
                self.accept(marker, ref, where, what)
                self.settle_due(ref, then, where, what)
                return
        except Refused:
            raise
        except InputError as e:
            raise Refused(where, f"{what}: {e.message if e.field in ('option', 'by', 'suit', 'card') else e}") \
                from None
        raise Refused(where, f"{what}: the table finds {_kind_words(kind, r)}, and the record neither marks it "
                             f"(§3.9) nor states the remedy ([{REMEDY_TAG} \"{ref} <option>\"]"
                             + (f"; the options: {', '.join(o.id for o in r.options)}" if r.options else "")
                             + ")")

    def settle_due(self, ref: str, then: Marker | None, where: str, what: str) -> None:
        """A ruling the remedy just carried out made due: accepted as the record's second marker says."""
        t = self.t
        r = t.pending_ruling()
        if r is None:
            if then is not None:
                raise Refused(where, f"the record marks ^{then.letter} — {then.meaning} — on {what}, but the table "
                                     "finds it regular")
            return
        if then is None or r.irregularity not in then.kinds:
            raise Refused(where, f"{what}: the remedy makes a ruling on the {kind_name(r.irregularity)} due at once; "
                                 "a record states one remedy at a call or card (replay it from JSON)")
        t.answer_at(ref)
        self.accept(then, ref, where, what)
        if t.pending_ruling() is not None:
            raise Refused(where, f"{what}: accepting the {kind_name(r.irregularity)} makes another ruling due; a "
                                 "record states one remedy at a call or card (replay it from JSON)")

    def accept(self, marker: Marker, ref: str, where: str, what: str) -> None:
        """The marked irregularity as accepted: the option (or automatic effect) by which the call or card
        stands, else the code's condonation facts answered and the ruling taken again."""
        t = self.t
        r = t.pending_ruling()
        if r is None:  # pragma: no cover - accepted only while a ruling is pending
            raise Refused(where, f"{what}: the table has no ruling pending to accept")
        facts_of_kind = load_kinds()[1][r.irregularity].facts

        def standing(r: Any) -> tuple[bool, str | None]:
            if r.questions:
                return False, None
            if marker.stands is not None:
                for o in r.options:
                    if any(e.kind.value == marker.stands for e in o.effects):
                        return True, o.id
                if not r.options and any(e.kind.value == marker.stands for e in r.effects):
                    return True, None
            return False, None

        ok, option = standing(r)
        if not ok:
            facts = {k: v for k, v in marker.condonation if k in facts_of_kind}
            if facts:
                r = t.answer(**facts)
            ok, option = standing(r)
            if not ok and marker.stands is None and not r.questions and not r.options \
                    and all(e.kind.value in LETS_PASS for e in r.effects):
                ok = True  # a revoke let pass: no penalty
        if not ok:
            law = ", ".join(f"law {x.number}" for x in r.laws) or "its laws"
            asks = "; ".join(q.ask for q in r.questions)
            raise Refused(where, f"the record marks ^{marker.letter} — {marker.meaning} — on {what}, but under "
                                 f"{t.code.id} ({law}) it cannot stand: "
                                 + (f"the ruling asks {asks}" if asks else
                                    f"the options are {', '.join(o.id for o in r.options) or 'none'}")
                                 + f"; state the remedy chosen with [{REMEDY_TAG} \"{ref} <option>\"]")
        t.apply(option, how=f"accepted (^{marker.letter})")

    def run_events(self, ref: str) -> None:
        for k, ev, where in self.events.pop(ref, ()):
            self.run_event(k, ev, where)

    def run_event(self, k: int, ev: Event, where: str) -> None:
        eref = f"E{k}"
        what = f"{ev.seat}'s {ev.verb}" + (f" {ev.arg}" if ev.arg else "")
        try:
            if ev.verb == "call":
                ans = self.t.call(ev.seat, _need(ev, where), eref)
            elif ev.verb in ("lead", "play"):
                ans = self.t.play(ev.seat, _need(ev, where), eref)
            elif ev.verb == "expose":
                ans = self.t.expose(ev.seat, _need(ev, where), eref)
            elif ev.verb == "claim":
                ans = self.t.claim(ev.seat, eref)
            else:
                ans = self.t.correct_revoke(ev.seat, eref)
        except InputError as e:
            raise Refused(where, f"[{EVENT_TAG}] {what}: {e}") from None
        if ans.ruling is not None:
            sub = self.substitutes.get(ev.seat) if ev.verb == "correct" else None
            self.settle(eref, None, where, what, card=sub[0].text if sub else None)
            if ev.verb == "correct":
                self.corrected(ev.seat, where)

    # ------------------------------------------------------------ the auction

    def auction(self, section: Section | None, first: str, dealer: str) -> str | None:
        """Replay the calls (the seats as letters, the table's own spelling); None when the auction is over,
        else why it is not (unfinished)."""
        t = self.t
        table = t.table
        seat, dealer_s = first, dealer
        skipped: list[str] = []
        started = False
        n = 0
        calls = section.plain_calls() if section is not None and first == dealer and not self.events else None
        if calls is not None and all(map(_is_plain_call, calls)):
            # the common auction, plain calls alone from the dealer on: to the table at once, while it rules on
            # none; a call it rules on or refuses is settled (or refused) here, as the loop below would
            while True:
                done, seat, ans = t.call_run(seat, calls, n, _AREFS)
                n += done
                if ans is None:
                    break
                x, item = calls[n], section.entries[n]  # type: ignore[union-attr]
                n += 1
                if isinstance(ans, InputError):  # (the table refuses a call once the auction is over: said so)
                    if table.phase != "auction":
                        raise Refused(self.at(item), f"{x}: a call after the auction ended ({_ended(t)})")
                    raise Refused(self.at(item), f"{seat}'s {_call_words(x)}: {ans.message}")
                self.call(seat, x, _AREFS[n] if n < 64 else f"A{n}", item, None, "", answered=ans)
                seat = _LHO[seat]
            items: list[Any] = []
        else:
            items = section.entries if section is not None else []
        tcall = t.call
        for item in items:
            if type(item) is tuple:  # a plain call: nothing marked, annotated or commented (the common case)
                x = item[0]
                if not skipped and _is_plain_call(x) and (started or seat == dealer_s):
                    started = True
                    n += 1
                    ref = _AREFS[n] if n < 64 else f"A{n}"
                    events = bool(self.events)
                    if events:  # (the auction is seen to be over before what was done at this call is run)
                        if table.phase != "auction":
                            raise Refused(self.at(item), f"{x}: a call after the auction ended ({_ended(t)})")
                        self.run_events(ref)
                    try:
                        ans = tcall(seat, x, ref)
                    except InputError as e:  # (the table refuses a call once the auction is over: said so here)
                        if not events and table.phase != "auction":
                            raise Refused(self.at(item), f"{x}: a call after the auction ended ({_ended(t)})") from None
                        raise Refused(self.at(item), f"{seat}'s {_call_words(x)}: {e.message}") from None
                    if ans.ruling is not None:
                        self.call(seat, x, ref, item, None, "", answered=ans)
                    seat = _LHO[seat]
                    continue
                x, marked = item[0], None
            else:
                x, marked = item.text, item.marker
            where = self.at(item)
            if x == "-":
                if started:
                    raise Refused(where, "'-' after the first call: only the players before the dealer have a '-' "
                                         "in the first auction line (§3.5)")
                if seat == dealer_s:
                    raise Refused(where, f"'-' in the dealer's place: {dealer_s} deals and calls first (§3.5)")
                seat = _LHO[seat]
                continue
            if x == "^S":
                skipped.append(seat)
                seat, started = _LHO[seat], True
                continue
            if x == "*":
                return None if t.phase != "auction" else f"{where}: the auction ends with * before it is complete " \
                                                          f"({t.next_caller()} to call)"
            if x == "+":
                return f"{where}: the auction is to be continued (+): {t.next_caller()} to call"
            if t.phase != "auction":
                raise Refused(where, f"{x}: a call after the auction ended ({_ended(t)})")
            n += 1
            ref = f"A{n}"
            if not started and seat != dealer_s:
                hint = f" — [Auction \"{first}\"] and no '-' for the players before the dealer {dealer_s} " \
                       "(§3.5)"
            else:
                hint = ""
            started = True
            self.run_events(ref)
            if x == "AP":  # all pass: as many passes as end the auction (§3.5.1)
                for _ in range(4):
                    if t.phase != "auction":
                        break
                    self.call(seat, "P", ref, item, None, hint)
                    seat = _LHO[seat]
                continue
            marker = MARKERS["S"] if skipped else MARKERS["I"] if marked == "I" else None
            # ^S ^I: out of rotation and insufficient, both accepted — the call let stand is checked as if in turn
            then = MARKERS["I"] if skipped and marked == "I" else None
            self.call(seat, x, ref, item, marker, hint, then)
            skipped = []
            seat = _LHO[seat]
        if t.phase == "auction":
            self.run_events(f"A{n + 1}")  # what was done after the last call that stood
        if t.phase == "auction":
            return f"{self.game.path}:{self.game.tag('Auction').line}: the auction section ends before the " \
                   f"auction does ({t.next_caller()} to call)"  # type: ignore[union-attr]
        return None

    def call(self, seat: str, x: str, ref: str, item: Any, marker: Marker | None, hint: str,
             then: Marker | None = None, answered: Answer | None = None) -> None:
        """The call, and the ruling on it settled (``answered``: the call made already, the table's answer)."""
        t = self.t
        over = t.last_bid() if marker is not None and marker.letter == "I" else None
        try:
            ans = t.call(seat, x, ref) if answered is None else answered
        except InputError as e:
            raise Refused(self.at(item), f"{seat}'s {_call_words(x)}: {e.message}") from None
        if ans.ruling is None and marker is None:
            return
        where, what = self.at(item), f"{seat}'s {_call_words(x)}"
        if ans.ruling is not None:
            insufficient = not hint and marker is None and ans.ruling.irregularity == "insufficient_bid"
            before = t.last_bid() if insufficient else None  # (the hint is worded only if the call is refused)
            try:
                self.settle(ref, marker, where, what, then=then)
            except Refused as e:
                if insufficient and before is not None:
                    hint = _ranking_hint(t, x, before)
                if hint and marker is None:
                    raise Refused(e.field, e.message + hint) from None
                raise
        elif marker is not None:
            raise Refused(where, f"the record marks ^{marker.letter} — {marker.meaning} — on {what}, but the table "
                                 "finds it regular" + (_ranking_hint(t, x, over) if over else ""))

    # ------------------------------------------------------------ the play

    def play(self, section: Section, first: str) -> tuple[str, Any, int]:
        """Replay the cards (the section's entries: a plain card as a tuple, else an :class:`Item`). Returns
        how the play ended — ``done``, ``*`` (a claim), ``-`` (the rest not known), ``+`` (to be continued),
        ``short`` (the section stops) — the entry that ended it, and the number of tricks played. Trick k is
        the k-th row of four (§3.6), its columns from ``first``."""
        t = self.t
        self.columns = columns = _ORDER[first]
        events = self.events
        table = t.table
        k = 0
        met: tuple[str, int, Any] | None = None  # a ruling (or refusal) the fast paths met in row k
        kept = section.plain_lines()
        with_marks: tuple[list[str], tuple[int, ...]] | None = None  # the lines kept, and those with a marker
        if kept is not None and not events:
            # the usual lines of four cards, as the reader kept them: played as they stand (up to the first with a
            # marker: that line's row is played from the entries below, and the lines after it as they stand)
            lines, _, tail, marks = kept
            r, order, jj, ans = t.play_lines(lines[:marks[0]] if marks else lines, columns, _PREFS)
            k = 4 * r
            if marks:
                with_marks = (lines, marks)
            if order is None and r == len(lines) and (not tail or type(tail[0]) is not tuple and
                                                       tail[0].text in ("*", "+")):
                end = tail[0] if tail else None
                self.card_items = _Unfolded(section)  # type: ignore[assignment]
                if table.phase == "done":
                    return "done", end, 13
                return _how(end), end, t.tricks_played
            if order is not None:
                met = (order, jj, ans)
        items = section.entries
        stop = section.stop_at()  # the cards are the entries up to the first * or +
        cards: list[Any] = items if stop is None else items[:stop]
        end = None if stop is None else items[stop]
        self.card_items = cards
        play = t.play
        bases = _BASES[columns]
        n = len(cards)
        while k < n:
            if met is None:
                if table.phase != "play":
                    raise Refused(self.at(cards[k]), f"{_text(cards[k])}: a card after the play ended ({_ended(t)})")
                if not events and k < 60:
                    # the common case: rows of four plain cards, each trick played from its leader, until the table
                    # rules on one (settled here, and the rest of its row played), or a row is not plain
                    k0 = k
                    if with_marks is None:
                        k, order, jj, ans = t.play_rows(cards, k, columns, _PREFS)
                    elif k // 4 in with_marks[1]:  # (a row with a marker: the loop below plays it)
                        order = None
                    else:  # the plain lines from this row to the next with a marker, as they stand
                        a = k // 4
                        b = next((m for m in with_marks[1] if m > a), len(with_marks[0]))
                        r, order, jj, ans = t.play_lines(with_marks[0][a:b], columns, _PREFS[k:])
                        k += 4 * r
                    if order is not None:
                        met = (order, jj, ans)
                    elif k >= n:
                        break
                    elif k > k0:
                        continue  # the row it stopped at: seen again from the top (the deal may be over)
            if met is not None:
                order, jj, ans = met
                met = None
                base = bases[k]
                while ans is not None:
                    s = order[jj]
                    i = base[s]
                    x = cards[i][0]
                    if isinstance(ans, InputError):
                        raise Refused(self.at(cards[i]), f"{s}'s {x} (trick {t.trick_number}): {ans.message}")
                    ref = _PREFS[i + 1]
                    self.ruled_card(ans.kind or "", ref, cards[i], self.at(cards[i]), f"{s}'s {x}")
                    self.check_stood(s, cards[i], ref, ans.kind)
                    if table.phase != "play":
                        break
                    hit = t.play_plain(order, jj + 1, cards, base, _PREFS)
                    jj, ans = hit if hit is not None else (0, None)
                k += 4
                continue
            row = cards[k:k + 4]
            if events:  # what was done between the last trick and this one (T<n>) decides who leads it
                self.run_events(f"T{k // 4 + 1}")
            cols = dict(zip(columns, range(k, k + len(row))))
            marked = [s for s, i in cols.items() if type(cards[i]) is not tuple and cards[i].marker == "L"]
            if marked:
                if len(marked) > 1:
                    raise Refused(self.at(cards[cols[marked[1]]]), "two cards of one trick marked ^L (§3.9: the card "
                                                                   "led)")
                if t.cards_in_trick:
                    raise Refused(self.at(cards[cols[marked[0]]]), "^L marks a lead, but this trick was begun already")
            order = _ORDER[marked[0]] if marked else _ORDER[t.next_player()] if not table.current_trick else ""
            for s in order:
                i = cols.get(s)
                if i is None:
                    return _how(end), end, t.tricks_played
                e = cards[i]
                ref = _PREFS[i + 1] if i < 63 else f"P{i + 1}"
                if type(e) is tuple and not events:  # the common case: a plain card, nothing recorded before it
                    x = e[0]
                    try:
                        ans = play(s, x, ref)
                    except InputError as err:
                        raise Refused(self.at(e), f"{s}'s {x} (trick {t.trick_number}): {err.message}") from None
                    if ans.ruling is not None:
                        self.ruled_card(ans.kind or "", ref, e, self.at(e), f"{s}'s {x}")
                        self.check_stood(s, e, ref, ans.kind)
                    continue
                item = self.item(e, i)
                if item.text == "-":
                    return "-", item, t.tricks_played
                self.card(s, item, ref)
            k += 4
        if t.phase == "play":
            self.run_events(f"P{len(cards) + 1}")  # what was done after the last card
        if t.phase == "done":
            return "done", end, 13
        return _how(end), end, t.tricks_played

    def item(self, e: Any, i: int) -> Item:
        if type(e) is tuple:
            e = Item(e[0], None, None, None, (), (), e[1], e[2], e[3])
            self.card_items[i] = e
        return e  # type: ignore[no-any-return]

    def card(self, seat: str, item: Item, ref: str) -> None:
        t = self.t
        x = item.text
        trick = t.trick_number
        if self.events:
            self.run_events(ref)
            if self.correction_ahead(seat, ref):
                # he renounced in this trick (an event at this card), and corrects it before the trick is done:
                # the card in his column is the one the correction puts in its place
                self.substitutes[seat] = (item, ref)
                return
        if item.marker == "R":
            self.r_marks = True
        try:
            ans = t.play(seat, x, ref)
        except InputError as e:
            raise Refused(self.at(item), f"{seat}'s {x} (trick {trick}): {e.message}") from None
        if ans.ruling is not None:
            self.ruled_card(ans.kind or "", ref, item, self.at(item), f"{seat}'s {x} (trick {trick})")
            self.check_stood(seat, item, ref, ans.kind)
        elif item.marker == "L":
            raise Refused(self.at(item), f"the record marks ^L — {MARKERS['L'].meaning} — on {seat}'s {x} (trick "
                                         f"{trick}), but it is the proper lead")

    def correction_ahead(self, seat: str, ref: str) -> bool:
        """Has ``seat`` played to this trick already (the events at his card), and does the record correct his
        renounce before a card is played to the next trick (an event at a card of this row or the next still
        to come: the events at a card are run, and gone, when it is played)?"""
        i = int(ref[1:])
        row = (i - 1) // 4
        table = self.t.table
        tricks = table.tricks
        cards = table.current_trick if row == len(tricks) else tricks[row].cards if row < len(tricks) else ()
        if not any(s == seat for s, _ in cards):
            return False
        refs = [f"P{j}" for j in range(4 * row + 1, 4 * (row + 2) + 1)] + [f"T{row + 2}"]
        return any(ev.verb == "correct" and ev.seat == seat for r in refs for _, ev, _ in self.events.get(r, ()))

    def corrected(self, seat: str, where: str) -> None:
        """The correction's remedy carried out: the card it put in the trick must be the record's."""
        sub = self.substitutes.pop(seat, None)
        if sub is None:
            return
        item, _ = sub
        table = self.t.table
        cards = table.current_trick or (table.tricks[-1].cards if table.tricks else ())
        if (seat, item.text) not in cards:
            got = next((c for s, c in cards if s == seat), "no card")
            raise Refused(self.at(item), f"{seat}'s {item.text}: the record puts it in the place of his renounce "
                                         f"corrected in time ({where}), but the correction plays {got}")

    def check_stood(self, seat: str, item: Any, ref: str, kind: str | None) -> None:
        t, x = self.t, _text(item)
        if t.phase == "play" and t.hands_known() and t.holds(seat, x) and kind != "revoke":
            raise Refused(self.at(item), f"{seat}'s {x}: after the remedy the card is not in the trick; a card that "
                                         f"did not stand is recorded as [{EVENT_TAG} \"{ref} {seat} lead {x}\"] "
                                         "before the card that replaced it")

    def card_at(self, seat: str, trick: int) -> tuple[str, Item] | None:
        """The record's card of ``seat`` in trick ``trick``: its reference and item."""
        i = 4 * (trick - 1) + self.columns.index(seat)
        if 0 <= i < len(self.card_items):
            return f"P{i + 1}", self.item(self.card_items[i], i)
        return None

    def ruled_card(self, kind: str, ref: str, item: Any, where: str, what: str) -> None:
        origin = self.t.pending_revoke()
        if origin is not None:  # a revoke established now: its own card, and its marker, answer for it
            self.revokes_ruled.add(origin)
            found = self.card_at(*origin)
            if found is not None:
                oref, oitem = found
                self.settle(oref, MARKERS["R"] if oitem.marker == "R" else None, self.at(oitem),
                            f"{origin[0]}'s {oitem.text} (trick {origin[1]}), a revoke")
                return
        self.settle(ref, MARKERS["L"] if type(item) is not tuple and item.marker == "L" else None, where, what)

    def check_revoke_marks(self) -> None:
        if not self.r_marks:
            return
        items = self.card_items
        for i in compress(range(len(items)), map(isinstance, items, repeat(Item))):  # (a plain card is a tuple)
            item = items[i]
            if item.marker != "R":  # (marked otherwise)
                continue
            seat, trick = self.columns[i % 4], i // 4 + 1
            if (seat, trick) not in self.revokes_ruled:
                if trick > self.t.tricks_played + (1 if self.t.cards_in_trick else 0):
                    continue  # not played: the play stopped before it
                if not self.t.hands_known():
                    self.notes.append(f"{self.at(item)}: ^R on {seat}'s {item.text}: the hands are not known, so "
                                      "the revoke is taken as the record says (not noticed in time: no penalty)")
                    continue
                raise Refused(self.at(item), f"the record marks ^R — {MARKERS['R'].meaning} — on {seat}'s "
                                             f"{item.text} in trick {trick}, but the table finds no revoke there")


_PREFS = tuple(f"P{i}" for i in range(64))
_is_plain_call = frozenset(["P", "X", "XX"] + [f"{lv}{s}" for lv in "1234567" for s in ("C", "D", "H", "S", "NT")]).__contains__
_AREFS = tuple(f"A{i}" for i in range(64))
_ORDER = {s: s + "".join("NESWNESW"["NESW".index(s) + 1:"NESW".index(s) + 4]) for s in "NESW"}
_LHO = {s: o[1] for s, o in _ORDER.items()}
_CODE_IDS: dict[str | None, tuple[str, ...]] = {}
_PRESUMED: dict[str | None, str] = {}
_VARIANTS: dict[str, tuple[Any, str]] = {}  # code id -> (the loaded code, the variant of table that plays it)
_SEAT_OF = {s.value: s for s in Seat}
_TRICKS = tuple(str(n) for n in range(14))
# for each order of the play section's columns, each row's start: seat -> its card's place in the section
_BASES = {cols: [{s: k + i for i, s in enumerate(cols)} if k % 4 == 0 else {} for k in range(64)]
          for cols in _ORDER.values()}


def _variant(code: Any) -> str:
    """The table variant that plays a loaded code (found once a code: the table chooses it from the code's data)."""
    hit = _VARIANTS.get(code.id)
    if hit is None or hit[0] is not code:
        hit = _VARIANTS[code.id] = (code, find_variant(code).variant)
    return hit[1]


def _code_ids() -> tuple[str, ...]:
    """The codes there are (read once a process: the data folder does not change under a replay)."""
    import os

    key = os.environ.get("BRIDGELAW_DATA")
    if key not in _CODE_IDS:
        _CODE_IDS[key] = tuple(code_ids())
    return _CODE_IDS[key]


def _text(e: Any) -> str:
    return e[0] if type(e) is tuple else e.text  # type: ignore[no-any-return]


def _how(end: Any) -> str:
    return "*" if end is not None and end.text == "*" else "+" if end is not None else "short"


def _need(ev: Event, where: str) -> str:
    if not ev.arg:
        raise Refused(where, f"[{EVENT_TAG}]: {ev.verb} needs a call or card")
    return ev.arg


def _kind_words(kind: str, r: Any) -> str:
    law = ", ".join(x.number for x in r.laws)
    return kind_name(kind) + (f" (law {law})" if law else "")


def _ranking_hint(t: TableAdapter, bid: str, over: str | None = None) -> str:
    """What a bid and the bid before it (``over``; else the last bid made) are worth under the code, where the
    record and the code disagree whether it is sufficient: a record of a modern auction (bids ranked by level,
    then suit) is refused so, and says why."""
    over = over or t.last_bid()
    if over is None or not bid[:1].isdigit():
        return ""
    a, b = Call(bid), Call(over)
    if a.level is None or b.level is None:
        return ""
    code = t.code
    modern = a.level > b.level if code.bid_value(a) <= code.bid_value(b) else a.level < b.level
    return (f" — under {code.id} a bid ranks by its value, the tricks bid times the trick value: {bid} is worth "
            f"{code.bid_value(a)}, {over} {code.bid_value(b)}"
            + ("; the record's auction ranks bids by level, as in the modern game, which this code's law does not"
               if modern else ""))


def _call_words(x: str) -> str:
    return {"P": "pass", "X": "double", "XX": "redouble"}.get(x, x)


def _ended(t: TableAdapter) -> str:
    return {"play": f"{t.contract} by {t.declarer}", "new_deal": "a new deal", "passed_out": "all passed",
            "done": "all thirteen tricks played"}.get(t.phase, t.phase)


def _tag_values(game: PbnGame, name: str) -> list[tuple[str, str]]:
    return items_of([(v, f"{game.path}:{line}:{col}") for v, line, col in game.tag_places(name)])


def _unplayed(game: PbnGame, value: str | None, name: str) -> bool:
    """No auction (or play) section, or one with no call (card) in it: what a hand record gives (a program's
    empty ``[Auction "N"]`` too)."""
    if value is None:
        return True
    sec = game.section(name)
    return sec is None or sec.empty()


def _tag_where(game: PbnGame, name: str) -> str:
    places = game.tag_places(name)
    return f"{game.path}:{places[0][1]}:{places[0][2]}" if places else game.where()


def replay_game(game: PbnGame, code: str | None = None, write: bool = False,
                keep: bool = False, export: bool = False) -> tuple[BoardResult, TableAdapter | None]:
    """Replay one game: its :class:`BoardResult` (and the adapter, for the caller that wants the table).
    ``write``: the game written back (``export``: in export format, §2.1, or why it cannot be)."""
    res = BoardResult(game.path, game.board(), game.index, game.line, REFUSED)
    if game.warnings:
        res.notes.extend(game.warnings)
    t: TableAdapter | None = None
    try:
        t = _replay(game, code, res)
    except (Refused, Unfinished, Dealt) as e:
        res.status = UNFINISHED if isinstance(e, Unfinished) else DEALT if isinstance(e, Dealt) else REFUSED
        if res.status == DEALT:  # nothing is ruled: the code presumed for ruling is no note of a hand record's
            res.notes = [n for n in res.notes if not n.startswith(PRESUMED_CODE)]
        res.reason, res.where = str(e), e.field
    except InputError as e:  # a tag value the record gets wrong: it names its own place
        placed = e.field.startswith(game.path + ":")
        res.status, res.reason = REFUSED, str(e) if placed else f"{game.where()}: {e}"
        res.where = e.field if placed else game.where()
    except BridgelawError as e:
        res.status, res.reason = REFUSED, f"{game.where()}: {e}"
        res.where = game.where()
    if t is not None:
        res.rulings = [r.to_json() for r in t.rulings()]
    if write:
        try:
            res.written = written_game(game, t if res.status != REFUSED else None, res.code, export)
        except InputError as e:  # (only export format refuses a game: a tag, line or character it cannot hold)
            res.unwritten = str(e)
    return res, (t if keep else None)


def _replay(game: PbnGame, default_code: str | None, res: BoardResult) -> TableAdapter | None:
    g = game
    vals = g.values() if g.inherited else g.tag_values()  # (read here, never changed)
    code_value = None
    for name in CODE_TAGS:  # the first code tag given a value
        code_value = vals.get(name) or None
        if code_value:
            break
    code = code_value or default_code
    if code is None:
        code = presumed_code()
        res.notes.append(f"{PRESUMED_CODE}: ruled under {code}, the latest four-player auction code (--code names "
                         "another)")
    try:
        loaded = load_code(code)  # type: ignore[arg-type]  (a code loaded already is a look-up)
    except (InputError, TypeError, OSError):  # (OSError: a name too long for a folder)
        code = resolve_code(code_value, default_code, _tag_where(g, "BridgelawCode") if code_value else g.where())
        loaded = load_code(code)
    res.code = code
    if code_value and default_code and default_code != code:  # the caller's --code is for records naming none
        res.notes.append(f"the record names its code, {code} ([{name}]): ruled under it, not under {default_code} "
                         "(--code names the code of records that name none)")
    if _variant(loaded) == "three-hand":  # every game, with an auction or with its tags only
        raise Refused(g.where(), f"{code} is three-hand: PBN has no three-hand layout (replay a JSON record)")
    # (a [Vulnerable] or [Score] value the standard does not write is said by the reader, pbn/values.py)
    for name in SCORE_TAGS:
        if vals.get(name):
            res.notes.append(f"{_tag_where(g, name)}: [{name} \"{vals[name]}\"] is not compared with the score here: "
                             "§4.2 gives the points of the [Scoring] method, the contract game's, and "
                             f"{code} scores by its own law")
    given = g.tag_values()  # (the tags of the sections and of our remedies and events: no §4.8 value is theirs)
    auction_v, play_v = given.get("Auction"), given.get("Play")
    deal_v = vals.get("Deal")
    if deal_v in ("", "?"):  # §3.4: "" the deal is not given, "?" it is not known
        deal_v = None
    if deal_v and _unplayed(g, auction_v, "Auction") and _unplayed(g, play_v, "Play") and all(
            vals.get(n) in (None, "", "?") for n in ("Contract", "Declarer", "Result")):
        deal_of(deal_v, _tag_where(g, "Deal"))  # (a deal that is none is refused at its tag)
        raise Dealt(_tag_where(g, "Deal"), "a hand record: the deal alone, no auction, play, contract or result — "
                                           "a deal not played is neither replayed nor scored")
    dealer_v = vals.get("Dealer")
    if dealer_v == "?":  # §3.4: the dealer not known
        if auction_v is not None:
            raise Refused(_tag_where(g, "Dealer"), '[Dealer "?"]: the dealer is not known (§3.4), and the auction is '
                                                   "replayed from him (the dealer declares first): give the dealer")
        dealer_v = None
    if not dealer_v:
        if auction_v is not None:
            raise Refused(_tag_where(g, "Auction"), "[Auction] with no [Dealer]: the dealer must be filled before "
                                                    "the auction section (§3.1)")
        if vals.get("Contract") in (None, "", "?"):
            raise Unfinished(g.where(), "no auction, no contract and no result: nothing to replay")
    # the usual spelling goes to the table as it is (the table checks its cards); any other is read here
    deal, unknown = (None, []) if not deal_v else (deal_v, []) if "-" not in deal_v else \
        deal_of(deal_v, _tag_where(g, "Deal"))
    if deal_v is None:
        res.notes.append("no [Deal]: the hands are not known — revokes cannot be checked, honours are not scored")
    elif unknown:
        res.notes.append(f"[Deal] gives no hand for {', '.join(unknown)} (§3.4.11 '-'): revokes cannot be checked, "
                         "honours are not scored")
    remedies = remedies_of(_tag_values(g, REMEDY_TAG)) if REMEDY_TAG in given else {}
    events: dict[str, list[tuple[int, Event, str]]] = {}
    if EVENT_TAG in given:
        values = _tag_values(g, EVENT_TAG)
        for k, (ev, (_, where)) in enumerate(zip(events_of(values), values), start=1):
            events.setdefault(ev.ref, []).append((k, ev, where))
    decl_v, contract_v, result_v = vals.get("Declarer"), vals.get("Contract"), vals.get("Result")
    if auction_v is None:
        return _from_tags(g, code, dealer_v, deal, decl_v, contract_v, result_v, res)
    dealer = dealer_v if dealer_v in _SEAT_OF else seat_of(dealer_v, "Dealer", _tag_where(g, "Dealer")).value
    try:
        t = TableAdapter(loaded, dealer, deal)
    except InputError as e:
        if e.field != "deal" or not deal_v:
            raise
        deal_of(deal_v, _tag_where(g, "Deal"))  # says what is wrong with it, at the tag
        raise Refused(_tag_where(g, "Deal"), f"[Deal]: {e.message}") from None
    run = _Run(g, t, remedies, events, notes=res.notes)  # (its notes are the board's)
    first = auction_v if auction_v in _SEAT_OF else seat_of(auction_v, "Auction", _tag_where(g, "Auction")).value
    not_over = run.auction(g.section("Auction"), first, dealer)
    if not_over:
        raise Unfinished(not_over.split(": ", 1)[0], not_over.split(": ", 1)[1])
    res.contract, res.declarer = t.contract, t.declarer
    _check_outcome(g, t, decl_v, contract_v, res.declarer, res.contract)
    play_sec = g.section("Play")
    if t.phase in ("new_deal", "passed_out"):
        if play_sec is not None and not play_sec.empty():
            raise Refused(_tag_where(g, "Play"), f"a play section, but the deal ended in the auction ({_ended(t)})")
        _finish_refs(run)
        res.score = t.totals(t.result())
        res.status, res.source = SCORED, "auction"
        return t
    declarer = _SEAT_OF[res.declarer]  # type: ignore[index]
    if play_sec is None or play_sec.empty():
        if result_v not in (None, "", "?"):
            tricks = result_of(result_v, declarer, _tag_where(g, "Result"))
            if tricks is None:  # pragma: no cover - a Result that is given gives the tricks
                raise Refused(_tag_where(g, "Result"), f"the Result tag {result_v!r} gives no number of tricks")
            _finish_refs(run)
            return _score_tricks(t, tricks, res, "result", "no play recorded: the tricks are [Result]'s",
                                 _tag_where(g, "Result"))
        raise Unfinished(g.where(), f"{res.contract} by {t.declarer}: no play section and no [Result]")
    lead = play_v if play_v in _SEAT_OF else seat_of(play_v, "Play", _tag_where(g, "Play")).value  # type: ignore[arg-type]
    if lead != t.next_player():
        raise Refused(_tag_where(g, "Play"), f"[Play \"{lead}\"]: the opening lead is {t.next_player()}'s (the "
                                             f"declarer {t.declarer}'s left-hand adversary); §3.6 gives the opening "
                                             "leader's direction")
    how, end, played = run.play(play_sec, lead)
    if how == "done":
        run.check_revoke_marks()
        _finish_refs(run)
        result = t.result()
        res.tricks = result["tricks"]
        res.score, res.status, res.source = t.totals(result), SCORED, "play"
        if result_v not in (None, "", "?") and result_v != _TRICKS[res.tricks]:  # (the usual: as played)
            try:
                stated = result_of(result_v, declarer, _tag_where(g, "Result"))
            except InputError as e:  # the play says what the result is: a [Result] it cannot read is noted
                res.notes.append(str(e))
                stated = None
            if stated and stated[0] != res.tricks and not stated[1]:
                res.notes.append(f"{_tag_where(g, 'Result')}: [Result \"{result_v}\"] but the play gives the "
                                 f"declarer's side {res.tricks} tricks")
            elif stated and stated[1]:  # §3.4.15: ^ marks a result the players agreed, differing from the play
                res.notes.append(f"{_tag_where(g, 'Result')}: [Result \"{result_v}\"]: " + (
                    f"the players agreed {stated[0]} tricks for the declarer's side (^, §3.4.15), the play gives "
                    f"{res.tricks}: scored as played" if stated[0] != res.tricks else
                    f"^ marks a result differing from the tricks won (§3.4.15), but the play gives the declarer's "
                    f"side the same {res.tricks}"))
        return t
    where = run.at(end) if end is not None else _tag_where(g, "Play")
    n_tricks = f"{played} trick{'' if played == 1 else 's'}"
    if how == "+":
        raise Unfinished(where, f"the play is to be continued (+) after {n_tricks}")
    if how == "short":
        raise Unfinished(where, f"the play section stops after {n_tricks}, without * (§3.6)")
    stated = result_of(result_v, declarer, _tag_where(g, "Result")) if result_v not in (None, "", "?") else None
    if stated is None:
        raise Unfinished(where, f"the play ends with {'*' if how == '*' else 'cards not known (-)'} after "
                                f"{n_tricks}, and no [Result] says how many the declarer took")
    if t.cards_in_trick == 0 and t.table.revokes:
        ans = t.quit_trick()  # the last trick played is turned and quitted: a revoke in it is established
        if ans.ruling is not None:
            run.ruled_card(ans.kind or "", "end", end or Item("*"), where, "the last trick")
    run.check_revoke_marks()
    if how == "*":
        try:
            t.claim(declarer.value, "end")
        except InputError as e:
            raise Refused(where, f"the claim: {e.message}") from None
        rem = remedies.get("end")
        if rem is not None:
            run.settle("end", None, where, "the claim")
        else:
            r = t.pending_ruling()
            if r is None:  # pragma: no cover - the claim is ruled on
                raise Refused(where, "the claim: the table gave no ruling on it")
            if r.questions or len({o.id for o in r.options}) > 1:
                raise Refused(where, f"the claim (*): under {code} the ruling offers "
                                     f"{', '.join(o.id for o in r.options)}; state the remedy with [{REMEDY_TAG} "
                                     "\"end <option>\"]")
            t.apply(None, how="the claim conceded: the play ends with * and [Result]")
    _finish_refs(run)
    note = (f"the claim (*) after {n_tricks}: the tricks are [Result]'s" if how == "*"
            else f"the play is not known after {n_tricks} (-): the tricks are [Result]'s")
    return _score_tricks(t, stated, res, "claim" if how == "*" else "result", note, _tag_where(g, "Result"))


def _finish_refs(run: _Run) -> None:
    unused = [r for r in run.remedies if r not in run.used]
    if unused:
        raise Refused(run.game.where(), f"[{REMEDY_TAG} \"{run.remedies[unused[0]].ref} …\"]: the table rules "
                                        f"nothing at {unused[0]}")
    if run.events:
        ref = next(iter(run.events))
        raise Refused(run.events[ref][0][2], f"[{EVENT_TAG}] at {ref}: the record has no call or card {ref}")


def _score_tricks(t: TableAdapter, stated: tuple[int, bool], res: BoardResult, source: str,
                  note: str, where: str) -> TableAdapter:
    tricks, differs = stated
    try:
        result = t.result(tricks)
    except InputError as e:
        raise Refused(where, f"[Result]: {e.message}") from None
    res.notes.append(note + (" (marked ^: differing from the tricks actually won)" if differs else ""))
    res.tricks, res.score, res.status, res.source = tricks, t.totals(result), SCORED, source
    return t


def _from_tags(g: PbnGame, code: str, dealer_v: str | None, deal: str | None, decl_v: str | None,
               contract_v: str | None, result_v: str | None, res: BoardResult) -> None:
    """No auction: the contract, declarer and result the tags state, scored without refereeing."""
    from ..scoring import score

    contract = contract_of(contract_v, _tag_where(g, "Contract")) if contract_v not in (None, "", "?") else ()
    if contract is None:  # (a [Declarer] or [Result] beside it, which §3.4.13 and §3.4.15 leave empty, is said)
        raise Refused(_tag_where(g, "Contract"), f"[Contract \"{contract_v}\"]: all four passed; no auction code "
                                                 "lets the dealer pass (he must declare)")
    if not contract or decl_v in (None, "?"):  # "" is inappropriate, "?" unknown (§3.4)
        missing = [n for n, v in (("Contract", contract_v), ("Declarer", decl_v)) if v in (None, "?", "")]
        raise Unfinished(g.where(), "no auction section, and no " + " and ".join(f"[{n}]" for n in missing)
                         + " to score")
    declarer, swapped = declarer_of(decl_v, _tag_where(g, "Declarer"))
    if declarer is None or swapped:
        raise Refused(_tag_where(g, "Declarer"), f"[Declarer \"{decl_v}\"]: " + (
            "the declarer and the dummy swapped (§3.4.13) is not refereed" if swapped else "no declarer"))
    stated = result_of(result_v or "", declarer, _tag_where(g, "Result"))
    if stated is None:
        raise Unfinished(g.where(), f"{contract_v} by {declarer.value}: no auction, no play and no [Result]")
    bid, doubled = contract
    result: dict[str, Any] = {"code": code, "declarer": declarer.value, "contract": bid + "X" * doubled,
                              "tricks": stated[0]}
    if deal:
        result["deal"] = deal  # without one the honours are not known, and not scored (the note says so)
    if dealer_v:
        result["dealer"] = seat_of(dealer_v, "Dealer", _tag_where(g, "Dealer")).value
    try:
        s = score(result)
    except InputError as e:
        raise Refused(g.where(), f"{contract_v} by {declarer.value}: {e}") from None
    res.contract, res.declarer, res.tricks = bid + "X" * doubled, declarer.value, stated[0]
    res.score, res.status, res.source = {k: v["total"] for k, v in s.totals().items()}, SCORED, "result"
    res.notes.append("no auction recorded: [Contract], [Declarer] and [Result] scored as stated, unrefereed")
    notes = s.notes
    if not deal:  # the board's own note says the honours are not known: the sheet's note on them is not the board's
        from ..scoring.rules import rules_of
        from ..scoring.sheet import unstated_honours_note

        unstated = unstated_honours_note(rules_of(load_code(code)), Call(bid).strain)
        notes = [n for n in notes if n != unstated]
    res.notes.extend(notes)  # what the score presumed (a limit not applied for want of the dealer) is said
    return None


def _check_outcome(g: PbnGame, t: TableAdapter, decl_v: str | None, contract_v: str | None,
                   declarer_now: str | None, contract_now: str | None) -> None:
    if decl_v == declarer_now and (contract_v == contract_now or t.phase != "play"):
        return  # the tags as the auction has them (the usual spelling)
    if decl_v not in (None, "", "?") and declarer_now:
        declarer, swapped = declarer_of(decl_v, _tag_where(g, "Declarer"))
        if swapped:
            raise Refused(_tag_where(g, "Declarer"), f"[Declarer \"{decl_v}\"]: the declarer and the dummy swapped "
                                                     "(§3.4.13, §3.9 (E)) is not refereed")
        if declarer is not None and declarer.value != t.declarer:
            raise Refused(_tag_where(g, "Declarer"), f"[Declarer \"{decl_v}\"], but the auction makes "
                                                     f"{t.declarer} the declarer")
    if contract_v not in (None, "", "?") and t.phase == "play" and t.contract:
        c = contract_of(contract_v, _tag_where(g, "Contract"))
        if c is not None and (c[0] != t.bid or c[1] != t.doubled):
            raise Refused(_tag_where(g, "Contract"), f"[Contract \"{contract_v}\"], but the auction ends in "
                                                     f"{t.contract}")


def written_game(game: PbnGame, t: TableAdapter | None, code: str | None, export: bool = False) -> str:
    """The game as read, with the code it was replayed under and a [BridgelawRemedy] for every ruling
    made (a game refused is written back as read). ``export``: in export format (:mod:`..pbn.export`, which
    raises :class:`InputError` for what export format cannot hold)."""
    from ..pbn.export import write_export
    from ..pbn.writer import write_game

    write = write_export if export else write_game
    if t is None:
        return write(game)
    made = [Tag(REMEDY_TAG, remedy_text(Remedy(r.at or "", r.option, r.by, r.suit, r.card, tuple(sorted(r.facts.items())))))
            for r in t.rulings() if r.applied and r.at]
    tags: list[Tag] = []
    for x in game.tags:  # the remedies recorded before stand where they stood; new ones go last
        if x.name == REMEDY_TAG:
            tags.extend(made)
            made = []
        else:
            tags.append(x)
    tags.extend(made)
    if code and not any(x.name in CODE_TAGS for x in tags):
        tags.insert(0, Tag("BridgelawCode", code))
    out = PbnGame(tags=tags, prologue=game.prologue, lead=game.lead, inherited=game.inherited, path=game.path,
                  index=game.index, line=game.line)
    return write(out)
