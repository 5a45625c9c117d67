"""PBN 2.1 conformance (tests/pbn/conformance.yaml: a case per clause), the character set (§2.2), line
ends (§2.1), and reading, writing and reading again."""

from __future__ import annotations

import codecs
import io
import re

import pytest
import yaml

from bridgelaw import InputError
from bridgelaw.pbn import PbnGame, Refusal, iter_game_texts, iter_games, read_pbn, write_game, write_games
from bridgelaw.pbn.export import MTS_ORDER, export_bytes, write_export_games
from bridgelaw.pbn.model import Item

from conftest import ROOT

CASES = yaml.safe_load((ROOT / "tests" / "pbn" / "conformance.yaml").read_text(encoding="utf-8"))["cases"]


def render(it: Item) -> str:
    parts = [(f"^{it.marker} " if it.marker else "") + it.text]
    if it.suffix:
        parts.append(it.suffix)
    if it.note is not None:
        parts.append(f"={it.note}=")
    parts += [f"${n}" for n in it.nags]
    parts += list(it.comments)
    return " ".join(parts)


def games_of(text: str) -> list[PbnGame | Refusal]:
    return [g for g in iter_games(text.encode("latin-1") if text.isascii() else text) if
            isinstance(g, Refusal) or g.tags]


@pytest.mark.parametrize("case", CASES, ids=[f"§{c['clause']} {c['name']}" for c in CASES])
def test_conformance(case):
    exp = case["expect"]
    if "error" in exp:
        with pytest.raises(InputError) as info:
            read_pbn(case["pbn"])
        assert exp["error"] in info.value.message, info.value
        assert info.value.field == f"<pbn>:{exp['at']}", info.value
        return
    got = games_of(case["pbn"])
    if "refused" in exp:
        bad = {g.index: g for g in got if isinstance(g, Refusal)}
        assert set(bad) == set(exp["refused"])
        for i, msg in exp["refused"].items():
            assert msg in bad[i].reason
        got = [g for g in got if not isinstance(g, Refusal)]
    else:
        assert not [g for g in got if isinstance(g, Refusal)], [g.error for g in got if isinstance(g, Refusal)]
    if "games" in exp:
        assert len(got) + len(exp.get("refused", {})) == exp["games"]
    g = got[0]
    for name, value in exp.get("tags", {}).items():
        assert g.value(name) == value, name
    if "boards" in exp:
        assert [x.board() for x in got] == exp["boards"]
    for i, values in enumerate(exp.get("values", [])):
        for name, value in values.items():
            assert got[i].value(name) == value, (i, name)
        assert {t.name for t in got[i].tags} | set(got[i].inherited) >= set(values)
    if "auction" in exp:
        assert [render(x) for x in g.auction] == exp["auction"]
    if "play" in exp:
        assert [render(x) for x in g.play] == exp["play"]
    for name, rows in exp.get("rows", {}).items():
        assert g.section(name).rows == rows
    for name, comments in exp.get("comments", {}).items():
        assert list(g.tag(name).comments) == comments
    for name, n in exp.get("comment_count", {}).items():
        assert len(g.tag(name).comments) == n
    if "prologue" in exp:
        assert list(g.prologue) == exp["prologue"]
    if "tag_count" in exp:
        assert len(g.tags) == exp["tag_count"]
    for section, notes in exp.get("notes", {}).items():
        assert g.notes(section) == notes
    if "warnings" in exp:  # what the game says of itself, each a phrase of one warning, in order
        assert len(g.warnings) == len(exp["warnings"]), g.warnings
        for w, want in zip(g.warnings, exp["warnings"]):
            assert want in w, (w, want)
    for i, want in enumerate(exp.get("game_warnings", [])):  # each game's, as "warnings" is the first game's
        assert len(got[i].warnings) == len(want), (i, got[i].warnings)
        for w, phrase in zip(got[i].warnings, want):
            assert phrase in w, (i, w, phrase)
    # reading what is written gives the same games
    again = [x for x in iter_games(write_games(got)) if isinstance(x, Refusal) or x.tags]
    assert again == got


