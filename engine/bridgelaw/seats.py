"""Who sits where, who calls and who may choose: the seat model of a code, chosen from its ``players``.

Two variants, each changing only what differs (as python-chess does with its
variants):

- :class:`FourHand` — four players in two partnerships, all calling in
  rotation; the offender's side is guilty (his partner may not choose a
  penalty for him);
- :class:`ThreeHand` — the Laws of Three Hand Auction: the dummy packet lies
  opposite the dealer (T3, note 23) and never calls, chooses or offends; each
  player bids on his own account (T4), so in the auction only the offender is
  guilty; in the play the declarer and the dummy face the other two, who are
  partners for the hand (T7).

The model also answers, for the loader, *what a provision's chooser can be*:
:func:`chooser_faults` runs the chooser and the provision's condition over
every seating the model allows (three-valued: a fact the seating does not fix
is unknown) and reports a seating where the condition may hold and the
chooser is guilty or no player at all — a load error. What only an incident
can show is checked at ruling time (:meth:`SeatModel.unfit_chooser`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .values import Seat, Side

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Iterator, Mapping

__all__ = ["SeatModel", "FourHand", "ThreeHand", "MODELS", "model_for", "chooser_faults", "Fault", "REQUIREMENTS"]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)

#: What an irregularity may need of the game that a seat model may lack: a kind's ``requires:`` in laws/kinds.yaml
#: (and a true-or-false fact's, to be true). The one list of them; the catalogue refuses any other.
REQUIREMENTS = {
    "partners": "partners: the irregularity passes between a player and his partner",
    "dummy_player": "a dummy who is a player: the irregularity is something the dummy himself does",
}


class SeatModel:
    """Four players, two partnerships (the base: what the other variants change)."""

    players = 4
    name = "four players in two partnerships"

    def callers(self, dealer: Seat) -> tuple[Seat, ...]:
        """The seats that call, in rotation from the dealer."""
        return (dealer, dealer.lho, dealer.partner, dealer.rho)

    def caller(self, dealer: Seat, i: int) -> Seat:
        """Who makes call ``i`` of an auction in rotation (counting from the dealer's, 0)."""
        return dealer.after(i)

    def adverse(self, a: Seat, b: Seat) -> bool:
        """Are ``a`` and ``b`` adversaries in the auction?"""
        return a.side is not b.side

    def adverse_to(self, seat: Seat) -> Mapping[Seat, bool]:
        """:meth:`adverse` of every seat to ``seat``, as a table (made once)."""
        memo = self.__dict__.setdefault("_adverse_to", {})
        hit = memo.get(seat)
        if hit is None:
            hit = memo[seat] = {s: self.adverse(s, seat) for s in _SEATS}
        return hit  # type: ignore[no-any-return]

    def rotation(self, dealer: Seat, count: int) -> tuple[Seat, ...]:
        """:meth:`caller` of calls ``0 .. count - 1`` (the usual lengths remembered)."""
        if count > 64:
            return tuple(self.caller(dealer, i) for i in range(count))
        memo = self.__dict__.setdefault("_rotation", {})
        key = (dealer, count)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = tuple(self.caller(dealer, i) for i in range(count))
        return hit  # type: ignore[no-any-return]

    def absent(self, dealer: Seat | None) -> Seat | None:
        """The seat where no player sits in the auction (None: every seat has a player)."""
        return None

    def lacks(self, phase: str) -> Mapping[str, str]:
        """What of :data:`REQUIREMENTS` the game lacks in ``phase``, each with why (empty: it lacks nothing)."""
        return {}

    def allows(self, kind: Any) -> bool:
        """Can an irregularity of ``kind`` (a catalogue kind) happen in this game: has it what the kind requires?"""
        return not set(kind.requires) & set(self.lacks(kind.phase))

    def no_player(self, phase: str, dealer: Seat | None, declarer: Seat | None) -> tuple[Seat, str] | None:
        """The seat where no player sits in ``phase`` and the words for it (None: every seat has a player, or the
        incident does not say enough to tell which)."""
        return None

    def players_of(self, phase: str, dealer: Seat, offender: Seat) -> dict[str, Seat]:
        """The players the model names from the dealer and an offender, by the facts that name them (three-hand:
        the player whose turn comes next after the offender's, and the third)."""
        return {}

    def player_fault(self, phase: str, facts: Mapping[str, Any]) -> tuple[str, str] | None:
        """Where facts that name players by their part (the offender, the player next after him, ...) name one
        player for two parts: (the field, why), or None."""
        return None

    def check_inherited(self, code_id: str, placed: Mapping[str, Any], kinds: Mapping[str, Any]) -> frozenset[str]:
        """At load: refuse an inherited provision that would name, in a ruling under this code, a seat the model
        lacks (three-hand: the dummy packet, a side or the offender's partner in the auction), unless a provision
        of the code's own overrides it. ``placed``: each provision id to (provision, source, key). Returns the ids
        of those the code's own restate (:attr:`bridgelaw.loader.Code.restated`)."""
        return frozenset()

    def schema_rules(self, code_id: str, kinds: Mapping[str, Any]) -> list[dict[str, Any]]:
        """JSON Schema conditionals that state, for an incident under ``code_id``, what this model refuses: the
        kinds it cannot have and the seats where no player sits (for the desk's OpenAPI document)."""
        return []

    def makers(self, dealer: Seat) -> tuple[Seat, Seat]:
        """Who makes (or passes) the declaration of trumps in straight bridge: the dealer, or his partner when
        the dealer passes it to him."""
        return (dealer, dealer.partner)

    def guilty(self, phase: str, offender: Seat, dealer: Seat | None, declarer: Seat | None) -> set[Seat]:
        """The seats that may not choose a remedy for an irregularity by ``offender``."""
        return {offender, offender.partner}

    def unfit(self, phase: str, seat: Seat, offender: Seat | None, dealer: Seat | None,
              declarer: Seat | None) -> str:
        """Why ``seat`` may not choose (empty: it may)."""
        if offender is not None and seat in self.guilty(phase, offender, dealer, declarer):
            return "the offender" if seat is offender else "the offender's partner"
        return ""

    def unfit_value(self, phase: str, chooser: Any, offender: Seat | None, dealer: Seat | None,
                    declarer: Seat | None) -> str:
        """Why a chooser's value may not choose (empty: it may). A seat or each seat of a list must be a
        player other than the offender and his partner; a side ("either adversary") must hold neither of
        them, and at least one player."""
        items = chooser if isinstance(chooser, (list, tuple)) else (chooser,)
        whys = []
        for item in items:
            seats = _seats_of(item)
            reasons = [(s, self.unfit(phase, s, offender, dealer, declarer)) for s in seats]
            guilty = [(s, w) for s, w in reasons if w.startswith("the offender")]
            absent = [(s, w) for s, w in reasons if w and not w.startswith("the offender")]
            bad = guilty + (absent if len(seats) == 1 or len(absent) == len(seats) else [])
            whys += [f"{s.value}, {w}" for s, w in bad]
        return "; ".join(whys)

    def unfit_chooser(self, phase: str, chooser: Any, facts: Mapping[str, Any]) -> str:
        """At ruling time: why the chooser a provision named for this incident may not choose (empty: fit).
        Worked out once for each phase, chooser and seating."""
        g = facts.get
        o, d, c = g("offender"), g("dealer"), g("declarer")
        key = (phase, chooser, o if type(o) is Seat else _seat(o), d if type(d) is Seat else _seat(d),
               c if type(c) is Seat else _seat(c))
        memo = self.__dict__.get("_unfit")
        if memo is None:
            memo = self.__dict__["_unfit"] = {}
        why = memo.get(key)
        if why is None:
            why = memo[key] = self.unfit_value(phase, chooser, key[2], key[3], key[4])
        return why  # type: ignore[no-any-return]

    # -- the seatings the loader tries
    def seatings(self, names: set[str], dealers: tuple[Seat, ...], phase: str) -> Iterator[dict[str, Any]]:
        """Every seating of the facts the model fixes (:data:`SEATED`, and what follows from them); a fact left
        out is unknown. ``names``: the facts the expressions read."""
        declarers: tuple[Seat | None, ...] = _SEATS + (None,)
        for dealer in dealers:
            for offender in self._offenders(dealer, phase):
                for declarer in declarers:
                    if declarer is not None and not self._may_declare(dealer, declarer, phase):
                        continue
                    for maker in (self.makers(dealer) if "maker" in names else (None,)):
                        w: dict[str, Any] = {"dealer": dealer, "offender": offender, "eldest": dealer.lho}
                        if maker is not None:
                            w["maker"] = maker
                        if declarer is not None:
                            w.update(declarer=declarer, dummy=declarer.partner, leader=declarer.lho)
                        self._more(w, phase)
                        yield w

    def _offenders(self, dealer: Seat, phase: str) -> tuple[Seat, ...]:
        return _SEATS

    def _may_declare(self, dealer: Seat, declarer: Seat, phase: str) -> bool:
        return True

    def _more(self, world: dict[str, Any], phase: str) -> None:
        """Facts this variant fixes besides (three-hand: the offender's two other players)."""


class FourHand(SeatModel):
    """Four players in two partnerships (every code but three-hand)."""


class ThreeHand(SeatModel):
    """Three players and a dummy packet opposite the dealer (Laws of Three Hand Auction)."""

    players = 3
    name = "three players and a dummy packet opposite the dealer"

    def callers(self, dealer: Seat) -> tuple[Seat, ...]:
        return (dealer, dealer.lho, dealer.rho)  # the dummy packet never calls (T3, note 23)

    def caller(self, dealer: Seat, i: int) -> Seat:
        return self.callers(dealer)[i % 3]

    def adverse(self, a: Seat, b: Seat) -> bool:
        return a is not b  # each bids on his own account (T4); no partners in the auction (T1)

    def absent(self, dealer: Seat | None) -> Seat | None:
        return dealer.partner if dealer is not None else None

    def lacks(self, phase: str) -> Mapping[str, str]:
        out = {"dummy_player": "in three-hand the dummy is no player: the declarer plays his own hand and the "
                               "dummy's"}
        if not _in_play(phase):
            out["partners"] = ("in three-hand each player plays for himself and bids on his own account: there are "
                               "no partners before the play")
        return out

    def no_player(self, phase: str, dealer: Seat | None, declarer: Seat | None) -> tuple[Seat, str] | None:
        if _in_play(phase):  # the table is reseated for the play: the dummy opposite the declarer
            if declarer is None:
                return None
            return declarer.partner, (f"{declarer.partner.value} is the dummy, opposite the declarer "
                                      f"{declarer.value}: in three-hand no player sits there")
        if dealer is None:
            return None
        return dealer.partner, (f"{dealer.partner.value} is the dummy packet, opposite the dealer {dealer.value}: in "
                                "three-hand no player sits there")

    def players_of(self, phase: str, dealer: Seat, offender: Seat) -> dict[str, Seat]:
        if _in_play(phase) or offender not in self.callers(dealer):
            return {}
        succeeding, third = self.other_players(dealer, offender)
        return {"succeeding_player": succeeding, "third_player": third}

    def check_inherited(self, code_id: str, placed: Mapping[str, Any], kinds: Mapping[str, Any]) -> frozenset[str]:
        own = {o for prov, _, _ in placed.values() if prov.full_id.startswith(code_id + "/") for o in prov.overrides}
        restated: set[str] = set()
        for pid, (prov, src, key) in placed.items():
            if prov.full_id.startswith(code_id + "/"):
                continue
            for kid in prov.kinds:
                kind = kinds[kid]
                if _in_play(kind.phase) or not self.allows(kind):
                    continue
                why = self._names_no_player(prov, kind.phase)
                if why and pid in own:
                    restated.add(pid)
                elif why:
                    raise src.error(key, f"{prov.full_id}, inherited by {code_id}, {why}: in three-hand each "
                                    "player plays for himself and bids on his own account, and no player sits at "
                                    f"the dummy packet; restate it for three players (a provision of {code_id} "
                                    "that overrides it)")
        return frozenset(restated)

    def _names_no_player(self, prov: Any, phase: str) -> str:
        """How a provision, in some seating of the auction, names a side, the dummy packet or the offender's
        partner (empty: it names none)."""
        from .conditions import Facts, MissingFact

        named: list[tuple[str, Any]] = []
        if prov.chooser is not None:
            named.append(("its chooser " + prov.chooser_text, prov.chooser))
        for o in (None, *prov.options):
            for e in (prov.effects if o is None else o.effects):
                if e.kind.value in _play_effects():
                    continue
                for name, lit, fn in e.fields:
                    named.append((f"its effect {e.kind.value}.{name} ({lit})", fn if fn is not None else
                                  (lambda _f, v=lit: v)))
        for world in self.seatings(set(SEATED), (Seat.N,), phase):
            facts = Facts(world, lambda c: 0)
            packet, mate = world["dealer"].partner, world["offender"].partner
            for what, fn in named:
                try:
                    v = fn(facts)
                except (MissingFact, ArithmeticError, TypeError, KeyError):
                    continue
                for item in (v if isinstance(v, tuple) else (v,)):
                    if isinstance(item, Side) or (isinstance(item, str) and item in ("NS", "EW")):
                        return f"{what} names a side"
                    seat = _seat(item)
                    if seat is packet:
                        return f"{what} names the dummy packet"
                    if seat is mate:
                        return f"{what} names the offender's partner"
        return ""

    #: Facts naming players by their part in the auction, each group three different players (T4: each bids on
    #: his own account, so "the other players" of an offender are two named players).
    PARTS = (("offender", "succeeding_player", "third_player"), ("offender", "doubled_player", "other_player"))

    def player_fault(self, phase: str, facts: Mapping[str, Any]) -> tuple[str, str] | None:
        if _in_play(phase):
            return None
        for group in self.PARTS:
            seen: dict[Seat, str] = {}
            for name in group:
                v = facts.get(name)
                if not isinstance(v, Seat):
                    continue
                if v in seen:
                    field = name if name == "offender" else f"facts.{name}"
                    return field, (f"{v.value} is named the {seen[v].replace('_', ' ')} and the "
                                   f"{name.replace('_', ' ')}: in three-hand they are different players")
                seen[v] = name
        return None

    def schema_rules(self, code_id: str, kinds: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The kinds three-hand cannot have, and for each dealer the dummy packet opposite him: never the declarer,
        a caller, or an offender in the auction. (That the dummy opposite the declarer never offends in the play is
        left to the engine: stated beside these, it makes a schema no generator can draw from.)"""
        out: list[dict[str, Any]] = []
        cannot = sorted(kid for kid, k in kinds.items() if not self.allows(k))
        if cannot:
            out.append({"if": {"properties": {"code": {"const": code_id}}, "required": ["code"]},
                        "then": {"properties": {"irregularity": {"not": {"enum": cannot}}}}})
        before = sorted(kid for kid, k in kinds.items() if not _in_play(k.phase))
        by_dealer: list[dict[str, Any]] = [{"not": {"required": ["dealer"]}}]
        for seat in _SEATS:
            packet = {"not": {"const": seat.partner.value}}
            branch: dict[str, Any] = {"properties": {"dealer": {"const": seat.value}, "declarer": packet,
                                                     "callers": {"items": packet}}, "required": ["dealer"]}
            if before:
                branch["if"] = {"properties": {"irregularity": {"enum": before}}, "required": ["irregularity"]}
                branch["then"] = {"properties": {"offender": packet}}
            by_dealer.append(branch)
        out.append({"if": {"properties": {"code": {"const": code_id}}, "required": ["code"]},
                    "then": {"anyOf": by_dealer}})
        return out

    def other_players(self, dealer: Seat, seat: Seat) -> tuple[Seat, Seat]:
        """The player whose turn to call comes next after ``seat``'s, and the third player."""
        order = self.callers(dealer)
        succeeding = order[(order.index(seat) + 1) % 3]
        return succeeding, next(s for s in order if s is not seat and s is not succeeding)

    def guilty(self, phase: str, offender: Seat, dealer: Seat | None, declarer: Seat | None) -> set[Seat]:
        if _in_play(phase):  # the declarer and the dummy against the two others, partners for the hand (T7)
            out = {offender, offender.partner}
            if declarer is not None:
                out.add(declarer.partner)
            return out
        out = {offender}
        if dealer is not None:
            out.add(dealer.partner)
        return out

    def unfit(self, phase: str, seat: Seat, offender: Seat | None, dealer: Seat | None,
              declarer: Seat | None) -> str:
        if _in_play(phase) and declarer is not None and seat is declarer.partner:
            return "the dummy, which is no player"
        if not _in_play(phase) and dealer is not None and seat is dealer.partner:
            return "the dummy packet (opposite the dealer), where no player sits"
        return super().unfit(phase, seat, offender, dealer, declarer)

    def _offenders(self, dealer: Seat, phase: str) -> tuple[Seat, ...]:
        return _SEATS if _in_play(phase) else self.callers(dealer)

    def _may_declare(self, dealer: Seat, declarer: Seat, phase: str) -> bool:
        return _in_play(phase) or declarer is not dealer.partner

    def _more(self, world: dict[str, Any], phase: str) -> None:
        offender, dealer = world["offender"], world["dealer"]
        if offender in self.callers(dealer):
            world["succeeding_player"], world["third_player"] = self.other_players(dealer, offender)


def _in_play(phase: str) -> bool:
    return phase in ("play", "scoring")


def _play_effects() -> frozenset[str]:
    """Effects that act on the play, whose seats are the play's (three-hand: the table reseated, the dummy opposite
    the declarer) even in a ruling on the auction: ``in_play`` in the effect vocabulary."""
    from .vocabulary import vocabulary

    return vocabulary().play_kinds()


#: The seat models, by the number of players a code's ``players`` names: the one source of which player
#: counts exist (``schema/code.schema.json`` is checked against it by a test).
MODELS: dict[int, SeatModel] = {4: FourHand(), 3: ThreeHand()}


#: The seats every seating of :meth:`SeatModel.seatings` starts from (the rest it derives from them): the loader
#: proves each chooser fit for every such seating, so an unfit chooser at ruling time reads some other fact.
SEATED = frozenset(("dealer", "offender", "declarer"))


def model_for(players: int) -> SeatModel:
    return MODELS[players]


def _seat(v: Any) -> Seat | None:
    if type(v) is Seat:
        return v
    if isinstance(v, Seat):
        return v
    if isinstance(v, str) and v in ("N", "E", "S", "W"):
        return Seat(v)
    return None


def _seats_of(chooser: Any) -> tuple[Seat, ...]:
    """The seats a chooser value names: a seat, a side's two seats, or each of a list."""
    if isinstance(chooser, (list, tuple)):
        return tuple(s for c in chooser for s in _seats_of(c))
    if isinstance(chooser, Side) or (isinstance(chooser, str) and chooser in ("NS", "EW")):
        return Side(chooser).seats
    s = _seat(chooser)
    return (s,) if s is not None else ()


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
