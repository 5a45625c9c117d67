"""Load a code: read its YAML, validate it, resolve ``extends``, compile provisions.

Everything that can be wrong with a law file is found here, at load, and
reported at ``path:line:col``: a file in a code's folder that is neither
loaded nor known (nothing is skipped silently), schema violations, unknown
topics, duplicate law numbers, an ``extends`` that points nowhere, an
override of a law the parent lacks, unknown facts or parameters in a
condition, a condition that could not be evaluated (a bid that may be a pass,
a division by zero), unknown provision ids in ``overrides``, precedence that
goes round in a circle (:mod:`bridgelaw.precedence`), a chooser who can be
shown never to be an innocent player (:mod:`bridgelaw.seats`).

A code that ``extends`` another inherits each law it does not restate; a law
it restates keeps the parent's provisions by id unless it restates a
provision with the same id or names it in ``drop:``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache, partial

from .conditions import (
    BOOL, CALL, CARD, INT, SEAT, SIDE, SUIT, Compiled, Env, Expr, Learnt, Type, Where, check, compile_condition,
    constant, describe, export, guarded_bids, names_used, recording, seed,
)
from .cache import cached, store
from .catalogue import FactSpec, Kind, load_kinds, load_topics
from .errors import ConditionError, InputError, LawFileError, UnknownCodeError, did_you_mean
from .kit import LOADED, bid_values, clear as clear_kits
from .parameters import bind as bind_parameters, render as render_label
from .provision import EffectSpec, OptionSpec, Provision
from .resources import grammar_path, laws_dir, laws_path, schema_dir
from .seats import SeatModel, chooser_faults, model_for
from .values import Call, EffectKind
from .vocabulary import field_checks, vocabulary
from .yamlsrc import Source, load_yaml

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any, Callable, Mapping

    from .lawfiles import FileEntry, RawCode

__all__ = [
    "Code", "Law", "Provision", "EffectSpec", "OptionSpec", "Kind", "FactSpec",
    "load_code", "code_ids", "load_kinds", "load_all", "check_tree", "FOLDER_FILES",
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


#: One provision as written: its file, its key in the file, its mapping, and the code whose file it is in.
RawProvision = tuple[Source, tuple["Any", ...], "Mapping[str, Any]", str]


@dataclass(frozen=True)
class Law:
    """One law of a code: its number, heading and verbatim text, its footnotes and topics, and its provisions."""

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
    raw_provisions: tuple[RawProvision, ...] = field(default=(), repr=False, compare=False)
    provisions: tuple[Provision, ...] = ()
    drop: tuple[str, ...] = ()


@dataclass(frozen=True)
class Code:
    """A code of laws as loaded: its laws with their provisions, its parameters, and what it extends."""

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
    #: inherited provisions the code's own restate for its seat model (as inherited they would name a seat where no
    #: player sits): one waits while its restatement waits on an answer
    restated: frozenset[str] = frozenset()

    def law(self, number: str) -> Law | None:
        return self._index().get(number)

    def __getstate__(self) -> dict[str, Any]:
        """Its fields: what it remembers of its rulings (``_rulers``, ``_cites``, ...) is made again."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def _index(self) -> dict[str, Law]:
        idx = self.__dict__.get("_law_index")
        if idx is None:
            idx = {law.number: law for law in self.laws}
            object.__setattr__(self, "_law_index", idx)
        return idx  # type: ignore[no-any-return]

    @property
    def seats(self) -> SeatModel:
        """The code's seat model (four players in partnerships, or three and a dummy packet)."""
        return model_for(self.players)

    @property
    def provisions(self) -> tuple[Provision, ...]:
        return tuple(p for law in self.laws for p in law.provisions)

    def bid_value(self, call: Call) -> int:
        """The points value of a bid under this code (level times the trick value)."""
        if call.strain is None or call.level is None:
            raise InputError("call", f"{call.text} is not a bid: only a bid has a value")
        return self.value_of(call)

    @property
    def value_of(self) -> Callable[[Call], int]:
        """:meth:`bid_value` as one quick function of a bid (what an incident's facts price bids with)."""
        fn = self.__dict__.get("_value_of")
        if fn is None:
            fn = bid_values(self.params)
            object.__setattr__(self, "_value_of", fn)
        return fn  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"load_code({self.id!r})"


