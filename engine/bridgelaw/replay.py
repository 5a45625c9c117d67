"""Replay a whole deal record through a :class:`~bridgelaw.table.Table`, ruling as it goes.

A JSON record::

    {"code": "wcny-1913", "dealer": "S", "deal": "N:...",
     "events": [{"seat": "S", "call": "1H"}, {"seat": "W", "call": "1S"}, {"apply": "penalize"},
                {"seat": "W", "card": "SK"}, {"seat": "N", "expose": "HA"}, {"answer": {"fact": value}},
                {"apply": "call-suit", "suit": "D"}, {"apply": "penalize", "by": "E"}]}

An irregularity the table detects is ruled; the next event may be
``{"apply": option}`` (and ``{"answer": {...}}`` first where the ruling asks);
without one the first option is taken and the report says so. A PBN record
(:mod:`bridgelaw.pbn`) replays the same way, its ``^`` markers checked
against what the table detects. The deal ends with its score.
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import BridgelawError, InputError
from .pbn import PbnRecord
from .table import Answer, Table
from .values import Seat

__all__ = ["replay", "events_from_pbn"]

_MARKERS = {"^I": ("insufficient_bid", "impossible_bid"), "^S": ("call_out_of_turn", "pass_out_of_turn"),
            "^L": ("lead_out_of_turn",), "^R": ("revoke",)}


def events_from_pbn(rec: PbnRecord) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The table's opening (code, dealer, deal) and the events of a PBN record."""
    tags = rec.tags
    if "Dealer" not in tags:
        raise InputError("Dealer", "the PBN record has no [Dealer] tag")
    head: dict[str, Any] = {"dealer": tags["Dealer"], "deal": tags.get("Deal") or None}
    if "Code" in tags:
        head["code"] = tags["Code"]
    events: list[dict[str, Any]] = []
    seat = Seat.parse(rec.auction_seat or tags["Dealer"], "Auction")
    for call, markers in rec.auction:
        ev: dict[str, Any] = {"seat": seat.value, "call": call}
        if markers:
            ev["expect"] = markers
        events.append(ev)
        seat = seat.lho
    if rec.play:
        first = Seat.parse(rec.play_seat or "W", "Play")
        for line in rec.play:
            cards = [(first.after(i), c, m) for i, (c, m) in enumerate(line) if c is not None]
            events.append({"trick": [{"seat": s.value, "card": c, **({"expect": m} if m else {})}
                                     for s, c, m in cards]})
    return head, events


