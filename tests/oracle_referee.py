"""The referee as it was before it was compiled (issue 18): the provisions of a kind walked one by one, the
precedence worked to its fixed point on every ruling. The tests rule with it and with the compiled referee and
compare whole rulings; it uses the referee's own helpers for what the two share (the chooser, the effects, the
citations, the questions, the words of the trace)."""

from __future__ import annotations

from typing import Any, Mapping

from bridgelaw.conditions import Facts, MissingFact
from bridgelaw.facts import derive, parse_incident
from bridgelaw.loader import Code, Provision, load_code
from bridgelaw.referee import (
    _asked_name, _because, _chooser, _cite, _effects, _fault, _overridden, _overrides, _question,
)
from bridgelaw.values import Effect, EffectKind, Option, Ruling, TraceStep
from bridgelaw.ruler import _subject  # the note's words only: when it is given is worked out here


def rule(incident: Mapping[str, Any]) -> Ruling:
    inc = parse_incident(incident)
    code = load_code(inc.code)
    kind, facts, notes = derive(code, inc)
    return _rule(code, kind, facts, notes)


def _rule(code: Code, kind: str, facts: Facts, notes: list[str]) -> Ruling:
    provisions = code.by_kind.get(kind, ())
    applied: list[Provision] = []
    trace: list[tuple[Provision, bool, Any]] = []
    asked: dict[str, list[Provision]] = {}
    waiting: dict[str, str] = {}  # a provision whose condition waits on an answer: the fact it needs
    for p in provisions:
        try:
            ok = bool(p.when(facts))
        except ArithmeticError as e:
            raise _fault(p, p.at, f"its condition cannot be evaluated for this incident ({e})") from None
        except MissingFact as m:
            name = _asked_name(m.name, facts)
            asked.setdefault(name, []).append(p)
            waiting[p.id] = name
            trace.append((p, False, f"needs {name}, which was not given"))
            continue
        if ok:
            applied.append(p)
        trace.append((p, ok, _because(p, facts, ok)))

    overridden = _overrides(applied)
    effects: list[Effect] = []
    options: list[Option] = []
    cited: dict[str, set[str]] = {}
    withheld: dict[str, Any] = {}
    # an inherited provision the code restates for its seat model waits while its restatement waits on an answer
    for name, provs in asked.items():
        for q in provs:
            if q.id not in overridden:
                for o in q.overrides:
                    if o not in overridden and o in code.restated and o != q.id:
                        withheld.setdefault(o, (q.full_id, name))
    for p, ok, because in trace:
        if not ok or p.id in overridden:
            continue
        if p.id in withheld:
            continue
        try:
            p_effects = _effects(p.effects, facts, p)
            p_options: list[Option] = []
            if p.options:
                assert p.chooser is not None
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
                        name = _asked_name(m.name, facts)
                        if p not in asked.setdefault(name, []):
                            asked[name].append(p)
                        p_options.append(Option(o.id, chooser, p.law, (), p.full_id, o.label, (name,)))
                        continue
                    p_options.append(Option(o.id, chooser, p.law, o_effects, p.full_id, o.label))
        except MissingFact as m:
            asked.setdefault(_asked_name(m.name, facts), []).append(p)
            withheld[p.id] = _asked_name(m.name, facts)
            continue
        effects.extend(p_effects)
        options.extend(p_options)
        cited.setdefault(p.law, set()).update(p.footnotes)
        for c in p.cites:
            cited.setdefault(c, set())
        notes.extend(p.notes)
        # given while a provision that would override it waits on an answer: the ruling says so
        pend = [(q, waiting[q.id]) for q in provisions
                if q is not p and p.id in q.overrides and q.id in waiting and q.id not in overridden]
        if pend and p.id not in code.restated:
            notes.append(_subject(p, pend))

    # the presumptions a provision actually read go with the ruling (bridgelaw.wording says them)
    presumed: tuple[tuple[str, Any], ...] = ()
    if facts.presumed:
        reads = code.__dict__.setdefault("_reads", {})
        read = reads.get(kind)
        if read is None:
            read = reads[kind] = frozenset(n for p in provisions for n in p.needs)
        presumed = tuple((name, facts[name]) for name in facts.presumed if name in read)
    # a question only a provision overridden by one that applies would need is not worth asking
    questions = tuple(_question(kind, name, [p.full_id for p in provs]) for name, provs in asked.items()
                      if any(p.id not in overridden for p in provs))
    if not effects and not options and not questions:
        effects.append(Effect(EffectKind.NO_PROVISION))
        notes.append(f"{code.id} prescribes no remedy for this: no provision of the code applies"
                     + (" (none answers this kind of irregularity)." if not provisions else "."))
    laws = tuple(_cite(code, number, fns) for number, fns in cited.items())
    return Ruling(code.id, kind, laws, tuple(effects), tuple(options), questions, tuple(notes),
                  lambda: _trace_steps(trace, overridden, withheld), facts, presumed)


def _trace_steps(trace: list[tuple[Provision, bool, Any]], overridden: dict[str, Provision],
                 withheld: Mapping[str, str]) -> list[TraceStep]:
    out = []
    for p, ok, because in trace:
        if ok and p.id in withheld:
            why = withheld[p.id]
            out.append(TraceStep(p.full_id, p.law, False,
                                 f"its condition holds, but {why[0]}, which would override it, needs {why[1]}, which "
                                 "was not given" if isinstance(why, tuple) else
                                 f"its condition holds, but what follows needs {why}, which was not given"))
        elif ok and p.id in overridden:
            out.append(TraceStep(p.full_id, p.law, False, _overridden(because, overridden[p.id])))
        else:
            out.append(TraceStep(p.full_id, p.law, ok, because))
    return out
