"""Load a code: read its YAML, validate it, resolve ``extends``, compile provisions.

Everything that can be wrong with a law file is found here, at load, and
reported at ``path:line:col``: schema violations, unknown topics, duplicate
law numbers, an ``extends`` that points nowhere, an override of a law the
parent lacks, unknown facts or parameters in a condition, unknown provision
ids in ``overrides``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .conditions import (
    BOOL, CALL, CARD, INT, SEAT, SIDE, STR, SUIT, Compiled, Env, Expr, Type, Where, compile_condition, describe,
    names_used, save_tree_cache,
)
from .cache import cached
from .errors import ConditionError, LawFileError, UnknownCodeError, did_you_mean
from .parameters import bind as bind_parameters, render as render_label
from .resources import laws_dir, schema_dir
from .values import Call, EffectKind
from .vocabulary import vocabulary
from .yamlsrc import Source, load_yaml

__all__ = [
    "Code", "Law", "Provision", "EffectSpec", "OptionSpec", "Kind", "FactSpec",
    "load_code", "code_ids", "load_kinds", "load_all",
]

# --------------------------------------------------------------------------
# The effect vocabulary: which fields each effect kind takes, and their types, generated from
# schema/effects.yaml (bridgelaw.vocabulary). Literal fields take the YAML value as written; the rest are
# expressions.

_LIT = "literal"
_ENUM_LITERALS = {"side": ("NS", "EW"), "seat": ("N", "E", "S", "W"), "suit": ("C", "D", "H", "S")}
_FIELD_TYPES: dict[str, Type | str] = {"seat": SEAT, "side": SIDE, "call": CALL, "card": CARD, "suit": SUIT,
                                       "int": INT, "bool": BOOL, "seats": Type("list", elem=SEAT), "text": _LIT}


def _effect_fields() -> dict[EffectKind, dict[str, tuple[Type | str, bool]]]:
    vocab = vocabulary()
    out: dict[EffectKind, dict[str, tuple[Type | str, bool]]] = {}
    for k in vocab.kinds:
        try:
            kind = EffectKind(k.name)
        except ValueError:
            raise LawFileError(f"effect kind {k.name!r} is not a member of EffectKind (engine/bridgelaw/values.py): "
                               "run python -m bridgelaw.vocabulary --write", vocab.path) from None
        out[kind] = {f.name: (Type("str", f.choices) if f.type == "choice" else _FIELD_TYPES[f.type], f.required)
                     for f in k.fields}
    return out


EFFECT_FIELDS: dict[EffectKind, dict[str, tuple[Type | str, bool]]] = _effect_fields()

# --------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class FactSpec:
    name: str
    type: Type
    ask: str
    derived: str = ""
    default: Any = None
    presumed: str = ""  # what a ruling says of the default, when it is presumed


@dataclass(frozen=True)
class Kind:
    id: str
    phase: str
    summary: str
    facts: Mapping[str, FactSpec]


@dataclass(frozen=True)
class EffectSpec:
    kind: EffectKind
    fields: tuple[tuple[str, Any, Compiled | None], ...]  # (name, literal value or source, compiled)


@dataclass(frozen=True)
class OptionSpec:
    id: str
    label: str
    effects: tuple[EffectSpec, ...]
    when: Compiled | None = None
    when_text: str = ""


@dataclass(frozen=True)
class Provision:
    """One rule of a law: when it applies, and what follows (automatic effects, or options)."""

    id: str
    full_id: str
    law: str
    clause: str
    kinds: tuple[str, ...]
    when_text: str
    when_tree: Expr | None
    when: Compiled
    effects: tuple[EffectSpec, ...]
    chooser_text: str
    chooser: Compiled | None
    options: tuple[OptionSpec, ...]
    overrides: tuple[str, ...]
    footnotes: tuple[str, ...]
    notes: tuple[str, ...]
    cites: tuple[str, ...]
    needs: frozenset[str]
    when_shown: str = ""
    needs_sorted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Law:
    number: str
    heading: str | None
    text: str | None
    topics: tuple[str, ...]
    footnotes: tuple[tuple[str, str], ...] = ()
    binding: bool = True
    missing: bool = False
    note: str = ""
    printed_number: str | None = None
    differences: str = ""
    file: str = ""
    code: str = ""
    raw_provisions: tuple[tuple[Source, tuple[Any, ...], Mapping[str, Any]], ...] = field(default=(), repr=False,
                                                                                          compare=False)
    provisions: tuple[Provision, ...] = ()


@dataclass(frozen=True)
class Code:
    id: str
    title: str
    authority: str
    year: int
    game: str
    players: int
    extends: str | None
    sources: tuple[Mapping[str, str], ...]
    laws: tuple[Law, ...]
    params: Mapping[str, Any]
    omitted: tuple[str, ...] = ()
    by_kind: Mapping[str, tuple[Provision, ...]] = field(default_factory=dict, repr=False)
    folder: str = ""

    def law(self, number: str) -> Law | None:
        return self._index().get(number)

    def _index(self) -> dict[str, Law]:
        idx = self.__dict__.get("_law_index")
        if idx is None:
            idx = {law.number: law for law in self.laws}
            object.__setattr__(self, "_law_index", idx)
        return idx  # type: ignore[no-any-return]

    @property
    def provisions(self) -> tuple[Provision, ...]:
        return tuple(p for law in self.laws for p in law.provisions)

    def bid_value(self, call: Call) -> int:
        """The points value of a bid under this code (level times the trick value)."""
        values = self.params.get("trick_values", {})
        assert call.strain is not None and call.level is not None
        return call.level * int(values[call.strain.value])

    def __repr__(self) -> str:
        return f"load_code({self.id!r})"


# --------------------------------------------------------------------------
# Schemas, kinds, topics


@lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    import jsonschema  # deferred: only load-time checks need it

    schema = json.loads((schema_dir() / name).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema)


def validate(src: Source, schema_name: str, base: tuple[Any, ...] = (), data: Any = None) -> None:
    """Validate ``src`` (or ``data`` found at ``base`` inside it) against a schema; first error at its spot."""
    v = _validator(schema_name)
    target = src.data if data is None else data
    errors = sorted(v.iter_errors(target), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return
    e = min(errors, key=lambda e: -len(e.absolute_path))
    where = base + tuple(e.absolute_path)
    field_name = ".".join(str(p) for p in where) or "(top level)"
    raise src.error(where, f"{field_name}: {_schema_message(e)}")


def _schema_message(e: Any) -> str:
    if e.validator == "additionalProperties":
        allowed = sorted((e.schema.get("properties") or {}).keys())
        extra = sorted(set(e.instance) - set(allowed)) if isinstance(e.instance, dict) else []
        hint = did_you_mean(extra[0], allowed) if extra else ""
        return f"unknown key {', '.join(map(repr, extra))}{hint}; allowed keys: {', '.join(allowed)}"
    if e.validator == "enum":
        return f"expected one of {', '.join(map(str, e.validator_value))}, got {e.instance!r}" + (
            did_you_mean(str(e.instance), map(str, e.validator_value)))
    if e.validator == "required":
        return e.message.replace("is a required property", "is required")
    if e.validator == "type":
        return f"expected {e.validator_value}, got {type(e.instance).__name__} {e.instance!r}"
    return e.message


@lru_cache(maxsize=None)
def load_topics(root: str) -> frozenset[str]:
    def build() -> frozenset[str]:
        src = load_yaml(Path(root) / "topics.yaml", "laws/topics.yaml")
        topics = src.data.get("topics") if isinstance(src.data, dict) else None
        if not isinstance(topics, dict):
            raise src.error((), "expected a mapping 'topics:' of topic id to description")
        return frozenset(topics)

    return cached(f"topics:{Path(root).resolve()}", [Path(root) / "topics.yaml"], build)  # type: ignore[no-any-return]


_TYPES = {"bool": BOOL, "int": INT, "str": STR, "seat": SEAT, "side": SIDE, "call": CALL, "card": CARD,
          "suit": SUIT}


@lru_cache(maxsize=None)
def load_kinds(root: str | None = None) -> tuple[Mapping[str, FactSpec], Mapping[str, Kind]]:
    """The irregularity catalogue: common facts, and each kind with its facts.

    ``laws/kinds.yaml`` holds the catalogue; files in ``laws/kinds.d/`` may add
    kinds, or add facts to a kind (never redefine one: that is an error).
    Cached on disk while none of those files changes.
    """
    base = Path(root) if root else laws_dir()
    files = [base / "kinds.yaml"] + sorted((base / "kinds.d").glob("*.yaml"))
    return cached(f"kinds:{base.resolve()}:{len(files)}", files, lambda: _load_kinds(base))  # type: ignore[no-any-return]


def _load_kinds(base: Path) -> tuple[Mapping[str, FactSpec], Mapping[str, Kind]]:
    src = load_yaml(base / "kinds.yaml", "laws/kinds.yaml")
    data = src.data
    if not isinstance(data, dict) or not isinstance(data.get("kinds"), dict):
        raise src.error((), "expected 'common:' and 'kinds:' mappings")
    common = _facts_of(src, data.get("common"), ("common",))
    kinds: dict[str, Kind] = {}
    _add_kinds(src, data["kinds"], kinds, common)
    extra = base / "kinds.d"
    if extra.is_dir():
        sources = []
        for path in sorted(extra.glob("*.yaml")):
            esrc = load_yaml(path, f"laws/kinds.d/{path.name}")
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
    return common, kinds


def _facts_of(src: Source, raw: Any, key: tuple[Any, ...]) -> dict[str, FactSpec]:
    out: dict[str, FactSpec] = {}
    if raw is not None and not isinstance(raw, dict):
        raise src.error(key, "expected a mapping of fact names to {type, ask}")
    for name, spec in (raw or {}).items():
        if not isinstance(spec, dict) or "type" not in spec or "ask" not in spec:
            raise src.error(key + (name,), f"fact {name!r} needs 'type' and 'ask'")
        for k in spec:
            if k not in ("type", "ask", "derived", "default", "presumed"):
                raise src.error(key + (name, k), f"unknown key {k!r}; a fact has type, ask, derived, default, "
                                                 "presumed")
        if (spec.get("default") is None) == bool(spec.get("presumed")):
            raise src.error(key + (name,), f"fact {name!r} has " + (
                "a default but no `presumed:` (what a ruling says when it presumes it, e.g. \"the cards were not "
                "mixed\")" if spec.get("default") is not None else "`presumed:` but no default to presume"))
        t = spec["type"]
        if isinstance(t, list):
            ftype = Type("str", tuple(str(x) for x in t))
        elif t in _TYPES:
            ftype = _TYPES[t]
        else:
            raise src.error(key + (name, "type"), f"unknown type {t!r}; expected one of {', '.join(_TYPES)}"
                            " or a list of choices" + did_you_mean(str(t), _TYPES))
        out[name] = FactSpec(name, ftype, str(spec["ask"]), str(spec.get("derived", "")), spec.get("default"),
                             str(spec.get("presumed", "")))
    return out


def _add_kinds(src: Source, raw: Mapping[str, Any], kinds: dict[str, Kind], common: Mapping[str, FactSpec]) -> None:
    for kid, spec in raw.items():
        if not isinstance(spec, dict):
            raise src.error(("kinds", kid), "expected a mapping with phase, summary and facts")
        for k in spec:
            if k not in ("phase", "summary", "facts"):
                raise src.error(("kinds", kid, k), f"unknown key {k!r}; a kind has phase, summary, facts")
        facts = _facts_of(src, spec.get("facts"), ("kinds", kid, "facts"))
        for name in facts:
            if name in common:
                raise src.error(("kinds", kid, "facts", name), f"fact {name!r} is already a common fact")
        if kid in kinds:
            old = kinds[kid]
            if "phase" in spec or "summary" in spec:
                raise src.error(("kinds", kid), f"kind {kid!r} is already defined; here give only 'facts' to add")
            for name, f in facts.items():
                if name in old.facts and old.facts[name] != f:
                    raise src.error(("kinds", kid, "facts", name),
                                    f"fact {name!r} of {kid} is already defined differently")
            kinds[kid] = Kind(kid, old.phase, old.summary, {**old.facts, **facts})
        else:
            if "phase" not in spec or "summary" not in spec:
                raise src.error(("kinds", kid), f"new kind {kid!r} needs 'phase' and 'summary'")
            kinds[kid] = Kind(kid, str(spec["phase"]), str(spec["summary"]), facts)


# --------------------------------------------------------------------------
# Loading


def code_ids(root: Path | None = None) -> list[str]:
    base = root or laws_dir()
    return sorted(p.name for p in base.iterdir() if (p / "code.yaml").is_file()) if base.is_dir() else []


_cache: dict[tuple[str, str], Code] = {}
_fast: dict[str, Code] = {}


def load_code(code_id: str) -> Code:
    """Load, validate, resolve and compile one code (cached per process)."""
    code = _fast.get(code_id)  # BRIDGELAW_DATA is read when a code is first loaded; clear_cache() to reload
    if code is not None:
        return code
    key = (os.environ.get("BRIDGELAW_DATA", ""), code_id)
    code = _cache.get(key)
    if code is not None:
        _fast[code_id] = code
        return code
    root = laws_dir()
    if key not in _cache:
        if not isinstance(code_id, str) or not re.fullmatch(r"[a-z0-9-]+", code_id) or \
                not (root / code_id / "code.yaml").is_file():
            ids = code_ids(root)
            raise UnknownCodeError("code", f"unknown code {code_id!r}; codes are {', '.join(ids)}"
                                   + did_you_mean(str(code_id), ids))
        _cache[key] = _load(root, code_id, ())
        save_tree_cache()
    _fast[code_id] = _cache[key]
    return _cache[key]


def load_all() -> list[Code]:
    return [load_code(c) for c in code_ids()]


def clear_cache() -> None:
    _cache.clear()
    _fast.clear()
    load_kinds.cache_clear()
    load_topics.cache_clear()


def _rel(root: Path, p: Path) -> str:
    try:
        return str(p.relative_to(root.parent))
    except ValueError:
        return str(p)


@dataclass
class _Raw:
    """A code's own files, before resolution."""

    meta: Mapping[str, Any]
    meta_src: Source
    laws: list[Law]
    params: dict[str, Any]
    params_src: Source | None
    sources: dict[str, Source]
    positions: dict[str, tuple[Source, tuple[Any, ...]]]
    after: dict[str, str]
    omitted: list[str]


