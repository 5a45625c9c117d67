"""Score sheets at the edge: the published schema and the engine agree; bad sheets are refused by field."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgelaw
from bridgelaw import BridgelawError, InputError
from bridgelaw.casebook import load_cases

from conftest import ROOT
from scoresheets import problems, random_sheet, schema_valid, validators

SCORES = load_cases(ROOT / "rulings", scores=True)


@pytest.mark.parametrize("case", SCORES, ids=[c.path.split("/", 1)[1][:-5] for c in SCORES])
def test_every_scoring_case_is_valid_under_the_schema_and_its_score_too(case):
    assert schema_valid(case.incident), case.path
    s = bridgelaw.score(case.incident)
    assert not problems(case.incident, s)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_fuzzed_sheets_score_or_are_refused_by_field(seed):
    sheet = random_sheet(random.Random(seed))
    valid = schema_valid(sheet)
    try:
        s = bridgelaw.score(sheet)
    except InputError as e:
        assert e.field and e.message  # refused, naming the field
        return
    except BridgelawError as e:  # a law-file error from a score sheet is a bug
        raise AssertionError(f"{type(e).__name__}: {e}") from e
    assert valid, f"the engine scored a sheet the schema refuses: {sheet}"
    assert not problems(sheet, s), (sheet, problems(sheet, s))


@pytest.mark.parametrize("sheet, field", [
    ({"code": "wcny-1913", "declarer": "S", "contract": "1SX", "tricks": 4, "dealer": "S"}, None),
    ({"code": "wcny-1913", "declarer": "S", "contract": "1SX", "tricks": 4, "dealer": "S",
      "original_one_spade": False}, "original_one_spade"),
    ({"code": "wcny-1913", "declarer": "N", "contract": "1SX", "tricks": 4, "dealer": "S",
      "original_one_spade": True}, "original_one_spade"),
])
def test_original_one_spade_is_derived_from_dealer_and_declarer_and_checked_when_given(sheet, field):
    if field is None:
        assert bridgelaw.score(sheet).totals()["EW"]["honour"] == 100
        return
    with pytest.raises(InputError) as err:
        bridgelaw.score(sheet)
    assert err.value.field == field


def test_a_one_spade_the_sheet_cannot_place_is_scored_in_full_with_a_note():
    s = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "1SX", "tricks": 4})
    assert s.totals()["EW"]["honour"] == 300 and any("original one spade" in n for n in s.notes)


def test_honours_given_with_the_deal_must_agree_with_it():
    deal = "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 .543.76543.87654"
    s = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "4S", "tricks": 10, "deal": deal,
                         "honours": {"side": "NS", "held": "four_in_one_hand"}})
    assert s.totals()["NS"]["honour"] == 16


def test_schema_refuses_what_the_engine_refuses_for_shape():
    # the same shape errors the engine names: unknown keys, a chicane string, a boolean count, duplicate seats
    for bad in ({"code": "wcny-1913", "declarer": "S", "contract": "2H", "tricks": 8, "trick": 8},
                {"code": "wcny-1912", "declarer": "S", "contract": "2H", "tricks": 8, "chicane": "NS"},
                {"code": "wcny-1912", "declarer": "S", "contract": "2H", "tricks": 8, "chicane": ["N", "N"]},
                {"code": "wcny-1913", "declarer": "S", "contract": "2H", "tricks": 8,
                 "penalties": [{"side": "NS", "points": 50, "law": "54", "column": "garbage"}]},
                {"code": "american-1905", "declarer": "S", "contract": "H x" + "9" * 50, "tricks": 8}):
        assert not validators()[0].is_valid(bad)
        with pytest.raises(InputError):
            bridgelaw.score(bad)


# A sheet that gives neither honours nor the deal scores none, and says so on every path that scores it.
_NO_HONOURS = [
    ({"code": "wcny-1913", "declarer": "S", "contract": "4H", "tricks": 10}, "though the five trump honours"),
    ({"code": "portland-1904", "declarer": "S", "contract": "H", "tricks": 8}, "though the five trump honours"),
    ({"code": "wcny-1913", "declarer": "S", "contract": "3NT", "tricks": 9}, "if a side's scored"),
    ({"code": "wcny-1913-three-hand", "dummy": "W", "declarer": "S", "contract": "2H", "tricks": 8},
     "scores every player's"),
    ({"code": "wcny-1913-three-hand", "dummy": "W", "declarer": "S", "contract": "2NT", "tricks": 8},
     "though the four aces"),
]


def _said(notes, words):
    return [n for n in notes if n.startswith("no honours are given: none are scored") and words in n]


@pytest.mark.parametrize("sheet, words", _NO_HONOURS, ids=[f"{s['code']}-{s['contract']}" for s, _ in _NO_HONOURS])
def test_a_sheet_giving_no_honours_says_that_none_are_scored_on_every_path(sheet, words):
    from bridgelaw.api import score as api_score
    from bridgelaw.scoring import score_general

    assert len(_said(score_general(sheet).notes, words)) == 1  # the general path
    assert len(_said(bridgelaw.score(sheet).notes, words)) == 1  # the fast path (four hands) ...
    assert len(_said(bridgelaw.score(sheet).notes, words)) == 1  # ... and its play's rows remembered
    assert len(_said(api_score(sheet)["notes"], words)) == 1  # the API's JSON
    revoked = {**sheet, "revokes": [{"offender": "E", "choice": "add-value" if "portland" in sheet["code"]
                                     else "points"}]}
    assert len(_said(bridgelaw.score(revoked).notes, words)) == 1  # the deal core's own, with a revoke
    rubber = {"code": sheet["code"], "deals": [{k: v for k, v in sheet.items() if k != "code"}] * 2}
    for path in (bridgelaw.score, score_general):
        deals = path(rubber).deals
        assert [len(_said(d.notes, words)) for d in deals] == [1, 1]  # each deal of a rubber
    nt = sheet["contract"].endswith("NT")
    given = {**sheet, "honours": {"side": "NS", "held": "four_aces_in_one_hand" if nt else "four_in_one_hand"}
             if "three" not in sheet["code"] else {"S": 3, "N": 1} if nt else {"S": 3, "N": 1, "E": 1}}
    assert not _said(bridgelaw.score(given).notes, "") and not _said(score_general(given).notes, "")


def test_a_rubber_sheet_printed_says_each_deals_notes(tmp_path):
    import subprocess
    import sys

    f = tmp_path / "rubber.json"
    f.write_text('{"code": "wcny-1913", "deals": [{"declarer": "S", "contract": "4H", "tricks": 10}]}')
    out = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "score", str(f)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "note: deal 1: no honours are given: none are scored" in out.stdout


_FEW_TRICKS = [
    ({"code": "wcny-1913", "declarer": "S", "contract": "1H", "tricks": 2,
      "honours": {"side": "NS", "held": "five_in_one_hand"}}, "NS holding five in one hand win at least 5 tricks"),
    ({"code": "portland-1904", "declarer": "S", "dealer": "S", "contract": "S", "tricks": 13,
      "honours": {"side": "EW", "held": "five_in_one_hand"}}, "EW holding five in one hand win at least 5 tricks"),
    ({"code": "wcny-1913", "declarer": "S", "contract": "1S", "tricks": 4,
      "deal": "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"},
     "NS holding five in one hand win at least 5 tricks"),
    ({"code": "wcny-1913-three-hand", "dummy": "W", "declarer": "S", "contract": "2H", "tricks": 9,
      "honours": {"N": 5}}, "N's 5 trump honours win at least 5 tricks in play for the adversaries"),
]


@pytest.mark.parametrize("sheet, words", _FEW_TRICKS, ids=[f"{s['code']}-{s['tricks']}" for s, _ in _FEW_TRICKS])
def test_tricks_fewer_than_the_honours_win_in_play_are_scored_as_given_and_said(sheet, words):
    """A hand's trump honours each take the trick they fall to unless a higher one beats them: fewer tricks can
    only be conceded (a concession in error stands), so the sheet is scored as given, and the note says so."""
    from bridgelaw.scoring import score_general

    fast, general = bridgelaw.score(sheet), score_general(sheet)
    assert fast == general
    assert [n for n in general.notes if words in n and "only tricks conceded could leave so few" in n]
    fewer = {**sheet, "tricks": 5 if sheet["tricks"] < 5 else 8} if "three" not in sheet["code"] else \
        {**sheet, "tricks": 8}
    assert not [n for n in score_general(fewer).notes if "only tricks conceded" in n]
