"""What a PBN record means, replayed (tests/pbn/replay.yaml), and the examples."""

from __future__ import annotations

import json

import pytest
import yaml

from bridgelaw.pbn import read_pbn
from bridgelaw.replay import replay_game

from conftest import ROOT

DATA = yaml.safe_load((ROOT / "tests" / "pbn" / "replay.yaml").read_text(encoding="utf-8"))


def game_of(case):
    text = case["pbn"]
    if "[Deal " not in text:
        text += f'[Deal "{DATA["deal"]}"]\n'
    return read_pbn(text)[0]


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_a_record_replays_to_what_it_means(case):
    res, _ = replay_game(game_of(case), case.get("code", DATA["code"]))
    exp = case["expect"]
    assert res.status == exp["status"], res.reason
    for k in ("contract", "declarer", "tricks", "score", "source", "code"):
        if k in exp:
            assert getattr(res, k) == exp[k], k
    if "rulings" in exp:
        assert [[r["kind"], r["remedy"]] for r in res.rulings] == exp["rulings"]
    if "at" in exp:
        assert [r["at"] for r in res.rulings] == exp["at"]
    for k in ("reason", "reason2"):
        if k in exp:
            assert exp[k] in res.reason, res.reason
    if "where" in exp:
        assert res.where == f"<pbn>:{exp['where']}"
    if "note" in exp:
        assert any(exp["note"] in n for n in res.notes), res.notes
    for word, k in exp.get("notes_naming", {}).items():  # how many of the board's notes name a thing: each said once
        assert sum(word in n for n in res.notes) == k, res.notes
    line = res.json_line()  # the replay --json line: the result as one line of JSON, its text not escaped
    assert "\n" not in line and line == json.dumps(res.to_json(), ensure_ascii=False)


_PLAIN = """[BridgelawCode "wcny-1913"]
[Dealer "W"]
[Deal "N:932.A42.QJ6.KQT2 AKQ5.K98.832.653 86.T76.AT74.A984 JT74.QJ53.K95.J7"]
[Declarer "E"]
[Contract "1NT"]
[Result "6"]
[Auction "W"]
1D Pass 1NT Pass
Pass Pass
[Play "S"]
C9 C7 CQ C3
S6 SJ S3 SA
DT D5 DJ D2
CA CJ CT C5
S8 ST S2 SQ
C8 D9 CK C6
D7 DK D6 D3
H6 HQ H2 H9
HT H3 HA HK
C4 S7 C2 D8
D4 S4 DQ H8
H7 HJ H4 S5
DA H5 S9 SK
"""


def test_a_plain_board_is_replayed_from_its_tag_pairs_and_lines_as_read():
    """The plain reader keeps a game's tag pairs as it found them and its auction and play as their lines: a
    replay of a plain board reads them so, making no tag and no entry, and rules it as it rules the same game
    whose tags and entries were made first."""
    game = read_pbn(_PLAIN)[0]
    res, _ = replay_game(game, "wcny-1913")
    assert res.status == "scored" and (res.contract, res.declarer, res.tricks) == ("1NT", "E", 6)
    assert game._plain is not None  # (no Tag made)
    assert game.section("Auction").plain_calls() == ["1D", "P", "1NT", "P", "P", "P"]
    assert game.section("Play").plain_lines() is not None
    made = read_pbn(_PLAIN)[0]
    assert made.tags and made.section("Auction").entries and made.section("Play").entries  # made before the replay
    assert made.section("Auction").plain_calls() is None and made.section("Play").plain_lines() is None
    again, _ = replay_game(made, "wcny-1913")
    assert again.json_line() == res.json_line() and made == game
