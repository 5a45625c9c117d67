"""What the condition language leaves behind once a condition is checked and compiled, in a light module of its
own: the language's types and function whitelist, and what compiled conditions use as they run — :class:`Facts`,
:class:`MissingFact`, the namespace they are executed in, and the compiled code kept by generated source. A ruling
kit (:mod:`bridgelaw.kit`) and the referee's compiled functions need this and nothing else of the language: a kit
keeps no condition tree (:data:`UNREAD` stands in its place). :mod:`bridgelaw.conditions` has the tree and parses
(lark), shapes, checks and compiles it, and re-exports every name here (the one place each is defined)."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .values import Call, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from collections.abc import Mapping
    from typing import Any

    from .conditions import Expr, Learnt

__all__ = ["Unread", "UNREAD", "Type", "BOOL", "INT", "STR", "SEAT", "SIDE", "CALL", "CARD", "SUIT", "STRAIN", "ANY", "BID", "ROLE",
           "FUNCTIONS", "MissingFact", "Facts", "Compiled", "code_of", "rebuild", "constant", "namespace_base"]


# --------------------------------------------------------------------------
# A tree not kept


class Unread:
    """In place of a condition tree where a ruling kit (:mod:`bridgelaw.kit`) keeps the condition compiled and not
    its tree: not None (so ``tree is None`` still tells a provision with a condition from one without), and no
    tree — :mod:`bridgelaw.conditions` refuses it (a reader of the tree asks the whole code for it)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<a condition tree the ruling kit does not keep>"

    def __reduce__(self) -> str:
        return "UNREAD"


#: The one :class:`Unread`.
UNREAD = Unread()


# --------------------------------------------------------------------------
# What was parsed and compiled in this process (kept by the cache for the next start)

_TREES: dict[str, Expr] = {}
_CODES: dict[str, Any] = {}  # generated source -> compiled code object
_RECORDERS: list["Learnt"] = []


def _note(text: str | None, tree: Any, source: str | None = None) -> None:
    for r in _RECORDERS:
        if text is not None:
            r.texts.add(text)
        if source is not None:
            r.sources.add(source)
        if tree is not None:
            r.new = True


# --------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class Type:
    """A value type of the language. ``choices`` restrict a ``str``; ``elem`` is a list's."""

    name: str  # bool int str seat side call card suit strain role list params any
    choices: tuple[str, ...] = ()
    elem: "Type | None" = None

    def __str__(self) -> str:
        if self.name == "list" and self.elem:
            return f"list of {self.elem}"
        return self.name


BOOL, INT, STR, SEAT, SIDE = Type("bool"), Type("int"), Type("str"), Type("seat"), Type("side")
CALL, CARD, SUIT, STRAIN, ANY = Type("call"), Type("card"), Type("suit"), Type("strain"), Type("any")
#: A call that is a bid (a level and a strain): what ``value()``, ``.level`` and ``.strain`` need. A fact of
#: type ``call`` may be a pass, a double or a redouble; it is a bid only where a guard says so
#: (``call.is_bid and value(call) > 20``, ``call.kind != "bid" or call.level > 3``).
BID = Type("bid")
ROLE = Type("role")


def _fn_value(facts: "Facts", call: Call) -> int:
    return facts.code_value(call)


#: The function whitelist: name -> (argument types, result type, implementation).
FUNCTIONS: dict[str, tuple[tuple[Type, ...], Type, Callable[..., Any]]] = {
    "partner": ((SEAT,), SEAT, lambda f, s: Seat(s).partner),
    "lho": ((SEAT,), SEAT, lambda f, s: Seat(s).lho),
    "rho": ((SEAT,), SEAT, lambda f, s: Seat(s).rho),
    "side": ((SEAT,), SIDE, lambda f, s: Seat(s).side),
    "opponents": ((SEAT,), SIDE, lambda f, s: Seat(s).side.other),
    "value": ((BID,), INT, _fn_value),
    "min": ((INT, INT), INT, lambda f, a, b: min(a, b)),
    "max": ((INT, INT), INT, lambda f, a, b: max(a, b)),
}


