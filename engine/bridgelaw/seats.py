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
:func:`chooser_faults` (in :mod:`bridgelaw.seatcheck`, which ruling never
imports) runs the chooser and the provision's condition over every seating the
model allows (three-valued: a fact the seating does not fix is unknown) and
reports a seating where the condition may hold and the chooser is guilty or no
player at all — a load error. What only an incident can show is checked at
ruling time (:meth:`SeatModel.unfit_chooser`).
"""

from __future__ import annotations

from .values import Seat, Side

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Iterator, Mapping

__all__ = ["SeatModel", "FourHand", "ThreeHand", "MODELS", "model_for", "chooser_faults", "Fault", "REQUIREMENTS"]

#: What the loader asks of a chooser, in :mod:`bridgelaw.seatcheck` (imported when first asked for: ruling needs none
#: of it).
_CHECKS = frozenset(("chooser_faults", "Fault", "evaluate", "U"))


def __getattr__(name: str) -> Any:
    if name in _CHECKS:
        from . import seatcheck

        return getattr(seatcheck, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
