"""An incident checked against its code: what the schema of an incident alone cannot state.

:mod:`bridgelaw.incident` has checked the shape; :func:`bridgelaw.facts.derive` calls these as it reads the
incident's facts, each refusal an :class:`~bridgelaw.errors.InputError` naming the field:

- the irregularity can happen under the code's seat model: a kind that passes between partners cannot happen
  where there are none (three-hand before the play), nor a kind the dummy himself commits where the dummy is no
  player (:meth:`bridgelaw.seats.SeatModel.lacks`), nor can a fact that needs them be true;
- the seats exist: no player offends, declares, calls or is named in the auction from a seat where no player sits
  (three-hand: the dummy packet opposite the dealer; in the play, the dummy opposite the declarer, whose hand
  may offend only by its play, :attr:`bridgelaw.catalogue.Kind.by_hand`);
- the callers follow a rotation the laws allow: a call out of turn allowed to stand takes the auction out of
  rotation, and a call out of turn may come from any player, but no player calls twice running, and no call
  comes from a seat where no player sits;
- the offending call of a kind whose record holds it is that kind of call: a double of a partner's
  declaration doubles the partner's declaration, a redouble of a partner's double redoubles it, a double or
  redouble beyond the limit goes beyond it;
- what the auction record shows agrees with the facts given beside it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import InputError
from .values import Call, CallKind, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable

    from .catalogue import FactSpec, Kind

__all__ = ["fact_value", "check_kind", "check_fact",
           "check_callers", "check_closed", "check_given_once", "check_record",
           "check_seats", "check_agrees", "RECORD_KINDS"]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def fact_value(name: str, v: Any, ints: tuple[int, int], words: tuple[int, int]) -> Any:
    """A fact's value within what the incident schema allows any fact (``ints``: the least and most number,
    ``words``: the fewest and most characters of a word; :class:`bridgelaw.incidentbounds._Bounds`'s ``fact_int``
    and ``fact_str``), as given; else an :class:`InputError` naming ``facts.<name>``."""
    where = f"facts.{name}"
    if isinstance(v, bool):
        return v
    if _is_int(v):
        lo, hi = ints
        if not lo <= v <= hi:
            raise InputError(where, f"{v} is out of bounds: a number given as a fact is {lo} to {hi:,}")
        return v
    if isinstance(v, str):
        lo, hi = words
        if not lo <= len(v) <= hi:
            raise InputError(where, f"expected a word of {lo} to {hi} characters, got {len(v)}"
                             + (f": {v[:40]!r}…" if v else ""))
        return v
    raise InputError(where, f"expected true or false, a whole number, or a word (a seat, a call, a card, ...), got "
                     f"{v!r:.60}")


def check_kind(code: Any, kind: Kind) -> None:
    """The kind can happen under the code's seat model."""
    lacks = code.seats.lacks(kind.phase)
    for need in kind.requires:
        if need in lacks:
            raise InputError("irregularity", f"{kind.id.replace('_', ' ')} cannot happen under {code.id}: "
                             f"{lacks[need]}")


def check_fact(code: Any, kind: Kind, spec: FactSpec, value: Any) -> None:
    """A true-or-false fact that needs what the game lacks cannot be true."""
    if value is True and spec.requires:
        lacks = code.seats.lacks(kind.phase)
        for need in spec.requires:
            if need in lacks:
                raise InputError(f"facts.{spec.name}", f"cannot be true under {code.id}: {lacks[need]}")


def check_callers(code: Any, dealer: Seat, callers: tuple[Seat, ...], auction: tuple[Call, ...]) -> None:
    """The seat of each call: a player, and never the one who made the call before."""
    gone = code.seats.no_player("auction", dealer, None)
    for i, seat in enumerate(callers):
        if gone is not None and seat is gone[0]:
            raise InputError(f"callers[{i}]", f"{gone[1]}, and it never calls")
        if i and seat is callers[i - 1]:
            raise InputError(f"callers[{i}]", f"{seat.value} calls twice running (auction[{i - 1}] "
                             f"{auction[i - 1].text}, auction[{i}] {auction[i].text}): after any call, even one out "
                             "of turn, it is another player's turn; a player who would alter his own call changes it "
                             "(change_of_call)")


