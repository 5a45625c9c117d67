"""Revokes, scored through the code's own revoke provisions: the referee says what each established revoke costs.

A revoke scored with its deal was claimed in time and its trick turned and quitted (it is established). The
ruling for a revoke depends only on the code, the seats, the count and the trick value, so it is ruled once and
remembered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..values import Seat, Side
from .rules import Rules

__all__ = ["RevokeEffects", "revoke_effects"]

# a revoke scored with its deal was claimed in time, and its trick was turned and quitted (it is established)
_IN_TIME_FACTS = {"after_next_cut": False, "scores_recorded": False, "quitted": True}
_RULED: dict[tuple[Any, ...], "RevokeEffects"] = {}


@dataclass(frozen=True)
class RevokeEffects:
    """What one revoke costs, as the ruling gives it (sides as in a four-hand deal)."""

    scores: tuple[tuple[Side, str, int], ...]  # (side, column, points)
    transfers: tuple[tuple[Side, Side, int], ...]  # (from, to, count)
    no_trick_score: tuple[Side, ...]
    honours_only: tuple[Side, ...]
    law: str
    set_aside: str = ""  # a choice made (at the table) that the ruling leaves no room for: both sides revoked


def _fact_names() -> frozenset[str]:
    from ..loader import load_kinds

    return frozenset(load_kinds()[1]["revoke"].facts)


def revoke_effects(rules: Rules, declarer: Seat, offender: Seat, count: int, both: bool, dealer: Seat | None,
                   per_trick: int | None, choice: str | None, field_name: str) -> RevokeEffects:
    """Rule one established revoke under the code and return its effects (the option ``choice`` where the
    innocent side chooses)."""
    key = (rules.id, declarer, offender, count, both, dealer, per_trick, choice)
    hit = _RULED.get(key)
    if hit is not None:
        return hit
    from ..referee import rule

    names = _fact_names()
    facts: dict[str, Any] = {"established": True, "revokes_by_side": count, "both_sides_revoked": both}
    facts.update({k: v for k, v in _IN_TIME_FACTS.items() if k in names})
    if per_trick is not None and "trick_value" in names:
        facts["trick_value"] = per_trick
    incident: dict[str, Any] = {"code": rules.id, "irregularity": "revoke", "declarer": declarer.value,
                                "offender": offender.value, "facts": facts}
    if dealer is not None:
        incident["dealer"] = dealer.value
    ruling = rule(incident)
    if ruling.questions:
        raise InputError(field_name, "the revoke cannot be scored without: " + "; ".join(q.ask for q in ruling.questions))
    effects = list(ruling.effects)
    if ruling.options:
        ids = [o.id for o in ruling.options]
        if choice is None and len(ids) == 1:
            choice = ids[0]
        if choice not in ids:
            raise InputError(f"{field_name}.choice", f"the innocent side chooses one of {', '.join(ids)}; "
                             f"got {choice!r}")
        effects += list(next(o for o in ruling.options if o.id == choice).effects)
    elif choice is not None and not both:  # a choice where the ruling leaves none: refused, never ignored
        law = next((c.number for c in ruling.laws), "")
        raise InputError(f"{field_name}.choice", f"{choice!r}, but no one chooses here: under {rules.id} this revoke "
                         f"by {offender.value} (revoke {count} of its side{', both sides revoking' if both else ''}) "
                         f"costs what {'law ' + law if law else 'the code'} sets, with no option; leave choice out")
    scores, transfers, no_trick, only = [], [], [], []
    for e in effects:
        d = e.to_dict()
        if d["kind"] == "score":
            scores.append((Side(d["side"]), d["column"], int(d["points"])))
        elif d["kind"] == "transfer_tricks":
            transfers.append((Side(d["from"]), Side(d["to"]), int(d["count"])))
        elif d["kind"] == "no_trick_score":
            no_trick.append(Side(d["side"]))
        elif d["kind"] == "honours_only":
            only.append(Side(d["side"]))
    law = next((c.number for c in ruling.laws), "")
    # a choice made before the other side's revoke came to light is set aside, and the score says so
    aside = choice if choice is not None and not ruling.options else ""
    out = RevokeEffects(tuple(scores), tuple(transfers), tuple(no_trick), tuple(only), law, aside)
    if len(_RULED) < 4096:
        _RULED[key] = out
    return out
