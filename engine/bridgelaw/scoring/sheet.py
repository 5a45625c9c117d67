"""The score sheet at the edge: a result (``schema/score.schema.json``) checked once, against the schema's shape and
then against the code, into a typed :class:`Sheet` — or one :class:`InputError` naming its field.

Checked against the code: seats that exist in it (three-hand: no player sits at the dummy packet), a contract in a
strain it has, a chicane list of distinct seats (none at no trumps, none where the code has no chicane), honours
that a deal can hold (and, with a chicane, that the void hands leave possible), penalty columns the score has and
laws the code has, revoke counts. Facts the rest of the sheet determines are derived, not asked:

- honours and chicane from the ``deal`` (given as well, they must agree with it);
- ``original_one_spade``, where the code's dealer must declare: a one-spade contract the dealer plays can only be
  his original declaration, one another player plays cannot (given as well, it must agree);
- the dummy of a four-hand deal is the declarer's partner (given, it must be); in straight bridge the declarer is
  the dealer (given, he must be).

What the sheet leaves to a presumption is said in a note: no honours given (none are scored), tricks fewer than the
trump honours stated win in play (scored as given: only a concession could leave so few).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import InputError, did_you_mean
from ..limits import control_in
from ..values import EffectKind, Seat, Side, Strain
from .deal import COUNT_KEYS, Hands, held_of, honour_counts, honours_of, read_card_hands, read_hands, voids
from .model import Contract
from .rules import Rules

__all__ = ["Sheet", "Revoke", "Penalty", "read_sheet", "read_penalties", "parse_contract", "original_one_spade",
           "DEAL_KEYS", "NO_PLAY_KEYS", "unstated_honours_note"]

DEAL_KEYS = ("code", "dealer", "declarer", "contract", "tricks", "deal", "honours", "chicane", "revokes",
             "penalties", "original_one_spade", "dummy", "note", "new_deal")
NO_PLAY_KEYS = ("code", "dealer", "dummy", "new_deal", "penalties", "note")
_DEAL_KEY_SET = frozenset(DEAL_KEYS)
_SEAT = {s.value: s for s in Seat}
_T = TypeVar("_T")
_SIDE = {"NS": Side.NS, "EW": Side.EW}
_COLUMNS = ("trick", "honour")
MAX_LIST = _MAX_LIST = 52  # revokes, penalties: no more than the cards of a deal
_MAX_POINTS = 100_000
_MAX_TEXT = 500


@dataclass(frozen=True)
class Revoke:
    offender: Seat
    choice: str | None


@dataclass(frozen=True)
class Penalty:
    who: Side | Seat
    column: str
    points: int
    law: str
    reason: str


@dataclass(slots=True)
class Sheet:
    """One deal's result, checked: everything the scorer reads, with the derived facts filled in (made once per
    deal, read only by the scorer)."""

    declarer: Seat
    dealer: Seat | None
    contract: Contract
    tricks: int
    held: tuple[Side, str] | None  # four-hand: the side holding honours and how
    counts: Mapping[Seat, tuple[int, int]] | None  # three-hand: (honours counted for the player, most in one hand)
    chicane: tuple[Seat, ...]
    revokes: tuple[Revoke, ...]
    penalties: tuple[Penalty, ...]
    original_one_spade: bool
    dummy: Seat | None
    spade_note: str = ""
    honours_note: str = ""  # a presumption about the honours: none scored where none are given (and, three-hand,
    # how the declarer's and the dummy's lie)
    tricks_note: str = ""  # tricks fewer than the honours stated win in play: possible only by a concession in error


# --------------------------------------------------------------------------
# Contracts


_AUCTION_CONTRACT = re.compile(r"^([1-9])(C|D|H|S|R|NT|N)(XX|X)?$")
_STRAIGHT_CONTRACT = re.compile(r"^(C|D|H|S|NT|N)(?:\s*[xX*]\s*(\d{1,5}))?$")
_DOUBLED = {None: 0, "X": 1, "XX": 2}


def parse_contract(rules: Rules, text: Any, field_name: str = "contract") -> Contract:
    cache: dict[str, Contract] = rules.code.__dict__.setdefault("_contracts", {})
    hit = cache.get(text) if type(text) is str else None
    if hit is not None:
        return hit
    c = _parse_contract(rules, text, field_name)
    if len(cache) < 2048:
        cache[text] = c
    return c


def _parse_contract(rules: Rules, text: Any, field_name: str) -> Contract:
    if not isinstance(text, str) or len(text) > 16:
        raise InputError(field_name, f"expected a contract such as 2HX (auction) or 'H x4' (straight bridge), "
                                     f"got {_show(text)}")
    t = text.strip().upper()
    values = rules.values
    if rules.auction:
        m = _AUCTION_CONTRACT.match(t)
        top = int(rules.code.params.get("max_level", 0)) or (13 - rules.book)
        if not m or int(m.group(1)) > top:
            raise InputError(field_name, f"{text!r} is not a contract: expected a level 1-{top}, a strain "
                             f"{' '.join(values)} and X or XX if doubled (e.g. 4S, 3NTX)")
        strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
        if strain not in values:
            raise InputError(field_name, f"{rules.id} has no {strain} declaration (its strains: {', '.join(values)})")
        return Contract(text, int(m.group(1)), Strain(strain), _DOUBLED[m.group(3)])
    m = _STRAIGHT_CONTRACT.match(t)
    if not m:
        raise InputError(field_name, f"{text!r} is not a straight-bridge declaration: expected the trump C D H S or "
                         "NT and the doubling multiplier (e.g. 'H x4', 'NT')")
    strain = "NT" if m.group(1) in ("N", "NT") else m.group(1)
    mult = int(m.group(2) or 1)
    if mult < 1 or mult & (mult - 1) or mult > 1 << 16:
        raise InputError(field_name, f"the multiplier must be 1, 2, 4, 8, ... (each double doubles) up to {1 << 16}, "
                                     f"got {mult}")
    if strain not in values:
        raise InputError(field_name, f"{rules.id} has no {strain} declaration (its strains: {', '.join(values)})")
    if mult > 1 and not rules.can_double(strain, mult // 2):  # the double that made it was never allowed
        last = 1
        while rules.can_double(strain, last):
            last *= 2
        limit = rules.code.params.entry("doubling_limit")
        raise InputError(field_name, f"{text!r}: the doubling stops once a trick is worth {rules.doubling_limit} "
                         f"(law {limit.law if limit is not None else '?'}): at {strain} the last multiplier is "
                         f"x{last}, at which a trick counts {rules.trick_value(strain, last)}")
    return Contract(text, None, Strain(strain), mult)


# --------------------------------------------------------------------------
# Fields


def _show(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _seat(v: Any, field_name: str) -> Seat:
    s = _SEAT.get(v) if type(v) is str else None
    if s is None:
        raise InputError(field_name, f"expected a seat N, E, S or W, got {_show(v)}"
                         + (did_you_mean(v.upper(), _SEAT) if isinstance(v, str) else ""))
    return s


def _int(v: Any, field_name: str, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise InputError(field_name, f"expected a whole number {lo}-{hi}, got {_show(v)}")
    return v


def _text(v: Any, field_name: str) -> str:
    if not isinstance(v, str) or len(v) > _MAX_TEXT:
        raise InputError(field_name, f"expected a text of at most {_MAX_TEXT} characters, got {_show(v)}")
    said = control_in(v)
    if said is not None:
        raise InputError(field_name, said)
    return v


def _list(v: Any, field_name: str, what: str) -> list[Any]:
    if not isinstance(v, list):
        raise InputError(field_name, f"expected a list of {what}, got {_show(v)}")
    if len(v) > _MAX_LIST:
        raise InputError(field_name, f"at most {_MAX_LIST} entries (the cards of a deal), got {len(v)}")
    return v


def check_keys(result: Mapping[Any, Any], allowed: tuple[str, ...], where: str, what: str = "") -> None:
    for k in result:
        if k not in allowed:
            raise InputError(f"{where}{k}", f"unknown field{did_you_mean(str(k), allowed)}; "
                             f"{what or 'fields are'} {', '.join(allowed)}")
    no_nulls(result, where)


def no_nulls(result: Mapping[Any, Any], where: str) -> None:
    """A field is given a value or left out: null is neither."""
    if None in result.values():
        k = next(k for k, v in result.items() if v is None)
        raise InputError(f"{where}{k}", "null is not a value: give one, or leave the field out")


def read_penalties(rules: Rules, result: Mapping[str, Any], where: str, players: tuple[Seat, ...] | None
                   ) -> tuple[Penalty, ...]:
    """The penalties a sheet carries (points other laws gave): to a side, or in three-hand to a player."""
    pens = result.get("penalties")
    if pens is None:
        return ()
    out = []
    for i, pen in enumerate(_list(pens, f"{where}penalties", "{side, points, law}")):
        at = f"{where}penalties[{i}]"
        if not isinstance(pen, Mapping):
            raise InputError(at, "expected {side: " + ("<player seat>" if players else "NS|EW")
                             + ", points: N, law: \"54\"}")
        check_keys(pen, ("side", "points", "law", "column", "reason"), f"{at}.", "a penalty has")
        for k in ("side", "points", "law"):
            if k not in pen:
                raise InputError(f"{at}.{k}", "is required")
        if players is not None:
            who: Side | Seat = _seat(pen["side"], f"{at}.side")
            if who not in players:
                raise InputError(f"{at}.side", f"{who.value} is the dummy packet: no player sits there; the players "
                                 f"are {', '.join(p.value for p in players)}")
        else:
            who_side = _SIDE.get(pen["side"]) if type(pen["side"]) is str else None
            if who_side is None:
                raise InputError(f"{at}.side", f"expected NS or EW, got {_show(pen['side'])}")
            who = who_side
        points = _int(pen["points"], f"{at}.points", -_MAX_POINTS, _MAX_POINTS)
        if points == 0:
            raise InputError(f"{at}.points", "0 scores nothing: give the points the law gave (a deduction as a "
                             "negative number), or leave out a penalty that gives none")
        law = pen["law"]
        if not isinstance(law, str) or rules.code.law(law) is None:
            raise InputError(f"{at}.law", f"{rules.id} has no law {_show(law)}"
                             + (did_you_mean(law, [lw.number for lw in rules.code.laws]) if isinstance(law, str)
                                else ""))
        column = pen.get("column", "honour")
        if column not in _COLUMNS:
            raise InputError(f"{at}.column", f"expected trick or honour, got {_show(column)}"
                             + (did_you_mean(column, _COLUMNS) if isinstance(column, str) else ""))
        _check_column(rules, law, column, f"{at}.column")
        reason = _text(pen.get("reason", "penalty"), f"{at}.reason")
        out.append(Penalty(who, column, points, law, reason))
    return tuple(out)


def _law_columns(law: Any) -> set[str]:
    """The columns the score effects of a law's provisions (and their options) put points in."""
    out = set()
    for p in law.provisions:
        for e in (*p.effects, *(e for o in p.options or () for e in o.effects)):
            if e.kind is EffectKind.SCORE:
                out.update(v for k, v, _ in e.fields if k == "column")
    return out


