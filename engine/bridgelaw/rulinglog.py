"""The ruling log: every ruling given at the referee's desk, in an embedded SQLite database.

One row per ruling: when, the code, the irregularity, the incident and the
ruling (JSON), and, once the referee records them, the option chosen and his
note. The database is in WAL mode with ``synchronous=FULL``; every write is
one transaction, committed before the caller is answered, so a ruling the
desk has acknowledged survives the server being killed at any moment.

The path: ``$BRIDGELAW_LOG``, else ``~/.local/share/bridgelaw/rulings.sqlite3``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator, Mapping

from .errors import InputError

__all__ = ["RulingLog", "default_path", "summary", "to_csv", "MAX_NOTE"]

SCHEMA_VERSION = 1
MAX_NOTE = 4000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rulings (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    time         TEXT NOT NULL,            -- UTC, ISO 8601
    code         TEXT NOT NULL,
    irregularity TEXT NOT NULL,
    incident     TEXT NOT NULL,            -- JSON, as given
    ruling       TEXT NOT NULL,            -- JSON, as `bridgelaw rule --json`
    choice       TEXT,                     -- the option chosen (an option id of the ruling)
    note         TEXT,                     -- the referee's note
    noted_at     TEXT                      -- when the choice or note was recorded
);
"""

_COLUMNS = ("id", "time", "code", "irregularity", "incident", "ruling", "choice", "note", "noted_at")
CSV_COLUMNS = ("id", "time", "code", "irregularity", "offender", "laws", "options", "choice", "note", "noted_at",
               "incident", "ruling")


def default_path() -> Path:
    """``$BRIDGELAW_LOG``, else ``~/.local/share/bridgelaw/rulings.sqlite3``."""
    env = os.environ.get("BRIDGELAW_LOG")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "bridgelaw" / "rulings.sqlite3"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class RulingLog:
    """The log at ``path`` (created with its folder if absent). Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA busy_timeout = 30000")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self._db.execute("PRAGMA synchronous = FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise InputError("--log", f"{self.path}: a ruling log of a newer bridgelaw (version {version})")
            with self._transaction():
                self._db.execute(_SCHEMA)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as e:
            raise InputError("--log", f"{self.path}: cannot open the ruling log: {e}") from None
        except OSError as e:
            raise InputError("--log", f"{self.path}: cannot create the ruling log: {e.strerror}") from None
        if mode.lower() != "wal":  # pragma: no cover - a file system without shared memory
            raise InputError("--log", f"{self.path}: the ruling log needs WAL mode, got {mode}")
        self._lock = threading.Lock()

    # -------------------------------------------------------------- writes

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: committed (and synced) on leaving, rolled back on an error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def record(self, incident: Mapping[str, Any], ruling: Mapping[str, Any], choice: str | None = None,
               note: str | None = None) -> int:
        """Record one ruling (one transaction, committed on return); returns its entry id."""
        choice, note = _check_annotation(ruling, choice, note)
        now = _now()
        row = (now, str(ruling["code"]), str(ruling["irregularity"]),
               json.dumps(incident, ensure_ascii=False, sort_keys=True), json.dumps(ruling, ensure_ascii=False),
               choice, note, None if choice is None and note is None else now)
        with self._lock, self._transaction():
            cur = self._db.execute(
                "INSERT INTO rulings (time, code, irregularity, incident, ruling, choice, note, noted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            return int(cur.lastrowid or 0)

    def annotate(self, entry_id: int, choice: str | None, note: str | None) -> dict[str, Any]:
        """Record the option chosen and the referee's note on an entry (one transaction)."""
        with self._lock, self._transaction():
            entry = self._get(entry_id)
            choice, note = _check_annotation(entry["ruling"], choice, note)
            self._db.execute("UPDATE rulings SET choice = ?, note = ?, noted_at = ? WHERE id = ?",
                             (choice, note, _now(), entry_id))
            return self._get(entry_id)

    # -------------------------------------------------------------- reads

    def _get(self, entry_id: int) -> dict[str, Any]:
        from .api import NotFoundError

        row = self._db.execute(f"SELECT {', '.join(_COLUMNS)} FROM rulings WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise NotFoundError("id", f"no ruling {entry_id} in the log")
        return _entry(row)

    def get(self, entry_id: int) -> dict[str, Any]:
        with self._lock:
            return self._get(entry_id)

    def entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The entries in the order given (with ``limit``, the last ``limit`` of them)."""
        with self._lock:
            if limit is None:
                rows = self._db.execute(f"SELECT {', '.join(_COLUMNS)} FROM rulings ORDER BY id").fetchall()
            else:
                rows = self._db.execute(f"SELECT * FROM (SELECT {', '.join(_COLUMNS)} FROM rulings "
                                        "ORDER BY id DESC LIMIT ?) ORDER BY id", (limit,)).fetchall()
        return [_entry(r) for r in rows]

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM rulings").fetchone()[0])

    def integrity(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _entry(row: sqlite3.Row) -> dict[str, Any]:
    d = {k: row[k] for k in _COLUMNS}
    d["incident"] = json.loads(d["incident"])
    d["ruling"] = json.loads(d["ruling"])
    return d


def _check_annotation(ruling: Mapping[str, Any], choice: Any, note: Any) -> tuple[str | None, str | None]:
    if choice is not None:
        ids = [o["id"] for o in ruling.get("options", [])]
        if not isinstance(choice, str) or choice not in ids:
            raise InputError("choice", f"expected one of the ruling's options ({', '.join(ids) or 'it has none'}), "
                                       f"got {choice!r}")
    if note is not None:
        if not isinstance(note, str):
            raise InputError("note", f"expected text, got {note!r}")
        if len(note) > MAX_NOTE:
            raise InputError("note", f"at most {MAX_NOTE} characters, got {len(note)}")
    return choice, (note or None)


def summary(entry: Mapping[str, Any]) -> dict[str, Any]:
    """An entry as the log lists it: the ruling reduced to its laws and options."""
    r = entry["ruling"]
    return {k: entry[k] for k in _COLUMNS if k != "ruling"} | {
        "laws": [c["number"] for c in r.get("laws", [])],
        "options": [{"id": o["id"], "chooser": o["chooser"], "law": o["law"]} for o in r.get("options", [])],
        "effects": [e["kind"] for e in r.get("effects", [])],
    }


def _csv_rows(entries: list[dict[str, Any]]) -> Iterator[list[Any]]:
    yield list(CSV_COLUMNS)
    for e in entries:
        r = {k: v for k, v in e["ruling"].items() if k not in ("trace",)}
        yield [e["id"], e["time"], e["code"], e["irregularity"], e["incident"].get("offender") or "",
               " ".join(c["number"] for c in r.get("laws", [])),
               " ".join(f"{o['id']}({o['chooser']})" for o in r.get("options", [])),
               e["choice"] or "", e["note"] or "", e["noted_at"] or "",
               json.dumps(e["incident"], ensure_ascii=False, sort_keys=True), json.dumps(r, ensure_ascii=False)]


def to_csv(entries: list[dict[str, Any]]) -> str:
    """The log as CSV (RFC 4180), one row per ruling; the ruling's JSON without its trace."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    for row in _csv_rows(entries):
        w.writerow(row)
    return buf.getvalue()
