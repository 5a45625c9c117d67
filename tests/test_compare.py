"""The historian's edition: verbatim diffs, n:m alignment, spelling set aside, the summary first, the rulings
diff in words (and by equivalence classes), a topic's history, the audit; every verb in every format."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

import bridgelaw
from bridgelaw.cli import main
from bridgelaw.compare import audit, diff_codes, history, ruling_diff
from bridgelaw.lawtext import html_column, unmark_html
from bridgelaw.report import FORMATS, render
from bridgelaw.textdiff import diff_texts, spelling, word_diff

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parent / "schema"
CODES = bridgelaw.codes()


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def schema(name: str) -> jsonschema.protocols.Validator:
    s = json.loads((SCHEMA / f"{name}.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(s)


# --------------------------------------------------------------------------
# Verbatim by construction


@pytest.mark.timeout(240)
@pytest.mark.parametrize("a, b", list(itertools.combinations(CODES, 2)))
def test_every_column_of_every_diff_is_the_editions_own_text(a, b):
    """Stripping the marks from either column of every aligned row gives back that edition's exact text —
    from the diff's segments, and from the HTML the report writes — with spelling kept or set aside."""
    ca, cb = bridgelaw.load_code(a), bridgelaw.load_code(b)
    checked = 0
    for ignore in ((), ("spelling",)):
        d = diff_codes(a, b, ignore=ignore)
        for row in d.rows:
            for col, code in ((row.diff.a, ca), (row.diff.b, cb)):
                for m in col:
                    law = code.law(m.number)
                    assert m.text == law.text, (a, b, m.number)
                    assert unmark_html(html_column(m.segments, dict(law.footnotes))) == law.text, (a, b, m.number)
                    checked += 1
    assert checked >= 2 * min(len(ca.laws), len(cb.laws)) - 20  # every law with a text (a few are missing)


def test_the_later_column_keeps_its_own_capitals():
    """1913 law 84 ends "…can be made by a revoking side": the later column never takes the earlier's 'A'."""
    d = diff_codes("wcny-1912", "wcny-1913")
    row = next(r for r in d.rows if r.group.numbers_b == ("84",))
    later = row.diff.b[0]
    assert later.text.endswith("can be made by a revoking side.")
    assert "A revoking" not in later.text and "A revoking" in row.diff.a[0].text


def test_paragraphs_clause_letters_and_footnote_marks_are_rendered():
    d = diff_codes("wcny-1912", "wcny-1913")
    page = render(d, "html")
    assert '<sup class="fn" title="The dummy may advise the declarer which penalty to exact.">21</sup>' in page
    assert "[^" not in page
    assert '<i class="it l r">a</i>' in page  # 1912 prints its clause letters in italics: (_a_)
    assert "white-space:pre-line" in page
    text = render(d, "text")
    assert "[^" not in text and "(_a_)" not in text and "(a) When the declarer revokes" in text


def test_word_diff_names_the_revoke_penalty_change():
    ops = word_diff("his adversaries add 150 points", "his adversaries add 100 points")
    assert ("-", "150") in ops and ("+", "100") in ops


# --------------------------------------------------------------------------
# Alignment