def _check_column(rules: Rules, number: str, column: str, where: str) -> None:
    """A penalty stands in a column the law it cites scores in: the trick score holds points for tricks won, so a
    penalty goes there only where its law's own score says so (1904 law 90's tricks' value, the 1905 spade
    convention's two); a law that scores its penalty in the honour column has it there."""
    columns = _law_columns(rules.code.law(number))
    if column in columns or column == "honour" and not columns:
        return
    if columns:
        raise InputError(where, f"{rules.id} law {number} scores its penalty in the {' or '.join(sorted(columns))} "
                                f"column, not the {column} column")
    raise InputError(where, f"{rules.id} law {number} scores no penalty in the {column} column")


def _revokes(result: Mapping[str, Any], where: str) -> tuple[Revoke, ...]:
    revokes = result.get("revokes")
    if not revokes:
        if revokes is not None and revokes != []:
            raise InputError(f"{where}revokes", f"expected a list of {{offender, choice}}, got {_show(revokes)}")
        return ()
    out = []
    for i, r in enumerate(_list(revokes, f"{where}revokes", "{offender, choice}")):
        f = f"{where}revokes[{i}]"
        if not isinstance(r, Mapping) or "offender" not in r:
            raise InputError(f, "expected {offender: N, choice: tricks|points} (choice when the innocent side "
                             "chooses)")
        check_keys(r, ("offender", "choice"), f"{f}.", "a revoke has")
        choice = r.get("choice")
        if choice is not None and (not isinstance(choice, str) or len(choice) > 40):
            raise InputError(f"{f}.choice", f"expected the id of the option chosen, got {_show(choice)}")
        seat = _seat(r["offender"], f"{f}.offender")
        if sum(1 for x in out if x.offender is seat) == 13:  # a revoke is a card played to a trick, 13 a hand
            raise InputError(f"{f}.offender", f"a 14th revoke by {seat.value}: a player plays 13 cards in a deal, "
                             "and revokes at most once in a trick")
        out.append(Revoke(seat, choice))
    return tuple(out)


