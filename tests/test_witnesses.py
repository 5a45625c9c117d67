"""Collated witnesses: where a code survives in two copies, every difference between the second copy and the
text is recorded on its law (witness, reading, which the text follows and why) or set aside as the copy's
page furniture by a pattern its code.yaml states; misprints mended against the second copy cite it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import bridgelaw
from bridgelaw.witnesses import collate, mends, variants, witnesses

from conftest import ROOT, SHARED

COLLATED = [c for c in bridgelaw.codes() if len(witnesses(bridgelaw.load_code(c))) > 1]


def test_the_two_codes_with_second_copies_list_their_witnesses():
    assert set(COLLATED) == {"wcny-1913", "american-1905"}
    for cid in COLLATED:
        code = bridgelaw.load_code(cid)
        ws = witnesses(code)
        assert ws[0].first and ws[0].file == code.sources[0]["file"]
        assert all(not w.first for w in ws[1:])


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared sources are beside the repository only")
@pytest.mark.parametrize("code_id", COLLATED)
def test_every_variant_of_the_second_witness_is_recorded(code_id):
    code = bridgelaw.load_code(code_id)
    for w in witnesses(code)[1:]:
        assert [str(d) for d in collate(code, w.id, SHARED)] == []


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared sources are beside the repository only")
def test_collation_finds_a_variant_no_one_recorded(tmp_path, monkeypatch, fresh_codes):
    """The check can fail: drop one recorded variant and the collation names it."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "laws", data / "laws")
    f = data / "laws" / "american-1905" / "17-the-revoke.yaml"
    text = f.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if "score game, in that hand" in x)
    f.write_text(text.replace(line + "\n", "").replace("    variants:\n    provisions:", "    provisions:"),
                 encoding="utf-8")
    monkeypatch.setenv("BRIDGELAW_DATA", str(data))
    found = collate(bridgelaw.load_code("american-1905"), "advanced-bridge-1907", SHARED)
    assert [(d.law, d.ours, d.reading) for d in found] == [("89", "game", "game,")]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared sources are beside the repository only")
@pytest.mark.parametrize("law, printed, read", [("61", "eldest had has", "eldest hand has"),
                                                 ("72", "one be pleases", "one he pleases"),
                                                 ("79", "player he compelled", "player be compelled"),
                                                 ("91", "lowest card or the suit", "lowest card of the suit")])
def test_the_misprints_of_the_first_1905_copy_are_mended_from_the_second(law, printed, read):
    code = bridgelaw.load_code("american-1905")
    m = next(m for m in mends(code, law) if m["source"] == printed)
    assert m["text"] == read and m["witness"] == "advanced-bridge-1907"
    first, second = (" ".join((SHARED / w.file).read_text(encoding="utf-8").split()) for w in witnesses(code))
    assert printed in first and read in second and read in code.law(law).text


def test_the_1905_honours_table_reads_54_as_the_second_copy_prints_it():
    code = bridgelaw.load_code("american-1905")
    row = next(x for x in code.law("6").text.splitlines() if x.startswith('HONOURS: 5 " (4 in one hand)'))
    assert row.split(" | ")[3] == "54"
    table = code.params["honours_as_printed"]["D"]
    trick = code.params["trick_values"]["D"]
    assert table["four_in_one_hand_fifth_in_partners"] == 54 == 9 * trick
    assert any(m.get("witness") == "advanced-bridge-1907" and "54" in m["note"] for m in mends(code, "6"))
    assert [v.why for v in variants(code, "6")] == ["first witness kept"]


def test_law_variants_shows_the_readings(capsys):
    from bridgelaw.cli import main

    assert main(["law", "american-1905", "52", "--variants"]) == 0
    out = capsys.readouterr().out
    assert "advanced-bridge-1907 reads:" in out and "redouble" in out and "first witness kept" in out
    assert main(["law", "wcny-1912", "3", "--variants"]) == 0
    assert "none: the code has one witness" in capsys.readouterr().out


@pytest.mark.parametrize("edit, message", [
    (("witness: advanced-bridge-1907, ours: 'score game in that hand'", "witness: elwell, ours: 'score game in that hand'"),
     "witness 'elwell' is not one of"),
    (("ours: 'score game in that hand'", "ours: 'score games in that hand'"), "not in the law's text"),
    (("follows: bridge-principles, why: first witness kept}", "follows: bridge-principles, why: liked it}"),
     "why"),
])
def test_a_broken_variant_is_refused_at_its_line(tmp_path, monkeypatch, fresh_codes, edit, message):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "laws", data / "laws")
    f = data / "laws" / "american-1905" / "17-the-revoke.yaml"
    text = f.read_text(encoding="utf-8")
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if "score game in that hand" in x and "witness:" in x)
    assert edit[0] in lines[i]
    lines[i] = lines[i].replace(edit[0], edit[1])
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setenv("BRIDGELAW_DATA", str(data))
    with pytest.raises(bridgelaw.BridgelawError) as e:
        variants(bridgelaw.load_code("american-1905"), "89")
    assert message in str(e.value) and "17-the-revoke.yaml:" in str(e.value)


def test_every_recorded_variant_and_mend_names_a_witness_of_its_code():
    for cid in bridgelaw.codes():
        code = bridgelaw.load_code(cid)
        ids = {w.id for w in witnesses(code)}
        for law in code.laws:
            if law.code != cid:
                continue
            assert all(v.witness in ids for v in variants(code, law.number))
            assert all(m["witness"] in ids for m in mends(code, law.number) if "witness" in m)


def test_a_mutated_variant_file_is_refused_with_its_place_or_read(tmp_path, monkeypatch, fresh_codes):
    """Mutations of a law file's variant lines: it loads and its variants read, or one error names the spot."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    data = tmp_path / "data"
    shutil.copytree(ROOT / "laws", data / "laws")
    f = data / "laws" / "american-1905" / "17-the-revoke.yaml"
    original = f.read_text(encoding="utf-8")
    lines = original.splitlines()
    at = [i for i, x in enumerate(lines) if "witness: advanced-bridge-1907" in x or x.strip() == "variants:"]
    monkeypatch.setenv("BRIDGELAW_DATA", str(data))

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(line=st.sampled_from(at), pos=st.integers(0, 120), junk=st.sampled_from(["", "x", ":", "}", "'", "  "]))
    def run(line: int, pos: int, junk: str) -> None:
        mutated = list(lines)
        s = mutated[line]
        p = min(pos, len(s))
        mutated[line] = s[:p] + junk + s[p + 1:]
        f.write_text("\n".join(mutated) + "\n", encoding="utf-8")
        from bridgelaw.loader import clear_cache

        clear_cache()
        try:
            code = bridgelaw.load_code("american-1905")
            for n in ("89", "90"):
                variants(code, n)
        except bridgelaw.BridgelawError as e:
            assert "17-the-revoke.yaml" in str(e) or "american-1905" in str(e), e
        finally:
            f.write_text(original, encoding="utf-8")

    run()
