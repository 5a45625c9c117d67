"""A file's text read within the limits, and an incident or score sheet read from it — as plain JSON, where the
YAML rules (:mod:`bridgelaw.yamlsrc`) would certainly read the same value, else by those rules: what a start that
rules on an incident a game engine sends (``bridgelaw rule -``) reads, in a light module of its own, so that it
imports no YAML reader. :mod:`bridgelaw.yamlsrc` reads law files with :func:`_read_text` and gives these names too.
"""

from __future__ import annotations

import re

from . import limits
from .errors import InputError, LawFileError

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any

__all__ = ["read_input", "read_input_text", "json_quickly"]


def read_input(arg: str) -> tuple[Any, str]:
    """An incident or score sheet from a file (``-``: standard input) by the same strict rules; any problem
    is one :class:`InputError` line naming ``path:line:col``."""
    import sys

    if arg == "-":
        if sys.stdin is None:  # started with standard input closed (`<&-`)
            raise InputError("FILE", "cannot read - (standard input): it is closed; give a file, or pipe one in")
        stream = getattr(sys.stdin, "buffer", None)
        data = (stream.read(limits.FILE_BYTES + 1) if stream is not None
                else sys.stdin.read(limits.FILE_BYTES + 1).encode("utf-8", "surrogateescape"))
        _check_size(data, "- (standard input)", InputError)
        return read_input_text(_decode(data, "<stdin>", InputError), "<stdin>"), "<stdin>"
    from pathlib import Path

    return read_input_text(_read_text(Path(arg), arg, InputError), arg), arg


def read_input_text(text: str, name: str) -> Any:
    value = json_quickly(text)
    if value is not _DECLINED:  # plain JSON, as a game engine sends it: the same value, without YAML
        return value
    from .yamlsrc import _compose  # (YAML, or JSON the YAML rules read otherwise: its reader)

    try:
        return _compose(text, name)[0]
    except LawFileError as e:
        message = e.message.replace("invalid YAML:", "not valid YAML or JSON:", 1)
        raise InputError(e.location(), message) from None


_DECLINED: Any = object()
_PLAIN_JSON = re.compile(r"[ \n\r!-\[\]-~]*")  # printable ASCII, no backslash, no tab: each string as written


class _NotPlain(Exception):
    pass


def _no_float(text: str) -> Any:
    raise _NotPlain


def _int(text: str) -> int:
    if len(text.lstrip("-")) > limits.INT_DIGITS:
        raise _NotPlain
    return int(text)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _NotPlain  # a duplicate key: the YAML reading names it
    return out


def _depth(value: Any, room: int) -> bool:
    """Is ``value`` nested no deeper than ``room`` levels?"""
    if isinstance(value, (dict, list)):
        if room <= 0:
            return False
        return all(_depth(v, room - 1) for v in (value.values() if isinstance(value, dict) else value))
    return True


def json_quickly(text: str) -> Any:
    """``text`` read as JSON when it is plain JSON whose reading by the YAML rules (:func:`_compose`) is
    certainly the same value — printable ASCII without escapes or tabs, no float, no duplicate key, no integer
    too long, within the limits — else ``_DECLINED`` (the YAML reading gives the value or the error)."""
    if len(text) >= limits.YAML_VALUES or not _PLAIN_JSON.fullmatch(text):
        return _DECLINED
    import json

    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_float=_no_float, parse_int=_int,
                           parse_constant=_no_float)
    except (ValueError, _NotPlain, RecursionError):
        return _DECLINED
    return value if _depth(value, limits.YAML_DEPTH - 1) else _DECLINED


def _read_text(path: Path, name: str, cls: type[Any]) -> str:
    def fail(why: str) -> Exception:  # a law file names itself; an input file is the FILE argument (cli conventions)
        return cls(f"cannot read: {why}", name) if cls is LawFileError else cls("FILE", f"cannot read {name}: {why}")

    try:
        if path.is_dir():
            raise fail("it is a directory, not a file")
        with path.open("rb") as f:  # at most the limit and one byte more: /dev/zero ends too
            data = f.read(limits.FILE_BYTES + 1)
    except OSError as e:
        if e.errno == 40:  # ELOOP
            raise fail("a loop of symbolic links") from None
        raise fail(f"{e.strerror or e}") from None
    _check_size(data, name, cls)
    return _decode(data, name, cls)


def _check_size(data: bytes, name: str, cls: type[Any]) -> None:
    if len(data) > limits.FILE_BYTES:
        why = f"over {limits.FILE_BYTES:,} bytes: no bridgelaw file is so large (is it the right file?)"
        raise cls(f"cannot read: {why}", name) if cls is LawFileError else cls("FILE", f"cannot read {name}: {why}")


def _decode(data: bytes, name: str, cls: type[Any]) -> str:
    """``data`` as UTF-8, or the error at the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        where = f"{name}:{line}:{col}"
        msg = f"not UTF-8 text ({e.reason} at byte {e.start}): is this a binary file?"
        raise (cls(msg, name, line, col) if cls is LawFileError else cls(where, msg)) from None
