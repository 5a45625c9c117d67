"""Every code loads, resolves, and holds its source's law text verbatim."""

from __future__ import annotations

import re
import unicodedata

import pytest

import bridgelaw
from bridgelaw.loader import code_ids

from conftest import SHARED


def test_every_code_loads():
    ids = code_ids()
    assert {"wcny-1913", "wcny-1913-three-hand", "wcny-1913-duplicate"} <= set(ids)
    for cid in ids:
        code = bridgelaw.load_code(cid)
        assert code.laws, cid


def test_wcny_1913_is_complete_and_in_printed_order():
    code = bridgelaw.load_code("wcny-1913")
    numbers = [law.number for law in code.laws]
    expected = []
    for n in range(1, 98):
        expected.append(str(n))
        expected += {47: ["47a"], 50: ["50a", "50b", "50c"], 62: ["62a"], 70: ["70a"]}.get(n, [])
    expected += [f"E{i}" for i in range(1, 13)]
    assert numbers == expected
    footnotes = sorted(int(n) for law in code.laws for n, _ in law.footnotes)
    assert footnotes == list(range(1, 23))
    assert all(not law.binding for law in code.laws if law.number.startswith("E"))


def test_extensions_resolve_to_the_whole_parent_plus_their_own_laws():
    base = [law.number for law in bridgelaw.load_code("wcny-1913").laws]
    three = [law.number for law in bridgelaw.load_code("wcny-1913-three-hand").laws]
    dup = [law.number for law in bridgelaw.load_code("wcny-1913-duplicate").laws]
    assert three == base + [f"T{i}" for i in range(1, 16)]
    assert dup == base + list("ABCDEFGH")


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"\[\^?\w+\]", "", text)
    return re.sub(r"[^a-z]", "", text.lower())


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared sources are beside the repository only")
@pytest.mark.parametrize("code_id", ["wcny-1913", "wcny-1913-three-hand", "wcny-1913-duplicate", "wcny-1912",
                                     "portland-1904", "portland-1908", "portland-1909", "american-1905",
                                     "american-1907"])
def test_law_text_is_verbatim_from_the_source(code_id):
    code = bridgelaw.load_code(code_id)
    sources = code.sources
    corpus = ""
    for s in sources:
        corpus += (SHARED / s["file"]).read_text(encoding="utf-8")
    corpus = re.sub(r"\{\d+\}", "", corpus)
    # page furniture of the scanned books: running heads, page numbers, printer's signature marks
    corpus = "\n".join(re.sub(r" [A-Za-z] \d$", "", line) for line in corpus.splitlines()
                       if not re.fullmatch(r"\s*(THE \w+ OF AUCTION\W* \w+\.?( \d+)?|\d+|[A-Za-z]( \d)?)\s*", line))
    hay = _norm(corpus)
    own = {law.number for law in code.laws if law.code == code_id}
    raw = {}
    import yaml
    from pathlib import Path

    for f in Path(code.folder).glob("[0-9][0-9]-*.yaml"):
        for law in yaml.safe_load(f.read_text())["laws"]:
            raw[law["number"]] = law
    bad = []
    for law in code.laws:
        if law.number not in own or law.missing or not law.text:
            continue
        text = law.text
        for mend in raw[law.number].get("mends") or []:
            text = text.replace(mend["text"], mend["source"])
        if "mends" in raw[law.number] and any("\n" in m["source"] or len(m["source"]) > 80
                                              for m in raw[law.number]["mends"]):
            continue  # a rebuilt table: its mend records the mangled original
        if _norm(text) not in hay:
            bad.append(law.number)
    assert bad == []


def _nums(lo, hi):
    return [str(n) for n in range(lo, hi + 1)]


@pytest.mark.parametrize("code_id, numbered", [
    ("portland-1904", _nums(1, 108)),
    ("portland-1909", _nums(1, 95)),
    ("wcny-1912", _nums(1, 97)),
    ("american-1905", _nums(1, 106) + ["60a"]),
])
def test_every_law_number_of_the_source_is_present_in_order(code_id, numbered):
    code = bridgelaw.load_code(code_id)
    got = [law.number for law in code.laws if law.number[0].isdigit()]
    assert sorted(got, key=lambda n: (int(re.match(r"\d+", n).group()), n)) == got, "printed order"
    assert sorted(got) == sorted(numbered)


def test_portland_1909_marks_laws_95_onward_missing():
    code = bridgelaw.load_code("portland-1909")
    law = code.law("95")
    assert law.missing and law.text is None
    assert "no source" in law.note


def test_portland_1908_answers_every_as_in_bridge_law_from_1904():
    base = bridgelaw.load_code("portland-1904")
    auction = bridgelaw.load_code("portland-1908")
    assert [law.number for law in auction.laws] == [law.number for law in base.laws]
    own = {law.number for law in auction.laws if law.code == "portland-1908"}
    assert own and own < {law.number for law in base.laws}
    for law in auction.laws:
        if law.number not in own:
            assert law.text == base.law(law.number).text
