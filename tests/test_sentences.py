"""The sentence account: every sentence of every law tagged, and nothing that bears a remedy left unaccounted."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgelaw.errors import LawFileError
from bridgelaw.loader import clear_cache, code_ids, load_code
from bridgelaw import sentences
from bridgelaw.sentences import check_account, coverage, load_account, parse_account, split, tiling
from bridgelaw.yamlsrc import load_yaml_text

from conftest import ROOT, expectations

BROKEN = Path(__file__).parent / "broken" / "accounts"
FIXTURES = sorted(p for p in BROKEN.glob("*.yaml") if not p.name.startswith("_") and p.name != "valid.yaml")
CODES = code_ids()


# --------------------------------------------------------------------------
# The account of every code


@pytest.mark.parametrize("code_id", CODES)
def test_no_remedy_bearing_sentence_is_unaccounted(code_id):
    unaccounted = coverage(code_id).unaccounted
    assert not unaccounted, "\n" + "\n".join(str(f) for f in unaccounted)


@pytest.mark.parametrize("code_id", CODES)
def test_every_sentence_of_every_law_is_accounted_exactly(code_id):
    """The spans tile each law's verbatim text (none missed, none invented) and every tag holds."""
    problems = check_account(code_id)
    assert not problems, "\n" + "\n".join(str(f) for f in problems)
    code = load_code(code_id)
    acc = load_account(code_id)
    texts = [law.number for law in code.laws if law.text and not law.missing]
    assert [la.number for la in acc.laws] == texts


def test_an_extending_code_accounts_only_for_what_it_restates_or_adds():
    acc = load_account("portland-1908")
    own = {law.number for law in load_code("portland-1908").laws if law.code == "portland-1908"}
    assert {la.number for la in acc.laws if la.code == "portland-1908"} == own
    inherited = acc.law("108")
    assert inherited is not None and inherited.code == "portland-1904"


def test_silences_and_judgements_are_machine_readable_effects():
    """A sentence read as a silence names a provision whose effect says what the code is silent on."""
    seen = 0
    for cid in CODES:
        code = load_code(cid)
        provs = {p.id: p for p in code.provisions}
        for la in load_account(cid).laws:
            for s in la.sentences:
                if s.tag != "silence":
                    continue
                effects = [e for pid in s.provisions for e in provs[pid].effects if e.kind.value == "no_provision"]
                assert effects and all(dict((n, v) for n, v, _ in e.fields).get("silent_on") for e in effects), \
                    (cid, la.number, s.text)
                seen += 1
    assert seen >= 10


def test_coverage_counts_every_tag():
    cov = coverage("wcny-1913")
    assert sum(cov.tags.values()) == cov.sentences > 150
    assert cov.remedy_bearing <= cov.sentences and cov.tags["not-binding"] == 12  # the etiquette: 13 sentences, E2 encoded (no redress)


# --------------------------------------------------------------------------
# The splitter


def test_split_cuts_sentences_clauses_rows_and_keeps_abbreviations():
    text = ("The penalty for a revoke--\n\nI. Is at the option of the adversaries;\n\nII. Can be claimed twice.\n\n"
            "(a) If the cards, _i.e._ the pack, be wrong. There is no misdeal.\n\n_b_ If any card be faced.\n\n"
            "1st. That the trump shall stand, or\n\n3 aces count 30\n4 aces count 40\n"
            "It counts 40 points.[^2] See Law 84. Mr. A is e.g. not here.")
    spans = split(text)
    assert [s.text for s in spans] == [
        "The penalty for a revoke--", "I. Is at the option of the adversaries;", "II. Can be claimed twice.",
        "(a) If the cards, _i.e._ the pack, be wrong.", "There is no misdeal.", "_b_ If any card be faced.",
        "1st. That the trump shall stand, or", "3 aces count 30", "4 aces count 40", "It counts 40 points.[^2]",
        "See Law 84.", "Mr. A is e.g. not here."]
    assert [s.clause for s in spans] == ["", "I", "II", "a", "a", "b", "1st", "", "", "", "", ""]
    assert all(text[s.start:s.end] == s.text for s in spans)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("Ab .;(a)_I1st[^]\n\"’") + ["Law 8", "i.e.", "--", ". A", "\n\n(b) "]),
                max_size=60).map("".join))
def test_split_tiles_any_text(text):
    """Whatever the text, the spans are exactly the text between white space: nothing lost, nothing added."""
    spans = split(text)
    assert tiling(text, [s.text for s in spans]) is None
    assert all(s.text == s.text.strip() and s.text for s in spans)


# --------------------------------------------------------------------------
# Broken accounts, each named after the error it must raise


def _data_dir(tmp_path: Path, account: str) -> Path:
    laws = tmp_path / "laws"
    laws.mkdir()
    for name in ("kinds.yaml", "topics.yaml", "accounting.yaml"):
        shutil.copy(ROOT / "laws" / name, laws / name)
    shutil.copytree(ROOT / "laws" / "kinds.d", laws / "kinds.d")
    code = laws / "broken"
    code.mkdir()
    (code / "code.yaml").write_text("id: broken\ntitle: Broken\nauthority: Test\nyear: 1913\ngame: auction\n"
                                    "source: {file: none}\n")
    # the 1913 parameters, each cited to the test code's law 1 (a parameter's law must be a law of its code)
    params = (ROOT / "laws" / "wcny-1913" / "parameters.yaml").read_text(encoding="utf-8")
    (code / "parameters.yaml").write_text(re.sub(r'law: "[^"]*"', 'law: "1"', params), encoding="utf-8")
    shutil.copy(BROKEN / "_laws.yaml", code / "01-test.yaml")
    (code / "sentences.yaml").write_text(account, encoding="utf-8")
    return tmp_path


