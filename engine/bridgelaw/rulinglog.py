"""The ruling log: every ruling given at the referee's desk, in an embedded SQLite database.

One row per ruling: when, the code, the irregularity, the incident and the
ruling (JSON), and, once the referee records them, the option chosen and his
note. The database is in WAL mode with ``synchronous=FULL``; every write is
one transaction, committed before the caller is answered, so a ruling the
desk has acknowledged survives the server being killed at any moment.

A write may carry a :class:`RequestKey` (the HTTP ``Idempotency-Key``): the key
is stored, unique, in the same transaction as the row it wrote, with what was
answered; a request retried with the same key is answered from the log and
writes nothing, so a client whose reply was lost can retry without logging a
ruling twice.

Reads are paged and streamed (:meth:`RulingLog.page`, :meth:`RulingLog.iter_entries`): rows are fetched in
small batches by id, so a long log is read in constant memory. The CSV export (:func:`write_csv`) streams
too, and neutralises cells a spreadsheet would run as formulas.

The path: ``$BRIDGELAW_LOG``, else ``~/.local/share/bridgelaw/rulings.sqlite3``.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, TextIO

from .errors import InputError, RequestConflictError
from .limits import control_in

__all__ = ["RulingLog", "LogEntry", "LogPage", "RequestKey", "Written", "default_path", "write_csv", "MAX_NOTE",
           "MAX_PAGE", "CSV_COLUMNS", "check_annotation"]

MAX_NOTE = 4000
MAX_PAGE = 1000  # entries in one page of GET /log
_BATCH = 100  # rows fetched at a time when streaming

# Each step brings a log of the version before it up to the next; a log's `PRAGMA user_version` says how many
# it has had. A log is never written by a bridgelaw older than it.
_MIGRATIONS = (
    """
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
    """,
    """
    CREATE TABLE IF NOT EXISTS request_keys (
        key          TEXT PRIMARY KEY,         -- the client's Idempotency-Key
        digest       TEXT NOT NULL,            -- SHA-256 of the request it came with
        entry        INTEGER NOT NULL REFERENCES rulings (id),
        time         TEXT NOT NULL,
        choice       TEXT,                     -- the entry's choice, note and noted_at as answered
        note         TEXT,
        noted_at     TEXT
    );
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)

_COLUMNS = ("id", "time", "code", "irregularity", "incident", "ruling", "choice", "note", "noted_at")
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM rulings"
CSV_COLUMNS = ("id", "time", "code", "irregularity", "offender", "laws", "options", "choice", "note", "noted_at",
               "incident", "ruling")
# a cell a spreadsheet would take for a formula (or a DDE call) if it began so; OWASP's list
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def default_path() -> Path:
    """``$BRIDGELAW_LOG``, else ``~/.local/share/bridgelaw/rulings.sqlite3``."""
    env = os.environ.get("BRIDGELAW_LOG")
    return Path(env).expanduser() if env else Path.home() / ".local" / "share" / "bridgelaw" / "rulings.sqlite3"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# ------------------------------------------------------------------ typed values


@dataclass(frozen=True)
class LogEntry:
    """One ruling in the log. ``incident`` and ``ruling`` are the JSON documents as given and answered."""

    id: int
    time: str
    code: str
    irregularity: str
    incident: dict[str, Any]
    ruling: dict[str, Any]
    choice: str | None = None
    note: str | None = None
    noted_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The entry as ``GET /log/{id}`` answers it."""
        return {k: getattr(self, k) for k in _COLUMNS}

    def summary(self) -> dict[str, Any]:
        """The entry as the log lists it: the ruling reduced to its laws, options and effect kinds."""
        r = self.ruling
        return {k: getattr(self, k) for k in _COLUMNS if k != "ruling"} | {
            "laws": [c["number"] for c in r.get("laws", [])],
            "options": [{"id": o["id"], "chooser": o["chooser"], "law": o["law"]} for o in r.get("options", [])],
            "effects": [e["kind"] for e in r.get("effects", [])],
            "heading": (r.get("words") or {}).get("heading"),  # the ruling's heading in words, as it was given
        }

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> LogEntry:
        return cls(int(row["id"]), row["time"], row["code"], row["irregularity"], json.loads(row["incident"]),
                   json.loads(row["ruling"]), row["choice"], row["note"], row["noted_at"])


@dataclass(frozen=True)
class RequestKey:
    """A client's idempotency key, and the digest of the request it came with (the operation, body and query)."""

    key: str
    digest: str

    @classmethod
    def of(cls, key: str, operation: str, body: Any, query: Mapping[str, Any] | None = None) -> RequestKey:
        text = json.dumps([operation, body, dict(query or {})], sort_keys=True, separators=(",", ":"))
        return cls(key, hashlib.sha256(text.encode("utf-8")).hexdigest())


@dataclass(frozen=True)
class Written:
    """What a write answered: the entry, and whether it was answered from an earlier request with the same key."""

    entry: LogEntry
    replayed: bool = False


@dataclass(frozen=True)
class LogPage:
    """One page of the log: ``count`` rulings in all; the ids of this page's entries run from ``first`` to
    ``last``; ``next_before`` is the ``before`` that asks for the page of older entries (None: there are none)."""

    count: int
    first: int | None
    last: int | None
    next_before: int | None


