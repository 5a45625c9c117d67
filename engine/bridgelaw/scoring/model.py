"""What scoring returns: entries (who, column, points, why, the law), a deal's or a rubber's score, a contract."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterator

from ..values import Seat, Side, Strain

__all__ = ["Contract", "ScoreEntry", "Score", "Row", "WHO", "Deals", "new_score", "score_of"]


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
        return (self.side._value_, self.column, self.points, self.reason, self.law, self.rule)

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


# A row is an entry as the scorer makes it, a flat tuple of texts and numbers: (side, column, points, reason, law,
# rule, *args) — who scores given by the text of his side or seat; the reason a template that the args, if there are
# any, fill when it is read (a row without args has its reason as it stands). Holding nothing but texts and numbers,
# rows are soon left alone by the garbage collector; a Score keeps its rows and makes its ScoreEntry objects when
# ``entries`` is first read.
Row = tuple[Any, ...]
WHO: dict[str, Side | Seat] = {**{s._value_: s for s in Side}, **{s._value_: s for s in Seat}}  # a row's side
_MORE = ("notes", "games", "rubber", "deals", "players", "settlement", "capped")


class Score:
    """A deal's or a rubber's score: its entries, notes, and (a rubber) games, result and deals; in three-hand the
    players and their settlement. Immutable: every field is read-only."""

    __slots__ = ("_code", "_rows", "_entries", "_more")
    _FIELDS = ("code", "entries") + _MORE

    def __init__(self, code: str, entries: tuple[ScoreEntry, ...] | list[ScoreEntry], notes: tuple[str, ...] = (),
                 games: tuple[Mapping[str, Any], ...] = (), rubber: Mapping[str, Any] | None = None,
                 deals: tuple["Score", ...] = (), players: tuple[Seat, ...] = (),
                 settlement: Mapping[str, int] | None = None, capped: tuple[Side, ...] = ()) -> None:
        entries = tuple(entries)
        self._code = code
        self._rows: tuple[Row, ...] = tuple(e._row() for e in entries)
        self._entries: tuple[ScoreEntry, ...] | None = entries
        more = {k: v for k, v in (("notes", notes), ("games", games), ("rubber", rubber), ("deals", deals),
                                  ("players", players), ("settlement", settlement), ("capped", capped))
                if v is not None and v != ()}
        self._more: dict[str, Any] | None = more or None

    @property
    def code(self) -> str:
        return self._code

    @property
    def entries(self) -> tuple[ScoreEntry, ...]:
        """The entries, made from the rows when first read (each reason formatted when it is read)."""
        got = self._entries
        if got is None:
            got = self._entries = tuple([ScoreEntry(WHO[r[0]], r[1], r[2], r[3], r[4], r[6:] or None, r[5])
                                         for r in self._rows])
        return got

    def _get(self, name: str, default: Any) -> Any:
        more = self._more
        return default if more is None else more.get(name, default)

    @property
    def notes(self) -> tuple[str, ...]:
        return self._get("notes", ())  # type: ignore[no-any-return]

    @property
    def games(self) -> tuple[Mapping[str, Any], ...]:
        return self._get("games", ())  # type: ignore[no-any-return]

    @property
    def rubber(self) -> Mapping[str, Any] | None:
        return self._get("rubber", None)  # type: ignore[no-any-return]

    @property
    def deals(self) -> tuple["Score", ...]:
        """A rubber's deals, each its Score (a plain deal's made from its rows when first read)."""
        more = self._more
        if more is None:
            return ()
        got = more.get("deals", ())
        if type(got) is Deals:
            got = more["deals"] = got.made(self._code)
        return got  # type: ignore[no-any-return]

    @property
    def players(self) -> tuple[Seat, ...]:
        """Three-hand: the players, each scoring for himself."""
        return self._get("players", ())  # type: ignore[no-any-return]

    @property
    def settlement(self) -> Mapping[str, int] | None:
        return self._get("settlement", None)  # type: ignore[no-any-return]

    @property
    def capped(self) -> tuple[Side, ...]:
        """Revoking sides held below game (straight bridge)."""
        return self._get("capped", ())  # type: ignore[no-any-return]

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        return type(other) is Score and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # a rubber's mappings are not hashable

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS if f not in ("deals", "capped"))
        return f"Score({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        self.deals  # (made, where they are kept as rows)
        return (_rebuilt, (self._code, self._rows, self._more))

    def total(self, side: Side | Seat, column: str | None = None) -> int:
        who = side._value_
        return sum(r[2] for r in self._rows if r[0] == who and (column is None or r[1] == column))

    def totals(self) -> dict[str, dict[str, int]]:
        """Each side's (each player's) trick, honour and whole total, in one pass over the rows."""
        if self._more is not None and "players" in self._more:
            acc = {s._value_: [0, 0] for s in self._more["players"]}
            for row in self._rows:
                got = acc.get(row[0])
                if got is not None:
                    got[row[1] == "honour"] += row[2]
            return {s: {"trick": t, "honour": h, "total": t + h} for s, (t, h) in acc.items()}
        ns_trick = ns_honour = ew_trick = ew_honour = 0
        for row in self._rows:
            side = row[0]
            if side == "NS":
                if row[1] == "honour":
                    ns_honour += row[2]
                else:
                    ns_trick += row[2]
            elif side == "EW":
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


class Deals(tuple):  # type: ignore[type-arg]
    """A rubber's deals as the rubber scorer keeps them: each a :class:`Score`, or a plain deal's rows and notes
    (``(rows, notes)``), made into its Score when the rubber's deals are first read (:attr:`Score.deals`)."""

    __slots__ = ()

    def made(self, code_id: str) -> tuple["Score", ...]:
        out = []
        for d in self:
            if type(d) is not Score:
                rows, notes = d
                d = _new(Score)  # as new_score makes it
                d._code, d._rows, d._entries, d._more = code_id, rows, None, {"notes": notes} if notes else None
            out.append(d)
        return tuple(out)


def _rebuilt(code: str, rows: tuple[Row, ...], more: dict[str, Any] | None) -> Score:
    return new_score(code, rows, **(more or {}))


_new = object.__new__


def score_of(code_id: str, rows: tuple[Row, ...], more: dict[str, Any]) -> Score:
    """A Score from its rows and the rest of its fields (``more``: notes, games, rubber, deals, players, settlement,
    capped — only those it has)."""
    obj = _new(Score)
    obj._code = code_id
    obj._rows = rows
    obj._entries = None
    obj._more = more or None
    return obj


def new_score(code_id: str, rows: tuple[Row, ...], notes: tuple[str, ...] = (), capped: tuple[Side, ...] = (),
              players: tuple[Seat, ...] = (), **rubber: Any) -> Score:
    """A Score from its rows (the hot path of scoring: no ScoreEntry is made until one is read); a rubber's also
    has ``games``, ``rubber``, ``deals`` and (three-hand) ``settlement``."""
    obj = _new(Score)
    obj._code = code_id
    obj._rows = rows
    obj._entries = None
    more = None
    if notes or capped or players or rubber:
        more = {k: v for k, v in (("notes", notes), ("capped", capped), ("players", players)) if v}
        for key, value in rubber.items():
            if key not in _MORE:
                raise TypeError(f"new_score: a Score has no {key}")
            if value is not None and value != ():
                more[key] = value
    obj._more = more or None
    return obj
