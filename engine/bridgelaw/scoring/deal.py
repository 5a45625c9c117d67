"""A PBN deal (``"N:AKQJ2.AK.AK.AKQ2 ..."``) read for scoring: what each hand holds in each suit, as rank strings.

:func:`read_hands` checks a deal (four hands of thirteen, 52 distinct cards, ranks AKQJT98765432, ``10`` read as
``T``) and keeps each hand as four rank strings — no card objects — so that the honours and chicane of a deal are
counted with string operations. :func:`parse_deal` gives the same deal as :class:`~bridgelaw.values.Card` objects
(for the table). A deal string read once is remembered (duplicate plays the same deal at every table).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import InputError
from ..values import Card, Seat, Side, Strain

__all__ = ["Hands", "read_hands", "parse_deal", "honours_of", "honour_counts", "voids"]

Hands = dict[Seat, tuple[str, str, str, str]]  # seat -> ranks held in spades, hearts, diamonds, clubs

_SUITS = "SHDC"
_RANKS = frozenset("AKQJT98765432")
_HONOURS = "AKQJT"
_CACHE: dict[str, Hands] = {}
_SHAPE = ("expected a PBN deal such as 'N:AKQ2.KJ3.A54.QT9 ...' (first seat, then four hands clockwise, each "
          "spades.hearts.diamonds.clubs)")


def read_hands(text: object, field_name: str = "deal") -> Hands:
    """The deal as rank strings by seat and suit; an InputError naming ``field_name`` if it is not a deal."""
    if type(text) is str:
        hit = _CACHE.get(text)
        if hit is not None:
            return hit
    if not isinstance(text, str) or ":" not in text or len(text) > 100:
        raise InputError(field_name, _SHAPE)
    first, _, rest = text.strip().partition(":")
    start = Seat.parse(first.strip(), field_name)
    hands = rest.split()
    if len(hands) != 4:
        raise InputError(field_name, f"expected four hands, got {len(hands)}")
    out: Hands = {}
    by_suit = ["", "", "", ""]
    for i, hand in enumerate(hands):
        seat = start.after(i)
        suits = hand.upper().replace("10", "T").split(".")
        if len(suits) != 4:
            raise InputError(field_name, f"{seat.value}'s hand {hand!r} must have four suits separated by dots")
        n = 0
        for j, ranks in enumerate(suits):
            if not _RANKS.issuperset(ranks):
                bad = next(r for r in ranks if r not in _RANKS)
                raise InputError(field_name, f"{seat.value}'s hand {hand!r}: {bad!r} is not a rank (AKQJT98765432)")
            by_suit[j] += ranks
            n += len(ranks)
        if n != 13:
            raise InputError(field_name, f"{seat.value} holds {n} cards; each hand has 13")
        out[seat] = (suits[0], suits[1], suits[2], suits[3])
    for j, ranks in enumerate(by_suit):
        if len(set(ranks)) != len(ranks):
            twice = next(r for r in ranks if ranks.count(r) > 1)
            raise InputError(field_name, f"{_SUITS[j]}{twice} appears twice: a deal is 52 distinct cards")
    if len(_CACHE) < 4096:
        _CACHE[text] = out
    return out


def parse_deal(text: object, field_name: str = "deal") -> dict[Seat, tuple[Card, ...]]:
    """A PBN deal string: ``"N:AKQJ.T98.765.432 ..."`` — first seat, then four hands S.H.D.C clockwise."""
    hands = read_hands(text, field_name)
    return {seat: tuple(Card(s + r) for s, ranks in zip(_SUITS, suits) for r in ranks)
            for seat, suits in hands.items()}


def _suit_index(strain: Strain) -> int:
    return _SUITS.index("S" if strain is Strain.R else strain.value)


def honour_counts(hands: Mapping[Seat, tuple[str, str, str, str]], strain: Strain) -> dict[Seat, int]:
    """Honours each hand holds: aces at no trumps, else the trump A K Q J T."""
    if strain is Strain.NT:
        return {s: sum(1 for ranks in suits if "A" in ranks) for s, suits in hands.items()}
    j = _suit_index(strain)
    return {s: sum(1 for r in suits[j] if r in _HONOURS) for s, suits in hands.items()}


def voids(hands: Mapping[Seat, tuple[str, str, str, str]], strain: Strain) -> tuple[Seat, ...]:
    """The hands that hold no trump (none at no trumps)."""
    if strain is Strain.NT:
        return ()
    j = _suit_index(strain)
    return tuple(s for s, suits in hands.items() if not suits[j])


def honours_of(deal: Mapping[Seat, object], strain: Strain) -> tuple[Side, str] | None:
    """Which side holds honours and how (the key of the code's honours table), or None. ``deal`` is a deal as
    :func:`read_hands` or :func:`parse_deal` gives it."""
    counts = _counts_any(deal, strain)
    if strain is Strain.NT:
        for side in (Side.NS, Side.EW):
            a, b = (counts[s] for s in side.seats)
            if max(a, b) == 4:
                return side, "four_aces_in_one_hand"
            if a + b == 4:
                return side, "four_aces_between_partners"
            if a + b == 3:
                return side, "three_aces_between_partners"
        return None
    for side in (Side.NS, Side.EW):
        a, b = (counts[s] for s in side.seats)
        hi, total = max(a, b), a + b
        if hi == 5:
            return side, "five_in_one_hand"
        if hi == 4 and total == 5:
            return side, "four_in_one_hand_fifth_in_partners"
        if hi == 4:
            return side, "four_in_one_hand"
        if total == 5:
            return side, "five_between_partners"
        if total == 4:
            return side, "four_between_partners"
        if total == 3:
            return side, "three_between_partners"
    return None


def _counts_any(deal: Mapping[Seat, object], strain: Strain) -> dict[Seat, int]:
    first = next(iter(deal.values()))
    if isinstance(first, tuple) and first and isinstance(first[0], Card):
        suit = None if strain is Strain.NT else ("S" if strain is Strain.R else strain.value)
        return {s: sum(1 for c in cards if (c.rank == "A" if suit is None else  # type: ignore[attr-defined]
                                            c.suit.value == suit and c.rank in _HONOURS))
                for s, cards in deal.items()}  # type: ignore[union-attr]
    return honour_counts(deal, strain)  # type: ignore[arg-type]
