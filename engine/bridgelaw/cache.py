"""A small on-disk cache that keeps ``bridgelaw rule`` quick to start.

Each entry is one file, written atomically (a temporary file renamed over
it), holding one thing and the key it was built under:

- a law file as read and validated, with the parse trees and compiled code of
  the conditions in it, so a warm start neither parses YAML, validates JSON
  Schema, nor imports lark;
- the kinds catalogue and the topics.

The key is a SHA-256 of the *content* of every file the entry was built
from — never a size and a time, which an edit can leave unchanged — and of
bridgelaw's own modules, so a new version never reads an old version's
pickles.

The cache lives in ``$BRIDGELAW_CACHE``, else ``$XDG_CACHE_HOME/bridgelaw``,
else ``~/.cache/bridgelaw``; ``BRIDGELAW_CACHE=off`` disables it. Like
Python's own bytecode cache it trusts its directory, so it uses a directory
only when it is the user's own and nobody else can write to it (it creates it
``0o700``); any other directory is ignored, as is an entry that cannot be
read or written. The cache is never a source of truth.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["cached", "cache_dir", "store", "trusted", "load_entry", "key_of"]

_VERSION = "3"
_HERE = Path(__file__).resolve().parent
_made: set[Path] = set()
_fingerprint: list[str] = []


def trusted(path: Path) -> bool:
    """Is ``path`` a directory of this user's that no one else may write to?"""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or st.st_uid == getuid()


def cache_dir() -> Path | None:
    """The cache directory, created ``0o700`` if need be; None when disabled or not to be trusted."""
    env = os.environ.get("BRIDGELAW_CACHE", "")
    if env == "off":
        return None
    if env:
        path = Path(env)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = Path(base) / "bridgelaw"
    if path not in _made:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            pass
    if not trusted(path):
        return None
    _made.add(path)
    return path


def _modules() -> str:
    """A hash of bridgelaw's own modules (the classes pickled entries hold, the code that built them)."""
    if not _fingerprint:
        h = hashlib.sha256(f"{_VERSION}:{sys.version}:{sys.implementation.cache_tag}".encode())  # marshal'd code
        for p in sorted(_HERE.glob("*.py")):
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
        _fingerprint.append(h.hexdigest())
    return _fingerprint[0]


def key_of(depends: list[Path], extra: str = "") -> str:
    """The content key of the files an entry is built from (a missing file counts as missing), and of
    ``extra`` (what else it depends on, in words)."""
    h = hashlib.sha256(_modules().encode())
    h.update(extra.encode())
    for p in depends:
        try:
            data = p.read_bytes()
        except OSError:
            h.update(f"{p}:missing;".encode())
            continue
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def _entry(name: str) -> Path | None:
    root = cache_dir()
    if root is None:
        return None
    return root / (hashlib.sha256(name.encode()).hexdigest()[:40] + ".pickle")


def load_entry(name: str) -> tuple[str, Any] | None:
    """An entry as stored — its key and its value — for a caller that checks the key itself (None: none, or
    unreadable)."""
    path = _entry(name)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            key, value = pickle.load(f)
    except Exception:  # a missing or unreadable entry is none
        return None
    return key, value


def cached(name: str, depends: list[Path], build: Callable[[], Any]) -> Any:
    """``build()``, or its pickled result from an earlier run whose ``depends`` had the same content."""
    path = _entry(name)
    if path is None:
        return build()
    key = key_of(depends)
    try:
        with open(path, "rb") as f:
            stored_key, value = pickle.load(f)
        if stored_key == key:
            return value
    except Exception:  # a missing, stale or unreadable entry is rebuilt
        pass
    value = build()
    store(name, depends, value, key)
    return value


def store(name: str, depends: list[Path], value: Any, key: str | None = None) -> None:
    """Write one entry atomically: a reader sees the old entry or the new one, never half of either."""
    path = _entry(name)
    if path is None:
        return
    import tempfile  # deferred: a start that writes nothing does not import it

    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".entry-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump((key or key_of(depends), value), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # a cache that cannot be written is no error
        pass