def _read(root: Path, code_id: str) -> _Raw:
    folder = root / code_id
    meta_src = _read_validated(folder / "code.yaml", _rel(root, folder / "code.yaml"), "code.schema.json")
    meta = meta_src.data
    if meta["id"] != code_id:
        raise meta_src.error(("id",), f"id {meta['id']!r} does not match the folder name {code_id!r}")
    params: dict[str, Any] = {}
    params_src = None
    if (folder / "parameters.yaml").is_file():
        params_src = load_yaml(folder / "parameters.yaml", _rel(root, folder / "parameters.yaml"))
        if params_src.data is not None:
            if not isinstance(params_src.data, dict):
                raise params_src.error((), "expected a mapping of parameter names to values")
            params = params_src.data
    topics = load_topics(str(root))
    laws: list[Law] = []
    positions: dict[str, tuple[Source, tuple[Any, ...]]] = {}
    after: dict[str, str] = {}
    omitted: list[str] = []
    files = sorted(p for p in folder.glob("*.yaml") if p.name not in ("code.yaml", "parameters.yaml")
                   and re.match(r"^\d\d-", p.name))
    sources: dict[str, Source] = {}
    for path in files:
        src = _read_validated(path, _rel(root, path))
        sources[src.path] = src
        data = src.data
        binding = data.get("binding", True)
        for i, raw in enumerate(data.get("laws") or []):
            key = ("laws", i)
            number = raw["number"]
            if number in positions:
                other, okey = positions[number]
                m = other.mark(okey)
                raise src.error(key + ("number",), f"law {number!r} appears twice (also at {other.path}:{m.line})")
            positions[number] = (src, key)
            for t_i, t in enumerate(raw.get("topics") or []):
                if t not in topics:
                    raise src.error(key + ("topics", t_i), f"unknown topic {t!r}" + did_you_mean(t, topics)
                                    + "; topics are listed in laws/topics.yaml")
            if raw.get("after") or data.get("after"):
                after[number] = raw.get("after") or data.get("after")
            if raw.get("omitted"):
                omitted.append(number)
                continue
            text = raw.get("text")
            if text is None and not raw.get("missing"):
                raise src.error(key, f"law {number!r} has no text; give its verbatim text, or 'missing: true' "
                                     "with a note where no source has it")
            if not raw.get("missing") and not raw.get("topics"):
                raise src.error(key, f"law {number!r} needs at least one topic from laws/topics.yaml")
            fns = tuple((f["number"], _reflow(f["text"])) for f in raw.get("footnotes") or [])
            provs = tuple((src, key + ("provisions", j), p) for j, p in enumerate(raw.get("provisions") or []))
            laws.append(Law(
                number=number, heading=data.get("heading"), text=_reflow(text) if text else None,
                topics=tuple(raw.get("topics") or ()), footnotes=fns, binding=bool(binding),
                missing=bool(raw.get("missing")), note=raw.get("note", ""),
                printed_number=raw.get("printed_number", number), differences=raw.get("differences", ""),
                file=src.path, code=code_id, raw_provisions=provs,
            ))
    return _Raw(meta, meta_src, laws, params, params_src, sources, positions, after, omitted)


