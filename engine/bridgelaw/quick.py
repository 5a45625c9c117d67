"""The quick path for a well-formed incident: read and derive in one go, or decline.

:func:`quick` reads an incident mapping the way a game engine writes it — the fields by their exact
spelling (seats as ``N E S W``, calls as the engine has already spelt them), under a code already loaded,
four players — and derives its facts as :func:`bridgelaw.facts.derive` does, the auction of an insufficient
or impossible bid included. It never refuses anything: where the incident is anything else (a field it does
not read so, a value to be read leniently, a seat model it does not know, a kind whose record it does not
derive, anything the general path would refuse), it returns ``None`` and the general path
(:func:`~bridgelaw.facts.parse_incident` and :func:`~bridgelaw.facts.derive`) reads the incident and says what
is wrong. The tests fuzz the two against each other: where the quick path answers, the general path gives
the same kind, facts, presumptions and notes.
"""

from __future__ import annotations

import itertools
import operator

from .bids import bid_table
from .evaluation import Facts, MissingFact, Unread, code_of, namespace_base
from .factvalues import coerce_fact
from .errors import InputError
from .incidentcode import check_closed, check_fact, fact_value
from .kit import RulingKit, for_code
from .seats import FourHand
from .values import _CALLS, _SEAT_BY_TEXT, MAX_CALL_LEVEL, Call, CallKind

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable

    from .loader import Code

__all__ = ["quick"]

#: The fields the quick path reads (``callers`` is left to the general path).
_KEYS = frozenset(("code", "irregularity", "dealer", "declarer", "offender", "auction", "offence_at", "facts",
                   "note"))
#: The kinds whose auction record it derives; a record of another kind is left to the general path.
_BIDS = ("insufficient_bid", "impossible_bid")
_PASS = CallKind.PASS
_new = Facts.__new__
#: Facts an auction record shows: given beside one, the general path compares them with it.
#: The bounds of the incident schema the quick path checks (fields of :class:`bridgelaw.incidentbounds._Bounds`),
#: kept by its record of a code as plain values: the schema is read, and its bounds built, once a kit is made.
BOUNDS_READ = ("note_max", "auction_max", "facts_max", "fact_int", "fact_str")
_RECORDED = frozenset(("succeeding_player", "third_player", "succeeding_player_has_bid", "succeeding_player_last_bid",
                       "third_player_has_bid", "third_player_last_bid", "doubled_player", "other_player", "call",
                       "previous_bid", "requisite_call", "impossible", "seven_call", "sufficient", "innocent_side_has_bid",
                       "innocent_last_bid"))


class _Code:
    """What the quick path keeps for one code: the calls of its strains by spelling, its settlers by kind, and
    what each incident would otherwise look up (the catalogue, the schema's bounds, the seat model's rotations
    and adversaries, the bid table's answers for each pair of bids), taken once from where each is defined."""

    __slots__ = ("code", "calls", "settlers", "model", "bids", "closing", "least", "common", "kinds", "bounds",
                 "rotations", "adverse", "pairs")

    def __init__(self, code: Code) -> None:
        from .catalogue import load_kinds

        self.code = code
        self.model = code.seats
        self.bids = bid_table(code)
        #: a pass by each other player and a call after them, as a record's spellings join: the one shape of a
        #: record that may go on past the end of its auction (checked then by the edge's own rule)
        self.closing = " P" * (code.players - 1) + " "
        self.least = code.players  # (a bid, a pass by each other player and one call more)
        self.calls: dict[str, Call] = {}
        self.settlers: dict[str, Callable[[dict[str, Any], list[str]], Facts]] = {}
        #: the irregularity catalogue: its common facts and its kinds
        self.common, self.kinds = load_kinds()
        from .incidentbounds import _bounds

        #: the schema's bounds it checks (:data:`BOUNDS_READ`), by name
        self.bounds = b = {name: getattr(_bounds(), name) for name in BOUNDS_READ}
        seats = tuple(_SEAT_BY_TEXT.values())
        #: each dealer's rotation, as long as the longest record the schema allows (and one call more)
        self.rotations = {d: self.model.rotation(d, b["auction_max"] + 1) for d in seats}
        self.adverse = {s: self.model.adverse_to(s) for s in seats}
        #: (bid, the bid before it) by their spellings: (higher?, the requisite bid, the seven call), as asked
        self.pairs: dict[tuple[str, str], tuple[bool, Call | None, Call]] = {}

    def pair(self, call: Call, prev: Call) -> tuple[bool, Call | None, Call]:
        """What the bid table says of ``call`` over ``prev`` (remembered: the bids are few)."""
        t = self.bids
        strain = call.strain._value_  # type: ignore[union-attr]  # (a bid: it has a strain)
        hit = (t.higher(call, prev), t.requisite(call, prev), t.seven_call(strain))
        if len(self.pairs) < 4096:
            self.pairs[call.text, prev.text] = hit
        return hit

    def learn(self, raw: list[Any]) -> bool:
        """Remember each spelling of ``raw`` that is a call already read, of a strain the code has."""
        strains = self.code.params.get("trick_values") or {}
        for text in raw:
            c = _CALLS.get(text) if type(text) is str else None
            if c is None or c.text != text or (c.strain is not None and c.strain not in strains):  # as the
                return False  # published schema spells a call (1S, not 1s)
            if len(self.calls) < 4096:
                self.calls[text] = c
        return True


