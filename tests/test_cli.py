"""The command line: each verb, its exit status, and its output."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

CASE = ROOT / "rulings" / "wcny-1913" / "an-adversarys-first-established-revoke-gives-the-declarer-a-choice.yaml"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bridgelaw.cli", *args], capture_output=True, text=True, input=stdin)


def test_rule_reads_like_a_ruling_at_the_table():
    p = run("rule", str(CASE))
    assert p.returncode == 0
    assert "East chooses one of:" in p.stdout and "Law 84" in p.stdout
    assert "East–West add 100 points to their honour score" in p.stdout and p.stdout.startswith("Revoke by North — ")


def test_rule_json_from_stdin():
    p = run("rule", "-", "--json", stdin='{"code": "wcny-1913", "irregularity": "insufficient_bid", '
                                         '"dealer": "S", "auction": ["1H", "1S"]}')
    assert p.returncode == 0
    r = json.loads(p.stdout)
    assert [o["id"] for o in r["options"]] == ["penalize", "waive"] and r["options"][0]["chooser"] == "NS"


def test_codes_law_search_kinds():
    assert "wcny-1913" in run("codes").stdout
    cov = json.loads(run("codes", "--coverage", "--json").stdout)
    assert all(row["without_ruling"] == [] for row in cov)
    law = run("law", "wcny-1913", "50b")
    assert law.returncode == 0 and "may not be enforced" in law.stdout
    missing = run("law", "portland-1909", "97")
    assert missing.returncode == 0 and "MISSING" in missing.stdout
    assert run("law", "wcny-1913", "98").returncode == 2
    assert "royal spades" in run("search", "royal", "spades").stdout.lower()
    kinds = run("kinds")
    assert "revoke" in kinds.stdout and "established" in kinds.stdout


def test_check_passes_on_the_repository():
    p = run("check")
    assert p.returncode == 0 and "all load" in p.stdout


def test_auction_rules_on_an_insufficient_bid():
    p = run("auction", "--code", "wcny-1913", "--dealer", "S", "1H", "1S", "--json")
    out = json.loads(p.stdout)
    assert out["calls"][1]["irregularity"] == "insufficient_bid"
    done = json.loads(run("auction", "--code", "wcny-1913", "--dealer", "S", "1H", "2C", "P", "2H", "P", "P", "P",
                          "--json").stdout)
    assert (done["final_declaration"], done["declarer"], done["dummy"], done["leader"]) == ("2H", "E", "W", "S")
    assert done["not_run"] == []


def test_calls_after_the_irregularity_are_said_not_run_not_dropped():
    out = json.loads(run("auction", "--code", "wcny-1913", "--dealer", "S", "1H", "1S", "2H", "P", "P", "P",
                         "--json").stdout)
    assert [c["call"] for c in out["calls"]] == ["1H", "1S"] and out["not_run"] == ["2H", "P", "P", "P"]
    text = run("auction", "--code", "wcny-1913", "--dealer", "S", "s:1h", "1S", "2H").stdout
    assert text.startswith("S: 1H\n") and "not run: 2H (the auction waits on the ruling of W's 1S)" in text


def test_ask_interviews_with_piped_answers():
    p = run("ask", "wcny-1913", stdin="revoke\nN\nS\n\nE\nyes\n1\n")  # no auction: the declarer is asked
    assert p.returncode == 0, p.stderr
    assert "East chooses one of:" in p.stdout and "[tricks]" in p.stdout
    short = run("ask", "wcny-1913", stdin="revoke\nN\n")
    assert short.returncode == 2 and "answers ended" in short.stderr


def test_score_prints_the_sheet():
    p = run("score", str(ROOT / "rulings" / "wcny-1913" / "scores" / "fosters-we-they-rubber-is-won-by-they-by-450.yaml"))
    assert p.returncode == 0 and "rubber: EW by 450" in p.stdout


def test_score_prints_a_three_hand_sheet_player_by_player():
    f = ROOT / "rulings" / "wcny-1913-three-hand" / "scores" / \
        "a-three-game-rubber-pays-125-a-game-and-250-to-the-player-who-wins-two.yaml"
    p = run("score", str(f))
    assert p.returncode == 0, p.stderr
    assert "250  rubber (law T14)" in p.stdout and "settlement:" in p.stdout and "totals: N " in p.stdout


def _printed_entries(sheet: str, players: bool, reasons: list[str]) -> list[tuple[str, int]]:
    """(who, points) of every entry line a printed score sheet shows; each reason shown goes in ``reasons``."""
    import re
    got = []
    for line in sheet.splitlines():
        if "(law " not in line or line.startswith(("note:", "settlement:", "rubber:")):
            continue
        if players:
            m = re.match(r"^  (\w+)\s+(\d+)  ", line)
            got.append((m.group(1), int(m.group(2))))
        else:
            left, _, right = line.partition("|")
            cell, who = (left, "NS") if left.strip() else (right, "EW")
            got.append((who, int(cell.split()[0])))
            why = cell.split(None, 1)[1].rsplit(" (law ", 1)[0]
            reasons.append(why)
    return sorted(got)


def test_every_casebook_score_sheet_prints_each_entry_once_in_its_column():
    """The printed sheet shows exactly the score's entries: a three-hand rubber's game bonuses stand where each
    game was won, inside the deals' run of entries, and are not lost or shown as another entry."""
    from bridgelaw import api
    from bridgelaw.cli import score_sheet
    from bridgelaw.scoring import score

    import yaml
    files = sorted((ROOT / "rulings").glob("*/scores/*.yaml"))
    assert files
    for f in files:
        s = score(api.unwrap(yaml.safe_load(f.read_text()), "result", "code"))
        want = sorted((e.side.value, e.points) for e in s.entries)
        shown: list[str] = []
        assert _printed_entries(score_sheet(s), bool(s.players), shown) == want, f.name
        full = {e.reason for e in s.entries}
        for why in shown:  # a reason too long for its column is cut with a mark, never so it reads as another
            assert why in full or (why.endswith("…") and any(r.startswith(why[:-1]) for r in full)), (f.name, why)


