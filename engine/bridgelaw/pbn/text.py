"""A PBN file as text: its character set (§2.2), its lines (§2.3), and its games (§3).

§2.2 prescribes ISO 8859-1, which every byte decodes as; a file is read as UTF-8 where it says so (a ``%``
line of the header naming ``charset=UTF-8``, as BridgeComposer writes, or the ``% PBN`` header followed by
such a line) or where a UTF-8 byte-order mark shows it. A line of a UTF-8 file that is not UTF-8 is read as
ISO 8859-1 and the game says so in a warning; a line of a file that names no character set and is UTF-8 (not
ASCII) is read as UTF-8, and the game says so too. Lines end in LF, CRLF or CR (§2.1: the platform's own).

Games are separated by semi-empty lines (§3), except inside a brace comment (§3.8), which may hold them.
The file is read a line at a time and a game at a time: one game's text is in memory at once.
"""

from __future__ import annotations

import codecs
import io
import itertools
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Iterable, Iterator, Union

from ..errors import InputError
from ..limits import PBN_LINE_BYTES

__all__ = ["GameText", "Lines", "detect_encoding", "decoded_lines", "decoded_runs", "split_games", "split_runs"]

_CHARSET = re.compile(rb"charset\s*[=:]\s*\"?([A-Za-z0-9_.:-]+)", re.I)
_HEAD = 8192  # the header lines that may name the character set
_CHUNK = 1 << 16  # the bytes read at a time
LINE_BYTES = PBN_LINE_BYTES  # the longest line read (limits.py)


def detect_encoding(head: bytes) -> tuple[str, int]:
    """The file's encoding from its first bytes, and the length of a byte-order mark to skip."""
    encoding, skip, _ = _detect(head)
    return encoding, skip


