"""PBN files as programs write them (tests/pbn/wild.pbn: a hand-record program's export header, CR LF, ISO 8859-1,
double-dummy tables, §4.8 inheritance, a played game with commentary inside its sections, no final newline;
what each board must give is in tests/pbn/wild.yaml), and ``replay --write FILE --export``: export format
(§2.1), read back to the same boards, and fuzzed."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgelaw.cli import main
from bridgelaw.pbn import write_games
from bridgelaw.pbn.export import EXPORT_HEADER

from conftest import ROOT
from test_pbn_properties import games
from test_pbn_reader import _export_problems

WILD = ROOT / "tests" / "pbn" / "wild.pbn"
EXPECT = yaml.safe_load((ROOT / "tests" / "pbn" / "wild.yaml").read_text(encoding="utf-8"))
# what a board's replay means, compared between a file and its export (the place a game stands differs)
_MEANT = ("board", "status", "contract", "declarer", "tricks", "score", "source", "rulings")


def replay(*argv: str) -> tuple[int, list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["replay", "--json", "--quiet", *argv])
    return rc, [json.loads(x) for x in out.getvalue().splitlines() if x.strip()], err.getvalue()


def meant(lines: list[dict]) -> list[dict]:
    """What each board means; a ruling by its place, kind, offender, remedy and laws (read back, its remedy is
    the one --write recorded, and the ruling says so in its ``how``)."""
    return [{k: x.get(k) if k != "rulings" else [{f: r.get(f) for f in ("at", "kind", "offender", "remedy", "laws")}
                                                 for r in x.get(k, [])] for k in _MEANT} for x in lines]


@pytest.mark.parametrize("case", EXPECT["boards"], ids=[c["name"] for c in EXPECT["boards"]])
def test_a_board_of_a_file_from_the_wild_replays_to_what_it_means(case):
    rc, lines, err = replay(str(WILD))
    assert rc == 0, err
    got = {x["board"]: x for x in lines}
    assert len(got) == len(EXPECT["boards"])
    line = got[str(case["board"])]
    for k, v in case["expect"].items():
        if k == "notes":  # each a phrase of one of the board's notes
            for phrase in v:
                assert any(phrase in n for n in line.get("notes", [])), (phrase, line.get("notes"))
        elif k == "no_note":
            assert not any(v in n for n in line.get("notes", [])), line.get("notes")
        elif k == "reason":
            assert v in line["reason"], line["reason"]
        elif k == "at":  # the line and column the board's reason names
            assert line["where"] == f"{WILD}:{v}", line["where"]
        else:
            assert line.get(k) == v, (k, line)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("source", [WILD, ROOT / "tests" / "pbn" / "real-world.pbn", *sorted((ROOT / "examples").glob("*.pbn"))],
                         ids=lambda p: p.name)
def test_replay_write_export_is_export_format_and_reads_back_to_the_same_boards(source, tmp_path):
    out = tmp_path / "out.pbn"
    rc, first, err = replay(str(source), "--write", str(out), "--export")
    data = out.read_bytes()
    text = data.decode("latin-1")
    assert _export_problems(text) == []
    rc2, again, err2 = replay(str(out))
    assert rc2 == rc, (err, err2)
    assert meant(again) == meant(first)
    # written again in export format, the export is what it was: nothing is added or lost a second time
    out2 = tmp_path / "out2.pbn"
    replay(str(out), "--write", str(out2), "--export")
    assert out2.read_bytes() == data


def test_export_needs_write():
    rc, _, err = replay(str(WILD), "--export")
    assert rc == 2 and "--export" in err and "--write" in err


def test_a_game_export_format_cannot_hold_is_left_out_and_said(tmp_path):
    src = tmp_path / "in.pbn"
    src.write_text('[Board "1"]\n[Dealer "N"]\n[Deal ""]\n[Declarer "N"]\n[Contract "1S"]\n[Result "7"]\n'
                   '[West "Ивaнов"]\n\n[Board "2"]\n[Dealer "N"]\n[Deal ""]\n[Declarer "N"]\n[Contract "1S"]\n'
                   '[Result "8"]\n', encoding="utf-8")
    out = tmp_path / "out.pbn"
    rc, lines, err = replay(str(src), "--write", str(out), "--export")
    assert rc == 2 and [x["status"] for x in lines] == ["scored", "scored"]
    assert "board 1: not written:" in err and "is not in ISO 8859-1" in err and "board 2" not in err
    rc, again, _ = replay(str(out))
    assert [x["board"] for x in again] == ["2"] and again[0]["tricks"] == 8


def test_a_game_that_cannot_be_read_is_left_out_of_the_export_and_said(tmp_path):
    src = tmp_path / "in.pbn"
    src.write_text('[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n1Z\n\n[Board "2"]\n[Dealer "N"]\n[Deal ""]\n'
                   '[Declarer "N"]\n[Contract "1S"]\n[Result "8"]\n', encoding="latin-1")
    out = tmp_path / "out.pbn"
    rc, lines, err = replay(str(src), "--write", str(out), "--export")
    assert rc == 2 and [x["status"] for x in lines] == ["refused", "scored"]
    assert "board 1: not written:" in err and "could not be read" in err
    assert [x["board"] for x in replay(str(out))[1]] == ["2"]


@pytest.mark.timeout(240)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(games(), min_size=1, max_size=3))
def test_replay_write_export_of_any_games_is_export_format_or_says_what_it_left_out(gs):
    """Whatever the games, ``--write --export`` exits 0 or 2 (never a traceback), writes export format, and
    each board it replayed is in the file or said on standard error; the file replays to the same boards."""
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "in.pbn", Path(d) / "out.pbn"
        src.write_bytes(write_games(gs).encode("utf-8"))
        rc, first, err = replay(str(src), "--write", str(out), "--export")
        assert rc in (0, 2) and "Traceback" not in err
        left_out = {x["board"] for x in first if f"board {x['board']}: not written:" in err}
        written = out.read_bytes().decode("latin-1")
        if len(left_out) < len(first):
            assert _export_problems(written) == []
        else:  # no game written: the file is the export header alone (§3: a file of zero games)
            assert written == EXPORT_HEADER
        rc2, again, err2 = replay(str(out))
        assert "Traceback" not in err2
        kept = [x for x in first if x["board"] not in left_out]
        # (a board with no number is labelled by its place in the file, "#2", which a game left out moves)
        assert [{**m, "board": None} for m in meant(again)] == [{**m, "board": None} for m in meant(kept)]


def test_replay_write_of_an_export_file_says_nothing_false_of_the_file_it_writes(tmp_path):
    """``--write`` writes import format in UTF-8: the export file's ``% EXPORT`` line is not written (§2.4: it
    would say export format), and its character set line names UTF-8, not the ISO 8859-1 it was read in."""
    out = tmp_path / "out.pbn"
    rc, first, err = replay(str(WILD), "--write", str(out))
    assert rc == 0, err
    text = out.read_bytes().decode("utf-8-sig")
    escapes = [ln for ln in text.splitlines() if ln.startswith("%")]
    assert "%Content-type: text/x-pbn; charset=UTF-8" in escapes and not any("EXPORT" in e for e in escapes)
    assert not any("8859" in e for e in escapes)
    assert '[West "Grüber, K."]' in text
    assert meant(replay(str(out))[1]) == meant(first)


@pytest.mark.timeout(120)
def test_replay_write_export_over_processes_writes_what_one_process_writes(tmp_path):
    one, two = tmp_path / "one.pbn", tmp_path / "two.pbn"
    replay(str(WILD), "--write", str(one), "--export")
    replay(str(WILD), "--write", str(two), "--export", "--jobs", "2")
    assert two.read_bytes() == one.read_bytes() and b"\r\n[Board \"6\"]\r\n" in one.read_bytes()


_SECTION_CHARS = {chr(c) for c in range(33, 127)} - set('[]{};"%')  # §3.2, written out from its words


@settings(max_examples=200, deadline=None)
# (not Ctrl-Z, the DOS end-of-file mark: where it ends a file it is the platform's, and elsewhere it refuses its game)
@given(st.text(st.characters(blacklist_characters='[]{};"\x1a', max_codepoint=0x2FF).filter(lambda c: not c.isspace()),
               min_size=1, max_size=8))
def test_a_section_token_is_said_exactly_when_it_has_a_character_section_tokens_do_not(token):
    """A row of a table holding ``token`` as an element: said when (and only when) §3.2's character set for a
    section token does not hold one of its characters; the row is kept as written all the same. (What Python
    takes for white space separates elements, and is said so: the conformance cases.)"""
    from bridgelaw.pbn import iter_games

    text = f'[ScoreTable "Rank;Names"]\n1 {token}\n'
    g = next(iter(iter_games(text, "t.pbn")))
    said = [w for w in g.warnings if "the section token" in w]
    assert bool(said) == (not set(token) <= _SECTION_CHARS), (token, g.warnings)
    if said:
        assert said[0].startswith("t.pbn:2:3: [ScoreTable]: the section token ")
    assert g.tag("ScoreTable").section.rows == [f"1 {token}"]