# ------------------------------------------------------------------ the log


class RulingLog:
    """The log at ``path`` (created with its folder if absent). Safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        env = os.environ.get("BRIDGELAW_LOG")  # a refusal names where the path came from: the option or the variable
        field = "BRIDGELAW_LOG" if env and Path(env).expanduser() == self.path else "--log"
        if self.path.is_dir():
            raise InputError(field, f"{self.path}: a directory, not a ruling log; name a file in it, e.g. "
                                      f"{self.path / 'rulings.sqlite3'}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA busy_timeout = 30000")
            mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            self._db.execute("PRAGMA synchronous = FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise InputError(field, f"{self.path}: a ruling log of a newer bridgelaw (version {version}; "
                                          f"this one writes version {SCHEMA_VERSION})")
            for step in range(version, SCHEMA_VERSION):
                with self._transaction():
                    self._db.execute(_MIGRATIONS[step])
                    self._db.execute(f"PRAGMA user_version = {step + 1}")
        except sqlite3.Error as e:
            raise InputError(field, f"{self.path}: cannot open the ruling log: {e}") from None
        except OSError as e:
            raise InputError(field, f"{self.path}: cannot create the ruling log: {e.strerror}") from None
        if mode.lower() != "wal":  # pragma: no cover - a file system without shared memory
            raise InputError(field, f"{self.path}: the ruling log needs WAL mode, got {mode}")
        self._lock = threading.Lock()  # the writer's connection
        # reads have a connection of their own: in WAL mode they need not wait for a write's commit (and its sync)
        self._rd = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False, timeout=30)
        self._rd.row_factory = sqlite3.Row
        self._rd.execute("PRAGMA busy_timeout = 30000")
        self._rlock = threading.Lock()

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

    def replay(self, request: RequestKey) -> Written | None:
        """The answer already given to a request with this key, or None (a key used with another request: an
        :class:`RequestConflictError` naming ``Idempotency-Key``)."""
        with self._rlock:
            return self._replay(request, self._rd)

    def _replay(self, request: RequestKey, db: sqlite3.Connection) -> Written | None:
        row = db.execute("SELECT digest, entry, choice, note, noted_at FROM request_keys WHERE key = ?",
                               (request.key,)).fetchone()
        if row is None:
            return None
        if row["digest"] != request.digest:
            raise RequestConflictError("Idempotency-Key", f"{request.key!r} was already used for a different request; "
                                                "use a new key for each new request")
        entry = self._get(int(row["entry"]), db)
        return Written(replace(entry, choice=row["choice"], note=row["note"], noted_at=row["noted_at"]), True)

    def _remember(self, request: RequestKey | None, entry: LogEntry) -> None:
        if request is not None:
            self._db.execute("INSERT INTO request_keys (key, digest, entry, time, choice, note, noted_at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", (request.key, request.digest, entry.id, _now(),
                                                              entry.choice, entry.note, entry.noted_at))

    def record(self, incident: Mapping[str, Any], ruling: Mapping[str, Any], choice: str | None = None,
               note: str | None = None, request: RequestKey | None = None) -> Written:
        """Record one ruling (one transaction, committed on return). With a ``request`` key already used for the
        same request, nothing is written and the entry first written is answered."""
        choice, note = check_annotation(ruling, choice, note)
        now = _now()
        row = (now, str(ruling["code"]), str(ruling["irregularity"]),
               json.dumps(incident, ensure_ascii=False, sort_keys=True), json.dumps(ruling, ensure_ascii=False),
               choice, note, None if choice is None and note is None else now)
        with self._lock, self._transaction():
            if request is not None and (done := self._replay(request, self._db)) is not None:
                return done
            cur = self._db.execute(
                "INSERT INTO rulings (time, code, irregularity, incident, ruling, choice, note, noted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
            entry = self._get(int(cur.lastrowid or 0), self._db)
            self._remember(request, entry)
            return Written(entry)

    def annotate(self, entry_id: int, choice: str | None, note: str | None,
                 request: RequestKey | None = None) -> Written:
        """Record the option chosen and the referee's note on an entry (one transaction): one not given (None)
        keeps what the entry records (an empty note clears it). With a ``request`` key already used for the same
        request, nothing is written (a retry never undoes a later note)."""
        with self._lock, self._transaction():
            if request is not None and (done := self._replay(request, self._db)) is not None:
                return done
            entry = self._get(entry_id, self._db)
            keep_choice, keep_note = choice is None, note is None  # a field not sent is kept, never wiped unsaid
            choice, note = check_annotation(entry.ruling, choice, note)
            if keep_choice:
                choice = entry.choice
            if keep_note:
                note = entry.note
            self._db.execute("UPDATE rulings SET choice = ?, note = ?, noted_at = ? WHERE id = ?",
                             (choice, note, _now(), entry_id))
            entry = self._get(entry_id, self._db)
            self._remember(request, entry)
            return Written(entry)

    # -------------------------------------------------------------- reads

    def _get(self, entry_id: int, db: sqlite3.Connection) -> LogEntry:
        from .api import NotFoundError

        row = db.execute(f"{_SELECT} WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise NotFoundError("id", f"no ruling {entry_id} in the log")
        return LogEntry.from_row(row)

    def get(self, entry_id: int) -> LogEntry:
        with self._rlock:
            return self._get(entry_id, self._rd)

    def count(self) -> int:
        with self._rlock:
            return int(self._rd.execute("SELECT count(*) FROM rulings").fetchone()[0])

    def page(self, limit: int, before: int | None = None) -> LogPage:
        """The last ``limit`` entries with ids below ``before`` (all ids, without it): where they run from and to,
        and the cursor for the page before. Read the entries with :meth:`batch` or :meth:`iter_entries`."""
        if not 1 <= limit <= MAX_PAGE:
            raise InputError("limit", f"expected a number from 1 to {MAX_PAGE}, got {limit}")
        top = before if before is not None else 2 ** 63 - 1
        with self._rlock:
            self._rd.execute("BEGIN")  # one snapshot for the count and the bounds
            try:
                count = int(self._rd.execute("SELECT count(*) FROM rulings").fetchone()[0])
                ids = self._rd.execute("SELECT max(id), min(id) FROM (SELECT id FROM rulings WHERE id < ? "
                                       "ORDER BY id DESC LIMIT ?)", (top, limit)).fetchone()
                last, first = ids[0], ids[1]
                older = first is not None and self._rd.execute(
                    "SELECT 1 FROM rulings WHERE id < ? LIMIT 1", (first,)).fetchone() is not None
            finally:
                self._rd.execute("COMMIT")
        return LogPage(count, first, last, first if older else None)

    def batch(self, after: int, upto: int | None = None, size: int = _BATCH) -> list[LogEntry]:
        """Up to ``size`` entries with ids above ``after`` (and at most ``upto``), in id order."""
        with self._rlock:
            rows = self._rd.execute(f"{_SELECT} WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
                                    (after, upto if upto is not None else 2 ** 63 - 1, size)).fetchall()
        return [LogEntry.from_row(r) for r in rows]

    def iter_entries(self, first: int | None = None, last: int | None = None) -> Iterator[LogEntry]:
        """The entries with ids from ``first`` to ``last`` (default: all), in id order, a batch at a time."""
        after = (first - 1) if first is not None else 0
        while True:
            rows = self.batch(after, last)
            yield from rows
            if len(rows) < _BATCH:
                return
            after = rows[-1].id

    def last(self, n: int) -> Iterator[LogEntry]:
        """The last ``n`` entries, in id order."""
        with self._rlock:
            first = self._rd.execute("SELECT min(id) FROM (SELECT id FROM rulings ORDER BY id DESC LIMIT ?)",
                                     (n,)).fetchone()[0]
        return self.iter_entries(first) if first is not None else iter(())

    def integrity(self) -> str:
        with self._lock:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._lock, self._rlock:
            self._rd.close()
            self._db.close()


def check_annotation(ruling: Mapping[str, Any] | None, choice: Any, note: Any) -> tuple[str | None, str | None]:
    """The choice (an option id of the ruling; not checked against it without one) and the note, checked."""
    if choice is not None and not isinstance(choice, str):
        raise InputError("choice", f"expected an option id, got {choice!r}")
    if choice is not None and ruling is not None:
        ids = [o["id"] for o in ruling.get("options", [])]
        if not isinstance(choice, str) or choice not in ids:
            raise InputError("choice", f"expected one of the ruling's options ({', '.join(ids) or 'it has none'}), "
                                       f"got {choice!r}")
    if note is not None:
        if not isinstance(note, str):
            raise InputError("note", f"expected text, got {note!r}")
        if len(note) > MAX_NOTE:
            raise InputError("note", f"at most {MAX_NOTE} characters, got {len(note)}")
        said = control_in(note)
        if said is not None:
            raise InputError("note", said)
    return choice, (note or None)


# ------------------------------------------------------------------ CSV


def _cell(value: Any) -> Any:
    """A cell a spreadsheet cannot run: text that would begin a formula is led by an apostrophe (OWASP)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv_row(e: LogEntry) -> list[Any]:
    """One entry as a CSV row (the columns of :data:`CSV_COLUMNS`); the ruling's JSON without its trace."""
    r = {k: v for k, v in e.ruling.items() if k != "trace"}
    row = [e.id, e.time, e.code, e.irregularity, e.incident.get("offender") or "",
           " ".join(c["number"] for c in r.get("laws", [])),
           " ".join(f"{o['id']}({o['chooser']})" for o in r.get("options", [])),
           e.choice or "", e.note or "", e.noted_at or "",
           json.dumps(e.incident, ensure_ascii=False, sort_keys=True), json.dumps(r, ensure_ascii=False)]
    return [_cell(v) for v in row]


def write_csv(entries: Iterable[LogEntry], out: TextIO) -> int:
    """The entries as CSV (RFC 4180) on ``out``, a row at a time, under a header row; returns the rows written."""
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    n = 0
    for e in entries:
        w.writerow(csv_row(e))
        n += 1
    return n
