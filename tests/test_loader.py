"""The loader's contracts: every file loaded or refused by name, inheritance by id, choosers, the seat model,
the strict YAML reader, the content-keyed cache, and `bridgelaw check` ruling the casebook."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

import bridgelaw
from bridgelaw import InputError, LawFileError, load_code, rule
from bridgelaw.errors import RulingError
from bridgelaw.loader import check_tree, clear_cache, code_ids

from conftest import ROOT


def _copy_laws(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "laws", tmp_path / "laws")
    return tmp_path / "laws"


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bridgelaw.cli", *args], capture_output=True, text=True, **kw)


# ---------------------------------------------------------------------------------------------- files by name


def test_every_file_of_every_code_folder_is_one_the_loader_knows():
    from bridgelaw.loader import FOLDER_FILES, _HEADING

    for folder in (ROOT / "laws").iterdir():
        if folder.is_dir() and folder.name != "kinds.d":
            for p in folder.iterdir():
                assert p.name in FOLDER_FILES or _HEADING.match(p.name), p
    assert check_tree() == []


def test_a_stray_entry_of_laws_is_reported_by_check(tmp_path, monkeypatch, fresh_codes):
    laws = _copy_laws(tmp_path)
    (laws / "wcny-1914").mkdir()
    (laws / "wcny-1914" / "code.yml").write_text("id: wcny-1914\n")
    (laws / "notes.txt").write_text("a note\n")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    problems = [str(e) for e in check_tree()]
    assert any("folder wcny-1914/ has no code.yaml (did you mean 'code.yml'?)" in p for p in problems)
    assert any("'notes.txt' is neither kinds.yaml, kinds.d, topics.yaml, spelling.yaml" in p for p in problems)
    from bridgelaw.check import check

    report = check()
    assert len(report.law_errors) == 2 and "2 file(s) refused" in report.summary()


def test_a_kinds_d_file_not_named_yaml_is_refused(tmp_path, monkeypatch, fresh_codes):
    from bridgelaw.loader import load_kinds

    laws = _copy_laws(tmp_path)
    (laws / "kinds.d" / "wcny-1912.yaml").rename(laws / "kinds.d" / "wcny-1912.yml")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError, match=r"'wcny-1912.yml' would be skipped \(did you mean 'wcny-1912.yaml'\?\)"):
        load_kinds()


def test_a_heading_file_that_is_a_symlink_loop_is_refused_by_name(tmp_path, monkeypatch, fresh_codes):
    laws = _copy_laws(tmp_path)
    f = laws / "wcny-1912" / "01-the-rubber.yaml"
    f.unlink()
    f.symlink_to(f.name)
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError, match="heading file 01-the-rubber.yaml is a loop of symbolic links") as info:
        load_code("wcny-1912")
    assert info.value.line == 1


# ---------------------------------------------------------------------------------------------- inheritance


def _provisions(code: str) -> dict[str, dict]:
    out = {}
    for f in sorted((ROOT / "laws" / code).glob("[0-9][0-9]-*.yaml")):
        for law in yaml.safe_load(f.read_text()).get("laws") or []:
            for p in law.get("provisions") or []:
                out[(law["number"], p["id"])] = p
    return out


@pytest.mark.parametrize("code", [c for c in code_ids() if load_code(c).extends])
def test_no_extending_code_copies_a_parent_provision_word_for_word(code):
    """A restated law inherits its parent's provisions by id: a copy would only drift."""
    parent = load_code(code).extends
    mine, theirs = _provisions(code), _provisions(parent)
    copies = [k for k, p in mine.items() if theirs.get(k) == p]
    assert copies == []


def test_a_restated_law_inherits_the_parents_provisions_by_id_in_the_parents_order():
    a1905, a1907 = load_code("american-1905"), load_code("american-1907")
    assert a1907.law("38").text != a1905.law("38").text  # 1907 restates the law's text ...
    assert [p.id for p in a1907.law("38").provisions] == [p.id for p in a1905.law("38").provisions]
    # ... and keeps its provisions, which still name the code they come from (README: trace ids)
    assert {p.full_id.split("/")[0] for p in a1907.law("38").provisions} == {"american-1905"}
    # a provision restated with the same id replaces the parent's, in its place
    law55 = a1907.law("55")
    assert [p.id for p in law55.provisions] == [p.id for p in a1905.law("55").provisions]
    assert law55.provisions[0].full_id == "american-1907/55/redouble-out-of-turn"