def test_three_hand_auction_reseats_the_table():
    p = run("auction", "--code", "wcny-1913-three-hand", "--dealer", "S", "1H", "2C", "P", "P")
    assert p.returncode == 0, p.stderr
    assert "declarer W plays his hand and the dummy's (T7)" in p.stdout
    assert "the dummy hand goes opposite him, to E, and E moves to N" in p.stdout
    out = json.loads(run("auction", "--code", "wcny-1913-three-hand", "--dealer", "S", "1H", "2C", "P", "P",
                         "--json").stdout)
    assert out["seating"] == {"N": "E", "E": "dummy", "S": "S", "W": "W"} and out["leader"] == "N"
    assert run("auction", "--code", "wcny-1913", "--dealer", "S", "P").returncode == 2


def test_the_three_hand_auction_cites_the_laws_of_the_codes_seat_model(monkeypatch, capsys):
    """The laws the reseating cites are the code's data (code.yaml ``table:``), not the CLI's: with the seat
    model's laws changed, the printed laws change with them."""
    import dataclasses

    from bridgelaw.cli import main
    from bridgelaw.table import core, model

    def changed(code):
        rules = model.rules_of(code)
        seats = {k: dataclasses.replace(v, law=v.law + "x") for k, v in rules.seats.items()}
        return dataclasses.replace(rules, seats=seats)

    monkeypatch.setattr(core, "rules_of", changed)
    assert main(["auction", "--code", "wcny-1913-three-hand", "--dealer", "S", "1H", "2C", "P", "P"]) == 0
    out = capsys.readouterr().out
    assert "plays his hand and the dummy's (T7x)" in out and "T8x: the dummy hand goes opposite him" in out


def test_straight_bridge_auction_reads_the_multiplier_and_the_doubling_still_open():
    p = run("auction", "--code", "portland-1904", "--dealer", "S", "H", "X", "X", "P")
    assert "the doubling goes on: E to double or not" in p.stdout and "final declaration" not in p.stdout
    p = run("auction", "--code", "portland-1904", "--dealer", "S", "H", "X", "X", "P", "P")
    assert "final declaration H (each trick x4); declarer S" in p.stdout
    p = run("auction", "--code", "portland-1904", "--dealer", "S", "P", "NT", "P", "P")
    assert "final declaration NT; declarer S" in p.stdout


def test_history_and_audit():
    h = run("history", "one-spade-limit")
    assert h.returncode == 0 and "1913" in h.stdout
    a = run("audit", "wcny-1913", "--json")
    assert a.returncode == 0 and json.loads(a.stdout)["incidents"] > 0


def test_bad_usage_exits_2():
    assert run("rule").returncode == 2
    assert run("frobnicate").returncode == 2


def test_version_and_python_dash_m():
    from bridgelaw import __version__

    p = subprocess.run([sys.executable, "-m", "bridgelaw", "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == f"bridgelaw {__version__}"


def test_topics_lists_the_taxonomy_with_the_codes_that_use_each():
    rows = json.loads(run("topics", "--json").stdout)
    by_topic = {r["topic"]: r for r in rows}
    assert "revoke" in by_topic and "wcny-1913" in by_topic["revoke"]["codes"]
    assert "chicane" in by_topic and "wcny-1913" not in by_topic["chicane"]["codes"]  # 1913 dropped chicane
    text = run("topics").stdout
    assert text.splitlines()[0].startswith(rows[0]["topic"])


def test_the_tests_use_a_temporary_cache():
    import os
    from pathlib import Path

    cache = Path(os.environ["BRIDGELAW_CACHE"])
    assert cache != Path.home() / ".cache" / "bridgelaw"