@pytest.fixture
def broken_data(tmp_path, monkeypatch, fresh_codes):
    def use(account: str) -> None:
        monkeypatch.setenv("BRIDGELAW_DATA", str(_data_dir(tmp_path, account)))
        clear_cache()
        sentences.clear_cache()

    yield use
    sentences.clear_cache()


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_broken_account(path, broken_data):
    want = expectations(path)
    broken_data(path.read_text(encoding="utf-8"))
    try:
        findings = check_account("broken")
    except LawFileError as e:
        assert want["error"] in str(e)
        assert e.path == "laws/broken/sentences.yaml"
        if "at" in want:
            assert f"{e.line}:{e.column}" == want["at"]
        return
    assert findings, "the broken account checked clean"
    first = findings[0]
    assert want["error"] in first.message, [f.message for f in findings]
    if "at" in want:
        assert f"{first.line}:{first.column}" == want["at"]


def test_the_valid_account_beside_the_broken_ones_checks_clean(broken_data):
    broken_data((BROKEN / "valid.yaml").read_text(encoding="utf-8"))
    assert check_account("broken") == []
    cov = coverage("broken")
    assert (cov.sentences, cov.remedy_bearing, cov.tags["encoded"]) == (4, 3, 1)


# --------------------------------------------------------------------------
# Mutations of the real data: each must be found


_FAST = dict(Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), dict(Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))


def _mutated(code_id: str, mutate) -> list:
    code = load_code(code_id)
    path = ROOT / "laws" / code_id / "sentences.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"), **_FAST[0])
    mutate(data)
    text = yaml.dump(data, allow_unicode=True, sort_keys=False, width=10 ** 6, **_FAST[1])
    own = parse_account(code, load_yaml_text(text, "mutated.yaml"))
    acc = sentences.Account(code_id, tuple(own))
    return check_account(code_id, acc)


def _pick(data, rng, want=lambda s: True):
    choices = [(i, j) for i, la in enumerate(data["laws"]) for j, s in enumerate(la["sentences"]) if want(s)]
    return choices[rng.randrange(len(choices))]


MUTATIONS = {
    "drop-a-sentence": lambda d, r: _drop(d, r),
    "change-a-word": lambda d, r: _edit(d, r, lambda t: t.replace(" the ", " a ", 1) if " the " in t else t + "x"),
    "invent-a-sentence": lambda d, r: _insert(d, r),
    "name-a-missing-provision": lambda d, r: _set(d, r, lambda s: s.get("provisions"), "provisions", ["no-such-one"]),
    "strip-the-reason": lambda d, r: _strip_encoding(d, r),
}


def _drop(d, r):
    i, j = _pick(d, r, lambda s: True)
    if len(d["laws"][i]["sentences"]) == 1:
        d["laws"].pop(i)
    else:
        d["laws"][i]["sentences"].pop(j)


def _edit(d, r, f):
    i, j = _pick(d, r)
    s = d["laws"][i]["sentences"][j]
    s["text"] = f(s["text"])


def _insert(d, r):
    i, j = _pick(d, r)
    d["laws"][i]["sentences"].insert(j, {"text": "The dealer may score a hundred.", "tag": "definition"})


def _set(d, r, want, key, value):
    i, j = _pick(d, r, want)
    d["laws"][i]["sentences"][j][key] = value


def _strip_encoding(d, r):
    """A remedy-bearing sentence re-tagged as procedure, with no reason given."""
    i, j = _pick(d, r, lambda s: s["tag"] == "encoded" and sentences.remedy_bearing(s["text"]))
    s = d["laws"][i]["sentences"][j]
    s["tag"] = "procedure"
    s.pop("provisions", None)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
@pytest.mark.parametrize("code_id", ["wcny-1913", "portland-1904", "american-1907"])
def test_every_mutation_of_an_account_is_found(name, code_id):
    rng = random.Random(f"{code_id}:{name}")
    for _ in range(3):
        findings = _mutated(code_id, lambda d: MUTATIONS[name](d, rng))
        assert findings, f"{name} went unnoticed in {code_id}"


# --------------------------------------------------------------------------
# Any document at all: a clear error or an account, never a traceback

_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_docs = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["code", "laws", "law", "sentences", "text", "tag",
                                                                  "provisions", "why", "x"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(_docs)
def test_any_account_document_is_refused_clearly_or_read(doc):
    code = load_code("wcny-1913")
    text = yaml.safe_dump(doc)
    try:
        own = parse_account(code, load_yaml_text(text, "fuzz.yaml"))
    except LawFileError as e:
        assert e.path == "fuzz.yaml" and str(e).startswith("fuzz.yaml")
        return
    check_account("wcny-1913", sentences.Account("wcny-1913", tuple(own)))


def test_codes_coverage_shows_the_account_per_code():
    import json
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "codes", "--coverage"], capture_output=True, text=True)
    assert p.returncode == 0 and "remedy" in p.stdout and "unaccounted" in p.stdout
    assert "unaccounted: " not in p.stdout and "problem: " not in p.stdout
    rows = json.loads(subprocess.run([sys.executable, "-m", "bridgelaw.cli", "codes", "--coverage", "--json"],
                                     capture_output=True, text=True).stdout)
    by = {r["code"]: r["sentences"] for r in rows}
    assert set(by) == set(CODES) and all(not s["unaccounted"] and not s["problems"] for s in by.values())
    assert by["wcny-1913"]["sentences"] == sum(by["wcny-1913"]["tags"].values())