# --------------------------------------------------------------------------
# Evaluation


class MissingFact(Exception):
    """A compiled expression read a fact nobody gave."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class Facts(dict):  # type: ignore[type-arg]
    """The facts of one incident (no ``None`` values: an unknown fact is absent).

    ``code_value`` prices a bid under the incident's code. Reading an absent
    fact raises :class:`MissingFact`.
    """

    __slots__ = ("code_value", "presumed")

    def __init__(self, data: Mapping[str, Any], code_value: Callable[[Call], int],
                 presumed: tuple[str, ...] = ()) -> None:
        super().__init__(data)
        self.presumed = presumed
        if any(map(_is, self.values(), _NONES)):
            for k in [k for k, v in self.items() if v is None]:
                del self[k]
        self.code_value = code_value

    def __missing__(self, key: str) -> Any:
        raise MissingFact(key)


_is = operator.is_
_NONES = itertools.repeat(None)
Compiled = Callable[[Facts], "Any"]


def code_of(text: str, filename: str) -> Any:
    """The code object of generated source ``text`` (compiled once a process, or taken from the cache); what
    is compiled while recording is noted, so the cache can keep it."""
    code = _CODES.get(text)
    if code is None:
        code = compile(text, filename, "exec")
        _CODES[text] = code
        _note(None, True, text)
    else:
        _note(None, None, text)
    return code


def rebuild(text: str, consts: tuple[Any, ...]) -> Compiled:
    """The function of a condition's generated source (compiled once a process, or taken from the cache);
    it carries its source and constants, so that a loaded code can be kept whole (:mod:`bridgelaw.snapshot`)."""
    code = code_of(text, "<bridgelaw condition>")
    namespace = dict(namespace_base())
    namespace["_K"] = consts
    exec(code, namespace)  # our generated source, built only from the checked tree
    fn: Compiled = namespace["_condition"]
    fn._bridgelaw = (text, consts)  # type: ignore[attr-defined]
    return fn


def _constant(value: Any, f: Any) -> Any:
    return value


def constant(value: Any) -> Compiled:
    """A condition whose value does not depend on the facts (``true``, a parameter): that value."""
    return partial(_constant, value)


def _attr(value: Any, name: str, path: str) -> Any:
    v = getattr(value, name)
    if v is None:
        raise MissingFact(path)
    return v


def _role_test(f: "Facts", seat: Any, role: str, negate: bool) -> bool:
    """Is ``seat`` of the role (``offender is adversary``)? The rule; compiled conditions inline it
    (:func:`_role_py`, checked against this by the tests)."""
    declarer = f["declarer"]
    on_declaring_side = Seat(seat).side is Seat(declarer).side
    result = (not on_declaring_side) if role == "adversary" else on_declaring_side
    return result != negate


_BASE: dict[str, Any] = {}


def _seat_tables() -> dict[str, dict[Any, Any]]:
    """Each function of one seat (``partner lho rho side opponents``) as a table from every seat to its value,
    made from the function itself. A seat is a ``str`` equal to its letter, so the tables take either."""
    base = namespace_base()
    return base["_TABLES"]  # type: ignore[no-any-return]


def namespace_base() -> dict[str, Any]:
    """What compiled conditions may use: the function whitelist, the seat tables, the role and attribute tests."""
    if not _BASE:
        seats = (Seat.N, Seat.E, Seat.S, Seat.W)
        tables = {name: {s: impl(None, s) for s in seats} for name, (args, _, impl) in FUNCTIONS.items()
                  if args == (SEAT,)}
        _BASE.update({"_FN": {k: v[2] for k, v in FUNCTIONS.items()}, "_role": _role_test, "_attr": _attr,
                      "_TABLES": tables, **{f"_T_{name}": t for name, t in tables.items()}})
    return _BASE
