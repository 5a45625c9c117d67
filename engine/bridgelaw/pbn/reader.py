"""Read one PBN game from its text: tags (§3.3), commentary (§3.8), the auction (§3.5) and play (§3.6)
sections with their annotations (§3.5.2–§3.7) and irregularity markers (§3.9), supplemental sections
(§5, kept as rows), and tag value inheritance (§4.8).

Import format (§2.1): white space anywhere between the tokens of a tag pair, a tag pair over several
lines or several on one line, tags in any order, lower case where §3.11 allows it, calls and cards
continued on the next line. A game that breaks the standard is refused with ``path:line:col`` and what
was expected; the file's other games are read all the same.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ..errors import InputError
from .markers import MARKERS
from .model import AUCTION, PLAY, SUPPLEMENTAL, Item, PbnGame, PlainTags, Section, Tag
from .text import GameText
from .values import (EMBEDDING, TABLES, TAGS_ALONE, alone_warning, commentary_warning, line_warning, pair_warnings,
                     section_token_warning, table_warnings, value_warnings, version_warning)

__all__ = ["parse_game", "Inheritance", "NO_INHERITANCE", "unescape"]

_TOKEN = re.compile(r"""
 (?P<esc>(?<![^\n])%[^\n]*)
|(?P<ws>[ \t\n\v]+)
|(?P<semi>;[^\n]*)
|(?P<brace>\{[^}]*\}?)
|(?P<tag>\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
|(?P<string>"(?:[^"\\\n]|\\.)*")
|(?P<oddws>\s)
|(?P<word>[^\s\[\]{};"]+)
|(?P<other>.)
""", re.X)
# a tag whose value holds a quote the writer did not escape: the value runs to the last quote before "]"
_LOOSE_TAG = re.compile(r'\[\s*(?P<name>[A-Za-z0-9_]+)\s*"(?P<value>[^\n]*)"\s*\]')
_SUB = re.compile(r"\^(?P<mark>.?)|(?P<tok>[A-Za-z0-9-]+)|(?P<suffix>[!?]{1,2})|=(?P<note>\d+)=|\$(?P<nag>\d+)"
                  r"|(?P<end>[*+])|(?P<bad>.)")
_CALL = re.compile(r"^(?:AP|PASS|P|X|XX|DBL|RDBL|-|[1-7](?:C|D|H|S|NT|N|R))$")
_CARD = re.compile(r"^(?:[SHDC](?:[AKQJT2-9]|10)|-)$")
_ESCAPED = re.compile(r'\\([\\"])')
# Pass as P; Dbl and Rdbl (not PBN, but written by some programs, and unambiguous) as X and XX
_CALL_SPELLING = {"PASS": "P", "P": "P", "DBL": "X", "RDBL": "XX"}
_PLAIN_LINE = re.compile(r"[A-Za-z0-9 \t]*(?=\n|$)")  # a line's rest with no annotation, marker or comment
_WORD = re.compile(r"\S+")
_PLAIN_CARD = {s + r: s + r for s in "SHDC" for r in "AKQJT98765432"}
_PLAIN_CALL = {**{f"{lv}{s}": f"{lv}{s}" for lv in "1234567" for s in ("C", "D", "H", "S", "R", "NT")},
               "Pass": "P", "X": "X", "XX": "XX", "AP": "AP"}

# §4.8: "#" is forbidden for these (and for the note tags); so are the tags of ours that name places in
# the sections
NO_INHERITANCE = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note",
                            "BridgelawRemedy", "BridgelawEvent"})


def _materialize_last(sec: Section) -> Item | None:
    """The section's last call or card as an :class:`Item` (kept as a plain tuple until something is added)."""
    e = sec.entries
    if e and type(e[-1]) is tuple:
        x = e[-1]
        e[-1] = Item(x[0], None, None, None, (), (), x[1], x[2], x[3])  # type: ignore[index]
    return e[-1] if e else None  # type: ignore[return-value]


def unescape(value: str) -> str:
    """A string token's value (§3.2): ``\\"`` is a quote, ``\\\\`` a backslash; any other backslash stays."""
    return _ESCAPED.sub(r"\1", value) if "\\" in value else value


@dataclass
class Inheritance:
    """§4.8 across the games of one file: the last real value of each tag, and the ``##`` values."""

    last: dict[str, str] = field(default_factory=dict)
    sticky: dict[str, str] = field(default_factory=dict)

    def resolve(self, game: PbnGame) -> None:
        if not self.sticky:
            first = game.tag_values()
            if "#" not in "".join(first.values()):  # the common case: nothing to resolve (no # anywhere in them)
                self.last.update(first)
                return
        seen: set[str] = set()
        for t in game.tags:
            if t.name in seen:
                continue
            seen.add(t.name)
            v = t.value
            if v == "#" or v.startswith("##"):  # §4.8: the value "#", or one beginning with ##; "#1 Club" is a value
                if t.name in NO_INHERITANCE:
                    raise InputError(f"{game.path}:{t.line}:{t.col}",
                                     f"[{t.name} \"{v}\"]: §4.8 forbids # for the {t.name} tag; give its value")
                if v.startswith("##"):
                    self.sticky[t.name] = v[2:]
                    resolved = v[2:]
                else:
                    resolved = self.last.get(t.name, "")
                game.inherited[t.name] = resolved
            else:
                resolved = v
                if t.name in self.sticky:  # a ## value redefined in mid-file holds from here on
                    self.sticky[t.name] = v
            self.last[t.name] = resolved
        for name, v in self.sticky.items():
            if name not in seen:
                game.inherited[name] = v
                self.last[name] = v


class _Game:
    """The state of reading one game."""

    def __init__(self, gt: GameText, path: str) -> None:
        self.text = gt.text
        self.first = gt.line
        self.path = path
        starts = [0]
        for ln in gt.lines:
            starts.append(starts[-1] + len(ln) + 1)
        starts.append(1 << 62)
        self.starts = starts
        self.at = 0
        self.game = PbnGame(path=path, index=gt.index, line=gt.line,
                            lead=tuple("\n".join(lines) for _, lines in gt.lead),
                            warnings=[f"{path}:{w}" for w in gt.warnings])

    def pos(self, offset: int) -> tuple[int, int]:
        starts, i = self.starts, self.at
        if offset < starts[i]:  # the tokens come in order: walk on from the last line; else search
            i = bisect.bisect_right(starts, offset) - 1
        else:
            while starts[i + 1] <= offset:
                i += 1
        self.at = i
        return self.first + i, offset - starts[i] + 1

    def error(self, offset: int, message: str) -> InputError:
        line, col = self.pos(offset)
        return InputError(f"{self.path}:{line}:{col}", message)


_SIMPLE_MARKS = {AUCTION: frozenset({"^I"}), PLAY: frozenset({"^R", "^L"})}


def _simple_game(gt: GameText, path: str) -> PbnGame | None:
    """A game in the plainest export format: each line a tag pair alone (no escape, no comment), or after
    ``[Auction]`` / ``[Play]`` a line of plain calls or cards one space apart (``^I``, ``^S``, ``^R``, ``^L``
    before one; the last may be ``*``). What the full reader gives for it, positions and all; None for any
    other game (the full reader reads it, and names what is wrong). Its tag pairs are kept as they were found
    (:class:`PlainTags`: the tags are made when asked for), and an auction of plain calls alone, or the usual
    lines of play, four cards, as they stand (:meth:`Section.add_plain_lines`)."""
    if not gt.lines:
        return None
    text = gt.text
    first = gt.line
    pairs: list[tuple[str, str]] = []
    runs: list[tuple[int, int]] = []
    sections: dict[int, Section] = {}  # the auction and play sections made, by their tag's place
    n = len(text)
    pos = row = 0  # (row: the game's line where pos is)
    while True:
        # a run of tag lines, matched at once
        m = _TAG_RUN.match(text, pos)
        if m is None:
            return None  # a line of calls or cards with no section tag before it
        block = m.group()
        found = _TAG_LINES.findall(block)
        k = block.count("\n") + 1
        if len(found) != k:
            return None
        at = len(pairs)
        runs.append((at, first + row))
        if '[Auction "' in block or '[Play "' in block:
            kind = _SECTION_OF.get(found[-1][0])
            if kind is not None and block.count('[Auction "') + block.count('[Play "') == 1:
                sections[at + k - 1] = Section(kind)  # (the usual: the run's last tag, its body after it)
            else:  # (a section tag before another tag, or a value that spells one)
                for i, (name, _) in enumerate(found, at):
                    kind = _SECTION_OF.get(name)
                    if kind is not None:
                        sections[i] = Section(kind)
        pairs.extend(found)
        row += k
        pos = m.end() + 1
        if pos > n:
            break
        # the calls or cards after the last of them
        b = _BODY_RUN.match(text, pos)
        if b is None:
            return None  # (an empty line: a game of a brace comment)
        sec = sections.get(len(pairs) - 1)
        if sec is None:
            return None
        body = b.group()
        k = body.count("\n") + 1
        if sec.kind == PLAY:
            star = body.endswith("\n*")
            core = body[:-2] if star else body
            marked = None
            if _USUAL_PLAY.fullmatch(core) is None:
                bare = _MARKS_OFF.sub("", core) if "^" in core else None
                if bare is not None and _USUAL_PLAY.fullmatch(bare) is not None:  # markers before cards alone
                    marked = {j: ln for j, ln in enumerate(core.split("\n")) if "^" in ln}
                    core = bare
                else:
                    core = None  # type: ignore[assignment]
            if core is not None:
                # the usual lines of play, four cards each (their markers kept aside)
                sec.add_plain_lines(core.split("\n"), first + row, None, marked)
                if star:
                    sec.stop = 0
                    sec._entries.append(Item("*", raw="*", line=first + row + k - 1, col=1))
            elif not _section_lines(sec, gt.lines, row, row + k, first):
                return None
        elif _PLAIN_CALLS.fullmatch(body) is not None:
            sec.add_plain_lines(body.split("\n"), first + row, _PLAIN_CALL)  # plain calls alone: as they stand
        elif not _section_lines(sec, gt.lines, row, row + k, first):
            return None
        row += k
        pos = b.end() + 1
        if pos > n:
            break
    for sec in sections.values():
        if sec.stop == -1:
            sec.stop = None
    return PbnGame.plain(PlainTags(pairs, runs, sections), path, gt.index, gt.line,
                         tuple(["\n".join(lines) for _, lines in gt.lead]) if gt.lead else (),
                         [f"{path}:{w}" for w in gt.warnings] if gt.warnings else [])


def _section_lines(sec: Section, lines: list[str], i: int, j: int, first: int) -> bool:
    """Lines ``i`` to ``j`` of a section, plain calls or cards one space apart (markers before them, ``*``
    last): their entries; False for any other line."""
    table = _PLAIN_CARD if sec.kind == PLAY else _PLAIN_CALL
    markers = _SIMPLE_MARKS[sec.kind]
    append = sec.entries.append
    ended = False
    for number in range(first + i, first + j):
        ln = lines[number - first]
        if ended or not ln or ln[0] == " " or "  " in ln or "\t" in ln:
            return False
        words = ln.split(" ")
        col = 1
        if all(map(table.__contains__, words)):  # the common line: plain calls or cards alone
            for w in words:
                append((table[w], w, number, col))
                col += len(w) + 1
            continue
        marker = None
        for w in words:
            x = table.get(w)
            if ended:
                return False
            if x is not None:
                append((x, w, number, col) if marker is None else Item(x, marker, raw=w, line=number, col=col))
                marker = None
            elif marker is not None:
                return False
            elif w == "*":
                sec.stop = len(sec.entries)
                append(Item("*", raw="*", line=number, col=col))
                ended = True
            elif w == "^S" and sec.kind == AUCTION:
                append(Item("^S", raw="^S", line=number, col=col))
            elif w in markers:
                marker = w[1]
            else:
                return False
            col += len(w) + 1
        if marker is not None:  # a marker ends the line: the full reader says whether a call follows
            return False
    return True


_SECTION_OF = {"Auction": AUCTION, "Play": PLAY}
_TAG_LINES = re.compile(r'^\[([A-Z][A-Za-z0-9_]*) "([^"\\\n]*)"\]$', re.M)  # (any other name: the full reader)
_USUAL_PLAY = re.compile(r"(?:[SHDC][AKQJT2-9] [SHDC][AKQJT2-9] [SHDC][AKQJT2-9] [SHDC][AKQJT2-9](?:\n|\Z))+")
_MARKS_OFF = re.compile(r"(?<![^ \n])\^[RL] (?=[SHDC][AKQJT2-9](?![^ \n]))")  # ^R, ^L before a card, one space apart
_TAG_RUN = re.compile(r"\[[^\n]*(?:\n\[[^\n]*)*")  # lines that begin with [
_BODY_RUN = re.compile(r"[^\[\n][^\n]*(?:\n[^\[\n][^\n]*)*")  # lines that do not (and are not empty)
# lines of nothing but the spellings of _PLAIN_CALL, one space apart
_ONE_CALL = "(?:" + "|".join(sorted(map(re.escape, _PLAIN_CALL), key=len, reverse=True)) + ")"
_PLAIN_CALLS = re.compile(f"{_ONE_CALL}(?:[ \n]{_ONE_CALL})*")


def parse_game(gt: GameText, path: str = "<pbn>", inheritance: Inheritance | None = None) -> PbnGame:
    """One game from its text; raises :class:`InputError` at ``path:line:col`` where it breaks the standard."""
    game = _simple_game(gt, path)
    if game is None:
        game = _parse_full(gt, path)
    if len(game.tag_values()) != game.tag_count():  # a name given twice
        for seen, again in game.repeated():
            game.warnings.append(f"{path}:{again.line}:{again.col}: [{again.name} \"{again.value}\"] repeats "
                                 f"[{seen.name} \"{seen.value}\"] of line {seen.line} with another value: the first "
                                 "is read (§3.4: a tag pair that already occurred is ignored)")
    if game.notes_used or "Note" in game.tag_values():
        _check_notes(game, path)
    # the value syntax (§3.4, §4), when the game is read: a plain game's tags looked at, not kept (the game makes
    # its own when they are asked for)
    plain = game._plain
    said = value_warnings(game.tags, path) if plain is None else pair_warnings(plain.pairs, plain.place, path, True)
    long = line_warning(gt.lines, gt.line, path)
    if long:
        said.insert(0, long)
    for start, lines in gt.lead:  # the file's header: its version line (§2.4, §4.10), and no control character
        for i, ln in enumerate(lines):
            if ln[:1] == "%":
                v = version_warning(ln, f"{path}:{start + i}:1")
                if v:
                    said.insert(0, v)
            if not ln.isprintable():
                v = commentary_warning(ln, f"{path}:{start + i}:1")
                if v:
                    said.insert(0, v)
    if said:
        game.warnings.extend(said)
    if inheritance is not None:
        inheritance.resolve(game)
    return game


# the tags a game is read by (a name that is one of them but for its case is said)
_READ_TAGS = ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play", "Note", "Board",
              "BridgelawCode", "Code", "BridgelawRemedy", "BridgelawEvent")
_NOTE_VALUE = re.compile(r"\s*(\d+)\s*:")


def _check_notes(game: PbnGame, path: str) -> None:
    """§3.5.4–§3.5.5, §3.6.4–§3.6.5: a note index is 1 to 32; a Note tag is ``"<index>:<text>"``, placed in the
    auction or play section whose calls or cards refer to it, one tag an index there; each reference has its
    tag. A note explains a call or card and rules nothing, so what breaks this is said on the board (the
    warnings), not refused."""
    say = game.warnings.append
    notes: dict[str, dict[int, Tag]] = {AUCTION: {}, PLAY: {}}
    where: str | None = None
    for t in game.tags:
        if t.name in ("Auction", "Play"):
            where = AUCTION if t.name == "Auction" else PLAY
        if t.name != "Note":
            continue
        at = f"{path}:{t.line}:{t.col}: [Note \"{t.value}\"]"
        m = _NOTE_VALUE.match(t.value)
        if m is None:
            say(f"{at}: expected \"<index>:<text>\", the index of the note a call or card refers to (§3.5.5)")
            continue
        k = int(m.group(1))
        if not 1 <= k <= 32:
            say(f"{at}: a note index is 1 to 32 (§3.5.4)")
        if where is None:
            say(f"{at}: a Note tag belongs in the auction or play section whose calls or cards refer to it, not "
                "among the identification tags (§3.5.5)")
            continue
        seen = notes[where].get(k)
        if seen is not None:
            say(f"{at}: a second note {k} in the {where} section (the first at line {seen.line}): the Note tags of "
                "a section differ in their index (§3.5.5)")
        else:
            notes[where][k] = t
    for kind, k, line, col in game.notes_used:
        if not 1 <= k <= 32:
            say(f"{path}:{line}:{col}: ={k}=: a note index is 1 to 32 (§3.5.4)")
        elif k not in notes[kind]:
            say(f"{path}:{line}:{col}: ={k}= refers to no [Note \"{k}:…\"] in the {kind} section (§3.5.5)")


def _parse_full(gt: GameText, path: str) -> PbnGame:
    g = _Game(gt, path)
    game = g.game
    text = g.text
    prologue: list[str] = []
    tag: Tag | None = None
    sec: Section | None = None
    last: Item | None = None       # the call or card annotations and commentary attach to
    marker: tuple[str, int] | None = None   # a §3.9 marker waiting for its call or card
    row: list[int] = []            # a supplemental section's row: [line, start, end]
    ended: int | None = None       # offset of the * that ended the section

    rows_at: list[tuple[str, int, int]] = []  # a named table's rows with where each begins (§5.2 checks)

    def flush_row() -> None:
        if row and sec is not None:
            sec.rows.append(text[row[1]:row[2]])
            if tag is not None and tag.name in TABLES:
                rows_at.append((sec.rows[-1], *g.pos(row[1])))
            row.clear()

    def close_section(offset: int) -> None:
        if marker is not None:
            raise g.error(marker[1], f"the marker ^{marker[0]} is followed by no "
                                     f"{'call' if sec and sec.kind == AUCTION else 'card'} (§3.9: it precedes one)")
        flush_row()
        if sec is not None and sec.stop == -1:
            sec.stop = None
        if sec is not None and sec.kind == SUPPLEMENTAL and tag is not None and tag.name in TABLES:
            game.warnings.extend(table_warnings(tag.name, tag.value, rows_at, f"{g.path}:{tag.line}:{tag.col}",
                                                g.path))
            rows_at.clear()

    pos = 0
    n = len(text)
    while pos < n:
        if sec is not None and sec.kind != SUPPLEMENTAL and marker is None and ended is None:
            # the common case, a line of plain cards or calls: the rest of the line at once
            plain = _PLAIN_LINE.match(text, pos)
            if plain is not None and plain.end() > pos:
                end = plain.end()
                table = _PLAIN_CARD if sec.kind == PLAY else _PLAIN_CALL
                words = text[pos:end].split()
                if all(w in table for w in words):
                    line, col0 = g.pos(pos)
                    base = pos - col0
                    append = sec.entries.append
                    for w in _WORD.finditer(text, pos, end):
                        x = w.group()
                        append((table[x], x, line, w.start() - base))
                    last = None  # (an annotation or comment after them takes the slow path below)
                    pos = end
                    continue
        m = _TOKEN.match(text, pos)
        if m is None:  # pragma: no cover - the last alternative takes any character
            break
        kind = m.lastgroup
        start, pos = m.start(), m.end()
        if kind == "ws":
            continue
        if kind == "oddws":  # white space to Python, not to PBN (§3.2: space, tab, newline): read as a space, said
            ch = m.group()
            game.warnings.append(f"{g.path}:{':'.join(map(str, g.pos(start)))}: {ch!r} (code {ord(ch)}) between "
                                 "tokens is not PBN white space (§3.2: space, tab and newline): read as a space")
            continue
        if kind == "esc" or kind == "semi" or kind == "brace":
            c = m.group()
            if kind == "brace" and not c.endswith("}"):
                raise g.error(start, "a { comment is never closed with } (§3.8)")
            if sec is not None and sec.kind != SUPPLEMENTAL and last is None:
                last = _materialize_last(sec)
            if kind == "esc" and c.startswith("%"):
                said = version_warning(c, f"{g.path}:{':'.join(map(str, g.pos(start)))}")
                if said:
                    game.warnings.append(said)
            if not c.isprintable():  # (a brace comment over lines holds their ends, which are allowed)
                said = commentary_warning(c, f"{g.path}:{':'.join(map(str, g.pos(start)))}")
                if said:
                    game.warnings.append(said)
            if sec is not None and sec.kind != SUPPLEMENTAL and last is not None:
                last.comments += (c,)
            elif sec is not None and sec.kind == SUPPLEMENTAL and (sec.rows or row):
                sec.comments += (c,)
                if kind != "esc":  # (a % line is the escape of §2.4, not commentary)
                    at = ":".join(map(str, g.pos(start)))
                    game.warnings.append(f"{g.path}:{at}: [{tag.name if tag else ''}]: commentary after a section "
                                         "element (§5.1 forbids it): kept, not read")
            elif tag is not None:
                tag.comments += (c,)
            else:
                prologue.append(c)
            continue
        if kind == "tag" or kind == "other" and text[start] == "[":
            if kind == "tag":
                name, value = m.group("name"), unescape(m.group("value"))
            else:
                loose = _LOOSE_TAG.match(text, start)
                if loose is None:
                    raise g.error(start, 'not a tag pair: expected [Name "value"] — a name, a quoted value '
                                         "and ] (§3.3)")
                name, value = loose.group("name"), loose.group("value")
                pos = loose.end()
                game.warnings.append(f"{g.path}:{':'.join(map(str, g.pos(start)))}: [{name}] has an unescaped "
                                     'quote in its value (§3.2: \\")')
            if sec is not None:
                close_section(start)
            line, col = g.pos(start)
            if not name[0].isupper():  # §3.3: names are case sensitive, and begin with an upper case letter
                known = next((k for k in _READ_TAGS if k.lower() == name.lower()), None)
                game.warnings.append(f"{g.path}:{line}:{col}: [{name}]: a tag name begins with an upper case letter "
                                     "and is case sensitive (§3.3)" + (f": this is not [{known}], and is not read as "
                                                                      "it" if known else ""))
            tag = Tag(name, value, line=line, col=col)
            game.tags.append(tag)
            last, ended = None, None
            sec = Section(AUCTION) if name == "Auction" else Section(PLAY) if name == "Play" else None
            tag.section = sec
            continue
        if kind == "string" or kind == "word":
            if m.group() in EMBEDDING:
                raise g.error(start, f"{m.group()} delimits PBN text embedded in another document (§6.2); it does not "
                                     "occur in a PBN file: expected the PBN text without it")
            if tag is None:
                raise g.error(start, f"{m.group()!r} before the first tag: a game begins with tag pairs "
                                     '[Name "value"] (§3.3)')
            if sec is None:
                sec = Section(SUPPLEMENTAL)
                tag.section = sec
                if tag.name in TAGS_ALONE:
                    game.warnings.append(alone_warning(tag.name, f"{g.path}:{':'.join(map(str, g.pos(start)))}"))
            if sec.kind == SUPPLEMENTAL:  # §4.9, §5: kept as rows, not interpreted
                if kind == "word":
                    said = section_token_warning(m.group(), tag.name, f"{g.path}:{':'.join(map(str, g.pos(start)))}")
                    if said:
                        game.warnings.append(said)
                line = g.pos(start)[0]
                if row and row[0] != line:
                    flush_row()
                if not row:
                    row.extend([line, start, pos])
                row[2] = pos
                continue
            if kind == "string":
                raise g.error(start, f"a string in the {sec.kind} section: expected "
                                     + ("calls (§3.5.1)" if sec.kind == AUCTION else "cards (§3.6.1)"))
            word = m.group()
            if marker is None and ended is None:
                plain = _PLAIN_CARD.get(word) if sec.kind == PLAY else _PLAIN_CALL.get(word)
                if plain is not None:  # the common case: a card or call alone
                    line, col = g.pos(start)
                    last = Item(plain, raw=word, line=line, col=col)
                    sec.entries.append(last)
                    continue
            for sm in _SUB.finditer(word):
                at = start + sm.start()
                sub = sm.lastgroup
                if ended is not None and sub in ("tok", "mark", "end"):
                    raise g.error(at, f"{sm.group()!r} after the * that ends the {sec.kind} section at "
                                      + ":".join(map(str, g.pos(ended))) + " (§3.5, §3.6)")
                if sub == "mark":
                    mk = sm.group("mark").upper()
                    spec = MARKERS.get(mk)
                    if spec is None:
                        raise g.error(at, f"^{sm.group('mark')} is no irregularity: §3.9 has ^I, ^S (the "
                                          "auction) and ^R, ^L (the play)")
                    if spec.section != sec.kind:
                        raise g.error(at, f"^{mk} marks {'a call' if spec.section == AUCTION else 'a card'} "
                                          f"(§3.9), not a {'call' if sec.kind == AUCTION else 'card'}")
                    if marker is not None:
                        raise g.error(at, f"^{mk} follows ^{marker[0]}: a marker precedes a "
                                          f"{'call' if sec.kind == AUCTION else 'card'} (§3.9)")
                    if spec.takes_place:  # ^S stands in the skipped player's place
                        line, col = g.pos(at)
                        last = Item("^S", raw=sm.group(), line=line, col=col)
                        sec.entries.append(last)
                    else:
                        marker = (mk, at)
                elif sub == "tok" or sub == "end":
                    raw = sm.group()
                    t = raw.upper()
                    if sub == "tok":
                        if sec.kind == AUCTION:
                            if not _CALL.match(t):
                                raise g.error(at, f"{raw!r} is not a call: Pass, X, XX, AP, 1C … 7NT (§3.5.1), or "
                                                  "- for a player before the dealer")
                            t = _CALL_SPELLING.get(t) or (t[:-1] + "NT" if t.endswith("N") and t[0].isdigit() else t)
                        else:
                            if not _CARD.match(t):
                                raise g.error(at, f"{raw!r} is not a card: a suit S H D C and a rank A K Q J T 9 … 2 "
                                                  "(§3.6.1), or - for a card not known")
                            if t.endswith("10"):
                                t = t[0] + "T"
                    else:
                        ended = at if t == "*" else None
                    line, col = g.pos(at)
                    last = Item(t, raw=raw, line=line, col=col)
                    if marker is not None:
                        if sub == "end" or t == "-":
                            raise g.error(marker[1], f"^{marker[0]} marks a "
                                                     f"{'call' if sec.kind == AUCTION else 'card'}, not {raw!r}")
                        last.marker = marker[0]
                        marker = None
                    if sub == "end" and sec.stop == -1:
                        sec.stop = len(sec.entries)
                    sec.entries.append(last)
                elif sub == "bad":
                    raise g.error(at, f"{sm.group()!r} is not part of a "
                                      f"{'call' if sec.kind == AUCTION else 'card'} or its annotation "
                                      "(a suffix ! ?, a note =1=, a NAG $1)")
                else:  # an annotation of the call or card before it (§3.5.2, §3.6.2)
                    if last is None:
                        last = _materialize_last(sec)
                    if last is None or last.text in ("^S", "*", "+"):
                        raise g.error(at, f"the annotation {sm.group()!r} follows no "
                                          f"{'call' if sec.kind == AUCTION else 'card'}")
                    if sub == "suffix":
                        if last.suffix is not None:
                            raise g.error(at, f"a second suffix {sm.group()!r}: at most one a "
                                              f"{'call' if sec.kind == AUCTION else 'card'} (§3.5.2, §3.6.2)")
                        last.suffix = sm.group()
                    elif sub == "note":
                        k = int(sm.group("note"))
                        if last.note is not None:
                            raise g.error(at, f"a second note reference ={k}=: at most one a "
                                              f"{'call' if sec.kind == AUCTION else 'card'} (§3.5.4)")
                        last.note = k
                        game.notes_used.append((sec.kind, k, *g.pos(at)))
                    else:
                        k = int(sm.group("nag"))
                        if k > 255:
                            raise g.error(at, f"${k}: a NAG is 0 to 255 (§3.7)")
                        last.nags += (k,)
            continue
        # kind == "other"
        ch = text[start]
        raise g.error(start, {"]": "a ] that closes no tag pair",
                              "}": "a } that closes no { comment"}.get(ch, f"{ch!r} is not allowed here (§2.2, §3.2)"))
    if sec is not None:
        close_section(n)
    game.prologue = tuple(prologue)
    return game