def test_iso_8859_1_is_the_default_character_set():
    data = b'[Event "Caf\xe9 de la Paix"]\n[South "M\xfcller, J."]\n'
    g = read_pbn(data)[0]
    assert g.value("Event") == "Café de la Paix" and g.value("South") == "Müller, J."


def test_utf_8_where_the_header_says_so():
    data = '% PBN 2.1\n%Content-type: text/x-pbn; charset=UTF-8\n[Event "Café"]\n'.encode("utf-8")
    assert read_pbn(data)[0].value("Event") == "Café"


def test_utf_8_where_a_byte_order_mark_shows_it():
    data = codecs.BOM_UTF8 + '{a comment first}\n[Event "Brügge"]\n'.encode("utf-8")
    g = read_pbn(data)[0]
    assert g.value("Event") == "Brügge" and g.prologue == ("{a comment first}",)


def test_a_line_that_is_not_the_declared_utf_8_is_read_as_iso_8859_1_and_said():
    data = b'%Content-type: text/x-pbn; charset=UTF-8\n[Event "Caf\xe9"]\n'
    g = next(iter_games(data, "x.pbn"))
    assert g.value("Event") == "Café" and any(w.startswith("x.pbn:2: not utf-8") for w in g.warnings)


def test_utf_8_in_a_file_that_names_no_character_set_is_read_as_utf_8_and_said():
    # programs that write UTF-8 and say nothing (§2.2 would read "2+\u2663" as three ISO 8859-1 letters)
    data = '% PBN 2.1\n[Board "1"]\n[Note "1: 2+\u2663"]\n[West "M\u00fcller"]\n'.encode("utf-8")
    g = next(iter_games(data, "x.pbn"))
    assert g.value("Note") == "1: 2+\u2663" and g.value("West") == "M\u00fcller"
    said = [w for w in g.warnings if "names no character set" in w]
    assert [w.split(":")[1] for w in said] == ["3", "4"]
    # (and the Note among the identification tags is said too: §3.5.5 puts it in the auction or play section)
    assert [w for w in g.warnings if w not in said] == [
        'x.pbn:3:1: [Note "1: 2+\u2663"]: a Note tag belongs in the auction or play section whose calls or cards '
        "refer to it, not among the identification tags (§3.5.5)"]


def test_each_game_is_warned_of_its_own_lines_only():
    # the file is decoded a chunk at a time, the chunk warned about before its games are read: a warning goes
    # to the game whose line it is about, not to the first game of the chunk
    data = '[Event "Caf\u00e9"]\n[Dealer "N"]\n\n[Event "Zo\u00eb"]\n[Dealer "E"]\n'.encode("utf-8")
    games = list(iter_games(data, "x.pbn"))
    assert [[w.split(":")[1] for w in g.warnings] for g in games] == [["1"], ["4"]]
    texts = list(iter_game_texts(data, "x.pbn"))
    assert [[w.split(":")[1] for w in ws] for _, _, ws in texts] == [["1"], ["4"]]


def test_iso_8859_1_in_a_file_that_names_no_character_set_is_read_without_a_word():
    g = next(iter_games(b'[Board "1"]\n[West "D\xe9sir\xe9e"]\n[North "ASCII"]\n', "x.pbn"))
    assert g.value("West") == "D\u00e9sir\u00e9e" and g.warnings == []


def test_a_declared_iso_8859_1_file_is_iso_8859_1_even_where_it_would_read_as_utf_8():
    data = b'%Content-type: text/x-pbn; charset=ISO-8859-1\n[West "\xc3\xa9"]\n'
    assert next(iter_games(data)).value("West") == "\u00c3\u00a9"


def test_a_refused_game_is_written_back_as_a_game_of_its_own():
    from bridgelaw.pbn.writer import write_game

    text = '[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n[Event "x\\ ]\n\n[Board "3"]\n'
    got = list(iter_games(text))
    assert [type(g).__name__ for g in got] == ["PbnGame", "Refusal", "PbnGame"]
    written = "\n".join(g.text if isinstance(g, Refusal) else write_game(g) for g in got)
    again = list(iter_games(written))
    assert [type(g).__name__ for g in again] == ["PbnGame", "Refusal", "PbnGame"] and again[2].board() == "3"


_TWO = b'[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n[Dealer "E"]\n[Auction "E"]\n1C AP'


