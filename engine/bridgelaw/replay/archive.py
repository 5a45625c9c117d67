"""Replay whole archives: files and folders of PBN files and JSON records, a board at a time.

:func:`boards` reads the inputs lazily — one game in memory at a time — and yields a :class:`Job` per
board (or a result already final: a game that could not be read, commentary to pass through); :func:`run`
replays the jobs in this process, over ``jobs`` processes, or on a Dask cluster, and yields the results in
input order as they come. :func:`run_batch` is the one per-board function all three call; results are
small (:class:`~bridgelaw.replay.result.BoardResult`), and at most a few batches are in flight at once,
so memory stays flat however long the archive.
"""

from __future__ import annotations

import io
import json
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..errors import BridgelawError, InputError
from ..limits import RECORD_BYTES
from ..pbn import Refusal, iter_game_texts, iter_games, looks_like_pbn, read_game
from ..pbn.model import PbnGame
from .board import replay_game
from .json_record import replay_record
from .result import REFUSED, STATUSES, BoardResult

__all__ = ["Job", "Passthrough", "boards", "run", "run_batch", "Summary", "RECORD_SUFFIXES"]

RECORD_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass(slots=True)
class Job:
    """One board to replay: a PBN game (read, or its text still to read, with the §4.8 values it inherits),
    or a JSON record."""

    path: str
    index: int
    code: str | None
    write: bool = False
    game: PbnGame | None = None
    export: bool = False        # written in export format (§2.1)
    record: Any = None
    text: Any = None            # (GameText, Inheritance, warnings): read where the board is replayed
    line: int = 1


@dataclass
class Passthrough:
    """Text that is not a board (commentary after the last game, a game that could not be read) and is
    written back as it stood; ``note``, a word for the user about the input (a file of no game)."""

    text: str
    note: str = ""


def _no_game(name: str) -> Passthrough:
    # a PBN file of commentary only (an export header and nothing more) is a file of no board, not a refusal
    return Passthrough("", f"{name}: no game in the file, only commentary: no board to replay (§3: a game is "
                           "tag pairs such as [Dealer \"N\"])")


def _refused(path: str, index: int, line: int, where: str, message: str, board: str | None = None) -> BoardResult:
    return BoardResult(path, board or f"#{index}", index, line, REFUSED, reason=f"{where}: {message}", where=where)


def _files(inputs: Iterable[str]) -> Iterator[str]:
    for arg in inputs:
        p = Path(arg)
        if arg != "-" and p.is_dir():
            found = sorted(x for x in p.rglob("*") if x.is_file() and x.suffix.lower() in (".pbn", *RECORD_SUFFIXES))
            yield from (str(x) for x in found)
        else:
            yield arg


def boards(inputs: Iterable[str], code: str | None = None, write: bool = False,
           stdin: Any = None, unread: bool = False, export: bool = False) -> Iterator[Job | BoardResult | Passthrough]:
    """Every board of every input (``-`` is standard input; a folder is every ``.pbn``, ``.json`` and
    ``.yaml`` file under it, in name order). ``unread``: PBN games are left as text, to be read where they
    are replayed (another process, a Dask worker). ``export``: the games written in export format (§2.1):
    what could not be read, and commentary outside a game, is not written, and says so."""
    for path in _files(inputs):
        name = "<stdin>" if path == "-" else path
        try:
            stream = (stdin or sys.stdin.buffer) if path == "-" else open(path, "rb")
        except OSError as e:
            yield _refused(name, 1, 1, name, f"cannot read: {e.strerror}")
            continue
        try:
            yield from _boards_of(stream, name, path, code, write, unread, export)
        except OSError as e:
            yield _refused(name, 1, 1, name, f"cannot read: {e.strerror}")
        finally:
            if path != "-":
                stream.close()


def _commentary(text: str, name: str, export: bool) -> Passthrough:
    """Commentary outside any game, written back as it stood — or, in export format, which has no place for it
    (a game's commentary is written with its game), not written, and said."""
    if not export:
        return Passthrough(text)
    return Passthrough("", f"{name}: commentary outside a game is not written in export format" if text.strip()
                       else "")


#: Why a game that could not be read is not written in export format.
UNREAD = "the game could not be read, so it is not written in export format (it is left out of the file)"


