"""PBN 2.1 deals, auctions and play — read and write, with the ``^`` irregularity markers.

We checked a maintained parser first: endplay 0.5.12's PBN reader stops at
``^`` markers and cannot represent royal spades or straight-bridge
declarations, so this is a small strict reader of the sections bridgelaw needs:
``[Dealer]``, ``[Deal]``, ``[Auction]`` (calls ``Pass``/``P``, ``X``, ``XX``,
``1S`` … ``7NT``, ``1R`` royal spades; ``AP``; notes ``=n=``; ``-``; ``*``),
``[Play]`` (one trick a line, columns from the tag's seat clockwise; ``-``;
``*``), and the markers ``^I`` (insufficient bid), ``^S`` (call out of
turn: the call is made by the seat of its column out of turn), ``^L`` (lead
out of turn: the card marked was led first) and ``^R`` (revoke). A non-standard
tag ``[Code "wcny-1913"]`` names the code; otherwise the caller does.

Errors name ``path:line:col``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .values import Call, Card, Seat

__all__ = ["PbnRecord", "read_pbn", "write_pbn"]

_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]\s*$')


@dataclass
class PbnRecord:
    tags: dict[str, str] = field(default_factory=dict)
    auction: list[tuple[str, list[str]]] = field(default_factory=list)  # (call, markers)
    play: list[list[tuple[str | None, list[str]]]] = field(default_factory=list)  # lines of (card, markers)
    auction_seat: str | None = None
    play_seat: str | None = None


def read_pbn(text: str, path: str = "<pbn>") -> list[PbnRecord]:
    """Every game in a PBN file (games are separated by blank lines)."""
    records: list[PbnRecord] = []
    rec: PbnRecord | None = None
    section: str | None = None
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("%") or line.startswith(";"):
            continue
        line = re.sub(r"\{[^}]*\}", "", line).strip()
        if not line:
            if rec is not None and (rec.tags or rec.auction):
                records.append(rec)
                rec, section = None, None
            continue
        m = _TAG.match(line)
        if m:
            if rec is None:
                rec = PbnRecord()
            name, value = m.group(1), m.group(2)
            rec.tags[name] = value
            section = name if name in ("Auction", "Play") else None
            if name == "Auction":
                rec.auction_seat = value
            elif name == "Play":
                rec.play_seat = value
            continue
        if line.startswith("["):
            raise InputError(f"{path}:{n}:1", f"not a PBN tag: {line!r} (expected [Name \"value\"])")
        if rec is None or section is None:
            raise InputError(f"{path}:{n}:1", "text outside an [Auction] or [Play] section")
        tokens = [(t.group(), t.start() + 1 + (len(raw) - len(raw.lstrip()))) for t in re.finditer(r"\S+", line)]
        if section == "Auction":
            for tok, col in tokens:
                _auction_token(rec, tok, f"{path}:{n}:{col}")
        else:
            cards: list[tuple[str | None, list[str]]] = []
            for tok, col in tokens:
                if tok.startswith("^"):
                    if not cards:
                        raise InputError(f"{path}:{n}:{col}", f"marker {tok} follows no card")
                    cards[-1][1].append(tok)
                elif tok.startswith("="):
                    continue
                elif tok in ("-", "*", "+"):
                    cards.append((None, []))
                else:
                    try:
                        cards.append((Card(tok).text, []))
                    except InputError:
                        raise InputError(f"{path}:{n}:{col}", f"{tok!r} is not a card (e.g. SA, HT, C2)") from None
            rec.play.append(cards)
    if rec is not None and (rec.tags or rec.auction):
        records.append(rec)
    if not records:
        raise InputError(path, "no PBN game found")
    return records


def _auction_token(rec: PbnRecord, tok: str, where: str) -> None:
    t = tok.upper()
    if t.startswith("^"):
        if not rec.auction:
            raise InputError(where, f"marker {tok} follows no call")
        if t not in ("^I", "^S"):
            raise InputError(where, f"unknown auction marker {tok} (^I insufficient, ^S out of turn)")
        rec.auction[-1][1].append(t)
        return
    if t.startswith("=") or t in ("-", "*", "+"):
        return
    if t == "AP":
        rec.auction.extend([("P", []), ("P", []), ("P", [])])
        return
    t = {"PASS": "P"}.get(t, t)
    try:
        Call(t, where)
    except InputError:
        raise InputError(where, f"{tok!r} is not a call (Pass, X, XX, 1C … 7NT, 1R for royal spades)") from None
    rec.auction.append((t, []))


def write_pbn(state: dict[str, Any]) -> str:
    """A table's state as a PBN game (markers for the irregularities it ruled on)."""
    lines = [f'[Code "{state["code"]}"]', f'[Dealer "{state["dealer"]}"]']
    if state.get("deal"):
        lines.append(f'[Deal "{state["deal"]}"]')
    if state.get("declarer"):
        lines.append(f'[Declarer "{state["declarer"]}"]')
        doubled = state.get("doubled", 0)
        lines.append(f'[Contract "{state["contract"]}' + ("X" * doubled if doubled in (1, 2) else "") + '"]')
    calls = state.get("calls", [])
    if calls:
        lines.append(f'[Auction "{calls[0][0]}"]')
        row = []
        for _, c in calls:
            row.append("Pass" if c == "P" else c)
            if len(row) == 4:
                lines.append(" ".join(row))
                row = []
        if row:
            lines.append(" ".join(row))
    tricks = state.get("tricks", [])
    if tricks:
        first = Seat(tricks[0]["leader"])
        lines.append(f'[Play "{first.value}"]')
        for t in tricks:
            by = {s: c for s, c in t["cards"]}
            revokes = {r["seat"] for r in state.get("revokes", []) if r.get("trick") == tricks.index(t) + 1}
            lines.append(" ".join(by.get(first.after(i).value, "-") + ("^R" if first.after(i).value in revokes else "")
                                  for i in range(4)))
    return "\n".join(lines) + "\n"
