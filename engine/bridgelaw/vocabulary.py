"""The effect vocabulary: ``schema/effects.yaml`` read, checked and exposed.

Every effect kind, with its fields (their types, which are required, the words
of a closed list's values), the sentences that say it to people and the
effects it cannot stand beside, is written once, in ``schema/effects.yaml``.
This module reads that file (its errors at ``path:line:col``, like a law
file's), and everything else is generated from it or checked against it:

- ``loader.EFFECT_FIELDS`` (the fields a law file's effect may give) is built from :func:`vocabulary`;
- the effect enums of ``schema/law-file.schema.json``, the effect ``oneOf`` of ``schema/ruling.schema.json``
  and the members of ``values.EffectKind`` (literals, for start-up speed) are written by
  ``python -m bridgelaw.vocabulary --write`` (``--check`` says whether the checked-in files are what it would
  write; a test runs it);
- ``compare.audit``'s clash list is :meth:`Vocabulary.clash_pairs`;
- :mod:`bridgelaw.wording` says every effect with the wordings here.

The template syntax is documented at the head of ``schema/effects.yaml``.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import sys
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .cache import cached
from .effectwords import PLACEHOLDER, matches
from .errors import LawFileError, did_you_mean
from .resources import schema_dir, schema_path

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any, Mapping, Sequence

    from .yamlsrc import Source

__all__ = [
    "FieldSpec", "Wording", "KindSpec", "Vocabulary", "vocabulary", "load_vocabulary", "FIELD_TYPES", "PLACEHOLDER",
    "ruling_effect_schema", "generated_files", "write_generated",
]

#: The field types a vocabulary may use (documented in schema/effects.yaml; checked by schema/effects.schema.json).
FIELD_TYPES = ("seat", "side", "call", "card", "suit", "int", "bool", "seats", "text", "choice")
#: The types a ``where:`` may test.
_WHERE_TYPES = ("choice", "bool", "int")
_FORMATS = {"abs": ("int",)}  # {field:abs}: which types take the format


@dataclass(frozen=True)
class FieldSpec:
    """One field of an effect kind."""

    name: str
    type: str
    required: bool = False
    description: str = ""
    values: tuple[tuple[str, str], ...] = ()  # a choice's values, each with its words
    count: bool = False  # an int that counts something: never below zero
    differs_from: str = ""  # another field of the kind this one must differ from

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(v for v, _ in self.values)

    def value_words(self, value: str) -> str:
        for v, w in self.values:
            if v == value:
                return w
        raise KeyError(value)


@dataclass(frozen=True)
class Wording:
    """One sentence of a kind, with the conditions that select it."""

    text: str
    with_: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    where: tuple[tuple[str, Any], ...] = ()
    below: tuple[tuple[str, int], ...] = ()

    def matches(self, args: Mapping[str, Any]) -> bool:
        return matches(self.with_, self.without, self.where, self.below, args)


@dataclass(frozen=True)
class KindSpec:
    """One effect kind: what it does, its fields, its wordings, the kinds it clashes with (both ways)."""

    name: str
    description: str
    fields: tuple[FieldSpec, ...]
    wording: tuple[Wording, ...]
    one_of: tuple[tuple[str, ...], ...] = ()
    clashes: tuple[str, ...] = ()  # both ways: the kinds it lists, and the kinds that list it
    listed: tuple[str, ...] = ()  # the clashes as written on this kind
    in_play: bool = False  # it acts on the play: its seats are the play's, even in a ruling on the auction

    def field(self, name: str) -> FieldSpec | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def wording_for(self, args: Mapping[str, Any]) -> Wording:
        """The first wording whose conditions hold (the file is checked so that every effect has one)."""
        for w in self.wording:
            if w.matches(args):
                return w
        raise ValueError(f"no wording of {self.name!r} fits {dict(args)!r}: not an effect the vocabulary allows")


@dataclass(frozen=True)
class Vocabulary:
    """Every effect kind, in the order of the file."""

    kinds: tuple[KindSpec, ...]
    path: str = "schema/effects.yaml"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.kinds)

    @cached_property
    def _by_name(self) -> dict[str, KindSpec]:
        return {k.name: k for k in self.kinds}

    def kind(self, name: str) -> KindSpec:
        """The kind named; KeyError (with the names it knows) for any other."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no effect kind {name!r} in {self.path}{did_you_mean(name, self._by_name)}") from None

    def clash_pairs(self) -> list[tuple[str, str]]:
        """Each clash once, as written: (the kind that lists it, the kind listed)."""
        return [(k.name, other) for k in self.kinds for other in k.listed]

    def count_fields(self) -> dict[str, tuple[str, ...]]:
        """The fields of each kind that count something (``count: true``): never below zero."""
        return {k.name: names for k in self.kinds if (names := tuple(f.name for f in k.fields if f.count))}

    def play_kinds(self) -> frozenset[str]:
        """The kinds that act on the play (``in_play: true``): their seats are the play's."""
        return frozenset(k.name for k in self.kinds if k.in_play)

    def distinct_fields(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """The pairs of fields of each kind that must differ (``differs_from``): (the other field, this one)."""
        return {k.name: pairs for k in self.kinds
                if (pairs := tuple((f.differs_from, f.name) for f in k.fields if f.differs_from))}


# --------------------------------------------------------------------------
# Reading the file


def _default_path() -> str:
    return os.path.join(schema_path(), "effects.yaml")


@lru_cache(maxsize=None)
def _load(path: str, display: str) -> Vocabulary:
    deps = [path, os.path.join(os.path.dirname(path), "effects.schema.json"), __file__]

    def build() -> Vocabulary:
        from pathlib import Path

        return _build(Path(path), display)

    return cached(f"vocabulary:{os.path.realpath(path)}", deps, build)  # type: ignore[no-any-return]


def vocabulary() -> Vocabulary:
    """The shipped vocabulary (``schema/effects.yaml``), read once and cached on disk."""
    return _load(_default_path(), "schema/effects.yaml")


@lru_cache(maxsize=None)
def field_checks() -> tuple[dict[Any, tuple[str, ...]], dict[Any, tuple[tuple[str, str], ...]]]:
    """The shipped vocabulary's checks on an effect's fields, by :class:`~bridgelaw.values.EffectKind`: the fields
    that count something (never below zero) and the pairs of fields that must differ (what the loader checks of a
    literal and the referee of a value worked out as it rules)."""
    from .values import EffectKind

    vocab = vocabulary()
    return ({EffectKind(k): f for k, f in vocab.count_fields().items()},
            {EffectKind(k): pairs for k, pairs in vocab.distinct_fields().items()})


def load_vocabulary(path: Path | str, display: str | None = None) -> Vocabulary:
    """A vocabulary file read and checked, uncached (for tests and tools); errors are :class:`LawFileError`."""
    from pathlib import Path

    p = Path(path)
    return _build(p, display or str(p))


def _build(path: Path, display: str) -> Vocabulary:
    from .yamlsrc import load_yaml  # (a vocabulary read from the cache reads no YAML)

    src = load_yaml(path, display)
    _check_schema(src, path.with_name("effects.schema.json"))
    raw: Mapping[str, Any] = src.data["kinds"]
    kinds = [_kind(src, name, spec) for name, spec in raw.items()]
    _check_clashes(src, raw)
    both: dict[str, list[str]] = {k.name: [] for k in kinds}
    for k in kinds:
        for other in k.listed:
            both[k.name].append(other)
            both[other].append(k.name)
    return Vocabulary(tuple(KindSpec(k.name, k.description, k.fields, k.wording, k.one_of, tuple(both[k.name]),
                                     k.listed, k.in_play) for k in kinds), display)


def _check_schema(src: Source, schema_path: Path) -> None:
    import jsonschema  # deferred: only a changed vocabulary is checked (the result is cached)

    try:
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
    except OSError as e:
        raise LawFileError(f"cannot read the vocabulary's schema: {e.strerror}", str(schema_path)) from None
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(src.data))
    if not errors:
        return
    # the deepest error first; at one depth, an unknown key or a wrong value before what they make missing
    rank = {"additionalProperties": 0, "enum": 1, "propertyNames": 1}
    err = min(errors, key=lambda e: (-len(e.absolute_path), rank.get(str(e.validator), 2)))
    where = tuple(err.absolute_path)
    name = ".".join(str(p) for p in where) or "(top level)"
    inst = err.instance
    if err.validator == "additionalProperties" and isinstance(inst, dict):
        allowed = sorted((err.schema.get("properties") or {}).keys())
        extra = sorted(set(inst) - set(allowed))
        key = where + (extra[0],) if extra else where
        raise src.error(key, f"{name}: unknown key {extra[0]!r}{did_you_mean(extra[0], allowed)}; "
                             f"allowed keys: {', '.join(allowed)}")
    if err.validator == "enum":
        raise src.error(where, f"{name}: expected one of {', '.join(map(str, err.validator_value))}, got {inst!r}"
                        + did_you_mean(str(inst), map(str, err.validator_value)))
    if err.validator == "required":
        raise src.error(where, f"{name}: {err.message.replace('is a required property', 'is required')}")
    if err.validator == "pattern":
        raise src.error(where, f"{name}: {inst!r} is not a name: a name is lowercase letters joined by _ "
                               "(e.g. adverse_call)")
    if err.validator == "not" and isinstance(inst, dict) and "values" in inst:
        raise src.error(where + ("values",), f"{name}: only a field of type choice has values")
    raise src.error(where, f"{name}: {err.message}")


