"""The referee: walk a code's provisions for a kind in printed law order and rule.

For each provision that answers the incident's kind the referee tests its
condition. A provision whose condition needs a fact nobody gave yields a
question, never a guess. Provisions that apply may override others
(condonation over the penalty, a later revoke over the first-revoke penalty,
the dummy's forfeiture); what remains gives the ruling's effects and options.
Every provision considered is in the trace, with why it did or did not apply.
Where nothing applies and nothing is asked, the code is silent: the ruling
says ``no_provision`` and invents nothing.
"""

from __future__ import annotations


from .evaluation import Facts, MissingFact
from .errors import InputError, RulingError
from .quick import quick
from .values import Call, Card, Effect, EffectKind, LawCitation, Option, Question, Ruling, Seat, Side

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start (nor, by a ruling from a kit, the
    from typing import Any, Mapping  # loader)

    from .facts import Incident
    from .loader import Code
    from .provision import EffectSpec, Provision

__all__ = ["rule"]


def rule(incident: Mapping[str, Any] | Incident) -> Ruling:
    """Rule on one incident (a mapping as in ``schema/incident.schema.json``, or an :class:`Incident`)."""
    hit = quick(incident)  # a well-formed incident under a code already loaded: read and derived at once
    if hit is not None:
        return _rule(*hit)
    from .facts import derive, parse_incident
    from .loader import load_code

    inc = parse_incident(incident)
    code = load_code(inc.code)
    kind, facts, notes = derive(code, inc)
    return _rule(code, kind, facts, notes)


def _rule(code: Code, kind: str, facts: Facts, notes: list[str]) -> Ruling:
    """Rule on derived facts: the code's compiled function for the kind (:mod:`bridgelaw.ruler`) does it."""
    rulers = code.__dict__.get("_rulers")
    r = rulers.get(kind) if rulers is not None else None
    if r is None:
        from .ruler import ruler

        r = ruler(code, kind)
    return r.run(facts, notes)


def _follow(code: Code, kind: str, p: Provision, facts: Facts) -> tuple[list[Effect], list[Option]]:
    """What follows from one provision that applies and stands, step by step: its effects, its chooser, each
    option whose condition holds with its effects (the compiled function does the same in one go, and replays a
    provision here to raise what is wrong with it at its place)."""
    asked: dict[str, list[Provision]] = {}
    p_effects = _effects(p.effects, facts, p)
    p_options: list[Option] = []
    if p.options:
        chooser = _chooser(code, kind, p, facts)
        for o in p.options:
            try:
                if o.when is not None and not o.when(facts):
                    continue
            except MissingFact as m:  # this option alone waits on an answer
                asked.setdefault(_asked_name(m.name, facts), []).append(p)
                continue
            try:
                o_effects = tuple(_effects(o.effects, facts, p))
            except MissingFact as m:  # stated now, priced once the fact is answered
                p_options.append(Option(o.id, chooser, p.law, (), p.full_id, o.label, (_asked_name(m.name, facts),)))
                continue
            p_options.append(Option(o.id, chooser, p.law, o_effects, p.full_id, o.label))
    return p_effects, p_options


def _no_provision(code: Code, effects: list[Effect], notes: list[str], has_provisions: bool) -> None:
    """Where nothing applies and nothing is asked, the code is silent: it says so, and invents nothing."""
    effects.append(Effect(EffectKind.NO_PROVISION))
    notes.append(f"{code.id} prescribes no remedy for this: no provision of the code applies"
                 + ("." if has_provisions else " (none answers this kind of irregularity)."))


def _overrides(applied: list[Provision]) -> dict[str, Provision]:
    """Which applied provisions are overridden, and by which: only a provision not itself overridden
    overrides others (D over 88 over 84: 84 stands). Worked to a fixed point."""
    overridden: dict[str, Provision] = {}
    for _ in range(len(applied) + 1):
        nxt: dict[str, Provision] = {}
        for p in applied:
            if p.id in overridden:
                continue
            for o in p.overrides:
                nxt.setdefault(o, p)
        if nxt.keys() == overridden.keys():
            return nxt
        overridden = nxt
    return overridden


def _asked_name(name: str, facts: Facts) -> str:
    """The dummy and the opening leader follow from the declarer: ask for him."""
    return "declarer" if name in ("dummy", "leader") and "declarer" not in facts else name


def _overridden(because: Any, by: Provision) -> Any:
    return lambda: f"{because() if callable(because) else because}; overridden by {by.full_id}"


def _because(p: Provision, facts: Facts, result: bool) -> Any:
    return lambda: _explain(p, facts, result)


def _explain(p: Provision, facts: Facts, result: bool) -> str:
    if p.when_tree is None:
        return "always applies"
    shown = [f"{name}={_show(facts[name])}" for name in p.needs_sorted if name in facts]
    return f"{p.when_shown}: {'true' if result else 'false'}" + (f" ({', '.join(shown)})" if shown else "")


def _show(v: Any) -> str:
    t = type(v)
    if t is bool:
        return "true" if v else "false"
    if t is Seat or t is Side:
        return v._value_  # type: ignore[no-any-return]
    if t is Call or t is Card:
        return v.text  # type: ignore[no-any-return]
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (Seat, Side)):
        return v.value
    if isinstance(v, (Call, Card)):
        return v.text
    return str(v)


