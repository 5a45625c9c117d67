"""Every incident checked at the edge: the published schema and the engine agree, no ruling names a seat the code
lacks, and every refusal is one error naming its field.

The fuzz tests run on mostly-valid incidents (tests/incidents.py) under every code; CI derandomizes them (the "ci"
profile of tests/conftest.py). benchmarks/fuzz_rule.py runs 10,000.
"""

from __future__ import annotations

import ast
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgelaw
from bridgelaw import BridgelawError, InputError

from conftest import ROOT
from incidents import random_incident, refusal_problems, ruling_problems, schema_valid

FUZZ = {"max_examples": 300, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}


# ---------------------------------------------------------------- rule, fuzzed


@settings(**FUZZ)
@given(st.integers(0, 2 ** 32))
def test_mostly_valid_incidents_are_ruled_or_refused_by_field_and_no_ruling_names_a_seat_the_code_lacks(seed):
    inc = random_incident(random.Random(seed))
    try:
        r = bridgelaw.rule(inc)
    except InputError as e:
        assert not refusal_problems(e, inc), (refusal_problems(e, inc), inc)
        return
    except BridgelawError as e:  # a law-file error from an incident is a bug: the incident was not checked
        raise AssertionError(f"{type(e).__name__}: {e} for {inc}") from e
    assert schema_valid(inc), f"the engine ruled on an incident the schema refuses: {inc}"
    assert not ruling_problems(inc, r), (ruling_problems(inc, r), inc)


@settings(**FUZZ)
@given(st.integers(0, 2 ** 32))
def test_the_edge_refuses_exactly_what_the_published_schema_refuses(seed):
    """The shape: a schema-valid incident is read (bar the rules the schema cannot state: as many callers as calls,
    offence_at within the auction, a bid of more than seven only as the offending call of an impossible_bid
    record); an incident the schema refuses is refused, naming a field."""
    from bridgelaw.incident import read_incident

    inc = random_incident(random.Random(seed))
    valid = schema_valid(inc)
    try:
        read_incident(inc)
    except InputError as e:
        assert not refusal_problems(e, inc), (refusal_problems(e, inc), inc)
        assert not valid or e.field in ("callers", "offence_at") or (
            e.field.startswith("auction[") and "a bid of more than seven" in e.message), \
            f"the schema takes {inc}; the edge says {e}"
        return
    assert valid, f"the edge read an incident the schema refuses: {inc}"


def _strict():
    from bridgelaw.incident import incident_schema
    from bridgelaw.loader import code_ids

    return incident_schema(code_ids())


@pytest.fixture(scope="module")
def strict_validator():
    import jsonschema

    return jsonschema.Draft202012Validator(_strict())


@settings(**FUZZ)
@given(seed=st.integers(0, 2 ** 32))
def test_an_incident_the_engine_rules_on_the_desks_schema_takes(seed, strict_validator):
    """The desk's schema (the published one with the codes, the kinds, each kind's facts and three-hand's empty
    seats stated) refuses nothing the engine rules on; what it refuses the engine refuses too."""
    inc = random_incident(random.Random(seed))
    try:
        bridgelaw.rule(inc)
    except InputError:
        return
    errors = [e.message for e in strict_validator.iter_errors(inc)]
    assert not errors, (inc, errors)


def test_the_desks_schema_refuses_what_only_the_code_can_tell():
    import jsonschema

    v = jsonschema.Draft202012Validator(_strict())
    for bad in ({"code": "wcny-1931", "irregularity": "revoke"},
                {"code": "wcny-1913", "irregularity": "revok"},
                {"code": "wcny-1913", "irregularity": "revoke", "facts": {"establised": True}},
                {"code": "wcny-1913", "irregularity": "revoke", "facts": {"established": "yes"}},
                {"code": "wcny-1913", "irregularity": "revoke", "facts": {"revokes_by_side": 0}},
                {"code": "wcny-1913", "irregularity": "bystander_remark", "offender": "N"},
                {"code": "wcny-1913-three-hand", "irregularity": "double_of_partner"},
                {"code": "wcny-1913-three-hand", "irregularity": "revoke", "dealer": "S", "declarer": "N"},
                {"code": "wcny-1913-three-hand", "irregularity": "insufficient_bid", "dealer": "S", "offender": "N"},
                {"code": "wcny-1913-three-hand", "irregularity": "insufficient_bid", "dealer": "S",
                 "auction": ["1H", "1D"], "callers": ["S", "N"]},
                # a call-out-of-turn record holds the calls before the offence: offence_at cannot point into it
                {"code": "wcny-1913", "irregularity": "call_out_of_turn", "dealer": "S", "offender": "E",
                 "auction": ["1H", "1S", "P", "P"], "callers": ["S", "E", "W", "N"], "offence_at": 1,
                 "facts": {"call": "1S"}}):
        assert not v.is_valid(bad), bad
        with pytest.raises(InputError):
            bridgelaw.rule(bad)
    # the dummy's hand may offend by its play: the declarer plays it
    ok = {"code": "wcny-1913-three-hand", "irregularity": "revoke", "dealer": "S", "declarer": "E", "offender": "W",
          "facts": {"established": True}}
    assert v.is_valid(ok) and bridgelaw.rule(ok).laws[0].number == "63"


