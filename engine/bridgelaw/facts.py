"""Turn an incident into facts: check what was given, derive what the record shows.

Given facts are checked against the kind's catalogue entry (type, choices).
From the ``auction`` record the engine derives the offending call and its
maker, the previous bid, the requisite bid for an insufficient bid, whether it
is impossible (sufficient only above seven), the innocent side's last bid,
whether an adversary has called since (condonation), and, once the auction is
complete, the declarer, the dummy and the opening leader.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Mapping

from .bids import bid_table
from .conditions import Env, Facts, MissingFact, compile_expr, names_used
from .errors import InputError, did_you_mean
from .catalogue import FactSpec, Kind, coerce_fact, derivation_order, load_kinds
from . import incidentcode
from .seats import ThreeHand, model_for
from .values import OVER_SEVEN_RE, Call, CallKind, OverSeven, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any

    from .incident import Incident
    from .loader import Code

__all__ = ["Incident", "parse_incident", "derive", "higher", "requisite", "auction_result", "AuctionResult",
           "callers", "caller", "other_players", "seven_call", "sufficient", "three_hand_players"]


#: The incident's shape is checked at the edge (bridgelaw.incident, against schema/incident.schema.json).
def __getattr__(name: str) -> Any:
    """``Incident`` and ``parse_incident`` (the edge's :func:`~bridgelaw.incident.read_incident`), imported when
    first asked for: a ruling from a kit reads no incident at the edge."""
    if name in ("Incident", "parse_incident"):
        from .incident import Incident, read_incident

        return Incident if name == "Incident" else read_incident
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_coerce = coerce_fact  # an incident's facts are read by the catalogue's own rules (its defaults are too)


# --------------------------------------------------------------------------
# The auction


def higher(code: Code, call: Call, than: Call) -> bool:
    """Is bid ``call`` a higher declaration than bid ``than`` under ``code``?

    By value (level times trick value); at equal value the greater number of
    tricks is higher, where the code's ``bid_ranking`` says so (the code's bid table, :mod:`bridgelaw.bids`).
    """
    return bid_table(code).higher(call, than)


def sufficient(code: Code, call: Call, over: Call | None) -> bool:
    """Does bid ``call`` (a bid of more than seven too) overbid ``over``, the last bid before it (None: there is
    none), so that it is no insufficient bid however many tricks it names?"""
    return over is None or bid_table(code).overbids(call, over)


def requisite(code: Code, call: Call, over: Call) -> Call | None:
    """The lowest bid in ``call``'s strain higher than ``over`` (None: not within seven)."""
    return bid_table(code).requisite(call, over)


@dataclass(frozen=True)
class AuctionResult:
    """How an auction record ends: complete or not, the contract, its doubling and its declarer."""

    complete: bool
    contract: Call | None
    doubled: int
    declarer: Seat | None


def callers(dealer: Seat, players: int = 4) -> tuple[Seat, ...]:
    """The seats that call, in rotation from the dealer (the code's seat model: three-hand passes over the
    dummy packet opposite the dealer, T3, note 23)."""
    return model_for(players).callers(dealer)


_THREE = ThreeHand()


def other_players(dealer: Seat, seat: Seat) -> tuple[Seat, Seat]:
    """Three-hand: the player whose turn to call comes next after ``seat``'s, and the third player."""
    return _THREE.other_players(dealer, seat)


def seven_call(code: Code, strain: str) -> Call:
    """The highest bid the code allows in ``strain`` (law 50: "the bid is made seven in the suit named")."""
    return bid_table(code).seven_call(strain)


def caller(dealer: Seat, i: int, players: int = 4) -> Seat:
    """Who made call ``i`` of an auction (counting from the dealer's, 0)."""
    return model_for(players).caller(dealer, i)


