"""Table benchmark, two measurements, each against a baseline measured in the same run:

1. whole deals (a random deal, its auction and all 52 cards) replayed through ``Table`` with detection on,
   against the same deals replayed with detection off (calls and cards recorded, tricks won, nothing
   refereed);
2. whole deals with irregularities and the score — an insufficient bid penalized in half the auctions, an
   adversary's revoke established and penalized in half the plays, every deal scored — through ``Table``,
   against a minimal referee for wcny-1913 written out by hand, making the same checks (a deal of the 52
   cards, calls the code has, turn, sufficiency, the bar, a card held, following suit, the revoke and its
   establishment, the trick, the score) and checked to reach the same end on every deal timed: contract,
   declarer, tricks and the score's totals.

    python benchmarks/bench_table.py [--quick]

Targets: at least 5,000 deals a second with detection on; the table with irregularities and scoring
within 1.5x of the hand-written referee. Times are the process's CPU time; runs are interleaved and the best
of several taken: the machine is shared, and a run slowed by another process says nothing about the table.
The scorer's memory of the deal strings it has read is emptied before each run of the table, so that no run
scores a deal it met in an earlier one (the hand-written referee reads each deal afresh too).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from bridgelaw.scoring import deal as _deal  # noqa: E402
from bridgelaw.table import Table  # noqa: E402

QUICK = "--quick" in sys.argv
RANKS = "23456789TJQKA"
CARDS = [s + r for s in "SHDC" for r in RANKS]
LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def random_deal(rnd: random.Random) -> str:
    cards = CARDS[:]
    rnd.shuffle(cards)
    hands = []
    for i in range(4):
        h = cards[i * 13:(i + 1) * 13]
        hands.append(".".join("".join(sorted((c[1] for c in h if c[0] == s), key=RANKS.index, reverse=True))
                              for s in "SHDC"))
    return "N:" + " ".join(hands)


def make_deals(n: int, seed: int = 1913) -> list[tuple[str, list[tuple[str, str]], list[tuple[str, str]]]]:
    """Random deals with a legal auction and a legal play, recorded once with detection on."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        deal = random_deal(rnd)
        t = Table("wcny-1913", "N", deal)
        calls = [("N", rnd.choice(["1H", "1NT", "2S", "3C"])), ("E", "P"), ("S", "P"), ("W", "P")]
        for s, c in calls:
            t.call(s, c)
        plays = []
        while not t.is_over():
            seat = t.turn
            card = rnd.choice(t.legal_cards())
            t.play(seat, card)
            plays.append((seat.value, card))
        out.append((deal, calls, plays))
    return out


def run(deals, detect: bool) -> float:
    start = time.process_time()
    for deal, calls, plays in deals:
        t = Table("wcny-1913", "N", deal, detect=detect)
        for s, c in calls:
            t.call(s, c)
        for s, c in plays:
            t.play(s, c)
    return time.process_time() - start


# ---------------------------------------------------------------------------------------------- irregular deals

Action = tuple  # ("call", seat, call) | ("play", seat, card) | ("apply", option, by)