def _boards_of(stream: Any, name: str, path: str, code: str | None, write: bool, unread: bool = False,
               export: bool = False) -> Iterator[Job | BoardResult | Passthrough]:
    suffix = Path(path).suffix.lower() if path != "-" else ""
    head = stream.peek(4096)[:4096] if hasattr(stream, "peek") else b""
    if not head and not hasattr(stream, "peek"):
        data = stream.read(RECORD_BYTES + 1)
        stream, head = io.BytesIO(data), data[:4096]
    if suffix == ".pbn" or (suffix not in RECORD_SUFFIXES and looks_like_pbn(head.decode("latin-1"))):
        any_board = False
        if unread:
            for gt, inherited, warnings in iter_game_texts(stream, name, every_tag=export):
                if not gt.lines:  # commentary after the last game
                    if write:
                        yield _commentary("\n".join("\n".join(lines) for _, lines in gt.lead) + "\n", name, export)
                    continue
                any_board = True
                yield Job(name, gt.index, code, write, text=(gt, inherited, warnings), line=gt.line, export=export)
            if not any_board:
                yield _no_game(name)
            return
        for g in iter_games(stream, name):
            if isinstance(g, Refusal):
                any_board = True
                yield _unreadable(g, name, write, export)
            elif not g.tag_count():
                if write:
                    from ..pbn.writer import write_game

                    yield _commentary(write_game(g), name, export)
            else:
                any_board = True
                yield Job(name, g.index, code, write, game=g, export=export)
        if not any_board:
            yield _no_game(name)
        return
    data = stream.read(RECORD_BYTES + 1)
    if len(data) > RECORD_BYTES:
        yield _refused(name, 1, 1, f"{name}:1:1", f"over {RECORD_BYTES:,} bytes and no PBN file: a deal record "
                                                   "(JSON or YAML) is read whole, and none is so large")
        return
    text = _decode(data)
    if suffix in RECORD_SUFFIXES or text.lstrip()[:1] in ("{", "["):
        try:
            records = _load_records(text, name, suffix)
        except InputError as e:
            yield _refused(name, 1, 1, e.field, e.message)
            return
        for i, rec in enumerate(records, start=1):
            yield Job(name, i, code, write, record=rec, export=export)
        return
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    yield _refused(name, 1, 1, f"{name}:1:1", "neither a PBN file (it would begin with a tag such as [Event \"…\"], "
                                              "a % line or a comment) nor a JSON deal record: "
                                              f"{first[:40]!r}" if first else "the input is empty")


def _unreadable(g: Refusal, name: str, write: bool, export: bool) -> BoardResult:
    res = BoardResult(name, g.board or f"#{g.index}", g.index, g.line, REFUSED, reason=f"{g.error}", where=g.where)
    if write and export:
        res.unwritten = f"{g.where}: {UNREAD}"
    elif write:
        res.written = g.text
    return res


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class _Repeated(Exception):
    pass


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Repeated
    return d


def _load_records(text: str, name: str, suffix: str) -> list[Any]:
    try:
        data = json.loads(text, object_pairs_hook=_once)
    except _Repeated:  # a key given twice in one object: the strict reader says where (a later value would win)
        from ..yamlsrc import read_input_text

        read_input_text(text, name)
        raise InputError(name, "a key is given twice in one object") from None  # pragma: no cover - it says so
    except ValueError as e:
        if suffix in (".yaml", ".yml"):
            from ..yamlsrc import read_input_text

            data = read_input_text(text, name)  # the strict reader: repeated keys, aliases, depth refused at place
        else:
            msg = getattr(e, "msg", str(e))
            raise InputError(f"{name}:{getattr(e, 'lineno', 1)}:{getattr(e, 'colno', 1)}",
                             f"not valid JSON: {msg}") from None
    if isinstance(data, list):
        if not data:
            raise InputError(name, "an empty list: no deal record to replay")
        return data
    return [data]


# ------------------------------------------------------------------ the per-board function

def run_batch(jobs: list[Job]) -> list[BoardResult | Passthrough]:
    """Replay a batch of boards (in this process, a worker process, or a Dask worker)."""
    return [run_job(j) for j in jobs]


def run_job(job: Job) -> BoardResult | Passthrough:
    try:
        if job.text is not None:
            g = read_game(job.text[0], job.path, job.text[1], job.text[2])
            if isinstance(g, Refusal):
                return _unreadable(g, job.path, job.write, job.export)
            if not g.tag_count():  # a game of nothing but commentary: written back, not a board
                from ..pbn.writer import write_game

                return _commentary(write_game(g), job.path, job.export)
            job.game = g
        if job.game is not None:
            return replay_game(job.game, job.code, write=job.write, export=job.export)[0]
        res, report = replay_record(job.record, job.code, job.path, job.index)
        if job.write and res.status != REFUSED:
            from .history_writer import history_game, record_game

            try:
                if job.export:
                    from ..pbn.export import write_export

                    res.written = write_export(history_game(report["adapter"]))
                else:
                    res.written = record_game(report["adapter"])
            except InputError as e:
                if job.export:
                    res.unwritten = str(e)
                else:
                    res.notes.append(f"not written: {e.message}")
        res.detail = _detail(report)
        return res
    except BridgelawError as e:
        return _refused(job.path, job.index, job.game.line if job.game else job.line, job.path, str(e))
    except Exception as e:  # never a traceback for one board: the others go on, and this one says why
        line = job.game.line if job.game else job.line
        return _refused(job.path, job.index, line, f"{job.path}:{line}",
                        f"bridgelaw could not replay this board (internal error {type(e).__name__}: {e}); "
                        "please report it", job.game.board() if job.game else None)


