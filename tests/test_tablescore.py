"""The table's scoring entry (bridgelaw.scoring.score_dealt: the facts a table has checked itself) against the score
sheet the table writes of the same deal (Table.result(), scored by bridgelaw.score): the same score, entry for entry,
reasons, citations and notes — over the table scenarios of the casebook, the casebook score sheets a table can
reproduce, and random deals played out at the table and random sheets of a table's shape under every four-hand code.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgelaw
from bridgelaw import BridgelawError, InputError
from bridgelaw.casebook import load_cases
from bridgelaw.scoring import Revoke, score, score_dealt
from bridgelaw.table import Table
from bridgelaw.table.scenarios import _act, load_scenarios
from bridgelaw.values import Seat

from conftest import ROOT
from scoresheets import codes, random_deal

SCENARIOS = load_scenarios(ROOT / "rulings")
# the keys of the sheet a table writes of a four-hand deal played out with no penalty points (Table.result())
TABLE_KEYS = {"code", "declarer", "contract", "tricks", "deal", "revokes", "original_one_spade"}
SHEETS = [c for c in load_cases(ROOT / "rulings", scores=True)
          if set(c.incident) <= TABLE_KEYS and bridgelaw.load_code(c.incident["code"]).players == 4
          and c.incident.get("original_one_spade") in (None, True)]
FOUR_HAND = [c for c in codes() if c[2] == 4]


def said(s):
    """All a score says: its JSON view, its entries with their rules, its notes, who it is kept for."""
    return (s.to_dict(), [(e.side, e.column, e.points, e.reason, e.law, e.rule) for e in s.entries], s.notes,
            s.players, s.capped)


def scored(fn, *args):
    try:
        return ("scored", said(fn(*args)))
    except InputError as e:
        return ("refused", type(e).__name__, e.field, e.message)


def entry_args(sheet):
    """The facts the table hands the scoring entry, read back from a sheet of the table's shape."""
    return (bridgelaw.load_code(sheet["code"]), sheet["declarer"], sheet["contract"], sheet["tricks"],
            sheet.get("deal"), bool(sheet.get("original_one_spade")),
            tuple(Revoke(Seat(r["offender"]), r.get("choice")) for r in sheet.get("revokes", ())))


def played_out(sc):
    """The scenario's table after its actions (an action refused, as the scenario expects, is passed over)."""
    tb = sc.table
    t = Table(tb["code"], tb.get("dealer", "S"), tb.get("deal"))
    for a in sc.actions:
        try:
            _act(t, a)
        except BridgelawError:
            pass
    return t


def test_the_table_scenarios_score_at_the_table_as_their_sheets_score():
    done = fast = 0
    for sc in SCENARIOS:
        t = played_out(sc)
        if t.phase != "done":
            continue
        done += 1
        o = t.outcome()
        assert said(o.score) == said(score(t.result())), sc.path
        if t.players == 4 and "penalties" not in t.result():  # the table's own entry scored it
            fast += 1
            assert said(score_dealt(*entry_args(t.result()))) == said(o.score), sc.path
    assert done >= 20 and fast >= 10, (done, fast)  # the scenarios reach the end of the play, many of them


@pytest.mark.parametrize("case", SHEETS, ids=[c.path.split("/", 1)[1][:-5] for c in SHEETS])
def test_a_casebook_sheet_the_table_could_write_scores_the_same_from_the_tables_facts(case):
    assert scored(score_dealt, *entry_args(case.incident)) == scored(score, case.incident)


def test_the_casebook_has_sheets_of_the_tables_shape_with_deals_and_revokes():
    assert len(SHEETS) >= 30
    assert any("deal" in c.incident for c in SHEETS) and any("revokes" in c.incident for c in SHEETS)


def table_sheet(rnd: random.Random):
    """A sheet of the table's shape under a four-hand code: a contract of the code, a deal most times, now and then
    the dealer's original one spade and revokes (with a choice of the code's revoke options, or none)."""
    code, game, _, strains = rnd.choice(FOUR_HAND)
    strain = rnd.choice(strains)
    if game == "auction":
        contract = f"{rnd.randint(1, 7) if rnd.random() < 0.8 else 1}{strain}{rnd.choice(['', '', 'X', 'XX'])}"
    else:
        contract = strain + rnd.choice(["", "", " x2", " x4", " x8"])
    sheet = {"code": code, "declarer": rnd.choice("NESW"), "contract": contract, "tricks": rnd.randint(0, 13)}
    if rnd.random() < 0.8:
        sheet["deal"] = random_deal(rnd)
    if contract.startswith("1S") and rnd.random() < 0.5:
        sheet["original_one_spade"] = True
    if rnd.random() < 0.4:
        sheet["revokes"] = [{"offender": rnd.choice("NESW"),
                             **({"choice": rnd.choice(["tricks", "points", "score"])} if rnd.random() < 0.7 else {})}
                            for _ in range(rnd.randint(1, 3))]
    return sheet


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_a_sheet_of_the_tables_shape_scores_the_same_from_the_tables_facts(seed):
    sheet = table_sheet(random.Random(seed))
    assert scored(score_dealt, *entry_args(sheet)) == scored(score, sheet), sheet


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32), st.sampled_from([c[0] for c in FOUR_HAND]))
def test_a_deal_with_revokes_met_again_scores_as_its_sheet_each_time(seed, code):
    """The entry remembers a deal with revokes by its contract plan (ContractPlan.dealt): sheets drawn from a narrow
    range, so that most are met again or differ from one met in a single fact (the declarer or his partner, the
    tricks, the offender, the choice, the deal's honours), each score as their sheet scores."""
    rnd = random.Random(seed)
    game, strains = next((c[1], c[3]) for c in FOUR_HAND if c[0] == code)
    deals = [random_deal(rnd) for _ in range(2)]
    contracts = [("2" if game == "auction" else "") + rnd.choice(strains) for _ in range(2)]
    met = []  # (most are met again: two deals, two contracts, three counts of tricks, four revokes)
    for _ in range(30):
        sheet = {"code": code, "declarer": rnd.choice("NS"), "contract": rnd.choice(contracts),
                 "tricks": rnd.randint(6, 8), "deal": rnd.choice(deals),
                 "revokes": [{"offender": rnd.choice("EW"), **({"choice": rnd.choice(["tricks", "points"])}
                                                               if rnd.random() < 0.7 else {})}]}
        assert scored(score_dealt, *entry_args(sheet)) == scored(score, sheet), sheet
        met.append(sheet)
    assert scored(score_dealt, *entry_args(met[0])) == scored(score, met[0])  # the first again, at the end