def _kind(src: Source, name: str, spec: Mapping[str, Any]) -> KindSpec:
    key: tuple[Any, ...] = ("kinds", name)
    fields = []
    for fname, f in (spec.get("fields") or {}).items():
        values = tuple((str(v), str(w)) for v, w in (f.get("values") or {}).items())
        fields.append(FieldSpec(fname, f["type"], bool(f.get("required", False)), str(f.get("description", "")),
                                values, bool(f.get("count", False)), str(f.get("differs_from", ""))))
    by_name = {f.name: f for f in fields}
    for f in fields:
        if f.count and f.type != "int":
            raise src.error(key + ("fields", f.name, "count"), f"count: true marks a field that counts (type int); "
                                                                f"{f.name!r} is a {f.type}")
        if not f.differs_from:
            continue
        where = key + ("fields", f.name, "differs_from")
        if f.differs_from == f.name:
            raise src.error(where, f"{f.name!r} cannot differ from itself")
        other = by_name.get(f.differs_from)
        if other is None:
            raise src.error(where, f"effect {name!r} has no field {f.differs_from!r}" + did_you_mean(f.differs_from, by_name))
        if other.type != f.type:
            raise src.error(where, f"{f.name!r} is {_a(f.type)} and {other.name!r} {_a(other.type)}: fields of "
                                   "different types always differ")

    def known(where: tuple[Any, ...], fname: str) -> FieldSpec:
        if fname not in by_name:
            raise src.error(where, f"effect {name!r} has no field {fname!r}" + did_you_mean(fname, by_name)
                            + (f"; its fields are {', '.join(by_name)}" if by_name else "; it takes no fields"))
        return by_name[fname]

    one_of = []
    for i, group in enumerate(spec.get("one_of") or ()):
        for j, fname in enumerate(group):
            if known(key + ("one_of", i, j), fname).required:
                raise src.error(key + ("one_of", i, j), f"{fname!r} is required, so it cannot be one of a choice")
        one_of.append(tuple(group))
    wordings = []
    entries = spec["wording"]
    for i, w in enumerate(entries):
        wkey = key + ("wording", i)
        for cond in ("with", "without"):
            for j, fname in enumerate(w.get(cond) or ()):
                known(wkey + (cond, j), fname)
        both = set(w.get("with") or ()) & set(w.get("without") or ())
        if both:
            raise src.error(wkey, f"{sorted(both)[0]!r} is both in `with` and in `without`: this wording can never "
                                  "be used")
        for fname, value in (w.get("where") or {}).items():
            f = known(wkey + ("where", fname), fname)
            _check_where(src, wkey + ("where", fname), f, value)
        for fname in (w.get("below") or {}):
            f = known(wkey + ("below", fname), fname)
            if f.type != "int":
                raise src.error(wkey + ("below", fname), f"`below` compares numbers; {fname!r} is a {f.type}")
        _check_text(src, wkey + ("text",), w["text"], by_name)
        wordings.append(Wording(
            w["text"], tuple(w.get("with") or ()), tuple(w.get("without") or ()),
            tuple((w.get("where") or {}).items()), tuple((w.get("below") or {}).items())))
    _check_total(src, key, name, tuple(fields), tuple(one_of), tuple(wordings))
    return KindSpec(name, spec["description"], tuple(fields), tuple(wordings), tuple(one_of),
                    listed=tuple(spec.get("clashes") or ()), in_play=bool(spec.get("in_play", False)))


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _check_where(src: Source, key: tuple[Any, ...], f: FieldSpec, value: Any) -> None:
    if f.type not in _WHERE_TYPES:
        raise src.error(key, f"`where` tests a choice, bool or int field; {f.name!r} is a {f.type} (use `with` or "
                             "`without` to test whether it is given)")
    if f.type == "choice" and value not in f.choices:
        raise src.error(key, f"{f.name} has no value {value!r}; its values are {', '.join(f.choices)}"
                        + did_you_mean(str(value), f.choices))
    if f.type == "bool" and not isinstance(value, bool):
        raise src.error(key, f"{f.name} is a bool: expected true or false, got {value!r}")
    if f.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
        raise src.error(key, f"{f.name} is an int: expected a whole number, got {value!r}")


