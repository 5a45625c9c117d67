"""The rulings diff: rule the incidents of every kind under two codes, and say in words what changes
for the players.

Each incident's two rulings are compared item by item — an effect, an option with its chooser and
effects, a fact the referee must ask — after folding the seats into the parts the players play (the
offender, his partner, the declarer, the dummy, the offender's side and the other side) and the bids into
the facts they are (the lowest sufficient bid, the bid made seven…). What one code rules and the other
does not is the difference; differences are grouped by what changes for the players:

1. the penalty amount (the same remedy, other points or tricks);
2. no penalty against a penalty (or the code silent);
3. who chooses;
4. what is enforced (another remedy);
5. what the referee must ask.

A group folds every offender seat for which the difference is the same, cites the laws on both sides,
shows the field that differs when the two sides read alike, and tells one example as a sentence and as
the incident. Incidents come from :mod:`bridgelaw.factspace` (by equivalence classes unless told
otherwise), counted as the incidents of the whole fact space they stand for. ``jobs`` rules the kinds in
several processes; the result is the same, item for item.
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import InputError, did_you_mean
from .factspace import GENERATORS, Case
from .loader import load_code, load_kinds
from .values import Call, Ruling, Seat

__all__ = ["RulingDiff", "DiffGroup", "ruling_diff", "CATEGORIES", "effect_words"]

CATEGORIES = ("penalty amount", "no penalty against a penalty", "who chooses", "what is enforced",
              "what the referee must ask")
_NOTHING = ("no_penalty", "no_provision")  # effect kinds that leave the players as they were
_SEATS = ("N", "E", "S", "W")
_SIDES = ("NS", "EW")


# --------------------------------------------------------------------------
# Words (one place; bridgelaw.wording renders each effect where it is present)


def effect_words(d: Mapping[str, Any]) -> str:
    """One effect (its JSON view) in words: the one renderer's (bridgelaw.wording)."""
    from .wording import effect_sentence

    return str(effect_sentence(dict(d)))


def chooser_words(chooser: str | tuple[str, ...]) -> str:
    from .wording import chooser_words as words

    return str(words(chooser))


_ROLE_WORDS = {"offender": "the offender", "partner": "the offender's partner", "declarer": "the declarer",
               "dummy": "the dummy", "lho": "the offender's left-hand adversary",
               "rho": "the offender's right-hand adversary", "side": "the offender's side",
               "other side": "the other side"}


# --------------------------------------------------------------------------
# Folding a ruling


def _roles(facts: Mapping[str, Any]) -> dict[str, str]:
    off = facts.get("offender")
    decl = facts.get("declarer")
    out: dict[str, str] = {}
    if not isinstance(off, Seat):
        return out
    out[off.value] = "offender"
    out.setdefault(off.partner.value, "partner")
    if isinstance(decl, Seat):
        out.setdefault(decl.value, "declarer")
        out.setdefault(decl.partner.value, "dummy")
    out.setdefault(off.lho.value, "lho")
    out.setdefault(off.rho.value, "rho")
    out[off.side.value] = "side"
    out[off.side.other.value] = "other side"
    return out