# --------------------------------------------------------------------------
# Honours and chicane


def none_possible(rules: Rules, strain: Strain) -> bool:
    """Whether the honours can fall so that the code's table scores no side's: some way of dealing the five trump
    honours (the four aces at no trumps) among the four hands that gives no entry of the table (worked out once
    for each code and kind of declaration, and kept on its rules)."""
    return _per_strain(rules, "_none_possible", strain, _none_possible)


def _per_strain(rules: Rules, name: str, strain: Strain, make: Callable[[Rules, Strain], _T]) -> _T:
    """``make(rules, strain)``, worked out once for each code and kind of declaration (trumps, no trumps) and kept
    on the code's rules under ``name``."""
    memo: dict[bool, _T] | None = rules.__dict__.get(name)
    if memo is None:
        memo = {}
        object.__setattr__(rules, name, memo)
    nt = strain is Strain.NT
    hit = memo.get(nt)
    if hit is None:
        hit = memo[nt] = make(rules, strain)
    return hit


def _dealt_honours(strain: Strain) -> int:
    """How many honours a deal holds: the four aces at no trumps, the five trump honours at a trump declaration."""
    return 4 if strain is Strain.NT else 5


def _none_possible(rules: Rules, strain: Strain) -> bool:
    n = _dealt_honours(strain)
    table = rules.honours_no_trump if strain is Strain.NT else rules.honours_trump
    for north in range(n + 1):
        for east in range(n + 1 - north):
            for south in range(n + 1 - north - east):
                held = held_of(((Side.NS, north, south), (Side.EW, east, n - north - east - south)), strain)
                if held is None or held[1] not in table:
                    return True
    return False


