"""Write games in PBN's export format (§2.1: "rather strict … prepared under program control"), as opposed to
:func:`.writer.write_game`, which writes back what was read.

What the export format prescribes, clause by clause, and what is done for it:

* §2.3, §2.4: lines end in CR LF, no tab; the file begins ``% PBN 2.1`` and ``% EXPORT`` (and a ``%`` line naming
  the character set, ISO 8859-1, §2.2: a character it has not is refused, :func:`export_bytes`); a line is at most
  255 characters with its end of line (a brace comment is wrapped; a tag too long for a line is refused,
  naming it: export format cannot hold it).
* §3, §3.1: an empty line before each game but the first; the identification section, the auction, the
  play, then the supplemental sections sorted by tag name.
* §3.3, §3.4: each tag pair left justified on a line, ``[Name "value"]``; the 15 mandatory tags in their order,
  ``?`` for one not given, then the other tags sorted by name, each once (a repeated tag is the one §3.4 ignores,
  and is left out; the tags of our own that a game gives several times — ``BridgelawRemedy``, ``BridgelawEvent``
  — are one tag, their items separated by ``;``, §3.3); ``#`` and ``##`` resolved (§4.8).
* §3.4.9–§3.4.15, §3.11: upper case; Vulnerable ``None`` or ``All``; the Deal from the dealer, ranks in
  descending order; the Result as the declarer's tricks.
* §3.5, §3.6: the auction from the dealer (the ``-`` before him dropped), the play from its tag's seat; four
  calls or cards a line; annotations as the note reference, then the NAGs in increasing order, a suffix
  translated to its NAG (§3.5.3: ``$1``–``$6``; §3.6.3: ``$7``–``$12``).
* §5.1, §5.2: a section's elements one space apart; a table's rows one a line, padded to the columns' minimum
  width as aligned.

A value the standard does not allow (said by the reader, :mod:`.values`) is written as read: there is nothing
right to write in its place.
"""

from __future__ import annotations

import re
import textwrap
from typing import Iterable

from ..errors import InputError
from ..values import Seat
from .model import AUCTION, PLAY, SUPPLEMENTAL, Item, PbnGame, Section, Tag
from .values import LINE_MAX, MANDATORY, TABLES, TAG_SYNTAX, TRICKS, VERSION, deal_hands
from .writer import escape

__all__ = ["write_export", "write_export_games", "export_bytes", "EXPORT_HEADER", "MTS_ORDER", "JOINED_TAGS",
           "SUFFIX_NAG"]

EOL = "\r\n"  # §2.3
# §2.4's two lines, and the character set said (§2.2's ISO 8859-1) in the escape line programs write for it
# (BridgeComposer's), so that no reader guesses it from the bytes (ISO 8859-1 text may look like UTF-8)
EXPORT_HEADER = (f"% PBN {VERSION[0]}.{VERSION[1]}{EOL}% EXPORT{EOL}%Content-type: text/x-pbn; charset=ISO-8859-1"
                 f"{EOL}")
#: §3.4: the mandatory tags in the export format's order.
MTS_ORDER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal",
             "Scoring", "Declarer", "Contract", "Result")
#: The tags of our own a game may give several times: one tag in export format, items separated by ";" (§3.3).
JOINED_TAGS = ("BridgelawRemedy", "BridgelawEvent")
#: §3.5.3 and §3.6.3: the suffixes and their NAGs in the auction ($1-$6); in the play they are 6 more ($7-$12).
SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_PLAY_NAG = len(SUFFIX_NAG)
_VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
_RANKS = "AKQJT98765432"
_SEATS = {s.value: s for s in Seat}
_WIDTH = re.compile(r"[+-]?(.*?)(?:\\(\d+)([LR]?))?")
_ELEMENT = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+')
_PLACES = 4  # §3.5, §3.6: each auction or play line holds four calls or cards
_WRAP = 79   # §2.3: lines of 80 or more printing characters are strongly discouraged


def _seat(value: str | None) -> Seat | None:
    return _SEATS.get((value or "").strip().upper())


def _deal(value: str, dealer: Seat | None) -> str:
    if not TAG_SYNTAX["Deal"].pattern.fullmatch(value):
        return value
    first, hands = deal_hands(value)
    start = _SEATS[first]
    if dealer is not None:  # §3.4.11: <first> is the dealer
        k = [start.value, start.lho.value, start.partner.value, start.rho.value].index(dealer.value)
        hands, start = hands[k:] + hands[:k], dealer
    out = []
    for h in hands:
        out.append(h if h == "-" else ".".join("".join(sorted(s, key=_RANKS.index)) for s in h.split(".")))
    return f"{start.value}:" + " ".join(out)