# --------------------------------------------------------------------------
# Schemas


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


# --------------------------------------------------------------------------
# The files of a code's folder: each is loaded, or refused by name

#: The files a code's folder may hold besides its heading files (``NN-slug.yaml``), and who reads each.
FOLDER_FILES: dict[str, str] = {
    "code.yaml": "what the code is (read here)",
    "parameters.yaml": "every number the code states (read here)",
    "alignment.yaml": "an edition's unnumbered paragraphs aligned to its parent's laws (read by compare)",
    "sentences.yaml": "the sentence-level account of every law (read by sentences)",
}
#: What ``laws/`` holds besides the codes' folders, and who reads each.
LAWS_FILES: dict[str, str] = {
    "kinds.yaml": "the irregularity catalogue (read by catalogue)",
    "kinds.d": "kinds and facts particular codes add (read by catalogue)",
    "topics.yaml": "the topic taxonomy (read by catalogue)",
    "spelling.yaml": "spellings the editions print differently (read by textdiff)",
    "accounting.yaml": "how the sentences of a law are accounted for (read by sentences)",
    "consistency.yaml": "what the consistency audit compares (read by consistency)",
}
_HEADING = re.compile(r"^[0-9]{2}-[a-z0-9]+(?:-[a-z0-9]+)*\.yaml$")


def _heading_files(folder: Path, root: Path) -> list[Path]:
    """The heading files of a code, in order; anything else in the folder that is not a known file is an
    error naming it — a law file renamed ``.yml`` or without its ``NN-`` prefix is never dropped silently."""
    out = []
    try:
        entries = sorted(folder.iterdir())
    except OSError as e:
        raise LawFileError(f"cannot list the code's folder: {e.strerror or e}", _rel(root, folder)) from None
    orders: dict[str, str] = {}
    for path in entries:
        name = path.name
        rel = _rel(root, path)
        if name in FOLDER_FILES:
            if not path.is_file():
                raise LawFileError(f"{name} must be a file ({FOLDER_FILES[name]})", rel, 1, 1)
            continue
        if _HEADING.match(name):
            if not path.is_file():
                why = "a loop of symbolic links" if path.is_symlink() and not path.exists() else \
                    "a broken link" if path.is_symlink() else "not a file"
                raise LawFileError(f"heading file {name} is {why}", rel, 1, 1)
            if name[:2] in orders:
                raise LawFileError(f"two heading files share the order {name[:2]} ({orders[name[:2]]} and {name}): "
                                   "number the files in printed order", rel, 1, 1)
            orders[name[:2]] = name
            out.append(path)
            continue
        raise LawFileError(_unknown_file(name), rel, 1, 1)
    return out


def _unknown_file(name: str) -> str:
    stem = name.rsplit(".", 1)[0] if "." in name else name
    known = list(FOLDER_FILES)
    hint = ""
    if name.lower().endswith((".yml", ".yaml")) and stem + ".yaml" != name:
        fixed = stem + ".yaml"
        hint = f" (did you mean '{fixed}'?)" if (_HEADING.match(fixed) or fixed in known) else ""
    if not hint:
        import difflib  # deferred: not needed to start
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.85)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
    if not hint and re.match(r"^[a-z0-9-]+\.ya?ml$", name):
        hint = f" (a heading file is named NN-slug.yaml, e.g. '01-{stem}.yaml')"
    return (f"{name!r} is not a file a code's folder holds{hint}; it would be skipped. A code's folder holds "
            f"{', '.join(known)} and heading files named NN-slug.yaml (docs/law-files.md)")