def auction_result(dealer: Seat, calls: tuple[Call, ...], players: int = 4,
                   seats: tuple[Seat, ...] = ()) -> AuctionResult:
    """The final declaration and declarer, when the auction is complete.

    Four-handed: final after three passes; the declarer is the first of the partnership to name the
    final strain. Three-hand (T7): final when "passed by both of the others"; the player who made it
    plays it (no partners in the auction, T4). ``seats``: who made each call, where not the rotation.
    """
    last_bid_i = None
    for i, c in enumerate(calls):
        if c.is_bid:
            last_bid_i = i
    if last_bid_i is None:
        return AuctionResult(False, None, 0, None)
    after = calls[last_bid_i + 1:]
    doubled = 0
    for c in after:
        if c.kind is CallKind.DOUBLE:
            doubled = 1
        elif c.kind is CallKind.REDOUBLE:
            doubled = 2
    need = players - 1
    complete = len(after) >= need and all(c.kind is CallKind.PASS for c in after[-need:])
    final = calls[last_bid_i]
    declarer = None
    if complete:  # an auction not yet complete has no declarer
        model = model_for(players)
        bidder = seats[last_bid_i] if seats else model.caller(dealer, last_bid_i)
        for i, c in enumerate(calls):  # the first of the bidder's partnership to name the final strain (three-
            seat = seats[i] if seats else model.caller(dealer, i)  # hand: no partners, so the bidder himself, T7)
            if c.is_bid and c.strain is final.strain and not model.adverse(seat, bidder):
                declarer = seat
                break
    return AuctionResult(complete, final, doubled, declarer)


#: Kinds of a call out of turn whose call may be a pass: a pass out of turn is ruled as one.
_PASS_IS_ITS_OWN = frozenset(("call_out_of_turn", "double_out_of_turn"))
_IN_ROTATION = incidentcode.RECORD_KINDS  # the kinds whose record holds the offending call


def derive(code: Code, inc: Incident) -> tuple[str, Facts, list[str]]:
    """The kind to rule on (it may be reclassified), the facts, and notes on what was derived."""
    common, kinds = load_kinds()
    kind_id = inc.irregularity
    if kind_id not in kinds:
        raise InputError("irregularity", f"unknown kind {kind_id!r}" + did_you_mean(kind_id, kinds)
                         + "; `bridgelaw kinds` lists them")
    kind: Kind = kinds[kind_id]
    incidentcode.check_kind(code, kind)
    notes: list[str] = []
    f: dict[str, Any] = {}
    for name, value in inc.facts.items():
        spec = kind.facts.get(name) or common.get(name)
        if spec is None:
            allowed = sorted(set(kind.facts) | set(common))
            raise InputError(f"facts.{name}", f"not a fact of {kind_id}" + did_you_mean(name, allowed)
                             + f"; its facts are {', '.join(allowed)}")
        if name == "call" and isinstance(value, str) and OVER_SEVEN_RE.match(value):  # a bid of more than seven
            if kind_id != "impossible_bid":
                raise InputError(f"facts.{name}", f"{value} is a bid of more than seven: an impossible declaration, "
                                 "ruled as irregularity impossible_bid")
            f[name] = OverSeven(value, f"facts.{name}")
            continue
        f[name] = _coerce(name, spec, value)
        incidentcode.check_fact(code, kind, spec, f[name])
    given = dict(f)
    _check_strains(code, inc, f)
    incidentcode.check_given_once(f, {"dealer": inc.dealer, "offender": inc.offender, "declarer": inc.declarer})
    if inc.dealer is not None:
        f["dealer"] = inc.dealer
    if inc.offender is not None:
        f["offender"] = inc.offender
    if inc.declarer is not None:
        f["declarer"] = inc.declarer

    if kind_id in _PASS_IS_ITS_OWN and isinstance(f.get("call"), Call) and f["call"].kind is CallKind.PASS \
            and not inc.has_auction:
        notes.append("A pass out of turn is ruled under the pass-out-of-turn provisions.")
        kind_id = "pass_out_of_turn"
        kind = kinds[kind_id]
        f.pop("call", None)
    if isinstance(f.get("call"), OverSeven) and not inc.has_auction:
        if isinstance(f.get("previous_bid"), Call) and f["previous_bid"].is_bid:
            _sufficient_as_given(f, sufficient(code, f["call"], f["previous_bid"]))
        _over_seven(code, f.pop("call"), f, notes, "facts.call")
    if not inc.has_auction and kind_id == "impossible_bid" and isinstance(f.get("call"), Call) \
            and not isinstance(f["call"], OverSeven) and f["call"].is_bid and "previous_bid" not in f:
        if f.setdefault("sufficient", False) is not False:  # a bid of seven or fewer is impossible only when insufficient
            raise InputError("facts.sufficient", f"true cannot be: {f['call'].text}, a bid of seven or fewer, is an "
                             "impossible bid only when it does not overbid the last bid and cannot be made sufficient")
    if not inc.has_auction and kind_id in ("insufficient_bid", "impossible_bid") \
            and isinstance(f.get("call"), Call) and isinstance(f.get("previous_bid"), Call):
        call, prev = f["call"], f["previous_bid"]
        if call.is_bid and prev.is_bid:  # the same facts an auction record would give
            req = requisite(code, call, prev)
            shown = f"{call.text} over {prev.text}"
            _as_given(f, "impossible", req is None, shown + (" cannot be made sufficient within seven" if req is None
                                                             else f" can be made sufficient at {req.text}"))
            if req is not None:
                _as_given(f, "requisite_call", req, f"{shown} is made sufficient at {req.text}")
            elif f.get("requisite_call") is not None:
                raise InputError("facts.requisite_call", f"{f['requisite_call'].text} cannot be: {shown} cannot be made "
                                 "sufficient within seven, so there is no requisite bid (facts.impossible is true)")
            _seven_as_given(code, f, call)
            if kind_id == "impossible_bid" and req is None:
                _sufficient_as_given(f, False)
    elif not inc.has_auction and isinstance(f.get("call"), Call) and f["call"].is_bid \
            and not isinstance(f["call"], OverSeven):
        _check_call_facts(code, f, f["call"])
    if inc.has_auction:
        if inc.dealer is None:
            raise InputError("dealer", "is required with an auction record (calls are read from the dealer on)")
        if inc.callers:
            incidentcode.check_callers(code, inc.dealer, inc.callers, inc.auction)
        incidentcode.check_closed(code.players, inc.auction)
        shown = _RECORD_FACTS | (_RECORD_CALL_FACTS if kind_id in incidentcode.RECORD_KINDS else frozenset())
        stated = {n: f.pop(n) for n in list(f) if n in shown}  # what the record shows, it shows: compared below
        kind_id = _derive_auction(code, inc, kind_id, f, notes)
        kinds_ = load_kinds()[1]
        kind = kinds_[kind_id]
        incidentcode.check_agrees(stated, f, "the auction record")
        for n, v in stated.items():
            f.setdefault(n, v)
    _auction_players(code, kind, f, given)
    return _settle(code, kind_id, kind, common, f, notes, given)


