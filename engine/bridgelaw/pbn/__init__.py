"""PBN 2.1 (``shared/standards/pbn-2.1.txt``): read games as the standard defines them, write them back.

* :func:`iter_games` reads a file (bytes or a binary stream) a game at a time: every game comes back as a
  :class:`PbnGame`, or as a :class:`Refusal` naming its board and ``path:line:col``; one bad game never
  stops the others.
* :func:`read_pbn` reads text or bytes whole and raises on the first bad game (for one record).
* :func:`write_game` / :func:`write_games` write what was read; reading it again gives the same games.

The modules: :mod:`.text` (character set, lines, games), :mod:`.reader` (tokens, tags, sections,
annotations, markers, inheritance), :mod:`.markers` (§3.9 as data), :mod:`.tags` (tag values, and the
``Bridgelaw*`` tags of our own), :mod:`.writer`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import BinaryIO, Iterator, Union

from ..errors import InputError
from .markers import MARKERS, Marker
from .model import Item, PbnGame, Section, Tag
from .reader import Inheritance, parse_game
from .text import GameText, decoded_runs, split_runs
from .writer import write_game, write_games

__all__ = ["PbnGame", "Tag", "Section", "Item", "Refusal", "MARKERS", "Marker", "iter_games", "read_pbn",
           "iter_game_texts", "read_game", "write_game", "write_games", "looks_like_pbn"]


@dataclass
class Refusal:
    """A game that could not be read: its place in the file, its board if its tags said, and why."""

    path: str
    index: int
    line: int
    error: InputError
    board: str | None = None
    text: str = ""  # the game as it stood, so a writer can pass it through unchanged

    @property
    def where(self) -> str:
        return self.error.field

    @property
    def reason(self) -> str:
        return self.error.message


def _board_hint(gt: GameText) -> str | None:
    import re

    m = re.search(r'\[\s*Board\s*"([^"\n]*)"', gt.text)
    return m.group(1) if m and m.group(1) not in ("#", "", "?") else None


def _as_read(gt: GameText) -> str:
    """A game's text as it stood (the commentary before it, then its lines), ending in a newline as a written
    game does, so that the game after it stays a game of its own (§3: the semi-empty line between them)."""
    return "\n".join(["\n".join(lines) + "\n" for _, lines in gt.lead] + gt.lines) + "\n"


def _stream(source: Union[bytes, BinaryIO, str]) -> BinaryIO:
    if isinstance(source, str):
        return io.BytesIO(b"\xef\xbb\xbf" + source.encode("utf-8"))
    if isinstance(source, (bytes, bytearray)):
        return io.BytesIO(source)
    return source


# the tags whose inherited values (§4.8) a replay reads: the board's label, the code, the result
_REPLAY_TAGS = re.compile(r'\[\s*(Board|BridgelawCode|Code|Result)\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
# every tag's (what a game written in export format needs: §4.8's values resolved in it)
_EVERY_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\\n]|\\.)*)"\s*\]')


def _warnings_of(gt: GameText, warnings: list[str], path: str) -> list[str]:
    """The line warnings (``"<line>: ..."``, in line order) about a game's own lines and the commentary before
    it, taken from ``warnings``: a chunk of the file is decoded, and warned about, before its games are read."""
    if not warnings:
        return []
    last = gt.line + len(gt.lines) - 1 if gt.lines else None  # (commentary after the last game: all that is left)
    k = len(warnings)
    if last is not None:
        k = 0
        while k < len(warnings) and int(warnings[k].split(":", 1)[0]) <= last:
            k += 1
    mine = [f"{path}:{w}" for w in warnings[:k]]
    del warnings[:k]
    return mine


def iter_game_texts(source: Union[bytes, BinaryIO, str], path: str = "<pbn>", every_tag: bool = False
                    ) -> Iterator[tuple[GameText, Inheritance, list[str]]]:
    """The games of a file as text, unread, each with the §4.8 values a replay needs from the games before
    it (the board, the code, the result; ``every_tag``: every tag's, as a game written in export format needs
    them) and the warnings of its lines: what a worker process reads with :func:`read_game`, so that reading,
    too, is spread over the workers."""
    from .reader import unescape

    warnings: list[str] = []
    state = Inheritance()
    tags = _EVERY_TAG if every_tag else _REPLAY_TAGS
    for gt in split_runs(decoded_runs(_stream(source), warnings, path)):
        snap = Inheritance(dict(state.last), dict(state.sticky))
        probe = PbnGame(tags=[Tag(m.group(1), unescape(m.group(2))) for m in tags.finditer(gt.text)])
        try:
            state.resolve(probe)
        except InputError:
            pass  # the game's reader says so, at its place
        yield gt, snap, _warnings_of(gt, warnings, path)


def read_game(gt: GameText, path: str, inheritance: Inheritance | None = None, warnings: list[str] = ()
              ) -> PbnGame | Refusal:
    """One game from its text (see :func:`iter_game_texts`): a :class:`PbnGame`, or a :class:`Refusal`."""
    try:
        game = parse_game(gt, path, inheritance)
    except InputError as e:
        return Refusal(path, gt.index, gt.line, e, _board_hint(gt), _as_read(gt))
    except RecursionError:  # pragma: no cover - a defence: never a traceback
        return Refusal(path, gt.index, gt.line, InputError(f"{path}:{gt.line}", "the game is too deeply nested"))
    if warnings:
        game.warnings[:0] = list(warnings)
    return game


def iter_games(source: Union[bytes, BinaryIO, str], path: str = "<pbn>") -> Iterator[PbnGame | Refusal]:
    """Every game of a PBN file, read one at a time (``source``: bytes, a binary stream, or text)."""
    if isinstance(source, str):
        source = source.encode("utf-8")
        stream: BinaryIO = io.BytesIO(b"\xef\xbb\xbf" + source)
    elif isinstance(source, (bytes, bytearray)):
        stream = io.BytesIO(source)
    else:
        stream = source
    warnings: list[str] = []
    inheritance = Inheritance()
    for gt in split_runs(decoded_runs(stream, warnings, path)):
        mine = _warnings_of(gt, warnings, path)
        try:
            game = parse_game(gt, path, inheritance)
        except InputError as e:
            yield Refusal(path, gt.index, gt.line, e, _board_hint(gt), _as_read(gt))
            continue
        except RecursionError:  # pragma: no cover - a defence: never a traceback
            yield Refusal(path, gt.index, gt.line, InputError(f"{path}:{gt.line}", "the game is too deeply nested"))
            continue
        if mine:
            game.warnings[:0] = mine
        yield game


def read_pbn(source: Union[str, bytes], path: str = "<pbn>") -> list[PbnGame]:
    """Every game of a PBN text; the first game that breaks the standard raises :class:`InputError`."""
    out: list[PbnGame] = []
    for g in iter_games(source, path):
        if isinstance(g, Refusal):
            raise g.error
        if g.tag_count():
            out.append(g)
    if not out:
        raise InputError(path, "no PBN game found: a game is tag pairs such as [Dealer \"N\"] (§3)")
    return out


def looks_like_pbn(head: str) -> bool:
    """Whether text (after a byte-order mark and white space) begins as a PBN file does: a tag pair, a ``%``
    line, a ``;`` comment, or a ``{`` comment (not a JSON object)."""
    import re

    s = head.lstrip("\ufeff \t\r\n")
    if not s:
        return False
    if s[0] in "%;":
        return True
    if s[0] == "[":
        return bool(re.match(r"\[\s*[A-Za-z0-9_]+\s*\"", s))
    if s[0] == "{":
        return not re.match(r"\{\s*(\"|\})", s)
    return False
