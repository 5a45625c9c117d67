"""Read YAML strictly, with the position of every value, for errors at ``path:line:col``.

One reader for every YAML bridgelaw reads — law files, the kinds catalogue,
the casebook, incidents and score sheets — so that each is held to the same
rules:

- **YAML 1.2 scalars only**: ``true``/``false`` are booleans and ``[-+]?[0-9]+``
  an integer; ``yes``, ``on``, ``0x1``, ``0o7``, ``1_0``, ``0b1001`` and dates
  are text, as YAML 1.2 reads them (YAML 1.1, PyYAML's default, made ``no`` a
  boolean and ``1_0`` the number ten). A whole number written as a decimal
  (``50.0``, which a schema's "integer" would take for 50), one with a leading
  zero (``012``: twelve to YAML 1.2, octal ten to YAML 1.1), ``.inf``, ``.nan``
  and explicit tags are refused;
- **limits instead of crashes**: nesting deeper than :data:`limits.YAML_DEPTH`, an
  integer of more than :data:`limits.INT_DIGITS` digits, more than
  :data:`limits.YAML_ALIASES` aliases or a document that aliases would expand past
  :data:`limits.YAML_VALUES` values (a "billion laughs") are refused at once, at the
  spot, before anything walks the data;
- **duplicate keys** (which PyYAML would silently drop) are an error.

The events come from libyaml when present (several times faster); the
composition is ours, iterative, so no input can exhaust the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import limits
from .errors import LawFileError
from .textfile import _DECLINED, _check_size, _decode, _read_text, json_quickly, read_input, read_input_text

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any, Callable

__all__ = ["Source", "Mark", "load_yaml", "load_yaml_text", "read_input", "read_input_text",
           "MAX_DEPTH", "MAX_INT_DIGITS", "MAX_ALIASES", "MAX_VALUES"]


def _yaml() -> Any:
    """PyYAML, imported when YAML is first read (a start from the cache reads none), and its event loader:
    libyaml's when present."""
    import yaml

    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DEPTH = limits.YAML_DEPTH
MAX_INT_DIGITS = limits.INT_DIGITS
MAX_ALIASES = limits.YAML_ALIASES
MAX_VALUES = limits.YAML_VALUES

Key = tuple["Any", ...]

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


@dataclass(frozen=True)
class Mark:
    """Where a value stands in its YAML file, and how it was written (its scalar style)."""

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

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "text": self.text, "data": self.data, "marks": self.marks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lines = None

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
        return self.error_at(m.line, m.column, message, cls)

    def error_at(self, line: int, column: int, message: str, cls: type[LawFileError] = LawFileError) -> LawFileError:
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        return cls(message, self.path, line, column, src)

    def locator(self, key: Key) -> Callable[[int], tuple[int, int]] | None:
        """For the text scalar at ``key``: a function from an offset in its value to its line and column in
        the file — right on a value that wraps over several lines (YAML folds the line breaks)."""
        if key not in self.marks:
            return None
        value: Any = self.data
        try:
            for k in key:
                value = value[k]
        except (KeyError, IndexError, TypeError):
            return None
        if not isinstance(value, str):
            return None
        m = self.marks[key]
        lines = self.lines
        text = value

        def locate(offset: int) -> tuple[int, int]:
            return _align(text, lines, m.line - 1, m.column - 1, offset)

        return locate


def _align(value: str, lines: tuple[str, ...], line: int, col: int, offset: int) -> tuple[int, int]:
    """Where character ``offset`` of a scalar's value sits in the source (1-based), the value starting at
    (line, col) (0-based). The value is the source with line breaks folded into spaces, indentation and
    quoting removed, so its characters are matched to the source's in order, skipping what YAML drops; a
    folded space sits at the end of the line it replaces."""
    drop = " \t\\'\""
    for i, ch in enumerate(value):
        while True:
            if line >= len(lines):
                return max(len(lines), 1), 1
            src = lines[line]
            if col >= len(src):  # the end of a source line: a line break, or a space folded from one
                if ch in " \n":
                    break
                line, col = line + 1, 0
                continue
            if src[col] == ch:
                break
            if src[col] in drop:
                col += 1
                continue
            return line + 1, col + 1  # the folding cannot be followed further: the nearest place
        if i == offset:
            return line + 1, col + 1
        if col >= len(lines[line]):
            line, col = line + 1, 0
        else:
            col += 1
    return line + 1, col + 1


