"""A code's scoring numbers, bound once per code from its parameters, each with its law.

:func:`rules_of` reads ``code.params`` (the typed parameters, :mod:`bridgelaw.parameters`) once and keeps what the
scorer needs as plain attributes, so scoring a deal does no dictionary or citation look-ups. A number the code
states none of is ``None`` here, and the rule it belongs to is not scored.

:func:`trick_value` is the one function, shared by the scorer and the table, that says what an odd trick is worth
as the contract stands doubled — in straight bridge held at the code's doubling limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..loader import Code

__all__ = ["Cite", "Rules", "rules_of", "trick_value", "can_double", "one_spade_limit_applies"]

Cite = tuple[int, str]  # (points, law)
DOUBLINGS = ("undoubled", "doubled", "redoubled")


@dataclass(frozen=True)
class Rules:
    code: Code
    id: str
    auction: bool
    three: bool
    book: int
    values: dict[str, int]  # trick value by strain ("S", "R", "NT", ...)
    value_law: str
    mult: tuple[int, ...]  # auction: by doubling (1, doubled, redoubled); straight bridge: (1, 2)
    mult_law: str
    undertrick: tuple[Cite, ...] | None  # by doubling
    doubled_bonus: tuple[Cite, ...] | None  # (0, doubled, redoubled)
    slam: Cite | None
    little_slam: Cite | None
    honours_trump: dict[str, Cite]
    honours_no_trump: dict[str, Cite]
    by_player_trump: dict[str, Cite]  # three-hand: by the number one player holds ("one" ... "five")
    by_player_no_trump: dict[str, Cite]
    chicane: Cite | None
    chicane_rule: str
    double_chicane: Cite | None
    spade_limit: Cite | None
    spade_limit_any: bool
    spade_limit_unless_redoubled: bool
    dealer_must_declare: bool
    doubling_limit: int | None
    revoking_cap: Cite | None
    revoking_no_slam: str | None  # the law that bars a revoking side from slam in the hand (None: none does)
    revoking_keeps: frozenset[str]  # the kinds of row a side that revoked may still score (revoking_side_scores)
    premium: Cite | None
    premium_trick_points: int
    rubbers: bool
    rubber_games: int
    game_points: int
    rubber_bonus: Cite | None
    unfinished_rubber_game: Cite | None
    game_bonus: Cite | None

    def trick_value(self, strain: str, doubled: int) -> int:
        """What one odd trick is worth as doubled: auction ``doubled`` 0, 1, 2 (X, XX); straight bridge the
        multiplier, held at the doubling limit (a trick already above it keeps its undoubled value)."""
        value = self.values[strain]
        if self.auction:
            return value * self.mult[doubled]
        per = value * doubled
        limit = self.doubling_limit
        if limit is not None and doubled > 1 and per > limit:
            return max(limit, value)
        return per

    def can_double(self, strain: str, doubled: int) -> bool:
        """Straight bridge: whether the doubling may go on (the trick is still below the code's limit)."""
        return self.doubling_limit is None or self.values[strain] * doubled < self.doubling_limit


def _cite(p: Any, path: str) -> Cite | None:
    c = p.entry(path)
    return (int(c.value), c.law) if c is not None else None


def _law_if_set(p: Any, path: str) -> str | None:
    """The law of a flag the code sets (None where it states none, or sets it false)."""
    c = p.entry(path)
    return c.law if c is not None and c.value else None


def _table(p: Any, path: str) -> dict[str, Cite]:
    return {c.path.rsplit(".", 1)[1]: (int(c.value), c.law) for c in p.flat() if c.path.startswith(path + ".")}


# what each entry of ``revoking_side_scores`` keeps: the kind of row the scorer writes for it
_REVOKERS_ROWS = {"honours": "honours", "chicane": "chicane", "penalties": "penalty", "revoke_penalties": "revoke"}


def _revoking_keeps(p: Any) -> frozenset[str]:
    return frozenset(row for entry, row in _REVOKERS_ROWS.items() if p.get("revoking_side_scores", {}).get(entry))


def rules_of(code: Code) -> Rules:
    """The code's scoring rules, bound once (kept on the code object)."""
    hit = code.__dict__.get("_scoring_rules")
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    p = code.params
    auction = code.game == "auction"
    tv = _table(p, "trick_values")
    mult = _table(p, "multiplier")
    under = _table(p, "undertrick")
    bonus = _table(p, "doubled_bonus")
    value_law = next(iter(tv.values()))[1]
    mult_law = next(iter(mult.values()))[1] if mult else value_law
    r = Rules(
        code=code, id=code.id, auction=auction, three=code.players == 3, book=int(p["book"]),
        values={k: v for k, (v, _) in tv.items()}, value_law=value_law,
        mult=(1,) + tuple(mult[k][0] for k in DOUBLINGS[1:] if k in mult), mult_law=mult_law,
        undertrick=tuple(under[k] for k in DOUBLINGS) if under else None,
        doubled_bonus=((0, ""),) + tuple(bonus[k] for k in DOUBLINGS[1:]) if bonus else None,
        slam=_cite(p, "slam"), little_slam=_cite(p, "little_slam"),
        honours_trump=_table(p, "honours.trump"), honours_no_trump=_table(p, "honours.no_trump"),
        by_player_trump=_table(p, "honours.by_player.trump"), by_player_no_trump=_table(p, "honours.by_player.no_trump"),
        chicane=_cite(p, "chicane"), chicane_rule=str(p.get("chicane_rule", "")),
        double_chicane=_cite(p, "double_chicane"),
        spade_limit=_cite(p, "one_spade_limit"),
        spade_limit_any=p.get("one_spade_limit_applies_to") == "any",
        spade_limit_unless_redoubled=bool(p.get("one_spade_limit_unless_redoubled")),
        dealer_must_declare=bool(p.get("dealer_must_declare")),
        doubling_limit=p.get("doubling_limit"),
        revoking_cap=_cite(p, "revoking_side_max_score"),
        revoking_no_slam=_law_if_set(p, "revoking_side_barred_from_slam"),
        revoking_keeps=_revoking_keeps(p),
        premium=_cite(p, "deal_premium"), premium_trick_points=int(p.get("deal_premium_trick_points", 0)),
        rubbers=bool(p["rubbers"]), rubber_games=int(p["rubber_games"]), game_points=int(p["game_points"]),
        rubber_bonus=_cite(p, "rubber_bonus"), unfinished_rubber_game=_cite(p, "unfinished_rubber_game"),
        game_bonus=_cite(p, "game_bonus"),
    )
    object.__setattr__(code, "_scoring_rules", r)
    return r


def trick_value(code: Code, strain: str, doubled: int) -> int:
    """What one odd trick is worth under ``code`` as the contract stands doubled (auction: ``doubled`` 0, 1, 2;
    straight bridge: the multiplier 1, 2, 4, ..., held at the code's doubling limit). The table and the scorer
    both count with it."""
    return rules_of(code).trick_value(strain, doubled)


def can_double(code: Code, strain: str, doubled: int) -> bool:
    """Straight bridge: whether a declaration in ``strain`` at multiplier ``doubled`` may be doubled again."""
    return rules_of(code).can_double(strain, doubled)


def one_spade_limit_applies(rules: Rules, level: int | None, strain: str, doubled: int, original: bool) -> bool:
    """Whether the code's limit on the loss on one spade covers this contract: one spade, the dealer's original
    declaration where the code says so, and not redoubled where a redouble lifts it."""
    return (rules.spade_limit is not None and level == 1 and strain == "S"
            and (rules.spade_limit_any or original)
            and not (doubled == 2 and rules.spade_limit_unless_redoubled))