def check_tree(root: Path | None = None) -> list[LawFileError]:
    """What ``laws/`` holds that nothing would read: an entry that is neither the catalogue, the topics, nor
    a code's folder (a folder without its code.yaml is no code)."""
    base = root or laws_dir()
    problems = []
    known = set(LAWS_FILES)
    for path in sorted(base.iterdir()) if base.is_dir() else []:
        if path.name in known:
            continue
        if path.is_dir():
            if not (path / "code.yaml").is_file():
                inside = [p.name for p in path.iterdir()] if path.exists() else []
                hint = did_you_mean("code.yaml", inside)
                problems.append(LawFileError(f"folder {path.name}/ has no code.yaml{hint}: it is no code, and its "
                                             "files would be skipped", _rel(base, path), 1, 1))
            continue
        problems.append(LawFileError(f"{path.name!r} is neither {', '.join(LAWS_FILES)} nor a code's folder: "
                                     "nothing reads it" + did_you_mean(path.name, LAWS_FILES), _rel(base, path), 1, 1))
    return problems


# --------------------------------------------------------------------------
# Loading


def code_ids(root: Path | None = None) -> list[str]:
    base = root or laws_dir()
    return sorted(p.name for p in base.iterdir() if (p / "code.yaml").is_file()) if base.is_dir() else []


_cache: dict[tuple[str, str], Code] = {}
_fast: dict[str, Code] = LOADED  # (kept where the referee finds a code without importing the loader)


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
    root = laws_path()  # a string: a start from a snapshot needs no pathlib
    if key not in _cache:
        if not isinstance(code_id, str) or not re.fullmatch(r"[a-z0-9-]+", code_id) or \
                not _is_code(root, code_id):
            ids = code_ids(laws_dir())
            raise UnknownCodeError("code", f"unknown code {code_id!r:.60}; codes are {', '.join(ids)}"
                                   + did_you_mean(str(code_id), ids))
        from . import snapshot

        code = snapshot.load(root, code_id)  # the code kept whole by an earlier start, if nothing has changed
        if code is None:
            code = _load(laws_dir(), code_id, ())
            _store_learnt()
            _keep(laws_dir(), code)
        _cache[key] = code
    _fast[code_id] = _cache[key]
    return _cache[key]


def _keep(root: Path, code: Code) -> None:
    """Keep a code just loaded whole for the next start, with the functions the referee writes for it."""
    from . import snapshot
    from .cache import cache_dir
    from .quick import prepare

    if cache_dir() is None:
        return
    chain = [code.id]  # the code and every code it extends: their folders are what it is made from
    pid = code.extends
    while pid and pid not in chain:
        chain.append(pid)
        parent = _cache.get((os.environ.get("BRIDGELAW_DATA", ""), pid))
        if parent is None:
            return  # a chain not known to its end: its key would leave folders out, so nothing is kept
        pid = parent.extends
    learnt = Learnt()
    with recording(learnt):
        prepare(code)
    snapshot.save(root, code, chain, learnt.sources)


def _is_code(root: Path | str, code_id: str) -> bool:
    """Is there a code folder of this name? (A name the system cannot look up — too long — is none.)"""
    try:
        return os.path.isfile(os.path.join(root, code_id, "code.yaml"))
    except (OSError, ValueError):
        return False


def loaded(code_id: str) -> Code | None:
    """The code if this process has loaded it already (None: not yet; :func:`load_code` loads it)."""
    return _fast.get(code_id)


def load_all() -> list[Code]:
    return [load_code(c) for c in code_ids()]


def clear_cache() -> None:
    clear_kits()
    _cache.clear()
    _ENVS.clear()
    _fast.clear()
    _entries.clear()
    load_kinds.cache_clear()
    load_topics.cache_clear()


def _rel(root: Path, p: Path) -> str:
    try:
        return str(p.relative_to(root.parent))
    except ValueError:
        return str(p)


def _read(root: Path, code_id: str) -> RawCode:
    from .lawfiles import RawCode

    folder = root / code_id
    files = _heading_files(folder, root)
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
            provs = tuple((src, key + ("provisions", j), p, code_id) for j, p in enumerate(raw.get("provisions") or []))
            laws.append(Law(
                number=number, heading=data.get("heading"), text=_reflow(text) if text else None,
                topics=tuple(raw.get("topics") or ()), footnotes=fns, binding=bool(binding),
                missing=bool(raw.get("missing")), note=raw.get("note", ""),
                printed_number=raw.get("printed_number", number), differences=raw.get("differences", ""),
                file=src.path, code=code_id, raw_provisions=provs, drop=tuple(raw.get("drop") or ()),
            ))
    return RawCode(meta, meta_src, laws, params, params_src, sources, positions, after, omitted)


