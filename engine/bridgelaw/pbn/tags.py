"""The values of the tags a replay reads (§3.4), each checked with what would be right; and the tags of
our own (§4.9 lets a file carry new tags; ours all begin ``Bridgelaw`` so they cannot clash):

``[BridgelawCode "wcny-1913"]``   the code the game is replayed under (``##wcny-1913`` heads a file, §4.8)
``[BridgelawRemedy "A2 waive"]``  the remedy chosen for the ruling on the 2nd call (``P14``: the 14th card,
                                  ``E1``: the 1st event below), with ``by=S``, ``suit=D``, ``card=SK``
                                  and the facts answered (``condoned=true``); ``-`` applies no option
``[BridgelawEvent "P5 E lead ST"]`` something done before the 5th card (``A3``: the 3rd call) that the
                                  sections cannot place: a lead or call that did not stand (``lead``,
                                  ``call``), a card exposed (``expose``), a claim (``claim``), a revoke
                                  corrected in time (``correct``)

Calls and cards are counted in section order from 1 (``-`` for a card not known counts; ``^S``, ``-``
before the dealer, ``*`` and ``+`` do not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..values import Seat
from .values import TRICKS

__all__ = ["seat_of", "deal_of", "contract_of", "declarer_of", "result_of", "Remedy", "Event", "remedies_of",
           "events_of", "items_of", "remedy_text", "event_text", "CODE_TAGS", "REMEDY_TAG", "EVENT_TAG"]

CODE_TAGS = ("BridgelawCode", "Code")  # the old examples' [Code]: read, never written
REMEDY_TAG, EVENT_TAG = "BridgelawRemedy", "BridgelawEvent"
_SEATS = {s.value: s for s in Seat}


def seat_of(value: str | None, name: str, where: str) -> Seat:
    v = (value or "").strip().upper()
    if v not in _SEATS:
        raise InputError(where, f"[{name} \"{value or ''}\"]: expected a direction W, N, E or S (§3.4.9)")
    return _SEATS[v]


def deal_of(value: str, where: str) -> tuple[str | None, list[str]]:
    """A ``[Deal]`` (§3.4.11) as the table reads it: the deal text when all four hands are known (ranks in
    any order, lower case allowed), else ``None``; and the seats whose hands are not given (``-``)."""
    first, sep, rest = value.strip().partition(":")
    if not sep or first.strip().upper() not in _SEATS:
        raise InputError(where, f"[Deal \"{value}\"]: expected <first>:<hand> <hand> <hand> <hand>, first W, N, E "
                                "or S (§3.4.11)")
    hands = rest.split()
    if len(hands) != 4:
        raise InputError(where, f"[Deal]: expected four hands (or - for a hand not given), got {len(hands)} (§3.4.11)")
    start = _SEATS[first.strip().upper()]
    unknown = [start.after(i).value for i, h in enumerate(hands) if h == "-"]
    if not unknown and _DEAL_FAST.match(rest.strip()):  # the usual spelling: 13 cards a hand, no card twice
        suits = [h.split(".") for h in hands]
        if all(sum(map(len, h)) == 13 for h in suits) and all(
                len(set(x)) == len(x) for x in ("".join(h[k] for h in suits) for k in range(4))):
            return f"{start.value}:" + " ".join(hands), []
    out = []
    seen: set[str] = set()
    for i, h in enumerate(hands):
        if h == "-":  # a hand not given: the others are checked all the same (a card given twice is no deal)
            continue
        suits = h.upper().replace("10", "T").split(".")
        if len(suits) != 4:
            raise InputError(where, f"[Deal]: {start.after(i).value}'s hand {h!r} needs four suits S.H.D.C (§3.4.11)")
        for s, ranks in zip("SHDC", suits):
            for r in ranks:
                if r not in "AKQJT98765432":
                    raise InputError(where, f"[Deal]: {r!r} in {start.after(i).value}'s hand is not a rank "
                                            "(A K Q J T 9 … 2, §3.4.11)")
                if s + r in seen:
                    raise InputError(where, f"[Deal]: {s}{r} is dealt twice")
                seen.add(s + r)
        cards = sum(len(x) for x in suits)
        if cards != 13:
            raise InputError(where, f"[Deal]: {start.after(i).value} holds {cards} cards" + (
                ": an end position (§3.10), which is not a deal to replay" if cards < 13 else "; a hand has 13"))
        out.append(".".join("".join(sorted(x, key="AKQJT98765432".index)) for x in suits))
    if unknown:
        return None, unknown
    return f"{start.value}:" + " ".join(out), []


_DEAL_FAST = re.compile(r"^(?:[AKQJT2-9]*\.){3}[AKQJT2-9]* (?:[AKQJT2-9]*\.){3}[AKQJT2-9]* "
                        r"(?:[AKQJT2-9]*\.){3}[AKQJT2-9]* (?:[AKQJT2-9]*\.){3}[AKQJT2-9]*$")
_CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT|N|R)(X{0,2})$")


def contract_of(value: str, where: str) -> tuple[str, int] | None:
    """``[Contract]`` (§3.4.14): (bid, doubled 0-2), or None for ``Pass``."""
    v = value.strip().upper()
    if v in ("PASS", ""):
        return None
    m = _CONTRACT.match(v)
    if not m:
        raise InputError(where, f"[Contract \"{value}\"]: expected Pass or <level 1-7><S H D C NT>[X|XX] (§3.4.14)" + (
            "; a denomination alone is the trump of an end position (§3.10), which is not a deal to replay"
            if v in ("S", "H", "D", "C", "NT") else ""))
    strain = "NT" if m.group(2) == "N" else m.group(2)
    return f"{m.group(1)}{strain}", len(m.group(3))


def declarer_of(value: str, where: str) -> tuple[Seat | None, bool]:
    """``[Declarer]`` (§3.4.13): the seat, and whether it is marked ``^`` (declarer and dummy swapped)."""
    v = value.strip()
    if not v:
        return None, False
    swapped = v.startswith("^")
    return seat_of(v.lstrip("^"), "Declarer", where), swapped


_RESULT = re.compile(r"^(\^)?\s*(?:(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+(\d+))?|(\d+))$")


def result_of(value: str, declarer: Seat, where: str) -> tuple[int, bool] | None:
    """``[Result]`` (§3.4.15): the tricks the declarer's side won, and whether ``^`` marks it as differing
    from the tricks actually won; None when empty or ``?``."""
    v = value.strip().upper()
    if v in ("", "?"):
        return None
    m = _RESULT.match(v)
    if not m:
        raise InputError(where, f"[Result \"{value}\"]: expected the declarer's tricks 0-13, or NS <n>, EW <n> "
                                "(§3.4.15)")
    side = declarer.side.value
    if m.group(6) is not None:
        n = int(m.group(6))
    else:
        given = {m.group(2): int(m.group(3))}
        if m.group(4) == m.group(2):
            raise InputError(where, f"[Result \"{value}\"]: {m.group(2)} given twice; expected NS <n> EW <n> "
                                    "(§3.4.15)")
        if m.group(4):
            given[m.group(4)] = int(m.group(5))
        if side in given:
            n = given[side]
        else:
            n = 13 - next(iter(given.values()))
        if len(given) == 2 and sum(given.values()) > TRICKS:
            raise InputError(where, f"[Result \"{value}\"]: the two sides' tricks add up to {sum(given.values())}; "
                                    f"a deal has {TRICKS} (§3.4.15)")
        if len(given) == 2 and sum(given.values()) < TRICKS:
            raise InputError(where, f"[Result \"{value}\"]: a partial result, the tricks of the {sum(given.values())} "
                                    "tricks completed (§3.4.15: when the play has not ended); it does not score the "
                                    "deal")
    if n > TRICKS:
        raise InputError(where, f"[Result \"{value}\"]: {n} tricks; a side wins 0 to 13 (§3.4.15)")
    return n, bool(m.group(1))


# ---------------------------------------------------------------- our own tags

_REF = re.compile(r"^([APET])([1-9]\d*)$")
_PAIR = re.compile(r"^([a-z_]+)=(\S+)$")


@dataclass(frozen=True)
class Remedy:
    ref: str                 # A2, P14, E1
    option: str | None       # None: "-", no option (the automatic effects, or the one remedy declined)
    by: str | None = None
    suit: str | None = None
    card: str | None = None
    facts: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Event:
    ref: str                 # the call or card it came before: A3, P5; T3: before trick 3's first card (or "end")
    seat: str
    verb: str                # lead, call, expose, claim, correct
    arg: str | None = None


_VERBS = ("lead", "call", "expose", "claim", "correct", "play")


def _fact_value(text: str) -> Any:
    t = text.lower()
    if t in ("true", "false"):
        return t == "true"
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    return text


def remedy_text(r: Remedy) -> str:
    parts = [r.ref, r.option or "-"]
    parts += [f"{k}={v}" for k, v in (("by", r.by), ("suit", r.suit), ("card", r.card)) if v]
    parts += [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in r.facts]
    return " ".join(parts)


def event_text(e: Event) -> str:
    return " ".join(x for x in (e.ref, e.seat, e.verb, e.arg) if x)


def _ref(text: str, where: str, tag: str) -> str:
    if not _REF.match(text) and text != "end":
        raise InputError(where, f"[{tag}]: {text!r} names no call or card: A<n> (the nth call), P<n> (the nth "
                                "card), T<n> (before the nth trick's first card), E<n> (the nth [BridgelawEvent]) "
                                "or end")
    return text


def items_of(values: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The items of our tags' values, (value, where) pairs: a value may hold several separated by ``;`` (§3.3), as
    the export format writes them, a tag pair once (§3.4, pbn/export.py)."""
    return [(item.strip(), where) for value, where in values for item in value.split(";") if item.strip()]


