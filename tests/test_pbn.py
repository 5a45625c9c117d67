"""Replaying whole deals: the examples, JSON records, and the table written as PBN."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bridgelaw import InputError, Table
from bridgelaw.pbn import read_pbn
from bridgelaw.replay import replay, replay_game

from conftest import ROOT

DEAL = "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 .543.76543.87654"


def test_the_example_replays_its_markers_as_accepted_and_its_recorded_remedies_as_chosen():
    first, second = read_pbn((ROOT / "examples" / "insufficient-bid-and-revoke.pbn").read_bytes())
    a, _ = replay_game(first)
    b, _ = replay_game(second)
    assert [(r["kind"], r["remedy"], r["how"]) for r in a.rulings] == [
        ("insufficient_bid", "waive", "accepted (^I)"), ("revoke", "-", "accepted (^R)")]
    assert [(r["kind"], r["remedy"], r["how"]) for r in b.rulings] == [
        ("insufficient_bid", "penalize", "recorded"), ("revoke", "points", "recorded")]
    # the revoke let pass costs nothing; the one penalized costs the points law 84 gives (100 in 1913)
    assert a.score == {"NS": 180, "EW": 0} and b.score == {"NS": 280, "EW": 0}
    _, t = replay_game(second, keep=True)
    bid = t.table.calls[1]  # law 50: the insufficient bid made good
    assert (bid.seat, bid.call, bid.made, bid.remedy) == ("W", "4S", "1S", "penalize")


def test_a_record_written_back_reads_and_replays_the_same():
    text = (ROOT / "examples" / "one-spade-made.pbn").read_text()
    res, _ = replay_game(read_pbn(text)[0], write=True)
    assert res.status == "scored" and read_pbn(res.written) == read_pbn(text)


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


def test_a_json_record_with_no_choice_takes_the_first_option_and_says_so():
    rep = replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
        {"seat": "S", "call": "1H"}, {"seat": "W", "call": "1S"}]})
    assert any("took the first option, penalize" in e.get("note", "") for e in rep["events"])
    assert {k: rep["state"]["calls"][1][k] for k in ("seat", "call", "made")} == {"seat": "W", "call": "4S", "made": "1S"}


def test_a_recorded_choice_names_the_suit_called():
    rep = replay({"code": "wcny-1913", "dealer": "S", "deal": DEAL, "events": [
        {"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"}, {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"},
        {"seat": "E", "card": "ST"}, {"apply": "call-suit", "suit": "D"},  # law 66: a diamond from W, the leader
    ]})
    assert rep["state"]["penalties_in_force"] == [{"kind": "call_lead", "seat": "W", "suit": "D"}]
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
    rec = json.loads((ROOT / "examples" / "three-hand-bid-out-of-turn.json").read_text())
    rep = replay(rec)
    assert rep["declarer"] == "W" and rep["seating"] == {"N": "E", "E": "dummy", "S": "S", "W": "W"}
    assert rep["events"][1]["irregularity"] == "call_out_of_turn" and not rep["mismatches"]
    totals = {k: v["total"] for k, v in rep["score"]["totals"].items()}
    # T5: 50 to each of S and W; T13: W counts his A, T (12) and the dummy's K (6) separately; 2 odd at 6
    assert totals == {"E": 6, "S": 56, "W": 80}


def test_a_table_that_ruled_nothing_writes_itself_as_pbn_that_replays_to_its_score():
    t = Table("wcny-1913", dealer="N", deal=DEAL)
    for s, c in [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]:
        t.call(s, c)
    while t.phase == "play":
        t.play(t.turn, t.legal_cards()[0])
    res, _ = replay_game(read_pbn(t.to_pbn())[0])
    assert res.status == "scored" and res.score == {k: v["total"] for k, v in t.score().to_dict()["totals"].items()}


def test_a_table_that_ruled_writes_its_rulings_and_remedies_from_its_history_and_replays_the_same():
    t = Table("wcny-1913", dealer="S", deal=DEAL)
    t.call("S", "1H")
    t.call("W", "1S")
    t.apply("penalize")  # law 50: West's 1S made 4S, East barred
    for s in "NESW":
        if t.phase == "auction":
            t.call(t.turn, "P")
    while t.phase == "play":
        t.play(t.turn, t.legal_cards()[0])
    text = t.to_pbn()
    assert '[BridgelawRemedy "A2 penalize"]' in text
    res, again = replay_game(read_pbn(text)[0], keep=True)
    assert res.status == "scored", res.reason
    assert [(r["kind"], r["remedy"], r["at"]) for r in res.rulings] == [("insufficient_bid", "penalize", "A2")]
    assert again.table.calls == t.calls and again.table.tricks == t.tricks
    assert res.score == {k: v["total"] for k, v in t.score().to_dict()["totals"].items()}


def test_a_table_whose_history_a_record_cannot_hold_says_so():
    t = Table("wcny-1913", dealer="S", deal=DEAL)
    for c in ("1H", "P", "P", "P"):
        t.call(t.turn, c)
    t.play_together("W", ["H5", "H4"])  # two cards at once: no PBN place for them
    with pytest.raises(InputError, match="play together cannot be written to PBN"):
        t.to_pbn()
    with pytest.raises(InputError, match="straight-bridge"):
        Table("portland-1904", dealer="S", deal=DEAL).to_pbn()


def test_replay_cli_exits_2_on_a_bad_record(tmp_path):
    f = tmp_path / "bad.pbn"
    f.write_text('[Dealer "S"]\n[Auction "S"]\n1H 8C\n')
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "replay", str(f), "--code", "wcny-1913"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "bad.pbn:3:4" in proc.stderr and "Traceback" not in proc.stderr


def test_a_result_that_cannot_be_read_is_noted_when_the_play_gives_the_result():
    text = (ROOT / "examples" / "insufficient-bid-and-revoke.pbn").read_text(encoding="latin-1")
    game = read_pbn(text.replace('[Result "12"]', '[Result "=1"]'))[0]
    res, _ = replay_game(game)
    assert res.status == "scored" and res.tricks == 12 and any('[Result "=1"]' in n for n in res.notes)
