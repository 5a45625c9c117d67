"""Scoring: worked examples from the seeds, and the rules each code states."""

from __future__ import annotations

import pytest

import bridgelaw
from bridgelaw import InputError
from bridgelaw.scoring import honours_of, parse_deal, settle


def test_three_hand_settlement_reproduces_fosters_table():
    # Foster, seeds/002, THREE HAND AUCTION: totals A 240, B 980, C 456. His table prints A-B 740,
    # B-C 524 (both right) but A-C 215 where 456 - 240 is 216, and carries that slip into the nets
    # (A -955, C -309). Laws T15 says each wins or loses the difference of the totals: 216.
    s = settle({"A": 240, "B": 980, "C": 456})
    assert (s["A-B"], s["A-C"], s["B-C"]) == (-740, -216, 524)
    assert (s["A"], s["B"], s["C"]) == (-956, 1264, -308)
    assert s["A"] + s["B"] + s["C"] == 0


DEAL = "N:AKQJ2.AK.AK.AKQ2 T9876.QJ2.QJ2.J3 543.T9876.T98.T9 .543.76543.87654"


def test_honours_and_chicane_are_read_from_the_deal():
    hands = parse_deal(DEAL)
    assert honours_of(hands, bridgelaw.Strain.S) == (bridgelaw.Side.NS, "four_in_one_hand")
    assert honours_of(hands, bridgelaw.Strain.NT) == (bridgelaw.Side.NS, "four_aces_in_one_hand")
    assert honours_of(hands, bridgelaw.Strain.H) == (bridgelaw.Side.NS, "three_between_partners")


def test_a_revoke_by_an_adversary_with_tricks_chosen_helps_the_contract_but_earns_no_bonus():
    s = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "4HX", "tricks": 8,
                         "revokes": [{"offender": "W", "choice": "tricks"}]})
    assert s.totals()["NS"] == {"trick": 5 * 8 * 2, "honour": 0, "total": 80}
    assert s.totals()["EW"]["total"] == 0


def test_a_revoking_declarer_scores_only_honours():
    s = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "2S", "tricks": 9,
                         "honours": {"side": "NS", "held": "four_in_one_hand"}, "revokes": [{"offender": "S"}]})
    assert [(e.side.value, e.points, e.law) for e in s.entries] == [("EW", 100, "84"), ("NS", 16, "6")]


def test_one_spade_loss_is_limited_unless_redoubled():
    lim = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "1SX", "tricks": 2,
                           "original_one_spade": True})
    assert lim.totals()["EW"]["honour"] == 100 and lim.entries[0].law == "48"
    red = bridgelaw.score({"code": "wcny-1913", "declarer": "S", "contract": "1SXX", "tricks": 2,
                           "original_one_spade": True})
    assert red.totals()["EW"]["honour"] == 5 * 200


def test_bid_seven_take_twelve_scores_little_slam_though_the_declaration_fails():
    s = bridgelaw.score({"code": "wcny-1913", "declarer": "E", "contract": "7H", "tricks": 12})
    assert [(e.side.value, e.points, e.law) for e in s.entries] == [("NS", 50, "47a"), ("EW", 20, "8")]


def test_unfinished_rubber_gives_125_to_the_winners_of_a_game():
    s = bridgelaw.score({"code": "wcny-1913", "unfinished": True, "deals": [
        {"declarer": "S", "contract": "4H", "tricks": 10},
    ]})
    assert s.rubber["winner"] is None
    assert [(e.side.value, e.points, e.law) for e in s.entries][-1] == ("NS", 125, "11")


def test_duplicate_premium_for_thirty_trick_points_in_one_deal_and_no_rubbers():
    s = bridgelaw.score({"code": "wcny-1913-duplicate", "declarer": "S", "contract": "3NT", "tricks": 9})
    assert (s.entries[-1].points, s.entries[-1].law) == (125, "A")
    with pytest.raises(InputError, match="neither games nor rubbers"):
        bridgelaw.score({"code": "wcny-1913-duplicate", "deals": [{"declarer": "S", "contract": "1S", "tricks": 7}]})


def test_three_hand_failed_contract_scores_for_both_adversaries_and_honours_by_player():
    s = bridgelaw.score({"code": "wcny-1913-three-hand", "dummy": "W", "declarer": "S", "contract": "2H",
                         "tricks": 7, "honours": {"S": 3, "N": 1, "E": 1}})
    t = s.totals()
    assert set(t) == {"N", "E", "S"}
    assert (t["N"]["total"], t["E"]["total"], t["S"]["total"]) == (58, 58, 24)


def test_three_hand_rubber_pays_125_a_game_and_250_the_rubber():
    s = bridgelaw.score({"code": "wcny-1913-three-hand", "deals": [
        {"dummy": "W", "declarer": "S", "contract": "4H", "tricks": 10},
        {"dummy": "W", "declarer": "S", "contract": "3NT", "tricks": 9},
    ]})
    assert s.rubber["winner"] == "S"
    assert s.totals()["S"]["total"] == 32 + 30 + 125 + 125 + 250
    assert s.settlement["S"] == 2 * 562


def _three_hand(**kw):
    return bridgelaw.score({"code": "wcny-1913-three-hand", "dummy": "W", "declarer": "S", **kw})