def _settle(code: Code, kind_id: str, kind: Kind, common: Mapping[str, FactSpec], f: dict[str, Any],
            notes: list[str], given: Mapping[str, Any]) -> tuple[str, Facts, list[str]]:
    """What follows once the incident's own facts are read: the facts they imply, the presumptions, the
    straight-bridge declarer, the catalogue's derivations, the kind's offender; then the seats checked against the
    code (``given``: the facts as the incident gave them)."""
    _derive_implied(kind_id, kind, f, notes)
    presumed = []
    for name, default in _defaults(kind):
        if name not in f:
            f[name] = default
            presumed.append(name)
    for name, default in _defaults(None, common):
        if name not in f:
            f[name] = default
    if code.game == "straight-bridge" and f.get("dealer") is not None:
        # in straight bridge the dealer always plays the combined hands
        if f.get("declarer") is not None and f["declarer"] is not f["dealer"]:
            raise InputError("declarer", f"in straight bridge the dealer plays the combined hands: the declarer is "
                             f"the dealer {f['dealer'].value}, not {f['declarer'].value}")
        f["declarer"] = f["dealer"]
    _derive_facts(f, common, kind)
    if "proper_leader" in kind.facts:
        _check_proper_leader(f)
    _kind_offender(kind, f, code)
    incidentcode.check_seats(code, kind, f, given)
    return kind_id, Facts(f, code.value_of, tuple(presumed)), notes


def _as_given(f: dict[str, Any], name: str, shown: Any, because: str) -> None:
    """A fact the incident's bids show: derived where not given; given too, it must agree (``because``: what the
    bids show, said when it does not)."""
    had = f.setdefault(name, shown)
    if had != shown:
        raise InputError(f"facts.{name}", f"{incidentcode.show(had)} does not match the bids given: {because}")


def _seven_as_given(code: Code, f: dict[str, Any], call: Call) -> None:
    """The bid made seven in the call's strain (law 50's "made seven in the suit named"): given, it must be that."""
    seven = seven_call(code, _strain(call))
    _as_given(f, "seven_call", seven, f"the bid made seven in the strain of {call.text} is {seven.text}")