# --------------------------------------------------------------------------
# Reading


def load_yaml(path: Path, display: str | None = None) -> Source:
    """A law file (or kinds, topics, casebook file); any problem is a :class:`LawFileError` at its spot."""
    name = display or str(path)
    return load_yaml_text(_read_text(path, name, LawFileError), name)


def load_yaml_text(text: str, path: str) -> Source:
    data, marks = _compose(text, path)
    return Source(path, text, data, marks)


class _Open:
    """A mapping or sequence being composed."""

    __slots__ = ("value", "key", "pending", "size", "anchor", "key_lines")

    def __init__(self, value: Any, key: Key, anchor: str | None) -> None:
        self.value = value
        self.key = key
        self.pending: Any = _NO_KEY  # a mapping's key waiting for its value
        self.size = 1
        self.anchor = anchor
        self.key_lines: dict[Any, int] = {}  # a mapping's keys: the line each is on


class _NoKey:
    pass


_NO_KEY: Any = _NoKey()


def _compose(text: str, path: str) -> tuple[Any, dict[Key, Mark]]:
    """Parse ``text`` into plain data (dict, list, str, int, bool, None) and the mark of every value."""
    yaml, _EventLoader = _yaml()
    lines = text.splitlines()

    def fail(line: int, col: int, message: str) -> LawFileError:
        src = lines[line - 1] if 0 < line <= len(lines) else None
        return LawFileError(message, path, line, col, src)

    marks: dict[Key, Mark] = {}
    anchors: dict[str, tuple[Any, int]] = {}  # anchor -> (value, its expanded size)
    stack: list[_Open] = []
    root: list[Any] = []
    counts = {"aliases": 0, "values": 0, "documents": 0}

    def count(n: int, line: int, col: int, alias: bool = False) -> None:
        counts["values"] += n
        if counts["values"] > MAX_VALUES:
            what = "aliases would expand this file (an alias bomb?) to" if alias else "this file has"
            raise fail(line, col, f"{what} more than {MAX_VALUES:,} values: refused")

    def add(value: Any, size: int, mark: Mark) -> None:
        """Put a finished value into the innermost open container (or make it the document)."""
        if not stack:
            root.append(value)
            marks[()] = mark
            return
        top = stack[-1]
        if isinstance(top.value, dict):
            if top.pending is _NO_KEY:  # this value is a key
                if isinstance(value, (dict, list)):
                    raise fail(mark.line, mark.column, "a mapping or a list used as a mapping key: keys are "
                               "plain words")
                if value in top.value:
                    raise fail(mark.line, mark.column, f"duplicate key {value!r} (first at line "
                               f"{top.key_lines[value]}); a later value would silently replace it")
                top.pending = value
                top.key_lines[value] = mark.line
                return
            top.value[top.pending] = value
            marks.setdefault(top.key + (top.pending,), mark)
            top.pending = _NO_KEY
        else:
            marks.setdefault(top.key + (len(top.value),), mark)
            top.value.append(value)
        top.size += size

    def key_of_next() -> Key:
        if not stack:
            return ()
        top = stack[-1]
        if isinstance(top.value, dict):
            return top.key + (top.pending,)
        return top.key + (len(top.value),)

    try:
        loader = _EventLoader(text)
        try:
            while True:
                ev = loader.get_event()
                if isinstance(ev, yaml.StreamEndEvent):
                    break
                if isinstance(ev, (yaml.StreamStartEvent, yaml.DocumentEndEvent)):
                    continue
                m = ev.start_mark
                line, col = m.line + 1, m.column + 1
                if isinstance(ev, yaml.DocumentStartEvent):
                    counts["documents"] += 1
                    if counts["documents"] > 1:
                        raise fail(line, col, "a second YAML document ('---'): a file holds one")
                    continue
                if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    done = stack.pop()
                    if done.anchor is not None:
                        anchors[done.anchor] = (done.value, done.size)
                    add(done.value, done.size, marks[done.key])
                    continue
                if isinstance(ev, yaml.AliasEvent):
                    counts["aliases"] += 1
                    if counts["aliases"] > MAX_ALIASES:
                        raise fail(line, col, f"more than {MAX_ALIASES} aliases (*name) in one file: refused")
                    if ev.anchor not in anchors:
                        raise fail(line, col, f"alias *{ev.anchor} names no complete value anchored before it")
                    value, size = anchors[ev.anchor]
                    count(size, line, col, alias=True)
                    add(value, size, Mark(line, col, None))
                    continue
                tag = getattr(ev, "tag", None)
                if isinstance(ev, yaml.ScalarEvent):
                    if tag is not None and tag != "!" and not any(ev.implicit):
                        raise fail(line, col, f"explicit tag {tag!r}: tags are not used in bridgelaw data")
                    style = ev.style or None  # libyaml gives '' for a plain scalar
                    value = _scalar(ev.value, style, fail, line, col)
                    if style in ('"', "'"):
                        col += 1
                    elif style in ("|", ">"):
                        nxt = m.line + 1
                        while nxt < len(lines) and not lines[nxt].strip():
                            nxt += 1
                        if nxt < len(lines):
                            line, col = nxt + 1, len(lines[nxt]) - len(lines[nxt].lstrip()) + 1
                    count(1, line, col)
                    if ev.anchor is not None:
                        anchors[ev.anchor] = (value, 1)
                    add(value, 1, Mark(line, col, style))
                    continue
                # a mapping or a sequence opens
                if tag is not None and not ev.implicit:
                    raise fail(line, col, f"explicit tag {tag!r}: tags are not used in bridgelaw data")
                if len(stack) >= MAX_DEPTH:
                    raise fail(line, col, f"nested more than {MAX_DEPTH} levels deep: refused")
                if stack and isinstance(stack[-1].value, dict) and stack[-1].pending is _NO_KEY:
                    raise fail(line, col, "a mapping or a list used as a mapping key: keys are plain words")
                count(1, line, col)
                key = key_of_next()
                marks[key] = Mark(line, col, None)
                stack.append(_Open({} if isinstance(ev, yaml.MappingStartEvent) else [], key, ev.anchor))
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, e.position) + 1
        col = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        raise fail(line, col, f"invalid YAML: the character {e.character!r} is not allowed (is this a binary "
                   "file?)") from None
    except yaml.MarkedYAMLError as e:
        mk = e.problem_mark or e.context_mark
        msg = (e.problem or e.context or "invalid YAML").strip()
        if "maximum nesting depth" in msg:
            msg = f"nested more than {MAX_DEPTH} levels deep: refused"
        if mk is None:
            raise LawFileError(f"invalid YAML: {msg}", path) from None
        raise fail(mk.line + 1, mk.column + 1, f"invalid YAML: {msg}") from None
    except yaml.YAMLError as e:  # pragma: no cover - libyaml reports positions
        raise LawFileError(f"invalid YAML: {e}", path) from None
    return (root[0] if root else None), marks


