"""Parameters: every value cited by its law, the closed set of names, merges, labels as templates."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from bridgelaw import LawFileError, load_code
from bridgelaw.loader import code_ids, clear_cache
from bridgelaw.parameters import bind_source, names, number_words, schema, type_of
from bridgelaw.yamlsrc import load_yaml, load_yaml_text

from conftest import ROOT, expectations

CODES = code_ids()
BROKEN = sorted((Path(__file__).parent / "broken" / "parameters").glob("*.yaml"))


@pytest.mark.parametrize("code_id", CODES)
def test_every_parameters_file_is_valid_under_the_published_schema(code_id):
    data = yaml.safe_load((ROOT / "laws" / code_id / "parameters.yaml").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema()).validate(data)


@pytest.mark.parametrize("code_id", CODES)
def test_every_value_carries_a_law_of_its_code_and_every_name_the_engine_reads_is_stated_or_none(code_id):
    code = load_code(code_id)
    p = code.params
    for c in p.cited.values():
        assert c.stated or c.note, c
        if c.stated:
            assert code.law(c.law) is not None, (c.path, c.law)
    for name in schema()["x-required"]:
        assert p.states(name) or p.none(name) is not None, name


def test_a_child_code_restates_only_what_differs_and_inherits_the_rest_with_its_law():
    p13, p3 = load_code("wcny-1913").params, load_code("wcny-1913-three-hand").params
    assert p3.law("undertrick.doubled") == "T12" and p13.law("undertrick.doubled") == "47a"
    assert p3.entry("slam") == p13.entry("slam")  # inherited, citing law 7
    p5, p7 = load_code("american-1905").params, load_code("american-1907").params
    # 54 in both: the first copy of the 1905 laws misprints 64, mended from the second (american-1905 law 6)
    assert p5["honours_as_printed"]["D"]["four_in_one_hand_fifth_in_partners"] == 54
    assert p7.entry("honours_as_printed.D.four_in_one_hand_fifth_in_partners") == \
        p5.entry("honours_as_printed.D.four_in_one_hand_fifth_in_partners")  # inherited, citing law 6
    assert p7["honours_as_printed"]["D"]["five_in_one_hand"] == 60  # the rest of the row is the parent's


def test_a_none_replaces_what_the_parent_stated_and_says_why():
    p = load_code("portland-1908").params
    assert "doubling_limit" not in p and p.none("doubling_limit").law == "56"
    assert load_code("portland-1904").params["doubling_limit"] == 100


def test_the_three_hand_player_count_is_the_code_s_not_a_parameter():
    code = load_code("wcny-1913-three-hand")
    assert code.players == 3 and "players" not in code.params


def test_the_typed_view_names_the_type_of_every_schema_name():
    assert type_of("penalty.revoke") == "integer" and type_of("dealer_must_declare") == "boolean"
    assert type_of("chicane_rule") == "string" and type_of("honours.trump") == "object"
    with pytest.raises(KeyError):
        type_of("penalty.revok")
    for n in names():
        type_of(n)


def _bind(text: str, code_id: str = "wcny-1913"):
    code = load_code(code_id)
    src = load_yaml_text(text, f"laws/{code_id}/parameters.yaml")
    return bind_source(code_id, src, None, [lw.number for lw in code.laws])


def _mutations(code_id: str):
    """One-edit mutations of a root code's parameters: each top-level name deleted, misspelt, retyped."""
    text = (ROOT / "laws" / code_id / "parameters.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    required = set(schema()["x-required"])
    for name in data:
        if name in required:
            yield f"delete {name}", {k: v for k, v in data.items() if k != name}
        yield f"misspell {name}", {(k + "s" if k == name else k): v for k, v in data.items()}
        yield f"retype {name}", {k: ({"value": "six", "law": "4"} if k == name else v) for k, v in data.items()}


@pytest.mark.parametrize("code_id", [c for c in CODES if load_code(c).extends is None])
def test_every_deleted_misspelt_or_retyped_parameter_is_a_load_error_at_its_spot(code_id):
    for what, data in _mutations(code_id):
        with pytest.raises(LawFileError) as info:
            _bind(yaml.safe_dump(data, sort_keys=False), code_id)
        assert info.value.path == f"laws/{code_id}/parameters.yaml" and info.value.line, what


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_parameters(path, tmp_path, monkeypatch, fresh_codes):
    want = expectations(path)
    laws = tmp_path / "laws"
    shutil.copytree(ROOT / "laws", laws)
    code = laws / "broken"
    base = want.get("copy-of")
    if base:  # a code of its own: the base code's laws, this parameters file
        shutil.copytree(ROOT / "laws" / base, code)
        meta = (code / "code.yaml").read_text(encoding="utf-8")
        (code / "code.yaml").write_text(re.sub(r"(?m)^id: .*$", "id: broken", meta), encoding="utf-8")
    else:  # a code extending wcny-1913 that states only this file
        code.mkdir()
        (code / "code.yaml").write_text("id: broken\ntitle: Broken\nauthority: Test\nyear: 1913\ngame: auction\n"
                                        "source: {file: none}\nextends: wcny-1913\n")
    shutil.copy(path, code / "parameters.yaml")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError) as info:
        load_code("broken")
    e = info.value
    assert want["error"] in str(e)
    assert e.path == "laws/broken/parameters.yaml"
    if "at" in want:
        assert f"{e.line}:{e.column}" == want["at"]
    if "did-you-mean" in want:
        assert f"did you mean '{want['did-you-mean']}'" in str(e)


