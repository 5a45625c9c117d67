"""The incidents a ruling diff tries: every kind's fact space, whole or by equivalence classes.

:func:`cross_product` is the whole space: every combination of the values of the facts the kind's
provisions read (booleans, the closed choices, a few numbers, every offending seat). It grows as 2^n.

:func:`classes` finds the same rulings with far fewer incidents, as test generators for decision
coverage do: it rules one incident, records which facts the two codes' conditions and effects actually
read, and varies only those — a fact no condition reads, given the values of the facts read before it,
cannot change either ruling, so every value of it is one class. It rules with only some facts known:
a condition, option, chooser or effect that needs a fact not yet known names it; the fact most of them
wait on is given each of its values in turn, and where nothing waits the rulings are settled — one
class, ruled once with its other facts at their first values. Each class says how many incidents of
the whole space it stands for (``weight``), so counts stay those of the whole space.

Kinds ruled from an auction record (insufficient and impossible bids) walk pairs of bids; two pairs are
one class when every code derives facts of the same shape from them (which derived facts are bids,
passes or doubles, which equal which, the derived yes/no facts), provided the codes' provisions read
those bids only whole (an effect's bid) or by their kind — checked on the condition trees; otherwise
every pair is its own class.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from .conditions import Facts
from .errors import BridgelawError
from .facts import derive, higher, parse_incident
from .loader import Code, load_kinds
from .referee import _rule
from .values import MAX_CALL_LEVEL, Call, Ruling, Seat

__all__ = ["Case", "domain", "cross_product", "classes", "GENERATORS", "AUCTION_KINDS"]

AUCTION_KINDS = ("insufficient_bid", "impossible_bid")  # ruled from an auction record: pairs of bids
_FIXED = {"declarer": "E", "dealer": "S"}  # every generated incident: South deals, East declares ...


def _fixed(codes: list[Code]) -> dict[str, str]:
    """... but in straight bridge the dealer plays the combined hands (an incident naming another declarer is
    refused): South deals and declares."""
    if any(c.game == "straight-bridge" for c in codes):
        return {"declarer": _FIXED["dealer"], "dealer": _FIXED["dealer"]}
    return _FIXED
_SEATS = [s.value for s in Seat]


@dataclass(frozen=True)
class Case:
    """One incident tried: its rulings under each code, the facts that decided them, and how many
    incidents of the whole fact space it stands for."""

    kind: str
    incident: Mapping[str, Any]  # without "code"
    decided_by: tuple[tuple[str, Any], ...]  # the facts the rulings read, in the order they were read
    weight: int
    rulings: tuple[Ruling | None, ...]


def domain(codes: Iterable[Code], kind: str) -> list[tuple[str, list[Any]]]:
    """The facts the provisions of ``kind`` read in any of the codes, each with a small domain; the
    offender first (every seat)."""
    common, kinds = load_kinds()
    spec = kinds[kind]
    needed: set[str] = set()
    for code in codes:
        for p in code.by_kind.get(kind, ()):
            needed |= set(p.needs)
            for o in p.options:
                if o.when_text:
                    needed |= set(re.findall(r"[a-z_]+", o.when_text))
    dom: list[tuple[str, list[Any]]] = [("offender", list(_SEATS))]
    for name in sorted(needed):
        f = spec.facts.get(name) or common.get(name)
        if f is None or name in ("offender", "declarer", "dummy", "leader", "dealer", "eldest", "maker"):
            continue
        t = f.type
        if t.name == "bool":
            dom.append((name, [False, True]))
        elif t.choices:
            dom.append((name, list(t.choices)))
        elif t.name == "int":
            dom.append((name, [1, 2]))
        elif t.name == "seat":
            dom.append((name, list(_SEATS)))
        elif t.name == "side":
            dom.append((name, ["NS", "EW"]))
        elif t.name == "card":
            dom.append((name, ["HK"]))
        elif t.name == "suit":
            dom.append((name, ["H"]))
        elif t.name == "call" and name == "call":
            dom.append((name, ["1H", "P", "X", "XX"]))
    return dom


def _incident(kind: str, assignment: Mapping[str, Any], codes: list[Code]) -> dict[str, Any]:
    facts = {k: v for k, v in assignment.items() if k != "offender"}
    return {"irregularity": kind, **_fixed(codes), "offender": assignment["offender"], "facts": facts}


class _Reads(Facts):
    """The facts of one incident, remembering which of ``watched`` were read, in order."""

    __slots__ = ("watched", "log")

    def __init__(self, facts: Facts, watched: frozenset[str], log: list[str]) -> None:
        super().__init__(facts, facts.code_value, facts.presumed)
        self.watched = watched
        self.log = log

    def _note(self, key: str) -> None:
        if key in self.watched and key not in self.log:
            self.log.append(key)

    def __getitem__(self, key: str) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._note(key)
        return super().__contains__(key)


def _plain(v: Any) -> Any:
    if isinstance(v, (Seat,)):
        return v.value
    if isinstance(v, Call):
        return v.text
    return v


def _rule_one(code: Code, inc: Mapping[str, Any], watched: frozenset[str], log: list[str]) -> Ruling | None:
    """Rule ``inc`` under ``code``, adding to ``log`` the watched facts it read (a fact the derivation drops
    or changes counts as read first; an incident the derivation refuses, as reading every fact)."""
    try:
        i = parse_incident({"code": code.id, **inc})
        kind, facts, notes = derive(code, i)
    except BridgelawError:
        log.extend(n for n in sorted(watched) if n not in log)
        return None
    given = {"offender": inc.get("offender"), **inc.get("facts", {})}
    for name in sorted(watched):
        if name in given and (name not in facts or _plain(facts[name]) != given[name]) and name not in log:
            log.append(name)
    reads = _Reads(facts, watched, log)
    ruling = _rule(code, kind, reads, notes)
    reads.watched = frozenset()  # what reads the ruling later (its trace, its words) decides nothing
    return ruling


def cross_product(codes: list[Code], kind: str) -> Iterator[Case]:
    """Every combination of the fact domain (the whole space); auction kinds walk every pair of bids."""
    if kind in AUCTION_KINDS:
        yield from _bid_pairs(codes, kind, reduce=False)
        return
    dom = domain(codes, kind)
    names = [n for n, _ in dom]
    for values in itertools.product(*(v for _, v in dom)):
        a = dict(zip(names, values))
        inc = _incident(kind, a, codes)
        rulings = tuple(_rule_one(c, inc, frozenset(), []) for c in codes)
        yield Case(kind, inc, tuple(a.items()), 1, rulings)


def classes(codes: list[Code], kind: str) -> Iterator[Case]:
    """One incident per class of the fact space (see the module's docstring), depth first."""
    if kind in AUCTION_KINDS:
        yield from _bid_pairs(codes, kind, reduce=True)
        return
    dom = domain(codes, kind)
    values = dict(dom)
    names = [n for n, _ in dom]
    typed, first = _typed(codes, kind, dom)
    stack: list[dict[str, Any]] = [{}]
    while stack:
        fixed = stack.pop()
        open_ = [n for n in names if n not in fixed]
        # a fact the derivation itself turns on (a pass out of turn is ruled as such) is settled first
        early = [n for n in first if n in open_]
        wanted = {early[0]: 1} if early else _wanted(codes, kind, fixed, {n: typed[n] for n in open_})
        if wanted:
            # the fact most conditions, options and effects wait on, each of its values
            x = max(wanted, key=lambda n: (wanted[n], -names.index(n)))
            stack.extend({**fixed, x: v} for v in reversed(values[x]))
            continue
        a = {n: fixed.get(n, values[n][0]) for n in names}
        inc = _incident(kind, a, codes)
        weight = 1
        for n in open_:
            weight *= len(values[n])
        rulings = tuple(_rule_one(c, inc, frozenset(), []) for c in codes)
        yield Case(kind, inc, tuple((n, fixed[n]) for n in names if n in fixed), weight, rulings)


def _typed(codes: list[Code], kind: str, dom: list[tuple[str, list[Any]]]) -> tuple[dict[str, list[Any]], list[str]]:
    """Each fact's values as the derivation types them (seats, calls), and the facts whose value the
    derivation itself turns on (it drops or changes them, or rules another kind)."""
    typed: dict[str, list[Any]] = {}
    first: list[str] = []
    for name, vals in dom:
        typed[name] = []
        for v in vals:
            a = {name: v}
            inc = {"irregularity": kind, **_fixed(codes), **({"offender": v} if name == "offender" else {}),
                   "facts": {} if name == "offender" else a}
            got = None
            for c in codes:
                try:
                    k, facts, _ = derive(c, parse_incident({"code": c.id, **inc}))
                except BridgelawError:  # refused: the derivation turns on this fact
                    if name not in first:
                        first.append(name)
                    continue
                if k != kind or name not in facts or _plain(facts[name]) != v:
                    if name not in first:
                        first.append(name)
                elif got is None:
                    got = facts[name]
            typed[name].append(got if got is not None else v)
    return typed, first


_ASKS = object()  # an evaluation that stops at a fact outside the space: the ruling asks it, whatever else holds


def _settle(fn: Callable[[Facts], Any], facts: Facts, open_: Mapping[str, list[Any]]) -> tuple[bool, Any]:
    """(True, value) when ``fn`` has one value whatever the open facts are — tried over every completion of
    the open facts it reads, so the answer is exact; else (False, the open fact it read first)."""
    from .conditions import MissingFact

    try:
        return True, fn(facts)
    except MissingFact as m:
        if m.name not in open_:
            return True, (_ASKS, m.name)
        seen: list[Any] = []
        for v in open_[m.name]:
            f = Facts({**facts, m.name: v}, facts.code_value, facts.presumed)
            ok, val = _settle(fn, f, {k: vs for k, vs in open_.items() if k != m.name})
            if not ok or (seen and val != seen[0]):
                return False, m.name
            seen.append(val)
        return True, seen[0]


def _wanted(codes: list[Code], kind: str, fixed: Mapping[str, Any], open_: Mapping[str, list[Any]]) -> dict[str, int]:
    """With only ``fixed`` known: the open facts on which some condition, option, chooser or effect of either
    code still turns, each with how many of them turn on it. Empty: both rulings are settled."""
    inc = {"irregularity": kind, **_fixed(codes), **({"offender": fixed["offender"]} if "offender" in fixed else {}),
           "facts": {k: v for k, v in fixed.items() if k != "offender"}}
    wanted: dict[str, int] = {}

    def want(fn: Callable[[Facts], Any], facts: Facts) -> Any:
        ok, val = _settle(fn, facts, open_)
        if not ok:
            wanted[val] = wanted.get(val, 0) + 1
            return None
        return val

    for code in codes:
        try:
            k, derived, _ = derive(code, parse_incident({"code": code.id, **inc}))
        except BridgelawError:  # refused with only these facts known: every open fact may matter
            return {n: 1 for n in open_}
        facts = Facts({n: v for n, v in derived.items() if n not in open_}, derived.code_value,
                      tuple(p for p in derived.presumed if p not in open_))
        provs = code.by_kind.get(k, ())
        when = {p.id: _settle(p.when, facts, open_) for p in provs}
        # a provision surely overridden (by one that surely applies and that nothing that may apply
        # overrides) cannot change the ruling, whatever its own facts are
        maybe = {p.id for p in provs if when[p.id] != (True, False)}
        sure = [p for p in provs if when[p.id] == (True, True)
                and not any(p.id in r.overrides for r in provs if r.id in maybe and r.id != p.id)]
        out = {o for q in sure for o in q.overrides}
        for p in provs:
            if p.id in out:
                continue
            ok, val = when[p.id]
            if not ok:
                wanted[val] = wanted.get(val, 0) + 1
                continue
            if val is not True:
                continue
            fns = [fn for e in p.effects for _, _, fn in e.fields if fn is not None]
            if p.chooser is not None:
                fns.append(p.chooser)
            for o in p.options:
                if o.when is not None:
                    fns.append(o.when)
                fns += [fn for e in o.effects for _, _, fn in e.fields if fn is not None]
            for fn in fns:
                want(fn, facts)
    return wanted


# --------------------------------------------------------------------------
# Pairs of bids


def _bids(codes: list[Code]) -> list[Call]:
    strains = [s for s in ("C", "D", "H", "S", "R", "NT") if all(s in c.params.get("trick_values", {}) for c in codes)]
    top = min(int(c.params.get("max_level", MAX_CALL_LEVEL)) for c in codes)
    return [Call(f"{lv}{s}") for lv in range(1, top + 1) for s in strains]


def _call_facts(kind: str) -> set[str]:
    common, kinds = load_kinds()
    facts = {**common, **kinds[kind].facts}
    return {n for n, f in facts.items() if f.type.name in ("call", "bid")}  # a bid is a call


def _reads_bids_whole(codes: list[Code], kinds: Iterable[str]) -> bool:
    """Do the provisions of these kinds read bid-valued facts only whole or by their kind?"""
    from .conditions import BoolOp, Compare, FnCall, ListExpr, Not, Path, parse

    for kind in kinds:
        calls = _call_facts(kind)

        def ok(node: Any, top: bool) -> bool:
            if isinstance(node, Path):
                if node.names[0] not in calls:
                    return True
                return node.names[1:] in ((), ("kind",)) and (top or node.names[1:] == ("kind",))
            if isinstance(node, FnCall):
                return all(ok(x, False) for x in node.args)
            if isinstance(node, (ListExpr,)):
                return all(ok(x, False) for x in node.items)
            if isinstance(node, Not):
                return ok(node.operand, False)
            if isinstance(node, BoolOp):
                return ok(node.left, False) and ok(node.right, False)
            if isinstance(node, Compare):
                bare = [x for x in (node.left, node.right) if isinstance(x, Path) and x.names[0] in calls
                        and len(x.names) == 1]
                return not bare and ok(node.left, False) and ok(node.right, False)
            return not hasattr(node, "left")  # a literal

        for code in codes:
            for p in code.by_kind.get(kind, ()):
                texts = [p.when_text] + [o.when_text for o in p.options] + \
                    [str(src) for e in list(p.effects) + [e for o in p.options for e in o.effects]
                     for _, src, fn in e.fields if fn is not None]
                for t in texts:
                    if t and t.strip() not in ("true", "false") and not ok(parse(t), True):
                        return False
    return True


def _shape(facts: Mapping[str, Any], calls: set[str]) -> tuple[Any, ...]:
    """The shape of derived facts: bids by kind and by which other bid facts they equal; other facts whole."""
    out: list[tuple[Any, ...]] = []
    for name in sorted(facts):
        v = facts[name]
        if name in calls and isinstance(v, Call):
            same = tuple(sorted(n for n in calls if n != name and isinstance(facts.get(n), Call) and facts[n] == v))
            out.append((name, v.kind.value, same))
        elif isinstance(v, (bool, int, str, Seat)) or v is None:
            out.append((name, _plain(v)))
    return tuple(out)


def _bid_pairs(codes: list[Code], kind: str, reduce: bool) -> Iterator[Case]:
    bids = _bids(codes)
    pairs = [(prev, call) for prev in bids for call in bids if all(not higher(c, call, prev) for c in codes)]
    incidents: list[dict[str, Any]] = [
        {"irregularity": kind, "dealer": _FIXED["dealer"], "auction": [prev.text, call.text] + (["P"] if cond else []),
         "offence_at": 1} for prev, call in pairs for cond in (False, True)]
    if not reduce:
        for inc in incidents:
            yield Case(kind, inc, _varied(inc), 1, tuple(_rule_one(c, inc, frozenset(), []) for c in codes))
        return
    whole = _reads_bids_whole(codes, (kind,) + tuple(k for k in AUCTION_KINDS if k != kind))
    seen: dict[tuple[Any, ...], list[Any]] = {}
    order: list[tuple[Any, ...]] = []
    for inc in incidents:
        key = _profile(codes, inc, kind) if whole else (tuple(inc["auction"]),)
        hit = seen.get(key)
        if hit is None:
            seen[key] = [inc, 1]
            order.append(key)
        else:
            hit[1] += 1
    for key in order:
        inc, weight = seen[key]
        yield Case(kind, inc, _varied(inc), weight, tuple(_rule_one(c, inc, frozenset(), []) for c in codes))


def _varied(inc: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    a = inc["auction"]
    return (("previous_bid", a[0]), ("call", a[1]), ("condoned", len(a) > 2))


def _profile(codes: list[Code], inc: Mapping[str, Any], kind: str) -> tuple[Any, ...]:
    out: list[Any] = []
    derived = []
    for c in codes:
        try:
            k, facts, _ = derive(c, parse_incident({"code": c.id, **inc}))
        except BridgelawError:  # the code refuses the pair (not an impossible bid under it, say): one class
            return ("refused",)
        calls = _call_facts(k)
        out.append((k, _shape(facts, calls)))
        derived.append({n: facts[n] for n in calls if isinstance(facts.get(n), Call)})
    # a bid the codes derive differently (their rankings differ) is a difference of its own
    for n in sorted(set().union(*derived)):
        out.append((n, len({d.get(n) for d in derived}) == 1))
    return tuple(out)


GENERATORS: dict[str, Callable[[list[Code], str], Iterator[Case]]] = {"classes": classes, "all": cross_product}
