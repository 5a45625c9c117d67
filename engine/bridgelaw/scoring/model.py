"""What scoring returns: entries (who, column, points, why, the law), a deal's or a rubber's score, a contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterator

from ..values import Seat, Side, Strain

__all__ = ["Contract", "ScoreEntry", "Score", "Row", "new_score"]


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

    def _row(self) -> "Row":
        return (self.side, self.column, self.points, self.reason, self.law, None, self.rule)

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


_NS, _EW = Side.NS, Side.EW

# A row is an entry as the scorer makes it, a plain tuple in ScoreEntry's argument order:
# (side, column, points, reason template, law, reason args or None, rule). A Score keeps its rows and makes its
# ScoreEntry objects when ``entries`` is first read.
Row = tuple[Any, str, int, str, str, "tuple[Any, ...] | None", str]


class _Entries:
    """``Score.entries``: the ScoreEntry objects, made from the rows when first read and kept."""

    def __get__(self, obj: "Score | None", cls: type) -> Any:
        if obj is None:
            return self
        entries = tuple([ScoreEntry(*row) for row in obj._rows])
        obj.__dict__["entries"] = entries
        return entries


class Score:
    """A deal's or a rubber's score: its entries, notes, and (a rubber) games, result and deals; in three-hand the
    players and their settlement. Immutable."""

    entries = _Entries()
    # what a deal's score does not set
    notes: tuple[str, ...] = ()
    games: tuple[Mapping[str, Any], ...] = ()
    rubber: Mapping[str, Any] | None = None
    deals: tuple["Score", ...] = ()
    players: tuple[Seat, ...] = ()  # three-hand: the players, each scoring for himself
    settlement: Mapping[str, int] | None = None
    capped: tuple[Side, ...] = ()  # revoking sides held below game (straight bridge)
    _FIELDS = ("code", "entries", "notes", "games", "rubber", "deals", "players", "settlement", "capped")

    def __init__(self, code: str, entries: tuple[ScoreEntry, ...] | list[ScoreEntry], notes: tuple[str, ...] = (),
                 games: tuple[Mapping[str, Any], ...] = (), rubber: Mapping[str, Any] | None = None,
                 deals: tuple["Score", ...] = (), players: tuple[Seat, ...] = (),
                 settlement: Mapping[str, int] | None = None, capped: tuple[Side, ...] = ()) -> None:
        entries = tuple(entries)
        self.__dict__.update(code=code, entries=entries, _rows=tuple(e._row() for e in entries), notes=notes,
                             games=games, rubber=rubber, deals=deals, players=players, settlement=settlement,
                             capped=capped)

    code: str
    _rows: tuple[Row, ...]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Score is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Score is immutable: cannot delete {name}")

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        return type(other) is Score and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # a rubber's mappings are not hashable

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS if f not in ("deals", "capped"))
        return f"Score({shown})"

    def total(self, side: Side | Seat, column: str | None = None) -> int:
        return sum(r[2] for r in self._rows if r[0] is side and (column is None or r[1] == column))

    def totals(self) -> dict[str, dict[str, int]]:
        """Each side's (each player's) trick, honour and whole total, in one pass over the rows."""
        if self.players:
            acc = {s: [0, 0] for s in self.players}
            for row in self._rows:
                got = acc.get(row[0])
                if got is not None:
                    got[row[1] == "honour"] += row[2]
            return {s._value_: {"trick": t, "honour": h, "total": t + h} for s, (t, h) in acc.items()}
        ns_trick = ns_honour = ew_trick = ew_honour = 0
        for row in self._rows:
            side = row[0]
            if side is _NS:
                if row[1] == "honour":
                    ns_honour += row[2]
                else:
                    ns_trick += row[2]
            elif side is _EW:
                if row[1] == "honour":
                    ew_honour += row[2]
                else:
                    ew_trick += row[2]
        return {"NS": {"trick": ns_trick, "honour": ns_honour, "total": ns_trick + ns_honour},
                "EW": {"trick": ew_trick, "honour": ew_honour, "total": ew_trick + ew_honour}}

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


def new_score(code_id: str, rows: tuple[Row, ...], notes: tuple[str, ...] = (), capped: tuple[Side, ...] = (),
              players: tuple[Seat, ...] = (), **rubber: Any) -> Score:
    """A Score from its rows (the hot path of scoring: no ScoreEntry is made until one is read); a rubber's also
    has ``games``, ``rubber``, ``deals`` and (three-hand) ``settlement``."""
    obj = object.__new__(Score)
    d = obj.__dict__
    d["code"] = code_id
    d["_rows"] = rows
    if notes:
        d["notes"] = notes
    if capped:
        d["capped"] = capped
    if players:
        d["players"] = players
    if rubber:
        unknown = set(rubber) - {"games", "rubber", "deals", "settlement"}
        if unknown:
            raise TypeError(f"new_score: a Score has no {', '.join(sorted(unknown))}")
        d.update(rubber)
    return obj