def _check_call_facts(code: Code, f: dict[str, Any], call: Call) -> None:
    """A bid given without the bid it was made over: the facts given beside it that its own strain and level
    settle -- the bid made seven in its strain, and a requisite bid (higher, in its strain) -- and a requisite bid
    beside ``impossible: true`` (a bid that cannot be made sufficient has none)."""
    if "seven_call" in f:
        _seven_as_given(code, f, call)
    req = f.get("requisite_call")
    if not isinstance(req, Call):
        return
    if f.get("impossible") is True:
        raise InputError("facts.requisite_call", f"{req.text} contradicts facts.impossible: true (a bid that cannot "
                         "be made sufficient within seven has no requisite bid): give one of the two")
    if req.strain is not call.strain:
        raise InputError("facts.requisite_call", f"{req.text} is not in the strain of {call.text}: the requisite bid "
                         f"is the lowest sufficient bid in the strain named, a bid in {call.strain.value if call.strain else '?'}")
    if not higher(code, req, call):
        raise InputError("facts.requisite_call", f"{req.text} is not higher than {call.text}: the requisite bid "
                         "makes the insufficient bid sufficient, so it names more tricks in the same strain")


def _sufficient_as_given(f: dict[str, Any], shown: bool) -> None:
    """Whether the bid overbids the previous bid, as its call and the previous bid show: given too, it must agree."""
    had = f.setdefault("sufficient", shown)
    if had is not shown:
        call, prev = f.get("call"), f["previous_bid"]
        raise InputError("facts.sufficient", f"{str(had).lower()} does not match the bids given: {call.text} "
                         f"{'overbids' if shown else 'does not overbid'} {prev.text}")


#: Facts an auction record shows, where it is given: given as well, they must agree with it.
_RECORD_FACTS = frozenset(("succeeding_player", "third_player", "succeeding_player_has_bid", "succeeding_player_last_bid",
                           "third_player_has_bid", "third_player_last_bid", "doubled_player", "other_player"))
#: ... and, for a kind whose record holds the offending call, the facts of that call.
_RECORD_CALL_FACTS = frozenset(("call", "previous_bid", "requisite_call", "impossible", "seven_call", "sufficient",
                                "innocent_side_has_bid", "innocent_last_bid"))


def _auction_players(code: Code, kind: Kind, f: dict[str, Any], given: Mapping[str, Any]) -> None:
    """The players the seat model names from the dealer and the offender (three-hand: the player next after the
    offender and the third), where not given; given, they must be those players."""
    dealer, offender = f.get("dealer"), f.get("offender")
    if not isinstance(dealer, Seat) or not isinstance(offender, Seat):
        return
    gone = code.seats.no_player(kind.phase, dealer, None)
    if gone is not None and offender is gone[0]:
        return  # refused as the offender (incidentcode.check_seats)
    for name, seat in code.seats.players_of(kind.phase, dealer, offender).items():
        if name not in kind.facts:
            continue
        had = given.get(name)
        if had is not None and had is not seat:
            raise InputError(f"facts.{name}", f"{had.value} is not the {name.replace('_', ' ')}: with the dealer "
                             f"{dealer.value} and the offender {offender.value}, it is {seat.value}")
        f[name] = seat


def _strain(call: Call) -> str:
    """The strain of a bid (every call the auction reads a strain of is a bid)."""
    if call.strain is None:
        raise InputError("call", f"{call.text} is not a bid: it names no strain")
    return call.strain.value


_DERIVERS: dict[int, tuple[Any, tuple[tuple[str, Any, tuple[str, ...]], ...]]] = {}


def _derive_facts(f: dict[str, Any], common: Mapping[str, FactSpec], kind: Kind) -> None:
    """The facts the catalogue derives by an expression (``dummy: partner(declarer)``), where not given and
    their inputs are known; in the catalogue's order, so one may read another."""
    for derivations in _derivations(common, kind):
        if not derivations:
            continue
        facts: Facts | None = None
        for name, fn, inputs in derivations:
            if name in f:
                if inputs and None not in map(f.get, inputs):  # given, and what it follows from given too
                    try:
                        want = fn(f)
                    except MissingFact:
                        continue
                    if want is not None and f[name] != want:  # else the ruling would stand on two seats at once
                        spec = common.get(name) or kind.facts[name]
                        shown = ", ".join(f"{i} {_text(f[i])}" for i in inputs)
                        raise InputError(f"facts.{name}", f"{_text(f[name])}, but the {name} follows from the "
                                         f"other facts: {spec.derive} is {_text(want)} ({shown}); leave the "
                                         f"{name} out, or make them agree")
                continue
            if inputs:  # it reads every fact it names, and no bid's value: where one is unknown, so is it
                if None in map(f.get, inputs):
                    continue
                try:
                    f[name] = fn(f)
                    if facts is not None:
                        facts[name] = f[name]
                except MissingFact:
                    pass
                continue
            if facts is None:
                facts = Facts(f, _no_value)
            try:
                f[name] = facts[name] = fn(facts)
            except MissingFact:  # an input is not known: the fact stays unknown (asked if a provision needs it)
                pass


