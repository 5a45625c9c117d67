"""What replaying one board gives: a :class:`BoardResult` — scored, unfinished, dealt (a hand record) or refused — with its JSON
line and its text line. Small and plain, so it crosses process (and Dask) boundaries cheaply."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BoardResult", "SCORED", "REFUSED", "UNFINISHED", "DEALT", "STATUSES"]

SCORED, REFUSED, UNFINISHED = "scored", "refused", "unfinished"
DEALT = "dealt"  # a hand record: a deal and nothing played (no auction, play, contract or result)
STATUSES = (SCORED, UNFINISHED, DEALT, REFUSED)


@dataclass(slots=True)
class BoardResult:
    file: str
    board: str
    index: int                       # the game's place in its file (JSON records: in the array), from 1
    line: int                        # the file line the game starts on
    status: str
    code: str | None = None
    contract: str | None = None      # as doubled: 1S, 4HX
    declarer: str | None = None
    tricks: int | None = None        # the declarer's side's, as scored
    score: dict[str, int] | None = None   # total points by side (or player, three-hand)
    reason: str | None = None        # why refused or unfinished, with its path:line:col
    where: str | None = None
    rulings: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    source: str | None = None        # how the tricks are known: play, claim, result
    written: str | None = None       # the game as written back (replay --write), when asked
    unwritten: str | None = None     # why the game, asked for, could not be written (export format cannot hold it)
    detail: dict[str, Any] | None = None  # the full report (one record replayed on its own)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"file": self.file, "board": self.board, "game": self.index, "line": self.line,
                             "status": self.status}
        if self.code is not None:  # (each key in this order, where it has a value)
            d["code"] = self.code
        if self.contract is not None:
            d["contract"] = self.contract
        if self.declarer is not None:
            d["declarer"] = self.declarer
        if self.tricks is not None:
            d["tricks"] = self.tricks
        if self.score is not None:
            d["score"] = self.score
        if self.source is not None:
            d["source"] = self.source
        if self.reason is not None:
            d["reason"] = self.reason
        if self.where is not None:
            d["where"] = self.where
        if self.rulings:
            d["rulings"] = self.rulings
        if self.notes:
            d["notes"] = self.notes
        return d

    def json_line(self) -> str:
        """The board's line for ``replay --json``: :meth:`to_json` as one line of JSON, its text as it is (not
        escaped to ASCII)."""
        return _ENCODE(self.to_json())

    def text(self) -> str:
        head = f"{self.file} board {self.board}: {self.status}"
        if self.status == SCORED:
            what = (f"{self.contract} by {self.declarer}" + (f", {self.tricks} tricks" if self.tricks is not None
                                                             else "") if self.contract else "no contract")
            pts = ", ".join(f"{k} {v}" for k, v in (self.score or {}).items())
            extra = f"; {len(self.rulings)} ruling{'s' if len(self.rulings) != 1 else ''}" if self.rulings else ""
            src = f" ({self.source})" if self.source and self.source != "play" else ""
            return f"{head} — {what}{src}: {pts}{extra}"
        return f"{head} — {self.reason}"


def _encoder() -> Any:
    """``json.JSONEncoder(ensure_ascii=False).encode``, its C encoder made once rather than once a call (as
    ``JSONEncoder.iterencode`` makes it): the same text, for results are trees (no cycle to check for)."""
    from json import encoder as _json

    base = json.JSONEncoder(ensure_ascii=False)
    make = getattr(_json, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has the C encoder
        return base.encode
    try:
        one = make(None, base.default, _json.encode_basestring, None, base.key_separator, base.item_separator,
                   base.sort_keys, base.skipkeys, base.allow_nan)
        join = "".join
        sample = {"board": "é\"1", "score": {"NS": 30, "EW": 0}, "notes": ["a", None, True, 1.5]}
        if join(one(sample, 0)) != base.encode(sample):  # pragma: no cover - another Python's encoder
            return base.encode
    except (TypeError, ValueError):  # pragma: no cover - another Python's encoder
        return base.encode
    return lambda o: join(one(o, 0))


_ENCODE = _encoder()
