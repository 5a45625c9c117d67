"""Score deals and rubbers under a code, every number from its ``parameters.yaml``.

A *result* (``schema/score.schema.json``) names the code, the declarer, the
contract, the tricks the declaring side won, and the honours — from a PBN
``deal`` or stated — plus revokes (with the penalty the innocent side chose)
and other penalty points. Revokes are scored through the referee: the code's
own revoke provisions say what each revoke costs. Each entry of the score
cites the law it rests on; ``parameters.yaml``'s ``cite:`` names the law of
each scoring rule, and a rule a code does not state is not scored.

A *rubber* is ``{code, deals: [result, ...], unfinished: bool}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, NamedTuple

from .errors import InputError, did_you_mean
from .loader import Code, load_code
from .values import Card, Seat, Side, Strain

__all__ = ["ScoreEntry", "Score", "Contract", "score", "settle", "parse_contract", "parse_deal", "honours_of"]


@dataclass(frozen=True)
class Contract:
    """``Contract('2HX')`` (auction) or ``Contract('H x4')`` (straight bridge: trump and multiplier)."""

    text: str
    level: int | None
    strain: Strain
    doubled: int  # auction: 0, 1 (X), 2 (XX); straight bridge: the multiplier 1, 2, 4, ...

    def __repr__(self) -> str:
        return f"Contract({self.text!r})"


class ScoreEntry(NamedTuple):
    """One line of a score: who, which column, how many points, why, and the law."""

    side: Side | Seat  # a partnership; in three-hand, a player
    column: str  # "trick" | "honour"
    points: int
    reason: str
    law: str

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side.value, "column": self.column, "points": self.points, "reason": self.reason,
                "law": self.law}


@dataclass(frozen=True)
class Score:
    code: str
    entries: tuple[ScoreEntry, ...]
    notes: tuple[str, ...] = ()
    games: tuple[Mapping[str, Any], ...] = ()
    rubber: Mapping[str, Any] | None = None
    deals: tuple["Score", ...] = field(default=(), repr=False)

    players: tuple[Seat, ...] = ()  # three-hand: the players, each scoring for himself
    settlement: Mapping[str, int] | None = None
    capped: tuple[Side, ...] = field(default=(), repr=False)  # revoking sides held below game (straight bridge)

    def total(self, side: Side | Seat, column: str | None = None) -> int:
        return sum(e.points for e in self.entries if e.side is side and (column is None or e.column == column))

    def totals(self) -> dict[str, dict[str, int]]:
        who: tuple[Side | Seat, ...] = self.players or (Side.NS, Side.EW)
        return {s.value: {"trick": self.total(s, "trick"), "honour": self.total(s, "honour"), "total": self.total(s)}
                for s in who}

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"code": self.code, "entries": [e.to_dict() for e in self.entries],
                             "totals": self.totals(), "notes": list(self.notes)}
        if self.games:
            d["games"] = [dict(g) for g in self.games]
        if self.rubber is not None:
            d["rubber"] = dict(self.rubber)
        if self.deals:
            d["deals"] = [x.to_dict() for x in self.deals]
        if self.settlement is not None:
            d["settlement"] = dict(self.settlement)
        return d


# --------------------------------------------------------------------------
# Input


_AUCTION_CONTRACT = re.compile(r"^([1-7])(C|D|H|S|R|NT|N)(XX|X)?$")
_STRAIGHT_CONTRACT = re.compile(r"^(C|D|H|S|NT|N)(?:\s*[xX*]\s*(\d+))?$")


def parse_contract(code: Code, text: Any, field_name: str = "contract") -> Contract:
    cache: dict[str, Contract] = code.__dict__.setdefault("_contracts", {})
    hit = cache.get(text) if isinstance(text, str) else None
    if hit is not None:
        return hit
    c = _parse_contract(code, text, field_name)
    if len(cache) < 2048:
        cache[text] = c
    return c


def _parse_contract(code: Code, text: Any, field_name: str) -> Contract:
    if not isinstance(text, str):
        raise InputError(field_name, f"expected a contract such as 2HX (auction) or 'H x4' (straight bridge), got {text!r}")
    t = text.strip().upper()
    values = code.params.get("trick_values") or {}
    if code.game == "auction":
        m = _AUCTION_CONTRACT.match(t)
        if not m:
            raise InputError(field_name, f"{text!r} is not a contract: expected a level 1-7, a strain C D H S R NT "
                             "and X or XX if doubled (e.g. 4S, 3NTX)")
        strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
        if strain not in values:
            raise InputError(field_name, f"{code.id} has no {strain} declaration (its strains: {', '.join(values)})")
        doubled = {None: 0, "X": 1, "XX": 2}[m.group(3)]
        return Contract(text, int(m.group(1)), Strain(strain), doubled)
    m = _STRAIGHT_CONTRACT.match(t)
    if not m:
        raise InputError(field_name, f"{text!r} is not a straight-bridge declaration: expected the trump C D H S or "
                         "NT and the doubling multiplier (e.g. 'H x4', 'NT')")
    strain = "NT" if m.group(1) in ("N", "NT") else m.group(1)
    mult = int(m.group(2) or 1)
    if mult < 1 or mult & (mult - 1):
        raise InputError(field_name, f"the multiplier must be 1, 2, 4, 8, ... (each double doubles), got {mult}")
    if strain not in values:
        raise InputError(field_name, f"{code.id} has no {strain} declaration (its strains: {', '.join(values)})")
    return Contract(text, None, Strain(strain), mult)


def parse_deal(text: Any, field_name: str = "deal") -> dict[Seat, tuple[Card, ...]]:
    """A PBN deal string: ``"N:AKQJ.T98.765.432 ..."`` — first seat, then four hands S.H.D.C clockwise."""
    if not isinstance(text, str) or ":" not in text:
        raise InputError(field_name, "expected a PBN deal such as 'N:AKQ2.KJ3.A54.QT9 ...' (first seat, then four "
                         "hands, each spades.hearts.diamonds.clubs)")
    first, _, rest = text.strip().partition(":")
    start = Seat.parse(first.strip(), field_name)
    hands = rest.split()
    if len(hands) != 4:
        raise InputError(field_name, f"expected four hands, got {len(hands)}")
    out: dict[Seat, tuple[Card, ...]] = {}
    seen: set[Card] = set()
    for i, hand in enumerate(hands):
        seat = start.after(i)
        suits = hand.split(".")
        if len(suits) != 4:
            raise InputError(field_name, f"{seat.value}'s hand {hand!r} must have four suits separated by dots")
        cards = []
        for suit, ranks in zip("SHDC", suits):
            for r in ranks.upper().replace("10", "T"):
                c = Card(suit + r, field_name)
                if c in seen:
                    raise InputError(field_name, f"{c.text} appears twice: a deal is 52 distinct cards")
                seen.add(c)
                cards.append(c)
        if len(cards) != 13:
            raise InputError(field_name, f"{seat.value} holds {len(cards)} cards; each hand has 13")
        out[seat] = tuple(cards)
    return out


# --------------------------------------------------------------------------
# Honours and chicane


_HONOUR_RANKS = ("A", "K", "Q", "J", "T")


def honours_of(deal: Mapping[Seat, tuple[Card, ...]], strain: Strain) -> tuple[Side, str] | None:
    """Which side holds honours and how: the key of the code's honours table, or None."""
    if strain is Strain.NT:
        holders = {s: sum(1 for c in cards if c.rank == "A") for s, cards in deal.items()}
        for side in (Side.NS, Side.EW):
            a, b = (holders[s] for s in side.seats)
            if max(a, b) == 4:
                return side, "four_aces_in_one_hand"
            if a + b == 4:
                return side, "four_aces_between_partners"
            if a + b == 3:
                return side, "three_aces_between_partners"
        return None
    suit = "S" if strain is Strain.R else strain.value
    holders = {s: sum(1 for c in cards if c.suit.value == suit and c.rank in _HONOUR_RANKS) for s, cards in deal.items()}
    for side in (Side.NS, Side.EW):
        a, b = (holders[s] for s in side.seats)
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


