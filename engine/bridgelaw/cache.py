"""A small on-disk cache that keeps ``bridgelaw rule`` quick to start.

Two things are cached, both keyed so that a change invalidates them:

- each law file as read and validated (key: path, size, mtime, the schema
  files and the package version), so a cold start skips YAML parsing and
  JSON Schema validation of unchanged files;
- condition parse trees (key: the condition text and the grammar file), so a
  cold start need not import lark at all.

The cache lives in ``$BRIDGELAW_CACHE``, else ``$XDG_CACHE_HOME/bridgelaw``,
else ``~/.cache/bridgelaw``; ``BRIDGELAW_CACHE=off`` disables it. A cache that
cannot be read or written is ignored: it is never a source of truth.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Callable

__all__ = ["cached", "cache_dir"]

_VERSION = "2"


def cache_dir() -> Path | None:
    env = os.environ.get("BRIDGELAW_CACHE")
    if env == "off":
        return None
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bridgelaw"


_MODULES = [Path(__file__).with_name(n) for n in ("yamlsrc.py", "loader.py", "conditions.py", "cache.py")]


def _stamp(paths: list[Path]) -> str:
    """A key from the files' sizes and times — and bridgelaw's own modules', so a new version never
    reads an old version's pickles."""
    h = hashlib.sha1(_VERSION.encode())
    for p in list(paths) + _MODULES:
        try:
            st = p.stat()
            h.update(f"{p}:{st.st_size}:{st.st_mtime_ns};".encode())
        except OSError:
            h.update(f"{p}:missing;".encode())
    return h.hexdigest()


def cached(name: str, depends: list[Path], build: Callable[[], Any]) -> Any:
    """``build()``, or its pickled result from an earlier run with the same ``depends``."""
    root = cache_dir()
    if root is None:
        return build()
    key = _stamp(depends)
    path = root / (hashlib.sha1(name.encode()).hexdigest() + ".pickle")
    try:
        with open(path, "rb") as f:
            stored_key, value = pickle.load(f)
        if stored_key == key:
            return value
    except Exception:  # a missing, stale or unreadable cache is rebuilt
        pass
    value = build()
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=root, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump((key, value), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
    return value