def _text(v: Any) -> str:
    return str(getattr(v, "value", v))


def _derivations(common: Mapping[str, FactSpec], kind: Kind) -> tuple[tuple[tuple[str, Any, tuple[str, ...]], ...], ...]:
    """The common facts' derivations, then the kind's: each (fact, compiled expression, the facts it reads
    whatever their values — empty where it may not read them all), in the catalogue's order."""
    out = []
    for specs in (common, kind.facts):
        hit = _DERIVERS.get(id(specs))
        if hit is None or hit[0] is not specs:  # keyed by identity, checked: a reloaded catalogue is new
            env = Env({n: s.type for n, s in {**common, **kind.facts}.items()})
            order = derivation_order(specs) or ()
            hit = _DERIVERS[id(specs)] = (specs, tuple((n, compile_expr(tree, env), _reads_all(tree)) for n in order
                                                       if (tree := specs[n].derive_tree) is not None))
        out.append(hit[1])
    return tuple(out)


def _reads_all(tree: Any) -> tuple[str, ...]:
    """The facts a derivation reads whatever their values, where it reads them from the facts alone (none:
    it may leave some unread, ``a or b``, or it prices a bid)."""
    from .conditions import BoolOp, FnCall

    todo, names = [tree], names_used(tree)
    while todo:
        node = todo.pop()
        if isinstance(node, BoolOp) or (isinstance(node, FnCall) and node.name == "value"):
            return ()
        todo.extend(v for v in vars(node).values() if hasattr(v, "line"))
        todo.extend(x for v in vars(node).values() if isinstance(v, tuple) for x in v if hasattr(x, "line"))
    return tuple(sorted(names))


def _kind_offender(kind: Kind, f: dict[str, Any], code: Code) -> None:
    """Where the kind says who commits it (``offender: dealer``), the incident's offender must be that seat;
    an incident that names none has it filled in."""
    if kind.offender_tree is None:
        return
    fn = _OFFENDERS.get(id(kind))
    if fn is None or fn[0] is not kind:
        fn = _OFFENDERS[id(kind)] = (kind, compile_expr(kind.offender_tree, Env({})))
    try:
        who = fn[1](Facts(f, _no_value))
    except MissingFact:
        return
    given = f.get("offender")
    if given is None:
        f["offender"] = who
    elif given is not who:
        raise InputError("offender", f"{kind.id.replace('_', ' ')} is committed by the {kind.offender} "
                         f"({who.value}); the incident names {given.value}")


_OFFENDERS: dict[int, tuple[Kind, Any]] = {}


def _no_value(call: Call) -> int:  # pragma: no cover - no derivation prices a bid
    raise MissingFact("value")


# --------------------------------------------------------------------------
# Facts the rest of the incident settles: derived, not asked


def _derive_implied(kind_id: str, kind: Kind, f: dict[str, Any], notes: list[str]) -> None:
    """Derive each fact that another fact of the incident determines, where it is not given; refuse a leader
    named from the innocent side."""
    for given, value, implied, implied_value, why, said in _implied_of(kind):
        if f.get(given) is None:
            continue
        if not value(f[given]):
            continue
        want = implied_value(f[given]) if callable(implied_value) else implied_value
        if implied in f and f[implied] is not None:
            continue  # given: each code reads the fact its own law names (a table answers one over the other)
        f[implied] = want
        notes.append(said)
    leader = f.get("next_leader")
    offender = f.get("offender")
    if "next_leader" in kind.facts and isinstance(leader, Seat) and isinstance(offender, Seat) \
            and leader.side is not offender.side:
        mates = " or ".join(s.value for s in Seat if s.side is offender.side)
        raise InputError("facts.next_leader", f"{leader.value} is not of the offending side: the lead is called from "
                         f"the player of the offender's side ({mates}) whose turn it is next to lead")


def _check_proper_leader(f: Mapping[str, Any]) -> None:
    """Who should have led, beside a lead out of turn: never the player who led (the offender), and to the first
    trick the opening leader (the ``leader`` fact, as the incident gives it or the catalogue derives it)."""
    proper = f.get("proper_leader")
    if not isinstance(proper, Seat):
        return
    if proper is f.get("offender"):
        raise InputError("facts.proper_leader", f"{proper.value} is the offender, who led out of turn: name the "
                         "player whose turn it was to lead")
    leader = f.get("leader")
    if f.get("trick") == 1 and isinstance(leader, Seat) and proper is not leader:
        raise InputError("facts.proper_leader", f"to the first trick the opening leader ({leader.value}, on the "
                         f"declarer's left) leads; the incident names {proper.value}")


