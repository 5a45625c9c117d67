"""Replay deal records through the :class:`~bridgelaw.table.Table`, ruling as it goes.

* :func:`replay` — one record (a JSON/YAML deal record, or a :class:`~bridgelaw.pbn.PbnGame`): the report
  (events, rulings, state, score); a record that cannot be replayed raises :class:`InputError`.
* :func:`replay_game` (:mod:`.board`) — one PBN game as the record means it: a :class:`BoardResult`.
* :mod:`.archive` — whole files and folders, a board at a time, in one process, ``--jobs N`` processes, or
  on Dask; :mod:`.table_adapter` — the one place the table is used.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import InputError
from ..pbn.model import PbnGame
from .board import replay_game
from .json_record import replay_record
from .result import BoardResult

__all__ = ["replay", "replay_game", "replay_record", "BoardResult"]


def replay(record: Mapping[str, Any] | PbnGame, code: str | None = None) -> dict[str, Any]:
    """Replay one record; its report. A record that cannot be replayed raises :class:`InputError`."""
    if isinstance(record, PbnGame):
        res, t = replay_game(record, code, keep=True)
        if res.status == "refused":
            raise InputError(res.where or record.where(), (res.reason or "").split(": ", 1)[-1]
                             if res.reason and res.where and res.reason.startswith(res.where) else res.reason or "")
        out: dict[str, Any] = {"status": res.status, "result": res.to_json(), "rulings": res.rulings,
                               "notes": res.notes, "code": res.code}
        if t is not None:
            out.update({"phase": t.phase, "contract": t.contract, "declarer": t.declarer, "doubled": t.doubled,
                        "seating": t.table.seating(), "state": t.table.to_dict()})
        if res.score is not None:
            out["score"] = res.score
        if res.status != "scored":
            out["reason"] = res.reason
        return out
    res, report = replay_record(record, code)
    if res.status == "refused" and "error" in report:
        raise InputError(res.where or "record", res.reason.split(": ", 1)[-1] if res.reason else "")
    report.pop("adapter", None)
    report["status"] = res.status
    return report