def _read_validated(path: Path, display: str, schema: str = "law-file.schema.json") -> Source:
    """A file, read and validated once; later runs take it from the cache while it is unchanged."""

    def build() -> Source:
        src = load_yaml(path, display)
        validate(src, schema)
        return src

    return cached(f"{schema}:{path.resolve()}:{display}", [path, schema_dir() / schema],  # type: ignore[no-any-return]
                  build)


def _reflow(text: str) -> str:
    """The text as printed: paragraphs one a line, blank lines between them, table rows one a line."""
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(parent)
    for k, v in child.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _load(root: Path, code_id: str, chain: tuple[str, ...]) -> Code:
    raw = _read(root, code_id)
    parent_id = raw.meta.get("extends")
    laws = raw.laws
    omitted = list(raw.omitted)
    if parent_id:
        if parent_id in chain + (code_id,):
            raise raw.meta_src.error(("extends",), f"'extends' makes a cycle: {' -> '.join(chain + (code_id, parent_id))}")
        if not (root / parent_id / "code.yaml").is_file():
            ids = code_ids(root)
            raise raw.meta_src.error(("extends",), f"'extends' names unknown code {parent_id!r}"
                                     + did_you_mean(parent_id, ids) + f"; codes are {', '.join(ids)}")
        parent = _load(root, parent_id, chain + (code_id,))
        laws, omitted = _resolve(parent, raw)
    params = bind_parameters(root / code_id, code_id, parent.params if parent_id else None,  # type: ignore[arg-type]
                             [lw.number for lw in laws], _rel(root, root / code_id / "parameters.yaml"))
    code = Code(
        id=code_id, title=raw.meta["title"], authority=raw.meta["authority"], year=raw.meta["year"],
        game=raw.meta["game"], players=raw.meta.get("players", 4), extends=parent_id,
        sources=tuple(raw.meta["source"] if isinstance(raw.meta["source"], list) else [raw.meta["source"]]),
        laws=tuple(laws), params=params, omitted=tuple(omitted), folder=str(root / code_id),
    )
    return _compile_code(code, raw)


