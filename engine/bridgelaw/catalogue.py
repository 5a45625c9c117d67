"""The fact catalogue (``laws/kinds.yaml``, ``laws/kinds.d/``) and the topics (``laws/topics.yaml``).

Everything in the catalogue is checked when it loads, at ``path:line:col``:

- a fact's ``type`` is a known type or a list of choices;
- a ``default`` is of the fact's type and, for a list of choices, one of them
  (the default is read with the very rules an incident's fact is read with);
- a whole-number fact may give its bounds (``min``, ``max``), a call fact the
  kinds of call it may be (``calls: [double, redouble]``), and a true-or-false
  fact what it needs of the game to be true (``requires``); a kind may say
  what it needs of the game (``requires: [partners]``: a code whose seat model
  lacks it cannot have the irregularity) and whether the play of a hand
  commits it (``by_hand``: the dummy's hand, which the declarer plays, may be
  its offender where no player sits at the dummy), or that no player commits it
  (``no_offender``: a bystander's remark). The needs a game may lack are
  :data:`bridgelaw.seats.REQUIREMENTS`;
- a ``derive`` is an expression of the condition language over the other
  facts (``dummy: {derive: partner(declarer)}``), of the fact's type, without
  a cycle — the engine computes the fact from it, so the catalogue and the
  derivation cannot drift; ``derived`` is the words for a derivation the
  engine does from the auction record;
- a file of ``kinds.d`` may add kinds, or facts to a kind, never redefine one;
  every file there is a ``.yaml`` file (nothing is skipped).

Cached on disk while none of those files changes (by content).
"""

from __future__ import annotations

import re

import os
from dataclasses import dataclass, replace
from functools import lru_cache

from .errors import InputError, LawFileError, did_you_mean
from .evaluation import BID, BOOL, CALL, CARD, INT, SEAT, SIDE, STR, SUIT, Type
from .factvalues import coerce_fact
from .resources import laws_path

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any, Callable, Mapping

    from .conditions import Expr
    from .yamlsrc import Source

__all__ = ["FactSpec", "Kind", "load_kinds", "load_topics", "coerce_fact", "TYPES", "derivation_order"]

#: The types a fact may have (besides a list of choices).
TYPES = {"bool": BOOL, "int": INT, "str": STR, "seat": SEAT, "side": SIDE, "call": CALL, "bid": BID, "card": CARD,
         "suit": SUIT}
_FACT_KEYS = ("type", "ask", "derived", "derive", "default", "presumed", "min", "max", "calls", "requires")


@dataclass(frozen=True)
class FactSpec:
    """One fact of the catalogue: its type, its question, and how it is derived or presumed."""

    name: str
    type: Type
    ask: str
    derived: str = ""  # words: how the engine derives it from the auction record
    default: Any = None  # a documented presumption, already read as the fact's type
    presumed: str = ""  # what a ruling says of the default, when it is presumed
    derive: str = ""  # an expression of the condition language the fact is computed from
    derive_tree: Expr | None = None
    bounds: tuple[int, int] | None = None  # a whole number's least and greatest value
    calls: tuple[str, ...] = ()  # a call's kinds (bid, pass, double, redouble), where it may be only some
    requires: tuple[str, ...] = ()  # true only where the game has these (bridgelaw.seats.REQUIREMENTS)


@dataclass(frozen=True)
class Kind:
    """An irregularity kind. ``offender``: where the kind itself says who commits it (the dealer looks at a
    card; the dummy suggests a play), that seat as an expression (``dealer``, ``dummy``): an incident naming
    another offender is refused, and one naming none has it filled in."""

    id: str
    phase: str
    summary: str
    facts: Mapping[str, FactSpec]
    offender: str = ""
    offender_tree: Expr | None = None
    requires: tuple[str, ...] = ()  # what the irregularity needs of the game (bridgelaw.seats.REQUIREMENTS)
    by_hand: bool = False  # the play of a hand commits it: the dummy's hand may be its offender
    no_offender: bool = False  # no player commits it (a bystander's remark): an incident names no offender


