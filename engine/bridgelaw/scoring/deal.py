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

__all__ = ["Hands", "read_hands", "read_card_hands", "parse_deal", "honours_of", "held_of", "honour_counts", "voids",
           "COUNT_KEYS"]

Hands = dict[Seat, tuple[str, str, str, str]]  # seat -> ranks held in spades, hearts, diamonds, clubs

_SUITS = "SHDC"
_RANKS = frozenset("AKQJT98765432")
_HONOURS = "AKQJT"
_CACHE: dict[str, Hands] = {}
_SHAPE = ("expected a PBN deal such as 'N:AKQ2.KJ3.A54.QT9 ...' (first seat, then four hands clockwise, each "
          "spades.hearts.diamonds.clubs)")
_ORDER = {s._value_: tuple(s.after(i) for i in range(4)) for s in Seat}  # the first seat, then clockwise
_DECK = frozenset(s + r for s in _SUITS for r in _RANKS)
_SEAT_OF = {s._value_: s for s in Seat}


def read_hands(text: object, field_name: str = "deal") -> Hands:
    """The deal as rank strings by seat and suit; an InputError naming ``field_name`` if it is not a deal."""
    if type(text) is str:
        hit = _CACHE.get(text)
        if hit is not None:
            return hit
    if not isinstance(text, str) or ":" not in text or len(text) > 100:
        raise InputError(field_name, _SHAPE)
    out = _well_formed(text)
    if out is None:
        out = _read(text, field_name)
    if len(_CACHE) < 4096:
        _CACHE[text] = out
    return out


def remember(text: str, hands: Hands) -> None:
    """A deal string its caller has read and checked as :func:`read_hands` checks it (the table, the deal it was
    dealt: 52 distinct cards, thirteen a hand, clockwise from the first seat), kept as :func:`read_hands` keeps
    it, so that scoring the deal does not read it again (tests/test_scorefast.py holds the two readings equal)."""
    if len(text) <= 100:  # (read_hands refuses a longer text)
        if len(_CACHE) >= 4096:
            _CACHE.clear()
        _CACHE[text] = hands


def _well_formed(text: str) -> Hands | None:
    """The deal as most deals are written (``N:`` and four hands of upper-case ranks): the hands if each holds 13
    cards (16 characters with its three dots) and each suit of the deck is dealt once (so 52 distinct cards), else
    None (:func:`_read` then reads it and names what is wrong)."""
    first, _, rest = text.partition(":")
    order = _ORDER.get(first)
    hands = rest.split()
    if order is None or len(hands) != 4:
        return None
    h0, h1, h2, h3 = hands
    if len(h0) != 16 or len(h1) != 16 or len(h2) != 16 or len(h3) != 16:
        return None
    a, b, c, d = h0.split("."), h1.split("."), h2.split("."), h3.split(".")
    if len(a) != 4 or len(b) != 4 or len(c) != 4 or len(d) != 4:
        return None
    for j in (0, 1, 2, 3):
        suit = a[j] + b[j] + c[j] + d[j]
        if len(suit) != 13 or not _RANKS.issuperset(suit) or len(set(suit)) != 13:
            return None
    n0, n1, n2, n3 = order
    return {n0: tuple(a), n1: tuple(b), n2: tuple(c), n3: tuple(d)}  # type: ignore[dict-item]


def _read(text: str, field_name: str) -> Hands:
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
    return out


def read_card_hands(hands: object, field_name: str = "hands") -> Hands:
    """Four hands given as card texts by seat (``{"N": ["SA", "HT", ...], ...}``, as the table holds them), read
    into the form :func:`read_hands` gives: each seat's thirteen cards, the 52 of the deck once each."""
    if not isinstance(hands, Mapping) or len(hands) != 4:
        raise InputError(field_name, "expected the four hands by seat, {N: [SA, HT, ...], E: [...], S: [...], W: [...]}")
    out: Hands = {}
    for key, cards in hands.items():
        seat = _SEAT_OF.get(key) if type(key) is str else None
        if seat is None or seat in out:
            raise InputError(field_name, f"expected the seats N, E, S and W, got {key!r:.20}")
        if type(cards) not in (list, tuple) or len(cards) != 13:
            raise InputError(f"{field_name}.{seat._value_}", f"expected the 13 card texts {seat._value_} holds, "
                             f"got {cards!r:.80}")
        try:
            known = _DECK.issuperset(cards)
        except TypeError:  # a card that cannot be a card text at all
            known = False
        if not known:
            bad = next(c for c in cards if not (type(c) is str and c in _DECK))
            raise InputError(f"{field_name}.{seat._value_}", f"{bad!r:.20} is not a card: expected a suit C D H S "
                             "then a rank AKQJT98765432 (e.g. SA, HT)")
        out[seat] = _by_suit(cards)
    h0, h1, h2, h3 = out.values()
    for j in (0, 1, 2, 3):
        suit = h0[j] + h1[j] + h2[j] + h3[j]
        if len(suit) != 13 or len(set(suit)) != 13:
            seen = {c for cards in hands.values() for c in cards}  # type: ignore[union-attr]
            raise InputError(field_name, f"a deal is 52 distinct cards; these hands hold {len(seen)} different cards")
    return out