def _resolve(parent: Code, raw: _Raw) -> tuple[list[Law], list[str]]:
    laws = list(parent.laws)
    index = {law.number: i for i, law in enumerate(laws)}
    omitted = list(parent.omitted)
    for number in raw.omitted:
        if number not in index:
            src, key = raw.positions[number]
            raise src.error(key + ("number",), f"'omitted' law {number!r} is not in {parent.id}"
                            + did_you_mean(number, index))
        omitted.append(number)
    placed: dict[str, str] = {}  # anchor -> the last law added after it, to keep printed order
    for law in raw.laws:
        if law.number in index:
            laws[index[law.number]] = law
            continue
        anchor = raw.after.get(law.number)
        src, key = raw.positions[law.number]
        if not anchor:
            raise src.error(key + ("number",), f"law {law.number!r} is not in {parent.id}; a law a code adds needs "
                            "'after:' naming the law it follows" + did_you_mean(law.number, index))
        if anchor not in index:
            raise src.error(key + ("number",), f"'after: {anchor}' names a law that is in neither this code nor "
                            f"{parent.id}" + did_you_mean(anchor, index))
        pos = index[placed.get(anchor, anchor)] + 1
        placed[anchor] = law.number
        laws.insert(pos, law)
        index = {lw.number: i for i, lw in enumerate(laws)}
    gone = set(omitted)
    return [lw for lw in laws if lw.number not in gone], omitted