def test_drop_leaves_out_a_parent_provision_a_restated_law_does_not_keep():
    p1908 = load_code("portland-1908")
    assert p1908.law("90").drop == ("revoke-penalty", "revoke-penalty-consultation")
    assert [p.id for p in p1908.law("90").provisions] == ["declarer-revokes", "adversary-revokes",
                                                         "revoking-side-honours-only", "both-sides-honours-only",
                                                         "dummy-suggests-revoke-penalty"]
    assert "revoke-penalty" in [p.id for p in load_code("portland-1904").law("90").provisions]


# ---------------------------------------------------------------------------------------------- choosers


def test_a_chooser_list_is_either_of_its_players():
    r = rule({"code": "wcny-1913-three-hand", "irregularity": "insufficient_bid", "dealer": "S",
              "auction": ["1H", "1S"]})
    assert {o.chooser for o in r.options} == {("E", "S")}
    o = r.options[0]
    assert o.choosers == ("E", "S") and o.may_choose("E") and o.may_choose("S") and not o.may_choose("W")
    assert r.to_dict()["options"][0]["chooser"] == ["E", "S"]
    side = rule({"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]})
    assert side.options[0].chooser == "NS" and side.options[0].choosers == ("N", "S")


def test_the_table_takes_the_choice_of_either_player_of_a_list():
    t = bridgelaw.Table("wcny-1913-three-hand", "S")
    t.call("S", "1H")
    a = t.call("W", "1S")
    assert a.kind == "insufficient_bid"
    with pytest.raises(InputError, match="'penalize' is chosen by E or S; got 'W'"):
        t.apply("penalize", by="W")
    t.apply("penalize", by="S")


def test_the_seat_models_and_the_code_schema_name_the_same_player_counts():
    from bridgelaw.seats import MODELS

    schema = json.loads((ROOT / "schema" / "code.schema.json").read_text())
    assert sorted(schema["properties"]["players"]["enum"]) == sorted(MODELS)
    assert {c: load_code(c).seats.players for c in code_ids()}["wcny-1913-three-hand"] == 3


def _code_with(tmp_path: Path, provision: str) -> None:
    laws = tmp_path / "laws"
    laws.mkdir()
    for name in ("kinds.yaml", "topics.yaml"):
        shutil.copy(ROOT / "laws" / name, laws / name)
    shutil.copytree(ROOT / "laws" / "kinds.d", laws / "kinds.d")
    code = laws / "t"
    code.mkdir()
    (code / "code.yaml").write_text("id: t\ntitle: T\nauthority: T\nyear: 1913\ngame: auction\nsource: {file: none}\n")
    params = (ROOT / "laws" / "wcny-1913" / "parameters.yaml").read_text(encoding="utf-8")
    (code / "parameters.yaml").write_text(re.sub(r'law: "[^"]*"', 'law: "1"', params), encoding="utf-8")
    (code / "01-t.yaml").write_text('heading: T\nlaws:\n  - number: "1"\n    text: A law.\n    topics: [revoke]\n'
                                    "    provisions:\n" + provision)


def test_a_chooser_who_proves_guilty_only_at_ruling_time_is_a_clean_internal_error(tmp_path, monkeypatch, fresh_codes):
    """`declarer` may be innocent (an adversary revokes) or not (the declarer does): the loader cannot tell, the
    referee can — and refuses, naming the chooser's place, rather than let the offender choose his penalty."""
    _code_with(tmp_path, "      - id: p\n        kinds: [revoke]\n        when: established\n        chooser: declarer\n"
                         "        options:\n        - {id: points, effects: [{kind: score, side: side(declarer), "
                         "column: honour, points: 100}]}\n")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    inc = {"code": "t", "irregularity": "revoke", "declarer": "S", "facts": {"established": True}}
    assert rule({**inc, "offender": "W"}).options[0].chooser == "S"
    with pytest.raises(RulingError, match=r"its chooser declarer is no innocent player here \(S, the offender\)") as e:
        rule({**inc, "offender": "S"})
    assert (e.value.path, e.value.line, e.value.column) == ("laws/t/01-t.yaml", 10, 18)
    with pytest.raises(RulingError, match="the offender's partner"):
        rule({**inc, "offender": "N"})
    proc = _cli("rule", "-", input=json.dumps({**inc, "offender": "S"}), env={**os.environ})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "no innocent player" in proc.stderr


def test_a_division_by_zero_at_ruling_time_is_a_clean_internal_error(tmp_path, monkeypatch, fresh_codes):
    _code_with(tmp_path, "      - id: p\n        kinds: [revoke]\n        when: revokes_by_side / (revokes_by_side - 1) > 1\n"
                         "        effects: [{kind: no_penalty}]\n")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(RulingError, match="its condition cannot be evaluated for this incident"):
        rule({"code": "t", "irregularity": "revoke", "offender": "N", "facts": {"revokes_by_side": 1}})


def test_a_kind_that_says_who_commits_it_fills_in_or_checks_the_offender():
    r = rule({"code": "wcny-1913", "irregularity": "dummy_suggests_play", "dealer": "S", "declarer": "E"})
    assert r.facts["offender"].value == "W"
    with pytest.raises(InputError, match="committed by the dummy"):
        rule({"code": "wcny-1913", "irregularity": "dummy_suggests_play", "dealer": "S", "declarer": "E",
              "offender": "N"})


def test_derived_facts_come_from_the_catalogues_expressions():
    from bridgelaw.loader import load_kinds

    common, _ = load_kinds()
    assert (common["dummy"].derive, common["leader"].derive, common["eldest"].derive) == \
        ("partner(declarer)", "lho(declarer)", "lho(dealer)")
    r = rule({"code": "wcny-1913", "irregularity": "revoke", "dealer": "N", "declarer": "E", "offender": "S",
              "facts": {"established": True}})
    assert (r.facts["dummy"].value, r.facts["leader"].value, r.facts["eldest"].value) == ("W", "S", "E")


# ---------------------------------------------------------------------------------------------- the YAML reader


@pytest.mark.parametrize("text, value", [
    ("a: yes", "yes"), ("a: no", "no"), ("a: on", "on"), ("a: 0x1", "0x1"), ("a: 0o7", "0o7"), ("a: 1_0", "1_0"),
    ("a: 0b1001", "0b1001"), ("a: 2001-12-14", "2001-12-14"), ("a: true", True), ("a: False", False),
    ("a: 10", 10), ("a: -3", -3), ("a: ~", None), ("a: '12'", "12"), ("a: 0.8", 0.8),
])
def test_yaml_1_2_scalars_only(text, value):
    from bridgelaw.yamlsrc import load_yaml_text

    assert load_yaml_text(text, "f.yaml").data == {"a": value}


@pytest.mark.parametrize("text, message", [
    ("a: 50.0", "'50.0' is a whole number written as a decimal: write 50"),
    ("a: 1e2", "write 100"),
    ("a: .inf", "is not a number bridgelaw data takes"),
    ("a: !!binary aGk=", "explicit tag"),
    ("a: !!python/object:os.system x", "explicit tag"),
    ("a: 1\n---\nb: 2", "a second YAML document"),
    ("a: 1\na: 2", r"duplicate key 'a' \(first at line 1\)"),
    ("? [1]\n: x", "used as a mapping key"),
    ("a: *nowhere", "names no complete value anchored before it"),
    ("a: 1234567890", "an integer of 10 digits: at most 9"),
])
def test_the_reader_refuses_at_the_spot(text, message):
    from bridgelaw.yamlsrc import load_yaml_text

    with pytest.raises(LawFileError, match=message) as info:
        load_yaml_text(text, "f.yaml")
    assert info.value.line is not None and info.value.column is not None


def test_an_alias_bomb_is_refused_in_milliseconds():
    from bridgelaw.yamlsrc import load_yaml_text

    bomb = 'a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n' + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10))
    t0 = time.perf_counter()
    with pytest.raises(LawFileError, match="alias bomb"):
        load_yaml_text(bomb, "f.yaml")
    assert time.perf_counter() - t0 < 1.0
    with pytest.raises(LawFileError, match="more than 100 aliases"):
        load_yaml_text("a: &a 1\nb: [" + ", ".join(["*a"] * 101) + "]\n", "f.yaml")