def _refuse_none(rules: Rules, strain: Strain, where: str) -> None:
    table = rules.honours_no_trump if strain is Strain.NT else rules.honours_trump
    law = next(iter(table.values()))[1] if table else "?"
    what = ("the four aces are all dealt, and however they fall" if strain is Strain.NT else
            "the five trump honours are all dealt, and however they fall (three or more always lie with one side)")
    raise InputError(f"{where}honours", f"'none' cannot be under {rules.id} at "
                     f"{'no trumps' if strain is Strain.NT else 'a trump declaration'}: {what}, law {law} scores one side's; give {{side: NS|EW, held: {'|'.join(table)}}}, or "
                     "the deal (or leave honours out where the sheet does not record them)")


def unstated_honours_note(rules: Rules, strain: Strain) -> str:
    """The note on a sheet that gives neither honours nor the deal: none are scored, and the note says so — and, where
    every way the honours can fall scores (a trump declaration; three-hand, every ace), that the sheet must be
    silent on honours it does not record, not saying that none were held. Made once for each code and kind of
    declaration, and kept on its rules."""
    return _per_strain(rules, "_unstated_note", strain, _unstated_note)


def _unstated_note(rules: Rules, strain: Strain) -> str:
    nt = strain is Strain.NT
    what = "four aces" if nt else "five trump honours"
    if rules.three:
        table = rules.by_player_no_trump if nt else rules.by_player_trump
        if _none_possible_by_player(rules, strain):
            return "no honours are given: none are scored (give each player's count, or the deal, if any scored)"
        return (f"no honours are given: none are scored, though the {what} are all dealt to the players and law "
                f"{next(iter(table.values()))[1]} scores every player's; give each player's count (or the deal) "
                "where the sheet records them")
    table = rules.honours_no_trump if nt else rules.honours_trump
    if none_possible(rules, strain):
        return "no honours are given: none are scored (give honours, or the deal, if a side's scored)"
    return (f"no honours are given: none are scored, though the {what} are all dealt and law "
            f"{next(iter(table.values()))[1]} scores one side's however they fall; give honours {{side: NS|EW, held: "
            "...} (or the deal) where the sheet records them")


def _stated_honours(rules: Rules, h: Any, strain: Strain, where: str) -> tuple[Side, str] | None:
    if h is None:
        return None
    if h == "none":
        if not none_possible(rules, strain):
            _refuse_none(rules, strain, where)
        return None
    if type(h) is dict and type(h.get("held")) is str and type(h.get("side")) is str and h["side"] in _SIDE:
        if len(h) != 2:
            check_keys(h, ("side", "held"), f"{where}honours.", "honours have")
        table = rules.honours_no_trump if strain is Strain.NT else rules.honours_trump
        if h["held"] not in table:
            raise InputError(f"{where}honours.held", f"expected one of {', '.join(table)}, got {h['held']!r}"
                             + did_you_mean(h["held"], table)
                             + (" (at no trumps honours are aces)" if strain is Strain.NT else ""))
        return _SIDE[h["side"]], h["held"]
    if isinstance(h, Mapping) and "side" in h and (type(h.get("side")) is not str or h.get("side") not in _SIDE):
        raise InputError(f"{where}honours.side", f"expected NS or EW, got {_show(h.get('side'))}")
    raise InputError(f"{where}honours", "expected {side: NS|EW, held: four_in_one_hand|...} or 'none' (or give "
                     "the deal)")