@pytest.mark.parametrize("inc, field", [
    ({"code": "wcny-1913", "irregularity": "extra_redouble", "facts": {"call": "1S"}}, "facts.call"),
    ({"code": "wcny-1913", "irregularity": "revoke", "facts": {"previous_bid": "1S"}}, "facts.previous_bid"),
    ({"code": "wcny-1913-three-hand", "irregularity": "dummy_card_named", "dealer": "S", "declarer": "E",
      "offender": "W"}, "offender"),
    ({"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H"], "callers": []},
     "callers"),
])
def test_what_the_desks_schema_leaves_to_the_engine_is_refused_by_a_cross_field(inc, field):
    """Stated beside the rest, these make a schema no generator can draw from: the engine refuses them, naming a
    field the desk's schemathesis test allows a schema-valid request to be refused by."""
    from bridgelaw.incident import cross_field

    assert not list(jsonschema_errors(inc))
    with pytest.raises(InputError) as e:
        bridgelaw.rule(inc)
    assert e.value.field == field and cross_field(field)


def jsonschema_errors(inc):
    import jsonschema

    return jsonschema.Draft202012Validator(_strict()).iter_errors(inc)


def test_the_desks_schema_is_one_a_generator_can_draw_from():
    """schemathesis draws from the canonical form of a schema; one it cannot model (too many conditionals) it
    refuses, and the desk's POST /rule would go untested."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    from jsonschema_rs import canonical

    form = jsonschema_rs.canonicalize(_strict(), draft=jsonschema_rs.Draft202012, validate_formats=True)
    assert form.kind is not canonical.CanonicalKind.RAW


# ---------------------------------------------------------------- one source


def test_the_edge_reads_its_bounds_from_the_published_schema():
    from bridgelaw.incident import _bounds, schema
    from bridgelaw.vocabulary import _JSON_TYPES

    s, b = schema(), _bounds()
    assert b.auction_max == s["properties"]["auction"]["maxItems"] and b.code_len == s["properties"]["code"]["maxLength"]
    assert b.fields == tuple(s["properties"]) and b.required == ("code", "irregularity")
    # an incident's calls are written as a ruling's are, and may be a bid of more than seven (an impossible
    # declaration, values.OVER_SEVEN_RE), which no ruling holds
    from bridgelaw.values import OVER_SEVEN_RE

    over = "|" + OVER_SEVEN_RE.pattern[1:-1] + "|P|X|XX)$"
    assert s["$defs"]["call"]["pattern"] == _JSON_TYPES["call"]["pattern"].replace("|P|X|XX)$", over)
    with pytest.raises(InputError) as e:
        bridgelaw.rule({"code": "wcny-1913", "irregularity": "revoke", "note": "x" * (b.note_max + 1)})
    assert e.value.field == "note"


def test_every_fact_bound_is_within_what_the_schema_takes_of_any_fact():
    from bridgelaw.incident import _bounds
    from bridgelaw.loader import load_kinds

    lo, hi = _bounds().fact_int
    common, kinds = load_kinds()
    specs = [*common.values(), *(f for k in kinds.values() for f in k.facts.values())]
    bounded = [f for f in specs if f.bounds]
    assert {f.name for f in bounded} >= {"revokes_by_side", "trick"}
    assert all(lo <= f.bounds[0] <= f.bounds[1] <= hi for f in bounded)
    assert all(f.bounds for f in specs if f.type.name == "int"), "every whole-number fact has its bounds"


# ---------------------------------------------------------------- three-hand


@pytest.mark.parametrize("inc, field", [
    ({"irregularity": "exposed_card_in_auction", "dealer": "S", "offender": "N", "facts": {"card": "SA"}}, "offender"),
    ({"irregularity": "revoke", "dealer": "S", "declarer": "N", "offender": "E"}, "declarer"),
    ({"irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S", "1D"], "callers": ["S", "N", "W"]},
     "callers[1]"),
    ({"irregularity": "dummy_warns_wrong_hand", "dealer": "S", "declarer": "E"}, "irregularity"),
    ({"irregularity": "lead_out_of_turn", "dealer": "S", "declarer": "S", "offender": "E",
      "facts": {"dummy_looked": True}}, "facts.dummy_looked"),
    ({"irregularity": "claim", "dealer": "S", "declarer": "E", "offender": "W"}, "offender"),
    ({"irregularity": "call_out_of_turn", "dealer": "S", "offender": "W", "facts": {"call": "1S",
                                                                                   "doubled_player": "N"}},
     "facts.doubled_player"),
])
def test_no_player_sits_at_the_dummy_packet_nor_acts_as_the_dummy(inc, field):
    with pytest.raises(InputError) as e:
        bridgelaw.rule({"code": "wcny-1913-three-hand", **inc})
    assert e.value.field == field


def test_three_hand_players_are_named_from_the_dealer_and_the_offender_without_an_auction():
    r = bridgelaw.rule({"code": "wcny-1913-three-hand", "irregularity": "insufficient_bid", "dealer": "S",
                        "offender": "W", "facts": {"call": "1C", "previous_bid": "1H"}})
    assert (r.facts["succeeding_player"].value, r.facts["third_player"].value) == ("E", "S")
    assert {o.chooser for o in r.options} == {("E", "S")} and not r.questions


def test_a_redouble_beyond_the_limit_in_three_hand_is_penalized_for_each_other_player():
    r = bridgelaw.rule({"code": "wcny-1913-three-hand", "irregularity": "extra_redouble", "dealer": "S",
                        "auction": ["1C", "P", "1H", "X", "P", "XX", "P", "X", "XX"]})  # (before the close)
    points = next(o for o in r.options if o.id == "points")
    assert points.chooser == ("S", "W") and points.provision.endswith("/T4/t4-redouble-more-than-once")
    assert [dict(e.args)["player"] for e in points.effects] == ["S", "W"]
    assert not ruling_problems({}, r)


def test_a_remedy_waits_while_one_that_would_override_it_waits_on_an_answer():
    """Three-hand law (10) overrides law 57 for a double out of turn, (5) for a redouble: with the call not known,
    law 57's options are not given; the call is asked."""
    r = bridgelaw.rule({"code": "wcny-1913-three-hand", "irregularity": "double_out_of_turn", "dealer": "S",
                        "offender": "W"})
    assert not r.options and [q.fact for q in r.questions] == ["call"]
    step = next(t for t in r.trace if t.provision == "wcny-1913/57/double-out-of-turn")
    assert not step.applied and "which would override it, needs call" in step.because
    answered = bridgelaw.rule({"code": "wcny-1913-three-hand", "irregularity": "double_out_of_turn", "dealer": "S",
                               "offender": "W", "facts": {"call": "X", "doubled_player": "S", "other_player": "E"}})
    assert {o.provision for o in answered.options} == {"wcny-1913-three-hand/T10/t10-double-out-of-turn"}


