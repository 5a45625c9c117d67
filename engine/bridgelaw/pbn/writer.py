"""Write PBN games back: every tag in the order read, its commentary where it stood (§3.8), the auction and
play four calls or cards a line (§3.5, §3.6) with their markers placed as §3.9 places them (``^I``, ``^R``,
``^L`` before the call or card, ``^S`` in the skipped player's place) and their annotations after them,
supplemental sections row by row as read. Reading what this writes gives the same :class:`PbnGame`.
"""

from __future__ import annotations

import re
from typing import Iterable

from .model import Item, PbnGame, Section, Tag

__all__ = ["write_game", "write_games", "escape", "as_utf8_import"]

# the escape lines that describe the file a game was read from: "% EXPORT" (§2.4) and a character set (§2.2, as
# BridgeComposer's "%Content-type: text/x-pbn; charset=ISO-8859-1" names it)
_EXPORT_LINE = re.compile(r"^%[ \t]*EXPORT[ \t]*\n", re.M | re.I)
_CHARSET = re.compile(r"^(%[^\n]*charset=)[A-Za-z0-9_.:-]*", re.M | re.I)


def as_utf8_import(text: str) -> str:
    """Games' text as ``replay --write`` writes it — import format (§2.1), UTF-8 — with the escape lines that would
    be false of that file mended: ``% EXPORT`` (§2.4: the file is export format) dropped, and a character set
    named (§2.2) named UTF-8. ``text`` is whole lines, each ending in a newline."""
    if "%" not in text:
        return text
    return _CHARSET.sub(r"\1UTF-8", _EXPORT_LINE.sub("", text))


def escape(value: str) -> str:
    """A tag value as a string token (§3.2): a quote as ``\\"``; a backslash doubled where it would otherwise
    read as an escape (before a quote, a backslash, or at the end), left alone elsewhere (``\\2R``)."""
    if "\\" not in value and '"' not in value:
        return value
    out = []
    for i, c in enumerate(value):
        if c == '"':
            out.append('\\"')
        elif c == "\\" and (i + 1 == len(value) or value[i + 1] in '\\"'):
            out.append("\\\\")
        else:
            out.append(c)
    return "".join(out)


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cur = ""

    def word(self, text: str) -> None:
        self.cur = f"{self.cur} {text}" if self.cur else text

    def comment(self, c: str) -> None:
        if c.startswith("%"):  # an escape line stands alone, from the first column (§2.4)
            self.end()
            self.lines.append(c)
        elif c.startswith(";"):  # to the end of the line
            self.word(c)
            self.end()
        else:
            self.word(c)

    def end(self) -> None:
        if self.cur:
            self.lines.append(self.cur)
            self.cur = ""

    def raw(self, line: str) -> None:
        self.end()
        self.lines.append(line)


_CALL_TEXT = {"P": "Pass"}


def _item(item: Item, out: _Lines) -> None:
    text = _CALL_TEXT.get(item.text, item.text)
    if item.marker:
        text = f"^{item.marker} {text}"
    if item.suffix:
        text += item.suffix
    out.word(text)
    if item.note is not None:
        out.word(f"={item.note}=")
    for n in item.nags:
        out.word(f"${n}")
    for c in item.comments:
        out.comment(c)


def _section(sec: Section, out: _Lines) -> None:
    if sec.rows:
        for r in sec.rows:
            out.raw(r)
    out.end()
    for k, item in enumerate(sec.items, start=1):  # four places a line: ^S and - take a place too
        _item(item, out)
        if k % 4 == 0:
            out.end()
    out.end()
    for c in sec.comments:
        out.comment(c)
    out.end()


def _tag(t: Tag, out: _Lines) -> None:
    out.end()
    out.word(f'[{t.name} "{escape(t.value)}"]')
    for c in t.comments:
        out.comment(c)
    out.end()
    if t.section is not None:
        _section(t.section, out)


def write_game(game: PbnGame) -> str:
    """One game as PBN text, ending with a newline (no blank line after it)."""
    out = _Lines()
    for chunk in game.lead:
        out.raw(chunk)
        out.raw("")
    for c in game.prologue:
        out.comment(c)
        out.end()
    for t in game.tags:
        _tag(t, out)
    out.end()
    lines = out.lines
    while lines and lines[-1] == "" and not game.tags:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def write_games(games: Iterable[PbnGame]) -> str:
    """Games as one PBN file: a blank line between games (§3)."""
    return "\n".join(g for g in (write_game(x) for x in games) if g)