# --------------------------------------------------------------------------
# Compiling provisions (after resolution, with the resolved code's parameters)


def _where(src: Source, key: tuple[Any, ...], field_name: str) -> Where:
    m = src.mark(key)
    return Where(src.path, m.line, m.column, src.lines, field_name)


def _compile_code(code: Code, raw: _Raw) -> Code:
    common, kinds = load_kinds(str(laws_dir()))
    ids: dict[str, tuple[Source, tuple[Any, ...]]] = {}
    compiled_laws: list[Law] = []
    by_kind: dict[str, list[Provision]] = {}
    pending_overrides: list[tuple[Source, tuple[Any, ...], str]] = []
    for law in code.laws:
        provs: list[Provision] = []
        for src, key, spec in law.raw_provisions:
            pid = spec["id"]
            if pid in ids:
                osrc, okey = ids[pid]
                raise src.error(key + ("id",), f"provision id {pid!r} is used twice in {code.id} "
                                f"(also at {osrc.path}:{osrc.mark(okey).line})")
            ids[pid] = (src, key)
            prov = _compile_provision(code, law, src, key, spec, common, kinds)
            for j, o in enumerate(prov.overrides):
                pending_overrides.append((src, key + ("overrides", j), o))
            for j, fn in enumerate(prov.footnotes):
                if fn not in dict(law.footnotes):
                    raise src.error(key + ("footnotes", j), f"law {law.number} has no footnote {fn!r}"
                                    + (f"; it has {', '.join(dict(law.footnotes))}" if law.footnotes else ""))
            provs.append(prov)
            for k in prov.kinds:
                by_kind.setdefault(k, []).append(prov)
        compiled_laws.append(_replace_provisions(law, tuple(provs)))
    for src, key, o in pending_overrides:
        if o not in ids:
            raise src.error(key, f"'overrides' names unknown provision {o!r}" + did_you_mean(o, ids))
    return Code(
        id=code.id, title=code.title, authority=code.authority, year=code.year, game=code.game,
        players=code.players, extends=code.extends, sources=code.sources, laws=tuple(compiled_laws),
        params=code.params, omitted=code.omitted, by_kind={k: tuple(v) for k, v in by_kind.items()},
        folder=code.folder,
    )