def _of(code_id: str) -> _Code | None:
    """The quick path's record of a code this process has loaded, or of its ruling kit (four players only)."""
    code = for_code(code_id)
    if code is None:
        return None
    ctx = code.__dict__.get("_quick")
    if ctx is None:
        if type(code.seats) is not FourHand:
            return None
        ctx = _Code(code)
        object.__setattr__(code, "_quick", ctx)
    return ctx  # type: ignore[no-any-return]


def quick(data: Any) -> tuple[Code, str, Facts, list[str]] | None:
    """The code, the kind to rule on, the facts and the notes of a well-formed incident; None: not quick."""
    if type(data) is not dict or not _KEYS.issuperset(data) or None in data.values():
        return None  # (a field given as null is refused by the general path)
    g = data.get
    code_id, kind_id = g("code"), g("irregularity")
    if type(code_id) is not str or type(kind_id) is not str:
        return None
    ctx = _of(code_id)
    if ctx is None:
        return None
    code = ctx.code
    b = ctx.bounds
    note = g("note")
    if note is not None and (type(note) is not str or len(note) > b["note_max"]):
        return None
    common, kinds = ctx.common, ctx.kinds
    kind = kinds.get(kind_id)
    if kind is None or (kind.no_offender and "offender" in data):
        return None
    dealer, declarer, offender = g("dealer"), g("declarer"), g("offender")
    if dealer is not None and (type(dealer) is not str or (dealer := _SEAT_BY_TEXT.get(dealer)) is None):
        return None
    if declarer is not None and (type(declarer) is not str or (declarer := _SEAT_BY_TEXT.get(declarer)) is None):
        return None
    if offender is not None and (type(offender) is not str or (offender := _SEAT_BY_TEXT.get(offender)) is None):
        return None
    raw = g("auction")
    calls: tuple[Call, ...] = ()
    if raw is not None:
        if type(raw) is not list or dealer is None or len(raw) > b["auction_max"]:
            return None
        try:
            calls = tuple(map(ctx.calls.__getitem__, raw))  # each spelt as a call already read, of its strains
        except (KeyError, TypeError):
            if not ctx.learn(raw):
                return None
            calls = tuple(map(ctx.calls.__getitem__, raw))
    at = g("offence_at")
    if at is not None and (raw is None or type(at) is not int or not 0 <= at < len(calls)):
        return None
    given = g("facts")
    f = _new(Facts)  # (made whole by the settler, without a copy: Facts.__init__ would copy it)
    if given:
        if type(given) is not dict or len(given) > b["facts_max"] or \
                (raw is not None and not _RECORDED.isdisjoint(given)):
            return None  # (facts beside the record are compared with it by the general path)
        strains = code.params.get("trick_values") or {}
        try:
            for name, value in given.items():
                spec = kind.facts.get(name) or common.get(name)
                if spec is None or spec.derive:  # (a fact that follows from others is compared with them there)
                    return None
                fact_value(name, value, b["fact_int"], b["fact_str"])  # within what any fact may be
                v = f[name] = coerce_fact(name, spec, value)
                if type(v) is Call and v.strain is not None and v.strain not in strains:
                    return None
                check_fact(code, kind, spec, v)  # within the fact's own bounds
        except (InputError, TypeError):
            return None
    elif given is not None and type(given) is not dict:
        return None
    if f:
        if any(s is not None and f.get(n, s) is not s for n, s in
               (("dealer", dealer), ("offender", offender), ("declarer", declarer))):
            return None  # a seat given twice, and not the same: the general path says so
        maker = f.get("maker")
        if maker is not None and dealer is not None and maker not in ctx.model.makers(dealer):
            return None  # a maker who is neither the dealer nor his partner: the general path says so
    if dealer is not None:
        f["dealer"] = dealer
    if offender is not None:
        f["offender"] = offender
    if declarer is not None:
        f["declarer"] = declarer
    notes: list[str] = []
    if raw is None:
        if kind_id in ("call_out_of_turn", "double_out_of_turn") or (kind_id in _BIDS and ("call" in f or
                                                                                          "previous_bid" in f)):
            return None  # what the facts alone settle here is the general path's
    elif kind_id in _BIDS:
        if len(raw) > ctx.least and raw.count("P") >= ctx.least - 1 and ctx.closing in " " + " ".join(raw):
            # a pass by each other player after a call, and a call after them: the auction may have closed
            try:
                check_closed(code.players, calls)
            except InputError:
                return None  # a call after the end of the auction: the general path says so
        kind_id = _bid_record(ctx, calls, at, dealer, kind_id, f, notes)  # type: ignore[arg-type]
        if not kind_id:
            return None
        kind = kinds[kind_id]
    else:
        return None
    settle = ctx.settlers.get(kind_id) or _settler(ctx, kind_id, kind, common)
    try:
        facts = settle(f, notes)
    except InputError:
        return None
    return code, kind_id, facts, notes


