"""Rubbers: one scorer for partnerships and for three-hand players (the hook says who keeps a score).

Each deal's trick points count toward game; a game won resets them; the first to win the code's number of games
wins the rubber and its bonus. Three-hand adds the bonus for each game (T14) and the settlement between each pair
of players (T15). An unfinished rubber scores, where the code says so, for whoever has won a game and more games
than each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..values import Seat, Side
from .core import Partnerships, cap_entries, variant_of
from .model import Score, ScoreEntry
from .rules import Rules
from .sheet import check_keys

__all__ = ["score_rubber", "settle"]

_RUBBER_KEYS = ("code", "deals", "unfinished", "note")
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


def score_rubber(rules: Rules, rubber: Mapping[str, Any]) -> Score:
    from . import score_one  # the one-deal scorer (a deal played, or one ended without play)

    check_keys(rubber, _RUBBER_KEYS, "", "a rubber has")
    deals = rubber.get("deals")
    if not isinstance(deals, list) or not deals:
        raise InputError("deals", "expected a list of deal results")
    if len(deals) > _MAX_DEALS:
        raise InputError("deals", f"at most {_MAX_DEALS} deals in a rubber, got {len(deals)}")
    unfinished = rubber.get("unfinished", False)
    if not isinstance(unfinished, bool):
        raise InputError("unfinished", f"expected true or false, got {unfinished!r}")
    if "note" in rubber and not isinstance(rubber["note"], str):
        raise InputError("note", "expected a text")
    who = variant_of(rules)
    entries: list[ScoreEntry] = []
    notes: list[str] = []
    games: list[dict[str, Any]] = []
    kept: tuple[Any, ...] | None = None
    won: dict[Any, int] = {}
    below: dict[Any, int] = {}
    scored: list[Score] = []
    winner = None
    game_deals: list[int] = []
    dummy = None
    for i, d in enumerate(deals):
        where = f"deals[{i}]."
        if winner is not None:
            raise InputError(f"deals[{i}]", "the rubber was already won: this deal belongs to the next rubber")
        if not isinstance(d, Mapping):
            raise InputError(f"deals[{i}]", "expected a deal result")
        if d.get("code", rules.id) != rules.id:
            raise InputError(f"{where}code", f"the rubber is scored under {rules.id}; a deal cannot name another code")
        if rules.three and isinstance(d, Mapping):
            if dummy is not None and d.get("dummy") != dummy:
                raise InputError(f"{where}dummy", f"the players keep their seats through a rubber: the dummy packet "
                                 f"is {dummy} in deals[0]")
            dummy = d.get("dummy")
        s = score_one(rules, {**d, "code": rules.id}, where, capped_below=below)
        if kept is None:
            kept = s.players or (Side.NS, Side.EW)
            won = {k: 0 for k in kept}
            below = {k: 0 for k in kept}
        scored.append(s)
        entries.extend(s.entries)
        game_deals.append(i + 1)
        for e in s.entries:
            if e.column == "trick" and e.side in below:
                below[e.side] += e.points
        leader = max(kept, key=lambda x: below[x])
        if below[leader] >= rules.game_points:
            won[leader] += 1
            if not who.three:
                games.append({"winner": leader.value, "deals": game_deals,
                              "trick_points": {k.value: v for k, v in below.items()}})
            if rules.game_bonus is not None:
                entries.append(ScoreEntry(leader, "honour", rules.game_bonus[0], "game", rules.game_bonus[1]))
            below = {k: 0 for k in kept}
            game_deals = []
            if won[leader] == rules.rubber_games:
                winner = leader
                if rules.rubber_bonus is not None:
                    entries.append(ScoreEntry(winner, "honour", rules.rubber_bonus[0], "rubber", rules.rubber_bonus[1]))
    if kept is None:  # pragma: no cover - deals is not empty
        raise InputError("deals", "expected a list of deal results")
    if winner is None and unfinished:
        if rules.unfinished_rubber_game is None:
            raise InputError("unfinished", f"{rules.id} states no score for an unfinished rubber")
        for k in kept:
            if won[k] and all(won[k] > won[o] for o in kept if o is not k):
                entries.append(ScoreEntry(k, "honour", rules.unfinished_rubber_game[0],
                                          "winners of a game in an unfinished rubber", rules.unfinished_rubber_game[1]))
        notes.append("The rubber was stopped unfinished; the score is made up as it stands.")
    elif winner is None:
        notes.append("The rubber is not finished.")
    totals = {k: 0 for k in kept}
    for e in entries:
        if e.side in totals:
            totals[e.side] += e.points
    return _rubber_score(rules, who, kept, entries, notes, games, won, winner, totals, scored, unfinished)


def _rubber_score(rules: Rules, who: Partnerships, kept: tuple[Any, ...], entries: list[ScoreEntry],
                  notes: list[str], games: list[dict[str, Any]], won: dict[Any, int], winner: Any,
                  totals: dict[Any, int], scored: list[Score], unfinished: bool) -> Score:
    rub: dict[str, Any] = {"games": {k.value: v for k, v in won.items() if v or not who.three},
                           "winner": winner.value if winner is not None else None,
                           "totals": {k.value: v for k, v in totals.items()}}
    if who.three:
        players = tuple(k for k in kept if isinstance(k, Seat))
        return Score(rules.id, tuple(entries), tuple(notes), (), rub, tuple(scored), players=players,
                     settlement=settle({k.value: v for k, v in totals.items()}))
    if winner is not None or unfinished:
        ns, ew = totals[Side.NS], totals[Side.EW]
        rub["difference"] = abs(ns - ew)
        rub["won_by"] = (Side.NS if ns > ew else Side.EW).value if ns != ew else None
    return Score(rules.id, tuple(entries), tuple(notes), tuple(games), rub, tuple(scored))
