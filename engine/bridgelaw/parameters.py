"""A code's parameters: every number it states, each with the law that states it.

``laws/<code>/parameters.yaml`` is read against ``schema/parameters.schema.json``,
which holds the closed set of names the engine reads, their types and bounds:

    slam: {value: 40, law: "7"}                       # a parameter: its value and its law
    trick_values: {law: "3", S: 2, C: 6, NT: 10}      # a table: one law for its bare entries
    honours:                                          # a group of parameters and tables
      trump: {law: "6", three_between_partners: 2}
    chicane: {none: true, note: "no chicane in 1913"} # this code states none (and why)

A code that ``extends`` another restates only what differs: its entries merge
over the parent's, entry by entry (a ``none`` replaces all beneath it). After
the merge every name the schema lists in ``x-required`` is stated or said to be
none, a table has every entry of its ``x-complete``, a stated parameter has the
names of its ``x-needs``, and every law cited is a law of the code. Anything
else — a misspelt, missing, mistyped or out-of-range name, a law the code does
not have — is a :class:`LawFileError` at ``path:line:col``, with did-you-mean.

:func:`bind` gives the loader a :class:`Parameters`: a dict of the values
(``params["penalty"]["revoke"] == 100``, what conditions read as
``params.penalty.revoke``) that also answers for each value's law
(:meth:`Parameters.law`) and for what the code states none of.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from .errors import LawFileError, did_you_mean
from .resources import schema_dir
from .yamlsrc import Source, load_yaml

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any, Collection, Iterator, Mapping

__all__ = ["Cited", "Parameters", "bind", "render", "schema", "type_of", "names"]

SCHEMA_NAME = "parameters.schema.json"
_RESERVED = ("value", "law", "note", "none")


@lru_cache(maxsize=None)
def schema() -> Mapping[str, Any]:
    """``schema/parameters.schema.json``, read once."""
    return json.loads((schema_dir() / SCHEMA_NAME).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _deref(node: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in node:
        node = schema()["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _kind(node: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """What a schema node describes: ('param', value schema), ('entry', value schema), ('table', properties) or
    ('group', properties)."""
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/param-"):
        return "param", _deref({"$ref": "#/$defs/" + ref.rsplit("param-", 1)[1]})
    if ref.startswith("#/$defs/entry-"):
        return "entry", _deref({"$ref": "#/$defs/" + ref.rsplit("entry-", 1)[1]})
    body = node.get("else", node)
    props = body.get("properties", {})
    return ("table" if "law" in props else "group"), props


@lru_cache(maxsize=None)
def names() -> tuple[str, ...]:
    """Every dotted name the schema defines (parameters and table entries), in schema order."""
    out: list[str] = []

    def walk(props: Mapping[str, Any], prefix: str) -> None:
        for k, node in props.items():
            if k in ("law", "note"):
                continue
            kind, inner = _kind(node)
            out.append(prefix + k)
            if kind in ("table", "group"):
                walk(inner, prefix + k + ".")

    walk(schema()["properties"], "")
    return tuple(out)


def _node_at(path: str) -> Mapping[str, Any] | None:
    node: Mapping[str, Any] = {"properties": schema()["properties"]}
    for part in path.split("."):
        _, props = _kind(node) if "properties" not in node else ("group", node["properties"])
        if part not in props or part in ("law", "note"):
            return None
        node = props[part]
    return node


def type_of(path: str) -> str:
    """The JSON type of a parameter's value (``integer``, ``boolean``, ``string``, ``array``), or ``object`` for a
    table or group; KeyError for a name the schema does not define."""
    node = _node_at(path)
    if node is None:
        raise KeyError(path)
    kind, inner = _kind(node)
    if kind in ("table", "group"):
        return "object"
    return str(inner.get("type") or ("string" if all(isinstance(e, str) for e in inner.get("enum", ())) else "any"))


@dataclass(frozen=True)
class Cited:
    """One stated value (or a statement that the code has none) with the law that states it and where."""

    path: str
    value: Any  # None when the code states none
    law: str
    note: str
    file: str
    line: int
    column: int
    stated: bool = True
    source_line: str | None = None

    def error(self, message: str) -> LawFileError:
        return LawFileError(message, self.file, self.line, self.column, self.source_line)


class Parameters(dict):  # type: ignore[type-arg]
    """The values a code states, as nested dicts (what ``params.<name>`` reads), and their citations.

    A name the code states none of is absent from the dict; :meth:`none` says why.
    """

    code: str
    cited: Mapping[str, Cited]

    def __init__(self, code: str, cited: Mapping[str, Cited]) -> None:
        super().__init__()
        self.code = code
        self.cited = dict(cited)
        for path, c in sorted(self.cited.items()):
            if not c.stated:
                continue
            cur = self
            *head, last = path.split(".")
            for part in head:
                cur = cur.setdefault(part, {})
            cur[last] = c.value

    def __reduce__(self) -> Any:
        return (Parameters, (self.code, self.cited))

    def entry(self, path: str) -> Cited | None:
        """The citation of a stated parameter or table entry (``"penalty.revoke"``), or None."""
        c = self.cited.get(path)
        return c if c is not None and c.stated else None

    def law(self, path: str) -> str:
        """The law that states a value (for a table, the law of its entries, if they share one)."""
        c = self.cited.get(path)
        if c is not None:
            if not c.stated:
                raise KeyError(f"{self.code} states no {path}")
            return c.law
        laws = {x.law for p, x in self.cited.items() if p.startswith(path + ".") and x.stated}
        if len(laws) == 1:
            return laws.pop()
        raise KeyError(f"{self.code}: {path} has {'no law' if not laws else 'entries under several laws'}")

    def states(self, path: str) -> bool:
        return path in self.cited and self.cited[path].stated or any(
            p.startswith(path + ".") and c.stated for p, c in self.cited.items())

    def none(self, path: str) -> Cited | None:
        """The statement that the code has no such number (its note, and law where one removes it), or None."""
        c = self.cited.get(path)
        return c if c is not None and not c.stated else None

    def flat(self) -> Iterator[Cited]:
        """Every stated entry, in schema order."""
        order = {n: i for i, n in enumerate(names())}
        yield from sorted((c for c in self.cited.values() if c.stated), key=lambda c: order.get(c.path, 1 << 30))


# --------------------------------------------------------------------------
# Reading one file


def read(path: Path, display: str) -> tuple[Source, tuple[Cited, ...]]:
    """One parameters.yaml, read and checked against the schema (cached on disk while it is unchanged)."""
    from .cache import cached

    def build() -> tuple[Source, tuple[Cited, ...]]:
        src = load_yaml(path, display)
        entries = tuple(_walk_file(src))
        _backstop(src)
        return src, entries

    return cached(f"{SCHEMA_NAME}:{path.resolve()}:{display}",  # type: ignore[no-any-return]
                  [path, schema_dir() / SCHEMA_NAME, __file__], build)


def _walk_file(src: Source) -> Iterator[Cited]:
    data = src.data
    if data is None:
        return
    if not isinstance(data, dict):
        raise src.error((), "expected a mapping of parameter names to {value, law}")
    yield from _walk_group(src, (), data, schema()["properties"], "")


def _cited(src: Source, key: tuple[Any, ...], path: str, value: Any, law: str, note: str, stated: bool,
           at: tuple[Any, ...] | None = None) -> Cited:
    m = src.mark(at if at is not None else key)
    line = src.lines[m.line - 1] if 0 < m.line <= len(src.lines) else None
    return Cited(path, value, law, note, src.path, m.line, m.column, stated, line)


def _unknown(src: Source, key: tuple[Any, ...], name: Any, allowed: Collection[str], what: str) -> LawFileError:
    return src.error(key, f"unknown {what} {name!r}{did_you_mean(str(name), allowed)}; "
                          f"{'known names' if allowed else 'it takes no entries'}: {', '.join(allowed)} "
                          f"(schema/{SCHEMA_NAME})")


def _walk_group(src: Source, key: tuple[Any, ...], data: Mapping[Any, Any], props: Mapping[str, Any],
                prefix: str) -> Iterator[Cited]:
    allowed = [k for k in props if k not in ("law", "note")]
    for name, value in data.items():
        if name not in allowed:
            raise _unknown(src, key + (name,), name, allowed, "parameter" if not prefix else f"name in {prefix[:-1]}")
        yield from _walk_node(src, key + (name,), value, props[name], prefix + name, None)


def _walk_node(src: Source, key: tuple[Any, ...], value: Any, node: Mapping[str, Any], path: str,
               inherited_law: tuple[str, tuple[Any, ...]] | None) -> Iterator[Cited]:
    kind, inner = _kind(node)
    if isinstance(value, dict) and "none" in value:
        yield _none(src, key, value, path)
        return
    if kind in ("param", "entry"):
        if isinstance(value, dict):
            for k in value:
                if k not in ("value", "law", "note"):
                    raise src.error(key + (k,), f"{path}: unknown key {k!r}{did_you_mean(str(k), _RESERVED)}; "
                                    "a parameter is {value: ..., law: \"N\"} (note optional), or {none: true, note}")
            if "value" not in value:
                raise src.error(key, f"{path}: expected {{value: ..., law: \"N\"}}: the value is missing")
            own_law = _law(src, key, value, path, required=True)
            _check_value(src, key + ("value",), value["value"], inner, path)
            yield _cited(src, key, path, value["value"], own_law, str(value.get("note", "")), True, key + ("value",))
            return
        if kind == "param" or inherited_law is None:
            raise src.error(key, f"{path}: expected {{value: {value!r}, law: \"N\"}}: every value carries the law "
                                 "that states it (a bare value only inside a table that gives its law)")
        _check_value(src, key, value, inner, path)
        yield _cited(src, key, path, value, inherited_law[0], "", True)
        return
    if not isinstance(value, dict):
        shape = ('a table: {law: "N", <entry>: <value>, ...}' if kind == "table"
                 else "of " + ", ".join(k for k in inner if k not in ("law", "note")))
        raise src.error(key, f"{path}: expected a mapping ({shape}), or {{none: true, note: \"why\"}}; "
                             f"got {type(value).__name__} {value!r}")
    law = inherited_law
    if kind == "table" and "law" in value:
        law = (_law(src, key, value, path, required=True), key + ("law",))
    if kind == "group" and "law" in value:
        raise src.error(key + ("law",), f"{path} is a group of parameters, each with its own law; give the law "
                                        "to each of them")
    allowed = [k for k in inner if k not in ("law", "note")]
    if not any(k not in ("law", "note") for k in value):
        raise src.error(key, f"{path}: no entries; give some of {', '.join(allowed)}, or {{none: true, note}}")
    for name, v in value.items():
        if name in ("law", "note") and kind == "table":
            if name == "note" and not (isinstance(v, str) and v):
                raise src.error(key + (name,), f"{path}.note: expected a non-empty string")
            continue
        if name not in allowed:
            raise _unknown(src, key + (name,), name, allowed, f"entry of {path}")
        yield from _walk_node(src, key + (name,), v, inner[name], f"{path}.{name}", law)


def _none(src: Source, key: tuple[Any, ...], value: Mapping[str, Any], path: str) -> Cited:
    for k in value:
        if k not in ("none", "note", "law"):
            raise src.error(key + (k,), f"{path}: unknown key {k!r}{did_you_mean(str(k), ('none', 'note', 'law'))}; "
                                        "a code that states none is {none: true, note: \"why\"} (law optional)")
    if value["none"] is not True:
        raise src.error(key + ("none",), f"{path}.none: expected true (the code states none), got {value['none']!r}; "
                                         "to state a value write {value: ..., law: \"N\"}")
    note = value.get("note")
    if not isinstance(note, str) or not note.strip():
        raise src.error(key, f"{path}: say in 'note' why the code states none (e.g. note: \"straight bridge has no "
                             "contract\")")
    law = _law(src, key, value, path, required=False)
    return _cited(src, key, path, None, law, note, False)


def _law(src: Source, key: tuple[Any, ...], value: Mapping[str, Any], path: str, required: bool) -> str:
    law = value.get("law")
    if law is None:
        if required:
            raise src.error(key, f"{path}: give the law that states it (law: \"N\")")
        return ""
    if isinstance(law, bool) or not isinstance(law, (str, int)) or not str(law).isalnum() or len(str(law)) > 6:
        raise src.error(key + ("law",), f"{path}.law: expected a law number such as \"84\", \"47a\" or \"T14\", "
                                        f"got {law!r}")
    return str(law)


def _check_value(src: Source, key: tuple[Any, ...], value: Any, spec: Mapping[str, Any], path: str) -> None:
    want = spec.get("type")
    if "enum" in spec:
        if value not in spec["enum"]:
            raise src.error(key, f"{path}: expected one of {', '.join(map(str, spec['enum']))}, got {value!r}"
                            + did_you_mean(str(value), map(str, spec["enum"])))
        return
    if want == "boolean":
        if not isinstance(value, bool):
            raise src.error(key, f"{path}: expected true or false, got {type(value).__name__} {value!r}")
        return
    if want == "array":
        if not isinstance(value, list) or not spec.get("minItems", 0) <= len(value) <= spec.get("maxItems", 1 << 30):
            raise src.error(key, f"{path}: expected a list of {spec.get('minItems', 0)}-{spec.get('maxItems')} "
                                 f"numbers, got {value!r}")
        for i, v in enumerate(value):
            _check_value(src, key + (i,), v, spec["items"], f"{path}[{i}]")
        return
    if want == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            raise src.error(key, f"{path}: expected a whole number, got {type(value).__name__} {value!r}")
        lo, hi = spec.get("minimum"), spec.get("maximum")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise src.error(key, f"{path}: {value} is out of range: {spec.get('description', 'a number')} is "
                                 f"{lo}-{hi}")
        return
    raise src.error(key, f"{path}: the schema gives no type for this value")  # pragma: no cover - schema error


def _backstop(src: Source) -> None:
    """The published schema itself, after the checks above (which give the better messages): a file they pass
    and it refuses is still refused, at the spot it names."""
    from .loader import validate

    validate(src, SCHEMA_NAME)


# --------------------------------------------------------------------------
# Binding a code's parameters


def bind(folder: Path, code: str, parent: Parameters | None, laws: Collection[str], display: str) -> Parameters:
    """The loader's hook: the merged, checked parameters of ``code`` — its own ``parameters.yaml`` in ``folder``
    (``display`` is its path as errors name it), if it has one, over its parent's; ``laws`` are the numbers of
    the code's laws (every law cited must be one of them)."""
    src: Source | None = None
    own: tuple[Cited, ...] = ()
    if (folder / "parameters.yaml").is_file():
        src, own = read(folder / "parameters.yaml", display)
    return _bind(code, src, own, parent, laws, display)