def _replace_provisions(law: Law, provs: tuple[Provision, ...]) -> Law:
    return Law(law.number, law.heading, law.text, law.topics, law.footnotes, law.binding, law.missing, law.note,
               law.printed_number, law.differences, law.file, law.code, law.raw_provisions, provs)


def _env_for(kind_ids: list[str], common: Mapping[str, FactSpec], kinds: Mapping[str, Kind],
             params: Mapping[str, Any]) -> Env:
    """Common facts, and the facts that every kind the provision answers has (with one type)."""
    facts: dict[str, Type] = {n: f.type for n, f in common.items()}
    first = kinds[kind_ids[0]].facts
    shared = {n: f.type for n, f in first.items()}
    for k in kind_ids[1:]:
        other = kinds[k].facts
        shared = {n: t for n, t in shared.items() if n in other and other[n].type == t}
    facts.update(shared)
    return Env(facts, params)


def _compile_provision(code: Code, law: Law, src: Source, key: tuple[Any, ...], spec: Mapping[str, Any],
                       common: Mapping[str, FactSpec], kinds: Mapping[str, Kind]) -> Provision:
    kind_ids = list(spec["kinds"])
    for j, k in enumerate(kind_ids):
        if k not in kinds:
            raise src.error(key + ("kinds", j), f"unknown irregularity kind {k!r}" + did_you_mean(k, kinds)
                            + "; kinds are listed in laws/kinds.yaml (`bridgelaw kinds`)")
    env = _env_for(kind_ids, common, kinds, code.params)
    when_raw = spec.get("when", True)
    needs: set[str] = set()
    if when_raw is True or when_raw == "true":
        tree, when = None, (lambda f: True)
        when_text = "true"
    else:
        when_text = str(when_raw)
        tree, when = compile_condition(when_text, env, _where(src, key + ("when",), "when"))
        needs |= names_used(tree)
    effects = tuple(_compile_effect(src, key + ("effects", j), e, env) for j, e in enumerate(spec.get("effects") or []))
    options: list[OptionSpec] = []
    chooser = None
    chooser_text = spec.get("chooser", "")
    if spec.get("options"):
        ctree, chooser = compile_condition(chooser_text, env, _where(src, key + ("chooser",), "chooser"), want=None)
        from .conditions import check  # local: only for the type test

        ctype = check(ctree, env, _where(src, key + ("chooser",), "chooser"))
        if ctype.name not in ("seat", "side"):
            raise src.error(key + ("chooser",), f"chooser must be a seat or a side, got a {ctype}",
                            ConditionError)
        seen: set[str] = set()
        for j, o in enumerate(spec["options"]):
            if o["id"] in seen:
                raise src.error(key + ("options", j, "id"), f"option id {o['id']!r} is used twice in this provision")
            seen.add(o["id"])
            owhen = None
            if o.get("when"):
                _, owhen = compile_condition(o["when"], env, _where(src, key + ("options", j, "when"), "when"))
            options.append(OptionSpec(
                o["id"], render_label(o.get("label", ""), code.params, src, key + ("options", j, "label")),  # type: ignore[arg-type]
                tuple(_compile_effect(src, key + ("options", j, "effects", n), e, env)
                      for n, e in enumerate(o["effects"])),
                owhen, o.get("when", ""),
            ))
    if not effects and not options:
        raise src.error(key, f"provision {spec['id']!r} needs 'effects' or 'options' (use kind no_penalty or "
                             "discretion where the law prescribes nothing)")
    return Provision(
        id=spec["id"], full_id=f"{law.code}/{law.number}/{spec['id']}", law=law.number,
        clause=str(spec.get("clause", "")), kinds=tuple(kind_ids), when_text=when_text, when_tree=tree, when=when,
        effects=effects, chooser_text=chooser_text, chooser=chooser, options=tuple(options),
        overrides=tuple(spec.get("overrides") or ()), footnotes=tuple(spec.get("footnotes") or ()),
        notes=tuple(spec.get("notes") or ()), cites=tuple(spec.get("cites") or ()), needs=frozenset(needs),
        when_shown=describe(tree) if tree is not None else "true", needs_sorted=tuple(sorted(needs)),
    )


