"""A fact's value read as its type (:func:`coerce_fact`): an incident's facts and the catalogue's defaults are read
by these rules (:mod:`bridgelaw.catalogue` gives the name too), in a module of its own so that the quick path reads
an incident's facts with the catalogue's specs as a ruling kit carries them, without the catalogue's reader."""

from __future__ import annotations

from .errors import InputError, did_you_mean
from .values import Call, Card, Seat, Side, Suit

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

    from .catalogue import FactSpec
    from .evaluation import Type

__all__ = ["coerce_fact"]


def _canonical(where: str, value: Any, parsed: Any, words: str) -> None:
    """An incident writes seats, calls, cards and suits as the catalogue does (N, 1S, SA, C): another spelling
    is refused, naming the one meant."""
    right = parsed.value if isinstance(parsed, (Seat, Suit)) else parsed.text
    if isinstance(value, str) and value != right:
        raise InputError(where, f"expected {words}, got {value!r} (did you mean '{right}'?)")


def coerce_fact(name: str, spec: FactSpec, value: Any) -> Any:
    """A fact's value as given (an incident's, or a catalogue default), read as the fact's type."""
    t: Type = spec.type
    where = f"facts.{name}"
    if value is None:
        return None
    if t.name == "bool":
        if not isinstance(value, bool):
            raise InputError(where, f"expected true or false, got {value!r}")
        return value
    if t.name == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise InputError(where, f"expected a whole number, got {value!r:.60}")
        if spec.bounds is not None and not spec.bounds[0] <= value <= spec.bounds[1]:
            lo, hi = spec.bounds
            raise InputError(where, f"expected a whole number {lo} to {hi}, got {value}")
        return value
    if t.name == "seat":
        seat = Seat.parse(value, where)
        _canonical(where, value, seat, "a seat N, E, S or W")
        return seat
    if t.name == "side":
        if value not in ("NS", "EW"):
            hint = did_you_mean(value.upper(), ("NS", "EW")) if isinstance(value, str) and len(value) < 9 else ""
            raise InputError(where, f"expected a side NS or EW, got {value!r:.60}{hint}")
        return Side(value)
    if t.name in ("call", "bid"):
        call = Call(value, where)
        _canonical(where, value, call, "a call such as 1S, 2NT, P, X or XX")
        if t.name == "bid" and not call.is_bid:
            raise InputError(where, f"expected a bid (a level and a strain, such as 1S or 2NT), got {value!r}")
        if spec.calls and call.kind.value not in spec.calls:
            raise InputError(where, f"expected a {' or a '.join(spec.calls)} "
                             f"({', '.join(_CALL_WORDS[k] for k in spec.calls)}), got {call.text}")
        return call
    if t.name == "card":
        card = Card(value, where)
        _canonical(where, value, card, "a card such as SA, HT or C2")
        return card
    if t.name == "suit":
        if value not in ("C", "D", "H", "S"):
            hint = did_you_mean(value.upper(), "CDHS") if isinstance(value, str) and len(value) < 9 else ""
            raise InputError(where, f"expected a suit C, D, H or S, got {value!r:.60}{hint}")
        return Suit(value)
    if t.choices:
        if value not in t.choices:
            raise InputError(where, f"expected one of {', '.join(t.choices)}, got {value!r}"
                             + did_you_mean(str(value), t.choices))
        return value
    if not isinstance(value, str):
        raise InputError(where, f"expected text, got {value!r:.60}")
    return value


_CALL_WORDS = {"bid": "1S, 2NT, ...", "pass": "P", "double": "X", "redouble": "XX"}