def _calls(facts: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in sorted(facts):
        v = facts[name]
        if isinstance(v, Call):
            out.setdefault(v.text, name)
    return out


def _fold_value(v: Any, roles: Mapping[str, str], calls: Mapping[str, str], key: str) -> Any:
    if isinstance(v, list):
        return sorted((_fold_value(x, roles, calls, key) for x in v), key=str)
    if isinstance(v, str) and v in roles and (v in _SEATS or v in _SIDES):
        return f"<{roles[v]}>"
    if isinstance(v, str) and key in ("call",) and v in calls:
        return f"<{calls[v]}>"
    return v


def _fold_effect(d: Mapping[str, Any], roles: Mapping[str, str], calls: Mapping[str, str]) -> str:
    return json.dumps({k: _fold_value(v, roles, calls, k) for k, v in d.items()}, sort_keys=True)


Item = tuple[Any, ...]  # ("effect", json) | ("option", chooser, (json, ...)) | ("asks", fact)


def _items(r: Ruling, fold: bool = True, offender: str | None = None) -> tuple[Item, ...]:
    """The ruling's items; folded (seats as the parts they play, bids as the facts they are, the offender
    ``offender`` when given), or as ruled."""
    facts = {**r.facts, "offender": Seat(offender)} if offender else r.facts
    roles, calls = (_roles(facts), _calls(facts)) if fold else ({}, {})
    out: list[Item] = [("effect", _fold_effect(e.to_dict(), roles, calls)) for e in r.effects]
    for o in r.options:
        out.append(("option", _fold_value(o.chooser, roles, calls, "chooser"),
                    tuple(sorted(_fold_effect(e.to_dict(), roles, calls) for e in o.effects))))
    out += [("asks", q.fact) for q in r.questions]
    return tuple(sorted(out, key=lambda x: json.dumps(x)))


def _minus(a: tuple[Item, ...], b: tuple[Item, ...]) -> tuple[Item, ...]:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return tuple(out)


def _nothing(items: tuple[Item, ...]) -> bool:
    return all(i[0] == "effect" and json.loads(i[1])["kind"] in _NOTHING for i in items)


def _skeleton(item: Item) -> Any:
    """An item with its numbers blanked: two items of one skeleton differ only in amount."""
    def blank(j: str) -> str:
        d = json.loads(j)
        return json.dumps({k: ("#" if isinstance(v, int) and not isinstance(v, bool) else v) for k, v in d.items()},
                          sort_keys=True)

    if item[0] == "effect":
        return ("effect", blank(item[1]))
    if item[0] == "option":
        return ("option", item[1], tuple(sorted(blank(j) for j in item[2])))
    return item


def category(a_all: tuple[Item, ...], b_all: tuple[Item, ...], a_only: tuple[Item, ...],
             b_only: tuple[Item, ...]) -> str:
    if _nothing(a_all) != _nothing(b_all):
        return "no penalty against a penalty"
    if sorted(map(_skeleton, a_only), key=str) == sorted(map(_skeleton, b_only), key=str):
        return "penalty amount"
    if all(i[0] == "asks" for i in a_only + b_only):
        return "what the referee must ask"
    opts_a = sorted((i[2] for i in a_only if i[0] == "option"))
    opts_b = sorted((i[2] for i in b_only if i[0] == "option"))
    if opts_a and opts_a == opts_b and all(i[0] == "option" for i in a_only + b_only):
        return "who chooses"
    return "what is enforced"


# --------------------------------------------------------------------------
# Ruling the cases (in this process or in several)


@dataclass(frozen=True)
class _Tried:
    kind: str
    incident: Mapping[str, Any]
    decided_by: tuple[tuple[str, Any], ...]
    weight: int
    a: tuple[Item, ...]
    b: tuple[Item, ...]
    laws_a: tuple[str, ...]
    laws_b: tuple[str, ...]
    offender: str | None


def _try_kind(args: tuple[str, str, str, str]) -> tuple[list[_Tried], int, int]:
    """Every case of one kind: the tried ones, incidents ruled, incidents of the whole space they stand for."""
    a_id, b_id, kind, how = args
    codes = [load_code(a_id), load_code(b_id)]
    out: list[_Tried] = []
    tried = space = 0
    case: Case
    for case in GENERATORS[how](codes, kind):
        ra, rb = case.rulings
        if ra is None or rb is None:
            continue
        tried += 1
        space += case.weight
        decided = dict(case.decided_by)
        # an offender the rulings never read: the case stands for every seat, a quarter of it each
        seats = [None] if "offender" in decided or "offender" not in case.incident else list(_SEATS)
        for seat in seats:
            ia, ib = _items(ra, offender=seat), _items(rb, offender=seat)
            if ia == ib:
                continue
            derived = ra.facts.get("offender")
            off = seat or (derived.value if isinstance(derived, Seat) else None)
            out.append(_Tried(kind, case.incident, case.decided_by, case.weight // len(seats), ia, ib,
                              tuple(c.number for c in ra.laws), tuple(c.number for c in rb.laws), off))
    return out, tried, space


# --------------------------------------------------------------------------
# The result


@dataclass
class DiffGroup:
    """One difference: what one code rules and the other does not, for one kind of irregularity."""

    kind: str
    category: str
    a_only: tuple[Item, ...]
    b_only: tuple[Item, ...]
    count: int = 0
    seats: list[str] = field(default_factory=list)
    laws_a: list[str] = field(default_factory=list)
    laws_b: list[str] = field(default_factory=list)
    example: Mapping[str, Any] = field(default_factory=dict)
    example_facts: tuple[tuple[str, Any], ...] = ()
    words_a: str = ""
    words_b: str = ""
    fields: list[str] = field(default_factory=list)  # what differs, when the words coincide
    sentence: str = ""
    ruled_a: str = ""
    ruled_b: str = ""

    def to_dict(self, a: str, b: str) -> dict[str, Any]:
        return {"kind": self.kind, "category": self.category, "count": self.count, "offenders": self.seats,
                a: {"does": self.words_a, "laws": self.laws_a, "ruling": self.ruled_a},
                b: {"does": self.words_b, "laws": self.laws_b, "ruling": self.ruled_b},
                "differs_in": self.fields, "example": dict(self.example), "example_in_words": self.sentence}


@dataclass
class RulingDiff:
    a: str
    b: str
    generator: str
    kinds: list[str]
    incidents: int  # incidents ruled under both codes
    space: int  # incidents of the whole fact space they stand for
    groups: list[DiffGroup]

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "generator": self.generator, "kinds": self.kinds,
                "incidents": self.incidents, "fact_space": self.space,
                "differing": sum(g.count for g in self.groups),
                "groups": [g.to_dict(self.a, self.b) for g in self.groups]}