_IMPLIED_BY_KIND: dict[int, tuple[Kind, tuple[tuple[str, Any, str, Any, str, str], ...]]] = {}


def _implied_of(kind: Kind) -> tuple[tuple[str, Any, str, Any, str, str], ...]:
    """The facts one fact implies that ``kind`` reads (the rows of :data:`_IMPLIED` naming two of its facts)."""
    hit = _IMPLIED_BY_KIND.get(id(kind))
    if hit is None or hit[0] is not kind:  # keyed by identity, checked: a reloaded catalogue is new
        hit = _IMPLIED_BY_KIND[id(kind)] = (kind, tuple(x for x in _IMPLIED if x[0] in kind.facts
                                                       and x[2] in kind.facts))
    return hit[1]


def _implies_anything(kind: Kind) -> bool:
    """Does :func:`_derive_implied` do anything for ``kind`` (a fact it implies, or a leader it checks)?"""
    return bool(_implied_of(kind)) or "next_leader" in kind.facts

# (given fact, when its value settles another, the fact settled, its value, why, and the note said in words) — each
# read by the kinds that have both facts
_IMPLIED: tuple[tuple[str, Any, str, Any, str, str], ...] = (
    ("followed_by", lambda v: v != "nobody", "accepted", True,
     "a lead is accepted when the next hand plays to it",
     "A card had been played to the lead: the lead was accepted."),
    ("followed_by", lambda v: v == "nobody", "accepted", False,
     "a lead no card was played to was not accepted",
     "No card had been played to the lead: it was not accepted."),
    ("accepted", lambda v: v is False, "followed_by", "nobody",
     "a lead not accepted has had no card played to it",
     "The lead was not accepted: no card had been played to it."),
    ("all_threw", lambda v: v is True, "threw_cards", True,
     "when all four players throw their cards on the table, the offender threw his",
     "All four players threw their cards on the table: the offender threw his."),
    ("established", lambda v: v is True, "quitted", True,
     "a revoke is established when its trick is turned and quitted or the next trick begun",
     "The revoke is established: its trick is taken as turned and quitted."),
    ("both_claimants_looked", lambda v: v is True, "claimant_looked", True,
     "both players entitled to claim had looked at their cards",
     "Both players entitled to claim had looked at their cards: the claimant had."),
    ("claimant_looked", lambda v: v is False, "both_claimants_looked", False,
     "neither the claimant nor his partner had looked at his cards",
     "Neither the claimant nor his partner had looked at his cards."),
)


def _check_strains(code: Code, inc: Incident, f: Mapping[str, Any]) -> None:
    """Every bid of the incident (its call facts and its auction) in a strain the code has: its trick values
    name them (no royal spades before the codes that score them)."""
    strains = code.params.get("trick_values") or {}
    for n, v in f.items():
        if isinstance(v, Call) and v.strain is not None and v.strain not in strains:
            _no_strain(code, f"facts.{n}", v, strains)
    for i, c in enumerate(inc.auction):
        if c.strain is not None and c.strain not in strains:
            _no_strain(code, f"auction[{i}]", c, strains)


def _no_strain(code: Code, where: str, c: Call, strains: Mapping[str, Any]) -> None:
    strain = c.strain.value if c.strain is not None else c.text
    raise InputError(where, f"{c.text!r}: {code.id} has no {strain} declaration "
                            f"(its strains: {', '.join(strains)})")


_DEFAULTS: dict[int, tuple[Any, tuple[tuple[str, Any], ...]]] = {}


def _defaults(kind: Kind | None, common: Mapping[str, FactSpec] | None = None) -> tuple[tuple[str, Any], ...]:
    """The (fact, default) pairs of a kind (or of the common facts), worked out once."""
    specs = kind.facts if kind is not None else (common or {})
    hit = _DEFAULTS.get(id(specs))
    if hit is None or hit[0] is not specs:  # keyed by identity, checked: a reloaded catalogue is new
        hit = _DEFAULTS[id(specs)] = (specs, tuple((n, s.default) for n, s in specs.items() if s.default is not None))
    return hit[1]