def _stated_chicane(rules: Rules, c: Any, strain: Strain, where: str) -> tuple[Seat, ...]:
    if c is None or c == []:
        return ()
    if not isinstance(c, list):
        raise InputError(f"{where}chicane", f"expected a list of the seats void of trumps, e.g. [\"W\"], got {_show(c)}")
    seats = tuple(_seat(s, f"{where}chicane[{i}]") for i, s in enumerate(c))
    for i, s in enumerate(seats):
        if s in seats[:i]:
            raise InputError(f"{where}chicane[{i}]", f"{s.value} is named twice: list each seat void of trumps once")
    if rules.chicane is None:
        raise InputError(f"{where}chicane", f"{rules.id} has no chicane"
                         + (f" ({rules.code.params.none('chicane').note})" if rules.code.params.none("chicane") else ""))  # type: ignore[attr-defined]
    if strain is Strain.NT:
        raise InputError(f"{where}chicane", "at no trumps there is no trump to be void of: no chicane")
    if len(seats) > 3:
        raise InputError(f"{where}chicane", "the thirteen trumps are in some hand: at most three hands are void")
    return seats


def _check_against_voids(held: tuple[Side, str] | None, void: tuple[Seat, ...], where: str) -> None:
    """Honours held by a side are in its hands: both partners void leaves it none, one void leaves all its honours
    in the other hand (no honours 'between partners' past three)."""
    if held is None:
        return
    side, key = held
    empty = [s for s in side.seats if s in void]
    if len(empty) == 2:
        raise InputError(f"{where}honours", f"{side.value} hold honours, but chicane says both "
                         f"{' and '.join(s.value for s in empty)} hold no trump")
    if empty and key in ("four_between_partners", "five_between_partners", "four_in_one_hand_fifth_in_partners"):
        raise InputError(f"{where}honours.held", f"{empty[0].value} holds no trump (chicane), so {side.value}'s "
                         f"honours are all in one hand: {key} cannot be")


#: Of a side's holding of trump honours (its key in a code's table): the most one hand of it holds, at the fewest,
#: and how many of the five the side holds. Cards, not law: each honour a hand holds is played to a trick of its
#: own, and is beaten there only by a higher honour the other side holds (a trump is beaten only by a higher one).
_HOLDINGS = {"five_in_one_hand": (5, 5), "four_in_one_hand_fifth_in_partners": (4, 5), "five_between_partners": (3, 5),
             "four_in_one_hand": (4, 4), "four_between_partners": (2, 4), "three_between_partners": (2, 3)}


def fewest_tricks(hi: int, total: int) -> int:
    """The fewest tricks a side can win at a trump declaration when one hand of it holds ``hi`` of the five trump
    honours and the side ``total``: that hand's honours fall in ``hi`` tricks, and the other side's ``5 - total``
    honours can take at most one of them each."""
    return max(hi - (5 - total), 0)


#: The fewest tricks each holding of trump honours wins its side (:func:`fewest_tricks`), by its key.
FEWEST = {key: fewest_tricks(hi, total) for key, (hi, total) in _HOLDINGS.items()}


def tricks_against_holding(side: str, key: str, declaring: str, tricks: int) -> str:
    """The note on ``tricks`` (the declaring side's) fewer than the holding ``key`` of ``side`` wins in play at a
    trump declaration, or ``""``: only tricks conceded could leave so few."""
    least = FEWEST.get(key, 0)
    won = tricks if side == declaring else 13 - tricks
    if won >= least:
        return ""
    return (f"{side} holding {key.replace('_', ' ')} win at least {least} tricks in play (each of those honours "
            f"takes the trick it falls to, unless a higher one beats it), but the tricks say they won {won}: scored "
            "as given (only tricks conceded could leave so few) — if none were, the tricks or the honours are wrong")


