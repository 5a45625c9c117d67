"""The condition language: parse once, check names and types, compile to closures."""

from __future__ import annotations

import pytest

from bridgelaw import Call, ConditionError, Seat
from bridgelaw.conditions import (
    BID, BOOL, CALL, INT, SEAT, Env, Facts, MissingFact, Type, Where, compile_condition, describe, parse,
)

ENV = Env(
    {"established": BOOL, "revokes_by_side": INT, "offender": SEAT, "declarer": SEAT, "call": CALL, "previous_bid": BID,
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
    ("call.is_bid and call.level + 1 >= 7 and call.strain == \"NT\"", dict(call=Call("6NT")), True),
    ("call.kind == \"bid\" and value(call) < value(call) + 1", dict(call=Call("1S")), True),
    ("not call.is_bid or value(call) > 40", dict(call=Call("P")), True),
    ("call.kind != \"bid\" or call.level > 6", dict(call=Call("1S")), False),
    ("call.kind not in [\"pass\", \"double\", \"redouble\"] and call.level == 6", dict(call=Call("6NT")), True),
    ("value(previous_bid) == 20", dict(previous_bid=Call("2NT")), True),
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
    # what could not be evaluated is refused, not left to blow up at the table
    ("value(call) > 20", "value() needs a bid, but call is a call that may be a pass", 7),
    ("call.level > 3", "only a bid has a level", 1),
    ("call.is_bid or call.level > 3", "only a bid has a level", 16),
    ("established and call.strain == \"S\"", "only a bid has a strain", 17),
    ("revokes_by_side / 0 > 1", "'/' by zero", 19),
    ("revokes_by_side % 0 > 1", "'%' by zero", 19),
    ("\"x\" is adversary", "tests a seat, such as offender", 1),
    ("\"N\" is not declaring_side", "tests a seat", 1),
    ("revokes_by_side > 12345678901", "a number of 11 digits: at most 9", 19),
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


def test_a_guard_holds_only_where_it_is_read():
    # an 'or' does not guard its right side when its left is the guard itself
    with pytest.raises(ConditionError, match="only a bid has a level"):
        compile_condition("call.is_bid or call.level > 1", ENV)
    # a guard on the left of 'and' guards the right; a negated guard on the left of 'or' does too
    for text in ("call.is_bid and (established or call.level > 1)", "not (call.kind == \"bid\") or call.level > 1",
                 "call.is_bid and value(call) > 1"):
        compile_condition(text, ENV)


@pytest.mark.parametrize("text, message", [
    (" and ".join(["established"] * 300), "at most 1,000"),
    (" and ".join(["established"] * 40), "nested more than 32 levels deep"),
    ("not " * 500 + "established", "at most 1,000"),
    ("not " * 100 + "established", "nested more than 32 levels deep"),
    ("(" * 100 + "established or " * 40 + "established" + ")" * 100, "nested more than 32 levels deep"),
    ("revokes_by_side > " + "9" * 5000, "at most 1,000"),
    ("revokes_by_side > " + "9" * 50, "a number of 50 digits"),
])
def test_limits_instead_of_crashes(text, message):
    """A condition too long, too deep or with too long a number is one error at its spot — never a
    RecursionError, a SyntaxError from Python's compiler, or a ValueError from int()."""
    with pytest.raises(ConditionError, match=message) as info:
        compile_condition(text, ENV, Where("f.yaml", 3, 11, ("", "", "      when: " + text)))
    assert info.value.line == 3 and info.value.column is not None


def test_the_caret_is_right_on_a_condition_that_wraps():
    """YAML folds a plain condition that wraps over lines into one line of text: the error still points at the
    word in the file, on its own line."""
    from bridgelaw.yamlsrc import load_yaml_text

    src = load_yaml_text("a:\n  when: established and\n    offender is declarr\n    and revokes_by_side > 1\n", "f.yaml")
    text = src.data["a"]["when"]
    m = src.mark(("a", "when"))
    where = Where(src.path, m.line, m.column, src.lines, "when", text, src.locator(("a", "when")))
    with pytest.raises(ConditionError) as info:
        compile_condition(text, ENV, where)
    e = info.value
    assert (e.line, e.column) == (3, 17)
    assert e.source_line.strip() == "offender is declarr"
    assert str(e).splitlines()[-1].index("^") == 4 + e.column - 1


def test_the_caret_is_right_in_a_folded_block():
    from bridgelaw.yamlsrc import load_yaml_text

    src = load_yaml_text("a:\n  when: >-\n    established and\n      offender is declarr\n", "f.yaml")
    text = src.data["a"]["when"]
    m = src.mark(("a", "when"))
    with pytest.raises(ConditionError) as info:
        compile_condition(text, ENV, Where(src.path, m.line, m.column, src.lines, "when", text,
                                           src.locator(("a", "when"))))
    assert (info.value.line, info.value.column) == (4, 19)