def _error_in(src: Source, key: tuple[Any, ...], text: str, offset: int, message: str) -> LawFileError:
    """An error at ``offset`` characters into the text at ``key`` (at the text itself when it is not written on
    one line as it reads)."""
    e = src.error(key, message)
    line = src.lines[e.line - 1] if e.line and e.column and 0 < e.line <= len(src.lines) else ""
    if e.column is not None and line[e.column - 1:e.column - 1 + len(text)] == text:
        e = LawFileError(message, e.path, e.line, e.column + offset, e.source_line)
    return e


def _check_text(src: Source, key: tuple[Any, ...], text: str, fields: Mapping[str, FieldSpec]) -> None:
    stray = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), text)
    brace = min((i for i in (stray.find("{"), stray.find("}")) if i >= 0), default=-1)
    if brace >= 0:
        raise _error_in(src, key, text, brace, f"a brace that is not a placeholder in {text!r}: placeholders are "
                                               "{field} or {field:abs}, and the text has no other braces")
    for m in PLACEHOLDER.finditer(text):
        fname, fmt = m.group(1), m.group(2)
        if fname not in fields:
            raise _error_in(src, key, text, m.start(), f"{{{fname}}} names no field" + did_you_mean(fname, fields)
                            + (f"; the fields are {', '.join(fields)}" if fields else "; the kind takes no fields"))
        f = fields[fname]
        if f.type == "bool":
            raise _error_in(src, key, text, m.start(), f"{{{fname}}} is a bool, which is never printed: select a "
                                                       f"wording with `where: {{{fname}: true}}` instead")
        if fmt is not None and f.type not in _FORMATS.get(fmt, ()):
            allowed = [k for k, types in _FORMATS.items() if f.type in types]
            raise _error_in(src, key, text, m.start(), f"{{{fname}:{fmt}}}: a {f.type} field takes "
                            + (f"the formats {', '.join(allowed)}" if allowed else "no format"))