def remedies_of(values: list[tuple[str, str]]) -> dict[str, Remedy]:
    """The [BridgelawRemedy] tags, by the call, card or event they answer: (value, where) pairs in."""
    out: dict[str, Remedy] = {}
    for value, where in values:
        parts = value.split()
        if len(parts) < 2:
            raise InputError(where, f"[{REMEDY_TAG} \"{value}\"]: expected <A|P|E><n> <option or -> "
                                    "[by=S] [suit=D] [card=SK] [fact=value ...]")
        ref = _ref(parts[0], where, REMEDY_TAG)
        named: dict[str, Any] = {}
        facts = []
        for p in parts[2:]:
            m = _PAIR.match(p)
            if not m:
                raise InputError(where, f"[{REMEDY_TAG}]: {p!r} is not name=value")
            if m.group(1) in ("by", "suit", "card"):
                named[m.group(1)] = m.group(2).upper()
            else:
                facts.append((m.group(1), _fact_value(m.group(2))))
        if ref in out:
            raise InputError(where, f"[{REMEDY_TAG}]: a second remedy for {ref}")
        out[ref] = Remedy(ref, None if parts[1] == "-" else parts[1], facts=tuple(facts), **named)
    return out


def events_of(values: list[tuple[str, str]]) -> list[Event]:
    out = []
    for value, where in values:
        parts = value.split()
        if len(parts) not in (3, 4) or parts[2] not in _VERBS:
            raise InputError(where, f"[{EVENT_TAG} \"{value}\"]: expected <A|P><n> <seat> <{'|'.join(_VERBS)}> "
                                    "[card or call]")
        seat = seat_of(parts[1], EVENT_TAG, where).value
        out.append(Event(_ref(parts[0], where, EVENT_TAG), seat, parts[2], parts[3].upper() if len(parts) == 4
                         else None))
    return out