def test_deep_nesting_is_refused_not_a_recursion_error():
    from bridgelaw.yamlsrc import load_yaml_text

    for text in ("a: " + "[" * 2000 + "]" * 2000, "".join(" " * i + f"k{i}:\n" for i in range(60)) + " " * 60 + "v"):
        with pytest.raises(LawFileError, match="nested more than 40 levels deep"):
            load_yaml_text(text, "f.yaml")


def test_the_reader_agrees_with_pyyaml_on_every_shipped_file():
    """The strict reader changes nothing the shipped data means: what it reads is what PyYAML reads."""
    from bridgelaw.yamlsrc import load_yaml_text

    files = list((ROOT / "laws").rglob("*.yaml")) + list((ROOT / "rulings").rglob("*.yaml"))
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert load_yaml_text(text, str(f)).data == yaml.safe_load(text), f


@pytest.mark.parametrize("make, message", [
    (lambda p: p.symlink_to(p.name), "a loop of symbolic links"),
    (lambda p: p.mkdir(), "it is a directory, not a file"),
    (lambda p: p.write_bytes(b"code: wcny-1913\n\xff\xfe\x00binary"), "not UTF-8 text"),
    (lambda p: p.write_bytes(b"code: wcny-1913\nirregularity: revoke\x00\n"), "is not allowed (is this a binary file?)"),
])
def test_rule_on_a_path_that_is_no_incident_file(tmp_path, make, message):
    path = tmp_path / "incident.yaml"
    make(path)
    proc = _cli("rule", str(path))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and message in proc.stderr