def _three_hand_counts(rules: Rules, h: Any, strain: Strain, declarer: Seat, dummy: Seat,
                       players: tuple[Seat, ...], where: str) -> tuple[dict[Seat, tuple[int, int]], str]:
    """Each player's (count, most in one hand) from a sheet's counts, and a note of any presumption. The declarer's
    count includes the dummy's unless the dummy's own is given under the dummy packet's seat ("the declarer counts
    separately both his own honours and those held by the dummy", T13): given only together, four or five honours
    (four aces) are presumed in one hand, and the note says so."""
    if h is None:
        return {}, ""
    if h == "none":
        if not _none_possible_by_player(rules, strain):
            _refuse_none_by_player(rules, strain, declarer, players, where)
        return {}, ""
    if not isinstance(h, Mapping):
        raise InputError(f"{where}honours", "three-hand: expected {<seat>: count, ...} per player (the declarer's "
                         "count includes the dummy's, or give the dummy's own under the dummy packet's seat; or "
                         "give the deal to split them), or 'none'")
    most = _dealt_honours(strain)
    what = "aces" if strain is Strain.NT else "honours"
    out: dict[Seat, tuple[int, int]] = {}
    in_dummy = None
    for k, v in h.items():
        seat = _seat(k, f"{where}honours")
        if seat is dummy:
            in_dummy = _int(v, f"{where}honours.{k}", 0, most)
            continue
        out[seat] = (_int(v, f"{where}honours.{k}", 0, most), _int(v, f"{where}honours.{k}", 0, most))
    total = sum(n for n, _ in out.values()) + (in_dummy or 0)
    if total > most:
        raise InputError(f"{where}honours", f"a deal holds {most} {what}; these counts add up to {total}")
    if total < most:  # every one is dealt, to a player or the dummy packet, and (T13) counted for someone
        raise InputError(f"{where}honours", f"a deal holds {most} {what}, all dealt to the players (the dummy's "
                         f"counted in the declarer's); these counts add up to {total}: give every player's count "
                         f"so that they add up to {most} (or the deal)")
    note = ""
    if in_dummy is not None:
        own = out.get(declarer, (0, 0))[0]
        if own or in_dummy:
            out[declarer] = (own + in_dummy, max(own, in_dummy))
    elif out.get(declarer, (0, 0))[0] >= 4:  # where one hand or two score differently
        n = out[declarer][0]
        note = (f"the declarer {declarer.value}'s {n} {what} (his own with the dummy's) are taken as held in one hand; "
                f"give the dummy's own under {dummy.value} (or the deal) if the dummy holds some: the declarer counts "
                "the two hands separately")
    return out, note


def _none_possible_by_player(rules: Rules, strain: Strain) -> bool:
    """Three-hand: whether the honours (aces) can fall among the three players so that the code's table scores no
    player's (each player's count, the declarer's with the dummy's)."""
    if strain is Strain.NT:
        return not rules.by_player_no_trump.get("each_ace", (0, ""))[0]
    table, n = rules.by_player_trump, _dealt_honours(strain)
    for a in range(n + 1):
        for b in range(n + 1 - a):
            if not any(k and COUNT_KEYS[k] in table and table[COUNT_KEYS[k]][0] for k in (a, b, n - a - b)):
                return True
    return False


def _refuse_none_by_player(rules: Rules, strain: Strain, declarer: Seat, players: tuple[Seat, ...],
                           where: str) -> None:
    nt = strain is Strain.NT
    law = next(iter((rules.by_player_no_trump if nt else rules.by_player_trump).values()))[1]
    other = players[-1] if players[-1] is not declarer else players[0]
    raise InputError(f"{where}honours", f"'none' cannot be under {rules.id}: the "
                     f"{'four aces' if nt else 'five trump honours'} are all dealt to the players (the dummy's counted "
                     f"in the declarer's), and law {law} scores every player's; give each player's count, e.g. "
                     f"{{{declarer.value}: {2 if nt else 3}, {other.value}: 2}}, or the deal (or leave honours out "
                     "where the sheet does not record them)")


def _counts_from_deal(hands: Hands, strain: Strain, declarer: Seat, dummy: Seat,
                      players: tuple[Seat, ...]) -> dict[Seat, tuple[int, int]]:
    n = honour_counts(hands, strain)
    out = {s: (n[s], n[s]) for s in players}
    out[declarer] = (n[declarer] + n[dummy], max(n[declarer], n[dummy]))
    return out


# --------------------------------------------------------------------------
# The sheet