def _detect(head: bytes) -> tuple[str, int, bool]:
    """The encoding, the byte-order mark's length, and whether the file says which it is (a mark, a charset)."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8", len(codecs.BOM_UTF8), True
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # a program that wrote UTF-16 says so
        return "utf-16", 0, True
    for raw in head.splitlines()[:64]:
        s = raw.strip()
        if not s.startswith(b"%"):
            if s and not s.startswith(b";"):
                break  # the header is the % lines at the top (§2.4), perhaps after a ; comment
            continue
        m = _CHARSET.search(s)
        if m:
            name = m.group(1).decode("ascii").lower()
            try:
                found = codecs.lookup(name).name
            except LookupError:
                return "latin-1", 0, True
            # a byte-wise encoding only: lines are found by their LF bytes
            return (found, 0, True) if "16" not in found and "32" not in found else ("latin-1", 0, True)
    return "latin-1", 0, False


class Lines:
    """A chunk's lines as its text: the lines of ``text[pos:]`` (split at LF; no CR in it), the first of them
    line ``first`` of the file. The common chunk is kept so, and split into games as text (:func:`split_runs`)."""

    __slots__ = ("first", "text", "pos", "plain")

    def __init__(self, first: int, text: str, pos: int = 0, plain: bool | None = None) -> None:
        self.first, self.text, self.pos = first, text, pos
        self.plain = plain  # (the splitter's) no brace comment and no line that begins with white space; None: not seen

    def pairs(self) -> Iterator[tuple[int, str]]:
        """(line number, text) for each line."""
        text = self.text if not self.pos else self.text[self.pos:]
        return zip(itertools.count(self.first), text.split("\n"))


Run = Union[Lines, Iterable[tuple[int, str]]]


def decoded_lines(stream: BinaryIO, warnings: list[str] | None = None, path: str = "<pbn>"
                  ) -> Iterator[tuple[int, str]]:
    """(line number, text) for every line of a binary stream, decoded as :func:`detect_encoding` finds. The
    stream is read and decoded a chunk at a time (``warnings`` says what a chunk's lines are, as it is read);
    the lines of a chunk come straight from it."""
    return itertools.chain.from_iterable(r.pairs() if type(r) is Lines else r for r in decoded_runs(stream, warnings, path))


def decoded_runs(stream: BinaryIO, warnings: list[str] | None = None, path: str = "<pbn>") -> Iterator[Run]:
    """The lines of each chunk of the stream, numbered: one run a chunk — :class:`Lines` for the common chunk
    (LF line ends, all one encoding, nothing to mend), else (line number, text) pairs. What
    :func:`decoded_lines` gives line by line, and :func:`split_runs` splits into games."""
    head = stream.read(_HEAD)
    encoding, skip, declared = _detect(head)
    # A file that names no character set is ISO 8859-1 (§2.2); but many programs (BBO, RealBridge) write
    # UTF-8 and say nothing. A line of such a file that is UTF-8 (and not ASCII) is read as UTF-8 — ISO 8859-1
    # text is hardly ever valid UTF-8 — and the game says so in a warning; any other line is ISO 8859-1.
    sniff = not declared
    if sniff:
        encoding = "utf-8"
    rest = head[skip:]
    number = 0
    if encoding == "utf-16":
        text = io.TextIOWrapper(io.BufferedReader(_Joined(head, stream)), encoding="utf-16", errors="replace",
                                newline=None)
        yield ((n, line.rstrip("\n")) for n, line in enumerate(text, start=1))
        return
    while True:
        more = stream.read(_CHUNK)
        data = rest + more
        if more:
            cut = data.rfind(b"\n") + 1
            data, rest = data[:cut], data[cut:]
            long = len(rest) > LINE_BYTES
        else:
            long = len(data) - data.rfind(b"\n") - 1 > LINE_BYTES  # the last line, at the end of the file
        if long:
            line = number + data.count(b"\n") + 1  # the line after the whole lines of data
            raise InputError(f"{path}:{line}:1", f"a line of over {LINE_BYTES:,} bytes: not PBN text (§2.3 keeps a "
                             "line within 255 characters)")
        if b"\x1a" in data:  # Ctrl-Z: perhaps the end-of-file mark, held back until the file is seen to end
            m = (_EOF_LINES if more else _EOF_END).search(data)
            if m:
                data, rest = data[:m.start()], (data[m.start():] + rest if more else b"")
        if not more and data.endswith(b"\n"):
            data = data[:-1]
        if data or not more:
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:
                text = data.decode("latin-1") if sniff else None
                mend = True  # (sniffing) the chunk is not all UTF-8: ISO 8859-1, its UTF-8 lines read as UTF-8
            else:
                mend = False
            if text is not None and "\r" not in text and (not sniff or text.isascii()):
                # the common case: LF line ends, all one encoding, no line to mend: the chunk's text as it is, its
                # lines those of text.split("\n") (a middle chunk ends with the LF of its last line)
                if more and text.endswith("\n"):
                    text = text[:-1]
                yield Lines(number + 1, text)
                number += text.count("\n") + 1
                if not more:
                    return
                continue
            lines = (text.split("\n") if text is not None else data.split(b"\n")) if (data or not more) else []
            if more and lines and lines[-1] in ("", b""):
                lines.pop()
            if sniff and text is not None and not text.isascii():
                _sniff_lines(lines, mend, number, warnings)
            if text is not None and "\r" not in text:
                # LF line ends, all one encoding, some lines mended
                yield zip(itertools.count(number + 1), lines)
                number += len(lines)
                if not more:
                    return
                continue
            out: list[tuple[int, str]] = []
            for part in lines:
                if isinstance(part, bytes):  # a chunk that is not all the declared encoding: line by line
                    try:
                        part = part.decode(encoding)
                    except UnicodeDecodeError:
                        if warnings is not None:
                            warnings.append(f"{number + 1}: not {encoding}; read as ISO 8859-1")
                        part = part.decode("latin-1")
                if part[-1:] == "\r":
                    part = part[:-1]
                if "\r" in part:  # a lone CR ends a line too
                    for piece in part.split("\r"):
                        number += 1
                        out.append((number, piece))
                else:
                    number += 1
                    out.append((number, part))
            yield out
        if not more:
            return


def _sniff_lines(lines: list[str], mend: bool, number: int, warnings: list[str] | None) -> None:
    """In a file that names no character set, the lines that are not ASCII: each that is UTF-8 is read as UTF-8
    (``mend``: the chunk was read as ISO 8859-1, and such a line is decoded again) and said; any other stays
    ISO 8859-1, as §2.2 has it."""
    for i, line in enumerate(lines):
        if line.isascii():
            continue
        if mend:
            try:
                lines[i] = line.encode("latin-1").decode("utf-8")
            except UnicodeDecodeError:
                continue
        if warnings is not None:
            warnings.append(f"{number + i + 1}: UTF-8, though the file names no character set (§2.2: ISO 8859-1); "
                            "read as UTF-8")


# The end-of-file mark (Ctrl-Z) that DOS and Windows programs put after a text file's last line is the
# platform's representation of the file (§2.1), not PBN data: it, and what follows it (more marks, line ends), is
# dropped where it ends the file. One anywhere else is a character §2.2 does not permit, and its game says so.
_EOF_END = re.compile(rb"\x1a[\x1a\r\n]*\Z")
_EOF_LINES = re.compile(rb"(?:(?<=\n)|\A)\x1a[\x1a\r\n]*\Z")  # whole lines of marks, in a chunk not the last


class _Joined(io.RawIOBase):
    """A raw stream whose first bytes were read already (for :class:`io.BufferedReader`)."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self.head, self.stream = head, stream

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self.head:
            n = min(len(b), len(self.head))
            b[:n], self.head = self.head[:n], self.head[n:]
            return n
        data = self.stream.read(len(b))
        b[:len(data)] = data
        return len(data)


@dataclass
class GameText:
    """The lines of one game, with the number of its first line; ``lead`` holds commentary-only chunks that
    came before it (a file header of ``%`` lines, a comment between games), kept so it is written back."""

    index: int
    line: int
    lines: list[str]
    lead: list[tuple[int, list[str]]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    joined: str | None = field(default=None, repr=False, compare=False)  # the lines joined, where the splitter had it

    @property
    def text(self) -> str:
        if self.joined is None:
            self.joined = "\n".join(self.lines)
        return self.joined


def _brace_state(line: str, in_brace: bool) -> bool:
    """Whether a brace comment is still open at the end of ``line`` (strings and ``;`` comments respected)."""
    i, n = 0, len(line)
    if in_brace:
        j = line.find("}")
        if j < 0:
            return True
        i = j + 1
    elif line.startswith("%"):
        return False
    if "{" not in line[i:]:
        return False
    while i < n:
        c = line[i]
        if c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        elif c == ";":
            return False
        elif c == "{":
            j = line.find("}", i + 1)
            if j < 0:
                return True
            i = j + 1
        else:
            i += 1
    return False


_COMMENTARY = re.compile(r"\{[^}]*\}|;[^\n]*|^%[^\n]*", re.M)


def _is_commentary(lines: list[str]) -> bool:
    """A chunk with no tag and no token: only ``%`` lines, ``;`` and ``{}`` comments."""
    if lines[0].startswith("[") or len(lines) > 1 and lines[1].startswith("["):
        return False
    return not _COMMENTARY.sub("", "\n".join(lines)).strip()


_LONGEST_COMMENT = 1000  # lines of a brace comment after a semi-empty line in it, before it is taken as never closed
# a tag line's first six characters: the tags that begin a game (their name whole: a space or quote after it),
# and the deal
_HEADS = {"[Event": "[Event", "[Board": "[Board", "[Deal ": "deal", '[Deal"': "deal"}
_AFTER_NAME = (" ", '"')


def split_games(lines: Iterable[tuple[int, str]]) -> Iterator[GameText]:
    """The games of a file (§3): chunks separated by semi-empty lines outside brace comments.

    Two defences for files that break §3, each said in the game's warnings: a game whose ``[Event]`` or
    ``[Board]`` comes again after its ``[Deal]``, with no semi-empty line between, is two games (§3.4 would
    ignore the second game's tags, losing it whole); and a brace comment never closed ends at the first
    semi-empty line inside it, so the games after it are still read."""
    return split_runs((lines,))


# a line that begins with white space (perhaps a semi-empty line): a chunk that has one is split line by line
_SPACE_AFTER_LF = re.compile(r"\n[^\S\n]")
_EVENT_BOARD = ("[Event", "[Board")


def _heads_repeat(run: str) -> bool:
    """Whether a run of lines has ``[Event`` or ``[Board`` (the whole name) at the start of two of its lines."""
    for h in _EVENT_BOARD:
        if h in run and (run.startswith((h + " ", h + '"')) + run.count("\n" + h + " ") + run.count("\n" + h + '"')) > 1:
            return True
    return False


def split_runs(runs: Iterable[Run]) -> Iterator[GameText]:
    """:func:`split_games` over the runs of :func:`decoded_runs`. A :class:`Lines` run with no brace comment
    and no line that begins with white space (so its semi-empty lines are empty) is split as text: each run of
    lines between empty ones that the game before it does not continue, that ends in the chunk, and that has
    no repeated ``[Event`` or ``[Board`` is a game as it stands; any other lines go through the line-by-line
    splitter below, with its state, as do other runs. Both give the same games (tests/test_pbn_properties.py)."""
    index = 0
    lead: list[tuple[int, list[str]]] = []
    warn: list[str] = []

    def close(chunk: list[str], start: int, joined: str | None = None) -> Iterator[GameText]:
        nonlocal index, lead, warn
        if chunk[0][:1] != "[" and _is_commentary(chunk):  # (a game's first line is mostly a tag)
            lead.append((start, chunk))
        else:
            index += 1
            yield GameText(index, start, chunk, lead, warn, joined)
            lead, warn = [], []

    pending: deque[Run] = deque()  # runs to read before the next one: lines held back, the rest of a chunk
    source = iter(runs)
    in_brace = False
    chunk: list[str] = []
    start = 0
    seen: set[str] = set()
    blank_in_brace: int | None = None  # where, in the chunk, the first semi-empty line inside a comment is
    while True:
        if pending:
            run = pending.popleft()
        else:
            run = next(source, None)  # type: ignore[arg-type]
            if run is None:
                if chunk and in_brace and blank_in_brace is not None:
                    # a { never closed: the game ends at the first semi-empty line in it, and the rest is read anew
                    cut = blank_in_brace
                    yield from close(chunk[:cut], start)
                    pending.append([(start + cut + 1 + i, ln) for i, ln in enumerate(chunk[cut + 1:])])
                    in_brace, chunk, start, seen, blank_in_brace = False, [], 0, set(), None
                    continue
                break
        if type(run) is Lines:
            text, at, number = run.text, run.pos, run.first
            if run.plain is None:
                first = text[at:at + 1]
                run.plain = text.find("{", at) < 0 and not (first.isspace() and first != "\n") and \
                    _SPACE_AFTER_LF.search(text, at) is None
            if in_brace or not run.plain:
                run = run.pairs()
            else:
                n = len(text)
                while True:  # a run of lines between empty ones, from ``at`` (a line's start) on
                    while at < n and text[at] == "\n":  # empty lines: they end the game before them
                        at += 1
                        number += 1
                        if chunk:
                            yield from close(chunk, start)
                            chunk, seen = [], set()
                    if at >= n:  # at n: the last line, empty (the text ends with a LF, or is empty)
                        if chunk:
                            yield from close(chunk, start)
                            chunk, seen = [], set()
                        break
                    e = text.find("\n\n", at)  # the LF that ends the run's last line, an empty line after it
                    if e < 0:
                        e = n - 1 if text[n - 1] == "\n" else n  # (n: the run goes on to the chunk's end)
                    lines_run = text[at:e]
                    if chunk or e == n or ("[Event" in lines_run or "[Board" in lines_run) and _heads_repeat(lines_run):
                        # the game before goes on, this one may go on in the next chunk, or it has tags that
                        # begin a game again: its lines one by one, and the rest of the chunk after them
                        if e < n:
                            pending.appendleft(Lines(number + lines_run.count("\n") + 1, text, e + 1, True))
                        pending.appendleft(zip(itertools.count(number), lines_run.split("\n")))
                        break
                    lines = lines_run.split("\n")
                    if lines[0][:1] == "[":  # (the usual: a game's first line a tag; close() inlined)
                        index += 1
                        yield GameText(index, number, lines, lead, warn, lines_run)
                        lead, warn = [], []
                    else:
                        yield from close(lines, number, lines_run)
                    number += len(lines)
                    at = e + 1
                continue
        lines_of = iter(run)
        for number, line in lines_of:
            if not in_brace:
                if line[:1] == "[":  # a tag: the common line, checked for a game begun without a blank line
                    head = _HEADS.get(line[:6])
                    if head is None:
                        pass
                    elif head == "deal":
                        seen.add("deal")
                    elif line[6:7] in _AFTER_NAME:  # [Event or [Board, the whole name
                        if chunk and head in seen and "deal" in seen:
                            warn_next = [f"{number}: a new game begins without the semi-empty line before it (§3)"]
                            yield from close(chunk, start)
                            chunk, seen, blank_in_brace, warn = [], set(), None, warn_next
                        seen.add(head)
                elif not line or line.isspace():
                    if chunk:
                        yield from close(chunk, start)
                        chunk, seen, blank_in_brace = [], set(), None
                    continue
            if not chunk:
                start = number
            chunk.append(line)
            if in_brace and blank_in_brace is None and (not line or line.isspace()):
                blank_in_brace = len(chunk) - 1
            if in_brace or "{" in line:
                in_brace = _brace_state(line, in_brace)
                if not in_brace:
                    blank_in_brace = None
                elif blank_in_brace is not None and len(chunk) - blank_in_brace > _LONGEST_COMMENT:
                    # no comment is this long: it was never closed (and the file is not held whole): the game ends
                    # at the first semi-empty line in it, and the rest is read anew
                    cut = blank_in_brace
                    yield from close(chunk[:cut], start)
                    pending.appendleft(lines_of)
                    pending.appendleft([(start + cut + 1 + i, ln) for i, ln in enumerate(chunk[cut + 1:])])
                    in_brace, chunk, start, seen, blank_in_brace = False, [], 0, set(), None
                    break
    if chunk:
        yield from close(chunk, start)
    if lead:
        # commentary after the last game (or a file of commentary only): a game with no tags carries it, so it
        # is written back
        yield GameText(index + 1, lead[0][0], [], lead)