ALIGNMENTS = yaml.safe_load((HERE / "compare" / "alignments.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", ALIGNMENTS, ids=[c["name"] for c in ALIGNMENTS])
def test_alignment(case):
    groups = bridgelaw.compare.align(bridgelaw.load_code(case["a"]), bridgelaw.load_code(case["b"]))
    rows = [(list(g.numbers_a), list(g.numbers_b), g.how) for g in groups]
    assert (case["laws_a"], case["laws_b"], case["how"]) in rows


# --------------------------------------------------------------------------
# Spelling set aside


def test_spelling_set_aside_is_reported_and_hides_spelling_only_laws():
    plain, aside = diff_codes("wcny-1912", "wcny-1913"), diff_codes("wcny-1912", "wcny-1913", ignore=("spelling",))
    only = [r for r in plain.rows if r.status == "spelling"]
    assert only and all(r.status == "spelling" for r in aside.rows if r.group in [o.group for o in only])
    assert {r.anchor for r in only}.isdisjoint(r.anchor for r in aside.shown())
    assert len(aside.shown()) < len(plain.shown())
    text = render(aside, "text")
    assert "Spelling and punctuation set aside" in text and "honour" in text and "spelling.yaml" in text
    used = dict(aside.summary.spellings)
    assert used["honour"] >= 5 and used["honours"] >= 3
    row = next(r for r in aside.rows if r.group.numbers_a == ("6",))
    assert any(s.op == "~" and "Honors" in s.text for s in row.diff.a[0].segments)


def test_an_exact_diff_marks_a_capital_and_a_spelling_as_changes():
    d = diff_texts([("1", "A revoking side honors")], [("1", "a revoking side honours")])
    assert d.changed and not d.substantive and d.spellings == ("honours",)
    aside = diff_texts([("1", "A revoking side honors")], [("1", "a revoking side honours")], spelling())
    assert {s.op for s in aside.b[0].segments} <= {"=", "~", " "}


@pytest.mark.parametrize("text, message", [
    ("same: [honour, honor]\n", "expected a list of two or more words"),
    ("same:\n  - [honour]\n", "expected a list of two or more words"),
    ("same:\n  - [honour, honor]\n  - [honor, onor]\n", "'honor' is already in the group of 'honour'"),
    ("same:\n  - [hon-our, honor]\n", "is not a word (or two words) of letters"),
    ("spellings:\n  - [honour, honor]\n", "expected one key, 'same'"),
])
def test_a_broken_spelling_table_is_refused_at_its_line(tmp_path, text, message):
    p = tmp_path / "spelling.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(bridgelaw.LawFileError) as e:
        spelling(p)
    assert message in str(e.value) and re.search(r"spelling\.yaml:\d+:\d+", str(e.value))


# --------------------------------------------------------------------------
# The summary first


def test_the_summary_of_1912_to_1913_fits_a_screen_and_names_what_matters(capsys):
    rc, out, _ = cli(capsys, "diff", "wcny-1912", "wcny-1913")
    assert rc == 0
    summary = out[out.index("Summary"):out.index("Contents:")]
    assert summary.count("\n") <= 45
    assert "penalty.revoke: 150 (law 84) → 100 (law 84)" in summary
    assert "chicane: 2 (law 9) → none stated (the 1913 laws score no chicane" in summary and "9 (chicane" in summary
    assert "50a (barred-player)" in summary
    assert re.search(r"Renumbered \(\d+\):\n\s+- 4 → 3; 10 → 9", summary)
    assert "2 + 3 → 4 (merged)" in summary
    assert out.index("Summary") < out.index("Laws side by side")


def test_added_laws_are_shown_whole():
    d = diff_codes("wcny-1912", "wcny-1913")
    row = next(r for r in d.rows if r.group.numbers_b == ("50a",))
    assert row.diff.b[0].text == bridgelaw.load_code("wcny-1913").law("50a").text
    assert "…" not in render(d, "text").split("law — → wcny-1913 law 50a")[1].split("\n\n")[0]


# --------------------------------------------------------------------------
# Every verb, every format


VERBS = [("diff", "wcny-1912", "wcny-1913", "--topic", "revoke"), ("diff", "wcny-1912", "wcny-1913", "--rulings",
                                                                    "--kind", "revoke"),
         ("history", "revoke"), ("audit", "portland-1909")]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verb", VERBS, ids=[" ".join(v) for v in VERBS])
def test_every_verb_in_every_format(capsys, verb):
    outs = {}
    for fmt in FORMATS:
        rc, out, err = cli(capsys, *verb, "--format", fmt)
        assert rc == 0, err
        outs[fmt] = out
    assert outs["markdown"].startswith("# ")
    assert outs["html"].startswith("<!doctype html>") and 'id="toc"' in outs["html"] and "<script" not in outs["html"]
    assert outs["html"].index('id="summary"') < outs["html"].index("</nav>") + 200
    data = json.loads(outs["json"])
    name = {"diff": "ruling-diff" if "--rulings" in verb else "diff", "history": "history", "audit": "audit"}[verb[0]]
    schema(name).validate(data)
    assert outs["text"] != outs["markdown"] != outs["html"]


@pytest.mark.parametrize("argv, field", [
    (("diff", "wcny-1912", "wcny-1913", "--format", "xml"), "--format"),
    (("diff", "wcny-1912", "wcny-1913", "--rulings", "--format", "pdf"), "--format"),
    (("history", "revoke", "--format", "htm"), "--format"),
    (("audit", "wcny-1913", "--format", "csv"), "--format"),
    (("diff", "wcny-1912", "wcny-1913", "--ignore", "case"), "--ignore"),
    (("diff", "wcny-1912", "wcny-1913", "--kind", "revoke"), "--kind"),
    (("diff", "wcny-1912", "wcny-1913", "--rulings", "--jobs", "0"), "--jobs"),
    (("diff", "wcny-1912", "wcny-1913", "--rulings", "--kind", "revok"), "--kind"),
    (("diff", "wcny-1912", "wcny-1913", "--topic", "revok"), "--topic"),
    # the rulings diff reads no wording: a text option beside it was dropped without a word
    (("diff", "wcny-1912", "wcny-1913", "--rulings", "--ignore", "spelling", "--kind", "revoke"), "--ignore"),
    (("diff", "wcny-1912", "wcny-1913", "--rulings", "--topic", "revoke"), "--topic"),
    (("law", "wcny-1913", "50d"), "NUMBER"),  # (50B is 50b; 50d is no law of the 1913 code)
])
def test_bad_options_are_one_line_errors(capsys, argv, field):
    rc, out, err = cli(capsys, *argv)
    assert rc == 2 and out == "" and field in err and "Traceback" not in err


def test_the_cli_and_the_report_agree_on_formats_and_what_may_be_set_aside():
    from bridgelaw import cli as c
    from bridgelaw.editions import IGNORABLE

    assert c.FORMATS == FORMATS and c.IGNORABLE == IGNORABLE
    with pytest.raises(bridgelaw.InputError, match="--format"):
        render(diff_codes("wcny-1912", "wcny-1913", topic="slam"), "xml")


# --------------------------------------------------------------------------
# The rulings diff in words


@pytest.fixture(scope="module")
def rulings_1912_1913():
    return ruling_diff("wcny-1912", "wcny-1913")


def test_the_rulings_diff_leads_with_the_revoke_penalty(rulings_1912_1913):
    from bridgelaw.report_more import HEADLINE

    d = rulings_1912_1913
    text = render(d, "text")
    head = text[:text.index("\nDetail")]
    assert len(re.findall(r"^\s*\d+\. ", head, re.M)) <= HEADLINE == 40
    first5 = d.groups[:5]
    revoke = next(g for g in first5 if g.kind == "revoke" and g.category == "penalty amount")
    assert "150 points" in revoke.words_a and "100 points" in revoke.words_b
    assert revoke.laws_a[0] == "84" and revoke.laws_b[0] == "84"
    assert revoke.seats == ["N", "S"]  # folded: the same for either adversary
    # the example is an established revoke, or a claim the accused side proved by mixing the cards (law 87 of both
    # codes: "no proof is necessary and the claim is established")
    assert re.search(r"Has the revoke been established [^?]*\? yes\.|mix the cards [^?]*\? yes\.", revoke.sentence)
    r12 = bridgelaw.rule({"code": "wcny-1912", **revoke.example})
    r13 = bridgelaw.rule({"code": "wcny-1913", **revoke.example})
    assert [e["points"] for o in r12.to_dict()["options"] for e in o["effects"] if e["kind"] == "score"] == [150]
    assert [e["points"] for o in r13.to_dict()["options"] for e in o["effects"] if e["kind"] == "score"] == [100]


def test_every_group_says_what_differs(rulings_1912_1913):
    d = rulings_1912_1913
    assert sum(g.count for g in d.groups) <= d.space and d.incidents < d.space
    for g in d.groups:
        assert g.words_a != g.words_b or g.fields, g
        assert g.sentence and g.example and g.seats
        assert "_" not in g.category


def test_the_rulings_diff_is_the_same_in_several_processes():
    kinds = ["revoke", "lead_out_of_turn", "misdeal", "insufficient_bid"]
    one, two = ruling_diff("wcny-1912", "wcny-1913", kinds, jobs=1), ruling_diff("wcny-1912", "wcny-1913", kinds,
                                                                                   jobs=2)
    for fmt in FORMATS:
        assert render(one, fmt) == render(two, fmt)


@pytest.mark.parametrize("kinds", [["revoke"], ["lead_out_of_turn", "exposed_card", "insufficient_bid",
                                                 "impossible_bid", "call_out_of_turn"]])
def test_equivalence_classes_find_every_difference_the_whole_space_does(kinds):
    whole = ruling_diff("wcny-1912", "wcny-1913", kinds, generator="all")
    cls = ruling_diff("wcny-1912", "wcny-1913", kinds, generator="classes")
    assert {(g.kind, g.a_only, g.b_only): g.count for g in whole.groups} == \
        {(g.kind, g.a_only, g.b_only): g.count for g in cls.groups}
    assert cls.space == whole.incidents and cls.incidents * 3 < whole.incidents


# --------------------------------------------------------------------------
# History and audit


def test_history_opens_with_the_numbers_by_year(capsys):
    h = history("revoke")
    years = [r.year for r in h.rows]
    assert years == sorted(years)
    nums = {r.code: {n: (v, law) for n, v, law in r.numbers} for r in h.rows}
    assert nums["portland-1904"]["penalty.revoke_tricks"] == (3, "90")
    assert nums["portland-1909"]["penalty.revoke"] == (150, "90")
    assert nums["wcny-1912"]["penalty.revoke"] == (150, "84")
    assert nums["wcny-1913"]["penalty.revoke"] == (100, "84")
    rc, out, _ = cli(capsys, "history", "revoke")
    assert rc == 0 and out.index("The numbers") < out.index("The texts")
    table = out[:out.index("The laws on the topic")]
    assert table.count("\n") < 20
    row13 = next(line for line in table.splitlines() if " wcny-1913 " in line)
    assert re.search(r"1913\s+wcny-1913\s+3 \(84\)\s+—\s+100 \(84\)", row13), row13
    page = render(h, "html")
    assert page.index('id="summary"') < page.index("<details")


def test_audit_keeps_to_the_codes_game_and_names_the_missing_text():
    a = audit("portland-1909")
    silent = {s.kind: s for s in a.silent}
    assert "declaration_passed_back" not in silent and "declaration_passed_back" in a.other_games
    assert "laws 95 onward are in no source" in silent["new_cards"].missing_text
    assert a.incidents > 0 and a.missing == ["95"]
    assert all(s.example for s in a.silent)


# --------------------------------------------------------------------------
# Fuzzing the options


def test_any_option_value_is_an_answer_or_one_line_error(capsys):
    from hypothesis import given, settings, strategies as st

    words = st.sampled_from(["revoke", "spelling", "html", "json", "wcny-1913", "slam", "x", ""]) | st.text(
        alphabet="abcdefghijklmnopqrstuvwxyz-_1", max_size=12)

    @settings(max_examples=40, deadline=None)
    @given(opt=st.sampled_from(["--topic", "--ignore", "--format", "--kind"]), value=words,
           verb=st.sampled_from(["diff", "history", "audit"]))
    def run(opt: str, value: str, verb: str) -> None:
        argv = {"diff": ["diff", "wcny-1912", "wcny-1913"], "history": ["history", value or "slam"],
                "audit": ["audit", value or "wcny-1913"]}[verb]
        if verb == "diff" or opt == "--format":
            argv += [opt, value]
        rc, out, err = cli(capsys, *argv)
        assert rc in (0, 2), err
        assert (rc == 0 and out) or (rc == 2 and not out and "Traceback" not in err and err.strip())

    run()


def test_a_mutated_spelling_table_loads_or_names_its_spot(tmp_path):
    from hypothesis import given, settings, strategies as st

    text = (HERE.parent / "laws" / "spelling.yaml").read_text(encoding="utf-8")

    @settings(max_examples=60, deadline=None)
    @given(pos=st.integers(0, len(text) - 1), junk=st.sampled_from(["", "-", "[", "]", ",", ":", "x y z", "\n  - ["]))
    def run(pos: int, junk: str) -> None:
        p = tmp_path / f"spelling-{pos}-{sum(map(ord, junk))}.yaml"  # one file (and one cached table) a mutation
        p.write_text(text[:pos] + junk + text[pos + 1:], encoding="utf-8")
        try:
            sp = spelling(p)
        except bridgelaw.LawFileError as e:
            assert re.search(r"spelling-\d+-\d+\.yaml(:\d+:\d+)?: ", str(e)), e
            return
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in sp.groups.items())

    run()


@pytest.mark.parametrize("typed, number", [("50B", "50b"), ("e1", "E1"), ("47A", "47a")])
def test_a_law_number_is_found_whatever_the_case_of_its_letter(capsys, typed, number):
    rc, out, err = cli(capsys, "law", "wcny-1913", typed)
    assert rc == 0 and out.startswith(f"wcny-1913 — law {number} ")