def ruled(t: Table, rnd: random.Random) -> None:
    """The ruling waiting carried out: an option of it chosen at random, or (refused: it wants more, a suit or a
    card) the first that is taken, the ruling answered where it asks a fact."""
    opts = [o.id for o in t.pending_ruling.options]
    for option in [rnd.choice(opts)] + opts if opts else []:
        try:
            t.apply(option)
            return
        except BridgelawError:
            continue
    t.apply()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32), st.sampled_from([c[0] for c in FOUR_HAND]))
def test_a_random_deal_played_out_at_the_table_scores_as_its_sheet(seed, code):
    """A random deal, auction and play at the table, an adversary renouncing now and then (the revoke established
    and its penalty chosen from the ruling's options): the outcome's score is the table's sheet's."""
    t, rnd = played_at_random(seed, code)
    if t is not None and t.phase == "done":
        while t.pending_ruling is not None:  # a revoke established as the last trick is quitted: its penalty chosen
            ruled(t, rnd)
        assert said(t.outcome().score) == said(score(t.result()))


def test_the_outcome_waits_for_the_penalty_of_a_revoke_established_as_the_deal_ends():
    """A revoke established as the last trick is quitted leaves its ruling waiting at the deal's end: the outcome is
    refused, naming the ruling and its options, until the penalty is chosen (not scored as if none had been)."""
    t, rnd = played_at_random(12085329, "portland-1904")  # (a random deal that ends so)
    assert t.phase == "done" and t.pending_ruling is not None and t.pending_ruling.irregularity == "revoke"
    with pytest.raises(bridgelaw.errors.RulingPendingError, match="take-tricks, deduct-value, add-value"):
        t.outcome()
    ruled(t, rnd)
    assert said(t.outcome().score) == said(score(t.result()))


def played_at_random(seed, code):
    """The random deal of a seed played out at the table (None: an auction that found no call it could make)."""
    rnd = random.Random(seed)
    t = Table(code, rnd.choice("NESW"), random_deal(rnd))
    for _ in range(60):  # an auction of random calls, the refused and the irregular ones passed over
        if t.phase != "auction":
            break
        if t.pending_ruling is not None:
            ruled(t, rnd)
            continue
        calls = t.legal_calls()
        bids = [c for c in calls if c != "P"]
        for c in [rnd.choice(bids if bids and (rnd.random() < 0.3 or "P" not in calls) else ["P"])] + calls:
            try:
                t.call(t.turn, c)
                break
            except BridgelawError:
                continue
        else:
            return None, rnd
    if t.phase != "play":
        return t, rnd
    for _ in range(80):
        if t.is_over():
            break
        if t.pending_ruling is not None:
            ruled(t, rnd)
            continue
        hand, cur = t.hand(t.turn), t.current_trick
        led = cur[0][1][0] if cur else None
        others = [c for c in hand if led and c[0] != led]
        if others and len(others) < len(hand) and rnd.random() < 0.05:
            t.play(t.turn, rnd.choice(others))  # a renounce holding the suit
        else:
            t.play(t.turn, rnd.choice(t.legal_cards()))
    return t, rnd


def test_an_answer_and_an_outcome_made_without_their_init_are_what_their_init_makes():
    import dataclasses

    from bridgelaw.table.base import Answer, Outcome, answer_of, outcome_of
    from bridgelaw.table.state import Phase

    s = score({"code": "wcny-1913", "declarer": "S", "contract": "2H", "tricks": 9})
    made = [(answer_of(False, "revoke", {"established": True}, None, "a note"),
             Answer(False, "revoke", {"established": True}, None, note="a note")),
            (outcome_of(Phase("done"), "2H", 0, Seat.S, 9, s), Outcome(Phase("done"), "2H", 0, Seat.S, 9, s))]
    for fast, slow in made:
        assert fast == slow and repr(fast) == repr(slow)
        assert list(vars(fast)) == [f.name for f in dataclasses.fields(slow)]  # every field, in order
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.note = "changed"  # type: ignore[misc]
