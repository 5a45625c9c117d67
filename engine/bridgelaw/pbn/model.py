"""The PBN game as read: typed, in file order, with everything the file said.

A :class:`PbnGame` keeps its tags in the order read (a repeated tag too: §3.4 says a reader ignores it, and
the writer still writes it back), each with the commentary that follows it (§3.8) and the section data that
follows it: the auction (§3.5), the play (§3.6), or a supplemental section (§5), kept as its rows of raw
text. Calls and cards are :class:`Item` s with their annotations (§3.5.2, §3.6.2: suffix, note, NAGs) and
the §3.9 irregularity marker that precedes them. Positions (``line``, ``col``) are for messages only:
two games are equal when everything the file *says* is equal, wherever it stood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..errors import InputError

__all__ = ["Item", "Section", "Tag", "PbnGame", "PlainTags", "AUCTION", "PLAY", "SUPPLEMENTAL"]

AUCTION, PLAY, SUPPLEMENTAL = "auction", "play", "supplemental"


@dataclass(slots=True)
class Item:
    """One call or card token of a section, or ``^S`` (a skipped player's place, §3.9), ``-``, ``*``, ``+``.

    ``text`` is normalized: calls upper case, ``Pass`` as ``P``, ``1N`` as ``1NT``; cards ``SA``.
    ``marker`` is the §3.9 marker that precedes the token (``I``, ``R`` or ``L``), ``raw`` the spelling read.
    """

    text: str
    marker: str | None = None
    suffix: str | None = None
    note: int | None = None
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    raw: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    col: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text}
        for k in ("marker", "suffix", "note"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.nags:
            d["nags"] = list(self.nags)
        if self.comments:
            d["comments"] = list(self.comments)
        return d


class Section:
    """The data after a tag: ``items`` (auction, play) or ``rows`` (a supplemental section's raw lines).

    The reader keeps a plain call or card — no marker, annotation or commentary — as a small tuple
    ``(text, raw, line, col)`` in :attr:`entries`, so a long archive reads fast; :attr:`items` gives every
    entry as an :class:`Item`. A section of nothing but plain calls (or the usual lines of four plain cards)
    is kept as its lines until its entries are asked for (:meth:`plain_calls`, :meth:`plain_lines` give them
    as they stand)."""

    __slots__ = ("kind", "_entries", "rows", "comments", "stop", "_lines", "_line", "_spelling", "_marked")

    def __init__(self, kind: str, items: list[Item] | None = None, rows: list[str] | None = None,
                 comments: tuple[str, ...] = ()) -> None:
        self.kind = kind
        self._entries: list[Item | tuple[str, str, int, int]] = list(items) if items else []
        self.rows: list[str] = list(rows) if rows else []
        self.comments = comments
        #: where the first ``*`` or ``+`` is in :attr:`entries` (None: there is none), as the reader found it;
        #: -1 where no reader said (see :meth:`stop_at`)
        self.stop: int | None = -1
        # a play section read as the usual lines of four plain cards one space apart, from line ``_line`` on:
        # kept as those lines until the entries are asked for (the replay plays them as they stand)
        self._lines: list[str] | None = None
        self._line = 0
        # an auction kept as its lines: each call's spelling -> its text (Pass -> P), as the reader has them
        self._spelling: dict[str, str] | None = None
        # a play section's lines that have §3.9 markers before cards (^R, ^L): each as read, by its place among
        # the lines (which hold it without them)
        self._marked: dict[int, str] | None = None

    @property
    def entries(self) -> list[Item | tuple[str, str, int, int]]:
        """The calls or cards in order: a plain one as ``(text, raw, line, col)``, any other an :class:`Item`."""
        if self._lines is not None:
            self._unfold()
        return self._entries

    def add_plain_lines(self, lines: list[str], number: int, spelling: dict[str, str] | None = None,
                        marked: dict[int, str] | None = None) -> None:
        """The reader's usual lines of play (four plain cards each, one space apart), or (``spelling``: each
        call's spelling and its text) its lines of plain calls one space apart, the first at line ``number``,
        in a section that has nothing yet. ``marked``: the lines of play that have a marker (``^R``, ``^L``)
        before a card, as read, by their place among ``lines`` (which hold them without their markers)."""
        if self._entries or self._lines is not None:  # pragma: no cover - the reader adds them to a new section
            raise InputError("pbn", f"line {number}: plain lines added to a section that has entries")
        self._lines, self._line, self._spelling, self._marked = lines, number, spelling, marked

    def empty(self) -> bool:
        """Has the section no calls or cards (nor rows)?"""
        return not self._lines and not self._entries and not self.rows

    def plain_lines(self) -> tuple[list[str], int, list[Item | tuple[str, str, int, int]], tuple[int, ...]] | None:
        """The play section as the reader kept it: its usual lines of four cards (without the markers of
        those that have one), the first one's line number, what followed them (the ``*`` that ends the play),
        and the places among the lines of those that have a marker, in order; None once the entries have been
        asked for (or for the lines of an auction: :meth:`plain_calls`)."""
        lines = self._lines
        if lines is None or self._spelling is not None:
            return None
        marked = self._marked
        return lines, self._line, self._entries, tuple(sorted(marked)) if marked else ()

    def plain_calls(self) -> list[str] | None:
        """The auction's calls (their texts: ``P`` for ``Pass``) where the reader kept its lines of plain calls
        as they stand; None once the entries have been asked for, or for any other section."""
        spelling = self._spelling
        if self._lines is None or spelling is None:
            return None
        return list(map(spelling.__getitem__, " ".join(self._lines).split(" ")))

    def _unfold(self) -> None:
        lines, number, tail, spelling = self._lines, self._line, self._entries, self._spelling
        if lines is None:  # pragma: no cover - unfolded only while it holds plain lines
            return
        out: list[Item | tuple[str, str, int, int]] = []
        if spelling is not None:  # plain calls one space apart
            for ln in lines:
                col = 1
                for w in ln.split(" "):
                    out.append((spelling[w], w, number, col))
                    col += len(w) + 1
                number += 1
            self._spelling = None
        elif self._marked is None:
            for ln in lines:
                out.extend(_four(ln, number))
                number += 1
        else:
            marked = self._marked
            for j, ln in enumerate(lines):
                raw = marked.get(j)
                out.extend(_four(ln, number) if raw is None else _marked_four(raw, number))
                number += 1
            self._marked = None
        if self.stop not in (-1, None):
            self.stop += len(out)  # type: ignore[operator]
        self._entries, self._lines = out + tail, None

    def stop_at(self) -> int | None:
        """The place of the first ``*`` or ``+`` entry (the end of the calls or cards), or None."""
        if self._lines is not None:
            self._unfold()
        if self.stop != -1:
            return self.stop
        return next((i for i, e in enumerate(self.entries) if type(e) is not tuple and e.text in ("*", "+")), None)

    @property
    def items(self) -> list[Item]:
        e = self.entries
        for i, x in enumerate(e):
            if type(x) is tuple:
                e[i] = Item(x[0], None, None, None, (), (), x[1], x[2], x[3])
        return e  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Section):
            return NotImplemented
        return (self.kind, self.items, self.rows, self.comments) == (other.kind, other.items, other.rows,
                                                                      other.comments)

    def __repr__(self) -> str:
        return f"Section({self.kind!r}, {self.items!r}, rows={self.rows!r}, comments={self.comments!r})"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.entries:
            d["items"] = [i.to_json() for i in self.items]
        if self.rows:
            d["rows"] = list(self.rows)
        if self.comments:
            d["comments"] = list(self.comments)
        return d


def _four(line: str, number: int) -> tuple[tuple[str, str, int, int], ...]:
    a, b, c, d = line[0:2], line[3:5], line[6:8], line[9:11]
    return (a, a, number, 1), (b, b, number, 4), (c, c, number, 7), (d, d, number, 10)


def _marked_four(line: str, number: int) -> list[Item | tuple[str, str, int, int]]:
    """A usual line of four cards with a §3.9 marker (``^R``, ``^L``) before some: the cards as the reader has
    them, a marked one an :class:`Item` with its marker, each at its column."""
    out: list[Item | tuple[str, str, int, int]] = []
    col = 1
    marker = None
    for w in line.split(" "):
        if w[0] == "^":
            marker = w[1]
        elif marker is None:
            out.append((w, w, number, col))
        else:
            out.append(Item(w, marker, raw=w, line=number, col=col))
            marker = None
        col += len(w) + 1
    return out


@dataclass(slots=True)
class Tag:
    """A tag pair (§3.3): ``value`` as the file spells it (``#`` included, escapes undone)."""

    name: str
    value: str
    comments: tuple[str, ...] = ()
    section: Section | None = None
    line: int = field(default=0, compare=False)
    col: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "value": self.value}
        if self.comments:
            d["comments"] = list(self.comments)
        if self.section is not None:
            d["section"] = self.section.to_json()
        return d


class PlainTags:
    """A plain game's tag pairs as the reader found them, before any :class:`Tag` is made: the pairs
    ``(name, value)`` in file order, each run of tag lines as (its first pair's place, its line), and the
    sections of the ``[Auction]`` and ``[Play]`` tags by their pair's place. A replay reads the values and
    the sections from it; :attr:`PbnGame.tags` makes the tags from it when first asked for."""

    __slots__ = ("pairs", "runs", "sections")

    def __init__(self, pairs: list[tuple[str, str]], runs: list[tuple[int, int]], sections: dict[int, Section]
                 ) -> None:
        self.pairs, self.runs, self.sections = pairs, runs, sections

    def make(self) -> list[Tag]:
        pairs, runs, sections = self.pairs, self.runs, self.sections
        tags = []
        for r, (start, line) in enumerate(runs):
            end = runs[r + 1][0] if r + 1 < len(runs) else len(pairs)
            for i in range(start, end):
                name, value = pairs[i]
                tags.append(Tag(name, value, (), sections.get(i), line + i - start, 1))
        return tags

    def place(self, i: int) -> tuple[int, int]:
        """The line and column of pair ``i`` (each pair a line of its own, from column 1)."""
        runs = self.runs
        r = len(runs) - 1
        while runs[r][0] > i:
            r -= 1
        start, line = runs[r]
        return line + i - start, 1

    def section(self, name: str) -> Section | None:
        """The section of the first tag of that name (only an [Auction] or [Play] tag has one here)."""
        pairs = self.pairs
        for i, sec in self.sections.items():  # (in the order of the pairs)
            if pairs[i][0] == name:
                return sec
        return None


class _Tags:
    """:attr:`PbnGame.tags`: the game's tags, made from its :class:`PlainTags` the first time they are asked
    for (a game read by the plain reader), else as given."""

    def __get__(self, game: "PbnGame | None", owner: type | None = None) -> Any:
        if game is None:
            return None  # (the dataclass's default: no tags; __set__ makes it a new list)
        tags = game._tag_list
        if tags is None:
            tags = game._tag_list = game._plain.make()  # type: ignore[union-attr]
            game._plain, game._indexed = None, -1
        return tags

    def __set__(self, game: "PbnGame", value: list[Tag] | None) -> None:
        game._tag_list = [] if value is None else value
        game._plain = None


@dataclass
class PbnGame:
    """One game of a PBN file (§3), as read. ``tags`` is a list of :class:`Tag` (made when first asked for,
    for a game the plain reader read: :class:`PlainTags`)."""

    tags: list[Tag] = _Tags()  # type: ignore[assignment]
    prologue: tuple[str, ...] = ()  # commentary and % lines before the first tag (§3.8: "at the begin of the game")
    lead: tuple[str, ...] = ()      # commentary-only chunks before the game (a file header, a comment between games)
    inherited: dict[str, str] = field(default_factory=dict, compare=False)  # §4.8: the values # and ## resolve to
    path: str = field(default="<pbn>", compare=False)
    index: int = field(default=1, compare=False)      # the game's place in its file, from 1
    line: int = field(default=1, compare=False)       # the file line the game starts on
    warnings: list[str] = field(default_factory=list, compare=False)
    # the note references =n= read (section, index, line, col), checked against the Note tags (§3.5.4, §3.6.4)
    notes_used: list[tuple[str, int, int, int]] = field(default_factory=list, compare=False, repr=False)
    _index: dict[str, Tag] = field(default_factory=dict, compare=False, repr=False)
    _indexed: int = field(default=-1, compare=False, repr=False)  # how many tags the index was built from
    _values: dict[str, str] | None = field(default=None, compare=False, repr=False)  # the index's values
    _plain: PlainTags | None = field(default=None, compare=False, repr=False)  # the tags not made yet

    @classmethod
    def plain(cls, tags: PlainTags, path: str, index: int, line: int, lead: tuple[str, ...], warnings: list[str]
              ) -> "PbnGame":
        """A game of the plain reader, its tags kept as :class:`PlainTags` until they are asked for."""
        game = cls.__new__(cls)  # (every field set here, as __init__ sets it: tests/test_pbn_reader.py)
        game.__dict__.update(prologue=(), lead=lead, inherited={}, path=path, index=index, line=line,
                             warnings=warnings, notes_used=[], _index={}, _indexed=-1, _values=None, _plain=tags,
                             _tag_list=None)
        return game

    # -- tags

    def tag_count(self) -> int:
        """How many tag pairs the game has (a repeated one too)."""
        plain = self._plain
        return len(plain.pairs) if plain is not None else len(self.tags)

    def tag(self, name: str) -> Tag | None:
        """The first tag of that name (a repeated tag is ignored, §3.4)."""
        if self._indexed != len(self.tags):
            self._reindex()
        return self._index.get(name)

    def _reindex(self) -> None:
        self._index = {t.name: t for t in reversed(self.tags)}  # (the first of a name is put last: it stays)
        self._indexed = len(self.tags)
        self._values = None

    def tag_places(self, name: str) -> list[tuple[str, int, int]]:
        """The value, line and column of every tag of that name, in file order (a plain game's read from its
        pairs: no tag made)."""
        plain = self._plain
        if plain is not None:
            return [(v, *plain.place(i)) for i, (n, v) in enumerate(plain.pairs) if n == name]
        return [(t.value, t.line, t.col) for t in self.tags if t.name == name]

    def repeated(self) -> list[tuple[Tag, Tag]]:
        """Each tag given again with another value (the first, the repeat): §3.4 reads the first (in import
        format "a tag pair that already occurred, is ignored"); Note tags repeat by right (§3.5.5)."""
        first: dict[str, Tag] = {}
        out = []
        for t in self.tags:
            seen = first.setdefault(t.name, t)
            if seen is not t and t.name != "Note" and t.value != seen.value:
                out.append((seen, t))
        return out

    def tag_values(self) -> dict[str, str]:
        """Every tag's value by name as the file spells it (``#`` unresolved), the first of a repeated tag
        (§3.4); kept with the index (not to be changed: :meth:`values` gives a copy)."""
        plain = self._plain
        if plain is not None:  # (the first of a name is put last: it stays, where the index has it)
            v = self._values
            if v is None:
                v = self._values = dict(reversed(plain.pairs))
            return v
        if self._indexed != len(self.tags):
            self._reindex()
        v = self._values
        if v is None:
            v = self._values = {k: t.value for k, t in self._index.items()}
        return v

    def values(self) -> dict[str, str]:
        """Every tag's value by name, as :meth:`value` gives it: the first of a repeated tag (§3.4), with
        ``#`` and ``##`` resolved (§4.8)."""
        d = dict(self.tag_values())
        if self.inherited:
            d.update(self.inherited)
        return d

    def value(self, name: str, default: str | None = None) -> str | None:
        """The tag's value, with ``#`` and ``##`` resolved (§4.8); ``default`` when the game has no such tag."""
        if name in self.inherited:
            return self.inherited[name]
        return self.tag_values().get(name, default)

    def notes(self, section: str) -> dict[int, str]:
        """The note tags (§3.5.5, §3.6.5) that follow the auction or the play section."""
        out: dict[int, str] = {}
        current = None
        for t in self.tags:
            if t.name in ("Auction", "Play"):
                current = t.name.lower()
            elif t.name == "Note" and current == section:
                n, _, text = t.value.partition(":")
                if n.strip().isdigit():
                    out.setdefault(int(n), text)
        return out

    def section(self, name: str) -> Section | None:
        plain = self._plain
        if plain is not None:
            return plain.section(name)
        t = self.tag(name)
        return t.section if t is not None else None

    @property
    def auction(self) -> list[Item]:
        s = self.section("Auction")
        return s.items if s is not None else []

    @property
    def play(self) -> list[Item]:
        s = self.section("Play")
        return s.items if s is not None else []

    def where(self, line: int | None = None, col: int | None = None) -> str:
        line = self.line if line is None else line
        return f"{self.path}:{line}" + (f":{col}" if col else "")

    def board(self) -> str:
        """The board number (``[Board]``, §3.4.4), else (none, ``""`` or ``?``, not known: §3.4) the game's place in
        its file."""
        b = self.value("Board")
        return b if b and b != "?" else f"#{self.index}"

    def __iter__(self) -> Iterator[Tag]:
        return iter(self.tags)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"tags": [t.to_json() for t in self.tags]}
        for k in ("prologue", "lead"):
            if getattr(self, k):
                d[k] = list(getattr(self, k))
        return d