# source path -> (cache name, the files it depends on, the entry, what compiling it learnt)
_entries: dict[str, tuple[str, list[Path], FileEntry, Learnt]] = {}


def _read_validated(path: Path, display: str, schema: str = "law-file.schema.json") -> Source:
    """A file, read and validated once; later runs take it, and its conditions' parse trees, from the cache
    while its content is unchanged."""

    from .lawfiles import FileEntry

    def build() -> FileEntry:
        src = load_yaml(path, display)
        validate(src, schema)
        return FileEntry(src)

    name = f"{schema}:{path.resolve()}:{display}"
    depends = [path, schema_dir() / schema, grammar_path()]
    entry: FileEntry = cached(name, depends, build)
    seed(entry.trees, entry.codes)
    _entries[entry.source.path] = (name, depends, entry, Learnt())
    return entry.source


def _learnt(src: Source) -> Learnt:
    hit = _entries.get(src.path)
    return hit[3] if hit is not None else Learnt()


def _store_learnt() -> None:
    """Write back the entries of files whose conditions were parsed or compiled afresh."""
    for name, depends, entry, learnt in _entries.values():
        if learnt.texts <= entry.trees.keys() and learnt.sources <= entry.codes.keys():
            continue
        trees, codes = export(learnt)
        entry.trees.update(trees)
        entry.codes.update(codes)
        store(name, depends, entry)
        learnt.new = False


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
        if not _is_code(root, parent_id):
            ids = code_ids(root)
            raise raw.meta_src.error(("extends",), f"'extends' names unknown code {parent_id!r}"
                                     + did_you_mean(parent_id, ids) + f"; codes are {', '.join(ids)}")
        pkey = (os.environ.get("BRIDGELAW_DATA", ""), parent_id)
        parent = _cache.get(pkey) or _load(root, parent_id, chain + (code_id,))
        _cache[pkey] = parent
        laws, omitted = _resolve(parent, raw)
    else:
        for law in raw.laws:
            if law.drop:
                src, key = raw.positions[law.number]
                raise src.error(key + ("drop",), f"law {law.number} drops provisions, but {code_id} extends no "
                                "code to inherit them from")
    params = bind_parameters(root / code_id, code_id, parent.params if parent_id else None,  # type: ignore[arg-type]
                             [lw.number for lw in laws], _rel(root, root / code_id / "parameters.yaml"))
    code = Code(
        id=code_id, title=raw.meta["title"], authority=raw.meta["authority"], year=raw.meta["year"],
        game=raw.meta["game"], players=raw.meta.get("players", 4), extends=parent_id,
        sources=tuple(raw.meta["source"] if isinstance(raw.meta["source"], list) else [raw.meta["source"]]),
        laws=tuple(laws), params=params, omitted=tuple(omitted), folder=str(root / code_id),
    )
    return _compile_code(code, raw)


def _resolve(parent: Code, raw: RawCode) -> tuple[list[Law], list[str]]:
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
            laws[index[law.number]] = _inherit(parent.law(law.number), law, raw)
            continue
        anchor = raw.after.get(law.number)
        src, key = raw.positions[law.number]
        if law.drop:
            raise src.error(key + ("drop",), f"law {law.number} is not in {parent.id}: it has no provisions to drop")
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


