"""The effect vocabulary (schema/effects.yaml) agrees with everything built from it, and refuses a broken file.

Agreement: the EffectKind members and the schemas' effect parts (written from it), the loader's effect fields,
audit's clash list.
Broken vocabularies (tests/broken/effects/) are named after the error they must raise, at path:line:col.
A mutated vocabulary loads or is refused with a LawFileError, never anything else; an effect of any kind,
with any fields its kind allows, is said in words.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgelaw import LawFileError
from bridgelaw.loader import EFFECT_FIELDS, _FIELD_TYPES, _LIT
from bridgelaw.values import EffectKind
from bridgelaw.vocabulary import _samples, generated_files, load_vocabulary, vocabulary, write_generated
from bridgelaw.wording import effect_sentence

from conftest import ROOT, expectations

VOCAB = vocabulary()
SCHEMA = ROOT / "schema"
BROKEN = sorted((Path(__file__).parent / "broken" / "effects").glob("*.yaml"))
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_the_effect_kind_enum_is_the_vocabulary():
    enum = [k.value for k in EffectKind]
    missing = [k for k in VOCAB.names if k not in enum]
    extra = [k for k in enum if k not in VOCAB.names]
    assert (missing, extra) == ([], []), (
        f"EffectKind (engine/bridgelaw/values.py) lacks {missing} and has {extra} that schema/effects.yaml lacks: "
        "run python -m bridgelaw.vocabulary --write")
    assert enum == list(VOCAB.names), "EffectKind lists the kinds in another order than schema/effects.yaml"


def test_the_loaders_effect_fields_are_the_vocabularys():
    assert [k.value for k in EFFECT_FIELDS] == list(VOCAB.names)
    for kind in VOCAB.kinds:
        fields = EFFECT_FIELDS[EffectKind(kind.name)]
        assert list(fields) == list(kind.field_names), kind.name
        for f in kind.fields:
            ftype, required = fields[f.name]
            assert required == f.required, (kind.name, f.name)
            if f.type == "choice":
                assert ftype.choices == f.choices, (kind.name, f.name)
            else:
                assert ftype == _FIELD_TYPES[f.type], (kind.name, f.name)
            assert (ftype == _LIT) == (f.type == "text"), (kind.name, f.name)


def test_the_checked_in_schemas_are_generated_from_the_vocabulary():
    assert write_generated(check=True) == [], "run: python -m bridgelaw.vocabulary --write"
    law = json.loads((SCHEMA / "law-file.schema.json").read_text())
    enums = [law["$defs"]["provision"]["properties"]["effects"]["items"]["properties"]["kind"]["enum"],
             law["$defs"]["provision"]["properties"]["options"]["items"]["properties"]["effects"]["items"]
             ["properties"]["kind"]["enum"]]
    assert enums == [list(VOCAB.names)] * 2
    ruling = json.loads((SCHEMA / "ruling.schema.json").read_text())
    assert [b["title"] for b in ruling["$defs"]["effect"]["oneOf"]] == list(VOCAB.names)


def test_stale_generated_files_are_found_and_rewritten(tmp_path):
    for name in ("ruling.schema.json", "law-file.schema.json"):
        shutil.copy(SCHEMA / name, tmp_path / name)
    law = json.loads((tmp_path / "law-file.schema.json").read_text())
    law["$defs"]["provision"]["properties"]["effects"]["items"]["properties"]["kind"]["enum"].pop()
    (tmp_path / "law-file.schema.json").write_text(json.dumps(law, indent=1))
    values = tmp_path / "values.py"
    source = (ROOT / "engine" / "bridgelaw" / "values.py").read_text()
    values.write_text(source.replace('    NO_DOUBLE = "no_double"\n', ""))
    assert write_generated(check=True, root=tmp_path, values=values) == ["values.py", "law-file.schema.json"]
    assert write_generated(root=tmp_path, values=values) == ["values.py", "law-file.schema.json"]
    assert write_generated(check=True, root=tmp_path, values=values) == []
    assert values.read_text() == source
    assert all(now == new for now, new in generated_files(VOCAB, tmp_path, values).values())


def test_audits_clash_list_is_the_vocabularys():
    from bridgelaw.compare import _CONFLICTS

    assert _CONFLICTS == VOCAB.clash_pairs()
    assert ("new_deal", "deal_stands") in _CONFLICTS
    for a, b in _CONFLICTS:  # a clash holds both ways
        assert b in VOCAB.kind(a).clashes and a in VOCAB.kind(b).clashes


def test_every_field_type_is_known_to_the_schema_the_loader_and_the_renderer():
    from bridgelaw.vocabulary import FIELD_TYPES
    from bridgelaw.wording import _BY_TYPE

    meta = json.loads((SCHEMA / "effects.schema.json").read_text())
    assert list(FIELD_TYPES) == meta["$defs"]["field"]["properties"]["type"]["enum"]
    assert set(FIELD_TYPES) == set(_FIELD_TYPES) | {"choice"} == set(_BY_TYPE) | {"choice", "int", "bool"}


def test_every_kind_has_a_description_and_words_and_every_value_its_words():
    for kind in VOCAB.kinds:
        assert kind.description and kind.wording, kind.name
        for f in kind.fields:
            if f.type == "choice":
                assert f.values and all(w.strip() and not SNAKE.search(w) for _, w in f.values), (kind.name, f.name)
    assert VOCAB.kind("no_provision").field("silent_on").type == "text"
    assert VOCAB.kind("discretion").field("matter").required is False


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_vocabulary(path, tmp_path):
    want = expectations(path)
    target = tmp_path / "effects.yaml"
    shutil.copy(path, target)
    shutil.copy(SCHEMA / "effects.schema.json", tmp_path / "effects.schema.json")
    with pytest.raises(LawFileError) as info:
        load_vocabulary(target, "schema/effects.yaml")
    e = info.value
    assert want["error"] in str(e)
    assert e.path == "schema/effects.yaml"
    assert f"{e.line}:{e.column}" == want["at"]
    if e.source_line is not None:  # the caret sits under the reported column of the quoted line
        lines = str(e).splitlines()
        assert lines[2].index("^") == 4 + e.column - 1


_TEXT = (SCHEMA / "effects.yaml").read_text(encoding="utf-8").splitlines()
_WORDS = ["seat", "side", "text", "choice", "int", "bool", "required", "true", "with", "without", "where",
          "below", "{seat}", "{side}", "clashes", "fields", "wording", "values", "-", ":", "{", "}", "[", "]"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.integers(0, len(_TEXT) - 1), how=st.sampled_from(["drop", "twice", "word", "cut"]),
       word=st.sampled_from(_WORDS), at=st.integers(0, 200))
def test_a_mutated_vocabulary_loads_or_is_refused_at_its_spot(tmp_path, line, how, word, at):
    lines = list(_TEXT)
    if how == "drop":
        del lines[line]
    elif how == "twice":
        lines.insert(line, lines[line])
    elif how == "word":
        tokens = lines[line].split(" ")
        tokens[at % len(tokens)] = word
        lines[line] = " ".join(tokens)
    else:
        lines[line] = lines[line][: at % (len(lines[line]) + 1)]
    target = tmp_path / "effects.yaml"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copy(SCHEMA / "effects.schema.json", tmp_path / "effects.schema.json")
    try:
        v = load_vocabulary(target, "schema/effects.yaml")
    except LawFileError as e:
        assert e.path == "schema/effects.yaml" and e.line is not None
        return
    for kind in v.kinds:  # what loads says every effect its fields allow
        for sample in _samples(kind.fields, kind.one_of, kind.wording):
            words = {"seat": "N", "side": "EW", "call": "1S", "card": "SK", "suit": "S", "seats": ["N"],
                     "text": "the matter"}
            effect = {"kind": kind.name, **{n: (words[kind.field(n).type] if val == "?" else val)
                                            for n, val in sample.items()}}
            assert "{" not in effect_sentence(effect, v)


# ---------------------------------------------------------------- any effect, in words

_CALLS = [f"{n}{s}" for n in range(1, 8) for s in ("C", "D", "H", "S", "R", "NT")] + ["P", "X", "XX"]
_CARDS = [s + r for s in "CDHS" for r in "23456789TJQKA"]
_VALUES = {
    "seat": st.sampled_from("NESW"), "side": st.sampled_from(["NS", "EW"]), "call": st.sampled_from(_CALLS),
    "card": st.sampled_from(_CARDS), "suit": st.sampled_from("CDHS"), "int": st.integers(-500, 500),
    "bool": st.booleans(), "seats": st.lists(st.sampled_from("NESW"), max_size=3, unique=True),
    "text": st.from_regex(r"[A-Za-z][a-z ,.']{0,30}", fullmatch=True),
}


@st.composite
def effects(draw):
    kind = draw(st.sampled_from(VOCAB.kinds))
    chosen = {draw(st.sampled_from(g)) for g in kind.one_of}
    grouped = {n for g in kind.one_of for n in g}
    e = {"kind": kind.name}
    for f in kind.fields:
        if f.required or f.name in chosen or (f.name not in grouped and draw(st.booleans())):
            e[f.name] = draw(st.sampled_from(f.choices) if f.type == "choice" else _VALUES[f.type])
    return e


_RULING = json.loads((SCHEMA / "ruling.schema.json").read_text())
_EFFECT_V = jsonschema.Draft202012Validator({"$defs": _RULING["$defs"], "$ref": "#/$defs/effect"})


@settings(max_examples=300, deadline=None)
@given(effects())
def test_any_effect_the_vocabulary_allows_is_said_in_words(effect):
    _EFFECT_V.validate(effect)  # the generated schema takes it
    said = effect_sentence(effect)
    assert said and said[0] == said[0].upper() and "{" not in said and "}" not in said
    assert not SNAKE.search(said), said
    for f in VOCAB.kind(effect["kind"]).fields:  # a choice's value is said in its words, never as written
        if f.type == "choice" and f.name in effect and "_" in effect[f.name]:
            assert effect[f.name] not in said