def test_three_hand_an_adversarys_revoke_leaves_both_adversaries_only_their_honours():
    # T7: the adversaries are partners for the hand, so the revoking side is both of them (law 84: "the value
    # of their honours is the only score that can be made by a revoking side"): no under-tricks for either
    s = _three_hand(contract="4S", tricks=6, honours={"N": 1, "E": 2, "S": 2},
                    revokes=[{"offender": "E", "choice": "points"}])
    assert [(e.side.value, e.points, e.law) for e in s.entries] == [
        ("S", 100, "84"), ("N", 2, "T13"), ("E", 4, "T13"), ("S", 4, "T13")]


def test_three_hand_a_second_revoke_by_the_other_adversary_is_100():
    s = _three_hand(contract="2H", tricks=8,
                    revokes=[{"offender": "N", "choice": "points"}, {"offender": "E"}])
    assert [(e.side.value, e.points, e.reason) for e in s.entries] == [
        ("S", 100, "revoke by N"), ("S", 100, "revoke by E"), ("S", 16, "2 tricks at 8")]


def test_three_hand_a_declarers_revoke_of_a_made_contract_costs_his_trick_score():
    s = _three_hand(contract="2HX", tricks=9, honours={"S": 2, "N": 2, "E": 1}, revokes=[{"offender": "S"}])
    assert [(e.side.value, e.points, e.law) for e in s.entries] == [("N", 100, "84"), ("E", 100, "84"),
                                                                     ("N", 16, "T13"), ("E", 8, "T13"),
                                                                     ("S", 16, "T13")]


def test_three_hand_a_renounce_from_the_dummys_hand_is_ruled_by_law_63_no_penalty():
    s = _three_hand(contract="2H", tricks=8, revokes=[{"offender": "W"}])
    assert [(e.side.value, e.points) for e in s.entries] == [("S", 16)]
    assert any("dummy's hand" in n for n in s.notes)


def test_three_hand_both_sides_revoking_score_only_honours():
    s = _three_hand(contract="2H", tricks=9, honours={"S": 1, "N": 1, "E": 3},
                    revokes=[{"offender": "N", "choice": "tricks"}, {"offender": "S"}])
    assert [(e.side.value, e.points, e.law) for e in s.entries] == [("N", 8, "T13"), ("E", 24, "T13"),
                                                                     ("S", 8, "T13")]


def test_three_hand_revoke_tricks_count_toward_game_in_a_rubber():
    s = bridgelaw.score({"code": "wcny-1913-three-hand", "deals": [
        {"dummy": "W", "declarer": "S", "contract": "2NT", "tricks": 7,
         "revokes": [{"offender": "E", "choice": "tricks"}]}]})
    assert s.rubber["games"] == {"S": 1}


@pytest.mark.parametrize("revokes, field", [
    ("W", "revokes"), ([3], "revokes[0]"), ([{"offender": "X"}], "revokes[0].offender"),
    ([{"offender": "E"}], "revokes[0].choice"), ([{"offender": "E", "choice": "both"}], "revokes[0].choice"),
])
def test_three_hand_bad_revokes_name_the_field(revokes, field):
    with pytest.raises(InputError) as err:
        _three_hand(contract="2H", tricks=8, revokes=revokes)
    assert err.value.field == field


def test_three_hand_chicane_is_still_refused():
    with pytest.raises(InputError) as err:
        _three_hand(contract="2H", tricks=8, chicane=["N"])
    assert err.value.field == "chicane"


def test_a_dummys_renounce_caps_no_side_at_twenty_eight():
    # american-1905 law 89 holds a revoking side to 28 toward game; the dummy cannot revoke (law 65)
    s = bridgelaw.score({"code": "american-1905", "declarer": "S", "contract": "H", "tricks": 10,
                         "revokes": [{"offender": "N"}]})
    assert s.totals()["NS"]["trick"] == 32
    s = bridgelaw.score({"code": "american-1905", "declarer": "S", "contract": "H", "tricks": 10,
                         "revokes": [{"offender": "S"}]})
    assert s.totals()["NS"]["trick"] <= 28


def test_the_fewest_tricks_a_holding_wins_is_known_for_every_trump_holding_and_never_above_a_deals():
    """Every trump holding the parameters schema names has its fewest tricks (scoring.sheet._HOLDINGS); and for
    every way the five honours can lie in the four hands, the holding held_of names never claims more of one hand
    than the deal holds, nor another number of honours for the side."""
    import itertools
    import json

    from bridgelaw.scoring.deal import held_of
    from bridgelaw.scoring.sheet import _HOLDINGS, fewest_tricks
    from bridgelaw.values import Side, Strain
    from conftest import ROOT

    schema = json.loads((ROOT / "schema" / "parameters.schema.json").read_text())
    named = next(v for v in _walk(schema) if isinstance(v, dict) and "x-complete" in v
                 and "five_in_one_hand" in v["x-complete"])["x-complete"]
    assert set(named) == set(_HOLDINGS)
    for n, e, s in itertools.product(range(6), repeat=3):
        w = 5 - n - e - s
        if w < 0:
            continue
        held = held_of(((Side.NS, n, s), (Side.EW, e, w)), Strain.H)
        if held is None:
            continue
        a, b = (n, s) if held[0] is Side.NS else (e, w)
        hi, total = _HOLDINGS[held[1]]
        assert hi <= max(a, b) and total == a + b, (n, e, s, w, held)
        assert fewest_tricks(hi, total) <= fewest_tricks(max(a, b), a + b)


def _walk(node):
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)