def _inherit(parent_law: Law | None, law: Law, raw: RawCode) -> Law:
    """A restated law keeps the parent's provisions, in the parent's order, each replaced by the child's
    provision of the same id or left out when ``drop:`` names it; the child's new provisions follow."""
    if parent_law is None:  # pragma: no cover - the caller found it
        return law
    src, key = raw.positions[law.number]
    parent_ids = [p[2]["id"] for p in parent_law.raw_provisions]
    own = {p[2]["id"]: p for p in law.raw_provisions}
    for j, pid in enumerate(law.drop):
        if pid not in parent_ids:
            raise src.error(key + ("drop", j), f"'drop' names {pid!r}, which law {law.number} of the parent code "
                            "does not have" + did_you_mean(pid, parent_ids)
                            + (f"; its provisions are {', '.join(parent_ids)}" if parent_ids else "; it has none"))
        if pid in own:
            osrc, okey, _, _ = own[pid]
            raise osrc.error(okey + ("id",), f"provision {pid!r} is both restated here and dropped (drop: at "
                             f"{src.path}:{src.mark(key + ('drop', j)).line}): keep one")
        if law.drop.index(pid) != j:
            raise src.error(key + ("drop", j), f"'drop' names {pid!r} twice")
    gone = set(law.drop)
    merged = [own.get(p[2]["id"], p) for p in parent_law.raw_provisions if p[2]["id"] not in gone]
    merged += [p for p in law.raw_provisions if p[2]["id"] not in parent_ids]
    return _replace(law, raw_provisions=tuple(merged))


def _replace(law: Law, raw_provisions: tuple[RawProvision, ...] | None = None,
             provisions: tuple[Provision, ...] | None = None) -> Law:
    return Law(law.number, law.heading, law.text, law.topics, law.footnotes, law.binding, law.missing, law.note,
               law.printed_number, law.differences, law.file, law.code,
               law.raw_provisions if raw_provisions is None else raw_provisions,
               law.provisions if provisions is None else provisions, law.drop)


# --------------------------------------------------------------------------
# Compiling provisions (after resolution, with the resolved code's parameters)


def _where(src: Source, key: tuple[Any, ...], field_name: str, text: str = "") -> Where:
    m = src.mark(key)
    return Where(src.path, m.line, m.column, src.lines, field_name, text, src.locator(key) if text else None)


def _at(src: Source, key: tuple[Any, ...]) -> str:
    m = src.mark(key)
    return f"{src.path}:{m.line}:{m.column}"


def _compile_code(code: Code, raw: RawCode) -> Code:
    from .precedence import check_precedence

    common, kinds = load_kinds(str(laws_dir()))
    ids: dict[str, tuple[Source, tuple[Any, ...]]] = {}
    compiled_laws: list[Law] = []
    by_kind: dict[str, list[Provision]] = {}
    placed: dict[str, tuple[Provision, Source, tuple[Any, ...]]] = {}
    for law in code.laws:
        provs: list[Provision] = []
        for src, key, spec, origin in law.raw_provisions:
            pid = spec["id"]
            if pid in ids:
                osrc, okey = ids[pid]
                raise src.error(key + ("id",), f"provision id {pid!r} is used twice in {code.id} "
                                f"(also at {osrc.path}:{osrc.mark(okey).line})")
            ids[pid] = (src, key)
            with recording(_learnt(src)):
                prov = _compile_provision(code, law, src, key, spec, common, kinds, origin)
            for j, fn in enumerate(prov.footnotes):
                if fn not in dict(law.footnotes):
                    raise src.error(key + ("footnotes", j), f"law {law.number} of {code.id} has no footnote {fn!r}"
                                    + (f"; it has {', '.join(dict(law.footnotes))}" if law.footnotes else "")
                                    + (f" (the provision is inherited from {origin}: restate it, drop it, or give "
                                       "the law its footnotes)" if origin != code.id else ""))
            provs.append(prov)
            placed[pid] = (prov, src, key)
            for k in prov.kinds:
                by_kind.setdefault(k, []).append(prov)
        compiled_laws.append(_replace(law, provisions=tuple(provs)))
    check_precedence(placed)
    restated = code.seats.check_inherited(code.id, placed, kinds)
    return Code(
        id=code.id, title=code.title, authority=code.authority, year=code.year, game=code.game,
        players=code.players, extends=code.extends, sources=code.sources, laws=tuple(compiled_laws),
        params=code.params, omitted=code.omitted, by_kind={k: tuple(v) for k, v in by_kind.items()},
        folder=code.folder, restated=restated,
    )


