"""PBN 2.1: reading, writing, the ^ markers, and replaying whole deals."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bridgelaw import InputError
from bridgelaw.pbn import read_pbn, write_pbn
from bridgelaw.replay import replay

from conftest import ROOT

DEAL = "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 .543.76543.87654"


def test_markers_are_read_and_checked_against_what_the_table_finds():
    rec = read_pbn((ROOT / "examples" / "insufficient-bid-and-revoke.pbn").read_text())[0]
    assert rec.tags["Dealer"] == "S" and rec.auction[1] == ("1S", ["^I"])
    rep = replay(rec)
    assert rep["mismatches"] == []
    bad = [e for e in rep["events"] if e.get("irregularity") == "insufficient_bid"]
    assert bad and bad[0]["seat"] == "W"
    # no choice recorded: the first option (penalize) is taken and said
    assert any("took the first option, penalize" in e.get("note", "") for e in rep["events"])
    assert rep["state"]["calls"][1] == ["W", "4S"]


def test_a_marker_the_table_does_not_confirm_is_reported():
    rec = read_pbn('[Code "wcny-1913"]\n[Dealer "S"]\n[Auction "S"]\n1H 2H ^I Pass Pass\nPass\n')[0]
    rep = replay(rec)
    assert rep["mismatches"] and "^I" in rep["mismatches"][0]


def test_written_pbn_reads_back_and_replays_to_the_same_play():
    text = (ROOT / "examples" / "one-spade-made.pbn").read_text()
    rep = replay(read_pbn(text)[0])
    assert rep["phase"] == "done" and rep["mismatches"] == []
    again = write_pbn(rep["state"])
    assert again == text


def test_json_record_with_a_recorded_choice():
    # law 50, note 11: the penalty not demanded, the insufficient bid stands; the bid it was made over may be
    # repeated
    rep = replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
        {"seat": "S", "call": "1H"}, {"seat": "W", "call": "1S"}, {"apply": "waive"},
        {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"}, {"seat": "S", "call": "1H"},
        {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
    ]})
    assert rep["declarer"] == "S" and rep["contract"] == "1H"
    assert [e.get("applied") for e in rep["events"] if "applied" in e] == ["waive"]


def test_a_recorded_choice_names_the_suit_called():
    rep = replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
        {"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
        {"seat": "E", "card": "ST"}, {"apply": "call-suit", "suit": "D"},  # law 66: a diamond from W, the leader
    ]})
    assert rep["state"]["constraints"] == [{"kind": "call_lead", "seat": "W", "suit": "D"}]
    with pytest.raises(InputError, match="suit the chooser names"):
        replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
            {"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"},
            {"seat": "E", "call": "P"}, {"seat": "E", "card": "ST"}, {"apply": "call-suit"}]})


def test_a_trick_whose_cards_cannot_all_be_placed_is_named_not_replayed_for_ever():
    with pytest.raises(InputError, match="the record has no card of W's"):
        replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
            {"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"},
            {"seat": "E", "call": "P"}, {"trick": [{"seat": "E", "card": "ST"}]}]})


def test_replay_names_the_revoker_when_a_later_card_establishes_his_revoke(tmp_path):
    import json

    d = "N:KJ73.T73.Q84.K95 AQT62.62.J73.Q84 95.AK95.AT62.J73 84.QJ84.K95.AT62"
    rec = {"code": "wcny-1913", "dealer": "S", "deal": d, "events": [
        {"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
        {"seat": "W", "card": "S8"}, {"seat": "N", "card": "S3"}, {"seat": "E", "card": "D3"},  # E holds spades
        {"seat": "S", "card": "S5"}, {"seat": "W", "card": "S4"}, {"apply": "tricks"}]}
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rec))
    p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "replay", str(f)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "W S4: revoke by E (a ruling now due)" in p.stdout


def test_a_three_hand_record_replays_reseated_and_scores_player_by_player():
    import json

    rec = json.loads((ROOT / "examples" / "three-hand-bid-out-of-turn.json").read_text())
    rep = replay(rec)
    assert rep["declarer"] == "W" and rep["seating"] == {"N": "E", "E": "dummy", "S": "S", "W": "W"}
    assert rep["events"][1]["irregularity"] == "call_out_of_turn" and not rep["mismatches"]
    totals = {k: v["total"] for k, v in rep["score"]["totals"].items()}
    # T5: 50 to each of S and W; T13: W counts his A, T (12) and the dummy's K (6) separately; 2 odd at 6
    assert totals == {"E": 6, "S": 56, "W": 80}


@pytest.mark.parametrize("text, where, what", [
    ('[Dealer "S"]\n[Auction "S"]\n1H 8C\n', "<pbn>:3:4", "is not a call"),
    ('[Dealer "S"]\n[Auction "S"]\n^I 1H\n', "<pbn>:3:1", "follows no call"),
    ('[Dealer "S"]\n[Play "W"]\nSA SK ZZ S2\n', "<pbn>:3:7", "is not a card"),
    ('[Dealer "S"\n', "<pbn>:1:1", "not a PBN tag"),
])
def test_errors_point_at_line_and_column(text, where, what):
    with pytest.raises(InputError) as info:
        read_pbn(text)
    assert info.value.field == where and what in info.value.message


def test_replay_cli_exits_2_on_a_bad_record(tmp_path):
    f = tmp_path / "bad.pbn"
    f.write_text('[Dealer "S"]\n[Auction "S"]\n1H 8C\n')
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "replay", str(f), "--code", "wcny-1913"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "bad.pbn:3:4" in proc.stderr and "Traceback" not in proc.stderr
