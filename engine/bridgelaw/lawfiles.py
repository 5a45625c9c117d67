"""What loading a code reads before it resolves anything: a code folder's own files (:class:`RawCode`), and a
law file's cache entry (:class:`FileEntry`). A start from a code's snapshot reads neither, so neither is built
unless a code is loaded afresh (:mod:`bridgelaw.loader`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Mapping

    from .loader import Law
    from .yamlsrc import Source

__all__ = ["RawCode", "FileEntry"]


@dataclass
class RawCode:
    """A code's own files, before resolution."""

    meta: Mapping[str, Any]
    meta_src: Source
    laws: list[Law]
    params: dict[str, Any]
    params_src: Source | None
    sources: dict[str, Source]
    positions: dict[str, tuple[Source, tuple[Any, ...]]]
    after: dict[str, str]
    omitted: list[str]


@dataclass
class FileEntry:
    """A law file's cache entry: the file as read and validated, and its conditions' trees and code."""

    source: Source
    trees: dict[str, Any] = field(default_factory=dict)
    codes: dict[str, bytes] = field(default_factory=dict)