def replay(record: Mapping[str, Any] | PbnRecord, code: str | None = None) -> dict[str, Any]:
    if isinstance(record, PbnRecord):
        head, events = events_from_pbn(record)
    else:
        head = {k: record.get(k) for k in ("code", "dealer", "deal")}
        events = list(record.get("events") or [])
        if not isinstance(record.get("events"), list):
            raise InputError("events", "expected a list of {seat, call} / {seat, card} / {apply} events")
    code = head.get("code") or code
    if not code:
        raise InputError("code", "name the code (a \"code\" field, a [Code] tag, or --code)")
    t = Table(code, head.get("dealer") or "S", head.get("deal"))
    log: list[dict[str, Any]] = []
    mismatches: list[str] = []
    marked_revokes: list[tuple[str, int, str]] = []
    i = 0
    pending: Answer | None = None

    def settle(where: str) -> None:
        nonlocal pending
        # the record's next events answer and choose; else the first option is taken
        nonlocal i
        r = pending.ruling if pending else None
        while i < len(events) and "answer" in events[i]:
            r = t.answer(**events[i]["answer"])
            i += 1
        choice = by = suit = card = None
        if i < len(events) and "apply" in events[i]:
            ev = events[i]
            choice, by, suit, card = ev["apply"], ev.get("by"), ev.get("suit"), ev.get("card")
            i += 1
        elif r is not None and r.options:
            choice = r.options[0].id
            log.append({"note": f"{where}: no choice recorded; took the first option, {choice}"})
        applied = t.apply(choice, by=by, suit=suit, card=card)
        log.append({"applied": choice or "effects", "irregularity": applied.irregularity})
        pending = None

    def check_expect(ans: Answer, expect: list[str] | None, where: str) -> None:
        if not expect:
            return
        for m in expect:
            kinds = _MARKERS.get(m, ())
            if ans.legal or ans.kind not in kinds:
                mismatches.append(f"{where}: the record marks {m} but the table found "
                                  f"{'nothing irregular' if ans.legal else ans.kind}")

    while i < len(events):
        ev = events[i]
        i += 1
        where = f"events[{i - 1}]"
        try:
            if "call" in ev:
                ans = t.call(ev["seat"], ev["call"])
                check_expect(ans, ev.get("expect"), where)
                log.append(_entry(ev, ans))
                if not ans.legal or ans.ruling is not None:
                    pending = ans
                    settle(where)
            elif "card" in ev or "trick" in ev:
                plays = list(ev["trick"] if "trick" in ev else [ev])
                tried_marked = False
                retried: set[str] = set()
                while plays and t.state["phase"] == "play":
                    marked = [p for p in plays if "^L" in p.get("expect", [])]
                    if marked and not tried_marked:
                        pl, tried_marked = marked[0], True
                    else:
                        nxt = t.next_player().value
                        pl = next((p for p in plays if p["seat"] == nxt), plays[0])
                        if pl["seat"] != nxt and pl["card"] in retried:
                            raise InputError(where, f"after the ruling it is {nxt}'s turn, and the record has no "
                                                    f"card of {nxt}'s here ({pl['seat']}'s {pl['card']} waits)")
                    plays.remove(pl)
                    if "^R" in pl.get("expect", []):
                        marked_revokes.append((pl["seat"], len(t.state["tricks"]) + 1, where))
                    ans = t.play(pl["seat"], pl["card"])
                    log.append(_entry(pl, ans))
                    check_expect(ans, [m for m in pl.get("expect", []) if m != "^R"], where)
                    if not ans.legal or ans.ruling is not None:
                        pending = ans
                        settle(where)
                        # a card the remedy did not let stand is played again in its turn
                        # (a single card stands alone: the record plays it again where it was played again)
                        if "trick" in ev and pl["card"] in (t.state["hands"] or {}).get(pl["seat"], []):
                            retried.add(pl["card"])
                            plays.append({k: v for k, v in pl.items() if k != "expect"})
            elif "expose" in ev:
                ans = t.expose(ev["seat"], ev["expose"])
                log.append(_entry(ev, ans))
                pending = ans
                settle(where)
            elif "apply" in ev or "answer" in ev:
                raise InputError(where, "no ruling is waiting for this choice")
            else:
                raise InputError(where, "expected {seat, call}, {seat, card}, {trick: [...]}, {seat, expose}, "
                                        "{apply} or {answer}")
        except InputError as e:
            if e.field.startswith("events"):
                raise
            raise InputError(where, f"{e.field}: {e.message}") from None
    for seat, trick, where in marked_revokes:
        if not any(r["seat"] == seat and r["trick"] == trick for r in t.state["revokes"]):
            mismatches.append(f"{where}: the record marks ^R on {seat}'s card in trick {trick} but the table "
                              "found no revoke there")
    out: dict[str, Any] = {"code": t.code.id, "events": log, "mismatches": mismatches, "phase": t.state["phase"],
                           "contract": t.state["contract"], "declarer": t.state["declarer"],
                           "seating": t.seating(), "state": t.state}
    if t.state["phase"] == "done":
        try:
            out["score"] = t.score().to_dict()
        except BridgelawError as e:
            out["score_error"] = str(e)
    return out


def _entry(ev: Mapping[str, Any], ans: Answer) -> dict[str, Any]:
    d: dict[str, Any] = {k: v for k, v in ev.items() if k != "expect"}
    d["legal"] = ans.legal
    if ans.ruling is not None:
        d["irregularity"] = ans.kind
        d["ruling"] = ans.ruling.to_dict()
    return d
