"""The value syntax of the tags and tables (pbn/values.py), fuzzed and mutated: whatever a tag's value or a
table's row holds, the game is read (a value is said, never refused or misread), the value is kept byte-exact
and written back, each warning names ``path:line:col``, the tag and its clause; and the replay of a mutated
Contract, Declarer or Result answers with a status, never a traceback."""

from __future__ import annotations

import random
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgelaw.replay.result import STATUSES
from bridgelaw.pbn import PbnGame, Refusal, iter_games, read_pbn, write_games
from bridgelaw.pbn.export import export_bytes, write_export_games
from bridgelaw.pbn.values import COLUMN_SYNTAX, MANDATORY, TABLES, TAG_SYNTAX
from bridgelaw.replay import replay_game

from conftest import ROOT
from test_pbn_properties import games
from test_pbn_reader import _export_problems

CASES = yaml.safe_load((ROOT / "tests" / "pbn" / "conformance.yaml").read_text(encoding="utf-8"))["cases"]
EXAMPLE = CASES[0]["pbn"]  # §1.2, the standard's example game
_WARNING = re.compile(r"^<pbn>:\d+(?::\d+)?: ")
# a value as a string token may hold (§3.2: printing characters; the writer escapes " and \): ASCII and the
# ISO 8859-1 letters (128 to 191 left out: after a letter they would make UTF-8, which the reader reads as such and
# says, §2.2 in pbn/text.py)
_VALUE = st.text(st.one_of(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\'),
                           st.characters(min_codepoint=192, max_codepoint=255)), max_size=40)


def _read(text: str) -> list[PbnGame | Refusal]:
    return [g for g in iter_games(text.encode("latin-1")) if isinstance(g, Refusal) or g.tags]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(TAG_SYNTAX)), _VALUE)
def test_a_value_of_any_text_is_read_as_written_and_said_at_its_tag(name, value):
    text = f'[Event "x"]\n[{name} "{value}"]\n'
    (g,) = _read(text)
    if isinstance(g, Refusal):  # only a # where §4.8 forbids it is refused
        assert value.startswith("#") and "§4.8 forbids #" in g.reason, g
        return
    assert g.tags[1].value == value  # byte-exact: a value is never mended, only said
    for w in g.warnings:
        assert _WARNING.match(w), w
    said = [w for w in g.warnings if w.startswith(f'<pbn>:2:1: [{name} "{value}"]')]
    assert all("(§" in w for w in said), said
    if value in ("", "#") or value == "?" and name in MANDATORY:  # nothing stated, or inherited (§3.4, §4.8)
        assert not said
    assert _read(write_games([g])) == [g]


@pytest.mark.parametrize("name", sorted(TAG_SYNTAX))
def test_every_tag_with_a_syntax_is_said_for_a_value_it_does_not_allow_and_not_for_one_it_does(name):
    # each tag's own pattern is the oracle of the values it allows: a value it matches is read without a word
    # (its further check aside), "%%%" matches none of them and is said, naming the tag and the clause
    syn = TAG_SYNTAX[name]
    (g,) = _read(f'[{name} "%%%"]\n')
    assert [w for w in g.warnings if f'[{name} "%%%"]: expected' in w and f"(§{syn.clause})" in w], g.warnings


_GOOD = {"Date": "1995.06.10", "Board": "12", "Dealer": "w", "Vulnerable": "Both", "Deal": "E:- - - -",
         "Declarer": "^N", "Contract": "7NTXX", "Result": "EW 6 NS 7", "Auction": "n", "Play": "S", "FrenchMP": "Yes",
         "Hidden": "NS", "Room": "Open", "Score": "EW -200 NS 200", "ScoreIMP": "-3.5", "ScoreMP": "NS 12",
         "ScorePercentage": "EW 43.75 NS 56.25", "ScoreRubber": "EW 0/40",
         "ScoreRubberHistory": "EW 0 0/0 NS 50 0/60 40",
         "OptimumScore": "EW -100", "EventDate": "????.??.??", "Round": "R_1.B", "Time": "09:30:00",
         "UTCDate": "1995.06.1?", "UTCTime": "07:30:00", "TimeControl": "4/30", "TimeCall": "60", "TimeCard": "30"}


