"""Rubbers: one scorer for partnerships and for three-hand players (the hook says who keeps a score).

Each deal's trick points count toward game; a game won resets them; the first to win the code's number of games
wins the rubber and its bonus. Three-hand adds the bonus for each game (T14) and the settlement between each pair
of players (T15). An unfinished rubber scores, where the code says so, for each side or player who has won a game
(1913 law 11: "125 being added to the score of the winners of a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..values import Seat, Side
from .core import Partnerships, variant_of
from .fast import plain_rows
from .model import Deals, Row, Score, score_of
from .plan import plan_of
from .rules import Rules
from .sheet import _text, check_keys

__all__ = ["score_rubber", "settle"]

_RUBBER_KEYS = ("code", "deals", "unfinished", "note")
_RUBBER_KEY_SET = frozenset(_RUBBER_KEYS)
_PARTNERSHIPS = (Side.NS, Side.EW)  # who keeps a score in four-hand ...
_PARTNERSHIP_NAMES = ("NS", "EW")  # ... as rows name them
_MAX_DEALS = 200


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


def score_rubber(rules: Rules, rubber: Mapping[str, Any], fast: bool = True) -> Score:
    """A rubber's deals, games and result (``fast``: a plain deal is read by :func:`.fast.plain_rows`, and its
    Score made when the rubber's deals are read)."""
    if not _RUBBER_KEY_SET.issuperset(rubber) or None in rubber.values():
        check_keys(rubber, _RUBBER_KEYS, "", "a rubber has")  # (it says which key is wrong)
    deals = rubber.get("deals")
    if not isinstance(deals, list) or not deals:
        raise InputError("deals", "expected a list of deal results")
    if len(deals) > _MAX_DEALS:
        raise InputError("deals", f"at most {_MAX_DEALS} deals in a rubber, got {len(deals)}")
    unfinished = rubber.get("unfinished", False)
    if not isinstance(unfinished, bool):
        raise InputError("unfinished", f"expected true or false, got {unfinished!r}")
    if "note" in rubber:
        _text(rubber["note"], "note")
    who = variant_of(rules)
    if not who.three:
        _check_rotation(deals)
    plan = plan_of(rules)
    rows: list[Row] = []
    notes: list[str] = []
    games: list[dict[str, Any]] = []
    kept: tuple[Any, ...] = () if who.three else _PARTNERSHIPS  # who keeps a score
    names: tuple[str, ...] = () if who.three else _PARTNERSHIP_NAMES  # ... as rows name them
    won: dict[str, int] = dict.fromkeys(names, 0)
    below: dict[str, int] = dict.fromkeys(names, 0)  # each one's trick points toward the game
    totals: dict[str, int] = dict.fromkeys(names, 0)  # and in the rubber
    scored: list[Any] = []  # each deal's Score, or a plain deal's rows and notes
    winner = None
    game_from = 1  # the number of the first deal of the game in play
    dummy = None
    game_points = rules.game_points
    plain = fast and plan.four_hand
    code_id = rules.id
    for n, d in enumerate(deals, 1):  # n: the deal's number in the rubber
        if winner is not None:
            raise InputError(f"deals[{n - 1}]", "the rubber was already won: this deal belongs to the next rubber")
        if type(d) is not dict and not isinstance(d, Mapping):
            raise InputError(f"deals[{n - 1}]", "expected a deal result")
        if "code" in d and d["code"] != code_id:
            raise InputError(f"deals[{n - 1}].code", f"the rubber is scored under {code_id}; a deal cannot name "
                             "another code")
        got = plain_rows(plan, d) if plain and type(d) is dict else None
        if got is None:
            from . import score_one  # the one-deal scorer (a deal played, or one ended without play)

            if rules.three:
                if dummy is not None and d.get("dummy") != dummy:
                    raise InputError(f"deals[{n - 1}].dummy", f"the players keep their seats through a rubber: the "
                                     f"dummy packet is {dummy} in deals[0]")
                dummy = d.get("dummy")
            s = score_one(rules, {**d, "code": code_id}, f"deals[{n - 1}].", capped_below=below)
            if not kept:  # three-hand: the players are those of the first deal
                kept = s.players
                names = tuple(k._value_ for k in kept)
                won = dict.fromkeys(names, 0)
                below = dict.fromkeys(names, 0)
                totals = dict.fromkeys(names, 0)
            scored.append(s)
            deal_rows = s._rows
        else:
            scored.append(got)  # (its Score made when the rubber's deals are read)
            deal_rows = got[0]
        rows += deal_rows
        reached = False
        for e in deal_rows:
            who_ = e[0]
            if who_ in totals:
                totals[who_] += e[2]
                if e[1] == "trick":
                    below[who_] += e[2]
                    reached = reached or below[who_] >= game_points
        if not reached and game_points > 0:
            continue  # no one reached game on this deal (a score toward game at game would have won it before)
        leader = max(names, key=below.__getitem__) if len(names) != 2 else \
            names[0] if below[names[0]] >= below[names[1]] else names[1]  # (max's: the first of equals)
        if below[leader] >= game_points:
            won[leader] += 1
            if not who.three:
                games.append({"winner": leader, "deals": list(range(game_from, n + 1)), "trick_points": below})
            if rules.game_bonus is not None:
                rows.append((leader, "honour", rules.game_bonus[0], "game", rules.game_bonus[1], ""))
                totals[leader] += rules.game_bonus[0]
            below = dict.fromkeys(names, 0)
            game_from = n + 1
            if won[leader] == rules.rubber_games:
                winner = leader
                if rules.rubber_bonus is not None:
                    rows.append((winner, "honour", rules.rubber_bonus[0], "rubber", rules.rubber_bonus[1], ""))
                    totals[winner] += rules.rubber_bonus[0]
    if winner is not None and unfinished:  # else the sheet says two things, and the score would take one
        raise InputError("unfinished", f"true, but the rubber was won: {winner} won {won[winner]} games by deal "
                         f"{game_from - 1}; a rubber won is finished: leave unfinished out")
    if winner is None and unfinished:
        if rules.unfinished_rubber_game is None:
            raise InputError("unfinished", f"{rules.id} states no score for an unfinished rubber")
        for k in names:  # "125 being added to the score of the winners of a game": each who has won one (one game
            if won[k]:     # all, both sides add it, and the rubber's difference is the same as if neither did)
                rows.append((k, "honour", rules.unfinished_rubber_game[0], "winners of a game in an unfinished rubber",
                             rules.unfinished_rubber_game[1], ""))
                totals[k] += rules.unfinished_rubber_game[0]
        notes.append("The rubber was stopped unfinished; the score is made up as it stands.")
    elif winner is None:
        notes.append("The rubber is not finished.")
    return _rubber_score(rules, who, kept, rows, notes, games, won, winner, totals, scored, unfinished)