def check_closed(players: int, auction: tuple[Call, ...]) -> None:
    """No call follows the end of the auction: a bid passed by each of the other players (auction_result's rule)
    closes it, and a record that goes on is not an auction."""
    need, passes, bid = players - 1, 0, None
    for i, call in enumerate(auction):
        if bid is not None and passes == need:
            raise InputError(f"auction[{i}]", f"{call.text} follows the end of the auction: {auction[bid].text} "
                             f"(auction[{bid}]) was passed by the {need} other players, which closed it at "
                             f"auction[{i - 1}]; end the record there")
        if call.is_bid:
            bid, passes = i, 0
        elif call.kind is CallKind.PASS:
            passes += 1
        else:
            passes = 0


def check_given_once(facts: Mapping[str, Any], seats: Mapping[str, Any]) -> None:
    """A seat given both as a field of the incident and among its facts is given once, or the same in both."""
    for name, seat in seats.items():
        if seat is not None and name in facts and facts[name] != seat:
            raise InputError(f"facts.{name}", f"{show(facts[name])} contradicts {name}: {show(seat)}; give the "
                             f"{name} once (as {name}, or as facts.{name})")


def check_seats(code: Any, kind: Kind, f: Mapping[str, Any], given: Mapping[str, Any]) -> None:
    """After deriving: the dealer's dummy packet never declares; the offender sits where a player sits (or, in
    the play, is the dummy's hand, where the play of a hand commits the irregularity); the players the facts of
    the auction name are players."""
    dealer, declarer, offender = (f.get(n) if isinstance(f.get(n), Seat) else None
                                  for n in ("dealer", "declarer", "offender"))
    if kind.no_offender and offender is not None:
        raise InputError("offender", f"no player commits {kind.id.replace('_', ' ')}: name no offender")
    model = code.seats
    fault = model.player_fault(kind.phase, f)
    if fault is not None:
        raise InputError(*fault)
    packet = model.no_player("auction", dealer, None)
    if packet is not None and declarer is packet[0]:
        raise InputError("declarer", f"{packet[1]}, and it never declares")
    gone = model.no_player(kind.phase, dealer, declarer)
    if gone is None or offender is not gone[0]:
        pass
    elif kind.phase in ("play", "scoring") and kind.by_hand:
        pass  # the dummy's hand, which the declarer plays
    else:
        raise InputError("offender", f"{gone[1]}, and no one there can commit {kind.id.replace('_', ' ')}")
    if packet is not None and kind.phase not in ("play", "scoring"):
        for name, value in given.items():
            if isinstance(value, Seat) and value is packet[0]:
                raise InputError(f"facts.{name}", f"{packet[1]}, and it never calls")
    maker = f.get("maker")
    if isinstance(maker, Seat) and dealer is not None and maker not in model.makers(dealer):
        raise InputError("facts.maker", f"{maker.value} cannot have made the declaration: the dealer "
                         f"({dealer.value}) makes it, or passes it to his partner ({dealer.partner.value}); "
                         "name one of them")


def check_agrees(given: Mapping[str, Any], f: Mapping[str, Any], what: str) -> None:
    """Each fact given beside the auction record is what the record shows."""
    for name, value in given.items():
        got = f.get(name)
        if got is not None and value is not None and got != value:
            raise InputError(f"facts.{name}", f"{show(value)} does not match {what}: it shows {show(got)}")