def read_sheet(rules: Rules, result: Mapping[str, Any], where: str = "", hands: Mapping[str, Any] | None = None
               ) -> Sheet:
    """A deal's result, checked and completed (see the module docstring). ``hands`` (card texts by seat) stand
    for the result's ``deal``."""
    if not _DEAL_KEY_SET.issuperset(result):
        check_keys(result, DEAL_KEYS, where)
    elif None in result.values():
        no_nulls(result, where)
    if "declarer" not in result:
        raise InputError(f"{where}declarer", "is required (the player of the combined hands)")
    declarer = _SEAT.get(result["declarer"]) if type(result["declarer"]) is str else None
    if declarer is None:
        declarer = _seat(result["declarer"], f"{where}declarer")
    contract = parse_contract(rules, result.get("contract"), f"{where}contract")
    tricks: int = result.get("tricks")  # type: ignore[assignment]  # checked on the next line
    if type(tricks) is not int or not 0 <= tricks <= 13:
        _int(tricks, f"{where}tricks", 0, 13)
    dealer = None
    if "dealer" in result:
        dealer = _seat(result["dealer"], f"{where}dealer")
    if "note" in result:
        _text(result["note"], f"{where}note")
    if "new_deal" in result:
        raise InputError(f"{where}new_deal", "a deal that was played has no new_deal (a deal ended without play "
                         "carries only new_deal and its penalties)")
    strain = contract.strain
    dummy = None
    honours_note = ""
    held: tuple[Side, str] | None
    raw_held: tuple[Side, str] | None
    chicane: tuple[Seat, ...]
    counts: Mapping[Seat, tuple[int, int]] | None
    players: tuple[Seat, ...] | None
    if rules.three:
        if "dummy" not in result:
            raise InputError(f"{where}dummy", "is required in three-hand: the seat of the dummy hand (no player "
                             "sits there)")
        dummy = _seat(result["dummy"], f"{where}dummy")
        if declarer is dummy:
            raise InputError(f"{where}declarer", "the dummy cannot be the declarer")
        if dealer is dummy:
            raise InputError(f"{where}dealer", f"{dealer.value} is the dummy packet: no player sits there")
        players = tuple(s for s in Seat if s is not dummy)
        if "chicane" in result and result["chicane"] != []:
            _stated_chicane(rules, result["chicane"], strain, where)  # refused as any code's is that scores none
            raise InputError(f"{where}chicane", f"{rules.id} scores honours by each player, and no chicane by "
                             "player is written: give any points agreed as penalties")
        dealt = _dealt(result, hands, where)
        if dealt is not None:
            counts = _counts_from_deal(dealt, strain, declarer, dummy, players)
            if result.get("honours") not in (None, "none") or result.get("honours") == "none" and any(
                    n for n, _ in counts.values()):
                stated, _ = _three_hand_counts(rules, result.get("honours"), strain, declarer, dummy, players,
                                               where)
                if {s: n for s, (n, _) in counts.items() if n} != {s: n for s, (n, _) in stated.items() if n}:
                    raise InputError(f"{where}honours", "the honours stated are not those the deal shows "
                                     f"({', '.join(f'{s.value} {n}' for s, (n, _) in counts.items())}); give one")
        else:
            counts, honours_note = _three_hand_counts(rules, result.get("honours"), strain, declarer, dummy,
                                                      players, where)
            if "honours" not in result:
                honours_note = unstated_honours_note(rules, strain)
        held = raw_held = None
        chicane = ()
    else:
        if "dummy" in result and _seat(result["dummy"], f"{where}dummy") is not declarer.partner:
            raise InputError(f"{where}dummy", f"the dummy is the declarer's partner, {declarer.partner.value}")
        players = None
        counts = None
        dealt = _dealt(result, hands, where)
        if dealt is not None:
            held = raw_held = honours_of(dealt, strain)
            table = rules.honours_no_trump if strain is Strain.NT else rules.honours_trump
            if held is not None and held[1] not in table:
                held = None  # a holding this code does not score
            chicane = voids(dealt, strain) if rules.chicane is not None else ()
            if "honours" in result:
                stated_held = _stated_honours(rules, result["honours"], strain, where)
                if stated_held != held:
                    raise InputError(f"{where}honours", f"the deal shows {_held_words(held)}, not "
                                     f"{_held_words(stated_held)}: give the deal or the honours, or make them agree")
            if "chicane" in result:
                given = _stated_chicane(rules, result["chicane"], strain, where)
                if given and set(given) != set(chicane):
                    raise InputError(f"{where}chicane", f"the deal shows {', '.join(s.value for s in chicane) or 'no hand'}"
                                     " void of trumps: give the deal or the chicane, or make them agree")
        else:
            held = raw_held = _stated_honours(rules, result.get("honours"), strain, where)
            if "honours" not in result:
                honours_note = unstated_honours_note(rules, strain)
            chicane = _stated_chicane(rules, result.get("chicane"), strain, where) if "chicane" in result else ()
            if chicane:
                _check_against_voids(held, chicane, where)
    tricks_note = ""
    if strain is not Strain.NT:  # (the holding as dealt, scored by the code or not)
        tricks_note = _check_tricks_against_honours(declarer, tricks, raw_held, counts, dealt is not None or (
            isinstance(result.get("honours"), Mapping) and dummy is not None and dummy.value in result["honours"]),
            where)
    if not rules.auction and dealer is not None and declarer is not dealer:
        raise InputError(f"{where}declarer", f"in straight bridge the dealer plays the combined hands (his partner "
                         f"is the dummy): the dealer is {dealer.value}, so the declarer is {dealer.value}, not "
                         f"{declarer.value}")
    revokes = _revokes(result, where) if "revokes" in result else ()
    penalties = read_penalties(rules, result, where, players) if "penalties" in result else ()
    original, note = (original_one_spade(rules, result, contract, declarer, dealer, where)
                      if contract.level == 1 or "original_one_spade" in result else (False, ""))
    return Sheet(declarer, dealer, contract, tricks, held, counts, chicane, revokes, penalties, original, dummy, note,
                 honours_note, tricks_note)


