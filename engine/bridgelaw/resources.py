"""Find the data that ships with bridgelaw: ``laws/``, ``grammar/``, ``schema/``, ``rulings/``.

The installed wheel carries them in ``bridgelaw/_data``; a source checkout
has them at the repository root. ``BRIDGELAW_DATA`` points ``laws/`` at
another folder (tests use it for folders of broken law files); the grammar
and schemas then still come from the shipped copy unless that folder has its own.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "laws_dir", "grammar_path", "schema_dir", "rulings_dir"]

_PACKAGE = Path(__file__).resolve().parent


def _shipped() -> Path:
    installed = _PACKAGE / "_data"
    return installed if (installed / "laws").is_dir() else _PACKAGE.parent.parent


def data_dir() -> Path:
    """The folder holding ``laws/`` (and usually ``grammar/`` and ``schema/``)."""
    env = os.environ.get("BRIDGELAW_DATA")
    return Path(env) if env else _shipped()


def laws_dir() -> Path:
    return data_dir() / "laws"


def _find(name: str) -> Path:
    p = data_dir() / name
    return p if p.is_dir() else _shipped() / name


def grammar_path() -> Path:
    return _find("grammar") / "conditions.lark"


def schema_dir() -> Path:
    return _find("schema")


def rulings_dir() -> Path | None:
    """The casebook: shipped in the wheel (``bridgelaw/_data/rulings``), or at a source checkout's root."""
    for p in (_PACKAGE / "_data" / "rulings", _PACKAGE.parent.parent / "rulings"):
        if p.is_dir():
            return p
    return None
