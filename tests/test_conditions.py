"""The condition language: parse once, check names and types, compile to closures."""

from __future__ import annotations

import pytest

from bridgelaw import Call, ConditionError, Seat
from bridgelaw.conditions import (
    BOOL, CALL, INT, SEAT, Env, Facts, MissingFact, Type, Where, compile_condition, describe, parse,
)

ENV = Env(
    {"established": BOOL, "revokes_by_side": INT, "offender": SEAT, "declarer": SEAT, "call": CALL,
     "cause": Type("str", ("card_faced", "pack_incorrect"))},
    {"penalty": {"revoke": 100, "quitted_trick": 25}},
)


def facts(**kw):
    return Facts(kw, lambda c: c.level * {"S": 2, "C": 6, "D": 7, "H": 8, "R": 9, "NT": 10}[c.strain.value])


@pytest.mark.parametrize("text, given, expected", [
    ("established and offender is declarer", dict(established=True, offender=Seat.E, declarer=Seat.E), True),
    ("established and offender is declarer", dict(established=True, offender=Seat.N, declarer=Seat.E), False),
    ("offender is adversary", dict(offender=Seat.N, declarer=Seat.E), True),
    ("offender is adversary", dict(offender=Seat.W, declarer=Seat.E), False),
    ("offender is not adversary", dict(offender=Seat.W, declarer=Seat.E), True),
    ("offender is partner(declarer)", dict(offender=Seat.W, declarer=Seat.E), True),
    ("revokes_by_side > 1 or not established", dict(revokes_by_side=1, established=True), False),
    ("revokes_by_side * params.penalty.revoke == 200", dict(revokes_by_side=2), True),
    ("call.level + 1 >= 7 and call.strain == \"NT\"", dict(call=Call("6NT")), True),
    ("value(call) < value(call) + 1", dict(call=Call("1S")), True),
    ("cause in [\"card_faced\", \"pack_incorrect\"]", dict(cause="card_faced"), True),
    ("cause not in [\"card_faced\"]", dict(cause="card_faced"), False),
    ("side(offender) == \"NS\"", dict(offender=Seat.S), True),
])
def test_evaluates(text, given, expected):
    _, fn = compile_condition(text, ENV)
    assert fn(facts(**given)) is expected


def test_short_circuit_does_not_ask_for_unneeded_facts():
    _, fn = compile_condition("established and revokes_by_side > 1", ENV)
    assert fn(facts(established=False)) is False
    with pytest.raises(MissingFact) as info:
        fn(facts(established=True))
    assert info.value.name == "revokes_by_side"


def test_parameters_are_folded_at_compile_time():
    _, fn = compile_condition("params.penalty.quitted_trick", ENV, want=INT)
    assert fn(facts()) == 25


@pytest.mark.parametrize("text, message, column", [
    ("establised", "unknown fact 'establised'", 1),
    ("established and offender is declarr", "did you mean 'declarer'", 29),
    ("params.penalty.revok", "unknown parameter 'params.penalty.revok'", 1),
    ("revokes_by_side and established", "'and' needs a bool, got a int", 1),
    ("call.levl > 1", "a call has no attribute 'levl'", 1),
    ("cause == \"card_face\"", "did you mean 'card_faced'", 10),
    ("established and", "condition ends too soon", 16),
    ("established = true", "unexpected character '='", 13),
    ("frobnicate(offender)", "unknown function 'frobnicate'", 1),
    ("offender < declarer", "'<' compares numbers", 10),
    ("adversary", "role 'adversary' can only follow 'is'", 1),
])
def test_errors_point_at_the_spot(text, message, column):
    with pytest.raises(ConditionError) as info:
        compile_condition(text, ENV, Where("f.yaml", 7, 11, tuple(["x"] * 6 + ["      when: " + text])))
    e = info.value
    assert message in str(e)
    assert e.path == "f.yaml" and e.line == 7
    assert e.column == 10 + column
    assert str(e).splitlines()[-1].index("^") == 4 + e.column - 1


def test_describe_round_trips():
    tree = parse("established and not (offender is adversary or revokes_by_side > 1)")
    again = parse(describe(tree))
    assert describe(again) == describe(tree)


def test_no_eval_of_source_text():
    # a Python expression is not a condition
    with pytest.raises(ConditionError):
        compile_condition("__import__('os').system('true')", ENV)
