"""Scoring benchmark: bridgelaw.score against hand-written scorers, measured in the same run.

    python benchmarks/bench_scoring.py [--quick]

Baselines (numbers inlined, no citations, no validation), each checked equal to bridgelaw's totals on every
input it times before anything is timed:

- duplicate: a hand-written wcny-1913-duplicate deal scorer (tricks, doubling, under-tricks, the one-spade limit,
  slams, honours, the 125 premium) against bridgelaw.score, and bridgelaw.score(...).totals();
- duplicate, peer: endplay's Contract built and scored (endplay is the `bench` extra: pip install -e '.[bench]';
  the section is skipped without it) — it scores modern duplicate bridge, a different game, so it is a peer for speed only;
- deals with their cards: the hand-written scorer reading the honours from a PBN deal string (split, count, no
  checks) against bridgelaw.score given the deal string (each string read afresh: 52 cards checked) and given the
  hands by seat as a table holds them (``score(result, hands=...)``, what Table.score() hands over);
- rubber: a hand-written wcny-1913 rubber scorer (games, the rubber bonus) on rubbers of random deals.

A contract plan remembers the rows of each play it scores (the declaring side, the tricks and the one-spade facts
settle them: :attr:`bridgelaw.scoring.plan.ContractPlan.played`), so a later run of a chunk finds them made; the
duplicate and rubber sections each print a line more with that memory emptied before every chunk (``each play
afresh``), the cost of a sheet whose play is new.

Each is timed interleaved with its baseline on the same inputs, chunk by chunk (each side keeps the results of a
chunk until it is timed, then drops them), the best of several runs on each chunk, with the garbage collector left
on; each line prints its ratio and its target. Targets (issue 18): duplicate and rubber scoring within 2x the
hand-written scorer's time, citations kept, and duplicate faster than endplay's build-and-score.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests"))

import bridgelaw  # noqa: E402
from timing import best_of  # noqa: E402
from scoresheets import random_deal  # noqa: E402

QUICK = "--quick" in sys.argv
CHUNK = 1_000  # inputs timed at a time
STRAINS = ["C", "D", "H", "S", "R", "NT"]
TRUMP_HELD = ["three_between_partners", "four_between_partners", "five_between_partners", "four_in_one_hand",
              "four_in_one_hand_fifth_in_partners", "five_in_one_hand"]
NT_HELD = ["three_aces_between_partners", "four_aces_between_partners", "four_aces_in_one_hand"]

# wcny-1913 (and its duplicate laws), written out by hand
TV = {"C": 6, "D": 7, "H": 8, "S": 2, "R": 9, "NT": 10}
HON = {"three_between_partners": 2, "four_between_partners": 4, "five_between_partners": 5, "four_in_one_hand": 8,
       "four_in_one_hand_fifth_in_partners": 9, "five_in_one_hand": 10,
       "three_aces_between_partners": 30, "four_aces_between_partners": 40, "four_aces_in_one_hand": 100}
OTHER = {"NS": "EW", "EW": "NS"}
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def random_results(n: int, code: str, seed: int = 1913) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        strain = rnd.choice(STRAINS)
        held = {"side": rnd.choice(["NS", "EW"]), "held": rnd.choice(NT_HELD if strain == "NT" else TRUMP_HELD)}
        declarer = rnd.choice("NESW")
        r = {"code": code, "declarer": declarer, "contract": f"{rnd.randint(1, 7)}{strain}{rnd.choice(['', '', 'X', 'XX'])}",
             "tricks": rnd.randint(3, 13), "honours": held if rnd.random() < 0.7 or strain != "NT" else "none"}
        if r["contract"].startswith("1S"):
            r["original_one_spade"] = rnd.random() < 0.5
        consistent(r, rnd)
        out.append(r)
    return out


def consistent(r: dict, rnd: random.Random) -> dict:
    """``r`` with tricks its trump honours (stated, or dealt) can leave: a hand's honours each take the trick they
    fall to unless a higher one beats them (bridgelaw refuses the others)."""
    from bridgelaw.scoring import honours_of, read_hands
    from bridgelaw.scoring.sheet import tricks_against_holding
    from bridgelaw.values import Strain

    strain = r["contract"][1:].rstrip("X")
    if strain == "NT":
        return r
    held = r.get("honours")
    if "deal" in r:
        got = honours_of(read_hands(r["deal"], "deal"), Strain(strain))
        held = {"side": got[0].value, "held": got[1]} if got else None
    if not isinstance(held, dict):
        return r
    declaring = "NS" if r["declarer"] in "NS" else "EW"
    while tricks_against_holding(held["side"], held["held"], declaring, r["tricks"]):
        r["tricks"] = rnd.randint(3, 13)
    return r


def hand_deal(r: dict, premium: bool) -> dict:
    """One deal, by hand: {side: [trick, honour]}."""
    c = r["contract"]
    level, rest = int(c[0]), c[1:]
    dbl = 2 if rest.endswith("XX") else 1 if rest.endswith("X") else 0
    strain = rest[: len(rest) - dbl]
    decl = SIDE[r["declarer"]]
    opp = OTHER[decl]
    s = {"NS": [0, 0], "EW": [0, 0]}
    t = r["tricks"]
    if t >= 6 + level:
        s[decl][0] += (t - 6) * TV[strain] * (1, 2, 4)[dbl]
        if dbl:
            s[decl][1] += (50, 100)[dbl - 1] * (1 + t - 6 - level)
    else:
        loss = (6 + level - t) * (50, 100, 200)[dbl]
        if level == 1 and strain == "S" and r.get("original_one_spade") and dbl < 2:
            loss = min(loss, 100)
        s[opp][1] += loss
    if t == 13:
        s[decl][1] += 40
    elif t == 12:
        s[decl][1] += 20
    elif t == 0:
        s[opp][1] += 40
    elif t == 1:
        s[opp][1] += 20
    h = r["honours"]
    if h != "none":
        s[h["side"]][1] += HON[h["held"]] * (1 if strain == "NT" else TV[strain])
    if premium:
        for side in ("NS", "EW"):
            if s[side][0] >= 30:
                s[side][1] += 125
    return s


def hand_rubber(deals: list[dict]) -> dict:
    """A wcny-1913 rubber, by hand: deal scores, games of 30, two games win, 250 for the rubber."""
    total = {"NS": 0, "EW": 0}
    below = {"NS": 0, "EW": 0}
    games = {"NS": 0, "EW": 0}
    for d in deals:
        s = hand_deal(d, False)
        for side in ("NS", "EW"):
            total[side] += s[side][0] + s[side][1]
            below[side] += s[side][0]
        lead = "NS" if below["NS"] >= below["EW"] else "EW"
        if below[lead] >= 30:
            games[lead] += 1
            below = {"NS": 0, "EW": 0}
            if games[lead] == 2:
                total[lead] += 250
                break
    return total


def random_rubbers(n: int, seed: int = 10) -> list[dict]:
    rnd = random.Random(seed)
    deals = random_results(n * 12, "wcny-1913", seed)
    out = []
    for i in range(n):
        chunk = deals[i * 12:(i + 1) * 12]
        want = hand_rubber(chunk)
        played = []
        games = {"NS": 0, "EW": 0}
        below = {"NS": 0, "EW": 0}
        for d in chunk:  # keep the deals up to the one that wins the rubber
            played.append({k: v for k, v in d.items() if k != "code"})
            s = hand_deal(d, False)
            for side in ("NS", "EW"):
                below[side] += s[side][0]
            lead = "NS" if below["NS"] >= below["EW"] else "EW"
            if below[lead] >= 30:
                games[lead] += 1
                below = {"NS": 0, "EW": 0}
                if games[lead] == 2:
                    break
        out.append({"code": "wcny-1913", "deals": played, "_want": want})
    rnd.shuffle(out)
    return out


def check_deals(results: list[dict], premium: bool) -> None:
    for r in results:
        got = bridgelaw.score(r).totals()
        want = hand_deal(r, premium)
        for side in ("NS", "EW"):
            assert [got[side]["trick"], got[side]["honour"]] == want[side], (r, got, want)


HONOURS = "AKQJT"


def hand_held(deal: str, strain: str) -> object:
    """Honours read from a PBN deal string by hand (no checks): the side holding them and how, or 'none'."""
    first, rest = deal.split(":")
    seats = "NESWNESW"[("NESW".index(first)):][:4]
    j = "SHDC".index("S" if strain == "R" else strain) if strain != "NT" else None
    n = {}
    for seat, hand in zip(seats, rest.split()):
        suits = hand.split(".")
        n[seat] = sum("A" in s for s in suits) if j is None else sum(r in HONOURS for r in suits[j])
    for side, (a, b) in (("NS", (n["N"], n["S"])), ("EW", (n["E"], n["W"]))):
        hi, total = max(a, b), a + b
        if j is None:
            key = ("four_aces_in_one_hand" if hi == 4 else "four_aces_between_partners" if total == 4
                   else "three_aces_between_partners" if total == 3 else None)
        else:
            key = ("five_in_one_hand" if hi == 5 else "four_in_one_hand_fifth_in_partners" if hi == 4 and total == 5
                   else "four_in_one_hand" if hi == 4 else "five_between_partners" if total == 5
                   else "four_between_partners" if total == 4 else "three_between_partners" if total == 3 else None)
        if key:
            return {"side": side, "held": key}
    return "none"


def hand_deal_with_cards(r: dict, premium: bool) -> dict:
    c = r["contract"]
    strain = c[1:].rstrip("X")
    return hand_deal({**r, "honours": hand_held(r["deal"], strain)}, premium)


def hands_of(deal: str) -> dict[str, list[str]]:
    """A deal string as a table holds it: card texts by seat."""
    first, rest = deal.split(":")
    seats = "NESWNESW"[("NESW".index(first)):][:4]
    return {seat: [suit + rank for suit, ranks in zip("SHDC", hand.split(".")) for rank in ranks]
            for seat, hand in zip(seats, rest.split())}


def line(section: str, what: str, t: float, per: str, base: float | None = None, target: str = "") -> None:
    ratio = "(baseline 1.00x)" if base is None else f"{t / base:4.2f}x"
    print(f"{section:11s} {what:34s} {t:7.2f} us/{per:7s} {ratio}" + (f"   ({target})" if target else ""))


def main() -> None:
    n = 2_000 if QUICK else 20_000
    runs = 5 if QUICK else 9
    print(f"scoring benchmark: {n:,} inputs each, in chunks of {CHUNK:,} (rubbers {CHUNK // 10}), the best of {runs} "
          "interleaved runs on each chunk, GC on")
    score = bridgelaw.score

    dup = random_results(n, "wcny-1913-duplicate")
    check_deals(dup, True)
    t_hand, t_ours, t_tot = best_of([lambda sl: [hand_deal(r, True) for r in dup[sl]],
                                     lambda sl: [score(r) for r in dup[sl]],
                                     lambda sl: [score(r).totals() for r in dup[sl]]], n, runs, CHUNK)
    us = 1e6 / n
    line("duplicate", "hand-written scorer", t_hand * us, "deal")
    line("duplicate", "bridgelaw.score", t_ours * us, "deal", t_hand * us, "target <= 2.00x, citations kept")
    line("duplicate", "bridgelaw.score().totals()", t_tot * us, "deal", t_hand * us, "target <= 2.00x")
    from bridgelaw.scoring import _PLANS

    def afresh(code_id: str) -> None:  # the plays each contract plan remembers, forgotten
        for cp in _PLANS[code_id].contracts.values():
            cp.played.clear()

    def dup_afresh(sl: slice) -> list:
        afresh("wcny-1913-duplicate")
        return [score(r) for r in dup[sl]]

    t_hand2, t_afresh = best_of([lambda sl: [hand_deal(r, True) for r in dup[sl]], dup_afresh], n, runs, CHUNK)
    line("duplicate", "bridgelaw.score, each play afresh", t_afresh * us, "deal", t_hand2 * us,
         "no play remembered from an earlier chunk")
    try:
        from endplay.types import Contract, Denom, Penalty, Player, Vul

        denom = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "R": Denom.spades,
                 "NT": Denom.nt}
        pen = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
        player = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
        args = []
        for r in dup:
            c = r["contract"]
            dbl = 2 if c.endswith("XX") else 1 if c.endswith("X") else 0
            args.append((int(c[0]), denom[c[1:len(c) - dbl]], player[r["declarer"]], pen[dbl],
                         r["tricks"] - 6 - int(c[0])))
        none = Vul.none
        built = [Contract(level=a, denom=b, declarer=p, penalty=q, result=x) for a, b, p, q, x in args]
        t_ep_build, t_ep_score, t_ours2 = best_of([
            lambda sl: [Contract(level=a, denom=b, declarer=p, penalty=q, result=x).score(none)
                        for a, b, p, q, x in args[sl]],
            lambda sl: [c.score(none) for c in built[sl]],
            lambda sl: [score(r) for r in dup[sl]]], n, runs, CHUNK)
        line("duplicate", "endplay Contract(...).score()", t_ep_build * us, "deal")
        line("duplicate", "bridgelaw.score", t_ours2 * us, "deal", t_ep_build * us,
             "peer: endplay builds and scores; target < 1.00x")
        line("duplicate", "endplay contract.score() (built)", t_ep_score * us, "deal", t_ep_build * us)
    except ImportError:
        print("duplicate   endplay: not installed (pip install -e '.[bench]'): no peer measured")

    rnd = random.Random(84)
    dealt = [consistent({k: v for k, v in r.items() if k != "honours"} | {"deal": random_deal(rnd)}, rnd)
             for r in dup[: n // 4]]
    no_deal = [{k: v for k, v in r.items() if k != "deal"} for r in dealt]
    hands = [hands_of(r["deal"]) for r in dealt]
    for r, plain, h in zip(dealt, no_deal, hands):
        want = hand_deal_with_cards(r, True)
        for got in (score(r).totals(), score(plain, hands=h).totals()):
            assert {s: [got[s]["trick"], got[s]["honour"]] for s in ("NS", "EW")} == want, (r, got, want)
    from bridgelaw.scoring import deal as _deal

    def from_strings(sl: slice) -> list:
        _deal._CACHE.clear()  # every deal string read afresh
        return [score(r) for r in dealt[sl]]

    t_hstr, t_str, t_hands = best_of([lambda sl: [hand_deal_with_cards(r, True) for r in dealt[sl]], from_strings,
                                      lambda sl: [score(r, hands=h) for r, h in zip(no_deal[sl], hands[sl])]],
                                     len(dealt), runs, CHUNK)
    ud = 1e6 / len(dealt)
    line("cards", "hand-written, from the deal string", t_hstr * ud, "deal")
    line("cards", "bridgelaw.score, deal string", t_str * ud, "deal", t_hstr * ud,
         "each string read afresh, 52 cards checked")
    line("cards", "bridgelaw.score, hands by seat", t_hands * ud, "deal", t_hstr * ud,
         "what Table.score() hands over; 52 cards checked")

    rubbers = random_rubbers(n // 20)
    for rb in rubbers:
        got = bridgelaw.score({k: v for k, v in rb.items() if k != "_want"}).rubber["totals"]
        assert got == rb["_want"], (rb, got)
    plain_rubbers = [{k: v for k, v in rb.items() if k != "_want"} for rb in rubbers]
    full = [[dict(d, code="wcny-1913") for d in rb["deals"]] for rb in rubbers]
    t_hr, t_or = best_of([lambda sl: [hand_rubber(d) for d in full[sl]],
                          lambda sl: [score(r) for r in plain_rubbers[sl]]], len(plain_rubbers), runs, CHUNK // 10)
    ur = 1e6 / len(plain_rubbers)
    line("rubber", "hand-written scorer", t_hr * ur, "rubber")
    line("rubber", "bridgelaw.score", t_or * ur, "rubber", t_hr * ur, "target <= 2.00x")

    def rubbers_afresh(sl: slice) -> list:
        afresh("wcny-1913")
        return [score(r) for r in plain_rubbers[sl]]

    t_hr2, t_afresh = best_of([lambda sl: [hand_rubber(d) for d in full[sl]], rubbers_afresh], len(plain_rubbers),
                              runs, CHUNK // 10)
    line("rubber", "bridgelaw.score, each play afresh", t_afresh * ur, "rubber", t_hr2 * ur,
         "no play remembered from an earlier chunk")


if __name__ == "__main__":
    main()
