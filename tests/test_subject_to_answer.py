"""A ruling given while questions wait never silently loses an effect when they are answered.

A provision whose condition holds is given at once; but where a provision that would override it waits on a
fact nobody gave, the answer may take it away. The ruling must then say so (a note "Subject to the answers
asked above: ..."), so that a referee does not read a guess as the law. This holds the promise over the casebook: each
yes-or-no or choice question of each case is answered each way, and every provision given before and not
after must be named in such a note.
"""

from __future__ import annotations

import copy

import pytest

from bridgelaw import rule
from bridgelaw.casebook import load_cases
from bridgelaw.errors import BridgelawError

from conftest import ROOT

ASKING = [c for c in load_cases(ROOT / "rulings") if c.expect.get("questions")]


def _applied(ruling):
    return {t["provision"].rsplit("/", 1)[1] for t in ruling.to_dict()["trace"] if t["applied"]}


def _answers(q):
    return {"bool": (True, False), "seat": ("N", "E", "S", "W"), "side": ("NS", "EW"),
            "int": (1, 2, 13)}.get(q.type, q.choices)


@pytest.mark.parametrize("case", ASKING, ids=[c.path.split("/", 1)[1][:-5] for c in ASKING])
def test_an_answer_takes_away_only_what_the_ruling_said_was_subject_to_it(case):
    ruling = rule(case.incident)
    before = _applied(ruling)
    subject = [n for n in ruling.notes if n.startswith("Subject to the answers asked above: ")]
    tried = 0
    for q in ruling.questions:
        if "." in q.fact or q.fact.startswith("callers"):
            continue
        for value in _answers(q):
            inc = copy.deepcopy(dict(case.incident))
            inc["facts"] = {**inc.get("facts", {}), q.fact: value}
            try:
                answered = rule(inc)
            except BridgelawError:  # an answer this incident cannot take (refused by name elsewhere)
                continue
            tried += 1
            for lost in sorted(before - _applied(answered)):
                assert any(f"({lost}) is given" in n for n in subject), (
                    f"{q.fact}={value!r} takes away {lost}, which the ruling gave without a word: {ruling.notes}")
    if subject:
        assert tried, "a ruling subject to an answer has an answer to try"


def test_the_duplicate_revoke_waits_on_whether_the_score_was_recorded():
    inc = {"code": "wcny-1913-duplicate", "irregularity": "revoke", "dealer": "S", "declarer": "E",
           "offender": "N", "facts": {"established": True, "revokes_by_side": 1}}
    waiting = rule(inc)
    assert [q.fact for q in waiting.questions] == ["scores_recorded"]
    assert any(n.startswith("Subject to the answers asked above: law 84 (adversary-revokes) is given, but law D")
               for n in waiting.notes)
    recorded = rule({**inc, "facts": {**inc["facts"], "scores_recorded": True}})
    assert [e.kind.value for e in recorded.effects] == ["no_penalty"] and not recorded.options
    in_time = rule({**inc, "facts": {**inc["facts"], "scores_recorded": False}})
    assert in_time.effects == waiting.effects and in_time.options == waiting.options
    assert not any(n.startswith("Subject to the answers") for n in recorded.notes + in_time.notes)