def test_only_a_provision_restated_for_the_seat_model_waits_on_its_restatements_answer():
    """Three-hand restates inherited laws that would name a seat where no player sits; only those wait. Elsewhere
    a remedy is shown subject to the answer (the duplicate code's law 84 while the referee is asked whether the
    score was recorded: the casebook)."""
    from bridgelaw import load_code

    assert {"double-out-of-turn", "redouble-more-than-once"} <= load_code("wcny-1913-three-hand").restated
    assert not load_code("wcny-1913-duplicate").restated and not load_code("american-1905").restated
    r = bridgelaw.rule({"code": "wcny-1913-duplicate", "irregularity": "revoke", "dealer": "S", "declarer": "E",
                        "offender": "N", "facts": {"established": True, "revokes_by_side": 1}})
    assert [q.fact for q in r.questions] == ["scores_recorded"] and {o.id for o in r.options} == {"points", "tricks"}


def test_the_kind_menu_of_three_hand_leaves_out_what_cannot_happen_there():
    from bridgelaw import api

    kinds = api.code_detail("wcny-1913-three-hand")["kinds"]
    assert "revoke" in kinds and "extra_redouble" in kinds
    assert not {"double_of_partner", "call_while_barred", "dummy_suggests_play", "act_for_partner"} & set(kinds)
    assert "double_of_partner" in api.code_detail("wcny-1913")["kinds"]


# ---------------------------------------------------------------- the record