def _derive_auction(code: Code, inc: Incident, kind_id: str, f: dict[str, Any], notes: list[str]) -> str:
    dealer = inc.dealer
    if dealer is None:
        raise InputError("dealer", "is required with an auction record (calls are read from the dealer on)")
    calls = inc.auction
    n = code.players
    model = code.seats
    if inc.callers:
        order = callers(dealer, n)

        seats = inc.callers

        def who(i: int) -> Seat:  # who made call i (i == len(calls): whose turn it is)
            if i < len(inc.callers):
                return inc.callers[i]
            return order[(order.index(inc.callers[-1]) + 1 + i - len(inc.callers)) % n]
    else:
        seats = model.rotation(dealer, len(calls) + 1)
        who = seats.__getitem__  # who made call i (i == len(calls): whose turn it is)
    phase = load_kinds()[1][kind_id].phase
    packet = code.seats.no_player("auction", dealer, None)
    if packet is not None and f.get("declarer") is packet[0]:
        raise InputError("declarer", f"{packet[1]}, and it never declares")
    if packet is not None and f.get("offender") is packet[0] and phase not in ("play", "scoring"):
        raise InputError("offender", f"{packet[1]}, and it never calls or offends")
    if kind_id in _IN_ROTATION:
        if not calls:
            raise InputError("auction", f"is empty; for {kind_id} it must end with (or contain, see offence_at) "
                             "the offending call")
        at = inc.offence_at if inc.offence_at is not None else len(calls) - 1
        call = calls[at]
        seat = who(at)
        if f.get("offender") is not None and f["offender"] is not seat:
            raise InputError("offender", f"{f['offender'].value} does not match the auction: auction[{at}] "
                             f"({call.text}) was made by {seat.value}, "
                             + ("as callers says" if inc.callers else f"counting from the dealer {dealer.value}"))
        incidentcode.check_record(kind_id, calls, at, who, model.adverse)
        f["offender"] = seat
        f["call"] = call
        adverse = model.adverse_to(seat)
        f.setdefault("condoned", any(adverse[s] for s in seats[at + 1:len(calls)]))
        before = calls[:at]
        prev_i = next((i for i in range(at - 1, -1, -1) if before[i].is_bid), None)
        if isinstance(call, OverSeven):  # an impossible declaration: no call the record can go on from
            del f["call"]
            _over_seven(code, call, f, notes, f"auction[{at}]")
            if at + 1 < len(calls) and all(c.kind is CallKind.PASS for c in calls[at + 1:]) \
                    and len(calls) - at - 1 >= n - 1:
                raise InputError(f"auction[{len(calls) - 1}]", f"the auction cannot close on {call.text}, a bid of "
                                 "more than seven: end the record with it (or with the calls that followed it "
                                 "before the penalty was demanded, short of closing the auction)")
            if prev_i is not None:
                f["previous_bid"] = before[prev_i]
            f["sufficient"] = sufficient(code, call, before[prev_i] if prev_i is not None else None)
            innocent = [c for c, s in zip(before, seats) if c.is_bid and adverse[s]]
            f["innocent_side_has_bid"] = bool(innocent)
            if innocent:
                f["innocent_last_bid"] = innocent[-1]
        elif kind_id in ("insufficient_bid", "impossible_bid"):
            if not call.is_bid:
                raise InputError(f"auction[{at}]", f"{call.text} is not a bid; an {kind_id.replace('_', ' ')} "
                                 "must be a bid")
            if prev_i is None:
                raise InputError(f"auction[{at}]", f"{call.text} is the first bid of the auction; nothing "
                                 "before it to be insufficient to")
            prev = before[prev_i]
            f["previous_bid"] = prev
            if higher(code, call, prev):
                raise InputError(f"auction[{at}]", f"{call.text} is higher than {prev.text} under {code.id}: "
                                 "it is sufficient, not an irregularity")
            req = requisite(code, call, prev)
            f["impossible"] = req is None
            if req is not None:
                f["requisite_call"] = req
            f["seven_call"] = seven_call(code, _strain(call))
            if req is None:
                f["sufficient"] = False
            innocent = [c for c, s in zip(before, seats) if c.is_bid and adverse[s]]
            f["innocent_side_has_bid"] = bool(innocent)
            if innocent:
                f["innocent_last_bid"] = innocent[-1]
            if kind_id == "insufficient_bid" and req is None:
                notes.append(f"{call.text} over {prev.text} cannot be made sufficient without bidding more than "
                             "seven: it is ruled as an impossible declaration.")
                kind_id = "impossible_bid"
            elif kind_id == "impossible_bid" and req is not None:
                raise InputError("irregularity", f"{call.text} over {prev.text} can be made sufficient at "
                                 f"{req.text}: that is an insufficient bid, not an impossible one")
    elif inc.offence_at is not None:  # else it would be ignored: the turn, condonation, read from the wrong calls
        raise InputError("offence_at", f"points at the offending call of the record, but a {kind_id} record holds "
                         "only the calls before the offence (the offending call, if any, is facts.call; whether an "
                         "adversary called after it, facts.condoned); offence_at goes with "
                         + ", ".join(sorted(_IN_ROTATION)))
    if kind_id in ("call_out_of_turn", "pass_out_of_turn", "double_out_of_turn"):
        if kind_id in _PASS_IS_ITS_OWN and isinstance(f.get("call"), Call) and f["call"].kind is CallKind.PASS:
            notes.append("A pass out of turn is ruled under the pass-out-of-turn provisions.")
            kind_id = "pass_out_of_turn"
        turn = who(len(calls))
        f["turn"] = turn
        if f.get("offender") is not None and f["offender"] is turn:
            raise InputError("offender", f"it was {turn.value}'s turn after {len(calls)} call(s) from dealer "
                             f"{dealer.value}: that call was in turn")
    if isinstance(code.seats, ThreeHand) and f.get("offender") is not None and phase not in ("play", "scoring"):
        upto = (inc.offence_at if inc.offence_at is not None else len(calls) - 1) if kind_id in _IN_ROTATION \
            else len(calls)
        three_hand_players(dealer, calls[:upto], kind_id, f, tuple(who(i) for i in range(upto)))
    need = n - 1  # complete only after the other players pass (auction_result): not before
    if len(calls) <= need or any(c.kind is not CallKind.PASS for c in calls[-need:]):
        return kind_id
    result = auction_result(dealer, calls, n, tuple(who(i) for i in range(len(calls))) if inc.callers else ())
    if result.complete and result.declarer is not None:
        if f.get("declarer") is not None and f["declarer"] is not result.declarer:
            raise InputError("declarer", f"{f['declarer'].value} does not match the auction: the declarer of "
                             f"{result.contract} is {result.declarer.value}")
        f["declarer"] = result.declarer
        f.setdefault("contract", result.contract)
    return kind_id