def _result(value: str, declarer: Seat | None) -> str:
    v = re.sub(r"\^\s+", "^", value.strip())
    if not TAG_SYNTAX["Result"].pattern.fullmatch(v) or declarer is None or v.lstrip("^").isdigit():
        return v
    caret = "^" if v.startswith("^") else ""
    given = dict(zip(re.findall(r"NS|EW", v), map(int, re.findall(r"\d+", v))))
    side = declarer.side.value
    if side in given:
        return f"{caret}{given[side]}"
    if len(given) == 1:  # the other side's tricks alone: the declarer's are the rest (§3.4.15)
        return f"{caret}{TRICKS - next(iter(given.values()))}"
    return v


def _value(name: str, value: str, game: PbnGame) -> str:
    """A mandatory tag's value in export form (§3.4, §3.11)."""
    v = value.strip() if name in ("Dealer", "Declarer", "Vulnerable", "Contract", "Deal", "Result") else value
    if name in ("Dealer", "Declarer") and TAG_SYNTAX[name].pattern.fullmatch(v):
        return v.upper()
    if name == "Vulnerable":
        return _VULNERABLE.get(v.lower(), v)
    if name == "Contract" and TAG_SYNTAX[name].pattern.fullmatch(v):
        c = v.upper()
        return "Pass" if c == "PASS" else c
    if name == "Deal":
        return _deal(v, _seat(game.value("Dealer")))
    if name == "Result":
        return _result(v, _seat((game.value("Declarer") or "").lstrip("^")))
    return value


class _Out:
    def __init__(self, game: PbnGame) -> None:
        self.lines: list[str] = []
        self.cur = ""
        self.game = game

    def word(self, text: str) -> None:
        self.cur = f"{self.cur} {text}" if self.cur else text

    def end(self) -> None:
        if self.cur:
            self.lines.append(self.cur)
            self.cur = ""

    def comment(self, c: str) -> None:
        c = c.replace("\t", " ").replace("\v", " ")
        if c.startswith("%"):
            self.end()
            self.lines.append(c)
        elif c.startswith(";"):
            self.word(c)
            self.end()
        elif "\n" in c:  # a brace comment over lines (§3.8) stays over them, each line its own
            self.end()
            for ln in c.split("\n"):
                self.lines.extend(textwrap.wrap(ln, _WRAP, break_long_words=False, break_on_hyphens=False,
                                                drop_whitespace=False) if len(ln) > _WRAP else [ln])
        elif len(self.cur) + len(c) + 1 + len(EOL) <= _WRAP:
            self.word(c)
        else:  # a brace comment may run over lines (§3.8): wrapped within the discouraged width
            self.end()
            for para in c.split("\n"):
                self.lines.extend(textwrap.wrap(para, _WRAP, break_long_words=False, break_on_hyphens=False) or [""])

    def tag(self, name: str, value: str, comments: Iterable[str] = ()) -> None:
        self.end()
        if "\t" in value or "\v" in value:
            raise InputError(self.game.where(), f"[{name}]: a tab in its value cannot be written in export format "
                                                "(§2.3: no tab, and none inside string data)")
        line = f'[{name} "{escape(value)}"]'
        if len(line) + len(EOL) > LINE_MAX:
            raise InputError(self.game.where(), f"[{name}]: a tag pair of {len(line)} characters cannot be written in "
                                                f"export format: a line is at most {LINE_MAX} with its end of line "
                                                "(§2.3)")
        self.lines.append(line)
        for c in comments:
            self.comment(c)
        self.end()


def _annotated(item: Item, section: str) -> str:
    text = "Pass" if item.text == "P" else item.text
    parts = [f"^{item.marker} {text}" if item.marker else text]
    if item.note is not None:
        parts.append(f"={item.note}=")
    nags = list(item.nags)
    if item.suffix:
        nags.append(SUFFIX_NAG[item.suffix] + (_PLAY_NAG if section == PLAY else 0))
    parts += [f"${n}" for n in sorted(nags)]
    return " ".join(parts)


def _items(sec: Section, out: _Out, skip: int) -> None:
    items = sec.items[skip:]
    for k, item in enumerate(items, start=1):
        out.word(_annotated(item, sec.kind))
        for c in item.comments:
            out.comment(c)
        if k % _PLACES == 0:
            out.end()
    out.end()
    for c in sec.comments:
        out.comment(c)
    out.end()