@pytest.mark.parametrize("kind, auction, ok", [
    ("double_of_partner", ["1H", "P", "X"], True),
    ("double_of_partner", ["1H", "X"], False),
    ("double_of_partner", ["P", "X"], False),
    ("redouble_of_partner_double", ["1H", "X", "P", "XX"], True),
    ("redouble_of_partner_double", ["1H", "P", "X", "XX"], False),
    ("extra_redouble", ["1H", "X", "XX", "P", "P", "XX"], True),
    ("extra_redouble", ["1H", "X", "P", "P", "X"], True),
    ("extra_redouble", ["1H", "XX"], False),
    ("extra_redouble", ["1H", "X"], False),
])
def test_the_offending_call_of_a_kind_whose_record_holds_it_is_that_kind_of_call(kind, auction, ok):
    inc = {"code": "wcny-1913", "irregularity": kind, "dealer": "S", "auction": auction}
    if ok:  # ruled (1913 names a penalty for a redouble beyond the limit only; a second double it leaves silent)
        r = bridgelaw.rule(inc)
        assert r.options or r.effects[0].kind.value == "no_provision"
        return
    with pytest.raises(InputError) as e:
        bridgelaw.rule(inc)
    assert e.value.field == f"auction[{len(auction) - 1}]"


def test_a_pass_given_as_a_double_out_of_turn_is_ruled_as_a_pass_out_of_turn():
    r = bridgelaw.rule({"code": "wcny-1913", "irregularity": "double_out_of_turn", "dealer": "S", "offender": "E",
                        "facts": {"call": "P"}})
    assert r.irregularity == "pass_out_of_turn" and any("pass out of turn" in n for n in r.notes)


# ---------------------------------------------------------------- no assert statements