# ---------------------------------------------------------------------------------------------- the cache


def test_the_cache_is_keyed_by_content_not_size_and_time(tmp_path, monkeypatch, fresh_codes):
    """An edit that leaves a file's size and mtime as they were is still seen."""
    laws = _copy_laws(tmp_path)
    cache = tmp_path / "cache"
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    monkeypatch.setenv("BRIDGELAW_CACHE", str(cache))
    f = laws / "wcny-1913" / "17-the-revoke.yaml"
    inc = {"code": "wcny-1913", "irregularity": "revoke", "declarer": "E", "offender": "N",
           "facts": {"established": True, "revokes_by_side": 1}}
    clear_cache()
    assert [o.id for o in rule(inc).options] == ["points", "tricks"]
    st = f.stat()
    text = f.read_text()
    edited = text.replace("- id: points\n", "- id: pointz\n", 1)
    assert len(edited) == len(text) and edited != text
    f.write_text(edited)
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert f.stat().st_size == st.st_size and f.stat().st_mtime_ns == st.st_mtime_ns
    clear_cache()
    assert [o.id for o in rule(inc).options] == ["pointz", "tricks"]
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert not list(cache.glob("*.tmp")) and not list(cache.glob(".entry-*"))


def test_a_cache_directory_others_may_write_to_is_not_used(tmp_path, monkeypatch, fresh_codes):
    from bridgelaw.cache import cache_dir

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("BRIDGELAW_CACHE", str(shared))
    assert cache_dir() is None
    clear_cache()
    load_code("wcny-1912")
    assert list(shared.iterdir()) == []  # nothing read from it, nothing written to it
    shared.chmod(0o700)
    assert cache_dir() == shared