def _item_words(items: Iterable[Item]) -> str:
    """Items as ruled (real seats) in words."""
    parts = []
    for i in items:
        if i[0] == "effect":
            parts.append(effect_words(json.loads(i[1])))
        elif i[0] == "option":
            inner = " and ".join(effect_words(json.loads(j)) for j in i[2])
            parts.append(f"{chooser_words(i[1])} may choose: {inner}")
        else:
            parts.append(f"the referee must ask {_fact_words(i[1])}")
    return "; ".join(parts) or "nothing more"


def _role(v: Any) -> str:
    if isinstance(v, str) and v.startswith("<") and v.endswith(">"):
        name = v[1:-1]
        return _ROLE_WORDS.get(name, f"the {name.replace('_', ' ')}")
    if isinstance(v, list):
        return ", ".join(_role(x) for x in v)
    return str(v)


def _fact_words(name: str) -> str:
    common, kinds = load_kinds()
    for k in kinds.values():
        if name in k.facts:
            return f"“{k.facts[name].ask}”"
    if name in common:
        return f"“{common[name].ask}”"
    return name.replace("_", " ")


def _fields(a_only: tuple[Item, ...], b_only: tuple[Item, ...]) -> list[str]:
    """The fields that differ between items of one kind on the two sides (when their words coincide)."""
    out: list[str] = []
    for x, y in zip(a_only, b_only):
        if x[0] != y[0]:
            continue
        if x[0] == "option" and x[1] != y[1]:
            out.append(f"chooser: {_role(x[1])} → {_role(y[1])}")
        ja = [json.loads(j) for j in (x[2] if x[0] == "option" else (x[1],))] if x[0] != "asks" else []
        jb = [json.loads(j) for j in (y[2] if y[0] == "option" else (y[1],))] if y[0] != "asks" else []
        for ea, eb in zip(ja, jb):
            for k in sorted(set(ea) | set(eb)):
                if ea.get(k) != eb.get(k):
                    out.append(f"{ea.get('kind')}.{k}: {_role(ea.get(k, '—'))} → {_role(eb.get(k, '—'))}")
    return out


