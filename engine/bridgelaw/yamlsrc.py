"""Read YAML with the position of every value, for errors at ``path:line:col``.

PyYAML's safe loader builds the data; the same node tree gives each value's
line and column, keyed by its path (``("laws", 3, "provisions", 0, "when")``).
Duplicate keys, which PyYAML would silently drop, are an error here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import LawFileError

__all__ = ["Source", "load_yaml", "load_yaml_text"]

try:  # libyaml when present: several times faster
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Mark:
    line: int  # 1-based
    column: int  # 1-based, of the value's first character (inside quotes)
    style: str | None


class Source:
    """One YAML file: its data, and where each value came from."""

    def __init__(self, path: str, text: str, data: Any, marks: dict[Key, Mark]) -> None:
        self.path = path
        self.text = text
        self.data = data
        self.marks = marks
        self._lines: tuple[str, ...] | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        if self._lines is None:
            self._lines = tuple(self.text.splitlines())
        return self._lines

    def mark(self, key: Key) -> Mark:
        """The mark of ``key``, or of its nearest ancestor that has one."""
        k = tuple(key)
        while k:
            if k in self.marks:
                return self.marks[k]
            k = k[:-1]
        return self.marks.get((), Mark(1, 1, None))

    def error(self, key: Key, message: str, cls: type[LawFileError] = LawFileError) -> LawFileError:
        m = self.mark(key)
        src = self.lines[m.line - 1] if 0 < m.line <= len(self.lines) else None
        return cls(message, self.path, m.line, m.column, src)


def load_yaml(path: Path, display: str | None = None) -> Source:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise LawFileError(f"cannot read file: {e.strerror}", display or str(path)) from None
    except UnicodeDecodeError as e:
        raise LawFileError(f"not UTF-8 text ({e.reason} at byte {e.start})", display or str(path)) from None
    return load_yaml_text(text, display or str(path))


def load_yaml_text(text: str, path: str) -> Source:
    lines = text.splitlines()
    try:
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            marks: dict[Key, Mark] = {}
            if node is not None:
                _walk(node, (), marks, lines, path)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        line = m.line + 1 if m else None
        col = m.column + 1 if m else None
        src = lines[m.line] if m and 0 <= m.line < len(lines) else None
        msg = (e.problem or e.context or "invalid YAML").strip()
        raise LawFileError(f"invalid YAML: {msg}", path, line, col, src) from None
    except yaml.YAMLError as e:
        raise LawFileError(f"invalid YAML: {e}", path) from None
    return Source(path, text, data, marks)


def _walk(node: yaml.Node, key: Key, marks: dict[Key, Mark], lines: list[str], path: str) -> None:
    marks[key] = _mark_of(node, lines)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for k_node, v_node in node.value:
            k = k_node.value
            if k in seen:
                m = k_node.start_mark
                raise LawFileError(
                    f"duplicate key {k!r} (first at line {seen[k]}); a later value would silently replace it",
                    path, m.line + 1, m.column + 1, lines[m.line] if m.line < len(lines) else None,
                )
            seen[k] = k_node.start_mark.line + 1
            _walk(v_node, key + (k,), marks, lines, path)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, key + (i,), marks, lines, path)


def _mark_of(node: yaml.Node, lines: list[str]) -> Mark:
    m = node.start_mark
    style = getattr(node, "style", None)
    line, col = m.line + 1, m.column + 1
    if style in ('"', "'"):
        col += 1
    elif style in ("|", ">"):
        # the text starts on the next line, at its indentation
        nxt = m.line + 1
        while nxt < len(lines) and not lines[nxt].strip():
            nxt += 1
        if nxt < len(lines):
            line = nxt + 1
            col = len(lines[nxt]) - len(lines[nxt].lstrip()) + 1
    return Mark(line, col, style)
