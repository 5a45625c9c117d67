"""``bridgelaw replay`` on archives: a line per board, JSON Lines, bad input as one clean line and exit 2,
--jobs, --write, --dask (a local cluster)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bridgelaw.cli import main
from bridgelaw.pbn import read_pbn

from conftest import ROOT

EXAMPLE = ROOT / "examples" / "insufficient-bid-and-revoke.pbn"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bridgelaw.cli", "replay", *args], capture_output=True, text=True,
                          input=stdin, timeout=120)


def lines(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines() if x.strip()]


@pytest.mark.parametrize("stdin, what", [
    ("nope\n", "neither a PBN file"),
    ('{"code": "wcny-1913", "dealer": "S", "events": [5]}', "events[0]"),
    ('{"code": "wcny-1913", "dealer": "S", "events": [{"call": "1H"}]}', "events[0].seat"),
    ('{"code": "wcny-1913", "dealer": "S", "deal": 5, "events": []}', "record.deal"),
    ('{"code": ["wcny-1913"], "dealer": "S", "events": []}', "record.code"),
    ('{"code": "wcny-1913", "dealer": "S", "events": {}}', "record.events"),
    ('[1, 2]', "expected a deal record"),
    ('[]', "an empty list"),
    ('{"code": "wcny-1913", "dealer": "S", "events": [', "not valid JSON"),
    ('[Dealer "S"]\n[Auction "S"]\n1H 8C\n', "<stdin>:3:4"),
    ('{"code": "wcny-1913", "dealer": "S",\n "dealer": "N", "events": []}', "duplicate key 'dealer' (first at line 1)"),  # a key given twice
    # an event's misspelt field, once ignored (the call made by no one named, the chooser not given)
    ('{"code": "wcny-1913", "dealer": "S", "events": [{"seat": "S", "call": "1H", "seet": "N"}]}',
     "events[0].seet: not a field of a call event (seat, call) (did you mean 'seat'?)"),
    ('{"code": "wcny-1913", "dealer": "S", "events": [{"seat": "S", "call": "1H"}, {"seat": "W", "call": "1D"}, '
     '{"apply": "penalize", "bye": "NS"}]}', "events[2].bye: not a field of an apply event (apply, by, suit, card)"),
    ('{"code": "wcny-1913", "dealer": "S", "events": [{"trick": [{"seat": "W", "card": "SA", "lead": true}]}]}',
     "events[0].trick[0].lead: not a field of a card of a trick (seat, card)"),
    # an apply's card (the card its chooser names) is the apply's, not a card played; with no ruling waiting it
    # is refused as a choice, not played
    ('{"code": "wcny-1913", "dealer": "S", "events": [{"apply": "penalize", "card": "SA"}]}',
     "events[0]: no ruling is waiting for this choice"),
])
def test_bad_input_is_one_clean_line_and_exit_2(stdin, what):
    p = cli("-", stdin=stdin)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert what in p.stderr and "Traceback" not in p.stderr + p.stdout
    assert len([x for x in p.stderr.splitlines() if x.startswith("bridgelaw:")]) == 1


def test_a_json_array_of_records_is_a_board_each(tmp_path):
    rec = json.loads((ROOT / "examples" / "three-hand-bid-out-of-turn.json").read_text())
    f = tmp_path / "records.json"
    f.write_text(json.dumps([rec, {"code": "wcny-1913", "dealer": "S", "events": [{"seat": "S"}]}, rec]))
    p = cli(str(f), "--json")
    got = lines(p.stdout)
    assert [g["status"] for g in got] == ["scored", "refused", "scored"] and p.returncode == 2
    assert got[1]["where"] == "record.events[0]" and got[0]["score"] == got[2]["score"]


def test_a_folder_gives_a_line_per_board_and_a_summary(tmp_path):
    (tmp_path / "a.pbn").write_bytes(EXAMPLE.read_bytes())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.pbn").write_bytes((ROOT / "examples" / "one-spade-made.pbn").read_bytes())
    p = cli(str(tmp_path))
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert sum(": scored" in x for x in out) == 3
    assert any(x.startswith("3 boards in") for x in out)


def test_json_lines_name_file_board_status_and_score():
    p = cli(str(EXAMPLE), "--json")
    got = lines(p.stdout)
    assert [(g["file"], g["board"], g["status"], g["score"]) for g in got] == [
        (str(EXAMPLE), "1", "scored", {"NS": 180, "EW": 0}), (str(EXAMPLE), "2", "scored", {"NS": 280, "EW": 0})]
    assert "boards in" in p.stderr  # the summary stays off the JSON Lines


def test_a_refused_board_names_its_line_and_the_others_are_scored(tmp_path):
    bad = EXAMPLE.read_text(encoding="latin-1").replace("DQ DT D3 DA", "DQ DT D3 ZZ", 1)
    f = tmp_path / "x.pbn"
    f.write_text(bad, encoding="latin-1")
    got = lines(cli(str(f), "--json").stdout)
    assert [g["status"] for g in got] == ["refused", "scored"]
    assert got[0]["where"] == f"{f}:21:10" and "is not a card" in got[0]["reason"]


def test_jobs_give_the_same_lines_in_the_same_order():
    one = lines(cli(str(EXAMPLE), str(EXAMPLE), "--json").stdout)
    two = lines(cli(str(EXAMPLE), str(EXAMPLE), "--json", "--jobs", "2").stdout)
    assert one == two and len(one) == 4


def test_write_then_replay_again_is_the_same(tmp_path):
    out = tmp_path / "out.pbn"
    first = lines(cli(str(EXAMPLE), "--json", "--write", str(out)).stdout)
    again = lines(cli(str(out), "--json").stdout)
    # the markers' acceptance is written as the remedy it was: replayed, it is the remedy recorded
    assert [(g["status"], g["score"], [dict(r, how="recorded") for r in g["rulings"]]) for g in first] == \
        [(g["status"], g["score"], g["rulings"]) for g in again]
    out2 = tmp_path / "out2.pbn"
    cli(str(out), "--write", str(out2))
    assert read_pbn(out2.read_bytes()) == read_pbn(out.read_bytes())


def test_a_json_record_is_written_as_pbn_that_replays_the_same(tmp_path):
    rec = {"code": "wcny-1913", "dealer": "S", "deal": "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 "
                                                         ".543.76543.87654",
           "events": [{"seat": "S", "call": "1H"}, {"seat": "W", "call": "1S"}, {"apply": "penalize"},
                      {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"}, {"seat": "S", "call": "P"}]}
    f, out = tmp_path / "r.json", tmp_path / "r.pbn"
    f.write_text(json.dumps(rec))
    first = lines(cli(str(f), "--json", "--write", str(out)).stdout)
    again = lines(cli(str(out), "--json").stdout)
    assert first[0]["contract"] == again[0]["contract"] == "4S" and again[0]["status"] == "unfinished"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_of_commentary_only_is_no_board_not_a_refusal(tmp_path, jobs):
    f, out = tmp_path / "header.pbn", tmp_path / "out.pbn"
    f.write_text("% PBN 2.1\n% EXPORT\n")  # an export with no game in it
    p = cli(str(f), "--code", "wcny-1913", "--jobs", jobs, "--write", str(out))
    assert p.returncode == 0 and p.stdout == "", p
    assert "no game in the file" in p.stderr and "Traceback" not in p.stderr
    # (written back, in import format: the "% EXPORT" line would be false of the file written, and is not written)
    assert out.read_text(encoding="utf-8-sig") == "% PBN 2.1\n"


def test_a_json_record_must_name_its_code():
    p = cli("-", stdin='{"dealer": "S", "events": []}')
    assert p.returncode == 2 and 'code: name the code: "code"' in p.stderr and "Traceback" not in p.stderr, p


def test_a_deal_file_that_names_no_code_is_ruled_under_the_latest_four_player_auction_code_and_says_so(tmp_path):
    """A PBN file from the wild names no historic code: it is ruled under the latest code of the four-player
    auction game that revises no other (chosen from the codes' data), and every board says so."""
    from bridgelaw import load_code
    from bridgelaw.loader import code_ids

    codes = [load_code(c) for c in code_ids()]
    latest = max((c.year, c.id) for c in codes if c.game == "auction" and c.players == 4 and not c.extends)[1]
    f = tmp_path / "wild.pbn"
    f.write_text('[Event "club night"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                 '[Deal "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 .543.76543.87654"]\n'
                 '[Declarer "N"]\n[Contract "1S"]\n[Result "11"]\n', encoding="utf-8")
    p = cli(str(f), "--json")
    (board,) = lines(p.stdout)
    assert p.returncode == 0 and board["status"] == "scored" and board["code"] == latest, p
    assert any("names no code" in n and latest in n for n in board["notes"]), board
    p = cli(str(f), "--json", "--code", "portland-1909")  # named, it is used, and nothing is presumed
    (board,) = lines(p.stdout)
    assert board["code"] == "portland-1909" and not any("names no code" in n for n in board.get("notes", [])), board


@pytest.mark.timeout(180)
def test_dask_runs_the_same_per_board_function_on_a_local_cluster():
    pytest.importorskip("distributed")
    from bridgelaw.replay.archive import boards, run

    serial = [r.to_json() for r in run(boards([str(EXAMPLE)] * 3))]
    on_dask = [r.to_json() for r in run(boards([str(EXAMPLE)] * 3, unread=True), jobs=2, dask="local", batch=2)]
    assert serial == on_dask and len(serial) == 6


def test_jobs_read_the_games_where_they_replay_them_and_inherit_as_one_process_does(tmp_path):
    text = ('[Board "##7"]\n[BridgelawCode "##wcny-1913"]\n[Dealer "S"]\n[Auction "S"]\n1H Pass Pass Pass\n'
            '[Result "7"]\n\n[Dealer "S"]\n[Auction "S"]\n1S Pass Pass Pass\n[Result "#"]\n\n{the end}\n')
    f = tmp_path / "h.pbn"
    f.write_text(text)
    one = lines(cli(str(f), "--json").stdout)
    two = lines(cli(str(f), "--json", "--jobs", "2").stdout)
    assert one == two and [g["board"] for g in one] == ["7", "7"] and one[1]["tricks"] == 7


@pytest.mark.parametrize("name", ["zeros.pbn", "zeros"])
def test_a_stream_without_line_ends_is_refused_at_its_line_not_held_whole(tmp_path, name):
    from bridgelaw.pbn.text import LINE_BYTES
    from bridgelaw.replay.archive import RECORD_BYTES

    f = tmp_path / name  # a PBN file is read line by line; anything else is a deal record, read whole
    big = 2 * LINE_BYTES if name.endswith(".pbn") else RECORD_BYTES + 10
    with open(f, "wb") as out:
        out.write(b"[Event \"x\"]\n" if name.endswith(".pbn") else b"")
        out.truncate(big)
    p = cli(str(f))
    assert p.returncode == 2 and "Traceback" not in p.stderr + p.stdout, p.stderr
    assert (f"{f}:2:1: a line of over" if name.endswith(".pbn") else "and no PBN file") in p.stdout + p.stderr


def test_a_yaml_record_is_read_by_the_strict_reader(tmp_path):
    f = tmp_path / "record.yaml"
    f.write_text("code: wcny-1913\ndealer: S\ndealer: N\nevents: []\n")  # PyYAML would keep the last dealer
    p = cli(str(f))
    assert p.returncode == 2 and f"{f}:3:1" in p.stdout + p.stderr and "duplicate key" in p.stdout + p.stderr


def test_a_json_record_that_names_no_dealer_says_whom_it_presumed(tmp_path):
    rec = {"code": "wcny-1913", "events": [{"seat": "S", "call": "1H"}, {"seat": "W", "call": "P"},
                                           {"seat": "N", "call": "P"}, {"seat": "E", "call": "P"}]}
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rec))
    p = cli("--json", str(f))
    assert p.returncode == 0, p.stderr
    [line] = lines(p.stdout)
    assert line["status"] == "unfinished" and line["declarer"] == "S"  # (the play is not recorded)
    assert "the record names no dealer: South is presumed to have dealt" in " ".join(line["notes"])
    rec["dealer"] = "S"
    f.write_text(json.dumps(rec))
    [line] = lines(cli("--json", "--code", "wcny-1912", str(f)).stdout)
    assert line["notes"] == ["the record names its code, wcny-1913: ruled under it, not under wcny-1912 (--code "
                             "names the code of records that name none)"]
