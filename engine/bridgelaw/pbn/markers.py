"""The §3.9 irregularity markers, once, as data: what each marks, where it stands, what it means.

Every marker records an irregularity the table let stand: (A) an insufficient bid accepted by the
opponents, (B) a call out of rotation accepted, (C) a revoke not noticed in time, (D) a lead out of turn
accepted. The reader places them (``^I``, ``^R``, ``^L`` precede the call or card they mark; ``^S`` takes
the skipped player's place), the replay rules the irregularity the table finds there as the record says —
``accept`` lists, in order, the ways a code may let it stand: an option whose effects let the call or card
stand, or the code's own condonation fact — and the writer puts them back where the standard puts them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Marker", "MARKERS", "LETS_PASS"]

# the effects of a ruling that let an irregularity pass: nothing is exacted (a revoke ruled so costs nothing)
LETS_PASS = frozenset({"no_penalty", "trick_stands", "deal_stands", "call_stands", "procedure"})


@dataclass(frozen=True)
class Marker:
    letter: str
    section: str                   # "auction" or "play"
    kinds: tuple[str, ...]         # the irregularity kinds the table finds where it stands
    stands: str | None             # the effect by which the call or card stands
    condonation: tuple[tuple[str, object], ...]  # the facts that say the irregularity was let pass
    takes_place: bool = False      # ^S stands in the place of the skipped player's call
    meaning: str = ""


MARKERS: dict[str, Marker] = {m.letter: m for m in (
    Marker("I", "auction", ("insufficient_bid",), "call_stands", (("condoned", True),),
           meaning="(A) an insufficient bid, accepted by the opponents"),
    Marker("S", "auction", ("call_out_of_turn", "pass_out_of_turn"), "call_stands", (("condoned", True),),
           takes_place=True, meaning="(B) a call out of rotation, accepted: ^S is the skipped player's place"),
    Marker("R", "play", ("revoke",), None, (("after_next_cut", True),),
           meaning="(C) a revoke, not noticed in time"),
    # an opening lead by the proper leader's partner is ruled under the code's law for a card led before the
    # lead, where it has one (1913 law 66): the record's ^L on it is that law's to let stand, or not
    Marker("L", "play", ("lead_out_of_turn", "exposed_card_before_lead"), "trick_stands", (("accepted", True),),
           meaning="(D) a lead out of turn, accepted by the opponents"),
)}