_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _sentence(kind: str, inc: Mapping[str, Any], decided_by: tuple[tuple[str, Any], ...]) -> str:
    """The example told: who did what, and the facts that decided it, as the referee would ask them."""
    _, kinds = load_kinds()
    common = load_kinds()[0]
    k = kinds[kind]
    if "auction" in inc:
        seats = ["S", "W", "N", "E"]
        calls = ", ".join(f"{_SEAT_NAMES[seats[i % 4]]} {c}" for i, c in enumerate(inc["auction"]))
        return f"{k.summary} South deals; the auction: {calls} (the offence is {_SEAT_NAMES[seats[1]]}'s call)."
    off = inc.get("offender")
    role = {"E": "the declarer", "W": "the dummy"}.get(off or "", "an adversary of the declarer")
    told = []
    for name, value in decided_by:
        if name == "offender":
            continue
        spec = k.facts.get(name) or common.get(name)
        ask = spec.ask if spec else name
        answer = ("yes" if value else "no") if isinstance(value, bool) else str(value).replace("_", " ")
        told.append(f"{ask} {answer}.")
    who = f"The offender is {_SEAT_NAMES.get(off or '', off)}, {role} (East declares, South dealt)."
    return " ".join([k.summary, who] + told)


def _ruled(r: Ruling | None) -> str:
    if r is None:
        return ""
    parts = [effect_words(e.to_dict()) for e in r.effects]
    for o in r.options:
        parts.append(f"{chooser_words(o.chooser)} may choose [{o.id}]: "
                     + "; ".join(effect_words(e.to_dict()) for e in o.effects))
    parts += [f"asks: {q.ask}" for q in r.questions]
    return " | ".join(parts)


def ruling_diff(a_id: str, b_id: str, kinds: Iterable[str] | None = None, jobs: int = 1,
                generator: str = "classes") -> RulingDiff:
    """Rule every class of incident of each kind under both codes; group the differences in words."""
    from .referee import rule

    a, b = load_code(a_id), load_code(b_id)
    _, all_kinds = load_kinds()
    if generator not in GENERATORS:
        raise InputError("generator", f"unknown generator {generator!r}{did_you_mean(generator, GENERATORS)}")
    chosen = list(kinds) if kinds else sorted(set(a.by_kind) | set(b.by_kind))
    for kind in chosen:
        if kind not in all_kinds:
            raise InputError("--kind", f"unknown kind {kind!r}{did_you_mean(kind, all_kinds)}")
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise InputError("--jobs", f"expected a number of processes, 1 or more, got {jobs!r}")
    tasks = [(a_id, b_id, k, generator) for k in chosen]
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            results = list(pool.map(_try_kind, tasks, chunksize=1))
    else:
        results = [_try_kind(t) for t in tasks]
    groups: dict[tuple[Any, ...], DiffGroup] = {}
    best: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    tried = space = 0
    for cases, n, w in results:
        tried += n
        space += w
        for c in cases:
            a_only, b_only = _minus(c.a, c.b), _minus(c.b, c.a)
            key = (c.kind, a_only, b_only)
            g = groups.get(key)
            if g is None:
                g = groups[key] = DiffGroup(c.kind, category(c.a, c.b, a_only, b_only), a_only, b_only)
            g.count += c.weight
            if c.offender and c.offender not in g.seats:
                g.seats.append(c.offender)
            rank = (len(c.decided_by), sum(1 for _, v in c.decided_by if v not in (False, None)),
                    json.dumps(c.incident, sort_keys=True))
            if key not in best or rank < best[key]:
                best[key] = rank
                g.example, g.example_facts = c.incident, c.decided_by
                g.laws_a, g.laws_b = list(c.laws_a), list(c.laws_b)
    out = sorted(groups.values(), key=lambda g: (CATEGORIES.index(g.category), -g.count, g.kind,
                                                json.dumps([g.a_only, g.b_only])))
    for g in out:
        g.seats.sort(key=_SEATS.index)
        ra, rb = rule({"code": a_id, **g.example}), rule({"code": b_id, **g.example})
        xa, xb = _items(ra, fold=False), _items(rb, fold=False)
        g.words_a, g.words_b = _item_words(_minus(xa, xb)), _item_words(_minus(xb, xa))
        if g.words_a == g.words_b:
            g.fields = _fields(g.a_only, g.b_only)
        g.sentence = _sentence(g.kind, g.example, g.example_facts)
        g.ruled_a, g.ruled_b = _ruled(ra), _ruled(rb)
    return RulingDiff(a_id, b_id, generator, chosen, tried, space, out)


