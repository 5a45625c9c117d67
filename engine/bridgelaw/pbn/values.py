"""The value syntax the standard gives a tag (§3.4, §4) or a table's column (§5), as data, and the checks a game
is read against when it is read (not when a field is asked).

Import format is lenient (§2.1): a value the standard does not allow is read as written, passed through
byte-exact, and said on the game (``path:line:col: [Tag "value"]: expected … (§x.y)``); the replay refuses a
value it cannot read where it uses it (:mod:`.tags`). Every number here is the standard's, cited at its clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Sequence

__all__ = ["Syntax", "TAG_SYNTAX", "MANDATORY", "TABLES", "COLUMN_SYNTAX", "value_warnings", "pair_warnings",
           "version_warning", "table_warnings", "SCORE_TAGS", "LINE_MAX", "line_warning", "EMBEDDING",
           "section_token_warning", "commentary_warning", "alone_warning", "TAGS_ALONE"]

#: The Mandatory Tag Set (§3.4): "?" is a value not known, "" one inappropriate.
MANDATORY = frozenset(("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
                       "Deal", "Scoring", "Declarer", "Contract", "Result"))
LINE_MAX = 255        # §2.3: a text line is at most 255 characters, the end-of-line indicator (CRLF) included
_EOL = 2              # §2.3: the export format's end of line, CR LF
VERSION = (2, 1)      # the version of the standard this reader is written from (shared/standards/pbn-2.1.txt)
TRICKS = 13           # §3.4.15: <result> = 0 .. 13
PERCENT = 100         # §4.2.4: a decimal value between 0 and 100
#: The tags of §4.2 that give a deal's score in points (ScoreIMP, ScoreMP and ScorePercentage compare it with
#: other tables'; OptimumScore is the double-dummy par): under a [Scoring] method, all of them the contract game's.
SCORE_TAGS = ("Score", "ScoreRubber")
#: §6.2: the delimiters of PBN text embedded in another document; they do not occur in a PBN file itself.
EMBEDDING = frozenset(("<PBN>", "</PBN>"))


@dataclass(frozen=True)
class Syntax:
    """A value's syntax: the clause that gives it, what would be right (said when a value breaks it), the
    pattern a value matches whole, and a further check (a message, or None)."""

    clause: str
    expected: str
    pattern: re.Pattern[str]
    check: Callable[[str], str | None] | None = None
    usual: re.Pattern[str] | None = None  # the usual spelling, matched first for speed (it implies the pattern)

    def judge(self, value: str) -> str | None:
        if self.usual is not None and self.usual.fullmatch(value):
            return None
        if not self.pattern.fullmatch(value):
            return f"expected {self.expected} (§{self.clause})"
        return self.check(value) if self.check else None


_RANK = r"(?:10|[AKQJT2-9])"
_HAND = rf"(?:-|{_RANK}*\.{_RANK}*\.{_RANK}*\.{_RANK}*)"
_DIRECTION = "W, N, E or S"
_SIDES = re.compile(r"(NS|EW)\s")


def _sides_differ(value: str) -> str | None:
    sides = _SIDES.findall(value + " ")
    return "one side given twice" if len(sides) == 2 and sides[0] == sides[1] else None


def _result(value: str) -> str | None:
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    if any(n > TRICKS for n in numbers):
        return f"expected the tricks won by the declarer, 0 to {TRICKS} (§3.4.15)"
    if _sides_differ(value):
        return ("expected the tricks won by the declarer, or NS <n>, EW <n>, or both sides', each side once "
                "(§3.4.15)")
    if len(numbers) == 2 and sum(numbers) > TRICKS:  # fewer is a partial result (§3.4.15, its last paragraph)
        return f"the two sides won {sum(numbers)} tricks; a deal has {TRICKS} (§3.4.15)"
    return None


def _percentage(value: str) -> str | None:
    if any(float(n) > PERCENT for n in re.findall(r"\d+(?:\.\d+)?", value)):
        return f"a percentage is 0 to {PERCENT} (§4.2.4)"
    return _sides_differ(value)


def _scores(score: str) -> str:
    """§4.2.1's five formats: <score>, EW <score>, NS <score>, EW <score> NS <score>, NS <score> EW <score>."""
    return rf"\s*(?:{score}|(?:NS|EW)\s+{score}(?:\s+(?:NS|EW)\s+{score})?)\s*"