def _check_rotation(deals: list[Any]) -> None:
    """Four-handed, the dealers a rubber's deals give are in rotation: the deal passes to the left, and after a
    deal ended without play (``new_deal``) the same dealer may deal again or the next (which, the law of the
    irregularity says). A deal that gives no dealer leaves the next one any seat the rotation allows.
    (A dealer that is no seat is left to the deal's own sheet to name.)"""
    may: set[Seat] | None = None  # the seats the next deal's dealer may be (None: any)
    since = ""  # what ``may`` follows from, for the message
    for n, d in enumerate(deals):
        if not isinstance(d, Mapping):
            return
        dealer = Seat._value2member_map_.get(d["dealer"]) if type(d.get("dealer")) is str else None
        if dealer is not None:
            if may is not None and dealer not in may:
                raise InputError(f"deals[{n}].dealer", f"{dealer.value} is out of rotation: the deal passes to the "
                                 f"left, so {since} the dealer is {' or '.join(sorted(s.value for s in may))}")
            may = {dealer}
            since = f"after deals[{n}] dealt by {dealer.value}"
        elif may is not None:
            since = f"{since} and deals[{n}] (no dealer given)"
        if may is not None:
            again = may if d.get("new_deal") is True else set()
            may = {s.lho for s in may} | again
            if len(may) == 4:
                may = None
    return


def _rubber_score(rules: Rules, who: Partnerships, kept: tuple[Any, ...], rows: list[Row],
                  notes: list[str], games: list[dict[str, Any]], won: dict[str, int], winner: str | None,
                  totals: dict[str, int], scored: list[Any], unfinished: bool) -> Score:
    rub: dict[str, Any] = {"games": {k: v for k, v in won.items() if v} if who.three else won, "winner": winner,
                           "totals": totals}
    more: dict[str, Any] = {"rubber": rub, "deals": Deals(scored)}
    if notes:
        more["notes"] = tuple(notes)
    if who.three:
        more["players"] = tuple(k for k in kept if isinstance(k, Seat))
        more["settlement"] = settle(dict(totals))
    else:
        if games:
            more["games"] = tuple(games)
        if winner is not None or unfinished:
            ns, ew = totals["NS"], totals["EW"]
            rub["difference"] = abs(ns - ew)
            rub["won_by"] = ("NS" if ns > ew else "EW") if ns != ew else None
    return score_of(rules.id, tuple(rows), more)