def _detail(report: dict[str, Any]) -> dict[str, Any]:  # what crosses a process boundary: no table
    return {"events": report.get("events", []), "mismatches": report.get("mismatches", [])}


# ------------------------------------------------------------------ running

def run(items: Iterable[Job | BoardResult | Passthrough], jobs: int = 1, dask: str | None = None,
        batch: int = 32) -> Iterator[BoardResult | Passthrough]:
    """Results in input order: serially, over ``jobs`` processes, or on the Dask scheduler at ``dask``
    (``local``: a local cluster of ``jobs`` workers)."""
    if jobs <= 1 and not dask:
        for x in items:
            yield run_job(x) if isinstance(x, Job) else x
        return
    if dask:
        yield from _run_dask(items, dask, max(jobs, 1), batch)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from _ordered(items, lambda b: pool.submit(run_batch, b), batch, 2 * jobs)


def _run_dask(items: Iterable[Job | BoardResult | Passthrough], address: str, workers: int,
              batch: int) -> Iterator[BoardResult | Passthrough]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--dask", "Dask is not installed: pip install 'bridgelaw[dask]'") from None
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(address, timeout=30)
    except OSError as e:
        raise InputError("--dask", f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        n = max(2, len(client.scheduler_info().get("workers", {})) * 2)
        yield from _ordered(items, lambda b: client.submit(run_batch, b, pure=False), batch, n)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _ordered(items: Iterable[Job | BoardResult | Passthrough], submit: Callable[[list[Job]], Any], batch: int,
             in_flight: int) -> Iterator[BoardResult | Passthrough]:
    """Submit batches of jobs, at most ``in_flight`` at once, and yield every result in input order."""
    waiting: deque[tuple[str, Any]] = deque()  # ("done", [results]) or ("future", future)
    cur: list[Job] = []
    futures = 0

    def drain(limit: int) -> Iterator[BoardResult | Passthrough]:
        nonlocal futures
        while waiting and (futures > limit or waiting[0][0] == "done"):
            kind, x = waiting.popleft()
            if kind == "future":
                futures -= 1
                yield from x.result()
            else:
                yield from x

    for x in items:
        if isinstance(x, Job):
            cur.append(x)
            if len(cur) >= batch:
                waiting.append(("future", submit(cur)))
                futures += 1
                cur = []
                yield from drain(in_flight)
        else:
            if cur:
                waiting.append(("future", submit(cur)))
                futures += 1
                cur = []
            waiting.append(("done", [x]))
            yield from drain(in_flight)
    if cur:
        waiting.append(("future", submit(cur)))
        futures += 1
    yield from drain(-1)


# ------------------------------------------------------------------ the summary

@dataclass
class Summary:
    rows: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, r: BoardResult) -> None:
        row = self.rows.setdefault(r.file, {s: 0 for s in STATUSES})
        row[r.status] += 1

    def total(self) -> dict[str, int]:
        return {s: sum(r[s] for r in self.rows.values()) for s in STATUSES}

    def table(self, seconds: float) -> str:
        tot = self.total()
        n = sum(tot.values())
        width = max([len("file"), len("all")] + [len(f) for f in self.rows])
        head = f"{'file':<{width}}  {'boards':>7}  " + "  ".join(f"{s:>10}" for s in STATUSES)
        lines = [head, "-" * len(head)]
        for f, row in self.rows.items():
            lines.append(f"{f:<{width}}  {sum(row.values()):>7}  " + "  ".join(f"{row[s]:>10}" for s in STATUSES))
        if len(self.rows) > 1:
            lines.append(f"{'all':<{width}}  {n:>7}  " + "  ".join(f"{tot[s]:>10}" for s in STATUSES))
        rate = f"{n / seconds:,.0f} boards a second" if seconds > 0 else ""
        lines.append(f"{n} board{'s' if n != 1 else ''} in {seconds:.2f} s" + (f" ({rate})" if rate else ""))
        return "\n".join(lines)