def _samples(fields: tuple[FieldSpec, ...], one_of: tuple[tuple[str, ...], ...],
             wordings: tuple[Wording, ...]) -> Any:
    """Every effect the fields allow, as far as the wordings can tell them apart: each set of optional fields
    given (as ``one_of`` allows), each choice and bool value, and the numbers the conditions name."""
    optional = [f for f in fields if not f.required]
    for mask in itertools.product((False, True), repeat=len(optional)):
        present = [f for f in fields if f.required or (f in optional and mask[optional.index(f)])]
        names = {f.name for f in present}
        if any(sum(n in names for n in g) != 1 for g in one_of):
            continue
        values = [_sample_values(f, wordings) for f in present]
        for combo in itertools.product(*values):
            yield dict(zip((f.name for f in present), combo))


def _sample_values(f: FieldSpec, wordings: tuple[Wording, ...]) -> tuple[Any, ...]:
    if f.type == "choice":
        return f.choices
    if f.type == "bool":
        return (True, False)
    if f.type == "int":
        named = {v for w in wordings for n, v in w.where if n == f.name}
        named |= {x for w in wordings for n, v in w.below if n == f.name for x in (v - 1, v)}
        return tuple(sorted(named | {1, 2}))
    return ("?",)


def _check_total(src: Source, key: tuple[Any, ...], kind: str, fields: tuple[FieldSpec, ...],
                 one_of: tuple[tuple[str, ...], ...], wordings: tuple[Wording, ...]) -> None:
    """Every effect of the kind finds a wording, and every field that wording prints is given."""
    for sample in _samples(fields, one_of, wordings):
        shown = ", ".join(f"{n}={v!r}" if v != "?" else n for n, v in sample.items()) or "no fields"
        w = next((w for w in wordings if w.matches(sample)), None)
        if w is None:
            raise src.error(key + ("wording",), f"no wording of {kind!r} fits an effect with {shown}: add one, or "
                                                 "end the list with a wording that has no conditions")
        for m in PLACEHOLDER.finditer(w.text):
            if m.group(1) not in sample:
                i = wordings.index(w)
                raise _error_in(src, key + ("wording", i, "text"), w.text, m.start(),
                                f"{{{m.group(1)}}} is printed for an effect with {shown}, which does not give it: "
                                f"put {m.group(1)} in this wording's `with`")