def test_no_assert_statement_guards_anything_in_the_package():
    """Internal invariants raise a bridgelaw error (python -O would skip an assert: a wrong answer, silently)."""
    found = []
    for path in sorted((ROOT / "engine" / "bridgelaw").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert not found, "assert statements: " + ", ".join(found)
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine" / "bridgelaw").rglob("*.py"))
    assert not re.search(r"^\s*assert ", text, re.M)


# ---------------------------------------------------------------- a bid of more than seven


_AUCTION_FOUR_HAND = [c for c in bridgelaw.codes() if bridgelaw.load_code(c).game == "auction"
                      and bridgelaw.load_code(c).players == 4]


@pytest.mark.parametrize("code", _AUCTION_FOUR_HAND)
@pytest.mark.parametrize("bid", ["8NT", "9H", "13C"])
def test_a_bid_of_more_than_seven_is_ruled_alike_at_the_table_and_from_its_record_and_its_call(code, bid):
    """The table takes 8NT as an impossible declaration; the incident that records it (the offending call of the
    auction, or facts.call beside the facts the record shows) is ruled the same."""
    from bridgelaw.table import Table

    t = Table(code, "S")
    t.call("S", "1S")
    at_table = t.call("W", bid).ruling
    recorded = bridgelaw.rule({"code": code, "irregularity": "impossible_bid", "dealer": "S", "auction": ["1S", bid]})
    told = bridgelaw.rule({"code": code, "irregularity": "impossible_bid", "dealer": "S", "offender": "W",
                           "facts": {"call": bid, "previous_bid": "1S", "innocent_side_has_bid": True,
                                     "innocent_last_bid": "1S"}})
    view = lambda r: ([e.to_dict() for e in r.effects], [(o.id, [e.to_dict() for e in o.effects]) for o in r.options],
                      [q.fact for q in r.questions])
    assert at_table is not None and view(recorded) == view(at_table) == view(told)
    assert any(bid in n and "more than seven" in n for n in recorded.notes)


_STRAINS = {c: [s for s in bridgelaw.load_code(c).params["trick_values"]] for c in _AUCTION_FOUR_HAND}


@settings(**FUZZ)
@given(data=st.data())
def test_whether_a_bid_of_more_than_seven_is_insufficient_is_read_alike_from_the_table_the_record_and_the_call(data):
    """Over any last bid, a bid of more than seven is insufficient when it does not overbid it in value (equal
    value with more tricks overbids, where the code ranks so): the table, the record and the call given all say
    so in the derived fact ``sufficient``, and the three rule alike."""
    from bridgelaw.table import Table

    code = data.draw(st.sampled_from(_AUCTION_FOUR_HAND))
    strains = _STRAINS[code]
    prev = f"{data.draw(st.integers(1, 7))}{data.draw(st.sampled_from(strains))}"
    bid = f"{data.draw(st.integers(8, 13))}{data.draw(st.sampled_from(strains))}"
    values = bridgelaw.load_code(code).params["trick_values"]
    worth = lambda b: int(b[:-2] if b.endswith("NT") else b[:-1]) * values[b[-2:] if b.endswith("NT") else b[-1]]
    level = lambda b: int(b[:-2] if b.endswith("NT") else b[:-1])
    expected = worth(bid) > worth(prev) or (worth(bid) == worth(prev) and level(bid) > level(prev))
    t = Table(code, "S")
    t.call("S", prev)
    at_table = t.call("W", bid).ruling
    recorded = bridgelaw.rule({"code": code, "irregularity": "impossible_bid", "dealer": "S", "auction": [prev, bid]})
    told = bridgelaw.rule({"code": code, "irregularity": "impossible_bid", "dealer": "S", "offender": "W",
                           "facts": {"call": bid, "previous_bid": prev, "innocent_side_has_bid": True,
                                     "innocent_last_bid": prev}})
    view = lambda r: ([e.to_dict() for e in r.effects], [(o.id, [e.to_dict() for e in o.effects]) for o in r.options],
                      [q.fact for q in r.questions])
    assert at_table is not None and view(recorded) == view(at_table) == view(told)
    assert recorded.facts["sufficient"] is told.facts["sufficient"] is expected


@pytest.mark.parametrize("inc, field, words", [
    ({"irregularity": "insufficient_bid", "auction": ["1S", "8NT"]}, "auction[1]", "only as the offending call"),
    ({"irregularity": "impossible_bid", "auction": ["8NT", "1S"], "offence_at": 1}, "auction[0]", "offending call"),
    ({"irregularity": "impossible_bid", "auction": ["1S", "8NT", "P", "P", "P"], "offence_at": 1}, "auction[4]",
     "cannot close on 8NT"),
    ({"irregularity": "insufficient_bid", "offender": "W", "facts": {"call": "8NT"}}, "facts.call", "impossible_bid"),
    ({"irregularity": "call_out_of_turn", "offender": "W", "facts": {"call": "8NT"}}, "facts.call", "impossible_bid"),
    ({"code": "portland-1904", "irregularity": "impossible_bid", "auction": ["8NT"]}, "auction[0]", "straight bridge"),
    ({"code": "portland-1909", "irregularity": "impossible_bid", "auction": ["1S", "8R"]}, "auction[1]", "R"),
])
def test_a_bid_of_more_than_seven_anywhere_else_is_refused_by_its_field(inc, field, words):
    inc = {"code": "wcny-1913", "dealer": "S", **inc}
    with pytest.raises(InputError) as e:
        bridgelaw.rule(inc)
    assert e.value.field == field and words in e.value.message and cross_field_ok(e.value.field)


def cross_field_ok(field):
    from bridgelaw.incident import cross_field

    return cross_field(field)


_BIDS = [f"{n}{s}" for n in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


@settings(**FUZZ)
@given(data=st.data())
def test_facts_the_bids_given_show_are_derived_and_a_contradiction_is_refused(data):
    """An incident given as facts (no auction record) with its call and the bid before it: the requisite bid, whether
    it is impossible and the bid made seven are what the bids show (1913's bid table); given otherwise, the incident
    is refused naming the fact, never ruled on the fact as given."""
    from bridgelaw.bids import bid_table
    from bridgelaw.loader import load_code
    from bridgelaw.values import Call

    code = data.draw(st.sampled_from(["wcny-1913", "wcny-1912", "portland-1909"]))
    table = bid_table(load_code(code))
    prev = data.draw(st.sampled_from(_BIDS))
    call = data.draw(st.sampled_from([b for b in _BIDS if not table.overbids(Call(b), Call(prev))]
                                     or ["1C"]))
    if table.overbids(Call(call), Call(prev)):
        return  # (nothing is insufficient over the lowest bid)
    req = table.requisite(Call(call), Call(prev))
    kind = data.draw(st.sampled_from(["insufficient_bid"] + (["impossible_bid"] if req is None else [])))
    shown: dict[str, object] = {"seven_call": table.seven_call(Call(call).strain.value).text} \
        if kind == "impossible_bid" else {"impossible": req is None, "requisite_call": req.text if req else None}
    name = data.draw(st.sampled_from(sorted(shown)))
    value = data.draw(st.sampled_from([True, False]) if name == "impossible" else st.sampled_from(_BIDS))
    facts = {"call": call, "previous_bid": prev, name: value}
    inc = {"code": code, "irregularity": kind, "dealer": "S", "offender": "W", "facts": facts}
    if shown.get(name) == value:
        assert bridgelaw.rule(inc).irregularity == kind
    else:
        with pytest.raises(InputError) as info:
            bridgelaw.rule(inc)
        assert info.value.field == f"facts.{name}", (inc, str(info.value))