def bind_source(code: str, src: Source, parent: Parameters | None, laws: Collection[str]) -> Parameters:
    """:func:`bind` for a parameters file already read (``src``), as the tests mutate it."""
    own = tuple(_walk_file(src))
    _backstop(src)
    return _bind(code, src, own, parent, laws, src.path)


def _bind(code: str, src: Source | None, own: tuple[Cited, ...], parent: Parameters | None, laws: Collection[str],
          display: str) -> Parameters:
    merged: dict[str, Cited] = dict(parent.cited) if parent is not None else {}
    for c in own:
        for p in [p for p in merged if p == c.path or p.startswith(c.path + ".") or c.path.startswith(p + ".")]:
            del merged[p]
        merged[c.path] = c
    known = set(laws)
    for c in merged.values():
        if c.law and c.law not in known:
            raise c.error(f"{c.path}: law {c.law!r} is not a law of {code}{did_you_mean(c.law, known)}")
    _complete(code, merged, src, display)
    _cross_checks(merged)
    return Parameters(code, merged)


def _complete(code: str, merged: Mapping[str, Cited], src: Source | None, where: str) -> None:
    def missing(path: str, why: str) -> LawFileError:
        msg = (f"{code} states no {path!r} ({why}): give {{value: ..., law: \"N\"}}, or "
               f"{{none: true, note: \"why\"}} where the code states none")
        if src is not None:
            return src.error((), msg)
        return LawFileError(msg + " (the code has no parameters.yaml)", where, 1, 1)

    def present(path: str) -> bool:
        return path in merged or any(p.startswith(path + ".") for p in merged)

    def walk(props: Mapping[str, Any], required: Collection[str], prefix: str) -> None:
        for name in required:
            if not present(prefix + name):
                raise missing(prefix + name, "the engine reads it")
        for name, node in props.items():
            path = prefix + name
            if name in ("law", "note") or not present(path) or (path in merged and not merged[path].stated):
                continue
            for need in node.get("x-needs", ()):
                if not present(need):
                    raise missing(need, f"{path} is stated, and needs it")
            kind, inner = _kind(node)
            if kind == "table":
                for entry in node.get("x-complete", ()):
                    if not present(f"{path}.{entry}"):
                        raise missing(f"{path}.{entry}", f"every entry of {path} is needed")
            elif kind == "group":
                walk(inner, node.get("x-required", ()), path + ".")

    walk(schema()["properties"], schema().get("x-required", ()), "")