def _check_clashes(src: Source, raw: Mapping[str, Any]) -> None:
    seen: dict[frozenset[str], str] = {}
    for name, spec in raw.items():
        for j, other in enumerate(spec.get("clashes") or ()):
            key = ("kinds", name, "clashes", j)
            if other not in raw:
                raise src.error(key, f"clash with an unknown effect kind {other!r}" + did_you_mean(other, raw))
            if other == name:
                raise src.error(key, f"{name!r} cannot clash with itself")
            pair = frozenset((name, other))
            if pair in seen:
                raise src.error(key, f"the clash of {name} and {other} is already listed on {seen[pair]}: a clash "
                                     "is listed once, and holds both ways")
            seen[pair] = name


# --------------------------------------------------------------------------
# The schemas generated from it

_JSON_TYPES: dict[str, dict[str, Any]] = {
    "seat": {"$ref": "#/$defs/seat"},
    "side": {"$ref": "#/$defs/side"},
    "call": {"type": "string", "pattern": "^([1-7](C|D|H|S|R|NT)|P|X|XX)$"},
    "card": {"type": "string", "pattern": "^[CDHS][2-9TJQKA]$"},
    "suit": {"enum": ["C", "D", "H", "S"]},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "seats": {"type": "array", "items": {"$ref": "#/$defs/seat"}},
    "text": {"type": "string"},
}


def _field_schema(f: FieldSpec) -> dict[str, Any]:
    s: dict[str, Any] = {"enum": list(f.choices)} if f.type == "choice" else dict(_JSON_TYPES[f.type])
    if f.count:
        s["minimum"] = 0
    if f.description:
        s["description"] = f.description
    return s


#: The values of the field types that are a closed list (a ruling's ``differs_from`` is stated over them).
_CLOSED = {"seat": ("N", "E", "S", "W"), "side": ("NS", "EW"), "suit": ("C", "D", "H", "S")}


def _differs(f: FieldSpec) -> dict[str, Any]:
    """``f`` and the field it differs from are not the same value (stated value by value: JSON Schema cannot
    compare two fields)."""
    values = f.choices if f.type == "choice" else _CLOSED.get(f.type, ())
    if not values:  # pragma: no cover - the shipped vocabulary uses it on sides only
        raise ValueError(f"differs_from on a {f.type} field cannot be stated in the schema")
    return {"not": {"anyOf": [{"properties": {f.name: {"const": v}, f.differs_from: {"const": v}},
                               "required": [f.name, f.differs_from]} for v in values]}}


def ruling_effect_schema(v: Vocabulary) -> dict[str, Any]:
    """``$defs.effect`` of ``schema/ruling.schema.json``: one branch per kind."""
    branches = []
    for k in v.kinds:
        b: dict[str, Any] = {
            "title": k.name, "description": k.description, "type": "object",
            "properties": {"kind": {"const": k.name}, **{f.name: _field_schema(f) for f in k.fields}},
            "required": ["kind", *(f.name for f in k.fields if f.required)],
            "additionalProperties": False,
        }
        groups = [{"oneOf": [{"required": [f]} for f in g]} for g in k.one_of]
        groups += [_differs(f) for f in k.fields if f.differs_from]
        if len(groups) == 1:
            b.update(groups[0])
        elif groups:
            b["allOf"] = groups
        branches.append(b)
    return {"oneOf": branches}


