"""What scoring returns: entries (who, column, points, why, the law), a deal's or a rubber's score, a contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..values import Seat, Side, Strain

__all__ = ["Contract", "ScoreEntry", "Score", "new_score"]


@dataclass(frozen=True)
class Contract:
    """``Contract('2HX')`` (auction) or ``Contract('H x4')`` (straight bridge: trump and multiplier)."""

    text: str
    level: int | None
    strain: Strain
    doubled: int  # auction: 0, 1 (X), 2 (XX); straight bridge: the multiplier 1, 2, 4, ...

    def __repr__(self) -> str:
        return f"Contract({self.text!r})"


class ScoreEntry:
    """One line of a score: who, which column, how many points, why, and the law.

    The reason is formatted when it is first read (``reason % args``), not when the entry is made.
    """

    __slots__ = ("side", "column", "points", "law", "_reason", "_args", "rule")

    def __init__(self, side: Side | Seat, column: str, points: int, reason: str, law: str,
                 args: tuple[Any, ...] | None = None, rule: str = "") -> None:
        self.side = side  # a partnership; in three-hand, a player
        self.column = column  # "trick" | "honour"
        self.points = points
        self.law = law
        self._reason = reason
        self._args = args
        self.rule = rule  # the scoring rule the entry comes from (what a revoking side may keep turns on it)

    @property
    def reason(self) -> str:
        if self._args is not None:
            self._reason = self._reason % self._args
            self._args = None
        return self._reason

    def _key(self) -> tuple[Any, ...]:
        return (self.side, self.column, self.points, self.reason, self.law)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScoreEntry) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"ScoreEntry(side={self.side.value!r}, column={self.column!r}, points={self.points}, "
                f"reason={self.reason!r}, law={self.law!r})")

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side.value, "column": self.column, "points": self.points, "reason": self.reason,
                "law": self.law}


_PAIRS = (Side.NS, Side.EW)


@dataclass(frozen=True)
class Score:
    code: str
    entries: tuple[ScoreEntry, ...]
    notes: tuple[str, ...] = ()
    games: tuple[Mapping[str, Any], ...] = ()
    rubber: Mapping[str, Any] | None = None
    deals: tuple["Score", ...] = field(default=(), repr=False)

    players: tuple[Seat, ...] = ()  # three-hand: the players, each scoring for himself
    settlement: Mapping[str, int] | None = None
    capped: tuple[Side, ...] = field(default=(), repr=False)  # revoking sides held below game (straight bridge)

    def total(self, side: Side | Seat, column: str | None = None) -> int:
        return sum(e.points for e in self.entries if e.side is side and (column is None or e.column == column))

    def totals(self) -> dict[str, dict[str, int]]:
        """Each side's (each player's) trick, honour and whole total, in one pass over the entries."""
        who: tuple[Side | Seat, ...] = self.players or _PAIRS
        acc = {s: [0, 0] for s in who}
        for e in self.entries:
            row = acc.get(e.side)
            if row is not None:
                row[e.column == "honour"] += e.points
        return {s.value: {"trick": t, "honour": h, "total": t + h} for s, (t, h) in acc.items()}

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"code": self.code, "entries": [e.to_dict() for e in self.entries],
                             "totals": self.totals(), "notes": list(self.notes)}
        if self.games:
            d["games"] = [dict(g) for g in self.games]
        if self.rubber is not None:
            d["rubber"] = dict(self.rubber)
        if self.deals:
            d["deals"] = [x.to_dict() for x in self.deals]
        if self.settlement is not None:
            d["settlement"] = dict(self.settlement)
        return d


def new_score(code_id: str, entries: tuple[ScoreEntry, ...], notes: tuple[str, ...] = (),
              capped: tuple[Side, ...] = (), players: tuple[Seat, ...] = ()) -> Score:
    """A deal's Score without the frozen dataclass's per-field __setattr__ (the hot path of scoring)."""
    obj = object.__new__(Score)
    obj.__dict__.update(code=code_id, entries=entries, notes=notes, games=(), rubber=None, deals=(), players=players,
                        settlement=None, capped=capped)
    return obj
