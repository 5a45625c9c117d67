"""The compiled referee: a code's provisions for one kind of irregularity as one Python function.

When a code first rules a kind, :func:`ruler` writes one function for it, in printed law order: each
provision's condition inlined (the Python the condition compiler generates from the checked tree), its
effects built in place (literal effects made once; a field's expression called where it stands), the
options with their own conditions, and the precedence between the kind's provisions resolved beforehand —
for every combination of the provisions that override others which may apply, the same fixed point
:func:`bridgelaw.referee.overrides` works out, looked up by which of them applied. The trace is recorded
as one state a provision (applied, not, or the fact it needs) and written out in words only when read.

What the function does is what :mod:`bridgelaw.referee` describes, in the same order (so a caller that
watches which facts are read sees the same reads); where something is wrong with the law file at ruling
time (a division by zero, a count below zero), the provision is replayed by the referee's own steps, which
raise the error at its place.
"""

from __future__ import annotations

import itertools

from .evaluation import Facts, MissingFact, code_of, namespace_base
from .values import (
    Call, Card, LawCitation, Question, Ruling, Seat, Side, TraceStep, _effect, _option, _ruling,
    _constant_effect, _shared_effect, _shared_option,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable

__all__ = ["ruler", "Ruler"]

#: Beyond this many provisions that override others in one kind, precedence is worked out per ruling
#: (and remembered) instead of for every combination beforehand.
_PRESOLVE = 10
#: At most this many traces' rows are kept for each kind (beyond, each is written when read).
_ROWS_KEPT = 4096
#: A fact the incident did not give, as :meth:`Ruler.shown` records it.
_ABSENT = object()


def ruler(code: Any, kind: str) -> "Ruler":
    """The compiled ruling function of ``code`` for ``kind`` (made on first use, kept on the code)."""
    rulers: dict[str, Ruler] = code.__dict__.setdefault("_rulers", {})
    r = rulers.get(kind)
    if r is None:
        r = rulers[kind] = Ruler(code, kind)
    return r


def _plain_value(v: Any) -> Any:
    """An effect field's value as a ruling carries it (the referee's rule, in its order)."""
    t = type(v)
    if t is Seat or t is Side:
        return v._value_
    if t is str or t is int or t is bool:
        return v
    if t is Call or t is Card:
        return v.text
    if isinstance(v, (Seat, Side)):
        return v.value
    if isinstance(v, (Call, Card)):
        return v.text
    if isinstance(v, tuple):
        return [x.value if isinstance(x, (Seat, Side)) else x for x in v]
    if hasattr(v, "value") and not isinstance(v, (int, str)):
        return v.value
    return v


class Ruler:
    """One kind's compiled ruling function, and what it looks up: precedence, citations, questions."""

    def __init__(self, code: Any, kind: str) -> None:
        from . import referee

        self.code = code
        self.kind = kind
        self._referee = referee
        self._names = 0
        self.provisions: tuple[Any, ...] = tuple(code.by_kind.get(kind, ()))
        provs = self.provisions
        self.ids = tuple(p.full_id for p in provs)
        self.reads = frozenset(n for p in provs for n in p.needs)
        index = {p.id: i for i, p in enumerate(provs)}
        #: the provisions of this kind that override another of this kind, in printed order
        self.overriders = tuple(i for i, p in enumerate(provs) if any(o in index for o in p.overrides))
        self._by: dict[tuple[bool, ...], tuple[int, ...]] = {}
        if len(self.overriders) <= _PRESOLVE:
            for applied in itertools.product((False, True), repeat=len(self.overriders)):
                self.precedence(applied)
        self.overridable = frozenset(index[o] for i in self.overriders for o in provs[i].overrides if o in index)
        self._laws: dict[tuple[int, ...], tuple[LawCitation, ...]] = {}
        self._questions: dict[tuple[str, tuple[int, ...]], Question] = {}
        self.run: Callable[[Facts, list[str]], Ruling] = self._compile()
        self._explainers: tuple[Callable[[Facts, bool], str], ...] | None = None
        self._rows: dict[tuple[Any, ...], tuple[dict[str, Any], ...]] = {}
        self._shown: Callable[[Facts], tuple[Any, ...]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Its attributes but the referee module it calls (imported again as it is read: a ruling kit)."""
        return {k: v for k, v in self.__dict__.items() if k != "_referee"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        from . import referee

        self.__dict__.update(state)
        self._referee = referee

    @property
    def explainers(self) -> tuple[Callable[[Facts, bool], str], ...]:
        """For each provision, why it did or did not apply in words (written when a trace is first read)."""
        if self._explainers is None:
            self._explainers = tuple(self._explainer(p) for p in self.provisions)
        return self._explainers

    # -- looked up by the compiled function

    def precedence(self, applied: tuple[bool, ...]) -> tuple[int, ...]:
        """For each provision, the provision overriding it (-1: none), given which overriders applied."""
        hit = self._by.get(applied)
        if hit is None:
            provs = self.provisions
            chosen = [provs[i] for i, a in zip(self.overriders, applied) if a]
            over = self._referee._overrides(chosen)
            index = {p.id: i for i, p in enumerate(provs)}
            hit = self._by[applied] = tuple(index[over[p.id].id] if p.id in over else -1 for p in provs)
        return hit

    def laws(self, used: tuple[int, ...]) -> tuple[LawCitation, ...]:
        """The laws a ruling cites when the provisions ``used`` gave its remedies (in their order)."""
        hit = self._laws.get(used)
        if hit is None:
            cited: dict[str, set[str]] = {}
            for i in used:
                p = self.provisions[i]
                cited.setdefault(p.law, set()).update(p.footnotes)
                for c in p.cites:
                    cited.setdefault(c, set())
            hit = self._laws[used] = tuple(self._referee._cite(self.code, n, fns) for n, fns in cited.items())
        return hit

    def questions(self, asked: dict[str, list[int]], by: tuple[int, ...]) -> tuple[Question, ...]:
        """A question for each fact asked, unless only provisions overridden by one that applies need it."""
        out = []
        for name, provs in asked.items():
            if any(by[i] < 0 for i in provs):
                key = (name, tuple(provs))
                q = self._questions.get(key)
                if q is None:
                    q = self._questions[key] = self._referee._question(self.kind, name, [self.ids[i] for i in provs])
                out.append(q)
        return tuple(out)

    def trace(self, states: tuple[Any, ...], by: tuple[int, ...], withheld: dict[int, Any] | None,
              facts: Facts) -> list[TraceStep]:
        """The trace in words: every provision considered, applied or not and why."""
        ref = self._referee
        out = []
        for i, (p, s) in enumerate(zip(self.provisions, states)):
            if s is True or s is False:
                because: Any = ref._because(p, facts, s)
                if s is True and withheld is not None and i in withheld:
                    out.append(TraceStep(p.full_id, p.law, False, _withheld(withheld[i])))
                elif s is True and by[i] >= 0:
                    out.append(TraceStep(p.full_id, p.law, False, ref._overridden(because, self.provisions[by[i]])))
                else:
                    out.append(TraceStep(p.full_id, p.law, s, because))
            else:
                out.append(TraceStep(p.full_id, p.law, False, f"needs {s}, which was not given"))
        return out

    def trace_dicts(self, states: tuple[Any, ...], by: tuple[int, ...], withheld: dict[int, Any] | None,
                    facts: Facts) -> list[dict[str, Any]]:
        """The trace in words as its JSON view (:meth:`trace`, without the steps).

        A trace's words are a function of the provisions' states, who overrode whom, and the facts their
        conditions read as they are shown: the rows are written once for each such record and kept (up to
        :data:`_ROWS_KEPT` a kind), each JSON view made afresh from them (a caller's own to change).
        """
        if withheld is None:
            key = (states, by, (self._shown or self.shown)(facts))
            rows = self._rows.get(key)
            if rows is None:
                rows = tuple(self._trace_dicts(states, by, None, facts))  # (never handed out: only copied)
                if len(self._rows) < _ROWS_KEPT:
                    self._rows[key] = rows
            return list(map(dict, rows))
        return self._trace_dicts(states, by, withheld, facts)

    @property
    def shown(self) -> Callable[[Facts], tuple[Any, ...]]:
        """The facts the kind's conditions read, each as a trace shows it (absent: :data:`_ABSENT`)."""
        fn = self._shown
        if fn is None:
            names = sorted({n for p in self.provisions for n in p.needs_sorted})
            lines = ["def _shown(f):", "    g = f.get"]
            for j, name in enumerate(names):
                lines.append(f"    v{j} = g({name!r}, _A)")
            items = "".join(f"v{j} if type(v{j}) is bool or v{j} is _A else _show(v{j}), " for j in range(len(names)))
            lines.append(f"    return ({items})")
            ns: dict[str, Any] = {"_A": _ABSENT, "_show": self._referee._show}
            exec(code_of("\n".join(lines) + "\n", f"<bridgelaw {self.code.id} {self.kind} shown>"), ns)  # checked names only
            fn = self._shown = ns["_shown"]
        return fn  # type: ignore[no-any-return]

    def _trace_dicts(self, states: tuple[Any, ...], by: tuple[int, ...], withheld: dict[int, Any] | None,
                     facts: Facts) -> list[dict[str, Any]]:
        explain = self.explainers
        out = []
        for i, (p, s) in enumerate(zip(self.provisions, states)):
            if s is True or s is False:
                if s is True and withheld is not None and i in withheld:
                    out.append({"provision": p.full_id, "law": p.law, "applied": False,
                                "because": _withheld(withheld[i])})
                elif s is True and by[i] >= 0:
                    out.append({"provision": p.full_id, "law": p.law, "applied": False,
                                "because": f"{explain[i](facts, s)}; overridden by {self.ids[by[i]]}"})
                else:
                    out.append({"provision": p.full_id, "law": p.law, "applied": s, "because": explain[i](facts, s)})
            else:
                out.append({"provision": p.full_id, "law": p.law, "applied": False,
                            "because": f"needs {s}, which was not given"})
        return out

    # -- the function

    def _compile(self) -> Callable[[Facts, list[str]], Ruling]:
        from .conditions import Env, _py  # (the checker's: a kit's rulers are compiled when it is made)

        ref = self._referee
        code, provs = self.code, self.provisions
        env = Env({}, code.params)
        consts: list[Any] = []
        ns: dict[str, Any] = {
            **namespace_base(), "_Missing": MissingFact, "_Effect": _effect, "_Shared": _shared_effect, "_SharedOption": _shared_option, "_Option": _option, "_Ruling": _ruling, "_pv": _plain_value,
            "_asked_name": ref._asked_name, "_chooser": ref._chooser, "_effects": ref._effects,
            "_follow": ref._follow, "_fault": ref._fault, "_R": self, "_P": provs, "_CODE": code, "_KIND": self.kind,
            "_no_provision": ref._no_provision, "_Seat": Seat, "_Side": Side,
            "_seat_or_side": ref._seat_or_side, "_unfit": code.seats.unfit_chooser,
        }
        n = len(provs)
        lines = ["def _rule_kind(f, notes):", "    asked = {}"]
        add = lines.append
        # 1. every provision's condition, in printed law order
        for i, p in enumerate(provs):
            if p.when_tree is None:
                add(f"    s{i} = True")
                continue
            add("    try:")
            add(f"        s{i} = True if {_py(p.when_tree, env, consts)} else False")
            add("    except _Missing as m:")
            add(f"        s{i} = _asked_name(m.name, f)")
            add(f"        asked.setdefault(s{i}, []).append({i})")
            add("    except ArithmeticError as e:")
            add(f"        raise _fault(_P[{i}], _P[{i}].at, f'its condition cannot be evaluated for this incident "
                f"({{e}})') from None")
        # 2. precedence among those that apply
        if self.overriders:
            key = ", ".join(f"s{i} is True" for i in self.overriders) + ","
            add(f"    applied = ({key})")
            add("    by = _BY.get(applied) or _R.precedence(applied)")
            ns["_BY"] = self._by
        else:
            add("    by = _NOBY")
            ns["_NOBY"] = (-1,) * n
        add("    effects = []")
        add("    options = []")
        add("    used = []")
        add("    withheld = None")
        # an inherited provision the code restates for its seat model waits while a restatement that would
        # override it (not itself overridden) waits on an answer: as inherited it would name a seat where no
        # player sits (Code.restated)
        waits: dict[int, list[int]] = {}
        for i, p in enumerate(provs):
            if p.id in code.restated:
                qs = [q for q, o in enumerate(provs) if q != i and p.id in o.overrides]
                if qs:
                    waits[i] = qs
        for i, qs in waits.items():
            add(f"    if s{i} is True and by[{i}] < 0:")
            for k, q in enumerate(qs):  # the first restatement that waits is named
                add(f"        {'if' if k == 0 else 'elif'} type(s{q}) is str and by[{q}] < 0:")
                add(f"            withheld = {{**(withheld or {{}}), {i}: (_P[{q}].full_id, s{q})}}")
        # 3. what follows from each provision that applies and stands
        for i, p in enumerate(provs):
            test = f"s{i} is True" + (f" and by[{i}] < 0" if i in self.overridable else "") \
                + (f" and (withheld is None or {i} not in withheld)" if i in waits else "")
            add(f"    if {test}:")
            add("        try:")
            effects = self._effects_src(p.effects, i, "pe", ns)
            add(f"            pe = {effects}")
            if p.options:
                add("            po = []")
                if isinstance(p.chooser_trees, tuple) and len(p.chooser_trees) == 1 and not p.own_choice \
                        and not p.chooser_text.startswith("["):
                    # one seat or side: made plain here; an unfit chooser is refused by the referee's own steps
                    ns[f"_CH{i}"] = p.chooser
                    add(f"            ch = _CH{i}(f)")
                    add("            ch = ch._value_ if type(ch) is _Seat or type(ch) is _Side else _seat_or_side(ch)")
                    unfit = " or ".join(f"_unfit({ph!r}, ch, f)" for ph in p.phases)
                    if unfit:
                        add(f"            if {unfit}:")
                        add(f"                _chooser(_CODE, _KIND, _P[{i}], f)")
                else:
                    add(f"            ch = _chooser(_CODE, _KIND, _P[{i}], f)")
                for j, o in enumerate(p.options):
                    o_name = f"_O{i}_{j}"
                    ns[o_name] = o
                    body = "            "
                    if o.when is not None:
                        add("            try:")
                        add(f"                ok = {o_name}.when(f)")
                        add("            except _Missing as m:")
                        add("                asked.setdefault(_asked_name(m.name, f), []).append(" + str(i) + ")")
                        add("                ok = False")
                        add("            if ok:")
                        body += "    "
                    add(body + "try:")
                    add(body + f"    oe = {self._effects_src(o.effects, i, 'oe', ns, as_tuple=True)}")
                    add(body + "except _Missing as m:")
                    add(body + "    name = _asked_name(m.name, f)")
                    add(body + "    waiting = asked.setdefault(name, [])")
                    add(body + f"    if {i} not in waiting:")
                    add(body + f"        waiting.append({i})")
                    add(body + f"    po.append(_Option({o.id!r}, ch, {p.law!r}, (), {p.full_id!r}, "
                        f"{o_name}.label, (name,)))")
                    add(body + "else:")
                    ns[f"{o_name}_made"] = {}
                    add(body + f"    po.append(_SharedOption({o_name}_made, {o.id!r}, ch, {p.law!r}, oe, "
                        f"{p.full_id!r}, {o_name}.label))")
            add("        except _Missing as m:")
            add("            name = _asked_name(m.name, f)")
            add(f"            asked.setdefault(name, []).append({i})")
            add(f"            withheld = {{**(withheld or {{}}), {i}: name}}")
            add("        except ArithmeticError:")
            add(f"            _follow(_CODE, _KIND, _P[{i}], f)  # the referee's own steps raise it at its place")
            add("            raise")
            add("        else:")
            add("            effects += pe")
            if p.options:
                add("            options += po")
            add(f"            used.append({i})")
            if p.notes:
                ns[f"_N{i}"] = p.notes
                add(f"            notes += _N{i}")
            # given while a provision that would override it waits on an answer: the ruling says so
            over = [q for q, o in enumerate(provs) if q != i and p.id in o.overrides]
            if over and i not in waits:
                waiting = " or ".join(f"type(s{q}) is str and by[{q}] < 0" for q in over)
                pairs = "".join(f"({q}, s{q}), " for q in over)
                add(f"            if {waiting}:  # (the usual ruling tests this alone and makes nothing)")
                add(f"                notes.append(_subject(_P[{i}], [(_P[q], sq) for q, sq in ({pairs}) "
                    "if type(sq) is str and by[q] < 0]))")
        # 4. the ruling
        ns["_READ"] = self.reads
        add("    questions = _R.questions(asked, by) if asked else ()")
        add("    if not effects and not options and not questions:")
        add("        _no_provision(_CODE, effects, notes, " + ("True" if provs else "False") + ")")
        add("    presumed = tuple([(name, f[name]) for name in f.presumed if name in _READ]) if f.presumed else ()")
        add("    laws = _R.laws(tuple(used)) if used else ()")
        states = "(" + "".join(f"s{i}, " for i in range(n)) + ")"
        add(f"    return _Ruling({code.id!r}, _KIND, laws, tuple(effects), tuple(options), questions, tuple(notes), "
            f"_Trace((_R, {states}, by, withheld, f)), f, presumed)")
        ns["_Trace"] = _Trace
        ns["_subject"] = _subject
        ns["_K"] = tuple(consts)
        src = "\n".join(lines) + "\n"
        self.source = src
        exec(code_of(src, f"<bridgelaw {code.id} {self.kind}>"), ns)  # our generated source, built only from the checked trees of the code's provisions
        fn: Callable[[Facts, list[str]], Ruling] = ns["_rule_kind"]
        return fn

    def _explainer(self, p: Any) -> Callable[[Facts, bool], str]:
        """Why ``p`` did or did not apply, in words (:func:`bridgelaw.referee._explain`, written out for its
        condition: the condition as printed, its value, and the facts it reads that are known)."""
        if p.when_tree is None:
            return _always
        lines = ["def _explain(f, r):", "    s = ''"]
        for name in p.needs_sorted:
            lines.append(f"    if {name!r} in f:")
            lines.append(f"        s += {', ' + name + '='!r} + _show(f[{name!r}])")
        lines.append(f"    h = {p.when_shown + ': true'!r} if r else {p.when_shown + ': false'!r}")
        lines.append("    return h + ' (' + s[2:] + ')' if s else h")
        src = "\n".join(lines) + "\n"
        ns: dict[str, Any] = {"_show": self._referee._show}
        exec(code_of(src, f"<bridgelaw {p.full_id} trace>"), ns)  # built from checked names only
        return ns["_explain"]  # type: ignore[no-any-return]

    def _effects_src(self, specs: tuple[Any, ...], i: int, tag: str, ns: dict[str, Any], as_tuple: bool = False) -> str:
        """Python building a provision's (or an option's) effects, in order."""
        from .loader import COUNT_FIELDS, DISTINCT_FIELDS

        parts = []
        for k, spec in enumerate(specs):
            self._names += 1
            name = f"_E{self._names}"
            if spec.kind in COUNT_FIELDS or spec.kind in DISTINCT_FIELDS:  # checked as the referee checks them
                ns[name] = (spec,)
                parts.append(f"_effects({name}, f, _P[{i}])[0]")
                continue
            if all(fn is None for _, _, fn in spec.fields):
                args = tuple((fname, _plain_value(lit)) for fname, lit, _ in spec.fields)
                if all(type(v) in (str, int, bool) or v is None for _, v in args):
                    ns[name] = _constant_effect(spec.kind, args)  # immutable: made once
                    parts.append(name)
                    continue
            fields = []
            for m, (fname, lit, fn) in enumerate(spec.fields):
                if fn is not None:
                    ns[f"{name}_{m}"] = fn
                    fields.append(f"({fname!r}, _pv({name}_{m}(f)))")
                    continue
                v = _plain_value(lit)
                ns[f"{name}_{m}"] = v if type(v) in (str, int, bool) or v is None else lit
                fields.append(f"({fname!r}, {name}_{m})" if ns[f"{name}_{m}"] is v else f"({fname!r}, _pv({name}_{m}))")
            ns[f"{name}_kind"] = spec.kind
            ns[f"{name}_made"] = {}
            parts.append(f"_Shared({name}_made, {name}_kind, (" + "".join(x + ", " for x in fields) + "))")
        body = "".join(x + ", " for x in parts)
        return f"({body})" if as_tuple else f"[{body}]"


class _Trace(tuple):  # type: ignore[type-arg]
    """A ruling's trace as recorded — ``(ruler, states, by, withheld, facts)``, one state a provision — written
    out in words when first read (a tuple: made in one step, for every ruling)."""

    __slots__ = ()

    def __call__(self) -> list[TraceStep]:
        ruler, states, by, withheld, facts = self
        return ruler.trace(states, by, withheld, facts)  # type: ignore[no-any-return]

    def dicts(self) -> list[dict[str, Any]]:
        """The trace's JSON view, written straight from the record (its rows copied, where they are kept)."""
        ruler, states, by, withheld, facts = self
        shown = ruler._shown
        if withheld is None and shown is not None:
            rows = ruler._rows.get((states, by, shown(facts)))
            if rows is not None:
                return list(map(dict, rows))
        return ruler.trace_dicts(states, by, withheld, facts)  # type: ignore[no-any-return]


def _always(f: Facts, r: bool) -> str:
    """Why a provision without a condition applied (a module's function: a ruling kit pickles it by name)."""
    return "always applies"


def _subject(given: Any, pending: list[tuple[Any, str]]) -> str:
    """The note on a provision given while provisions that would override it wait on answers (each with the
    fact it waits on; its question names it): the ruling stands only until those are answered."""
    over = " or ".join(f"law {p.law} ({p.id})" for p, _ in pending)
    return (f"Subject to the answers asked above: law {given.law} ({given.id}) is given, but {over} would "
            "override it if it applies.")


def _withheld(why: Any) -> str:
    """Why a provision whose condition holds gives nothing yet: what follows needs a fact (its name), or a
    restatement that would override it waits on one ((its id, the fact))."""
    if isinstance(why, tuple):
        return f"its condition holds, but {why[0]}, which would override it, needs {why[1]}, which was not given"
    return f"its condition holds, but what follows needs {why}, which was not given"