def _set_effect_enums(node: Any, names: list[str], path: tuple[str, ...] = ()) -> int:
    """Every effect ``kind`` enum in the law-file schema (under a key naming effects) set to ``names``."""
    found = 0
    if isinstance(node, dict):
        kind = (node.get("properties") or {}).get("kind") if isinstance(node.get("properties"), dict) else None
        if isinstance(kind, dict) and "enum" in kind and any("effect" in p for p in path):
            kind["enum"] = list(names)
            found += 1
        for k, v in node.items():
            found += _set_effect_enums(v, names, path + (str(k),))
    elif isinstance(node, list):
        for x in node:
            found += _set_effect_enums(x, names, path)
    return found


def _dump(data: Any, like: str) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + ("\n" if like.endswith("\n") else "")


_MEMBERS_START = "    # written by `python -m bridgelaw.vocabulary --write` from schema/effects.yaml: do not edit\n"
_MEMBERS_END = "    # end of the members written from schema/effects.yaml\n"


def _effect_kind_members(v: Vocabulary, text: str, path: Path) -> str:
    """values.py with the members of EffectKind written from the vocabulary (between its two marker lines)."""
    start, end = text.find(_MEMBERS_START), text.find(_MEMBERS_END)
    if start < 0 or end < start:
        raise LawFileError("the marker lines around EffectKind's members are missing", str(path))
    members = "".join(f'    {name.upper()} = "{name}"\n' for name in v.names)
    return text[:start + len(_MEMBERS_START)] + members + text[end:]


def generated_files(v: Vocabulary, root: Path | None = None,
                      values: Path | None = None) -> dict[Path, tuple[str, str]]:
    """Each file the vocabulary writes: (its text now, its text as generated). The schemas' effect parts, and
    the members of ``values.EffectKind``."""
    root = root or schema_dir()
    out: dict[Path, tuple[str, str]] = {}
    from pathlib import Path

    values = values or Path(__file__).with_name("values.py")
    text = values.read_text(encoding="utf-8")
    out[values] = (text, _effect_kind_members(v, text, values))
    ruling_path = root / "ruling.schema.json"
    text = ruling_path.read_text(encoding="utf-8")
    ruling = json.loads(text)
    ruling["$defs"]["effect"] = ruling_effect_schema(v)
    out[ruling_path] = (text, _dump(ruling, text))
    law_path = root / "law-file.schema.json"
    text = law_path.read_text(encoding="utf-8")
    law = json.loads(text)
    if not _set_effect_enums(law, list(v.names)):
        raise LawFileError("no effect kind enum found (an object with properties.kind.enum under a key naming "
                           "effects)", str(law_path))
    out[law_path] = (text, _dump(law, text))
    return out


def write_generated(check: bool = False, root: Path | None = None, values: Path | None = None) -> list[str]:
    """Write the generated parts (or with ``check``, only list the files that differ)."""
    stale = []
    for path, (now, new) in generated_files(vocabulary(), root, values).items():
        if now != new:
            stale.append(path.name)
            if not check:
                path.write_text(new, encoding="utf-8")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    import argparse  # here: not at start-up

    ap = argparse.ArgumentParser(prog="python -m bridgelaw.vocabulary", allow_abbrev=False,
                                 description="Write what is generated from schema/effects.yaml: the effect parts "
                                             "of the JSON schemas, and the members of EffectKind.")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", "--write-schemas", dest="write", action="store_true",
                   help="write schema/ruling.schema.json, schema/law-file.schema.json, engine/bridgelaw/values.py")
    g.add_argument("--check", action="store_true", help="exit 1 if a checked-in file differs from the vocabulary")
    args = ap.parse_args(argv)
    try:
        stale = write_generated(check=args.check)
    except LawFileError as e:
        print(e, file=sys.stderr)
        return 2
    if args.check:
        for name in stale:
            print(f"{name} differs from schema/effects.yaml: run python -m bridgelaw.vocabulary --write",
                  file=sys.stderr)
        return 1 if stale else 0
    print(f"wrote {', '.join(stale)}" if stale else "everything was up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