def _rows(t: Tag, out: _Out) -> None:
    sec = t.section
    if sec is None:  # (only a tag with section data is a section)
        return
    elements = [e for r in sec.rows for e in _ELEMENT.findall(r)]
    if t.name not in TABLES:  # a section of our own kind: its elements one space apart, its rows as read (§5.1)
        for r in sec.rows:
            out.lines.append(" ".join(_ELEMENT.findall(r)))
    else:
        columns = [_WIDTH.fullmatch(c.strip()) for c in t.value.split(";")]
        n = len(columns)
        for i in range(0, len(elements), n):
            cells = []
            for e, col in zip(elements[i:i + n], columns):
                width = int(col.group(2)) if col is not None and col.group(2) else 0
                cells.append(e.rjust(width) if col is not None and col.group(3) == "R" else e.ljust(width))
            out.lines.append(" ".join(cells).rstrip())
    for c in sec.comments:
        out.comment(c)
    out.end()


def write_export(game: PbnGame) -> str:
    """One game in export format (lines ending CR LF, no blank line after it); raises :class:`InputError` for
    what export format cannot hold."""
    out = _Out(game)
    for c in game.prologue:
        if not c.startswith("%"):  # (the escape lines of the file read are its own, not this export's)
            out.comment(c)
    out.end()
    first: dict[str, Tag] = {}
    for t in game.tags:
        first.setdefault(t.name, t)
        if not t.name[:1].isupper():
            raise InputError(f"{game.path}:{t.line}:{t.col}", f"[{t.name}] cannot be written in export format: a tag "
                                                              "name begins with an upper case letter (§3.3)")
    for name in MTS_ORDER:
        t = first.get(name)
        v = game.value(name)
        out.tag(name, "?" if v is None else _value(name, v, game), t.comments if t is not None else ())
    sections = {"Auction": first.get("Auction"), "Play": first.get("Play")}
    def has_rows(t: Tag) -> bool:
        return t.section is not None and t.section.kind == SUPPLEMENTAL and not t.section.empty()

    # each name once (§3.4): its first tag, a supplemental section or not as that one is (a repeat is the tag
    # §3.4 ignores); the tags of our own given several times are joined
    others = sorted((t for t in first.values() if t.name not in MANDATORY and t.name not in sections
                     and t.name != "Note" and not has_rows(t)), key=lambda t: t.name)
    for t in others:
        if t.name in JOINED_TAGS:
            same = [x for x in game.tags if x.name == t.name]
            out.tag(t.name, ";".join(x.value for x in same), [c for x in same for c in x.comments])
        else:
            v = game.value(t.name)
            out.tag(t.name, t.value if v is None else v, t.comments)
    dealer = _seat(game.value("Dealer"))
    notes_of = {"Auction": [], "Play": []}
    current = None
    for t in game.tags:
        if t.name in sections and t is sections[t.name]:
            current = t.name
        elif t.name == "Note" and current is not None:
            notes_of[current].append(t)
        elif t.name == "Note":
            raise InputError(f"{game.path}:{t.line}:{t.col}", f'[Note "{t.value}"] among the identification tags '
                                                              "cannot be written in export format: a note belongs in "
                                                              "the auction or play section (§3.5.5)")
    for name, t in sections.items():
        if t is None:
            continue
        seat = _seat(t.value)
        skip = 0
        sec = t.section or Section(AUCTION if name == "Auction" else PLAY)
        if name == "Auction" and dealer is not None and seat is not None:  # §3.5: from the dealer
            order = [seat, seat.lho, seat.partner, seat.rho]
            skip = order.index(dealer)
            if [i.text for i in sec.items[:skip]] != ["-"] * skip:
                skip = 0
            else:
                seat = dealer
        out.tag(name, seat.value if seat is not None else t.value, t.comments)
        _items(sec, out, skip)
        for note in notes_of[name]:
            out.tag("Note", note.value, note.comments)
    for t in sorted((t for t in first.values() if has_rows(t) and t.name not in MANDATORY and t.name != "Note"
                     and t.name not in sections), key=lambda t: t.name):
        out.tag(t.name, t.value, t.comments)
        _rows(t, out)
    out.end()
    for i, ln in enumerate(out.lines):
        if len(ln) + len(EOL) > LINE_MAX:
            raise InputError(game.where(), f"a line of {len(ln)} characters cannot be written in export format: a "
                                           f"line is at most {LINE_MAX} with its end of line (§2.3): {ln[:40]}…")
    return EOL.join(out.lines) + EOL


def export_bytes(text: str, where: str = "<pbn>") -> bytes:
    """Export text as a file's bytes: ISO 8859-1 (§2.2); a character it has not is refused at its line."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError as e:
        line = text.count("\n", 0, e.start) + 1
        raise InputError(f"{where}:{line}", f"{text[e.start]!r} is not in ISO 8859-1, the character set of PBN "
                                            "(§2.2): it cannot be written in export format") from None


def write_export_games(games: Iterable[PbnGame]) -> str:
    """Games as one PBN file in export format: the ``% PBN 2.1`` and ``% EXPORT`` lines, then the games, an
    empty line before each but the first (§3)."""
    return EXPORT_HEADER + EOL.join(write_export(g) for g in games)
