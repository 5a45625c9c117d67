"""Scoring benchmark: bridgelaw.score against hand-written scorers, measured in the same run.

    python benchmarks/bench_scoring.py [--quick]

Baselines (numbers inlined, no citations, no validation), each checked equal to bridgelaw's totals on every
input it times before anything is timed:

- duplicate: a hand-written wcny-1913-duplicate deal scorer (tricks, doubling, under-tricks, the one-spade limit,
  slams, honours, the 125 premium) — and bridgelaw.score(...).totals();
- a deal given as a PBN deal string (honours counted from the cards) against the same deals with honours stated;
- rubber: a hand-written wcny-1913 rubber scorer (games, the rubber bonus) on rubbers of random deals;
- endplay 0.5's Contract, built and scored, as a peer (if it is installed: `pip install endplay`) — it scores
  modern duplicate bridge, a different game, so it is a peer for speed only.

Each is timed interleaved with its baseline, best of several runs, with the garbage collector left on.
Target: duplicate scoring within 2x the hand-written scorer's time, citations kept, and faster than endplay's
build-and-score.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests"))

import bridgelaw  # noqa: E402
from scoresheets import random_deal  # noqa: E402

QUICK = "--quick" in sys.argv
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
             "tricks": rnd.randint(3, 13), "honours": held if rnd.random() < 0.7 else "none"}
        if r["contract"].startswith("1S"):
            r["original_one_spade"] = rnd.random() < 0.5
        out.append(r)
    return out


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


def best_of(fns: list, runs: int) -> list[float]:
    """Interleaved: each run times every function once; the best time of each. GC stays on."""
    gc.enable()
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def check_deals(results: list[dict], premium: bool) -> None:
    for r in results:
        got = bridgelaw.score(r).totals()
        want = hand_deal(r, premium)
        for side in ("NS", "EW"):
            assert [got[side]["trick"], got[side]["honour"]] == want[side], (r, got, want)


def main() -> None:
    n = 2_000 if QUICK else 20_000
    runs = 3 if QUICK else 7
    print(f"scoring benchmark: {n:,} inputs each, best of {runs} interleaved runs, GC on")

    dup = random_results(n, "wcny-1913-duplicate")
    check_deals(dup, True)
    score = bridgelaw.score
    t_hand, t_ours, t_tot = best_of([lambda: [hand_deal(r, True) for r in dup],
                                     lambda: [score(r) for r in dup],
                                     lambda: [score(r).totals() for r in dup]], runs)
    us = 1e6 / n
    print(f"duplicate   hand-written scorer         {t_hand * us:6.2f} us/deal   (baseline 1.00x)")
    print(f"duplicate   bridgelaw.score             {t_ours * us:6.2f} us/deal   {t_ours / t_hand:4.2f}x   "
          "(target <= 2.00x, citations kept)")
    print(f"duplicate   bridgelaw.score().totals()  {t_tot * us:6.2f} us/deal   {t_tot / t_hand:4.2f}x")
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
            lambda: [Contract(level=a, denom=b, declarer=p, penalty=q, result=x).score(none) for a, b, p, q, x in args],
            lambda: [c.score(none) for c in built],
            lambda: [score(r) for r in dup]], runs)
        print(f"duplicate   endplay Contract(...).score {t_ep_build * us:6.2f} us/deal   (peer: build and score; "
              f"bridgelaw {t_ours2 / t_ep_build:4.2f}x its time, target < 1.00x)")
        print(f"duplicate   endplay contract.score      {t_ep_score * us:6.2f} us/deal   (peer: score a built contract)")
    except ImportError:
        print("duplicate   endplay                     not installed (pip install endplay): no peer measured")

    dealt = []
    rnd = random.Random(84)
    for r in dup[: n // 4]:
        deal = random_deal(rnd)
        dealt.append({k: v for k, v in r.items() if k != "honours"} | {"deal": deal})
    stated = [{k: v for k, v in r.items() if k != "deal"} | {"honours": _held(bridgelaw.score(r))} for r in dealt]
    for a, b in zip(dealt, stated):
        assert bridgelaw.score(a).totals() == bridgelaw.score(b).totals(), (a, b)
    from bridgelaw.scoring import deal as _deal

    def from_strings() -> None:
        _deal._CACHE.clear()  # every deal string read afresh
        for r in dealt:
            score(r)

    t_str, t_stated = best_of([from_strings, lambda: [score(r) for r in stated]], runs)
    us4 = 1e6 / len(dealt)
    print(f"deal        honours stated              {t_stated * us4:6.2f} us/deal   (baseline 1.00x)")
    print(f"deal        from a PBN deal string      {t_str * us4:6.2f} us/deal   {t_str / t_stated:4.2f}x "
          "(each string read afresh: 52 cards checked, honours counted)")

    rubbers = random_rubbers(n // 20)
    for rb in rubbers:
        got = bridgelaw.score({k: v for k, v in rb.items() if k != "_want"}).rubber["totals"]
        assert got == rb["_want"], (rb, got)
    plain = [{k: v for k, v in rb.items() if k != "_want"} for rb in rubbers]
    full = [[dict(d, code="wcny-1913") for d in rb["deals"]] for rb in rubbers]
    t_hr, t_or = best_of([lambda: [hand_rubber(d) for d in full], lambda: [score(r) for r in plain]], runs)
    ur = 1e6 / len(plain)
    print(f"rubber      hand-written scorer         {t_hr * ur:6.2f} us/rubber (baseline 1.00x)")
    print(f"rubber      bridgelaw.score             {t_or * ur:6.2f} us/rubber {t_or / t_hr:4.2f}x")


def _held(s) -> object:
    for e in s.entries:
        if e.reason.startswith("honours: "):
            key = e.reason[len("honours: "):].split(" (")[0].replace(" ", "_")
            return {"side": e.side.value, "held": key}
    return "none"


if __name__ == "__main__":
    main()
