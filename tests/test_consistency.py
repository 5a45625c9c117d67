"""The consistency audit: every same-game pair audited, every suspect settled, and what it must find, found."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bridgelaw import consistency, sentences
from bridgelaw.consistency import (DIFFERENT, SAME, audit_against, audit_game, load_settlements, normalise,
                                   same_game_pairs, stale_settlements, substance)
from bridgelaw.errors import InputError, LawFileError
from bridgelaw.loader import clear_cache

from conftest import ROOT, expectations

BROKEN = sorted((Path(__file__).parent / "broken" / "consistency").glob("*.yaml"))


@pytest.fixture(scope="module")
def reports():
    return audit_game()


@pytest.mark.timeout(600)  # the audit of every pair (the module fixture) runs here: ~140 s of CPU since the revoke's `followers` (about 40 s before), more under load
def test_every_same_game_pair_is_audited_and_every_suspect_settled(reports):
    assert sorted((r.a, r.b) for r in reports) == sorted(same_game_pairs())
    assert len(reports) == 18  # 15 pairs of auction codes, 3 of straight bridge
    unsettled = [(r.a, r.b, s.kind, s.suspect, sorted(s.key()[2])) for r in reports for s in r.unsettled]
    assert not unsettled, "read the laws, then fix the data or record why in laws/consistency.yaml:\n" + \
        "\n".join(map(str, unsettled))
    assert sum(len(r.suspects) for r in reports) > 50 and all(r.incidents > 1000 for r in reports)


def test_no_settlement_outlives_its_suspect(reports):
    stale = stale_settlements(reports)
    assert not stale, [f"laws/consistency.yaml:{s.line}" for s in stale]


def test_every_fixed_suspect_is_pinned_by_a_casebook_ruling():
    fixed = [s for s in load_settlements() if s.verdict == "fixed"]
    assert fixed
    for s in fixed:
        assert (ROOT / s.ruling).is_file(), f"laws/consistency.yaml:{s.line}: no ruling {s.ruling}"


def test_a_pair_audit_finds_no_more_than_the_game_audit(reports):
    game = {s.key() for r in reports for s in r.suspects}
    pair = audit_against("wcny-1912", "wcny-1913")
    assert pair.suspects and {s.key() for s in pair.suspects} <= game and not pair.unsettled


def test_spelling_is_set_aside_and_substance_is_not():
    assert normalise("re-double the Honors,[^3] any one") == normalise("redouble the honours, anyone")
    assert substance("A revoke must be claimed before the cut.", "A revoke must be claimed before the cut.") == ((), ())
    assert substance("the declarer may call 100 points", "the dealer may call 50 points") == \
        (("100", "declarer"), ("50", "dealer"))
    assert substance("(a) If the player has passed", "I. If the player has passed") == ((), ())


def test_codes_of_two_games_cannot_be_audited_together():
    with pytest.raises(InputError, match="one game") as e:
        audit_against("wcny-1913", "portland-1904")
    assert e.value.field == "--against"
    with pytest.raises(InputError, match="against itself"):
        audit_against("wcny-1913", "wcny-1913")
    with pytest.raises(InputError, match="unknown code"):
        audit_against("wcny-1913", "wcny-1914")
    with pytest.raises(InputError, match="did you mean 'revoke'"):
        audit_against("wcny-1913", "wcny-1912", ["revok"])


# --------------------------------------------------------------------------
# Planted inconsistencies: the audit must find them


@pytest.fixture
def copied_laws(tmp_path, monkeypatch, fresh_codes):
    shutil.copytree(ROOT / "laws", tmp_path / "laws")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))

    def reload() -> None:
        clear_cache()
        sentences.clear_cache()
        consistency.clear_cache()

    reload()
    yield tmp_path / "laws", reload
    sentences.clear_cache()
    consistency.clear_cache()


def test_a_provision_ruling_against_a_law_that_reads_the_same_is_found(copied_laws):
    laws, reload = copied_laws
    path = laws / "wcny-1913" / "14-cards-exposed-during-play.yaml"
    text = path.read_text(encoding="utf-8")
    old = "      - id: declarer-exposes\n        kinds: [exposed_card, exposed_card_before_lead]\n        when: offender is declarer\n        effects:\n        - {kind: no_penalty}"
    assert old in text
    path.write_text(text.replace(old, old.replace("{kind: no_penalty}", "{kind: exposed_card, seat: offender}")),
                    encoding="utf-8")
    reload()
    rep = audit_against("wcny-1912", "wcny-1913", ["exposed_card"])
    found = [s for s in rep.unsettled if s.suspect == DIFFERENT]
    assert found and {("wcny-1912/72", "wcny-1913/72")} <= set(found[0].key()[2])
    assert "Cards exposed by the declarer are not liable to be called." in [p.text for p, _ in found[0].pairs]


def test_a_settlement_removed_leaves_its_suspect_unsettled(copied_laws):
    laws, reload = copied_laws
    path = laws / "consistency.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - kind: revoke\n    suspect: same-ruling\n    laws:\n    - [wcny-1912/88, wcny-1913/88]")
    end = text.index("  - kind:", start + 10)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    reload()
    rep = audit_against("wcny-1912", "wcny-1913", ["revoke"])
    assert [sorted(s.key()[2]) for s in rep.unsettled] == [[("wcny-1912/88", "wcny-1913/88")]]
    assert rep.unsettled[0].suspect == SAME and "must" in rep.unsettled[0].differs[0]


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_consistency_file(path, copied_laws):
    laws, reload = copied_laws
    want = expectations(path)
    shutil.copy(path, laws / "consistency.yaml")
    reload()
    with pytest.raises(LawFileError) as e:
        load_settlements()
    assert want["error"] in str(e.value) and e.value.path == "laws/consistency.yaml"
    if "at" in want:
        assert f"{e.value.line}:{e.value.column}" == want["at"]


# --------------------------------------------------------------------------
# The command


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bridgelaw.cli", *args], capture_output=True, text=True)


def test_audit_against_prints_both_laws_and_each_settlement():
    p = _run("audit", "wcny-1912", "--against", "wcny-1913", "--kind", "revoke")
    assert p.returncode == 0, p.stderr
    assert "consistency audit of wcny-1912 against wcny-1913" in p.stdout and "0 unsettled" in p.stdout
    assert "wcny-1912 law 88: A revoke must be claimed before" in p.stdout
    assert "wcny-1913 law 88: A revoke cannot be claimed after" in p.stdout and "settled (stands" in p.stdout
    bad = _run("audit", "wcny-1912", "--against", "american-1905")
    assert bad.returncode == 2 and bad.stderr.startswith("bridgelaw: --against:") and "one game" in bad.stderr