def _by_suit(cards: list[str] | tuple[str, ...]) -> tuple[str, str, str, str]:
    """Thirteen card texts as the ranks held in spades, hearts, diamonds and clubs. Cards grouped by suit in that
    order (as a deal string is read) are cut apart; any other order is sorted out card by card."""
    joined = "".join(cards)
    cuts = _GROUPED.get(joined[::2])
    if cuts is not None:
        ranks = joined[1::2]
        a, b, c = cuts
        return ranks[:a], ranks[a:b], ranks[b:c], ranks[c:]
    by = ["", "", "", ""]
    for card in cards:
        by[_SUIT_INDEX[card[0]]] += card[1]
    return by[0], by[1], by[2], by[3]


_SUIT_INDEX = {s: j for j, s in enumerate(_SUITS)}
# the suits of a hand's thirteen cards grouped spades, hearts, diamonds, clubs -> where each suit ends
_GROUPED = {"S" * a + "H" * b + "D" * c + "C" * (13 - a - b - c): (a, a + b, a + b + c)
            for a in range(14) for b in range(14 - a) for c in range(14 - a - b)}


def parse_deal(text: object, field_name: str = "deal") -> dict[Seat, tuple[Card, ...]]:
    """A PBN deal string: ``"N:AKQJ.T98.765.432 ..."`` — first seat, then four hands S.H.D.C clockwise."""
    hands = read_hands(text, field_name)
    return {seat: tuple(Card(s + r) for s, ranks in zip(_SUITS, suits) for r in ranks)
            for seat, suits in hands.items()}


_TRUMP_SUIT = {"S": 0, "R": 0, "H": 1, "D": 2, "C": 3}  # the suit of a trump strain (royal spades are spades)
_NOT_HONOURS = str.maketrans("", "", "98765432")  # what is left of a suit's ranks is its honours
_SIDES = ((Side.NS, Seat.N, Seat.S), (Side.EW, Seat.E, Seat.W))


def honour_counts(hands: Mapping[Seat, tuple[str, str, str, str]], strain: Strain) -> dict[Seat, int]:
    """Honours each hand holds: aces at no trumps, else the trump A K Q J T."""
    if strain is Strain.NT:
        return {s: ("A" in suits[0]) + ("A" in suits[1]) + ("A" in suits[2]) + ("A" in suits[3])
                for s, suits in hands.items()}
    j = _TRUMP_SUIT[strain._value_]
    return {s: len(suits[j].translate(_NOT_HONOURS)) for s, suits in hands.items()}


def voids(hands: Mapping[Seat, tuple[str, str, str, str]], strain: Strain) -> tuple[Seat, ...]:
    """The hands that hold no trump (none at no trumps)."""
    if strain is Strain.NT:
        return ()
    j = _TRUMP_SUIT[strain._value_]
    return tuple(s for s, suits in hands.items() if not suits[j])


def honours_of(deal: Mapping[Seat, object], strain: Strain) -> tuple[Side, str] | None:
    """Which side holds honours and how (the key of the code's honours table), or None. ``deal`` is a deal as
    :func:`read_hands` or :func:`parse_deal` gives it."""
    pairs: tuple[tuple[Side, int, int], ...]  # each side, and the honours each of its hands holds
    first_seat, first = next(iter(deal.items()))
    if type(first) is tuple and len(first) == 4 and type(first[0]) is str and type(first_seat) is Seat:
        # as read_hands gives it: counted here, in one pass over the hands (each count by the text of its seat)
        if strain is Strain.NT:
            c = {seat._value_: ("A" in h[0]) + ("A" in h[1]) + ("A" in h[2]) + ("A" in h[3])  # type: ignore[index]
                 for seat, h in deal.items()}
        else:
            j = _TRUMP_SUIT[strain._value_]
            c = {seat._value_: len(h[j].translate(_NOT_HONOURS)) for seat, h in deal.items()}  # type: ignore[index]
        pairs = ((Side.NS, c["N"], c["S"]), (Side.EW, c["E"], c["W"]))
    else:
        counts = _counts_any(deal, strain)
        pairs = tuple((side, counts[x], counts[y]) for side, x, y in _SIDES)
    return held_of(pairs, strain)


def held_of(pairs: tuple[tuple[Side, int, int], ...], strain: Strain) -> tuple[Side, str] | None:
    """Which side holds honours and how (the key of a code's honours table), or None, from the honours (aces at
    no trumps) each hand of each side holds: ``((side, one hand's count, the other's), ...)``."""
    if strain is Strain.NT:
        for side, a, b in pairs:
            if a == 4 or b == 4:
                return side, "four_aces_in_one_hand"
            if a + b == 4:
                return side, "four_aces_between_partners"
            if a + b == 3:
                return side, "three_aces_between_partners"
        return None
    for side, a, b in pairs:
        total = a + b
        if total < 3:
            continue
        hi = a if a > b else b
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
        return side, "three_between_partners"
    return None


# honours.by_player.trump (three-hand), keyed by how many honours one player holds
COUNT_KEYS = ("", "one", "two", "three", "four", "five")


def _counts_any(deal: Mapping[Seat, object], strain: Strain) -> dict[Seat, int]:
    first = next(iter(deal.values()))
    if type(first) is tuple and first and isinstance(first[0], Card):
        suit = None if strain is Strain.NT else ("S" if strain is Strain.R else strain.value)
        return {s: sum(1 for c in cards if (c.rank == "A" if suit is None else  # type: ignore[attr-defined, misc]
                                            c.suit.value == suit and c.rank in _HONOURS))
                for s, cards in deal.items()}  # type: ignore[union-attr]
    return honour_counts(deal, strain)  # type: ignore[arg-type]
