"""Facts the rest of the incident settles are derived, not asked; a fact that contradicts them is refused."""

from __future__ import annotations

import pytest

from bridgelaw import rule
from bridgelaw.errors import InputError

REMINDER = {"code": "wcny-1913", "irregularity": "info_on_previous_calls", "dealer": "S", "declarer": "E",
            "offender": "N"}


def test_law_51_asks_for_the_leader_of_the_offending_side_and_calls_the_lead_from_him():
    question = rule(REMINDER).questions[0]
    assert question.fact == "next_leader" and "offender's side" in question.ask and "called from him" in question.ask
    r = rule({**REMINDER, "facts": {"next_leader": "S"}})
    assert [(o.chooser, e.to_dict()) for o in r.options for e in o.effects] == \
        [("E", {"kind": "call_lead", "seat": "S"})]


@pytest.mark.parametrize("leader", ["E", "W"])
def test_a_leader_of_the_innocent_side_is_refused_by_name(leader):
    with pytest.raises(InputError) as e:
        rule({**REMINDER, "facts": {"next_leader": leader}})
    assert e.value.field == "facts.next_leader" and "N or S" in e.value.message


def test_the_dummys_information_calls_the_lead_from_the_declaring_side():
    r = rule({**REMINDER, "offender": "W", "facts": {"next_leader": "E"}})
    assert [e.to_dict() for o in r.options for e in o.effects] == [{"kind": "call_lead", "seat": "E"}]
    assert r.options[0].chooser == "NS"


def test_a_fact_given_is_kept_and_a_fact_it_settles_is_derived_only_where_not_given():
    base = {"code": "wcny-1913", "irregularity": "lead_out_of_turn", "dealer": "S", "declarer": "E", "offender": "N"}
    derived = rule({**base, "facts": {"card": "SK", "followed_by": "second"}})
    assert derived.facts["accepted"] is True and [e.kind.value for e in derived.effects] == ["trick_stands"]
    given = rule({**base, "facts": {"card": "SK", "followed_by": "nobody", "accepted": True}})
    assert given.facts["accepted"] is True  # answered later (the table asks it), it stands as answered


def test_an_established_revoke_was_quitted():
    r = rule({"code": "portland-1904", "irregularity": "revoke", "dealer": "S", "declarer": "S", "offender": "N",
              "facts": {"established": True}})
    assert r.facts["quitted"] is True and "quitted" not in [q.fact for q in r.questions]


def test_a_question_that_blocks_a_ruling_still_states_the_options_in_words():
    """1904 law 90: before the trick's value is known, the value options are stated, and priced once it is."""
    inc = {"code": "portland-1904", "irregularity": "revoke", "dealer": "S", "offender": "W",
           "facts": {"established": True, "revokes_by_side": 1}}
    r = rule(inc)
    waiting = {o.id: o for o in r.options if o.awaits}
    assert set(waiting) == {"deduct-value", "add-value"} and all(o.label and not o.effects for o in waiting.values())
    assert [q.fact for q in r.questions] == ["trick_value"] and len(r.questions[0].provisions) == 1
    priced = rule({**inc, "facts": {**inc["facts"], "trick_value": 8}})
    assert not priced.questions and all(not o.awaits for o in priced.options)
    assert {o.id: o.effects[0].to_dict() for o in priced.options}["add-value"] == \
        {"kind": "score", "side": "NS", "column": "trick", "points": 24}