def _cross_checks(merged: Mapping[str, Cited]) -> None:
    book, top = merged.get("book"), merged.get("max_level")
    if book and top and book.stated and top.stated and book.value + top.value > 13:
        raise top.error(f"max_level: {top.value} tricks over a book of {book.value} is more than the thirteen "
                        "tricks of a deal")


# --------------------------------------------------------------------------
# Templates over the parameters (option labels)

_TEMPLATE = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_.]*)(?::([a-z]+))?\}|[{}]")
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen")
FORMATS = ("words",)


def number_words(n: int) -> str:
    """A small number as the laws write it ("three tricks"); larger ones in figures."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def render(text: str, params: Parameters, src: Source | None = None, key: tuple[Any, ...] = ()) -> str:
    """``text`` with each ``{name}`` replaced by the code's value (``{name:words}`` in words: "three"); ``{{`` and
    ``}}`` are braces. An unknown or unstated name is a LawFileError at ``src``/``key``."""
    if "{" not in text and "}" not in text:
        return text

    def fail(msg: str) -> LawFileError:
        return src.error(key, msg) if src is not None else LawFileError(msg)

    def one(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok in ("{{", "}}"):
            return tok[0]
        if m.group(1) is None:
            raise fail(f"a lone {tok!r} in a template: write {{name}} for a parameter, {tok * 2} for a brace")
        path, fmt = m.group(1), m.group(2)
        c = params.entry(path)
        if c is None:
            gone = params.none(path)
            if gone is not None:
                raise fail(f"{{{path}}}: {params.code} states no {path} ({gone.note})")
            stated = [x.path for x in params.flat()]
            raise fail(f"{{{path}}}: unknown parameter{did_you_mean(path, stated)}; a template names a parameter "
                       "the code states, e.g. {penalty.revoke}")
        if fmt is not None:
            if fmt not in FORMATS:
                raise fail(f"{{{path}:{fmt}}}: unknown format{did_you_mean(fmt, FORMATS)}; formats: "
                           + ", ".join(FORMATS))
            if isinstance(c.value, bool) or not isinstance(c.value, int):
                raise fail(f"{{{path}:words}}: {path} is not a number")
            return number_words(c.value)
        return str(c.value)

    return _TEMPLATE.sub(one, text)
