"""A code's bids in order, worked out once per code: which bid is higher, the requisite bid, the seven call.

The rules are :func:`bridgelaw.facts.higher`, :func:`~bridgelaw.facts.requisite` and
:func:`~bridgelaw.facts.seven_call` (by value, the level times the code's trick value; at equal value the
greater number of tricks where the code's ``bid_ranking`` says so; the lowest higher bid in the strain named,
up to the code's ``max_level``). This module only remembers their answers: each bid's rank as one number,
and the requisite bid of each strain over each bid as it is first asked for.
"""

from __future__ import annotations


from .values import MAX_CALL_LEVEL, Call

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

__all__ = ["BidTable", "bid_table"]

_NONE = object()


class BidTable:
    """One code's bids: ``rank`` (higher rank, higher bid), requisite bids, seven calls."""

    __slots__ = ("code", "rank", "max_level", "by_tricks", "_requisite", "_seven")

    def __init__(self, code: Any) -> None:
        self.code = code
        self.max_level = int(code.params.get("max_level", MAX_CALL_LEVEL))
        by_tricks = self.by_tricks = code.params.get("bid_ranking", "value_then_tricks") == "value_then_tricks"
        self.rank: dict[str, int] = {}
        for strain in code.params.get("trick_values") or {}:
            for level in range(1, MAX_CALL_LEVEL + 1):
                bid = Call(f"{level}{strain}")
                # by value; at equal value by the number of tricks (a level is below 8), where the code says so
                self.rank[bid.text] = code.bid_value(bid) * 8 + (level if by_tricks else 0)
        self._requisite: dict[tuple[str, str], Call | None] = {}
        self._seven: dict[str, Call] = {}

    def higher(self, call: Call, than: Call) -> bool:
        """Is bid ``call`` a higher declaration than bid ``than``?"""
        return self.rank[call.text] > self.rank[than.text]

    def overbids(self, call: Call, than: Call) -> bool:
        """Is bid ``call``, of any number of tricks (one of more than seven too, which no rank is kept for), a
        higher declaration than bid ``than``: of greater value, or, at equal value, of more tricks where the code
        ranks so?"""
        v, w = self.code.value_of(call), self.code.value_of(than)
        return v > w or (v == w and self.by_tricks and call.level > than.level)  # type: ignore[operator]

    def requisite(self, call: Call, over: Call) -> Call | None:
        """The lowest bid in ``call``'s strain higher than ``over`` (None: not within the code's highest level)."""
        strain = call.strain
        if strain is None:  # pragma: no cover - a requisite is asked of a bid
            return None
        key = (strain._value_, over.text)
        hit = self._requisite.get(key, _NONE)
        if hit is _NONE:
            rank = self.rank[over.text]
            hit = next((c for level in range(1, self.max_level + 1)
                        if self.rank[(c := Call(f"{level}{strain._value_}")).text] > rank), None)
            self._requisite[key] = hit
        return hit  # type: ignore[return-value]

    def seven_call(self, strain: str) -> Call:
        """The highest bid the code allows in ``strain``."""
        hit = self._seven.get(strain)
        if hit is None:
            hit = self._seven[strain] = Call(f"{self.max_level}{strain}")
        return hit


def bid_table(code: Any) -> BidTable:
    """The code's bid table (made on first use, kept on the code)."""
    t = code.__dict__.get("_bids")
    if t is None:
        t = BidTable(code)
        object.__setattr__(code, "_bids", t)
    return t  # type: ignore[no-any-return]