def test_each_law_file_is_one_cache_entry_holding_its_condition_trees(tmp_path, monkeypatch, fresh_codes):
    """A warm start parses no condition: each law file's entry carries the trees of its own conditions."""
    import pickle

    cache = tmp_path / "cache"
    monkeypatch.setenv("BRIDGELAW_CACHE", str(cache))
    clear_cache()
    load_code("wcny-1912")
    entries = [pickle.loads(p.read_bytes())[1] for p in cache.glob("*.pickle")]
    files = [e for e in entries if hasattr(e, "trees")]
    assert len(files) == len(list((ROOT / "laws" / "wcny-1912").glob("[0-9][0-9]-*.yaml"))) + 1  # and code.yaml
    revoke = next(e for e in files if e.source.path.endswith("17-the-revoke.yaml"))
    assert "(cards_mixed_by_accused or established) and revokes_by_side > 1" in revoke.trees
    code = ("import bridgelaw, sys; from bridgelaw.loader import load_code; load_code('wcny-1912'); "
            "print('lark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "BRIDGELAW_CACHE": str(cache)})
    assert out.stdout.strip() == "False", out.stderr


# ---------------------------------------------------------------------------------------------- check


def test_check_rules_the_casebook_and_fails_when_a_ruling_differs(tmp_path, monkeypatch, fresh_codes):
    """A data edit that loads but changes a ruling does not pass as 'all load'."""
    laws = _copy_laws(tmp_path)
    f = laws / "wcny-1913" / "17-the-revoke.yaml"
    f.write_text(f.read_text().replace("points: params.penalty.revoke}", "points: params.penalty.revoke * 2}"))
    env = {**os.environ, "BRIDGELAW_DATA": str(tmp_path)}
    proc = _cli("check", env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "ruling(s) differ from the casebook" in proc.stdout
    assert "rulings/wcny-1913/" in proc.stderr and "the ruling differs from what the case expects" in proc.stderr


# ---------------------------------------------------------------------------------------------- fuzzing

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_YAML_BITS = st.sampled_from(["a", ": ", "- ", "\n", "  ", "[", "]", "{", "}", ",", "&x ", "*x", "!!str ", "'", '"',
                              "1", "99999999999", "yes", "1.5", "---\n", "? ", "|\n", ">-\n", "#", "\t", "\x00", "é"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_YAML_BITS, max_size=40).map("".join))
def test_the_reader_never_raises_anything_but_its_own_error(text):
    from bridgelaw.yamlsrc import load_yaml_text, read_input_text

    try:
        src = load_yaml_text(text, "f.yaml")
    except LawFileError as e:
        assert e.path == "f.yaml"
        return
    for key in src.marks:  # every value has its place, inside the file
        m = src.mark(key)
        assert 1 <= m.line <= max(1, len(src.lines) + 1) and m.column >= 1
        locate = src.locator(key)
        if locate is not None:
            for i in range(len(_value(src.data, key))):
                line, col = locate(i)
                assert 1 <= line <= len(src.lines) + 1 and col >= 1
    try:
        read_input_text(text, "<stdin>")
    except InputError:
        pass


def _value(data, key):
    for k in key:
        data = data[k]
    return data


_COND_BITS = st.sampled_from(["established", "offender", "declarer", "call", ".level", ".is_bid", ".kind", " and ",
                              " or ", "not ", " is ", "adversary", " == ", " < ", "(", ")", "[", "]", ",", "1", "0",
                              " / ", " % ", '"bid"', '"N"', "value(", "partner(", "params.penalty.revoke", " in ",
                              "\n", "revokes_by_side", "99999999999"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_COND_BITS, max_size=30).map("".join))
def test_a_condition_either_compiles_to_something_that_runs_or_is_refused(text):
    """What the checker accepts, the compiled function evaluates on any facts of the right types without an
    exception other than a missing fact: nothing that passes the checker blows up at the table."""
    from bridgelaw import Call, ConditionError, Seat
    from bridgelaw.conditions import BOOL, CALL, INT, SEAT, Env, Facts, MissingFact, compile_condition

    env = Env({"established": BOOL, "revokes_by_side": INT, "offender": SEAT, "declarer": SEAT, "call": CALL},
              {"penalty": {"revoke": 100}})
    try:
        _, fn = compile_condition(text, env)
    except ConditionError as e:
        assert e.line is not None and e.column is not None
        return
    for call in ("P", "X", "1S", "7NT"):
        for n in (0, 1, 2):
            facts = Facts({"established": True, "revokes_by_side": n, "offender": Seat.N, "declarer": Seat.E,
                           "call": Call(call)}, lambda c: c.level * 10)
            try:
                fn(facts)
            except (MissingFact, ZeroDivisionError):  # a divisor that is zero only here: the referee refuses it
                pass