def _scalar(text: str, style: str | None, fail: Callable[[int, int, str], LawFileError], line: int, col: int) -> Any:
    if style is not None:  # quoted or block: always text
        return text
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        digits = len(text.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise fail(line, col, f"an integer of {digits} digits: at most {MAX_INT_DIGITS} (quote it if it is text)")
        if digits > 1 and text.lstrip("+-")[0] == "0":  # YAML 1.1 (and so many writers) read 012 as octal ten
            raise fail(line, col, f"{text!r}: a number with a leading zero, which YAML 1.2 reads as {int(text)} and "
                       f"YAML 1.1 as octal: write {int(text)} (or quote it if it is text)")
        return int(text)
    if _FLOAT.match(text):
        value = float(text.replace(".inf", "inf").replace(".Inf", "inf").replace(".INF", "inf").replace(".nan", "nan")
                      .replace(".NaN", "nan").replace(".NAN", "nan"))
        if value != value or value in (float("inf"), float("-inf")):
            raise fail(line, col, f"{text!r} is not a number bridgelaw data takes (quote it if it is text)")
        if value.is_integer():  # 50.0 would pass a schema's "integer" as 50: say it as it is
            raise fail(line, col, f"{text!r} is a whole number written as a decimal: write {int(value)}")
        return value
    return text
