"""Scoring benchmark: in-process scoring of random deals, against a minimal hand-written scorer.

    python benchmarks/bench_scoring.py [--quick]

The baseline is a bare scorer for wcny-1913 written out by hand (numbers
inlined, no citations, no validation), measured on the same random results in
the same run. Target: bridgelaw scores at least 100,000 deals a second.
"""

from __future__ import annotations

import random
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "engine"))

import bridgelaw  # noqa: E402

QUICK = "--quick" in sys.argv
STRAINS = ["C", "D", "H", "S", "R", "NT"]
HELD = ["three_between_partners", "four_between_partners", "four_in_one_hand", "five_in_one_hand"]


def random_results(n: int, seed: int = 1913) -> list[dict]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        strain = rnd.choice(STRAINS)
        held = ({"side": rnd.choice(["NS", "EW"]),
                 "held": rnd.choice(["three_aces_between_partners", "four_aces_between_partners"])}
                if strain == "NT" else {"side": rnd.choice(["NS", "EW"]), "held": rnd.choice(HELD)})
        out.append({"code": "wcny-1913", "declarer": rnd.choice("NESW"),
                    "contract": f"{rnd.randint(1, 7)}{strain}{rnd.choice(['', '', 'X', 'XX'])}",
                    "tricks": rnd.randint(3, 13), "honours": held if rnd.random() < 0.7 else "none"})
    return out


TV = {"C": 6, "D": 7, "H": 8, "S": 2, "R": 9, "NT": 10}
HON = {"three_between_partners": 2, "four_between_partners": 4, "four_in_one_hand": 8, "five_in_one_hand": 10,
       "three_aces_between_partners": 30, "four_aces_between_partners": 40}


def hand_scorer(r: dict) -> dict:
    """A minimal wcny-1913 scorer, by hand: the baseline."""
    c = r["contract"]
    level, rest = int(c[0]), c[1:]
    dbl = 2 if rest.endswith("XX") else 1 if rest.endswith("X") else 0
    strain = rest[: len(rest) - dbl]
    decl = "NS" if r["declarer"] in "NS" else "EW"
    opp = "EW" if decl == "NS" else "NS"
    s = {"NS": [0, 0], "EW": [0, 0]}
    t = r["tricks"]
    if t >= 6 + level:
        s[decl][0] += (t - 6) * TV[strain] * (1, 2, 4)[dbl]
        if dbl:
            s[decl][1] += (50, 100)[dbl - 1] * (1 + t - 6 - level)
    else:
        s[opp][1] += (6 + level - t) * (50, 100, 200)[dbl]
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
    return s


def main() -> None:
    n = 2_000 if QUICK else 20_000
    results = random_results(n)
    for r in results[:200]:  # the two agree on totals
        got = bridgelaw.score(r).totals()
        want = hand_scorer(r)
        assert got["NS"]["trick"] == want["NS"][0] and got["EW"]["honour"] == want["EW"][1], (r, got, want)
    loops = 1 if QUICK else 3
    t_hand = min(timeit.repeat(lambda: [hand_scorer(r) for r in results], number=loops, repeat=3)) / (loops * n)
    t_ours = min(timeit.repeat(lambda: [bridgelaw.score(r) for r in results], number=loops, repeat=3)) / (loops * n)
    print(f"scoring     hand-written wcny-1913 scorer {1 / t_hand:10,.0f} deals/s   (baseline 1.00x)")
    print(f"scoring     bridgelaw.score               {1 / t_ours:10,.0f} deals/s   {t_ours / t_hand:5.1f}x the "
          "baseline's time   (target >= 100,000 deals/s)")


if __name__ == "__main__":
    main()
