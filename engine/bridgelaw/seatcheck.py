"""What the loader asks of a provision's chooser from the seating alone (:func:`chooser_faults`): the chooser and
the provision's condition run over every seating a seat model (:mod:`bridgelaw.seats`) allows, three-valued (a fact
the seating does not fix is unknown :data:`U`), and a seating reported where the condition may hold and the chooser
is guilty or no player at all — a load error. In a module of its own: ruling needs none of it (a ruling kit's code
was checked as it was loaded); :mod:`bridgelaw.seats` gives these names too."""

from __future__ import annotations

from dataclasses import dataclass

from .seats import _SEATS
from .values import Seat

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Mapping

    from .seats import SeatModel

__all__ = ["chooser_faults", "Fault", "evaluate", "U"]


# --------------------------------------------------------------------------
# Three-valued evaluation of a condition over one seating


class _Unknown:
    def __repr__(self) -> str:  # pragma: no cover
        return "unknown"


U: Any = _Unknown()


def evaluate(node: Any, world: Mapping[str, Any], params: Mapping[str, Any]) -> Any:
    """The value of ``node`` in ``world``, or :data:`U` where it turns on a fact the world does not fix."""
    from . import conditions as c

    if isinstance(node, c.Lit):
        return node.value
    if isinstance(node, c.Path):
        head = node.names[0]
        if head == "params":
            cur: Any = params
            for n in node.names[1:]:
                cur = cur[n]
            return cur
        v = world.get(head, U)
        for attr in node.names[1:]:
            if v is U:
                return U
            v = getattr(v, attr, U)
        return v
    if isinstance(node, c.FnCall):
        args = [evaluate(a, world, params) for a in node.args]
        if any(a is U for a in args) or node.name not in ("partner", "lho", "rho", "side", "opponents"):
            return U
        s = Seat(args[0])
        return {"partner": s.partner, "lho": s.lho, "rho": s.rho, "side": s.side, "opponents": s.side.other}[node.name]
    if isinstance(node, c.ListExpr):
        items = [evaluate(i, world, params) for i in node.items]
        return U if any(i is U for i in items) else tuple(items)
    if isinstance(node, c.Not):
        v = evaluate(node.operand, world, params)
        return U if v is U else not v
    if isinstance(node, c.BoolOp):
        a = evaluate(node.left, world, params)
        if node.op == "and" and a is False or node.op == "or" and a is True:
            return a
        b = evaluate(node.right, world, params)
        if node.op == "and":
            return False if b is False else U if U in (a, b) else True
        return True if b is True else U if U in (a, b) else False
    if isinstance(node, c.Compare):
        left = evaluate(node.left, world, params)
        if node.op in ("is", "isnot") and isinstance(node.right, c.Path) and node.right.names[0] in c.ROLES:
            declarer = world.get("declarer", U)
            if left is U or declarer is U:
                return U
            on = Seat(left).side is Seat(declarer).side
            r = (not on) if node.right.names[0] == "adversary" else on
            return r if node.op == "is" else not r
        right = evaluate(node.right, world, params)
        if left is U or right is U:
            return U
        op = {"is": "==", "isnot": "!="}.get(node.op, node.op)
        try:
            if op == "in":
                return left in right
            if op == "notin":
                return left not in right
            return {"==": left == right, "!=": left != right}[op] if op in ("==", "!=") else U
        except TypeError:  # pragma: no cover
            return U
    return U  # arithmetic and the rest turn on numbers no seating fixes


_LITERAL_SEATS = ("N", "E", "S", "W", "NS", "EW")


def _has_seat_literal(node: Any) -> bool:
    """Does the tree name a seat or a side literally (so that the seatings must try every dealer)?"""
    from . import conditions as c

    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, c.Lit):
            if isinstance(n.value, str) and n.value in _LITERAL_SEATS:
                return True
        elif isinstance(n, c.FnCall):
            todo.extend(n.args)
        elif isinstance(n, c.ListExpr):
            todo.extend(n.items)
        elif isinstance(n, c.Not):
            todo.append(n.operand)
        elif isinstance(n, (c.BoolOp, c.Compare, c.Arith)):
            todo.extend((n.left, n.right))
    return False


@dataclass(frozen=True)
class Fault:
    """A seating in which the chooser may not choose: what it names, and why."""

    world: Mapping[str, Any]
    chooser: Any
    why: str

    def describe(self) -> str:
        shown = ", ".join(f"{k} {self.world[k].value}" for k in ("dealer", "offender", "declarer")
                          if k in self.world)
        return f"names no innocent player wherever the condition may hold (with {shown}: {self.why})"


def chooser_faults(model: SeatModel, phase: str, when: Any, choosers: tuple[Any, ...],
                   params: Mapping[str, Any], offender: Any = None) -> Fault | None:
    """A chooser that can be shown, from the seating alone, never to be fit: in every seating where ``when``
    may hold, it names the offender, his partner, or a seat where no player sits. None if it may be fit
    somewhere (what only an incident can show is checked at ruling time). ``offender``: the kind's own
    offender (an expression such as ``dealer``), where the kind says who commits it."""
    from .conditions import names_used

    trees = [t for t in (when, offender, *choosers) if t is not None]
    names: set[str] = set()
    for t in trees:
        names |= names_used(t)
    dealers = _SEATS if any(_has_seat_literal(t) for t in trees) else (Seat.N,)
    for tree in choosers:
        example: Fault | None = None
        for world in model.seatings(names, dealers, phase):
            if offender is not None:
                who = evaluate(offender, world, params)
                if who is not U and who is not world["offender"]:
                    continue
            if when is not None and evaluate(when, world, params) is False:
                continue
            v = evaluate(tree, world, params)
            if v is U:  # this seating does not fix the chooser: it tells nothing
                continue
            why = model.unfit_value(phase, v, world.get("offender"), world.get("dealer"), world.get("declarer"))
            if not why:
                example = None
                break
            if example is None:
                example = Fault(world, v, why)
        if example is not None:
            return example
    return None