def show(v: Any) -> str:
    """A fact's value as an incident writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(getattr(v, "text", getattr(v, "value", v)))


# --------------------------------------------------------------------------
# The offending call of a kind whose record holds it


def _last_bid(calls: tuple[Call, ...]) -> int | None:
    return max((i for i, c in enumerate(calls) if c.is_bid), default=None)


def _double_of_partner(call: Call, at: int, before: tuple[Call, ...], who: Callable[[int], Seat],
                       adverse: Callable[[Seat, Seat], bool]) -> str:
    if call.kind is not CallKind.DOUBLE:
        return f"{call.text} is not a double: a double of a partner's declaration is a double (X)"
    b = _last_bid(before)
    if b is None:
        return "X doubles nothing: no declaration was made before it"
    seat, maker = who(at), who(b)
    if maker is seat:
        return f"X doubles {before[b].text}, {seat.value}'s own declaration, not his partner's"
    if adverse(maker, seat):
        return (f"X doubles {before[b].text}, made by {maker.value}, {seat.value}'s adversary: that double is "
                "in order, not a double of a partner's declaration")
    return ""


def _redouble_of_partner_double(call: Call, at: int, before: tuple[Call, ...], who: Callable[[int], Seat],
                                adverse: Callable[[Seat, Seat], bool]) -> str:
    if call.kind is not CallKind.REDOUBLE:
        return f"{call.text} is not a redouble: a redouble of a partner's double is a redouble (XX)"
    b = _last_bid(before)
    doubles = [i for i in range(b + 1 if b is not None else 0, len(before)) if before[i].kind is CallKind.DOUBLE]
    if b is None or not doubles:
        return "XX redoubles nothing: the declaration before it has not been doubled"
    seat, doubler = who(at), who(doubles[-1])
    if doubler is seat:
        return f"XX redoubles {seat.value}'s own double, not his partner's"
    if adverse(doubler, seat):
        return (f"XX redoubles the double of {doubler.value}, {seat.value}'s adversary: that redouble is in "
                "order, not a redouble of a partner's double")
    return ""


def _extra_redouble(call: Call, at: int, before: tuple[Call, ...], who: Callable[[int], Seat],
                    adverse: Callable[[Seat, Seat], bool]) -> str:
    if call.kind not in (CallKind.DOUBLE, CallKind.REDOUBLE):
        return f"{call.text} is neither a double nor a redouble: a call beyond the limit is a double (X) or a redouble (XX)"
    b = _last_bid(before)
    if b is None:
        return f"{call.text} {'doubles' if call.kind is CallKind.DOUBLE else 'redoubles'} nothing: no declaration was " \
               "made before it"
    since = [c.kind for c in before[b + 1:]]
    if call.kind is CallKind.DOUBLE and CallKind.DOUBLE not in since:
        return f"X is the first double of {before[b].text}: a declaration may be doubled once"
    if call.kind is CallKind.REDOUBLE and CallKind.REDOUBLE not in since:
        if CallKind.DOUBLE not in since:
            return f"XX redoubles {before[b].text}, which has not been doubled"
        return f"XX is the first redouble of {before[b].text}: a declaration may be redoubled once"
    return ""


#: The kinds whose auction record holds the offending call (it ends the record, or ``offence_at`` points at it),
#: each with the check that the call is that kind of call (None: any call may be it).
RECORD_KINDS: dict[str, Callable[..., str] | None] = {
    "insufficient_bid": None, "impossible_bid": None, "call_while_barred": None,  # insufficiency: facts.py
    "double_of_partner": _double_of_partner,
    "redouble_of_partner_double": _redouble_of_partner_double,
    "extra_redouble": _extra_redouble,
}


def check_record(kind_id: str, calls: tuple[Call, ...], at: int, who: Callable[[int], Seat],
                 adverse: Callable[[Seat, Seat], bool]) -> None:
    """The offending call ``calls[at]`` is the kind of call ``kind_id`` is about."""
    check = RECORD_KINDS.get(kind_id)
    if check is None:
        return
    why = check(calls[at], at, calls[:at], who, adverse)
    if why:
        raise InputError(f"auction[{at}]", why)