_FIVE = "<score>, NS <score>, EW <score>, or both sides'"
_DATE = Syntax("3.4.3", "YYYY.MM.DD, a ? for each digit not known", re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}"))
_TIME = r"[0-9?]{2}:[0-9?]{2}:[0-9?]{2}"


def _syntax(clause: str, expected: str, pattern: str, flags: int = 0,
            check: Callable[[str], str | None] | None = None) -> Syntax:
    return Syntax(clause, expected, re.compile(pattern, flags), check)


#: The tags whose value the standard specifies. A tag of free text (Event, Site, the players, Scoring — "open
#: ended", §3.4.12 —, DealId, Annotator, Mode, Termination, Application, …) is not here: it is read as written.
#: ``re.I`` where §3.11 lets the import format write lower case.
TAG_SYNTAX: dict[str, Syntax] = {
    "Date": _DATE,  # (Deal's usual spelling is set below)
    "Board": _syntax("3.4.4", "a positive integer", r"\s*[1-9][0-9]*\s*"),
    "Dealer": _syntax("3.4.9", _DIRECTION, r"\s*[WNES]\s*", re.I),
    "Vulnerable": _syntax("3.4.10", "None, Love, -, NS, EW, All or Both", r"\s*(?:None|Love|-|NS|EW|All|Both)\s*",
                          re.I),
    "Deal": _syntax("3.4.11", "<first>:<hand> <hand> <hand> <hand>, <first> W, N, E or S and each hand its "
                              "spades.hearts.diamonds.clubs ranks (A K Q J T 9 … 2), or - for a hand not given",
                    rf"\s*[WNES]\s*:\s*{_HAND}(?:\s+{_HAND}){{3}}\s*", re.I),
    "Declarer": _syntax("3.4.13", f"{_DIRECTION}, a ^ before it for the declarer and dummy swapped",
                        r"\s*\^?[WNES]\s*", re.I),
    # (a denomination alone is an end position's trump, §3.10: checked against the deal by value_warnings)
    "Contract": _syntax("3.4.14", "Pass, or <level 1-7><S, H, D, C or NT>[X or XX]",
                        r"\s*(?:Pass|[1-7](?:[SHDC]|NT)(?:XX?)?|[SHDC]|NT)\s*", re.I),
    "Result": _syntax("3.4.15", "the tricks won by the declarer, or NS <n>, EW <n>, or both sides' (a ^ before a "
                                "result that differs from the tricks won)",
                      r"\s*\^?\s*(?:\d+|(?:NS|EW)\s+\d+(?:\s+(?:NS|EW)\s+\d+)?)\s*", check=_result),
    "Auction": _syntax("3.5", _DIRECTION, r"\s*[WNES]\s*", re.I),
    "Play": _syntax("3.6", _DIRECTION, r"\s*[WNES]\s*", re.I),
    "FrenchMP": _syntax("4.1.4", "Yes or No", "Yes|No"),
    "Hidden": _syntax("4.1.6", "the directions to hide, of W, N, E and S", "[WNES]*"),
    "Room": _syntax("4.1.7", "Open or Closed", "Open|Closed"),
    "Score": _syntax("4.2.1", f"{_FIVE} (<score> an integer number of points)", _scores(r"-?\d+"),
                     check=_sides_differ),
    "ScoreIMP": _syntax("4.2.2", f"{_FIVE} (<score> IMPs, a decimal dot in a broken number)",
                        _scores(r"-?\d+(?:\.\d+)?"), check=_sides_differ),
    "ScoreMP": _syntax("4.2.3", f"{_FIVE} (<score> MatchPoints, a decimal dot in a broken number)",
                       _scores(r"-?\d+(?:\.\d+)?"), check=_sides_differ),
    "ScorePercentage": _syntax("4.2.4", f"{_FIVE} (<score> a percentage, 0 to 100)", _scores(r"\d+(?:\.\d+)?"),
                               check=_percentage),
    "ScoreRubber": _syntax("4.2.5", f"{_FIVE} (<score> <above the line>/<below the line>)", _scores(r"\d+/\d+"),
                           check=_sides_differ),
    "ScoreRubberHistory": _syntax("4.2.6", "NS <history> EW <history>, each <above previous> <above current>/"
                                           "<below 1> [<below 2> [<below 3>]]",
                                  r"\s*(?:NS|EW)\s+\d+\s+\d+/\d+(?:\s+\d+){0,2}\s+(?:NS|EW)\s+\d+\s+\d+/\d+"
                                  r"(?:\s+\d+){0,2}\s*", check=_sides_differ),
    "OptimumScore": _syntax("4.2.7", "NS <score>, EW <score>, or both sides' (<score> an integer number of points)",
                            r"\s*(?:NS|EW)\s+-?\d+(?:\s+(?:NS|EW)\s+-?\d+)?\s*", check=_sides_differ),
    "EventDate": Syntax("4.4.1", _DATE.expected, _DATE.pattern),
    "Round": _syntax("4.4.4", "letters, digits and underscores, parts separated by periods",
                     r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*"),
    "Time": _syntax("4.5.1", "HH:MM:SS", _TIME),
    "UTCDate": Syntax("4.5.2", _DATE.expected, _DATE.pattern),
    "UTCTime": _syntax("4.5.3", "HH:MM:SS", _TIME),
    "TimeControl": _syntax("4.6.1", '<games>/<minutes>, or "" for no time limit', r"\d+/\d+"),
    "TimeCall": _syntax("4.6.2", "a number of seconds", r"\d+"),
    "TimeCard": _syntax("4.6.3", "a number of seconds", r"\d+"),
}

_PLAIN_HAND = r"(?:[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*|-)"
TAG_SYNTAX["Deal"] = Syntax(TAG_SYNTAX["Deal"].clause, TAG_SYNTAX["Deal"].expected, TAG_SYNTAX["Deal"].pattern,
                            usual=re.compile(rf"[WNES]:{_PLAIN_HAND} {_PLAIN_HAND} {_PLAIN_HAND} {_PLAIN_HAND}"))

# §2.2: no ASCII control character but the tabs (and the line's own); 127 to 159 are not PBN data. §2.3 (and
# §3.2): no tab inside string data.
_NOT_DATA = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


_RELATED = frozenset(("Auction", "Play", "Dealer", "Deal", "Declarer", "Contract", "Result"))
_GOOD: set[tuple[str, str]] = set()  # (name, value) pairs read clean: most values recur (Dealer "N", Vulnerable …)
_GOOD_MOST = 1 << 14


def value_warnings(tags: Sequence, path: str) -> list[str]:
    """What a game's tags break of the value syntax (§2.2, §2.3, §3.1, §3.4, §3.10, §4), in tag order."""
    return pair_warnings([(t.name, t.value) for t in tags], lambda i: (tags[i].line, tags[i].col), path)


def pair_warnings(pairs: Sequence[tuple[str, str]], place: Callable[[int], tuple[int, int]], path: str,
                  lined: bool = False) -> list[str]:
    """:func:`value_warnings` of a game's tag pairs ``(name, value)`` in tag order, ``place(i)`` the line and
    column of pair ``i`` (asked only where something is said): a plain game's pairs are checked as the reader
    found them, no tag made. ``lined``: each pair on a line of its own, in order (a plain game's), so that the
    pairs' order is their lines' order."""
    out: list[str] = []
    good = _GOOD
    new = set(pairs)
    new.difference_update(good)  # (the pairs read clean before are not looked at again)
    if new:
        for i, key in enumerate(pairs):
            if key not in new:
                continue
            name, v = key
            clean = True
            if not v.isprintable():
                bad = _NOT_DATA.search(v)
                line, col = place(i)
                if bad:
                    out.append(f"{path}:{line}:{col}: [{name}]: a control character (code {ord(bad.group())}) "
                               "is not PBN data (§2.2)")
                    clean = False
                if "\t" in v or "\v" in v:
                    out.append(f"{path}:{line}:{col}: [{name}]: a tab in a string (§2.3: tab characters may not "
                               "appear inside string data)")
                    clean = False
            syn = TAG_SYNTAX.get(name)
            if syn is not None and v and v[0] != "#" and not (v == "?" and name in MANDATORY):
                why = syn.judge(v)  # ("#", "##…": §4.8 inheritance, read by the Inheritance)
                if why:
                    line, col = place(i)
                    out.append(f'{path}:{line}:{col}: [{name} "{v}"]: {why}')
                    clean = False
            if clean:
                if len(good) >= _GOOD_MOST:
                    good.clear()
                good.add(key)
    names = tuple(map(_NAME, pairs))
    if "Auction" in names or "Play" in names or "Contract" in names:
        n = len(names)
        first = dict(zip(reversed(names), range(n - 1, -1, -1)))  # each name's first pair (the later put first)
        out += _relations(first, names, pairs, place, path, lined)
    return out


_NAME = itemgetter(0)
_BEFORE = (("Auction", ("Dealer",), "3.1"), ("Play", ("Deal", "Declarer", "Contract"), "3.1"))
_LATE: dict[tuple[str, ...], list[tuple[str, str, list[int]]]] = {}  # the tags' names in order -> what is late
_LATE_MOST = 1 << 10


def _late(first: dict[str, int], place: Callable[[int], tuple[int, int]] | None
          ) -> list[tuple[str, str, list[int]]]:
    """Each section with the tags §3.1 puts before it that are given after it, on a later line (``place``
    None: the pairs' order is their lines')."""
    found = []
    for section, needs, clause in _BEFORE:
        s = first.get(section)
        if s is None:
            continue
        late = []
        for n in needs:
            i = first.get(n)
            # (a pair before the section's in tag order is on its line or before)
            if i is not None and i > s and (place is None or place(i)[0] > place(s)[0]):
                late.append(i)
        if late:
            found.append((section, clause, late))
    return found


def _relations(first: dict[str, int], names: tuple[str, ...], pairs: Sequence[tuple[str, str]],
               place: Callable[[int], tuple[int, int]], path: str, lined: bool) -> list[str]:
    """What one tag's value says of another's: the tags §3.1 puts before a section, all passes (§3.4.13,
    §3.4.15), a denomination alone (§3.10). ``first``: the place of each name's first pair."""
    out: list[str] = []
    if lined:  # the same names in the same order are late alike
        found = _LATE.get(names)
        if found is None:
            if len(_LATE) >= _LATE_MOST:
                _LATE.clear()
            found = _LATE[names] = _late(first, None)
    else:
        found = _late(first, place)
    for section, clause, late in found:
        line, col = place(first[section])
        names_ = ", ".join(pairs[i][0] for i in late)
        lines = ", ".join(str(place(i)[0]) for i in late)
        out.append(f"{path}:{line}:{col}: [{section}]: the {names_} tag{'s are' if len(late) > 1 else ' is'} "
                   f"given after the {section.lower()} section, at line{'s' if len(late) > 1 else ''} {lines}; "
                   f"§{clause} puts {'them' if len(late) > 1 else 'it'} before")
    ci = first.get("Contract")
    contract = pairs[ci][1] if ci is not None else ""
    c = contract.strip().upper()
    if c == "PASS":
        for name, clause in (("Declarer", "3.4.13"), ("Result", "3.4.15")):
            i = first.get(name)
            if i is not None and pairs[i][1].strip() not in ("", "?", "#"):
                line, col = place(i)
                at = place(ci)[0]  # type: ignore[arg-type]
                out.append(f'{path}:{line}:{col}: [{name} "{pairs[i][1]}"]: all four passed ([Contract "Pass"] at '
                           f"line {at}): the {name} is an empty string (§{clause})")
    elif c in ("S", "H", "D", "C", "NT"):
        di = first.get("Deal")
        deal = pairs[di][1] if di is not None else None
        if deal is not None and TAG_SYNTAX["Deal"].pattern.fullmatch(deal):
            hands = deal_hands(deal)[1]
            if max((len(h.replace(".", "")) for h in hands if h != "-"), default=0) >= TRICKS:
                line, col = place(ci)  # type: ignore[arg-type]
                out.append(f'{path}:{line}:{col}: [Contract "{contract}"]: a denomination '
                           "alone is the trump of an end position (§3.10), and the deal is whole: expected "
                           f"{TAG_SYNTAX['Contract'].expected} (§3.4.14)")
    if len(out) > 1:
        out.sort(key=lambda w: tuple(int(x) for x in w[len(path) + 1:].split(":", 2)[:2]))
    return out


def deal_hands(value: str) -> tuple[str, list[str]]:
    """A ``[Deal]`` value that ``TAG_SYNTAX["Deal"]`` takes, as its first seat (upper case) and its four hands (upper
    case, ``10`` written ``T``; ``-`` for a hand not given), §3.4.11."""
    first, _, rest = value.strip().partition(":")
    return first.strip().upper(), rest.upper().replace("10", "T").split()


def line_warning(lines: list[str], first: int, path: str) -> str | None:
    """§2.3: the first line of a game longer than a PBN line may be (read all the same)."""
    longest = max(map(len, lines), default=0)
    if longest + _EOL <= LINE_MAX:
        return None
    i = next(i for i, ln in enumerate(lines) if len(ln) + _EOL > LINE_MAX)
    return (f"{path}:{first + i}: a line of {len(lines[i])} characters: a PBN line is at most {LINE_MAX} with its end "
            "of line (§2.3)")


_VERSION = re.compile(r"%\s*PBN\b(.*)")
_NUMBER = re.compile(r"\s*(\d+)\.(\d+)\s*")


def version_warning(line: str, where: str) -> str | None:
    """A ``% PBN <major>.<minor>`` line (§2.4). An earlier version than 2.1 reads without a word (§4.10: a file of
    a version is valid for any higher one); a later one, or a line that is no version, is read as 2.1 and said
    (§4.10: later versions keep the syntax of tags and sections, so the file reads; what they add is kept as
    tags and sections are, not interpreted)."""
    m = _VERSION.match(line)
    if m is None:
        return None
    n = _NUMBER.fullmatch(m.group(1))
    if n is None:
        return f"{where}: {line.strip()}: a version line is % PBN <major>.<minor> (§2.4): read as 2.1"
    if (int(n.group(1)), int(n.group(2))) <= VERSION:
        return None
    return (f"{where}: {line.strip()}: a later version of the standard than 2.1, the one this reader knows: read as "
            "2.1 (§4.10: a later version keeps the syntax of tags and sections); what it adds is kept, not read")


# ---------------------------------------------------------------- sections (§5.1) and commentary (§2.2, §3.8)

# §3.2: a section token is one or more ASCII characters 33 to 126 but [ ] { } ; " % (§5.1: a string token holds
# any other); the reader's words already stop at white space, [ ] { } ; and "
_NOT_SECTION_TOKEN = re.compile(r'[^!#$&-:<-Z\\^-z|~]')
# §2.2: no ASCII control character in commentary but the tabs (and the lines' own ends); 127 to 159 are not PBN data
_NOT_TEXT = re.compile(r"[\x00-\x08\x0c-\x1f\x7f-\x9f]")
#: The tags the standard defines as a tag pair alone, with no section data after them (§3.4–§4.7): every tag
#: whose value it specifies, and the Mandatory Tag Set, but the two sections of §3.5 and §3.6 and the tables of §5.
TAGS_ALONE = frozenset((set(TAG_SYNTAX) | MANDATORY | {"Note"}) - {"Auction", "Play"})


def section_token_warning(token: str, name: str, where: str) -> str | None:
    """A section element written as a section token that has a character §3.2 does not allow in one."""
    bad = _NOT_SECTION_TOKEN.search(token)
    if bad is None:
        return None
    ch = bad.group()
    return (f"{where}: [{name}]: the section token {token!r} has {ch!r} (code {ord(ch)}): a section token is ASCII "
            '33 to 126 but [ ] { } ; " % (§3.2); a string token "…" holds any other character (§5.1): kept, not read')


def commentary_warning(text: str, where: str) -> str | None:
    """Commentary (or a ``%`` line) holding a control character §2.2 does not allow."""
    bad = _NOT_TEXT.search(text)
    if bad is None:
        return None
    return (f"{where}: a control character (code {ord(bad.group())}) in "
            + ("an escaped line" if text[:1] == "%" else "commentary") + " is not PBN data (§2.2)")


def alone_warning(name: str, where: str) -> str:
    """Section data after a tag the standard defines as a tag pair alone."""
    return (f"{where}: [{name}] is a tag pair with no section data (§3.4–§4.7), and text that is no tag pair follows "
            "it: kept as a section of it, not read")


# ---------------------------------------------------------------- tables (§5.2–§5.10)

#: The named tables and the clause of each.
TABLES = {"ActionTable": "5.3", "AuctionTimeTable": "5.4", "InstantScoreTable": "5.5", "OptimumPlayTable": "5.6",
          "OptimumResultTable": "5.7", "PlayTimeTable": "5.8", "ScoreTable": "5.9", "TotalScoreTable": "5.10"}
_THINK = _syntax("5.4", "HH:MM:SS, MM:SS or SS", r"(?:\d\d?:)?(?:\d\d?:)?\d\d?")
#: The predefined columns whose elements the standard gives a syntax, by table.
COLUMN_SYNTAX: dict[str, dict[str, Syntax]] = {
    "ActionTable": {"Declarer": TAG_SYNTAX["Declarer"], "Contract": TAG_SYNTAX["Contract"]},
    "AuctionTimeTable": {"Time": _THINK, "TotalTime": _THINK},
    "PlayTimeTable": {"Time": _THINK, "TotalTime": _THINK},
    "OptimumResultTable": {"Declarer": _syntax("5.7", _DIRECTION, "[WNES]"),
                           "Denomination": _syntax("5.7", "S, H, D, C or NT", "[SHDC]|NT"),
                           "Result": _syntax("5.7", f"the tricks won by the declarer, 0 to {TRICKS}",
                                             r"\d|1[0-3]")},
    "ScoreTable": {"Declarer": _syntax("5.9", _DIRECTION, "[WNES]"),
                   "Contract": _syntax("5.9", "Pass, or <level 1-7><S, H, D, C or NT>[X or XX]",
                                       r"Pass|[1-7](?:[SHDC]|NT)(?:XX?)?"),
                   "Result": _syntax("5.9", f"the tricks won by the declarer, 0 to {TRICKS}", r"\d|1[0-3]")},
}
# §3.2: a column name token is any printing characters but ';'; a leading + or - is the order, and a \ must be
# followed by the minimum width, then L or R (§5.2).
_COLUMN = re.compile(r"[+-]?([^\\;]*)(?:\\(\d+)([LR]?))?")
_ELEMENT = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+')


def table_warnings(name: str, spec: str, rows: list[tuple[str, int, int]], at: str, path: str) -> list[str]:
    """A named table (§5.2): its column spec, that its elements fill its rows, and its predefined columns'
    elements (``?`` not known, ``-`` irrelevant, ``^`` before an artificial score). ``rows``: (text, line, col)."""
    clause = TABLES.get(name)
    if clause is None:
        return []
    out = []
    columns = []
    for c in spec.split(";"):
        m = _COLUMN.fullmatch(c.strip())
        if m is None:
            out.append(f"{at}: [{name}]: column \"{c}\": a \\ is followed by the minimum width, then L or R (§5.2)")
            columns.append(c.strip().lstrip("+-").split("\\")[0])
        else:
            columns.append(m.group(1))
    syntax = COLUMN_SYNTAX.get(name, {})
    count = 0
    for text, line, col in rows:
        for e in _ELEMENT.finditer(text):
            k = count % len(columns)
            count += 1
            syn = syntax.get(columns[k])
            v = e.group()
            if syn is None or v in ("?", "-"):
                continue
            why = syn.judge(v.lstrip("^"))
            if why:
                why = why.replace(syn.clause, clause)
                out.append(f'{path}:{line}:{col + e.start()}: [{name}]: {columns[k]} "{v}": {why}')
    if count % len(columns):
        out.append(f"{at}: [{name}]: {count} elements in {len(columns)} columns: the last row is not whole (§5.2)")
    return out