def prepare(code: Code) -> None:
    """Write, for every kind, what the quick path and the referee use for ``code`` (for a code kept whole:
    its generated sources are compiled now, and kept with it)."""
    from .ruler import ruler

    ctx = _Code(code)
    common, kinds = ctx.common, ctx.kinds
    for kind_id, kind in kinds.items():
        r = ruler(code, kind_id)
        r.explainers, r.shown  # noqa: B018 - written now, to be kept
        if type(code.seats) is FourHand:
            _settler(ctx, kind_id, kind, common)
    if type(code.seats) is FourHand:
        strains = code.params.get("trick_values") or {}
        calls = ["P", "X", "XX"] + [f"{level}{s}" for s in strains for level in range(1, MAX_CALL_LEVEL + 1)]
        for text in calls:
            Call(text)
        ctx.learn(calls)  # every call of the code's strains, spelt as the published schema spells it
        object.__setattr__(code, "_quick", ctx)


def _settler(ctx: _Code, kind_id: str, kind: Any, common: Any) -> Callable[[dict[str, Any], list[str]], Facts]:
    """What :func:`bridgelaw.facts._settle` does for this code and kind, as one function written from the
    catalogue: the implied facts, each default and presumption, the straight-bridge declarer, each derivation
    whose inputs are known, the kind's offender. Where the general path would refuse, it raises."""
    from .facts import _check_proper_leader, _defaults, _derivations, _derive_implied, _implies_anything

    code = ctx.code
    if type(code) is RulingKit:  # its catalogue keeps no condition tree: the settler is written from the catalogue
        common, kind = _with_trees(common, kind)

    ns: dict[str, Any] = {**namespace_base(), "_is": operator.is_, "_NONES": itertools.repeat(None),
                          "_Missing": MissingFact, "_value": code.value_of, "_kind": kind, "_kind_id": kind_id, "_common": common, "_code": code,
                          "_implied": _derive_implied, "_derive_facts": _derive_all, "_offender": _offender,
                          "_proper_leader": _check_proper_leader}
    lines = ["def _settle(f, notes):", "    f.code_value = _value"]
    add = lines.append
    if _implies_anything(kind):
        add("    _implied(_kind_id, _kind, f, notes)")  # the implied facts, and the checks on them
    add("    presumed = ()")
    for j, (name, default) in enumerate(_defaults(kind)):
        ns[f"_D{j}"] = default
        add(f"    if {name!r} not in f:")
        add(f"        f[{name!r}] = _D{j}")
        add(f"        presumed += ({name!r},)")
    for j, (name, default) in enumerate(_defaults(None, common)):
        ns[f"_C{j}"] = default
        add(f"    if {name!r} not in f:")
        add(f"        f[{name!r}] = _C{j}")
    if code.game == "straight-bridge":
        add("    if f.get('dealer') is not None:")
        add("        if f.get('declarer') is not None and f['declarer'] is not f['dealer']:")
        add("            raise _InputError('declarer', 'the dealer plays the combined hands')")
        add("        f['declarer'] = f['dealer']")
        ns["_InputError"] = InputError
    groups = _derivations(common, kind)
    if any(not inputs for group in groups for _, _, inputs in group):
        add("    _derive_facts(f, _common, _kind)")  # one may leave an input unread: the general steps
    else:
        for group in groups:
            for name, derived, inputs in group:
                ns[f"_F{len(ns)}"] = derived
                known = " and ".join(f"f.get({i!r}) is not None" for i in inputs)
                add(f"    if {name!r} not in f and {known}:")
                add("        try:")
                add(f"            f[{name!r}] = _F{len(ns) - 1}(f)")
                add("        except _Missing:")
                add("            pass")
    if "proper_leader" in kind.facts:
        add("    _proper_leader(f)")
    if kind.offender_tree is not None:
        add("    _offender(_kind, f, _code)")
    # what Facts(f, _value, presumed) makes of f, made of f itself: no value None (an unknown fact is absent)
    add("    f.presumed = presumed")
    add("    if any(map(_is, f.values(), _NONES)):")
    add("        for k in [k for k, v in f.items() if v is None]:")
    add("            del f[k]")
    add("    return f")
    src = "\n".join(lines) + "\n"
    exec(code_of(src, f"<bridgelaw {code.id} {kind_id} facts>"), ns)  # written from the catalogue
    fn: Callable[[dict[str, Any], list[str]], Facts] = ns["_settle"]
    ctx.settlers[kind_id] = fn
    return fn