def _fault(p: Provision, at: str, why: str) -> RulingError:
    path, _, rest = at.rpartition(":")
    path, _, line = path.rpartition(":")
    return RulingError(f"{p.full_id}: {why}; the law file is wrong, and no ruling is given", path or at,
                       int(line) if line.isdigit() else None, int(rest) if rest.isdigit() else None)


def _chooser(code: Code, kind: str, p: Provision, facts: Facts) -> str | tuple[str, ...]:
    """Who chooses: a seat, a side, or several seats; refused (an internal error at the chooser's place in its
    law file) if, in this incident, it is the offender, his partner, or no player."""
    if p.chooser is None:  # pragma: no cover - the loader gives every provision with options a chooser
        raise _fault(p, p.at, "it has options but no chooser")
    try:
        v = p.chooser(facts)
    except ArithmeticError as e:  # pragma: no cover - a chooser is a seat expression
        raise _fault(p, p.chooser_at, f"its chooser cannot be evaluated ({e})") from None
    chooser: str | tuple[str, ...] = tuple(_seat_or_side(x) for x in v) if isinstance(v, tuple) else _seat_or_side(v)
    if isinstance(chooser, tuple) and len(set(chooser)) != len(chooser):
        raise _fault(p, p.chooser_at, f"its chooser {p.chooser_text} names {'/'.join(chooser)}: the same player "
                     "twice")
    if not p.own_choice:
        for phase in p.phases:
            why = code.seats.unfit_chooser(phase, chooser, facts)
            if why:
                named = _named_by_incident(code, kind, p, facts)
                if named:  # a player the incident named, where the law gives the choice: the incident is wrong
                    raise InputError(f"facts.{named}", f"{_show(facts[named])} cannot be the "
                                     f"{named.replace('_', ' ')} here ({why}): law {p.law} gives the choice to "
                                     f"the {named.replace('_', ' ')}, an innocent player")
                raise _fault(p, p.chooser_at, f"its chooser {p.chooser_text} is no innocent player here ({why})")
    return chooser


def _named_by_incident(code: Code, kind: str, p: Provision, facts: Facts) -> str:
    """The first fact the chooser reads that the incident names besides the dealer, the offender and the declarer
    (the loader proved the chooser fit for every seating of those; "" if it reads none)."""
    from .conditions import names_used
    from .evaluation import Unread
    from .seats import SEATED

    if any(type(t) is Unread for t in p.chooser_trees):  # a ruling kit's: the trees are the whole code's
        p = next(q for q in code.by_kind.get(kind, ()) if q.full_id == p.full_id)
    names = sorted({n for t in p.chooser_trees for n in names_used(t)} - SEATED)
    return next((n for n in names if n in facts), "")


def _effects(specs: tuple[EffectSpec, ...], facts: Facts, p: Provision | None = None) -> list[Effect]:
    from .vocabulary import field_checks

    COUNT_FIELDS, DISTINCT_FIELDS = field_checks()
    out = []
    for spec in specs:
        args = []
        for name, lit, fn in spec.fields:
            try:
                v = fn(facts) if fn is not None else lit
            except ArithmeticError as e:
                if p is None:  # pragma: no cover
                    raise
                raise _fault(p, p.at, f"its effect {spec.kind.value}.{name} cannot be evaluated ({e})") from None
            if isinstance(v, int) and not isinstance(v, bool) and v < 0 and p is not None and \
                    name in COUNT_FIELDS.get(spec.kind, ()):
                raise _fault(p, p.at, f"its effect {spec.kind.value}.{name} comes to {v}, below zero")
            if isinstance(v, (Seat, Side)):
                v = v.value
            elif isinstance(v, (Call, Card)):
                v = v.text
            elif isinstance(v, tuple):
                v = [x.value if isinstance(x, (Seat, Side)) else x for x in v]
            elif hasattr(v, "value") and not isinstance(v, (int, str)):
                v = v.value
            args.append((name, v))
        for a, b in DISTINCT_FIELDS.get(spec.kind, ()):
            got = dict(args)
            if p is not None and a in got and got.get(a) == got.get(b):
                raise _fault(p, p.at, f"its effect {spec.kind.value} has {a} and {b} both {got[a]}")
        out.append(Effect(spec.kind, tuple(args)))
    return out


def _seat_or_side(v: Any) -> str:
    if isinstance(v, (Seat, Side)):
        return v.value
    return str(v)


def _question(kind: str, name: str, provisions: list[str]) -> Question:
    from .kit import kinds_of

    common, kinds = kinds_of()
    spec = kinds[kind].facts.get(name) or common.get(name)
    if spec is None:
        return Question(name, f"What is {name}?", tuple(provisions), "str")
    kind_of = "call" if spec.type.name == "bid" else spec.type.name  # a bid is asked for as a call (1S, 2NT)
    return Question(name, spec.ask, tuple(provisions), kind_of, spec.type.choices)


def _cite(code: Code, number: str, footnotes: set[str]) -> LawCitation:
    cache: dict[tuple[str, frozenset[str]], LawCitation] = code.__dict__.setdefault("_cites", {})
    key = (number, frozenset(footnotes))
    hit = cache.get(key)
    if hit is not None:
        return hit
    law = code.law(number)
    if law is None:
        raise InputError("code", f"{code.id} cites law {number}, which it does not have")  # pragma: no cover
    fns = tuple((n, t) for n, t in law.footnotes if n in footnotes)
    cite = LawCitation(law.number, law.text or "", law.heading or "", "", fns, law.file)
    cache[key] = cite
    return cite
