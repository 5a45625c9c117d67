"""The penalties in force at the table, and which cards they leave a player.

A penalty in force is an :class:`~bridgelaw.table.state.Obligation` (``kind``, ``seat``, ``suit`` or
``card``, ``either``) of one of the kinds the remedies create: a lead called (``call_lead``) or forbidden
(``forbid_lead``), a card called (``play_card``) or forbidden (``forbid_card``), the highest or lowest of
the suit led (``play_highest``, ``play_lowest``), the trick to be won or lost (``win_trick``,
``lose_trick``). Each yields where the hand cannot meet it, and none makes a player revoke. ``either``
binds the seat's partner too ("a suit may be called from him or his partner", 1904 law 80).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .table.state import Obligation

__all__ = ["binds", "obliged", "broken", "would_win", "trick_winner", "RANK_INDEX"]

RANK_INDEX = {r: i for i, r in enumerate("23456789TJQKA")}
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}

# the failure to follow each penalty, as the kind failure_to_play_as_directed names it (its fact obligation)
_FAILURE = {"forbid_lead": "forbidden_suit", "call_lead": "called_suit", "play_card": "called_card",
            "forbid_card": "forbidden_card", "play_highest": "highest_or_lowest", "play_lowest": "highest_or_lowest",
            "win_trick": "win_or_lose", "lose_trick": "win_or_lose"}

Trick = Sequence[Sequence[str]]  # the cards played to the trick so far: [seat, card], the lead first


def binds(con: "Obligation", seat: str) -> bool:
    """Does a penalty in force bind ``seat`` (its seat, or his partner's where it binds either of them)?"""
    return con.seat == seat or con.either and _PARTNER[con.seat] == seat


def trick_winner(cur: Trick, trump: str | None) -> str:
    """The seat whose card wins the trick so far: the highest trump, else the highest of the suit led."""
    win_seat, win_card = cur[0]
    for seat, c in cur[1:]:
        if c[0] == win_card[0]:
            if RANK_INDEX[c[1]] > RANK_INDEX[win_card[1]]:
                win_seat, win_card = seat, c
        elif c[0] == trump:
            win_seat, win_card = seat, c
    return win_seat


def would_win(cur: Trick, card: str, trump: str | None) -> bool:
    """Would ``card`` win the trick as it stands?"""
    return trick_winner([*cur, ["", card]], trump) == ""


def obliged(constraints: Sequence["Obligation"], seat: str, hand: Sequence[str], cur: Trick,
            trump: str | None) -> tuple[list[str] | None, str]:
    """The cards the penalties in force leave ``seat`` (None: no penalty binds him), and why, in words."""
    cons = [c for c in constraints if binds(c, seat)]
    if not cons:
        return None, ""
    allowed = list(hand)
    why: list[str] = []
    led = cur[0][1][0] if cur else None
    follow = [c for c in hand if c[0] == led] if led else []
    playable = follow or list(hand)
    for con in cons:
        k, suit, called = con.kind, con.suit, con.card
        narrowed: list[str] = []
        if not cur and k == "forbid_lead" and suit:
            narrowed, reason = [c for c in allowed if c[0] != suit], f"may not lead {suit} (a penalty)"
        elif not cur and k == "call_lead" and suit:
            narrowed, reason = [c for c in allowed if c[0] == suit], f"must lead {suit} (a called lead)"
        elif k == "play_card" and called in hand and called in playable:
            narrowed, reason = [called], f"must play {called} (a called card)"  # type: ignore[list-item]
        elif k == "forbid_card" and called in allowed and len(playable) > 1:
            narrowed, reason = [c for c in allowed if c != called], f"may not play {called}"
        elif cur and k in ("play_highest", "play_lowest") and follow:
            pick = (max if k == "play_highest" else min)(follow, key=lambda c: RANK_INDEX[c[1]])
            narrowed, reason = [pick], f"must play his {k[5:]} card of the suit led (a penalty)"
        elif cur and k in ("win_trick", "lose_trick"):
            wins = [c for c in playable if would_win(cur, c, trump)]
            want = wins if k == "win_trick" else [c for c in playable if c not in wins]
            narrowed = [c for c in allowed if c in want] or want
            reason = f"must {k[:-6]} the trick if he can (a penalty)"
        if narrowed:  # a penalty the hand cannot meet yields
            allowed = narrowed
            why.append(reason)
    return allowed, "; ".join(why)


def broken(constraints: Sequence["Obligation"], seat: str, card: str, hand: Sequence[str], cur: Trick,
           trump: str | None) -> str:
    """Which penalty in force ``card`` breaks (the first that leaves it out), as the failure's name."""
    for con in constraints:
        if binds(con, seat):
            allowed, _ = obliged([con], seat, hand, cur, trump)
            if allowed is not None and card not in allowed:
                return _FAILURE[con.kind]
    return "called_card"