def _with_trees(common: Any, kind: Any) -> tuple[Any, Any]:
    """The catalogue's common facts and ``kind`` with their condition trees, where a ruling kit keeps none
    (:class:`~bridgelaw.evaluation.Unread`): read from the catalogue itself then."""
    if type(kind.offender_tree) is not Unread and not any(type(f.derive_tree) is Unread
                                                          for f in (*common.values(), *kind.facts.values())):
        return common, kind
    from .catalogue import load_kinds

    common, kinds = load_kinds()
    return common, kinds[kind.id]


def _offender(kind: Any, f: dict[str, Any], code: Any) -> None:
    """:func:`bridgelaw.facts._kind_offender` of the kind with its offender's tree (a kit's kind keeps none)."""
    from .facts import _kind_offender

    _kind_offender(_with_trees({}, kind)[1], f, code)


def _derive_all(f: dict[str, Any], common: Any, kind: Any) -> None:
    """:func:`bridgelaw.facts._derive_facts` over the catalogue's derivations with their trees (a kit keeps none)."""
    from .facts import _derive_facts

    _derive_facts(f, *_with_trees(common, kind))


def _bid_record(ctx: _Code, calls: tuple[Call, ...], at: int | None, dealer: Any, kind_id: str,
                f: dict[str, Any], notes: list[str]) -> str:
    """An insufficient or impossible bid read from its auction record, as the general path reads it (the
    offending call and its maker, condonation, the previous bid, the requisite and seven calls, the innocent
    side's last bid, the declarer once the auction is complete); empty where that path would refuse it."""
    if not calls:
        return ""
    count = len(calls)
    if at is None:
        at = count - 1
    rotation = ctx.rotations[dealer]  # (no longer than the schema's bound: checked by the caller)
    call = calls[at]
    seat = rotation[at]
    offender = f.get("offender")
    if (offender is not None and offender is not seat) or not call.is_bid:
        return ""
    f["offender"] = seat
    f["call"] = call
    adverse = ctx.adverse[seat]
    if "condoned" not in f:
        f["condoned"] = at + 1 < count and any(map(adverse.__getitem__, rotation[at + 1:count]))
    i = at - 1
    while i >= 0 and not calls[i].is_bid:
        i -= 1
    if i < 0:
        return ""
    prev = calls[i]
    f["previous_bid"] = prev
    higher, req, seven = ctx.pairs.get((call.text, prev.text)) or ctx.pair(call, prev)
    if higher:
        return ""
    f["impossible"] = req is None
    if req is not None:
        f["requisite_call"] = req
    f["seven_call"] = seven
    if req is None:
        f["sufficient"] = False
    innocent = None
    while i >= 0:  # the innocent side's last bid before the offence (none after the previous bid)
        c = calls[i]
        if c.is_bid and adverse[rotation[i]]:
            innocent = c
            break
        i -= 1
    f["innocent_side_has_bid"] = innocent is not None
    if innocent is not None:
        f["innocent_last_bid"] = innocent
    if req is None:
        if kind_id == "insufficient_bid":
            notes.append(f"{call.text} over {prev.text} cannot be made sufficient without bidding more than "
                         "seven: it is ruled as an impossible declaration.")
            kind_id = "impossible_bid"
    elif kind_id == "impossible_bid":
        return ""
    if count > 3 and calls[-1].kind is _PASS and calls[-2].kind is _PASS and calls[-3].kind is _PASS:
        return ""  # a complete auction: its declarer is the general path's
    return kind_id