def _over_seven(code: Code, call: OverSeven, f: dict[str, Any], notes: list[str], where: str) -> None:
    """A bid of more than seven: the facts the ruling reads from it (the bid made seven in its strain), the call
    itself being none a law can hold."""
    if code.game != "auction":
        raise InputError(where, f"{call.text}: under {code.id} (straight bridge) a declaration names a trump, never a "
                         "number of tricks, so no bid is of more than seven")
    if call.strain is None or call.strain.value not in (code.params.get("trick_values") or {}):
        raise InputError(where, f"{code.id} has no {call.strain.value if call.strain else call.text} declaration")
    _seven_as_given(code, f, call)
    notes.append(f"{call.text} is a bid of more than seven: an impossible declaration (the bid made seven in the "
                 f"suit named is {f['seven_call'].text}).")


def three_hand_players(dealer: Seat, calls: tuple[Call, ...], kind_id: str, f: dict[str, Any],
                        seats: tuple[Seat, ...]) -> None:
    """Three-hand: the other two players of an offender, named from the calls before the offence."""
    offender: Seat = f["offender"]
    succeeding, third = other_players(dealer, offender)
    f.setdefault("succeeding_player", succeeding)
    f.setdefault("third_player", third)
    bids = [(seats[i], c) for i, c in enumerate(calls) if c.is_bid]
    if kind_id == "impossible_bid":
        for who, name in ((succeeding, "succeeding_player"), (third, "third_player")):
            own = [c for s, c in bids if s is who]
            f.setdefault(f"{name}_has_bid", bool(own))
            if own:
                f.setdefault(f"{name}_last_bid", own[-1])
    if kind_id in ("call_out_of_turn", "double_out_of_turn") and bids:
        call = f.get("call")
        if isinstance(call, Call) and call.kind is CallKind.DOUBLE:
            doubled = bids[-1][0]
            if doubled is offender:  # no law rules it: he would choose his own penalty (T10) and score it
                raise InputError("call", f"{offender.value} doubles his own declaration ({bids[-1][1].text}): only "
                                 "another player's declaration may be doubled (each bids on his own account)")
            f.setdefault("doubled_player", doubled)
            other = next((s for s in callers(dealer, 3) if s is not offender and s is not doubled), None)
            if other is not None:
                f.setdefault("other_player", other)