def _option_labels():
    for code_id in CODES:
        code = load_code(code_id)
        for law in code.laws:
            if law.code != code_id:
                continue
            for src, key, spec, origin in law.raw_provisions:
                if origin != code_id:  # inherited by id: its own code's labels are checked there
                    continue
                for j, o in enumerate(spec.get("options") or []):
                    yield code, law, spec, o


def test_no_label_states_a_number_its_effects_take_from_the_parameters():
    bad = []
    for code, law, spec, o in _option_labels():
        label = o.get("label", "")
        used = set(re.findall(r"params\.([a-z_.]+)", json.dumps(o.get("effects", []))))
        for path in used:
            c = code.params.entry(path)
            if c is None or isinstance(c.value, bool):
                continue
            for spelled in {str(c.value), number_words(c.value)}:
                if re.search(rf"(?<![{{\w.]){re.escape(spelled)}\b", re.sub(r"\{[^}]*\}", "", label)):
                    bad.append(f"{code.id} law {law.number} {spec['id']}/{o['id']}: {label!r} states {spelled} "
                               f"(write {{{path}}})")
    assert not bad, "\n".join(bad)


def test_labels_are_rendered_with_the_code_s_values():
    r13 = load_code("wcny-1913").law("84").provisions
    r12 = load_code("wcny-1912").law("84").provisions
    lab13 = {o.id: o.label for p in r13 for o in p.options}
    lab12 = {o.id: o.label for p in r12 for o in p.options}
    assert lab13["points"].startswith("add 100 points") and lab12["points"].startswith("add 150 points")
    assert lab13["tricks"].startswith("take three tricks")


@pytest.mark.parametrize("code_id", CODES)
def test_a_code_that_confines_a_revoking_side_says_what_it_may_still_score(code_id):
    """A provision that leaves a side only its honours (honours_only) is scored through the code's
    revoking_side_scores: a code that gives one states it, and keeps the honours; a code that gives none
    says it has none (the scorer never reads a default)."""
    from bridgelaw.values import EffectKind

    code = load_code(code_id)
    confines = any(e.kind is EffectKind.HONOURS_ONLY
                   for law in code.laws for p in law.provisions
                   for e in (*p.effects, *(e for o in p.options for e in o.effects)))
    stated = code.params.entry("revoking_side_scores.honours")
    if confines:
        assert stated is not None and stated.value is True, code_id
    else:
        assert code.params.none("revoking_side_scores") is not None, code_id
