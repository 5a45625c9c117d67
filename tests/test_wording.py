"""Rulings in words: every casebook ruling said as `bridgelaw rule` prints it and as the words the API sends,
with no identifier in snake_case; values, choosers, questions and presumptions in words."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import jsonschema
import pytest

from bridgelaw import api, load_code, rule
from bridgelaw.casebook import load_cases
from bridgelaw.loader import load_kinds
from bridgelaw.values import Call, Card, Question, Seat, Side, Strain, Suit
from bridgelaw.wording import (
    call_words, card_words, chooser_words, effect_sentence, question_words, ruling_text, ruling_words, seat_words,
    seats_words, side_words,
)

from conftest import ROOT

CASES = load_cases(ROOT / "rulings")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
RULING_V = jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / "ruling.schema.json").read_text()))
PASS_OUT_OF_TURN = ROOT / "rulings" / "wcny-1913" / \
    "a-pass-out-of-turn-carries-no-penalty-and-leaves-the-turn-where-it-was.yaml"


def people_words(words: dict) -> list[str]:
    """Every string of a ruling's words that people read (not the ids and values a program sends back)."""
    out = [words["heading"], words["summary"], words["presumptions"], *words["effects"], *words["notes"]]
    for c in words["choices"]:
        out += [c["who"], c["heading"]]
        for o in c["options"]:
            out += [o["text"], *o["effects"]]
    for q in words["questions"]:
        out += [q["ask"], q["format"], q["example"], *(ch["words"] for ch in q.get("choices", []))]
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.path.split("/", 1)[1][:-5] for c in CASES])
def test_every_casebook_ruling_reads_in_words(case):
    r = rule(case.incident)
    doc = api.ruling_dict(r)
    RULING_V.validate(doc)
    text = ruling_text(r)
    said = people_words(doc["words"])
    for s in [text, *said]:
        assert not SNAKE.search(s), f"{SNAKE.search(s).group(0)!r} in {s!r}"
    # the CLI prints what the page is sent: one renderer
    for s in [doc["words"]["heading"], *doc["words"]["effects"], *(e for c in doc["words"]["choices"]
                                                                    for o in c["options"] for e in o["effects"])]:
        assert s in text
    code = load_code(r.code)
    heading = doc["words"]["heading"]
    assert code.title in heading and f"({code.id})" in heading
    if r.facts.get("offender"):
        assert f" by {seat_words(r.facts['offender'])} — " in heading
    assert "presumed" not in " ".join(r.notes)
    if r.presumed:
        line = doc["words"]["presumptions"]
        assert line.startswith("Assumed, unless you say otherwise: ") and "\n" not in line


def test_the_pass_out_of_turn_ruling_prints_cleanly():
    p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "rule", str(PASS_OUT_OF_TURN)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.startswith("Pass out of turn by North — The American Laws of Bridge")
    assert "  - North may not bid, double or redouble until the declaration he passed is overbid or doubled\n" in p.stdout


def test_rule_json_carries_the_words_the_http_api_sends():
    p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "rule", str(PASS_OUT_OF_TURN), "--json"],
                       capture_output=True, text=True, timeout=60)
    doc = json.loads(p.stdout)
    assert doc == api.rule(next(c for c in CASES if c.path.endswith(PASS_OUT_OF_TURN.name)).incident)
    assert doc["words"]["effects"][0] == "There is no penalty"


def test_presumptions_are_one_line_from_the_catalogues_words():
    r = rule({"code": "american-1905", "irregularity": "revoke", "offender": "N", "dealer": "S",
              "facts": {"established": True, "revokes_by_side": 1, "trick_value": 8}})
    assert ("cards_mixed_by_accused", False) in r.presumed
    line = ruling_words(r).presumptions
    assert line.startswith("Assumed, unless you say otherwise: ") and line.endswith(".")
    assert "the cards were not mixed" in line and line.count("\n") == 0
    given = rule({"code": "american-1905", "irregularity": "revoke", "offender": "N", "dealer": "S",
                  "facts": {"established": True, "revokes_by_side": 1, "trick_value": 8,
                            "cards_mixed_by_accused": False}})
    assert "cards_mixed_by_accused" not in dict(given.presumed)
    assert "the cards were not mixed" not in ruling_words(given).presumptions


def test_every_fact_with_a_default_says_what_is_presumed():
    common, kinds = load_kinds()
    facts = [(f"common {n}", f) for n, f in common.items()] + \
        [(f"{k.id} {n}", f) for k in kinds.values() for n, f in k.facts.items()]
    defaulted = [(where, f) for where, f in facts if f.default is not None]
    assert len(defaulted) > 30
    assert [where for where, f in defaulted if not f.presumed] == []
    assert [where for where, f in facts if f.presumed and f.default is None] == []
    assert [where for where, f in defaulted if SNAKE.search(f.presumed)] == []


