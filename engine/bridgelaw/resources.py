"""Find the data that ships with bridgelaw: ``laws/``, ``grammar/``, ``schema/``, ``rulings/``.

The installed wheel carries them in ``bridgelaw/_data``; a source checkout
has them at the repository root. ``BRIDGELAW_DATA`` points ``laws/`` at
another folder (tests use it for folders of broken law files); the grammar
and schemas then still come from the shipped copy unless that folder has its own.

Each folder is given as a :class:`pathlib.Path` (``laws_dir()``) and, for the
start of ``bridgelaw rule``, which does not import :mod:`pathlib`, as a string
(``laws_path()``): the one made from the other.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

__all__ = ["data_dir", "laws_dir", "grammar_path", "schema_dir", "rulings_dir", "data_path", "laws_path",
           "grammar_file", "schema_path"]

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def _shipped() -> str:
    installed = os.path.join(_PACKAGE, "_data")
    return installed if os.path.isdir(os.path.join(installed, "laws")) else os.path.dirname(os.path.dirname(_PACKAGE))


def data_path() -> str:
    """The folder holding ``laws/`` (and usually ``grammar/`` and ``schema/``)."""
    return os.environ.get("BRIDGELAW_DATA") or _shipped()


def laws_path() -> str:
    return os.path.join(data_path(), "laws")


def _find(name: str) -> str:
    p = os.path.join(data_path(), name)
    return p if os.path.isdir(p) else os.path.join(_shipped(), name)


def grammar_file() -> str:
    return os.path.join(_find("grammar"), "conditions.lark")


def schema_path() -> str:
    return _find("schema")


def _path(p: str) -> Path:
    from pathlib import Path

    return Path(p)


def data_dir() -> Path:
    """The folder holding ``laws/`` (and usually ``grammar/`` and ``schema/``)."""
    return _path(data_path())


def laws_dir() -> Path:
    return _path(laws_path())


def grammar_path() -> Path:
    return _path(grammar_file())


def schema_dir() -> Path:
    return _path(schema_path())


def rulings_dir() -> Path | None:
    """The casebook: shipped in the wheel (``bridgelaw/_data/rulings``), or at a source checkout's root."""
    for p in (os.path.join(_PACKAGE, "_data", "rulings"), os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)),
                                                                         "rulings")):
        if os.path.isdir(p):
            return _path(p)
    return None