def _check_tricks_against_honours(declarer: Seat, tricks: int, held: tuple[Side, str] | None,
                                  counts: Mapping[Seat, tuple[int, int]] | None, split_known: bool,
                                  where: str) -> str:
    """The note on tricks fewer than the trump honours stated (or dealt) win in play, or ``""``: a hand holding
    honours wins the tricks they fall to (:func:`fewest_tricks`), so such a sheet can be right only where tricks
    were conceded (a concession in error stands; hands thrown in leave the score as claimed) — scored as given,
    and said. Three-hand: each adversary's own hand, and
    the declarer's where his and the dummy's are known apart (else split as evenly as they can be)."""
    if held is not None:
        return tricks_against_holding(held[0].value, held[1], declarer.side.value, tricks)
    for seat, (n, most) in (counts or {}).items():  # three-hand: the adversaries are partners for the hand (T7)
        mine = seat is declarer
        least = fewest_tricks(most if split_known or not mine else (n + 1) // 2, n)
        won = tricks if mine else 13 - tricks
        if won < least:
            return (f"{seat.value}'s {n} trump honours win at least {least} tricks in play for "
                    f"{'him' if mine else 'the adversaries'} (each takes the trick it falls to, unless a higher one "
                    f"beats it), but the tricks leave {won}: scored as given (only tricks conceded could leave so "
                    "few) — if none were, the tricks or the honours are wrong")
    return ""


def _dealt(result: Mapping[str, Any], hands: Mapping[str, Any] | None, where: str) -> Hands | None:
    """The deal the sheet gives (its PBN string), or the hands handed over instead; None if neither."""
    if hands is None:
        deal = result.get("deal")
        return None if deal is None else read_hands(deal, f"{where}deal")
    if "deal" in result:
        raise InputError(f"{where}deal", "the deal is given twice, as a deal string and as hands: give one")
    return read_card_hands(hands, "hands")


def _held_words(held: tuple[Side, str] | None) -> str:
    return "no honours" if held is None else f"{held[0].value} holding {held[1].replace('_', ' ')}"


def original_one_spade(rules: Rules, result: Mapping[str, Any], contract: Contract, declarer: Seat,
                        dealer: Seat | None, where: str) -> tuple[bool, str]:
    """Whether a one-spade contract was the dealer's original declaration: stated, or derived where the code's
    dealer must declare (the one spade the dealer plays can only be his own first call; another's cannot be)."""
    flag = result.get("original_one_spade")
    one_spade = contract.level == 1 and contract.strain is Strain.S
    if flag is not None and not isinstance(flag, bool):
        raise InputError(f"{where}original_one_spade", f"expected true or false, got {_show(flag)}")
    if flag and not one_spade:
        raise InputError(f"{where}original_one_spade", f"the contract is {contract.text}, not one spade")
    if not one_spade or rules.spade_limit is None or rules.spade_limit_any:
        return bool(flag), ""
    derived: bool | None = None
    if dealer is not None:
        if declarer is not dealer:
            derived = False
        elif rules.dealer_must_declare:
            derived = True
    if flag is None:
        if derived is None:
            return False, (" (the limit on the dealer's original one spade is not applied: give dealer or "
                           "original_one_spade)")
        return derived, ""
    if derived is not None and derived != flag:
        why = (f"the declarer {declarer.value} is not the dealer {dealer.value}" if declarer is not dealer  # type: ignore[union-attr]
               else f"the dealer must declare under {rules.id}, so the one spade he plays was his first call")
        raise InputError(f"{where}original_one_spade", f"cannot be {str(flag).lower()}: {why}")
    return flag, ""