@pytest.mark.parametrize("value, words", [
    (seat_words("W"), "West"), (side_words("EW"), "East–West"), (chooser_words("NS"), "either North or South"),
    (chooser_words("E"), "East"), (call_words("4S"), "four spades"), (call_words("1NT"), "one no trump"),
    (call_words("2NT"), "two no trumps"), (call_words("1R"), "one royal spade"), (call_words("XX"), "redouble"),
    (call_words("P"), "pass"), (call_words("H"), "hearts"), (card_words("SK"), "king of spades"),
    (card_words("HT"), "ten of hearts"), (card_words("DJ"), "knave of diamonds"),
    (seats_words(["N", "E", "S"]), "North, East and South"), (seats_words(["W"]), "West"),
])
def test_values_in_words(value, words):
    assert value == words


@pytest.mark.parametrize("effect, sentence", [
    ({"kind": "honours_only", "side": "EW"}, "East–West may score only their honours this deal"),
    ({"kind": "bar", "seat": "W", "calls": "bids", "until": "adverse_call"},
     "West may not bid until an adversary bids or doubles; he may still pass, double or redouble"),
    ({"kind": "bar", "seat": "W", "calls": "bids_and_doubles", "until": "end_of_auction"},
     "West may not bid or double until the end of the auction; he may still pass or redouble"),
    ({"kind": "bar", "seat": "W", "calls": "all", "until": "adverse_call"},
     "West may not bid, double or redouble until an adversary bids or doubles"),
    ({"kind": "amend_call", "seat": "W", "call": "4S"}, "West's call becomes four spades"),
    ({"kind": "exposed_card", "seat": "E", "card": "SK"}, "East's king of spades is an exposed card: it stays face "
                                                          "up on the table and may be called"),
    ({"kind": "score", "side": "NS", "column": "trick", "points": -24}, "North–South lose 24 points from their "
                                                                        "trick score"),
    ({"kind": "score", "player": "W", "column": "honour", "points": 50}, "West adds 50 points to his honour score"),
    ({"kind": "transfer_tricks", "count": 1, "from": "NS", "to": "EW"}, "One trick is taken from North–South and "
                                                                        "given to East–West"),
    ({"kind": "call_stands"}, "The call stands, and the auction goes on as if it had been in turn"),
    ({"kind": "no_double", "scope": "declaration"}, "The declaration now standing may not be doubled"),
    ({"kind": "play_card", "seat": "N", "must": False}, "North may not play the card in question"),
    ({"kind": "retract", "seats": ["S", "W"]}, "The cards South and West played after the error may be taken back"),
])
def test_effects_in_words(effect, sentence):
    assert effect_sentence(effect) == sentence


_PARSE = {"seat": Seat.parse, "side": Side, "call": Call, "bid": Call, "card": Card, "suit": Suit, "strain": Strain, "int": int,
          "bool": {"yes": True, "no": False}.__getitem__}


def test_questions_say_how_to_answer_with_an_example_the_engine_takes():
    common, kinds = load_kinds()
    types = {(f.type.name, f.type.choices) for k in kinds.values() for f in {**common, **k.facts}.values()}
    assert {t for t, c in types if not c} <= set(_PARSE), "a fact type without a format and an example in words"
    for name, choices in types | {(t, ()) for t in _PARSE}:
        w = question_words(Question("x", "What?", (), name, choices))
        assert w.format and w.example and not SNAKE.search(w.format + w.example), name
        if choices:  # each choice in words, and the example is one of them
            assert [v for v, _ in w.choices] == list(choices) and w.example == w.choices[0][1]
        else:
            _PARSE[name](w.example)  # the example is an answer the engine reads


def test_ask_ends_with_the_ruling_in_the_renderers_words():
    p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "ask", "wcny-1913"], capture_output=True, text=True,
                       input="misdeal\nnot in rotation\n", timeout=60)
    assert p.returncode == 0, p.stderr
    said = ruling_text(rule({"code": "wcny-1913", "irregularity": "misdeal", "facts": {"cause": "not_in_rotation"}}))
    assert p.stdout.endswith(said + "\n") and said.startswith("Misdeal — The American Laws of Bridge")


def test_a_default_without_its_presumed_words_is_refused_at_its_line(tmp_path):
    import shutil

    from bridgelaw import LawFileError

    laws = tmp_path / "laws"
    shutil.copytree(ROOT / "laws" / "kinds.d", laws / "kinds.d")
    text = (ROOT / "laws" / "kinds.yaml").read_text(encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.strip().startswith("pack_imperfect:"))
    (laws / "kinds.yaml").write_text(text.replace(', presumed: "no card of the pack is torn, marked or missing"', ""),
                                     encoding="utf-8")
    with pytest.raises(LawFileError) as info:
        load_kinds(str(laws))
    assert info.value.line == line and "has a default but no `presumed:`" in str(info.value)