def make_irregular_deals(n: int, seed: int = 1912) -> list[tuple[str, list[Action]]]:
    """Deals with irregularities, recorded through the table: North opens; in half the deals East's
    insufficient bid is penalized (made sufficient, West barred); in half the plays an adversary of the
    declarer renounces holding the suit led, and the revoke, once established, costs three tricks."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        deal = random_deal(rnd)
        t = Table("wcny-1913", "N", deal)
        acts: list[Action] = []
        opening = rnd.choice(["1H", "1NT", "2S", "3C", "1D"])
        acts.append(("call", "N", opening))
        t.call("N", opening)
        low = [f"1{s}" for s in ("C", "D", "H", "S")  # insufficient, and a sufficient bid in its suit exists
               if not HandReferee.higher(f"1{s}", opening) and HandReferee.higher(f"7{s}", opening)]
        if rnd.random() < 0.5 and low:
            bid = rnd.choice(low)
            ans = t.call("E", bid)
            assert ans.kind == "insufficient_bid", ans
            t.apply("penalize", by="N")
            acts += [("call", "E", bid), ("apply", "penalize", "N")]
        else:
            t.call("E", "P")
            acts.append(("call", "E", "P"))
        while t.phase == "auction":
            seat = t.turn.value
            t.call(seat, "P")
            acts.append(("call", seat, "P"))
        declarer = t.declarer.value
        revoke_at = rnd.randint(2, 10) if rnd.random() < 0.5 else None
        while not t.is_over():
            seat = t.turn.value
            hand, cur = t.hand(seat), t.current_trick
            led = cur[0][1][0] if cur else None
            others = [c for c in hand if led and c[0] != led]
            if revoke_at is not None and len(t.tricks) >= revoke_at and led and others and \
                    SIDE[seat] != SIDE[declarer] and any(c[0] == led for c in hand):
                card, revoke_at = rnd.choice(others), None  # the renounce
            else:
                card = rnd.choice(t.legal_cards())
            ans = t.play(seat, card)
            acts.append(("play", seat, card))
            if ans.ruling is not None:
                assert ans.kind == "revoke", ans
                t.apply("tricks", by=declarer)
                acts.append(("apply", "tricks", declarer))
        out.append((deal, acts))
    return out


def run_table(deals: list[tuple[str, list[Action]]]) -> list[tuple]:
    _deal._CACHE.clear()  # the scorer's memory of deal strings read: each run's deals are new to it
    out = []
    for deal, acts in deals:
        t = Table("wcny-1913", "N", deal)
        for a in acts:
            if a[0] == "play":
                t.play(a[1], a[2])
            elif a[0] == "call":
                t.call(a[1], a[2])
            else:
                t.apply(a[1], by=a[2])
        o = t.outcome()
        totals = o.score.totals()
        out.append((o.contract, o.declarer, o.tricks,  # (a Seat is its text: compared with the referee's)
                    totals["NS"]["trick"], totals["NS"]["honour"], totals["EW"]["trick"], totals["EW"]["honour"]))
    return out


# the numbers of wcny-1913 (laws/wcny-1913/parameters.yaml), written out as a hand-written referee would
TV = {"S": 2, "C": 6, "D": 7, "H": 8, "R": 9, "NT": 10}
DECK = frozenset(CARDS)
CALLS = frozenset(["P", "X", "XX"] + [f"{level}{s}" for level in range(1, 8) for s in TV])
TRUMP_HONOURS = {(5, 5): 10, (4, 5): 9, (4, 4): 8, (3, 5): 5, (2, 5): 5, (3, 4): 4, (2, 4): 4, (2, 3): 2, (3, 3): 2,
                 (1, 3): 2}


class HandReferee:
    """A minimal referee for wcny-1913, by hand: the baseline. It checks what the table checks here — a deal of
    the 52 cards, calls of the code, a call or card out of turn, an insufficient bid, a barred player's bid, a
    card not held, a renounce and the revoke's establishment — and carries out the remedies the table's rulings
    give for the two in the benchmark."""

    __slots__ = ("hands", "deal_hands", "calls", "bar", "pending", "contract", "doubled", "declarer", "leader",
                 "current", "won", "revokes", "established", "choice", "tricks")

    def __init__(self, deal: str) -> None:
        first, rest = deal.split(":")
        order = "NESW"[("NESW".index(first)):] + "NESW"[:"NESW".index(first)]
        self.hands = {s: [su + r for su, ranks in zip("SHDC", h.split(".")) for r in ranks]
                      for s, h in zip(order, rest.split())}
        if len(self.hands) != 4 or any(len(h) != 13 for h in self.hands.values()) or \
                DECK != {c for h in self.hands.values() for c in h}:  # the table refuses a deal not of the 52 cards
            raise ValueError("not a deal")
        self.deal_hands = {s: list(h) for s, h in self.hands.items()}
        self.calls: list[tuple[str, str]] = []
        self.bar: str | None = None
        self.pending: tuple | None = None
        self.contract = None
        self.doubled = 0
        self.declarer = None
        self.leader = None
        self.current: list[tuple[str, str]] = []
        self.won = {"NS": 0, "EW": 0}
        self.revokes: list[tuple[str, int]] = []
        self.established: list[str] = []
        self.choice = None
        self.tricks = 0

    @staticmethod
    def higher(a: str, b: str) -> bool:
        va, vb = int(a[0]) * TV[a[1:]], int(b[0]) * TV[b[1:]]
        return va > vb or va == vb and a[0] > b[0]

    def call(self, seat: str, call: str) -> str | None:
        if self.pending:
            raise ValueError("a ruling waits")
        if call not in CALLS:  # the table refuses what is not a call of the code (a bid past seven it rules on)
            raise ValueError("not a call")
        turn = LHO[self.calls[-1][0]] if self.calls else "N"
        if seat != turn:
            self.pending = ("call_out_of_turn", seat, call)
            return "call_out_of_turn"
        if not self.calls and call == "P":
            raise ValueError("the dealer must declare")
        if self.bar == seat and call != "P":
            self.pending = ("call_while_barred", seat, call)
            return "call_while_barred"
        if call[0].isdigit():
            last = next((c for _, c in reversed(self.calls) if c[0].isdigit()), None)
            if last is not None and not self.higher(call, last):
                self.pending = ("insufficient_bid", seat, call, last)
                return "insufficient_bid"
        self._record(seat, call)
        return None

    def _record(self, seat: str, call: str) -> None:
        self.calls.append((seat, call))
        if self.bar and call[0].isdigit() and SIDE[seat] != SIDE[self.bar]:
            self.bar = None
        if call == "P" and len(self.calls) >= 4 and all(c == "P" for _, c in self.calls[-3:]):
            last = max(i for i, (_, c) in enumerate(self.calls) if c[0].isdigit())
            bidder, final = self.calls[last]
            self.contract = final
            self.declarer = next(s for s, c in self.calls if c[1:] == final[1:] and SIDE[s] == SIDE[bidder])
            self.leader = LHO[self.declarer]
            self.bar = None

    def apply(self, option: str) -> None:
        p, self.pending = self.pending, None
        if p[0] == "insufficient_bid" and option == "penalize":  # law 50: sufficient in its suit; partner barred
            _, seat, call, last = p
            level = next(lv for lv in range(1, 8) if self.higher(f"{lv}{call[1:]}", last))
            self._record(seat, f"{level}{call[1:]}")
            self.bar = LHO[LHO[seat]]
        elif p[0] == "revoke" and option == "tricks":
            self.choice = "tricks"

    def play(self, seat: str, card: str) -> str | None:
        if self.pending:
            raise ValueError("a ruling waits")
        cur = self.current
        turn = LHO[cur[-1][0]] if cur else self.leader
        if seat != turn:
            self.pending = ("lead_out_of_turn" if not cur else "premature_play", seat, card)
            return self.pending[0]
        hand = self.hands[seat]
        if card not in hand:
            raise ValueError("not held")
        if cur and card[0] != cur[0][1][0] and any(c[0] == cur[0][1][0] for c in hand):
            self.revokes.append((seat, self.tricks + 1))
        hand.remove(card)
        cur.append((seat, card))
        due = None
        if len(cur) == 1 and self.revokes and len(self.established) < len(self.revokes):
            due = "revoke"  # its trick quitted and a card played to the next: established
        if len(cur) == 4:
            trump = self.contract[1:]
            trump = None if trump == "NT" else "S" if trump == "R" else trump
            win_seat, win = cur[0]
            for s, c in cur[1:]:
                if c[0] == win[0] and RANKS.index(c[1]) > RANKS.index(win[1]) or c[0] == trump and win[0] != trump:
                    win_seat, win = s, c
            self.won[SIDE[win_seat]] += 1
            self.tricks += 1
            self.leader, self.current = win_seat, []
            if self.tricks == 13 and self.revokes and len(self.established) < len(self.revokes):
                due = "revoke"
        if due:
            self.established.append(self.revokes[len(self.established)][0])
            self.pending = ("revoke",)
        return due

    def score(self) -> tuple[int, int, int, int]:
        c, declarer = self.contract, self.declarer
        level, strain = int(c[0]), c[1:]
        d, o = SIDE[declarer], "EW" if SIDE[declarer] == "NS" else "NS"
        s = {"NS": [0, 0], "EW": [0, 0]}
        tricks = self.won[d]
        revoker = SIDE[self.established[0]] if self.established else None
        if revoker == o and self.choice == "tricks":  # law 84: three tricks to the declarer's side
            tricks = min(13, tricks + 3)
        if tricks >= 6 + level:
            s[d][0] += (tricks - 6) * TV[strain]
        elif revoker != o:  # the revoking side scores only its honours
            s[o][1] += (6 + level - tricks) * 50
        played = self.won[d]  # slams count the tricks taken in the play, not those a revoke transfers
        if played == 13:
            s[d][1] += 40
        elif played == 12:
            s[d][1] += 20
        elif played == 0 and revoker != o:
            s[o][1] += 40
        elif played == 1 and revoker != o:
            s[o][1] += 20
        hands = self.deal_hands
        if strain == "NT":
            for side, (a, b) in (("NS", ("N", "S")), ("EW", ("E", "W"))):
                na, nb = (sum(1 for x in hands[p] if x[1] == "A") for p in (a, b))
                pts = 100 if max(na, nb) == 4 else 40 if na + nb == 4 else 30 if na + nb == 3 else 0
                s[side][1] += pts
        else:
            suit = "S" if strain == "R" else strain
            for side, (a, b) in (("NS", ("N", "S")), ("EW", ("E", "W"))):
                na, nb = (sum(1 for x in hands[p] if x[0] == suit and x[1] in "AKQJT") for p in (a, b))
                times = TRUMP_HONOURS.get((max(na, nb), na + nb), 0)
                s[side][1] += times * TV[strain]
        return s["NS"][0], s["NS"][1], s["EW"][0], s["EW"][1]


def run_hand(deals: list[tuple[str, list[Action]]]) -> list[tuple]:
    out = []
    for deal, acts in deals:
        h = HandReferee(deal)
        for a in acts:
            if a[0] == "play":
                h.play(a[1], a[2])
            elif a[0] == "call":
                h.call(a[1], a[2])
            else:
                h.apply(a[1])
        d = SIDE[h.declarer]
        out.append((h.contract, h.declarer, h.won[d], *h.score()))
    return out


def best(fn, *args, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn(*args)
        times.append(time.process_time() - start)
    return min(times)


if __name__ == "__main__":
    deals = make_deals(200 if QUICK else 1000)
    irregular = make_irregular_deals(200 if QUICK else 1000)
    # the hand-written referee reaches the table's end on every deal it is timed on
    mine, theirs = run_table(irregular), run_hand(irregular)
    assert mine == theirs, next((d, a, b) for d, a, b in zip(irregular, mine, theirs) if a != b)
    offs, ons, hands, tables = [], [], [], []
    for _ in range(5 if QUICK else 7):  # interleaved (quick: five, so that a run slowed by the machine is outvoted)
        offs.append(run(deals, False))
        ons.append(run(deals, True))
        hands.append(best(run_hand, irregular, repeat=1))
        tables.append(best(run_table, irregular, repeat=1))
    off, on, hand, table = min(offs), min(ons), min(hands), min(tables)
    n, m = len(deals), len(irregular)
    print(f"table       detection off (baseline)   {n / off:10,.0f} deals/s   (1.00x)")
    print(f"table       detection on               {n / on:10,.0f} deals/s   {on / off:5.2f}x the baseline's time"
          "   (target >= 5,000 deals/s)")
    print(f"table       hand-written referee       {m / hand:10,.0f} deals/s   (1.00x; irregularities and scoring)")
    print(f"table       Table, detection on        {m / table:10,.0f} deals/s   {table / hand:5.2f}x the baseline's time"
          "   (target <= 1.5x)")