@pytest.mark.parametrize("end", [b"\x1a", b"\n\x1a", b"\r\n\x1a\x1a", b"\n\x1a\r\n"],
                         ids=["after the last call", "after LF", "marks after CRLF", "a line of its own"])
def test_a_dos_end_of_file_mark_ends_the_file_and_is_not_part_of_the_last_game(end):
    games = read_pbn(_TWO + end)  # §2.1: the platform's representation of a text file, not PBN data
    assert [g.board() for g in games] == ["1", "2"] and [x.text for x in games[1].auction] == ["1C", "AP"]


def test_the_end_of_file_mark_is_found_when_it_arrives_in_a_read_of_its_own():
    class Trickle(io.RawIOBase):  # a pipe: each read returns what has come so far
        def __init__(self, parts):
            self.parts = list(parts)

        def read(self, n=-1):
            return self.parts.pop(0) if self.parts else b""

    games = [g for g in iter_games(Trickle([_TWO + b"\r\n", b"\x1a\r\n"])) if g.tags]
    assert [g.board() for g in games] == ["1", "2"] and not [g for g in games if isinstance(g, Refusal)]


def test_a_control_character_inside_a_game_is_still_refused_there():
    got = list(iter_games(_TWO.replace(b"1C AP", b"1C \x1a AP") + b"\n\n[Board \"3\"]\n", "f.pbn"))
    assert isinstance(got[1], Refusal) and got[1].where == "f.pbn:7:4" and got[2].board() == "3"


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_every_line_end_of_2_1(eol):
    data = eol.join([b'[Board "1"]', b'[Dealer "N"]', b"", b'[Board "2"]', b""])
    assert [g.board() for g in read_pbn(data)] == ["1", "2"]


def test_a_bad_game_is_refused_on_its_own_with_board_and_line():
    text = '[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n[Auction "N"]\n1C 9Z\n\n[Board "3"]\n'
    got = list(iter_games(text, "f.pbn"))
    assert [type(g).__name__ for g in got] == ["PbnGame", "Refusal", "PbnGame"]
    assert got[1].board == "2" and got[1].where == "f.pbn:6:4" and got[1].line == 4


def test_commentary_between_games_and_after_the_last_is_written_back():
    text = "% PBN 2.1\n\n[Board \"1\"]\n\n; between\n\n[Board \"2\"]\n\n{the end}\n"
    got = list(iter_games(text))
    assert [g.board() for g in got if g.tags] == ["1", "2"]
    again = list(iter_games(write_games(got)))
    assert again == got and "; between" in write_games(got) and "{the end}" in write_games(got)


@pytest.mark.parametrize("text, message", [
    ("", "no PBN game found"),
    ("; only a comment\n", "no PBN game found"),
    ('[Code "' + "x" * 300 + '"]\n[Dealer "N"]\n', None),
])
def test_files_that_crashed_before_are_read(text, message):
    if message:
        with pytest.raises(InputError, match=message):
            read_pbn(text)
    else:
        assert read_pbn(text)[0].value("Dealer") == "N"


def test_a_value_with_an_unescaped_quote_is_read_and_said():
    g = next(iter_games('[Event "The "Big" Cup"]\n'))
    assert g.value("Event") == 'The "Big" Cup' and g.warnings


def test_written_values_escape_what_must_be_escaped_and_nothing_else():
    g = read_pbn('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n[Event "a \\"b\\" \\\\"]\n')[0]
    text = write_game(g)
    assert '"Declarer;Denomination\\2R;Result\\2R"' in text and read_pbn(text) == [g]


def test_a_game_begun_without_a_semi_empty_line_is_a_game_of_its_own_and_said():
    text = '[Board "1"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1S AP\n[Board "2"]\n[Deal "N:- - - -"]\n'
    got = list(iter_games(text, "f.pbn"))
    assert [g.board() for g in got] == ["1", "2"] and got[1].warnings == [
        "f.pbn:5: a new game begins without the semi-empty line before it (§3)"]


def test_a_brace_comment_never_closed_refuses_its_game_only():
    text = '[Board "1"] {never closed\n[Dealer "N"]\n\n[Board "2"]\n[Dealer "E"]\n'
    got = list(iter_games(text, "f.pbn"))
    assert isinstance(got[0], Refusal) and got[0].where == "f.pbn:1:13" and got[1].board() == "2"