def _meet(a: Type, b: Type) -> Type | None:
    """The type a fact has in both of two kinds: the same type, or a call where one kind knows it is a bid."""
    if a == b:
        return a
    if {a.name, b.name} == {"call", "bid"}:
        return CALL
    return None


_ENVS: dict[tuple[int, int, tuple[str, ...]], tuple[Any, Env]] = {}


def _env_for(kind_ids: list[str], common: Mapping[str, FactSpec], kinds: Mapping[str, Kind],
             params: Mapping[str, Any]) -> Env:
    """Common facts, and the facts that every kind the provision answers has (with one type)."""
    key = (id(kinds), id(params), tuple(kind_ids))
    hit = _ENVS.get(key)
    if hit is not None and hit[0][0] is kinds and hit[0][1] is params:
        return hit[1]
    env = _build_env(kind_ids, common, kinds, params)
    _ENVS[key] = ((kinds, params), env)
    return env


def _build_env(kind_ids: list[str], common: Mapping[str, FactSpec], kinds: Mapping[str, Kind],
               params: Mapping[str, Any]) -> Env:
    facts: dict[str, Type] = {n: f.type for n, f in common.items()}
    first = kinds[kind_ids[0]].facts
    shared: dict[str, Type] = {n: f.type for n, f in first.items()}
    for k in kind_ids[1:]:
        other = kinds[k].facts
        met = {n: _meet(t, other[n].type) for n, t in shared.items() if n in other}
        shared = {n: t for n, t in met.items() if t is not None}
    facts.update(shared)
    return Env(facts, params)


def _compile_provision(code: Code, law: Law, src: Source, key: tuple[Any, ...], spec: Mapping[str, Any],
                       common: Mapping[str, FactSpec], kinds: Mapping[str, Kind], origin: str) -> Provision:
    kind_ids = list(spec["kinds"])
    for j, k in enumerate(kind_ids):
        if k not in kinds:
            raise src.error(key + ("kinds", j), f"unknown irregularity kind {k!r}" + did_you_mean(k, kinds)
                            + "; kinds are listed in laws/kinds.yaml (`bridgelaw kinds`)")
        if kind_ids.index(k) != j:
            raise src.error(key + ("kinds", j), f"kind {k!r} is listed twice")
    env = _env_for(kind_ids, common, kinds, code.params)
    when_raw = spec.get("when", True)
    needs: set[str] = set()
    if when_raw is True or when_raw == "true":
        tree, when = None, constant(True)
        when_text = "true"
    elif when_raw is False:
        raise src.error(key + ("when",), "a provision that never applies ('when: false'): remove it, or say "
                        "when it applies", ConditionError)
    else:
        when_text = str(when_raw)
        tree, when = compile_condition(when_text, env, _where(src, key + ("when",), "when", when_text))
        needs |= names_used(tree)
    # where the condition holds, the calls it shows to be bids are bids for the effects and options too
    env = env.knowing(guarded_bids(tree)) if tree is not None else env
    effects = tuple(_compile_effect(src, key + ("effects", j), e, env, tree, code)
                    for j, e in enumerate(spec.get("effects") or []))
    phases = tuple(dict.fromkeys(kinds[k].phase for k in kind_ids))
    committed = tuple(dict.fromkeys((kinds[k].phase, kinds[k].offender_tree) for k in kind_ids))
    options: list[OptionSpec] = []
    chooser = None
    chooser_trees: tuple[Expr, ...] = ()
    chooser_text = ""
    own = bool(spec.get("own_choice", False))
    if spec.get("options"):
        chooser, chooser_trees, chooser_text = _compile_chooser(code, src, key, spec["chooser"], env, tree, committed,
                                                                own)
        seen: set[str] = set()
        for j, o in enumerate(spec["options"]):
            if o["id"] in seen:
                raise src.error(key + ("options", j, "id"), f"option id {o['id']!r} is used twice in this provision")
            seen.add(o["id"])
            owhen = None
            oenv = env
            if o.get("when"):
                otree, owhen = compile_condition(o["when"], env, _where(src, key + ("options", j, "when"), "when",
                                                                       o["when"]))
                oenv = env.knowing(guarded_bids(otree))
            options.append(OptionSpec(
                o["id"], render_label(o.get("label", ""), code.params, src, key + ("options", j, "label")),  # type: ignore[arg-type]
                tuple(_compile_effect(src, key + ("options", j, "effects", n), e, oenv, tree, code)
                      for n, e in enumerate(o["effects"])),
                owhen, o.get("when", ""),
            ))
    elif own:
        raise src.error(key + ("own_choice",), "own_choice says whose choice the options are, but this provision "
                        "has no options")
    if not effects and not options:
        raise src.error(key, f"provision {spec['id']!r} needs 'effects' or 'options' (use kind no_penalty or "
                             "discretion where the law prescribes nothing)")
    return Provision(
        id=spec["id"], full_id=f"{origin}/{law.number}/{spec['id']}", law=law.number,
        clause=str(spec.get("clause", "")), kinds=tuple(kind_ids), when_text=when_text, when_tree=tree, when=when,
        effects=effects, chooser_text=chooser_text, chooser=chooser, options=tuple(options),
        overrides=tuple(spec.get("overrides") or ()), footnotes=tuple(spec.get("footnotes") or ()),
        notes=tuple(spec.get("notes") or ()), cites=tuple(spec.get("cites") or ()), needs=frozenset(needs),
        when_shown=describe(tree) if tree is not None else "true", needs_sorted=tuple(sorted(needs)),
        chooser_trees=chooser_trees, chooser_at=_at(src, key + ("chooser",)) if chooser is not None else "",
        own_choice=own, phases=phases, at=_at(src, key),
    )