# --------------------------------------------------------------------------
# Topics


@lru_cache(maxsize=None)
def load_topics(root: str) -> frozenset[str]:
    from pathlib import Path

    from .cache import cached
    from .yamlsrc import load_yaml

    def build() -> frozenset[str]:
        src = load_yaml(Path(root) / "topics.yaml", "laws/topics.yaml")
        topics = src.data.get("topics") if isinstance(src.data, dict) else None
        if not isinstance(topics, dict):
            raise src.error((), "expected a mapping 'topics:' of topic id to description")
        for k, v in topics.items():  # ids as laws' topics: name them, descriptions as `bridgelaw topics` prints
            if not isinstance(k, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", k):
                raise src.error(("topics", k), f"expected a topic id of lower-case words joined by '-', got {k!r}")
            if not isinstance(v, str) or not v.strip():
                raise src.error(("topics", k), f"topic {k}: expected a description (what laws the topic gathers), "
                                f"got {v!r}")
        return frozenset(topics)

    return cached(f"topics:{Path(root).resolve()}", [Path(root) / "topics.yaml"], build)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------
# Kinds


@lru_cache(maxsize=None)
def load_kinds(root: str | None = None) -> tuple[Mapping[str, FactSpec], Mapping[str, Kind]]:
    """The irregularity catalogue: common facts, and each kind with its facts.

    ``laws/kinds.yaml`` holds the catalogue; files in ``laws/kinds.d/`` may add
    kinds, or add facts to a kind (never redefine one: that is an error).
    """
    from .cache import cached

    base = root or laws_path()  # (a string: a start from the cache needs no pathlib)
    extra = os.path.join(base, "kinds.d")
    names = sorted(os.listdir(extra)) if os.path.isdir(extra) else []
    return cached(f"kinds:{os.path.realpath(base)}:{names}",  # type: ignore[no-any-return]
                  [os.path.join(base, "kinds.yaml")] + [os.path.join(extra, n) for n in names],
                  lambda: _load_kinds(_path(base)))


def _path(p: str) -> Path:
    from pathlib import Path

    return Path(p)


def _load_kinds(base: Path) -> tuple[Mapping[str, FactSpec], Mapping[str, Kind]]:
    from .yamlsrc import load_yaml

    src = load_yaml(base / "kinds.yaml", "laws/kinds.yaml")
    data = src.data
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        raise src.error((), "expected 'common:' and 'kinds:' mappings")
    for k in data:
        if k not in ("common", "kinds"):
            raise src.error((k,), f"unknown key {k!r}; kinds.yaml has common and kinds" + did_you_mean(str(k), ("common", "kinds")))
    common = _facts_of(src, data.get("common"), ("common",))
    kinds: dict[str, Kind] = {}
    _add_kinds(src, data["kinds"], kinds, common)
    extra = base / "kinds.d"
    if extra.is_dir():
        sources = []
        for path in sorted(extra.iterdir()):
            rel = f"laws/kinds.d/{path.name}"
            if path.suffix != ".yaml" or not path.is_file():
                hint = f" (did you mean '{path.stem}.yaml'?)" if path.suffix in (".yml", ".YAML", ".json") else ""
                raise LawFileError(f"laws/kinds.d holds only .yaml files of kinds; {path.name!r} would be skipped"
                                   + hint + ": rename it, or move it out", rel)
            esrc = load_yaml(path, rel)
            if not isinstance(esrc.data, dict) or set(esrc.data) - {"kinds"} or \
                    not isinstance(esrc.data.get("kinds"), dict):
                raise esrc.error((), "expected one mapping 'kinds:' (of new kinds, or facts to add to a kind)")
            sources.append(esrc)
        # new kinds first, from every file; then the facts files add to kinds defined anywhere
        for esrc in sources:
            _add_kinds(esrc, {k: v for k, v in esrc.data["kinds"].items()
                              if isinstance(v, dict) and ("phase" in v or "summary" in v)}, kinds, common)
        for esrc in sources:
            _add_kinds(esrc, {k: v for k, v in esrc.data["kinds"].items()
                              if not (isinstance(v, dict) and ("phase" in v or "summary" in v))}, kinds, common)
    common = _derivations(src, ("common",), common, common)
    return common, kinds


_PHASES = ("deal", "auction", "play", "scoring")
_KIND_KEYS = ("phase", "summary", "facts", "offender", "requires", "by_hand", "no_offender")


def _facts_of(src: Source, raw: Any, key: tuple[Any, ...]) -> dict[str, FactSpec]:
    out: dict[str, FactSpec] = {}
    if raw is not None and not isinstance(raw, dict):
        raise src.error(key, "expected a mapping of fact names to {type, ask}")
    for name, spec in (raw or {}).items():
        if not isinstance(spec, dict) or "type" not in spec or "ask" not in spec:
            raise src.error(key + (name,), f"fact {name!r} needs 'type' and 'ask'")
        for k in spec:
            if k not in _FACT_KEYS:
                raise src.error(key + (name, k), f"unknown key {k!r}; a fact has {', '.join(_FACT_KEYS)}"
                                + did_you_mean(str(k), _FACT_KEYS))
        t = spec["type"]
        if isinstance(t, list):
            if not t or not all(isinstance(x, str) and x for x in t) or len(set(t)) != len(t):
                raise src.error(key + (name, "type"), "a list of choices holds distinct words, at least one")
            ftype = Type("str", tuple(t))
        elif isinstance(t, str) and t in TYPES:
            ftype = TYPES[t]
        else:
            raise src.error(key + (name, "type"), f"unknown type {t!r}; expected one of {', '.join(TYPES)}"
                            " or a list of choices" + did_you_mean(str(t), TYPES))
        if (spec.get("default") is None) == bool(spec.get("presumed")):
            raise src.error(key + (name,), f"fact {name!r} has " + (
                "a default but no `presumed:` (what a ruling says when it presumes it, e.g. \"the cards were not "
                "mixed\")" if spec.get("default") is not None else "`presumed:` but no default to presume"))
        for k in ("ask", "derived", "derive", "presumed"):
            if k in spec and not (isinstance(spec[k], str) and spec[k].strip()):
                raise src.error(key + (name, k), f"{k} is text, got {spec[k]!r}")
        if "derive" in spec and ("derived" in spec or "default" in spec):
            other = "derived" if "derived" in spec else "default"
            raise src.error(key + (name, other), f"fact {name!r} is computed from its 'derive' expression; "
                            f"it takes no {other!r} besides")
        f = FactSpec(name, ftype, str(spec["ask"]), str(spec.get("derived", "")), None, str(spec.get("presumed", "")),
                     str(spec.get("derive", "")), None, _bounds_of(src, key + (name,), spec, ftype),
                     _calls_of(src, key + (name,), spec, ftype), _requires_of(src, key + (name,), spec, ftype))
        default = spec.get("default")
        if default is not None:
            try:
                default = coerce_fact(name, f, default)
            except InputError as e:
                raise src.error(key + (name, "default"), f"the default of {name!r} is not one of its values: "
                                f"{e.message}") from None
            f = replace(f, default=default)
        out[name] = f
    return out


def _bounds_of(src: Source, key: tuple[Any, ...], spec: Mapping[str, Any], ftype: Type) -> tuple[int, int] | None:
    """``min`` and ``max`` of a whole-number fact: both or neither, whole numbers, the least first."""
    if "min" not in spec and "max" not in spec:
        return None
    if ftype.name != "int":
        k = "min" if "min" in spec else "max"
        raise src.error(key + (k,), f"only a whole-number fact (type: int) has bounds; this one is a {ftype}")
    for k in ("min", "max"):
        if k not in spec:
            raise src.error(key, f"a fact with bounds gives both min and max; {k} is missing")
        v = spec[k]
        if not isinstance(v, int) or isinstance(v, bool):
            raise src.error(key + (k,), f"{k} is a whole number, got {v!r}")
    if spec["min"] > spec["max"]:
        raise src.error(key + ("max",), f"max {spec['max']} is below min {spec['min']}")
    return int(spec["min"]), int(spec["max"])


_CALL_KINDS = ("bid", "pass", "double", "redouble")


def _calls_of(src: Source, key: tuple[Any, ...], spec: Mapping[str, Any], ftype: Type) -> tuple[str, ...]:
    """``calls``: the kinds of call a call fact may be (a double out of turn is a double or a redouble)."""
    raw = spec.get("calls")
    if raw is None:
        return ()
    if ftype.name != "call":
        raise src.error(key + ("calls",), f"only a call fact (type: call) names the kinds of call it may be; this one "
                        f"is a {ftype}")
    return _names_of(src, key + ("calls",), raw, _CALL_KINDS,
                     f"calls is a list of distinct kinds of call: {', '.join(_CALL_KINDS)}",
                     lambda c: f"unknown kind of call {c!r}; kinds are {', '.join(_CALL_KINDS)}")


def _names_of(src: Source, key: tuple[Any, ...], raw: Any, allowed: Any, as_list: str,
              unknown: Callable[[Any], str]) -> tuple[str, ...]:
    """A non-empty list of distinct names, each one of ``allowed``: refused at the list (``as_list``) or at the
    name (``unknown``, and a "did you mean")."""
    if not isinstance(raw, list) or not raw or len(set(map(str, raw))) != len(raw):
        raise src.error(key, as_list)
    for j, name in enumerate(raw):
        if name not in allowed:
            raise src.error(key + (j,), unknown(name) + did_you_mean(str(name), allowed))
    return tuple(raw)


def _requires_of(src: Source, key: tuple[Any, ...], spec: Mapping[str, Any], ftype: Type | None = None
                 ) -> tuple[str, ...]:
    """``requires``: what the game must have for the kind to happen (for a true-or-false fact, to be true)."""
    from .seats import REQUIREMENTS

    raw = spec.get("requires")
    if raw is None:
        return ()
    if ftype is not None and ftype.name != "bool":
        raise src.error(key + ("requires",), f"only a true-or-false fact (type: bool) says what it needs of the game "
                        f"to be true; this one is a {ftype}")
    return _names_of(src, key + ("requires",), raw, REQUIREMENTS,
                     f"requires is a list of distinct needs: {', '.join(REQUIREMENTS)}",
                     lambda r: f"unknown need {r!r}; a game may lack "
                     + "; ".join(f"{n} ({w})" for n, w in REQUIREMENTS.items()))


def _add_kinds(src: Source, raw: Mapping[str, Any], kinds: dict[str, Kind], common: Mapping[str, FactSpec]) -> None:
    from .conditions import Env, Where, check, names_used, parse  # (the checker: a catalogue read from the cache
    # needs none of it)

    for kid, spec in raw.items():
        if not isinstance(spec, dict):
            raise src.error(("kinds", kid), "expected a mapping with phase, summary and facts")
        for k in spec:
            if k not in _KIND_KEYS:
                raise src.error(("kinds", kid, k), f"unknown key {k!r}; a kind has {', '.join(_KIND_KEYS)}"
                                + did_you_mean(str(k), _KIND_KEYS))
        if "phase" in spec and spec["phase"] not in _PHASES:
            raise src.error(("kinds", kid, "phase"), f"phase must be one of {', '.join(_PHASES)}, got "
                            f"{spec['phase']!r}" + did_you_mean(str(spec["phase"]), _PHASES))
        facts = _facts_of(src, spec.get("facts"), ("kinds", kid, "facts"))
        for name in facts:
            if name in common:
                raise src.error(("kinds", kid, "facts", name), f"fact {name!r} is already a common fact")
        requires = _requires_of(src, ("kinds", kid), spec)
        flags = {}
        for flag in ("by_hand", "no_offender"):
            flags[flag] = spec.get(flag, False)
            if not isinstance(flags[flag], bool):
                raise src.error(("kinds", kid, flag), f"{flag} is true or false, got {flags[flag]!r}")
        if flags["no_offender"] and "offender" in spec:
            raise src.error(("kinds", kid, "no_offender"), "a kind with no offender names none: drop 'offender'")
        if kid in kinds:
            old = kinds[kid]
            if any(k in spec for k in ("phase", "summary", "offender", "requires", "by_hand", "no_offender")):
                raise src.error(("kinds", kid), f"kind {kid!r} is already defined; here give only 'facts' to add")
            for name, f in facts.items():
                if name in old.facts and old.facts[name] != f:
                    raise src.error(("kinds", kid, "facts", name),
                                    f"fact {name!r} of {kid} is already defined differently")
            merged = {**old.facts, **facts}
            kinds[kid] = Kind(kid, old.phase, old.summary, _derivations(src, ("kinds", kid, "facts"), merged, common),
                              old.offender, old.offender_tree, old.requires, old.by_hand, old.no_offender)
        else:
            if "phase" not in spec or "summary" not in spec:
                raise src.error(("kinds", kid), f"new kind {kid!r} needs 'phase' and 'summary'")
            offender, tree = "", None
            if "offender" in spec:
                offender = spec["offender"]
                k = ("kinds", kid, "offender")
                m = src.mark(k)
                if not isinstance(offender, str):
                    raise src.error(k, f"offender is a seat expression such as dealer or dummy, got {offender!r}")
                where = Where(src.path, m.line, m.column, src.lines, "offender", offender, src.locator(k))
                tree = parse(offender, where)
                got = check(tree, Env({n: f.type for n, f in common.items()}), where)
                if got.name != "seat":
                    raise where.at(tree.line, tree.column, f"the offender is a seat, got a {got}")
                if "offender" in names_used(tree):
                    raise where.at(tree.line, tree.column, "the offender cannot be named from the offender")
            kinds[kid] = Kind(kid, str(spec["phase"]), str(spec["summary"]),
                              _derivations(src, ("kinds", kid, "facts"), facts, common), offender, tree, requires,
                              flags["by_hand"], flags["no_offender"])


def _derivations(src: Source, key: tuple[Any, ...], facts: Mapping[str, FactSpec],
                 common: Mapping[str, FactSpec]) -> dict[str, FactSpec]:
    """Parse and check each ``derive`` expression among ``facts`` (over the common facts and these)."""
    from .conditions import Env, Where, check, names_used, parse

    out = dict(facts)
    env = Env({n: f.type for n, f in {**common, **facts}.items()})
    for name, f in facts.items():
        if not f.derive or f.derive_tree is not None:
            continue
        k = key + (name, "derive")
        m = src.mark(k)
        where = Where(src.path, m.line, m.column, src.lines, "derive", f.derive, src.locator(k))
        tree = parse(f.derive, where)
        got = check(tree, env, where)
        if got != f.type and not (got.name == f.type.name and not f.type.choices):
            raise where.at(tree.line, tree.column, f"{name} is a {f.type}, but its derive expression gives a {got}")
        if name in names_used(tree):
            raise where.at(tree.line, tree.column, f"{name} is derived from itself")
        out[name] = replace(f, derive_tree=tree)
    order = derivation_order(out)
    if order is None:
        cyc = [n for n, f in out.items() if f.derive_tree is not None]
        raise src.error(key + (cyc[0], "derive"), f"the derive expressions of {', '.join(cyc)} go round in a "
                        "circle: each needs another")
    return out


def derivation_order(facts: Mapping[str, FactSpec]) -> tuple[str, ...] | None:
    """The derived facts in an order where each comes after the derived facts it reads; None on a cycle."""
    from .conditions import names_used

    pending = {n: names_used(f.derive_tree) & {m for m, g in facts.items() if g.derive_tree is not None}
               for n, f in facts.items() if f.derive_tree is not None}
    order: list[str] = []
    while pending:
        ready = sorted(n for n, needs in pending.items() if not needs - set(order))
        if not ready:
            return None
        order.extend(ready)
        for n in ready:
            del pending[n]
    return tuple(order)
