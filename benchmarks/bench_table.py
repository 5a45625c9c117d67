"""Table benchmark: whole deals replayed through the table with detection on, against the same deals
replayed with detection off (calls and cards recorded, tricks won, nothing refereed), in the same run.

    python benchmarks/bench_table.py [--quick]

Target: at least 5,000 deals a second with detection on.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from bridgelaw.table import Table  # noqa: E402

QUICK = "--quick" in sys.argv
RANKS = "23456789TJQKA"
CARDS = [s + r for s in "SHDC" for r in RANKS]


def make_deals(n: int, seed: int = 1913) -> list[tuple[str, list[tuple[str, str]], list[tuple[str, str]]]]:
    """Random deals with a legal auction and a legal play, recorded once with detection on."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        cards = CARDS[:]
        rnd.shuffle(cards)
        hands = []
        for i in range(4):
            h = cards[i * 13:(i + 1) * 13]
            hands.append(".".join("".join(sorted((c[1] for c in h if c[0] == s), key=RANKS.index, reverse=True))
                                  for s in "SHDC"))
        deal = "N:" + " ".join(hands)
        t = Table("wcny-1913", "N", deal)
        calls = [("N", rnd.choice(["1H", "1NT", "2S", "3C"])), ("E", "P"), ("S", "P"), ("W", "P")]
        for s, c in calls:
            t.call(s, c)
        plays = []
        while t.state["phase"] == "play":
            seat = t.next_player()
            hand = t.state["hands"][seat.value]
            cur = t.state["current"]
            follow = [c for c in hand if cur and c[0] == cur[0][1][0]]
            card = rnd.choice(follow or hand)
            t.play(seat, card)
            plays.append((seat.value, card))
        out.append((deal, calls, plays))
    return out


def run(deals, detect: bool) -> float:
    start = time.perf_counter()
    for deal, calls, plays in deals:
        t = Table("wcny-1913", "N", deal, detect=detect)
        for s, c in calls:
            t.call(s, c)
        for s, c in plays:
            t.play(s, c)
    return time.perf_counter() - start


if __name__ == "__main__":
    deals = make_deals(200 if QUICK else 1000)
    # interleaved, and the best of several runs each: the machine is shared, and a run slowed by another
    # process says nothing about the table
    offs, ons = [], []
    for _ in range(3 if QUICK else 7):
        offs.append(run(deals, False))
        ons.append(run(deals, True))
    off, on = min(offs), min(ons)
    n = len(deals)
    print(f"table       detection off (baseline)   {n / off:10,.0f} deals/s   (1.00x)")
    print(f"table       detection on               {n / on:10,.0f} deals/s   {on / off:5.2f}x the baseline's time"
          "   (target >= 5,000 deals/s)")
