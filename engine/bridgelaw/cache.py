"""A small on-disk cache that keeps ``bridgelaw rule`` quick to start.

Each entry is one file, written atomically (a temporary file renamed over
it), holding one thing, its name and the key it was built under:

- a law file as read and validated, with the parse trees and compiled code of
  the conditions in it, so a warm start neither parses YAML, validates JSON
  Schema, nor imports lark;
- the kinds catalogue and the topics.

The key is a SHA-256 of the *content* of every file the entry was built
from and of bridgelaw's own modules, so a new version never reads an old
version's pickles. Beside it the entry keeps each of those files' *status*
(device, inode, size, modification and change times, in nanoseconds) as it
was before the content was read: when every file's status is still that, the
content is the content the key was made of and is not read again (the change
time moves on every write and every ``utime``, and cannot be set back). A
status is kept only when the file was last changed well before it was taken
(:data:`SETTLED_NS`), so that a second write within the same tick of the
file system's clock cannot go unseen; otherwise, and whenever a status
differs, the content is read and hashed, and the entry is served only if its
key is still the key of that content (and is then kept with the new status).

The cache lives in ``$BRIDGELAW_CACHE``, else ``$XDG_CACHE_HOME/bridgelaw``,
else ``~/.cache/bridgelaw``; ``BRIDGELAW_CACHE=off`` disables it. Like
Python's own bytecode cache it trusts its directory, so it uses a directory
only when it is the user's own and nobody else can write to it (it creates it
``0o700``); any other directory is ignored, as is an entry that cannot be
read or written. The cache is never a source of truth.
"""

from __future__ import annotations

import os
import pickle
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Callable, Sequence

    Status = tuple[tuple[int, ...], ...]

__all__ = ["cached", "cache_dir", "store", "trusted", "load_entry", "key_of", "status", "cache_path", "SETTLED_NS"]

_VERSION = "4"
_HERE = os.path.dirname(os.path.realpath(__file__))
_made: set[str] = set()
_fingerprint: list[str] = []
_module_status: list[Status] = []
#: How long before its status is taken a file must have been last changed for its status to stand for its
#: content: two seconds, beyond the coarsest clock a file system keeps (FAT's two-second times).
SETTLED_NS = 2_000_000_000


def trusted(path: str | os.PathLike[str]) -> bool:
    """Is ``path`` a directory of this user's that no one else may write to?"""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or st.st_uid == getuid()


def cache_dir() -> Any:
    """The cache directory (a :class:`pathlib.Path`), created ``0o700`` if need be; None when disabled or not
    to be trusted."""
    path = cache_path()
    if path is None:
        return None
    from pathlib import Path  # deferred: a warm start names its entries with os.path

    return Path(path)


def cache_path() -> str | None:
    """The cache directory as :func:`cache_dir` gives it, as a string (no :mod:`pathlib` needed)."""
    env = os.environ.get("BRIDGELAW_CACHE", "")
    if env == "off":
        return None
    if env:
        path = env
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = os.path.join(base, "bridgelaw")
    if path not in _made:
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
        except OSError:
            pass
    if not trusted(path):
        return None
    _made.add(path)
    return path


def _module_files() -> list[str]:
    return sorted(os.path.join(_HERE, n) for n in os.listdir(_HERE) if n.endswith(".py"))


def _modules() -> str:
    """A hash of bridgelaw's own modules (the classes pickled entries hold, the code that built them)."""
    if not _fingerprint:
        import hashlib  # deferred: a warm start whose files are as they were hashes nothing

        h = hashlib.sha256(_tag().encode())  # marshal'd code
        for p in _module_files():
            with open(p, "rb") as f:
                h.update(os.path.basename(p).encode() + b"\0" + f.read() + b"\0")
        _fingerprint.append(h.hexdigest())
    return _fingerprint[0]


def _tag() -> str:
    return f"{_VERSION}:{sys.version}:{sys.implementation.cache_tag}"


def key_of(depends: Sequence[str | os.PathLike[str]], extra: str = "") -> str:
    """The content key of the files an entry is built from (a missing file counts as missing), and of
    ``extra`` (what else it depends on, in words)."""
    import hashlib  # deferred: see _modules

    h = hashlib.sha256(_modules().encode())
    h.update(extra.encode())
    for p in depends:
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError:
            h.update(f"{os.fspath(p)}:missing;".encode())
            continue
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def _status_of(paths: Sequence[str | os.PathLike[str]], settled: int) -> tuple[tuple[int, ...], ...] | None:
    out: list[tuple[int, ...]] = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            out.append(())  # missing: a file that appears changes the status
            continue
        if st.st_mtime_ns > settled or st.st_ctime_ns > settled:
            return None  # changed too lately for its status to stand for its content
        out.append((st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def status(depends: Sequence[str | os.PathLike[str]], extra: str = "") -> Any:
    """The status of the files an entry is built from and of bridgelaw's modules, with ``extra`` (what else it
    depends on, in words) — to be taken *before* their content is read; None when a file was changed too
    lately for its status to stand for its content (:data:`SETTLED_NS`)."""
    import time

    settled = time.time_ns() - SETTLED_NS
    if not _module_status:
        mods = _status_of(_module_files(), settled)
        if mods is None:
            return None
        _module_status.append(mods)
    files = _status_of(depends, settled)
    if files is None:
        return None
    return (_tag(), extra, _module_status[0], files)


def _entry(name: str) -> str | None:
    root = cache_path()
    if root is None:
        return None
    import zlib  # a file name, not a key: the entry holds its name, and a name that is not its own is a miss

    data = name.encode()
    return os.path.join(root, f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data) % 65536:04x}.pickle")


def load_entry(name: str) -> tuple[str, Any, Any] | None:
    """An entry as stored — its key, its value and the status it was kept with — for a caller that checks the
    key itself (None: none, or unreadable)."""
    path = _entry(name)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            (stored_name, key, kept), value = pickle.load(f)
    except Exception:  # a missing or unreadable entry is none
        return None
    if stored_name != name:
        return None
    return key, value, kept


def cached(name: str, depends: Sequence[str | os.PathLike[str]], build: Callable[[], Any]) -> Any:
    """``build()``, or its pickled result from an earlier run whose ``depends`` had the same content."""
    if _entry(name) is None:
        return build()
    now = status(depends)  # before anything is read
    hit = load_entry(name)
    if hit is not None:
        stored, value, kept = hit
        if now is not None and kept == now:
            return value
        key = key_of(depends)
        if stored == key:
            if now is not None:  # the same content under a new status: kept with it, for the next start
                store(name, depends, value, key, now)
            return value
    else:
        key = key_of(depends)
    value = build()
    store(name, depends, value, key, now)
    return value


def store(name: str, depends: Sequence[str | os.PathLike[str]], value: Any, key: str | None = None,
          kept: Any = None) -> None:
    """Write one entry atomically: a reader sees the old entry or the new one, never half of either. ``kept``
    is the status the files had before ``key`` was taken of their content (:func:`status`), or None."""
    path = _entry(name)
    if path is None:
        return
    import tempfile  # deferred: a start that writes nothing does not import it

    if key is None:
        kept, key = status(depends), key_of(depends)  # the status before the content
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".entry-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(((name, key, kept), value), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # a cache that cannot be written is no error
        pass