def _chicane(deal: Mapping[Seat, tuple[Card, ...]], strain: Strain) -> list[Seat]:
    if strain is Strain.NT:
        return []
    suit = "S" if strain is Strain.R else strain.value
    return [s for s, cards in deal.items() if not any(c.suit.value == suit for c in cards)]


# --------------------------------------------------------------------------
# Scoring one deal


class _Sheet:
    __slots__ = ("code", "entries", "rules", "notes", "cite")

    def __init__(self, code: Code) -> None:
        self.code = code
        self.entries: list[ScoreEntry] = []
        self.rules: list[str] = []  # the scoring rule of each entry, parallel to entries
        self.notes: list[str] = []
        cite = code.__dict__.get("_cite")
        if cite is None:
            raw = code.params.get("cite") or {}
            cite = code.__dict__["_cite"] = {k: str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        self.cite: Mapping[str, str] = cite

    def law(self, rule: str) -> str:
        law = self.cite.get(rule)
        if law is None:
            raise InputError("code", f"{self.code.id} states no law for {rule.replace('_', ' ')} "
                             f"(parameters.yaml has no cite.{rule})")
        return law

    def add(self, side: Side | Seat, column: str, points: int, reason: str, rule: str, law: str | None = None) -> None:
        if points:
            self.entries.append(ScoreEntry(side, column, int(points), reason, law or self.law(rule)))
            self.rules.append(rule)


def _req_int(result: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    v = result.get(name)
    if type(v) is not int or not lo <= v <= hi:
        raise InputError(name, f"expected a whole number {lo}-{hi}, got {v!r}")
    return v


_RESULT_KEYS = ("code", "dealer", "declarer", "contract", "tricks", "deal", "honours", "chicane", "revokes",
                "penalties", "original_one_spade", "dummy", "note", "new_deal")


_RESULT_KEY_SET = frozenset(_RESULT_KEYS)
_SEAT_OF = {s.value: s for s in Seat}
_SIDES = {"NS": Side.NS, "EW": Side.EW}


def score(result: Mapping[str, Any]) -> Score:
    """Score one deal, or a rubber (``deals: [...]``)."""
    if type(result) is not dict and not isinstance(result, Mapping):
        raise InputError("result", "expected a mapping with code, declarer, contract, tricks, ...")
    if "code" not in result:
        raise InputError("code", "is required")
    code = load_code(result["code"])
    if "deals" in result:
        if code.params.get("rubbers") is False:
            raise InputError("deals", f"{code.id} has neither games nor rubbers: score each deal by itself")
        if code.players == 3:
            return _score_three_hand_rubber(code, result)
        return _score_rubber(code, result)
    if result.get("new_deal") is not None:
        return _score_without_play(code, result)
    if code.players == 3:
        return _score_three_hand(code, result)
    return _score_deal(code, result)


_NO_PLAY_KEYS = ("code", "dealer", "dummy", "new_deal", "penalties", "note")


def _score_without_play(code: Code, result: Mapping[str, Any]) -> Score:
    """A deal that ends without play (a new deal demanded, or every player passed): only the penalties
    exacted before it ended score."""
    for k in result:
        if k not in _NO_PLAY_KEYS:
            raise InputError(str(k), f"a deal without play has no {k}; its fields are {', '.join(_NO_PLAY_KEYS)}")
    if result["new_deal"] is not True:
        raise InputError("new_deal", f"expected true (the deal ended without play), got {result['new_deal']!r}")
    sheet = _Sheet(code)
    three = code.players == 3
    _add_penalties(code, sheet, result, "", three)
    sheet.notes.append("the deal ended without play: only the penalties exacted in it score")
    if three:
        dummy, players = _players(code, result, "")
        return Score(code.id, tuple(sheet.entries), tuple(sheet.notes), players=players)
    return _new_score(code.id, tuple(sheet.entries), tuple(sheet.notes))


def _score_deal(code: Code, result: Mapping[str, Any], where: str = "", cap_revokers: bool = True) -> Score:
    if not _RESULT_KEY_SET.issuperset(result):
        k = next(k for k in result if k not in _RESULT_KEY_SET)
        raise InputError(f"{where}{k}", f"unknown field{did_you_mean(str(k), _RESULT_KEYS)}; fields are "
                         + ", ".join(_RESULT_KEYS))
    p = code.params
    sheet = _Sheet(code)
    if "declarer" not in result:
        raise InputError(f"{where}declarer", "is required (the player of the combined hands)")
    declarer = _SEAT_OF.get(result["declarer"]) if isinstance(result["declarer"], str) else None
    if declarer is None:
        declarer = Seat.parse(result["declarer"], f"{where}declarer")
    dside, oside = declarer.side, declarer.side.other
    contract = parse_contract(code, result.get("contract"), f"{where}contract")
    tricks = _req_int(result, "tricks", 0, 13)
    value = p["trick_values"][contract.strain._value_]
    book = p["book"]

    # revokes, through the code's own revoke provisions
    flags: dict[str, set[Side]] = _NO_FLAGS
    transferred = 0
    revokes = result.get("revokes")
    if revokes:
        flags = {"no_trick_score": set(), "honours_only": set()}
        if not isinstance(revokes, list):
            raise InputError(f"{where}revokes", "expected a list of {offender, choice}")
        by_side: dict[Side, int] = {}
        both = len({Seat.parse(r.get("offender"), f"{where}revokes[{i}].offender").side
                    for i, r in enumerate(revokes) if isinstance(r, Mapping)
                    and Seat.parse(r.get("offender"), f"{where}revokes[{i}].offender") is not declarer.partner}) == 2
        per_trick = value * (contract.doubled if code.game != "auction" else
                             1 if contract.doubled == 0 else
                             int(p["multiplier"]["doubled" if contract.doubled == 1 else "redoubled"]))
        limit = p.get("doubling_limit")
        if code.game != "auction" and isinstance(limit, int) and contract.doubled > 1 and per_trick > limit:
            per_trick = max(limit, value)
        for i, r in enumerate(revokes):
            transferred += _score_revoke(code, sheet, r, i, declarer, by_side, both, flags, where,
                                         result.get("dealer"), per_trick)
    _add_penalties(code, sheet, result, where, False)

    # `tricks` are those won in play; tricks taken for a revoke are added (they cannot exceed what the
    # other side holds) but count for no bonus or slam: "independently of any tricks taken for the revoke"
    own_tricks = tricks
    transferred = max(-tricks, min(transferred, 13 - tricks))
    tricks = tricks + transferred
    if code.game == "auction":
        _score_auction_tricks(code, sheet, result, contract, declarer, tricks, own_tricks, transferred, value, book,
                              flags, where)
    else:
        _score_straight_tricks(code, sheet, contract, dside, tricks, value, book, flags)

    # slams, by either side, without revoke tricks
    if own_tricks >= 12 or own_tricks <= 1:
        side, won = (dside, own_tricks) if own_tricks >= 12 else (oside, 13 - own_tricks)
        if won == 13 and "slam" in p:
            sheet.add(side, "honour", p["slam"], "grand slam: all thirteen tricks", "slam")
        elif won == 12 and "little_slam" in p:
            sheet.add(side, "honour", p["little_slam"], "little slam: twelve tricks", "little_slam")

    # honours and chicane, by the holders, at the undoubled trick value
    _score_honours(code, sheet, result, contract, value, where)

    # duplicate: a premium for 30 or more trick points in one deal
    if "deal_premium" in p:
        for side in (dside, oside):
            made = sum(e.points for e in sheet.entries if e.side is side and e.column == "trick")
            if made >= p["deal_premium_trick_points"]:
                sheet.add(side, "honour", p["deal_premium"], f"premium: {made} trick points in one deal",
                          "deal_premium")

    # a revoking side scores nothing but honours (and, under some codes, chicane)
    if flags["honours_only"]:
        entries = tuple(e for e, r in zip(sheet.entries, sheet.rules)
                        if e.side not in flags["honours_only"] or r in _HONOURS_RULES)
    else:
        entries = tuple(sheet.entries)
    capped: tuple[Side, ...] = ()
    cap = p.get("revoking_side_max_score")
    if revokes and isinstance(cap, int):
        # the revoking side: the dummy cannot revoke (law 63; 1904 law 65), so his renounce caps no one
        capped = tuple({Seat.parse(r["offender"], "offender").side for r in revokes
                        if Seat.parse(r["offender"], "offender") is not declarer.partner})
        if cap_revokers:
            # the revoking side cannot attain more than `cap` toward game in the hand (1904 law 90 V, 1905 law 89)
            entries = _cap(entries, capped, {x: 0 for x in capped}, int(cap), sheet.law("revoking_side_max_score"))
    return _new_score(code.id, entries, tuple(sheet.notes), capped)


def _add_penalties(code: Code, sheet: _Sheet, result: Mapping[str, Any], where: str, three: bool) -> None:
    """Enter the penalties a result carries (points other laws gave, each with its law): to a side, or in
    three-hand to a player, always in the honour column there."""
    pens = result.get("penalties") or ()
    if not isinstance(pens, (list, tuple)):
        raise InputError(f"{where}penalties", "expected a list of {side, points, law}")
    for i, pen in enumerate(pens):
        at = f"{where}penalties[{i}]"
        if three:
            if not isinstance(pen, Mapping) or not isinstance(pen.get("points"), int) or "law" not in pen \
                    or "side" not in pen:
                raise InputError(at, "expected {side: <player seat>, points: N, law: \"T5\"}")
            sheet.add(Seat.parse(pen["side"], f"{at}.side"), "honour", pen["points"],
                      str(pen.get("reason", "penalty")), "", str(pen["law"]))
            continue
        if not isinstance(pen, Mapping) or pen.get("side") not in ("NS", "EW") or \
                not isinstance(pen.get("points"), int) or "law" not in pen:
            raise InputError(at, "expected {side: NS|EW, points: N, law: \"54\"}")
        if code.law(str(pen["law"])) is None:
            raise InputError(f"{at}.law", f"{code.id} has no law {pen['law']!r}")
        sheet.add(Side(pen["side"]), str(pen.get("column", "honour")), pen["points"],
                  str(pen.get("reason", "penalty")), "", str(pen["law"]))


def _new_score(code_id: str, entries: tuple[ScoreEntry, ...], notes: tuple[str, ...],
               capped: tuple[Side, ...] = ()) -> Score:
    """A Score without the frozen dataclass's per-field __setattr__ (the hot path of scoring)."""
    obj = object.__new__(Score)
    obj.__dict__.update(code=code_id, entries=entries, notes=notes, games=(), rubber=None, deals=(), players=(),
                        settlement=None, capped=capped)
    return obj


def _cap(entries: tuple[ScoreEntry, ...], sides: tuple[Side, ...], below: Mapping[Side, int], cap: int,
         law: str) -> tuple[ScoreEntry, ...]:
    """Hold each side's trick points in the hand so that its score toward game stays at or under ``cap``."""
    out = list(entries)
    for side in sides:
        mine = [e for e in out if e.side is side and e.column == "trick" and e.points > 0]
        total = sum(e.points for e in mine)
        allowed = max(0, cap - below.get(side, 0))
        if total > allowed:
            out = [e for e in out if e not in mine]
            if allowed:
                out.append(ScoreEntry(side, "trick", allowed, f"(capped at {cap} toward game)", law))
    return tuple(out)


_NO_FLAGS: dict[str, set[Side]] = {"no_trick_score": frozenset(), "honours_only": frozenset()}  # type: ignore[dict-item]


# what a revoking side still scores: its honours (and chicane), and penalties the other side pays it
# (law 89: "the penalty of 100 points for each extra revoke is scored by the other side")
_HONOURS_RULES = frozenset({"honours", "no_trump_honours", "chicane", "revoke", ""})


def _score_revoke(code: Code, sheet: _Sheet, r: Any, i: int, declarer: Seat, by_side: dict[Side, int], both: bool,
                  flags: dict[str, set[Side]], where: str, result_dealer: Any = None,
                  per_trick: int | None = None, names: Mapping[str, str] | None = None) -> int:
    """Score one revoke into ``sheet`` through the code's revoke provisions; return the tricks moved to the
    declaring side (negative: away from it). ``names`` renames the sides in the notes (three-hand)."""
    from .referee import rule

    f = f"{where}revokes[{i}]"
    if not isinstance(r, Mapping) or "offender" not in r:
        raise InputError(f, "expected {offender: N, choice: tricks|points} (choice when the innocent side chooses)")
    offender = Seat.parse(r["offender"], f"{f}.offender")
    if offender is not declarer.partner:  # the dummy cannot revoke (law 63): his renounce counts for no side
        by_side[offender.side] = by_side.get(offender.side, 0) + 1
    count = max(1, by_side.get(offender.side, 0))
    dealer = {"dealer": Seat.parse(result_dealer, f"{where}dealer").value} if result_dealer else {}
    ruling = rule({"code": code.id, "irregularity": "revoke", "declarer": declarer.value, **dealer,
                   "offender": offender.value,
                   "facts": {"established": True, "revokes_by_side": count,
                             "both_sides_revoked": both, **_in_time(),
                             **({"trick_value": per_trick} if per_trick is not None and _has_fact("revoke",
                                                                                                  "trick_value")
                                else {})}})
    if ruling.questions:
        raise InputError(f, "the revoke cannot be scored without: " + "; ".join(q.ask for q in ruling.questions))
    effects = list(ruling.effects)
    if ruling.options:
        ids = [o.id for o in ruling.options]
        choice = r.get("choice")
        if choice not in ids:
            raise InputError(f"{f}.choice", f"the innocent side chooses one of {', '.join(ids)}; got {choice!r}")
        effects += list(next(o for o in ruling.options if o.id == choice).effects)
    moved = 0
    for e in effects:
        d = e.to_dict()
        law = next((c.number for c in ruling.laws), "")
        if d["kind"] == "score":
            sheet.add(Side(d["side"]), d["column"], d["points"], f"revoke by {offender.value}", "revoke", law)
        elif d["kind"] == "transfer_tricks":
            sign = 1 if Side(d["to"]) is declarer.side else -1
            moved += sign * d["count"]
            src, dst = (names.get(d["from"], d["from"]), names.get(d["to"], d["to"])) if names else (d["from"], d["to"])
            sheet.notes.append(f"{d['count']} tricks transferred from {src} to {dst} for the revoke "
                               f"(law {law}): " + ("they count toward the contract but earn no bonus or slam."
                                                   if code.game == "auction" else
                                                   "they count as tricks won, but earn no slam."))
        elif d["kind"] in ("no_trick_score", "honours_only"):
            flags[d["kind"]].add(Side(d["side"]))
    return moved


# a revoke scored with its deal was claimed in time, and its trick was turned and quitted (it is established)
_IN_TIME_FACTS = {"after_next_cut": False, "scores_recorded": False, "quitted": True}


def _in_time() -> dict[str, bool]:
    return {k: v for k, v in _IN_TIME_FACTS.items() if _has_fact("revoke", k)}


def _has_fact(kind: str, name: str) -> bool:
    from .loader import load_kinds

    return name in load_kinds()[1][kind].facts


def _score_auction_tricks(code: Code, sheet: _Sheet, result: Mapping[str, Any], contract: Contract, declarer: Seat,
                          tricks: int, own_tricks: int, transferred: int, value: int, book: int,
                          flags: dict[str, set[Side]], where: str) -> None:
    p = code.params
    dside, oside = declarer.side, declarer.side.other
    level = contract.level or 0
    needed = book + level
    dbl = {0: "undoubled", 1: "doubled", 2: "redoubled"}[contract.doubled]
    mult = 1 if contract.doubled == 0 else int(p["multiplier"][dbl])
    if tricks >= needed:
        odd = tricks - book
        if dside not in flags["no_trick_score"]:
            sheet.add(dside, "trick", odd * value * mult,
                      f"{odd} tricks at {value}" + (f" x{mult}" if mult > 1 else ""),
                      "trick_values" if mult == 1 else "multiplier")
        if contract.doubled and own_tricks >= needed and "doubled_bonus" in p:
            bonus = int(p["doubled_bonus"][dbl])
            extra = own_tricks - needed
            sheet.add(dside, "honour", bonus * (1 + extra),
                      f"{dbl} contract made" + (f" with {extra} extra trick(s)" if extra else ""), "doubled_bonus")
    else:
        short = needed - tricks
        per = int(p["undertrick"][dbl])
        points = short * per
        points, rule, note = _one_spade_limit(code, result, contract, points, where)
        sheet.add(oside, "honour", points, f"{short} under-trick(s) at {per}{note}", rule)


def _one_spade_limit(code: Code, result: Mapping[str, Any], contract: Contract, points: int,
                     where: str) -> tuple[int, str, str]:
    """Under-trick points after the code's one-spade limit: (points, scoring rule, a note for the reason)."""
    p = code.params
    if "one_spade_limit" in p and contract.level == 1 and contract.strain is Strain.S and \
            (p.get("one_spade_limit_applies_to") == "any" or _original_one_spade(code, result, contract, where)) \
            and not (contract.doubled == 2 and p.get("one_spade_limit_unless_redoubled", True)) \
            and points > int(p["one_spade_limit"]):
        limit = int(p["one_spade_limit"])
        return limit, "one_spade_limit", f" (limited to {limit} on the dealer's original one spade)"
    return points, "undertrick", ""


def _original_one_spade(code: Code, result: Mapping[str, Any], contract: Contract, where: str) -> bool:
    flag = result.get("original_one_spade", False)
    if not isinstance(flag, bool):
        raise InputError(f"{where}original_one_spade", f"expected true or false, got {flag!r}")
    if flag and not (contract.level == 1 and contract.strain is Strain.S):
        raise InputError(f"{where}original_one_spade", f"the contract is {contract.text}, not one spade")
    return flag


def _score_straight_tricks(code: Code, sheet: _Sheet, contract: Contract, dside: Side, tricks: int, value: int,
                           book: int, flags: dict[str, set[Side]]) -> None:
    p = code.params
    per = value * contract.doubled
    limit = p.get("doubling_limit")
    if isinstance(limit, int) and contract.doubled > 1 and per > limit:
        per = max(limit, value)
    for side, won in ((dside, tricks), (dside.other, 13 - tricks)):
        if won > book and side not in flags["no_trick_score"]:
            odd = won - book
            sheet.add(side, "trick", odd * per,
                      f"{odd} tricks at {per}" + (f" ({value} x{contract.doubled})" if contract.doubled > 1 else ""),
                      "trick_values" if contract.doubled == 1 else "multiplier")


def _score_honours(code: Code, sheet: _Sheet, result: Mapping[str, Any], contract: Contract, value: int,
                   where: str) -> None:
    p = code.params
    deal = result.get("deal")
    held: tuple[Side, str] | None
    chicane: list[Seat] = []
    if deal is not None:
        hands = parse_deal(deal, f"{where}deal")
        held = honours_of(hands, contract.strain)
        if "chicane" in p:
            chicane = _chicane(hands, contract.strain)
    else:
        h = result.get("honours")
        if h is None or h == "none":
            held = None
        elif (type(h) is dict or isinstance(h, Mapping)) and h.get("side") in _SIDES and isinstance(h.get("held"), str):
            held = (_SIDES[h["side"]], h["held"])
        else:
            raise InputError(f"{where}honours", "expected {side: NS|EW, held: four_in_one_hand|...} or 'none' "
                             "(or give the deal)")
        for i, s in enumerate(result.get("chicane") or []):
            chicane.append(Seat.parse(s, f"{where}chicane[{i}]"))
        if chicane and "chicane" not in p:
            raise InputError(f"{where}chicane", f"{code.id} has no chicane")
    if held is not None:
        side, key = held
        if contract.strain is Strain.NT:
            table = p["honours"]["no_trump"]
            if key not in table:
                raise InputError(f"{where}honours.held", f"expected one of {', '.join(table)}, got {key!r}")
            sheet.add(side, "honour", int(table[key]), f"honours: {key.replace('_', ' ')}",
                      "no_trump_honours" if "no_trump_honours" in sheet.cite else "honours")
        else:
            table = p["honours"]["trump"]
            if key not in table:
                raise InputError(f"{where}honours.held", f"expected one of {', '.join(table)}, got {key!r}")
            sheet.add(side, "honour", int(table[key]) * value,
                      f"honours: {key.replace('_', ' ')} ({table[key]} x {value})", "honours")
    if not chicane:
        return
    rule = p.get("chicane_rule", "add")
    for side in (Side.NS, Side.EW):
        void = [s for s in chicane if s.side is side]
        if not void:
            continue
        names = " and ".join(s.value for s in void)
        if rule == "add":  # English: each player void of trumps scores chicane for his side
            for seat in void:
                sheet.add(side, "honour", int(p["chicane"]) * value,
                          f"chicane: {seat.value} holds no trump ({p['chicane']} x {value})", "chicane")
        elif len(void) == 2 and "double_chicane" in p:  # American: double chicane comes off the adversaries' honours
            sheet.add(side.other, "honour", -int(p["double_chicane"]) * value,
                      f"double chicane: {names} hold no trump, deducted ({p['double_chicane']} x {value})", "chicane")
        elif held is not None and held[0] is side:  # American: added when the chicane side scores honours
            sheet.add(side, "honour", int(p["chicane"]) * value,
                      f"chicane: {names} holds no trump ({p['chicane']} x {value})", "chicane")
        else:  # ... deducted from the adversaries' honours when they score them
            sheet.add(side.other, "honour", -int(p["chicane"]) * value,
                      f"chicane: {names} holds no trump, deducted ({p['chicane']} x {value})", "chicane")


# --------------------------------------------------------------------------
# Rubbers


def _score_rubber(code: Code, rubber: Mapping[str, Any]) -> Score:
    deals = rubber.get("deals")
    if not isinstance(deals, list) or not deals:
        raise InputError("deals", "expected a list of deal results")
    for k in rubber:
        if k not in ("code", "deals", "unfinished", "note"):
            raise InputError(str(k), "unknown field; a rubber has code, deals, unfinished")
    p = code.params
    game_points = int(p["game_points"])
    to_win = int(p["rubber_games"])
    entries: list[ScoreEntry] = []
    notes: list[str] = []
    games: list[dict[str, Any]] = []
    won = {Side.NS: 0, Side.EW: 0}
    below = {Side.NS: 0, Side.EW: 0}
    scored: list[Score] = []
    winner = None
    game_deals: list[int] = []
    for i, d in enumerate(deals):
        if winner is not None:
            raise InputError(f"deals[{i}]", "the rubber was already won: this deal belongs to the next rubber")
        if not isinstance(d, Mapping):
            raise InputError(f"deals[{i}]", "expected a deal result")
        if d.get("new_deal") is not None:  # ended without play: its penalties only
            s = _score_without_play(code, {"code": code.id, **d})
        else:
            s = _score_deal(code, {"code": code.id, **d}, f"deals[{i}].")
        if s.capped:
            raw = _score_deal(code, {"code": code.id, **d}, f"deals[{i}].", cap_revokers=False)
            cap = int(p["revoking_side_max_score"])
            law = str((p.get("cite") or {}).get("revoking_side_max_score", ""))
            s = _new_score(code.id, _cap(raw.entries, s.capped, below, cap, law), s.notes, s.capped)
        scored.append(s)
        entries.extend(s.entries)
        game_deals.append(i + 1)
        for side in (Side.NS, Side.EW):
            below[side] += s.total(side, "trick")
        leader = max((Side.NS, Side.EW), key=lambda x: below[x])
        if below[leader] >= game_points:
            won[leader] += 1
            games.append({"winner": leader.value, "deals": game_deals, "trick_points":
                          {k.value: v for k, v in below.items()}})
            below = {Side.NS: 0, Side.EW: 0}
            game_deals = []
            if won[leader] == to_win:
                winner = leader
    cite = p.get("cite") or {}
    if winner is not None:
        entries.append(ScoreEntry(winner, "honour", int(p["rubber_bonus"]), "rubber", str(cite.get("rubber_bonus", ""))))
    elif rubber.get("unfinished"):
        if "unfinished_rubber_game" not in p:
            raise InputError("unfinished", f"{code.id} states no score for an unfinished rubber")
        for side in (Side.NS, Side.EW):
            if won[side] and won[side] > won[side.other]:
                entries.append(ScoreEntry(side, "honour", int(p["unfinished_rubber_game"]),
                                          "winners of a game in an unfinished rubber",
                                          str(cite.get("unfinished_rubber_game", ""))))
        notes.append("The rubber was stopped unfinished; the score is made up as it stands.")
    else:
        notes.append("The rubber is not finished.")
    totals = {s: sum(e.points for e in entries if e.side is s) for s in (Side.NS, Side.EW)}
    rub: dict[str, Any] = {"games": {k.value: v for k, v in won.items()},
                           "winner": winner.value if winner else None,
                           "totals": {k.value: v for k, v in totals.items()}}
    if winner is not None or rubber.get("unfinished"):
        hi = max(totals, key=lambda x: totals[x])
        rub["difference"] = abs(totals[Side.NS] - totals[Side.EW])
        rub["won_by"] = hi.value if totals[Side.NS] != totals[Side.EW] else None
    return Score(code.id, tuple(entries), tuple(notes), tuple(games), rub, tuple(scored))


# --------------------------------------------------------------------------
# Three-hand auction: each player for himself


def _players(code: Code, result: Mapping[str, Any], where: str) -> tuple[Seat, tuple[Seat, ...]]:
    if "dummy" not in result:
        raise InputError(f"{where}dummy", "is required in three-hand: the seat of the dummy hand (no player sits there)")
    dummy = Seat.parse(result["dummy"], f"{where}dummy")
    return dummy, tuple(s for s in Seat if s is not dummy)


def _score_three_hand(code: Code, result: Mapping[str, Any], where: str = "") -> Score:
    for k in result:
        if k not in _RESULT_KEY_SET:
            raise InputError(f"{where}{k}", f"unknown field{did_you_mean(str(k), _RESULT_KEYS)}")
    if result.get("chicane"):
        raise InputError(f"{where}chicane", "the Laws of Three Hand Auction score no chicane (T13 scores honours "
                         "by each player); give any points agreed as penalties")
    p = code.params
    sheet = _Sheet(code)
    dummy, players = _players(code, result, where)
    if "declarer" not in result:
        raise InputError(f"{where}declarer", "is required (the player who plays his hand and the dummy)")
    declarer = Seat.parse(result["declarer"], f"{where}declarer")
    if declarer is dummy:
        raise InputError(f"{where}declarer", "the dummy cannot be the declarer")
    adversaries = tuple(s for s in players if s is not declarer)
    contract = parse_contract(code, result.get("contract"), f"{where}contract")
    tricks = _req_int(result, "tricks", 0, 13)
    value = p["trick_values"][contract.strain.value]
    book = p["book"]
    level = contract.level or 0
    dbl = {0: "undoubled", 1: "doubled", 2: "redoubled"}[contract.doubled]
    mult = 1 if contract.doubled == 0 else int(p["multiplier"][dbl])

    # revokes, through the code's own revoke provisions (T7: the two adversaries are partners for the hand)
    moved, no_tricks, honours_only = _three_hand_revokes(code, sheet, result, declarer, dummy, adversaries,
                                                         value * mult, where)
    own_tricks = tricks  # won in play: they alone earn the doubling bonus and slams (law 84 (b))
    tricks += max(-tricks, min(moved, 13 - tricks))

    # T12: a fulfilled contract scores as in Auction; a failed one scores for both adversaries as in Auction
    if tricks >= book + level:
        odd = tricks - book
        if declarer not in no_tricks:
            sheet.add(declarer, "trick", odd * value * mult,
                      f"{odd} tricks at {value}" + (f" x{mult}" if mult > 1 else ""),
                      "trick_values" if mult == 1 else "multiplier")
        if contract.doubled and own_tricks >= book + level:
            extra = own_tricks - book - level
            sheet.add(declarer, "honour", int(p["doubled_bonus"][dbl]) * (1 + extra), f"{dbl} contract made",
                      "doubled_bonus")
    else:
        short = book + level - tricks
        points, rule, note = _one_spade_limit(code, result, contract, short * int(p["undertrick"][dbl]), where)
        why = f"{short} under-trick(s){note}"
        for adv in adversaries:
            sheet.add(adv, "honour", points, why, rule)
    if own_tricks == 13:
        sheet.add(declarer, "honour", p["slam"], "grand slam", "slam")
    elif own_tricks == 12:
        sheet.add(declarer, "honour", p["little_slam"], "little slam", "little_slam")
    elif own_tricks <= 1:  # T7: the two adversaries are partners for the hand (law 7, 8: partners' slams)
        for adv in adversaries:
            if own_tricks == 0:
                sheet.add(adv, "honour", p["slam"], "grand slam", "slam")
            else:
                sheet.add(adv, "honour", p["little_slam"], "little slam", "little_slam")
    # T13: honours by each player separately; the declarer counts his own and the dummy's
    counts = _three_hand_honours(result, contract, dummy, declarer, players, where)
    table = p["honours"]["by_player"]
    for seat in players:
        n = counts.get(seat, (0, 0))
        total, best = n
        if contract.strain is Strain.NT:
            pts = total * int(table["no_trump"]["each_ace"])
            if best == 4:
                pts = int(table["no_trump"]["four_aces_in_one_hand"])
            sheet.add(seat, "honour", pts, f"honours: {total} ace(s)", "honours_by_player")
        else:
            words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
            pts = 0
            for hand_count in _split(seat, declarer, n):
                if hand_count:
                    pts += int(table["trump"][words[hand_count]]) * value
            sheet.add(seat, "honour", pts, f"honours: {total} held", "honours_by_player")
    _add_penalties(code, sheet, result, where, True)
    # "The value of their honours is the only score that can be made by a revoking side" (law 84)
    entries = tuple(e for e, r in zip(sheet.entries, sheet.rules)
                    if e.side not in honours_only or r in _THREE_HAND_HONOURS_RULES)
    return Score(code.id, entries, tuple(sheet.notes), players=players)


_THREE_HAND_HONOURS_RULES = _HONOURS_RULES | {"honours_by_player"}


def _three_hand_revokes(code: Code, sheet: _Sheet, result: Mapping[str, Any], declarer: Seat, dummy: Seat,
                        adversaries: tuple[Seat, ...], per_trick: int,
                        where: str) -> tuple[int, set[Seat], set[Seat]]:
    """Score three-hand revokes through the code's (four-hand) revoke provisions, seen from a four-hand table.

    The declarer keeps his seat; the dummy's hand is his partner's seat; either adversary is the declarer's
    left-hand opponent (T7: the two adversaries are partners for the hand). A score the provisions give the
    declaring side goes to the declarer; one they give the adversaries goes to each adversary, as T12 gives
    each the under-tricks. Returns (tricks moved to the declarer, players who score no trick points,
    players who score only honours and revoke penalties).
    """
    revokes = result.get("revokes")
    no_tricks: set[Seat] = set()
    honours_only: set[Seat] = set()
    if not revokes:
        return 0, no_tricks, honours_only
    if not isinstance(revokes, list):
        raise InputError(f"{where}revokes", "expected a list of {offender, choice}")
    dside = declarer.side
    proxies: list[Seat] = []
    for i, r in enumerate(revokes):
        f = f"{where}revokes[{i}]"
        if not isinstance(r, Mapping) or "offender" not in r:
            raise InputError(f, "expected {offender: <seat>, choice: tricks|points} (choice when the declarer "
                             "chooses)")
        offender = Seat.parse(r["offender"], f"{f}.offender")
        # the dummy's hand (played by the declarer) is run as the dummy: the code says whether it can revoke
        proxies.append(declarer if offender is declarer else declarer.partner if offender is dummy
                       else declarer.lho)
    both = any(x is declarer for x in proxies) and any(x is declarer.lho for x in proxies)
    names = {dside.value: declarer.value, dside.other.value: " and ".join(a.value for a in adversaries)}
    moved = 0
    by_side: dict[Side, int] = {}
    for i, (r, proxy) in enumerate(zip(revokes, proxies)):
        real = Seat.parse(r["offender"])
        tmp = _Sheet(code)
        flags: dict[str, set[Side]] = {"no_trick_score": set(), "honours_only": set()}
        # a renounce from the dummy's hand is no revoke of the declaring side's (law 83) and is not counted
        count = {} if proxy is declarer.partner else by_side
        got = _score_revoke(code, tmp, {**r, "offender": proxy.value}, i, declarer, count, both, flags, where,
                            None, per_trick, names)
        moved += got
        if not (got or tmp.entries or flags["no_trick_score"] or flags["honours_only"]):
            sheet.notes.append(f"revoke by {real.value}" + (" (the dummy's hand)" if real is dummy else "")
                               + ": the code's revoke provisions give it no score.")
        for e in tmp.entries:
            for seat in ((declarer,) if e.side is dside else adversaries):
                sheet.add(seat, e.column, e.points, f"revoke by {real.value}", "revoke", e.law)
        sheet.notes.extend(tmp.notes)
        for kind, into in (("no_trick_score", no_tricks), ("honours_only", honours_only)):
            for side in flags[kind]:
                into.update((declarer,) if side is dside else adversaries)
    return moved, no_tricks, honours_only


def _split(seat: Seat, declarer: Seat, n: tuple[int, int]) -> list[int]:
    """The declarer's honours are counted hand by hand (his own and the dummy's), others' as held."""
    total, best = n
    if seat is declarer:
        return [best, total - best]
    return [total]


def _three_hand_honours(result: Mapping[str, Any], contract: Contract, dummy: Seat, declarer: Seat,
                        players: tuple[Seat, ...], where: str) -> dict[Seat, tuple[int, int]]:
    """(honours counted for the player, most in one hand) for each player."""
    deal = result.get("deal")
    if deal is not None:
        hands = parse_deal(deal, f"{where}deal")
        suit = None if contract.strain is Strain.NT else ("S" if contract.strain is Strain.R else contract.strain.value)

        def count(s: Seat) -> int:
            if suit is None:
                return sum(1 for c in hands[s] if c.rank == "A")
            return sum(1 for c in hands[s] if c.suit.value == suit and c.rank in _HONOUR_RANKS)

        out = {s: (count(s), count(s)) for s in players}
        own, dm = count(declarer), count(dummy)
        out[declarer] = (own + dm, max(own, dm))
        return out
    h = result.get("honours")
    if h is None or h == "none":
        return {}
    if not isinstance(h, Mapping):
        raise InputError(f"{where}honours", "three-hand: expected {<seat>: count, ...} per player (the declarer's "
                         "count includes the dummy's; give the deal to split them), or 'none'")
    out = {}
    for k, v in h.items():
        seat = Seat.parse(k, f"{where}honours")
        if type(v) is not int or not 0 <= v <= 5:
            raise InputError(f"{where}honours.{k}", f"expected a count 0-5, got {v!r}")
        out[seat] = (v, v)
    return out


def settle(totals: Mapping[str, int]) -> dict[str, int]:
    """T15: each player wins from or loses to each other the difference between their totals.

    Returns each pair's balance (``"A-B": -740`` — A pays B 740) and each player's net (``"A": -955``).
    """
    names = list(totals)
    out: dict[str, int] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            out[f"{a}-{b}"] = totals[a] - totals[b]
    for a in names:
        out[a] = sum(totals[a] - totals[b] for b in names if b != a)
    return out


def _score_three_hand_rubber(code: Code, rubber: Mapping[str, Any]) -> Score:
    deals = rubber.get("deals")
    if not isinstance(deals, list) or not deals:
        raise InputError("deals", "expected a list of deal results")
    p = code.params
    game_points = int(p["game_points"])
    entries: list[ScoreEntry] = []
    scored = []
    won: dict[Seat, int] = {}
    below: dict[Seat, int] = {}
    winner = None
    players: tuple[Seat, ...] = ()
    cite = p.get("cite") or {}
    for i, d in enumerate(deals):
        if winner is not None:
            raise InputError(f"deals[{i}]", "the rubber was already won: this deal belongs to the next rubber")
        if isinstance(d, Mapping) and d.get("new_deal") is not None:
            s = _score_without_play(code, {"code": code.id, **d})
        else:
            s = _score_three_hand(code, {"code": code.id, **d}, f"deals[{i}].")
        players = s.players
        scored.append(s)
        entries.extend(s.entries)
        for e in s.entries:
            if e.column == "trick":
                assert isinstance(e.side, Seat)
                below[e.side] = below.get(e.side, 0) + e.points
        for seat, pts in list(below.items()):
            if pts >= game_points:
                won[seat] = won.get(seat, 0) + 1
                entries.append(ScoreEntry(seat, "honour", int(p["game_bonus"]), "game", str(cite.get("game_bonus", "T14"))))
                below = {}
                if won[seat] == int(p["rubber_games"]):
                    winner = seat
                    entries.append(ScoreEntry(seat, "honour", int(p["rubber_bonus"]), "rubber",
                                              str(cite.get("rubber_bonus", "T14"))))
                break
    totals = {s: sum(e.points for e in entries if e.side is s) for s in players}
    settlement = settle({k.value: v for k, v in totals.items()})
    rub = {"games": {k.value: v for k, v in won.items()}, "winner": winner.value if winner else None,
           "totals": {k.value: v for k, v in totals.items()}}
    notes = () if winner else ("The rubber is not finished.",)
    return Score(code.id, tuple(entries), notes, (), rub, tuple(scored), players=players, settlement=settlement)