def _compile_chooser(code: Code, src: Source, key: tuple[Any, ...], raw: Any, env: Env, when: Expr | None,
                     committed: tuple[tuple[str, Expr | None], ...], own: bool) -> tuple[Compiled, tuple[Expr, ...], str]:
    """A chooser: one seat or side expression, or a list of seat expressions ("either other player").
    Where the seating alone shows it can never be an innocent player, that is an error here."""
    items = raw if isinstance(raw, list) else [raw]
    keys = [key + ("chooser", i) for i in range(len(items))] if isinstance(raw, list) else [key + ("chooser",)]
    trees: list[Expr] = []
    fns: list[Compiled] = []
    for text, k in zip(items, keys):
        where = _where(src, k, "chooser", text)
        ctree, fn = compile_condition(text, env, where, want=None)
        ctype = check(ctree, env, where)
        if isinstance(raw, list) and ctype.name != "seat":
            raise where.at(ctree.line, ctree.column, f"a chooser list names players, each a seat; got a {ctype} "
                           "(for either player of a side, write the side alone: opponents(offender))")
        if ctype.name not in ("seat", "side"):
            raise where.at(ctree.line, ctree.column, f"chooser must be a seat or a side, got a {ctype}")
        shown = describe(ctree)
        if shown in (describe(t) for t in trees):
            raise where.at(ctree.line, ctree.column, f"the chooser list names {shown} twice")
        trees.append(ctree)
        fns.append(fn)
        if not own:
            for phase, offender in committed:
                fault = chooser_faults(code.seats, phase, when, (ctree,), code.params, offender)
                if fault is not None:
                    raise where.at(ctree.line, ctree.column,
                                   f"{shown!r} {fault.describe()}; a remedy is chosen by an innocent player "
                                   "of the code (where the law leaves a choice to the offender himself, say "
                                   "own_choice: true)")
    if isinstance(raw, list):
        text = "[" + ", ".join(describe(t) for t in trees) + "]"
        return partial(_each, tuple(fns)), tuple(trees), text
    return fns[0], tuple(trees), str(raw)


def _each(fns: tuple[Compiled, ...], f: Any) -> tuple[Any, ...]:
    """A list chooser's value: each of its expressions'."""
    return tuple(fn(f) for fn in fns)