def test_the_export_order_of_the_mandatory_tags_is_the_mandatory_tag_set():
    from bridgelaw.pbn.export import MTS_ORDER

    assert len(MTS_ORDER) == len(set(MTS_ORDER)) == 15 and set(MTS_ORDER) == MANDATORY  # §3.4: "15 mandatory tags"


def test_every_tag_with_a_syntax_has_a_value_read_without_a_word():
    assert set(_GOOD) == set(TAG_SYNTAX)  # (a tag added to the table is added here)
    for name, value in _GOOD.items():
        (g,) = _read(f'[{name} "{value}"]\n')
        assert g.warnings == [], (name, g.warnings)


def _mutate(text: str, rng: random.Random) -> str:
    """One tag value of the game changed by a character (inserted, dropped or replaced)."""
    spots = [m for m in re.finditer(r'\[(\w+) "([^"]*)"\]', text)]
    m = rng.choice(spots)
    v = m.group(2)
    i = rng.randrange(len(v) + 1)
    c = rng.choice("0123456789NSEWnsew.:-^?#XPASTJKQ ;/")
    how = rng.randrange(3)
    v = v[:i] + c + v[i:] if how == 0 or not v else v[:i] + v[i + 1:] if how == 1 else v[:i] + c + v[i + 1:]
    return text[:m.start(2)] + v + text[m.end(2):]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_standard_example_with_a_value_mutated_is_read_said_and_replayed_without_a_traceback(seed):
    text = _mutate(EXAMPLE, random.Random(seed))
    games = _read(text)
    assert len(games) == 1
    g = games[0]
    if isinstance(g, Refusal):  # (a mutated # where §4.8 forbids it, or the like: refused at its place)
        assert _WARNING.match(g.where + ": "), g.where
        return
    assert all(_WARNING.match(w) for w in g.warnings), g.warnings
    assert _read(write_games([g])) == [g]
    res, _ = replay_game(read_pbn(text)[0], "wcny-1913")  # an answer: scored, refused or unfinished
    assert res.status in STATUSES
    if res.status != "scored":
        assert res.reason


_ELEMENT = st.one_of(st.sampled_from(["N", "NT", "X", "13", "14", "-", "?", "^60", "4SX", "3N", "1:05", "1m", '"a b"',
                                      '"O\\"Hara"']), st.from_regex(r"[A-Za-z0-9:^+-]{1,6}", fullmatch=True))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(TABLES)), st.lists(st.lists(_ELEMENT, min_size=1, max_size=6), min_size=1, max_size=5),
       st.sampled_from(["", "\\2R", "\\3L", "\\R", "\\5X"]))
def test_a_named_table_of_any_elements_is_kept_as_written_and_its_elements_said_at_their_column(name, rows, width):
    columns = sorted(COLUMN_SYNTAX.get(name, {"Rank": None})) + ["Extra"]
    spec = ";".join(c + width if i == 0 else c for i, c in enumerate(columns))
    text = f'[{name} "{spec}"]\n' + "\n".join(" ".join(r) for r in rows) + "\n"
    (g,) = _read(text)
    assert isinstance(g, PbnGame), g
    assert g.section(name).rows == [" ".join(r) for r in rows]
    for w in g.warnings:
        assert _WARNING.match(w) and f"[{name}]" in w, w
    assert _read(write_games([g])) == [g]


def _replayed(res) -> tuple:
    rulings = [(r["kind"], r["remedy"]) for r in res.rulings]
    return res.status, res.contract, res.declarer, res.tricks, res.score, rulings


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "examples").glob("**/*.pbn"),
                                                                           ROOT / "tests" / "pbn" / "real-world.pbn"]))