def _compile_effect(src: Source, key: tuple[Any, ...], spec: Mapping[str, Any], env: Env) -> EffectSpec:
    kind = EffectKind(spec["kind"])
    allowed = EFFECT_FIELDS[kind]
    fields: list[tuple[str, Any, Compiled | None]] = []
    for name, value in spec.items():
        if name == "kind":
            continue
        if name not in allowed:
            raise src.error(key + (name,), f"effect {kind.value!r} has no field {name!r}"
                            + did_you_mean(name, allowed)
                            + (f"; its fields are {', '.join(allowed)}" if allowed else "; it takes no fields"))
        ftype, _ = allowed[name]
        if ftype == _LIT:
            fields.append((name, value, None))
            continue
        assert isinstance(ftype, Type)
        if isinstance(value, bool) or isinstance(value, int):
            fields.append((name, value, None))
            continue
        if ftype.choices and value in ftype.choices:
            fields.append((name, value, None))
            continue
        if value in _ENUM_LITERALS.get(ftype.name, ()):  # a bare NS, EW, N, ... C, D, H, S
            fields.append((name, value, None))
            continue
        if ftype.choices:
            raise src.error(key + (name,), f"{name} must be one of {', '.join(ftype.choices)}, got {value!r}"
                            + did_you_mean(str(value), ftype.choices))
        _, fn = compile_condition(str(value), env, _where(src, key + (name,), name), want=ftype)
        fields.append((name, str(value), fn))
    for name, (_, required) in allowed.items():
        if required and name not in spec:
            raise src.error(key, f"effect {kind.value!r} needs field {name!r}")
    for group in vocabulary().kind(kind.value).one_of:
        if sum(name in spec for name in group) != 1:
            spec_of = vocabulary().kind(kind.value).field
            raise src.error(key, f"effect {kind.value!r} needs exactly one of " + " or ".join(
                f"{n} ({spec_of(n).description})" if spec_of(n).description else n for n in group))
    return EffectSpec(kind, tuple(fields))