@pytest.mark.parametrize("bom, codec", [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")])
def test_a_file_a_program_wrote_in_utf_16_shows_it_by_its_byte_order_mark(bom, codec):
    text = '[Event "Café"]\r\n[Dealer "N"]\r\n\r\n[Board "2"]\r\n'
    games = read_pbn(bom + text.encode(codec))
    assert [g.value("Event") for g in games] == ["Café", None] and games[1].board() == "2"


def test_the_header_may_follow_a_semicolon_comment():
    data = '; from the club\n%Content-type: text/x-pbn; charset=UTF-8\n[Event "Café"]\n'.encode("utf-8")
    assert read_pbn(data)[0].value("Event") == "Café"


def test_dbl_and_rdbl_are_read_as_the_double_and_redouble_they_mean():
    g = read_pbn('[Dealer "N"]\n[Auction "N"]\n1S Dbl Rdbl Pass\n')[0]
    assert [x.text for x in g.auction] == ["1S", "X", "XX", "P"]


# ---------------------------------------------------------------- export format (§2.1): what we write is strict

_TAG_LINE = re.compile(r'\[([A-Z][A-Za-z0-9_]*) "(?:[^"\\]|\\.)*"\]')
_AT = re.compile(r"^<pbn>:\d+(?::\d+)?: ")


def _export_problems(text: str) -> list[str]:
    """What in ``text`` is not export format, read from the standard's clauses, independently of the writer."""
    bad = []
    if not text.startswith("% PBN 2.1\r\n% EXPORT\r\n"):
        bad.append("§2.4: no % PBN 2.1 and % EXPORT header")
    if not text.endswith("\r\n"):
        bad.append("§2.3: the last line has no CR LF")
    lines = text.split("\r\n")[:-1]
    in_brace = False
    for n, ln in enumerate(lines, 1):
        if "\r" in ln or "\n" in ln:
            bad.append(f"line {n}: §2.3 a line ends in CR LF")
        if "\t" in ln or "\v" in ln:
            bad.append(f"line {n}: §2.3 a tab")
        if len(ln) + 2 > 255:
            bad.append(f"line {n}: §2.3 longer than 255 with CR LF")
        if not in_brace and ln.startswith("[") and not _TAG_LINE.fullmatch(ln):
            bad.append(f"line {n}: §3.3 not a tag pair alone, [Name \"value\"]: {ln!r}")
        if ln.count("{") > ln.count("}"):
            in_brace = True
        elif "}" in ln:
            in_brace = False
    games, cur, in_brace = [], [], False
    # games split at the empty lines outside a brace comment (§3), after the header
    for ln in lines[3 if lines[2:3] and lines[2].startswith("%") else 2:]:
        if ln.strip() == "" and ln and not in_brace:
            bad.append(f"a semi-empty line that is not empty: {ln!r} (§3: in export format an empty line)")
        if ln == "" and not in_brace and cur:
            games.append("\r\n".join(cur))
            cur = []
            continue
        cur.append(ln)
        in_brace = (in_brace or "{" in ln) and ln.rfind("}") < ln.rfind("{") if "{" in ln or "}" in ln else in_brace
    games.append("\r\n".join(cur))
    for k, g in enumerate(games, 1):
        glines = g.split("\r\n")
        names, data = [], set()  # the tag names in order, and those followed by section data
        for i, ln in enumerate(glines):
            m = _TAG_LINE.fullmatch(ln)
            if m:
                names.append(m.group(1))
                j = i + 1
                while j < len(glines) and glines[j][:1] in ("{", ";", "%"):  # (the tag's commentary)
                    j = next((k for k in range(j, len(glines)) if "}" in glines[k]), j) + 1 if glines[j][:1] == "{" \
                        else j + 1
                nxt = glines[j] if j < len(glines) else "["
                if nxt[:1] != "[":
                    data.add(len(names) - 1)
        if names[:15] != list(MTS_ORDER):
            bad.append(f"game {k}: §3.4 the mandatory tags are not first, in order: {names[:15]}")
        rest = names[15:]
        ident = rest[:next((i for i, x in enumerate(rest) if x in ("Auction", "Play") or i + 15 in data), len(rest))]
        if ident != sorted(ident) or len(set(ident)) != len(ident):
            bad.append(f"game {k}: §3.4 the supplemental tags are not sorted, once each: {ident}")
        body, current = [], None  # the auction and play lines, without their commentary
        for ln in re.sub(r'"(?:[^"\\\r\n]|\\.)*"|\{[^}]*\}|;[^\r\n]*',
                         lambda m: '""' if m.group().startswith('"') else "", g).split("\r\n"):
            m = _TAG_LINE.match(ln)
            if m:
                current = m.group(1)
            elif current in ("Auction", "Play"):
                body.append(ln)
        body = "\r\n".join(body)
        if re.search(r"(?<![\w$=])[!?]{1,2}(?![\w\"])", body):
            bad.append(f"game {k}: §3.5.2 a suffix in export format (it is a NAG there)")
        if re.search(r"(?m)^(?:[^\[\r\n%]*\s)?(?:[1-7][shdcn]\w*|pass|[shdc][akqjt2-9])(?:\s|$)", body):
            bad.append(f"game {k}: §3.11 lower case in a call or card")
    return bad


def _strip_at(w: str) -> str:
    """A warning without its place (the lines move when a game is exported)."""
    return re.sub(r"line \d+", "line", _AT.sub("", w))


def _texts(items) -> list[str]:
    return [i.text for i in items]


@pytest.mark.parametrize("case", [c for c in CASES if "error" not in c["expect"]],
                         ids=[f"§{c['clause']} {c['name']}" for c in CASES if "error" not in c["expect"]])
def test_what_we_export_is_export_format_and_reads_back_as_the_same_games(case):
    got = [g for g in games_of(case["pbn"]) if not isinstance(g, Refusal)]
    try:
        text = write_export_games(got)
    except InputError as e:  # only what export format cannot hold, said as such
        assert "export format" in e.message, e
        return
    assert _export_problems(text) == [], text
    again = [g for g in iter_games(export_bytes(text)) if isinstance(g, Refusal) or g.tags]
    assert not [g for g in again if isinstance(g, Refusal)], again
    assert len(again) == len(got)
    for g, h in zip(got, again):
        skip = len(g.auction) - len(h.auction)  # the dashes before the dealer, dropped (§3.5)
        assert skip >= 0 and _texts(g.auction)[:skip] == ["-"] * skip
        assert _texts(h.auction) == _texts(g.auction)[skip:] and _texts(h.play) == _texts(g.play)
        for a, b in zip(g.auction[skip:] + g.play, h.auction + h.play):
            assert b.suffix is None and b.note == a.note and list(b.nags) == sorted(b.nags)
            assert len(b.nags) == len(a.nags) + (a.suffix is not None)
        assert h.notes("auction") == g.notes("auction") and h.notes("play") == g.notes("play")
        for name in MTS_ORDER:  # the same value, in its export spelling; "?" where none was given
            assert h.value(name) is not None
            if g.value(name) is None:
                assert h.value(name) == "?"
        # what the game said of itself again is among what it said first (the values written as read)
        assert {_strip_at(w) for w in h.warnings} <= {_strip_at(w) for w in g.warnings}, (h.warnings, g.warnings)
    assert write_export_games(again) == text  # export of an export is itself


def test_a_game_the_plain_reader_makes_has_every_field_a_game_is_made_with():
    g = next(iter_games(b'[Event "x"]\n[Dealer "N"]\n[Auction "N"]\nPass Pass Pass Pass\n'))
    assert g._plain is not None  # (read by the plain reader: its tags not made yet)
    made = PbnGame()
    assert set(vars(g)) == set(vars(made))
    assert {k: type(v) for k, v in vars(g).items() if k not in ("_plain", "_tag_list", "_values", "lead")} == \
        {k: type(v) for k, v in vars(made).items() if k not in ("_plain", "_tag_list", "_values", "lead")}
    assert [(t.name, t.value, t.line) for t in g.tags] == [("Event", "x", 1), ("Dealer", "N", 2), ("Auction", "N", 3)]