def test_an_export_replays_as_the_game_it_was_written_from_and_as_what_replay_wrote(path):
    # the file as read, and as `replay --write` wrote it back (with a [BridgelawRemedy] for every ruling), each
    # exported (pbn/export.py) and read again: the same board replayed, ruling by ruling
    games = [g for g in iter_games((ROOT / path).read_bytes(), path) if isinstance(g, PbnGame) and g.tags]
    assert games
    for g in games:
        res, _ = replay_game(g, "wcny-1913", write=True)
        sources = [g] + ([read_pbn(res.written)[0]] if res.written else [])
        for src in sources:
            data = export_bytes(write_export_games([src]))
            again = [x for x in iter_games(data) if isinstance(x, PbnGame) and x.tags]
            assert len(again) == 1
            res2, _ = replay_game(again[0], "wcny-1913")
            assert _replayed(res2) == _replayed(res), (path, g.board(), res2.reason, res.reason)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(games(), min_size=1, max_size=3))
def test_generated_games_exported_are_export_format_and_read_back_call_for_call(gs):
    from bridgelaw.errors import InputError

    # (in ISO 8859-1, the export's character set, §2.2: a character it has not is a ?; export_bytes refuses one)
    read = [g for g in iter_games(write_games(gs).encode("latin-1", "replace")) if isinstance(g, PbnGame) and g.tags]
    try:
        text = write_export_games(read)
        data = export_bytes(text)
    except InputError as e:  # only what export format cannot hold (a tab in a value, a lower case tag name, …)
        assert "export format" in e.message, e
        return
    assert _export_problems(text) == []
    again = [g for g in iter_games(data) if isinstance(g, Refusal) or g.tags]
    assert len(again) == len(read) and not [g for g in again if isinstance(g, Refusal)]
    for g, h in zip(read, again):
        assert [i.text for i in h.play] == [i.text for i in g.play]
        assert [i.text for i in h.auction] == [i.text for i in g.auction][len(g.auction) - len(h.auction):]
    assert write_export_games(again).split("\r\n") == text.split("\r\n")


_RELATED_VALUES = {
    "Contract": ["Pass", "pass", "NT", "S", "4S", "4SX", "", "?", "8C", "#"],
    "Deal": ["N:- - - -", "N:AK.Q.. Q.K.A. J.A.K. T.J.Q.", "W:KQT2.AT.J6542.85 - A8654.KQ5.T.QJT6 -", "X:- - - -",
             "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85", ""],
    "Declarer": ["", "N", "^S", "?", "South"], "Result": ["", "7", "NS 3 EW 2", "NS 9 NS 4", "?", "14"],
    "Dealer": ["N", "e", "North", ""],
}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.permutations(["Contract", "Deal", "Declarer", "Result", "Dealer", "Auction", "Play"]),
       st.fixed_dictionaries({k: st.sampled_from(v) for k, v in _RELATED_VALUES.items()}))
def test_the_tags_read_together_in_any_order_and_value_are_read_and_said_never_a_traceback(order, values):
    # what one tag's value says of another's (§3.1 the order, §3.4.13/§3.4.15 all passes, §3.10 a denomination
    # alone) is said whatever the values and the order; the replay answers with a status
    lines = []
    for name in order:
        if name == "Auction":
            lines += ['[Auction "N"]', "1S Pass Pass Pass"]
        elif name == "Play":
            lines += ['[Play "E"]', "HA H2 H3 H4"]
        else:
            lines.append(f'[{name} "{values[name]}"]')
    (g,) = _read("\n".join(lines) + "\n")
    if isinstance(g, Refusal):
        assert _WARNING.match(g.where + ": ") and g.reason
        return
    assert all(_WARNING.match(w) for w in g.warnings), g.warnings
    res, _ = replay_game(g, "wcny-1913")
    assert res.status in STATUSES