def _compile_effect(src: Source, key: tuple[Any, ...], spec: Mapping[str, Any], env: Env,
                    when: Expr | None = None, code: Code | None = None) -> EffectSpec:
    kind = EffectKind(spec["kind"])
    allowed = EFFECT_FIELDS[kind]
    fields: list[tuple[str, Any, Compiled | None]] = []
    trees: dict[str, Expr] = {}
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
        if not isinstance(ftype, Type):  # pragma: no cover - every field type the vocabulary has is a Type or literal
            raise src.error(key + (name,), f"effect {kind.value}.{name} is of a type the loader does not know")
        if isinstance(value, (bool, int, float)):
            _check_literal_number(src, key + (name,), kind, name, ftype, value)
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
        tree, fn = compile_condition(str(value), env, _where(src, key + (name,), name, str(value)), want=ftype)
        trees[name] = tree
        fields.append((name, str(value), fn))
    for name, (_, required) in allowed.items():
        if required and name not in spec:
            raise src.error(key, f"effect {kind.value!r} needs field {name!r}")
    for group in vocabulary().kind(kind.value).one_of:
        if sum(name in spec for name in group) != 1:
            spec_of = vocabulary().kind(kind.value).field
            raise src.error(key, f"effect {kind.value!r} needs exactly one of " + " or ".join(
                f"{n} ({d})" if (d := getattr(spec_of(n), "description", "")) else n for n in group))
    for a, b in DISTINCT_FIELDS.get(kind, ()):
        if a in spec and b in spec:
            _check_distinct(src, key, kind, a, b, spec, trees, when, env, code)
    return EffectSpec(kind, tuple(fields))


#: Fields of an effect that count something and cannot be below zero (the vocabulary's ``count: true``: a score's
#: points may be below zero, a law may deduct points from a score), and fields that must name different things (a
#: transfer from a side to itself is no transfer: the vocabulary's ``differs_from``), from schema/effects.yaml.
COUNT_FIELDS, DISTINCT_FIELDS = field_checks()


def _check_literal_number(src: Source, key: tuple[Any, ...], kind: EffectKind, name: str, ftype: Type,
                          value: Any) -> None:
    """A number or true/false written as an effect field must be of the field's type: ``points: true`` is no
    number, and a count below zero turns a penalty round."""
    want_bool = ftype.name == "bool"
    if isinstance(value, bool) != want_bool or isinstance(value, float) or (not want_bool and ftype.name != "int"):
        got = ("true or false" if isinstance(value, bool) else "a number")
        raise src.error(key, f"{kind.value}.{name} is a {ftype}, got {got} ({value!r})")
    if not want_bool and value < 0 and name in COUNT_FIELDS.get(kind, ()):
        raise src.error(key, f"{kind.value}.{name} is {value}: a count below zero; the effect names who gains, "
                        "and how many (0 or more)")


def _check_distinct(src: Source, key: tuple[Any, ...], kind: EffectKind, a: str, b: str, spec: Mapping[str, Any],
                    trees: Mapping[str, Expr], when: Expr | None, env: Env, code: Code | None) -> None:
    from .conditions import Lit
    from .seats import Seat, U, evaluate

    def expr(name: str) -> Expr:
        return trees.get(name) or Lit(1, 1, spec[name])

    ta, tb = expr(a), expr(b)
    if describe(ta) == describe(tb):
        raise src.error(key + (b,), f"{kind.value} has {a} and {b} both {describe(ta)}: from a side to itself")
    if code is None:
        return
    names = names_used(ta) | names_used(tb) | (names_used(when) if when is not None else set())
    same = None
    for world in code.seats.seatings(names, (Seat.N, Seat.E, Seat.S, Seat.W), "play"):
        if when is not None and evaluate(when, world, env.params) is False:
            continue
        va, vb = evaluate(ta, world, env.params), evaluate(tb, world, env.params)
        if va is U or vb is U:
            continue
        if va != vb:
            return
        same = world
    if same is not None:
        raise src.error(key + (b,), f"{kind.value}: {a} {describe(ta)} and {b} {describe(tb)} are always the same "
                        "side wherever the condition may hold: from a side to itself")
