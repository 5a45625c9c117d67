"""A game engine built on bridgelaw's Table, with nothing but its public API.

One deal under the American laws of 1913: an insufficient bid in the auction, a lead before the opening
lead in the play, a remedy taken back and chosen again, the rest of the deal played by a simple robot, and
the outcome read at the end.

    python examples/game_engine.py
"""

from __future__ import annotations

from bridgelaw import Table

DEAL = "N:KJ73.T73.Q84.K95 AQT62.62.J73.Q84 95.AK95.AT62.J73 84.QJ84.K95.AT62"


def main() -> None:
    t = Table("wcny-1913", dealer="S", deal=DEAL)

    # the auction: South opens; West's one spade is worth less than one heart
    t.call("S", "1H")
    answer = t.call("W", "1S")
    print(f"W 1S: {answer.kind}, options {[o.id for o in answer.ruling.options]} (law {answer.ruling.laws[0].number})")
    t.apply("penalize", by="N")  # West's bid becomes 4S; East may not bid until an adversary does
    print(f"auction {' '.join(t.auction)}; barred {t.bars}")
    while t.phase == "auction":  # the robot passes; the barred East could do nothing else
        t.call(t.turn, "P")
    print(f"contract {t.contract.text} by {t.declarer.value}, dummy {t.dummy.value}; {t.turn.value} to lead")

    # the play: North is to lead, but South, his partner, leads first (a card the table refuses outright —
    # one he does not hold, say — would raise a TableError instead)
    answer = t.play("S", "S9")
    assert not answer.legal
    ruling = t.pending_ruling
    print(f"S leads before N: {ruling.irregularity}, options {[o.id for o in ruling.options]} "
          f"(law {ruling.laws[0].number})")
    t.apply("exposed", by="W")  # West, the declarer, treats the card as exposed ...
    print(f"S's exposed cards: {t.exposed('S')}")
    taken = t.pop()  # ... thinks again: take the remedy back
    print(f"taken back: {taken.action} {taken.remedy}; the ruling waits again: {t.pending_ruling.irregularity}")
    t.apply("call-suit", by="W", suit="D")  # and calls a diamond from North, the proper leader
    print(f"{t.turn.value} must lead: {t.legal_cards()}")

    # the robot plays on: the first card the laws leave each player; a ruling due takes its first option
    while not t.is_over():
        if t.pending_ruling is not None:
            r = t.pending_ruling
            t.apply(r.options[0].id if r.options else None, by=r.options[0].chooser if r.options else None)
            continue
        t.play(t.turn, t.legal_cards()[0])

    out = t.outcome()
    print(f"outcome: {out.contract} by {out.declarer.value}, {out.tricks} tricks")
    for side, total in out.score.to_dict()["totals"].items():
        print(f"  {side}: {total['total']}")
    print(f"history: {len(t.history)} actions; remedies {[h.remedy for h in t.history if h.action == 'apply']}")


if __name__ == "__main__":
    main()
