"""The fast path for the plain score sheet (bridgelaw.scoring.fast) against the general path and the JSON Schema.

The fast path may only score what the general path scores, the same, entry for entry; on a plain sheet (the keys it
reads, under a four-hand code) it must take exactly the sheets that the schema and the engine both accept. Hands
handed over by seat score as the deal string they come from, and bad hands are refused by field.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgelaw
from bridgelaw import InputError
from bridgelaw.scoring import _PLANS, rules_of, score, score_general
from bridgelaw.scoring.fast import PLAIN_KEYS, score_plain
from bridgelaw.scoring.model import Score

from scoresheets import HELD, codes, random_deal, random_sheet, schema_valid

FOUR_HAND = [c for c, _, players, _ in codes() if players == 4]
GARBAGE = [None, True, False, 3.5, 8.0, -1, 14, 10 ** 30, "", "NS", "none", "x" * 600, [], {}, ["N"], {"N": 1}]


def outcome(fn, *args, **kw):
    """What scoring a sheet gives: the whole score (entries with their rules, notes, players), or the error."""
    try:
        s = fn(*args, **kw)
    except InputError as e:
        return ("refused", type(e).__name__, e.field, e.message)
    return ("scored", s.to_dict(), [(e.side, e.column, e.points, e.reason, e.law, e.rule) for e in s.entries],
            s.notes, s.players, s.capped)


def plan(code: str):
    score({"code": code, "declarer": "S", "contract": "1C" if bridgelaw.load_code(code).game == "auction" else "C",
           "tricks": 7})
    return _PLANS[code]


def cased(rnd: random.Random, text: str) -> str:
    return "".join(c.lower() if rnd.random() < 0.3 else c for c in text)


@st.composite
def plain_sheets(draw):
    """A sheet of the keys the fast path reads, under a four-hand code: mostly valid, any field now and then
    spoiled, misspelt, nulled, or given a key the fast path does not read."""
    rnd = random.Random(draw(st.integers(0, 2 ** 32)))
    chosen = draw(st.sampled_from(FOUR_HAND))
    code, game, _, strains = next(c for c in codes() if c[0] == chosen)
    strain = rnd.choice(strains + ("N",)) if rnd.random() < 0.9 else "R"
    if game == "auction":
        contract = f"{rnd.randint(1, 7 if rnd.random() < 0.95 else 9)}{strain}{rnd.choice(['', '', 'X', 'XX'])}"
        contract += "X" if rnd.random() < 0.02 else ""
    else:
        contract = strain + rnd.choice(["", "", " x2", " x4", "x8", " * 16", " x64"] if rnd.random() < 0.95
                                       else [" x3", " x99999", " x131072"])
    if rnd.random() < 0.2:
        contract = cased(rnd, contract)
    if rnd.random() < 0.05:
        contract = " " + contract + " "
    sheet = {"code": code, "declarer": rnd.choice("NESW"), "contract": contract, "tricks": rnd.randint(0, 13)}
    r = rnd.random()
    if r < 0.55:
        sheet["honours"] = rnd.choice(["none"] + [{"side": rnd.choice(["NS", "EW"]), "held": rnd.choice(HELD)}] * 6
                                      + [{"side": "NS", "held": rnd.choice(HELD), "extra": 1}, {"held": "x"},
                                         {"side": ["NS"], "held": "three_between_partners"}])
    elif r < 0.85:
        deal = random_deal(rnd)
        if rnd.random() < 0.1:
            deal = cased(rnd, deal).replace("T", "10")
        if rnd.random() < 0.05:
            deal = deal.replace("A", "K", 1)
        sheet["deal"] = deal
    for key, values in (("dealer", list("NESW")), ("original_one_spade", [True, False]),
                        ("note", ["a note", "x" * 500])):
        if rnd.random() < 0.2:
            sheet[key] = rnd.choice(values)
    if rnd.random() < 0.2:  # revokes: mostly as a table sends them, now and then spoilt
        sheet["revokes"] = [{"offender": rnd.choice("NESW"), **({"choice": c} if (c := rnd.choice(
            [None, "tricks", "points", "tricks", "x" * 41, 3])) else {})} for _ in range(rnd.choice([0, 1, 1, 2, 3]))]
        if rnd.random() < 0.1:
            sheet["revokes"] = rnd.choice([[{"offender": "n"}], [{"offender": "N", "choice": None}],
                                           [{"offender": "N", "extra": 1}], [{}], ["N"], [None], 0, False, "",
                                           {"offender": "N"}, [{"offender": "N"}] * 53])
    if rnd.random() < 0.05:
        sheet["honours"] = "none"  # beside a deal
    if rnd.random() < 0.2:
        key = rnd.choice(sorted(PLAIN_KEYS - {"code"}))
        sheet[key] = rnd.choice(GARBAGE)
    if rnd.random() < 0.05:
        sheet[rnd.choice(["trick", "chicane", "dummy", "revokes", "deals"])] = rnd.choice(GARBAGE + [["N"]])
    if rnd.random() < 0.05:
        del sheet[rnd.choice(["declarer", "contract", "tricks"])]
    return sheet


def _declined_by_design(sheet) -> bool:
    """Plain sheets the fast path leaves to the general path though they may score: a deal with a hand void of
    trumps under a code with chicane (the chicane rows are the general path's), a deal with honours stated
    beside it (the general path compares them), revokes under a code that caps a revoking side's score toward
    game (the cap is the general path's), and tricks fewer than the trump honours stated win in play (the general
    path's note says so)."""
    if sheet.get("revokes") and _PLANS[sheet["code"]].rules.revoking_cap is not None:
        return True
    h = sheet.get("honours")
    if type(h) is dict and type(h.get("held")) is str and type(h.get("side")) is str \
            and type(sheet.get("declarer")) is str and type(sheet.get("tricks")) is int:
        from bridgelaw.scoring.sheet import tricks_against_holding

        if tricks_against_holding(h["side"], h["held"], "NS" if sheet["declarer"] in "NS" else "EW", sheet["tricks"]):
            return not str(sheet.get("contract", "")).upper().lstrip("1234567").startswith("N")
    deal = sheet.get("deal")
    if not isinstance(deal, str):
        return False
    if "honours" in sheet:
        return True
    rules = _PLANS[sheet["code"]].rules if sheet["code"] in _PLANS else None
    return rules is None or rules.chicane is not None


def _tricks_noted(general) -> bool:
    """Whether the general path scored the sheet with its note on tricks fewer than the trump honours (stated or
    dealt) win in play: the fast path leaves such a sheet to it by design."""
    return general[0] == "scored" and any("only tricks conceded could leave so few" in n for n in general[3])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_sheets())
def test_on_a_plain_sheet_the_fast_path_takes_exactly_what_the_schema_and_the_engine_accept(sheet):
    p = plan(sheet["code"])
    general = outcome(score_general, sheet)
    fast = score_plain(p, sheet)
    accepted = schema_valid(sheet) and general[0] == "scored"
    if fast is not None:
        assert accepted, f"the fast path scored a sheet the schema or the engine refuses: {sheet}"
        assert outcome(lambda: fast) == general, sheet
    elif set(sheet) <= PLAIN_KEYS and not _declined_by_design(sheet) and not _tricks_noted(general):
        assert not accepted, f"the fast path declined a plain sheet the schema and the engine accept: {sheet}"
    assert outcome(score, sheet) == general, sheet


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_any_sheet_or_rubber_scores_the_same_with_the_fast_path_as_without(seed):
    sheet = random_sheet(random.Random(seed))
    assert outcome(score, sheet) == outcome(score_general, sheet), sheet


def test_the_fast_path_takes_the_benchmarks_sheets():
    # bench_scoring's duplicate sheets: honours stated, an original one spade now and then
    rnd = random.Random(5)
    taken = 0
    for _ in range(300):
        contract = f"{rnd.randint(1, 7)}{rnd.choice('CDHSR') if rnd.random() < 0.8 else 'NT'}{rnd.choice(['', 'X', 'XX'])}"
        sheet = {"code": "wcny-1913-duplicate", "declarer": rnd.choice("NESW"), "contract": contract,
                 "tricks": rnd.randint(0, 13)}
        if "NT" in contract:  # no side's aces may score (two each); at a trump declaration some side's honours do
            sheet["honours"] = "none"
        if contract.startswith("1S"):
            sheet["original_one_spade"] = rnd.random() < 0.5
        s = score_plain(plan("wcny-1913-duplicate"), sheet)
        taken += s is not None
        assert s is not None and outcome(lambda: s) == outcome(score_general, sheet), sheet
    assert taken == 300


def test_every_entry_the_fast_path_makes_cites_a_law_of_its_code():
    rnd = random.Random(9)
    for _ in range(200):
        code = rnd.choice(FOUR_HAND)
        strain = rnd.choice(["H", "NT"])
        sheet = {"code": code, "declarer": rnd.choice("NESW"), "tricks": rnd.randint(0, 13),
                 "contract": (f"{rnd.randint(1, 7)}{strain}{rnd.choice(['', 'X', 'XX'])}"
                              if bridgelaw.load_code(code).game == "auction" else strain + rnd.choice(["", " x2"])),
                 "honours": {"side": rnd.choice(["NS", "EW"]),
                             "held": "four_aces_in_one_hand" if strain == "NT" else "four_in_one_hand"}}
        if strain == "H":  # four trump honours in one hand win three tricks at least (the fifth beats one)
            mine = sheet["honours"]["side"] == ("NS" if sheet["declarer"] in "NS" else "EW")
            sheet["tricks"] = max(sheet["tricks"], 3) if mine else min(sheet["tricks"], 10)
        s = score_plain(plan(code), sheet)
        assert s is not None
        assert all(bridgelaw.load_code(code).law(e.law) is not None for e in s.entries), (sheet, s.entries)


# --------------------------------------------------------------------------
# Hands handed over by seat (the table's entry point)


def hands_of(deal: str) -> dict[str, list[str]]:
    """A deal string as a table holds it: card texts by seat."""
    first, rest = deal.split(":")
    order = "NESWNESW"[("NESW".index(first)):][:4]
    return {seat: [suit + rank for suit, ranks in zip("SHDC", hand.split(".")) for rank in ranks]
            for seat, hand in zip(order, rest.split())}


@pytest.mark.parametrize("code", [c for c, *_ in codes()])
def test_hands_by_seat_score_as_the_deal_string_they_come_from(code):
    rnd = random.Random(code)
    for _ in range(40):
        sheet = random_sheet(rnd, code)
        for k in ("honours", "chicane", "deal"):
            sheet.pop(k, None)
        deal = random_deal(rnd)
        with_deal = outcome(score, {**sheet, "deal": deal})
        assert outcome(score, sheet, hands=hands_of(deal)) == with_deal, sheet
        assert outcome(score_general, sheet, hands=hands_of(deal)) == with_deal, sheet


def _spoilt(how: str) -> tuple[object, str]:
    hands = hands_of(random_deal(random.Random(3)))
    if how == "a seat missing":
        del hands["W"]
        return hands, "hands"
    if how == "a seat twice":
        return {**{k: v for k, v in hands.items() if k != "W"}, "n": hands["W"]}, "hands"
    if how == "twelve cards":
        hands["N"] = hands["N"][:12]
        return hands, "hands.N"
    if how == "a card that is not one":
        hands["E"][0] = "S1"
        return hands, "hands.E"
    if how == "a card of another type":
        hands["E"][0] = ["SA"]
        return hands, "hands.E"
    if how == "a card twice":
        hands["S"][0] = hands["N"][0]
        return hands, "hands"
    if how == "a hand as a string":
        hands["S"] = "AKQJT98765432"
        return hands, "hands.S"
    return "N:" + " ".join(["AKQJT98765432..."] * 4), "hands"


@pytest.mark.parametrize("how", ["a seat missing", "a seat twice", "twelve cards", "a card that is not one",
                                 "a card of another type", "a card twice", "a hand as a string", "not a mapping"])
def test_bad_hands_are_refused_by_field(how):
    hands, field = _spoilt(how)
    for fn in (score, score_general):
        with pytest.raises(InputError) as err:
            fn({"code": "wcny-1913", "declarer": "S", "contract": "4S", "tricks": 10}, hands=hands)
        assert err.value.field == field, (how, err.value)


def test_hands_and_a_deal_string_together_are_refused():
    deal = random_deal(random.Random(4))
    with pytest.raises(InputError) as err:
        score({"code": "wcny-1913", "declarer": "S", "contract": "4S", "tricks": 10, "deal": deal},
              hands=hands_of(deal))
    assert err.value.field == "deal"
    with pytest.raises(InputError) as err:
        score({"code": "wcny-1913", "deals": [{"declarer": "S", "contract": "4S", "tricks": 10}]},
              hands=hands_of(deal))
    assert err.value.field == "hands"


# --------------------------------------------------------------------------
# The score itself


def test_stated_honours_with_a_side_of_another_type_are_refused_by_field():
    for side in (["NS"], {"x": 1}, 3):
        with pytest.raises(InputError) as err:
            score({"code": "wcny-1913", "declarer": "S", "contract": "2H", "tricks": 8,
                   "honours": {"side": side, "held": "four_in_one_hand"}})
        assert err.value.field == "honours.side"


def test_a_score_is_immutable_and_makes_its_entries_once_with_their_reasons_and_laws():
    sheet = {"code": "wcny-1913-duplicate", "declarer": "S", "contract": "4SX", "tricks": 11,
             "honours": {"side": "EW", "held": "four_between_partners"}}
    s = score(sheet)
    assert s.entries is s.entries
    p = bridgelaw.load_code("wcny-1913-duplicate").params
    value, dbl = p.entry("trick_values.S"), p.entry("multiplier.doubled")
    bonus, held = p.entry("doubled_bonus.doubled"), p.entry("honours.trump.four_between_partners")
    odd = (11 - 6) * value.value * dbl.value
    assert [(e.side.value, e.column, e.points, e.reason, e.law) for e in s.entries] == [
        ("NS", "trick", odd, f"5 tricks at {value.value} x{dbl.value}", dbl.law),
        ("NS", "honour", 2 * bonus.value, "doubled contract made with 1 extra trick(s)", bonus.law),
        ("EW", "honour", held.value * value.value,
         f"honours: four between partners ({held.value} x {value.value})", held.law),
    ]
    assert s.totals() == {"NS": {"trick": odd, "honour": 2 * bonus.value, "total": odd + 2 * bonus.value},
                          "EW": {"trick": 0, "honour": held.value * value.value, "total": held.value * value.value}}
    with pytest.raises(AttributeError):
        s.code = "wcny-1912"  # type: ignore[misc]
    assert s == score_general(sheet)


def test_the_honours_of_a_deal_read_from_its_string_are_those_its_cards_hold():
    # honours_of counts the read_hands form itself (the fast path's); the cards (parse_deal) are counted apart
    from bridgelaw.scoring.deal import honours_of, parse_deal, read_hands
    from bridgelaw.values import Strain

    rnd = random.Random(18)
    seen = set()
    for _ in range(1500):
        deal = random_deal(rnd)
        for strain in Strain:
            held = honours_of(read_hands(deal), strain)
            assert held == honours_of(parse_deal(deal), strain), (deal, strain)
            seen.add(held[1] if held else None)
    assert len(seen) >= 8, seen  # the deals reach most holdings, none among them


def _spelt(rnd: random.Random, deal: str) -> str:
    """A deal string now and then spelt otherwise, or spoilt: what a table is handed."""
    how = rnd.randrange(9)
    if how == 0:
        return deal.lower()
    if how == 1:
        return deal.replace("T", "10")
    if how == 2:
        return deal.replace(" ", " " * rnd.randint(2, 12))  # the hands further apart (past 100 characters, too)
    if how == 3:
        return deal.replace("A", "K", 1)  # a card twice
    if how == 4:
        return deal.replace(".", "", 1)  # three suits
    if how == 5:
        return deal + " "
    return deal


def test_the_deal_a_table_remembers_for_the_scorer_is_the_one_the_scorer_reads():
    # the table reads and checks its deal once and hands the reading to the scorer (deal.remember): it must be
    # what read_hands would read, and only a deal read_hands takes
    from bridgelaw.scoring import deal as dealmod
    from bridgelaw.table import Table

    rnd = random.Random(1913)
    remembered = 0
    for _ in range(600):
        text = _spelt(rnd, random_deal(rnd))
        dealmod._CACHE.clear()
        try:
            Table("wcny-1913", "N", text)
        except InputError:
            pass
        kept = dealmod._CACHE.get(text)
        dealmod._CACHE.clear()
        try:
            read = dealmod.read_hands(text)
        except InputError:
            assert kept is None, text
            continue
        if kept is not None:
            remembered += 1
            assert kept == read and list(kept) == list(read), text
    assert remembered > 200


def test_a_play_a_contract_plan_remembers_scores_as_the_play_made_afresh_and_as_the_general_path():
    # each contract plan keeps the rows of the plays it has scored (plan.ContractPlan.played): a sheet met again
    # takes them from there, and scores as it did the first time, with the memory emptied, and without the fast path
    rnd = random.Random(18)
    sheets = [random_sheet(rnd) for _ in range(300)]
    sheets += [dict(s) for s in sheets[:100]]  # met again
    hits = 0
    for sheet in sheets:
        want = outcome(score_general, sheet)
        code = sheet.get("code")
        p = _PLANS.get(code) if isinstance(code, str) else None
        kept = sum(len(cp.played) for cp in p.contracts.values()) if p is not None else 0
        assert outcome(score, sheet) == want, sheet
        if p is not None:
            hits += kept > 0 and kept == sum(len(cp.played) for cp in p.contracts.values())
            for cp in p.contracts.values():
                cp.played.clear()
        assert outcome(score, sheet) == want, sheet  # afresh
        assert outcome(score, sheet) == want, sheet  # remembered
    assert hits > 50  # the memory is there to be tested


def test_a_rubbers_deals_are_made_when_read_each_the_score_of_its_deal_alone():
    from bridgelaw.scoring.model import Deals

    rnd = random.Random(7)
    with_rubbers = [c for c, _, _, _ in codes() if rules_of(bridgelaw.load_code(c)).rubbers]
    rubbers = made = 0
    for _ in range(400):  # (a rubber's deals refused now and then: tricks its honours cannot leave, ...)
        code = rnd.choice(with_rubbers)
        sheet = {"code": code, "deals": [{k: v for k, v in random_sheet(rnd, code).items() if k != "code"}
                                         for _ in range(rnd.randint(1, 8))]}
        try:
            s = score(sheet)
        except InputError:
            continue
        rubbers += 1
        kept = s._more["deals"]  # type: ignore[index]
        copy = pickle.loads(pickle.dumps(s))  # (pickled: its deals made first)
        deals = s.deals
        assert type(kept) is Deals and type(deals) is tuple and s.deals is deals
        assert all(type(d) is Score for d in deals) and len(deals) == len(kept)
        made += sum(type(k) is not Score for k in kept)
        assert copy == s == score_general(sheet) and copy.deals == deals
        code = sheet["code"]
        for d, given in zip(deals, sheet["deals"]):
            alone = {**given, "code": code}
            if _PLANS[code].four_hand and "new_deal" not in given and set(alone) <= PLAIN_KEYS \
                    and not (given.get("revokes") and _PLANS[code].rules.revoking_cap is not None):
                assert d == score(alone), given  # a plain deal scores in the rubber as it does alone
    assert rubbers > 30 and made > 40  # rubbers scored, and plain deals among them kept as rows until read
