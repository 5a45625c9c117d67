"""Replay a JSON (or YAML) deal record: the table's own events, one by one::

    {"code": "wcny-1913", "dealer": "S", "deal": "N:...",
     "events": [{"seat": "S", "call": "1H"}, {"seat": "W", "call": "1S"}, {"apply": "penalize"},
                {"seat": "W", "card": "SK"}, {"seat": "N", "expose": "HA"}, {"answer": {"fact": value}},
                {"trick": [{"seat": "E", "card": "ST"}, ...]}, {"apply": "penalize", "by": "E"}]}

An irregularity the table detects is ruled; the next event may be ``{"apply": option}`` (``{"answer":
{...}}`` first where the ruling asks); without one the first option is taken and the report says so. Every
field is checked before the table sees it: a record that is not this shape is refused at its field.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import BridgelawError, InputError, did_you_mean
from .board import Refused, resolve_code
from .result import REFUSED, SCORED, UNFINISHED, BoardResult
from .table_adapter import TableAdapter

__all__ = ["replay_record", "check_record"]

_ACTS = ("call", "card", "trick", "expose", "apply", "answer")
# each event's fields: its act and what goes with it (an apply's card is the card its chooser names)
_EVENT_FIELDS = {"call": ("seat", "call"), "card": ("seat", "card"), "expose": ("seat", "expose"), "trick": ("trick",),
                 "apply": ("apply", "by", "suit", "card"), "answer": ("answer",)}


def _no_other_fields(ev: Mapping[str, Any], fields: tuple[str, ...], where: str, what: str) -> None:
    for k in ev:
        if k not in fields:
            raise InputError(f"{where}.{k}", f"not a field of {what} ({', '.join(fields)})"
                                             + did_you_mean(str(k), fields))


def _str(v: Any, field: str, what: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise InputError(field, f"expected {what}, got {type(v).__name__ if not isinstance(v, str) else repr(v)}")
    return v


def check_record(record: Any, where: str = "record") -> None:
    """Refuse, at its field, a record that is not a deal record."""
    if not isinstance(record, Mapping):
        raise InputError(where, f"expected a deal record (an object with code, dealer, deal, events), got "
                                f"{type(record).__name__}")
    unknown = [k for k in record if k not in ("code", "dealer", "deal", "events")]
    if unknown:
        raise InputError(f"{where}.{unknown[0]}", "not a field of a deal record (code, dealer, deal, events)")
    if record.get("code") is not None:
        _str(record["code"], f"{where}.code", "a code id such as 'wcny-1913'")
    if record.get("dealer") is not None:
        _str(record["dealer"], f"{where}.dealer", "a seat N, E, S or W")
    if record.get("deal") is not None:
        _str(record["deal"], f"{where}.deal", "a PBN deal such as 'N:AKQ2.KJ3.A54.QT9 ...'")
    events = record.get("events")
    if not isinstance(events, list):
        raise InputError(f"{where}.events", "expected a list of {seat, call} / {seat, card} / {apply} events")
    for i, ev in enumerate(events):
        f = f"{where}.events[{i}]"
        if not isinstance(ev, Mapping):
            raise InputError(f, f"expected an event object such as {{\"seat\": \"S\", \"call\": \"1H\"}}, got "
                                f"{type(ev).__name__} {ev!r}"[:200])
        acts = [k for k in _ACTS if k in ev and not (k == "card" and "apply" in ev)]
        if len(acts) != 1:
            raise InputError(f, "expected one of call, card, trick, expose, apply or answer"
                             + (f"; got {', '.join(acts)}" if acts else ""))
        act = acts[0]
        _no_other_fields(ev, _EVENT_FIELDS[act], f, f"a{'n' if act[0] in 'ae' else ''} {act} event")
        if act in ("call", "card", "expose"):
            _str(ev.get("seat"), f"{f}.seat", f"the seat that made the {act} (N, E, S or W)")
            _str(ev[act], f"{f}.{act}", "a call such as 1H, P, X" if act == "call" else "a card such as SK")
        elif act == "trick":
            if not isinstance(ev["trick"], list) or not ev["trick"]:
                raise InputError(f"{f}.trick", "expected a list of {seat, card}")
            for j, p in enumerate(ev["trick"]):
                if not isinstance(p, Mapping):
                    raise InputError(f"{f}.trick[{j}]", "expected {seat, card}")
                _no_other_fields(p, ("seat", "card"), f"{f}.trick[{j}]", "a card of a trick")
                _str(p.get("seat"), f"{f}.trick[{j}].seat", "a seat N, E, S or W")
                _str(p.get("card"), f"{f}.trick[{j}].card", "a card such as SK")
        elif act == "apply":
            if ev["apply"] is not None and not isinstance(ev["apply"], str):
                raise InputError(f"{f}.apply", "expected an option id (or null for the automatic effects)")
            for k in ("by", "suit", "card"):
                if ev.get(k) is not None and not isinstance(ev[k], str):
                    raise InputError(f"{f}.{k}", "expected a string")
        elif not isinstance(ev["answer"], Mapping):
            raise InputError(f"{f}.answer", "expected an object of facts, e.g. {\"accepted\": true}")


def replay_record(record: Mapping[str, Any], code: str | None = None, path: str = "<json>", index: int = 1,
                  ) -> tuple[BoardResult, dict[str, Any]]:
    """Replay a JSON record: its :class:`BoardResult`, and the full report (events, mismatches, state, and
    the ``adapter`` that drove the table)."""
    res = BoardResult(path, str(index), index, 1, REFUSED)
    report: dict[str, Any] = {"events": [], "mismatches": []}
    try:
        check_record(record, "record")
        if not record.get("code") and not code:
            raise Refused("code", 'name the code: "code": "wcny-1913" in the record, or --code')
        cid = resolve_code(record.get("code"), code, "code")
        res.code = cid
        if record.get("code") and code and code != cid:  # the caller's --code is for records naming none
            report["events"].append({"note": f"the record names its code, {cid}: ruled under it, not under {code} "
                                             "(--code names the code of records that name none)"})
        if not record.get("dealer"):  # presumed, and said: the rotation and the rulings turn on the dealer
            report["events"].append({"note": "the record names no dealer: South is presumed to have dealt "
                                             "(give \"dealer\": N, E, S or W)"})
        t = TableAdapter(cid, record.get("dealer") or "S", record.get("deal"))
        _run(t, list(record["events"]), report)
    except BridgelawError as e:
        res.reason = str(e)
        res.where = e.field if isinstance(e, InputError) else path
        report["error"] = res.reason
        return res, report
    table = t.table
    report["adapter"] = t
    report.update({"code": t.code.id, "phase": t.phase, "contract": t.contract, "declarer": t.declarer,
                   "seating": table.seating(), "state": table.to_dict()})
    res.contract = t.contract
    res.declarer = t.declarer
    res.rulings = [{"at": r.ref, "kind": r.kind, "offender": r.offender, "remedy": r.option, "how": r.how}
                   for r in t.rulings()]
    if table.is_over():
        try:
            result = t.result()
            s = t.score(result)
        except BridgelawError as e:
            report["score_error"] = str(e)
            res.reason = f"the deal cannot be scored: {e}"
            return res, report
        report["score"] = s
        res.score = {k: v["total"] for k, v in s["totals"].items()}
        if t.phase == "done" and t.declarer:
            res.tricks = result["tricks"] if table.variant != "three-hand" else None
        res.status, res.source = SCORED, "play" if t.phase == "done" else "auction"
    else:
        res.status = UNFINISHED
        res.reason = f"{path}: the record ends in the {t.phase}"
    res.notes = [e["note"] for e in report["events"] if "note" in e]
    return res, report


def _run(t: TableAdapter, events: list[Mapping[str, Any]], report: dict[str, Any]) -> None:
    log = report["events"]
    i = 0

    def settle(where: str) -> None:
        nonlocal i
        r = t.pending_ruling()
        while i < len(events) and "answer" in events[i]:
            r = t.answer(**events[i]["answer"])
            i += 1
        choice = by = suit = card = None
        how = "recorded"
        if i < len(events) and "apply" in events[i]:
            ev = events[i]
            choice, by, suit, card = ev["apply"], ev.get("by"), ev.get("suit"), ev.get("card")
            i += 1
        elif r is not None and r.options:
            choice, how = r.options[0].id, "first option"
            log.append({"note": f"{where}: no choice recorded; took the first option, {choice}"})
        applied = t.apply(choice, by=by, suit=suit, card=card, how=how)
        log.append({"applied": choice or "effects", "irregularity": applied.irregularity})
        if t.pending_ruling() is not None:  # a ruling the remedy made due: the next events answer for it
            settle(where)

    while i < len(events):
        ev = events[i]
        i += 1
        where = f"events[{i - 1}]"
        ref = f"E{i}"
        try:
            if "apply" in ev or "answer" in ev:
                raise InputError(where, "no ruling is waiting for this choice")
            if "call" in ev:
                ans = t.call(ev["seat"], ev["call"], ref)
                log.append(_entry(ev, ans))
                if not ans.legal or ans.ruling is not None:
                    settle(where)
            elif "card" in ev or "trick" in ev:
                plays = list(ev["trick"] if "trick" in ev else [ev])
                retried: set[str] = set()
                while plays and t.phase == "play":
                    nxt = t.next_player()
                    pl = next((p for p in plays if p["seat"] == nxt), plays[0])
                    if pl["seat"] != nxt and pl["card"] in retried:
                        raise InputError(where, f"after the ruling it is {nxt}'s turn, and the record has no card of "
                                                f"{nxt}'s here ({pl['seat']}'s {pl['card']} waits)")
                    plays.remove(pl)
                    ans = t.play(pl["seat"], pl["card"], ref)
                    log.append(_entry(pl, ans))
                    if not ans.legal or ans.ruling is not None:
                        settle(where)
                        # a card the remedy did not let stand is played again in its turn
                        if "trick" in ev and t.hands_known() and t.holds(pl["seat"], pl["card"]):
                            retried.add(pl["card"])
                            plays.append(dict(pl))
            elif "expose" in ev:
                ans = t.expose(ev["seat"], ev["expose"], ref)
                log.append(_entry(ev, ans))
                settle(where)
            else:
                raise InputError(where, "no ruling is waiting for this choice")
        except Refused:
            raise
        except InputError as e:
            if e.field.startswith("events"):
                raise
            raise InputError(where, f"{e.field}: {e.message}") from None


def _entry(ev: Mapping[str, Any], ans: Any) -> dict[str, Any]:
    d: dict[str, Any] = dict(ev)
    d["legal"] = ans.legal
    if ans.ruling is not None:
        d["irregularity"] = ans.kind
        d["ruling"] = ans.ruling.to_dict()
    return d
